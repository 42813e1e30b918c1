/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-csv.c - unit tests for the strict SBAT CSV parser and formatter */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/csv.h"

#define HDR SBAT_CSV_HEADER_ROW "\n"
#define LINUX "linux,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux"
#define LINUX_DEB "linux.debian,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux"
#define TOOL "tool,1,V,tool,1.0,https://example.org/tool"
#define OTHER "other,3,V,other,2.0,https://example.org/other"

#define E_BYTE "non-printable or non-ASCII byte"
#define E_CR "CR not followed by LF"
#define E_FEW "fewer than 6 fields"
#define E_EMPTY "empty field"
#define E_SPACE "leading or trailing space"
#define E_NOTNUM "generation is not a decimal number"
#define E_RANGE "generation out of range 1..65535"
#define E_FIRST "first row must be the sbat,1 header"

/* Only for string literals: sizeof keeps embedded NULs. */
#define FAIL_LIT(s) fail_n((s), sizeof(s) - 1)
#define OK_LIT(s) ok_n((s), sizeof(s) - 1)

/* The input is freed before returning: the result must not point into it. */
static sbat_err
parse_n(const void *data, size_t n, sbat_csv **ret, sbat_diag *d)
{
	uint8_t *b = dup_exact(data, n);
	sbat_err r = sbat_csv_parse(b, n, ret, d);

	free(b);
	return r;
}

static int
ptr_in(const char *p, const char *lo, const char *hi)
{
	return p && p >= lo && p < hi;
}

/* Every string lives in storage, and the six fields rebuild the start of text. */
static void
check_csv(const sbat_csv *csv)
{
	const char *lo = csv->storage, *hi;
	size_t i, span = 0;

	assert_true(csv->n_entries >= 1);
	assert_non_null(csv->entries);
	assert_non_null(csv->storage);
	for (i = 0; i < csv->n_entries; i++)
		span += 2 * (strlen(csv->entries[i].text) + 1);
	hi = lo + span;
	assert_string_equal(csv->entries[0].component_name, "sbat");
	assert_int_equal(csv->entries[0].generation, 1);

	for (i = 0; i < csv->n_entries; i++) {
		const sbat_csv_entry *e = &csv->entries[i];
		const char *f[SBAT_CSV_COLUMNS] = {
			e->component_name,      e->component_generation, e->vendor_name,
			e->vendor_package_name, e->vendor_version,       e->vendor_url,
		};
		const char *t = e->text;
		size_t k;

		assert_true(ptr_in(t, lo, hi));
		for (k = 0; k < SBAT_CSV_COLUMNS; k++) {
			size_t n;

			assert_true(ptr_in(f[k], lo, hi));
			n = strlen(f[k]);
			assert_true(n > 0);
			assert_true(f[k][0] != ' ' && f[k][n - 1] != ' ');
			assert_null(strchr(f[k], ','));
			assert_memory_equal(t, f[k], n);
			t += n;
			if (k + 1 < SBAT_CSV_COLUMNS) {
				assert_int_equal(*t, ',');
				t++;
			}
		}
		assert_true(*t == '\0' || *t == ',');
		assert_true(e->generation >= 1);
		assert_int_equal(e->generation, strtoul(e->component_generation, NULL, 10));
		assert_true(e->line >= 1);
		if (i > 0)
			assert_true(e->line > csv->entries[i - 1].line);
	}
}

static void
format_ok(const sbat_csv *csv, uint8_t **buf, size_t *len)
{
	sbat_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_csv_format(csv, buf, len, &d), SBAT_OK);
	assert_non_null(*buf);
}

/* format(parse(format(x))) == format(x), row for row. */
static void
check_round_trip(const sbat_csv *csv)
{
	uint8_t *a, *b;
	size_t alen, blen, i;
	sbat_csv *again = NULL;
	sbat_diag d;

	format_ok(csv, &a, &alen);
	assert_int_equal(parse_n(a, alen, &again, &d), SBAT_OK);
	check_csv(again);
	assert_int_equal(again->n_entries, csv->n_entries);
	for (i = 0; i < csv->n_entries; i++) {
		assert_string_equal(again->entries[i].text, csv->entries[i].text);
		assert_int_equal(again->entries[i].generation, csv->entries[i].generation);
	}
	format_ok(again, &b, &blen);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	free(a);
	free(b);
	sbat_csv_free(again);
}

static sbat_csv *
ok_n(const void *data, size_t n)
{
	sbat_csv *csv = NULL;
	sbat_diag d;

	memset(&d, 0, sizeof(d));
	if (parse_n(data, n, &csv, &d) != SBAT_OK)
		fail_msg("unexpected failure: %s (line %u, field %u)", d.what, d.line, d.field);
	assert_non_null(csv);
	check_csv(csv);
	check_round_trip(csv);
	return csv;
}

static sbat_csv *
ok_s(const char *s)
{
	return ok_n(s, strlen(s));
}

/* On failure *ret_csv is left alone. */
static sbat_diag
fail_n(const void *data, size_t n)
{
	sbat_csv *csv = NULL;
	sbat_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_not_equal(parse_n(data, n, &csv, &d), SBAT_OK);
	assert_null(csv);
	return d;
}

static sbat_diag
fail_s(const char *s)
{
	return fail_n(s, strlen(s));
}

/* The canonical bytes format() gives for the input. */
static void
assert_formats_to(const char *in, size_t in_len, const char *want)
{
	sbat_csv *csv = ok_n(in, in_len);
	uint8_t *out;
	size_t len;

	format_ok(csv, &out, &len);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(out, want, len);
	free(out);
	sbat_csv_free(csv);
}

