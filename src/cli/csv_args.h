/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* csv_args.h - --csv arguments: where the CSV comes from, the merge, what an edit would change */
#ifndef SBAT_CLI_CSV_ARGS_H
#define SBAT_CLI_CSV_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include "sbat/csv.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "options.h"

/*
 * --csv arguments: "-" is standard input, "@PATH" the file PATH, a file
 * that exists that file, text with a newline or starting with "sbat," the
 * CSV itself, anything else a file.
 * cli_csv_label names the source in messages.
 */
const char *cli_csv_label(const char *arg);
/* The bytes a --csv argument names (malloc'ed), not yet parsed. */
sbat_err cli_read_csv_arg(const char *arg, uint8_t **ret, size_t *ret_len, sbat_diag *d);
int cli_parse_csv_arg(const char *arg, sbat_csv **ret);

/* Every --csv, parsed and merged in order (conflicts refused unless --force), as canonical bytes. */
int cli_load_csvs(const cli_opts *o, uint8_t **ret_payload, size_t *ret_len);

/* A warning naming the components the image's .sbat has and payload lacks (unless --quiet). */
void cli_warn_dropped_rows(const cli_opts *o, const sbat_image *img, const uint8_t *payload, size_t payload_len);

/* --dry-run: the image's .sbat and the one the edit writes, as a unified diff on stdout. */
void cli_print_sbat_diff(const cli_opts *o, const sbat_image *img, const uint8_t *payload, size_t payload_len);

#endif
