/*-------------------------------------------------------------------------
 *
 * log_reader.c
 *	  Privilege check, table path canonicalisation, _delta_log listing,
 *	  reading commit files line by line, and resolving log paths.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/log/log_reader.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/evp.h>

#include "catalog/pg_authid.h"
#include "common/sha2.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "common/fileio.h"
#include "common/json_util.h"
#include "format/djson_scan.h"
#include "format/objurl.h"
#include "log/actions.h"
#include "log/log_reader.h"
#include "storage/objstore.h"
#include "storage/storage_options.h"

/* GUC */
int			deltacc_max_log_file_bytes = INT_MAX;
int			deltacc_max_log_line_bytes = 256 * 1024 * 1024;

/*
 * Read buffer of the line scanner (grows for longer lines).  256 kB: large
 * enough that a read costs little beside the copy, small enough to stay in
 * a core's cache while its lines are parsed and to cost few page faults.
 */
#define DELTA_READ_CHUNK (256 * 1024)

/*
 * The line scanner's first DELTA_READ_CHUNK buffer, kept for the life of
 * the backend (allocated on first use in its own context under
 * TopMemoryContext, so it shows in pg_backend_memory_contexts).  Fresh
 * memory costs a page fault per 4 kB page on first touch, which for a
 * conflict check reading ten 1 MB commits was a quarter of all its page
 * faults; reusing one buffer pays them once per backend.  One scan at a
 * time owns it (scan_buf_busy, released in a PG_FINALLY); a scan that finds
 * it taken, or a line that outgrows it, uses a palloc'd buffer as before.
 */
static char *scan_buf = NULL;
static bool scan_buf_busy = false;

#define DELTA_VERSION_DIGITS 20

/* Installed by the catalog layer at _PG_init (see log_reader.h). */
DeltaCatalogLookup delta_catalog_lookup = NULL;

static char *delta_uri_decode(const char *in, bool *ok);
static const char *delta_strip_file_scheme(const char *path, bool *is_uri,
										   bool *foreign);

/*
 * Define deltacc.max_log_file_bytes.  Called once from _PG_init.
 */
void
log_reader_init(void)
{
	DefineCustomIntVariable("deltacc.max_log_file_bytes",
							"Largest Delta log file deltacc reads.",
							"Commit files and JSON checkpoints larger than this are refused before reading. "
							"They are streamed line by line (a single line is limited to 256MB), "
							"so memory does not grow with the file size.",
							&deltacc_max_log_file_bytes,
							INT_MAX,
							1024,
							INT_MAX,
							PGC_SUSET,
							GUC_UNIT_BYTE,
							NULL, NULL, NULL);
	DefineCustomIntVariable("deltacc.max_log_line_bytes",
							"Longest single line of a Delta log file deltacc reads.",
							"A commit, JSON checkpoint or sidecar line longer than this is refused; "
							"the line buffer never grows beyond it.",
							&deltacc_max_log_line_bytes,
							256 * 1024 * 1024,
							1024,
							(int) (MaxAllocSize / 2),
							PGC_SUSET,
							GUC_UNIT_BYTE,
							NULL, NULL, NULL);
}

/*
 * ERROR unless the current user has the privileges of pg_read_server_files.
 */
void
DeltaCheckReadPrivilege(void)
{
	if (!has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
		ereport(ERROR,
				errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("permission denied to read Delta tables"),
				errdetail("Only roles with privileges of the \"%s\" role may read Delta tables.",
						  "pg_read_server_files"));
}

/* Error context callback: 'Delta log file "<file>", line N'. */
static void
delta_error_callback(void *arg)
{
	DeltaErrorPosition *pos = (DeltaErrorPosition *) arg;

	if (pos->is_label && pos->line > 0)
		errcontext("%s, line " INT64_FORMAT, pos->file, pos->line);
	else if (pos->is_label)
		errcontext("%s", pos->file);
	else if (pos->line > 0)
		errcontext("Delta log file \"%s\", line " INT64_FORMAT,
				   pos->file, pos->line);
	else
		errcontext("Delta log file \"%s\"", pos->file);
}

/*
 * Push an error context naming 'file' (relative to the table root); the
 * caller updates pos->line and must pop it with DeltaErrorContextPop on the
 * non-error path (an ERROR unwinds error_context_stack by itself).
 */
void
DeltaErrorContextPush(DeltaErrorPosition *pos, const char *file)
{
	pos->file = file;
	pos->line = 0;
	pos->is_label = false;
	pos->cb.callback = delta_error_callback;
	pos->cb.arg = pos;
	pos->cb.previous = error_context_stack;
	error_context_stack = &pos->cb;
}

/* DeltaErrorContextPush for a label that is not a file name. */
void
DeltaErrorContextPushLabel(DeltaErrorPosition *pos, const char *label)
{
	DeltaErrorContextPush(pos, label);
	pos->is_label = true;
}

/* Pop the context pushed by DeltaErrorContextPush. */
void
DeltaErrorContextPop(DeltaErrorPosition *pos)
{
	Assert(error_context_stack == &pos->cb);
	error_context_stack = pos->cb.previous;
}

/* "_delta_log/%020lld.json", palloc'd. */
char *
DeltaCommitFileName(int64 version)
{
	return psprintf("_delta_log/%020lld.json", (long long) version);
}

/*
 * Read the whole file 'abs_path' into a NUL-terminated palloc'd buffer in
 * CurrentMemoryContext.  Refuses files above max_bytes (0 = the GUC) before
 * allocating.  Messages name 'display_name'.
 */
char *
DeltaReadWholeFile(const char *abs_path, const char *display_name,
				   Size max_bytes, Size *len_out)
{
	int			fd;
	struct stat st;
	char	   *buf;
	Size		size;
	Size		done;

	if (max_bytes == 0)
		max_bytes = (Size) deltacc_max_log_file_bytes;
	if (storage_is_remote(abs_path))
		return storage_read_object(abs_path, "Delta log file", display_name,
								   max_bytes, len_out, NULL);

	fd = DeltaOpenRegularFile(abs_path, "Delta log file", display_name, &st);
	if ((uint64) st.st_size > (uint64) max_bytes)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("Delta log file \"%s\" is too large", display_name),
				errdetail("The file has %lld bytes; the limit is %zu bytes.",
						  (long long) st.st_size, max_bytes));
	size = (Size) st.st_size;
	buf = MemoryContextAllocHuge(CurrentMemoryContext, size + 1);
	/* a file that shrank meanwhile: use what is there */
	done = DeltaReadAtMost(fd, buf, size, 0, "Delta log file", display_name);
	buf[done] = '\0';
	if (CloseTransientFile(fd) != 0)
		ereport(ERROR,
				errcode_for_file_access(),
				errmsg("could not close Delta log file \"%s\": %m", display_name));
	*len_out = done;
	return buf;
}

/*
 * Parse exactly 'ndigits' decimal digits at s into *v (false on non-digits
 * or overflow of int64).
 */
static bool
parse_digits(const char *s, int ndigits, int64 *v)
{
	int64		r = 0;
	int			i;

	for (i = 0; i < ndigits; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (r > (PG_INT64_MAX - (s[i] - '0')) / 10)
			return false;
		r = r * 10 + (s[i] - '0');
	}
	*v = r;
	return true;
}

/* True when s has exactly 'n' leading decimal digits followed by 'rest'. */
static bool
digits_then(const char *s, int n, const char *rest)
{
	int			i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return strcmp(s + n, rest) == 0;
}

