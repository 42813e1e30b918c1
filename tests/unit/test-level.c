/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-level.c - unit tests for SbatLevel parsing, shim's .sbatlevel reader and the revocation check */
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
#include "sbat/level.h"
#include "edit_buf.h"
#include "fixture.h"

/* The payloads shim documents in SbatLevel_Variable.txt. */
#define ORIGINAL "sbat,1,2021030218\n"
#define PREVIOUS "sbat,1,2025021800\nshim,4\ngrub,5\n"
#define LATEST "sbat,1,2025051000\nshim,4\ngrub,5\ngrub.proxmox,2\n"

#define HDR SBAT_CSV_HEADER_ROW "\n"

#define E_HEADER "first line must be sbat,1,YYYYMMDDCC"
#define E_DATESTAMP "datestamp is not 10 decimal digits"
#define E_NOTNUM "generation is not a decimal number"
#define E_RANGE "generation out of range 1..65535"

#define assert_diag_at(d, c, w)                                                                                        \
	do {                                                                                                           \
		assert_int_equal((d).code, (c));                                                                       \
		assert_non_null((d).what);                                                                             \
		assert_string_equal((d).what, (w));                                                                    \
		assert_int_equal((d).has_offset, 1);                                                                   \
	} while (0)

/* Only for string literals: sizeof keeps embedded NULs. */
#define PARSE_LIT(s, ret, d) parse_n((s), sizeof(s) - 1, (ret), (d))

/* The input is freed before returning: the result must not point into it. */
static sbat_err
parse_n(const void *data, size_t n, sbat_level **ret, sbat_diag *d)
{
	uint8_t *b = dup_exact(data, n);
	sbat_err r;

	memset(d, 0, sizeof(*d));
	r = sbat_level_parse(b, n, ret, d);
	free(b);
	return r;
}

static sbat_level *
parse_ok(const char *s)
{
	sbat_level *level = NULL;
	sbat_diag d;

	assert_int_equal(parse_n(s, strlen(s), &level, &d), SBAT_OK);
	assert_non_null(level);
	return level;
}

static sbat_csv *
csv_ok(const char *s)
{
	sbat_csv *csv = NULL;
	sbat_diag d;

	assert_int_equal(sbat_csv_parse((const uint8_t *)s, strlen(s), &csv, &d), SBAT_OK);
	return csv;
}

static void
assert_entry(const sbat_level *level, size_t i, const char *name, unsigned gen, unsigned line)
{
	assert_true(i < level->n_entries);
	assert_string_equal(level->entries[i].component_name, name);
	assert_int_equal(level->entries[i].generation, gen);
	assert_int_equal(level->entries[i].line, line);
}

/* ---- parsing ---- */

static void
test_parse_latest(void **state)
{
	sbat_level *level = parse_ok(LATEST);

	(void)state;
	assert_string_equal(level->datestamp, "2025051000");
	assert_int_equal(level->n_entries, 4);
	assert_entry(level, 0, "sbat", 1, 1);
	assert_entry(level, 1, "shim", 4, 2);
	assert_entry(level, 2, "grub", 5, 3);
	assert_entry(level, 3, "grub.proxmox", 2, 4);
	assert_null(sbat_level_free(level));
}

static void
test_parse_original(void **state)
{
	sbat_level *level = parse_ok(ORIGINAL);

	(void)state;
	assert_string_equal(level->datestamp, "2021030218");
	assert_int_equal(level->n_entries, 1);
	assert_entry(level, 0, "sbat", 1, 1);
	sbat_level_free(level);
}

/* Every name lives in storage, so the level outlives its input. */
static void
test_parse_storage(void **state)
{
	sbat_level *level = parse_ok(PREVIOUS);
	size_t i;

	(void)state;
	for (i = 0; i < level->n_entries; i++) {
		const char *n = level->entries[i].component_name;

		assert_true(n >= level->storage && n < level->storage + sizeof(PREVIOUS));
	}
	sbat_level_free(level);
}

static void
test_parse_line_endings(void **state)
{
	static const char *const same[] = {
		"sbat,1,2025021800\nshim,4\ngrub,5",           /* no final newline */
		"sbat,1,2025021800\r\nshim,4\r\ngrub,5\r\n",   /* CRLF */
		"sbat,1,2025021800\nshim,4\r\ngrub,5\n\n\r\n", /* mixed, trailing empty lines */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		sbat_level *level = parse_ok(same[i]);

		assert_string_equal(level->datestamp, "2025021800");
		assert_int_equal(level->n_entries, 3);
		assert_entry(level, 1, "shim", 4, 2);
		assert_entry(level, 2, "grub", 5, 3);
		sbat_level_free(level);
	}
}

/* A payload embedded in shim ends at its NUL; what follows is another string. */
static void
test_parse_stops_at_nul(void **state)
{
	static const char two[] = ORIGINAL "\0" LATEST;
	static const char lead[] = "\0" LATEST;
	sbat_level *level = NULL;
	sbat_diag d;

	(void)state;
	assert_int_equal(PARSE_LIT(two, &level, &d), SBAT_OK);
	assert_string_equal(level->datestamp, "2021030218");
	assert_int_equal(level->n_entries, 1);
	sbat_level_free(level);

	level = (sbat_level *)&d;
	assert_int_equal(PARSE_LIT(lead, &level, &d), SBAT_E_LEVEL);
	assert_diag(d, SBAT_E_LEVEL, "SbatLevel is empty", 0, 0);
	/* ret_* is only set on success */
	assert_ptr_equal(level, (sbat_level *)&d);
}

