/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* history.h - the published SbatLevel history (sbat-level-history.txt), to explain a revoking row */
#ifndef SBAT_CLI_HISTORY_H
#define SBAT_CLI_HISTORY_H

#include <stddef.h>

/*
 * What the history file says about the level row NAME,GENERATION: "since
 * SbatLevel DATESTAMP: SUMMARY (REFERENCES)" into out. The file is
 * SBAT_ADD_HISTORY, else the installed one. Returns 0 when it has a line
 * for the row, -1 otherwise (no file, or an unpublished row: out is empty).
 */
int cli_history_explain(const char *name, unsigned generation, char *out, size_t size);

#endif
