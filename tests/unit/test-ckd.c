/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-ckd.c - the checked-arithmetic helpers answer as C23's ckd_*: true means overflow */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include "util/ckd.h"

static void
test_add_u64(void **state)
{
	uint64_t r = 7;

	(void)state;
	assert_false(ckd_add_u64(&r, 1, 2));
	assert_int_equal(r, 3);
	assert_false(ckd_add_u64(&r, UINT64_MAX - 1, 1));
	assert_true(r == UINT64_MAX);
	/* overflow: true, and the result is left alone */
	r = 7;
	assert_true(ckd_add_u64(&r, UINT64_MAX, 1));
	assert_int_equal(r, 7);
	assert_true(ckd_add_u64(&r, 1, UINT64_MAX));
	assert_int_equal(r, 7);
}

static void
test_add_u32(void **state)
{
	uint32_t r = 7;

	(void)state;
	assert_false(ckd_add_u32(&r, 0xfffffffeu, 1));
	assert_true(r == UINT32_MAX);
	r = 7;
	assert_true(ckd_add_u32(&r, UINT32_MAX, 1));
	assert_int_equal(r, 7);
	assert_true(ckd_add_u32(&r, (uint64_t)UINT32_MAX + 1, 0));
	assert_true(ckd_add_u32(&r, 0, (uint64_t)UINT32_MAX + 1));
	assert_int_equal(r, 7);
}

static void
test_align_u64(void **state)
{
	uint64_t r = 7;

	(void)state;
	assert_false(ckd_align_u64(&r, 0x1001, 0x1000));
	assert_int_equal(r, 0x2000);
	assert_false(ckd_align_u64(&r, 0x2000, 0x1000));
	assert_int_equal(r, 0x2000);
	r = 7;
	assert_true(ckd_align_u64(&r, UINT64_MAX, 0x1000));
	assert_int_equal(r, 7);
	/* an alignment that is not a power of two is refused like an overflow */
	assert_true(ckd_align_u64(&r, 10, 3));
	assert_true(ckd_align_u64(&r, 10, 0));
	assert_int_equal(r, 7);
}

static void
test_align_u32(void **state)
{
	uint32_t r = 7;

	(void)state;
	assert_false(ckd_align_u32(&r, 0x200, 0x200));
	assert_int_equal(r, 0x200);
	assert_false(ckd_align_u32(&r, 0xffffe001u, 0x1000));
	assert_true(r == 0xfffff000u);
	r = 7;
	/* rounds up to 2^32: fits in 64 bits, not in 32 */
	assert_true(ckd_align_u32(&r, 0xfffff001u, 0x1000));
	assert_true(ckd_align_u32(&r, 0xffffffffu, 0x1000));
	assert_int_equal(r, 7);
}

static void
test_is_pow2(void **state)
{
	(void)state;
	assert_true(ckd_is_pow2(1));
	assert_true(ckd_is_pow2(0x200000));
	assert_false(ckd_is_pow2(0));
	assert_false(ckd_is_pow2(0x3000));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_u64),   cmocka_unit_test(test_add_u32), cmocka_unit_test(test_align_u64),
		cmocka_unit_test(test_align_u32), cmocka_unit_test(test_is_pow2),
	};

	return run_group(tests, NULL, NULL);
}