static void
test_parse_third_field(void **state)
{
	sbat_level *level = parse_ok("sbat,1,2024010900\nshim,4,2024010900\ngrub,3\n");

	(void)state;
	assert_int_equal(level->n_entries, 3);
	assert_entry(level, 1, "shim", 4, 2);
	assert_entry(level, 2, "grub", 3, 3);
	sbat_level_free(level);
}

static void
test_parse_generation_edges(void **state)
{
	static const struct {
		const char *text;
		unsigned gen;
	} ok[] = {
		{ "sbat,1,2021030218\nc,1\n", 1 },
		{ "sbat,1,2021030218\nc,65535\n", 65535 },
		{ "sbat,1,2021030218\nc,007\n", 7 },
		{ "sbat,1,2021030218\nc,000000000000000000000000001\n", 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		sbat_level *level = parse_ok(ok[i].text);

		assert_entry(level, 1, "c", ok[i].gen, 2);
		sbat_level_free(level);
	}
}

/* Duplicates parse: shim keeps them and uses the first (see the check tests). */
static void
test_parse_duplicates(void **state)
{
	sbat_level *level = parse_ok("sbat,1,2021030218\ngrub,3\ngrub,1\nsbat,2\n");

	(void)state;
	assert_int_equal(level->n_entries, 4);
	assert_entry(level, 1, "grub", 3, 2);
	assert_entry(level, 2, "grub", 1, 3);
	assert_entry(level, 3, "sbat", 2, 4);
	sbat_level_free(level);
}

static void
test_parse_invalid(void **state)
{
	static const struct {
		const char *text;
		const char *what;
		unsigned line, field;
	} bad[] = {
		{ "", "SbatLevel is empty", 0, 0 },
		{ "\n\r\n", "SbatLevel is empty", 0, 0 },
		{ "sbat,1,2021030218\n\ngrub,2\n", "empty line", 2, 0 },
		{ "\nsbat,1,2021030218\n", "empty line", 1, 0 },
		{ "sbat,1,202103021\n", E_DATESTAMP, 1, 3 },
		{ "sbat,1,20210302180\n", E_DATESTAMP, 1, 3 },
		{ "sbat,1,2021O30218\n", E_DATESTAMP, 1, 3 },
		{ "sbat,2,2021030218\n", E_HEADER, 1, 2 },
		{ "sbat,01,2021030218\n", E_HEADER, 1, 2 },
		{ "grub,1,2021030218\n", E_HEADER, 1, 1 },
		{ "SBAT,1,2021030218\n", E_HEADER, 1, 1 },
		{ "sbat,1\n", E_HEADER, 1, 0 },
		{ "shim,4\n", E_HEADER, 1, 1 },
		{ "sbat\n", "fewer than 2 fields", 1, 0 },
		{ "sbat,1,2021030218,x\n", "more than 3 fields", 1, 4 },
		{ ",1,2021030218\n", "empty field", 1, 1 },
		{ "sbat,1,2021030218\ngrub\n", "fewer than 2 fields", 2, 0 },
		{ "sbat,1,2021030218\ngrub,\n", "empty field", 2, 2 },
		{ "sbat,1,2021030218\n,2\n", "empty field", 2, 1 },
		{ "sbat,1,2021030218\ngrub ,2\n", "leading or trailing space", 2, 1 },
		{ "sbat,1,2021030218\ngrub, 2\n", "leading or trailing space", 2, 2 },
		{ "sbat,1,2021030218 \n", "leading or trailing space", 1, 3 },
		{ "sbat,1,2021030218\ngrub,0\n", E_RANGE, 2, 2 },
		{ "sbat,1,2021030218\ngrub,00\n", E_RANGE, 2, 2 },
		{ "sbat,1,2021030218\ngrub,65536\n", E_RANGE, 2, 2 },
		{ "sbat,1,2021030218\ngrub,99999999999999999999\n", E_RANGE, 2, 2 },
		{ "sbat,1,2021030218\ngrub,2a\n", E_NOTNUM, 2, 2 },
		{ "sbat,1,2021030218\ngrub,+2\n", E_NOTNUM, 2, 2 },
		{ "sbat,1,2021030218\ngrub,-1\n", E_NOTNUM, 2, 2 },
		{ "sbat,1,2021030218\ngrub,0x10\n", E_NOTNUM, 2, 2 },
		{ "sbat,1,2021030218\ngrub,2,x\n", E_DATESTAMP, 2, 3 },
		{ "sbat,1,2021030218\ngrub,2,2024010900,x\n", "more than 3 fields", 2, 4 },
		{ "sbat,1,2021030218\ngrub,2,,\n", "empty field", 2, 3 },
		{ "sbat,1,2021030218\rgrub,2\n", "CR not followed by LF", 1, 0 },
		{ "sbat,1,2021030218\ngrub,2\r", "CR not followed by LF", 2, 0 },
		{ "\xef\xbb\xbfsbat,1,2021030218\n", "UTF-8 byte order mark", 1, 1 },
		{ "sbat,1,2021030218\ngr\tub,2\n", "non-printable or non-ASCII byte", 2, 1 },
		{ "sbat,1,2021030218\ngrub,2\n\xc3\xa9,1\n", "non-printable or non-ASCII byte", 3, 1 },
		{ "sbat,1,2021030218\ngrub,2\x7f\n", "non-printable or non-ASCII byte", 2, 2 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sbat_level *level = NULL;
		sbat_diag d;
		sbat_err r;

		r = parse_n(bad[i].text, strlen(bad[i].text), &level, &d);

		if (r != SBAT_E_LEVEL || !d.what || strcmp(d.what, bad[i].what) != 0 || d.line != bad[i].line ||
		    d.field != bad[i].field)
			print_message("case %zu: \"%s\" gave \"%s\" %u:%u\n", i, bad[i].text, d.what ? d.what : "",
			              d.line, d.field);
		assert_int_equal(r, SBAT_E_LEVEL);
		assert_diag(d, SBAT_E_LEVEL, bad[i].what, bad[i].line, bad[i].field);
		assert_null(level);
	}
}

static void
test_parse_null_and_free(void **state)
{
	sbat_level *level = NULL;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_level_parse(NULL, 10, &level, &d), SBAT_E_LEVEL);
	assert_diag(d, SBAT_E_LEVEL, "SbatLevel is empty", 0, 0);
	/* no diagnostic wanted */
	assert_int_equal(sbat_level_parse((const uint8_t *)"x", 1, &level, NULL), SBAT_E_LEVEL);
	assert_null(level);
	assert_null(sbat_level_free(NULL));
}

/* Header, then "abc,1" rows, then newlines up to n bytes: valid at any size. */
static char *
make_big(size_t n)
{
	static const char row[] = "abc,1\n";
	char *big = malloc(n);
	size_t i;

	assert_non_null(big);
	memcpy(big, ORIGINAL, strlen(ORIGINAL));
	for (i = strlen(ORIGINAL); i + strlen(row) <= n; i += strlen(row))
		memcpy(big + i, row, strlen(row));
	memset(big + i, '\n', n - i);
	return big;
}

static void
test_parse_too_big(void **state)
{
	char *big = make_big(SBAT_LEVEL_MAX_SIZE + 1);
	sbat_level *level = NULL;
	sbat_diag d;

	(void)state;
	assert_int_equal(parse_n(big, SBAT_LEVEL_MAX_SIZE + 1, &level, &d), SBAT_E_TOO_BIG);
	assert_int_equal(d.code, SBAT_E_TOO_BIG);
	assert_null(level);

	/* Only the bytes before the first NUL count. */
	big[strlen(ORIGINAL) + 5 * 6] = '\0';
	assert_int_equal(parse_n(big, SBAT_LEVEL_MAX_SIZE + 1, &level, &d), SBAT_OK);
	assert_int_equal(level->n_entries, 6);
	sbat_level_free(level);
	free(big);

	/* exactly at the limit is fine */
	big = make_big(SBAT_LEVEL_MAX_SIZE);
	assert_int_equal(parse_n(big, SBAT_LEVEL_MAX_SIZE, &level, &d), SBAT_OK);
	assert_int_equal(level->n_entries, 1 + (SBAT_LEVEL_MAX_SIZE - strlen(ORIGINAL)) / 6);
	sbat_level_free(level);
	free(big);
}

/* ---- checking a .sbat against a policy ---- */

static size_t
count_revoked(const char *policy, const char *sbat, sbat_revocation *rv, size_t max)
{
	sbat_level *level = parse_ok(policy);
	sbat_csv *csv = csv_ok(sbat);
	size_t n = 12345;

	assert_int_equal(sbat_level_check(level, csv, rv, max, &n, NULL), SBAT_OK);
	sbat_level_free(level);
	sbat_csv_free(csv);
	return n;
}

#define LINUX1 "linux,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux\n"
#define LINUX2 "linux,2,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux\n"
#define LINUX3 "linux,3,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux\n"
#define LINUXDEB1 "linux.debian,1,Debian,linux,6.1.0,https://tracker.debian.org/pkg/linux\n"

static void
test_check_basic(void **state)
{
	(void)state;
	/* lower generation than the policy: revoked */
	assert_int_equal(count_revoked(ORIGINAL "linux,2\n", HDR LINUX1, NULL, 0), 1);
	/* equal or higher: fine */
	assert_int_equal(count_revoked(ORIGINAL "linux,2\n", HDR LINUX2, NULL, 0), 0);
	assert_int_equal(count_revoked(ORIGINAL "linux,2\n", HDR LINUX3, NULL, 0), 0);
	/* component only in the policy, or only in the image: fine */
	assert_int_equal(count_revoked(LATEST, HDR LINUX1, NULL, 0), 0);
	assert_int_equal(count_revoked(ORIGINAL, HDR LINUX1, NULL, 0), 0);
	/* exact, case-sensitive names; no product or prefix matching */
	assert_int_equal(count_revoked(ORIGINAL "Linux,2\n", HDR LINUX1, NULL, 0), 0);
	assert_int_equal(count_revoked(ORIGINAL "linux,2\n", HDR LINUXDEB1, NULL, 0), 0);
	assert_int_equal(count_revoked(ORIGINAL "linux.debian,2\n", HDR LINUX1, NULL, 0), 0);
	assert_int_equal(count_revoked(ORIGINAL "linux.debian,2\n", HDR LINUX3 LINUXDEB1, NULL, 0), 1);
}

static void
test_check_reports_rows(void **state)
{
	sbat_level *level = parse_ok(LATEST);
	sbat_csv *csv = csv_ok(HDR "shim,3,UEFI shim,shim,1,https://github.com/rhboot/shim\n"
	                           "grub,4,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n"
	                           "grub.proxmox,2,Proxmox,grub2,2.06,https://proxmox.com\n");
	sbat_revocation rv[4];
	size_t n = 0;

	(void)state;
	memset(rv, 0, sizeof(rv));
	assert_int_equal(sbat_level_check(level, csv, rv, 4, &n, NULL), SBAT_OK);
	assert_int_equal(n, 2);
	assert_ptr_equal(rv[0].entry, &csv->entries[1]);
	assert_ptr_equal(rv[0].level, &level->entries[1]);
	assert_string_equal(rv[0].level->component_name, "shim");
	assert_int_equal(rv[0].level->generation, 4);
	assert_ptr_equal(rv[1].entry, &csv->entries[2]);
	assert_ptr_equal(rv[1].level, &level->entries[2]);
	assert_int_equal(rv[1].level->generation, 5);
	assert_null(rv[2].entry);

	/* the count is the total, only max_revoked are stored */
	memset(rv, 0, sizeof(rv));
	assert_int_equal(sbat_level_check(level, csv, rv, 1, &n, NULL), SBAT_OK);
	assert_int_equal(n, 2);
	assert_ptr_equal(rv[0].entry, &csv->entries[1]);
	assert_null(rv[1].entry);

	/* count only */
	n = 0;
	assert_int_equal(sbat_level_check(level, csv, NULL, 0, &n, NULL), SBAT_OK);
	assert_int_equal(n, 2);
	assert_int_equal(sbat_level_check(level, csv, NULL, 0, NULL, NULL), SBAT_OK);

	sbat_level_free(level);
	sbat_csv_free(csv);
}

/* shim stops at the first policy row naming the component. */
static void
test_check_first_match_wins(void **state)
{
	sbat_level *level = parse_ok(ORIGINAL "linux,9\nlinux,1\n");
	sbat_csv *csv = csv_ok(HDR LINUX1);
	sbat_revocation rv[1];
	size_t n = 0;

	(void)state;
	assert_int_equal(count_revoked(ORIGINAL "linux,1\nlinux,9\n", HDR LINUX1, NULL, 0), 0);
	assert_int_equal(sbat_level_check(level, csv, rv, 1, &n, NULL), SBAT_OK);
	assert_int_equal(n, 1);
	assert_ptr_equal(rv[0].level, &level->entries[1]);
	assert_int_equal(rv[0].level->line, 2);
	assert_int_equal(rv[0].level->generation, 9);
	sbat_level_free(level);
	sbat_csv_free(csv);
	/* the header row is compared too: a later sbat,2 is never reached */
	assert_int_equal(count_revoked(ORIGINAL "sbat,2\n", HDR LINUX1, NULL, 0), 0);
}

static void
test_check_invalid_args(void **state)
{
	sbat_level *level = parse_ok(LATEST);
	sbat_csv *csv = csv_ok(HDR LINUX1);
	sbat_level empty_level;
	sbat_csv empty_csv;
	size_t n = 77;

	(void)state;
	memset(&empty_level, 0, sizeof(empty_level));
	memset(&empty_csv, 0, sizeof(empty_csv));
	assert_int_equal(sbat_level_check(NULL, csv, NULL, 0, &n, NULL), SBAT_E_LEVEL);
	/* a level without entries revokes nothing, as shim's check passes all against an empty list */
	assert_int_equal(sbat_level_check(&empty_level, csv, NULL, 0, &n, NULL), SBAT_OK);
	assert_int_equal(n, 0);
	n = 77;
	assert_int_equal(sbat_level_check(level, NULL, NULL, 0, &n, NULL), SBAT_E_CSV);
	assert_int_equal(sbat_level_check(level, &empty_csv, NULL, 0, &n, NULL), SBAT_E_CSV);
	assert_int_equal(sbat_level_check(level, csv, NULL, 3, &n, NULL), SBAT_E_LEVEL);
	/* a hand-built struct without names fails instead of passing */
	level->entries[2].component_name = NULL;
	assert_int_equal(sbat_level_check(level, csv, NULL, 0, &n, NULL), SBAT_E_LEVEL);
	level->entries[2].component_name = "grub";
	csv->entries[1].component_name = NULL;
	assert_int_equal(sbat_level_check(level, csv, NULL, 0, &n, NULL), SBAT_E_CSV);
	assert_int_equal(n, 77);
	sbat_level_free(level);
	sbat_csv_free(csv);
}

/* ---- reading shim's .sbatlevel ---- */

/* Long names as binutils writes them: "/4" = offset 4 in the string table. */
#define LONG_NAME "/4"
#define STRTAB_NAME ".sbatlevel"

/*
 * shim's layout: u32 version 0, then two u32 offsets counted from byte 4,
 * then the two NUL-terminated payloads.
 */
static size_t
make_payload(uint8_t *out, size_t cap, uint32_t version, const char *prev, const char *latest)
{
	size_t np = strlen(prev) + 1, nl = strlen(latest) + 1;

	assert_true(12 + np + nl <= cap);
	fx_put32(out, version);
	fx_put32(out + 4, 8);
	fx_put32(out + 8, (uint32_t)(8 + np));
	memcpy(out + 12, prev, np);
	memcpy(out + 12 + np, latest, nl);
	return 12 + np + nl;
}

/*
 * A shim-like image: .text, .rodata, then the .sbatlevel section (with
 * VirtualSize = the payload size, as the linker leaves it), then .data.
 * With a long name the COFF symbol table and a string table naming
 * .sbatlevel are placed in the overlay.
 */
static uint8_t *
build_shim(const char *name, const uint8_t *content, size_t n, uint32_t vsize, size_t *ret_len)
{
	fx_spec spec;
	fx_section sec;
	uint8_t *img = NULL, *copy;
	size_t len = 0;

	fx_spec_init(&spec, FX_PLAIN);
	memset(&sec, 0, sizeof(sec));
	sec.name = name;
	sec.raw_size = 0x200;
	sec.virtual_size = vsize;
	sec.characteristics = FX_SCN_RDATA;
	sec.content = (const char *)content;
	sec.content_len = n;
	assert_int_equal(fx_spec_insert_section(&spec, 2, &sec), 0);
	if (strcmp(name, LONG_NAME) == 0) {
		spec.symtab_in_overlay = 1;
		spec.overlay_len = 64;
	}
	assert_int_equal(fx_build(&spec, &img, &len), 0);

	if (spec.symtab_in_overlay) {
		size_t coff = fx_le32(img + 0x3c) + 4;
		uint8_t *strtab = img + fx_le32(img + coff + 8) + 18;

		fx_put32(strtab, (uint32_t)(4 + sizeof(STRTAB_NAME)));
		memcpy(strtab + 4, STRTAB_NAME, sizeof(STRTAB_NAME));
	}
	copy = dup_exact(img, len);
	free(img);
	*ret_len = len;
	return copy;
}

static uint8_t *
build_default(const char *name, size_t *ret_len)
{
	uint8_t buf[256];
	size_t n = make_payload(buf, sizeof(buf), 0, PREVIOUS, LATEST);

	return build_shim(name, buf, n, (uint32_t)n, ret_len);
}

/* Header offset of the section named name (8-byte form), for patching. */
static uint8_t *
section_header(uint8_t *img, const char *name)
{
	size_t coff = fx_le32(img + 0x3c) + 4, tab = fx_section_table_offset(img);
	unsigned i, ns = fx_le16(img + coff + 2);

	for (i = 0; i < ns; i++) {
		uint8_t *h = img + tab + 40 * (size_t)i;

		if (strncmp((const char *)h, name, 8) == 0)
			return h;
	}
	fail_msg("no section %s", name);
	return NULL;
}

static sbat_err
from_shim(const uint8_t *img, size_t len, int which, sbat_level **ret, sbat_diag *d)
{
	memset(d, 0, sizeof(*d));
	return level_from_buf(img, len, which, ret, d);
}

static void
check_both(const uint8_t *img, size_t len)
{
	sbat_level *level = NULL;
	sbat_diag d;

	assert_int_equal(from_shim(img, len, SBAT_LEVEL_PREVIOUS, &level, &d), SBAT_OK);
	assert_string_equal(level->datestamp, "2025021800");
	assert_int_equal(level->n_entries, 3);
	assert_entry(level, 2, "grub", 5, 3);
	sbat_level_free(level);

	assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_OK);
	assert_string_equal(level->datestamp, "2025051000");
	assert_int_equal(level->n_entries, 4);
	assert_entry(level, 3, "grub.proxmox", 2, 4);
	sbat_level_free(level);
}

