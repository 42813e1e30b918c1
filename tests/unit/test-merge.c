/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-merge.c - unit tests for merging two SBAT CSVs (stub + kernel, as ukify does) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/csv.h"

#define HDR SBAT_CSV_HEADER_ROW "\n"
#define HDR_FWUPD "sbat,1,UEFI shim,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
#define STUB "systemd-stub,1,The systemd Developers,systemd,257,https://systemd.io/\n"
#define STUB_DEB "systemd-stub.debian,1,Debian,systemd,257.1-1,https://tracker.debian.org/pkg/systemd\n"
#define LINUX "linux,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux\n"
#define LINUX2 "linux,2,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux\n"
#define LINUX_VER "linux,1,Debian,linux,6.1.99,https://tracker.debian.org/pkg/linux\n"
#define LINUX_DEB "linux.debian,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux\n"

#define E_GEN "component already present with a different generation"
#define E_ROW "component already present with a different row"

static sbat_csv *
csv_ok(const char *s)
{
	size_t n = strlen(s);
	uint8_t *b = malloc(n);
	sbat_csv *csv = NULL;
	sbat_diag d;

	assert_non_null(b);
	memcpy(b, s, n);
	assert_int_equal(sbat_csv_parse(b, n, &csv, &d), SBAT_OK);
	/* the parsed CSV owns its strings */
	free(b);
	return csv;
}

/* Merge two texts; on success compare with want and check the result re-parses. */
static sbat_err
merge(const char *base_text, const char *add_text, int force, const char *want, sbat_diag *d)
{
	sbat_csv *base = csv_ok(base_text), *add = csv_ok(add_text), *again = NULL;
	uint8_t *out = (uint8_t *)&out;
	size_t len = 424242;
	sbat_err r;

	memset(d, 0, sizeof(*d));
	r = sbat_csv_merge(base, add, force, &out, &len, d);
	if (r == SBAT_OK) {
		assert_non_null(want);
		assert_int_equal(len, strlen(want));
		assert_memory_equal(out, want, len);
		assert_int_equal(sbat_csv_parse(out, len, &again, d), SBAT_OK);
		sbat_csv_free(again);
		free(out);
	} else {
		/* ret_* is only set on success */
		assert_ptr_equal(out, (uint8_t *)&out);
		assert_int_equal(len, 424242);
	}
	sbat_csv_free(base);
	sbat_csv_free(add);
	return r;
}

static void
test_merge_disjoint(void **state)
{
	sbat_diag d;

	(void)state;
	assert_int_equal(merge(HDR STUB STUB_DEB, HDR LINUX LINUX_DEB, 0, HDR STUB STUB_DEB LINUX LINUX_DEB, &d),
	                 SBAT_OK);
	/* order follows base, then add, not the names */
	assert_int_equal(merge(HDR LINUX_DEB, HDR STUB LINUX, 0, HDR LINUX_DEB STUB LINUX, &d), SBAT_OK);
}

/* base's header row is the one kept, whatever add's says. */
static void
test_merge_header(void **state)
{
	sbat_diag d;

	(void)state;
	assert_int_equal(merge(HDR STUB, HDR_FWUPD LINUX, 0, HDR STUB LINUX, &d), SBAT_OK);
	assert_int_equal(merge(HDR_FWUPD STUB, HDR LINUX, 0, HDR_FWUPD STUB LINUX, &d), SBAT_OK);
}

static void
test_merge_header_only(void **state)
{
	sbat_diag d;

	(void)state;
	assert_int_equal(merge(HDR, HDR LINUX, 0, HDR LINUX, &d), SBAT_OK);
	assert_int_equal(merge(HDR STUB, HDR, 0, HDR STUB, &d), SBAT_OK);
	assert_int_equal(merge(HDR, HDR, 0, HDR, &d), SBAT_OK);
}

/* Inputs with CRLF and trailing blank lines come out canonical. */
static void
test_merge_canonical(void **state)
{
	sbat_diag d;

	(void)state;
	assert_int_equal(
	    merge(SBAT_CSV_HEADER_ROW "\r\n"
	                              "systemd-stub,1,The systemd Developers,systemd,257,https://systemd.io/\r\n\r\n",
	          HDR "linux,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux", 0, HDR STUB LINUX, &d),
	    SBAT_OK);
}

static void
test_merge_identical_row(void **state)
{
	sbat_diag d;

	(void)state;
	assert_int_equal(merge(HDR STUB LINUX, HDR LINUX LINUX_DEB, 0, HDR STUB LINUX LINUX_DEB, &d), SBAT_OK);
	/* merging a CSV into itself changes nothing */
	assert_int_equal(merge(HDR STUB LINUX, HDR STUB LINUX, 0, HDR STUB LINUX, &d), SBAT_OK);
}

