/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sha256.c - SHA-256 after FIPS 180-4. The portable block function is plain
 * C99; the x86-64 one uses the SHA extensions through compiler intrinsics in
 * a function compiled for that target only, called only when CPUID reports
 * them, so the rest of the build targets the baseline CPU. */
#include "util/md.h"
#include "util/sha256.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(SBAT_SHA256_PORTABLE_ONLY)
#define HAVE_SHANI 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define HAVE_SHANI 0
#endif

static const uint32_t k256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t
be32_load(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define BSIG0(x) (ROTR(x, 2) ^ ROTR(x, 13) ^ ROTR(x, 22))
#define BSIG1(x) (ROTR(x, 6) ^ ROTR(x, 11) ^ ROTR(x, 25))
#define SSIG0(x) (ROTR(x, 7) ^ ROTR(x, 18) ^ ((x) >> 3))
#define SSIG1(x) (ROTR(x, 17) ^ ROTR(x, 19) ^ ((x) >> 10))
#define CH(x, y, z) (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))

/* one round; the eight working variables rotate by renaming, not by moves */
#define RND(a, b, c, d, e, f, g, h, i)                                                                                 \
	do {                                                                                                           \
		uint32_t t1_ = h + BSIG1(e) + CH(e, f, g) + k256[i] + w[(i)&15];                                       \
		d += t1_;                                                                                              \
		h = t1_ + BSIG0(a) + MAJ(a, b, c);                                                                     \
	} while (0)

static void
blocks_portable(uint32_t st[8], const uint8_t *p, size_t n)
{
	for (; n > 0; n--, p += SHA256_BLOCK_SIZE) {
		uint32_t w[16];
		uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
		int i;

		for (i = 0; i < 16; i++)
			w[i] = be32_load(p + 4 * i);
		for (i = 0; i < 64; i += 8) {
			if (i >= 16) {
				int j;
				for (j = i; j < i + 8; j++)
					w[j & 15] += SSIG1(w[(j - 2) & 15]) + w[(j - 7) & 15] + SSIG0(w[(j - 15) & 15]);
			}
			RND(a, b, c, d, e, f, g, h, i + 0);
			RND(h, a, b, c, d, e, f, g, i + 1);
			RND(g, h, a, b, c, d, e, f, i + 2);
			RND(f, g, h, a, b, c, d, e, i + 3);
			RND(e, f, g, h, a, b, c, d, i + 4);
			RND(d, e, f, g, h, a, b, c, i + 5);
			RND(c, d, e, f, g, h, a, b, i + 6);
			RND(b, c, d, e, f, g, h, a, i + 7);
		}
		st[0] += a;
		st[1] += b;
		st[2] += c;
		st[3] += d;
		st[4] += e;
		st[5] += f;
		st[6] += g;
		st[7] += h;
	}
}

/* Two streams, n blocks each, one block of each in turn: the block function of both is latency-bound on the
 * previous round, and a CPU that issues several scalar instructions at once runs the two side by side. */
static void
blocks2_portable(uint32_t sa[8], const uint8_t *pa, uint32_t sb[8], const uint8_t *pb, size_t n)
{
	for (; n > 0; n--, pa += SHA256_BLOCK_SIZE, pb += SHA256_BLOCK_SIZE) {
		blocks_portable(sa, pa, 1);
		blocks_portable(sb, pb, 1);
	}
}

#if HAVE_SHANI
/* four rounds: message words W plus constants K, two sha256rnds2 */
#define QROUND(wv, i)                                                                                                  \
	do {                                                                                                           \
		__m128i m_ = _mm_add_epi32((wv), _mm_loadu_si128((const __m128i *)(const void *)&k256[4 * (i)]));      \
		s1 = _mm_sha256rnds2_epu32(s1, s0, m_);                                                                \
		m_ = _mm_shuffle_epi32(m_, 0x0e);                                                                      \
		s0 = _mm_sha256rnds2_epu32(s0, s1, m_);                                                                \
	} while (0)
/* the next four schedule words from the last sixteen (w0 oldest), into w0 */
#define SCHED(w0, w1, w2, w3)                                                                                          \
	(w0 = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4)), w3))

/* the state as the instructions want it, ABEF and CDGH, from ABCD and EFGH */
__attribute__((target("sha,sse4.1"))) static inline void
shani_load(const uint32_t st[8], __m128i *s0, __m128i *s1)
{
	__m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)&st[0]), 0xb1);
	__m128i u = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(const void *)&st[4]), 0x1b);

	*s0 = _mm_alignr_epi8(t, u, 8);
	*s1 = _mm_blend_epi16(u, t, 0xf0);
}

/* back to ABCD and EFGH */
__attribute__((target("sha,sse4.1"))) static inline void
shani_store(uint32_t st[8], __m128i s0, __m128i s1)
{
	__m128i t = _mm_shuffle_epi32(s0, 0x1b);

	s1 = _mm_shuffle_epi32(s1, 0xb1);
	_mm_storeu_si128((__m128i *)(void *)&st[0], _mm_blend_epi16(t, s1, 0xf0));
	_mm_storeu_si128((__m128i *)(void *)&st[4], _mm_alignr_epi8(s1, t, 8));
}

