/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* esl.h - EFI_SIGNATURE_LISTs walked with every size checked, and the authentication header of an update */
#ifndef SBAT_SIGDB_ESL_H
#define SBAT_SIGDB_ESL_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"
#include "sbat/sigdb.h"

/* One entry as the walk finds it; the pointers are into the walked buffer. */
typedef struct esl_entry {
	sbat_sig_type type;
	const uint8_t *type_guid; /* 16 bytes */
	const uint8_t *owner;     /* 16 bytes */
	const uint8_t *data;
	size_t data_len;
	size_t list;     /* 0-based */
	uint64_t offset; /* the owner's, base included */
} esl_entry;

/* Called for each entry; a failure (SBAT_E_NOMEM) stops the walk and is returned. */
typedef sbat_err (*esl_entry_fn)(void *ctx, const esl_entry *e, sbat_diag *reterr);

/*
 * Walk buf[0..len), signature lists one after the other, handing each
 * entry to fn (NULL: check only). base is buf[0]'s offset in the source,
 * for the diagnostics, which name `source`. A malformed list fails with
 * SBAT_E_EFIVAR before fn has seen any of its entries (but after the
 * entries of the lists before it).
 */
sbat_err esl_walk(const uint8_t *buf, size_t len, uint64_t base, const char *source, esl_entry_fn fn, void *ctx,
                  sbat_diag *reterr);

/*
 * The EFI_VARIABLE_AUTHENTICATION_2 at the start of buf, if there is one:
 * *ret_skip is its size (EFI_TIME and the whole WIN_CERTIFICATE_UEFI_GUID),
 * 0 when buf does not start with one. Checked, not verified.
 */
sbat_err esl_auth2_skip(const uint8_t *buf, size_t len, const char *source, size_t *ret_skip, sbat_diag *reterr);

/* The type a SignatureType GUID (16 bytes as stored) names; SBAT_SIG_UNKNOWN for any other. */
sbat_sig_type esl_type_of(const uint8_t *guid);

/* The type's name ("EFI_CERT_SHA256_GUID"); "unknown" out of range. */
const char *esl_type_name(sbat_sig_type type);

#endif