static void
test_merge_conflict(void **state)
{
	sbat_diag d;

	(void)state;
	/* add's line 3 names linux with another generation */
	assert_int_equal(merge(HDR STUB LINUX, HDR LINUX_DEB LINUX2, 0, NULL, &d), SBAT_E_CSV);
	assert_diag(d, SBAT_E_CSV, E_GEN, 3, 2);
	/* lower generation in add: same error */
	assert_int_equal(merge(HDR LINUX2, HDR LINUX, 0, NULL, &d), SBAT_E_CSV);
	assert_diag(d, SBAT_E_CSV, E_GEN, 2, 2);
	/* same generation, other vendor fields */
	assert_int_equal(merge(HDR STUB LINUX, HDR LINUX_VER, 0, NULL, &d), SBAT_E_CSV);
	assert_diag(d, SBAT_E_CSV, E_ROW, 2, 0);
}

/* force: add's row takes base's row's place; base's order stays. */
static void
test_merge_force(void **state)
{
	sbat_diag d;

	(void)state;
	assert_int_equal(
	    merge(HDR STUB LINUX STUB_DEB, HDR LINUX_DEB LINUX2, 1, HDR STUB LINUX2 STUB_DEB LINUX_DEB, &d), SBAT_OK);
	assert_int_equal(merge(HDR LINUX2 STUB, HDR LINUX, 1, HDR LINUX STUB, &d), SBAT_OK);
	assert_int_equal(merge(HDR STUB LINUX, HDR LINUX_VER, 1, HDR STUB LINUX_VER, &d), SBAT_OK);
	assert_int_equal(merge(HDR STUB LINUX, HDR LINUX, 1, HDR STUB LINUX, &d), SBAT_OK);
}

/* Rows named "n<i>" with i from first to first + count - 1, after a header. */
static char *
many_rows(unsigned first, unsigned count)
{
	size_t row = 80, cap = strlen(HDR) + (size_t)count * row + 1, pos;
	char *s = malloc(cap);
	unsigned i;

	assert_non_null(s);
	strcpy(s, HDR);
	pos = strlen(HDR);
	for (i = 0; i < count; i++) {
		int n = snprintf(s + pos, cap - pos,
		                 "n%05u,1,Vendor,pkg,1.0,https://example.org/aaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
		                 first + i);

		assert_true(n > 0 && (size_t)n < cap - pos);
		pos += (size_t)n;
	}
	return s;
}

static void
test_merge_too_big(void **state)
{
	/* each input about 40 KiB, together over the 64 KiB limit */
	char *a = many_rows(0, 500), *b = many_rows(500, 500);
	sbat_diag d;

	(void)state;
	assert_true(strlen(a) < SBAT_CSV_MAX_SIZE && strlen(b) < SBAT_CSV_MAX_SIZE);
	assert_int_equal(merge(a, b, 0, NULL, &d), SBAT_E_TOO_BIG);
	assert_int_equal(d.code, SBAT_E_TOO_BIG);
	/* the same rows merged into themselves still fit */
	assert_int_equal(merge(a, a, 0, a, &d), SBAT_OK);
	free(a);
	free(b);
}

static void
test_merge_null(void **state)
{
	sbat_csv *csv = csv_ok(HDR LINUX);
	sbat_csv empty;
	uint8_t *out = NULL;
	size_t len = 0;
	sbat_diag d;

	(void)state;
	memset(&empty, 0, sizeof(empty));
	assert_int_equal(sbat_csv_merge(NULL, csv, 0, &out, &len, &d), SBAT_E_CSV);
	assert_diag(d, SBAT_E_CSV, "CSV is empty", 0, 0);
	assert_int_equal(sbat_csv_merge(csv, NULL, 0, &out, &len, &d), SBAT_E_CSV);
	assert_int_equal(sbat_csv_merge(csv, &empty, 0, &out, &len, NULL), SBAT_E_CSV);
	/* a hand-built row without a name */
	csv->entries[1].component_name = NULL;
	assert_int_equal(sbat_csv_merge(csv, csv, 0, &out, &len, &d), SBAT_E_CSV);
	assert_diag(d, SBAT_E_CSV, "CSV row has no text", 0, 0);
	assert_null(out);
	sbat_csv_free(csv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_disjoint),      cmocka_unit_test(test_merge_header),
		cmocka_unit_test(test_merge_header_only),   cmocka_unit_test(test_merge_canonical),
		cmocka_unit_test(test_merge_identical_row), cmocka_unit_test(test_merge_conflict),
		cmocka_unit_test(test_merge_force),         cmocka_unit_test(test_merge_too_big),
		cmocka_unit_test(test_merge_null),
	};

	return run_group(tests, NULL, NULL);
}