/* True when s[0..36) is a UUID in 8-4-4-4-12 hex form. */
static bool
is_uuid(const char *s, size_t len)
{
	size_t		i;

	if (len != 36)
		return false;
	for (i = 0; i < 36; i++)
	{
		if (i == 8 || i == 13 || i == 18 || i == 23)
		{
			if (s[i] != '-')
				return false;
		}
		else if (!isxdigit((unsigned char) s[i]))
			return false;
	}
	return true;
}

/* See log_reader.h. */
bool
DeltaParseStagedCommitName(const char *rel_path, int64 *version)
{
	static const char prefix[] = "_delta_log/_staged_commits/";
	const char *p;

	if (strncmp(rel_path, prefix, sizeof(prefix) - 1) != 0)
		return false;
	p = rel_path + sizeof(prefix) - 1;
	if (strlen(p) != DELTA_VERSION_DIGITS + 1 + 36 + 5 ||
		p[DELTA_VERSION_DIGITS] != '.' ||
		!is_uuid(p + DELTA_VERSION_DIGITS + 1, 36) ||
		strcmp(p + DELTA_VERSION_DIGITS + 1 + 36, ".json") != 0)
		return false;
	return parse_digits(p, DELTA_VERSION_DIGITS, version);
}

/*
 * Classify a _delta_log entry.  Returns 1 for a commit (version in *version),
 * 2 for a checkpoint (fills *ck, name not set), 0 for anything to ignore.
 * A name that looks like a commit or checkpoint but whose version does not
 * fit int64 is an ERROR.
 */
static int
classify_log_name(const char *name, int64 *version, DeltaCheckpointFile *ck)
{
	size_t		len = strlen(name);
	const char *rest;
	int64		a,
				b;

	if (len < DELTA_VERSION_DIGITS + 5 || name[0] == '.')
		return 0;
	rest = name + DELTA_VERSION_DIGITS;
	if (!digits_then(name, DELTA_VERSION_DIGITS, rest))
		return 0;
	if (strcmp(rest, ".json") != 0 && strncmp(rest, ".checkpoint.", 12) != 0)
		return 0;
	if (!parse_digits(name, DELTA_VERSION_DIGITS, version))
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("invalid Delta log file name \"%s\"", name),
				errdetail("The version does not fit in a 64-bit integer."));
	if (strcmp(rest, ".json") == 0)
		return 1;

	rest += 12;					/* past ".checkpoint." */
	memset(ck, 0, sizeof(*ck));
	ck->version = *version;
	ck->part = 1;
	ck->n_parts = 1;
	if (strcmp(rest, "parquet") == 0)
	{
		ck->kind = DELTA_CKPT_CLASSIC;
		return 2;
	}
	/* multipart: %010d.%010d.parquet */
	if (strlen(rest) == 10 + 1 + 10 + 8 && rest[10] == '.' &&
		digits_then(rest + 11, 10, ".parquet") &&
		parse_digits(rest, 10, &a) && parse_digits(rest + 11, 10, &b))
	{
		if (a < 1 || b < 1 || a > b || b > PG_INT32_MAX)
			return 0;
		ck->kind = DELTA_CKPT_MULTIPART;
		ck->part = (int32) a;
		ck->n_parts = (int32) b;
		return 2;
	}
	/* v2: <uuid>.json / <uuid>.parquet */
	if (strlen(rest) == 36 + 5 && strcmp(rest + 36, ".json") == 0 &&
		is_uuid(rest, 36))
	{
		ck->kind = DELTA_CKPT_V2_JSON;
		return 2;
	}
	if (strlen(rest) == 36 + 8 && strcmp(rest + 36, ".parquet") == 0 &&
		is_uuid(rest, 36))
	{
		ck->kind = DELTA_CKPT_V2_PARQUET;
		return 2;
	}
	return 0;
}

/* qsort comparator for int64 versions. */
static int
cmp_int64(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x > y) - (x < y);
}

/* qsort comparator for checkpoints: version, kind, part, name. */
static int
cmp_checkpoint(const void *a, const void *b)
{
	const DeltaCheckpointFile *x = (const DeltaCheckpointFile *) a;
	const DeltaCheckpointFile *y = (const DeltaCheckpointFile *) b;

	if (x->version != y->version)
		return (x->version > y->version) - (x->version < y->version);
	if (x->kind != y->kind)
		return (int) x->kind - (int) y->kind;
	if (x->part != y->part)
		return x->part - y->part;
	return strcmp(x->name, y->name);
}

/*
 * Read _delta_log/_last_checkpoint into log->last_checkpoint.  A missing
 * file leaves present = false; an unreadable, oversized or corrupt one
 * leaves valid = false (it is only a hint: Delta falls back to listing).
 */
static void
read_last_checkpoint(DeltaLog *log)
{
	char	   *path = psprintf("%s/_last_checkpoint", log->log_dir);
	struct stat st;
	char	   *buf;
	Size		len;
	DjValue		v;
	const DjValue *f;
	int64		i64;
	MemoryContext tmp;
	MemoryContext old;

	if (storage_is_remote(path))
	{
		StorageObjectInfo info;

		if (!storage_stat(path, &info))
			return;
		st.st_size = (off_t) info.size;
	}
	else if (!DeltaIsRegularFile(path, &st))
		return;
	log->last_checkpoint.present = true;
	if (st.st_size > 1024 * 1024)
		return;

	tmp = AllocSetContextCreate(CurrentMemoryContext,
								"deltacc _last_checkpoint context",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(tmp);
	buf = DeltaReadWholeFile(path, "_delta_log/_last_checkpoint",
							 1024 * 1024, &len);
	if (dc_json_try_parse(buf, len, &v) && v.type == DJ_OBJECT &&
		(f = dj_get(&v, "version")) != NULL && f->type == DJ_NUMBER &&
		dj_to_int64(f, &i64) && i64 >= 0)
	{
		MemoryContextSwitchTo(old);
		log->last_checkpoint.valid = true;
		log->last_checkpoint.version = i64;
		f = dj_get(&v, "size");
		if (f && f->type == DJ_NUMBER && dj_to_int64(f, &i64))
		{
			log->last_checkpoint.has_size = true;
			log->last_checkpoint.size = i64;
		}
		f = dj_get(&v, "parts");
		if (f && f->type == DJ_NUMBER && dj_to_int64(f, &i64) &&
			i64 > 0 && i64 <= PG_INT32_MAX)
		{
			log->last_checkpoint.has_parts = true;
			log->last_checkpoint.parts = (int32) i64;
		}
		log->last_checkpoint.json = pnstrdup(buf, len);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(tmp);
}

/*
 * Turn a table path argument into a canonical absolute path: file:// URIs
 * are decoded, anything not absolute is refused.  palloc'd.
 */
char *
DeltaCanonicalTablePath(const char *table_path)
{
	bool		is_uri;
	bool		foreign;
	const char *p = delta_strip_file_scheme(table_path, &is_uri, &foreign);
	char	   *path;
	size_t		len;

	if (storage_is_remote(table_path))
		return storage_canonical_url(table_path);
	if (foreign)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("unsupported Delta table location \"%s\"", table_path),
				errdetail("Only absolute server paths, file:// URIs and s3://, gs://, az:// and abfss:// URLs are supported."));
	if (is_uri)
	{
		bool		ok;

		path = delta_uri_decode(p, &ok);
		if (!ok)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("invalid Delta table URI \"%s\"", table_path));
	}
	else
		path = pstrdup(p);
	if (path[0] == '\0' || !is_absolute_path(path))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("Delta table path must be absolute: \"%s\"", table_path));
	canonicalize_path(path);
	len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = '\0';
	return path;
}

