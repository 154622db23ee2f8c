/*-------------------------------------------------------------------------
 *
 * snapshot_scan.c
 *	  deltacc.snapshot_files in FROM as a custom scan that makes only the
 *	  columns the query reads (see snapshot_scan.h).
 *
 * Planning: snapshot_scan_paths (the set_rel_pathlist_hook) sees a base
 * relation that is a call of snapshot_files alone (the function found by
 * its C entry point, so a renamed or re-schemaed install is found too,
 * and its result row checked to be the nine columns the scan makes), with
 * no ORDINALITY and no lateral reference, and whose columns the query
 * reads only as plain columns (no whole-row or system column).  It adds a
 * CustomPath costed as the function scan but for the tuplestore it does
 * not fill; the plan (snapshot_plan) is a CustomScan with no scan
 * relation whose scan tuple is the function's nine columns
 * (custom_scan_tlist), the function's arguments as custom_exprs and the
 * columns the query reads in custom_private.
 *
 * Execution: the EXECUTE privilege on the function is checked at start as
 * for a function scan; the first fetch evaluates the arguments and builds
 * the snapshot exactly as the function does (snapshot_files_snapshot),
 * then each fetch returns the next file, its unread columns null (a query
 * that reads none, count(*), reads no line again).  A rescan builds it
 * again.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/funcs/snapshot_scan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/pg_list.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include "funcs/snapshot_scan.h"
#include "log/log_reader.h"
#include "snapshot/loader.h"

PG_FUNCTION_INFO_V1(deltacc_snapshot_files_support);

/* the C entry point of deltacc.snapshot_files (funcs_log.c) */
extern PGDLLEXPORT Datum deltacc_snapshot_files(PG_FUNCTION_ARGS);

/* the types of the nine columns, as declared in sql/parts/10_log.sql */
static const Oid snapshot_col_types[DELTA_SNAPSHOT_NCOLS] = {
	TEXTOID, JSONBOID, INT8OID, TIMESTAMPTZOID, INT8OID, JSONBOID, JSONBOID,
	INT8OID, INT8OID
};

static set_rel_pathlist_hook_type prev_set_rel_pathlist = NULL;

/*
 * The last function OIDs found to be and not to be snapshot_files, until a
 * change to pg_proc (snapshot_scan_inval).
 */
static Oid	known_yes = InvalidOid;
static Oid	known_no = InvalidOid;

static Plan *snapshot_plan(PlannerInfo *root, RelOptInfo *rel,
						   CustomPath *best_path, List *tlist,
						   List *clauses, List *custom_plans);
static Node *snapshot_create_state(CustomScan *cscan);
static void snapshot_begin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *snapshot_exec(CustomScanState *node);
static void snapshot_end(CustomScanState *node);
static void snapshot_rescan(CustomScanState *node);
static void snapshot_explain(CustomScanState *node, List *ancestors,
							 ExplainState *es);

static const CustomPathMethods snapshot_path_methods = {
	.CustomName = "DeltaSnapshotFiles",
	.PlanCustomPath = snapshot_plan,
};

static const CustomScanMethods snapshot_scan_methods = {
	.CustomName = "DeltaSnapshotFiles",
	.CreateCustomScanState = snapshot_create_state,
};

static const CustomExecMethods snapshot_exec_methods = {
	.CustomName = "DeltaSnapshotFiles",
	.BeginCustomScan = snapshot_begin,
	.ExecCustomScan = snapshot_exec,
	.EndCustomScan = snapshot_end,
	.ReScanCustomScan = snapshot_rescan,
	.ExplainCustomScan = snapshot_explain,
};

/* The executor state of one scan. */
typedef struct SnapshotScanState
{
	CustomScanState css;
	Oid			funcid;
	List	   *args;			/* ExprStates: table_path, version */
	bool		need[DELTA_SNAPSHOT_NCOLS];	/* columns the query reads */
	bool		need_any;
	MemoryContext cxt;			/* the log and the snapshot */
	DeltaSnapshot *snap;		/* NULL: no rows (a NULL path) */
	bool		started;
	int64		next;			/* the next file to return */
} SnapshotScanState;

/*
 * snapshot_files_snapshot: see snapshot_scan.h.
 */
