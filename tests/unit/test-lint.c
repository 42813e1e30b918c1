/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-lint.c - each lint rule fires on the image that breaks it, and only there */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sbat.h"

#include "edit_buf.h"
#include "fixture.h"

#define MAX_FOUND 64

typedef struct found {
	unsigned n;
	sbat_lint_finding f[MAX_FOUND];
} found;

static int
collect(void *ctx, const sbat_lint_finding *f)
{
	found *fd = ctx;

	if (fd->n < MAX_FOUND)
		fd->f[fd->n++] = *f;
	return 0;
}

static found
lint_buf(const uint8_t *buf, size_t len, sbat_lint_counts *counts)
{
	sbat_image *img;
	found fd;
	sbat_diag d;

	memset(&fd, 0, sizeof(fd));
	if (sbat_image_parse(buf, len, &img, &d) != SBAT_OK)
		fail_msg("parse: %s", d.what);
	assert_int_equal(sbat_lint(img, collect, &fd, counts), SBAT_OK);
	sbat_image_free(img);
	return fd;
}

/* The finding for rule, or NULL. */
static const sbat_lint_finding *
has(const found *fd, const char *rule)
{
	unsigned i;

	for (i = 0; i < fd->n; i++)
		if (strcmp(fd->f[i].rule, rule) == 0)
			return &fd->f[i];
	return NULL;
}

static void
expect(const found *fd, const char *rule, sbat_lint_severity severity, unsigned loader)
{
	const sbat_lint_finding *f = has(fd, rule);

	if (!f) {
		unsigned i;

		for (i = 0; i < fd->n; i++)
			print_message("found %s\n", fd->f[i].rule);
		fail_msg("rule %s did not fire", rule);
	}
	assert_int_equal(f->severity, severity);
	assert_true(f->loaders & loader);
	assert_non_null(f->what);
}

/* An image with a .sbat (content given) as section `at`; raw bytes 0x200. */
static void
with_sbat(fx_spec *spec, int kind, unsigned at, const char *csv)
{
	fx_section s;

	fx_spec_init(spec, kind);
	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.raw_size = 0x200;
	s.content = csv;
	assert_int_equal(fx_spec_insert_section(spec, at, &s), 0);
}

static uint8_t *
section_header(uint8_t *buf, unsigned i)
{
	return buf + fx_section_table_offset(buf) + 40u * i;
}

/* What sbat-add writes lints clean, for every kind (notes aside). */
static void
test_lint_sbat_add_output_is_clean(void **state)
{
	static const int kinds[] = { FX_PLAIN, FX_BZIMAGE_OLD, FX_BZIMAGE_NEW, FX_ARM64, FX_ZBOOT };
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		fx_spec spec;
		uint8_t *in, *out;
		size_t len, out_len;
		sbat_lint_counts c;

		fx_spec_init(&spec, kinds[k]);
		spec.set_checksum = kinds[k] == FX_PLAIN;
		assert_int_equal(fx_build(&spec, &in, &len), 0);
		assert_int_equal(edit_buf(in, len, (const uint8_t *)FX_SBAT_CSV, strlen(FX_SBAT_CSV), NULL, &out,
		                          &out_len, NULL, NULL),
		                 SBAT_OK);
		lint_buf(out, out_len, &c);
		if (c.errors || c.warnings)
			fail_msg("kind %d: %u errors, %u warnings", kinds[k], c.errors, c.warnings);
		free(in);
		free(out);
	}
}

/* objcopy's recipe: .sbat first in the table with a VirtualAddress of 0. */
static void
test_lint_section_in_headers(void **state)
{
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	sbat_lint_counts c;
	found fd;

	(void)state;
	with_sbat(&spec, FX_PLAIN, 3, FX_SBAT_CSV);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fx_put32(section_header(buf, 3) + 12, 0);
	fd = lint_buf(buf, len, &c);
	expect(&fd, "section-in-headers", SBAT_LINT_ERROR, SBAT_LOADER_SHIM);
	expect(&fd, "section-in-headers", SBAT_LINT_ERROR, SBAT_LOADER_EDK2);
	assert_int_equal(has(&fd, "section-in-headers")->section, 3);
	assert_true(c.errors >= 1);
	free(buf);
}

