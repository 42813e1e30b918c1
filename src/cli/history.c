/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* history.c - look a revoking row up in the published SbatLevel history */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sbat/sbat.h"
#include "history.h"
#include "messages.h"
#include "options.h"

#ifndef SBAT_ADD_HISTORY_FILE
#define SBAT_ADD_HISTORY_FILE "/usr/share/sbat-add/sbat-level-history.txt"
#endif

#define RAISE_FIELDS 7

/* Split line at "|" into at most n fields; returns how many. */
static int
split(char *line, char **f, int n)
{
	int i = 0;

	while (i < n) {
		f[i++] = line;
		line = strchr(line, '|');
		if (!line)
			break;
		*line++ = '\0';
	}
	return i;
}

const char *
cli_history_path(void)
{
	const char *path = getenv("SBAT_ADD_HISTORY");

	if (path && *path)
		return path;
	return access(SBAT_ADD_HISTORY_FILE, F_OK) == 0 ? SBAT_ADD_HISTORY_FILE : CLI_HISTORY_BUILTIN_NAME;
}

/* Largest history file read: a thousand times today's. */
#define HISTORY_MAX_SIZE (4u * 1024u * 1024u)

/*
 * The history named by cli_history_path, open for reading, and in *held the
 * buffer behind it (NULL for the built-in one), both for close_history.
 * NULL with *why: a regular file of bounded size only, so that a FIFO or a
 * device named by SBAT_ADD_HISTORY is refused rather than waited on.
 */
static FILE *
open_history(const char *path, uint8_t **held, const char **why)
{
	static const char empty[] = "\n";
	size_t len = 0;
	sbat_diag d;
	FILE *fh;

	*held = NULL;
	if (strcmp(path, CLI_HISTORY_BUILTIN_NAME) == 0)
		return fmemopen((void *)cli_history_builtin, strlen(cli_history_builtin), "r");
	if (sbat_file_read(path, HISTORY_MAX_SIZE, held, &len, &d) != SBAT_OK) {
		*why = d.sys_errno ? strerror(d.sys_errno) : d.what ? d.what : sbat_strerror(d.code);
		return NULL;
	}
	fh = len ? fmemopen(*held, len, "r") : fmemopen((void *)empty, 1, "r");
	if (!fh) {
		*why = strerror(errno);
		free(*held);
		*held = NULL;
	}
	return fh;
}

static void
close_history(FILE *fh, uint8_t *held)
{
	fclose(fh);
	free(held);
}

int
cli_history_explain(const char *name, unsigned generation, char *out, size_t size)
{
	const char *path = cli_history_path();
	char line[1024], *f[RAISE_FIELDS];
	int found = -1;
	const char *why;
	uint8_t *held;
	FILE *fh;

	if (size)
		out[0] = '\0';
	fh = open_history(path, &held, &why);
	if (!fh)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), fh)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "raise|", 6) != 0 || split(line, f, RAISE_FIELDS) != RAISE_FIELDS)
			continue;
		if (strcmp(f[1], name) != 0 || strtoul(f[2], NULL, 10) != generation)
			continue;
		if (strcmp(f[5], "-") == 0)
			snprintf(out, size, "since SbatLevel %s: %s", f[3], f[6]);
		else
			snprintf(out, size, "since SbatLevel %s: %s (%s)", f[3], f[6], f[5]);
		found = 0;
	}
	close_history(fh, held);
	return found;
}

/* "sbat,1,STAMP\nROW\n..." from the fields of a level line, into text[0..size); 0, or -1 when it does not fit. */
static int
level_text(const char *stamp, const char *rows, char *text, size_t size)
{
	int n = snprintf(text, size, "sbat,1,%s\n%s", stamp, rows);
	char *p;

	if (n < 0 || (size_t)n + 1 >= size)
		return -1;
	for (p = text; *p; p++)
		if (*p == ' ')
			*p = '\n';
	if (n > 0 && text[n - 1] != '\n')
		strcat(text, "\n");
	return 0;
}

/* One "level|" line (without its newline) as an SbatLevel, appended to *levels. */
static int
add_level_line(const char *path, unsigned lineno, char *line, sbat_level ***levels, size_t *n)
{
	char *f[3], text[2048], where[64];
	sbat_level **grown, *level = NULL;
	sbat_diag d;

	snprintf(where, sizeof(where), "line %u", lineno);
	if (split(line, f, 3) != 3 || level_text(f[1], f[2], text, sizeof(text)) != 0) {
		fprintf(stderr, "%s: %s: %s: not a level line (level|DATESTAMP|ROW ...)\n", cli_progname,
		        cli_quote(path), where);
		return EXIT_FAILURE_;
	}
	memset(&d, 0, sizeof(d));
	if (sbat_level_parse((const uint8_t *)text, strlen(text), &level, &d) != SBAT_OK) {
		/* the line and field of d count in the level made of this line: only its reason helps */
		fprintf(stderr, "%s: %s: %s: %s\n", cli_progname, cli_quote(path), where,
		        d.what ? d.what : sbat_strerror(d.code));
		return EXIT_FAILURE_;
	}
	grown = realloc(*levels, (*n + 1) * sizeof(**levels));
	if (!grown) {
		sbat_level_free(level);
		cli_message(path, "out of memory");
		return EXIT_FAILURE_;
	}
	*levels = grown;
	(*levels)[(*n)++] = level;
	return EXIT_OK;
}

/* Each line of fh, the level lines taken; a line longer than the buffer is an error. */
static int
read_level_lines(FILE *fh, const char *path, sbat_level ***levels, size_t *n)
{
	char line[1024];
	unsigned lineno = 0;
	int status = EXIT_OK;

	while (status == EXIT_OK && fgets(line, sizeof(line), fh)) {
		size_t len = strlen(line);

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(fh)) {
			fprintf(stderr, "%s: %s: line %u: longer than %zu bytes\n", cli_progname, cli_quote(path),
			        lineno, sizeof(line) - 2);
			return EXIT_FAILURE_;
		}
		if (strncmp(line, "level|", 6) == 0)
			status = add_level_line(path, lineno, line, levels, n);
	}
	if (status == EXIT_OK && ferror(fh)) {
		fprintf(stderr, "%s: %s: read error\n", cli_progname, cli_quote(path));
		status = EXIT_FAILURE_;
	}
	return status;
}

int
cli_history_levels(sbat_level ***ret, size_t *ret_n)
{
	const char *path = cli_history_path();
	sbat_level **levels = NULL;
	size_t n = 0;
	int status;
	const char *why = NULL;
	uint8_t *held;
	FILE *fh = open_history(path, &held, &why);

	if (!fh) {
		fprintf(stderr, "%s: %s: cannot read the published SbatLevel history: %s\n", cli_progname,
		        cli_quote(path), why);
		return EXIT_FAILURE_;
	}
	status = read_level_lines(fh, path, &levels, &n);
	close_history(fh, held);
	if (status == EXIT_OK && n == 0) {
		cli_message(path, "the SbatLevel history holds no level line");
		status = EXIT_FAILURE_;
	}
	if (status != EXIT_OK) {
		cli_history_free(levels, n);
		return status;
	}
	*ret = levels;
	*ret_n = n;
	return EXIT_OK;
}

void
cli_history_free(sbat_level **levels, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sbat_level_free(levels[i]);
	free(levels);
}