/* the four message words at p + 16 * i, big-endian */
#define MSG(p, i) _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)((p) + 16 * (i))), bswap)

__attribute__((target("sha,sse4.1"))) static void
blocks_shani(uint32_t st[8], const uint8_t *p, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i s0, s1;

	shani_load(st, &s0, &s1);
	for (; n > 0; n--, p += SHA256_BLOCK_SIZE) {
		__m128i save0 = s0, save1 = s1;
		__m128i m0 = MSG(p, 0), m1 = MSG(p, 1), m2 = MSG(p, 2), m3 = MSG(p, 3);

		QROUND(m0, 0);
		QROUND(m1, 1);
		QROUND(m2, 2);
		QROUND(m3, 3);
		SCHED(m0, m1, m2, m3);
		QROUND(m0, 4);
		SCHED(m1, m2, m3, m0);
		QROUND(m1, 5);
		SCHED(m2, m3, m0, m1);
		QROUND(m2, 6);
		SCHED(m3, m0, m1, m2);
		QROUND(m3, 7);
		SCHED(m0, m1, m2, m3);
		QROUND(m0, 8);
		SCHED(m1, m2, m3, m0);
		QROUND(m1, 9);
		SCHED(m2, m3, m0, m1);
		QROUND(m2, 10);
		SCHED(m3, m0, m1, m2);
		QROUND(m3, 11);
		SCHED(m0, m1, m2, m3);
		QROUND(m0, 12);
		SCHED(m1, m2, m3, m0);
		QROUND(m1, 13);
		SCHED(m2, m3, m0, m1);
		QROUND(m2, 14);
		SCHED(m3, m0, m1, m2);
		QROUND(m3, 15);

		s0 = _mm_add_epi32(s0, save0);
		s1 = _mm_add_epi32(s1, save1);
	}
	shani_store(st, s0, s1);
}

/* four rounds of each of two streams, the instructions of the two alternating: while one waits for its
 * previous sha256rnds2 the other's issues */
#define QROUND2(wa, wb, i)                                                                                             \
	do {                                                                                                           \
		__m128i k_ = _mm_loadu_si128((const __m128i *)(const void *)&k256[4 * (i)]);                           \
		__m128i ma_ = _mm_add_epi32((wa), k_), mb_ = _mm_add_epi32((wb), k_);                                  \
		a1 = _mm_sha256rnds2_epu32(a1, a0, ma_);                                                               \
		b1 = _mm_sha256rnds2_epu32(b1, b0, mb_);                                                               \
		ma_ = _mm_shuffle_epi32(ma_, 0x0e);                                                                    \
		mb_ = _mm_shuffle_epi32(mb_, 0x0e);                                                                    \
		a0 = _mm_sha256rnds2_epu32(a0, a1, ma_);                                                               \
		b0 = _mm_sha256rnds2_epu32(b0, b1, mb_);                                                               \
	} while (0)
/* the next schedule words of both streams, then their four rounds */
#define STEP2(w0, w1, w2, w3, v0, v1, v2, v3, i)                                                                       \
	do {                                                                                                           \
		SCHED(w0, w1, w2, w3);                                                                                 \
		SCHED(v0, v1, v2, v3);                                                                                 \
		QROUND2(w0, v0, i);                                                                                    \
	} while (0)

__attribute__((target("sha,sse4.1"))) static void
blocks2_shani(uint32_t sa[8], const uint8_t *pa, uint32_t sb[8], const uint8_t *pb, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i a0, a1, b0, b1;

	shani_load(sa, &a0, &a1);
	shani_load(sb, &b0, &b1);
	for (; n > 0; n--, pa += SHA256_BLOCK_SIZE, pb += SHA256_BLOCK_SIZE) {
		__m128i sa0 = a0, sa1 = a1, sb0 = b0, sb1 = b1;
		__m128i x0 = MSG(pa, 0), x1 = MSG(pa, 1), x2 = MSG(pa, 2), x3 = MSG(pa, 3);
		__m128i y0 = MSG(pb, 0), y1 = MSG(pb, 1), y2 = MSG(pb, 2), y3 = MSG(pb, 3);

		QROUND2(x0, y0, 0);
		QROUND2(x1, y1, 1);
		QROUND2(x2, y2, 2);
		QROUND2(x3, y3, 3);
		STEP2(x0, x1, x2, x3, y0, y1, y2, y3, 4);
		STEP2(x1, x2, x3, x0, y1, y2, y3, y0, 5);
		STEP2(x2, x3, x0, x1, y2, y3, y0, y1, 6);
		STEP2(x3, x0, x1, x2, y3, y0, y1, y2, 7);
		STEP2(x0, x1, x2, x3, y0, y1, y2, y3, 8);
		STEP2(x1, x2, x3, x0, y1, y2, y3, y0, 9);
		STEP2(x2, x3, x0, x1, y2, y3, y0, y1, 10);
		STEP2(x3, x0, x1, x2, y3, y0, y1, y2, 11);
		STEP2(x0, x1, x2, x3, y0, y1, y2, y3, 12);
		STEP2(x1, x2, x3, x0, y1, y2, y3, y0, 13);
		STEP2(x2, x3, x0, x1, y2, y3, y0, y1, 14);
		STEP2(x3, x0, x1, x2, y3, y0, y1, y2, 15);

		a0 = _mm_add_epi32(a0, sa0);
		a1 = _mm_add_epi32(a1, sa1);
		b0 = _mm_add_epi32(b0, sb0);
		b1 = _mm_add_epi32(b1, sb1);
	}
	shani_store(sa, a0, a1);
	shani_store(sb, b0, b1);
}