/*
 * The versions of a registered table (DeltaLogOpen, after the listing of
 * the commits before cat->first_ratified and of the checkpoints up to
 * cat->published_version, or catalog_probe): the catalog's commits, from
 * its first ratified version to its latest, follow the log's without a
 * gap.  Every version before the first ratified one (published before the
 * registration) must be readable: from its _delta_log/<v>.json, or from a
 * checkpoint at or above it (the commits before a checkpoint may have been
 * cleaned up; a checkpoint that turns out unreadable is an ERROR when it
 * is read).  The versions from the first ratified one on are read from
 * the catalog's copies whether or not they are published, so no file of
 * theirs is needed.  A version neither a file nor a checkpoint gives, or a
 * catalog state that is not contiguous, is ERRCODE_DATA_CORRUPTED naming
 * the version.
 */
static void
catalog_versions(DeltaLog *log, DeltaCatalogState *cat)
{
	int			i;
	int64		covered = -1;	/* the newest version a checkpoint holds */
	int64		missing = -1;
	int64		next = cat->loaded_from;
	int64		need = cat->first_ratified - 1; /* the last from the log */

	if (cat->n_commits != cat->latest_version - cat->loaded_from + 1 ||
		cat->loaded_from < cat->first_ratified ||
		(cat->loaded_from > cat->first_ratified && cat->fetch == NULL))
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("catalog state of Delta table \"%s\" is inconsistent",
					   log->table_path),
				errdetail("The catalog holds %d ratified commits between versions " INT64_FORMAT
						  " and " INT64_FORMAT ".",
						  cat->n_commits, cat->loaded_from,
						  cat->latest_version));
	/* every unpublished version has its row */
	if (cat->first_ratified > cat->published_version + 1)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("catalog of Delta table \"%s\" is missing ratified version " INT64_FORMAT,
					   log->table_path, cat->published_version + 1));
	/* the runs follow each other (the lookup made each run's rows so) */
	for (i = 0; i < cat->n_runs; i++)
	{
		const DeltaRatifiedRun *run = &cat->runs[i];

		if (run->n <= 0 || run->first != next ||
			run->rows[0].version != next ||
			run->rows[run->n - 1].version != next + run->n - 1)
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("catalog of Delta table \"%s\" is missing ratified version " INT64_FORMAT,
						   log->table_path, next));
		next += run->n;
	}
	if (next != cat->latest_version + 1)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("catalog of Delta table \"%s\" is missing ratified version " INT64_FORMAT,
					   log->table_path, next));

	/*
	 * The versions the JSON commits must hold: those before the first
	 * ratified one above the newest checkpoint (all listed ones are before
	 * it, the checkpoints at or below the published version).  The listing
	 * has no gap (log_open checked), so its ends say what is missing.
	 */
	for (i = 0; i < log->n_checkpoints; i++)
		covered = Max(covered, log->checkpoints[i].version);
	if (need > covered)
	{
		if (log->last_version < 0 || log->first_version > covered + 1)
			missing = covered + 1;
		else if (log->last_version < need)
			missing = log->last_version + 1;
	}
	if (missing >= 0)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("Delta log is missing version " INT64_FORMAT, missing),
				errdetail("The catalog records versions up to " INT64_FORMAT
						  " as published, and neither a commit file nor a checkpoint holds version "
						  INT64_FORMAT ".",
						  cat->published_version, missing));
	if (cat->latest_version >= cat->first_ratified)
	{
		/* (JSON commits that end before a checkpoint do not reach it) */
		if (log->last_version < need)
			log->first_version = -1;
		if (log->first_version < 0)
			log->first_version = cat->first_ratified;
		log->last_version = cat->latest_version;
	}
	log->catalog = cat;
}

/*
 * catalog_probe: the log of a registered table on the server's file
 * system without listing _delta_log, when that is possible (DeltaLogOpen):
 * the catalog's copies hold every version from cat->first_ratified on, so
 * the log needs only the commits before it (published before the
 * registration): each must be a regular file _delta_log/<v>.json, stat'ed
 * from version first_ratified - 1 down to 0.  With all of them there (or
 * none needed), replay starts at version 0 and no checkpoint is ever read
 * (DeltaLogStartingState), so none is looked for; false when one is
 * missing (metadata cleanup after a checkpoint, or damage), and the
 * caller lists _delta_log instead.  An opening of a table published at
 * every version thus costs the commits before its registration, not the
 * published log: the versions ratified through the catalog cost no file
 * system call at all.
 */
