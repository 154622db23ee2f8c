/*-------------------------------------------------------------------------
 *
 * predicate.c
 *	  The read-predicate compiler: PostgreSQL's parser and expression
 *	  evaluator applied to Delta's data-skipping rules (reference §2.1,
 *	  §2.6, §3).
 *
 * A predicate text is parsed with raw_parser as "SELECT <text>" and must
 * come back as exactly one SelectStmt with one unnamed target and no other
 * clause, so nothing can be smuggled in (a second statement, FROM, WITH,
 * ...).  Its top-level AND conjuncts are transformed separately; column
 * references resolve through a pre-columnref hook to Vars over a virtual
 * row that has one attribute per schema leaf, typed by DESIGN.md's mapping
 * (strings carry COLLATE "C", and every collation in the tree is forced to
 * "C": Spark compares strings by bytes).
 *
 * Data conjuncts are compiled into keep-predicates (a small tree, KNode,
 * mirroring §3.2) and then into PostgreSQL expressions over Params that
 * carry one file's statistics: paramid 3*leaf+1 = MIN, 3*leaf+2 = MAX,
 * 3*leaf+3 = NULLCOUNT of that leaf, 3*nleaves+1 = NUMRECORDS.  Those are
 * prepared once and evaluated per file; verify(R) of §3.3 is done in C.
 *
 * Two variants are compiled per read: one for writers known to put NaN into
 * float statistics, and a NaN-safe one in which MAX-based forms on
 * float/double columns are widened to TRUE (§3.6).
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/stats/predicate.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/nbtree.h"
#include "access/stratnum.h"
#include "access/transam.h"
#include "access/tupdesc.h"
#include "catalog/pg_am.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_type.h"
#include "executor/executor.h"
#include "executor/tuptable.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/params.h"
#include "nodes/plannodes.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "parser/parse_collate.h"
#include "parser/parse_expr.h"
#include "parser/parse_node.h"
#include "parser/parser.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/ruleutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "stats/predicate.h"

#define MAX_ISNULL_DEPTH 8

typedef enum StatKind
{
	ST_MIN = 0,
	ST_MAX = 1,
	ST_NULLCOUNT = 2
} StatKind;

typedef enum KKind
{
	K_TRUE,
	K_FALSE,
	K_AND,
	K_OR,
	K_CMP,						/* stat(leaf) <op> const */
	K_PREFIX,					/* left(stat(leaf), n) <op> const */
	K_HAS_NULL,					/* nullcount(leaf) > 0 */
	K_HAS_NONNULL				/* nullcount(leaf) < numrecords */
} KKind;

typedef struct KNode
{
	KKind		kind;
	List	   *args;			/* K_AND / K_OR */
	int			leaf;
	StatKind	stat;
	int			strategy;		/* BT*StrategyNumber of "stat op const" */
	Oid			opno;
	Const	   *cst;
	int			prefix_chars;
	/* the direct evaluator (k_eval): K_CMP only */
	int			native;			/* NATIVE_* : compare the integers itself
								 * (the statistic's type) */
	int64		cst_int;		/* native: the constant as an integer */
	FmgrInfo   *finfo;			/* else: the operator's function */
	Oid			collid;			/* its input collation */
} KNode;

/* One comparison of a flat keep-predicate (see flat_eval). */
typedef struct FlatCmp
{
	int			leaf;
	bool		is_min;
	bool		widen;			/* timestamp maximum: +1 ms */
	int			native;
	int			strategy;
	int64		cst;
} FlatCmp;

/* K_CMP operands both of one of these types compare as plain integers. */
#define NATIVE_NONE 0
#define NATIVE_INT64 1			/* int8, timestamp, timestamptz */
#define NATIVE_INT32 2			/* int4, date */
#define NATIVE_INT16 3			/* int2 */

/* One compiled keep-predicate variant of a read. */
typedef struct KVariant
{
	KNode	   *k;				/* NULL: cannot skip */
	ExprState  *state;			/* of k; built on first use (variant_state) */
	int			nparts;			/* top-level AND parts */
	KNode	  **parts;
	ExprState **part_states;	/* of parts[]; each built on first use */
	bool	   *need_min;		/* by leaf */
	bool	   *need_max;
	bool	   *need_nc;
	bool		need_nr;
	bool		fast;			/* k_eval can evaluate k (no K_PREFIX) */
	int			n_flat;			/* > 0: k is an AND of these comparisons
								 * of integer-like operands (flat_eval) */
	struct FlatCmp *flat;
	int			n_need;			/* leaves with a need_* flag */
	int		   *need_leaf;
	char	   *dkey;			/* delta_read_decision_key, made with the plan */
	int			dkeylen;
} KVariant;

typedef struct ReadInfo
{
	char	   *text;
	bool		has_data;		/* some data conjunct */
	bool		has_partition_filter;
	KVariant	v[2];			/* [0] NaN-safe, [1] writer includes NaN */
	Expr	   *partition_expr; /* NULL = TRUE */
	ExprState  *partition_state;
	bool	   *partition_refs; /* by leaf */
	Expr	   *row_expr;
	ExprState  *row_state;
	List	   *notes;			/* why conjuncts were not usable (char *) */
} ReadInfo;

/*
 * A read set is a plan or an instance.  A plan (delta_readset_plan) holds
 * what compiling the texts produced: the schema, the reads' expressions,
 * keep-predicates and direct evaluators, the virtual row's descriptor.  It
 * holds no executor state, so it may outlive a statement (the session
 * cache of src/readset_cache.c keeps plans across statements).  An
 * instance (delta_readset_instance) is what the evaluators are called
 * with: a shallow copy of the plan's reads, sharing everything the plan
 * compiled, plus an executor state, parameters and a slot of its own, for
 * one statement.  The plan must outlive its instances.
 */
struct DeltaReadSet
{
	MemoryContext cxt;			/* the plan's, or the instance's own */
	MemoryContext file_cxt;		/* instance only */
	MemoryContext owned_plan;	/* instance only: a plan context to delete
								 * with it (delta_readset_compile*) */
	const DeltaSchema *schema;
	int			nreads;
	ReadInfo   *reads;
	EState	   *estate;			/* instance only */
	ParamListInfo params;		/* instance only */
	TupleDesc	rowdesc;		/* the plan's, shared (not reference counted) */
	TupleTableSlot *slot;		/* instance only */
	bool	   *wanted;			/* leaves whose stats any read needs */
	bool		utf8;
	bool		builtin_only;	/* plan: every analysed expression uses only
								 * objects created by initdb */
	uint64		serial;			/* see delta_readset_serial; 0: none */
	DeltaFileStats *last_stats;
};

/* state of the column-reference hook and the K builder */
typedef struct CompileCtx
{
	DeltaReadSet *rs;
	int			read;			/* 0-based, for messages */
	bool		nan_trusted;	/* building variant [1] */
	bool		nan_sensitive;	/* a float MAX form was widened */
	const char *sql;			/* the text given to the parser */
} CompileCtx;

static void compile_read(DeltaReadSet *rs, int i, const char *text);
static Datum widen_ts_max(Datum d);
static KNode *build_k(CompileCtx *cc, Node *e, int depth);
static char *deparse_k(const DeltaReadSet *rs, const KNode *k, bool top);
static void make_decision_key(const DeltaReadSet *rs, KVariant *v);

/* ---------------------------------------------------------------------
 * small helpers
 * ---------------------------------------------------------------------
 */

static KNode *
k_new(KKind kind)
{
	KNode	   *k = palloc0(sizeof(KNode));

	k->kind = kind;
	return k;
}

/*
 * AND (kind K_AND) or OR (K_OR) of a list of built nodes (NULL members
 * already removed): flattens nested nodes of the same kind, drops the
 * identity constant (TRUE for AND, FALSE for OR) and returns the absorbing
 * one (FALSE for AND, TRUE for OR) when a member is it.
 */
static KNode *
k_junction(KKind kind, List *args)
{
	KKind		identity = kind == K_AND ? K_TRUE : K_FALSE;
	KKind		absorbing = kind == K_AND ? K_FALSE : K_TRUE;
	List	   *flat = NIL;
	ListCell   *lc;
	KNode	   *k;

	foreach(lc, args)
	{
		KNode	   *a = lfirst(lc);

		if (a->kind == identity)
			continue;
		if (a->kind == absorbing)
			return a;
		if (a->kind == kind)
			flat = list_concat(flat, a->args);
		else
			flat = lappend(flat, a);
	}
	if (flat == NIL)
		return k_new(identity);
	if (list_length(flat) == 1)
		return linitial(flat);
	k = k_new(kind);
	k->args = flat;
	return k;
}

static KNode *
k_and(List *args)
{
	return k_junction(K_AND, args);
}

static KNode *
k_or(List *args)
{
	return k_junction(K_OR, args);
}

/* The field of a bare column reference, or NULL. */
static const DeltaField *
bare_column(CompileCtx *cc, Node *n)
{
	Var		   *v;

	if (n == NULL || !IsA(n, Var))
		return NULL;
	v = (Var *) n;
	if (v->varno != 1 || v->varlevelsup != 0 || v->varattno < 1 ||
		v->varattno > cc->rs->schema->nleaves)
		return NULL;
	return cc->rs->schema->leaves[v->varattno - 1];
}

/* Can statistics of field f be used at all (stats column, not partition)? */
static bool
field_has_stats(const DeltaField *f)
{
	return f != NULL && f->in_stats && !f->is_partition;
}

/* Can MIN/MAX of f be used? */
static bool
field_has_minmax(CompileCtx *cc, const DeltaField *f)
{
	if (!field_has_stats(f) || !f->minmax_eligible || !OidIsValid(f->pg_type))
		return false;
	if (f->kind == DELTA_TYPE_STRING && !cc->rs->utf8)
		return false;
	return true;
}

/*
 * Default btree opfamily of type t, or InvalidOid: the type cache's
 * (PostgreSQL keeps it per backend and forgets it when pg_opclass
 * changes).
 */
static Oid
btree_family(Oid t)
{
	Oid			fam;

	/*
	 * The built-in types whose family pg_opfamily_d.h names: their default
	 * operator class is pinned (it can be neither dropped nor displaced as
	 * the default), and a backend's first check spares the type cache's
	 * scan of pg_opclass.
	 */
	switch (t)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			fam = INTEGER_BTREE_FAM_OID;
			break;
		case TEXTOID:
			fam = TEXT_BTREE_FAM_OID;
			break;
		case BOOLOID:
			fam = BOOL_BTREE_FAM_OID;
			break;
		case BYTEAOID:
			fam = BYTEA_BTREE_FAM_OID;
			break;
		default:
			return lookup_type_cache(t, TYPECACHE_BTREE_OPFAMILY)->btree_opf;
	}
	Assert(lookup_type_cache(t, TYPECACHE_BTREE_OPFAMILY)->btree_opf == fam);
	return fam;
}

static int
commute_strategy(int s)
{
	switch (s)
	{
		case BTLessStrategyNumber:
			return BTGreaterStrategyNumber;
		case BTLessEqualStrategyNumber:
			return BTGreaterEqualStrategyNumber;
		case BTGreaterStrategyNumber:
			return BTLessStrategyNumber;
		case BTGreaterEqualStrategyNumber:
			return BTLessEqualStrategyNumber;
		default:
			return s;
	}
}

static bool
is_float_field(const DeltaField *f)
{
	return f->kind == DELTA_TYPE_FLOAT || f->kind == DELTA_TYPE_DOUBLE;
}

static bool
const_is_nan(const Const *c)
{
	if (c->constisnull)
		return false;
	if (c->consttype == FLOAT8OID)
		return isnan(DatumGetFloat8(c->constvalue));
	if (c->consttype == FLOAT4OID)
		return isnan(DatumGetFloat4(c->constvalue));
	return false;
}

/*
 * An atom "stat(f) <strategy> cst".  For a float/double MAX atom in the
 * NaN-safe variant, nan_form_ok says whether NaN rows cannot satisfy the
 * original form (an = or IN with non-NaN constants); otherwise the atom is
 * widened to TRUE.  NULL when no operator exists.
 */
static KNode *
k_cmp(CompileCtx *cc, const DeltaField *f, StatKind stat, int strategy,
	  Const *cst, bool nan_form_ok)
{
	Oid			fam = btree_family(f->pg_type);
	Oid			opno;
	KNode	   *k;

	if (!OidIsValid(fam))
		return NULL;
	opno = get_opfamily_member(fam, f->pg_type, cst->consttype, strategy);
	if (!OidIsValid(opno))
		return NULL;
	if (stat == ST_MAX && is_float_field(f) && !cc->nan_trusted &&
		(!nan_form_ok || const_is_nan(cst)))
	{
		cc->nan_sensitive = true;
		return k_new(K_TRUE);
	}
	k = k_new(K_CMP);
	k->leaf = f->leaf_index;
	k->stat = stat;
	k->strategy = strategy;
	k->opno = opno;
	k->cst = cst;
	return k;
}

/* K(c IS NULL) / K(c IS NOT NULL) */
static KNode *
k_nulltest(const DeltaField *f, bool is_null)
{
	KNode	   *k;

	if (!field_has_stats(f))
		return NULL;
	k = k_new(is_null ? K_HAS_NULL : K_HAS_NONNULL);
	k->leaf = f->leaf_index;
	return k;
}

