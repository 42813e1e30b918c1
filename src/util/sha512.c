/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sha512.c - SHA-512 and SHA-384 (FIPS 180-4 sections 5.1.2, 6.4, 6.5), portable.
 * The framing is util/md.c's with 128-byte blocks, 64-bit words and a 128-bit
 * length, so it is written out here rather than stretched to both. */
#include <string.h>

#include "util/sha512.h"

static const uint64_t k512[80] = {
	0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
	0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
	0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
	0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
	0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
	0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
	0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
	0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
	0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
	0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
	0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
	0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
	0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
	0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
	0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
	0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
	0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
	0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
	0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
	0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

static uint64_t
ror(uint64_t x, unsigned n)
{
	return (x >> n) | (x << (64 - n));
}

static uint64_t
be64(const uint8_t *p)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* The 80 schedule words of the block at p. */
static void
schedule(uint64_t w[80], const uint8_t *p)
{
	unsigned t;

	for (t = 0; t < 16; t++)
		w[t] = be64(p + 8 * t);
	for (t = 16; t < 80; t++) {
		uint64_t s0 = ror(w[t - 15], 1) ^ ror(w[t - 15], 8) ^ (w[t - 15] >> 7);
		uint64_t s1 = ror(w[t - 2], 19) ^ ror(w[t - 2], 61) ^ (w[t - 2] >> 6);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
}

/*
 * Round t of one state v (a..h as v[0..7] in registers: the caller's eight
 * scalars). The working variables are scalars, not an array shifted each
 * round: compilers turn such a shift into a call to memmove (GCC 12 at -O2
 * did, 80 times a block, a third of the time of a SHA-512).
 */
#define ROUND(a, b, c, d, e, f, g, h, t)                                                                               \
	do {                                                                                                           \
		uint64_t t1_ = h + (ror(e, 14) ^ ror(e, 18) ^ ror(e, 41)) + ((e & f) ^ (~e & g)) + k512[t] + w[t];     \
		uint64_t t2_ = (ror(a, 28) ^ ror(a, 34) ^ ror(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));                 \
		h = g;                                                                                                 \
		g = f;                                                                                                 \
		f = e;                                                                                                 \
		e = d + t1_;                                                                                           \
		d = c;                                                                                                 \
		c = b;                                                                                                 \
		b = a;                                                                                                 \
		a = t1_ + t2_;                                                                                         \
	} while (0)

static void
block(uint64_t *h, const uint8_t *p)
{
	uint64_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	unsigned t;

	schedule(w, p);
	for (t = 0; t < 80; t++)
		ROUND(a, b, c, d, e, f, g, hh, t);
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
}

/*
 * The same block into two states (SHA-384 and SHA-512 of the same bytes):
 * one schedule, and the two chains of rounds side by side, each filling
 * the issue slots the other leaves while it waits.
 */
static void
block2(uint64_t *h, uint64_t *h2, const uint8_t *p)
{
	uint64_t w[80], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
	uint64_t a2 = h2[0], b2 = h2[1], c2 = h2[2], d2 = h2[3], e2 = h2[4], f2 = h2[5], g2 = h2[6], hh2 = h2[7];
	unsigned t;

	schedule(w, p);
	for (t = 0; t < 80; t++) {
		ROUND(a, b, c, d, e, f, g, hh, t);
		ROUND(a2, b2, c2, d2, e2, f2, g2, hh2, t);
	}
	h[0] += a;
	h[1] += b;
	h[2] += c;
	h[3] += d;
	h[4] += e;
	h[5] += f;
	h[6] += g;
	h[7] += hh;
	h2[0] += a2;
	h2[1] += b2;
	h2[2] += c2;
	h2[3] += d2;
	h2[4] += e2;
	h2[5] += f2;
	h2[6] += g2;
	h2[7] += hh2;
}

static void
start(struct sha512_ctx *ctx, const uint64_t iv[8], size_t out_len)
{
	memcpy(ctx->h, iv, 8 * sizeof(iv[0]));
	ctx->bytes = 0;
	ctx->fill = 0;
	ctx->out_len = out_len;
}

void
sha512_init(struct sha512_ctx *ctx)
{
	static const uint64_t iv[8] = {
		0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
		0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
	};

	start(ctx, iv, SHA512_DIGEST_SIZE);
}

void
sha512_init_384(struct sha512_ctx *ctx)
{
	static const uint64_t iv[8] = {
		0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
		0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
	};

	start(ctx, iv, SHA384_DIGEST_SIZE);
}

void
sha512_update(struct sha512_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t take;

	ctx->bytes += len;
	while (len > 0) {
		if (ctx->fill == 0 && len >= SHA512_BLOCK_SIZE) {
			block(ctx->h, p);
			p += SHA512_BLOCK_SIZE;
			len -= SHA512_BLOCK_SIZE;
			continue;
		}
		take = SHA512_BLOCK_SIZE - ctx->fill;
		if (take > len)
			take = len;
		memcpy(ctx->buf + ctx->fill, p, take);
		ctx->fill += take;
		p += take;
		len -= take;
		if (ctx->fill == SHA512_BLOCK_SIZE) {
			block(ctx->h, ctx->buf);
			ctx->fill = 0;
		}
	}
}

void
sha512_update2(struct sha512_ctx *ctx, struct sha512_ctx *ctx2, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t take;

	if (ctx->fill != ctx2->fill || ctx->bytes != ctx2->bytes ||
	    (ctx->fill && memcmp(ctx->buf, ctx2->buf, ctx->fill) != 0)) {
		sha512_update(ctx, data, len);
		sha512_update(ctx2, data, len);
		return;
	}
	ctx->bytes += len;
	ctx2->bytes += len;
	while (len > 0) {
		if (ctx->fill == 0 && len >= SHA512_BLOCK_SIZE) {
			block2(ctx->h, ctx2->h, p);
			p += SHA512_BLOCK_SIZE;
			len -= SHA512_BLOCK_SIZE;
			continue;
		}
		take = SHA512_BLOCK_SIZE - ctx->fill;
		if (take > len)
			take = len;
		memcpy(ctx->buf + ctx->fill, p, take);
		memcpy(ctx2->buf + ctx2->fill, p, take);
		ctx->fill += take;
		ctx2->fill += take;
		p += take;
		len -= take;
		if (ctx->fill == SHA512_BLOCK_SIZE) {
			block2(ctx->h, ctx2->h, ctx->buf);
			ctx->fill = 0;
			ctx2->fill = 0;
		}
	}
}

/* 0x80, zeros, then the length in bits as 128 bits big-endian (its top 61 bits are bytes >> 61) */
void
sha512_final(struct sha512_ctx *ctx, uint8_t *out)
{
	uint8_t *buf = ctx->buf;
	size_t fill = ctx->fill, i;

	buf[fill++] = 0x80;
	if (fill > SHA512_BLOCK_SIZE - 16) {
		memset(buf + fill, 0, SHA512_BLOCK_SIZE - fill);
		block(ctx->h, buf);
		fill = 0;
	}
	memset(buf + fill, 0, SHA512_BLOCK_SIZE - fill);
	for (i = 0; i < 8; i++) {
		buf[SHA512_BLOCK_SIZE - 1 - i] = (uint8_t)((ctx->bytes << 3) >> (8 * i));
		buf[SHA512_BLOCK_SIZE - 9 - i] = (uint8_t)((ctx->bytes >> 61) >> (8 * i));
	}
	block(ctx->h, buf);
	for (i = 0; i < ctx->out_len; i++)
		out[i] = (uint8_t)(ctx->h[i / 8] >> (56 - 8 * (i % 8)));
	memset(ctx, 0, sizeof(*ctx));
}
