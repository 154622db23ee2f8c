/*-------------------------------------------------------------------------
 *
 * log_reader.h
 *	  Opening a Delta table: privilege check, path canonicalisation, the
 *	  listing of _delta_log, reading commit files line by line with an error
 *	  context naming the file and line, and resolving paths found in log
 *	  entries.
 *
 * Every function here that touches the file system requires the caller to
 * have the privileges of pg_read_server_files (checked in
 * DeltaLogOpen, so holding a DeltaLog is proof the check passed).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/log/log_reader.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_LOG_READER_H
#define DELTACC_LOG_READER_H

#include "common/sha2.h"
#include "datatype/timestamp.h"
#include "storage/fd.h"

#include "common/delta_actions.h"
#include "common/json_util.h"
#include "format/djson.h"

/* Kinds of checkpoint files found in _delta_log. */
typedef enum DeltaCheckpointKind
{
	DELTA_CKPT_CLASSIC,			/* NNN.checkpoint.parquet */
	DELTA_CKPT_MULTIPART,		/* NNN.checkpoint.K.N.parquet */
	DELTA_CKPT_V2_JSON,			/* NNN.checkpoint.<uuid>.json */
	DELTA_CKPT_V2_PARQUET		/* NNN.checkpoint.<uuid>.parquet */
} DeltaCheckpointKind;

/* One checkpoint file of the listing. */
typedef struct DeltaCheckpointFile
{
	int64		version;
	DeltaCheckpointKind kind;
	int32		part;			/* multipart: K (1-based); else 1 */
	int32		n_parts;		/* multipart: N; else 1 */
	char	   *name;			/* file name inside _delta_log */
} DeltaCheckpointFile;

/* Contents of _delta_log/_last_checkpoint (a hint only). */
typedef struct DeltaLastCheckpoint
{
	bool		present;		/* file exists */
	bool		valid;			/* parsed and has a usable "version" */
	int64		version;
	bool		has_size;
	int64		size;
	bool		has_parts;
	int32		parts;
	char	   *json;			/* the raw JSON text when valid, else NULL */
} DeltaLastCheckpoint;

/*
 * Catalog-managed tables.  A table registered with a catalog (src/coord,
 * deltacc.register_table) is read through it: the catalog's latest
 * ratified version is the table's latest version, its ratified commits
 * that are not recorded as published are read from the catalog's copy
 * (whether or not a <v>.json exists), published files above the latest
 * ratified version are ignored, and checkpoints are trusted only at
 * published versions (Delta PROTOCOL, "Catalog-managed tables").
 * The log layer knows no catalog: a higher layer installs
 * delta_catalog_lookup at _PG_init, and DeltaLogOpen asks it about every
 * table it opens.
 *
 * One ratified commit: its content inline, or the name of its staged file
 * (relative to the table root, "_delta_log/_staged_commits/<v>.<uuid>.json"),
 * with the SHA-256 of the bytes ratified either way.  A staged file is read
 * when the version is first read, and must still hold those bytes.  The
 * rows belong to the lookup (kept across opens, read-only to the log).
 */
typedef struct DeltaRatifiedCommit
{
	int64		version;
	const char *content;		/* an inline commit's bytes; NULL for a
								 * staged commit (DeltaLogRatifiedBytes
								 * reads it) */
	Size		content_len;
	const char *staged_path;	/* NULL for an inline commit */
	uint8		sha256[PG_SHA256_DIGEST_LENGTH];
} DeltaRatifiedCommit;

/* Consecutive ratified commits: rows[i] is version first + i. */
typedef struct DeltaRatifiedRun
{
	int64		first;
	int			n;
	const DeltaRatifiedCommit *rows;
} DeltaRatifiedRun;

/*
 * What the catalog says about a registered table, from one snapshot of its
 * state: the ratified commits of versions first_ratified .. latest_version.
 * These are every version whose ratified row exists, published or not: a
 * reader takes the catalog's copy of each of them and never a file of
 * that name (DESIGN, "Catalog-managed tables").  Versions before
 * first_ratified (the log published before the registration) are read
 * from _delta_log; first_ratified - 1 <= published_version, and
 * first_ratified is latest_version + 1 when the catalog ratified nothing
 * yet.  The rows of loaded_from .. latest_version (n_commits of them) are
 * in runs, in order and without a gap; those of first_ratified ..
 * loaded_from - 1 (older, committed, usually published) are read one at a
 * time when asked for (fetch, which returns the row, kept with the state,
 * or ERRORs; DeltaLogRatified calls it), so that a state costs the
 * versions the lookup does not keep, not the table's history.
 *
 * For caches above the log layer: the rows of versions first_ratified ..
 * committed_through were committed (by transactions other than the
 * current one), and a committed row of one registration (catalog_relid,
 * registered_at: the catalog table's OID and the table's registration
 * time) is the same row in every state the lookup gives: the same bytes at
 * the same version.  Versions after committed_through are the current
 * transaction's own (a rollback may take them back).
 */
