/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-sha1.c - SHA-1 against the FIPS 180-4 examples, lengths around the
 * block boundaries, and uneven pieces agreeing with one call; with each
 * block function (portable, SHA extensions) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sha1.h"

static void
digest(const void *data, size_t len, size_t piece, char out[2 * SHA1_DIGEST_SIZE + 1])
{
	const uint8_t *p = data;
	struct sha1_ctx ctx;
	uint8_t d[SHA1_DIGEST_SIZE];
	size_t done = 0, n;
	int i;

	sha1_init(&ctx);
	while (done < len) {
		n = piece && piece < len - done ? piece : len - done;
		sha1_update(&ctx, p + done, n);
		done += n;
	}
	sha1_final(&ctx, d);
	for (i = 0; i < SHA1_DIGEST_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void
check(const void *data, size_t len, const char *want)
{
	static const size_t pieces[] = { 0, 1, 7, 63, 64, 65, 1000 };
	char h[2 * SHA1_DIGEST_SIZE + 1];
	size_t i;

	for (i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		digest(data, len, pieces[i], h);
		assert_string_equal(h, want);
	}
}

static void
vectors(void **state)
{
	(void)state;
	check("", 0, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
	check("abc", 3, "a9993e364706816aba3e25717850c26c9cd0d89d");
	check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	      "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
	check("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	      "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	      112, "a49b2446a02c645bf419f995b67091253a04a259");
}

/* 'a' repeated N times, N around the block and padding boundaries, and a million */
static void
boundaries(void **state)
{
	static const struct {
		size_t n;
		const char *want;
	} t[] = {
		{ 55, "c1c8bbdc22796e28c0e15163d20899b65621d65a" },
		{ 56, "c2db330f6083854c99d4b5bfb6e8f29f201be699" },
		{ 57, "f08f24908d682555111be7ff6f004e78283d989a" },
		{ 63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5" },
		{ 64, "0098ba824b5c16427bd7a1122a5a442a25ec644d" },
		{ 65, "11655326c708d70319be2610e8a57d9a5b959d3b" },
		{ 119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56" },
		{ 120, "f34c1488385346a55709ba056ddd08280dd4c6d6" },
		{ 127, "89d95fa32ed44a7c610b7ee38517ddf57e0bb975" },
		{ 128, "ad5b3fdbcb526778c2839d2f151ea753995e26a0" },
		{ 129, "d96debf1bdcbc896e6c134ea76e8141f40d78536" },
	};
	char *a = malloc(1000000);
	size_t i;

	(void)state;
	assert_non_null(a);
	memset(a, 'a', 1000000);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		check(a, t[i].n, t[i].want);
	check(a, 1000000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
	free(a);
}

/* The examples with the SHA extensions' block function, where the CPU has them. */
static void
vectors_shani(void **state)
{
	if (!sha1_select(1)) {
		sha1_select(-1);
		skip();
	}
	vectors(state);
	boundaries(state);
	sha1_select(-1);
}

/* Random data of random lengths (up to 5 blocks and more): both block functions give the same digest. */
static void
functions_agree(void **state)
{
	uint8_t buf[1000], d[2][SHA1_DIGEST_SIZE];
	struct sha1_ctx ctx;
	unsigned seed = 45, round, len, i;
	int f;

	(void)state;
	if (!sha1_select(1))
		skip();
	for (round = 0; round < 400; round++) {
		len = (seed = seed * 1103515245u + 12345u) >> 16 & 1023u;
		len = len < sizeof(buf) ? len : (unsigned)sizeof(buf);
		for (i = 0; i < len; i++)
			buf[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
		for (f = 0; f < 2; f++) {
			assert_true(sha1_select(f));
			sha1_init(&ctx);
			sha1_update(&ctx, buf, len / 3);
			sha1_update(&ctx, buf + len / 3, len - len / 3);
			sha1_final(&ctx, d[f]);
		}
		assert_memory_equal(d[0], d[1], SHA1_DIGEST_SIZE);
	}
	sha1_select(-1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vectors),
		cmocka_unit_test(boundaries),
		cmocka_unit_test(vectors_shani),
		cmocka_unit_test(functions_agree),
	};

	(void)sha1_select(0); /* the first two with the portable function */
	return run_group(tests, NULL, NULL);
}
