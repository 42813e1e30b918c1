/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* checksum.c - the PE optional header CheckSum */
#include "checksum.h"

#include "le.h"

#include "sbat/image.h"

/* The four 16-bit lanes of v, added. */
static uint64_t
lanes(uint64_t v)
{
	return (v & 0xffff) + ((v >> 16) & 0xffff) + ((v >> 32) & 0xffff) + (v >> 48);
}

void
sbat_csum_init(csum *c, uint64_t checksum_offset)
{
	c->sum = 0;
	c->field = checksum_offset;
}

/*
 * Fold often enough that the 64-bit sum cannot overflow: each step adds at
 * most 0xff00, so folding once per 2^32 bytes would do; per call is plenty.
 */
static uint64_t
fold(uint64_t s)
{
	while (s >> 16)
		s = (s & 0xffffu) + (s >> 16);
	return s;
}

/*
 * The bytes at even offsets (low halves of the 16-bit words) and at odd
 * ones, summed separately. Eight bytes at a time: the even and odd bytes
 * of a little-endian 64-bit load, masked into the four 16-bit lanes of a
 * 64-bit accumulator. A lane grows by at most 0xff per step, so 257 steps
 * fit; the lanes are emptied every 256.
 */
static void
add_bytes(const uint8_t *p, size_t n, uint64_t *lo, uint64_t *hi)
{
	const uint64_t mask = 0x00ff00ff00ff00ffull;
	uint64_t even = 0, odd = 0;
	size_t i = 0, step = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v = (uint64_t)le32_get(p + i) | ((uint64_t)le32_get(p + i + 4) << 32);

		even += v & mask;
		odd += (v >> 8) & mask;
		if (++step == 256) {
			*lo += lanes(even);
			*hi += lanes(odd);
			even = odd = 0;
			step = 0;
		}
	}
	*lo += lanes(even);
	*hi += lanes(odd);
	for (; i + 1 < n; i += 2) {
		*lo += p[i];
		*hi += p[i + 1];
	}
	if (i < n)
		*lo += p[i];
}

void
sbat_csum_add(csum *c, uint64_t offset, const uint8_t *p, size_t n)
{
	uint64_t lo = 0, hi = 0;
	size_t i = 0;

	/* the CheckSum field itself counts as zero */
	if (offset < c->field + 4 && c->field < offset + n) {
		for (; i < n; i++) {
			uint64_t at = offset + i;

			if (at >= c->field && at < c->field + 4)
				continue;
			if (at & 1)
				hi += p[i];
			else
				lo += p[i];
		}
	} else {
		/* bring the position to an even offset, then take whole words */
		if (n && (offset & 1)) {
			hi += p[0];
			i = 1;
		}
		add_bytes(p + i, n - i, &lo, &hi);
	}
	c->sum = fold(c->sum + fold(lo) + (fold(hi) << 8));
}

uint32_t
sbat_csum_final(const csum *c, uint64_t file_size)
{
	return (uint32_t)(fold(c->sum) + file_size);
}

/*
 * Sum of little-endian 16-bit words with end-around carry, the 4-byte
 * CheckSum field counted as zero, an odd final byte zero-extended (as
 * sbsign does), plus the file length. Firmware ignores the value; signing
 * tools and Windows-style verifiers recompute it the same way.
 */
uint32_t
sbat_pe_checksum(const uint8_t *buf, size_t len, uint64_t checksum_offset)
{
	csum c;

	sbat_csum_init(&c, checksum_offset);
	sbat_csum_add(&c, 0, buf, len);
	return sbat_csum_final(&c, len);
}
