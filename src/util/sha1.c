/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sha1.c - SHA-1 (FIPS 180-4 section 6.1), portable */
#include <string.h>

#include "util/md.h"
#include "util/sha1.h"

static uint32_t
rol(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* f and K of round t, for 0 <= t < 80 */
static uint32_t
round_f(unsigned t, uint32_t b, uint32_t c, uint32_t d, uint32_t *k)
{
	if (t < 20) {
		*k = 0x5a827999;
		return (b & c) | (~b & d);
	}
	if (t < 40) {
		*k = 0x6ed9eba1;
		return b ^ c ^ d;
	}
	if (t < 60) {
		*k = 0x8f1bbcdc;
		return (b & c) | (b & d) | (c & d);
	}
	*k = 0xca62c1d6;
	return b ^ c ^ d;
}

static void
block(uint32_t *h, const uint8_t *p)
{
	uint32_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f, k, tmp;
	unsigned t;

	for (t = 0; t < 16; t++)
		w[t] = be32(p + 4 * t);
	for (t = 16; t < 80; t++)
		w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
	for (t = 0; t < 80; t++) {
		f = round_f(t, b, c, d, &k);
		tmp = rol(a, 5) + f + e + k + w[t];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = tmp;
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
}

static void
blocks(uint32_t *h, const uint8_t *p, size_t n)
{
	for (; n > 0; n--, p += SHA1_BLOCK_SIZE)
		block(h, p);
}

void
sha1_init(struct sha1_ctx *ctx)
{
	static const uint32_t iv[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

	memcpy(ctx->h, iv, sizeof(iv));
	ctx->bytes = 0;
	ctx->fill = 0;
}

void
sha1_update(struct sha1_ctx *ctx, const void *data, size_t len)
{
	ctx->bytes += len;
	md_update(ctx->h, ctx->buf, &ctx->fill, data, len, blocks);
}

void
sha1_final(struct sha1_ctx *ctx, uint8_t out[SHA1_DIGEST_SIZE])
{
	md_final(ctx->h, ctx->buf, ctx->fill, ctx->bytes, blocks, 5, out);
	memset(ctx, 0, sizeof(*ctx));
}