static bool
catalog_probe(DeltaLog *log, const DeltaCatalogState *cat)
{
	int64		v;
	struct stat st;

	for (v = cat->first_ratified - 1; v >= 0; v--)
	{
		char	   *path = psprintf("%s/%020lld.json", log->log_dir,
									(long long) v);
		bool		ok = DeltaIsRegularFile(path, &st);

		pfree(path);
		if (!ok)
			return false;
		if ((v & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	if (cat->first_ratified > 0)
	{
		log->first_version = 0;
		log->last_version = cat->first_ratified - 1;
	}
	return true;
}

/* What the listing of _delta_log gathers (log_open). */
typedef struct LogListing
{
	DeltaLog   *log;
	DeltaCatalogState *cat;
	int64	   *versions;
	int			n_versions;
	int			cap_versions;
	int			cap_ck;
	int			n_names;		/* entries seen, of any name */
} LogListing;

/* Take one name of _delta_log into the listing. */
static void
list_add_name(LogListing *ls, const char *name)
{
	DeltaLog   *log = ls->log;
	int64		v;
	DeltaCheckpointFile ck;
	int			kind;

	CHECK_FOR_INTERRUPTS();
	ls->n_names++;
	kind = classify_log_name(name, &v, &ck);
	/*
	 * A registered table: the versions above the published one are the
	 * catalog's, and so is the state at them.  The protocol allows a
	 * checkpoint only for a version already published in _delta_log,
	 * and the catalog vouches for the published bytes up to its
	 * published version alone: a checkpoint above it (at a ratified
	 * version or beyond the latest) may have been written from files
	 * the catalog never ratified, or ratified with other bytes, so it
	 * is not trusted, and the catalog's copies are read instead.
	 */
	if (ls->cat != NULL && kind != 0 && v > ls->cat->published_version)
		return;
	/* (a commit the catalog ratified is read from the catalog's copy) */
	if (ls->cat != NULL && kind == 1 && v >= ls->cat->first_ratified)
		return;
	if (kind == 1)
	{
		if (ls->n_versions == ls->cap_versions)
		{
			ls->cap_versions *= 2;
			ls->versions = repalloc_huge(ls->versions, sizeof(int64) * ls->cap_versions);
		}
		ls->versions[ls->n_versions++] = v;
	}
	else if (kind == 2)
	{
		if (log->n_checkpoints == ls->cap_ck)
		{
			ls->cap_ck *= 2;
			log->checkpoints = repalloc_huge(log->checkpoints,
											 sizeof(DeltaCheckpointFile) * ls->cap_ck);
		}
		ck.name = pstrdup(name);
		log->checkpoints[log->n_checkpoints++] = ck;
	}
}

/* StorageListFn of list_add_name */
static void
list_add_object(void *arg, const char *name, const StorageObjectInfo *info)
{
	list_add_name((LogListing *) arg, name);
}

/*
 * Open a Delta table (see log_reader.h).  Lists _delta_log once; the
 * listing is a snapshot of the directory at this moment.
 */
static DeltaLog *log_open(const char *table_path, bool registering,
						  bool given, DeltaCatalogState *given_cat);

DeltaLog *
DeltaLogOpen(const char *table_path)
{
	return log_open(table_path, false, false, NULL);
}

/* See log_reader.h. */
DeltaLog *
DeltaLogOpenWithCatalog(const char *table_path, DeltaCatalogState *cat)
{
	return log_open(table_path, false, true, cat);
}

/* See log_reader.h. */
DeltaLog *
DeltaLogOpenForCatalog(const char *table_path)
{
	return log_open(table_path, true, false, NULL);
}

/* See log_reader.h. */
DeltaLog *
DeltaLogWithNewerCatalog(const DeltaLog *log, DeltaCatalogState *cat)
{
	const DeltaCatalogState *old = log->catalog;
	DeltaLog   *copy;
	int			i;

	/*
	 * What log took from _delta_log holds for a later state of the same
	 * registration: the commits before the first ratified version, and the
	 * checkpoints at or below the published version, which only grows.
	 */
	if (old == NULL || cat == NULL ||
		cat->catalog_relid != old->catalog_relid ||
		cat->registered_at != old->registered_at ||
		cat->first_ratified != old->first_ratified ||
		cat->published_version < old->published_version ||
		cat->latest_version < old->latest_version)
		return NULL;
	copy = palloc(sizeof(DeltaLog));
	*copy = *log;
	copy->staged = NULL;		/* (staged bytes are read again) */
	/* (log's versions from the first ratified one on were its catalog's) */
	if (old->latest_version >= old->first_ratified)
	{
		copy->last_version = old->first_ratified - 1;
		if (copy->first_version >= old->first_ratified)
			copy->first_version = -1;
	}
	catalog_versions(copy, cat);
	copy->latest_version = copy->last_version;
	for (i = 0; i < copy->n_checkpoints; i++)
		copy->latest_version = Max(copy->latest_version,
								   copy->checkpoints[i].version);
	return copy;
}

/*
 * DeltaLogOpen; registering: DeltaLogOpenForCatalog (no lookup, an empty
 * log allowed, the published log taken as the catalog's); given: the
 * catalog's state is given_cat (no lookup).
 */
static DeltaLog *
log_open(const char *table_path, bool registering, bool given,
		 DeltaCatalogState *given_cat)
{
	static uint64 open_count = 0;
	DeltaLog   *log;
	DIR		   *dir;
	struct dirent *de;
	struct stat st;
	int64	   *versions;
	int			n_versions = 0;
	int			i;
	DeltaCatalogState *cat;
	LogListing	ls;
	bool		remote = storage_is_remote(table_path);

	DeltaCheckReadPrivilege();

	log = palloc0(sizeof(DeltaLog));
	log->table_path = DeltaCanonicalTablePath(table_path);
	log->log_dir = psprintf("%s/_delta_log",
							strcmp(log->table_path, "/") == 0 ? "" : log->table_path);
	log->first_version = -1;
	log->last_version = -1;
	log->latest_version = -1;
	log->open_id = ++open_count;
	if (given)
		cat = given_cat;
	else
		cat = delta_catalog_lookup && !registering ?
			delta_catalog_lookup(log->table_path) : NULL;

	memset(&ls, 0, sizeof(ls));
	/* an object store: the server and user mapping for it, or an ERROR */
	if (remote)
		(void) storage_resolve(log->table_path);
	if (!remote && (stat(log->log_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
	{
		if (stat(log->table_path, &st) != 0)
		{
			int			code = DeltaFileErrcode(errno);

			ereport(ERROR,
					errcode(code),
					errmsg("could not access Delta table \"%s\": %m", table_path));
		}
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FILE),
				errmsg("\"%s\" is not a Delta table", table_path),
				errdetail("It has no \"_delta_log\" directory."));
	}

	/* a registered table: its catalog says what the log holds */
	if (cat != NULL && !remote && catalog_probe(log, cat))
	{
		/* (no checkpoint is read: _last_checkpoint is not looked at) */
		catalog_versions(log, cat);
		log->latest_version = log->last_version;
		return log;
	}

	ls.log = log;
	ls.cat = cat;
	ls.cap_versions = 64;
	ls.cap_ck = 8;
	ls.versions = palloc(sizeof(int64) * ls.cap_versions);
	log->checkpoints = palloc(sizeof(DeltaCheckpointFile) * ls.cap_ck);
	if (remote)
		(void) storage_list(log->log_dir, NULL, list_add_object, &ls);
	else
	{
		dir = AllocateDir(log->log_dir);
		while ((de = ReadDir(dir, log->log_dir)) != NULL)
			list_add_name(&ls, de->d_name);
		FreeDir(dir);
	}
	if (remote && ls.n_names == 0)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FILE),
				errmsg("\"%s\" is not a Delta table", table_path),
				errdetail("It has no objects under \"_delta_log/\"."));
	versions = ls.versions;
	n_versions = ls.n_versions;

	if (n_versions == 0 && log->n_checkpoints == 0 && cat == NULL &&
		!registering)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FILE),
				errmsg("\"%s\" is not a Delta table", table_path),
				errdetail("Directory \"_delta_log\" holds no commit or checkpoint files."));

	qsort(versions, n_versions, sizeof(int64), cmp_int64);
	for (i = 1; i < n_versions; i++)
	{
		CHECK_FOR_INTERRUPTS();
		if (versions[i] != versions[i - 1] + 1)
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("Delta log is missing version " INT64_FORMAT,
						   versions[i - 1] + 1),
					errdetail("Commit files exist for versions " INT64_FORMAT
							  " and " INT64_FORMAT " but not in between.",
							  versions[i - 1], versions[i]));
	}
	if (n_versions > 0)
	{
		log->first_version = versions[0];
		log->last_version = versions[n_versions - 1];
	}
	pfree(versions);
	if (cat != NULL)
		catalog_versions(log, cat);

	if (log->n_checkpoints > 0)
		qsort(log->checkpoints, log->n_checkpoints,
			  sizeof(DeltaCheckpointFile), cmp_checkpoint);
	log->latest_version = log->last_version;
	if (log->n_checkpoints > 0 &&
		log->checkpoints[log->n_checkpoints - 1].version > log->latest_version)
		log->latest_version = log->checkpoints[log->n_checkpoints - 1].version;

	read_last_checkpoint(log);
	/* a hint at a checkpoint that is not trusted (above) is no hint */
	if (cat != NULL && log->last_checkpoint.valid &&
		log->last_checkpoint.version > cat->published_version)
		log->last_checkpoint.valid = false;
	if (registering)
	{
		cat = palloc0(sizeof(DeltaCatalogState));
		cat->latest_version = log->latest_version;
		cat->published_version = log->latest_version;
		cat->first_ratified = log->latest_version + 1;
		cat->loaded_from = cat->first_ratified;
		log->catalog = cat;
	}
	return log;
}

/*
 * Parse one log line into a DjValue (CurrentMemoryContext); malformed JSON is
 * ERRCODE_DATA_CORRUPTED.
 */
DjValue
DeltaLogParseLine(const char *line, Size len)
{
	return dc_json_parse(line, len, "Delta log entry", ERRCODE_DATA_CORRUPTED);
}

/*
 * Parse one log line into an arena (reset first); malformed JSON is
 * ERRCODE_DATA_CORRUPTED, as in DeltaLogParseLine.
 */
DjValue
DeltaLogParseLineArena(DcArena *arena, const char *line, Size len)
{
	return dc_json_parse_arena(arena, line, len, "Delta log entry",
							   ERRCODE_DATA_CORRUPTED);
}

/*
 * What the line scanner reads: the file 'name' (relative to the table
 * root), or, when mem is set, the bytes mem[0..len) named by 'name' (a
 * file name, or a label when is_label).
 */
typedef struct ScanSource
{
	const char *name;
	const char *mem;
	Size		len;
	bool		is_label;
} ScanSource;

