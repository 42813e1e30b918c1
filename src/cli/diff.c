/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* diff.c - what a replace does to the rows: the components it drops, and a unified diff for --dry-run */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/csv.h"
#include "sbat/error.h"
#include "sbat/image.h"

#include "csv_args.h"
#include "messages.h"
#include "options.h"

/* The image's .sbat rows, or NULL when it has none or they do not parse. */
static sbat_csv *
old_rows(const sbat_image *img)
{
	const uint8_t *text;
	size_t n;
	sbat_csv *csv = NULL;

	if (sbat_image_sbat_data(img, &text, &n, NULL) != SBAT_OK || sbat_csv_parse(text, n, &csv, NULL) != SBAT_OK)
		return NULL;
	return csv;
}

static int
has_component(const sbat_csv *csv, const char *name)
{
	size_t i;

	for (i = 0; csv && i < csv->n_entries; i++)
		if (strcmp(csv->entries[i].component_name, name) == 0)
			return 1;
	return 0;
}

void
cli_warn_dropped_rows(const cli_opts *o, const sbat_image *img, const uint8_t *payload, size_t payload_len)
{
	sbat_csv *before = old_rows(img), *after = NULL;
	size_t i, n = 0;

	if (before && sbat_csv_parse(payload, payload_len, &after, NULL) == SBAT_OK) {
		for (i = 1; i < before->n_entries; i++) {
			if (has_component(after, before->entries[i].component_name))
				continue;
			if (n++ == 0)
				fprintf(stderr,
				        "%s: warning: %s: the new .sbat drops rows the image had:", cli_progname,
				        cli_quote(o->image));
			fprintf(stderr, " %s", cli_quote(before->entries[i].component_name));
		}
		if (n)
			fprintf(stderr, " (--merge keeps them)\n");
	}
	sbat_csv_free(before);
	sbat_csv_free(after);
}

void
cli_print_sbat_diff(const cli_opts *o, const sbat_image *img, const uint8_t *payload, size_t payload_len)
{
	const char *label = cli_quote(o->image);
	const uint8_t *text = NULL;
	sbat_csv_diff_line *lines;
	size_t n = 0, i, na, nb;
	sbat_diag d;

	if (sbat_image_sbat_data(img, &text, &n, NULL) != SBAT_OK)
		n = 0;
	if (sbat_csv_diff(text, n, payload, payload_len, &lines, &n, &na, &nb, &d) != SBAT_OK) {
		cli_report_error(o->image, &d);
		return;
	}
	/* one hunk with every line as context, as diff -U prints it */
	printf("--- %s (.sbat now)\n+++ %s (.sbat after the edit)\n@@ -%zu,%zu +%zu,%zu @@\n", label, label,
	       na ? (size_t)1 : 0, na, nb ? (size_t)1 : 0, nb);
	for (i = 0; i < n; i++)
		printf("%c%.*s\n", lines[i].op, (int)lines[i].len, lines[i].text);
	free(lines);
}
