/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* checksum.c - the PE optional header CheckSum */
#include "pe/checksum.h"

#include "util/le.h"

#include "sbat/image.h"

void
checksum_init(csum *c, uint64_t checksum_offset)
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
 * Sum of the 16-bit little-endian words of p[0..n), n even or not, from an
 * even file offset, modulo 0xffff (as a value that folds to the same
 * 16 bits). Four bytes at a time: a 32-bit word is two 16-bit words, and
 * 65536 * hi + lo folds to hi + lo, so summing 32-bit words and folding at
 * the end is the same sum. Two accumulators let the adds overlap; each
 * takes 2^27 words of at most 2^32 - 1 per block before it is folded, so
 * neither can reach 2^64.
 */
static uint64_t
add_words(const uint8_t *p, size_t n)
{
	const size_t block = (size_t)1 << 30;
	uint64_t total = 0;
	size_t i = 0;

	while (n - i >= 8) {
		size_t end = n - i > block ? i + block : n;
		uint64_t a = 0, b = 0;

		for (; i + 8 <= end; i += 8) {
			a += le32_get(p + i);
			b += le32_get(p + i + 4);
		}
		total = fold(total + fold(a) + fold(b));
	}
	for (; i + 2 <= n; i += 2)
		total += (uint64_t)p[i] | ((uint64_t)p[i + 1] << 8);
	if (i < n)
		total += p[i];
	return fold(total);
}

void
checksum_add(csum *c, uint64_t offset, const uint8_t *p, size_t n)
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
		lo += add_words(p + i, n - i);
	}
	c->sum = fold(c->sum + fold(lo) + (fold(hi) << 8));
}

uint32_t
checksum_final(const csum *c, uint64_t file_size)
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

	checksum_init(&c, checksum_offset);
	checksum_add(&c, 0, buf, len);
	return checksum_final(&c, len);
}
