/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-fixture-selfcheck.c - checks that the PE/COFF fixture generator builds what it promises */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test-util.h"

#include "../fixtures/fixture.h"

static uint64_t
up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

static uint8_t *
build_ok(const fx_spec *spec, size_t *len)
{
	uint8_t *buf = NULL;

	assert_int_equal(fx_build(spec, &buf, len), 0);
	assert_non_null(buf);
	return buf;
}

static void
build_fails(const fx_spec *spec)
{
	uint8_t *buf = NULL;
	size_t len = 0;

	assert_int_equal(fx_build(spec, &buf, &len), -1);
	assert_null(buf);
}

/* Re-derive the layout rules from the bytes alone. */
static void
check_layout(const uint8_t *b, size_t n)
{
	size_t pe, coff, opt, tab, dirs;
	uint16_t nsec, optsz, magic;
	uint32_t fa, sa, soh, soi, nrva, sum;
	uint64_t pos, va = 0, cert_off = 0, cert_len = 0;
	unsigned i;

	assert_true(n >= 0x40);
	assert_memory_equal(b, "MZ", 2);
	pe = fx_le32(b + 0x3c);
	assert_true(pe >= 0x40 && pe + 24 <= n);
	assert_memory_equal(b + pe, "PE\0\0", 4);
	coff = pe + 4;
	nsec = fx_le16(b + coff + 2);
	optsz = fx_le16(b + coff + 16);
	assert_int_equal(fx_le16(b + coff + 18) & 0x0001, 0); /* relocations not stripped */
	opt = fx_opt_offset(b);
	assert_int_equal(opt, pe + 24);
	magic = fx_le16(b + opt);
	assert_true(magic == 0x10b || magic == 0x20b);
	nrva = fx_le32(b + opt + (magic == 0x20b ? 0x6c : 0x5c));
	dirs = opt + (magic == 0x20b ? 0x70 : 0x60);
	assert_int_equal(optsz, (magic == 0x20b ? 112 : 96) + 8 * nrva);
	tab = fx_section_table_offset(b);
	assert_int_equal(tab, opt + optsz);

	fa = fx_le32(b + opt + 0x24);
	sa = fx_le32(b + opt + 0x20);
	soi = fx_le32(b + opt + 0x38);
	soh = fx_le32(b + opt + 0x3c);
	assert_int_equal(fx_le16(b + opt + 0x44), 10);
	assert_int_equal(fx_le16(b + opt + 0x46), 0x0100);
	assert_int_equal(fx_le16(b + opt + 0x2c), 1);
	assert_true(tab + 40u * nsec <= soh);
	assert_int_equal(soh % fa, 0);
	assert_true(soh <= n);

	pos = soh;
	for (i = 0; i < nsec; i++) {
		const uint8_t *sh = b + tab + 40u * i;
		uint32_t vs = fx_le32(sh + 8), sva = fx_le32(sh + 12);
		uint32_t rs = fx_le32(sh + 16), ptr = fx_le32(sh + 20);

		if (i == 0)
			va = up(soh, sa);
		assert_int_equal(sva, va);
		if (rs) {
			assert_int_equal(ptr % fa, 0);
			assert_int_equal(ptr, up(pos, fa));
			assert_true((uint64_t)ptr + rs <= n);
			pos = (uint64_t)ptr + rs;
		} else {
			assert_int_equal(ptr, 0);
		}
		va = up(va + (vs ? vs : rs), sa);
	}
	assert_int_equal(soi, nsec ? va : up(soh, sa));

	if (nrva > 4) {
		cert_off = fx_le32(b + dirs + 32);
		cert_len = fx_le32(b + dirs + 36);
	}
	if (cert_len) {
		assert_int_equal(cert_off % 8, 0);
		assert_true(cert_off >= pos);
		assert_int_equal(cert_off + cert_len, n);
		assert_int_equal(fx_le32(b + cert_off), cert_len);
		assert_int_equal(fx_le16(b + cert_off + 4), 0x0200);
		assert_int_equal(fx_le16(b + cert_off + 6), 0x0002);
	}
	sum = fx_le32(b + opt + 0x40);
	if (sum)
		assert_int_equal(sum, fx_checksum(b, n, opt + 0x40));
}