/* A valid CSV of exactly SBAT_CSV_MAX_SIZE bytes; b must hold one more byte. */
static size_t
build_max(char *b)
{
	static const char last[] = "last,1,V,p,1,";
	size_t len, k;
	unsigned i = 0;

	len = (size_t)snprintf(b, SBAT_CSV_MAX_SIZE, "%s", HDR);
	while (SBAT_CSV_MAX_SIZE - len > 64)
		len += (size_t)snprintf(b + len, SBAT_CSV_MAX_SIZE - len, "c%05u,1,V,p,1,u\n", i++);
	memcpy(b + len, last, sizeof(last) - 1);
	len += sizeof(last) - 1;
	k = SBAT_CSV_MAX_SIZE - len - 1;
	memset(b + len, 'u', k);
	len += k;
	b[len++] = '\n';
	return len;
}

/* Read a whole file into an exact-size buffer. */
static uint8_t *
slurp(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	size_t len = 0, n;
	uint8_t chunk[4096];

	if (!f)
		fail_msg("cannot open %s", path);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		uint8_t *nb = realloc(b, len + n);

		assert_non_null(nb);
		b = nb;
		memcpy(b + len, chunk, n);
		len += n;
	}
	assert_int_equal(ferror(f), 0);
	fclose(f);
	if (!b)
		b = dup_exact("", 0);
	*ret_len = len;
	return b;
}

static void
test_csv_valid_header_only(void **state)
{
	sbat_csv *csv = OK_LIT(HDR);
	const sbat_csv_entry *e = &csv->entries[0];

	(void)state;
	assert_int_equal(csv->n_entries, 1);
	assert_string_equal(e->component_name, "sbat");
	assert_string_equal(e->component_generation, "1");
	assert_string_equal(e->vendor_name, "SBAT Version");
	assert_string_equal(e->vendor_package_name, "sbat");
	assert_string_equal(e->vendor_version, "1");
	assert_string_equal(e->vendor_url, "https://github.com/rhboot/shim/blob/main/SBAT.md");
	assert_string_equal(e->text, SBAT_CSV_HEADER_ROW);
	assert_int_equal(e->generation, 1);
	assert_int_equal(e->line, 1);
	assert_null(sbat_csv_free(csv));
}

static void
test_csv_valid_linux(void **state)
{
	sbat_csv *csv = OK_LIT(HDR LINUX "\n" LINUX_DEB "\n");
	const sbat_csv_entry *e;

	(void)state;
	assert_int_equal(csv->n_entries, 3);
	e = &csv->entries[1];
	assert_string_equal(e->component_name, "linux");
	assert_string_equal(e->component_generation, "1");
	assert_string_equal(e->vendor_name, "Debian");
	assert_string_equal(e->vendor_package_name, "linux");
	assert_string_equal(e->vendor_version, "6.1.0");
	assert_string_equal(e->vendor_url, "https://tracker.debian.org/pkg/linux");
	assert_string_equal(e->text, LINUX);
	assert_int_equal(e->line, 2);
	e = &csv->entries[2];
	assert_string_equal(e->component_name, "linux.debian");
	assert_string_equal(e->text, LINUX_DEB);
	assert_int_equal(e->line, 3);
	sbat_csv_free(csv);
}

static void
test_csv_valid_crlf(void **state)
{
	static const char in[] = SBAT_CSV_HEADER_ROW "\r\n" LINUX "\r\n";
	sbat_csv *csv = OK_LIT(in);

	(void)state;
	assert_int_equal(csv->n_entries, 2);
	assert_string_equal(csv->entries[0].text, SBAT_CSV_HEADER_ROW);
	assert_string_equal(csv->entries[1].text, LINUX);
	assert_string_equal(csv->entries[1].vendor_url, "https://tracker.debian.org/pkg/linux");
	sbat_csv_free(csv);
	assert_formats_to(in, sizeof(in) - 1, HDR LINUX "\n");
}

static void
test_csv_valid_mixed_line_endings(void **state)
{
	static const char in[] = SBAT_CSV_HEADER_ROW "\r\n" LINUX "\n" LINUX_DEB "\r\n" TOOL;
	sbat_csv *csv = OK_LIT(in);

	(void)state;
	assert_int_equal(csv->n_entries, 4);
	assert_int_equal(csv->entries[3].line, 4);
	assert_string_equal(csv->entries[3].vendor_url, "https://example.org/tool");
	sbat_csv_free(csv);
	assert_formats_to(in, sizeof(in) - 1, HDR LINUX "\n" LINUX_DEB "\n" TOOL "\n");
}

static void
test_csv_valid_no_final_newline(void **state)
{
	(void)state;
	assert_formats_to(SBAT_CSV_HEADER_ROW, strlen(SBAT_CSV_HEADER_ROW), HDR);
	assert_formats_to(HDR TOOL, strlen(HDR TOOL), HDR TOOL "\n");
}

static void
test_csv_valid_trailing_blank_lines(void **state)
{
	sbat_csv *csv = OK_LIT(HDR TOOL "\n\n\r\n\n");

	(void)state;
	assert_int_equal(csv->n_entries, 2);
	sbat_csv_free(csv);
	assert_formats_to(HDR TOOL "\n\n", strlen(HDR TOOL "\n\n"), HDR TOOL "\n");
	assert_formats_to(HDR TOOL "\r\n\r\n", strlen(HDR TOOL "\r\n\r\n"), HDR TOOL "\n");
	assert_formats_to(HDR "\n", strlen(HDR "\n"), HDR);
}

