/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* rsa.c - RSA signature verification: the key's checks, s^e mod n, then the
 * encoded message checked by its scheme */
#include <string.h>

#include "sig/bignum.h"
#include "sig/rsa.h"
#include "util/diag.h"
#include "util/sha1.h"
#include "util/sha256.h"
#include "util/sha512.h"

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

/* out = Hash(a || b || c) by alg (a known one) */
static void
hash3(sbat_digest_alg alg, const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len, const uint8_t *c,
      size_t c_len, uint8_t *out)
{
	struct sha1_ctx c1;
	struct sha256_ctx c256;
	struct sha512_ctx c512;

	if (alg == SBAT_DIGEST_SHA1) {
		sha1_init(&c1);
		sha1_update(&c1, a, a_len);
		sha1_update(&c1, b, b_len);
		sha1_update(&c1, c, c_len);
		sha1_final(&c1, out);
	} else if (alg == SBAT_DIGEST_SHA256) {
		sha256_init(&c256);
		sha256_update(&c256, a, a_len);
		sha256_update(&c256, b, b_len);
		sha256_update(&c256, c, c_len);
		sha256_final(&c256, out);
	} else {
		if (alg == SBAT_DIGEST_SHA384)
			sha512_init_384(&c512);
		else
			sha512_init(&c512);
		sha512_update(&c512, a, a_len);
		sha512_update(&c512, b, b_len);
		sha512_update(&c512, c, c_len);
		sha512_final(&c512, out);
	}
}

size_t
rsa_hash(sbat_digest_alg alg, const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len, uint8_t *out)
{
	size_t n = rsa_digest_size(alg);

	if (n)
		hash3(alg, a, a_len, b, b_len, NULL, 0, out);
	return n;
}

/* db[0..len) ^= MGF1(seed) by alg (RFC 8017 B.2.1) */
static void
mgf1_xor(sbat_digest_alg alg, const uint8_t *seed, size_t seed_len, uint8_t *db, size_t len)
{
	uint8_t t[64], ctr[4];
	size_t h_len = rsa_digest_size(alg), done, i;
	uint32_t counter = 0;

	for (done = 0; done < len; done += h_len, counter++) {
		ctr[0] = (uint8_t)(counter >> 24);
		ctr[1] = (uint8_t)(counter >> 16);
		ctr[2] = (uint8_t)(counter >> 8);
		ctr[3] = (uint8_t)counter;
		hash3(alg, seed, seed_len, ctr, 4, NULL, 0, t);
		for (i = 0; i < h_len && done + i < len; i++)
			db[done + i] ^= t[i];
	}
}

/*
 * RFC 8017 9.1.2 EMSA-PSS-VERIFY from step 3: em[0..em_len) holds the
 * encoded message of em_bits bits; m_hash is the digest (h_len bytes).
 */
static sbat_err
pss_check(uint8_t *em, size_t em_len, size_t em_bits, sbat_digest_alg alg, const uint8_t *m_hash, size_t h_len,
          const rsa_pss_params *pss, sbat_diag *d)
{
	static const uint8_t zeros[8];
	size_t db_len, zbits = 8 * em_len - em_bits, ps, i;
	uint8_t h2[64];

	if (pss->salt_len > em_len || em_len - pss->salt_len < h_len + 2)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA-PSS: the digest and salt do not fit the modulus");
	if (em[em_len - 1] != 0xbc)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA-PSS signature does not verify: no 0xBC trailer");
	db_len = em_len - h_len - 1;
	if (zbits > 0 && (em[0] >> (8 - zbits)) != 0)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA-PSS signature does not verify: top bits not zero");
	mgf1_xor(pss->mgf1_alg, em + db_len, h_len, em, db_len);
	em[0] &= (uint8_t)(0xff >> zbits);
	/* DB = PS (zeros) || 0x01 || salt */
	ps = db_len - pss->salt_len - 1;
	for (i = 0; i < ps; i++)
		if (em[i] != 0)
			break;
	if (i < ps || em[ps] != 0x01)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA-PSS signature does not verify: padding");
	hash3(alg, zeros, sizeof(zeros), m_hash, h_len, em + db_len - pss->salt_len, pss->salt_len, h2);
	if (memcmp(h2, em + db_len, h_len) != 0)
		return diag_fail(d, SBAT_E_SIGNATURE, "RSA-PSS signature does not verify");
	return SBAT_OK;
}

sbat_err
rsa_verify_pss(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len, sbat_digest_alg alg,
               const uint8_t *digest, size_t digest_len, const uint8_t *sig, size_t sig_len, const rsa_pss_params *pss,
               sbat_diag *reterr)
{
	rsa_op op;
	size_t h_len = rsa_digest_size(alg), em_bits, em_len;
	sbat_err err;

	if (h_len == 0 || !pss || rsa_digest_size(pss->mgf1_alg) == 0)
		return diag_fail(reterr, SBAT_E_SIGNATURE, "RSA-PSS signature: digest algorithm unknown");
	if (digest_len != h_len)
		return diag_fail(reterr, SBAT_E_SIGNATURE, "RSA signature: digest length is not its algorithm's");
	err = rsa_public(&op, n, n_len, e, e_len, sig, sig_len, reterr);
	if (err != SBAT_OK)
		return err;
	/* RFC 8017 8.1.2 step 2c: EM = I2OSP(m, emLen), emLen = ceil((modBits - 1) / 8), one byte under k
	 * when modBits is 1 mod 8: that byte of m must then be 0 */
	em_bits = op.bits - 1;
	em_len = (em_bits + 7) / 8;
	if (em_len < op.k && op.em[0] != 0)
		return diag_fail(reterr, SBAT_E_SIGNATURE, "RSA-PSS signature does not verify: too large");
	return pss_check(op.em + (op.k - em_len), em_len, em_bits, alg, digest, h_len, pss, reterr);
}