/*
 * K of "c <strategy> cst" (Var on the left) per the table of §3.2;
 * strategy may be ROWCOMPARE_NE for <>.
 */
static KNode *
k_compare(CompileCtx *cc, const DeltaField *f, int strategy, Const *cst)
{
	KNode	   *a,
			   *b;

	if (!field_has_minmax(cc, f) || cst->constisnull)
		return NULL;
	switch (strategy)
	{
		case BTEqualStrategyNumber:
			a = k_cmp(cc, f, ST_MIN, BTLessEqualStrategyNumber, cst, true);
			b = k_cmp(cc, f, ST_MAX, BTGreaterEqualStrategyNumber, cst, true);
			if (!a || !b)
				return NULL;
			return k_and(list_make2(a, b));
		case ROWCOMPARE_NE:
			a = k_cmp(cc, f, ST_MIN, BTLessStrategyNumber, cst, false);
			b = k_cmp(cc, f, ST_MAX, BTGreaterStrategyNumber, cst, false);
			if (!a || !b)
				return NULL;
			return k_or(list_make2(a, b));
		case BTLessStrategyNumber:
		case BTLessEqualStrategyNumber:
			return k_cmp(cc, f, ST_MIN, strategy, cst, false);
		case BTGreaterStrategyNumber:
		case BTGreaterEqualStrategyNumber:
			return k_cmp(cc, f, ST_MAX, strategy, cst, false);
		default:
			return NULL;
	}
}

/*
 * Interpret operator opno applied to a column of f's type and a constant
 * of type ctype (column on the left when var_left) as a btree strategy of
 * f's default opfamily, seen from the column.  0 when it is not one.
 */
static int
column_strategy(const DeltaField *f, Oid opno, Oid ctype, bool var_left)
{
	Oid			fam = btree_family(f->pg_type);
	List	   *interps;
	ListCell   *lc;

	if (!OidIsValid(fam))
		return 0;
	interps = get_op_btree_interpretation(opno);
	foreach(lc, interps)
	{
		OpBtreeInterpretation *oi = lfirst(lc);

		if (oi->opfamily_id != fam)
			continue;
		if (var_left && oi->oplefttype == f->pg_type && oi->oprighttype == ctype)
			return oi->strategy;
		if (!var_left && oi->oplefttype == ctype && oi->oprighttype == f->pg_type)
			return commute_strategy(oi->strategy);
	}
	return 0;
}

/*
 * LIKE with a constant pattern: the literal prefix before the first
 * wildcard (backslash escapes honoured).  *exact is set when the pattern
 * has no wildcard at all.  NULL when the pattern is malformed or starts
 * with a wildcard.
 */
static char *
like_prefix(const char *pat, bool *exact)
{
	StringInfoData buf;
	const char *p = pat;

	initStringInfo(&buf);
	*exact = false;
	while (*p)
	{
		if (*p == '\\')
		{
			if (p[1] == '\0')
				return NULL;
			appendStringInfoChar(&buf, p[1]);
			p += 2;
			continue;
		}
		if (*p == '%' || *p == '_')
			break;
		appendStringInfoChar(&buf, *p++);
	}
	if (*p == '\0')
		*exact = true;
	if (buf.len == 0)
		return NULL;
	return buf.data;
}

/* K of "c LIKE pattern" */
static KNode *
k_like(CompileCtx *cc, const DeltaField *f, Const *pat)
{
	char	   *prefix;
	bool		exact;
	Const	   *pc;
	KNode	   *a,
			   *b;
	Oid			le,
				ge;

	if (!field_has_minmax(cc, f) || f->kind != DELTA_TYPE_STRING ||
		pat->constisnull || pat->consttype != TEXTOID)
		return NULL;
	prefix = like_prefix(TextDatumGetCString(pat->constvalue), &exact);
	if (prefix == NULL)
		return NULL;
	pc = makeConst(TEXTOID, -1, C_COLLATION_OID, -1,
				   CStringGetTextDatum(prefix), false, false);
	if (exact)
		return k_compare(cc, f, BTEqualStrategyNumber, pc);
	le = get_opfamily_member(TEXT_BTREE_FAM_OID, TEXTOID, TEXTOID,
							 BTLessEqualStrategyNumber);
	ge = get_opfamily_member(TEXT_BTREE_FAM_OID, TEXTOID, TEXTOID,
							 BTGreaterEqualStrategyNumber);
	a = k_new(K_PREFIX);
	a->leaf = f->leaf_index;
	a->stat = ST_MIN;
	a->strategy = BTLessEqualStrategyNumber;
	a->opno = le;
	a->cst = pc;
	a->prefix_chars = pg_mbstrlen(prefix);
	b = k_new(K_PREFIX);
	b->leaf = f->leaf_index;
	b->stat = ST_MAX;
	b->strategy = BTGreaterEqualStrategyNumber;
	b->opno = ge;
	b->cst = pc;
	b->prefix_chars = a->prefix_chars;
	return k_and(list_make2(a, b));
}

/* K of "c = ANY (const array)" (IN list): a range test (§3.2). */
static KNode *
k_in(CompileCtx *cc, const DeltaField *f, Oid opno, Const *arr)
{
	ArrayType  *a;
	Oid			elemtype;
	int16		elmlen;
	bool		elmbyval;
	char		elmalign;
	Datum	   *elems;
	bool	   *nulls;
	int			n,
				i;
	int			imin = -1,
				imax = -1;
	bool		any_nan = false;
	Oid			fam;
	RegProcedure cmpproc;
	Const	   *cmin,
			   *cmax;
	KNode	   *lo,
			   *hi;

	if (!field_has_minmax(cc, f) || arr->constisnull)
		return NULL;
	a = DatumGetArrayTypeP(arr->constvalue);
	elemtype = ARR_ELEMTYPE(a);
	if (column_strategy(f, opno, elemtype, true) != BTEqualStrategyNumber)
		return NULL;
	fam = btree_family(f->pg_type);
	cmpproc = get_opfamily_proc(btree_family(elemtype), elemtype, elemtype,
								BTORDER_PROC);
	if (!OidIsValid(fam) || !OidIsValid(cmpproc))
		return NULL;
	get_typlenbyvalalign(elemtype, &elmlen, &elmbyval, &elmalign);
	deconstruct_array(a, elemtype, elmlen, elmbyval, elmalign,
					  &elems, &nulls, &n);
	for (i = 0; i < n; i++)
	{
		if (nulls[i])
			continue;
		if (imin < 0 ||
			DatumGetInt32(OidFunctionCall2Coll(cmpproc, C_COLLATION_OID,
											   elems[i], elems[imin])) < 0)
			imin = i;
		if (imax < 0 ||
			DatumGetInt32(OidFunctionCall2Coll(cmpproc, C_COLLATION_OID,
											   elems[i], elems[imax])) > 0)
			imax = i;
	}
	if (imin < 0)
		return k_new(K_FALSE);	/* only NULLs: matches nothing */
	cmin = makeConst(elemtype, -1, arr->constcollid, elmlen, elems[imin],
					 false, elmbyval);
	cmax = makeConst(elemtype, -1, arr->constcollid, elmlen, elems[imax],
					 false, elmbyval);
	for (i = 0; i < n; i++)
	{
		Const		tmp;

		if (nulls[i])
			continue;
		tmp = *cmin;
		tmp.constvalue = elems[i];
		if (const_is_nan(&tmp))
			any_nan = true;
	}
	hi = k_cmp(cc, f, ST_MAX, BTGreaterEqualStrategyNumber, cmin, !any_nan);
	lo = k_cmp(cc, f, ST_MIN, BTLessEqualStrategyNumber, cmax, true);
	if (!hi || !lo)
		return NULL;
	return k_and(list_make2(hi, lo));
}

/*
 * K((e) IS NULL) for a non-column e (enhanced IS NULL pushdown, §3.2):
 * OR over e's children of NULL literal -> TRUE, other literal -> FALSE,
 * column -> K(column IS NULL).
 */
static KNode *
k_isnull_expr(CompileCtx *cc, Node *e, int depth)
{
	List	   *args;
	List	   *parts = NIL;
	ListCell   *lc;

	if (depth > MAX_ISNULL_DEPTH)
		return NULL;
	if (IsA(e, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) e;

		if (list_length(op->args) != 2 || exprType(e) != BOOLOID)
			return NULL;
		/* only comparisons (strict operators with btree meaning) and LIKE */
		if (get_op_btree_interpretation(op->opno) == NIL &&
			get_opcode(op->opno) != F_TEXTLIKE)
			return NULL;
		args = op->args;
	}
	else if (IsA(e, BoolExpr))
		args = ((BoolExpr *) e)->args;
	else
		return NULL;

	foreach(lc, args)
	{
		Node	   *a = lfirst(lc);
		KNode	   *k;

		if (IsA(a, Const))
			k = k_new(((Const *) a)->constisnull ? K_TRUE : K_FALSE);
		else if (bare_column(cc, a))
			k = k_nulltest(bare_column(cc, a), true);
		else if (IsA(a, OpExpr) || IsA(a, BoolExpr))
			k = k_isnull_expr(cc, a, depth + 1);
		else
			k = NULL;
		if (k == NULL)
			return NULL;
		parts = lappend(parts, k);
	}
	return k_or(parts);
}

/* Split an OpExpr into (column field, constant, column-on-left). */
static bool
column_vs_const(CompileCtx *cc, List *args, const DeltaField **f,
				Const **c, bool *var_left)
{
	Node	   *l,
			   *r;

	if (list_length(args) != 2)
		return false;
	l = linitial(args);
	r = lsecond(args);
	if (bare_column(cc, l) && IsA(r, Const))
	{
		*f = bare_column(cc, l);
		*c = (Const *) r;
		*var_left = true;
		return true;
	}
	if (bare_column(cc, r) && IsA(l, Const))
	{
		*f = bare_column(cc, r);
		*c = (Const *) l;
		*var_left = false;
		return true;
	}
	return false;
}

/*
 * The column *f and constant *c of "column IS [NOT] DISTINCT FROM
 * constant" (build_k, build_not): false unless d compares a column with a
 * constant by the equality of the column's type.  *c may be a NULL
 * constant.
 */
static bool
distinct_column_const(CompileCtx *cc, DistinctExpr *d,
					  const DeltaField **f, Const **c)
{
	bool		var_left;

	if (!column_vs_const(cc, d->args, f, c, &var_left))
		return false;
	if ((*c)->constisnull)
		return true;
	return column_strategy(*f, d->opno, (*c)->consttype, var_left) ==
		BTEqualStrategyNumber;
}

/* K(NOT e) */
static KNode *
build_not(CompileCtx *cc, Node *e, int depth)
{
	if (IsA(e, BoolExpr))
	{
		BoolExpr   *b = (BoolExpr *) e;
		List	   *parts = NIL;
		ListCell   *lc;

		if (b->boolop == NOT_EXPR)
			return build_k(cc, linitial(b->args), depth + 1);
		/* De Morgan */
		foreach(lc, b->args)
		{
			KNode	   *k = build_not(cc, lfirst(lc), depth + 1);

			if (b->boolop == AND_EXPR)
			{
				/* NOT a OR NOT b: every side must build */
				if (k == NULL)
					return NULL;
				parts = lappend(parts, k);
			}
			else if (k != NULL)
				parts = lappend(parts, k);
		}
		if (b->boolop == AND_EXPR)
			return k_or(parts);
		return parts ? k_and(parts) : NULL;
	}
	if (IsA(e, NullTest))
	{
		NullTest   *nt = (NullTest *) e;
		const DeltaField *f = bare_column(cc, (Node *) nt->arg);

		if (f == NULL || nt->argisrow)
			return NULL;
		return k_nulltest(f, nt->nulltesttype != IS_NULL);
	}
	if (IsA(e, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) e;
		Oid			neg = get_negator(op->opno);
		const DeltaField *f;
		Const	   *c;
		bool		var_left;
		int			s;

		/* only comparison operators negate (NOT LIKE etc. never skip) */
		if (!OidIsValid(neg) || !column_vs_const(cc, op->args, &f, &c, &var_left))
			return NULL;
		s = column_strategy(f, neg, exprType((Node *) c), var_left);
		if (s == 0)
			return NULL;
		return k_compare(cc, f, s, c);
	}
	if (IsA(e, DistinctExpr))
	{
		/* NOT (c IS DISTINCT FROM v): c <=> v */
		DistinctExpr *d = (DistinctExpr *) e;
		const DeltaField *f;
		Const	   *c;
		KNode	   *a,
				   *b;

		if (!distinct_column_const(cc, d, &f, &c))
			return NULL;
		if (c->constisnull)
			return k_nulltest(f, true);
		a = k_nulltest(f, false);
		b = k_compare(cc, f, BTEqualStrategyNumber, c);
		if (a == NULL && b == NULL)
			return NULL;
		return k_and(a && b ? list_make2(a, b) : list_make1(a ? a : b));
	}
	return NULL;
}

/*
 * Build K(e) per the table of §3.2 (e already through
 * eval_const_expressions).  NULL = unbuildable.
 */
