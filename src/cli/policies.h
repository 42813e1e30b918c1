/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* policies.h - SbatLevels read from where a POLICY argument says: a file, a shim binary, this machine, the history */
#ifndef SBAT_CLI_POLICIES_H
#define SBAT_CLI_POLICIES_H

#include <stddef.h>

#include "sbat/level.h"

/*
 * The SbatLevel this machine holds: shim's runtime copy in efivarfs
 * (SBAT_ADD_EFIVARFS, else /sys/firmware/efi/efivars). Returns EXIT_OK with
 * *ret set, EXIT_NO_LEVEL when there is no such variable (or no UEFI
 * variables at all; *ret_absent says which), or EXIT_FAILURE_; every
 * failure is reported on stderr. *ret_file (malloc'ed) names the variable's
 * file whatever the outcome, when it could be allocated.
 */
int cli_level_running(sbat_level **ret, char **ret_file, const char **ret_absent);

/* One policy of --against: the level, and where it came from for the report. */
typedef struct cli_policy {
	sbat_level *level;
	const char *source;  /* "history", "running", "text" or "shim" */
	const char *file;    /* the file named, the variable's file, or the history file */
	const char *payload; /* "automatic" or "latest" for a shim binary, else NULL */
	char *owned;         /* what file points to, when it was allocated */
} cli_policy;

typedef struct cli_policies {
	cli_policy *p;
	size_t n;
	const sbat_level **levels; /* p[i].level, as sbat_lint_opts takes them */
} cli_policies;

/*
 * Load every --against POLICY: "history" (the published levels, one policy
 * each), "running", "latest:SHIM" or "automatic:SHIM" (that payload),
 * "none" (nothing), or a FILE: a text SbatLevel, or a shim binary whose
 * two payloads both count. No POLICY at all means "history". Returns
 * EXIT_OK, or EXIT_FAILURE_ after an error on stderr (a policy that cannot
 * be read, or no SbatLevel on this machine for "running").
 */
int cli_policies_load(const char *const *specs, size_t n_specs, cli_policies *ret);
void cli_policies_free(cli_policies *ps);

#endif