static void
test_checksum_known(void **state)
{
	/* words 0x0001 + 0xffff fold to 0x0001, then the odd byte 0x02, then length 5 */
	static const uint8_t b[] = { 0x01, 0x00, 0xff, 0xff, 0x02 };
	static const uint8_t c[] = { 0x10, 0x00, 0xaa, 0xbb, 0xcc, 0xdd, 0x20, 0x00 };

	(void)state;
	assert_int_equal(fx_checksum(b, sizeof(b), 100), 8);
	/* the 4 bytes at offset 2 count as zero: 0x10 + 0x20 + 8 */
	assert_int_equal(fx_checksum(c, sizeof(c), 2), 0x38);
	/* unaligned checksum field: bytes 1..4 zero -> 0x0010 + 0xdd00 + 0x0020 + 8 */
	assert_int_equal(fx_checksum(c, sizeof(c), 1), 0xdd38);
	assert_int_equal(fx_checksum(c, 0, 0), 0);
}

static void
test_le_helpers(void **state)
{
	uint8_t b[4];

	(void)state;
	fx_put32(b, 0x11223344u);
	assert_int_equal(b[0], 0x44);
	assert_int_equal(b[3], 0x11);
	assert_int_equal(fx_le32(b), 0x11223344u);
	fx_put16(b, 0xa55a);
	assert_int_equal(fx_le16(b), 0xa55a);
}

static void
test_plain(void **state)
{
	fx_spec spec;
	uint8_t *b;
	size_t n, tab, i;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	b = build_ok(&spec, &n);
	check_layout(b, n);
	assert_int_equal(n, 0x2000);
	tab = fx_section_table_offset(b);
	assert_int_equal(tab, 0x188);
	assert_int_equal(fx_le32(b + fx_opt_offset(b) + 0x3c), 0x400);
	assert_int_equal(fx_le32(b + fx_opt_offset(b) + 0x38), 0x7000);
	assert_memory_equal(b + tab, ".text\0\0\0", 8);
	assert_int_equal(fx_le32(b + tab + 40 * 2 + 8), 0x3000);  /* .data VirtualSize */
	assert_int_equal(fx_le32(b + tab + 40 * 2 + 12), 0x4000); /* .data VA */
	assert_int_equal(fx_le32(b + tab + 40 * 2 + 20), 0x1e00); /* .data raw */
	/* slack between the table and SizeOfHeaders is zero; section data non-zero */
	for (i = 0x200; i < 0x400; i++)
		assert_int_equal(b[i], 0);
	for (i = 0x400; i < n; i++)
		assert_int_not_equal(b[i], 0);
	free(b);
}

static void
test_pe32(void **state)
{
	fx_spec spec;
	uint8_t *b;
	size_t n, opt;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.pe32plus = 0;
	spec.machine = FX_MACHINE_I386;
	b = build_ok(&spec, &n);
	check_layout(b, n);
	opt = fx_opt_offset(b);
	assert_int_equal(fx_le16(b + opt - 20 + 18), 0x0306);
	assert_int_equal(fx_le32(b + opt + 0x18), 0x3000);      /* BaseOfData */
	assert_int_equal(fx_le32(b + opt + 0x1c), 0x10000000u); /* ImageBase */
	assert_int_equal(fx_le32(b + opt + 0x5c), 16);
	assert_int_equal(fx_section_table_offset(b), 0x178);
	free(b);
}

static void
check_bzimage(const uint8_t *b, size_t n, size_t tab_end, uint8_t fill, unsigned setup_sects)
{
	size_t i;

	for (i = tab_end; i < 0x1ef; i++)
		assert_int_equal(b[i], fill);
	assert_int_equal(b[0x1ef], 0xff);
	assert_int_equal(b[0x1f0], 0xff);
	assert_int_equal(b[0x1f1], setup_sects);
	assert_int_equal(b[0x1fe], 0x55);
	assert_int_equal(b[0x1ff], 0xaa);
	assert_int_equal(b[0x200], 0xeb);
	assert_int_equal(0x202 + b[0x201], 0x26c);
	assert_memory_equal(b + 0x202, "HdrS", 4);
	assert_int_equal(fx_le16(b + 0x206), 0x020f);
	assert_true(n > 0x26c);
}

static void
test_bzimage_old(void **state)
{
	fx_spec spec;
	uint8_t *b;
	size_t n, tab;

	(void)state;
	fx_spec_init(&spec, FX_BZIMAGE_OLD);
	b = build_ok(&spec, &n);
	check_layout(b, n);
	tab = fx_section_table_offset(b);
	assert_int_equal(fx_le32(b + 0x3c), 0x82);
	assert_int_equal(tab, 0x13a);
	check_bzimage(b, n, tab + 3 * 40, 0x00, 31);
	assert_int_equal(fx_le32(b + tab + 12), 0x200);            /* .setup VA */
	assert_int_equal(fx_le32(b + tab + 20), 0x200);            /* .setup raw */
	assert_int_equal(fx_le32(b + tab + 40 + 36), 0x42100040u); /* .reloc */
	assert_int_equal(fx_le32(b + tab + 80 + 20), 0x4000);      /* .text raw */
	assert_int_equal(fx_le32(b + 0x1f4), 0x600);               /* syssize */
	free(b);
}

