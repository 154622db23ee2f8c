/*-------------------------------------------------------------------------
 *
 * publish.c
 *	  Publishing ratified commits to _delta_log/<v>.json (see publish.h).
 *
 * A published <v>.json proves that v was ratified, to every reader, and
 * cannot be taken back; so a file is published only for a ratification
 * that has committed (durable as the database's synchronous_commit makes
 * it), strictly in version order, and never overwrites anything:
 *
 *	1. the bytes go to a temporary file in _delta_log (a name starting with
 *	   '.', which no Delta reader takes for a commit), fsync'ed;
 *	2. link() gives it the final name: it fails when <v>.json exists, so
 *	   nothing is ever replaced; an existing name counts as published only
 *	   when it is a regular file (not a symbolic link, whatever it points
 *	   to) holding exactly the ratified bytes (a publisher that crashed
 *	   after the link, or another one racing this one), else ERROR
 *	   data_corrupted;
 *	3. the directory is fsync'ed, then the temporary name removed;
 *	4. the publication is recorded (published_at, published_version) in
 *	   the caller's transaction.
 * A crash anywhere leaves at most a temporary file and a published file
 * not yet recorded, which the next publish accepts (step 2).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/coord/publish.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/timestamp.h"

#include "common/fileio.h"
#include "coord/publish.h"
#include "coord/store.h"
#include "log/log_reader.h"
#include "storage/objstore.h"

/* The largest single write. */
#define PUBLISH_WRITE_MAX (8 * 1024 * 1024)

/*
 * Mode of a published file: the read and write bits of the _delta_log
 * directory, so that whoever may read the log may read the commit (the
 * server's umask would leave it to the server's OS user alone).
 */
static mode_t
publish_mode(const char *log_dir)
{
	struct stat st;

	if (stat(log_dir, &st) != 0)
	{
		int			code = DeltaFileErrcode(errno);

		ereport(ERROR,
				errcode(code),
				errmsg("could not stat directory \"_delta_log\": %m"));
	}
	return (st.st_mode & (S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH)) | S_IRUSR | S_IWUSR;
}

/*
 * not_published_error: the ERROR for a _delta_log/<v>.json that is not the
 * commit ratified as version v ('what' says how: "with other bytes", ...),
 * left as it is.
 */
static pg_attribute_noreturn() void
not_published_error(const char *display, int64 v, const char *what)
{
	ereport(ERROR,
			errcode(ERRCODE_DATA_CORRUPTED),
			errmsg("published Delta log file \"%s\" differs from the commit ratified as version %lld",
				   display, (long long) v),
			errdetail("A file of that name exists %s; it is left as it is.", what),
			errhint("Some writer bypassed the catalog: the table needs repair."));
}

/*
 * published_already: whether _delta_log/<v>.json (the file 'path', named
 * 'display' in messages) exists and holds exactly bytes[0..len), the
 * commit ratified as version v: false when no such name exists, true when
 * it holds those bytes, and ERROR data_corrupted for anything else there
 * (other bytes, a symbolic link, a directory or any other non-regular
 * file: whatever it points to, it is not a published file), and an
 * ERROR (DeltaFileErrcode) when it cannot be examined.
 *
 * lstat, then an open with O_NOFOLLOW (a link put in its place meanwhile
 * fails with ELOOP) and O_NONBLOCK (a FIFO must not block), and fstat of
 * what was opened.  (DeltaStatRegularFile and DeltaReadWholeFile follow
 * symbolic links, as reading a table's own files may: not here.)
 */
