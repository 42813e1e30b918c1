/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* chain.h - a signature's certificate chain, and whether it reaches a certificate a database holds */
#ifndef SBAT_SIG_CHAIN_H
#define SBAT_SIG_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"

/* Why a chain that meets a database certificate by name does not reach it. */
typedef enum chain_fail {
	CHAIN_OK = 0,
	CHAIN_BAD_SIGNATURE, /* a certificate's signature does not verify under its issuer's key */
	CHAIN_NOT_CA,        /* a certificate that issues another is not a CA (X509_V_ERR_INVALID_CA) */
} chain_fail;

/* Where a database certificate met a chain. */
typedef struct chain_match {
	chain_fail fail; /* not CHAIN_OK: met, not reached; cert and subject name the certificate at fault */
	int cert;        /* index in the signature's certs; -1: it is the issuer above */
	char subject[SBAT_AUTHENTICODE_NAME_MAX];          /* the certificate met: the chain's, or the database's */
	uint8_t tbs_sha256[SBAT_AUTHENTICODE_SHA256_SIZE]; /* the database certificate's TBS SHA-256 */
	int have_tbs;                                      /* 0 when the database certificate does not read */
	int module_signing; /* the database certificate reads, and its extendedKeyUsage is module signing only */
} chain_match;

/*
 * The chain of s into out (room for s->n_certs): the signer's certificate,
 * then each one's issuer among s's certificates (subject equal to the
 * issuer, key identifiers equal where both are given), up to a self-issued
 * one or one whose issuer is not there. Returns its length, 0 when the
 * signer's certificate is not among them.
 */
size_t chain_build(const sbat_authenticode_sig *s, int *out);

/* links[k] = 1 when chain[k]'s signature verifies under chain[k + 1]'s key, for k < n - 1. */
void chain_links(const sbat_authenticode_sig *s, const int *chain, size_t n, uint8_t *links);

/*
 * 1 when the certificate bytes[0..len) is one of the chain (the same bytes)
 * or the issuer of one (its subject and key identifier), as a partial
 * chain verification finds a trust anchor, and OpenSSL's X509_verify_cert
 * would take that chain: each certificate under it signed by the next
 * (links, from chain_links), the one it issued signed by its key, each
 * issuer a CA. *m says where. 0 otherwise; m->fail says why when it was met
 * but the chain does not verify.
 */
int chain_reaches(const sbat_authenticode_sig *s, const int *chain, const uint8_t *links, size_t n,
                  const uint8_t *bytes, size_t len, chain_match *m);

#endif