static void
test_bzimage_new(void **state)
{
	fx_spec spec;
	uint8_t *b;
	size_t n, tab;

	(void)state;
	fx_spec_init(&spec, FX_BZIMAGE_NEW);
	b = build_ok(&spec, &n);
	check_layout(b, n);
	tab = fx_section_table_offset(b);
	assert_int_equal(fx_le32(b + 0x3c), 0x40);
	assert_int_equal(tab, 0xf8);
	check_bzimage(b, n, tab + 4 * 40, 0xff, 39);
	assert_int_equal(fx_le32(b + fx_opt_offset(b) + 0x3c), 0x1000);
	assert_int_equal(fx_le32(b + tab + 12), 0x1000);
	assert_int_equal(fx_le32(b + tab + 20), 0x1000);
	assert_int_equal(fx_le32(b + tab + 120 + 8), 0x5000); /* .data VirtualSize */
	free(b);
}

static void
test_arm64(void **state)
{
	fx_spec spec;
	uint8_t *b;
	size_t n;

	(void)state;
	fx_spec_init(&spec, FX_ARM64);
	b = build_ok(&spec, &n);
	check_layout(b, n);
	assert_memory_equal(b + 0x38, "ARM\x64", 4);
	assert_int_equal(fx_le32(b + 0x3c), 0x40);
	assert_int_equal(fx_le16(b + 0x44), FX_MACHINE_ARM64);
	assert_int_equal(fx_le32(b + 0x10), fx_le32(b + fx_opt_offset(b) + 0x38));
	assert_int_equal(fx_section_table_offset(b), 0x148);
	free(b);
}

/* NOP header fill: whole 4-byte words from the section table end up to SizeOfHeaders */
static void
test_header_fill(void **state)
{
	static const uint8_t arm64_nop[4] = { 0x1f, 0x20, 0x03, 0xd5 };
	static const uint8_t riscv_nop[4] = { 0x13, 0x00, 0x00, 0x00 };
	fx_spec spec;
	uint8_t *b, *z;
	size_t n, zn, tab_end, off;
	unsigned k;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	z = build_ok(&spec, &zn);
	for (k = 0; k < 2; k++) {
		fx_spec_init(&spec, FX_PLAIN);
		spec.header_fill = k ? FX_FILL_RISCV_NOP : FX_FILL_ARM64_NOP;
		b = build_ok(&spec, &n);
		check_layout(b, n);
		tab_end = fx_section_table_offset(b) + 40u * spec.n_sections;
		assert_int_equal(tab_end % 4, 0);
		for (off = tab_end; off < 0x400; off += 4)
			assert_memory_equal(b + off, k ? riscv_nop : arm64_nop, 4);
		/* nothing else differs from the zero-filled preset */
		assert_int_equal(n, zn);
		assert_memory_equal(b, z, tab_end);
		assert_memory_equal(b + 0x400, z + 0x400, n - 0x400);
		free(b);
	}
	free(z);
}

static void
test_extras(void **state)
{
	fx_spec spec;
	uint8_t *b;
	size_t n, opt, dbg;
	uint32_t rva, ptr;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.overlay_len = 100;
	spec.symtab_in_overlay = 1;
	spec.debug_in_overlay = 1;
	spec.cert_len = 0x208;
	spec.set_checksum = 1;
	b = build_ok(&spec, &n);
	check_layout(b, n);
	opt = fx_opt_offset(b);
	assert_int_equal(fx_le32(b + opt - 20 + 8), 0x2000); /* PointerToSymbolTable */
	assert_int_equal(fx_le32(b + opt - 20 + 12), 1);
	assert_int_equal(fx_le32(b + opt + 0x70 + 32), 0x2068); /* cert: 0x2000 + 100, 8-aligned */
	rva = fx_le32(b + opt + 0x70 + 48);
	assert_true(rva >= 0x4000 && rva + 28 <= 0x4200);
	dbg = 0x1e00 + (rva - 0x4000);
	ptr = fx_le32(b + dbg + 24);
	assert_true(ptr >= 0x2000 && ptr + fx_le32(b + dbg + 16) <= 0x2000 + 100);
	assert_memory_equal(b + ptr, "RSDS", 4);
	assert_int_not_equal(fx_le32(b + opt + 0x40), 0);
	free(b);
}

