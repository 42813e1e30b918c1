/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* rsa.c - RSA signature verification: the key's checks, s^e mod n, then the
 * encoded message checked by its scheme */
#include <string.h>

#include "sig/bignum.h"
#include "sig/rsa.h"
#include "util/diag.h"

#define EM_MAX (RSA_MAX_BITS / 8)

/* One verification's numbers: the key, and the encoded message s^e mod n as k bytes. */
typedef struct rsa_op {
	bignum n, e, s;
	size_t bits; /* of n */
	size_t k;    /* n's length in bytes */
	uint8_t em[EM_MAX];
} rsa_op;

size_t
rsa_digest_size(sbat_digest_alg alg)
{
	switch (alg) {
	case SBAT_DIGEST_SHA1: return 20;
	case SBAT_DIGEST_SHA256: return 32;
	case SBAT_DIGEST_SHA384: return 48;
	case SBAT_DIGEST_SHA512: return 64;
	default: return 0;
	}
}

/* Skip the leading zero bytes of p[0..*len). */
static const uint8_t *
strip(const uint8_t *p, size_t *len)
{
	while (*len > 0 && p[0] == 0) {
		p++;
		(*len)--;
	}
	return p;
}

/* Read and check the key n, e into op (see rsa.h for what is accepted). */
static sbat_err
read_key(rsa_op *op, const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len, sbat_diag *d)
{
	size_t e_bits;

	n = strip(n, &n_len);
	e = strip(e, &e_len);
	if (n_len == 0)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA modulus is empty or zero");
	if (n_len > EM_MAX)
		return diag_fail(d, SBAT_E_TOO_BIG, "RSA modulus over 8192 bits");
	if (bignum_from_bytes(&op->n, n, n_len, d) != SBAT_OK)
		return SBAT_E_TOO_BIG;
	op->bits = bignum_bits(&op->n);
	op->k = n_len;
	if (op->bits < RSA_MIN_BITS)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA modulus under 1024 bits");
	if ((n[n_len - 1] & 1) == 0)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA modulus is even");
	if (e_len == 0 || (e[e_len - 1] & 1) == 0)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA public exponent is even (or zero)");
	if (e_len == 1 && e[0] == 1)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA public exponent is 1");
	if (e_len > n_len || bignum_from_bytes(&op->e, e, e_len, NULL) != SBAT_OK || bignum_cmp(&op->e, &op->n) >= 0)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA public exponent is not below the modulus");
	e_bits = bignum_bits(&op->e);
	if (op->bits > RSA_SMALL_MODULUS_BITS && e_bits > RSA_MAX_LARGE_E_BITS)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA public exponent over 64 bits with a modulus over 3072 bits");
	return SBAT_OK;
}

/* Check the key and the signature's size and value; op->em = sig^e mod n, k bytes. */
static sbat_err
rsa_public(rsa_op *op, const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len, const uint8_t *sig,
           size_t sig_len, sbat_diag *d)
{
	sbat_err err = read_key(op, n, n_len, e, e_len, d);

	if (err != SBAT_OK)
		return err;
	if (sig_len > op->k)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA signature longer than the modulus");
	if (sig_len < op->k)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA signature shorter than the modulus");
	if (bignum_from_bytes(&op->s, sig, sig_len, d) != SBAT_OK || bignum_cmp(&op->s, &op->n) >= 0)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA signature is not below the modulus");
	err = bignum_modexp(&op->s, &op->s, &op->e, &op->n, d);
	if (err != SBAT_OK)
		return err;
	/* below n, so it fits in k bytes */
	bignum_to_bytes(&op->s, op->em, op->k);
	return SBAT_OK;
}

/* The DER of DigestInfo up to the digest: SEQUENCE { AlgorithmIdentifier { OID, NULL }, OCTET STRING } */
static const uint8_t *
digest_info(sbat_digest_alg alg, size_t *ret_len)
{
	static const uint8_t sha1[] = { 0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e,
		                        0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14 };
	static const uint8_t sha256[] = { 0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
		                          0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20 };
	static const uint8_t sha384[] = { 0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
		                          0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30 };
	static const uint8_t sha512[] = { 0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
		                          0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40 };

	switch (alg) {
	case SBAT_DIGEST_SHA1: *ret_len = sizeof(sha1); return sha1;
	case SBAT_DIGEST_SHA256: *ret_len = sizeof(sha256); return sha256;
	case SBAT_DIGEST_SHA384: *ret_len = sizeof(sha384); return sha384;
	case SBAT_DIGEST_SHA512: *ret_len = sizeof(sha512); return sha512;
	default: *ret_len = 0; return NULL;
	}
}

/* RFC 8017 9.2 EMSA-PKCS1-v1_5-ENCODE into em[0..k) (k >= digest and DigestInfo + 11, checked by the caller) */
static void
pkcs1_encode(uint8_t *em, size_t k, const uint8_t *info, size_t info_len, const uint8_t *digest, size_t digest_len)
{
	size_t ps = k - 3 - info_len - digest_len;

	em[0] = 0x00;
	em[1] = 0x01;
	memset(em + 2, 0xff, ps);
	em[2 + ps] = 0x00;
	memcpy(em + 3 + ps, info, info_len);
	memcpy(em + 3 + ps + info_len, digest, digest_len);
}

sbat_err
rsa_verify_pkcs1(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len, sbat_digest_alg alg,
                 const uint8_t *digest, size_t digest_len, const uint8_t *sig, size_t sig_len, sbat_diag *reterr)
{
	rsa_op op;
	uint8_t want[EM_MAX];
	size_t info_len;
	const uint8_t *info = digest_info(alg, &info_len);
	sbat_err err;

	if (!info)
		return diag_fail(reterr, SBAT_E_SIGNATURE, "RSA signature: digest algorithm unknown");
	if (digest_len != rsa_digest_size(alg))
		return diag_fail(reterr, SBAT_E_SIGNATURE, "RSA signature: digest length is not its algorithm's");
	err = rsa_public(&op, n, n_len, e, e_len, sig, sig_len, reterr);
	if (err != SBAT_OK)
		return err;
	/* 8 bytes of FF at least (RFC 8017 9.2 step 3) */
	if (op.k < info_len + digest_len + 11)
		return diag_fail(reterr, SBAT_E_SIGNATURE, "RSA modulus too short for the digest");
	pkcs1_encode(want, op.k, info, info_len, digest, digest_len);
	if (memcmp(want, op.em, op.k) != 0)
		return diag_fail(reterr, SBAT_E_SIGNATURE, "RSA PKCS#1 v1.5 signature does not verify");
	return SBAT_OK;
}