static void
test_lint_sbat_rules(void **state)
{
	static const char five_fields[] =
	    "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	    "memtest86+,1,Memtest86+,6.10,https://memtest.org\n";
	static const char lax[] = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	                          "tool,1,V,tool,1.0, https://example.org\n";
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	found fd;

	(void)state;
	/* memtest86+ 6.10: a 5-field row that shim cannot parse */
	with_sbat(&spec, FX_PLAIN, 3, five_fields);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "sbat-unparsable", SBAT_LINT_ERROR, SBAT_LOADER_SHIM);
	free(buf);
	/* shim parses it, the format forbids it */
	with_sbat(&spec, FX_PLAIN, 3, lax);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fd = lint_buf(buf, len, NULL);
	assert_null(has(&fd, "sbat-unparsable"));
	expect(&fd, "sbat-invalid", SBAT_LINT_WARNING, SBAT_LOADER_SHIM);
	/* relocations; VirtualSize shorter than the CSV; raw below virtual */
	fx_put32(section_header(buf, 3) + 24, 0x400);
	fx_put32(section_header(buf, 3) + 8, 16);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "sbat-relocations", SBAT_LINT_ERROR, SBAT_LOADER_SHIM);
	expect(&fd, "sbat-virtual-size-short", SBAT_LINT_WARNING, SBAT_LOADER_SHIM);
	fx_put32(section_header(buf, 3) + 8, 0x800);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "sbat-ignored", SBAT_LINT_ERROR, SBAT_LOADER_SHIM);
	free(buf);
	/*
	 * memtest86+ 6.00 and 7.20 have both: raw 0x200 below virtual 0x1000,
	 * and the 5-field row. shim ignores the section and never parses it, so
	 * the row breaks the format (a warning), not shim's parser.
	 */
	with_sbat(&spec, FX_PLAIN, 3, five_fields);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fx_put32(section_header(buf, 3) + 8, 0x1000);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "sbat-ignored", SBAT_LINT_ERROR, SBAT_LOADER_SHIM);
	assert_null(has(&fd, "sbat-unparsable"));
	expect(&fd, "sbat-invalid", SBAT_LINT_WARNING, SBAT_LOADER_SHIM);
	free(buf);
}

/* A UTF-8 vendor name: shim's parser counts fields and takes it; only the format's ASCII rule is broken. */
static void
test_lint_sbat_utf8_vendor(void **state)
{
	static const char utf8[] = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	                           "tool,1,Fr\xc3\xa9"
	                           "d\xc3\xa9"
	                           "ric,tool,1.0,https://example.org\n";
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	found fd;

	(void)state;
	with_sbat(&spec, FX_PLAIN, 3, utf8);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fd = lint_buf(buf, len, NULL);
	assert_null(has(&fd, "sbat-unparsable"));
	expect(&fd, "sbat-invalid", SBAT_LINT_WARNING, SBAT_LOADER_SHIM);
	free(buf);
}

/* An unaligned .sbat VirtualAddress: shim 16.1 warns and loads it, so only strict loaders care. */
static void
test_lint_sbat_va_unaligned_not_shim(void **state)
{
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	found fd;
	const sbat_lint_finding *f;
	unsigned i;

	(void)state;
	with_sbat(&spec, FX_PLAIN, 3, FX_SBAT_CSV);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fx_put32(section_header(buf, 3) + 12, fx_le32(section_header(buf, 3) + 12) + 0x10);
	fd = lint_buf(buf, len, NULL);
	f = has(&fd, "va-unaligned");
	assert_non_null(f);
	assert_int_equal(f->section, 3);
	assert_true(f->loaders & SBAT_LOADER_STRICT);
	assert_false(f->loaders & SBAT_LOADER_SHIM);
	for (i = 0; i < fd.n; i++)
		if (strcmp(fd.f[i].rule, "va-unaligned") == 0)
			assert_int_equal(fd.f[i].section, 3);
	free(buf);
}