static void
test_shim_long_name(void **state)
{
	size_t len;
	uint8_t *img = build_default(LONG_NAME, &len);

	(void)state;
	check_both(img, len);
	assert_int_equal(SBAT_LEVEL_AUTOMATIC, SBAT_LEVEL_PREVIOUS);
	free(img);
}

static void
test_shim_truncated_name(void **state)
{
	size_t len;
	uint8_t *img = build_default(".sbatlev", &len);

	(void)state;
	check_both(img, len);
	free(img);
}

/* VirtualSize 0 means SizeOfRawData, as for every loader. */
static void
test_shim_virtual_size_zero(void **state)
{
	size_t len;
	uint8_t *img = build_default(".sbatlev", &len);

	(void)state;
	fx_put32(section_header(img, ".sbatlev") + 8, 0);
	check_both(img, len);
	free(img);
}

static void
test_shim_absent(void **state)
{
	static const char *const names[] = { ".sbatle", ".sbatlex", ".SBATLEV", "sbatlev" };
	sbat_level *level = NULL;
	uint8_t *img;
	size_t len, coff, i;
	sbat_diag d;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		img = build_default(names[i], &len);
		assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_E_NO_SBATLEVEL);
		assert_int_equal(d.code, SBAT_E_NO_SBATLEVEL);
		assert_null(level);
		free(img);
	}

	/* "/4" resolving to another name */
	img = build_default(LONG_NAME, &len);
	coff = fx_le32(img + 0x3c) + 4;
	img[fx_le32(img + coff + 8) + 18 + 4 + 9] = 'x';
	assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_E_NO_SBATLEVEL);
	free(img);

	/* "/4" with no symbol table cannot be resolved */
	img = build_default(LONG_NAME, &len);
	coff = fx_le32(img + 0x3c) + 4;
	fx_put32(img + coff + 8, 0);
	fx_put32(img + coff + 12, 0);
	assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_E_NO_SBATLEVEL);
	free(img);

	/* a string table too small to hold the name */
	img = build_default(LONG_NAME, &len);
	coff = fx_le32(img + 0x3c) + 4;
	fx_put32(img + fx_le32(img + coff + 8) + 18, 4 + 10);
	assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_E_NO_SBATLEVEL);
	free(img);

	/* "/4" followed by garbage instead of NUL padding */
	img = build_default(LONG_NAME, &len);
	section_header(img, LONG_NAME)[5] = 'z';
	assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_E_NO_SBATLEVEL);
	free(img);

	/* not a PE image at all: pe_parse's error comes through */
	img = malloc(4096);
	assert_non_null(img);
	memset(img, 'x', 4096);
	assert_int_equal(from_shim(img, 4096, SBAT_LEVEL_LATEST, &level, &d), SBAT_E_PE_MAGIC);
	assert_int_equal(d.code, SBAT_E_PE_MAGIC);
	assert_null(level);
	free(img);
}

