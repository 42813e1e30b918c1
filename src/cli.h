/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* cli.h - what the files of the sbat-add command share: options, exit codes, messages */
#ifndef SBAT_CLI_H
#define SBAT_CLI_H

#include <stdio.h>

#include "sbat/sbat.h"

enum exit_status {
	EXIT_OK = 0,
	EXIT_FAILURE_ = 1, /* bad input or a refused edit; nothing was written */
	EXIT_USAGE = 2,
	EXIT_NO_SBAT = 3,       /* --print, --check-level: the image has no .sbat */
	EXIT_REVOKED = 4,       /* --check-level: the policy revokes the image */
	EXIT_LINT_WARNINGS = 5, /* --lint: warnings, but no errors */
	EXIT_NO_LEVEL = 6,      /* --check-level running: this machine has no SbatLevel to read */
};

/* Everything the command line asked for, checked for consistency before any file is opened. */
/* How many --csv arguments one command line may merge. */
#define CLI_MAX_CSV 16

typedef struct cli_opts {
	const char *image;
	const char *csv; /* the first --csv */
	const char *csvs[CLI_MAX_CSV];
	int stdin_csv; /* one --csv is "-" */
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
	const char *check_level; /* POLICY as given */
	const char *level_file;  /* the file POLICY names; NULL for "running" */
	int level_payload;       /* SBAT_LEVEL_LATEST or SBAT_LEVEL_AUTOMATIC, for shim binaries */
	int level_payload_given; /* by --level-payload or a "latest:"/"automatic:" prefix */
	const char **targets;    /* --check-level: the IMAGEs and directories, or the --csv FILEs */
	size_t n_targets;
	int targets_are_csv;
	size_t n_csv;             /* how often --csv was given (at most CLI_MAX_CSV) */
	unsigned lock_timeout_ms; /* how long an in-place edit waits for another one to finish */
	int lint;
	int quiet;     /* no warnings */
	int no_sync;   /* skip fsync of the result and its directory */
	char **images; /* --lint: the images named on the command line */
	int n_images;
} cli_opts;

/* Default for --lock-timeout, in seconds. */
#define CLI_LOCK_TIMEOUT_DEFAULT 60

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

/*
 * --csv arguments: "-" is standard input, "@PATH" the file PATH, text with
 * a newline or starting with "sbat," the CSV itself, anything else a file.
 * cli_csv_label names the source in messages.
 */
const char *cli_csv_label(const char *arg);
int cli_parse_csv_arg(const char *arg, sbat_csv **ret);

/* Every --csv, parsed and merged in order (conflicts refused unless --force), as canonical bytes. */
int cli_load_csvs(const cli_opts *o, uint8_t **ret_payload, size_t *ret_len);

/* A warning naming the components the image's .sbat has and payload lacks (unless --quiet). */
void cli_warn_dropped_rows(const cli_opts *o, const sbat_image *img, const uint8_t *payload, size_t payload_len);

/* --dry-run: the image's .sbat and the one the edit writes, as a unified diff on stdout. */
void cli_print_sbat_diff(const cli_opts *o, const sbat_image *img, const uint8_t *payload, size_t payload_len);

/* --verbose descriptions, on stderr. */
void cli_describe_image(const char *file, const sbat_image *img);
void cli_describe_edit(const char *file, const sbat_edit_report *r);

/* The modes; each returns the exit status. */
int cli_run_print(const cli_opts *o);
int cli_run_edit(const cli_opts *o);
int cli_run_check_level(const cli_opts *o);
int cli_run_lint(const cli_opts *o);

/* s[0..n) as a JSON string: valid UTF-8 as it is, control characters escaped, invalid bytes as \ufffd. */
void cli_json_string(FILE *out, const char *s, size_t n);
void cli_json_cstr(FILE *out, const char *s);

/*
 * A regular file that a directory scan found and that starts with "MZ":
 * the callback judges it and says whether it was a PE image after all.
 */
enum cli_scan_result { CLI_SCAN_JUDGED, CLI_SCAN_NOT_PE };

/* What a directory scan reports to, and what it counted. */
typedef struct cli_scan {
	enum cli_scan_result (*on_candidate)(void *ctx, const char *path);
	/* a file or directory that could not be read; the scan goes on */
	void (*on_unreadable)(void *ctx, const char *path, const sbat_diag *d);
	void *ctx;
	size_t n_dirs;              /* directories scanned */
	size_t n_not_pe;            /* files that are not PE images (special files included) */
	size_t n_symlinks;          /* symbolic links, never followed */
	struct cli_scan_seen *seen; /* directories already scanned, so none is scanned twice */
	size_t n_seen, cap_seen;
} cli_scan;

/* Deepest directory nesting a scan enters; deeper ones are reported unreadable. */
#define CLI_SCAN_MAX_DEPTH 32

/*
 * Scan the directory `dir` recursively, entries in byte order of their
 * names: each regular file starting with "MZ" goes to on_candidate, the
 * rest is counted. Symbolic links are counted and never followed, and a
 * directory already scanned (by an earlier argument, or a bind mount) is
 * not scanned again. Returns 0, or -1 when memory ran out (reported).
 */
int cli_scan_dir(cli_scan *s, const char *dir);
void cli_scan_free(cli_scan *s);

/*
 * Describe the image as one JSON object on `out`: headers, sections, the
 * layout around them and the .sbat rows (or why they do not validate).
 */
void cli_print_json(FILE *out, const char *file, const sbat_image *img);

#endif