DeltaSnapshot *
snapshot_files_snapshot(Datum path, bool path_isnull, Datum version,
						bool version_isnull)
{
	int64		v = -1;
	DeltaLog   *log;

	DeltaCheckReadPrivilege();
	if (path_isnull)
		return NULL;
	if (!version_isnull)
	{
		v = DatumGetInt64(version);
		if (v < 0)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("version must not be negative"));
	}
	log = DeltaLogOpen(TextDatumGetCString(path));
	return DeltaSnapshotBuildLazy(log, v);
}

/* syscache callback: pg_proc changed, the OIDs found may be stale */
static void
snapshot_scan_inval(Datum arg, int cacheid, uint32 hashvalue)
{
	known_yes = InvalidOid;
	known_no = InvalidOid;
}

/*
 * is_snapshot_files: funcid is a C function whose entry point is
 * deltacc_snapshot_files (looked up as a call of it would be, once its
 * symbol's name says so).
 */
static bool
is_snapshot_files(Oid funcid)
{
	HeapTuple	tup;
	Oid			lang;
	FmgrInfo	fi;

	if (funcid == known_yes)
		return true;
	if (funcid == known_no)
		return false;
	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(funcid));
	if (!HeapTupleIsValid(tup))
		return false;
	lang = ((Form_pg_proc) GETSTRUCT(tup))->prolang;
	if (lang == ClanguageId)
	{
		/* (its symbol's name first: no other library is loaded here) */
		bool		isnull;
		Datum		src = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_prosrc,
										  &isnull);

		if (isnull || strcmp(TextDatumGetCString(src),
							 "deltacc_snapshot_files") != 0)
			lang = InvalidOid;
	}
	ReleaseSysCache(tup);
	if (lang != ClanguageId)
	{
		known_no = funcid;
		return false;
	}
	fmgr_info(funcid, &fi);
	if (fi.fn_addr != deltacc_snapshot_files)
	{
		known_no = funcid;
		return false;
	}
	known_yes = funcid;
	return true;
}

/* the function's result row is the nine columns the scan makes */
static bool
result_is_snapshot_row(FuncExpr *fexpr, TupleDesc *tupdesc_out)
{
	TupleDesc	tupdesc = get_expr_result_tupdesc((Node *) fexpr, true);
	int			k;

	if (tupdesc == NULL || tupdesc->natts != DELTA_SNAPSHOT_NCOLS)
		return false;
	for (k = 0; k < DELTA_SNAPSHOT_NCOLS; k++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, k);

		if (att->attisdropped || att->atttypid != snapshot_col_types[k])
			return false;
	}
	*tupdesc_out = tupdesc;
	return true;
}

/*
 * snapshot_scan_paths: the set_rel_pathlist_hook (see the file header).
 */
static void
snapshot_scan_paths(PlannerInfo *root, RelOptInfo *rel, Index rti,
					RangeTblEntry *rte)
{
	RangeTblFunction *rtf;
	FuncExpr   *fexpr;
	TupleDesc	tupdesc;
	Bitmapset  *attrs = NULL;
	List	   *need = NIL;
	Path	   *fpath = NULL;
	CustomPath *cp;
	ListCell   *lc;
	int			k;

	if (prev_set_rel_pathlist)
		prev_set_rel_pathlist(root, rel, rti, rte);
	if (rte->rtekind != RTE_FUNCTION || rel->reloptkind != RELOPT_BASEREL ||
		rte->funcordinality || list_length(rte->functions) != 1 ||
		!bms_is_empty(rel->lateral_relids))
		return;
	rtf = (RangeTblFunction *) linitial(rte->functions);
	if (!IsA(rtf->funcexpr, FuncExpr))
		return;
	fexpr = (FuncExpr *) rtf->funcexpr;
	if (!fexpr->funcretset || list_length(fexpr->args) != 2 ||
		!is_snapshot_files(fexpr->funcid) ||
		!result_is_snapshot_row(fexpr, &tupdesc))
		return;

	/* the columns read: plain ones only */
	pull_varattnos((Node *) rel->reltarget->exprs, rel->relid, &attrs);
	foreach(lc, rel->baserestrictinfo)
		pull_varattnos((Node *) ((RestrictInfo *) lfirst(lc))->clause,
					   rel->relid, &attrs);
	k = -1;
	while ((k = bms_next_member(attrs, k)) >= 0)
	{
		AttrNumber	attno = k + FirstLowInvalidHeapAttributeNumber;

		if (attno <= 0 || attno > DELTA_SNAPSHOT_NCOLS)
			return;				/* a whole-row or system column */
		need = lappend_int(need, attno);
	}

	/* the function scan's path, which this one costs less than */
	foreach(lc, rel->pathlist)
	{
		Path	   *p = (Path *) lfirst(lc);

		if (p->pathtype == T_FunctionScan && p->param_info == NULL)
		{
			fpath = p;
			break;
		}
	}
	if (fpath == NULL)
		return;

	cp = makeNode(CustomPath);
	cp->path.pathtype = T_CustomScan;
	cp->path.parent = rel;
	cp->path.pathtarget = rel->reltarget;
	cp->path.param_info = NULL;
	cp->path.parallel_aware = false;
	cp->path.parallel_safe = false;
	cp->path.parallel_workers = 0;
	cp->path.rows = fpath->rows;

	/*
	 * The same start-up (the snapshot is built before the first row), and
	 * the rows are made as they are read instead of stored in a tuplestore
	 * and read back: counted here as half the function scan's per-row cost.
	 */
	cp->path.startup_cost = fpath->startup_cost;
	cp->path.total_cost = fpath->startup_cost +
		(fpath->total_cost - fpath->startup_cost) / 2;
	cp->path.pathkeys = NIL;
	cp->flags = 0;
	cp->custom_paths = NIL;
	cp->custom_private = list_make1(need);
	cp->methods = &snapshot_path_methods;
	add_path(rel, &cp->path);
}