/* Two separate gaps in memory: each is reported, not only the first. */
static void
test_lint_every_va_gap(void **state)
{
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	found fd;
	unsigned i, n = 0;
	int seen1 = 0, seen3 = 0;

	(void)state;
	with_sbat(&spec, FX_PLAIN, 3, FX_SBAT_CSV);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	/* .rodata and .sbat each one page higher than the aligned end of the section before */
	fx_put32(section_header(buf, 1) + 12, fx_le32(section_header(buf, 1) + 12) + 0x1000);
	fx_put32(section_header(buf, 2) + 12, fx_le32(section_header(buf, 2) + 12) + 0x1000);
	fx_put32(section_header(buf, 3) + 12, fx_le32(section_header(buf, 3) + 12) + 0x3000);
	fx_put32(buf + fx_opt_offset(buf) + 0x38, fx_le32(buf + fx_opt_offset(buf) + 0x38) + 0x3000);
	fd = lint_buf(buf, len, NULL);
	for (i = 0; i < fd.n; i++) {
		if (strcmp(fd.f[i].rule, "va-not-adjacent") != 0)
			continue;
		n++;
		seen1 |= fd.f[i].section == 1;
		seen3 |= fd.f[i].section == 3;
	}
	assert_int_equal(n, 2);
	assert_true(seen1);
	assert_true(seen3);
	free(buf);
}

static void
test_lint_sbat_not_terminated_duplicate_missing(void **state)
{
	char csv[0x201];
	fx_spec spec;
	fx_section s;
	uint8_t *buf;
	size_t len, n;
	found fd;

	(void)state;
	/* a CSV that fills SizeOfRawData to the last byte */
	n = (size_t)snprintf(csv, sizeof(csv), "%s", FX_SBAT_CSV);
	memcpy(csv + n, "pad,1,a,b,c,", 12);
	memset(csv + n + 12, 'x', 0x200 - n - 13);
	csv[0x1ff] = '\n';
	csv[0x200] = '\0';
	with_sbat(&spec, FX_PLAIN, 3, csv);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "sbat-not-terminated", SBAT_LINT_WARNING, SBAT_LOADER_SHIM);
	assert_null(has(&fd, "sbat-invalid"));
	free(buf);

	with_sbat(&spec, FX_PLAIN, 3, FX_SBAT_CSV);
	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.raw_size = 0x200;
	s.content = FX_SBAT_CSV;
	assert_int_equal(fx_spec_insert_section(&spec, 1, &s), 0);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "sbat-duplicate", SBAT_LINT_ERROR, SBAT_LOADER_SHIM);
	free(buf);

	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "sbat-missing", SBAT_LINT_WARNING, SBAT_LOADER_SHIM);
	free(buf);
	fx_spec_init(&spec, FX_BZIMAGE_NEW);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "sbat-missing", SBAT_LINT_NOTE, SBAT_LOADER_SHIM);
	free(buf);
}

/* Layout rules: unaligned and non-adjacent VAs, overlapping raw data, a stale CheckSum, W+X, SizeOfImage. */
static void
test_lint_layout_rules(void **state)
{
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	found fd;

	(void)state;
	with_sbat(&spec, FX_PLAIN, 3, FX_SBAT_CSV);
	spec.set_checksum = 1;
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fd = lint_buf(buf, len, NULL);
	assert_int_equal(fd.n, 0);
	/* .rodata's VA moved by 0x100: unaligned and no longer adjacent */
	fx_put32(section_header(buf, 1) + 12, fx_le32(section_header(buf, 1) + 12) + 0x100);
	/* .data's raw data now starts inside .rodata's */
	fx_put32(section_header(buf, 2) + 20, fx_le32(section_header(buf, 1) + 20));
	/* .text writable as well as executable */
	fx_put32(section_header(buf, 0) + 36, 0xe0000020u);
	/* SizeOfImage cut below the last section's end, and not a multiple of SectionAlignment */
	fx_put32(buf + fx_opt_offset(buf) + 0x38, 0x5400);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "va-unaligned", SBAT_LINT_WARNING, SBAT_LOADER_STRICT);
	expect(&fd, "va-not-adjacent", SBAT_LINT_WARNING, SBAT_LOADER_STRICT);
	expect(&fd, "raw-overlap", SBAT_LINT_WARNING, SBAT_LOADER_SIGNING);
	expect(&fd, "section-write-execute", SBAT_LINT_WARNING, SBAT_LOADER_SHIM);
	expect(&fd, "checksum-stale", SBAT_LINT_WARNING, SBAT_LOADER_SIGNING);
	expect(&fd, "section-outside-image", SBAT_LINT_ERROR, SBAT_LOADER_EDK2);
	expect(&fd, "size-of-image-unaligned", SBAT_LINT_WARNING, SBAT_LOADER_STRICT);
	free(buf);
}

