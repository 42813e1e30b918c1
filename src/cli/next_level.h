/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* next_level.h - --check-level next:SHIM: the inputs shim reads, and its SbatLevel for the next two boots */
#ifndef SBAT_CLI_NEXT_LEVEL_H
#define SBAT_CLI_NEXT_LEVEL_H

#include <stdio.h>

#include "sbat/sbat.h"

#include "options.h"

/* Where Linux shows the UEFI variables; SBAT_ADD_EFIVARFS replaces it. */
#define CLI_EFIVARFS_DIR SBAT_EFIVAR_DIR

/* The UEFI global variables' GUID (SecureBoot, SetupMode, BootOrder, Boot####). */
#define CLI_EFI_GLOBAL_GUID SBAT_EFIVAR_GLOBAL_GUID

/* The file shim 16.x reads revocations from, in its own directory. */
#define CLI_REVOCATIONS_FILE "revocations_sbat.efi"

/* How a boot treats the images after shim. */
enum cli_next_mode {
	CLI_NEXT_ENFORCED,     /* Secure Boot on: every image shim checks is judged by the level */
	CLI_NEXT_NOT_ENFORCED, /* Secure Boot off: shim checks no SBAT */
	CLI_NEXT_SHIM_STOPS,   /* shim refuses to go on: nothing after it starts */
};

typedef struct cli_next {
	const char *efivarfs; /* the directory the variables were read from */
	const char *shim;     /* the shim binary */
	char *revocations;    /* revocations_sbat.efi next to it, or NULL */
	int secure_boot_var;  /* the SecureBoot byte, -1 when absent */
	int setup_mode_var;   /* the SetupMode byte, -1 when absent */
	uint8_t *current_buf; /* SbatLevelRT as read (attributes first), NULL when absent */
	char *automatic, *latest, *rev_automatic, *rev_latest;
	uint8_t *shim_buf, *rev_buf;
	size_t shim_len;                      /* shim_buf's bytes */
	sbat_judgement *shim_sbat, *rev_sbat; /* their .sbat as shim reads it */
	sbat_next_inputs in[2];               /* the next boot, and the one after (SbatPolicy is gone by then) */
	sbat_next_boot boot[2];
	enum cli_next_mode mode[2];
	sbat_level *level[2]; /* what images are judged by in each boot (the stored level when not enforced) */
	int differ;           /* the boot after next judges differently */
} cli_next;

/* Read the variables (SBAT_ADD_EFIVARFS or efivarfs) and the shim binary; returns an exit status. */
int cli_next_load(const char *shim, cli_next *n);

/*
 * Read efivarfs variable NAME from dir (attributes included): *buf is NULL
 * when there is none. Returns an exit status; a variable shorter than its
 * attributes, or unreadable, is reported naming it.
 */
int cli_efivar_read(const char *dir, const char *name, uint8_t **buf, size_t *len);

/* The efivarfs directory: SBAT_ADD_EFIVARFS, else CLI_EFIVARFS_DIR. */
const char *cli_efivarfs_dir(void);
void cli_next_free(cli_next *n);

/* The inputs and both boots, for --verbose (on stderr-free stdout, before the verdicts). */
void cli_next_print_text(const cli_next *n, FILE *out);

/* The same as a JSON object (no trailing newline). */
void cli_next_print_json(const cli_next *n, FILE *out);

#endif
