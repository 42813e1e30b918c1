/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-pe-parse.c - the value model of well-formed images of every supported kind */
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

#include "fixture.h"

static void
parse_kind(const fx_spec *spec, sbat_pe *pe, uint8_t **ret_buf, size_t *ret_len)
{
	sbat_diag d;

	assert_int_equal(fx_build(spec, ret_buf, ret_len), 0);
	memset(&d, 0, sizeof(d));
	if (pe_parse(*ret_buf, *ret_len, pe, &d) != SBAT_OK)
		fail_msg("parse failed: %s at 0x%llx", d.what, (unsigned long long)d.offset);
}

static void
test_pe_parse_plain_fields(void **state)
{
	fx_spec spec;
	sbat_pe pe;
	uint8_t *buf;
	size_t len, opt;
	unsigned i;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	parse_kind(&spec, &pe, &buf, &len);
	opt = fx_opt_offset(buf);
	assert_int_equal(pe.kind, SBAT_KIND_EFI_APP);
	assert_int_equal(pe.magic, 0x20b);
	assert_int_equal(pe.machine, 0x8664);
	assert_int_equal(pe.number_of_sections, spec.n_sections);
	assert_int_equal(pe.file_alignment, fx_le32(buf + opt + 0x24));
	assert_int_equal(pe.section_alignment, fx_le32(buf + opt + 0x20));
	assert_int_equal(pe.size_of_image, fx_le32(buf + opt + 0x38));
	assert_int_equal(pe.size_of_headers, fx_le32(buf + opt + 0x3c));
	assert_int_equal(pe.off_checksum, opt + 0x40);
	assert_int_equal(pe.section_table_offset, fx_section_table_offset(buf));
	assert_int_equal(pe.section_table_end, pe.section_table_offset + 40u * spec.n_sections);
	assert_int_equal(pe.raw_end, len);
	assert_int_equal(pe.data_end, len);
	assert_int_equal(pe.cert_size, 0);
	assert_int_equal(pe.sbat_index, -1);
	assert_int_equal(pe.sbat_count, 0);
	for (i = 0; i < pe.number_of_sections; i++) {
		const uint8_t *h = buf + pe.section_table_offset + 40u * i;

		assert_memory_equal(pe.sections[i].name, h, 8);
		assert_int_equal(pe.sections[i].virtual_size, fx_le32(h + 8));
		assert_int_equal(pe.sections[i].virtual_address, fx_le32(h + 12));
		assert_int_equal(pe.sections[i].size_of_raw_data, fx_le32(h + 16));
		assert_int_equal(pe.sections[i].pointer_to_raw_data, fx_le32(h + 20));
		assert_int_equal(pe.sections[i].header_offset, (uint64_t)(h - buf));
	}
	assert_string_equal(sbat_pe_machine_name(pe.machine), "x86_64");
	free(buf);
}

static void
test_pe_parse_pe32(void **state)
{
	fx_spec spec;
	sbat_pe pe;
	uint8_t *buf;
	size_t len;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.pe32plus = 0;
	spec.machine = FX_MACHINE_I386;
	parse_kind(&spec, &pe, &buf, &len);
	assert_int_equal(pe.magic, 0x10b);
	assert_int_equal(pe.off_checksum, fx_opt_offset(buf) + 0x40);
	assert_string_equal(sbat_pe_machine_name(pe.machine), "i386");
	free(buf);
}

static void
test_pe_parse_detects_kernel_kinds(void **state)
{
	static const struct {
		int fx;
		sbat_pe_kind kind;
	} cases[] = {
		{ FX_BZIMAGE_OLD, SBAT_KIND_BZIMAGE }, { FX_BZIMAGE_NEW, SBAT_KIND_BZIMAGE },
		{ FX_ARM64, SBAT_KIND_ARM64_IMAGE },   { FX_ZBOOT, SBAT_KIND_ZBOOT },
		{ FX_PLAIN, SBAT_KIND_EFI_APP },
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fx_spec spec;
		sbat_pe pe;
		uint8_t *buf;
		size_t len;

		fx_spec_init(&spec, cases[i].fx);
		parse_kind(&spec, &pe, &buf, &len);
		assert_int_equal(pe.kind, cases[i].kind);
		assert_non_null(sbat_pe_kind_name(pe.kind));
		free(buf);
	}
}

