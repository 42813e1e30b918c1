/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* x509.h - what an X.509 certificate says about itself: names, serial, key identifiers */
#ifndef SBAT_SIG_X509_H
#define SBAT_SIG_X509_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"

#include "sig/der.h"

/* Fill *c from the Certificate `cert` (a SEQUENCE read from the image). */
sbat_err x509_read(const der *cert, sbat_authenticode_cert *c, sbat_diag *d);

/* keyUsage's keyCertSign, in sbat_authenticode_cert.key_usage */
#define X509_KU_KEY_CERT_SIGN 0x0400

/* The digest algorithm an OID names (SHA-1, SHA-256, SHA-384, SHA-512), SBAT_DIGEST_UNKNOWN for another. */
sbat_digest_alg x509_digest_alg(const der *oid);

/* 1 when c's signature verifies under the RSA key of `issuer` (c's own for a self-signed one); 0 otherwise. */
int x509_signed_by(const sbat_authenticode_cert *c, const sbat_authenticode_cert *issuer);

/*
 * 1 when c may issue another certificate of a chain, as OpenSSL's
 * check_chain_extensions reads X509_check_ca: a keyUsage, when present,
 * with keyCertSign, and basicConstraints CA:TRUE; for the certificate that
 * ends the chain (`top`, its trust anchor), without basicConstraints, a
 * keyUsage or a v1 self-issued root is enough. 0 otherwise.
 */
int x509_may_issue(const sbat_authenticode_cert *c, int top);

/*
 * The hash by alg (SHA-1 to SHA-512) of the TBSCertificate, tag and length
 * included, of the DER certificate bytes[0..len) (bytes after it are not
 * read), into out: its length, 0 when the certificate does not read.
 */
size_t x509_tbs_hash(const uint8_t *bytes, size_t len, sbat_digest_alg alg, uint8_t *out);

/* The Name `name` as "CN=..., O=..., OU=..., C=..." (those attributes, in order) in out[0..size). */
sbat_err x509_name(const der *name, char *out, size_t size, sbat_diag *d);

#endif
