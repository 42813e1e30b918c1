/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* cli.h - what the files of the sbat-add command share: options, exit codes, messages */
#ifndef SBAT_CLI_H
#define SBAT_CLI_H

#include <stdio.h>

#include "sbat/sbat.h"

enum exit_status {
	EXIT_OK = 0,
	EXIT_FAILURE_ = 1,  /* bad input or a refused edit; nothing was written */
	EXIT_USAGE = 2,
	EXIT_NO_SBAT = 3,   /* --print, --check-level: the image has no .sbat */
	EXIT_REVOKED = 4,   /* --check-level: the policy revokes the image */
};

/* Everything the command line asked for, checked for consistency before any file is opened. */
typedef struct cli_opts {
	const char *image;
	const char *csv;
	const char *output;
	int print;
	int dry_run;
	int verbose;
	int strip_signature;
	int relocate;
	int remove;
	int merge;
	int force;
	int json;
	const char *check_level;
	int level_payload;  /* SBAT_LEVEL_LATEST or SBAT_LEVEL_AUTOMATIC, for shim binaries */
} cli_opts;

extern const char *const cli_progname;

/* One line on stderr naming the file, the check and where it fired; returns EXIT_FAILURE_. */
int cli_report_error(const char *file, const sbat_diag *d);

/* --verbose descriptions, on stderr. */
void cli_describe_image(const char *file, const sbat_pe *pe);
void cli_describe_edit(const char *file, const sbat_edit_report *r);

/* The modes; each returns the exit status. */
int cli_run_print(const cli_opts *o);
int cli_run_edit(const cli_opts *o);
int cli_run_check_level(const cli_opts *o);

/*
 * Describe the image as one JSON object on `out`: headers, sections, the
 * layout around them and the .sbat rows (or why they do not validate).
 */
void cli_print_json(FILE *out, const char *file, const sbat_pe *pe, const uint8_t *data, size_t len);

#endif
