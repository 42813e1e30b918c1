/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* diff.c - what a replace does to the rows: the components it drops, and a unified diff for --dry-run */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sbat.h"

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

/* Lines of text[0..len), each without its newline; *ret_n of them. */
static const char **
split_lines(const char *text, size_t len, size_t **ret_lens, size_t *ret_n)
{
	size_t n = 0, i, start = 0;
	const char **lines;

	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	if (len && text[len - 1] != '\n')
		n++;
	lines = calloc(n + 1, sizeof(*lines));
	*ret_lens = calloc(n + 1, sizeof(**ret_lens));
	if (!lines || !*ret_lens) {
		free(lines);
		free(*ret_lens);
		*ret_lens = NULL;
		return NULL;
	}
	for (i = 0, n = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		if (i == len && start == len)
			break;
		lines[n] = text + start;
		(*ret_lens)[n++] = i - start;
		start = i + 1;
	}
	*ret_n = n;
	return lines;
}

static int
same_line(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && memcmp(a, b, alen) == 0;
}

/*
 * A unified diff of a (old) and b (new) as one hunk with all lines as
 * context: the longest common subsequence decides what stays. Rows are
 * few (64 KiB of CSV at most), so the quadratic table is small.
 */
static void
print_diff(const char *label, const char *a, size_t alen, const char *b, size_t blen)
{
	size_t *al = NULL, *bl = NULL, na = 0, nb = 0, i, j;
	const char **la = split_lines(a, alen, &al, &na), **lb = split_lines(b, blen, &bl, &nb);
	unsigned *lcs = la && lb ? calloc((na + 1) * (nb + 1), sizeof(*lcs)) : NULL;

	if (!lcs) {
		fprintf(stderr, "%s: out of memory for the diff\n", cli_progname);
		goto out;
	}
	for (i = na; i-- > 0;)
		for (j = nb; j-- > 0;)
			lcs[i * (nb + 1) + j] = same_line(la[i], al[i], lb[j], bl[j]) ?
			                            lcs[(i + 1) * (nb + 1) + j + 1] + 1 :
			                        lcs[(i + 1) * (nb + 1) + j] > lcs[i * (nb + 1) + j + 1] ?
			                            lcs[(i + 1) * (nb + 1) + j] :
			                            lcs[i * (nb + 1) + j + 1];
	printf("--- %s (.sbat now)\n+++ %s (.sbat after the edit)\n@@ -%zu,%zu +%zu,%zu @@\n", label, label,
	       na ? (size_t)1 : 0, na, nb ? (size_t)1 : 0, nb);
	for (i = 0, j = 0; i < na || j < nb;) {
		if (i < na && j < nb && same_line(la[i], al[i], lb[j], bl[j])) {
			printf(" %.*s\n", (int)al[i], la[i]);
			i++, j++;
		} else if (i < na && (j == nb || lcs[(i + 1) * (nb + 1) + j] >= lcs[i * (nb + 1) + j + 1])) {
			printf("-%.*s\n", (int)al[i], la[i]);
			i++;
		} else {
			printf("+%.*s\n", (int)bl[j], lb[j]);
			j++;
		}
	}
out:
	free(lcs);
	free(la);
	free(lb);
	free(al);
	free(bl);
}

void
cli_print_sbat_diff(const cli_opts *o, const sbat_image *img, const uint8_t *payload, size_t payload_len)
{
	const uint8_t *text = NULL;
	size_t n = 0;

	if (sbat_image_sbat_data(img, &text, &n, NULL) != SBAT_OK)
		n = 0;
	print_diff(cli_quote(o->image), (const char *)text, n, (const char *)payload, payload_len);
}
