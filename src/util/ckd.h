/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* ckd.h - checked arithmetic for sizes and offsets read from untrusted files */
#ifndef SBAT_UTIL_CKD_H
#define SBAT_UTIL_CKD_H

#include <stdint.h>

/*
 * Each helper stores the result and returns 1 on success, or returns 0 and
 * leaves *r untouched on overflow. Plain C: no builtins needed, no silent
 * unchecked fallback.
 */
static inline int
ckd_add_u64(uint64_t *r, uint64_t a, uint64_t b)
{
	if (a > UINT64_MAX - b)
		return 0;
	*r = a + b;
	return 1;
}

static inline int
ckd_add_u32(uint32_t *r, uint64_t a, uint64_t b)
{
	if (a > UINT32_MAX || b > UINT32_MAX - a)
		return 0;
	*r = (uint32_t)(a + b);
	return 1;
}

static inline int
ckd_is_pow2(uint64_t a)
{
	return a != 0 && (a & (a - 1)) == 0;
}

/* Round a up to a multiple of align, which must be a power of two. */
static inline int
ckd_align_u64(uint64_t *r, uint64_t a, uint64_t align)
{
	uint64_t t;

	if (!ckd_is_pow2(align) || !ckd_add_u64(&t, a, align - 1))
		return 0;
	*r = t & ~(align - 1);
	return 1;
}

/* As ckd_align_u64, and the result must also fit in 32 bits (PE fields are 32-bit). */
static inline int
ckd_align_u32(uint32_t *r, uint64_t a, uint64_t align)
{
	uint64_t t;

	if (!ckd_align_u64(&t, a, align) || t > UINT32_MAX)
		return 0;
	*r = (uint32_t)t;
	return 1;
}

#endif