/* "HdrS" without the boot flag is not a bzImage. */
static void
test_pe_parse_hdrs_without_boot_flag(void **state)
{
	fx_spec spec;
	sbat_pe pe;
	uint8_t *buf;
	size_t len;

	(void)state;
	fx_spec_init(&spec, FX_BZIMAGE_OLD);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	buf[0x1fe] = 0;
	assert_int_equal(pe_parse(buf, len, &pe, NULL), SBAT_OK);
	assert_int_equal(pe.kind, SBAT_KIND_EFI_APP);
	free(buf);
}

static void
test_pe_parse_certificate_and_overlay(void **state)
{
	fx_spec spec;
	sbat_pe pe;
	uint8_t *buf;
	size_t len;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.overlay_len = 100;
	spec.cert_len = 0x200;
	parse_kind(&spec, &pe, &buf, &len);
	assert_int_equal(pe.cert_size, 0x200);
	assert_int_equal(pe.cert_offset + pe.cert_size, len);
	assert_true(pe.data_end >= pe.raw_end + 100);
	assert_int_equal(pe.data_end, pe.cert_offset);
	free(buf);
}

static void
test_pe_parse_sbat_data_cut_at_nul(void **state)
{
	fx_spec spec;
	fx_section s;
	sbat_pe pe;
	uint8_t *buf;
	size_t len, n;
	const uint8_t *data;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.raw_size = 0x200;
	s.content = FX_SBAT_CSV;
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_spec_insert_section(&spec, 1, &s), 0);
	parse_kind(&spec, &pe, &buf, &len);
	assert_int_equal(pe.sbat_index, 1);
	assert_int_equal(pe.sbat_count, 1);
	assert_int_equal(pe_sbat_data(&pe, buf, len, &data, &n, NULL), SBAT_OK);
	assert_int_equal(n, strlen(FX_SBAT_CSV));
	assert_memory_equal(data, FX_SBAT_CSV, n);
	free(buf);
}

/* ".sbat" must match all 8 bytes: ".sbatx" and ".sbat.1" are other sections. */
static void
test_pe_parse_sbat_name_exact(void **state)
{
	static const char *const names[] = { ".sbatx", ".sbat.1", ".SBAT", "sbat" };
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fx_spec spec;
		fx_section s;
		sbat_pe pe;
		uint8_t *buf;
		size_t len;

		memset(&s, 0, sizeof(s));
		s.name = names[i];
		s.raw_size = 0x200;
		s.content = FX_SBAT_CSV;
		fx_spec_init(&spec, FX_PLAIN);
		assert_int_equal(fx_spec_insert_section(&spec, 1, &s), 0);
		parse_kind(&spec, &pe, &buf, &len);
		assert_int_equal(pe.sbat_count, 0);
		free(buf);
	}
}

static void
test_pe_parse_sbat_data_missing_and_duplicate(void **state)
{
	fx_spec spec;
	fx_section s;
	sbat_pe pe;
	uint8_t *buf;
	size_t len, n;
	const uint8_t *data;
	sbat_diag d;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	parse_kind(&spec, &pe, &buf, &len);
	assert_int_equal(pe_sbat_data(&pe, buf, len, &data, &n, &d), SBAT_E_NO_SBAT);
	free(buf);

	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.raw_size = 0x200;
	s.content = FX_SBAT_CSV;
	assert_int_equal(fx_spec_insert_section(&spec, 1, &s), 0);
	assert_int_equal(fx_spec_insert_section(&spec, 3, &s), 0);
	parse_kind(&spec, &pe, &buf, &len);
	assert_int_equal(pe.sbat_count, 2);
	assert_int_equal(pe_sbat_data(&pe, buf, len, &data, &n, &d), SBAT_E_SBAT_DUPLICATE);
	free(buf);
}

static void
test_pe_parse_every_error_has_text(void **state)
{
	int code;

	(void)state;
	for (code = 0; code < SBAT__ERR_MAX; code++)
		assert_string_not_equal(sbat_strerror((sbat_err)code), "unknown error");
	assert_string_equal(sbat_strerror(SBAT__ERR_MAX), "unknown error");
}