static KNode *
build_k(CompileCtx *cc, Node *e, int depth)
{
	check_stack_depth();
	if (e == NULL)
		return NULL;
	switch (nodeTag(e))
	{
		case T_BoolExpr:
			{
				BoolExpr   *b = (BoolExpr *) e;
				List	   *parts = NIL;
				ListCell   *lc;

				if (b->boolop == NOT_EXPR)
					return build_not(cc, linitial(b->args), depth + 1);
				foreach(lc, b->args)
				{
					KNode	   *k = build_k(cc, lfirst(lc), depth + 1);

					if (b->boolop == OR_EXPR && k == NULL)
						return NULL;	/* OR with an unusable side */
					if (k != NULL)
						parts = lappend(parts, k);
				}
				if (parts == NIL)
					return NULL;
				return b->boolop == AND_EXPR ? k_and(parts) : k_or(parts);
			}
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) e;
				const DeltaField *f;
				Const	   *c;
				bool		var_left;
				int			s;

				if (!column_vs_const(cc, op->args, &f, &c, &var_left))
					return NULL;
				if (get_opcode(op->opno) == F_TEXTLIKE)
					return var_left ? k_like(cc, f, c) : NULL;
				s = column_strategy(f, op->opno, c->consttype, var_left);
				if (s == 0)
					return NULL;
				return k_compare(cc, f, s, c);
			}
		case T_ScalarArrayOpExpr:
			{
				ScalarArrayOpExpr *sa = (ScalarArrayOpExpr *) e;
				const DeltaField *f = bare_column(cc, linitial(sa->args));
				Node	   *arr = lsecond(sa->args);

				if (!sa->useOr || f == NULL || !IsA(arr, Const))
					return NULL;	/* NOT IN (<> ALL) never skips */
				return k_in(cc, f, sa->opno, (Const *) arr);
			}
		case T_NullTest:
			{
				NullTest   *nt = (NullTest *) e;
				const DeltaField *f = bare_column(cc, (Node *) nt->arg);

				if (nt->argisrow)
					return NULL;
				if (f != NULL)
					return k_nulltest(f, nt->nulltesttype == IS_NULL);
				if (nt->nulltesttype == IS_NULL)
					return k_isnull_expr(cc, (Node *) nt->arg, 1);
				return NULL;
			}
		case T_DistinctExpr:
			{
				/* c IS DISTINCT FROM v  ==  NOT (c <=> v) */
				DistinctExpr *d = (DistinctExpr *) e;
				const DeltaField *f;
				Const	   *c;
				KNode	   *a,
						   *b;

				if (!distinct_column_const(cc, d, &f, &c))
					return NULL;
				if (c->constisnull)
					return k_nulltest(f, false);
				a = k_nulltest(f, true);
				b = k_compare(cc, f, ROWCOMPARE_NE, c);
				if (a == NULL || b == NULL)
					return NULL;
				return k_or(list_make2(a, b));
			}
		case T_Const:
			{
				Const	   *c = (Const *) e;

				/* NULL or FALSE for every row (e.g. "c IN (NULL)"): no row matches */
				if (c->consttype == BOOLOID &&
					(c->constisnull || !DatumGetBool(c->constvalue)))
					return k_new(K_FALSE);
				return NULL;
			}
		default:
			return NULL;		/* functions, casts, column vs column, ... */
	}
}

/* ---------------------------------------------------------------------
 * KNode -> PostgreSQL expression
 * ---------------------------------------------------------------------
 */

static Param *
stat_param(const DeltaReadSet *rs, int leaf, StatKind stat)
{
	const DeltaField *f = rs->schema->leaves[leaf];
	Param	   *p = makeNode(Param);

	p->paramkind = PARAM_EXTERN;
	p->paramid = 3 * leaf + (int) stat + 1;
	if (stat == ST_NULLCOUNT)
	{
		p->paramtype = INT8OID;
		p->paramtypmod = -1;
		p->paramcollid = InvalidOid;
	}
	else
	{
		p->paramtype = f->pg_type;
		p->paramtypmod = -1;
		p->paramcollid = f->pg_collation;
	}
	p->location = -1;
	return p;
}

static Expr *
make_opexpr(Oid opno, Expr *l, Expr *r)
{
	OpExpr	   *op = makeNode(OpExpr);

	op->opno = opno;
	op->opfuncid = get_opcode(opno);
	op->opresulttype = BOOLOID;
	op->opretset = false;
	op->opcollid = InvalidOid;
	op->inputcollid = (exprCollation((Node *) l) != InvalidOid ||
					   exprCollation((Node *) r) != InvalidOid) ?
		C_COLLATION_OID : InvalidOid;
	op->args = list_make2(l, r);
	op->location = -1;
	return (Expr *) op;
}

static Oid
int8_op(int strategy)
{
	return get_opfamily_member(INTEGER_BTREE_FAM_OID, INT8OID, INT8OID, strategy);
}

/* Turn a keep-predicate tree into an expression over the stat Params. */
static Expr *
k_to_expr(const DeltaReadSet *rs, const KNode *k)
{
	switch (k->kind)
	{
		case K_TRUE:
			return (Expr *) makeBoolConst(true, false);
		case K_FALSE:
			return (Expr *) makeBoolConst(false, false);
		case K_AND:
		case K_OR:
			{
				List	   *args = NIL;
				ListCell   *lc;

				foreach(lc, k->args)
					args = lappend(args, k_to_expr(rs, lfirst(lc)));
				return makeBoolExpr(k->kind == K_AND ? AND_EXPR : OR_EXPR,
									args, -1);
			}
		case K_CMP:
			return make_opexpr(k->opno,
							   (Expr *) stat_param(rs, k->leaf, k->stat),
							   (Expr *) k->cst);
		case K_PREFIX:
			{
				FuncExpr   *fe;

				fe = makeFuncExpr(F_LEFT, TEXTOID,
								  list_make2(stat_param(rs, k->leaf, k->stat),
											 makeConst(INT4OID, -1, InvalidOid, 4,
													   Int32GetDatum(k->prefix_chars),
													   false, true)),
								  C_COLLATION_OID, C_COLLATION_OID,
								  COERCE_EXPLICIT_CALL);
				return make_opexpr(k->opno, (Expr *) fe, (Expr *) k->cst);
			}
		case K_HAS_NULL:
			return make_opexpr(int8_op(BTGreaterStrategyNumber),
							   (Expr *) stat_param(rs, k->leaf, ST_NULLCOUNT),
							   (Expr *) makeConst(INT8OID, -1, InvalidOid, 8,
												  Int64GetDatum(0), false,
												  FLOAT8PASSBYVAL));
		case K_HAS_NONNULL:
			{
				Param	   *nr = makeNode(Param);

				nr->paramkind = PARAM_EXTERN;
				nr->paramid = 3 * rs->schema->nleaves + 1;
				nr->paramtype = INT8OID;
				nr->paramtypmod = -1;
				nr->location = -1;
				return make_opexpr(int8_op(BTLessStrategyNumber),
								   (Expr *) stat_param(rs, k->leaf, ST_NULLCOUNT),
								   (Expr *) nr);
			}
	}
	return NULL;
}

/* Record which statistics K references (R of §3.2, expanded per §3.3). */
static void
k_collect(const KNode *k, KVariant *v)
{
	ListCell   *lc;

	switch (k->kind)
	{
		case K_AND:
		case K_OR:
			foreach(lc, k->args)
				k_collect(lfirst(lc), v);
			break;
		case K_CMP:
		case K_PREFIX:
			if (k->stat == ST_MIN)
				v->need_min[k->leaf] = true;
			else
				v->need_max[k->leaf] = true;
			v->need_nc[k->leaf] = true;
			v->need_nr = true;
			break;
		case K_HAS_NULL:
			v->need_nc[k->leaf] = true;
			break;
		case K_HAS_NONNULL:
			v->need_nc[k->leaf] = true;
			v->need_nr = true;
			break;
		default:
			break;
	}
}

/* ---------------------------------------------------------------------
 * deparsing
 * ---------------------------------------------------------------------
 */

static const char *
strategy_symbol(int s)
{
	switch (s)
	{
		case BTLessStrategyNumber:
			return "<";
		case BTLessEqualStrategyNumber:
			return "<=";
		case BTEqualStrategyNumber:
			return "=";
		case BTGreaterEqualStrategyNumber:
			return ">=";
		case BTGreaterStrategyNumber:
			return ">";
	}
	return "<>";
}

/* The negation of strategy s, for "why it is false" reasons. */
static const char *
negated_symbol(int s)
{
	switch (s)
	{
		case BTLessStrategyNumber:
			return ">=";
		case BTLessEqualStrategyNumber:
			return ">";
		case BTGreaterEqualStrategyNumber:
			return "<";
		case BTGreaterStrategyNumber:
			return "<=";
	}
	return "<>";
}

/* A constant as SQL text (numbers bare, everything else quoted). */
static char *
const_text(const Const *c)
{
	Oid			out;
	bool		isvarlena;
	char	   *s;

	if (c->constisnull)
		return pstrdup("NULL");
	if (c->consttype == TIMESTAMPTZOID || c->consttype == TIMESTAMPOID ||
		c->consttype == DATEOID)
	{
		/* ISO 8601 whatever DateStyle says */
		struct pg_tm tm;
		fsec_t		fsec;
		int			tz;
		const char *tzn;
		char		buf[MAXDATELEN + 1];

		if (c->consttype == DATEOID)
		{
			if (!DATE_NOT_FINITE(DatumGetDateADT(c->constvalue)))
			{
				j2date(DatumGetDateADT(c->constvalue) + POSTGRES_EPOCH_JDATE,
					   &tm.tm_year, &tm.tm_mon, &tm.tm_mday);
				EncodeDateOnly(&tm, USE_ISO_DATES, buf);
				return quote_literal_cstr(buf);
			}
		}
		else if (!TIMESTAMP_NOT_FINITE(DatumGetTimestamp(c->constvalue)) &&
				 timestamp2tm(DatumGetTimestamp(c->constvalue),
							  c->consttype == TIMESTAMPTZOID ? &tz : NULL,
							  &tm, &fsec, &tzn, NULL) == 0)
		{
			EncodeDateTime(&tm, fsec, c->consttype == TIMESTAMPTZOID, tz, tzn,
						   USE_ISO_DATES, buf);
			return quote_literal_cstr(buf);
		}
	}
	getTypeOutputInfo(c->consttype, &out, &isvarlena);
	s = OidOutputFunctionCall(out, c->constvalue);
	switch (c->consttype)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case NUMERICOID:
		case FLOAT4OID:
		case FLOAT8OID:
			if ((s[0] >= '0' && s[0] <= '9') ||
				(s[0] == '-' && s[1] >= '0' && s[1] <= '9'))
				return s;
			break;
		default:
			break;
	}
	return quote_literal_cstr(s);
}

static const char *
stat_name(StatKind s)
{
	return s == ST_MIN ? "min" : s == ST_MAX ? "max" : "nullcount";
}

/* Deparse K; top: no outer parentheses around an AND. */
static char *
deparse_k(const DeltaReadSet *rs, const KNode *k, bool top)
{
	const char *col = (k->kind >= K_CMP) ? rs->schema->leaves[k->leaf]->path : NULL;

	switch (k->kind)
	{
		case K_TRUE:
			return pstrdup("true");
		case K_FALSE:
			return pstrdup("false");
		case K_AND:
		case K_OR:
			{
				StringInfoData buf;
				ListCell   *lc;
				bool		first = true;

				initStringInfo(&buf);
				if (!top || k->kind == K_OR)
					appendStringInfoChar(&buf, '(');
				foreach(lc, k->args)
				{
					if (!first)
						appendStringInfoString(&buf, k->kind == K_AND ? " AND " : " OR ");
					appendStringInfoString(&buf, deparse_k(rs, lfirst(lc), false));
					first = false;
				}
				if (!top || k->kind == K_OR)
					appendStringInfoChar(&buf, ')');
				return buf.data;
			}
		case K_CMP:
			return psprintf("(%s(%s) %s %s)", stat_name(k->stat), col,
							strategy_symbol(k->strategy), const_text(k->cst));
		case K_PREFIX:
			return psprintf("(left(%s(%s), %d) %s %s)", stat_name(k->stat), col,
							k->prefix_chars, strategy_symbol(k->strategy),
							const_text(k->cst));
		case K_HAS_NULL:
			return psprintf("(nullcount(%s) > 0)", col);
		case K_HAS_NONNULL:
			return psprintf("(nullcount(%s) < numrecords)", col);
	}
	return pstrdup("?");
}

/* ---------------------------------------------------------------------
 * parsing
 * ---------------------------------------------------------------------
 */

/* error context: which read predicate */
static void
predicate_error_callback(void *arg)
{
	CompileCtx *cc = (CompileCtx *) arg;
	int			pos = geterrposition();

	/* a cursor position refers to our "SELECT ..." text, not the query */
	if (pos > 0 && cc->sql != NULL)
	{
		errposition(0);
		internalerrposition(pos);
		internalerrquery(cc->sql);
	}
	errcontext("read predicate %d", cc->read + 1);
}

/*
 * Pre-columnref hook: resolve a (possibly dotted) column name
 * case-insensitively in the Delta schema.  Unknown names are an ERROR.
 */
