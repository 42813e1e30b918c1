/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * test-util.h - what the unit tests share: their skips counted and their
 * exit status (run_group), a diagnostic assertion and exact-size copies.
 * Include it after <cmocka.h>.
 */
#ifndef SBAT_TEST_UTIL_H
#define SBAT_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * cmocka's skip() leaves the test and cmocka lists it as skipped, but
 * cmocka_run_group_tests() returns only the number of failed tests: a
 * binary whose every test skipped would exit 0, which meson counts as a
 * pass. So skip() is counted here on its way into cmocka, and run_group()
 * makes the exit status of that count: 77, meson's code for a skipped test,
 * when every test skipped; 0 when the others passed; 1 on any failure. It
 * prints "# P passed, F failed, S skipped" in any case, as the TAP scripts
 * end (tests/lib/tap.sh), so that a skip among passes is seen too.
 */
static unsigned test_util_skipped;

#undef skip
#define skip() (test_util_skipped++, _skip(__FILE__, __LINE__))

static inline int
run_group_status(int failed, size_t total)
{
	size_t skipped = test_util_skipped;
	size_t passed = total;

	if (failed < 0 || (size_t)failed > total)
		failed = (int)total;
	passed -= (size_t)failed;
	passed -= skipped < passed ? skipped : passed;
	printf("# %zu passed, %d failed, %zu skipped\n", passed, failed, skipped);
	if (failed)
		return 1;
	return skipped && skipped >= total ? 77 : 0;
}

/* run_group(tests, setup, teardown): cmocka_run_group_tests, and the exit status above */
#define run_group(tests, setup, teardown)                                                                              \
	run_group_status(cmocka_run_group_tests(tests, setup, teardown), sizeof(tests) / sizeof((tests)[0]))

/* A macro, so a failing assertion names the line in the test itself. */
#define assert_diag(d, c, w, l, f)                                                                                     \
	do {                                                                                                           \
		assert_int_equal((d).code, (c));                                                                       \
		assert_non_null((d).what);                                                                             \
		assert_string_equal((d).what, (w));                                                                    \
		assert_int_equal((d).line, (l));                                                                       \
		assert_int_equal((d).field, (f));                                                                      \
		assert_int_equal((d).has_offset, 0);                                                                   \
	} while (0)

/* An exact-size heap copy, so ASan flags any read past n. */
static inline uint8_t *
dup_exact(const void *data, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	assert_non_null(b);
	if (n)
		memcpy(b, data, n);
	return b;
}

#endif
