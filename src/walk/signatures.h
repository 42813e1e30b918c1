/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* signatures.h - the signature gate: the firmware's and shim's rules over the databases read once */
#ifndef SBAT_WALK_SIGNATURES_H
#define SBAT_WALK_SIGNATURES_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"

#include "walk/walk.h"

/*
 * The signature gate (unless sbat_walk_opts.no_signatures): the databases,
 * read once, and the pending updates; -1 when out of memory, 1 after a note
 * when a pending update does not read.
 */
int signatures_load(walk *w);

/*
 * Whether shim 16.1 trusts no db: MokIgnoreDB (its runtime mirror of
 * MokDBState, set through mokutil --ignore-db) in efivarfs (NULL: the
 * default) is exactly one byte, nonzero, as mok.c takes a state only from
 * a one-byte variable. 0 when absent or unreadable.
 */
int signatures_mok_ignore_db(const char *efivarfs);

/*
 * Whether shim 16.1 runs in insecure mode: MokSBStateRT (its runtime
 * mirror of MokSBState, set through mokutil --disable-validation) is one
 * byte, nonzero, as for signatures_mok_ignore_db; shim then checks neither
 * the signature nor the SBAT of what it starts or checks.
 */
int signatures_mok_insecure(const char *efivarfs);

/*
 * A note when mokutil --disable-validation or --enable-validation is
 * pending: MokSB (NV, runtime access) holds the request, which MokManager
 * asks to confirm at the next boot; until then MokSBState, and what shim
 * checks, is unchanged. The same for mokutil --ignore-db or --use-db
 * (MokDB, which MokManager turns into MokDBState).
 */
void signatures_mok_pending(walk *w);
void signatures_free(walk *w);

/* shim's keys for the stages after it (shim: its image, or NULL for none), and back to the outer path's. */
void signatures_enter_shim(walk *w, const sbat_image *shim, walk_shim_keys *saved);
void signatures_leave_shim(walk *w, const walk_shim_keys *saved);

/* The largest authority a stage records (an EFI_SIGNATURE_DATA of a certificate, or shim's certificate). */
#define SIGNATURES_AUTHORITY_MAX 8192

/* What the signature gate of a stage found that its stage points to, kept until the stage is added. */
typedef struct signatures_facts {
	char subject[SBAT_AUTHENTICODE_NAME_MAX];    /* the deciding certificate's */
	uint8_t authority[SIGNATURES_AUTHORITY_MAX]; /* what the accepting check measures (signature_authority) */
} signatures_facts;

/*
 * The signature gate of im, by the firmware's rule (by_shim 0) or shim's
 * (only with signatures judged): its verdict and facts into st (the
 * signature_* fields, pointing into f). Returns that verdict.
 */
sbat_verdict signatures_judge(walk *w, const image *im, int by_shim, sbat_boot_stage *st, signatures_facts *f);

/* dbx as the boot judged holds it, when signatures are judged, Secure Boot is on and dbx was read; else NULL. */
const sbat_sigdb *signatures_dbx_enforced(const walk *w);

/* The same when signatures are judged and im was parsed; else st as it is. */
void signatures_gate(walk *w, const image *im, int by_shim, sbat_boot_stage *st, signatures_facts *f);

#endif