/* The public handle reports what the model holds, and finds sections by name. */
static void
test_image_accessors(void **state)
{
	fx_spec spec;
	fx_section s;
	sbat_pe pe;
	sbat_image *img;
	const sbat_image_info *info;
	const sbat_section_info *sec;
	const uint8_t *data;
	uint8_t *buf;
	size_t len, n;
	unsigned i;
	sbat_diag d;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.raw_size = 0x200;
	s.content = FX_SBAT_CSV;
	fx_spec_init(&spec, FX_PLAIN);
	spec.overlay_len = 40;
	assert_int_equal(fx_spec_insert_section(&spec, 3, &s), 0);
	parse_kind(&spec, &pe, &buf, &len);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	info = sbat_image_get_info(img);
	assert_int_equal(info->file_size, len);
	assert_int_equal(info->kind, pe.kind);
	assert_int_equal(info->machine, pe.machine);
	assert_int_equal(info->number_of_sections, pe.number_of_sections);
	assert_int_equal(info->size_of_headers, pe.size_of_headers);
	assert_int_equal(info->size_of_image, pe.size_of_image);
	assert_int_equal(info->section_table_end, pe.section_table_end);
	assert_int_equal(info->raw_end, pe.raw_end);
	assert_int_equal(info->data_end, len);
	assert_int_equal(info->sbat_index, 3);
	assert_false(info->sbat_ignored);
	/* FX_PLAIN: 0x100 bytes of slack after the table, SizeOfHeaders 0x400 */
	assert_int_equal(info->header_room, pe.size_of_headers - pe.section_table_end);
	for (i = 0; i < info->number_of_sections; i++) {
		sec = sbat_image_section(img, i);
		assert_non_null(sec);
		assert_string_equal(sec->name, pe.sections[i].name);
		assert_int_equal(sec->pointer_to_raw_data, pe.sections[i].pointer_to_raw_data);
		assert_int_equal(sec->header_offset, pe.sections[i].header_offset);
	}
	assert_null(sbat_image_section(img, info->number_of_sections));
	assert_int_equal(sbat_image_find_section(img, ".rodata"), 1);
	assert_int_equal(sbat_image_find_section(img, ".sbat"), 3);
	assert_int_equal(sbat_image_find_section(img, ".sba"), -1);
	assert_int_equal(sbat_image_find_section(img, ".sbatlevel"), -1);
	assert_int_equal(sbat_image_sbat_data(img, &data, &n, &d), SBAT_OK);
	assert_int_equal(n, strlen(FX_SBAT_CSV));
	assert_memory_equal(data, FX_SBAT_CSV, n);
	assert_null(sbat_image_free(img));
	free(buf);

	/* raw data shorter than the memory view (memtest86+): shim skips the section */
	s.virtual_size = 0x1000;
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_spec_insert_section(&spec, 3, &s), 0);
	parse_kind(&spec, &pe, &buf, &len);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	assert_true(sbat_image_get_info(img)->sbat_ignored);
	assert_null(sbat_image_free(img));
	free(buf);
}

/* Names longer than 8 bytes live in the COFF string table: "/4" in the header. */
static void
test_image_long_section_name(void **state)
{
	fx_spec spec;
	sbat_image *img;
	uint8_t *buf;
	size_t len, sh, strtab;
	sbat_diag d;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.overlay_len = 64;
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	/* a symbol table of 0 symbols at the overlay, its string table holding ".sbatlevel" */
	strtab = len - 64;
	fx_put32(buf + fx_opt_offset(buf) - 20 + 8, (uint32_t)strtab);
	fx_put32(buf + fx_opt_offset(buf) - 20 + 12, 0);
	fx_put32(buf + strtab, 4 + 11);
	memcpy(buf + strtab + 4, ".sbatlevel", 11);
	sh = fx_section_table_offset(buf) + 40u * 1;
	memcpy(buf + sh, "/4\0\0\0\0\0\0", 8);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	assert_int_equal(sbat_image_find_section(img, ".sbatlevel"), 1);
	assert_int_equal(sbat_image_find_section(img, ".sbatlev"), -1);
	sbat_image_free(img);
	/* the name must end inside the table's declared size */
	fx_put32(buf + strtab, 4 + 10);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	assert_int_equal(sbat_image_find_section(img, ".sbatlevel"), -1);
	sbat_image_free(img);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pe_parse_plain_fields),
		cmocka_unit_test(test_pe_parse_pe32),
		cmocka_unit_test(test_pe_parse_detects_kernel_kinds),
		cmocka_unit_test(test_pe_parse_hdrs_without_boot_flag),
		cmocka_unit_test(test_pe_parse_certificate_and_overlay),
		cmocka_unit_test(test_pe_parse_sbat_data_cut_at_nul),
		cmocka_unit_test(test_pe_parse_sbat_name_exact),
		cmocka_unit_test(test_pe_parse_sbat_data_missing_and_duplicate),
		cmocka_unit_test(test_pe_parse_every_error_has_text),
		cmocka_unit_test(test_image_accessors),
		cmocka_unit_test(test_image_long_section_name),
	};

	return run_group(tests, NULL, NULL);
}
