/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-shimload.c - the second stage shim 16.x starts, from its load options (shim's load-options.c), one row a case */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sbat/boot.h"
#include "sbat/shim.h"
#include "test-util.h"

#define SHIM "\\EFI\\debian\\shimx64.efi"

/* The boot manager's GUID as EDK2 appends it. */
static const uint8_t bds[16] = { 0x4e, 0xac, 0x08, 0x81, 0x11, 0x9f, 0x59, 0x4d,
	                         0x85, 0x0e, 0xe2, 0x1a, 0x52, 0x2c, 0x59, 0xb2 };

/* ASCII text as CHAR16 at out + *len ('|' stands for a NUL character). */
static void
put_ucs2(uint8_t *out, size_t *len, const char *text)
{
	for (; *text; text++) {
		out[(*len)++] = *text == '|' ? 0 : (uint8_t)*text;
		out[(*len)++] = 0;
	}
}

typedef struct row {
	const char *name;
	const char *options; /* CHAR16 text, '|' a NUL character */
	const char *shim;
	sbat_shim_stage2_from from;
	const char *path;
	int absolute, own_path_skipped;
} row;

static const row rows[] = {
	{ "relative word", "fedora.efi|", SHIM, SBAT_SHIM_STAGE2_OPTION, "\\EFI\\debian\\fedora.efi", 0, 0 },
	{ "absolute word", "\\EFI\\fedora\\grubx64.efi|", SHIM, SBAT_SHIM_STAGE2_OPTION, "\\EFI\\fedora\\grubx64.efi",
	  1, 0 },
	{ "\\efi\\ in lower case is not absolute: its last component next to shim", "\\efi\\fedora\\mmx64.efi|", SHIM,
	  SBAT_SHIM_STAGE2_OPTION, "\\EFI\\debian\\mmx64.efi", 0, 0 },
	{ "a path elsewhere gives its last component", "\\boot\\x\\fedora.efi|", SHIM, SBAT_SHIM_STAGE2_OPTION,
	  "\\EFI\\debian\\fedora.efi", 0, 0 },
	{ "leading spaces skipped, the word cut at a space", "   mmx64.efi --verbose|", SHIM, SBAT_SHIM_STAGE2_OPTION,
	  "\\EFI\\debian\\mmx64.efi", 0, 0 },
	{ "no .efi required", "vmlinuz|", SHIM, SBAT_SHIM_STAGE2_OPTION, "\\EFI\\debian\\vmlinuz", 0, 0 },
	{ "no NUL and no space: no word", "vmlinuz", SHIM, SBAT_SHIM_STAGE2_NO_WORD, "\\EFI\\debian\\grubx64.efi", 0,
	  0 },
	{ "a space ends an unterminated word", "fedora.efi ", SHIM, SBAT_SHIM_STAGE2_OPTION,
	  "\\EFI\\debian\\fedora.efi", 0, 0 },
	{ "spaces, then NUL: empty word", "   |", SHIM, SBAT_SHIM_STAGE2_EMPTY_WORD, "\\EFI\\debian\\grubx64.efi", 0,
	  0 },
	{ "a first NUL: no options", "|fedora.efi|", SHIM, SBAT_SHIM_STAGE2_NO_OPTIONS, "\\EFI\\debian\\grubx64.efi", 0,
	  0 },
	{ "none", "", SHIM, SBAT_SHIM_STAGE2_NO_OPTIONS, "\\EFI\\debian\\grubx64.efi", 0, 0 },
	{ "a shell command line: shim's own path skipped", "\\EFI\\debian\\shimx64.efi \\EFI\\fedora\\grubx64.efi|",
	  SHIM, SBAT_SHIM_STAGE2_OPTION, "\\EFI\\fedora\\grubx64.efi", 1, 1 },
	{ "shim's own name, any case, skipped", "SHIMX64.EFI fedora.efi|", SHIM, SBAT_SHIM_STAGE2_OPTION,
	  "\\EFI\\debian\\fedora.efi", 0, 1 },
	{ "shim's own name alone: nothing after it", "shimx64.efi|", SHIM, SBAT_SHIM_STAGE2_NO_WORD,
	  "\\EFI\\debian\\grubx64.efi", 0, 1 },
	{ "shim's directory from a path with / and doubled backslashes", "fedora.efi|", "/EFI//debian\\\\shimx64.efi",
	  SBAT_SHIM_STAGE2_OPTION, "\\EFI\\debian\\fedora.efi", 0, 0 },
	{ "shim at the root", "fedora.efi|", "\\shimx64.efi", SBAT_SHIM_STAGE2_OPTION, "\\fedora.efi", 0, 0 },
	{ "shim without a directory", "fedora.efi|", "shimx64.efi", SBAT_SHIM_STAGE2_OPTION, "fedora.efi", 0, 0 },
};

/* Checks the row against its expectations; returns whether the boot manager's GUID was cut off. */
static int
check_row(const row *r, const uint8_t *buf, size_t len)
{
	sbat_shim_stage2 s;
	sbat_diag d;

	if (sbat_shim_stage2_path(buf, len, r->shim, "grubx64.efi", &s, &d) != SBAT_OK)
		fail_msg("%s: %s", r->name, d.what);
	if (s.from != r->from || strcmp(s.path, r->path) != 0 || s.absolute != r->absolute ||
	    s.own_path_skipped != r->own_path_skipped)
		fail_msg("%s: from %s path %s absolute %d own %d", r->name, sbat_shim_stage2_from_name(s.from), s.path,
		         s.absolute, s.own_path_skipped);
	return s.bds_tag_removed;
}

static void
test_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint8_t buf[256];
		size_t len = 0;

		put_ucs2(buf, &len, rows[i].options);
		assert_false(check_row(&rows[i], len ? buf : NULL, len));
	}
}

