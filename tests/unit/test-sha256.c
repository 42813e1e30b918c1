/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-sha256.c - SHA-256 against the FIPS 180-4 examples and lengths around
 * the block boundaries, for every block function this CPU can run */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sha256.h"

static void
hex(const uint8_t d[SHA256_DIGEST_SIZE], char out[2 * SHA256_DIGEST_SIZE + 1])
{
	int i;

	for (i = 0; i < SHA256_DIGEST_SIZE; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void
check(const void *data, size_t len, const char *want)
{
	uint8_t d[SHA256_DIGEST_SIZE];
	char h[2 * SHA256_DIGEST_SIZE + 1];

	sha256(data, len, d);
	hex(d, h);
	assert_string_equal(h, want);
}

static const char abc448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char abc896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
                             "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

static void
vectors(void **state)
{
	(void)state;
	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check(abc448, strlen(abc448), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check(abc896, strlen(abc896), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

/* 'a' repeated N times, N around the block and padding boundaries */
static void
boundaries(void **state)
{
	static const struct {
		size_t n;
		const char *want;
	} t[] = {
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0" },
		{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
		{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
		{ 127, "c57e9278af78fa3cab38667bef4ce29d783787a2f731d4e12200270f0c32320a" },
		{ 128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e" },
		{ 129, "c12cb024a2e5551cca0e08fce8f1c5e314555cc3fef6329ee994a3db752166ae" },
	};
	char a[129];
	size_t i;

	(void)state;
	memset(a, 'a', sizeof(a));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		check(a, t[i].n, t[i].want);
}

/* the FIPS 180-4 long example: a million 'a', fed in uneven pieces */
static void
million(void **state)
{
	static const char want[] = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
	static const size_t pieces[] = { 1, 63, 64, 65, 7, 1000, 4096, 13 };
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];
	char h[2 * SHA256_DIGEST_SIZE + 1];
	char *a = malloc(1000000);
	size_t done = 0, i = 0;

	(void)state;
	assert_non_null(a);
	memset(a, 'a', 1000000);
	check(a, 1000000, want);
	sha256_init(&ctx);
	while (done < 1000000) {
		size_t n = pieces[i++ % (sizeof(pieces) / sizeof(pieces[0]))];
		if (n > 1000000 - done)
			n = 1000000 - done;
		sha256_update(&ctx, a + done, n);
		done += n;
	}
	sha256_final(&ctx, d);
	hex(d, h);
	assert_string_equal(h, want);
	free(a);
}

/* every length 0..600 of pseudo-random bytes, one call and byte by byte,
 * agrees with the portable function's one call */
static void
agrees_with_portable(void **state)
{
	uint8_t buf[600], ref[601][SHA256_DIGEST_SIZE];
	enum sha256_impl mine = sha256_current();
	uint32_t x = 2463534242u;
	size_t n, i;

	(void)state;
	for (i = 0; i < sizeof(buf); i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (uint8_t)x;
	}
	assert_true(sha256_select(SHA256_IMPL_PORTABLE));
	for (n = 0; n <= sizeof(buf); n++)
		sha256(buf, n, ref[n]);
	assert_true(sha256_select(mine));
	for (n = 0; n <= sizeof(buf); n++) {
		struct sha256_ctx ctx;
		uint8_t d[SHA256_DIGEST_SIZE];

		sha256(buf, n, d);
		assert_memory_equal(d, ref[n], SHA256_DIGEST_SIZE);
		sha256_init(&ctx);
		for (i = 0; i < n; i++)
			sha256_update(&ctx, buf + i, 1);
		sha256_final(&ctx, d);
		assert_memory_equal(d, ref[n], SHA256_DIGEST_SIZE);
	}
}

static int
use_portable(void **state)
{
	(void)state;
	return sha256_select(SHA256_IMPL_PORTABLE) ? 0 : -1;
}

static int
use_shani(void **state)
{
	(void)state;
	if (!sha256_select(SHA256_IMPL_SHANI)) {
		printf(
		    "# this CPU or build has no SHA extensions: the accelerated tests only repeat the portable ones\n");
		sha256_select(SHA256_IMPL_PORTABLE);
	}
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		{ "vectors, portable", vectors, use_portable, NULL, NULL },
		{ "boundaries, portable", boundaries, use_portable, NULL, NULL },
		{ "million, portable", million, use_portable, NULL, NULL },
		{ "vectors, accelerated", vectors, use_shani, NULL, NULL },
		{ "boundaries, accelerated", boundaries, use_shani, NULL, NULL },
		{ "million, accelerated", million, use_shani, NULL, NULL },
		{ "agrees_with_portable, accelerated", agrees_with_portable, use_shani, NULL, NULL },
	};

	return run_group(tests, NULL, NULL);
}
