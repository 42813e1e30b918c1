/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bignum.c - fixed-size unsigned numbers and Montgomery exponentiation (public values only) */
#include <string.h>

#include "sig/bignum.h"
#include "util/diag.h"

/* Drop the zero limbs at the top. */
static void
normalize(bignum *a)
{
	while (a->len > 0 && a->w[a->len - 1] == 0)
		a->len--;
}

sbat_err
bignum_from_bytes(bignum *r, const uint8_t *p, size_t len, sbat_diag *d)
{
	size_t i;

	while (len > 0 && p[0] == 0) {
		p++;
		len--;
	}
	if (len > BIGNUM_MAX_BITS / 8)
		return diag_fail(d, SBAT_E_TOO_BIG, "number over 8192 bits");
	memset(r, 0, sizeof(*r));
	for (i = 0; i < len; i++)
		r->w[i / 4] |= (uint32_t)p[len - 1 - i] << (8 * (i % 4));
	r->len = (len + 3) / 4;
	normalize(r);
	return SBAT_OK;
}

int
bignum_to_bytes(const bignum *a, uint8_t *out, size_t len)
{
	size_t i;

	if (bignum_bits(a) > 8 * len)
		return 0;
	for (i = 0; i < len; i++)
		out[len - 1 - i] = i / 4 < a->len ? (uint8_t)(a->w[i / 4] >> (8 * (i % 4))) : 0;
	return 1;
}

size_t
bignum_bits(const bignum *a)
{
	size_t bits;
	uint32_t top;

	if (a->len == 0)
		return 0;
	top = a->w[a->len - 1];
	bits = 32 * (a->len - 1);
	while (top) {
		bits++;
		top >>= 1;
	}
	return bits;
}

/* -1, 0, 1 as a[0..k) <, ==, > b[0..k) */
static int
cmp_limbs(const uint32_t *a, const uint32_t *b, size_t k)
{
	while (k-- > 0)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

int
bignum_cmp(const bignum *a, const bignum *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return cmp_limbs(a->w, b->w, a->len);
}

/* a[0..k) -= b[0..k); returns the borrow */
static uint32_t
sub_limbs(uint32_t *a, const uint32_t *b, size_t k)
{
	uint32_t borrow = 0;
	size_t i;

	for (i = 0; i < k; i++) {
		uint64_t t = (uint64_t)a[i] - b[i] - borrow;

		a[i] = (uint32_t)t;
		borrow = (uint32_t)(t >> 32) & 1;
	}
	return borrow;
}

/* The Montgomery setting of an odd modulus of k limbs: R = 2^(32k), n0 = -m^-1 mod 2^32. */
typedef struct mont {
	const uint32_t *m;
	size_t k;
	uint32_t n0;
} mont;

static void
mont_setup(mont *c, const bignum *m)
{
	uint32_t x = m->w[0]; /* m * m = 1 mod 8: x is m's inverse to 3 bits; each step doubles them */
	int i;

	for (i = 0; i < 4; i++)
		x *= 2 - m->w[0] * x;
	c->m = m->w;
	c->k = m->len;
	c->n0 = (uint32_t)0 - x;
}

/* r = a * b / R mod m (a, b < m; r may be a or b): CIOS, one row of a*b then one of the reduction per limb */
static void
mont_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, const mont *c)
{
	uint32_t t[BIGNUM_MAX_LIMBS + 2], q;
	uint64_t acc;
	size_t i, j, k = c->k;

	memset(t, 0, (k + 2) * sizeof(t[0]));
	for (i = 0; i < k; i++) {
		acc = 0;
		for (j = 0; j < k; j++) {
			acc = (uint64_t)t[j] + (uint64_t)a[j] * b[i] + (acc >> 32);
			t[j] = (uint32_t)acc;
		}
		acc = (uint64_t)t[k] + (acc >> 32);
		t[k] = (uint32_t)acc;
		t[k + 1] = (uint32_t)(acc >> 32);
		q = t[0] * c->n0;
		acc = (uint64_t)t[0] + (uint64_t)q * c->m[0];
		for (j = 1; j < k; j++) {
			acc = (uint64_t)t[j] + (uint64_t)q * c->m[j] + (acc >> 32);
			t[j - 1] = (uint32_t)acc;
		}
		acc = (uint64_t)t[k] + (acc >> 32);
		t[k - 1] = (uint32_t)acc;
		t[k] = t[k + 1] + (uint32_t)(acc >> 32);
	}
	/* t < 2m: one subtraction at most */
	if (t[k] != 0 || cmp_limbs(t, c->m, k) >= 0)
		sub_limbs(t, c->m, k);
	memcpy(r, t, k * sizeof(t[0]));
}

/* a = a * R mod m (a < m, k limbs): 32k doublings, each reduced */
static void
mont_enter(uint32_t *a, const mont *c)
{
	size_t n, i;
	uint32_t top;

	for (n = 0; n < 32 * c->k; n++) {
		top = a[c->k - 1] >> 31;
		for (i = c->k - 1; i > 0; i--)
			a[i] = a[i] << 1 | a[i - 1] >> 31;
		a[0] <<= 1;
		if (top || cmp_limbs(a, c->m, c->k) >= 0)
			sub_limbs(a, c->m, c->k);
	}
}

sbat_err
bignum_modexp(bignum *r, const bignum *base, const bignum *exp, const bignum *m, sbat_diag *d)
{
	uint32_t x[BIGNUM_MAX_LIMBS], acc[BIGNUM_MAX_LIMBS], one[BIGNUM_MAX_LIMBS];
	mont c;
	size_t bit;

	if (m->len == 0 || (m->w[0] & 1) == 0 || (m->len == 1 && m->w[0] == 1))
		return diag_fail(d, SBAT_E_SIGNATURE, "modulus is even or 1");
	if (bignum_cmp(base, m) >= 0)
		return diag_fail(d, SBAT_E_SIGNATURE, "number not below the modulus");
	if (exp->len == 0)
		return diag_fail(d, SBAT_E_SIGNATURE, "exponent is 0");
	mont_setup(&c, m);
	memset(x, 0, sizeof(x));
	memcpy(x, base->w, base->len * sizeof(x[0]));
	mont_enter(x, &c);
	memcpy(acc, x, c.k * sizeof(acc[0]));
	/* left to right from the bit below the top one */
	for (bit = bignum_bits(exp) - 1; bit-- > 0;) {
		mont_mul(acc, acc, acc, &c);
		if (exp->w[bit / 32] >> (bit % 32) & 1)
			mont_mul(acc, acc, x, &c);
	}
	memset(one, 0, sizeof(one));
	one[0] = 1;
	mont_mul(acc, acc, one, &c);
	memset(r, 0, sizeof(*r));
	memcpy(r->w, acc, c.k * sizeof(acc[0]));
	r->len = c.k;
	normalize(r);
	return SBAT_OK;
}
