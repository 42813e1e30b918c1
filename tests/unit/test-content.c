/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-content.c - the content fingerprint: taken piece by piece in any order, it is the whole file's */
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

#include "file/content.h"
#include "file/io_table.h"

#define LEN 4099 /* not a multiple of 8: the last word is partial */

static uint8_t data[LEN];
static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t
next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int
setup(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < LEN; i++)
		data[i] = (uint8_t)next_random();
	return 0;
}

static uint64_t
whole(const uint8_t *p, size_t len)
{
	sbat_content_fp fp;
	uint64_t h;

	content_fp_init(&fp);
	content_fp_add(&fp, 0, p, len);
	assert_int_equal(content_fp_final(&fp, len, &h), 0);
	return h;
}

/* The file cut at random places into up to 6 pieces, added in a random order. */
static void
test_content_pieces_in_any_order(void **state)
{
	uint64_t want = whole(data, LEN);
	unsigned round;

	(void)state;
	for (round = 0; round < 2000; round++) {
		size_t cut[7], order[6];
		unsigned n = 1 + (unsigned)(next_random() % 6), i, k;
		sbat_content_fp fp;
		uint64_t got;

		cut[0] = 0;
		cut[n] = LEN;
		for (i = 1; i < n; i++) {
			size_t c = (size_t)(next_random() % (LEN + 1));

			for (k = i; k > 1 && cut[k - 1] > c; k--)
				cut[k] = cut[k - 1];
			cut[k] = c;
		}
		for (i = 0; i < n; i++)
			order[i] = i;
		for (i = n; i > 1; i--) {
			size_t j = (size_t)(next_random() % i), t = order[i - 1];

			order[i - 1] = order[j];
			order[j] = t;
		}
		content_fp_init(&fp);
		for (i = 0; i < n; i++)
			content_fp_add(&fp, cut[order[i]], data + cut[order[i]], cut[order[i] + 1] - cut[order[i]]);
		assert_int_equal(content_fp_final(&fp, LEN, &got), 0);
		assert_true(got == want);
	}
}

/* Any one bit changed anywhere, two words swapped, or one more zero byte: another fingerprint. */
static void
test_content_changes_are_seen(void **state)
{
	uint64_t want = whole(data, LEN);
	uint8_t copy[LEN + 1], w[8];
	size_t i;
	unsigned bit;

	(void)state;
	memcpy(copy, data, LEN);
	for (i = 0; i < LEN; i++)
		for (bit = 0; bit < 8; bit++) {
			copy[i] ^= (uint8_t)(1u << bit);
			assert_true(whole(copy, LEN) != want);
			copy[i] ^= (uint8_t)(1u << bit);
		}
	memcpy(w, copy + 8, 8);
	memcpy(copy + 8, copy + 800, 8);
	memcpy(copy + 800, w, 8);
	assert_true(whole(copy, LEN) != want);
	memcpy(copy, data, LEN);
	copy[LEN] = 0;
	assert_true(whole(copy, LEN + 1) != want);
}

/* data with bit 63 of words i and k flipped (little-endian: the top bit of the word's last byte) */
static uint64_t
two_top_bits(uint8_t *copy, size_t i, size_t k)
{
	uint64_t h;

	copy[8 * i + 7] ^= 0x80;
	copy[8 * k + 7] ^= 0x80;
	h = whole(copy, LEN);
	copy[8 * i + 7] ^= 0x80;
	copy[8 * k + 7] ^= 0x80;
	return h;
}

/*
 * The top bit of two words flipped: with a 32-bit multiplier each flip
 * moved the sum by 2^63 +- 2^31, and half of all pairs cancelled out.
 * Every pair of the first 128 words, with each word loop the CPU has.
 */
static void
test_content_two_top_bits(void **state)
{
	uint64_t want = whole(data, LEN);
	uint8_t copy[LEN];
	size_t i, k;
	int level;

	(void)state;
	memcpy(copy, data, LEN);
	for (level = 0; level <= 2; level++) {
		if (!content_select(level))
			continue;
		for (i = 0; i < 128; i++)
			for (k = i + 1; k < 128; k++)
				assert_true(two_top_bits(copy, i, k) != want);
	}
	content_select(0);
}

/* Word i of copy (a whole word of the file) */
static uint64_t *
word_at(uint8_t *copy, size_t i, uint64_t *w)
{
	memcpy(w, copy + 8 * i, 8);
	return w;
}

static void
set_word(uint8_t *copy, size_t i, uint64_t w)
{
	memcpy(copy + 8 * i, &w, 8);
}

/*
 * One random change of several words of copy: the top bits of 2 to 9
 * words, two random bits, two different words swapped, or 1 to 16 words
 * rewritten with random values.
 */