static Node *
pred_columnref_hook(ParseState *pstate, ColumnRef *cref)
{
	CompileCtx *cc = (CompileCtx *) pstate->p_ref_hook_state;
	StringInfoData name;
	ListCell   *lc;
	DeltaField *f;
	Var		   *v;

	initStringInfo(&name);
	foreach(lc, cref->fields)
	{
		Node	   *fld = lfirst(lc);

		if (!IsA(fld, String))
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("\"*\" is not allowed in a read predicate"),
					 parser_errposition(pstate, cref->location)));
		if (name.len > 0)
			appendStringInfoChar(&name, '.');
		appendStringInfoString(&name, strVal(fld));
	}
	f = delta_schema_lookup(cc->rs->schema, name.data);
	if (f == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_COLUMN),
				 errmsg("column \"%s\" does not exist in the Delta table", name.data),
				 errhint("Read predicates name the table's logical columns; a struct field is written \"struct.field\"."),
				 parser_errposition(pstate, cref->location)));
	if (f->kind == DELTA_TYPE_STRUCT)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("column \"%s\" is a struct", f->path),
				 errhint("Name one of its fields, e.g. \"%s.%s\".", f->path,
						 f->nfields > 0 ? f->fields[0]->name : "field"),
				 parser_errposition(pstate, cref->location)));
	if (!OidIsValid(f->pg_type))
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("column \"%s\" has Delta type %s, which read predicates do not support",
						f->path, f->type_name),
				 parser_errposition(pstate, cref->location)));
	v = makeVar(1, f->leaf_index + 1, f->pg_type, f->pg_typmod,
				f->pg_collation, 0);
	v->location = cref->location;
	return (Node *) v;
}

static bool
contains_sublink_raw(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, SubLink))
		return true;
	return raw_expression_tree_walker(node, contains_sublink_raw, context);
}

/* Force every collation in the tree to "C" (Spark compares bytes). */
static bool
force_c_collation(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, List))
		return expression_tree_walker(node, force_c_collation, context);
	if (IsA(node, CollateExpr))
		((CollateExpr *) node)->collOid = C_COLLATION_OID;
	else
	{
		if (OidIsValid(exprCollation(node)))
			exprSetCollation(node, C_COLLATION_OID);
		if (OidIsValid(exprInputCollation(node)))
			exprSetInputCollation(node, C_COLLATION_OID);
	}
	return expression_tree_walker(node, force_c_collation, context);
}

/* Collect referenced leaves into a bool array. */
static bool
collect_vars(Node *node, void *context)
{
	bool	   *refs = (bool *) context;

	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *v = (Var *) node;

		if (v->varattno >= 1)
			refs[v->varattno - 1] = true;
		return false;
	}
	return expression_tree_walker(node, collect_vars, context);
}

/*
 * Delta's widening of non-deterministic parts (§2.6): through AND/OR a
 * volatile sub-tree becomes TRUE; any other node containing volatility is
 * replaced as a whole.
 */
static Node *
widen_volatile(Node *node)
{
	if (!contain_volatile_functions(node))
		return node;
	if (IsA(node, BoolExpr) && ((BoolExpr *) node)->boolop != NOT_EXPR)
	{
		BoolExpr   *b = (BoolExpr *) node;
		List	   *args = NIL;
		ListCell   *lc;

		foreach(lc, b->args)
		{
			Node	   *a = widen_volatile(lfirst(lc));

			if (IsA(a, Const) && !((Const *) a)->constisnull &&
				DatumGetBool(((Const *) a)->constvalue))
			{
				if (b->boolop == OR_EXPR)
					return (Node *) makeBoolConst(true, false);
				continue;
			}
			args = lappend(args, a);
		}
		if (args == NIL)
			return (Node *) makeBoolConst(true, false);
		if (list_length(args) == 1)
			return linitial(args);
		return (Node *) makeBoolExpr(b->boolop, args, -1);
	}
	return (Node *) makeBoolConst(true, false);
}

/* AND of a list of expressions (NULL when empty = TRUE). */
static Expr *
and_list(List *l)
{
	if (l == NIL)
		return NULL;
	if (list_length(l) == 1)
		return linitial(l);
	return makeBoolExpr(AND_EXPR, l, -1);
}

static bool
is_true_const(Node *n)
{
	return n && IsA(n, Const) && !((Const *) n)->constisnull &&
		DatumGetBool(((Const *) n)->constvalue);
}

/* Flatten top-level ANDs of a raw expression. */
static List *
raw_conjuncts(Node *n, List *acc)
{
	if (IsA(n, BoolExpr) && ((BoolExpr *) n)->boolop == AND_EXPR)
	{
		ListCell   *lc;

		foreach(lc, ((BoolExpr *) n)->args)
			acc = raw_conjuncts(lfirst(lc), acc);
		return acc;
	}
	return lappend(acc, n);
}

/*
 * Parse predicate text into its raw top-level conjuncts; ERROR unless it is
 * exactly one expression.
 */
static List *
parse_predicate_raw(const char *text, char **sql_out)
{
	char	   *sql = psprintf("SELECT %s", text);
	List	   *stmts;
	RawStmt    *rawstmt;
	SelectStmt *sel;
	ResTarget  *rt;
	const char *p;

	for (p = text; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'; p++)
		;
	if (*p == '\0')
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("read predicate is empty"),
				 errhint("Use 'true' for an unfiltered read.")));
	stmts = raw_parser(sql, RAW_PARSE_DEFAULT);
	if (list_length(stmts) != 1)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("read predicate must be a single expression"),
				 errdetail("It parses as %d statements.", list_length(stmts))));
	rawstmt = linitial_node(RawStmt, stmts);
	if (!IsA(rawstmt->stmt, SelectStmt))
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("read predicate must be a single expression")));
	sel = (SelectStmt *) rawstmt->stmt;
	if (sel->op != SETOP_NONE || sel->distinctClause || sel->intoClause ||
		list_length(sel->targetList) != 1 || sel->fromClause ||
		sel->whereClause || sel->groupClause || sel->groupDistinct ||
		sel->havingClause || sel->windowClause || sel->valuesLists ||
		sel->sortClause || sel->limitOffset || sel->limitCount ||
		sel->lockingClause || sel->withClause)
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("read predicate must be a single expression"),
				 errdetail("Only a boolean expression over the table's columns is accepted, without FROM, WHERE or other clauses.")));
	rt = linitial_node(ResTarget, sel->targetList);
	if (rt->name != NULL || rt->indirection != NIL ||
		(IsA(rt->val, ColumnRef) &&
		 IsA(llast(((ColumnRef *) rt->val)->fields), A_Star)))
		ereport(ERROR,
				(errcode(ERRCODE_SYNTAX_ERROR),
				 errmsg("read predicate must be a single expression"),
				 errdetail("A column alias or \"*\" is not an expression.")));
	*sql_out = sql;
	return raw_conjuncts(rt->val, NIL);
}

/* ---------------------------------------------------------------------
 * the direct evaluator
 *
 * The keep-predicate evaluated on a file's statistics without the executor:
 * the same operators (the K_CMP node's btree opfamily member, called
 * through fmgr with the same input collation, or the same comparison done
 * inline for two operands of one integer-like type or of int2/int4/int8,
 * compared as int64), the same three-valued
 * AND/OR, the same NULL for a missing statistic (strict operators) and the
 * same +1 ms on timestamp maxima as bind_stats/eval_bool, but nothing is
 * allocated and no parameter list is filled.  Used when no reason is asked
 * for; forms it does not know (K_PREFIX) keep the executor.
 * ---------------------------------------------------------------------
 */

/*
 * k_prepare_fast: set up k's K_CMP nodes for k_eval (FmgrInfos in the read
 * set's context).  False when k holds a form k_eval does not evaluate.
 */
static bool
k_prepare_fast(DeltaReadSet *rs, KNode *k)
{
	ListCell   *lc;
	bool		ok = true;

	switch (k->kind)
	{
		case K_TRUE:
		case K_FALSE:
		case K_HAS_NULL:
		case K_HAS_NONNULL:
			return true;
		case K_AND:
		case K_OR:
			foreach(lc, k->args)
				ok = k_prepare_fast(rs, lfirst(lc)) && ok;
			return ok;
		case K_CMP:
			{
				const DeltaField *f = rs->schema->leaves[k->leaf];
				Oid			t = f->pg_type;

				Oid			ct = k->cst->consttype;

				k->native = NATIVE_NONE;
				if (t == ct)
				{
					if (t == INT8OID || t == TIMESTAMPOID || t == TIMESTAMPTZOID)
						k->native = NATIVE_INT64;
					else if (t == INT4OID || t == DATEOID)
						k->native = NATIVE_INT32;
					else if (t == INT2OID)
						k->native = NATIVE_INT16;
				}
				else if ((t == INT8OID || t == INT4OID || t == INT2OID) &&
						 (ct == INT8OID || ct == INT4OID || ct == INT2OID))
				{
					/*
					 * The cross-type integer operators of the btree family
					 * (e.g. int8 >= int4) compare the values: so do the
					 * integers widened to int64.
					 */
					k->native = t == INT8OID ? NATIVE_INT64 :
						t == INT4OID ? NATIVE_INT32 : NATIVE_INT16;
				}
				if (k->native != NATIVE_NONE && !k->cst->constisnull)
					k->cst_int = ct == INT8OID || ct == TIMESTAMPOID ||
						ct == TIMESTAMPTZOID ? DatumGetInt64(k->cst->constvalue) :
						ct == INT4OID || ct == DATEOID ?
						(int64) DatumGetInt32(k->cst->constvalue) :
						(int64) DatumGetInt16(k->cst->constvalue);
				if (k->native == NATIVE_NONE)
				{
					k->finfo = MemoryContextAlloc(rs->cxt, sizeof(FmgrInfo));
					fmgr_info_cxt(get_opcode(k->opno), k->finfo, rs->cxt);
					/* as make_opexpr: C when either side is collatable */
					k->collid = (OidIsValid(f->pg_collation) ||
								 OidIsValid(k->cst->constcollid)) ?
						C_COLLATION_OID : InvalidOid;
				}
				return true;
			}
		case K_PREFIX:
			return false;
	}
	return false;
}

/*
 * native_cmp: "a <strategy> b" for two integers.
 */
static bool
native_cmp(int64 a, int64 b, int strategy)
{
	switch (strategy)
	{
		case BTLessStrategyNumber:
			return a < b;
		case BTLessEqualStrategyNumber:
			return a <= b;
		case BTEqualStrategyNumber:
			return a == b;
		case BTGreaterEqualStrategyNumber:
			return a >= b;
		case BTGreaterStrategyNumber:
			return a > b;
	}
	return a != b;
}

/*
 * k_eval: k on the statistics fs: 1 true, 0 false, -1 NULL (see above).
 */
static int
k_eval(const DeltaReadSet *rs, const KNode *k, const DeltaFileStats *fs)
{
	ListCell   *lc;
	int			res;

	switch (k->kind)
	{
		case K_TRUE:
			return 1;
		case K_FALSE:
			return 0;
		case K_AND:
			res = 1;
			foreach(lc, k->args)
			{
				int			r = k_eval(rs, lfirst(lc), fs);

				if (r == 0)
					return 0;
				if (r < 0)
					res = -1;
			}
			return res;
		case K_OR:
			res = 0;
			foreach(lc, k->args)
			{
				int			r = k_eval(rs, lfirst(lc), fs);

				if (r == 1)
					return 1;
				if (r < 0)
					res = -1;
			}
			return res;
		case K_CMP:
			{
				const DeltaLeafStats *ls = &fs->leaves[k->leaf];
				const DeltaField *f = rs->schema->leaves[k->leaf];
				Datum		d;

				if (k->stat == ST_MIN ? !ls->has_min : !ls->has_max)
					return -1;
				if (k->cst->constisnull)
					return -1;
				d = k->stat == ST_MIN ? ls->min : ls->max;
				if (k->stat == ST_MAX &&
					(f->kind == DELTA_TYPE_TIMESTAMP ||
					 f->kind == DELTA_TYPE_TIMESTAMP_NTZ))
					d = widen_ts_max(d);
				switch (k->native)
				{
					case NATIVE_INT64:
						return native_cmp(DatumGetInt64(d), k->cst_int,
										  k->strategy) ? 1 : 0;
					case NATIVE_INT32:
						return native_cmp(DatumGetInt32(d), k->cst_int,
										  k->strategy) ? 1 : 0;
					case NATIVE_INT16:
						return native_cmp(DatumGetInt16(d), k->cst_int,
										  k->strategy) ? 1 : 0;
					default:
						return DatumGetBool(FunctionCall2Coll(k->finfo, k->collid, d,
															  k->cst->constvalue)) ? 1 : 0;
				}
			}
		case K_HAS_NULL:
			{
				const DeltaLeafStats *ls = &fs->leaves[k->leaf];

				if (!ls->has_null_count)
					return -1;
				return ls->null_count > 0 ? 1 : 0;
			}
		case K_HAS_NONNULL:
			{
				const DeltaLeafStats *ls = &fs->leaves[k->leaf];

				if (!ls->has_null_count || !fs->has_num_records)
					return -1;
				return ls->null_count < fs->num_records ? 1 : 0;
			}
		case K_PREFIX:
			break;
	}
	/* not reached (k_prepare_fast refuses K_PREFIX); never skip on it */
	Assert(false);
	return 1;
}

