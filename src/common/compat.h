/*-------------------------------------------------------------------------
 *
 * compat.h
 *	  Every PostgreSQL-version difference deltacc cares about, in one place.
 *
 * PostgreSQL 15 is the floor: InitMaterializedSRF, MarkGUCPrefixReserved
 * and psql's \getenv (used by the tests) all appeared in 15.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/common/compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_COMPAT_H
#define DELTACC_COMPAT_H

#if PG_VERSION_NUM < 150000
#error "deltacc requires PostgreSQL 15 or later"
#endif

#endif							/* DELTACC_COMPAT_H */