static void
test_csv_valid_extra_columns(void **state)
{
	sbat_csv *csv = OK_LIT(HDR TOOL ",extra column,another\n");
	const sbat_csv_entry *e = &csv->entries[1];

	(void)state;
	assert_string_equal(e->vendor_url, "https://example.org/tool");
	assert_string_equal(e->text, TOOL ",extra column,another");
	sbat_csv_free(csv);
	assert_formats_to(HDR TOOL ",x\r\n", strlen(HDR TOOL ",x\r\n"), HDR TOOL ",x\n");
}

static void
test_csv_valid_generation_max(void **state)
{
	sbat_csv *csv = OK_LIT(HDR "tool,65535,V,tool,1.0,https://example.org/tool\n");

	(void)state;
	assert_int_equal(csv->entries[1].generation, 65535);
	assert_string_equal(csv->entries[1].component_generation, "65535");
	sbat_csv_free(csv);
}

static void
test_csv_valid_leading_zeros(void **state)
{
	sbat_csv *csv = OK_LIT(HDR "tool,0001,V,tool,1.0,u\nmore,00065535,V,more,1.0,u\n");

	(void)state;
	assert_int_equal(csv->entries[1].generation, 1);
	assert_string_equal(csv->entries[1].component_generation, "0001");
	assert_int_equal(csv->entries[2].generation, 65535);
	assert_string_equal(csv->entries[1].text, "tool,0001,V,tool,1.0,u");
	sbat_csv_free(csv);

	/* The header's value is what counts. */
	csv = OK_LIT("sbat,01,SBAT Version,sbat,1,u\n");
	assert_int_equal(csv->entries[0].generation, 1);
	sbat_csv_free(csv);
}

static void
test_csv_valid_internal_spaces_and_case(void **state)
{
	/* Spaces inside a field are fine; names compare byte for byte, as in shim. */
	sbat_csv *csv = OK_LIT(HDR TOOL "\nTool,1,Some Vendor Inc.,tool,1.0 beta,u\n");

	(void)state;
	assert_int_equal(csv->n_entries, 3);
	assert_string_equal(csv->entries[2].vendor_name, "Some Vendor Inc.");
	sbat_csv_free(csv);
}

static void
test_csv_valid_max_size(void **state)
{
	char *b = malloc(SBAT_CSV_MAX_SIZE + 1);
	size_t len;
	sbat_csv *csv;

	(void)state;
	assert_non_null(b);
	len = build_max(b);
	assert_int_equal(len, SBAT_CSV_MAX_SIZE);
	csv = ok_n(b, len);
	assert_true(csv->n_entries > 1000);
	sbat_csv_free(csv);
	free(b);
}

static void
test_csv_too_big(void **state)
{
	char *b = malloc(SBAT_CSV_MAX_SIZE + 1);
	size_t len;
	sbat_diag d;

	(void)state;
	assert_non_null(b);
	len = build_max(b);
	/* One more byte in the last field keeps the CSV otherwise valid. */
	b[len - 1] = 'u';
	b[len++] = '\n';
	d = fail_n(b, len);
	assert_diag(d, SBAT_E_TOO_BIG, "CSV larger than 64 KiB", 0, 0);
	free(b);
}

static void
test_csv_empty(void **state)
{
	sbat_csv *csv = NULL;
	sbat_diag d;

	(void)state;
	d = fail_n("", 0);
	assert_diag(d, SBAT_E_CSV, "CSV is empty", 0, 0);

	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_csv_parse(NULL, 0, &csv, &d), SBAT_E_CSV);
	assert_null(csv);
	assert_diag(d, SBAT_E_CSV, "CSV is empty", 0, 0);
}

/*
 * One defect per row: the input, then the check that must name it and where
 * (line, field; field 0 for the whole line). Grouped by the rule broken.
 */
