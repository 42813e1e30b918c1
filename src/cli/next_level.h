/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* next_level.h - --check-level next:SHIM: the inputs shim reads, and its SbatLevel for the next two boots */
#ifndef SBAT_CLI_NEXT_LEVEL_H
#define SBAT_CLI_NEXT_LEVEL_H

#include <stdio.h>

#include "sbat/efivar.h"
#include "sbat/nextstate.h"

#include "options.h"

/* Where Linux shows the UEFI variables; SBAT_ADD_EFIVARFS replaces it. */
#define CLI_EFIVARFS_DIR SBAT_EFIVAR_DIR

/* The UEFI global variables' GUID (SecureBoot, SetupMode, BootOrder, Boot####). */
#define CLI_EFI_GLOBAL_GUID SBAT_EFIVAR_GLOBAL_GUID

/* The efivarfs directory: SBAT_ADD_EFIVARFS, else CLI_EFIVARFS_DIR. */
const char *cli_efivarfs_dir(void);

/*
 * sbat_next_state_load from cli_efivarfs_dir(): an exit status, after a
 * message naming the file; without a SecureBoot variable EXIT_NO_LEVEL.
 * *ret is to be freed (sbat_next_state_free) whatever the status.
 */
int cli_next_load(const char *shim, sbat_next_state **ret);

/* The inputs and both boots, for --verbose (on stderr-free stdout, before the verdicts). */
void cli_next_print_text(const sbat_next_state *n, FILE *out);

/* "none", "not-checked", "verified", "refused", "unknown": an sbat_next_rev_sig as --json says it. */
const char *cli_next_rev_sig_word(int v);

/* The same as a JSON object (no trailing newline). */
void cli_next_print_json(const sbat_next_state *n, FILE *out);

#endif
