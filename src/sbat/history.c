/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* history.c - the published SbatLevel history: level lines as SbatLevels, raise lines as the reason for a row */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/history.h"

#include "util/diag.h"

#define RAISE_FIELDS 7

/* The line at *at of text[0..len) into line[0..size) without its newline; 0 at the end, -1 when too long. */
static int
next_line(const uint8_t *text, size_t len, size_t *at, char *line, size_t size)
{
	const uint8_t *nl;
	size_t n;

	if (*at >= len)
		return 0;
	nl = memchr(text + *at, '\n', len - *at);
	n = nl ? (size_t)(nl - (text + *at)) : len - *at;
	if (n >= size)
		return -1;
	memcpy(line, text + *at, n);
	line[n] = '\0';
	*at += n + (nl != NULL);
	return 1;
}

/* Split line at "|" into at most n fields (the last keeps the rest); returns how many. */
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

sbat_err
sbat_history_explain(const uint8_t *text, size_t len, const char *name, unsigned generation, char *out, size_t size,
                     sbat_diag *reterr)
{
	char line[SBAT_HISTORY_LINE_MAX + 2], *f[RAISE_FIELDS];
	size_t at = 0;
	int r;

	if (size)
		out[0] = '\0';
	while ((r = next_line(text, len, &at, line, sizeof(line))) != 0) {
		if (r < 0 || strncmp(line, "raise|", 6) != 0 || split(line, f, RAISE_FIELDS) != RAISE_FIELDS)
			continue;
		if (strcmp(f[1], name) != 0 || strtoul(f[2], NULL, 10) != generation)
			continue;
		if (strcmp(f[5], "-") == 0)
			snprintf(out, size, "since SbatLevel %s: %s", f[3], f[6]);
		else
			snprintf(out, size, "since SbatLevel %s: %s (%s)", f[3], f[6], f[5]);
		return SBAT_OK;
	}
	return diag_fail(reterr, SBAT_E_LEVEL, "history: no raise line for this row");
}

/* "sbat,1,STAMP\nROW\n..." from the fields of a level line, into out[0..size); 0, or -1 when it does not fit. */
static int
level_text(const char *stamp, const char *rows, char *out, size_t size)
{
	int n = snprintf(out, size, "sbat,1,%s\n%s", stamp, rows);
	char *p;

	if (n < 0 || (size_t)n + 1 >= size)
		return -1;
	for (p = out; *p; p++)
		if (*p == ' ')
			*p = '\n';
	if (n > 0 && out[n - 1] != '\n')
		strcat(out, "\n");
	return 0;
}

/* A level line (without "level|"'s checks done) appended to *levels. */
static sbat_err
add_level(char *line, unsigned lineno, sbat_level ***levels, size_t *n, sbat_diag *d)
{
	char *f[3], text[2048];
	sbat_level **grown, *level = NULL;

	if (split(line, f, 3) != 3 || level_text(f[1], f[2], text, sizeof(text)) != 0) {
		diag_fail(d, SBAT_E_LEVEL, "not a level line (level|DATESTAMP|ROW ...)");
		d->line = lineno;
		return SBAT_E_LEVEL;
	}
	if (sbat_level_parse((const uint8_t *)text, strlen(text), &level, d) != SBAT_OK) {
		/* the line and field counted in the level made of this line do not help: the history's line does */
		d->line = lineno;
		d->field = 0;
		d->has_offset = 0;
		return d->code;
	}
	grown = realloc(*levels, (*n + 1) * sizeof(**levels));
	if (!grown) {
		sbat_level_free(level);
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	}
	*levels = grown;
	(*levels)[(*n)++] = level;
	return SBAT_OK;
}

sbat_err
sbat_history_levels(const uint8_t *text, size_t len, sbat_level ***ret, size_t *ret_n, sbat_diag *reterr)
{
	sbat_diag local, *d = reterr ? reterr : &local;
	char line[SBAT_HISTORY_LINE_MAX + 2];
	sbat_level **levels = NULL;
	size_t n = 0, at = 0;
	unsigned lineno = 0;
	sbat_err err = SBAT_OK;
	int r;

	*ret = NULL;
	*ret_n = 0;
	while (err == SBAT_OK && (r = next_line(text, len, &at, line, sizeof(line))) != 0) {
		lineno++;
		if (r < 0) {
			err = diag_fail(d, SBAT_E_LEVEL, "longer than 1022 bytes");
			d->line = lineno;
		} else if (strncmp(line, "level|", 6) == 0) {
			err = add_level(line, lineno, &levels, &n, d);
		}
	}
	if (err == SBAT_OK && n == 0)
		err = diag_fail(d, SBAT_E_LEVEL, "the SbatLevel history holds no level line");
	if (err != SBAT_OK) {
		sbat_history_levels_free(levels, n);
		return err;
	}
	*ret = levels;
	*ret_n = n;
	return SBAT_OK;
}

void
sbat_history_levels_free(sbat_level **levels, size_t n)
{
	size_t i;

	for (i = 0; levels && i < n; i++)
		sbat_level_free(levels[i]);
	free(levels);
}