static const struct bad_csv {
	const char *rule;
	const char *input;
	size_t len;
	const char *what;
	unsigned line, field;
} bad_csvs[] = {
#define BAD(rule, lit, what, line, field)                                                                              \
	{                                                                                                              \
		rule, lit, sizeof(lit) - 1, what, line, field                                                          \
	}
	BAD("only_newlines", "\n", "CSV is empty", 0, 0),
	BAD("only_newlines", "\r\n", "CSV is empty", 0, 0),
	BAD("only_newlines", "\n\n\r\n\n", "CSV is empty", 0, 0),
	BAD("nul_byte", HDR "tool,1,V\0,tool,1.0,u\n", "NUL byte", 2, 3),
	BAD("nul_byte", HDR TOOL "\n\0\0\0\0", "NUL byte", 3, 1),
	BAD("nul_byte", "\0" HDR, "NUL byte", 1, 1),
	BAD("nul_byte", HDR TOOL "\0", "NUL byte", 2, 6),
	BAD("bom", "\xef\xbb\xbf" HDR, "UTF-8 byte order mark", 1, 1),
	BAD("bom", "\xef\xbb\xbf", "UTF-8 byte order mark", 1, 1),
	BAD("bom", HDR "\xef\xbb\xbf" TOOL "\n", E_BYTE, 2, 1),
	BAD("bom", "\xef\xbb" HDR, E_BYTE, 1, 1),
	BAD("bom", "\xef\xbb", E_BYTE, 1, 1),
	BAD("bom", "\xef", E_BYTE, 1, 1),
	BAD("tab", HDR TOOL "\t\n", E_BYTE, 2, 6),
	BAD("tab", HDR "tool,1,V,tool,1.0,\thttps://example.org/tool\n", E_BYTE, 2, 6),
	BAD("tab", HDR "tool\t,1,V,tool,1.0,u\n", E_BYTE, 2, 1),
	BAD("control_byte", HDR "\x01tool,1,V,tool,1.0,u\n", E_BYTE, 2, 1),
	BAD("control_byte", HDR "tool,1,V,to\x7fol,1.0,u\n", E_BYTE, 2, 4),
	BAD("control_byte", HDR "tool,1,V,tool,1.0\x1b,u\n", E_BYTE, 2, 5),
	BAD("control_byte", HDR "tool,1\f,V,tool,1.0,u\n", E_BYTE, 2, 2),
	BAD("control_byte", HDR "\v\n", E_BYTE, 2, 1),
	BAD("non_ascii", HDR "tool,1,Caf\xc3\xa9,tool,1.0,u\n", E_BYTE, 2, 3),
	BAD("non_ascii", HDR "tool,1,V,tool,1.0,u\x80\n", E_BYTE, 2, 6),
	BAD("non_ascii", HDR TOOL ",\xff\n", E_BYTE, 2, 7),
	BAD("lone_cr", SBAT_CSV_HEADER_ROW "\r" TOOL "\n", E_CR, 1, 0),
	BAD("lone_cr", HDR TOOL "\r", E_CR, 2, 0),
	BAD("lone_cr", HDR TOOL "\r\r\n", E_CR, 2, 0),
	BAD("lone_cr", HDR "tool,1,V\r,tool,1.0,u\n", E_CR, 2, 0),
	BAD("lone_cr", HDR TOOL "\n\r", E_CR, 3, 0),
	BAD("lone_cr", HDR TOOL "\n\n\r\r\n", "empty line", 3, 0),
	BAD("empty_line", HDR "\n" TOOL "\n", "empty line", 2, 0),
	BAD("empty_line", SBAT_CSV_HEADER_ROW "\r\n\r\n" TOOL, "empty line", 2, 0),
	BAD("empty_line", "\n" HDR, "empty line", 1, 0),
	BAD("empty_line", HDR TOOL "\n\n\n" OTHER "\n\n", "empty line", 3, 0),
	BAD("fewer_than_6_fields", HDR "tool,1,V,tool,1.0\n", E_FEW, 2, 0),
	BAD("fewer_than_6_fields", HDR "tool\n", E_FEW, 2, 0),
	BAD("fewer_than_6_fields", HDR " \n" TOOL "\n", E_FEW, 2, 0),
	BAD("fewer_than_6_fields", "sbat,1,SBAT Version,sbat,1\n", E_FEW, 1, 0),
	BAD("fewer_than_6_fields", HDR ",,,,\n", E_FEW, 2, 0),
	BAD("empty_field", HDR ",1,V,tool,1.0,u\n", E_EMPTY, 2, 1),
	BAD("empty_field", HDR "tool,,V,tool,1.0,u\n", E_EMPTY, 2, 2),
	BAD("empty_field", HDR "tool,1,,tool,1.0,u\n", E_EMPTY, 2, 3),
	BAD("empty_field", HDR "tool,1,V,tool,1.0,\n", E_EMPTY, 2, 6),
	BAD("empty_field", HDR TOOL ",\n", E_EMPTY, 2, 7),
	BAD("empty_field", HDR TOOL ",,x\n", E_EMPTY, 2, 7),
	BAD("empty_field", HDR ",,,,,\n", E_EMPTY, 2, 1),
	BAD("leading_or_trailing_space", HDR " tool,1,V,tool,1.0,u\n", E_SPACE, 2, 1),
	BAD("leading_or_trailing_space", HDR "tool ,1,V,tool,1.0,u\n", E_SPACE, 2, 1),
	BAD("leading_or_trailing_space", HDR "tool,1,V ,tool,1.0,u\n", E_SPACE, 2, 3),
	BAD("leading_or_trailing_space", HDR "tool,1,V, ,1.0,u\n", E_SPACE, 2, 4),
	BAD("leading_or_trailing_space", HDR TOOL " \n", E_SPACE, 2, 6),
	BAD("leading_or_trailing_space", HDR TOOL ", extra\n", E_SPACE, 2, 7),
	BAD("leading_or_trailing_space", SBAT_CSV_HEADER_ROW " \r\n", E_SPACE, 1, 6),
	BAD("generation_zero", HDR "tool,0,V,tool,1.0,u\n", E_RANGE, 2, 2),
	BAD("generation_zero", HDR "tool,0000,V,tool,1.0,u\n", E_RANGE, 2, 2),
	BAD("generation_too_big", HDR "tool,65536,V,tool,1.0,u\n", E_RANGE, 2, 2),
	BAD("generation_too_big", HDR "tool,100000,V,tool,1.0,u\n", E_RANGE, 2, 2),
	BAD("generation_overflow", HDR "tool,99999999999999999999,V,tool,1.0,u\n", E_RANGE, 2, 2),
	BAD("generation_overflow", HDR "tool,4294967297,V,tool,1.0,u\n", E_RANGE, 2, 2),
	BAD("generation_overflow", HDR "tool,18446744073709551617,V,tool,1.0,u\n", E_RANGE, 2, 2),
	BAD("generation_leading_space", HDR "tool, 1,V,tool,1.0,u\n", E_SPACE, 2, 2),
	BAD("generation_leading_space", HDR "tool,1 ,V,tool,1.0,u\n", E_SPACE, 2, 2),
	BAD("first_row_not_sbat", TOOL "\n", E_FIRST, 1, 1),
	BAD("first_row_not_sbat", LINUX "\n" HDR, E_FIRST, 1, 1),
	BAD("first_row_not_sbat", "SBAT,1,SBAT Version,sbat,1,u\n", E_FIRST, 1, 1),
	BAD("first_row_not_sbat", "sbatx,1,SBAT Version,sbat,1,u\n", E_FIRST, 1, 1),
	BAD("first_row_generation_not_1", "sbat,2,SBAT Version,sbat,1,u\n" TOOL "\n", E_FIRST, 1, 2),
	BAD("first_row_generation_not_1", "sbat,65535,SBAT Version,sbat,1,u\n", E_FIRST, 1, 2),
	BAD("second_sbat_header", HDR TOOL "\n" HDR, "second sbat header row", 3, 1),
	BAD("second_sbat_header", HDR "sbat,2,SBAT Version,sbat,1,u\n", "second sbat header row", 2, 1),
	BAD("duplicate_component", HDR TOOL "\n" OTHER "\ntool,2,Other,tool,2.0,u\n", "duplicate component", 4, 1),
	BAD("duplicate_component", HDR LINUX "\n" LINUX "\n", "duplicate component", 3, 1),
	BAD("first_error_wins", HDR TOOL "\n" TOOL "\ntool,1,V,\t,1.0,u\n", "duplicate component", 3, 1),
	BAD("first_error_wins", HDR "tool,,V\t,tool\n", E_BYTE, 2, 3),
	BAD("first_error_wins", HDR "tool,x,,tool,1.0,u\n", E_NOTNUM, 2, 2),
	BAD("first_error_wins", HDR "tool,0,V ,tool,1.0,u\n", E_RANGE, 2, 2),
	BAD("first_error_wins", HDR "to ol,1,V ,tool,1.0,u \n", E_SPACE, 2, 3),
#undef BAD
};