/*
 * flat_prepare: when v's keep-predicate is one K_CMP or an AND of K_CMPs
 * that compare as plain integers (k_prepare_fast chose NATIVE_*), lay them
 * out as an array for flat_eval.
 */
static void
flat_prepare(DeltaReadSet *rs, KVariant *v)
{
	List	   *cmps;
	ListCell   *lc;
	int			i = 0;

	v->n_flat = 0;
	if (!v->fast || v->k == NULL)
		return;
	if (v->k->kind == K_CMP)
		cmps = list_make1(v->k);
	else if (v->k->kind == K_AND)
		cmps = v->k->args;
	else
		return;
	foreach(lc, cmps)
	{
		KNode	   *c = lfirst(lc);

		if (c->kind != K_CMP || c->native == NATIVE_NONE || c->cst->constisnull)
			return;
	}
	v->flat = palloc(sizeof(FlatCmp) * list_length(cmps));
	foreach(lc, cmps)
	{
		KNode	   *c = lfirst(lc);
		const DeltaField *f = rs->schema->leaves[c->leaf];
		FlatCmp    *fc = &v->flat[i++];

		fc->leaf = c->leaf;
		fc->is_min = (c->stat == ST_MIN);
		fc->widen = (c->stat == ST_MAX &&
					 (f->kind == DELTA_TYPE_TIMESTAMP ||
					  f->kind == DELTA_TYPE_TIMESTAMP_NTZ));
		fc->native = c->native;
		fc->strategy = c->strategy;
		fc->cst = c->cst_int;
	}
	v->n_flat = i;
}

/*
 * flat_cmp_true: one comparison of a flat keep-predicate on one leaf's
 * statistics is TRUE (a missing statistic is NULL: not TRUE).
 */
static inline bool
flat_cmp_true(const FlatCmp *fc, const DeltaLeafStats *ls)
{
	Datum		d;
	int64		x;

	if (fc->is_min ? !ls->has_min : !ls->has_max)
		return false;
	d = fc->is_min ? ls->min : ls->max;
	if (fc->widen)
		d = widen_ts_max(d);
	x = fc->native == NATIVE_INT64 ? DatumGetInt64(d) :
		fc->native == NATIVE_INT32 ? (int64) DatumGetInt32(d) :
		(int64) DatumGetInt16(d);
	return native_cmp(x, fc->cst, fc->strategy);
}

/*
 * flat_eval: k_eval(...) == 1 for a flat keep-predicate: every comparison
 * true (a missing statistic is NULL, and NULL or FALSE in an AND is not
 * TRUE).
 */
static bool
flat_eval(const KVariant *v, const DeltaFileStats *fs)
{
	int			i;

	for (i = 0; i < v->n_flat; i++)
		if (!flat_cmp_true(&v->flat[i], &fs->leaves[v->flat[i].leaf]))
			return false;
	return true;
}

/* ---------------------------------------------------------------------
 * compilation
 * ---------------------------------------------------------------------
 */

/*
 * The executor states of a variant's keep-predicate and of its top-level
 * AND parts, built on first use in the read set's context.  Only the
 * executor fallback and the reason texts of skipped files evaluate them: a
 * read whose variant the direct evaluators decide (flat_eval, k_eval)
 * never builds one.  The expressions are comparisons of the column's
 * B-tree operator family on statistics parameters, so building one cannot
 * fail where the read's own expression (row_state, prepared by
 * delta_readset_instance) did not.
 */
static ExprState *
variant_expr_state(DeltaReadSet *rs, const KNode *k)
{
	MemoryContext old = MemoryContextSwitchTo(rs->cxt);
	ExprState  *state = ExecPrepareExpr(k_to_expr(rs, k), rs->estate);

	MemoryContextSwitchTo(old);
	return state;
}

static ExprState *
variant_state(DeltaReadSet *rs, KVariant *v)
{
	if (v->state == NULL)
		v->state = variant_expr_state(rs, v->k);
	return v->state;
}

/* (a variant of one part is its own only part) */
static ExprState *
variant_part_state(DeltaReadSet *rs, KVariant *v, int part)
{
	if (v->nparts == 1)
		return variant_state(rs, v);
	if (v->part_states[part] == NULL)
		v->part_states[part] = variant_expr_state(rs, v->parts[part]);
	return v->part_states[part];
}

/* Allocate the need_* arrays of a variant and prepare its direct evaluators. */
static void
finish_variant(DeltaReadSet *rs, KVariant *v, List *ks)
{
	int			n = rs->schema->nleaves;
	int			i;

	v->need_min = palloc0(sizeof(bool) * Max(1, n));
	v->need_max = palloc0(sizeof(bool) * Max(1, n));
	v->need_nc = palloc0(sizeof(bool) * Max(1, n));
	if (ks == NIL)
	{
		v->k = NULL;
		return;
	}
	v->k = k_and(ks);
	if (v->k->kind == K_TRUE)
	{
		/* every usable conjunct widened away: cannot skip */
		v->k = NULL;
		return;
	}
	k_collect(v->k, v);
	v->fast = k_prepare_fast(rs, v->k);
	flat_prepare(rs, v);
	v->need_leaf = palloc(sizeof(int) * Max(1, n));
	v->n_need = 0;
	for (i = 0; i < n; i++)
		if (v->need_min[i] || v->need_max[i] || v->need_nc[i])
		{
			v->need_leaf[v->n_need++] = i;
			rs->wanted[i] = true;
		}
	if (v->k->kind == K_AND)
	{
		ListCell   *lc;

		v->nparts = list_length(v->k->args);
		v->parts = palloc(sizeof(KNode *) * v->nparts);
		i = 0;
		foreach(lc, v->k->args)
			v->parts[i++] = lfirst(lc);
	}
	else
	{
		v->nparts = 1;
		v->parts = palloc(sizeof(KNode *));
		v->parts[0] = v->k;
	}
	/* (the executor states are an instance's: delta_readset_instance) */
	v->state = NULL;
	v->part_states = NULL;
}

/* An object created by initdb (and so by no user or extension). */
#define BUILTIN_OID(o) ((o) < FirstNormalObjectId)

/*
 * The OID alias types (regclass, regrole, ...): a literal of one was read
 * by looking a name up in a catalog, so it is never kept.
 */
static bool
oid_alias_type(Oid t)
{
	switch (t)
	{
		case REGCLASSOID:
		case REGCOLLATIONOID:
		case REGCONFIGOID:
		case REGDICTIONARYOID:
		case REGNAMESPACEOID:
		case REGOPERATOROID:
		case REGOPEROID:
		case REGPROCEDUREOID:
		case REGPROCOID:
		case REGROLEOID:
		case REGTYPEOID:
			return true;
		default:
			return false;
	}
}

/*
 * builtin_only_walker: true when an analysed expression holds a node of
 * a kind not listed here, names a type, operator, function or collation
 * that is not built in, or holds a constant of an OID alias type.  Only
 * an expression without any may be kept across statements: a built-in
 * object cannot be redefined, and what else the analysis depended on
 * (search_path, the settings literals are read under, the catalogs) is
 * part of the session cache's key or invalidates it (readset_cache.c).
 */
static bool
builtin_only_walker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	switch (nodeTag(node))
	{
		case T_Const:
			{
				Const	   *c = (Const *) node;

				if (!BUILTIN_OID(c->consttype) || !BUILTIN_OID(c->constcollid) ||
					oid_alias_type(c->consttype) ||
					oid_alias_type(get_element_type(c->consttype)))
					return true;
				break;
			}
		case T_Var:
			{
				Var		   *v = (Var *) node;

				if (!BUILTIN_OID(v->vartype) || !BUILTIN_OID(v->varcollid))
					return true;
				break;
			}
		case T_OpExpr:
		case T_DistinctExpr:
		case T_NullIfExpr:
			{
				OpExpr	   *o = (OpExpr *) node;

				if (!BUILTIN_OID(o->opno) || !BUILTIN_OID(o->opresulttype) ||
					!BUILTIN_OID(o->opcollid) || !BUILTIN_OID(o->inputcollid))
					return true;
				break;
			}
		case T_ScalarArrayOpExpr:
			{
				ScalarArrayOpExpr *o = (ScalarArrayOpExpr *) node;

				if (!BUILTIN_OID(o->opno) || !BUILTIN_OID(o->inputcollid))
					return true;
				break;
			}
		case T_FuncExpr:
			{
				FuncExpr   *f = (FuncExpr *) node;

				if (!BUILTIN_OID(f->funcid) || !BUILTIN_OID(f->funcresulttype) ||
					!BUILTIN_OID(f->funccollid) || !BUILTIN_OID(f->inputcollid))
					return true;
				break;
			}
		case T_RelabelType:
			{
				RelabelType *r = (RelabelType *) node;

				if (!BUILTIN_OID(r->resulttype) || !BUILTIN_OID(r->resultcollid))
					return true;
				break;
			}
		case T_CoerceViaIO:
			{
				CoerceViaIO *c = (CoerceViaIO *) node;

				if (!BUILTIN_OID(c->resulttype) || !BUILTIN_OID(c->resultcollid) ||
					oid_alias_type(c->resulttype))
					return true;
				break;
			}
		case T_ArrayExpr:
			{
				ArrayExpr  *a = (ArrayExpr *) node;

				if (!BUILTIN_OID(a->array_typeid) || !BUILTIN_OID(a->element_typeid) ||
					!BUILTIN_OID(a->array_collid))
					return true;
				break;
			}
		case T_CollateExpr:
			if (!BUILTIN_OID(((CollateExpr *) node)->collOid))
				return true;
			break;
		case T_BoolExpr:
		case T_NullTest:
		case T_BooleanTest:
			break;
		default:
			return true;
	}
	return expression_tree_walker(node, builtin_only_walker, context);
}

/*
 * Why a data conjunct referencing the leaves in refs[] is not usable: a
 * referenced column without statistics, else its form.
 */
static char *
unusable_note(const DeltaReadSet *rs, const bool *refs)
{
	int			j;

	for (j = 0; j < rs->schema->nleaves; j++)
	{
		const DeltaField *f = rs->schema->leaves[j];

		if (refs[j] && !f->is_partition && !f->in_stats)
			return psprintf("%s is not in the statistics column set", f->path);
	}
	return pstrdup("a conjunct is not a bare column compared with a constant");
}

/* Compile read i from its text into rs->reads[i]. */
static void
compile_read(DeltaReadSet *rs, int i, const char *text)
{
	ReadInfo   *ri = &rs->reads[i];
	CompileCtx	cc;
	ErrorContextCallback errcb;
	char	   *sql;
	List	   *raws;
	ListCell   *lc;
	List	   *pparts = NIL;
	List	   *rowparts = NIL;
	List	   *ks[2] = {NIL, NIL};
	int			nleaves = rs->schema->nleaves;

	memset(&cc, 0, sizeof(cc));
	cc.rs = rs;
	cc.read = i;
	ri->text = pstrdup(text);
	ri->partition_refs = palloc0(sizeof(bool) * Max(1, nleaves));

	errcb.callback = predicate_error_callback;
	errcb.arg = &cc;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;

	cc.sql = psprintf("SELECT %s", text);
	raws = parse_predicate_raw(text, &sql);
	foreach(lc, raws)
	{
		Node	   *raw = lfirst(lc);
		ParseState *pstate;
		Node	   *expr;
		bool	   *refs;
		bool		only_partition = true;
		int			j;

		CHECK_FOR_INTERRUPTS();
		if (contains_sublink_raw(raw, NULL))
		{
			/* never analysed, never evaluated: TRUE everywhere */
			ri->has_data = true;
			ri->notes = lappend(ri->notes, "a conjunct contains a subquery");
			continue;
		}
		pstate = make_parsestate(NULL);
		pstate->p_sourcetext = sql;
		pstate->p_pre_columnref_hook = pred_columnref_hook;
		pstate->p_ref_hook_state = &cc;
		expr = transformExpr(pstate, raw, EXPR_KIND_WHERE);
		expr = coerce_to_boolean(pstate, expr, "read predicate");
		assign_expr_collations(pstate, expr);
		free_parsestate(pstate);
		force_c_collation(expr, NULL);
		/* (before constant folding, which can hide a function called) */
		if (rs->builtin_only && builtin_only_walker(expr, NULL))
			rs->builtin_only = false;

		refs = palloc0(sizeof(bool) * Max(1, nleaves));
		collect_vars(expr, refs);
		for (j = 0; j < nleaves; j++)
			if (refs[j] && !rs->schema->leaves[j]->is_partition)
				only_partition = false;

		if (only_partition)
		{
			Node	   *w = eval_const_expressions(NULL, widen_volatile(expr));

			rowparts = lappend(rowparts, w);
			if (is_true_const(w))
				continue;
			for (j = 0; j < nleaves; j++)
				if (refs[j])
					ri->partition_refs[j] = true;
			pparts = lappend(pparts, w);
			continue;
		}

		ri->has_data = true;
		if (contain_volatile_functions(expr))
		{
			ri->notes = lappend(ri->notes,
								"a conjunct calls a volatile function");
			continue;
		}
		expr = eval_const_expressions(NULL, expr);
		rowparts = lappend(rowparts, expr);
		for (j = 0; j < 2; j++)
		{
			KNode	   *k;

			cc.nan_trusted = (j == 1);
			k = build_k(&cc, expr, 0);
			if (k != NULL)
				ks[j] = lappend(ks[j], k);
			else if (j == 1)
				ri->notes = lappend(ri->notes, unusable_note(rs, refs));
		}
	}

	error_context_stack = errcb.previous;

	finish_variant(rs, &ri->v[0], ks[0]);
	finish_variant(rs, &ri->v[1], ks[1]);
	ri->partition_expr = and_list(pparts);
	ri->has_partition_filter = (ri->partition_expr != NULL);
	ri->row_expr = and_list(rowparts);
}