static bool
published_already(const char *path, const char *display, int64 v,
				  const char *bytes, Size len)
{
	struct stat st;
	int			fd;
	char	   *have;
	Size		have_len;
	bool		same;

	if (lstat(path, &st) != 0)
	{
		int			code;

		if (errno == ENOENT)
			return false;
		code = DeltaFileErrcode(errno);
		ereport(ERROR,
				errcode(code),
				errmsg("could not stat Delta log file \"%s\": %m", display));
	}
	if (S_ISLNK(st.st_mode))
		not_published_error(display, v, "as a symbolic link");
	if (!S_ISREG(st.st_mode))
		not_published_error(display, v, "but is not a regular file");
	fd = OpenTransientFile(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | PG_BINARY);
	if (fd < 0)
	{
		int			code;

		if (errno == ELOOP)
			not_published_error(display, v, "as a symbolic link");
		code = DeltaFileErrcode(errno);
		ereport(ERROR,
				errcode(code),
				errmsg("could not open Delta log file \"%s\": %m", display));
	}
	if (fstat(fd, &st) != 0)
	{
		int			code = DeltaFileErrcode(errno);

		ereport(ERROR,
				errcode(code),
				errmsg("could not stat Delta log file \"%s\": %m", display));
	}
	if (!S_ISREG(st.st_mode))
		not_published_error(display, v, "but is not a regular file");
	same = (uint64) st.st_size == (uint64) len;
	if (same)
	{
		/* one byte more than expected tells a file that grew */
		have = palloc(len + 1);
		have_len = DeltaReadAtMost(fd, have, len + 1, 0, "Delta log file",
								   display);
		same = have_len == len && memcmp(have, bytes, len) == 0;
		pfree(have);
	}
	if (CloseTransientFile(fd) != 0)
		ereport(ERROR,
				errcode_for_file_access(),
				errmsg("could not close Delta log file \"%s\": %m", display));
	if (!same)
		not_published_error(display, v, "with other bytes");
	return true;
}

/* write_all: bytes[0..len) to fd, ERROR naming 'display' on failure. */
static void
write_all(int fd, const char *display, const char *bytes, Size len)
{
	Size		done = 0;

	while (done < len)
	{
		ssize_t		n;

		CHECK_FOR_INTERRUPTS();
		errno = 0;
		n = write(fd, bytes + done, Min(len - done, (Size) PUBLISH_WRITE_MAX));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
		{
			if (errno == 0)
				errno = ENOSPC; /* a short write without an error */
			ereport(ERROR,
					errcode_for_file_access(),
					errmsg("could not write file \"%s\": %m", display));
		}
		done += (Size) n;
	}
}

/*
 * publish_one: version v's bytes to <log_dir>/<v>.json (see the file
 * header).
 */
static void
publish_one(const char *log_dir, int64 v, const char *bytes, Size len)
{
	char	   *name = psprintf("%020lld.json", (long long) v);
	char	   *final = psprintf("%s/%s", log_dir, name);
	char	   *display = psprintf("_delta_log/%s", name);
	char	   *tmp;
	char	   *tmp_display;
	volatile int fd;

	if (published_already(final, display, v, bytes, len))
		return;

	tmp = psprintf("%s/.%s.%d.tmp", log_dir, name, MyProcPid);
	tmp_display = psprintf("_delta_log/.%s.%d.tmp", name, MyProcPid);
	(void) unlink(tmp);			/* left by a backend of this pid that crashed */
	fd = OpenTransientFilePerm(tmp, O_WRONLY | O_CREAT | O_EXCL | PG_BINARY,
							   S_IRUSR | S_IWUSR);
	if (fd < 0)
		ereport(ERROR,
				errcode_for_file_access(),
				errmsg("could not create file \"%s\": %m", tmp_display));
	PG_TRY();
	{
		if (fchmod(fd, publish_mode(log_dir)) != 0)
			ereport(ERROR,
					errcode_for_file_access(),
					errmsg("could not change the mode of file \"%s\": %m",
						   tmp_display));
		write_all(fd, tmp_display, bytes, len);
		if (pg_fsync(fd) != 0)
			ereport(ERROR,
					errcode_for_file_access(),
					errmsg("could not fsync file \"%s\": %m", tmp_display));
		if (CloseTransientFile(fd) != 0)
		{
			fd = -1;
			ereport(ERROR,
					errcode_for_file_access(),
					errmsg("could not close file \"%s\": %m", tmp_display));
		}
		fd = -1;
		if (link(tmp, final) != 0)
		{
			if (errno != EEXIST)
				ereport(ERROR,
						errcode_for_file_access(),
						errmsg("could not link file \"%s\" to \"%s\": %m",
							   tmp_display, display));
			/* a publisher racing this one: its file, or an ERROR */
			if (!published_already(final, display, v, bytes, len))
				ereport(ERROR,
						errcode(ERRCODE_OBJECT_IN_USE),
						errmsg("Delta log file \"%s\" came and went while it was published",
							   display),
						errhint("Publish again."));
		}
		/*
		 * (Not fsync_fname: for PostgreSQL's own files a failed fsync is a
		 * PANIC, data_sync_elevel; a table's directory failing is this
		 * call's ERROR, and the publication is not recorded.)
		 */
		if (fsync_fname_ext(log_dir, true, false, ERROR) != 0)
			ereport(ERROR,
					errcode_for_file_access(),
					errmsg("could not fsync directory \"_delta_log\": %m"));
	}
	PG_FINALLY();
	{
		if (fd >= 0)
			(void) CloseTransientFile(fd);
		(void) unlink(tmp);
	}
	PG_END_TRY();
	pfree(tmp);
	pfree(tmp_display);
	pfree(name);
	pfree(final);
	pfree(display);
}