static int
cpu_has_shani(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	if (!(c & (1u << 19)) || !(c & (1u << 9))) /* SSE4.1, SSSE3 */
		return 0;
	if (__get_cpuid_max(0, NULL) < 7)
		return 0;
	__cpuid_count(7, 0, a, b, c, d);
	return (b >> 29) & 1; /* SHA */
}
#endif

typedef void (*blocks_fn)(uint32_t st[8], const uint8_t *p, size_t n);
typedef void (*blocks2_fn)(uint32_t sa[8], const uint8_t *pa, uint32_t sb[8], const uint8_t *pb, size_t n);
static blocks_fn blocks;
static blocks2_fn blocks2;
static enum sha256_impl impl_now;

int
sha256_select(enum sha256_impl impl)
{
#if HAVE_SHANI
	if (impl == SHA256_IMPL_AUTO)
		impl = cpu_has_shani() ? SHA256_IMPL_SHANI : SHA256_IMPL_PORTABLE;
	if (impl == SHA256_IMPL_SHANI) {
		if (!cpu_has_shani())
			return 0;
		blocks = blocks_shani;
		blocks2 = blocks2_shani;
		impl_now = impl;
		return 1;
	}
#else
	if (impl == SHA256_IMPL_AUTO)
		impl = SHA256_IMPL_PORTABLE;
	if (impl == SHA256_IMPL_SHANI)
		return 0;
#endif
	blocks = blocks_portable;
	blocks2 = blocks2_portable;
	impl_now = SHA256_IMPL_PORTABLE;
	return 1;
}

enum sha256_impl
sha256_current(void)
{
	if (!blocks)
		sha256_select(SHA256_IMPL_AUTO);
	return impl_now;
}

void
sha256_init(struct sha256_ctx *ctx)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	if (!blocks)
		sha256_select(SHA256_IMPL_AUTO);
	memcpy(ctx->h, iv, sizeof(iv));
	ctx->bytes = 0;
	ctx->fill = 0;
}

void
sha256_update(struct sha256_ctx *ctx, const void *data, size_t len)
{
	ctx->bytes += len;
	md_update(ctx->h, ctx->buf, &ctx->fill, data, len, blocks);
}

/* Complete ctx's partial block from *p (n bytes), compressing it when full; advances *p and *n. */
static void
top_up(struct sha256_ctx *ctx, const uint8_t **p, size_t *n)
{
	size_t take = SHA256_BLOCK_SIZE - ctx->fill;

	if (ctx->fill == 0)
		return;
	if (take > *n)
		take = *n;
	sha256_update(ctx, *p, take);
	*p += take;
	*n -= take;
}

void
sha256_update2(struct sha256_ctx *a, const void *data_a, size_t len_a, struct sha256_ctx *b, const void *data_b,
               size_t len_b)
{
	const uint8_t *pa = data_a, *pb = data_b;
	size_t n;

	top_up(a, &pa, &len_a);
	top_up(b, &pb, &len_b);
	if (a->fill == 0 && b->fill == 0) {
		n = (len_a < len_b ? len_a : len_b) / SHA256_BLOCK_SIZE;
		blocks2(a->h, pa, b->h, pb, n);
		a->bytes += n * SHA256_BLOCK_SIZE;
		b->bytes += n * SHA256_BLOCK_SIZE;
		pa += n * SHA256_BLOCK_SIZE;
		pb += n * SHA256_BLOCK_SIZE;
		len_a -= n * SHA256_BLOCK_SIZE;
		len_b -= n * SHA256_BLOCK_SIZE;
	}
	sha256_update(a, pa, len_a);
	sha256_update(b, pb, len_b);
}

void
sha256_final(struct sha256_ctx *ctx, uint8_t out[SHA256_DIGEST_SIZE])
{
	md_final(ctx->h, ctx->buf, ctx->fill, ctx->bytes, blocks, 8, out);
	memset(ctx, 0, sizeof(*ctx));
}

void
sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_SIZE])
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, data, len);
	sha256_final(&ctx, out);
}
