/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * test-util.h - what several unit tests share: a diagnostic assertion and
 * exact-size copies. Include it after <cmocka.h>.
 */
#ifndef SBAT_TEST_UTIL_H
#define SBAT_TEST_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
