/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* csv_args.c - where --csv takes its rows from: files, standard input, inline text; several merged in order */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/csv.h"
#include "sbat/error.h"
#include "sbat/input.h"

#include "csv_args.h"
#include "messages.h"
#include "options.h"

/*
 * The rule that tells the forms apart, in this order: "-" is standard
 * input; "@PATH" is the file PATH; a file that exists is that file; text
 * that holds a newline or starts with "sbat," is the CSV itself; anything
 * else is a file name. Every mode that takes --csv uses this rule.
 */
static int
is_inline(const char *arg)
{
	struct stat st;

	if (strchr(arg, '\n') == NULL && strncmp(arg, "sbat,", 5) != 0)
		return 0;
	return stat(arg, &st) != 0;
}

const char *
cli_csv_label(const char *arg)
{
	if (strcmp(arg, "-") == 0)
		return "standard input";
	if (arg[0] == '@')
		return arg + 1;
	return is_inline(arg) ? "inline CSV" : arg;
}

/* A failure of the command's own reading, worded as the library words its own. */
static sbat_err
read_fail(sbat_diag *d, sbat_err code, const char *what, int err)
{
	memset(d, 0, sizeof(*d));
	d->code = code;
	d->what = what;
	d->sys_errno = err;
	d->other_index = -1;
	return code;
}

/* All of standard input, at most SBAT_CSV_MAX_SIZE bytes. */
static sbat_err
read_stdin(uint8_t **ret, size_t *ret_len, sbat_diag *d)
{
	size_t cap = SBAT_CSV_MAX_SIZE + 1, len = 0;
	uint8_t *buf = malloc(cap);
	int err = 0;

	if (!buf)
		return read_fail(d, SBAT_E_NOMEM, "out of memory", 0);
	while (len < cap) {
		ssize_t n = read(STDIN_FILENO, buf + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			err = errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (err || len == cap) {
		free(buf);
		return err ? read_fail(d, SBAT_E_IO, "cannot read", err) :
		             read_fail(d, SBAT_E_TOO_BIG, "file is larger than 64 KiB, the most a CSV may hold", 0);
	}
	*ret = buf;
	*ret_len = len;
	return SBAT_OK;
}

sbat_err
cli_read_csv_arg(const char *arg, uint8_t **ret, size_t *ret_len, sbat_diag *d)
{
	size_t n;

	if (strcmp(arg, "-") == 0)
		return read_stdin(ret, ret_len, d);
	if (arg[0] == '@')
		return sbat_file_read(arg + 1, SBAT_CSV_MAX_SIZE, ret, ret_len, d);
	if (!is_inline(arg))
		return sbat_file_read(arg, SBAT_CSV_MAX_SIZE, ret, ret_len, d);
	n = strlen(arg);
	*ret = malloc(n ? n : 1);
	if (!*ret)
		return read_fail(d, SBAT_E_NOMEM, "out of memory", 0);
	memcpy(*ret, arg, n);
	*ret_len = n;
	return SBAT_OK;
}

int
cli_parse_csv_arg(const char *arg, sbat_csv **ret)
{
	uint8_t *text = NULL;
	size_t len = 0;
	sbat_diag d;
	int status = EXIT_OK;

	if (cli_read_csv_arg(arg, &text, &len, &d) || sbat_csv_parse(text, len, ret, &d))
		status = cli_report_error(cli_csv_label(arg), &d);
	free(text);
	return status;
}

/* base and next merged (next's rows after base's), as a parsed CSV replacing *base. */
static int
merge_into(sbat_csv **base, const char *arg, const sbat_csv *next, int force)
{
	uint8_t *merged = NULL;
	size_t len = 0;
	sbat_csv *again = NULL;
	sbat_diag d;

	if (sbat_csv_merge(*base, next, force, &merged, &len, &d) || sbat_csv_parse(merged, len, &again, &d)) {
		free(merged);
		return cli_report_error(cli_csv_label(arg), &d);
	}
	free(merged);
	sbat_csv_free(*base);
	*base = again;
	return EXIT_OK;
}

int
cli_load_csvs(const cli_opts *o, uint8_t **ret_payload, size_t *ret_len)
{
	sbat_csv *all = NULL, *next = NULL;
	sbat_diag d;
	size_t i;
	int status = EXIT_OK;

	for (i = 0; i < o->n_csv && status == EXIT_OK; i++) {
		status = cli_parse_csv_arg(o->csvs[i], i == 0 ? &all : &next);
		if (status == EXIT_OK && i > 0)
			status = merge_into(&all, o->csvs[i], next, o->force);
		next = sbat_csv_free(next);
	}
	if (status == EXIT_OK && sbat_csv_format(all, ret_payload, ret_len, &d))
		status = cli_report_error(cli_csv_label(o->csvs[0]), &d);
	sbat_csv_free(all);
	return status;
}