/* The same rows with the boot manager's GUID at the end: cut off first, same answers. */
static void
test_bds_guid_cut(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint8_t buf[256];
		size_t len = 0;

		put_ucs2(buf, &len, rows[i].options);
		if (len == 0)
			continue;
		memcpy(buf + len, bds, sizeof(bds));
		assert_true(check_row(&rows[i], buf, len + sizeof(bds)));
	}
}

/* EDK2's own boot options carry only the GUID (16 bytes, not more): not cut, and no word in it. */
static void
test_bds_guid_alone(void **state)
{
	sbat_shim_stage2 s;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_shim_stage2_path(bds, sizeof(bds), SHIM, "grubx64.efi", &s, &d), SBAT_OK);
	assert_int_equal(s.from, SBAT_SHIM_STAGE2_NO_WORD);
	assert_false(s.bds_tag_removed);
	assert_string_equal(s.path, "\\EFI\\debian\\grubx64.efi");
}

static void
test_odd_size_ignored(void **state)
{
	uint8_t buf[64];
	size_t len = 0;
	sbat_shim_stage2 s;
	sbat_diag d;

	(void)state;
	put_ucs2(buf, &len, "fedora.efi|");
	buf[len++] = 'x';
	assert_int_equal(sbat_shim_stage2_path(buf, len, SHIM, "grubx64.efi", &s, &d), SBAT_OK);
	assert_int_equal(s.from, SBAT_SHIM_STAGE2_ODD_SIZE);
	assert_string_equal(s.path, "\\EFI\\debian\\grubx64.efi");
}

static void
test_windows_marker(void **state)
{
	uint8_t buf[64];
	sbat_shim_stage2 s;
	sbat_diag d;

	(void)state;
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "WINDOWS\0\x01\0\0\0\x88\0\0\0", 16);
	assert_int_equal(sbat_shim_stage2_path(buf, 32, SHIM, "grubx64.efi", &s, &d), SBAT_OK);
	assert_int_equal(s.from, SBAT_SHIM_STAGE2_WINDOWS);
	assert_string_equal(s.path, "\\EFI\\debian\\grubx64.efi");
}

