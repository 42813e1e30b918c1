/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bview.c - bounds-checked reads from an untrusted byte buffer */
#include "bview.h"

#include "le.h"

void
bv_init(bview *v, const uint8_t *p, size_t len)
{
	v->p = p;
	v->len = len;
	v->bad = 0;
	v->bad_offset = 0;
}

int
bv_has(const bview *v, uint64_t off, uint64_t n)
{
	return off <= v->len && n <= v->len - off;
}

const uint8_t *
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

uint8_t
bv_u8(bview *v, uint64_t off)
{
	const uint8_t *p = bv_ptr(v, off, 1);

	return p ? p[0] : 0;
}

uint16_t
bv_le16(bview *v, uint64_t off)
{
	const uint8_t *p = bv_ptr(v, off, 2);

	return p ? le16_get(p) : 0;
}

uint32_t
bv_le32(bview *v, uint64_t off)
{
	const uint8_t *p = bv_ptr(v, off, 4);

	return p ? le32_get(p) : 0;
}
