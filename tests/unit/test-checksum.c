/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-checksum.c - the PE CheckSum against hand-computed values and an independent implementation */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pe/checksum.h"
#include "sbat/image.h"

#include "fixture.h"

static void
test_checksum_odd_length_zero_extends_last_byte(void **state)
{
	static const uint8_t b[] = { 0x01, 0x02, 0x03 };

	(void)state;
	/* 0x0201 + 0x0003 + length 3 */
	assert_int_equal(sbat_pe_checksum(b, sizeof(b), 100), 0x0207);
}

static void
test_checksum_folds_carry(void **state)
{
	static const uint8_t b[] = { 0xff, 0xff, 0xff, 0xff };

	(void)state;
	/* 0xffff + 0xffff = 0x1fffe, folded to 0xffff, plus length 4 */
	assert_int_equal(sbat_pe_checksum(b, sizeof(b), 100), 0x10003);
}

static void
test_checksum_skips_its_own_field(void **state)
{
	static const uint8_t b[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	(void)state;
	/* bytes 2..5 count as zero: 0xffff + 0xffff folded, plus 8 */
	assert_int_equal(sbat_pe_checksum(b, sizeof(b), 2), 0x10007);
	/* an odd field offset masks the right bytes too: 0x00ff + 0 + 0xff00 + 0xffff */
	assert_int_equal(sbat_pe_checksum(b, sizeof(b), 1), 0xffff + 8);
}

static void
test_checksum_empty(void **state)
{
	(void)state;
	assert_int_equal(sbat_pe_checksum((const uint8_t *)"", 0, 0), 0);
}

/* Longest random image the randomized tests sum. */
#define RANDOM_MAX_LEN 70000u

/* A random length and a CheckSum field that fits inside it (0 for tiny lengths). */
static void
random_case(size_t *ret_len, size_t *ret_field)
{
	size_t len = (size_t)rand() % (RANDOM_MAX_LEN + 1);

	*ret_len = len;
	*ret_field = len > 4 ? (size_t)rand() % (len - 3) : 0;
}

static void
test_checksum_matches_independent_implementation(void **state)
{
	unsigned seed = 12345, i, round;
	uint8_t *b = malloc(RANDOM_MAX_LEN + 1);

	(void)state;
	assert_non_null(b);
	printf("# seed %u\n", seed);
	srand(seed);
	for (round = 0; round < 50; round++) {
		size_t len, off;

		random_case(&len, &off);
		for (i = 0; i < len; i++)
			b[i] = (uint8_t)rand();
		assert_int_equal(sbat_pe_checksum(b, len, off), fx_checksum(b, len, off));
	}
	free(b);
}

/* The incremental sum the emitter uses, fed in random chunks at odd and even offsets. */
static uint32_t
chunked(const uint8_t *b, size_t len, size_t field)
{
	csum c;
	size_t at = 0;

	checksum_init(&c, field);
	while (at < len) {
		size_t n = (size_t)(rand() % 40) + 1;

		if (rand() % 4 == 0)
			n = (size_t)(rand() % 9000) + 1; /* some long runs through the word loop */
		if (n > len - at)
			n = len - at;
		checksum_add(&c, at, b + at, n);
		at += n;
	}
	return checksum_final(&c, len);
}

static void
test_checksum_in_chunks_matches(void **state)
{
	unsigned seed = 4242, round;
	size_t i;
	uint8_t *b = malloc(RANDOM_MAX_LEN + 1);

	(void)state;
	assert_non_null(b);
	printf("# seed %u\n", seed);
	srand(seed);
	for (round = 0; round < 60; round++) {
		int fill = round % 3; /* random bytes, all 0xff (every fold), all zero */
		size_t len, off;

		random_case(&len, &off);
		for (i = 0; i < len; i++)
			b[i] = fill == 0 ? (uint8_t)rand() : fill == 1 ? 0xff : 0;
		assert_int_equal(chunked(b, len, off), fx_checksum(b, len, off));
	}
	/* words adding up to a non-zero multiple of 0xffff: the sum is 0xffff, not 0 */
	memset(b, 0, 16);
	b[0] = 0xfe;
	b[2] = 0x01;
	b[5] = 0xff;
	b[7] = 0xff;
	b[8] = 0xff;
	assert_int_equal(chunked(b, 10, 12), fx_checksum(b, 10, 12));
	assert_int_equal(sbat_pe_checksum(b, 10, 12), fx_checksum(b, 10, 12));
	free(b);
}

static void
test_checksum_of_generated_image_verifies(void **state)
{
	fx_spec spec;
	uint8_t *buf;
	size_t len, off;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.set_checksum = 1;
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	off = fx_opt_offset(buf) + 0x40;
	assert_int_not_equal(fx_le32(buf + off), 0);
	assert_int_equal(sbat_pe_checksum(buf, len, off), fx_le32(buf + off));
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksum_odd_length_zero_extends_last_byte),
		cmocka_unit_test(test_checksum_folds_carry),
		cmocka_unit_test(test_checksum_skips_its_own_field),
		cmocka_unit_test(test_checksum_empty),
		cmocka_unit_test(test_checksum_matches_independent_implementation),
		cmocka_unit_test(test_checksum_in_chunks_matches),
		cmocka_unit_test(test_checksum_of_generated_image_verifies),
	};

	return run_group(tests, NULL, NULL);
}
