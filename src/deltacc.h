/*-------------------------------------------------------------------------
 *
 * deltacc.h
 *	  Cross-module declarations: GUC variables and limits.
 *
 * Copyright (c) 2026, deltacc developers
 *
 * IDENTIFICATION
 *	  src/deltacc.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DELTACC_DELTACC_H
#define DELTACC_DELTACC_H

#endif							/* DELTACC_DELTACC_H */