typedef struct DeltaCatalogState DeltaCatalogState;

typedef const struct DeltaRatifiedCommit *(*DeltaRatifiedFetch) (DeltaCatalogState *cat,
																 int64 version);

struct DeltaCatalogState
{
	int64		latest_version; /* latest ratified, -1 when none */
	int64		published_version;	/* latest recorded as published, -1 */
	int64		first_ratified; /* first version with a ratified row */
	int64		loaded_from;	/* first version in runs */
	int			n_commits;
	int			n_runs;
	const DeltaRatifiedRun *runs;
	DeltaRatifiedFetch fetch;	/* versions first_ratified .. loaded_from - 1 */
	int64		committed_through;
	Oid			catalog_relid;
	TimestampTz registered_at;
};

/*
 * The lookup a higher layer installs: the state of the table whose
 * canonical root is table_path (palloc'd in CurrentMemoryContext; the
 * rows may be the lookup's own, read-only, kept for as long as that
 * context lives), or NULL when it is not registered (or no catalog is
 * installed in this database).  It runs after the read privilege check.
 */
typedef DeltaCatalogState *(*DeltaCatalogLookup) (const char *table_path);
extern DeltaCatalogLookup delta_catalog_lookup;

/*
 * An opened Delta table.  Everything is palloc'd in the memory context that
 * was current in DeltaLogOpen.
 */
typedef struct DeltaLog
{
	char	   *table_path;		/* canonical absolute root, no trailing '/' */
	char	   *log_dir;		/* table_path + "/_delta_log" */
	int64		first_version;	/* first JSON commit present, -1 if none */
	int64		last_version;	/* last JSON commit present, -1 if none */
	int64		latest_version; /* max(last_version, newest checkpoint), -1
								 * if the log is empty */
	int			n_checkpoints;
	DeltaCheckpointFile *checkpoints;	/* sorted by (version, part) */
	DeltaLastCheckpoint last_checkpoint;
	DeltaCatalogState *catalog; /* registered with the catalog: its state;
								 * else NULL */
	struct HTAB *staged;		/* staged commits read: their bytes, by
								 * version (DeltaLogRatifiedBytes) */
	uint64		open_id;		/* unique per DeltaLogOpen in the backend */
} DeltaLog;

/* GUC deltacc.max_log_file_bytes: largest log file read. */
extern int	deltacc_max_log_file_bytes;

/*
 * GUC deltacc.max_log_line_bytes: longest single line of a newline-delimited
 * log file (the line buffer never grows beyond it).  Added by the hostile
 * suite's owner in place of a compile-time 256MB constant.
 */
extern int	deltacc_max_log_line_bytes;

/* Define the GUCs of this module (called from _PG_init). */
extern void log_reader_init(void);

/*
 * ERROR (ERRCODE_INSUFFICIENT_PRIVILEGE) unless the current user has the
 * privileges of pg_read_server_files.  Every file-reading SQL function calls
 * this (DeltaLogOpen does it too).
 */
extern void DeltaCheckReadPrivilege(void);

/*
 * Check privileges, canonicalise table_path (absolute path or file:// URI;
 * anything else is ERRCODE_INVALID_PARAMETER_VALUE), ask the catalog
 * (delta_catalog_lookup), list _delta_log and read _last_checkpoint.
 * ERRORs: no such directory (errcode_for_file_access), version gap
 * (ERRCODE_DATA_CORRUPTED naming the missing version), no log files at all
 * on a table the catalog does not know (ERRCODE_UNDEFINED_FILE "is not a
 * Delta table").  For a registered table every version from the catalog's
 * first ratified one on is the catalog's, published or not (commit files
 * of those versions, and checkpoints above the published version, are left
 * out of the listing, and _last_checkpoint above it is not valid); a
 * version before the first ratified one that neither a commit file nor a
 * checkpoint at or above it holds is ERRCODE_DATA_CORRUPTED.  On the
 * server's file system such a table is opened without listing _delta_log
 * when the commits before the first ratified version are all there (each
 * stat'ed; then no checkpoint is needed: replay starts at version 0).
 */
