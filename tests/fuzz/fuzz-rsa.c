/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-rsa.c - libFuzzer harness: RSA PKCS#1 v1.5 and PSS verification */

/*
 * Input: byte 0 picks the scheme (bit 0: PSS), the digest (bits 1-2:
 * SHA-1, SHA-256, SHA-384, SHA-512), MGF1's hash (bits 3-4) and, with bit
 * 5, a fixed 2048-bit key (e = 65537) in place of the input's; byte 1 is
 * the PSS salt length. Then the fields, each a 2-byte big-endian length and
 * its bytes (cut at the input's end): the modulus and the exponent (not
 * with bit 5), the signature, the digest. Inputs over FUZZ_MAX_INPUT bytes
 * are ignored.
 *
 * These must hold, or the harness aborts:
 *  - the result is SBAT_OK, SBAT_E_SIGNATURE or SBAT_E_TOO_BIG, a failure
 *    with that code and a reason in the diagnostic;
 *  - a verified signature is as long as the modulus without its leading
 *    zero bytes, its digest as long as its algorithm's, its exponent odd;
 *  - a zero byte in front of the modulus, or of the exponent, changes
 *    nothing: the same result for the same reason;
 *  - no input is modified.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sig/rsa.h"

#define FUZZ_MAX_INPUT (16u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the modulus of a 2048-bit key made by OpenSSL (tests/unit/test-rsa.c's first) */
static const uint8_t key_n[256] = {
	0x9e, 0xe3, 0xed, 0x87, 0x63, 0x0d, 0x79, 0x52, 0xbc, 0x98, 0xe9, 0xe6, 0xd1, 0x4d, 0x84, 0x00, 0x20, 0x4d,
	0xa9, 0xab, 0x21, 0xe1, 0x20, 0x69, 0x42, 0xfb, 0x17, 0x54, 0xf2, 0x6a, 0xa9, 0x5e, 0x5f, 0x27, 0x82, 0x28,
	0xe1, 0x5f, 0xd3, 0xc8, 0x7a, 0x49, 0x32, 0xe1, 0x11, 0x06, 0x03, 0x2d, 0x41, 0x4e, 0x58, 0x78, 0x42, 0xac,
	0x9c, 0x11, 0xb5, 0xbe, 0x91, 0xb7, 0x19, 0xa2, 0xf0, 0x10, 0xe7, 0x4e, 0x7b, 0x02, 0xb7, 0xd7, 0x3f, 0x42,
	0x70, 0x93, 0x4f, 0xcc, 0x3f, 0x2c, 0xc2, 0x26, 0x39, 0xaf, 0xf2, 0xab, 0xe5, 0x69, 0x27, 0xc7, 0xbd, 0xd9,
	0x11, 0xa3, 0x1f, 0xf5, 0x7d, 0x63, 0x2a, 0x68, 0xf5, 0x88, 0xd2, 0x7f, 0x1b, 0x81, 0x82, 0x5a, 0xcb, 0xcc,
	0xf9, 0x1d, 0x98, 0xc3, 0x54, 0xc1, 0xca, 0x4c, 0x77, 0x35, 0xa3, 0xc1, 0xb8, 0xf5, 0x6d, 0xb3, 0xdc, 0x0d,
	0xce, 0x08, 0x99, 0xe7, 0x55, 0xa4, 0x8a, 0x23, 0xf7, 0xe8, 0xe0, 0x37, 0x98, 0xc5, 0x86, 0xa5, 0x65, 0x55,
	0x5a, 0x08, 0xf4, 0xde, 0x2b, 0x9b, 0xb9, 0x82, 0x05, 0x76, 0x34, 0x33, 0x53, 0x3a, 0x0d, 0x19, 0x26, 0x40,
	0x17, 0xce, 0x00, 0x80, 0xe0, 0x4c, 0xc1, 0xfe, 0x54, 0x7b, 0x19, 0x1b, 0x55, 0xb6, 0x2e, 0xe1, 0x74, 0xc6,
	0x60, 0xc7, 0x6c, 0x0b, 0xd5, 0xac, 0xfe, 0x6b, 0xd9, 0x8f, 0x39, 0xed, 0x75, 0x4e, 0x22, 0x8d, 0x3f, 0x6d,
	0x98, 0x43, 0x9a, 0x0d, 0x9b, 0xe1, 0xb8, 0x7c, 0xc7, 0x0b, 0xb4, 0x3e, 0xb9, 0xaf, 0xa1, 0xc8, 0xfe, 0xdb,
	0x32, 0x42, 0x65, 0xdc, 0x00, 0x85, 0x01, 0x0f, 0x25, 0xe0, 0x84, 0x62, 0xd1, 0x36, 0x71, 0xea, 0x43, 0xe7,
	0x7a, 0x26, 0x46, 0x7b, 0x51, 0xec, 0xf7, 0x25, 0x81, 0x6d, 0x0b, 0xc2, 0xd4, 0x8a, 0xfa, 0x52, 0x9e, 0x10,
	0x35, 0x23, 0xbd, 0xa9
};
static const uint8_t key_e[3] = { 0x01, 0x00, 0x01 };

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-rsa: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

