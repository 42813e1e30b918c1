/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * test-level-shim.c - an SbatLevel as shim 16.1 reads it, one row per rule of
 * its sources: every level shim accepts is accepted, and judges an image's
 * .sbat as shim does; what shim refuses is refused; a stored level that
 * revokes shim's own .sbat, or that shim cannot parse, stops shim.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdlib.h>
#include <string.h>

#include "sbat/boot.h"
#include "sbat/csv.h"
#include "sbat/level.h"

#define HDR "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
#define GRUB3 HDR "grub,3,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n"
#define L "sbat,1,2024010900\n"

/* One SbatLevel text (level_len 0: strlen) read from SbatLevelRT, and one image's .sbat judged by it. */
typedef struct level_case {
	const char *rule; /* what shim does, and where */
	const char *level;
	size_t level_len;
	const char *image;
	int accepted; /* shim's parse_sbat_var accepts the level */
	const char *what;
	unsigned line, field;
	size_t n_revoked; /* rows of image below the level (verify_sbat) */
} level_case;

static const level_case cases[] = {
	/* csv.c parse_csv_data: how rows are found */
	{ "a row per LF", L "grub,4\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_csv_data: a lone CR ends a row", L "grub,4\r", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_csv_data: CR LF ends a row", "sbat,1,2024010900\r\ngrub,4\r\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_csv_data: blank lines are skipped", L "\n\r\n\ngrub,4\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_csv_data: no line end after the last row", L "grub,4", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "is_utf8_bom: a UTF-8 BOM is skipped", "\xef\xbb\xbf" L "grub,4\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_csv_data: a NUL right after a row's line end ends the text", L "\0grub,4\n",
	  sizeof(L "\0grub,4\n") - 1, GRUB3, 1, NULL, 0, 0, 0 },
	{ "parse_csv_data: a NUL after a run of line ends is passed over", L "\n\0grub,4\n",
	  sizeof(L "\n\0grub,4\n") - 1, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_csv_data: ... after CR LF too", "sbat,1,2024010900\r\n\0grub,4\n",
	  sizeof("sbat,1,2024010900\r\n\0grub,4\n") - 1, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_csv_data: a NUL inside a row ends the row and the text", L "shim,1\0\ngrub,9\n",
	  sizeof(L "shim,1\0\ngrub,9\n") - 1, GRUB3, 1, NULL, 0, 0, 0 },
	{ "parse_sbat_var_data: line ends only: no row, and nothing is revoked", "\r\n\n", 0, GRUB3, 1, NULL, 0, 0, 0 },
	/* csv.c parse_csv_line (3 columns) and sbat.c parse_sbat_var_data: the fields */
	{ "parse_csv_line: what follows a third field is ignored", L "grub,4,x,y,z\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_sbat_var_data: a third field is kept, never judged", L "grub,4,not-a-date\n", 0, GRUB3, 1, NULL, 0, 0,
	  1 },
	{ "parse_sbat_var_data: fewer than 2 fields is refused", L "grub\n", 0, GRUB3, 0, "fewer than 2 fields", 2, 0,
	  0 },
	{ "parse_sbat_var_data: an empty name is refused", L ",4\n", 0, GRUB3, 0, "empty field", 2, 1, 0 },
	{ "parse_sbat_var_data: an empty generation is refused", L "grub,\n", 0, GRUB3, 0, "empty field", 2, 2, 0 },
	{ "parse_sbat_var_data: a trailing comma (empty third field) is refused", L "grub,4,\n", 0, GRUB3, 0,
	  "empty field", 2, 3, 0 },
	{ "parse_sbat_var_data: an empty fourth field is not looked at", L "grub,4,x,\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_sbat_var_data: no header row is required", "grub,4\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "parse_sbat_var_data: the header's datestamp is not judged", "sbat,1,2024\ngrub,4\n", 0, GRUB3, 1, NULL, 0, 0,
	  1 },
	{ "parse_sbat_var_data: any byte but NUL, CR, LF and comma is in a name",
	  L "gr\xc3\xbc"
	    "b\t,4\n",
	  0, GRUB3, 1, NULL, 0, 0, 0 },
	{ "parse_sbat_var_data: the empty text is refused", "", 0, GRUB3, 0, "SbatLevel is empty", 0, 0, 0 },
	/* sbat.c verify_single_entry: atoi (Cryptlib AsciiStrDecimalToUintn) into a UINT16 */
	{ "atoi: leading zeros", L "grub,0004\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "atoi: leading blanks", L "grub, \t4\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "atoi: the digits up to the first other byte", L "grub,4a\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "atoi: a sign is no digit: 0", L "grub,+4\n", 0, GRUB3, 1, NULL, 0, 0, 0 },
	{ "atoi: no digits: 0", L "grub,four\n", 0, GRUB3, 1, NULL, 0, 0, 0 },
	{ "atoi: generation 0 revokes nothing", L "grub,0\n", 0, GRUB3, 1, NULL, 0, 0, 0 },
	{ "UINT16: 65540 is 4", L "grub,65540\n", 0, GRUB3, 1, NULL, 0, 0, 1 },
	{ "UINT16: 65536 is 0", L "grub,65536\n", 0, GRUB3, 1, NULL, 0, 0, 0 },
	{ "atoi on the image's row too: \" 03\" is 3", L "grub,4\n", 0,
	  HDR "grub, 03,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n", 1, NULL, 0, 0, 1 },
	{ "atoi on the image's row: 65539 is 3", L "grub,4\n", 0,
	  HDR "grub,65539,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n", 1, NULL, 0, 0, 1 },
	/* sbat.c verify_sbat_helper / verify_single_entry: which row counts */
	{ "strcmp: names are compared byte for byte", L "GRUB,9\ngrub.debian,9\ngrub ,9\n", 0, GRUB3, 1, NULL, 0, 0,
	  0 },
	{ "verify_sbat_helper: only the first row of a name counts", L "grub,2\ngrub,9\n", 0, GRUB3, 1, NULL, 0, 0, 0 },
	{ "verify_sbat_helper: the header row is compared like any other", "sbat,2,2024010900\n", 0, GRUB3, 1, NULL, 0,
	  0, 1 },
	{ "verify_single_entry: equal generations pass", L "grub,3\n", 0, GRUB3, 1, NULL, 0, 0, 0 },
};

/* The efivarfs file of SbatLevelRT holding text[0..len). */
static uint8_t *
efivar(const char *text, size_t len, size_t *ret_len)
{
	uint8_t *b = malloc(4 + len + 1);

	assert_non_null(b);
	b[0] = 6;
	b[1] = b[2] = b[3] = 0;
	memcpy(b + 4, text, len);
	*ret_len = 4 + len;
	return b;
}

static void
check_case(const level_case *c)
{
	size_t len = c->level_len ? c->level_len : strlen(c->level), blen, n = 99;
	uint8_t *b = efivar(c->level, len, &blen);
	sbat_level *level = NULL;
	sbat_csv *csv = NULL;
	sbat_diag d;
	sbat_err r;

	print_message("%s\n", c->rule);
	memset(&d, 0, sizeof(d));
	r = sbat_level_from_efivar(b, blen, NULL, &level, &d);
	free(b);
	if (!c->accepted) {
		assert_int_equal(r, SBAT_E_LEVEL);
		assert_null(level);
		assert_string_equal(d.what, c->what);
		assert_int_equal(d.line, c->line);
		assert_int_equal(d.field, c->field);
		return;
	}
	assert_int_equal(r, SBAT_OK);
	assert_int_equal(sbat_csv_parse_shim((const uint8_t *)c->image, strlen(c->image), &csv, &d), SBAT_OK);
	assert_int_equal(sbat_level_check(level, csv, NULL, 0, &n, &d), SBAT_OK);
	assert_int_equal(n, c->n_revoked);
	/* the same text given directly (not through efivarfs) is read alike */
	sbat_level_free(level);
	assert_int_equal(sbat_level_parse_shim((const uint8_t *)c->level, len, &level, &d), SBAT_OK);
	assert_int_equal(sbat_level_check(level, csv, NULL, 0, &n, &d), SBAT_OK);
	assert_int_equal(n, c->n_revoked);
	sbat_level_free(level);
	sbat_csv_free(csv);
}

static void
test_shim_rules(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
}

/* What the table cannot say: names, lines and the datestamp as read. */
static void
test_shim_entries(void **state)
{
	static const char text[] = "\xef\xbb\xbfsbat,1,2024010900\r\rshim,04,x,y\n\n\0grub,+2\n";
	sbat_level *level = NULL;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_level_parse_shim((const uint8_t *)text, sizeof(text) - 1, &level, &d), SBAT_OK);
	assert_string_equal(level->datestamp, "2024010900");
	assert_int_equal(level->n_entries, 3);
	assert_string_equal(level->entries[0].component_name, "sbat");
	assert_int_equal(level->entries[0].generation, 1);
	assert_string_equal(level->entries[1].component_name, "shim");
	assert_int_equal(level->entries[1].generation, 4);
	assert_int_equal(level->entries[1].line, 1);
	assert_string_equal(level->entries[2].component_name, "grub");
	assert_int_equal(level->entries[2].generation, 0);
	assert_int_equal(level->entries[2].line, 3);
	sbat_level_free(level);
	assert_int_equal(sbat_level_parse_shim(NULL, 4, &level, &d), SBAT_E_LEVEL);
}

