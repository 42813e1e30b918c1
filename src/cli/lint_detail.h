/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint_detail.h - what --lint --profile adds to the lint report: the rows behind a finding, the generations */
#ifndef SBAT_CLI_LINT_DETAIL_H
#define SBAT_CLI_LINT_DETAIL_H

#include <stdio.h>

#include "sbat/csv.h"
#include "sbat/image.h"
#include "sbat/lint.h"

#include "options.h"
#include "policies.h"

/* One --lint run with its profiles: the options, the release before, the policies. */
typedef struct cli_lint_run {
	const cli_opts *o;
	sbat_lint_opts opts;
	sbat_csv *previous; /* --previous's rows, or NULL */
	cli_policies policies;
} cli_lint_run;

/*
 * The rows of --previous OLD: an image's .sbat as shim reads it, or a CSV
 * file checked as --csv is. Returns EXIT_OK, or EXIT_FAILURE_ after an
 * error on stderr.
 */
int cli_lint_load_previous(const char *path, sbat_csv **ret);

/* " (line 3: grub,3 is below grub,4 ...)": what a profile finding is about, for the text line. */
void cli_lint_detail_text(FILE *out, const cli_lint_run *run, const sbat_lint_subject *s);

/* The same as the keys a profile finding adds to its JSON object (", \"profile\": ..."). */
void cli_lint_detail_json(FILE *out, const cli_lint_run *run, const sbat_lint_subject *s);

/* The keys a result adds with --profile: the profiles, and each component's generations (img NULL: none). */
void cli_lint_result_json(FILE *out, const cli_lint_run *run, const sbat_image *img);

/* "IMAGE: generation: NAME: OLD -> NEW" for each component of the image and of --previous. */
void cli_lint_generations_text(FILE *out, const cli_lint_run *run, const char *file, const sbat_image *img);

/* The keys the report's top level adds with --profile: the release before and the policies. */
void cli_lint_run_json(FILE *out, const cli_lint_run *run);

#endif