/* The next field of the input: a 2-byte length, then up to that many bytes. */
static const uint8_t *
field(const uint8_t **p, size_t *left, size_t *ret_len)
{
	const uint8_t *f;
	size_t n;

	if (*left < 2) {
		*ret_len = 0;
		*left = 0;
		return *p;
	}
	n = (size_t)(*p)[0] << 8 | (*p)[1];
	*p += 2;
	*left -= 2;
	if (n > *left)
		n = *left;
	f = *p;
	*p += n;
	*left -= n;
	*ret_len = n;
	return f;
}

typedef struct call {
	int pss;
	sbat_digest_alg alg;
	rsa_pss_params params;
	const uint8_t *n, *e, *sig, *digest;
	size_t n_len, e_len, sig_len, digest_len;
} call;

static sbat_err
run(const call *c, const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len, sbat_diag *d)
{
	sbat_err err;

	memset(d, 0, sizeof(*d));
	if (c->pss)
		err = rsa_verify_pss(n, n_len, e, e_len, c->alg, c->digest, c->digest_len, c->sig, c->sig_len,
		                     &c->params, d);
	else
		err = rsa_verify_pkcs1(n, n_len, e, e_len, c->alg, c->digest, c->digest_len, c->sig, c->sig_len, d);
	if (err != SBAT_OK && err != SBAT_E_SIGNATURE && err != SBAT_E_TOO_BIG)
		fail("a failure that is not SBAT_E_SIGNATURE or SBAT_E_TOO_BIG");
	if (err != SBAT_OK && (d->code != err || !d->what))
		fail("a failure without its code and reason in the diagnostic");
	return err;
}

static void
check_verified(const call *c)
{
	size_t n_len = c->n_len, i = 0;

	while (i < c->n_len && c->n[i] == 0)
		i++;
	n_len -= i;
	if (c->sig_len != n_len)
		fail("a verified signature not as long as the modulus");
	if (c->digest_len != rsa_digest_size(c->alg))
		fail("a verified digest not of its algorithm's length");
	if (c->e_len == 0 || (c->e[c->e_len - 1] & 1) == 0)
		fail("a verified signature under an even exponent");
}

/* the same call with a zero byte in front of the modulus, then of the exponent */
static void
check_leading_zero(const call *c, sbat_err err, const char *what)
{
	uint8_t *p = malloc((c->n_len > c->e_len ? c->n_len : c->e_len) + 1);
	sbat_diag d;

	if (!p)
		return;
	p[0] = 0;
	if (c->n_len)
		memcpy(p + 1, c->n, c->n_len);
	if (run(c, p, c->n_len + 1, c->e, c->e_len, &d) != err || (err != SBAT_OK && strcmp(d.what, what) != 0))
		fail("a zero byte in front of the modulus changed the result");
	if (c->e_len)
		memcpy(p + 1, c->e, c->e_len);
	if (run(c, c->n, c->n_len, p, c->e_len + 1, &d) != err || (err != SBAT_OK && strcmp(d.what, what) != 0))
		fail("a zero byte in front of the exponent changed the result");
	free(p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const sbat_digest_alg algs[4] = { SBAT_DIGEST_SHA1, SBAT_DIGEST_SHA256, SBAT_DIGEST_SHA384,
		                                 SBAT_DIGEST_SHA512 };
	uint8_t *in;
	const uint8_t *p;
	size_t left;
	call c;
	sbat_diag d;
	sbat_err err;

	if (size < 2 || size > FUZZ_MAX_INPUT)
		return 0;
	in = malloc(size);
	if (!in)
		return 0;
	memcpy(in, data, size);
	c.pss = in[0] & 1;
	c.alg = algs[(in[0] >> 1) & 3];
	c.params.mgf1_alg = algs[(in[0] >> 3) & 3];
	c.params.salt_len = in[1];
	p = in + 2;
	left = size - 2;
	if (in[0] & 0x20) {
		c.n = key_n;
		c.n_len = sizeof(key_n);
		c.e = key_e;
		c.e_len = sizeof(key_e);
	} else {
		c.n = field(&p, &left, &c.n_len);
		c.e = field(&p, &left, &c.e_len);
	}
	c.sig = field(&p, &left, &c.sig_len);
	c.digest = field(&p, &left, &c.digest_len);
	err = run(&c, c.n, c.n_len, c.e, c.e_len, &d);
	if (err == SBAT_OK)
		check_verified(&c);
	check_leading_zero(&c, err, err == SBAT_OK ? NULL : d.what);
	if (memcmp(in, data, size) != 0)
		fail("a verification modified its input");
	free(in);
	return 0;
}