static void
test_csv_rejections(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_csvs) / sizeof(bad_csvs[0]); i++) {
		const struct bad_csv *b = &bad_csvs[i];
		sbat_diag d = fail_n(b->input, b->len);

		if (d.code != SBAT_E_CSV || !d.what || strcmp(d.what, b->what) != 0 || d.line != b->line ||
		    d.field != b->field)
			fail_msg("%s, row %zu: got \"%s\" at line %u, field %u; want \"%s\" at %u, %u", b->rule, i,
			         d.what ? d.what : "(none)", d.line, d.field, b->what, b->line, b->field);
	}
}

static void
test_csv_generation_not_decimal(void **state)
{
	static const char *const bad[] = {
		"1a", "+1", "-1", "0x1", "1 1", "1.0", "a", "1e3", "\xa3",
	};
	char row[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sbat_diag d;

		snprintf(row, sizeof(row), HDR "tool,%s,V,tool,1.0,u\n", bad[i]);
		d = fail_s(row);
		if (bad[i][0] & 0x80)
			assert_diag(d, SBAT_E_CSV, E_BYTE, 2, 2);
		else
			assert_diag(d, SBAT_E_CSV, E_NOTNUM, 2, 2);
	}
}

static void
test_csv_outputs_untouched(void **state)
{
	sbat_csv sentinel, *csv = &sentinel;
	sbat_diag d, before;

	(void)state;
	/* Failure leaves *ret_csv alone and needs no diag. */
	assert_int_equal(sbat_csv_parse((const uint8_t *)"x\n", 2, &csv, NULL), SBAT_E_CSV);
	assert_ptr_equal(csv, &sentinel);

	/* Success leaves the diag alone. */
	memset(&before, 0x5a, sizeof(before));
	memcpy(&d, &before, sizeof(d));
	csv = NULL;
	assert_int_equal(sbat_csv_parse((const uint8_t *)HDR, strlen(HDR), &csv, &d), SBAT_OK);
	assert_non_null(csv);
	assert_memory_equal(&d, &before, sizeof(d));
	sbat_csv_free(csv);
}

static void
test_csv_not_nul_terminated(void **state)
{
	static const char in[] = HDR LINUX "\r\n" LINUX_DEB "\n" TOOL ",x";
	static const char tail[] = HDR TOOL "\nbad\tline,,";
	sbat_csv *csv = NULL;
	sbat_diag d;
	size_t k, ok = 0;

	(void)state;
	/* Every prefix, each in an exact-size buffer: no read may pass len. */
	for (k = 0; k <= sizeof(in) - 1; k++) {
		csv = NULL;
		if (parse_n(in, k, &csv, &d) == SBAT_OK) {
			check_csv(csv);
			check_round_trip(csv);
			csv = sbat_csv_free(csv);
			ok++;
		} else {
			assert_null(csv);
			assert_non_null(d.what);
		}
	}
	assert_true(ok > 0);

	/* Bytes past len are not the parser's business. */
	csv = ok_n(tail, strlen(HDR TOOL "\n"));
	assert_int_equal(csv->n_entries, 2);
	sbat_csv_free(csv);
	csv = ok_n(tail, strlen(HDR TOOL));
	assert_string_equal(csv->entries[1].vendor_url, "https://example.org/tool");
	sbat_csv_free(csv);
}

static void
test_csv_format_canonical(void **state)
{
	static const char canon[] = HDR LINUX "\n" TOOL ",extra\n";
	static const char messy[] = SBAT_CSV_HEADER_ROW "\r\n" LINUX "\n" TOOL ",extra\r\n\r\n\n";

	(void)state;
	assert_formats_to(messy, sizeof(messy) - 1, canon);
	/* Already canonical input comes back byte for byte. */
	assert_formats_to(canon, sizeof(canon) - 1, canon);
}

