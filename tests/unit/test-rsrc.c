/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-rsrc.c - the resource directory reader: the Windows boot manager's SVN, and hostile resource trees */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdlib.h>
#include <string.h>

#include "sbat/sbat.h"

#include "pe/model.h"
#include "pe/rsrc.h"

#include "fixture.h"

/* A boot manager image of SVN major.minor, parsed; *rsrc: the file offset of its .rsrc, *dir2: of data directory 2. */
static uint8_t *
bootmgr(uint16_t major, uint16_t minor, size_t *len, size_t *rsrc, size_t *dir2)
{
	fx_spec spec;
	uint8_t *buf;
	sbat_pe pe;
	int i;

	fx_variant_bootmgr(&spec, major, minor);
	assert_int_equal(fx_build(&spec, &buf, len), 0);
	assert_int_equal(pe_parse(buf, *len, &pe, NULL), SBAT_OK);
	i = pe_find_section(&pe, buf, *len, ".rsrc");
	assert_true(i >= 0);
	*rsrc = pe.sections[i].pointer_to_raw_data;
	*dir2 = fx_opt_offset(buf) + 0x70 + 8 * FX_DIR_RESOURCE;
	return buf;
}

/* Parse buf and read its SVN: the call's result, *svn and *d. */
static sbat_err
read_svn(const uint8_t *buf, size_t len, rsrc_svn *svn, sbat_diag *d)
{
	sbat_pe *pe = malloc(sizeof(*pe));
	sbat_err err;

	assert_non_null(pe);
	memset(d, 0, sizeof(*d));
	assert_int_equal(pe_parse(buf, len, pe, NULL), SBAT_OK);
	err = rsrc_bootmgr_svn(pe, buf, len, svn, d);
	free(pe);
	return err;
}

static void
test_rsrc_svn_read(void **state)
{
	size_t len, rsrc, dir2;
	uint8_t *buf = bootmgr(9, 0, &len, &rsrc, &dir2);
	rsrc_svn svn;
	sbat_diag d;
	fx_spec spec;

	(void)state;
	assert_int_equal(read_svn(buf, len, &svn, &d), SBAT_OK);
	assert_true(svn.found);
	assert_int_equal(svn.major, 9);
	assert_int_equal(svn.minor, 0);
	assert_int_equal(svn.offset, rsrc + ((FX_RSRC_NAME + 2 + 2 * 28 + 3) & ~3u));
	free(buf);
	buf = bootmgr(8, 0x1234, &len, &rsrc, &dir2);
	assert_int_equal(read_svn(buf, len, &svn, &d), SBAT_OK);
	assert_true(svn.found);
	assert_int_equal(svn.major, 8);
	assert_int_equal(svn.minor, 0x1234);
	free(buf);
	/* an image without a resource directory carries none, and that is no error */
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	assert_int_equal(read_svn(buf, len, &svn, &d), SBAT_OK);
	assert_false(svn.found);
	free(buf);
}

/* One change to a well-formed boot manager image, and what the reader makes of it. */
typedef struct hostile {
	const char *what;
	int in_dir2;      /* at data directory 2 (the offset from it), else in .rsrc */
	size_t at;        /* the offset */
	int width;        /* 2 or 4 bytes */
	uint32_t value;   /* written little-endian */
	sbat_err err;     /* SBAT_OK: read, found as below */
	int found;        /* with SBAT_OK */
	const char *diag; /* a word of what the failure says */
} hostile;

#define T FX_RSRC_TYPE
#define L FX_RSRC_LANG
#define DE FX_RSRC_DATA_ENTRY
#define N FX_RSRC_NAME