extern DeltaLog *DeltaLogOpen(const char *table_path);

/*
 * DeltaLogOpen with the catalog's state given (cat, from the caller's own
 * lookup: see delta_catalog_lookup) instead of asked for; NULL: the table
 * is not registered.
 */
extern DeltaLog *DeltaLogOpenWithCatalog(const char *table_path,
										 DeltaCatalogState *cat);

/*
 * The view of log (opened with a catalog state) with the later catalog
 * state cat of the same registration (catalog_relid, registered_at, the
 * same first ratified version), published as far or further: log's
 * commits before the first ratified version and checkpoints, cat's
 * ratified commits, the same open_id (one view of the table: what was
 * checked against log holds for it).  palloc'd in CurrentMemoryContext;
 * log is unchanged.  NULL when cat is of another registration, published
 * less far, or older than log's (open the table again).  ERRORs as
 * DeltaLogOpen's for a catalog state that is not contiguous.
 */
extern DeltaLog *DeltaLogWithNewerCatalog(const DeltaLog *log,
										  DeltaCatalogState *cat);

/*
 * DeltaLogOpen for a table about to be registered with the catalog: the
 * lookup is not asked, an empty _delta_log is a table at version -1, and
 * the log is marked as read through the catalog (catalog set, with every
 * version published), so that catalogManaged is accepted.
 */
extern DeltaLog *DeltaLogOpenForCatalog(const char *table_path);

/*
 * Decode bytes[0..len) as a newline-delimited action file named 'name'
 * (a path relative to the table root, for the error context), as
 * DeltaLogReadActionFile decodes a file.  No file is read: log may be NULL.
 */
extern DeltaCommit *DeltaLogDecodeBytes(DeltaLog *log, const char *bytes,
										Size len, const char *name,
										int64 version);

/*
 * The canonical form of a table path argument (what DeltaLogOpen keys the
 * table by): palloc'd; ERRORs as DeltaLogOpen's for a bad path.  No file
 * is touched.
 */
extern char *DeltaCanonicalTablePath(const char *table_path);

/*
 * The catalog's ratified commit of 'version' when the table is read
 * through the catalog and the version has a ratified row (published or
 * not: the catalog's copy wins over the file), else NULL (the version is
 * read from _delta_log/<v>.json).
 */
extern const DeltaRatifiedCommit *DeltaLogRatified(const DeltaLog *log,
												   int64 version);

/*
 * The bytes of ratified commit 'version' (DeltaLogRatified must give it):
 * inline content as stored, a staged file read whole on first use (kept
 * with the DeltaLog, in its memory context) and checked against the
 * ratified SHA-256 (ERRCODE_DATA_CORRUPTED when it differs); a published
 * version whose staged file is gone is read from _delta_log/<v>.json,
 * checked the same way.  *label names it in messages: the file's path
 * (relative to the table root), or for an inline commit 'ratified commit
 * <v> of Delta table "<path>"' (palloc'd in CurrentMemoryContext); *is_file
 * says which.
 */
extern const char *DeltaLogRatifiedBytes(DeltaLog *log, int64 version,
										 Size *len, const char **label,
										 bool *is_file);

/*
 * Read the staged commit file staged_path (relative to the table root
 * table_path) whole into CurrentMemoryContext and check that it holds the
 * bytes ratified as 'version' (their SHA-256): else
 * ERRCODE_DATA_CORRUPTED.  Limits and errors of DeltaReadWholeFile.
 */
extern char *DeltaReadStagedCommit(const char *table_path,
								   const char *staged_path, int64 version,
								   const uint8 *sha256, Size *len);

/*
 * Whether rel_path is a staged commit's name as the protocol spells it,
 * exactly "_delta_log/_staged_commits/<20-digit version>.<uuid>.json"
 * (nothing else: no other folder, no "..", no absolute path); the version
 * in *version.
 */
extern bool DeltaParseStagedCommitName(const char *rel_path, int64 *version);

/* SHA-256 of data[0..len) into out (ERROR if the hash cannot be made). */
extern void DeltaSha256(const char *data, Size len, uint8 *out);