static void
test_csv_format_round_trip(void **state)
{
	static const char *const inputs[] = {
		HDR,
		SBAT_CSV_HEADER_ROW,
		HDR LINUX "\n" LINUX_DEB "\n",
		SBAT_CSV_HEADER_ROW "\r\n" TOOL "\r\n" OTHER,
		HDR TOOL ",a,b,c\n\n\n",
		HDR "t,00042,V,p,1,u\n",
	};
	size_t i;

	(void)state;
	/* ok_s() checks format(parse(format(x))) == format(x) for each. */
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		sbat_csv_free(ok_s(inputs[i]));
}

static void
test_csv_format_rejects_bad_struct(void **state)
{
	sbat_csv_entry e[2];
	sbat_csv csv;
	uint8_t *buf = (uint8_t *)&csv;
	size_t len = 12345;
	sbat_diag d;

	(void)state;
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_csv_format(NULL, &buf, &len, &d), SBAT_E_CSV);
	assert_diag(d, SBAT_E_CSV, "CSV is empty", 0, 0);

	memset(&csv, 0, sizeof(csv));
	memset(e, 0, sizeof(e));
	assert_int_equal(sbat_csv_format(&csv, &buf, &len, NULL), SBAT_E_CSV);

	/* Rows edited by hand are checked again before they are emitted. */
	csv.entries = e;
	csv.n_entries = 2;
	e[0].text = SBAT_CSV_HEADER_ROW;
	e[1].text = "tool,1,V,tool,1.0,u\t";
	assert_int_equal(sbat_csv_format(&csv, &buf, &len, &d), SBAT_E_CSV);
	assert_diag(d, SBAT_E_CSV, E_BYTE, 2, 6);
	e[1].text = "tool,1,V,tool,1.0,u\n" SBAT_CSV_HEADER_ROW;
	assert_int_equal(sbat_csv_format(&csv, &buf, &len, &d), SBAT_E_CSV);
	assert_diag(d, SBAT_E_CSV, "second sbat header row", 3, 1);
	e[1].text = NULL;
	assert_int_equal(sbat_csv_format(&csv, &buf, &len, &d), SBAT_E_CSV);

	/* Outputs stay untouched on failure. */
	assert_ptr_equal(buf, (uint8_t *)&csv);
	assert_int_equal(len, 12345);

	e[1].text = "tool,1,V,tool,1.0,u";
	assert_int_equal(sbat_csv_format(&csv, &buf, &len, &d), SBAT_OK);
	assert_int_equal(len, strlen(HDR "tool,1,V,tool,1.0,u\n"));
	assert_memory_equal(buf, HDR "tool,1,V,tool,1.0,u\n", len);
	free(buf);
}

/* What shim's own parser makes of a .sbat: only its rules refuse, generations as its atoi reads them. */
static void
test_csv_parse_shim(void **state)
{
	static const char lax[] =
	    "\xef\xbb\xbfsbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\r\n"
	    "\n"
	    "tool,2x,Fr\xc3\xa9"
	    "d\xc3\xa9"
	    "ric,tool,1.0,https://example.org,extra,,\r"
	    "other, 7,V,other,1,u\n\0garbage,,\n";
	static const char five[] = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	                           "memtest86+,1,Memtest86+,6.10,https://memtest.org\n";
	static const char empty6[] = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	                             "a,1,b,c,d,\n";
	sbat_csv *csv = NULL;
	sbat_diag d;

	(void)state;
	/* the strict parser refuses it (BOM, non-ASCII, blank line, extra empty fields) */
	assert_int_not_equal(sbat_csv_parse((const uint8_t *)lax, sizeof(lax) - 1, &csv, NULL), SBAT_OK);
	assert_int_equal(sbat_csv_parse_shim((const uint8_t *)lax, sizeof(lax) - 1, &csv, &d), SBAT_OK);
	assert_int_equal(csv->n_entries, 3);
	assert_string_equal(csv->entries[0].component_name, "sbat");
	assert_int_equal(csv->entries[0].generation, 1);
	assert_string_equal(csv->entries[1].component_name, "tool");
	assert_int_equal(csv->entries[1].generation, 2);
	assert_string_equal(csv->entries[1].vendor_name, "Fr\xc3\xa9"
	                                                 "d\xc3\xa9"
	                                                 "ric");
	assert_string_equal(csv->entries[1].vendor_url, "https://example.org");
	assert_int_equal(csv->entries[1].line, 3);
	assert_string_equal(csv->entries[2].component_name, "other");
	assert_int_equal(csv->entries[2].generation, 7);
	csv = sbat_csv_free(csv);

	assert_int_equal(sbat_csv_parse_shim((const uint8_t *)five, sizeof(five) - 1, &csv, &d), SBAT_E_CSV);
	assert_string_equal(d.what, "fewer than 6 fields");
	assert_int_equal(d.line, 2);
	assert_int_equal(sbat_csv_parse_shim((const uint8_t *)empty6, sizeof(empty6) - 1, &csv, &d), SBAT_E_CSV);
	assert_string_equal(d.what, "empty field");
	assert_int_equal(d.line, 2);
	assert_int_equal(d.field, 6);
	/* no rows: shim's parser has nothing to refuse */
	assert_int_equal(sbat_csv_parse_shim((const uint8_t *)"\0\0", 2, &csv, &d), SBAT_OK);
	assert_int_equal(csv->n_entries, 0);
	sbat_csv_free(csv);
}

static void
test_csv_free_null(void **state)
{
	(void)state;
	assert_null(sbat_csv_free(NULL));
	assert_null(sbat_csv_free(ok_s(HDR)));
}

/* xorshift64*: small, fixed, the same on every platform. */
static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