/* The image's .sbat goes through the same parse_csv_data: a row behind a NUL after a run of line ends counts. */
static void
test_image_row_behind_nul(void **state)
{
	static const char padded[] = HDR "\n\0grub,3,Free Software Foundation,grub,2.06,https://www.gnu.org/\n\0\0";
	static const char ended[] = HDR "\0\ngrub,3,Free Software Foundation,grub,2.06,https://www.gnu.org/\n\0\0";
	sbat_level *level = NULL;
	sbat_csv *csv = NULL;
	size_t n = 0;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_level_parse_shim((const uint8_t *)L "grub,4\n", strlen(L "grub,4\n"), &level, &d),
	                 SBAT_OK);
	assert_int_equal(sbat_csv_parse_shim((const uint8_t *)padded, sizeof(padded) - 1, &csv, &d), SBAT_OK);
	assert_int_equal(csv->n_entries, 2);
	assert_int_equal(sbat_level_check(level, csv, NULL, 0, &n, &d), SBAT_OK);
	assert_int_equal(n, 1);
	sbat_csv_free(csv);
	/* a NUL right after the header's line end ends the text: grub,3 is never read */
	assert_int_equal(sbat_csv_parse_shim((const uint8_t *)ended, sizeof(ended) - 1, &csv, &d), SBAT_OK);
	assert_int_equal(csv->n_entries, 1);
	assert_int_equal(sbat_level_check(level, csv, NULL, 0, &n, &d), SBAT_OK);
	assert_int_equal(n, 0);
	sbat_csv_free(csv);
	sbat_level_free(level);
}

