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
#include <unistd.h>

#include "util/hashpass.h"
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

static uint32_t
xorshift(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* The one-stream digest, by the portable block function, of the pieces of buf that a stream was fed. */
static void
one_stream(const uint8_t *buf, const size_t (*piece)[2], size_t n, uint8_t out[SHA256_DIGEST_SIZE])
{
	enum sha256_impl mine = sha256_current();
	struct sha256_ctx ctx;
	size_t i;

	assert_true(sha256_select(SHA256_IMPL_PORTABLE));
	sha256_init(&ctx);
	for (i = 0; i < n; i++)
		sha256_update(&ctx, buf + piece[i][0], piece[i][1]);
	sha256_final(&ctx, out);
	assert_true(sha256_select(mine));
}

#define TWO_ROUNDS 400
#define TWO_PIECES 5
#define TWO_BUF 9000

/* Fill one random (offset, length) piece of buf; every fifth one is long, the others short. */
static void
random_piece(uint32_t *x, size_t piece[2])
{
	size_t len = xorshift(x) % 5 == 0 ? xorshift(x) % 4000 : xorshift(x) % 150;

	piece[0] = xorshift(x) % (TWO_BUF - len + 1);
	piece[1] = len;
}

/*
 * Two streams fed through sha256_update2 in random pieces (each its own
 * offsets and lengths, some calls after a one-stream update left a partial
 * block) give the digests of the one-stream portable code over the same bytes.
 */
static void
two_streams(void **state)
{
	uint8_t *buf = malloc(TWO_BUF), da[SHA256_DIGEST_SIZE], db[SHA256_DIGEST_SIZE], want[SHA256_DIGEST_SIZE];
	size_t pa[TWO_PIECES][2], pb[TWO_PIECES][2];
	uint32_t x = 88172645u;
	size_t r, i;

	(void)state;
	assert_non_null(buf);
	for (i = 0; i < TWO_BUF; i++)
		buf[i] = (uint8_t)xorshift(&x);
	for (r = 0; r < TWO_ROUNDS; r++) {
		struct sha256_ctx a, b;

		sha256_init(&a);
		sha256_init(&b);
		for (i = 0; i < TWO_PIECES; i++) {
			random_piece(&x, pa[i]);
			random_piece(&x, pb[i]);
			if (i == 0 && r % 3 == 0) {
				sha256_update(&a, buf + pa[i][0], pa[i][1]);
				sha256_update(&b, buf + pb[i][0], pb[i][1]);
			} else {
				sha256_update2(&a, buf + pa[i][0], pa[i][1], &b, buf + pb[i][0], pb[i][1]);
			}
		}
		sha256_final(&a, da);
		sha256_final(&b, db);
		one_stream(buf, (const size_t(*)[2])pa, TWO_PIECES, want);
		assert_memory_equal(da, want, SHA256_DIGEST_SIZE);
		one_stream(buf, (const size_t(*)[2])pb, TWO_PIECES, want);
		assert_memory_equal(db, want, SHA256_DIGEST_SIZE);
	}
	free(buf);
}

#define PASS_STREAMS 5
#define PASS_PIECES 6

/* A random piece of a file of TWO_BUF bytes: mostly file bytes, some from memory, some zeros. */
static void
random_seg(uint32_t *x, const uint8_t *buf, hashpass_seg *g, size_t piece[2])
{
	random_piece(x, piece);
	g->kind = xorshift(x) % 6 == 0 ? HASHPASS_ZEROS : xorshift(x) % 6 == 0 ? HASHPASS_MEM : HASHPASS_FILE;
	g->off = piece[0];
	g->len = piece[1];
	g->mem = buf + piece[0];
}

/*
 * hashpass_run over random streams (pieces that overlap, go back in the
 * file, come from memory or are zeros), from a file and from a buffer:
 * each stream's digest is the one-stream portable digest of its bytes.
 */
static void
one_pass(void **state)
{
	static const uint8_t zero[TWO_BUF];
	uint8_t *buf = malloc(TWO_BUF), d[SHA256_DIGEST_SIZE], want[SHA256_DIGEST_SIZE];
	hashpass_seg seg[PASS_STREAMS][PASS_PIECES];
	size_t piece[PASS_STREAMS][PASS_PIECES][2], r, i, j;
	hashpass_stream st[PASS_STREAMS];
	char path[] = "/tmp/test-hashpass.XXXXXX";
	int fd = mkstemp(path);
	uint32_t x = 1234567u;
	sbat_diag diag;

	(void)state;
	assert_non_null(buf);
	assert_true(fd >= 0);
	unlink(path);
	for (i = 0; i < TWO_BUF; i++)
		buf[i] = (uint8_t)xorshift(&x);
	assert_int_equal(write(fd, buf, TWO_BUF), TWO_BUF);
	for (r = 0; r < 60; r++) {
		memset(st, 0, sizeof(st));
		for (i = 0; i < PASS_STREAMS; i++) {
			st[i].seg = seg[i];
			st[i].n_seg = 1 + xorshift(&x) % PASS_PIECES;
			for (j = 0; j < st[i].n_seg; j++)
				random_seg(&x, buf, &seg[i][j], piece[i][j]);
		}
		assert_int_equal(hashpass_run(st, PASS_STREAMS, r % 2 ? fd : -1, buf, TWO_BUF, &diag), SBAT_OK);
		for (i = 0; i < PASS_STREAMS; i++) {
			struct sha256_ctx c;
			enum sha256_impl mine = sha256_current();

			sha256_final(&st[i].ctx, d);
			assert_true(sha256_select(SHA256_IMPL_PORTABLE));
			sha256_init(&c);
			for (j = 0; j < st[i].n_seg; j++)
				sha256_update(&c, seg[i][j].kind == HASHPASS_ZEROS ? zero : buf + piece[i][j][0],
				              piece[i][j][1]);
			sha256_final(&c, want);
			assert_true(sha256_select(mine));
			assert_memory_equal(d, want, SHA256_DIGEST_SIZE);
		}
	}
	/* a piece past the end: the buffer refuses it, the file ends inside it */
	seg[0][0] = (hashpass_seg){ HASHPASS_FILE, TWO_BUF - 10, 11, NULL };
	st[0].seg = seg[0];
	st[0].n_seg = 1;
	assert_int_equal(hashpass_run(st, 1, -1, buf, TWO_BUF, &diag), SBAT_E_PE_TRUNCATED);
	assert_int_equal(hashpass_run(st, 1, fd, buf, TWO_BUF, &diag), SBAT_E_PE_TRUNCATED);
	assert_int_equal(diag.offset, TWO_BUF);
	close(fd);
	free(buf);
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
		{ "two_streams, portable", two_streams, use_portable, NULL, NULL },
		{ "two_streams, accelerated", two_streams, use_shani, NULL, NULL },
		{ "one_pass, portable", one_pass, use_portable, NULL, NULL },
		{ "one_pass, accelerated", one_pass, use_shani, NULL, NULL },
	};

	return run_group(tests, NULL, NULL);
}