/*
 * snapshot_plan: the CustomScan of the path (PlanCustomPath).
 */
static Plan *
snapshot_plan(PlannerInfo *root, RelOptInfo *rel, CustomPath *best_path,
			  List *tlist, List *clauses, List *custom_plans)
{
	RangeTblEntry *rte = planner_rt_fetch(rel->relid, root);
	FuncExpr   *fexpr = (FuncExpr *)
		((RangeTblFunction *) linitial(rte->functions))->funcexpr;
	TupleDesc	tupdesc = get_expr_result_tupdesc((Node *) fexpr, false);
	CustomScan *cs = makeNode(CustomScan);
	List	   *scan_tlist = NIL;
	int			k;

	/* the scan tuple: the function's nine columns, as the Vars name them */
	for (k = 0; k < DELTA_SNAPSHOT_NCOLS; k++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, k);
		Var		   *v = makeVar(rel->relid, k + 1, att->atttypid,
								att->atttypmod, att->attcollation, 0);

		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry((Expr *) v, k + 1,
											 pstrdup(NameStr(att->attname)),
											 false));
	}
	cs->scan.plan.targetlist = tlist;
	cs->scan.plan.qual = extract_actual_clauses(clauses, false);
	cs->scan.scanrelid = 0;
	cs->flags = best_path->flags;
	cs->custom_plans = NIL;
	cs->custom_exprs = copyObject(fexpr->args);
	cs->custom_private = list_make2(linitial(best_path->custom_private),
									list_make1_oid(fexpr->funcid));
	cs->custom_scan_tlist = scan_tlist;
	cs->methods = &snapshot_scan_methods;
	return &cs->scan.plan;
}

/* CreateCustomScanState */
static Node *
snapshot_create_state(CustomScan *cscan)
{
	SnapshotScanState *st = palloc0(sizeof(SnapshotScanState));
	List	   *need = (List *) linitial(cscan->custom_private);
	ListCell   *lc;

	NodeSetTag(st, T_CustomScanState);
	st->css.methods = &snapshot_exec_methods;
	st->funcid = linitial_oid((List *) lsecond(cscan->custom_private));
	foreach(lc, need)
	{
		int			attno = lfirst_int(lc);

		Assert(attno >= 1 && attno <= DELTA_SNAPSHOT_NCOLS);
		st->need[attno - 1] = true;
		st->need_any = true;
	}
	return (Node *) st;
}

/* BeginCustomScan: the privilege a function scan checks, the arguments */
static void
snapshot_begin(CustomScanState *node, EState *estate, int eflags)
{
	SnapshotScanState *st = (SnapshotScanState *) node;
	CustomScan *cs = (CustomScan *) node->ss.ps.plan;
	AclResult	aclresult;

	aclresult = pg_proc_aclcheck(st->funcid, GetUserId(), ACL_EXECUTE);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, OBJECT_FUNCTION, get_func_name(st->funcid));
	InvokeFunctionExecuteHook(st->funcid);
	st->args = ExecInitExprList(cs->custom_exprs, &node->ss.ps);
	st->cxt = AllocSetContextCreate(estate->es_query_cxt,
									"deltacc snapshot_files scan",
									ALLOCSET_DEFAULT_SIZES);
}