static void
test_shim_duplicate(void **state)
{
	uint8_t buf[256], *img = NULL, *copy;
	size_t n = make_payload(buf, sizeof(buf), 0, PREVIOUS, LATEST), len;
	fx_spec spec;
	fx_section sec;
	sbat_level *level = NULL;
	sbat_diag d;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	memset(&sec, 0, sizeof(sec));
	sec.name = ".sbatlev";
	sec.raw_size = 0x200;
	sec.characteristics = FX_SCN_RDATA;
	sec.content = (const char *)buf;
	sec.content_len = n;
	assert_int_equal(fx_spec_insert_section(&spec, 2, &sec), 0);
	assert_int_equal(fx_spec_insert_section(&spec, 3, &sec), 0);
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	copy = dup_exact(img, len);
	free(img);
	assert_int_equal(from_shim(copy, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_E_LEVEL);
	assert_diag_at(d, SBAT_E_LEVEL, "more than one .sbatlevel section");
	assert_null(level);
	free(copy);
}

static void
expect_bad(const uint8_t *content, size_t n, uint32_t vsize, int which, const char *what, uint64_t rel_offset)
{
	size_t len;
	uint8_t *img = build_shim(LONG_NAME, content, n, vsize, &len);
	uint32_t raw = fx_le32(section_header(img, LONG_NAME) + 20);
	sbat_level *level = NULL;
	sbat_diag d;

	assert_int_equal(from_shim(img, len, which, &level, &d), SBAT_E_LEVEL);
	assert_diag_at(d, SBAT_E_LEVEL, what);
	assert_int_equal(d.offset, raw + rel_offset);
	assert_null(level);
	free(img);
}

static void
test_shim_bounds(void **state)
{
	uint8_t buf[256];
	size_t n = make_payload(buf, sizeof(buf), 0, PREVIOUS, LATEST);
	uint32_t vs = (uint32_t)n;

	(void)state;
	/* header cut short by VirtualSize */
	expect_bad(buf, n, 11, SBAT_LEVEL_PREVIOUS, ".sbatlevel shorter than its 12-byte header", 0);

	/* latest's NUL lies just past VirtualSize: the zero padding does not count */
	expect_bad(buf, n, vs - 1, SBAT_LEVEL_LATEST, ".sbatlevel payload is not NUL-terminated",
	           12 + sizeof(PREVIOUS));
	/* previous still parses from the same image */
	{
		size_t len;
		uint8_t *img = build_shim(LONG_NAME, buf, n, vs - 1, &len);
		sbat_level *level = NULL;
		sbat_diag d;

		assert_int_equal(from_shim(img, len, SBAT_LEVEL_PREVIOUS, &level, &d), SBAT_OK);
		sbat_level_free(level);
		free(img);
	}

	/* offsets into the header, at or past the end, or wrapping */
	fx_put32(buf + 8, 4);
	expect_bad(buf, n, vs, SBAT_LEVEL_LATEST, ".sbatlevel payload offset points into its header", 8);
	fx_put32(buf + 8, 0);
	expect_bad(buf, n, vs, SBAT_LEVEL_LATEST, ".sbatlevel payload offset points into its header", 8);
	fx_put32(buf + 8, vs - 4);
	expect_bad(buf, n, vs, SBAT_LEVEL_LATEST, ".sbatlevel payload offset past the section end", 8);
	fx_put32(buf + 8, 0x1000);
	expect_bad(buf, n, vs, SBAT_LEVEL_LATEST, ".sbatlevel payload offset past the section end", 8);
	fx_put32(buf + 8, 0xfffffffcu);
	expect_bad(buf, n, vs, SBAT_LEVEL_LATEST, ".sbatlevel payload offset past the section end", 8);
	fx_put32(buf + 4, 0xffffffffu);
	expect_bad(buf, n, vs, SBAT_LEVEL_PREVIOUS, ".sbatlevel payload offset past the section end", 4);

	/* an offset to the last byte, which is the NUL of latest: an empty payload */
	n = make_payload(buf, sizeof(buf), 0, PREVIOUS, LATEST);
	fx_put32(buf + 8, vs - 5);
	{
		size_t len;
		uint8_t *img = build_shim(LONG_NAME, buf, n, vs, &len);
		sbat_level *level = NULL;
		sbat_diag d;

		assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_E_LEVEL);
		assert_diag(d, SBAT_E_LEVEL, "SbatLevel is empty", 0, 0);
		free(img);
	}

	/* an unknown format version */
	n = make_payload(buf, sizeof(buf), 1, PREVIOUS, LATEST);
	expect_bad(buf, n, vs, SBAT_LEVEL_LATEST, "unknown .sbatlevel format version", 0);
}