/* A whole EFI_LOAD_OPTION (description L"x", File() node, end node) followed by optional; returns its length. */
static size_t
nested(uint8_t *buf, const char *optional)
{
	size_t len = 0;
	const uint8_t dp[] = { 0x04, 0x04, 0x08, 0x00, 'a', 0, 0, 0, 0x7f, 0xff, 0x04, 0x00 };

	memcpy(buf, "\x01\0\0\0", 4);
	buf[4] = sizeof(dp);
	buf[5] = 0;
	len = 6;
	put_ucs2(buf, &len, "x|");
	memcpy(buf + len, dp, sizeof(dp));
	len += sizeof(dp);
	put_ucs2(buf, &len, optional);
	return len;
}

static void
test_nested_load_option(void **state)
{
	uint8_t buf[128];
	size_t len = nested(buf, "fedora.efi|");
	sbat_shim_stage2 s;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_shim_stage2_path(buf, len, SHIM, "grubx64.efi", &s, &d), SBAT_OK);
	assert_true(s.nested_load_option);
	assert_int_equal(s.from, SBAT_SHIM_STAGE2_OPTION);
	assert_string_equal(s.path, "\\EFI\\debian\\fedora.efi");

	len = nested(buf, "");
	assert_int_equal(sbat_shim_stage2_path(buf, len, SHIM, "grubx64.efi", &s, &d), SBAT_OK);
	assert_true(s.nested_load_option);
	assert_int_equal(s.from, SBAT_SHIM_STAGE2_NO_WORD);
	assert_string_equal(s.path, "\\EFI\\debian\\grubx64.efi");

	/* an end node of 5 bytes: not a load option, so read as text */
	len = nested(buf, "fedora.efi|");
	buf[6 + 4 + 8 + 2] = 5;
	(void)sbat_shim_stage2_path(buf, len, SHIM, "grubx64.efi", &s, &d);
	assert_false(s.nested_load_option);
}

static void
test_word_not_a_path(void **state)
{
	uint8_t buf[64];
	size_t len = 0;
	sbat_shim_stage2 s;
	sbat_diag d;

	(void)state;
	put_ucs2(buf, &len, "  fe\tdora.efi|");
	assert_int_equal(sbat_shim_stage2_path(buf, len, SHIM, "grubx64.efi", &s, &d), SBAT_E_EFIVAR);
	assert_true(d.has_offset);
	assert_int_equal(d.offset, 8);
}

/* Every truncation and every byte value at every place of a nested option: an answer or an error, in bounds. */
static void
test_hostile_bytes(void **state)
{
	uint8_t buf[128], copy[128];
	size_t len = nested(buf, "fedora.efi --x|"), cut, at;
	sbat_shim_stage2 s;
	sbat_diag d;

	(void)state;
	for (cut = 0; cut <= len; cut++) {
		uint8_t *heap = malloc(cut ? cut : 1);

		assert_non_null(heap);
		memcpy(heap, buf, cut);
		(void)sbat_shim_stage2_path(heap, cut, SHIM, "grubx64.efi", &s, &d);
		free(heap);
	}
	for (at = 0; at < len; at++) {
		unsigned v;

		for (v = 0; v < 256; v++) {
			memcpy(copy, buf, len);
			copy[at] = (uint8_t)v;
			if (sbat_shim_stage2_path(copy, len, SHIM, "grubx64.efi", &s, &d) == SBAT_OK)
				assert_true(strlen(s.path) < sizeof(s.path));
		}
	}
}

static void
test_default_loader(void **state)
{
	(void)state;
	assert_string_equal(sbat_shim_default_loader(0x8664), "grubx64.efi");
	assert_string_equal(sbat_shim_default_loader(0xaa64), "grubaa64.efi");
	assert_string_equal(sbat_shim_default_loader(0x014c), "grubia32.efi");
	assert_string_equal(sbat_shim_default_loader(0x5064), "grubriscv64.efi");
	assert_string_equal(sbat_shim_stage2_from_name(SBAT_SHIM_STAGE2_WINDOWS), "windows");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_bds_guid_cut),
		cmocka_unit_test(test_bds_guid_alone),
		cmocka_unit_test(test_odd_size_ignored),
		cmocka_unit_test(test_windows_marker),
		cmocka_unit_test(test_nested_load_option),
		cmocka_unit_test(test_word_not_a_path),
		cmocka_unit_test(test_hostile_bytes),
		cmocka_unit_test(test_default_loader),
	};

	return run_group(tests, NULL, NULL);
}