static const hostile cases[] = {
	{ "root: 0xffff ID entries", 0, 14, 2, 0xffff, SBAT_E_PE_FIELD, 0, "4096" },
	{ "root: 100 ID entries, past the directory", 0, 14, 2, 100, SBAT_E_PE_TRUNCATED, 0, "past the end" },
	{ "root: the type entry names data", 0, 28, 4, T, SBAT_E_PE_FIELD, 0, "names data" },
	{ "root: the type's directory far away", 0, 28, 4, 0xfffffff0u, SBAT_E_PE_TRUNCATED, 0, "past the end" },
	{ "root: no RT_RCDATA", 0, 24, 4, 11, SBAT_OK, 0, NULL },
	{ "root: an ID entry with a high bit is no type", 0, 24, 4, 0x8000000au, SBAT_OK, 0, NULL },
	{ "type: a named entry without a name string", 0, T + 16, 4, N, SBAT_E_PE_FIELD, 0, "no name string" },
	{ "type: the name string past the directory", 0, T + 16, 4, 0x80000200u, SBAT_E_PE_TRUNCATED, 0,
	  "name string" },
	{ "type: the name string's length 0xffff", 0, N, 2, 0xffff, SBAT_E_PE_TRUNCATED, 0, "name string" },
	{ "type: the name 27 units, a prefix", 0, N, 2, 27, SBAT_OK, 0, NULL },
	{ "type: the name's last unit other", 0, N + 2 + 2 * 27, 2, 'Q', SBAT_OK, 0, NULL },
	{ "type: the name's last unit with a high byte", 0, N + 2 + 2 * 27, 2, 0x0152, SBAT_OK, 0, NULL },
	{ "type: no named entry, one ID entry", 0, T + 12, 4, 0x00010000u, SBAT_OK, 0, NULL },
	{ "type: 0xffff named entries", 0, T + 12, 2, 0xffff, SBAT_E_PE_FIELD, 0, "4096" },
	{ "type: the named entry leads straight to the data entry", 0, T + 20, 4, DE, SBAT_OK, 1, NULL },
	{ "type: the named entry leads back to the root", 0, T + 20, 4, 0x80000000u, SBAT_E_PE_FIELD, 0,
	  "names a directory" },
	{ "type: the named entry leads to an empty directory", 0, T + 20, 4, 0x80000000u | FX_RSRC_EMPTY,
	  SBAT_E_PE_FIELD, 0, "no language entry" },
	{ "language: the data entry past the directory", 0, L + 20, 4, 0x1f8, SBAT_E_PE_TRUNCATED, 0, "data entry" },
	{ "data entry: its RVA in no section", 0, DE, 4, 0xfffffff0u, SBAT_E_PE_FIELD, 0, "does not lie in the file" },
	{ "data entry: Size 0xffffffff", 0, DE + 4, 4, 0xffffffffu, SBAT_E_PE_FIELD, 0, "does not lie in the file" },
	{ "data entry: Size 8", 0, DE + 4, 4, 8, SBAT_E_PE_FIELD, 0, "not 4 bytes" },
	{ "data entry: Size 3", 0, DE + 4, 4, 3, SBAT_E_PE_FIELD, 0, "not 4 bytes" },
	{ "data directory 2: in no section", 1, 0, 4, 0x900000u, SBAT_E_PE_FIELD, 0, "data directory 2" },
	{ "data directory 2: larger than the section's file data", 1, 4, 4, 0x10000u, SBAT_E_PE_FIELD, 0,
	  "data directory 2" },
	{ "data directory 2: 8 bytes, shorter than the root table", 1, 4, 4, 8, SBAT_E_PE_TRUNCATED, 0,
	  "past the end" },
	{ "data directory 2: empty", 1, 4, 4, 0, SBAT_OK, 0, NULL },
};

static void
test_rsrc_hostile(void **state)
{
	size_t len, rsrc, dir2, i;
	uint8_t *buf = bootmgr(9, 0, &len, &rsrc, &dir2), *copy = malloc(len);
	rsrc_svn svn;
	sbat_diag d;
	sbat_err err;

	(void)state;
	assert_non_null(copy);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const hostile *c = &cases[i];
		size_t at = (c->in_dir2 ? dir2 : rsrc) + c->at;

		memcpy(copy, buf, len);
		if (c->width == 2)
			fx_put16(copy + at, (uint16_t)c->value);
		else
			fx_put32(copy + at, c->value);
		err = read_svn(copy, len, &svn, &d);
		if (err != c->err || (err == SBAT_OK && svn.found != c->found))
			fail_msg("%s: %s (found %d), %s", c->what, sbat_strerror(err), svn.found, d.what ? d.what : "");
		if (err == SBAT_OK)
			continue;
		assert_non_null(d.what);
		if (!strstr(d.what, c->diag))
			fail_msg("%s: \"%s\" does not say \"%s\"", c->what, d.what, c->diag);
		assert_true(d.has_offset);
		if (d.offset >= len)
			fail_msg("%s: offset 0x%llx past the file", c->what, (unsigned long long)d.offset);
		assert_false(svn.found);
	}
	free(copy);
	free(buf);
}

/* Every byte of the resource directory and of data directory 2 set to 0, 0x7f, 0x80 and 0xff: no crash, no read outside. */
static void
test_rsrc_every_byte(void **state)
{
	static const uint8_t values[] = { 0x00, 0x7f, 0x80, 0xff };
	size_t len, rsrc, dir2, i, k;
	uint8_t *buf = bootmgr(9, 0, &len, &rsrc, &dir2), *copy;
	rsrc_svn svn;
	sbat_diag d;
	sbat_err err;

	(void)state;
	for (i = 0; i < 0x200 + 8; i++) {
		size_t at = i < 0x200 ? rsrc + i : dir2 + (i - 0x200);

		for (k = 0; k < sizeof(values); k++) {
			/* an exact-size copy, so that a read past the end is seen by the sanitizers */
			copy = malloc(len);
			assert_non_null(copy);
			memcpy(copy, buf, len);
			copy[at] = values[k];
			err = read_svn(copy, len, &svn, &d);
			if (err != SBAT_OK && (err != SBAT_E_PE_FIELD && err != SBAT_E_PE_TRUNCATED))
				fail_msg("byte 0x%zx = 0x%02x: %s", at, values[k], sbat_strerror(err));
			if (err != SBAT_OK && (!d.what || !d.has_offset || d.offset >= len))
				fail_msg("byte 0x%zx = 0x%02x: a failure without a field and offset", at, values[k]);
			if (err == SBAT_OK && svn.found && svn.offset + 4 > len)
				fail_msg("byte 0x%zx = 0x%02x: the SVN lies outside the file", at, values[k]);
			free(copy);
		}
	}
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsrc_svn_read),
		cmocka_unit_test(test_rsrc_hostile),
		cmocka_unit_test(test_rsrc_every_byte),
	};

	return run_group(tests, NULL, NULL);
}