/*
 * The virtual row's descriptor: one attribute per leaf, typed as the
 * predicates see the columns.
 */
static TupleDesc
virtual_row_desc(const DeltaSchema *schema)
{
	int			nleaves = schema->nleaves;
	TupleDesc	desc = CreateTemplateTupleDesc(Max(1, nleaves));
	int			i;

	for (i = 0; i < nleaves; i++)
	{
		const DeltaField *f = schema->leaves[i];

		TupleDescInitEntry(desc, (AttrNumber) (i + 1), NULL,
						   OidIsValid(f->pg_type) ? f->pg_type : TEXTOID,
						   OidIsValid(f->pg_type) ? f->pg_typmod : -1, 0);
		TupleDescInitEntryCollation(desc, (AttrNumber) (i + 1),
									OidIsValid(f->pg_collation) ?
									f->pg_collation : InvalidOid);
	}
	if (nleaves == 0)
		TupleDescInitEntry(desc, 1, NULL, TEXTOID, -1, 0);
	return desc;
}

/*
 * A plan in a new context under CurrentMemoryContext, against schema, or
 * when it is NULL against md's schema parsed into the plan's context.
 */
static DeltaReadSet *
plan_create(const DeltaSchema *schema, const DeltaMetadata *md, int npreds,
			const char *const *predicates)
{
	MemoryContext cxt;
	MemoryContext old;
	DeltaReadSet *rs;
	int			i;

	cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc read set plan",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	rs = palloc0(sizeof(DeltaReadSet));
	rs->cxt = cxt;
	rs->schema = schema ? schema : delta_schema_from_metadata(md);
	rs->nreads = npreds;
	rs->reads = palloc0(sizeof(ReadInfo) * Max(1, npreds));
	rs->wanted = palloc0(sizeof(bool) * Max(1, rs->schema->nleaves));
	rs->utf8 = (GetDatabaseEncoding() == PG_UTF8);
	rs->builtin_only = true;
	rs->rowdesc = virtual_row_desc(rs->schema);
	for (i = 0; i < npreds; i++)
	{
		if (predicates[i] == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("read predicate %d is NULL", i + 1),
					 errhint("Use 'true' for an unfiltered read.")));
		compile_read(rs, i, predicates[i]);
		make_decision_key(rs, &rs->reads[i].v[0]);
		make_decision_key(rs, &rs->reads[i].v[1]);
	}
	MemoryContextSwitchTo(old);
	return rs;
}

/*
 * Compile a plan against the metadata's schema; see predicate.h.
 */
DeltaReadSet *
delta_readset_plan(const DeltaMetadata *md, int npreds,
				   const char *const *predicates)
{
	return plan_create(NULL, md, npreds, predicates);
}

/* Error context of an instance's preparation: the read. */
static void
instance_error_callback(void *arg)
{
	errcontext("read predicate %d", *(int *) arg + 1);
}

/*
 * An instance of a plan for one statement; see predicate.h.
 */
DeltaReadSet *
delta_readset_instance(const DeltaReadSet *plan)
{
	MemoryContext cxt;
	MemoryContext old;
	DeltaReadSet *rs;
	ErrorContextCallback errcb;
	int			nleaves = plan->schema->nleaves;
	int			i;

	Assert(plan->estate == NULL);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "deltacc read set",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);
	rs = palloc(sizeof(DeltaReadSet));
	*rs = *plan;
	rs->cxt = cxt;
	rs->owned_plan = NULL;
	rs->file_cxt = AllocSetContextCreate(cxt, "deltacc file statistics",
										 ALLOCSET_DEFAULT_SIZES);
	rs->estate = CreateExecutorState();
	rs->params = makeParamList(3 * nleaves + 1);
	rs->params->numParams = 3 * nleaves + 1;
	rs->slot = MakeSingleTupleTableSlot(rs->rowdesc, &TTSOpsVirtual);
	rs->last_stats = NULL;
	rs->reads = palloc(sizeof(ReadInfo) * Max(1, plan->nreads));
	memcpy(rs->reads, plan->reads, sizeof(ReadInfo) * plan->nreads);

	/*
	 * The reads' own expressions are prepared now, as a statement would:
	 * this is where EXECUTE privilege on the functions they call is checked,
	 * for every statement and as the current user.
	 */
	errcb.callback = instance_error_callback;
	errcb.arg = &i;
	errcb.previous = error_context_stack;
	error_context_stack = &errcb;
	for (i = 0; i < rs->nreads; i++)
	{
		ReadInfo   *ri = &rs->reads[i];
		int			j;

		for (j = 0; j < 2; j++)
		{
			KVariant   *v = &ri->v[j];

			v->state = NULL;
			if (v->k != NULL)
				v->part_states = palloc0(sizeof(ExprState *) * v->nparts);
		}
		ri->partition_state = ri->partition_expr ?
			ExecPrepareExpr(ri->partition_expr, rs->estate) : NULL;
		ri->row_state = ri->row_expr ?
			ExecPrepareExpr(ri->row_expr, rs->estate) : NULL;
	}
	error_context_stack = errcb.previous;
	MemoryContextSwitchTo(old);
	return rs;
}

/*
 * delta_readset_builtin_only, delta_readset_plan_context: see predicate.h.
 */
bool
delta_readset_builtin_only(const DeltaReadSet *plan)
{
	return plan->builtin_only;
}

/*
 * delta_readset_serial, delta_readset_set_serial: see predicate.h.
 */
uint64
delta_readset_serial(const DeltaReadSet *rs)
{
	return rs->serial;
}

void
delta_readset_set_serial(DeltaReadSet *plan, uint64 serial)
{
	Assert(plan->estate == NULL);
	plan->serial = serial;
}

MemoryContext
delta_readset_plan_context(const DeltaReadSet *plan)
{
	Assert(plan->estate == NULL);
	return plan->cxt;
}

/* An instance that owns its plan (delta_readset_free deletes both). */
static DeltaReadSet *
instance_owning(DeltaReadSet *plan)
{
	DeltaReadSet *rs = delta_readset_instance(plan);

	rs->owned_plan = plan->cxt;
	return rs;
}

/*
 * Compile a read set against a schema, or the metadata's; see
 * predicate.h.
 */
DeltaReadSet *
delta_readset_compile_schema(const DeltaSchema *schema, int npreds,
							 const char *const *predicates)
{
	return instance_owning(plan_create(schema, NULL, npreds, predicates));
}

DeltaReadSet *
delta_readset_compile(const DeltaMetadata *md, int npreds,
					  const char *const *predicates)
{
	return instance_owning(plan_create(NULL, md, npreds, predicates));
}

void
delta_readset_free(DeltaReadSet *rs)
{
	MemoryContext plan;

	if (rs == NULL)
		return;
	Assert(rs->estate != NULL);
	plan = rs->owned_plan;
	ExecDropSingleTupleTableSlot(rs->slot);
	FreeExecutorState(rs->estate);
	MemoryContextDelete(rs->cxt);
	if (plan != NULL)
		MemoryContextDelete(plan);
}

int
delta_readset_nreads(const DeltaReadSet *rs)
{
	return rs->nreads;
}

const DeltaSchema *
delta_readset_schema(const DeltaReadSet *rs)
{
	return rs->schema;
}

bool
delta_read_has_data_conjuncts(const DeltaReadSet *rs, int read)
{
	Assert(read >= 0 && read < rs->nreads);
	return rs->reads[read].has_data;
}

bool
delta_read_can_skip(const DeltaReadSet *rs, int read)
{
	Assert(read >= 0 && read < rs->nreads);
	return rs->reads[read].v[1].k != NULL;
}

bool
delta_read_has_partition_filter(const DeltaReadSet *rs, int read)
{
	Assert(read >= 0 && read < rs->nreads);
	return rs->reads[read].has_partition_filter;
}

char *
delta_read_keep_predicate(const DeltaReadSet *rs, int read)
{
	const KVariant *v = &rs->reads[read].v[1];

	if (v->k == NULL)
		return pstrdup("true");
	return deparse_k(rs, v->k, true);
}

/*
 * Deparse an expression over the virtual row, naming columns by their
 * logical paths (a fake VALUES range-table entry carries the names).
 */
static char *
deparse_row_expr(const DeltaReadSet *rs, Node *expr)
{
	RangeTblEntry *rte = makeNode(RangeTblEntry);
	PlannedStmt *ps = makeNode(PlannedStmt);
	List	   *colnames = NIL;
	List	   *ctx;
	int			i;

	for (i = 0; i < rs->schema->nleaves; i++)
		colnames = lappend(colnames, makeString(rs->schema->leaves[i]->path));
	if (colnames == NIL)
		colnames = list_make1(makeString("?"));
	rte->rtekind = RTE_VALUES;
	rte->eref = makeAlias("t", colnames);
	rte->inFromCl = true;
	ps->rtable = list_make1(rte);
	ctx = deparse_context_for_plan_tree(ps,
										select_rtable_names_for_explain(ps->rtable,
																		NULL));
	return deparse_expression(expr, ctx, false, false);
}

char *
delta_read_partition_predicate(const DeltaReadSet *rs, int read)
{
	const ReadInfo *ri = &rs->reads[read];

	if (ri->partition_expr == NULL)
		return pstrdup("true");
	return deparse_row_expr(rs, (Node *) ri->partition_expr);
}

/* ---------------------------------------------------------------------
 * evaluation
 * ---------------------------------------------------------------------
 */

/*
 * key_const: append an exact image of a constant (type, collation and
 * value bytes) to buf.
 */
static void
key_const(StringInfo buf, const Const *c)
{
	appendBinaryStringInfo(buf, (const char *) &c->consttype, sizeof(Oid));
	appendBinaryStringInfo(buf, (const char *) &c->consttypmod, sizeof(int32));
	appendBinaryStringInfo(buf, (const char *) &c->constcollid, sizeof(Oid));
	appendStringInfoChar(buf, c->constisnull ? 'n' : 'v');
	if (c->constisnull)
		return;
	if (c->constbyval)
	{
		int64		v;

		switch (c->constlen)
		{
			case 1:
				v = (int64) DatumGetChar(c->constvalue);
				break;
			case 2:
				v = (int64) DatumGetInt16(c->constvalue);
				break;
			case 4:
				v = (int64) DatumGetInt32(c->constvalue);
				break;
			default:
				v = (int64) c->constvalue;
				break;
		}
		appendBinaryStringInfo(buf, (const char *) &v, sizeof(int64));
	}
	else if (c->constlen == -1)
	{
		struct varlena *d = pg_detoast_datum_packed((struct varlena *)
													DatumGetPointer(c->constvalue));
		int32		n = VARSIZE_ANY_EXHDR(d);

		appendBinaryStringInfo(buf, (const char *) &n, sizeof(int32));
		appendBinaryStringInfo(buf, VARDATA_ANY(d), n);
	}
	else
	{
		Size		n = datumGetSize(c->constvalue, false, c->constlen);

		appendBinaryStringInfo(buf, (const char *) &n, sizeof(Size));
		appendBinaryStringInfo(buf, DatumGetPointer(c->constvalue), n);
	}
}

/*
 * key_k: append an exact image of keep-predicate k to buf: node kinds,
 * operators, strategies, constants, and for each referenced leaf its
 * statistics column key (physical path and type) and whether it is in the
 * statistics column set.
 */
static void
key_k(const DeltaReadSet *rs, StringInfo buf, const KNode *k)
{
	ListCell   *lc;
	int32		hdr[5];

	hdr[0] = (int32) k->kind;
	hdr[1] = (int32) k->stat;
	hdr[2] = (int32) k->strategy;
	hdr[3] = (int32) k->opno;
	hdr[4] = (int32) k->prefix_chars;
	appendBinaryStringInfo(buf, (const char *) hdr, sizeof(hdr));
	switch (k->kind)
	{
		case K_AND:
		case K_OR:
			appendStringInfo(buf, "(%d", list_length(k->args));
			foreach(lc, k->args)
				key_k(rs, buf, lfirst(lc));
			appendStringInfoChar(buf, ')');
			break;
		case K_CMP:
		case K_PREFIX:
		case K_HAS_NULL:
		case K_HAS_NONNULL:
			{
				const DeltaField *f = rs->schema->leaves[k->leaf];
				char	   *col = delta_stats_column_key(f);
				int32		len = (int32) strlen(col);

				appendBinaryStringInfo(buf, (const char *) &len, sizeof(int32));
				appendBinaryStringInfo(buf, col, len);
				appendStringInfo(buf, "%c%u", f->in_stats ? 's' : '-',
								 f->pg_collation);
				pfree(col);
				if (k->kind == K_CMP || k->kind == K_PREFIX)
					key_const(buf, k->cst);
				break;
			}
		default:
			break;
	}
}

