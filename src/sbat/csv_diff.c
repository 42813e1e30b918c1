/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* csv_diff.c - what an edit changes in a .sbat, line by line: a diff by the longest common subsequence */
#include <stdlib.h>
#include <string.h>

#include "sbat/csv.h"

#include "util/diag.h"

/* A .sbat larger than this is not diffed: the table is (lines + 1)^2 entries. */
#define DIFF_MAX_TEXT (64u * 1024u)

/* Lines of text[0..len), each without its newline, into lines[] (room for every newline plus one); their count. */
static size_t
split_lines(const char *text, size_t len, sbat_csv_diff_line *lines)
{
	size_t n = 0, i, start = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		if (i == len && start == len)
			break;
		lines[n].text = text + start;
		lines[n++].len = i - start;
		start = i + 1;
	}
	return n;
}

static size_t
count_lines(const uint8_t *text, size_t len)
{
	size_t n = 1, i;

	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

static int
same(const sbat_csv_diff_line *a, const sbat_csv_diff_line *b)
{
	return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

/* lcs[i][j]: the longest common subsequence of a[i..] and b[j..]. */
static void
fill_table(const sbat_csv_diff_line *a, size_t na, const sbat_csv_diff_line *b, size_t nb, unsigned *lcs)
{
	size_t i, j, w = nb + 1;

	for (i = na; i-- > 0;)
		for (j = nb; j-- > 0;)
			lcs[i * w + j] = same(&a[i], &b[j])                        ? lcs[(i + 1) * w + j + 1] + 1 :
			                 lcs[(i + 1) * w + j] > lcs[i * w + j + 1] ? lcs[(i + 1) * w + j] :
			                                                             lcs[i * w + j + 1];
}

/* The diff from the table into out (room for na + nb); its length. */
static size_t
walk_table(const sbat_csv_diff_line *a, size_t na, const sbat_csv_diff_line *b, size_t nb, const unsigned *lcs,
           sbat_csv_diff_line *out)
{
	size_t i = 0, j = 0, n = 0, w = nb + 1;

	while (i < na || j < nb) {
		if (i < na && j < nb && same(&a[i], &b[j])) {
			out[n] = a[i++];
			out[n++].op = ' ';
			j++;
		} else if (i < na && (j == nb || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
			out[n] = a[i++];
			out[n++].op = '-';
		} else {
			out[n] = b[j++];
			out[n++].op = '+';
		}
	}
	return n;
}

sbat_err
sbat_csv_diff(const uint8_t *old_text, size_t old_len, const uint8_t *new_text, size_t new_len,
              sbat_csv_diff_line **ret, size_t *ret_n, size_t *ret_old_lines, size_t *ret_new_lines, sbat_diag *d)
{
	sbat_csv_diff_line *a = NULL, *b = NULL, *out = NULL;
	unsigned *lcs = NULL;
	size_t na, nb;

	*ret = NULL;
	*ret_n = *ret_old_lines = *ret_new_lines = 0;
	if (old_len > DIFF_MAX_TEXT || new_len > DIFF_MAX_TEXT)
		return diag_fail(d, SBAT_E_TOO_BIG, "a .sbat too large to diff");
	a = calloc(count_lines(old_text, old_len), sizeof(*a));
	b = calloc(count_lines(new_text, new_len), sizeof(*b));
	if (a && b) {
		na = split_lines((const char *)old_text, old_len, a);
		nb = split_lines((const char *)new_text, new_len, b);
		lcs = calloc((na + 1) * (nb + 1), sizeof(*lcs));
		out = lcs ? calloc(na + nb + 1, sizeof(*out)) : NULL;
	}
	if (out) {
		fill_table(a, na, b, nb, lcs);
		*ret_n = walk_table(a, na, b, nb, lcs, out);
		*ret_old_lines = na;
		*ret_new_lines = nb;
		*ret = out;
	}
	free(a);
	free(b);
	free(lcs);
	return out ? SBAT_OK : diag_fail(d, SBAT_E_NOMEM, "out of memory");
}
