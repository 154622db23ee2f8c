/*-------------------------------------------------------------------------
 *
 * delta_actions.h
 *	  Decoded Delta log actions: the structs every other module works on.
 *
 * One DeltaCommit holds the actions of one commit file (or the state a
 * checkpoint contributes).  Strings are palloc'd, NUL-terminated, in the
 * memory context that was current when the commit was decoded; nothing
 * refers back into the raw file buffer.  JSON-valued fields that are only
 * passed through to SQL (tags, commitInfo, configuration, ...) are kept as
 * their exact JSON text; fields that drive decisions are decoded.
 *
 * "has_x" flags distinguish an absent field from a zero value.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/delta_actions.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DELTA_ACTIONS_H
#define DELTACC_DELTA_ACTIONS_H

#include "c.h"

typedef enum DeltaFileKind
{
	DELTA_FILE_ADD,
	DELTA_FILE_REMOVE,
	DELTA_FILE_CDC
} DeltaFileKind;

/* partitionValues: keys as written (physical names under column mapping). */
typedef struct DeltaPartitionValues
{
	int			n;
	bool		is_null_map;	/* the whole map was JSON null or absent */
	char	  **keys;
	char	  **values;			/* NULL entry = JSON null */
} DeltaPartitionValues;

/* A deletion-vector descriptor, as in the log (reference §4.1). */
typedef struct DeltaDV
{
	char		storage_type;	/* 'u', 'i', 'p' (others kept, and refused
								 * when read) */
	char	   *path_or_inline;
	bool		has_offset;
	int32		offset;
	int32		size_in_bytes;
	int64		cardinality;
	char	   *unique_id;		/* storageType + pathOrInlineDv [+ "@" offset] */
} DeltaDV;

typedef struct DeltaFileAction
{
	/*
	 * (Fields ordered so that no padding is wasted: a commit cache or a
	 * snapshot holds one of these per file.)
	 */
	DeltaFileKind kind;
	int16		tight_bounds;	/* -1 absent, 0 false, 1 true (pulled out of
								 * stats, with num_records) */
	bool		stats_escaped;	/* stats is not a C string but a match of
								 * dc_json_stats_match_escaped (json_util.h),
								 * valid only until the next file is decoded */
	bool		stats_include_nan;	/* a snapshot's live file: the commit that
									 * added it is one whose float/double
									 * statistics include NaN
									 * (delta_commit_stats_include_nan; set
									 * by DeltaSnapshotGetFile, false for a
									 * file from a checkpoint and for every
									 * other file action) */
	char	   *path;			/* exactly as written in the log */
	DeltaPartitionValues pv;
	int64		size;			/* valid when has_size */
	int64		modification_time;	/* ms since epoch; when
									 * has_modification_time */
	int64		deletion_timestamp; /* when has_deletion_timestamp */
	char	   *stats;			/* the "stats" JSON string, or NULL */
	char	   *stats_parsed_json;	/* checkpoint stats_parsed rendered as
									 * JSON text (when stats is absent), or
									 * NULL */
	char	   *tags_json;		/* JSON text or NULL */
	DeltaDV    *dv;				/* NULL when none */
	int64		base_row_id;	/* when has_base_row_id */
	int64		default_row_commit_version; /* when
											 * has_default_row_commit_version */
	int64		num_records;	/* numRecords of stats, when has_num_records */
	int64		version;		/* version of the commit (or checkpoint) it
								 * came from */
	bool		has_size;
	bool		has_modification_time;
	bool		data_change;	/* remove: defaults to true when absent */
	bool		has_deletion_timestamp;
	bool		extended_file_metadata;
	bool		has_base_row_id;
	bool		has_default_row_commit_version;
	bool		has_num_records;
} DeltaFileAction;

typedef struct DeltaMetadata
{
	char	   *id;
	char	   *name;			/* may be NULL */
	char	   *description;	/* may be NULL */
	char	   *format_json;	/* JSON text of "format" */
	char	   *schema_string;	/* Spark JSON schema, as a string */
	int			n_partition_columns;
	char	  **partition_columns;	/* logical names */
	int			n_configuration;
	char	  **config_keys;
	char	  **config_values;	/* NULL entry = JSON null */
	bool		has_created_time;
	int64		created_time;
} DeltaMetadata;