static void scan_action_file(DeltaLog *log, const ScanSource *src,
							 DeltaActionLineSkip skip,
							 DeltaActionLineTry try_line,
							 DeltaActionLineCallback cb, void *arg);
static void scan_action_file_buf(DeltaLog *log, const ScanSource *src,
								 DeltaActionLineSkip skip,
								 DeltaActionLineTry try_line,
								 DeltaActionLineCallback cb, void *arg,
								 char *given);

/* The source of a file: no bytes in memory. */
static ScanSource
file_source(const char *rel_path)
{
	ScanSource	src;

	memset(&src, 0, sizeof(src));
	src.name = rel_path;
	return src;
}

/*
 * The source of commit 'version' (DeltaLogCheckCommitAvailable first): the
 * catalog's copy when there is one, else _delta_log/<v>.json (the name
 * palloc'd).
 */
static ScanSource
commit_source(DeltaLog *log, int64 version)
{
	ScanSource	src;
	bool		is_file;

	DeltaLogCheckCommitAvailable(log, version);
	memset(&src, 0, sizeof(src));
	if (DeltaLogRatified(log, version) != NULL)
	{
		src.mem = DeltaLogRatifiedBytes(log, version, &src.len, &src.name,
										&is_file);
		src.is_label = !is_file;
	}
	else
		src.name = DeltaCommitFileName(version);
	return src;
}

/*
 * Stream a newline-delimited file of actions through cb, one parsed line at
 * a time (see log_reader.h).
 */
void
DeltaLogScanActionFile(DeltaLog *log, const char *rel_path,
					   DeltaActionLineCallback cb, void *arg)
{
	ScanSource	src = file_source(rel_path);

	scan_action_file(log, &src, NULL, NULL, cb, arg);
}

/* See log_reader.h. */
void
DeltaLogScanCommit(DeltaLog *log, int64 version, DeltaActionLineCallback cb,
				   void *arg)
{
	ScanSource	src = commit_source(log, version);

	scan_action_file(log, &src, NULL, NULL, cb, arg);
}

/* See log_reader.h. */
void
DeltaLogScanCommitTry(DeltaLog *log, int64 version,
					  DeltaActionLineTry try_line,
					  DeltaActionLineCallback cb, void *arg)
{
	ScanSource	src = commit_source(log, version);

	scan_action_file(log, &src, NULL, try_line, cb, arg);
}

/*
 * DeltaLogScanActionFile, but a line that try_line takes is neither parsed
 * nor passed to cb (see log_reader.h).
 */
void
DeltaLogScanActionFileTry(DeltaLog *log, const char *rel_path,
						  DeltaActionLineTry try_line,
						  DeltaActionLineCallback cb, void *arg)
{
	ScanSource	src = file_source(rel_path);

	scan_action_file(log, &src, NULL, try_line, cb, arg);
}

/*
 * The line loop of the DeltaLogScanActionFile family: skip and try_line may
 * be NULL (see log_reader.h for each).
 */
static void
scan_action_file(DeltaLog *log, const ScanSource *src,
				 DeltaActionLineSkip skip, DeltaActionLineTry try_line,
				 DeltaActionLineCallback cb, void *arg)
{
	if (scan_buf_busy)
	{
		scan_action_file_buf(log, src, skip, try_line, cb, arg, NULL);
		return;
	}
	if (scan_buf == NULL)
	{
		MemoryContext cxt = AllocSetContextCreate(TopMemoryContext,
												  "deltacc log read buffer",
												  ALLOCSET_SMALL_SIZES);

		scan_buf = MemoryContextAlloc(cxt, DELTA_READ_CHUNK);
	}
	scan_buf_busy = true;
	PG_TRY();
	{
		scan_action_file_buf(log, src, skip, try_line, cb, arg, scan_buf);
	}
	PG_FINALLY();
	{
		scan_buf_busy = false;
	}
	PG_END_TRY();
}

/*
 * scan_action_file with a given first buffer of DELTA_READ_CHUNK bytes
 * (owned by the caller, never freed here), or NULL to palloc one.
 */
static void
scan_action_file_buf(DeltaLog *log, const ScanSource *src,
					 DeltaActionLineSkip skip, DeltaActionLineTry try_line,
					 DeltaActionLineCallback cb, void *arg, char *given)
{
	const char *rel_path = src->name;
	char	   *abs_path;
	ScanSource	remote_src;
	int			fd = -1;
	Size		mem_pos = 0;	/* bytes of src->mem read so far */
	uint64		size;
	struct stat st;
	DeltaErrorPosition errpos;
	MemoryContext line_cxt;
	MemoryContext arena_cxt;
	DcArena    *arena;
	MemoryContext old;
	Size		cap = DELTA_READ_CHUNK;
	char	   *buf;
	Size		have = 0;		/* bytes in buf */
	Size		start = 0;		/* start of the current line in buf */
	int64		buf_offset = 0; /* file offset of buf[0] */
	bool		eof = false;

	if (src->is_label)
		DeltaErrorContextPushLabel(&errpos, rel_path);
	else
		DeltaErrorContextPush(&errpos, rel_path);
	if (src->mem == NULL && storage_is_remote(log->table_path))
	{
		/* an object is read whole (within the limit), then scanned */
		abs_path = psprintf("%s/%s", log->table_path, rel_path);
		remote_src = *src;
		remote_src.mem = storage_read_object(abs_path, "Delta log file",
											 rel_path,
											 (Size) deltacc_max_log_file_bytes,
											 &remote_src.len, NULL);
		pfree(abs_path);
		src = &remote_src;
	}
	if (src->mem == NULL)
	{
		abs_path = psprintf("%s/%s", log->table_path, rel_path);
		fd = DeltaOpenRegularFile(abs_path, "Delta log file", rel_path, &st);
		pfree(abs_path);
		size = (uint64) st.st_size;
	}
	else
		size = (uint64) src->len;
	if (size > (uint64) deltacc_max_log_file_bytes)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				src->is_label ?
				errmsg("%s is too large", rel_path) :
				errmsg("Delta log file \"%s\" is too large", rel_path),
				errdetail("The file has %lld bytes; the limit (deltacc.max_log_file_bytes) is %d bytes.",
						  (long long) size, deltacc_max_log_file_bytes));

	buf = given ? given : palloc(cap);
	line_cxt = AllocSetContextCreate(CurrentMemoryContext,
									 "deltacc log line context",
									 ALLOCSET_DEFAULT_SIZES);
	arena_cxt = AllocSetContextCreate(CurrentMemoryContext,
									  "deltacc log line parse arena",
									  ALLOCSET_DEFAULT_SIZES);
	arena = dc_arena_create(arena_cxt);
	for (;;)
	{
		char	   *nl;
		Size		llen;
		Size		k;

		CHECK_FOR_INTERRUPTS();
		nl = (have > start) ? memchr(buf + start, '\n', have - start) : NULL;
		if (nl == NULL && !eof)
		{
			ssize_t		n;

			/* move the partial line to the front, grow if it fills buf */
			if (start > 0)
			{
				memmove(buf, buf + start, have - start);
				have -= start;
				buf_offset += start;
				start = 0;
			}
			if (have == cap)
			{
				if (cap >= (Size) deltacc_max_log_line_bytes)
					ereport(ERROR,
							errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
							errmsg("Delta log line is too long"),
							errdetail("Lines longer than %d bytes (deltacc.max_log_line_bytes) are not read.",
									  deltacc_max_log_line_bytes));
				cap = Min(cap * 2, (Size) deltacc_max_log_line_bytes);
				if (buf == given)
				{
					/* the kept buffer stays as it is; the line moves */
					buf = palloc(cap);
					memcpy(buf, given, have);
				}
				else
					buf = repalloc(buf, cap);
			}
			if (src->mem != NULL)
			{
				n = (ssize_t) Min(cap - have, src->len - mem_pos);
				memcpy(buf + have, src->mem + mem_pos, n);
				mem_pos += (Size) n;
			}
			else
				n = read(fd, buf + have, cap - have);
			if (n < 0)
			{
				if (errno == EINTR)
					continue;
				ereport(ERROR,
						errcode_for_file_access(),
						errmsg("could not read Delta log file \"%s\": %m", rel_path));
			}
			if (n == 0)
				eof = true;
			have += (Size) n;
			continue;
		}
		if (nl == NULL && start >= have)
			break;				/* end of file */
		llen = nl ? (Size) (nl - (buf + start)) : have - start;
		errpos.line++;
		if (llen > (Size) deltacc_max_log_line_bytes)
			ereport(ERROR,
					errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("Delta log line is too long"),
					errdetail("Lines longer than %d bytes (deltacc.max_log_line_bytes) are not read.",
							  deltacc_max_log_line_bytes));
		{
			const char *line = buf + start;
			int64		line_offset = buf_offset + (int64) start;

			start += llen + (nl ? 1 : 0);
			if (llen > 0 && line[llen - 1] == '\r')
				llen--;
			for (k = 0; k < llen; k++)
				if (line[k] != ' ' && line[k] != '\t')
					break;
			if (k == llen)
				continue;		/* blank line */
			if (skip != NULL && skip(arg, line, llen))
				continue;
			if (try_line != NULL &&
				try_line(arg, line, llen, line_offset, errpos.line))
				continue;

			old = MemoryContextSwitchTo(line_cxt);
			{
				DjValue		v = DeltaLogParseLineArena(arena, line, llen);

				cb(arg, &v, line_offset, (int32) llen, errpos.line);
			}
			MemoryContextSwitchTo(old);
			MemoryContextReset(line_cxt);
		}
	}
	MemoryContextDelete(line_cxt);
	MemoryContextDelete(arena_cxt);
	if (buf != given)
		pfree(buf);
	if (fd >= 0 && CloseTransientFile(fd) != 0)
		ereport(ERROR,
				errcode_for_file_access(),
				errmsg("could not close Delta log file \"%s\": %m", rel_path));
	DeltaErrorContextPop(&errpos);
}

