/*-------------------------------------------------------------------------
 *
 * fileio.h
 *	  Reading files of a Delta table: the one open/stat/regular-file check,
 *	  the SQLSTATE of a failed file access, the pread loop, and the read-at
 *	  callbacks the Parquet reader takes.
 *
 * Nothing here checks privileges: the callers hold a DeltaLog (or called
 * DeltaCheckReadPrivilege) before they name a file.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/fileio.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_FILEIO_H
#define DELTACC_FILEIO_H

#include <stdint.h>

#include "storage/fd.h"

struct stat;

/*
 * SQLSTATE for a failed open/stat of a table file from its errno: like
 * errcode_for_file_access() but never XX000 (ELOOP, ENXIO, ... are bad
 * input).  Take it before ereport: code = DeltaFileErrcode(errno), then
 * errcode(code); errno is left alone for %m.  It is the one mapping for
 * stat'ing the files of a table and opening them for reading: every
 * function below, and every caller that does either itself, uses it.
 * (Reads of an open file, and creating, writing and fsyncing files, keep
 * errcode_for_file_access().)
 */
extern int	DeltaFileErrcode(int err);

/*
 * Open a table file for reading (OpenTransientFile, O_NONBLOCK; close it
 * with CloseTransientFile, or it is closed at transaction end) and fstat it
 * into *st.  ERRORs naming "<what> \"<display_name>\"": open or fstat
 * failure (DeltaFileErrcode), not a regular file
 * (ERRCODE_WRONG_OBJECT_TYPE).
 */
extern int	DeltaOpenRegularFile(const char *abs_path, const char *what,
								 const char *display_name, struct stat *st);

/*
 * DeltaOpenRegularFile for a file kept open across calls: a virtual file
 * (PathNameOpenFile) the caller must FileClose, typically from a reset
 * callback of the memory context that holds it.  (Transaction abort closes
 * every OpenTransientFile descriptor first, so such a callback would close
 * a stale number; abort leaves virtual files alone.)  Same checks and
 * ERRORs; the file is closed before any ERROR raised after the open.
 */
extern File DeltaOpenRegularVfd(const char *abs_path, const char *what,
								const char *display_name, struct stat *st);

/*
 * stat abs_path (following symbolic links) into *st without opening it.
 * DeltaStatRegularFile ERRORs naming "<what> \"<display_name>\"" when the
 * stat fails (DeltaFileErrcode) or the file is not regular
 * (ERRCODE_WRONG_OBJECT_TYPE).
 * DeltaIsRegularFile is the quiet form for optional files and directory
 * listings: false when the stat fails or the file is not regular.
 */
extern void DeltaStatRegularFile(const char *abs_path, const char *what,
								 const char *display_name, struct stat *st);
extern bool DeltaIsRegularFile(const char *abs_path, struct stat *st);

/*
 * The one pread loop of the project: read up to len bytes at offset into
 * the caller's buf from the raw descriptor fd (file < 0) or the virtual
 * file 'file' (fd < 0), stopping early only at end of file.  Reads at
 * most 8 MB at a time and checks for interrupts before every read.  Returns
 * the count read, or -1 with errno set on a read error.
 */
extern ssize_t DeltaPreadLoop(int fd, File file, char *buf, Size len,
							  off_t offset);

/*
 * DeltaPreadLoop on a raw descriptor (DeltaReadAtMost) or a virtual file
 * (DeltaFileReadAtMost): returns the count read (the caller decides
 * whether a short read is an error); a read error is an ERROR naming
 * "<what> \"<display_name>\"".
 */
extern Size DeltaReadAtMost(int fd, char *buf, Size len, off_t offset,
							const char *what, const char *display_name);
extern Size DeltaFileReadAtMost(File file, char *buf, Size len, off_t offset,
								const char *what, const char *display_name);

/*
 * PqReadAtFn (format/parquet.h) over an open file: ctx points to the int
 * file descriptor (DeltaPqReadAt) or to the virtual File
 * (DeltaPqReadAtVfd).  Reads exactly len bytes at off (DeltaPreadLoop);
 * returns -1 on an error or end of file (the Parquet reader then reports
 * "could not read file").  Shared by data files and checkpoints.
 */
extern int	DeltaPqReadAt(void *ctx, uint64_t off, size_t len, void *buf);
extern int	DeltaPqReadAtVfd(void *ctx, uint64_t off, size_t len, void *buf);

#endif							/* DELTACC_FILEIO_H */