static void
test_csv_fuzz(void **state)
{
	static const char *const seeds[] = {
		HDR,
		HDR LINUX "\n" LINUX_DEB "\n",
		SBAT_CSV_HEADER_ROW "\r\n" TOOL ",x\r\n" OTHER "\n\n",
		HDR "a,1,V,a,1,u\nb,65535,V,b,1,u\nc,0002,V,c,1,u",
	};
	static const uint8_t spice[] = {
		',', '\n', '\r', ' ', '0', '1', '9', '\0', '\t', 0xef, 0xbb, 0xff, 0x80, 'a', 's', '+',
	};
	const char *env = getenv("SBAT_CSV_FUZZ_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : UINT64_C(0x5ba7c5f00d), s = seed ? seed : 1;
	unsigned iter, ok = 0, bad = 0;
	uint8_t buf[512];

	(void)state;
	print_message("csv fuzz seed 0x%llx (replay with SBAT_CSV_FUZZ_SEED)\n", (unsigned long long)seed);
	for (iter = 0; iter < 20000; iter++) {
		const char *base = seeds[next_rand(&s) % (sizeof(seeds) / sizeof(seeds[0]))];
		size_t len = strlen(base), m, n_mut = 1 + next_rand(&s) % 4, i, lines = 1;
		sbat_csv *csv = NULL;
		sbat_diag d;

		memcpy(buf, base, len);
		for (m = 0; m < n_mut; m++) {
			size_t pos = len ? next_rand(&s) % len : 0;
			uint8_t c = spice[next_rand(&s) % sizeof(spice)];

			switch (next_rand(&s) % 5) {
			case 0:
				if (len)
					buf[pos] = c;
				break;
			case 1:
				if (len < sizeof(buf)) {
					memmove(buf + pos + 1, buf + pos, len - pos);
					buf[pos] = c;
					len++;
				}
				break;
			case 2:
				if (len) {
					memmove(buf + pos, buf + pos + 1, len - pos - 1);
					len--;
				}
				break;
			case 3: len = pos; break;
			default:
				if (len)
					buf[pos] = (uint8_t)next_rand(&s);
				break;
			}
		}
		for (i = 0; i < len; i++)
			lines += buf[i] == '\n';

		memset(&d, 0, sizeof(d));
		if (parse_n(buf, len, &csv, &d) == SBAT_OK) {
			check_csv(csv);
			check_round_trip(csv);
			sbat_csv_free(csv);
			ok++;
		} else {
			assert_null(csv);
			assert_int_equal(d.code, SBAT_E_CSV);
			assert_non_null(d.what);
			assert_true(d.line <= lines);
			assert_true(d.field <= len + 1);
			bad++;
		}
	}
	print_message("csv fuzz: %u parsed, %u rejected\n", ok, bad);
	assert_true(ok > 0 && bad > 0);
}

struct expect {
	const char *name;
	const char *what;
	unsigned line, field;
};

static const struct expect invalid_expect[] = {
	{ "empty.csv", "CSV is empty", 0, 0 },
	{ "only-newlines.csv", "CSV is empty", 0, 0 },
	{ "bom.csv", "UTF-8 byte order mark", 1, 1 },
	{ "nul-padding.csv", "NUL byte", 3, 1 },
	{ "tab.csv", E_BYTE, 2, 6 },
	{ "non-ascii.csv", E_BYTE, 2, 3 },
	{ "lone-cr.csv", E_CR, 1, 0 },
	{ "empty-line.csv", "empty line", 2, 0 },
	{ "fewer-fields.csv", E_FEW, 2, 0 },
	{ "empty-field.csv", E_EMPTY, 2, 3 },
	{ "trailing-comma.csv", E_EMPTY, 2, 7 },
	{ "leading-space.csv", E_SPACE, 2, 4 },
	{ "generation-zero.csv", E_RANGE, 2, 2 },
	{ "generation-too-big.csv", E_RANGE, 2, 2 },
	{ "generation-not-decimal.csv", E_NOTNUM, 2, 2 },
	{ "generation-sign.csv", E_NOTNUM, 2, 2 },
	{ "no-header.csv", E_FIRST, 1, 1 },
	{ "header-generation-2.csv", E_FIRST, 1, 2 },
	{ "second-header.csv", "second sbat header row", 3, 1 },
	{ "duplicate-component.csv", "duplicate component", 3, 1 },
};

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Run every *.csv in FIXTURES_SRC/csv/<sub>; returns how many there were. */
static unsigned
check_fixture_dir(const char *root, const char *sub, int valid, unsigned *seen)
{
	char dir[4096], path[4096];
	struct dirent *de;
	unsigned count = 0;
	DIR *dp;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/csv/%s", root, sub) >= sizeof(dir))
		fail_msg("path too long: %s", root);
	dp = opendir(dir);
	if (!dp)
		fail_msg("cannot open fixture directory %s", dir);
	while ((de = readdir(dp)) != NULL) {
		size_t len, i;
		uint8_t *b;
		sbat_csv *csv = NULL;
		sbat_diag d;
		sbat_err r;

		if (de->d_name[0] == '.' || !has_suffix(de->d_name, ".csv"))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			fail_msg("path too long: %s/%s", dir, de->d_name);
		b = slurp(path, &len);
		memset(&d, 0, sizeof(d));
		r = sbat_csv_parse(b, len, &csv, &d);
		free(b);
		count++;
		if (valid) {
			if (r != SBAT_OK)
				fail_msg("%s: %s (line %u, field %u)", path, d.what, d.line, d.field);
			check_csv(csv);
			check_round_trip(csv);
			sbat_csv_free(csv);
			continue;
		}
		if (r == SBAT_OK)
			fail_msg("%s: parsed but must be rejected", path);
		assert_null(csv);
		for (i = 0; i < sizeof(invalid_expect) / sizeof(invalid_expect[0]); i++) {
			const struct expect *x = &invalid_expect[i];

			if (strcmp(x->name, de->d_name) != 0)
				continue;
			seen[i] = 1;
			if (strcmp(d.what, x->what) != 0 || d.line != x->line || d.field != x->field)
				fail_msg("%s: got \"%s\" at %u:%u, want \"%s\" at %u:%u", path, d.what, d.line, d.field,
				         x->what, x->line, x->field);
		}
	}
	closedir(dp);
	return count;
}

static void
test_csv_fixtures(void **state)
{
	const char *root = getenv("FIXTURES_SRC");
	unsigned seen[sizeof(invalid_expect) / sizeof(invalid_expect[0])] = { 0 };
	size_t i;

	(void)state;
	if (!root) {
		print_message("FIXTURES_SRC is unset: skipping the tests/fixtures/csv files\n");
		skip();
	}
	assert_true(check_fixture_dir(root, "valid", 1, seen) > 0);
	assert_true(check_fixture_dir(root, "invalid", 0, seen) > 0);
	for (i = 0; i < sizeof(seen) / sizeof(seen[0]); i++)
		if (!seen[i])
			fail_msg("fixture csv/invalid/%s is missing", invalid_expect[i].name);
}

static void
test_csv_linux_sbat(void **state)
{
	const char *root = getenv("FIXTURES_SRC");
	char path[4096];
	uint8_t *b, *out;
	size_t len, out_len;
	sbat_csv *csv = NULL;
	sbat_diag d;

	(void)state;
	if (!root) {
		print_message("FIXTURES_SRC is unset: skipping tests/fixtures/csv/linux.sbat\n");
		skip();
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/csv/linux.sbat", root) >= sizeof(path))
		fail_msg("path too long: %s", root);
	b = slurp(path, &len);
	assert_int_equal(sbat_csv_parse(b, len, &csv, &d), SBAT_OK);
	check_csv(csv);
	assert_int_equal(csv->n_entries, 3);
	assert_string_equal(csv->entries[0].text, SBAT_CSV_HEADER_ROW);
	assert_string_equal(csv->entries[1].text, LINUX);
	assert_string_equal(csv->entries[2].text, LINUX_DEB);
	/* The fixture is stored in canonical form. */
	format_ok(csv, &out, &out_len);
	assert_int_equal(out_len, len);
	assert_memory_equal(out, b, len);
	free(out);
	free(b);
	sbat_csv_free(csv);
}

/* What an edit changes in a .sbat: kept, removed and added lines in order, and the counts of each text's lines. */
static void
test_csv_diff(void **state)
{
	static const char old_text[] = "sbat,1,x\ngrub,3,a\ngrub.debian,1,b\n";
	static const char new_text[] = "sbat,1,x\ngrub,4,a\ngrub.debian,1,b\nextra,1,c";
	static const char expect[] = " sbat,1,x\n-grub,3,a\n+grub,4,a\n grub.debian,1,b\n+extra,1,c\n";
	sbat_csv_diff_line *lines = NULL;
	size_t n, na, nb, i, at = 0;
	char got[256];
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_csv_diff((const uint8_t *)old_text, strlen(old_text), (const uint8_t *)new_text,
	                               strlen(new_text), &lines, &n, &na, &nb, &d),
	                 SBAT_OK);
	assert_int_equal(na, 3);
	assert_int_equal(nb, 4);
	for (i = 0; i < n; i++)
		at += (size_t)snprintf(got + at, sizeof(got) - at, "%c%.*s\n", lines[i].op, (int)lines[i].len,
		                       lines[i].text);
	assert_string_equal(got, expect);
	free(lines);
	/* nothing before: every line is added */
	assert_int_equal(sbat_csv_diff(NULL, 0, (const uint8_t *)"a\n", 2, &lines, &n, &na, &nb, &d), SBAT_OK);
	assert_int_equal(n, 1);
	assert_int_equal(na, 0);
	assert_int_equal(lines[0].op, '+');
	free(lines);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_rejections),
		cmocka_unit_test(test_csv_valid_header_only),
		cmocka_unit_test(test_csv_valid_linux),
		cmocka_unit_test(test_csv_valid_crlf),
		cmocka_unit_test(test_csv_valid_mixed_line_endings),
		cmocka_unit_test(test_csv_valid_no_final_newline),
		cmocka_unit_test(test_csv_valid_trailing_blank_lines),
		cmocka_unit_test(test_csv_valid_extra_columns),
		cmocka_unit_test(test_csv_valid_generation_max),
		cmocka_unit_test(test_csv_valid_leading_zeros),
		cmocka_unit_test(test_csv_valid_internal_spaces_and_case),
		cmocka_unit_test(test_csv_valid_max_size),
		cmocka_unit_test(test_csv_too_big),
		cmocka_unit_test(test_csv_empty),
		cmocka_unit_test(test_csv_generation_not_decimal),
		cmocka_unit_test(test_csv_outputs_untouched),
		cmocka_unit_test(test_csv_not_nul_terminated),
		cmocka_unit_test(test_csv_format_canonical),
		cmocka_unit_test(test_csv_format_round_trip),
		cmocka_unit_test(test_csv_format_rejects_bad_struct),
		cmocka_unit_test(test_csv_parse_shim),
		cmocka_unit_test(test_csv_free_null),
		cmocka_unit_test(test_csv_fuzz),
		cmocka_unit_test(test_csv_fixtures),
		cmocka_unit_test(test_csv_linux_sbat),
		cmocka_unit_test(test_csv_diff),
	};

	return run_group(tests, NULL, NULL);
}
