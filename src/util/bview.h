/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bview.h - bounds-checked reads from an untrusted byte buffer */
#ifndef SBAT_UTIL_BVIEW_H
#define SBAT_UTIL_BVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "util/le.h"

/*
 * A read-only view of buf[0..len). Every read names an absolute offset and
 * a width; a read that does not lie wholly inside the view sets `bad` and
 * returns 0, and `bad` stays set (sticky), so a block of field reads needs
 * one check at its end. `bad_offset` remembers the first failing offset.
 * All inline: the library exports nothing but sbat_* symbols.
 */
typedef struct bview {
	const uint8_t *p;
	size_t len;
	int bad;
	uint64_t bad_offset;
} bview;

static inline void
bv_init(bview *v, const uint8_t *p, size_t len)
{
	v->p = p;
	v->len = len;
	v->bad = 0;
	v->bad_offset = 0;
}

/* 1 if [off, off+n) lies in the view; computed by subtraction, never off+n. */
static inline int
bv_has(const bview *v, uint64_t off, uint64_t n)
{
	return off <= v->len && n <= v->len - off;
}

/* Pointer to n bytes at off, or NULL (and bad set) when out of range. */
static inline const uint8_t *
bv_ptr(bview *v, uint64_t off, uint64_t n)
{
	if (!bv_has(v, off, n)) {
		if (!v->bad) {
			v->bad = 1;
			v->bad_offset = off;
		}
		return NULL;
	}
	return v->p + off;
}

static inline uint16_t
bv_le16(bview *v, uint64_t off)
{
	const uint8_t *p = bv_ptr(v, off, 2);

	return p ? le16_get(p) : 0;
}

static inline uint32_t
bv_le32(bview *v, uint64_t off)
{
	const uint8_t *p = bv_ptr(v, off, 4);

	return p ? le32_get(p) : 0;
}

#endif
