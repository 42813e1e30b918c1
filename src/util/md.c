/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* md.c - the block framing SHA-1 and SHA-256 share */
#include <string.h>

#include "util/md.h"

void
md_update(uint32_t *h, uint8_t buf[MD_BLOCK_SIZE], size_t *fill, const uint8_t *p, size_t len, md_blocks_fn *blocks)
{
	if (len == 0)
		return;
	if (*fill > 0) {
		size_t take = MD_BLOCK_SIZE - *fill;

		if (take > len)
			take = len;
		memcpy(buf + *fill, p, take);
		*fill += take;
		p += take;
		len -= take;
		if (*fill < MD_BLOCK_SIZE)
			return;
		blocks(h, buf, 1);
		*fill = 0;
	}
	if (len >= MD_BLOCK_SIZE) {
		size_t n = len / MD_BLOCK_SIZE;

		blocks(h, p, n);
		p += n * MD_BLOCK_SIZE;
		len -= n * MD_BLOCK_SIZE;
	}
	if (len > 0) {
		memcpy(buf, p, len);
		*fill = len;
	}
}

void
md_final(uint32_t *h, uint8_t buf[MD_BLOCK_SIZE], size_t fill, uint64_t bytes, md_blocks_fn *blocks, size_t n_words,
         uint8_t *out)
{
	uint64_t bits = bytes * 8;
	size_t i;

	buf[fill++] = 0x80;
	if (fill > MD_BLOCK_SIZE - 8) {
		memset(buf + fill, 0, MD_BLOCK_SIZE - fill);
		blocks(h, buf, 1);
		fill = 0;
	}
	memset(buf + fill, 0, MD_BLOCK_SIZE - 8 - fill);
	for (i = 0; i < 8; i++)
		buf[MD_BLOCK_SIZE - 1 - i] = (uint8_t)(bits >> (8 * i));
	blocks(h, buf, 1);
	for (i = 0; i < n_words; i++) {
		out[4 * i + 0] = (uint8_t)(h[i] >> 24);
		out[4 * i + 1] = (uint8_t)(h[i] >> 16);
		out[4 * i + 2] = (uint8_t)(h[i] >> 8);
		out[4 * i + 3] = (uint8_t)h[i];
	}
}
