/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sdentry.h - one systemd-boot entry read from its file: a Type #1 .conf or a UKI, and the notes they give */
#ifndef SBAT_BOOT_SDENTRY_H
#define SBAT_BOOT_SDENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/sdboot.h"

/* What reading entries shares: the loader they are read for and the notes gathered. */
typedef struct sdentry_ctx {
	const char *self;        /* systemd-boot's own path on the ESP */
	const char *arch;        /* EFI_MACHINE_TYPE_NAME */
	unsigned features;       /* the rules that apply: sbat_sdboot_feature bits (sbat_sdboot_menu.features) */
	sbat_sdboot_note *notes; /* SBAT_SDBOOT_MAX_NOTES of them */
	size_t n_notes, notes_dropped;
	int nomem; /* an allocation failed */
} sdentry_ctx;

/* Add a note (file copied; d may be NULL); past SBAT_SDBOOT_MAX_NOTES it is counted. */
void sdentry_note(sdentry_ctx *c, sbat_sdboot_note_kind kind, const char *file, unsigned line, const sbat_diag *d);

/* Read the file `host` (found below root) without following a link on the way, at most max bytes. */
sbat_err sdentry_read(const char *root, const char *host, size_t max, uint8_t **ret_buf, size_t *ret_len,
                      sbat_diag *reterr);

/* A malloc'ed copy of value[0..n), or NULL (c->nomem set). */
char *sdentry_strndup(sdentry_ctx *c, const char *value, size_t n);

/* Fill e (zeroed, name, id and file set) from the Type #1 entry file e->file on root. */
void sdentry_type1(sdentry_ctx *c, sbat_sdboot_entry *e, const char *root);

/* Fill e (zeroed, name, id and file set) from the UKI e->file on root, as \EFI\Linux\NAME. */
void sdentry_type2(sdentry_ctx *c, sbat_sdboot_entry *e, const char *root);

/*
 * Boot counting from e->name: "+LEFT[-DONE]" right before suffix (in this
 * case before 257, in any case from 257 on); -1 both when none. From 259 on
 * a counter found leaves the id: the name before '+' and suffix, lower-cased
 * for a Type #1 entry (type1), as it is for a UKI.
 */
void sdentry_tries(sdentry_ctx *c, sbat_sdboot_entry *e, const char *suffix, int type1);

/* Free what e holds (not e itself). */
void sdentry_clear(sbat_sdboot_entry *e);

#endif