/* DeltaLogScanActionFile callback that decodes every action into a builder. */
static void
decode_line_cb(void *arg, const DjValue *action, int64 offset, int32 len,
			   int64 line_no)
{
	DeltaDecodeAction((DeltaCommitBuilder *) arg, action);
}

/*
 * Read a newline-delimited action file (relative to the table root) and
 * decode every line with the given decode mode, but those skip (may be
 * NULL) takes.
 */
static DeltaCommit *
read_action_file_mode(DeltaLog *log, const ScanSource *src, int64 version,
					  int mode, DeltaActionLineSkip skip)
{
	DeltaCommitBuilder b;

	DeltaCommitBuilderInit(&b, version);
	b.mode = (DeltaDecodeMode) mode;
	scan_action_file(log, src, skip, NULL, decode_line_cb, &b);
	return DeltaCommitBuilderFinish(&b);
}

/* See log_reader.h. */
DeltaCommit *
DeltaLogDecodeBytes(DeltaLog *log, const char *bytes, Size len,
					const char *name, int64 version)
{
	ScanSource	src;

	memset(&src, 0, sizeof(src));
	src.name = name;
	src.mem = bytes;
	src.len = len;
	return read_action_file_mode(log, &src, version, DELTA_DECODE_FULL, NULL);
}

/*
 * Read a newline-delimited action file (relative to the table root) and
 * decode every line (see log_reader.h).
 */
DeltaCommit *
DeltaLogReadActionFile(DeltaLog *log, const char *rel_path, int64 version)
{
	ScanSource	src = file_source(rel_path);

	return read_action_file_mode(log, &src, version, DELTA_DECODE_FULL,
								 NULL);
}

/*
 * Read and decode the JSON commit of 'version'.
 */
DeltaCommit *
DeltaLogReadCommit(DeltaLog *log, int64 version)
{
	return DeltaLogReadCommitMode(log, version, DELTA_DECODE_FULL);
}

/*
 * DeltaLogReadCommit with a decode mode (added for the conflict checker's
 * commit cache, src/commit_cache.c: DELTA_DECODE_DEFER_STATS).
 */
DeltaCommit *
DeltaLogReadCommitMode(DeltaLog *log, int64 version, int mode)
{
	return DeltaLogReadCommitSkip(log, version, mode, NULL);
}

/*
 * DeltaLogReadCommitMode, but the lines skip takes are neither parsed nor
 * decoded (see log_reader.h).
 */
DeltaCommit *
DeltaLogReadCommitSkip(DeltaLog *log, int64 version, int mode,
					   DeltaActionLineSkip skip)
{
	ScanSource	src = commit_source(log, version);

	return read_action_file_mode(log, &src, version, mode, skip);
}

/* See log_reader.h. */
const DeltaRatifiedCommit *
DeltaLogRatified(const DeltaLog *log, int64 version)
{
	const DeltaCatalogState *cat = log->catalog;

	int			lo = 0;
	int			hi;

	if (cat == NULL || version < cat->first_ratified ||
		version > cat->latest_version)
		return NULL;
	if (version < cat->loaded_from)
		return cat->fetch(log->catalog, version);
	/* the runs are contiguous (catalog_versions checked) */
	hi = cat->n_runs - 1;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo + 1) / 2;

		if (cat->runs[mid].first <= version)
			lo = mid;
		else
			hi = mid - 1;
	}
	Assert(version >= cat->runs[lo].first &&
		   version < cat->runs[lo].first + cat->runs[lo].n);
	return &cat->runs[lo].rows[version - cat->runs[lo].first];
}

/*
 * See log_reader.h.  libcrypto's digest and one context are fetched once
 * per backend and kept (a fetch looks the algorithm up among the loaded
 * providers: several times the cost of hashing a commit of a few kB); the
 * context holds no state between calls, each of which initialises it, so
 * an error half-way leaves nothing behind.
 */
void
DeltaSha256(const char *data, Size len, uint8 *out)
{
	static EVP_MD *md = NULL;
	static EVP_MD_CTX *ctx = NULL;
	unsigned int n = 0;

	if (md == NULL)
		md = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (ctx == NULL)
		ctx = EVP_MD_CTX_new();
	if (md == NULL || ctx == NULL ||
		!EVP_DigestInit_ex2(ctx, md, NULL) ||
		!EVP_DigestUpdate(ctx, data, len) ||
		!EVP_DigestFinal_ex(ctx, out, &n) || n != PG_SHA256_DIGEST_LENGTH)
	{
		const char *why = ERR_reason_error_string(ERR_get_error());

		ERR_clear_error();
		ereport(ERROR,
				errcode(ERRCODE_INTERNAL_ERROR),
				errmsg("could not compute SHA-256 hash: %s",
					   why ? why : "libcrypto failed"));
	}
}

static char *read_staged_copy(const DeltaLog *log,
							  const DeltaRatifiedCommit *rc, int64 version,
							  Size *len, const char **name);

/* A staged commit read by a DeltaLog (DeltaLogRatifiedBytes), by version. */
typedef struct DeltaStagedRead
{
	int64		version;		/* hash key */
	const char *bytes;
	Size		len;
	const char *name;			/* what they were read from */
} DeltaStagedRead;