/* Signatures, stripped relocations, and kernels whose boot header is gone. */
static void
test_lint_signature_and_kernels(void **state)
{
	fx_spec spec;
	uint8_t *buf, *longer;
	size_t len;
	found fd;

	(void)state;
	with_sbat(&spec, FX_PLAIN, 3, FX_SBAT_CSV);
	spec.cert_len = 64;
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "signed", SBAT_LINT_NOTE, SBAT_LOADER_SIGNING);
	assert_null(has(&fd, "data-after-signature"));
	longer = calloc(1, len + 16);
	assert_non_null(longer);
	memcpy(longer, buf, len);
	fd = lint_buf(longer, len + 16, NULL);
	expect(&fd, "data-after-signature", SBAT_LINT_WARNING, SBAT_LOADER_SIGNING);
	free(longer);
	/* COFF Characteristics: IMAGE_FILE_RELOCS_STRIPPED */
	buf[fx_opt_offset(buf) - 20 + 18] |= 1;
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "relocs-stripped", SBAT_LINT_ERROR, SBAT_LOADER_SHIM);
	free(buf);

	/* a bzImage whose setup header was overwritten (as objcopy does) */
	fx_spec_init(&spec, FX_BZIMAGE_OLD);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	memset(buf + 0x1f1, 0, 0x20);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "bzimage-setup-header-lost", SBAT_LINT_ERROR, SBAT_LOADER_GRUB_LINUX);
	free(buf);
	/* systemd-stub's inner-kernel rules: raw above virtual, relocations */
	fx_spec_init(&spec, FX_ARM64);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	fx_put32(section_header(buf, 0) + 8, 0x100);
	fx_put32(section_header(buf, 1) + 24, 0x10);
	fd = lint_buf(buf, len, NULL);
	expect(&fd, "kernel-raw-above-virtual", SBAT_LINT_ERROR, SBAT_LOADER_SYSTEMD_STUB);
	expect(&fd, "kernel-section-relocations", SBAT_LINT_ERROR, SBAT_LOADER_SYSTEMD_STUB);
	free(buf);
}

static void
test_lint_names(void **state)
{
	unsigned bit;

	(void)state;
	for (bit = 1; bit <= SBAT_LOADER_SHIM_REVIEW; bit <<= 1)
		assert_non_null(sbat_lint_loader_name(bit));
	assert_null(sbat_lint_loader_name(SBAT_LOADER_SHIM_REVIEW << 1));
	assert_string_equal(sbat_lint_severity_name(SBAT_LINT_ERROR), "error");
	assert_string_equal(sbat_lint_severity_name(SBAT_LINT_WARNING), "warning");
	assert_string_equal(sbat_lint_severity_name(SBAT_LINT_NOTE), "note");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lint_sbat_add_output_is_clean),
		cmocka_unit_test(test_lint_section_in_headers),
		cmocka_unit_test(test_lint_sbat_rules),
		cmocka_unit_test(test_lint_sbat_utf8_vendor),
		cmocka_unit_test(test_lint_sbat_va_unaligned_not_shim),
		cmocka_unit_test(test_lint_every_va_gap),
		cmocka_unit_test(test_lint_sbat_not_terminated_duplicate_missing),
		cmocka_unit_test(test_lint_layout_rules),
		cmocka_unit_test(test_lint_signature_and_kernels),
		cmocka_unit_test(test_lint_names),
	};

	return run_group(tests, NULL, NULL);
}