/*
 * The decision key of a variant (see delta_read_decision_key), in
 * CurrentMemoryContext.
 */
static void
make_decision_key(const DeltaReadSet *rs, KVariant *v)
{
	StringInfoData buf;

	v->dkey = NULL;
	v->dkeylen = 0;
	if (v->k == NULL)
		return;
	initStringInfo(&buf);
	appendStringInfoString(&buf, "deltacc keep-predicate v1:");
	key_k(rs, &buf, v->k);
	v->dkey = buf.data;
	v->dkeylen = buf.len;
}

/*
 * delta_read_decision_key: see predicate.h.
 */
const char *
delta_read_decision_key(const DeltaReadSet *rs, int read,
						bool writer_includes_nan, int *len)
{
	const KVariant *v;

	Assert(read >= 0 && read < rs->nreads);
	v = &rs->reads[read].v[writer_includes_nan ? 1 : 0];
	*len = v->dkeylen;
	return v->dkey;
}

/*
 * delta_readset_wanted: see predicate.h.
 */
const bool *
delta_readset_wanted(const DeltaReadSet *rs)
{
	return rs->wanted;
}

DeltaFileStats *
delta_readset_decode_stats(DeltaReadSet *rs, const DeltaFileAction *f)
{
	MemoryContext old;
	const char *json;

	MemoryContextReset(rs->file_cxt);
	old = MemoryContextSwitchTo(rs->file_cxt);
	json = f->stats ? f->stats : f->stats_parsed_json;
	rs->last_stats = delta_stats_decode(rs->schema, json, rs->wanted);
	MemoryContextSwitchTo(old);
	return rs->last_stats;
}

/* MAX of a timestamp column widened by 1 ms (saturating), §3.4. */
static Datum
widen_ts_max(Datum d)
{
	Timestamp	t = DatumGetTimestamp(d);

	if (TIMESTAMP_NOT_FINITE(t))
		return d;
	if (t > END_TIMESTAMP - 1 - 1000)
		TIMESTAMP_NOEND(t);
	else
		t += 1000;
	return TimestampGetDatum(t);
}

/* Fill the stat Params from fs for the leaves the read set needs. */
static void
bind_stats(DeltaReadSet *rs, const DeltaFileStats *fs)
{
	ParamListInfo pl = rs->params;
	int			n = rs->schema->nleaves;
	int			i;

	for (i = 0; i < 3 * n + 1; i++)
	{
		pl->params[i].isnull = true;
		pl->params[i].value = (Datum) 0;
		pl->params[i].pflags = PARAM_FLAG_CONST;
		pl->params[i].ptype = INT8OID;
	}
	for (i = 0; i < n; i++)
	{
		const DeltaField *f = rs->schema->leaves[i];
		const DeltaLeafStats *ls;

		if (!rs->wanted[i] || i >= fs->nleaves)
			continue;
		ls = &fs->leaves[i];
		pl->params[3 * i].ptype = f->pg_type;
		pl->params[3 * i + 1].ptype = f->pg_type;
		if (ls->has_min)
		{
			pl->params[3 * i].isnull = false;
			pl->params[3 * i].value = ls->min;
		}
		if (ls->has_max)
		{
			pl->params[3 * i + 1].isnull = false;
			pl->params[3 * i + 1].value =
				(f->kind == DELTA_TYPE_TIMESTAMP || f->kind == DELTA_TYPE_TIMESTAMP_NTZ) ?
				widen_ts_max(ls->max) : ls->max;
		}
		if (ls->has_null_count)
		{
			pl->params[3 * i + 2].isnull = false;
			pl->params[3 * i + 2].value = Int64GetDatum(ls->null_count);
		}
	}
	if (fs->has_num_records)
	{
		pl->params[3 * n].isnull = false;
		pl->params[3 * n].value = Int64GetDatum(fs->num_records);
	}
}

/* Evaluate a prepared boolean expression: 1 true, 0 false, -1 null. */
static int
eval_bool(DeltaReadSet *rs, ExprState *state)
{
	ExprContext *econtext = GetPerTupleExprContext(rs->estate);
	bool		isnull;
	Datum		d;

	econtext->ecxt_param_list_info = rs->params;
	econtext->ecxt_scantuple = rs->slot;
	d = ExecEvalExprSwitchContext(state, econtext, &isnull);
	ResetExprContext(econtext);
	if (isnull)
		return -1;
	return DatumGetBool(d) ? 1 : 0;
}

/*
 * verify(R) of §3.3.  Returns NULL when every referenced statistic
 * verifies, else the reason it does not.
 */
static char *
verify_stats(const DeltaReadSet *rs, const KVariant *v, const DeltaFileStats *fs)
{
	int			i;

	if (v->need_nr && !fs->has_num_records)
		return pstrdup("no numRecords in the statistics");
	for (i = 0; i < rs->schema->nleaves; i++)
	{
		const DeltaLeafStats *ls = &fs->leaves[i];
		const char *col = rs->schema->leaves[i]->path;
		bool		all_null;

		if (!v->need_min[i] && !v->need_max[i] && !v->need_nc[i])
			continue;
		if (!ls->has_null_count)
		{
			if (!ls->has_min && !ls->has_max)
				return psprintf("no statistics for %s", col);
			return psprintf("no nullCount for %s", col);
		}
		all_null = fs->has_num_records && ls->null_count == fs->num_records;
		if (v->need_min[i] && !ls->has_min && !all_null)
			return ls->min_note ?
				psprintf("min(%s) is %s", col, ls->min_note) :
				psprintf("no min(%s) and %s is not all null", col, col);
		if (v->need_max[i] && !ls->has_max && !all_null)
			return ls->max_note ?
				psprintf("max(%s) %s%s", col,
						 strncmp(ls->max_note, "ends", 4) == 0 ? "" : "is ",
						 ls->max_note) :
				psprintf("no max(%s) and %s is not all null", col, col);
	}
	return NULL;
}

/*
 * leaf_verified: one leaf's statistics are complete enough for verify_ok:
 * a null count, and the minimum / maximum asked for unless every value is
 * null (has_nr / nr: the file's numRecords).
 */
static inline bool
leaf_verified(const DeltaLeafStats *ls, bool need_min, bool need_max,
			  bool has_nr, int64 nr)
{
	bool		all_null;

	if (!ls->has_null_count)
		return false;
	all_null = has_nr && ls->null_count == nr;
	return !((need_min && !ls->has_min && !all_null) ||
			 (need_max && !ls->has_max && !all_null));
}

/*
 * verify_ok: verify_stats without building a reason (nothing allocated):
 * true when every referenced statistic verifies.
 */
static bool
verify_ok(const DeltaReadSet *rs, const KVariant *v, const DeltaFileStats *fs)
{
	int			j;

	if (v->need_nr && !fs->has_num_records)
		return false;
	for (j = 0; j < v->n_need; j++)
	{
		int			i = v->need_leaf[j];

		if (!leaf_verified(&fs->leaves[i], v->need_min[i], v->need_max[i],
						   fs->has_num_records, fs->num_records))
			return false;
	}
	return true;
}

/* "min(c)=1, max(c)=9, nullcount(c)=0" for the stats a variant uses */
static char *
describe_stats(const DeltaReadSet *rs, const KVariant *v, const DeltaFileStats *fs)
{
	StringInfoData buf;
	int			i;

	initStringInfo(&buf);
	for (i = 0; i < rs->schema->nleaves; i++)
	{
		const DeltaLeafStats *ls = &fs->leaves[i];
		const char *col = rs->schema->leaves[i]->path;

		if (v->need_min[i])
			appendStringInfo(&buf, "%smin(%s)=%s", buf.len ? ", " : "", col,
							 ls->has_min ? ls->min_text : "null");
		if (v->need_max[i])
			appendStringInfo(&buf, "%smax(%s)=%s", buf.len ? ", " : "", col,
							 ls->has_max ? ls->max_text : "null");
		if (v->need_nc[i] && !v->need_min[i] && !v->need_max[i])
			appendStringInfo(&buf, "%snullcount(%s)=" INT64_FORMAT,
							 buf.len ? ", " : "", col, ls->null_count);
	}
	if (v->need_nr && fs->has_num_records &&
		buf.len < 200)
		appendStringInfo(&buf, "%snumrecords=" INT64_FORMAT, buf.len ? ", " : "",
						 fs->num_records);
	return buf.data;
}


/*
 * delta_read_file_scanned: see predicate.h.
 */
bool
delta_read_file_scanned(DeltaReadSet *rs, const DeltaFileAction *f)
{
	DeltaFileStats *fs = NULL;
	int			r;

	for (r = 0; r < rs->nreads; r++)
	{
		if (!delta_read_partition_matches(rs, r, &f->pv, NULL))
			continue;
		if (!delta_read_can_skip(rs, r))
			return true;		/* (no statistics decoded for it) */
		if (fs == NULL)
			fs = delta_readset_decode_stats(rs, f);
		if (delta_read_stats_may_match(rs, r, fs, f->stats_include_nan, NULL))
			return true;
	}
	return false;
}

/* Why a (false) K part rules the file out, e.g. "max(id)=99 < 200". */
static char *
describe_false_part(const DeltaReadSet *rs, const KNode *k,
					const DeltaFileStats *fs, const KVariant *v)
{
	if (k->kind == K_CMP || k->kind == K_PREFIX)
	{
		const DeltaLeafStats *ls = &fs->leaves[k->leaf];
		const char *col = rs->schema->leaves[k->leaf]->path;
		const char *val = (k->stat == ST_MIN) ?
			(ls->has_min ? ls->min_text : NULL) :
			(ls->has_max ? ls->max_text : NULL);

		if (val == NULL)
			return psprintf("%s is all null (nullCount = numRecords = " INT64_FORMAT ")",
							col, fs->num_records);
		if (k->kind == K_PREFIX)
			return psprintf("left(%s(%s), %d) %s %s (%s(%s)=%s)",
							stat_name(k->stat), col, k->prefix_chars,
							negated_symbol(k->strategy), const_text(k->cst),
							stat_name(k->stat), col, quote_literal_cstr(val));
		return psprintf("%s(%s)=%s %s %s%s", stat_name(k->stat), col,
						rs->schema->leaves[k->leaf]->kind == DELTA_TYPE_STRING ?
						quote_literal_cstr(val) : val,
						negated_symbol(k->strategy), const_text(k->cst),
						(k->stat == ST_MAX &&
						 (rs->schema->leaves[k->leaf]->kind == DELTA_TYPE_TIMESTAMP ||
						  rs->schema->leaves[k->leaf]->kind == DELTA_TYPE_TIMESTAMP_NTZ)) ?
						" (after +1 ms)" : "");
	}
	if (k->kind == K_HAS_NULL)
		return psprintf("nullcount(%s)=0", rs->schema->leaves[k->leaf]->path);
	if (k->kind == K_HAS_NONNULL)
		return psprintf("%s is all null (nullCount = numRecords = " INT64_FORMAT ")",
						rs->schema->leaves[k->leaf]->path, fs->num_records);
	if (k->kind == K_FALSE)
		return pstrdup("a conjunct is NULL or false for every row");
	return psprintf("%s is false for %s", deparse_k(rs, k, true),
					describe_stats(rs, v, fs));
}

bool
delta_read_stats_may_match(DeltaReadSet *rs, int read,
						   const DeltaFileStats *fs, bool writer_includes_nan,
						   char **reason)
{
	ReadInfo   *ri;
	KVariant   *v;
	char	   *why;
	int			r;
	int			i;

	Assert(read >= 0 && read < rs->nreads);
	ri = &rs->reads[read];
	v = &ri->v[writer_includes_nan ? 1 : 0];

	if (v->k == NULL)
	{
		if (reason)
		{
			if (!ri->has_data)
				*reason = pstrdup("the read has no data predicate");
			else if (ri->v[1].k != NULL)
				*reason = pstrdup("float/double maxima are not used: the writer may leave NaN out of its statistics");
			else
				*reason = psprintf("no conjunct of the read is usable for skipping (%s)",
								   ri->notes ? (char *) llast(ri->notes) : "no usable form");
		}
		return true;
	}
	if (!fs->has_stats)
	{
		if (reason)
			*reason = fs->error ? psprintf("statistics unparseable: %s", fs->error) :
				pstrdup("no statistics");
		return true;
	}
	if (reason == NULL)
	{
		if (!verify_ok(rs, v, fs))
			return true;
		if (v->n_flat > 0)
		{
			bool		keep = flat_eval(v, fs);

#ifdef USE_ASSERT_CHECKING
			/* must agree with k_eval and with the executor */
			Assert(keep == (k_eval(rs, v->k, fs) == 1));
			bind_stats(rs, fs);
			Assert(keep == (eval_bool(rs, variant_state(rs, v)) == 1));
#endif
			return keep;
		}
		if (v->fast)
		{
			int			r_fast = k_eval(rs, v->k, fs);

#ifdef USE_ASSERT_CHECKING
			/* the direct evaluator must agree with the executor */
			bind_stats(rs, fs);
			Assert((eval_bool(rs, variant_state(rs, v)) == 1) == (r_fast == 1));
#endif
			return r_fast == 1;
		}
	}
	else
	{
		why = verify_stats(rs, v, fs);
		if (why != NULL)
		{
			*reason = why;
			return true;
		}
	}

	/*
	 * With a reason wanted, the direct evaluators still decide whether the
	 * file is kept (the reason of a kept file needs no executor state); the
	 * executor names the false part of a skipped one.
	 */
	if (v->n_flat > 0)
		r = flat_eval(v, fs) ? 1 : 0;
	else if (v->fast)
		r = k_eval(rs, v->k, fs) == 1 ? 1 : 0;
	else
		r = -1;
#ifdef USE_ASSERT_CHECKING
	if (r >= 0)
	{
		bind_stats(rs, fs);
		Assert((eval_bool(rs, variant_state(rs, v)) == 1) == (r == 1));
	}
#endif
	if (r != 1)
	{
		/* the parts below evaluate on the bound statistics */
		bind_stats(rs, fs);
		if (r < 0)
			r = eval_bool(rs, variant_state(rs, v));
	}
	if (r == 1)
	{
		if (reason)
			*reason = psprintf("statistics may match: %s%s", describe_stats(rs, v, fs),
							   (!writer_includes_nan && ri->v[0].k != NULL &&
								ri->v[1].k != NULL &&
								ri->v[0].nparts != ri->v[1].nparts) ?
							   " (float/double maxima not used: the writer may leave NaN out of its statistics)" : "");
		return true;
	}
	if (reason)
	{
		*reason = NULL;
		for (i = 0; i < v->nparts; i++)
		{
			if (eval_bool(rs, variant_part_state(rs, v, i)) != 1)
			{
				*reason = describe_false_part(rs, v->parts[i], fs, v);
				break;
			}
		}
		if (*reason == NULL)
			*reason = psprintf("%s is false for %s", deparse_k(rs, v->k, true),
							   describe_stats(rs, v, fs));
	}
	return false;
}

