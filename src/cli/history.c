/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* history.c - look a revoking row up in the published SbatLevel history */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"

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

int
cli_history_explain(const char *name, unsigned generation, char *out, size_t size)
{
	const char *path = getenv("SBAT_ADD_HISTORY");
	char line[1024], *f[RAISE_FIELDS];
	int found = -1;
	FILE *fh;

	if (size)
		out[0] = '\0';
	if (!path || !*path)
		path = SBAT_ADD_HISTORY_FILE;
	fh = fopen(path, "r");
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
	fclose(fh);
	return found;
}
