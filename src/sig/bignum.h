/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bignum.h - unsigned numbers of at most BIGNUM_MAX_BITS bits, and the one
 * operation RSA verification needs: modular exponentiation by an odd modulus
 * (Montgomery multiplication, 32-bit limbs, 64-bit intermediates). Public
 * values only: nothing here runs in constant time. */
#ifndef SBAT_SIG_BIGNUM_H
#define SBAT_SIG_BIGNUM_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"

#define BIGNUM_MAX_BITS 8192
#define BIGNUM_MAX_LIMBS (BIGNUM_MAX_BITS / 32)

typedef struct bignum {
	uint32_t w[BIGNUM_MAX_LIMBS]; /* limbs, least significant first */
	size_t len;                   /* limbs up to the highest nonzero one (0 for zero); those past it are 0 */
} bignum;

/* r = the big-endian number p[0..len); leading zero bytes are fine. Fails
 * (SBAT_E_TOO_BIG) when the value has more than BIGNUM_MAX_BITS bits. */
sbat_err bignum_from_bytes(bignum *r, const uint8_t *p, size_t len, sbat_diag *d);

/* a as exactly len big-endian bytes in out; 1, or 0 (out unspecified) when a needs more. */
int bignum_to_bytes(const bignum *a, uint8_t *out, size_t len);

/* The number of significant bits of a (0 for zero). */
size_t bignum_bits(const bignum *a);

/* -1, 0 or 1 as a <, == or > b. */
int bignum_cmp(const bignum *a, const bignum *b);

/* r = base^exp mod m. m must be odd and over 1, base below m, exp nonzero;
 * otherwise SBAT_E_SIGNATURE naming the broken condition. r may be base. */
sbat_err bignum_modexp(bignum *r, const bignum *base, const bignum *exp, const bignum *m, sbat_diag *d);

#endif