static void
test_shim_bad_payload(void **state)
{
	uint8_t buf[256];
	size_t n = make_payload(buf, sizeof(buf), 0, PREVIOUS, "sbat,1,2025\nshim,\n"), len;
	uint8_t *img = build_shim(LONG_NAME, buf, n, (uint32_t)n, &len);
	sbat_level *level = NULL;
	sbat_diag d;

	(void)state;
	/* the payload is read as shim reads it: an empty field is refused, a short datestamp is not */
	assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_E_LEVEL);
	assert_diag(d, SBAT_E_LEVEL, "empty field", 2, 2);
	assert_null(level);
	free(img);
	n = make_payload(buf, sizeof(buf), 0, PREVIOUS, "sbat,1,2025\nshim,4\n");
	img = build_shim(LONG_NAME, buf, n, (uint32_t)n, &len);
	assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_OK);
	assert_string_equal(level->datestamp, "");
	assert_entry(level, 1, "shim", 4, 2);
	sbat_level_free(level);
	assert_int_equal(from_shim(img, len, SBAT_LEVEL_PREVIOUS, &level, &d), SBAT_OK);
	sbat_level_free(level);
	free(img);
}

static void
test_shim_bad_selector(void **state)
{
	size_t len;
	uint8_t *img = build_default(LONG_NAME, &len);
	sbat_level *level = NULL;
	sbat_diag d;

	(void)state;
	assert_int_equal(from_shim(img, len, 2, &level, &d), SBAT_E_LEVEL);
	assert_string_equal(d.what, "unknown .sbatlevel payload selector");
	assert_int_equal(from_shim(img, len, -1, &level, &d), SBAT_E_LEVEL);
	assert_null(level);
	free(img);
}