static void
test_content_and_exact(void **state)
{
	fx_section s;
	fx_spec spec;
	uint8_t *b;
	size_t n, tab;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.raw_size = 0x55;
	s.raw_exact = 1;
	s.content = FX_SBAT_CSV;
	s.raw_size = (uint32_t)strlen(FX_SBAT_CSV);
	assert_int_equal(fx_spec_insert_section(&spec, 3, &s), 0);
	spec.overlay_len = 3;
	b = build_ok(&spec, &n);
	check_layout(b, n);
	tab = fx_section_table_offset(b);
	assert_int_equal(fx_le32(b + tab + 120 + 16), strlen(FX_SBAT_CSV));
	assert_int_equal(fx_le32(b + tab + 120 + 36), FX_SCN_RDATA);
	assert_memory_equal(b + fx_le32(b + tab + 120 + 20), FX_SBAT_CSV, strlen(FX_SBAT_CSV));
	assert_int_equal(n, 0x2000 + strlen(FX_SBAT_CSV) + 3);
	free(b);
}

static void
test_rejects(void **state)
{
	fx_section s;
	fx_spec spec;
	unsigned i;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.sections[0].name = ".toolongname";
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.n_sections = FX_MAX_SECTIONS + 1;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.file_align = 0x300;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.size_of_headers = 0x100; /* below the section table end */
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.size_of_headers = 0x500; /* not a multiple of FileAlignment */
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.sections[2].raw_size = 4;
	spec.sections[2].content = "longer than four";
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.cert_len = 4;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.symtab_in_overlay = 1;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.debug_in_overlay = 1;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.num_rva = 17;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.num_rva = 4;
	spec.cert_len = 0x100;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.pe_offset = 0x20;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.kind = 42;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.header_fill = 3;
	build_fails(&spec);

	/* a bzImage brings its own fill */
	fx_spec_init(&spec, FX_BZIMAGE_NEW);
	spec.header_fill = FX_FILL_ARM64_NOP;
	build_fails(&spec);

	fx_spec_init(&spec, FX_PLAIN);
	spec.overlay_len = (size_t)-1;
	build_fails(&spec);

	/* a bzImage section table may not run into the sentinel at 0x1ef */
	fx_spec_init(&spec, FX_BZIMAGE_NEW);
	memset(&s, 0, sizeof(s));
	s.name = ".extra";
	s.raw_size = 0x200;
	assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	{
		uint8_t *b;
		size_t n;

		b = build_ok(&spec, &n); /* 6 headers end at 0x1e8: still fits */
		check_layout(b, n);
		free(b);
	}
	assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	build_fails(&spec);

	/* the table holds at most FX_MAX_SECTIONS */
	fx_spec_init(&spec, FX_PLAIN);
	for (i = spec.n_sections; i < FX_MAX_SECTIONS; i++)
		assert_int_equal(fx_spec_insert_section(&spec, i, &s), 0);
	assert_int_equal(fx_spec_insert_section(&spec, 0, &s), -1);
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_spec_insert_section(&spec, 4, &s), -1);
}

static void
test_write_file(void **state)
{
	char path[] = "/tmp/fx-selfcheck-XXXXXX";
	static const uint8_t data[] = { 'M', 'Z', 0, 1, 2 };
	uint8_t back[16];
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(fx_write_file(path, data, sizeof(data)), 0);
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fread(back, 1, sizeof(back), f), sizeof(data));
	fclose(f);
	assert_memory_equal(back, data, sizeof(data));
	unlink(path);
	assert_int_equal(fx_write_file("/nonexistent-dir/x", data, sizeof(data)), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksum_known), cmocka_unit_test(test_le_helpers),
		cmocka_unit_test(test_plain),          cmocka_unit_test(test_pe32),
		cmocka_unit_test(test_bzimage_old),    cmocka_unit_test(test_bzimage_new),
		cmocka_unit_test(test_arm64),          cmocka_unit_test(test_header_fill),
		cmocka_unit_test(test_extras),         cmocka_unit_test(test_content_and_exact),
		cmocka_unit_test(test_rejects),        cmocka_unit_test(test_write_file),
	};

	return run_group(tests, NULL, NULL);
}
