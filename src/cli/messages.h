/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* messages.h - every line the command prints about a file: errors, warnings, --verbose */
#ifndef SBAT_CLI_MESSAGES_H
#define SBAT_CLI_MESSAGES_H

#include <stdio.h>
#include "sbat/edit.h"
#include "sbat/error.h"
#include "sbat/image.h"

extern const char *const cli_progname;

/*
 * A file name fit for a one-line message: control bytes become \n, \t or
 * \xNN. The result lives in one of a few static buffers, so a message can
 * quote more than one name.
 */
const char *cli_quote(const char *name);

/*
 * Terminating signals remove the temporary file of an unfinished edit
 * before the process ends as the signal says. Signals ignored on entry stay
 * ignored.
 */
void cli_catch_signals(void);

/*
 * The one way a diagnostic reaches the user: a line on stderr, "sbat-add:
 * [warning: ]FILE: [CONTEXT: ]" and then the check that fired with its line
 * and field or file offset, the system error, the sizes, the other section
 * and the option that would help, whatever the diagnostic carries.
 */
enum { CLI_ERROR, CLI_WARNING };
void cli_diag(int severity, const char *file, const char *context, const sbat_diag *d);

/* cli_diag(CLI_ERROR, file, NULL, d); returns EXIT_FAILURE_. */
int cli_report_error(const char *file, const sbat_diag *d);

/*
 * The diagnostic alone, as cli_diag words it after "FILE: ": the check with
 * its line and field or offset, the system error, the sizes. For reports on
 * stdout that name the file themselves.
 */
void cli_diag_text(FILE *out, const sbat_diag *d);

/* "sbat-add: FILE: TEXT" on stderr, for what is no library diagnostic. */
void cli_message(const char *file, const char *text);

/* --verbose descriptions, on stderr. */
void cli_describe_image(const char *file, const sbat_image *img);
void cli_describe_edit(const char *file, const sbat_edit_report *r);

#endif