/* End to end: the image's .sbat checked against the policy read from shim. */
static void
test_shim_check(void **state)
{
	size_t len;
	uint8_t *img = build_default(LONG_NAME, &len);
	sbat_level *level = NULL;
	sbat_csv *old = csv_ok(HDR "grub,4,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n");
	sbat_csv *cur = csv_ok(HDR "grub,5,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n");
	sbat_diag d;
	size_t n = 0;

	(void)state;
	assert_int_equal(from_shim(img, len, SBAT_LEVEL_LATEST, &level, &d), SBAT_OK);
	assert_int_equal(sbat_level_check(level, old, NULL, 0, &n, NULL), SBAT_OK);
	assert_int_equal(n, 1);
	assert_int_equal(sbat_level_check(level, cur, NULL, 0, &n, NULL), SBAT_OK);
	assert_int_equal(n, 0);
	sbat_level_free(level);
	sbat_csv_free(old);
	sbat_csv_free(cur);
	free(img);
}

/* ---- the efivarfs file of SbatLevelRT ---- */

/* 4 attribute bytes (little-endian), then the payload: an exact-size heap copy. */
static uint8_t *
efivar_file(uint32_t attributes, const char *payload, size_t payload_len, size_t *ret_len)
{
	uint8_t *b = malloc(4 + payload_len);
	unsigned i;

	assert_non_null(b);
	for (i = 0; i < 4; i++)
		b[i] = (uint8_t)(attributes >> (8 * i));
	memcpy(b + 4, payload, payload_len);
	*ret_len = 4 + payload_len;
	return b;
}

