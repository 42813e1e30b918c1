/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* content.c - a fingerprint of a file's bytes, to see a change that the time stamps cannot */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file/content.h"
#include "file/io_table.h"

#define KEY_STEP 0x9e3779b97f4a7c15ull
#define MIX_MUL 0xd6e8feb86659fd93ull

/*
 * A word's two multipliers: odd, so that each multiplication is one-to-one
 * on 64-bit words, and 64 bits wide, so that every bit of the word reaches
 * every higher bit of the product (a 32-bit one moved the top bit of the
 * product by 2^63 and nothing else, and two such flips cancelled out).
 */
#define TERM_MUL1 0xbf58476d1ce4e5b9ull
#define TERM_MUL2 0x94d049bb133111ebull

/*
 * 128 KiB: the buffer stays in the CPU's cache between the kernel's copy
 * into it and the mix reading it (a 1 MiB buffer took twice as long).
 */
#define READ_CHUNK (128u * 1024u)

/* The final mix of the sum and the length. */
static uint64_t
mix(uint64_t x)
{
	x *= MIX_MUL;
	return x ^ (x >> 32);
}

/*
 * Word j with value w adds term(w ^ key_j): the xor with a key of its place,
 * each xor with a right shift of itself and each odd multiplication are
 * one-to-one, so no other value of that word gives the same term. The
 * shifts bring the high bits down before each multiplication carries them
 * up again, so that a change of any bit changes about half of the bits of the term.
 */
static uint64_t
term(uint64_t x)
{
	x ^= x >> 30;
	x *= TERM_MUL1;
	x ^= x >> 27;
	x *= TERM_MUL2;
	return x ^ (x >> 31);
}

/* The terms of n whole words from p, the first of them word j. */
static uint64_t
words_portable(uint64_t j, const uint8_t *p, size_t n)
{
	uint64_t key = j * KEY_STEP, a = 0, b = 0, w[2];

	for (; n >= 2; n -= 2, p += 16) {
		memcpy(w, p, 16);
		a += term(w[0] ^ key);
		key += KEY_STEP;
		b += term(w[1] ^ key);
		key += KEY_STEP;
	}
	if (n) {
		memcpy(w, p, 8);
		a += term(w[0] ^ key);
	}
	return a + b;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(SBAT_CONTENT_PORTABLE_ONLY)
#define HAVE_AVX2 1
#include <immintrin.h>

/* x * m in each 64-bit lane: lo*lo + ((lo*hi + hi*lo) << 32), with m_lo and m_hi the multiplier's halves */
__attribute__((target("avx2"))) static __m256i
mul64_avx2(__m256i x, __m256i m_lo, __m256i m_hi)
{
	__m256i cross = _mm256_add_epi64(_mm256_mul_epu32(x, m_hi), _mm256_mul_epu32(_mm256_srli_epi64(x, 32), m_lo));

	return _mm256_add_epi64(_mm256_mul_epu32(x, m_lo), _mm256_slli_epi64(cross, 32));
}

/* term() in each 64-bit lane */
__attribute__((target("avx2"))) static __m256i
term_avx2(__m256i x)
{
	const __m256i m1_lo = _mm256_set1_epi64x((long long)(TERM_MUL1 & 0xffffffffu));
	const __m256i m1_hi = _mm256_set1_epi64x((long long)(TERM_MUL1 >> 32));
	const __m256i m2_lo = _mm256_set1_epi64x((long long)(TERM_MUL2 & 0xffffffffu));
	const __m256i m2_hi = _mm256_set1_epi64x((long long)(TERM_MUL2 >> 32));

	x = mul64_avx2(_mm256_xor_si256(x, _mm256_srli_epi64(x, 30)), m1_lo, m1_hi);
	x = mul64_avx2(_mm256_xor_si256(x, _mm256_srli_epi64(x, 27)), m2_lo, m2_hi);
	return _mm256_xor_si256(x, _mm256_srli_epi64(x, 31));
}

/* The same terms, four words at a time; compiled for AVX2, called only where the CPU has it. */
__attribute__((target("avx2"))) static uint64_t
words_avx2(uint64_t j, const uint8_t *p, size_t n)
{
	__m256i key = _mm256_set_epi64x((long long)((j + 3) * KEY_STEP), (long long)((j + 2) * KEY_STEP),
	                                (long long)((j + 1) * KEY_STEP), (long long)(j * KEY_STEP));
	__m256i step = _mm256_set1_epi64x((long long)(4 * KEY_STEP));
	__m256i acc = _mm256_setzero_si256();
	uint64_t lane[4];
	size_t i, whole = n & ~(size_t)3;

	for (i = 0; i < whole; i += 4) {
		__m256i x = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(p + 8 * i)), key);

		acc = _mm256_add_epi64(acc, term_avx2(x));
		key = _mm256_add_epi64(key, step);
	}
	_mm256_storeu_si256((__m256i *)(void *)lane, acc);
	return lane[0] + lane[1] + lane[2] + lane[3] + words_portable(j + whole, p + 8 * whole, n - whole);
}
/*
 * The same terms, eight words at a time with AVX-512's 64-bit
 * multiplication (AVX512DQ); called only where the CPU has it. About four
 * times as fast as the AVX2 loop, which needs three multiplications for
 * each 64-bit one.
 */
