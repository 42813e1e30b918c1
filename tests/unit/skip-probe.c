/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * skip-probe.c - a cmocka binary whose tests skip, pass or fail as its
 * argument says, run through test-util.h's run_group() as every unit test
 * is: tests/structure/check-skips.sh checks its exit status and count.
 *   skip-probe all    every test skips: exit 77
 *   skip-probe some   two pass, one skips: exit 0, the skip counted
 *   skip-probe fail   one passes, one skips, one fails: exit 1
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

static void
test_pass(void **state)
{
	(void)state;
	assert_int_equal(1 + 1, 2);
}

static void
test_skip(void **state)
{
	(void)state;
	skip();
	fail_msg("skip() returned");
}

static void
test_fail(void **state)
{
	(void)state;
	fail_msg("this test fails on purpose");
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest all[] = {
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_skip),
	};
	const struct CMUnitTest some[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_pass),
	};
	const struct CMUnitTest failing[] = {
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_fail),
	};
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "all"))
		return run_group(all, NULL, NULL);
	if (!strcmp(mode, "some"))
		return run_group(some, NULL, NULL);
	if (!strcmp(mode, "fail"))
		return run_group(failing, NULL, NULL);
	fprintf(stderr, "usage: skip-probe all|some|fail\n");
	return 2;
}