#define SHIM_SBAT HDR "shim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n"
#define AUTOMATIC "sbat,1,2024010900\nshim,2\ngrub,3\n"

/* A stored level, kept (its datestamp is newer than shim's payloads), and what shim then does. */
typedef struct stored_case {
	const char *rule;
	const char *stored;
	size_t stored_len;
	int shim_stops;
} stored_case;

static const stored_case stored_cases[] = {
	{ "efi_main: a stored level shim reads that passes shim goes on (lone CR, 4th field, atoi)",
	  "sbat,1,2099010100\rshim,04,x,y\ngrub,+9\n\n", 0, 0 },
	{ "efi_main: a stored level whose row after a NUL passes shim goes on", "sbat,1,2099010100\n\n\0shim,4\n",
	  sizeof("sbat,1,2099010100\n\n\0shim,4\n") - 1, 0 },
	{ "efi_main SBAT self-check: a stored level that revokes shim stops it", "sbat,1,2099010100\nshim,5\n", 0, 1 },
	{ "efi_main SBAT self-check: ... also behind a NUL after line ends", "sbat,1,2099010100\n\n\0shim,5\n",
	  sizeof("sbat,1,2099010100\n\n\0shim,5\n") - 1, 1 },
	{ "efi_main SBAT self-check: ... also as 65541 (5 in 16 bits)", "sbat,1,2099010100\r\nshim,65541\r\n", 0, 1 },
	{ "efi_main import of SBAT data: a kept level shim cannot parse stops it", "sbat,1,2099010100\nshim,\n", 0, 1 },
};

static void
test_stored_level(void **state)
{
	sbat_csv *shim = NULL;
	sbat_diag d;
	size_t i;

	(void)state;
	assert_int_equal(sbat_csv_parse_shim((const uint8_t *)SHIM_SBAT, strlen(SHIM_SBAT), &shim, &d), SBAT_OK);
	for (i = 0; i < sizeof(stored_cases) / sizeof(stored_cases[0]); i++) {
		const stored_case *c = &stored_cases[i];
		sbat_next_inputs in;
		sbat_next_boot b;

		print_message("%s\n", c->rule);
		memset(&in, 0, sizeof(in));
		in.secure_boot = 1;
		in.policy = SBAT_POLICY_ABSENT;
		in.current = (const uint8_t *)c->stored;
		in.current_len = c->stored_len ? c->stored_len : strlen(c->stored);
		in.automatic = in.latest = AUTOMATIC;
		in.shim_sbat = shim;
		assert_int_equal(sbat_next_boot_predict(&in, &b, &d), SBAT_OK);
		assert_int_equal(b.builtin.rule, SBAT_NEXT_KEPT_DATESTAMP);
		assert_int_equal(b.shim_stops, c->shim_stops);
		if (!c->shim_stops) {
			assert_int_equal(b.enforced_len, in.current_len);
			assert_memory_equal(b.enforced, in.current, in.current_len);
		}
	}
	sbat_csv_free(shim);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shim_rules),
		cmocka_unit_test(test_shim_entries),
		cmocka_unit_test(test_image_row_behind_nul),
		cmocka_unit_test(test_stored_level),
	};

	return run_group(tests, NULL, NULL);
}
