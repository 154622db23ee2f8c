/*-------------------------------------------------------------------------
 *
 * fileio.c
 *	  Opening, stat'ing and reading the files of a Delta table.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/fileio.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "miscadmin.h"
#include "utils/wait_event.h"

#include "common/fileio.h"

/*
 * Largest single read of DeltaPreadLoop: a whole-file read of a big commit
 * (DeltaReadWholeFile) checks for cancel at least every 8 MB, and FileRead's
 * int count is never exceeded.
 */
#define DELTA_PREAD_MAX (8 * 1024 * 1024)

/*
 * See fileio.h.  The errnos errcode_for_file_access() leaves at XX000
 * (internal error) get a real class: a symlink loop or a device planted in
 * a table is bad input, not a bug.
 */
int
DeltaFileErrcode(int err)
{
	switch (err)
	{
		case EPERM:
		case EACCES:
		case EROFS:
			return ERRCODE_INSUFFICIENT_PRIVILEGE;
		case ENOENT:
			return ERRCODE_UNDEFINED_FILE;
		case ENOTDIR:
		case EISDIR:
		case ELOOP:
		case ENXIO:
		case ENODEV:
			return ERRCODE_WRONG_OBJECT_TYPE;
		case ENAMETOOLONG:
			return ERRCODE_NAME_TOO_LONG;
		case ENFILE:
		case EMFILE:
		case ENOMEM:
			return ERRCODE_INSUFFICIENT_RESOURCES;
		default:
			return ERRCODE_IO_ERROR;
	}
}

/*
 * The checks of DeltaOpenRegularFile and DeltaOpenRegularVfd on what the
 * open returned (fd, and the virtual file 'file' when there is one, else
 * -1): ERROR when the open failed, fstat fails or it is not a regular file.
 * The virtual file is closed before an ERROR (abort would not close it).
 */
static void
open_regular_check(int fd, File file, const char *what,
				   const char *display_name, struct stat *st)
{
	int			code;
	int			save_errno;

	if (fd < 0)
	{
		code = DeltaFileErrcode(errno);
		ereport(ERROR,
				errcode(code),
				errmsg("could not open %s \"%s\": %m", what, display_name));
	}
	if (fstat(fd, st) < 0)
	{
		save_errno = errno;
		code = DeltaFileErrcode(save_errno);
		if (file >= 0)
			FileClose(file);
		errno = save_errno;
		ereport(ERROR,
				errcode(code),
				errmsg("could not stat %s \"%s\": %m", what, display_name));
	}
	if (!S_ISREG(st->st_mode))
	{
		if (file >= 0)
			FileClose(file);
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("%s \"%s\" is not a regular file", what, display_name));
	}
}

/*
 * See fileio.h.  O_NONBLOCK: opening a FIFO planted in the table must not
 * block the backend beyond the reach of cancel; the S_ISREG check then
 * refuses it.  (No effect on regular files.)
 */
int
DeltaOpenRegularFile(const char *abs_path, const char *what,
					 const char *display_name, struct stat *st)
{
	int			fd;

	fd = OpenTransientFile(abs_path, O_RDONLY | O_NONBLOCK | PG_BINARY);
	open_regular_check(fd, -1, what, display_name, st);
	return fd;
}

/* See fileio.h. */
File
DeltaOpenRegularVfd(const char *abs_path, const char *what,
					const char *display_name, struct stat *st)
{
	File		file;

	file = PathNameOpenFile(abs_path, O_RDONLY | O_NONBLOCK | PG_BINARY);
	open_regular_check(file < 0 ? -1 : FileGetRawDesc(file), file, what,
					   display_name, st);
	return file;
}

/* See fileio.h. */
void
DeltaStatRegularFile(const char *abs_path, const char *what,
					 const char *display_name, struct stat *st)
{
	if (stat(abs_path, st) != 0)
	{
		int			code = DeltaFileErrcode(errno);

		ereport(ERROR,
				errcode(code),
				errmsg("could not stat %s \"%s\": %m", what, display_name));
	}
	if (!S_ISREG(st->st_mode))
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("%s \"%s\" is not a regular file", what, display_name));
}

/* See fileio.h. */
bool
DeltaIsRegularFile(const char *abs_path, struct stat *st)
{
	return stat(abs_path, st) == 0 && S_ISREG(st->st_mode);
}

/*
 * See fileio.h.  (FileRead retries EINTR itself.)
 */
ssize_t
DeltaPreadLoop(int fd, File file, char *buf, Size len, off_t offset)
{
	Size		done = 0;

	Assert((fd >= 0) != (file >= 0));
	while (done < len)
	{
		ssize_t		n;
		Size		chunk;

		CHECK_FOR_INTERRUPTS();
		chunk = Min(len - done, (Size) DELTA_PREAD_MAX);
		if (file >= 0)
			n = FileRead(file, buf + done, (int) chunk, offset + (off_t) done,
						 WAIT_EVENT_DATA_FILE_READ);
		else
			n = pg_pread(fd, buf + done, chunk, offset + (off_t) done);
		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;				/* end of file */
		done += (Size) n;
	}
	return (ssize_t) done;
}

/* DeltaReadAtMost and DeltaFileReadAtMost (see fileio.h). */
static Size
read_at_most(int fd, File file, char *buf, Size len, off_t offset,
			 const char *what, const char *display_name)
{
	ssize_t		done = DeltaPreadLoop(fd, file, buf, len, offset);

	if (done < 0)
		ereport(ERROR,
				errcode_for_file_access(),
				errmsg("could not read %s \"%s\": %m", what, display_name));
	return (Size) done;
}

/* See fileio.h. */
Size
DeltaReadAtMost(int fd, char *buf, Size len, off_t offset, const char *what,
				const char *display_name)
{
	return read_at_most(fd, -1, buf, len, offset, what, display_name);
}

/* See fileio.h. */
Size
DeltaFileReadAtMost(File file, char *buf, Size len, off_t offset,
					const char *what, const char *display_name)
{
	return read_at_most(-1, file, buf, len, offset, what, display_name);
}

/* See fileio.h. */
int
DeltaPqReadAt(void *ctx, uint64_t off, size_t len, void *buf)
{
	return DeltaPreadLoop(*(int *) ctx, -1, buf, len, (off_t) off) ==
		(ssize_t) len ? 0 : -1;
}

/* See fileio.h. */
int
DeltaPqReadAtVfd(void *ctx, uint64_t off, size_t len, void *buf)
{
	return DeltaPreadLoop(-1, *(File *) ctx, buf, len, (off_t) off) ==
		(ssize_t) len ? 0 : -1;
}
