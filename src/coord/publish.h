/*-------------------------------------------------------------------------
 *
 * publish.h
 *	  Publishing ratified commits: copying them, in version order, to
 *	  _delta_log/<v>.json without ever overwriting a file, and recording
 *	  the publication.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/coord/publish.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_PUBLISH_H
#define DELTACC_PUBLISH_H

/*
 * Publish the table's committed ratifications up to through_version (all
 * of them when !has_through) and return the last published version (-1:
 * none).  A ratification of the current transaction is never published
 * (ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE: commit first); other
 * transactions' uncommitted ones are not visible to it.  An existing
 * <v>.json counts as published only when it holds the ratified bytes, else
 * ERRCODE_DATA_CORRUPTED.
 */
extern int64 catalog_publish(const char *table_path, bool has_through,
							 int64 through_version);

#endif							/* DELTACC_PUBLISH_H */
