/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pkcs7.h - an Authenticode PKCS#7 SignedData: its certificates, its signer, the digest it claims */
#ifndef SBAT_SIG_PKCS7_H
#define SBAT_SIG_PKCS7_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"

#define PKCS7_MAX_NESTED 8 /* signatures nested in one SignerInfo */
#define PKCS7_MAX_CERTS 64 /* certificates in one SignedData */

/* A ContentInfo nested in a SignerInfo's unauthenticated attributes (file offset and length). */
typedef struct pkcs7_nested {
	uint64_t offset;
	size_t len;
} pkcs7_nested;

/*
 * Read the ContentInfo at s->offset (s->len bytes, a file offset in buf):
 * fills the certificates (allocated: s->certs, freed with free), the
 * signer and the claimed image digest, sets s->len to the ContentInfo's
 * own length, and lists the nested signatures in nested[0..*ret_n).
 * On failure s->certs is NULL.
 */
sbat_err pkcs7_read(const uint8_t *buf, sbat_authenticode_sig *s, pkcs7_nested nested[PKCS7_MAX_NESTED], size_t *ret_n,
                    sbat_diag *d);

#endif