__attribute__((target("avx512f,avx512dq"))) static uint64_t
words_avx512(uint64_t j, const uint8_t *p, size_t n)
{
	__m512i key = _mm512_set_epi64((long long)((j + 7) * KEY_STEP), (long long)((j + 6) * KEY_STEP),
	                               (long long)((j + 5) * KEY_STEP), (long long)((j + 4) * KEY_STEP),
	                               (long long)((j + 3) * KEY_STEP), (long long)((j + 2) * KEY_STEP),
	                               (long long)((j + 1) * KEY_STEP), (long long)(j * KEY_STEP));
	const __m512i step = _mm512_set1_epi64((long long)(8 * KEY_STEP));
	const __m512i m1 = _mm512_set1_epi64((long long)TERM_MUL1), m2 = _mm512_set1_epi64((long long)TERM_MUL2);
	__m512i acc = _mm512_setzero_si512();
	uint64_t lane[8];
	size_t i, whole = n & ~(size_t)7;

	for (i = 0; i < whole; i += 8) {
		__m512i x = _mm512_xor_si512(_mm512_loadu_si512((const void *)(p + 8 * i)), key);

		x = _mm512_mullo_epi64(_mm512_xor_si512(x, _mm512_srli_epi64(x, 30)), m1);
		x = _mm512_mullo_epi64(_mm512_xor_si512(x, _mm512_srli_epi64(x, 27)), m2);
		acc = _mm512_add_epi64(acc, _mm512_xor_si512(x, _mm512_srli_epi64(x, 31)));
		key = _mm512_add_epi64(key, step);
	}
	/* summed here, not with _mm512_reduce_add_epi64: GCC's adds signed long longs, which may overflow */
	_mm512_storeu_si512((void *)lane, acc);
	return lane[0] + lane[1] + lane[2] + lane[3] + lane[4] + lane[5] + lane[6] + lane[7] +
	       words_portable(j + whole, p + 8 * whole, n - whole);
}
#else
#define HAVE_AVX2 0
#endif

static uint64_t (*words)(uint64_t j, const uint8_t *p, size_t n);

int
content_select(int level)
{
	if (level < 0 || level > 2)
		return 0;
#if HAVE_AVX2
	if (level == 2 && !(__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")))
		return 0;
	if (level == 1 && !__builtin_cpu_supports("avx2"))
		return 0;
	words = level == 2 ? words_avx512 : level == 1 ? words_avx2 : words_portable;
	return 1;
#else
	if (level != 0)
		return 0;
	words = words_portable;
	return 1;
#endif
}

void
content_fp_init(sbat_content_fp *fp)
{
	memset(fp, 0, sizeof(*fp));
	if (!words && !content_select(2) && !content_select(1))
		content_select(0);
}

/* Bytes of word j from its byte `at` on, n of them (within the word), kept until the word is whole. */
static void
add_split(sbat_content_fp *fp, uint64_t j, unsigned at, const uint8_t *p, unsigned n)
{
	uint8_t bits = (uint8_t)(((1u << n) - 1u) << at);
	unsigned i;

	for (i = 0; i < fp->n_split && fp->split[i].word != j; i++)
		;
	if (i == fp->n_split) {
		if (fp->n_split == SBAT_CONTENT_MAX_SPLIT) {
			fp->bad = 1;
			return;
		}
		fp->n_split++;
		fp->split[i].word = j;
		fp->split[i].have = 0;
		memset(fp->split[i].bytes, 0, 8);
	}
	if (fp->split[i].have & bits)
		fp->bad = 1;
	fp->split[i].have |= bits;
	memcpy(fp->split[i].bytes + at, p, n);
}

void
content_fp_add(sbat_content_fp *fp, uint64_t offset, const uint8_t *p, size_t n)
{
	unsigned head = (unsigned)(offset % 8);

	if (n == 0)
		return;
	if (head) {
		unsigned k = n < 8 - head ? (unsigned)n : 8 - head;

		add_split(fp, offset / 8, head, p, k);
		offset += k;
		p += k;
		n -= k;
	}
	fp->acc += words(offset / 8, p, n / 8);
	if (n % 8)
		add_split(fp, (offset + n) / 8, 0, p + (n - n % 8), (unsigned)(n % 8));
}

int
content_fp_final(const sbat_content_fp *fp, uint64_t len, uint64_t *ret)
{
	uint64_t acc = fp->acc, w;
	unsigned i;

	if (fp->bad)
		return -1;
	for (i = 0; i < fp->n_split; i++) {
		uint64_t start = fp->split[i].word * 8;
		unsigned want = start >= len ? 0u : len - start >= 8 ? 0xffu : (1u << (unsigned)(len - start)) - 1u;

		/* a word past the end, or one with a byte missing */
		if (want == 0 || fp->split[i].have != want)
			return -1;
		memcpy(&w, fp->split[i].bytes, 8);
		acc += term(w ^ fp->split[i].word * KEY_STEP);
	}
	*ret = mix(mix(acc ^ len));
	return 0;
}

int
content_fp_read(sbat_content_fp *fp, const sbat_io *io, int fd, uint64_t from, uint64_t to)
{
	uint8_t *buf = malloc(READ_CHUNK);

	if (!buf)
		return errno = ENOMEM, -1;
	while (from < to) {
		size_t want = to - from < READ_CHUNK ? (size_t)(to - from) : READ_CHUNK;
		int rc = io_pread_all(io, fd, buf, want, from);

		if (rc != 0) {
			int err = errno;

			free(buf);
			return errno = err, rc;
		}
		content_fp_add(fp, from, buf, want);
		from += want;
	}
	free(buf);
	return 0;
}

int
content_sum_fd(const sbat_io *io, int fd, size_t len, uint64_t *ret)
{
	sbat_content_fp fp;
	int rc;

	content_fp_init(&fp);
	rc = content_fp_read(&fp, io, fd, 0, len);
	if (rc != 0)
		return rc;
	if (content_fp_final(&fp, len, ret) != 0)
		return errno = EIO, -1;
	return 0;
}