/*
 * Read and decode the JSON commit of 'version' (first_version <= version <=
 * last_version, else ERROR).  The result and all its strings are allocated
 * in CurrentMemoryContext; parsing uses a per-line context that is reset
 * between lines.  Malformed content raises ERRCODE_DATA_CORRUPTED (or
 * ERRCODE_INVALID_TEXT_REPRESENTATION for bad JSON/UTF-8) with the context
 * 'Delta log file "_delta_log/<name>", line N'.
 */
extern DeltaCommit *DeltaLogReadCommit(DeltaLog *log, int64 version);

/*
 * DeltaLogReadCommit with a DeltaDecodeMode of actions.h (an int here so
 * this header needs no actions.h).  Added for src/commit_cache.c, which
 * reads with DELTA_DECODE_DEFER_STATS and parses the statistics itself.
 */
extern DeltaCommit *DeltaLogReadCommitMode(DeltaLog *log, int64 version,
										   int mode);

/*
 * ERROR (ERRCODE_INVALID_PARAMETER_VALUE) unless the JSON commit of
 * 'version' is present (callers that stream commits check this first).
 */
extern void DeltaLogCheckCommitAvailable(const DeltaLog *log, int64 version);

/*
 * Read a newline-delimited file of actions (a commit, a v2 JSON checkpoint
 * or a JSON sidecar) given its path relative to the table root (e.g.
 * "_delta_log/00000000000000000002.checkpoint.<uuid>.json"); the decoded
 * actions get 'version'.  Same allocation and error rules as
 * DeltaLogReadCommit.
 */
extern DeltaCommit *DeltaLogReadActionFile(DeltaLog *log, const char *rel_path,
										   int64 version);

/*
 * Stream a newline-delimited action file (path relative to the table root)
 * line by line: each non-blank line is parsed (ERROR on bad JSON) and
 * passed to cb with its byte offset, length (without the newline) and
 * 1-based line number.  cb runs with CurrentMemoryContext set to a per-line
 * context that is reset after it returns (the DjValue lives there too), and
 * with the error context of the file and line pushed; the DjValue itself
 * lives in an arena reused for every line (valid only during cb).  Memory
 * is bounded by the longest line, not the file size.  Files above
 * deltacc.max_log_file_bytes are refused (ERRCODE_PROGRAM_LIMIT_EXCEEDED).
 */
typedef void (*DeltaActionLineCallback) (void *arg, const DjValue *action,
										 int64 offset, int32 len,
										 int64 line_no);
extern void DeltaLogScanActionFile(DeltaLog *log, const char *rel_path,
								   DeltaActionLineCallback cb, void *arg);

/*
 * (Added for src/commit_cache.c, which reads only the metaData/protocol of
 * a read version.)  DeltaLogReadCommitMode, but a non-blank line for which
 * skip(arg, line, len) returns true (arg: the DeltaCommitBuilder, which
 * skip must not touch) is neither parsed nor decoded: the commit then
 * misses what such lines hold.
 */
typedef bool (*DeltaActionLineSkip) (void *arg, const char *line, Size len);
extern DeltaCommit *DeltaLogReadCommitSkip(DeltaLog *log, int64 version,
										   int mode, DeltaActionLineSkip skip);

/*
 * (Added for log replay in src/snapshot.c.)  DeltaLogScanActionFile, but
 * each non-blank line is first offered to try_line with its offset, length
 * and line number, as cb would get them (error context of the file and
 * line pushed, CurrentMemoryContext the caller's); a line for which it
 * returns true is neither parsed nor passed to cb.
 */
typedef bool (*DeltaActionLineTry) (void *arg, const char *line, Size len,
									int64 offset, int64 line_no);
extern void DeltaLogScanActionFileTry(DeltaLog *log, const char *rel_path,
									  DeltaActionLineTry try_line,
									  DeltaActionLineCallback cb, void *arg);

/*
 * Stream the JSON commit of 'version' (DeltaLogCheckCommitAvailable first)
 * as DeltaLogScanActionFile and DeltaLogScanActionFileTry do, from its
 * file or from the catalog's copy (same decoder; offsets are positions in
 * the copy; the error context names it).
 */
extern void DeltaLogScanCommit(DeltaLog *log, int64 version,
							   DeltaActionLineCallback cb, void *arg);