/* the first fetch: evaluate the arguments, build the snapshot */
static void
snapshot_start(SnapshotScanState *st)
{
	ExprContext *econtext = st->css.ss.ps.ps_ExprContext;
	Datum		path;
	Datum		version;
	bool		path_isnull;
	bool		version_isnull;
	MemoryContext old;

	path = ExecEvalExpr((ExprState *) linitial(st->args), econtext,
						&path_isnull);
	version = ExecEvalExpr((ExprState *) lsecond(st->args), econtext,
						   &version_isnull);
	old = MemoryContextSwitchTo(st->cxt);
	st->snap = snapshot_files_snapshot(path, path_isnull, version,
									   version_isnull);
	MemoryContextSwitchTo(old);
	st->next = 0;
	st->started = true;
}

/* ExecScan's access method: the next file, or an empty slot */
static TupleTableSlot *
snapshot_next(ScanState *ss)
{
	SnapshotScanState *st = (SnapshotScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	int64		i;

	if (!st->started)
		snapshot_start(st);
	ExecClearTuple(slot);
	if (st->snap == NULL || st->next >= st->snap->n_files)
		return slot;
	i = st->next++;
	if (st->need_any)
	{
		/* (in per-tuple memory, which ExecScan resets before each fetch) */
		MemoryContext old =
			MemoryContextSwitchTo(ss->ps.ps_ExprContext->ecxt_per_tuple_memory);

		DeltaSnapshotFileRowValues(DeltaSnapshotGetFileExt(st->snap, i, true),
								   st->need, slot->tts_values,
								   slot->tts_isnull);
		MemoryContextSwitchTo(old);
	}
	else
		memset(slot->tts_isnull, true, sizeof(bool) * DELTA_SNAPSHOT_NCOLS);
	return ExecStoreVirtualTuple(slot);
}

/* ExecScan's recheck method: nothing to recheck (no EvalPlanQual here) */
static bool
snapshot_recheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

/* ExecCustomScan */
static TupleTableSlot *
snapshot_exec(CustomScanState *node)
{
	return ExecScan(&node->ss, snapshot_next, snapshot_recheck);
}

/* EndCustomScan: the snapshot and its open files go */
static void
snapshot_end(CustomScanState *node)
{
	SnapshotScanState *st = (SnapshotScanState *) node;

	MemoryContextDelete(st->cxt);
	st->snap = NULL;
}

/* ReScanCustomScan: the arguments may have changed, start again */
static void
snapshot_rescan(CustomScanState *node)
{
	SnapshotScanState *st = (SnapshotScanState *) node;

	MemoryContextReset(st->cxt);
	st->snap = NULL;
	st->started = false;
	st->next = 0;
	ExecScanReScan(&node->ss);
}

/* ExplainCustomScan: the function, and the columns made */
static void
snapshot_explain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	SnapshotScanState *st = (SnapshotScanState *) node;
	TupleDesc	desc = node->ss.ss_ScanTupleSlot->tts_tupleDescriptor;
	StringInfoData cols;
	int			k;

	initStringInfo(&cols);
	for (k = 0; k < DELTA_SNAPSHOT_NCOLS; k++)
		if (st->need[k])
			appendStringInfo(&cols, "%s%s", cols.len ? ", " : "",
							 NameStr(TupleDescAttr(desc, k)->attname));
	ExplainPropertyText("Function", get_func_name(st->funcid), es);
	ExplainPropertyText("Columns Made", cols.len ? cols.data : "(none)", es);
	pfree(cols.data);
}

/*
 * deltacc.snapshot_files_support(internal): the planner support function of
 * snapshot_files.  It answers no request; the planner calling it is what
 * loads this library (and so snapshot_scan_paths) before the query's paths
 * are made.
 */
Datum
deltacc_snapshot_files_support(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(NULL);
}

/*
 * snapshot_scan_init: see snapshot_scan.h.
 */
void
snapshot_scan_init(void)
{
	RegisterCustomScanMethods(&snapshot_scan_methods);
	prev_set_rel_pathlist = set_rel_pathlist_hook;
	set_rel_pathlist_hook = snapshot_scan_paths;
	CacheRegisterSyscacheCallback(PROCOID, snapshot_scan_inval, (Datum) 0);
}