/* What Debian's shim 16.1 publishes: BS|RT, its latest payload, with or without the C string's NUL. */
static void
test_efivar_payload(void **state)
{
	static const char with_nul[] = LATEST;
	sbat_level *level = NULL;
	sbat_diag d;
	uint32_t attributes = 0;
	size_t len;
	uint8_t *b;

	(void)state;
	b = efivar_file(0x6, with_nul, sizeof(with_nul), &len);
	assert_int_equal(sbat_level_from_efivar(b, len, &attributes, &level, &d), SBAT_OK);
	free(b);
	assert_int_equal(attributes, 0x6);
	assert_string_equal(level->datestamp, "2025051000");
	assert_int_equal(level->n_entries, 4);
	assert_entry(level, 3, "grub.proxmox", 2, 4);
	sbat_level_free(level);

	b = efivar_file(0x80000007u, PREVIOUS, strlen(PREVIOUS), &len);
	assert_int_equal(sbat_level_from_efivar(b, len, NULL, &level, &d), SBAT_OK);
	free(b);
	assert_string_equal(level->datestamp, "2025021800");
	assert_entry(level, 2, "grub", 5, 3);
	sbat_level_free(level);
}

/* Fewer than 4 bytes cannot hold the attributes: refused with offset 0, nothing read past len. */
static void
test_efivar_short(void **state)
{
	static const uint8_t bytes[3] = { 6, 0, 0 };
	sbat_level *level = NULL;
	sbat_diag d;
	size_t len;

	(void)state;
	for (len = 0; len < 4; len++) {
		uint8_t *b = dup_exact(bytes, len);

		memset(&d, 0, sizeof(d));
		assert_int_equal(sbat_level_from_efivar(b, len, NULL, &level, &d), SBAT_E_LEVEL);
		assert_diag_at(d, SBAT_E_LEVEL, "variable shorter than its 4 attribute bytes");
		assert_int_equal(d.offset, 0);
		assert_null(level);
		free(b);
	}
	assert_int_equal(sbat_level_from_efivar(NULL, 8, NULL, &level, NULL), SBAT_E_LEVEL);
	assert_null(level);
}