extern void DeltaLogScanCommitTry(DeltaLog *log, int64 version,
								  DeltaActionLineTry try_line,
								  DeltaActionLineCallback cb, void *arg);

/*
 * Parse one log line (ERRCODE_DATA_CORRUPTED on bad JSON, DjValue in
 * CurrentMemoryContext).
 */
extern DjValue DeltaLogParseLine(const char *line, Size len);

/* Same, with the tree in an arena (reset first; see json_util.h). */
extern DjValue DeltaLogParseLineArena(DcArena *arena, const char *line,
									  Size len);

/*
 * Read a whole file into a palloc'd, NUL-terminated buffer (CurrentMemoryContext).
 * 'abs_path' must come from DeltaLogResolvePath or the listing;
 * 'display_name' names it in messages (relative to the table root when
 * possible).  Files larger than max_bytes (0 = deltacc.max_log_file_bytes)
 * are refused with ERRCODE_PROGRAM_LIMIT_EXCEEDED; *len_out gets the size.
 */
extern char *DeltaReadWholeFile(const char *abs_path, const char *display_name,
								Size max_bytes, Size *len_out);

/* "_delta_log/%020lld.json" (palloc'd). */
extern char *DeltaCommitFileName(int64 version);

/*
 * Turn a path found in a log entry (add/remove path, sidecar, DV 'p' path)
 * into an absolute canonical file path: URL-decode %XX (RFC 2396), accept
 * file:// URIs and absolute paths (the caller has pg_read_server_files),
 * resolve relative paths against the table root.  A relative path that
 * escapes the root (..) is ERRCODE_INVALID_PARAMETER_VALUE; other URI
 * schemes are ERRCODE_FEATURE_NOT_SUPPORTED; a malformed %-escape is
 * ERRCODE_DATA_CORRUPTED.  Result palloc'd in CurrentMemoryContext.
 */
extern char *DeltaLogResolvePath(const DeltaLog *log, const char *path_in_log);

/*
 * Normal form of a log path for comparisons (the conflict checker's path
 * keys): like DeltaLogResolvePath but never raises for escaping or foreign
 * paths; an undecodable or non-file URI is returned unchanged.  Two entries
 * naming the same file give equal strings.  Palloc'd in CurrentMemoryContext.
 */
extern char *DeltaLogNormalizePath(const DeltaLog *log, const char *path_in_log);

/*
 * A comparison key of a log path with the normal form's equality: two
 * paths get equal keys (the same inside flag and equal strings) exactly
 * when DeltaLogNormalizePath gives them equal strings.  The normal form of
 * a path under the table root is keyed by its part below the root
 * (inside = true), any other by the whole normal form (inside = false).  A
 * plain relative path (no scheme, escape, empty, "." or ".." component:
 * what writers put in the log) is its own key, path_in_log itself, with no
 * work and no allocation; the others are normalised (key palloc'd in
 * CurrentMemoryContext, or pointing into such a string).  The key is valid
 * as long as path_in_log and that memory are.
 */
typedef struct DeltaPathKey
{
	const char *key;
	bool		inside;
} DeltaPathKey;

extern DeltaPathKey DeltaLogPathKey(const DeltaLog *log, const char *path_in_log);

/* strcmp-style order of two keys (outside keys after inside ones) */
extern int	DeltaPathKeyCmp(const DeltaPathKey *a, const DeltaPathKey *b);

/*
 * Error-context support for anything reading a Delta file, so every message
 * ends with 'Delta log file "<file>", line N' (line omitted when 0).  Push
 * with DeltaErrorContextPush, update pos->line as you go, pop with
 * DeltaErrorContextPop.
 */
typedef struct DeltaErrorPosition
{
	const char *file;			/* relative to the table root */
	int64		line;			/* 1-based; 0 = whole file */
	bool		is_label;		/* file is no file name but a whole phrase
								 * ('ratified commit 7 of Delta table ...') */
	ErrorContextCallback cb;
} DeltaErrorPosition;

extern void DeltaErrorContextPush(DeltaErrorPosition *pos, const char *file);

/* The same, for what is not a file: the context reads '<label>, line N'. */
extern void DeltaErrorContextPushLabel(DeltaErrorPosition *pos,
									   const char *label);
extern void DeltaErrorContextPop(DeltaErrorPosition *pos);

#endif							/* DELTACC_LOG_READER_H */
