/*-------------------------------------------------------------------------
 *
 * ratify.h
 *	  Registering a Delta table with the catalog, and ratifying commits:
 *	  the row lock, the conflict check of deltacc.conflicts against every
 *	  ratified version after the read version, and the rebase Delta does
 *	  after a successful check (in-commit timestamps, row ids and row commit
 *	  versions, the row-tracking high-water mark), all inside the caller's
 *	  transaction.
 *
 * Errors a committer acts on:
 *	- 40001 (serialization failure): a conflict (message as
 *	  deltacc.assert_no_conflict's, naming the Delta exception, the winning
 *	  version and file), a staged commit whose version is taken, or a
 *	  staged commit that would need rebasing; retry after reading the table
 *	  again (the hint says what to re-stage).
 *	- 40P01 (deadlock): PostgreSQL's, when two transactions lock two tables
 *	  in opposite orders.
 *	- 53400 (configuration limit exceeded): more than
 *	  deltacc.max_unpublished_versions versions wait to be published; run
 *	  deltacc.publish (the anchors answer HTTP 429).
 *	- 0A000 (feature not supported): a commit that cannot be rebased onto
 *	  the commits made since its read version (named in the message).
 *	- 22023 (invalid parameter value): a malformed request (no
 *	  commitInfo.txnId, a bad staged name, a version ahead of the table).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/coord/ratify.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_RATIFY_H
#define DELTACC_RATIFY_H

#include "utils/jsonb.h"

#include "check/checkdefs.h"

/* A commit request, as deltacc.commit takes it. */
typedef struct CommitRequest
{
	const char *table_path;		/* as given (canonicalised here) */
	int64		read_version;	/* -1: the table's first commit */
	Jsonb	   *actions;		/* inline content, or NULL ... */
	const char *staged_path;	/* ... with the staged file's name */
	char	  **preds;
	int			npreds;
	bool		read_whole_table;
	char	  **app_ids;
	int			napp;
	char	  **read_files;		/* NULL with nread_files -1: derived */
	int			nread_files;
	const char *isolation;		/* NULL: the table's level */
	ConflictMode mode;
} CommitRequest;

/*
 * Register the table (deltacc.register_table): its published log
 * (possibly empty) becomes the ratified history.  Returns the latest
 * version (-1 for an empty log).  ERROR (ERRCODE_DUPLICATE_OBJECT) when it
 * is registered already.
 */
extern int64 catalog_register(const char *table_path);

/*
 * Ratify a commit (deltacc.commit) and return its version; the version a
 * txnId already ratified returns that version again.
 */
extern int64 catalog_commit(const CommitRequest *req);

#endif							/* DELTACC_RATIFY_H */
