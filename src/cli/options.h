/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* options.h - the command line as the modes see it: options, exit statuses, the modes */
#ifndef SBAT_CLI_OPTIONS_H
#define SBAT_CLI_OPTIONS_H

#include <stddef.h>

#include "sbat/walk.h"

enum exit_status {
	EXIT_OK = 0,
	EXIT_FAILURE_ = 1, /* bad input or a refused edit; nothing was written */
	EXIT_USAGE = 2,
	EXIT_NO_SBAT = 3,            /* --print, --check-level: the image has no .sbat */
	EXIT_REVOKED = 4,            /* --check-level: the policy revokes the image */
	EXIT_LINT_WARNINGS = 5,      /* --lint: warnings, but no errors */
	EXIT_NO_LEVEL = 6,           /* --check-level running: this machine has no SbatLevel to read */
	EXIT_OTHER_PATH_REFUSED = 7, /* --check-level next (boot paths): a path other than the default is refused */
	EXIT_DEFAULT_UNKNOWN = 8,    /* --check-level next (boot paths): the default path could not be followed */
	EXIT_OTHER_PATH_UNKNOWN = 9, /* --check-level next (boot paths): another path could not be followed */
	EXIT_LOG_DIFFERS = 10,       /* --event-log: the TPM does not hold what the event log replays to */
	EXIT_LUKS_WILL_NOT_UNLOCK =
	    11, /* --luks: a systemd-tpm2 token will not unlock (after the update, when predicted) */
	EXIT_LUKS_CANNOT_TELL = 12, /* --luks: none will not unlock, but of one it cannot be told */
};

/* How many --csv arguments one command line may merge. */
#define CLI_MAX_CSV 16

/* Everything the command line asked for, checked for consistency before any file is opened. */
/* --pending may be given this many times. */
#define CLI_MAX_PENDING 16
/* --luks likewise. */
#define CLI_MAX_LUKS 16

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
	int next_level;          /* POLICY next or next:SHIM: the level shim will hold after the next boot */
	const char *esp;         /* --esp DIR: the mounted EFI System Partition, for POLICY next */
	const char *xbootldr;    /* --xbootldr DIR: the mounted XBOOTLDR partition systemd-boot reads */
	const char *boot;        /* --boot DIR: the directory with GRUB's grub/grub.cfg and kernels */
	int signatures;          /* --signatures or --pending: with next, signatures judged (the default) */
	int no_signatures;       /* --no-signatures: with next, SBAT alone */
	sbat_walk_pending pending[CLI_MAX_PENDING]; /* --pending VAR=FILE, in order */
	size_t n_pending;
	const char **targets; /* --check-level: the IMAGEs and directories, or the --csv FILEs */
	size_t n_targets;
	int targets_are_csv;
	size_t n_csv;             /* how often --csv was given (at most CLI_MAX_CSV) */
	unsigned lock_timeout_ms; /* how long an in-place edit waits for another one to finish */
	int lock_timeout_given;
	int lint;
	unsigned profiles;    /* --lint --profile: SBAT_PROFILE_* bits */
	const char *previous; /* --previous OLD: the release before (an image or a CSV file) */
	const char **against; /* --against POLICY..., room for argc of them */
	size_t n_against;
	int quiet;     /* no warnings */
	int no_sync;   /* skip fsync of the result and its directory */
	int pcrsig;    /* --pcrsig: SBAT_PCRSIG_DROP or SBAT_PCRSIG_KEEP; 0 (refuse) when not given */
	char **images; /* --lint, --print: the images named on the command line */
	int n_images;
	const char *event_log;          /* --event-log FILE, or "running" */
	const char *luks[CLI_MAX_LUKS]; /* --luks DEV|FILE, in order */
	size_t n_luks;
} cli_opts;

/* Default for --lock-timeout, in seconds. */
#define CLI_LOCK_TIMEOUT_DEFAULT 60

/* The modes; each returns the exit status. */
int cli_run_print(const cli_opts *o);
int cli_run_edit(const cli_opts *o);
int cli_run_check_level(const cli_opts *o);
int cli_run_lint(const cli_opts *o);
int cli_run_boot_paths(const cli_opts *o);
int cli_run_event_log(const cli_opts *o);
int cli_run_luks(const cli_opts *o);

#endif
