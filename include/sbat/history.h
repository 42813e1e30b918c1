/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* history.h - the published SbatLevel history (sbat-level-history.txt): its levels, and why a row was raised */
#ifndef SBAT_HISTORY_H
#define SBAT_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "level.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest line of a history, its newline not counted. */
#define SBAT_HISTORY_LINE_MAX 1022

/*
 * What the history text[0..len) says about the level row NAME,GENERATION:
 * from its first "raise|NAME|GENERATION|DATESTAMP|...|REFERENCES|SUMMARY"
 * line, "since SbatLevel DATESTAMP: SUMMARY (REFERENCES)" into out (no
 * references when they are "-"; cut to fit size). SBAT_E_LEVEL when the
 * history has no such line (out is then empty).
 */
SBAT_API sbat_err sbat_history_explain(const uint8_t *text, size_t len, const char *name, unsigned generation,
                                       char *out, size_t size, sbat_diag *reterr);

/*
 * Every published level of the history text[0..len): each
 * "level|DATESTAMP|ROW ..." line, in order, parsed as the SbatLevel
 * "sbat,1,DATESTAMP" with those rows, into a malloc'ed array *ret of *ret_n
 * levels (free it with sbat_history_levels_free). SBAT_E_LEVEL, its line
 * set, for a line longer than SBAT_HISTORY_LINE_MAX, a level line that
 * does not parse, or no level line at all.
 */
SBAT_API sbat_err sbat_history_levels(const uint8_t *text, size_t len, sbat_level ***ret, size_t *ret_n,
                                      sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_history_levels_free(sbat_level **levels, size_t n);

#ifdef __cplusplus
}
#endif

#endif
