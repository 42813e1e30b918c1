/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sha1.c - SHA-1 (FIPS 180-4 section 6.1): a portable block function, and on x86-64 one with the SHA
 * extensions, compiled for that target only and called only when CPUID reports them */
#include <string.h>

#include "util/md.h"
#include "util/sha1.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(SBAT_SHA256_PORTABLE_ONLY)
#define HAVE_SHANI 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define HAVE_SHANI 0
#endif

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
blocks_portable(uint32_t *h, const uint8_t *p, size_t n)
{
	for (; n > 0; n--, p += SHA1_BLOCK_SIZE)
		block(h, p);
}

#if HAVE_SHANI
/*
 * Four rounds, group g (rounds 4g..4g+3) of 20, with f and K of group g / 5:
 * the schedule words of the group are m[g % 4] (the first word in the
 * highest lane). sha1nexte adds the fifth state word, kept from the ABCD
 * before the previous group, to them. The schedule runs three groups
 * ahead: group g starts words 4(g+3) (msg1), adds in words 4(g+2) (xor)
 * and ends words 4(g+1) (msg2), each only where such words exist.
 */
#define GROUP(g)                                                                                                       \
	do {                                                                                                           \
		__m128i e_ = (g) == 0 ? _mm_add_epi32(e, m[0]) : _mm_sha1nexte_epu32(e, m[(g) % 4]);                   \
		e = abcd;                                                                                              \
		abcd = _mm_sha1rnds4_epu32(abcd, e_, (g) / 5);                                                         \
		if ((g) >= 1 && (g) <= 16)                                                                             \
			m[((g) + 3) % 4] = _mm_sha1msg1_epu32(m[((g) + 3) % 4], m[(g) % 4]);                           \
		if ((g) >= 2 && (g) <= 17)                                                                             \
			m[((g) + 2) % 4] = _mm_xor_si128(m[((g) + 2) % 4], m[(g) % 4]);                                \
		if ((g) >= 3 && (g) <= 18)                                                                             \
			m[((g) + 1) % 4] = _mm_sha1msg2_epu32(m[((g) + 1) % 4], m[(g) % 4]);                           \
	} while (0)

__attribute__((target("sha,sse4.1"))) static void
blocks_shani(uint32_t *h, const uint8_t *p, size_t n)
{
	/* the 16 bytes reversed: each word big-endian, the first word in the highest lane */
	const __m128i rev = _mm_set_epi64x(0x0001020304050607LL, 0x08090a0b0c0d0e0fLL);
	__m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)h), 0x1b);
	__m128i e = _mm_set_epi32((int)h[4], 0, 0, 0);

	for (; n > 0; n--, p += SHA1_BLOCK_SIZE) {
		__m128i abcd0 = abcd, e0 = e, m[4];
		int i;

		for (i = 0; i < 4; i++)
			m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i)), rev);
		GROUP(0);
		GROUP(1);
		GROUP(2);
		GROUP(3);
		GROUP(4);
		GROUP(5);
		GROUP(6);
		GROUP(7);
		GROUP(8);
		GROUP(9);
		GROUP(10);
		GROUP(11);
		GROUP(12);
		GROUP(13);
		GROUP(14);
		GROUP(15);
		GROUP(16);
		GROUP(17);
		GROUP(18);
		GROUP(19);
		e = _mm_sha1nexte_epu32(e, e0);
		abcd = _mm_add_epi32(abcd, abcd0);
	}
	_mm_storeu_si128((__m128i *)(void *)h, _mm_shuffle_epi32(abcd, 0x1b));
	h[4] = (uint32_t)_mm_extract_epi32(e, 3);
}

static int
cpu_has_shani(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19)) || !(c & (1u << 9))) /* SSE4.1, SSSE3 */
		return 0;
	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	return (b >> 29) & 1; /* SHA */
}
#endif

static md_blocks_fn *blocks;

int
sha1_select(int shani)
{
#if HAVE_SHANI
	if (shani < 0)
		shani = cpu_has_shani();
	if (shani && !cpu_has_shani())
		return 0;
	blocks = shani ? blocks_shani : blocks_portable;
	return 1;
#else
	if (shani > 0)
		return 0;
	blocks = blocks_portable;
	return 1;
#endif
}

void
sha1_init(struct sha1_ctx *ctx)
{
	static const uint32_t iv[5] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0 };

	if (!blocks)
		sha1_select(-1);
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