/*
 * catalog_publish: see publish.h.
 */
int64
catalog_publish(const char *table_path, bool has_through,
				int64 through_version)
{
	char	   *path;
	char	   *log_dir;
	ManagedTable mt;
	RatifiedRow *rows;
	int			nrows;
	int64		last;
	int			i;

	catalog_check_role(CATALOG_ROLE_PUBLISH);
	path = DeltaCanonicalTablePath(table_path);
	if (storage_is_remote(path))
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("cannot publish to Delta table \"%s\" in an object store", path),
				errdetail("deltacc reads tables in object stores but does not write to them; their ratified commits stay readable through the catalog."));
	/*
	 * The rows after the published version only (it only grows: one read
	 * before the listing bounds the listing's range scan from below), so
	 * that a publish costs the versions it publishes, not the table's
	 * history.
	 */
	if (!catalog_get_table(path, false, &mt))
		catalog_not_registered(path);
	if (!catalog_list_ratified(path, mt.published_version + 1,
							   has_through ? through_version : PG_INT64_MAX,
							   true, &mt, &rows, &nrows))
		catalog_not_registered(path);
	if (has_through &&
		(through_version < -1 || through_version > mt.latest_version))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("through_version %lld is out of range",
					   (long long) through_version),
				errdetail("The table's latest ratified version is %lld.",
						  (long long) mt.latest_version));

	/* in order from the first unpublished one, none of this transaction's */
	last = mt.published_version;
	for (i = 0; i < nrows; i++)
	{
		RatifiedRow *rw = &rows[i];

		if (rw->version <= mt.published_version)
			continue;
		if (rw->version != ++last)
			ereport(ERROR,
					errcode(ERRCODE_DATA_CORRUPTED),
					errmsg("catalog of Delta table \"%s\" is missing ratified version %lld",
						   path, (long long) last));
		if (rw->mine)
			ereport(ERROR,
					errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					errmsg("cannot publish version %lld of Delta table \"%s\": the current transaction ratified it",
						   (long long) rw->version, path),
					errdetail("Only ratifications that have committed are published."),
					errhint("Publish after the transaction commits."));
	}

	log_dir = psprintf("%s/_delta_log", strcmp(path, "/") == 0 ? "" : path);
	last = mt.published_version;
	for (i = 0; i < nrows; i++)
	{
		RatifiedRow *rw = &rows[i];
		const char *bytes = rw->content;
		Size		len = rw->content_len;

		CHECK_FOR_INTERRUPTS();
		if (rw->version <= mt.published_version)
			continue;
		if (bytes == NULL)
			bytes = DeltaReadStagedCommit(path, rw->staged_path, rw->version,
										  rw->sha256, &len);
		publish_one(log_dir, rw->version, bytes, len);
		last = rw->version;
	}
	if (last > mt.published_version)
		catalog_record_published(path, mt.published_version + 1, last,
								 GetCurrentTimestamp());
	return last;
}
