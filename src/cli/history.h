/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* history.h - the published SbatLevel history (sbat-level-history.txt), to explain a revoking row */
#ifndef SBAT_CLI_HISTORY_H
#define SBAT_CLI_HISTORY_H

#include <stddef.h>

#include "sbat/level.h"

/*
 * What the history file says about the level row NAME,GENERATION: "since
 * SbatLevel DATESTAMP: SUMMARY (REFERENCES)" into out. The file is
 * SBAT_ADD_HISTORY, else the installed one. Returns 0 when it has a line
 * for the row, -1 otherwise (no file, or an unpublished row: out is empty).
 */
int cli_history_explain(const char *name, unsigned generation, char *out, size_t size);

/*
 * The history that is read: the file SBAT_ADD_HISTORY names, else the
 * installed file, else (not installed: run from the build tree) the copy
 * built in, whose name is CLI_HISTORY_BUILTIN_NAME.
 */
const char *cli_history_path(void);
#define CLI_HISTORY_BUILTIN_NAME "sbat-level-history.txt (built in)"

/* data/sbat-level-history.txt as it was when the command was built. */
extern const char cli_history_builtin[];

/*
 * Every published level of the history file ("level|DATESTAMP|ROW ..."
 * lines), in the file's order, each parsed as an SbatLevel
 * "sbat,1,DATESTAMP" with those rows. *ret is a malloc'ed array of *ret_n
 * levels; free it with cli_history_free. Returns 0, or EXIT_FAILURE_ after
 * an error naming the file (and the line) on stderr: no file, a line too
 * long, a level that does not parse, no level at all.
 */
int cli_history_levels(sbat_level ***ret, size_t *ret_n);
void cli_history_free(sbat_level **levels, size_t n);

#endif