/*
 * See log_reader.h.  A staged file is read into the DeltaLog's own memory
 * context, so that its bytes live as long as the log (the lazy snapshot
 * reads its lines again from them); the rows themselves are the lookup's.
 */
const char *
DeltaLogRatifiedBytes(DeltaLog *log, int64 version, Size *len,
					  const char **label, bool *is_file)
{
	const DeltaRatifiedCommit *rc = DeltaLogRatified(log, version);
	MemoryContext cxt = GetMemoryChunkContext(log);
	DeltaStagedRead *sr;
	bool		found;

	Assert(rc != NULL);
	*is_file = rc->staged_path != NULL;
	if (rc->staged_path == NULL)
	{
		Assert(rc->content != NULL);
		*label = psprintf("ratified commit " INT64_FORMAT " of Delta table \"%s\"",
						  version, log->table_path);
		*len = rc->content_len;
		return rc->content;
	}
	if (log->staged == NULL)
	{
		HASHCTL		ctl;

		memset(&ctl, 0, sizeof(ctl));
		ctl.keysize = sizeof(int64);
		ctl.entrysize = sizeof(DeltaStagedRead);
		ctl.hcxt = cxt;
		log->staged = hash_create("deltacc staged commits read", 16, &ctl,
								  HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	}
	sr = hash_search(log->staged, &version, HASH_ENTER, &found);
	if (!found)
	{
		MemoryContext old = MemoryContextSwitchTo(cxt);

		sr->bytes = NULL;
		PG_TRY();
		{
			sr->bytes = read_staged_copy(log, rc, version, &sr->len,
										 &sr->name);
		}
		PG_CATCH();
		{
			(void) hash_search(log->staged, &version, HASH_REMOVE, NULL);
			PG_RE_THROW();
		}
		PG_END_TRY();
		MemoryContextSwitchTo(old);
	}
	*len = sr->len;
	*label = sr->name;
	return sr->bytes;
}

/*
 * The file rel_path (relative to table_path) read whole into
 * CurrentMemoryContext, checked to hold the bytes ratified as 'version'
 * (their SHA-256), else ERRCODE_DATA_CORRUPTED naming it as 'what'.
 */
static char *
read_ratified_file(const char *table_path, const char *rel_path,
				   const char *what, int64 version, const uint8 *sha256,
				   Size *len)
{
	char	   *abs_path = psprintf("%s/%s", table_path, rel_path);
	char	   *bytes;
	uint8		hash[PG_SHA256_DIGEST_LENGTH];

	bytes = DeltaReadWholeFile(abs_path, rel_path, 0, len);
	pfree(abs_path);
	DeltaSha256(bytes, *len, hash);
	if (memcmp(hash, sha256, PG_SHA256_DIGEST_LENGTH) != 0)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("%s \"%s\" does not hold the commit ratified as version " INT64_FORMAT,
					   what, rel_path, version),
				errdetail("Its bytes changed after the catalog ratified them."));
	return bytes;
}

/* See log_reader.h. */
char *
DeltaReadStagedCommit(const char *table_path, const char *staged_path,
					  int64 version, const uint8 *sha256, Size *len)
{
	return read_ratified_file(table_path, staged_path, "staged commit file",
							  version, sha256, len);
}

/*
 * The bytes of staged commit rc (version 'version' of log) and the name
 * they were read from: the staged file; or, once the version is published
 * and the staged file is gone (a client may clean staged commits up after
 * their publication), _delta_log/<v>.json, which publish wrote from those
 * very bytes.  Either is the catalog's copy only when its bytes hash to
 * the ratified SHA-256 (else ERRCODE_DATA_CORRUPTED).
 */
static char *
read_staged_copy(const DeltaLog *log, const DeltaRatifiedCommit *rc,
				 int64 version, Size *len, const char **name)
{
	char	   *abs_path;
	struct stat st;
	bool		gone;

	*name = rc->staged_path;
	if (version > log->catalog->published_version)
		return DeltaReadStagedCommit(log->table_path, rc->staged_path,
									 version, rc->sha256, len);
	abs_path = psprintf("%s/%s", log->table_path, rc->staged_path);
	gone = lstat(abs_path, &st) != 0 && errno == ENOENT;
	pfree(abs_path);
	if (!gone)
		return DeltaReadStagedCommit(log->table_path, rc->staged_path,
									 version, rc->sha256, len);
	*name = DeltaCommitFileName(version);
	return read_ratified_file(log->table_path, *name,
							  "published Delta log file", version,
							  rc->sha256, len);
}

/*
 * ERROR (ERRCODE_INVALID_PARAMETER_VALUE) unless the JSON commit of
 * 'version' is in the listing.
 */
void
DeltaLogCheckCommitAvailable(const DeltaLog *log, int64 version)
{
	if (log->first_version < 0 || version < log->first_version ||
		version > log->last_version)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("Delta commit file for version " INT64_FORMAT " is not available",
					   version),
				log->first_version < 0 ?
				errdetail("The log holds no JSON commit files.") :
				errdetail("JSON commits are available for versions " INT64_FORMAT
						  " to " INT64_FORMAT ".",
						  log->first_version, log->last_version));
}

/*
 * Decode RFC 2396 %XX escapes (palloc'd).  *ok = false on a malformed
 * escape or an encoded NUL byte.
 */
static char *
delta_uri_decode(const char *in, bool *ok)
{
	size_t		len = strlen(in);
	char	   *out = palloc(len + 1);
	size_t		i,
				j = 0;

	*ok = true;
	for (i = 0; i < len; i++)
	{
		if (in[i] == '%')
		{
			int			h1 = (i + 2 < len) ? dj_hex_value((unsigned char) in[i + 1]) : -1;
			int			h2 = (h1 >= 0) ? dj_hex_value((unsigned char) in[i + 2]) : -1;

			if (h1 < 0 || h2 < 0 || (h1 == 0 && h2 == 0))
			{
				*ok = false;
				out[j] = '\0';
				return out;
			}
			out[j++] = (char) (h1 * 16 + h2);
			i += 2;
		}
		else
			out[j++] = in[i];
	}
	out[j] = '\0';
	return out;
}

/*
 * Recognise a URI scheme at the start of path.  For file: URIs returns the
 * path part ("file:///a" and "file://localhost/a" and "file:/a" give "/a")
 * with *is_uri = true; for other schemes sets *foreign = true; for plain
 * paths returns path unchanged.
 */
