/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* history.c - the published SbatLevel history this command reads: SBAT_ADD_HISTORY, the installed one, or the built-in */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbat/error.h"
#include "sbat/history.h"
#include "sbat/input.h"
#include "sbat/level.h"
#include "history.h"
#include "messages.h"
#include "options.h"

#ifndef SBAT_ADD_HISTORY_FILE
#define SBAT_ADD_HISTORY_FILE "/usr/share/sbat-add/sbat-level-history.txt"
#endif

/* Largest history file read: a thousand times today's. */
#define HISTORY_MAX_SIZE (4u * 1024u * 1024u)

const char *
cli_history_path(void)
{
	const char *path = getenv("SBAT_ADD_HISTORY");

	if (path && *path)
		return path;
	return access(SBAT_ADD_HISTORY_FILE, F_OK) == 0 ? SBAT_ADD_HISTORY_FILE : CLI_HISTORY_BUILTIN_NAME;
}

/*
 * The text of the history at path, and in *held the buffer to free (NULL
 * for the built-in one). NULL with *why: a regular file of bounded size
 * only, so that a FIFO or a device named by SBAT_ADD_HISTORY is refused
 * rather than waited on.
 */
static const uint8_t *
read_history(const char *path, size_t *len, uint8_t **held, const char **why)
{
	sbat_diag d;

	*held = NULL;
	if (strcmp(path, CLI_HISTORY_BUILTIN_NAME) == 0) {
		*len = strlen(cli_history_builtin);
		return (const uint8_t *)cli_history_builtin;
	}
	if (sbat_file_read(path, HISTORY_MAX_SIZE, held, len, &d) != SBAT_OK) {
		*why = d.sys_errno ? strerror(d.sys_errno) : d.what ? d.what : sbat_strerror(d.code);
		return NULL;
	}
	return *held ? *held : (const uint8_t *)"";
}

int
cli_history_explain(const char *name, unsigned generation, char *out, size_t size)
{
	const char *why;
	uint8_t *held;
	size_t len = 0;
	const uint8_t *text = read_history(cli_history_path(), &len, &held, &why);
	sbat_diag d;
	int r;

	if (size)
		out[0] = '\0';
	if (!text)
		return -1;
	r = sbat_history_explain(text, len, name, generation, out, size, &d) == SBAT_OK ? 0 : -1;
	free(held);
	return r;
}

int
cli_history_levels(sbat_level ***ret, size_t *ret_n)
{
	const char *path = cli_history_path(), *why = NULL;
	uint8_t *held;
	size_t len = 0;
	const uint8_t *text = read_history(path, &len, &held, &why);
	sbat_diag d;
	sbat_err err;

	if (!text) {
		fprintf(stderr, "%s: %s: cannot read the published SbatLevel history: %s\n", cli_progname,
		        cli_quote(path), why);
		return EXIT_FAILURE_;
	}
	err = sbat_history_levels(text, len, ret, ret_n, &d);
	free(held);
	if (err == SBAT_OK)
		return EXIT_OK;
	if (err != SBAT_E_LEVEL || !d.line)
		return cli_report_error(path, &d);
	fprintf(stderr, "%s: %s: line %u: %s\n", cli_progname, cli_quote(path), d.line, d.what);
	return EXIT_FAILURE_;
}

void
cli_history_free(sbat_level **levels, size_t n)
{
	sbat_history_levels_free(levels, n);
}