typedef struct DeltaProtocol
{
	int32		min_reader_version;
	int32		min_writer_version;
	int			n_reader_features;	/* -1 when the field is absent */
	char	  **reader_features;
	int			n_writer_features;	/* -1 when the field is absent */
	char	  **writer_features;
} DeltaProtocol;

/*
 * commitInfo.  The object itself is kept as its parse tree (info, a
 * struct DjValue of format/djson.h, in the commit's memory); its JSON
 * text and that of operationParameters are made when asked for
 * (DeltaCommitInfoJson, DeltaCommitInfoOperationParametersJson in
 * log/actions.h), not for every commit decoded.
 */
typedef struct DeltaCommitInfo
{
	const struct DjValue *info; /* the whole commitInfo object, or NULL
								 * when info_json holds it */
	const char *info_json;		/* (info NULL) its JSON text, as in the log,
								 * parsed when asked for (actions.h) */
	char	   *operation;		/* NULL when absent */
	int			is_blind_append;	/* -1 absent, 0 false, 1 true */
	char	   *isolation_level;	/* NULL when absent */
	bool		has_read_version;
	int64		read_version;
	char	   *engine_info;	/* NULL when absent */
	bool		has_timestamp;
	int64		timestamp;		/* ms since epoch */
	bool		has_in_commit_timestamp;
	int64		in_commit_timestamp;
	bool		identity_schema_update; /* tags."delta.identity.schemaUpdate" =
										 * "true" */
	char	   *txn_id;			/* NULL when absent */
} DeltaCommitInfo;

typedef struct DeltaTxn
{
	char	   *app_id;
	int64		txn_version;
	bool		has_last_updated;
	int64		last_updated;
} DeltaTxn;

typedef struct DeltaDomain
{
	char	   *domain;
	char	   *configuration;
	bool		removed;
} DeltaDomain;

/*
 * The actions of one commit.  Arrays are palloc'd and sized exactly;
 * files keep the order of the commit file.
 */
typedef struct DeltaCommit
{
	int64		version;
	bool		from_checkpoint;	/* state read from a checkpoint */
	int			n_files;
	DeltaFileAction *files;
	DeltaMetadata *metadata;	/* NULL when the commit has none */
	DeltaProtocol *protocol;	/* NULL when the commit has none */
	DeltaCommitInfo *commit_info;	/* NULL when the commit has none */
	int			n_txns;
	DeltaTxn   *txns;
	int			n_domains;
	DeltaDomain *domains;
	int			n_actions;		/* every action line, unknown ones included */
	/* v2 checkpoint parts (only in checkpoint / sidecar files) */
	bool		has_checkpoint_metadata;
	int			n_sidecars;
	char	  **sidecars;		/* "path" of each sidecar action */
	/* added by perfsnap: a checkpoint state read with keys only */
	bool		ckpt_keys_only; /* files lack stats and tags (see
								 * checkpoint.h DeltaCheckpointReadExt) */
	int			ckpt_first;		/* the checkpoint's files in the listing */
	int			ckpt_n;
	int64	   *sidecar_sizes;	/* its "sizeInBytes", -1 when absent (added by
								 * golden for the sidecar size cross-check) */
	/*
	 * Where the AddFiles are, for a commit checked again and again (the
	 * commit cache sets these with DeltaCommitIndexFiles; NULL otherwise):
	 * adds[0..n_adds) point at the AddFiles in files[], in order,
	 * n_removes counts the RemoveFiles, and adds_with_dv tells whether an
	 * AddFile has a deletion vector.
	 */
	const DeltaFileAction **adds;
	int			n_adds;
	int			n_removes;
	bool		adds_with_dv;
} DeltaCommit;

#endif							/* DELTACC_DELTA_ACTIONS_H */