static void
random_change(uint8_t *copy, unsigned kind)
{
	size_t words = LEN / 8, i = (size_t)(next_random() % words), k, n;
	uint64_t a, b;

	if (kind == 0) {
		for (n = 2 + (size_t)(next_random() % 8); n > 0; n--, i = (size_t)(next_random() % words))
			set_word(copy, i, *word_at(copy, i, &a) ^ (1ull << 63));
	} else if (kind == 1) {
		copy[next_random() % LEN] ^= (uint8_t)(1u << (next_random() % 8));
		copy[next_random() % LEN] ^= (uint8_t)(1u << (next_random() % 8));
	} else if (kind == 2) {
		do
			k = (size_t)(next_random() % words);
		while (*word_at(copy, i, &a) == *word_at(copy, k, &b));
		set_word(copy, i, b);
		set_word(copy, k, a);
	} else {
		for (n = 1 + (size_t)(next_random() % 16); n > 0; n--, i = (size_t)(next_random() % words))
			set_word(copy, i, next_random());
	}
}

/* Thousands of random changes of several words, each with every word loop the CPU has: none keeps the fingerprint. */
static void
test_content_random_changes_are_seen(void **state)
{
	uint64_t want = whole(data, LEN);
	uint8_t copy[LEN];
	unsigned trial;

	(void)state;
	rng = 0x9b1f3c5d7e2a4680ull;
	for (trial = 0; trial < 8000; trial++) {
		int level;

		memcpy(copy, data, LEN);
		random_change(copy, trial % 4);
		if (memcmp(copy, data, LEN) == 0)
			continue; /* two flips of the same bit */
		for (level = 0; level <= 2; level++)
			if (content_select(level))
				assert_true(whole(copy, LEN) != want);
	}
	content_select(0);
}

/* A byte missing or added twice is refused, not a fingerprint of something else. */
static void
test_content_coverage_is_checked(void **state)
{
	sbat_content_fp fp;
	uint64_t h;

	(void)state;
	content_fp_init(&fp);
	content_fp_add(&fp, 0, data, 100);
	content_fp_add(&fp, 101, data + 101, LEN - 101);
	assert_int_equal(content_fp_final(&fp, LEN, &h), -1);
	content_fp_init(&fp);
	content_fp_add(&fp, 0, data, 101);
	content_fp_add(&fp, 100, data + 100, LEN - 100);
	assert_int_equal(content_fp_final(&fp, LEN, &h), -1);
	content_fp_init(&fp);
	content_fp_add(&fp, 0, data, LEN);
	assert_int_equal(content_fp_final(&fp, LEN + 3, &h), -1);
}

/* The fingerprint of data[0, from+len) with word loop `level`, [from, from+len) added first */
static uint64_t
fp_with(int level, size_t from, size_t len)
{
	sbat_content_fp fp;
	uint64_t h;

	assert_true(content_select(level));
	content_fp_init(&fp);
	content_fp_add(&fp, from, data + from, len);
	content_fp_add(&fp, 0, data, from);
	assert_int_equal(content_fp_final(&fp, from + len, &h), 0);
	return h;
}

/* The AVX2 and AVX-512 word loops give the portable one's fingerprint, at every offset and length. */
static void
test_content_simd_matches_portable(void **state)
{
	int level, tested = 0;

	(void)state;
	for (level = 1; level <= 2; level++) {
		size_t from, len;

		if (!content_select(level))
			continue;
		tested++;
		for (from = 0; from < 80; from += 3)
			for (len = 0; from + len <= LEN; len += len < 200 ? 1 : 97)
				assert_true(fp_with(level, from, len) == fp_with(0, from, len));
	}
	content_select(0);
	if (!tested)
		skip();
}

/* Read from a file through the small buffer: the same as in memory; a file that ends early says so. */
static void
test_content_read_from_file(void **state)
{
	FILE *f = tmpfile();
	uint64_t h;

	(void)state;
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, LEN, f), LEN);
	assert_int_equal(fflush(f), 0);
	assert_int_equal(content_sum_fd(NULL, fileno(f), LEN, &h), 0);
	assert_true(h == whole(data, LEN));
	assert_int_equal(content_sum_fd(NULL, fileno(f), LEN + 1, &h), SBAT_IO_SHRANK);
	fclose(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_content_pieces_in_any_order),
		cmocka_unit_test(test_content_changes_are_seen),
		cmocka_unit_test(test_content_two_top_bits),
		cmocka_unit_test(test_content_random_changes_are_seen),
		cmocka_unit_test(test_content_coverage_is_checked),
		cmocka_unit_test(test_content_simd_matches_portable),
		cmocka_unit_test(test_content_read_from_file),
	};

	return run_group(tests, setup, NULL);
}