/* The payload's errors count lines within the payload, as for a text file. */
static void
test_efivar_bad_payload(void **state)
{
	static const char bad[] = "sbat,1,2025051000\nshim\n";
	sbat_level *level = NULL;
	sbat_diag d;
	size_t len;
	uint8_t *b;

	(void)state;
	b = efivar_file(0x6, bad, sizeof(bad) - 1, &len);
	assert_int_equal(sbat_level_from_efivar(b, len, NULL, &level, &d), SBAT_E_LEVEL);
	assert_diag(d, SBAT_E_LEVEL, "fewer than 2 fields", 2, 0);
	free(b);

	b = efivar_file(0x6, "", 0, &len);
	assert_int_equal(sbat_level_from_efivar(b, len, NULL, &level, &d), SBAT_E_LEVEL);
	assert_string_equal(d.what, "SbatLevel is empty");
	free(b);

	/* a payload that is only a NUL: shim reads no row, and enforces nothing */
	b = efivar_file(0x6, "\0", 1, &len);
	assert_int_equal(sbat_level_from_efivar(b, len, NULL, &level, &d), SBAT_OK);
	assert_int_equal(level->n_entries, 0);
	level = sbat_level_free(level);
	free(b);
}

/* A NUL ends the text for this parser; one shim reads on past (after a run of line ends) is refused. */
static void
test_parse_row_after_nul(void **state)
{
	static const char after[] = "sbat,1,2025051000\n\n\0grub,9\n";
	static const char ended[] = "sbat,1,2025051000\n\0grub,9\n";
	sbat_level *level = NULL;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_level_parse((const uint8_t *)after, sizeof(after) - 1, &level, &d), SBAT_E_LEVEL);
	assert_string_equal(d.what, "a row after a NUL, which shim reads on to");
	assert_null(level);
	assert_int_equal(sbat_level_parse((const uint8_t *)ended, sizeof(ended) - 1, &level, &d), SBAT_OK);
	assert_int_equal(level->n_entries, 1);
	sbat_level_free(level);
}

static void
test_error_messages(void **state)
{
	(void)state;
	assert_string_equal(sbat_strerror(SBAT_E_LEVEL), "invalid SbatLevel policy");
	assert_string_equal(sbat_strerror(SBAT_E_NO_SBATLEVEL), "image has no .sbatlevel section");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_latest),
		cmocka_unit_test(test_parse_original),
		cmocka_unit_test(test_parse_storage),
		cmocka_unit_test(test_parse_line_endings),
		cmocka_unit_test(test_parse_stops_at_nul),
		cmocka_unit_test(test_parse_third_field),
		cmocka_unit_test(test_parse_generation_edges),
		cmocka_unit_test(test_parse_duplicates),
		cmocka_unit_test(test_parse_invalid),
		cmocka_unit_test(test_parse_null_and_free),
		cmocka_unit_test(test_parse_too_big),
		cmocka_unit_test(test_check_basic),
		cmocka_unit_test(test_check_reports_rows),
		cmocka_unit_test(test_check_first_match_wins),
		cmocka_unit_test(test_check_invalid_args),
		cmocka_unit_test(test_shim_long_name),
		cmocka_unit_test(test_shim_truncated_name),
		cmocka_unit_test(test_shim_virtual_size_zero),
		cmocka_unit_test(test_shim_absent),
		cmocka_unit_test(test_shim_duplicate),
		cmocka_unit_test(test_shim_bounds),
		cmocka_unit_test(test_shim_bad_payload),
		cmocka_unit_test(test_shim_bad_selector),
		cmocka_unit_test(test_shim_check),
		cmocka_unit_test(test_efivar_payload),
		cmocka_unit_test(test_efivar_short),
		cmocka_unit_test(test_efivar_bad_payload),
		cmocka_unit_test(test_parse_row_after_nul),
		cmocka_unit_test(test_error_messages),
	};

	return run_group(tests, NULL, NULL);
}
