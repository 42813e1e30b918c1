/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* rsa.h - RSA signature verification (RFC 8017): RSASSA-PKCS1-v1_5 and
 * RSASSA-PSS with MGF1, over a digest the caller computed. Public keys and
 * signatures only: no secrets, nothing in constant time. */
#ifndef SBAT_SIG_RSA_H
#define SBAT_SIG_RSA_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"
#include "sbat/error.h"

/*
 * The keys accepted. The modulus n (big-endian; leading zero bytes, as a
 * DER INTEGER has one, are dropped) must be odd, of RSA_MIN_BITS to
 * RSA_MAX_BITS bits (any bit length between: 2047 and 2049 are as good as
 * 2048). The public exponent e must be odd, at least 3 and below n, and, for
 * a modulus over 3072 bits, of at most 64 bits.
 *
 * OpenSSL's verification (rsa_ossl_public_decrypt), which shim and EDK2 use,
 * refuses e >= n, e over 64 bits with a modulus over 3072 bits, and moduli
 * over 16384 bits. It does not refuse e = 1 (a "signature" is then its own
 * encoded message: anyone can make one) nor an even e (no RSA key has one):
 * this refuses both, and moduli over 8192 or under 1024 bits, which no
 * Secure Boot certificate carries.
 *
 * The signature must be exactly as long as the modulus in bytes (RFC 8017
 * 8.2.2 step 1, 8.1.2 step 1; OpenSSL's RSA_verify for PKCS#1 v1.5) and,
 * as a number, below the modulus.
 */
#define RSA_MIN_BITS 1024
#define RSA_MAX_BITS 8192
#define RSA_SMALL_MODULUS_BITS 3072 /* over it, e may have at most RSA_MAX_LARGE_E_BITS bits */
#define RSA_MAX_LARGE_E_BITS 64

/* RSASSA-PSS-params (RFC 4055): the message digest is the alg given to rsa_verify_pss */
typedef struct rsa_pss_params {
	sbat_digest_alg mgf1_alg; /* the hash of MGF1 */
	size_t salt_len;          /* the salt's length in bytes: exactly this, as OpenSSL checks it */
} rsa_pss_params;

/* The digest length of alg: 20, 32, 48 or 64; 0 for SBAT_DIGEST_UNKNOWN or a value past the list. */
size_t rsa_digest_size(sbat_digest_alg alg);

/*
 * The digest by alg of a[0..a_len) then b[0..b_len) into out (room for
 * SBAT_AUTHENTICODE_DIGEST_MAX bytes): its length, 0 for an algorithm
 * rsa_digest_size does not know (out untouched).
 */
size_t rsa_hash(sbat_digest_alg alg, const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len, uint8_t *out);

/*
 * Verify an RSASSA-PKCS1-v1_5 signature over digest (of algorithm alg,
 * SHA-1, SHA-256, SHA-384 or SHA-512): the encoded message 00 01 FF..FF 00
 * DigestInfo is built from the digest, with the algorithm's NULL parameters
 * (as OpenSSL builds it), and compared with the signature's whole, byte for
 * byte. SBAT_OK when it verifies; SBAT_E_SIGNATURE naming the check that
 * failed (a malformed key, signature or digest, or a signature that does not
 * verify), SBAT_E_TOO_BIG for a modulus over RSA_MAX_BITS.
 */
sbat_err rsa_verify_pkcs1(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len, sbat_digest_alg alg,
                          const uint8_t *digest, size_t digest_len, const uint8_t *sig, size_t sig_len,
                          sbat_diag *reterr);

/*
 * Verify an RSASSA-PSS signature over digest (of algorithm alg) by
 * EMSA-PSS-VERIFY (RFC 8017 9.1.2) with MGF1 of pss->mgf1_alg and a salt of
 * exactly pss->salt_len bytes, trailer 0xBC. Returns as rsa_verify_pkcs1.
 */
sbat_err rsa_verify_pss(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len, sbat_digest_alg alg,
                        const uint8_t *digest, size_t digest_len, const uint8_t *sig, size_t sig_len,
                        const rsa_pss_params *pss, sbat_diag *reterr);

#endif
