/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* ckd.h - checked arithmetic for sizes and offsets read from untrusted files */
#ifndef SBAT_UTIL_CKD_H
#define SBAT_UTIL_CKD_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The polarity of C23's ckd_add: each helper returns true when the result
 * does NOT fit (overflow) and then leaves *r untouched; false means *r holds
 * the exact result. So a check reads `if (ckd_add_u64(&r, a, b)) fail`.
 * Plain C: no builtins needed, no silent unchecked fallback.
 */
static inline bool
ckd_add_u64(uint64_t *r, uint64_t a, uint64_t b)
{
	if (a > UINT64_MAX - b)
		return true;
	*r = a + b;
	return false;
}

static inline bool
ckd_add_u32(uint32_t *r, uint64_t a, uint64_t b)
{
	if (a > UINT32_MAX || b > UINT32_MAX - a)
		return true;
	*r = (uint32_t)(a + b);
	return false;
}

/* A question, not a checked operation: true when a is a power of two. */
static inline bool
ckd_is_pow2(uint64_t a)
{
	return a != 0 && (a & (a - 1)) == 0;
}

/* Round a up to a multiple of align; true (overflow) also when align is not a power of two. */
static inline bool
ckd_align_u64(uint64_t *r, uint64_t a, uint64_t align)
{
	uint64_t t;

	if (!ckd_is_pow2(align) || ckd_add_u64(&t, a, align - 1))
		return true;
	*r = t & ~(align - 1);
	return false;
}

/* As ckd_align_u64, and the result must also fit in 32 bits (PE fields are 32-bit). */
static inline bool
ckd_align_u32(uint32_t *r, uint64_t a, uint64_t align)
{
	uint64_t t;

	if (ckd_align_u64(&t, a, align) || t > UINT32_MAX)
		return true;
	*r = (uint32_t)t;
	return false;
}

#endif