/* The largest flat keep-predicate delta_read_stats_may_match_columns takes. */
#define COLUMNS_MAX_TERMS 16

/*
 * The position of leaf among col_leaf[0 .. ncols), or -1; the last one if
 * it is there twice, as in a DeltaFileStats filled from the columns in
 * order (funcs_conflict.c's rb_stats_match).
 */
static int
column_of_leaf(int leaf, int ncols, const int *col_leaf)
{
	int			k;

	for (k = ncols - 1; k >= 0; k--)
		if (col_leaf[k] == leaf)
			return k;
	return -1;
}

/*
 * The values x of an int8 statistic for which native_cmp(x, c, strategy)
 * is true, as [*lo, *hi] (intersected with what they hold already); false
 * for a strategy native_cmp has no interval for.  *lo > *hi: none.
 */
static bool
narrow_interval(int strategy, int64 c, int64 *lo, int64 *hi)
{
	switch (strategy)
	{
		case BTLessStrategyNumber:
			if (c == PG_INT64_MIN)
			{
				*lo = PG_INT64_MAX; /* none */
				*hi = PG_INT64_MIN;
			}
			else
				*hi = Min(*hi, c - 1);
			return true;
		case BTLessEqualStrategyNumber:
			*hi = Min(*hi, c);
			return true;
		case BTEqualStrategyNumber:
			*lo = Max(*lo, c);
			*hi = Min(*hi, c);
			return true;
		case BTGreaterEqualStrategyNumber:
			*lo = Max(*lo, c);
			return true;
		case BTGreaterStrategyNumber:
			if (c == PG_INT64_MAX)
			{
				*lo = PG_INT64_MAX; /* none */
				*hi = PG_INT64_MIN;
			}
			else
				*lo = Max(*lo, c + 1);
			return true;
	}
	return false;
}

/* lo <= x <= hi, with one unsigned comparison (false when lo > hi) */
static inline bool
in_interval(int64 x, int64 lo, int64 hi)
{
	return lo <= hi && (uint64) x - (uint64) lo <= (uint64) hi - (uint64) lo;
}

/*
 * header_keeps: the file's header alone keeps it: no statistics, or no
 * numRecords where v needs it (delta_read_stats_may_match's has_stats and
 * verify_ok's first test).
 */
static inline bool
header_keeps(const KVariant *v, const DeltaStatsHeader *h)
{
	return !h->has_stats || (v->need_nr && !h->has_num_records);
}

/*
 * columns_one_range: delta_read_stats_may_match_columns for the usual
 * read on one int8 column, a flat keep-predicate whose comparisons are all
 * on the one leaf the variant needs, without widening: the comparisons on
 * the minimum and those on the maximum each become one interval, and each
 * file is its header, the leaf's verify_ok test and at most two interval
 * tests.  False (nothing set) for any other read; v needs one leaf.
 */
static bool
columns_one_range(const KVariant *v, int n, const int *idx,
				  const DeltaStatsHeader *hdr, const DeltaLeafStats *col,
				  bool *keep)
{
	int			leaf;
	bool		nmin;
	bool		nmax;
	bool		use_min = false;
	bool		use_max = false;
	int64		min_lo = PG_INT64_MIN,
				min_hi = PG_INT64_MAX,
				max_lo = PG_INT64_MIN,
				max_hi = PG_INT64_MAX;
	int			j,
				t;

	Assert(v->n_need == 1);
	leaf = v->need_leaf[0];
	nmin = v->need_min[leaf];
	nmax = v->need_max[leaf];
	for (t = 0; t < v->n_flat; t++)
	{
		const FlatCmp *fc = &v->flat[t];

		if (fc->leaf != leaf || fc->widen || fc->native != NATIVE_INT64)
			return false;
		if (fc->is_min ?
			!narrow_interval(fc->strategy, fc->cst, &min_lo, &min_hi) :
			!narrow_interval(fc->strategy, fc->cst, &max_lo, &max_hi))
			return false;
		use_min |= fc->is_min;
		use_max |= !fc->is_min;
	}
	for (j = 0; j < n; j++)
	{
		const DeltaStatsHeader *h = &hdr[idx[j]];
		const DeltaLeafStats *ls = &col[idx[j]];

		if ((j & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
		if (header_keeps(v, h) ||
			!leaf_verified(ls, nmin, nmax, h->has_num_records,
						   h->num_records))
			keep[j] = true;
		else
			keep[j] =
				(!use_min || (ls->has_min &&
							  in_interval(DatumGetInt64(ls->min), min_lo, min_hi))) &&
				(!use_max || (ls->has_max &&
							  in_interval(DatumGetInt64(ls->max), max_lo, max_hi)));
	}
	return true;
}

/*
 * See predicate.h.  The same steps as delta_read_stats_may_match without a
 * reason (has_stats, then verify_ok, then flat_eval), each reading the
 * file's leaf statistics from its column instead of a DeltaFileStats.
 */
bool
delta_read_stats_may_match_columns(DeltaReadSet *rs, int read,
								   bool writer_includes_nan,
								   int n, const int *idx,
								   const DeltaStatsHeader *hdr,
								   int ncols, const int *col_leaf,
								   DeltaLeafStats *const *colvals,
								   bool *keep)
{
	const KVariant *v;
	const DeltaLeafStats *need_col[COLUMNS_MAX_TERMS];
	const DeltaLeafStats *flat_col[COLUMNS_MAX_TERMS];
	int			j,
				t;

	Assert(read >= 0 && read < rs->nreads);
	v = &rs->reads[read].v[writer_includes_nan ? 1 : 0];
	if (v->k == NULL || v->n_flat <= 0 ||
		v->n_flat > COLUMNS_MAX_TERMS || v->n_need > COLUMNS_MAX_TERMS)
		return false;
	for (t = 0; t < v->n_need; t++)
	{
		int			k = column_of_leaf(v->need_leaf[t], ncols, col_leaf);

		if (k < 0)
			return false;
		need_col[t] = colvals[k];
	}
	for (t = 0; t < v->n_flat; t++)
	{
		int			k = column_of_leaf(v->flat[t].leaf, ncols, col_leaf);

		if (k < 0)
			return false;
		flat_col[t] = colvals[k];
	}
	if (v->n_need == 1 &&
		columns_one_range(v, n, idx, hdr, need_col[0], keep))
		return true;

	for (j = 0; j < n; j++)
	{
		int			i = idx[j];
		const DeltaStatsHeader *h = &hdr[i];
		bool		ok = true;

		if ((j & 4095) == 0)
			CHECK_FOR_INTERRUPTS();
		/* no statistics, or not the ones the predicate needs: keep */
		if (header_keeps(v, h))
		{
			keep[j] = true;
			continue;
		}
		for (t = 0; t < v->n_need && ok; t++)
			ok = leaf_verified(&need_col[t][i], v->need_min[v->need_leaf[t]],
							   v->need_max[v->need_leaf[t]],
							   h->has_num_records, h->num_records);
		if (!ok)
		{
			keep[j] = true;
			continue;
		}
		/* kept when every comparison is true */
		for (t = 0; t < v->n_flat && ok; t++)
			ok = flat_cmp_true(&v->flat[t], &flat_col[t][i]);
		keep[j] = ok;
	}
	return true;
}

bool
delta_read_partition_matches(DeltaReadSet *rs, int read,
							 const DeltaPartitionValues *pv, char **reason)
{
	ReadInfo   *ri;
	TupleTableSlot *slot = rs->slot;
	int			n = rs->schema->nleaves;
	int			i;
	int			r;

	Assert(read >= 0 && read < rs->nreads);
	ri = &rs->reads[read];
	if (ri->partition_state == NULL)
	{
		if (reason)
			*reason = pstrdup("the read has no partition predicate");
		return true;
	}
	ExecClearTuple(slot);
	for (i = 0; i < n; i++)
	{
		slot->tts_values[i] = (Datum) 0;
		slot->tts_isnull[i] = true;
	}
	for (i = 0; i < n; i++)
	{
		const DeltaField *f = rs->schema->leaves[i];
		const char *val;

		if (!ri->partition_refs[i])
			continue;
		if (!delta_partition_value_lookup(pv, f, &val))
			continue;			/* missing key: NULL */
		if (!delta_partition_value_parse(f, val, &slot->tts_values[i],
										 &slot->tts_isnull[i]))
		{
			if (reason)
				*reason = psprintf("partition value %s=%s cannot be parsed as %s",
								   f->path, quote_literal_cstr(val), f->type_name);
			return true;
		}
	}
	ExecStoreVirtualTuple(slot);
	r = eval_bool(rs, ri->partition_state);
	if (reason)
		*reason = psprintf("partition predicate is %s",
						   r == 1 ? "true" : r == 0 ? "false" : "null");
	return r == 1;
}

bool
delta_read_row_matches(DeltaReadSet *rs, int read, const Datum *values,
					   const bool *isnull)
{
	ReadInfo   *ri;
	TupleTableSlot *slot = rs->slot;
	int			n = rs->schema->nleaves;

	Assert(read >= 0 && read < rs->nreads);
	ri = &rs->reads[read];
	if (ri->row_state == NULL)
		return true;
	ExecClearTuple(slot);
	memcpy(slot->tts_values, values, sizeof(Datum) * n);
	memcpy(slot->tts_isnull, isnull, sizeof(bool) * n);
	ExecStoreVirtualTuple(slot);
	return eval_bool(rs, ri->row_state) == 1;
}

bool
delta_writer_includes_nan(const char *engine_info)
{
	if (engine_info == NULL)
		return false;
	if (strncmp(engine_info, "Apache-Spark/", 13) == 0 &&
		strstr(engine_info, "Delta-Lake/") != NULL)
		return true;
	if (strncmp(engine_info, "Databricks-Runtime/", 19) == 0 &&
		strstr(engine_info, "photon") == NULL)
		return true;
	return false;
}

/*
 * The operations of Delta Spark and Databricks whose added files carry
 * statistics computed from the rows the commit wrote.  (Not, among others:
 * RESTORE, CLONE and CONVERT, which add files with statistics taken from
 * elsewhere; ROW TRACKING BACKFILL and other re-adds; "Manual Update",
 * whose actions are hand-made.)
 */
static const char *const fresh_stats_operations[] = {
	"WRITE",
	"STREAMING UPDATE",
	"MERGE",
	"UPDATE",
	"DELETE",
	"OPTIMIZE",
	"CREATE TABLE AS SELECT",
	"REPLACE TABLE AS SELECT",
	"CREATE OR REPLACE TABLE AS SELECT",
};

bool
delta_commit_stats_include_nan(const DeltaCommitInfo *ci, bool adds_with_dv)
{
	int			i;

	if (ci == NULL || adds_with_dv || ci->operation == NULL ||
		!delta_writer_includes_nan(ci->engine_info))
		return false;
	for (i = 0; i < lengthof(fresh_stats_operations); i++)
		if (strcmp(ci->operation, fresh_stats_operations[i]) == 0)
			return true;
	return false;
}

/*
 * delta_read_row_references: see predicate.h (added for src/rowlevel.c).
 */
bool
delta_read_row_references(const DeltaReadSet *rs, int read, bool *refs)
{
	const ReadInfo *ri;

	Assert(read >= 0 && read < rs->nreads);
	ri = &rs->reads[read];
	if (ri->row_expr == NULL)
		return false;
	collect_vars((Node *) ri->row_expr, refs);
	return true;
}