static const char *
delta_strip_file_scheme(const char *path, bool *is_uri, bool *foreign)
{
	const char *p = path;

	*is_uri = false;
	*foreign = false;
	if (!isalpha((unsigned char) *p))
		return path;
	while (isalnum((unsigned char) *p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	if (*p != ':')
		return path;
	if (p - path != 4 || pg_strncasecmp(path, "file", 4) != 0)
	{
		*foreign = true;
		return path;
	}
	*is_uri = true;
	p++;						/* past ':' */
	if (p[0] == '/' && p[1] == '/')
	{
		p += 2;
		if (pg_strncasecmp(p, "localhost/", 10) == 0)
			p += 9;
		else if (*p != '/')
		{
			*foreign = true;	/* file://host/... */
			return path;
		}
	}
	return p;
}

/*
 * Whether p is a plain relative path: not empty, no scheme, escape or
 * backslash (no ':', '%' or '\\'), not absolute, and no component that
 * is empty, "." or "..".  Joined to a canonical table root (not "/") it
 * is canonical as it is: delta_resolve's result, without its work.
 */
static bool
plain_relative(const char *p)
{
	if (*p == '\0' || *p == '/')
		return false;
	for (;;)
	{
		/* one component (libc's strcspn takes many bytes at a time) */
		Size		n = strcspn(p, "/:%\\");
		char		stop = p[n];

		if (stop == ':' || stop == '%' || stop == '\\')
			return false;
		if (n == 0 || (n == 1 && p[0] == '.') ||
			(n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (stop == '\0')
			return true;
		p += n + 1;
	}
}

/*
 * Shared part of resolve/normalise.  Returns the canonical absolute path,
 * or NULL with *why set (1 = bad escape, 2 = foreign scheme, 3 = escapes
 * the root).
 */
static char *delta_resolve_general(const DeltaLog *log,
								   const char *path_in_log, int *why);

static char *delta_resolve_remote(const DeltaLog *log,
								  const char *path_in_log, int *why);

static char *
delta_resolve(const DeltaLog *log, const char *path_in_log, int *why)
{
	char	   *r;

	if (storage_is_remote(log->table_path))
		return delta_resolve_remote(log, path_in_log, why);
	if (!plain_relative(path_in_log) || strcmp(log->table_path, "/") == 0)
		return delta_resolve_general(log, path_in_log, why);
	/* the common case: what the general way makes of it (root/path) */
	*why = 0;
	{
		size_t		rootlen = strlen(log->table_path);
		size_t		len = strlen(path_in_log);

		r = palloc(rootlen + len + 2);
		memcpy(r, log->table_path, rootlen);
		r[rootlen] = '/';
		memcpy(r + rootlen + 1, path_in_log, len + 1);
	}
#ifdef USE_ASSERT_CHECKING
	{
		int			w;
		char	   *g = delta_resolve_general(log, path_in_log, &w);

		Assert(w == 0 && g != NULL && strcmp(g, r) == 0);
		pfree(g);
	}
#endif
	return r;
}

/* delta_resolve for any path. */
static char *
delta_resolve_general(const DeltaLog *log, const char *path_in_log, int *why)
{
	bool		is_uri;
	bool		foreign;
	bool		ok;
	const char *p = delta_strip_file_scheme(path_in_log, &is_uri, &foreign);
	char	   *decoded;
	char	   *result;
	size_t		rootlen = strlen(log->table_path);

	*why = 0;
	if (foreign)
	{
		*why = 2;
		return NULL;
	}
	decoded = delta_uri_decode(p, &ok);
	if (!ok || decoded[0] == '\0')
	{
		*why = 1;
		return NULL;
	}
	if (is_absolute_path(decoded))
	{
		canonicalize_path(decoded);
		return decoded;
	}
	if (is_uri)
	{
		*why = 1;				/* "file:relative" is not a valid file URI */
		return NULL;
	}
	result = psprintf("%s/%s", log->table_path, decoded);
	pfree(decoded);
	canonicalize_path(result);
	if (path_contains_parent_reference(result) ||
		strncmp(result, log->table_path, rootlen) != 0 ||
		(result[rootlen] != '/' && strcmp(log->table_path, "/") != 0))
		*why = 3;
	return result;
}

/*
 * delta_resolve for a table in an object store: an s3:// or gs:// URL is
 * taken as it is (its own server decides whether it may be read); a
 * relative path is %-decoded and put under the table's URL, and must have
 * no empty, "." or ".." segment; a local path or another scheme is
 * refused (2).
 */
static char *
delta_resolve_remote(const DeltaLog *log, const char *path_in_log, int *why)
{
	FmtAllocator a = dc_fmt_allocator(CurrentMemoryContext);
	ObjUrl		u;
	const char *msg;
	size_t		off;
	bool		ok;
	bool		is_uri;
	bool		foreign;
	char	   *decoded;
	char	   *result;
	const char *c;

	*why = 0;
	if (storage_is_remote(path_in_log))
	{
		if (!objurl_parse(path_in_log, strlen(path_in_log), &a, &u, &msg, &off))
		{
			*why = 1;
			return NULL;
		}
		return storage_canonical_url(path_in_log);
	}
	(void) delta_strip_file_scheme(path_in_log, &is_uri, &foreign);
	if (is_uri || foreign || path_in_log[0] == '/')
	{
		*why = 2;
		return NULL;
	}
	decoded = delta_uri_decode(path_in_log, &ok);
	if (!ok || decoded[0] == '\0')
	{
		*why = 1;
		return NULL;
	}
	/* every segment a name: "..", "." and "a//b" would leave the root */
	for (c = decoded;;)
	{
		size_t		n = strcspn(c, "/");

		if (n == 0 || (n == 1 && c[0] == '.') ||
			(n == 2 && c[0] == '.' && c[1] == '.'))
		{
			*why = 3;
			return NULL;
		}
		if (c[n] == '\0')
			break;
		c += n + 1;
	}
	result = psprintf("%s/%s", log->table_path, decoded);
	if (!objurl_parse(result, strlen(result), &a, &u, &msg, &off))
	{
		*why = 1;
		return NULL;
	}
	return result;
}

/*
 * Resolve a path from a log entry to an absolute file path (see
 * log_reader.h for the rules and errors).
 */
char *
DeltaLogResolvePath(const DeltaLog *log, const char *path_in_log)
{
	int			why;
	char	   *r = delta_resolve(log, path_in_log, &why);

	if (why == 1)
		ereport(ERROR,
				errcode(ERRCODE_DATA_CORRUPTED),
				errmsg("invalid path \"%s\" in Delta log", path_in_log),
				errdetail("The path is not a valid relative path, absolute path or file URI."));
	if (why == 2)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("unsupported file location \"%s\" in Delta log", path_in_log),
				errdetail("Only paths relative to the table root, absolute paths and file:// URIs are supported."));
	if (why == 3)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("path \"%s\" in Delta log escapes the table root", path_in_log),
				errdetail("Relative paths in the log must stay inside the table directory."));
	return r;
}

/*
 * Normal form of a log path for comparisons; never raises for a bad path
 * (returns a copy of the input instead).
 */
char *
DeltaLogNormalizePath(const DeltaLog *log, const char *path_in_log)
{
	int			why;
	char	   *r = delta_resolve(log, path_in_log, &why);

	if (r == NULL)
		return pstrdup(path_in_log);
	return r;
}

/*
 * DeltaLogPathKey: see log_reader.h.  A plain relative path's normal form
 * is root + '/' + path (delta_resolve's common case), so its part below
 * the root is the path itself.
 */
DeltaPathKey
DeltaLogPathKey(const DeltaLog *log, const char *path_in_log)
{
	DeltaPathKey k;
	const char *root = log->table_path;
	size_t		rootlen = strlen(root);
	char	   *norm;
	bool		local = !storage_is_remote(root) && strcmp(root, "/") != 0;

	if (local && plain_relative(path_in_log))
	{
		k.key = path_in_log;
		k.inside = true;
#ifdef USE_ASSERT_CHECKING
		{
			char	   *n = DeltaLogNormalizePath(log, path_in_log);

			Assert(strncmp(n, root, rootlen) == 0 && n[rootlen] == '/' &&
				   strcmp(n + rootlen + 1, path_in_log) == 0);
			pfree(n);
		}
#endif
		return k;
	}
	norm = DeltaLogNormalizePath(log, path_in_log);
	if (local && strncmp(norm, root, rootlen) == 0 && norm[rootlen] == '/')
	{
		k.key = norm + rootlen + 1;
		k.inside = true;
	}
	else
	{
		k.key = norm;
		k.inside = false;
	}
	return k;
}

/*
 * DeltaPathKeyCmp: see log_reader.h.
 */
int
DeltaPathKeyCmp(const DeltaPathKey *a, const DeltaPathKey *b)
{
	if (a->inside != b->inside)
		return a->inside ? -1 : 1;
	return strcmp(a->key, b->key);
}
