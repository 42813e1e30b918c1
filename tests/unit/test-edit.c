/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-edit.c - insert, replace and grow .sbat; every header field and every other byte checked */
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

#include "pe/model.h"

#include "edit_buf.h"
#include "fixture.h"
#include "edit/emit.h"
#include "edit/plan_uki.h"
#include "edit/verify.h"
#include "pe_constants.h"

static const char payload[] = FX_SBAT_CSV;
#define PAYLOAD ((const uint8_t *)payload)
#define PAYLOAD_LEN (sizeof(payload) - 1)

typedef struct image {
	uint8_t *buf;
	size_t len;
} image;

typedef struct hdr {
	size_t coff, opt, table;
	unsigned nsec;
	uint32_t fa, sa, soi, soh, init, csum;
} hdr;

static uint64_t
align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static hdr
read_hdr(const uint8_t *b)
{
	hdr h;

	h.coff = fx_le32(b + 0x3c) + 4;
	h.opt = fx_opt_offset(b);
	h.table = fx_section_table_offset(b);
	h.nsec = fx_le16(b + h.coff + 2);
	h.fa = fx_le32(b + h.opt + T_OPT_FILE_ALIGN);
	h.sa = fx_le32(b + h.opt + T_OPT_SECT_ALIGN);
	h.soi = fx_le32(b + h.opt + T_OPT_SIZE_OF_IMAGE);
	h.soh = fx_le32(b + h.opt + T_OPT_SOH);
	h.init = fx_le32(b + h.opt + T_OPT_SIZE_OF_INIT_DATA);
	h.csum = fx_le32(b + h.opt + T_OPT_CHECKSUM);
	return h;
}

static const uint8_t *
sect(const uint8_t *b, const hdr *h, unsigned i)
{
	return b + h->table + 40u * i;
}

/* end of headers and of every section's raw data */
static uint64_t
raw_end(const uint8_t *b, const hdr *h)
{
	uint64_t end = h->soh;
	unsigned i;

	for (i = 0; i < h->nsec; i++) {
		const uint8_t *s = sect(b, h, i);
		uint64_t e = (uint64_t)fx_le32(s + 20) + fx_le32(s + 16);

		if (fx_le32(s + 16) && e > end)
			end = e;
	}
	return end;
}

static uint64_t
virtual_end(const uint8_t *b, const hdr *h)
{
	uint64_t end = 0;
	unsigned i;

	for (i = 0; i < h->nsec; i++) {
		const uint8_t *s = sect(b, h, i);
		uint32_t vs = fx_le32(s + 8) ? fx_le32(s + 8) : fx_le32(s + 16);

		if ((uint64_t)fx_le32(s + 12) + vs > end)
			end = (uint64_t)fx_le32(s + 12) + vs;
	}
	return end;
}

static image
build(const fx_spec *spec)
{
	image im;

	assert_int_equal(fx_build(spec, &im.buf, &im.len), 0);
	return im;
}

static image
build_kind(int kind)
{
	fx_spec spec;

	fx_spec_init(&spec, kind);
	return build(&spec);
}

static image
edit_ok(const image *in, const uint8_t *pl, size_t pl_len, const sbat_edit_opts *opts, sbat_edit_report *report)
{
	image out = { NULL, 0 };
	sbat_diag d;
	sbat_err err;

	memset(&d, 0, sizeof(d));
	err = edit_buf(in->buf, in->len, pl, pl_len, opts, &out.buf, &out.len, report, &d);
	if (err)
		fail_msg("sbat_edit: %s (%s at 0x%llx)", sbat_strerror(err), d.what ? d.what : "",
		         (unsigned long long)d.offset);
	return out;
}

/* 1 for each byte an insert may change in the first raw_end bytes */
static void
mark(uint8_t *mask, size_t off, size_t n)
{
	memset(mask + off, 1, n);
}

/*
 * The full contract of an insert: every header field that must change,
 * nothing else in the original bytes, the data and padding, trailing data
 * moved intact, and a second run that changes nothing.
 */
static void
check_insert(const image *in, const image *out, const uint8_t *pl, size_t pl_len, const sbat_edit_report *r)
{
	hdr a = read_hdr(in->buf), b = read_hdr(out->buf);
	uint64_t in_raw_end = raw_end(in->buf, &a), tail = in->len - in_raw_end;
	uint32_t raw = (uint32_t)align_up(pl_len + 1, a.fa); /* a NUL always follows the CSV */
	uint32_t va = (uint32_t)align_up(virtual_end(in->buf, &a), a.sa);
	uint32_t ptr = (uint32_t)align_up(in_raw_end, a.fa);
	uint64_t soi = align_up((uint64_t)va + raw, a.sa);
	const uint8_t *s = sect(out->buf, &b, a.nsec);
	uint8_t *mask = calloc(1, in_raw_end);
	size_t i;

	assert_non_null(mask);
	assert_int_equal(r->action, SBAT_ACTION_INSERT);
	assert_int_equal(b.nsec, a.nsec + 1);
	assert_memory_equal(s, ".sbat\0\0\0", 8);
	assert_int_equal(fx_le32(s + 8), raw); /* VirtualSize == SizeOfRawData */
	assert_int_equal(fx_le32(s + 12), va); /* aligned end of the highest section */
	assert_int_equal(fx_le32(s + 16), raw);
	assert_int_equal(fx_le32(s + 20), ptr);
	assert_int_equal(fx_le32(s + 24), 0); /* no relocations */
	assert_int_equal(fx_le16(s + 32), 0);
	assert_int_equal(fx_le32(s + 36), 0x40000040u);
	assert_int_equal(b.soi, soi > a.soi ? soi : a.soi);
	assert_int_equal(b.soi % a.sa, 0);
	assert_int_equal(b.init, a.init + raw);
	assert_int_equal(b.fa, a.fa);
	assert_int_equal(b.sa, a.sa);
	if (a.csum == 0)
		assert_int_equal(b.csum, 0);
	else
		assert_int_equal(b.csum, fx_checksum(out->buf, out->len, b.opt + T_OPT_CHECKSUM));

	assert_int_equal(out->len, (uint64_t)ptr + raw + tail);
	assert_memory_equal(out->buf + ptr, pl, pl_len);
	for (i = pl_len; i < raw; i++)
		assert_int_equal(out->buf[ptr + i], 0);
	for (i = in_raw_end; i < ptr; i++)
		assert_int_equal(out->buf[i], 0);
	if (tail)
		assert_memory_equal(out->buf + ptr + raw, in->buf + in_raw_end, tail);

	/* every original byte that did not have to change is identical */
	mark(mask, a.coff + 2, 2);
	mark(mask, a.opt + T_OPT_SIZE_OF_INIT_DATA, 4);
	mark(mask, a.opt + T_OPT_SIZE_OF_IMAGE, 4);
	mark(mask, a.opt + T_OPT_CHECKSUM, 4);
	mark(mask, a.table + 40u * a.nsec, 40);
	if (b.soh != a.soh)
		mark(mask, a.opt + T_OPT_SOH, 4);
	for (i = 0; i < in_raw_end; i++)
		if (!mask[i] && in->buf[i] != out->buf[i])
			fail_msg("byte 0x%zx changed: 0x%02x -> 0x%02x", i, in->buf[i], out->buf[i]);
	free(mask);
}

/* Running the same edit on its own output writes nothing new. */
static void
check_idempotent(const image *out, const uint8_t *pl, size_t pl_len, const sbat_edit_opts *opts)
{
	sbat_edit_report r2;
	image again = edit_ok(out, pl, pl_len, opts, &r2);

	assert_int_equal(r2.action, SBAT_ACTION_REPLACE);
	assert_true(r2.unchanged);
	assert_int_equal(again.len, out->len);
	assert_memory_equal(again.buf, out->buf, out->len);
	free(again.buf);
}

static void
check_reads_back(const image *out, const uint8_t *pl, size_t pl_len)
{
	sbat_pe pe;
	const uint8_t *data;
	size_t n;

	assert_int_equal(pe_parse(out->buf, out->len, &pe, NULL), SBAT_OK);
	assert_int_equal(pe_sbat_data(&pe, out->buf, out->len, &data, &n, NULL), SBAT_OK);
	assert_int_equal(n, pl_len);
	assert_memory_equal(data, pl, pl_len);
}

static void
run_insert(const fx_spec *spec)
{
	image in = build(spec), out;
	uint8_t *copy = malloc(in.len);
	sbat_edit_report r;

	assert_non_null(copy);
	memcpy(copy, in.buf, in.len);
	out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	assert_memory_equal(copy, in.buf, in.len); /* input never modified */
	check_insert(&in, &out, PAYLOAD, PAYLOAD_LEN, &r);
	check_reads_back(&out, PAYLOAD, PAYLOAD_LEN);
	check_idempotent(&out, PAYLOAD, PAYLOAD_LEN, NULL);
	free(copy);
	free(in.buf);
	free(out.buf);
}

static void
run_insert_kind(int kind)
{
	fx_spec spec;

	fx_spec_init(&spec, kind);
	run_insert(&spec);
}

static void
test_edit_insert_pe32plus_x86_64(void **state)
{
	(void)state;
	run_insert_kind(FX_PLAIN);
}

static void
test_edit_insert_pe32_ia32(void **state)
{
	fx_spec spec;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.pe32plus = 0;
	spec.machine = FX_MACHINE_I386;
	run_insert(&spec);
}

static void
test_edit_insert_aarch64_app(void **state)
{
	fx_spec spec;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.machine = FX_MACHINE_ARM64;
	run_insert(&spec);
}

static void
test_edit_insert_riscv64_app(void **state)
{
	fx_spec spec;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.machine = FX_MACHINE_RISCV64;
	run_insert(&spec);
}

static void
test_edit_insert_arm64_image(void **state)
{
	(void)state;
	run_insert_kind(FX_ARM64);
}

/* EFI zboot: SizeOfImage is the unaligned end of .data; the insert raises it to an aligned one. */
static void
test_edit_insert_zboot(void **state)
{
	image in = build_kind(FX_ZBOOT), out;
	hdr a = read_hdr(in.buf), b;
	sbat_edit_report r;

	(void)state;
	assert_int_not_equal(a.soi % a.sa, 0);
	out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	b = read_hdr(out.buf);
	assert_int_equal(r.action, SBAT_ACTION_INSERT);
	assert_int_equal(b.soi % b.sa, 0);
	assert_memory_equal(out.buf + 4, "zimg", 4);
	assert_memory_equal(out.buf, in.buf, 0x40); /* the zboot header is untouched */
	free(in.buf);
	free(out.buf);
	run_insert_kind(FX_ZBOOT);
}

static void
test_edit_insert_bzimage_old(void **state)
{
	(void)state;
	run_insert_kind(FX_BZIMAGE_OLD);
}

static void
test_edit_insert_bzimage_new(void **state)
{
	(void)state;
	run_insert_kind(FX_BZIMAGE_NEW);
}

/* The boot-protocol header and the arm64 Image header survive byte for byte. */
static void
test_edit_kernel_headers_untouched(void **state)
{
	static const int kinds[] = { FX_BZIMAGE_OLD, FX_BZIMAGE_NEW, FX_ARM64 };
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		image in = build_kind(kinds[k]), out;
		sbat_edit_report r;

		out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
		if (kinds[k] == FX_ARM64) {
			assert_memory_equal(out.buf, in.buf, 0x40);
		} else {
			size_t end = 0x202u + in.buf[0x201];

			assert_memory_equal(out.buf + 0x1ef, in.buf + 0x1ef, end - 0x1ef);
			/* and the new header ends before the setup header */
			assert_true(fx_section_table_offset(out.buf) +
			                40u * fx_le16(out.buf + fx_le32(out.buf + 0x3c) + 6) <=
			            0x1ef);
		}
		free(in.buf);
		free(out.buf);
	}
}

static void
test_edit_insert_small_alignments(void **state)
{
	static const uint32_t aligns[][2] = {
		{ 0x20, 0x20 }, { 0x200, 0x200 }, { 0x200, 0x10000 }, { 0x1000, 0x1000 }, { 0x10, 0x1000 }
	};
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(aligns) / sizeof(aligns[0]); k++) {
		fx_spec spec;

		fx_spec_init(&spec, FX_PLAIN);
		spec.file_align = aligns[k][0];
		spec.sect_align = aligns[k][1];
		spec.size_of_headers = 0;
		run_insert(&spec);
	}
}

static void
test_edit_insert_checksum_recomputed(void **state)
{
	fx_spec spec;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.set_checksum = 1;
	run_insert(&spec);
}

static void
test_edit_insert_moves_overlay_after_sbat(void **state)
{
	fx_spec spec;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.overlay_len = 333;
	run_insert(&spec);
}

/* File offsets into the moved tail follow it: COFF symbol table and debug data. */
static void
test_edit_insert_fixes_offsets_into_overlay(void **state)
{
	fx_spec spec;
	image in, out;
	sbat_edit_report r;
	hdr a;
	uint32_t old_sym, new_sym;
	size_t delta;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.overlay_len = 128;
	spec.symtab_in_overlay = 1;
	spec.debug_in_overlay = 1;
	in = build(&spec);
	a = read_hdr(in.buf);
	out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	delta = (size_t)(r.overlay_new_offset - r.overlay_offset);
	assert_int_equal(delta, 0x200);
	old_sym = fx_le32(in.buf + a.coff + 8);
	new_sym = fx_le32(out.buf + a.coff + 8);
	assert_int_equal(new_sym, old_sym + delta);
	/* the symbol bytes themselves moved with it */
	assert_memory_equal(out.buf + new_sym, in.buf + old_sym, 18);
	{
		sbat_pe pin, pout;

		assert_int_equal(pe_parse(in.buf, in.len, &pin, NULL), SBAT_OK);
		assert_int_equal(pe_parse(out.buf, out.len, &pout, NULL), SBAT_OK);
		assert_int_equal(pin.debug_count, 1);
		assert_int_equal(pout.debug_count, 1);
		assert_int_equal(pout.debug[0].pointer_to_raw_data, pin.debug[0].pointer_to_raw_data + delta);
		assert_memory_equal(out.buf + pout.debug[0].pointer_to_raw_data,
		                    in.buf + pin.debug[0].pointer_to_raw_data, pin.debug[0].size_of_data);
	}
	free(in.buf);
	free(out.buf);
}

/* Header slot beyond SizeOfHeaders but before any data: SizeOfHeaders grows to the next FileAlignment. */
static void
test_edit_insert_grows_size_of_headers(void **state)
{
	fx_spec spec;
	image in, out;
	sbat_edit_report r;
	hdr a, b;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	in = build(&spec);
	a = read_hdr(in.buf);
	/* SizeOfHeaders exactly at the end of the table; the data starts later */
	fx_put32(in.buf + a.opt + T_OPT_SOH, (uint32_t)(a.table + 40u * a.nsec));
	out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	b = read_hdr(out.buf);
	assert_int_equal(b.soh, align_up(a.table + 40u * (a.nsec + 1), a.fa));
	assert_true(b.soh <= fx_le32(sect(out.buf, &b, 0) + 20));
	assert_int_equal(r.new_size_of_headers, b.soh);
	free(in.buf);
	free(out.buf);
}

/* bzImage headers never grow: the setup code depends on file offsets. */
static void
test_edit_bzimage_never_grows_headers(void **state)
{
	fx_spec spec;
	image in;
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;
	hdr a;

	(void)state;
	fx_spec_init(&spec, FX_BZIMAGE_NEW);
	in = build(&spec);
	a = read_hdr(in.buf);
	fx_put32(in.buf + a.opt + T_OPT_SOH, (uint32_t)(a.table + 40u * a.nsec));
	assert_int_equal(edit_buf(in.buf, in.len, PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, NULL, &d),
	                 SBAT_E_NO_HEADER_ROOM);
	assert_null(out);
	free(in.buf);
}

static void
test_edit_strip_signature(void **state)
{
	fx_spec spec;
	image in, out;
	sbat_edit_opts opts;
	sbat_edit_report r;
	hdr a, b;
	uint64_t unsigned_len;
	uint8_t *out_buf = NULL;
	size_t out_len;
	sbat_diag d;

	(void)state;
	sbat_edit_opts_init(&opts);
	opts.strip_signature = 1;
	fx_spec_init(&spec, FX_PLAIN);
	spec.cert_len = 0x400;
	in = build(&spec);
	a = read_hdr(in.buf);
	unsigned_len = raw_end(in.buf, &a);
	assert_int_equal(edit_buf(in.buf, in.len, PAYLOAD, PAYLOAD_LEN, NULL, &out_buf, &out_len, NULL, &d),
	                 SBAT_E_SIGNED);
	assert_null(out_buf);
	assert_true(d.has_offset);
	out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, &opts, &r);
	b = read_hdr(out.buf);
	assert_int_equal(r.stripped_cert_size, 0x400);
	assert_int_equal(out.len, align_up(unsigned_len, a.fa) + align_up(PAYLOAD_LEN, a.fa));
	/* data directory 4 zeroed */
	assert_int_equal(fx_le32(out.buf + b.opt + 0x70 + 32), 0);
	assert_int_equal(fx_le32(out.buf + b.opt + 0x70 + 36), 0);
	check_reads_back(&out, PAYLOAD, PAYLOAD_LEN);
	check_idempotent(&out, PAYLOAD, PAYLOAD_LEN, &opts);
	free(in.buf);
	free(out.buf);
}

static fx_spec
spec_with_sbat(unsigned index, uint32_t vsize, uint32_t raw)
{
	fx_spec spec;
	fx_section s;

	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.virtual_size = vsize;
	s.raw_size = raw;
	s.characteristics = 0x40000040u;
	s.content = FX_SBAT_CSV;
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_spec_insert_section(&spec, index, &s), 0);
	return spec;
}

/* A CSV of n rows, about 60 bytes each. */
static char *
long_csv(unsigned n, size_t *ret_len)
{
	size_t cap = 128 + (size_t)n * 80, len;
	char *p = malloc(cap);
	unsigned i;

	assert_non_null(p);
	len = (size_t)snprintf(p, cap, "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(p + len, cap - len, "comp%u,%u,Vendor,pkg%u,1.%u,https://example.invalid/%u\n",
		                        i, i + 1, i, i, i);
	*ret_len = len;
	return p;
}

/* Only the .sbat header and raw range may differ after a replace. */
static void
check_replace_in_place(const image *in, const image *out, unsigned idx, const uint8_t *pl, size_t pl_len)
{
	hdr a = read_hdr(in->buf), b = read_hdr(out->buf);
	const uint8_t *sa = sect(in->buf, &a, idx), *sb = sect(out->buf, &b, idx);
	uint32_t ptr = fx_le32(sa + 20), raw = fx_le32(sa + 16);
	size_t i;

	assert_int_equal(out->len, in->len);
	assert_int_equal(b.nsec, a.nsec);
	assert_int_equal(fx_le32(sb + 16), raw);
	assert_int_equal(fx_le32(sb + 20), ptr);
	assert_int_equal(fx_le32(sb + 12), fx_le32(sa + 12));
	assert_int_equal(fx_le32(sb + 8), raw);
	assert_memory_equal(out->buf + ptr, pl, pl_len);
	for (i = pl_len; i < raw; i++)
		assert_int_equal(out->buf[ptr + i], 0);
	for (i = 0; i < in->len; i++) {
		int in_hdr = i >= (size_t)(sa - in->buf) && i < (size_t)(sa - in->buf) + 40;
		int in_data = i >= ptr && i < (size_t)ptr + raw;
		int in_csum = a.csum && i >= a.opt + T_OPT_CHECKSUM && i < a.opt + T_OPT_CHECKSUM + 4;

		if (!in_hdr && !in_data && !in_csum && in->buf[i] != out->buf[i])
			fail_msg("byte 0x%zx changed", i);
	}
}

static void
test_edit_replace_last_in_place(void **state)
{
	fx_spec spec = spec_with_sbat(3, 0x200, 0x200);
	static const char small[] = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	                            "other,7,X,y,1,https://example.invalid/\n";
	image in, out;
	sbat_edit_report r;

	(void)state;
	in = build(&spec);
	out = edit_ok(&in, (const uint8_t *)small, sizeof(small) - 1, NULL, &r);
	assert_int_equal(r.action, SBAT_ACTION_REPLACE);
	check_replace_in_place(&in, &out, 3, (const uint8_t *)small, sizeof(small) - 1);
	check_reads_back(&out, (const uint8_t *)small, sizeof(small) - 1);
	check_idempotent(&out, (const uint8_t *)small, sizeof(small) - 1, NULL);
	free(in.buf);
	free(out.buf);
}

static void
test_edit_replace_mid_file_in_place(void **state)
{
	fx_spec spec = spec_with_sbat(2, 0x200, 0x200);
	image in, out;
	sbat_edit_report r;

	(void)state;
	spec.set_checksum = 1;
	in = build(&spec);
	out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	assert_int_equal(r.action, SBAT_ACTION_REPLACE);
	check_replace_in_place(&in, &out, 2, PAYLOAD, PAYLOAD_LEN);
	assert_int_equal(read_hdr(out.buf).csum, fx_checksum(out.buf, out.len, read_hdr(out.buf).opt + T_OPT_CHECKSUM));
	check_idempotent(&out, PAYLOAD, PAYLOAD_LEN, NULL);
	free(in.buf);
	free(out.buf);
}

/* objcopy-style .sbat (VirtualSize < SizeOfRawData) gets VirtualSize == SizeOfRawData. */
static void
test_edit_replace_equalizes_virtual_size(void **state)
{
	fx_spec spec = spec_with_sbat(2, 0x90, 0x200);
	image in, out;
	sbat_edit_report r;
	hdr b;

	(void)state;
	in = build(&spec);
	out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	b = read_hdr(out.buf);
	assert_int_equal(fx_le32(sect(out.buf, &b, 2) + 8), 0x200);
	assert_int_equal(b.soi, read_hdr(in.buf).soi);
	free(in.buf);
	free(out.buf);
}

static void
test_edit_replace_grows_last(void **state)
{
	fx_spec spec = spec_with_sbat(3, 0x200, 0x200);
	image in, out;
	sbat_edit_report r;
	size_t len;
	char *csv = long_csv(20, &len);
	hdr a, b;
	const uint8_t *s;
	uint32_t raw;

	(void)state;
	assert_true(len > 0x200);
	spec.overlay_len = 50;
	in = build(&spec);
	a = read_hdr(in.buf);
	out = edit_ok(&in, (const uint8_t *)csv, len, NULL, &r);
	b = read_hdr(out.buf);
	s = sect(out.buf, &b, 3);
	raw = (uint32_t)align_up(len, a.fa);
	assert_int_equal(r.action, SBAT_ACTION_GROW);
	assert_int_equal(b.nsec, a.nsec);
	assert_int_equal(fx_le32(s + 16), raw);
	assert_int_equal(fx_le32(s + 8), raw);
	assert_int_equal(b.soi, align_up((uint64_t)fx_le32(s + 12) + raw, a.sa));
	assert_int_equal(b.init, a.init + raw - 0x200);
	assert_int_equal(out.len, in.len + raw - 0x200);
	/* overlay follows the grown section */
	assert_memory_equal(out.buf + out.len - 50, in.buf + in.len - 50, 50);
	/* everything before the .sbat data is identical apart from header fields */
	assert_memory_equal(out.buf + a.soh, in.buf + a.soh, fx_le32(s + 20) - a.soh);
	check_reads_back(&out, (const uint8_t *)csv, len);
	check_idempotent(&out, (const uint8_t *)csv, len, NULL);
	free(csv);
	free(in.buf);
	free(out.buf);
}

static void
test_edit_replace_mid_file_too_big_refused(void **state)
{
	fx_spec spec = spec_with_sbat(2, 0x200, 0x200);
	image in;
	size_t len;
	char *csv = long_csv(20, &len);
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;

	(void)state;
	in = build(&spec);
	assert_int_equal(edit_buf(in.buf, in.len, (const uint8_t *)csv, len, NULL, &out, &out_len, NULL, &d),
	                 SBAT_E_SBAT_NO_ROOM);
	assert_null(out);
	assert_true(d.has_offset);
	/* both sizes, so the caller can say how far apart they are */
	assert_int_equal(d.size_needed, len);
	assert_int_equal(d.size_available, 0x200);
	free(csv);
	free(in.buf);
}

/* Insert then replace with other data then back: the final bytes equal a direct insert. */
static void
test_edit_round_trip_deterministic(void **state)
{
	static const char other[] = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	                            "x,2,X,x,2,https://example.invalid/x\n";
	image in = build_kind(FX_BZIMAGE_NEW), one, two, three;
	sbat_edit_report r;

	(void)state;
	one = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	two = edit_ok(&one, (const uint8_t *)other, sizeof(other) - 1, NULL, &r);
	assert_int_equal(r.action, SBAT_ACTION_REPLACE);
	three = edit_ok(&two, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	assert_int_equal(three.len, one.len);
	assert_memory_equal(three.buf, one.buf, one.len);
	free(in.buf);
	free(one.buf);
	free(two.buf);
	free(three.buf);
}

/* The payload exactly fills FileAlignment: no padding, still readable. */
static void
test_edit_payload_exactly_file_aligned(void **state)
{
	fx_spec spec;
	image in, out;
	sbat_edit_report r;
	uint8_t pl[0x200];
	size_t len;

	(void)state;
	len = (size_t)snprintf((char *)pl, sizeof(pl), "%s", FX_SBAT_CSV);
	memset(pl + len, 'a', sizeof(pl) - len - 1);
	pl[sizeof(pl) - 1] = '\n';
	/* last row: make it a valid 6-field row of the exact length */
	memcpy(pl + len, "pad,1,a,b,c,", 12);
	fx_spec_init(&spec, FX_PLAIN);
	in = build(&spec);
	out = edit_ok(&in, pl, sizeof(pl), NULL, &r);
	/* one FileAlignment more, so that a NUL ends the CSV */
	assert_int_equal(r.size_of_raw_data, 0x400);
	assert_int_equal(out.buf[r.pointer_to_raw_data + sizeof(pl)], 0);
	check_insert(&in, &out, pl, sizeof(pl), &r);
	free(in.buf);
	free(out.buf);
}

static sbat_edit_opts
opts_with(int relocate, int remove)
{
	sbat_edit_opts o;

	sbat_edit_opts_init(&o);
	o.relocate = relocate;
	o.remove = remove;
	return o;
}

/*
 * No slot left and SizeOfHeaders cannot just round up: section data moves
 * down by whole FileAlignment units and every file offset follows it.
 */
static void
test_edit_insert_shifts_data_for_header_room(void **state)
{
	fx_spec spec;
	image in, out;
	sbat_edit_report r;
	hdr a, b;
	unsigned i;
	uint32_t shift;
	sbat_pe pin, pout;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.header_slack = 0;
	spec.overlay_len = 128;
	spec.symtab_in_overlay = 1;
	spec.debug_in_overlay = 1;
	spec.set_checksum = 1;
	in = build(&spec);
	a = read_hdr(in.buf);
	assert_int_equal(a.table + 40u * a.nsec, a.soh); /* really no slot */
	out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	b = read_hdr(out.buf);
	shift = (uint32_t)r.data_shift;
	assert_int_equal(shift, a.fa);
	assert_int_equal(b.soh, a.soh + a.fa);
	assert_int_equal(b.nsec, a.nsec + 1);
	assert_int_equal(pe_parse(in.buf, in.len, &pin, NULL), SBAT_OK);
	assert_int_equal(pe_parse(out.buf, out.len, &pout, NULL), SBAT_OK);
	assert_int_equal(pout.debug_count, 1);
	/* the debug entry's own PointerToRawData is the one byte range inside section data that changes */
	assert_int_equal(pout.debug[0].field_offset, pin.debug[0].field_offset + shift);
	fx_put32(out.buf + pout.debug[0].field_offset, pin.debug[0].pointer_to_raw_data);
	for (i = 0; i < a.nsec; i++) {
		const uint8_t *sa = sect(in.buf, &a, i), *sb = sect(out.buf, &b, i);

		assert_int_equal(fx_le32(sb + 20), fx_le32(sa + 20) + shift);
		assert_int_equal(fx_le32(sb + 12), fx_le32(sa + 12)); /* VAs never move */
		assert_memory_equal(out.buf + fx_le32(sb + 20), in.buf + fx_le32(sa + 20), fx_le32(sa + 16));
	}
	fx_put32(out.buf + pout.debug[0].field_offset, pout.debug[0].pointer_to_raw_data);
	/* headers before the new slot are the same but for the patched fields */
	assert_memory_equal(out.buf, in.buf, a.coff + 2);
	/* the grown header area after the new slot is zero-filled */
	for (i = (unsigned)(a.table + 40u * b.nsec); i < b.soh; i++)
		assert_int_equal(out.buf[i], 0);
	assert_int_equal(b.csum, fx_checksum(out.buf, out.len, b.opt + T_OPT_CHECKSUM));
	/* debug data and symbols in the overlay moved with it, and their pointers too */
	assert_memory_equal(out.buf + pout.debug[0].pointer_to_raw_data, in.buf + pin.debug[0].pointer_to_raw_data,
	                    pin.debug[0].size_of_data);
	assert_memory_equal(out.buf + pout.pointer_to_symbol_table, in.buf + pin.pointer_to_symbol_table, 18);
	check_reads_back(&out, PAYLOAD, PAYLOAD_LEN);
	check_idempotent(&out, PAYLOAD, PAYLOAD_LEN, NULL);
	free(in.buf);
	free(out.buf);
}

/* Headers that would reach the first VA cannot grow: refused, input untouched. */
static void
test_edit_no_room_when_first_va_is_at_headers(void **state)
{
	fx_spec spec;
	image in;
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.header_slack = 0;
	spec.sect_align = 0x200;
	in = build(&spec);
	assert_int_equal(edit_buf(in.buf, in.len, PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, NULL, &d),
	                 SBAT_E_NO_HEADER_ROOM);
	assert_null(out);
	free(in.buf);
}

/* Kernel images never move their data to make header room. */
static void
test_edit_kernel_never_shifts_data(void **state)
{
	fx_spec spec;
	image in;
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;
	hdr a;

	(void)state;
	fx_spec_init(&spec, FX_ARM64);
	in = build(&spec);
	a = read_hdr(in.buf);
	/* pretend the first section starts right after the table */
	fx_put32(in.buf + a.opt + T_OPT_SOH, (uint32_t)(a.table + 40u * a.nsec));
	fx_put32((uint8_t *)sect(in.buf, &a, 0) + 20, (uint32_t)(a.table + 40u * a.nsec));
	fx_put32((uint8_t *)sect(in.buf, &a, 0) + 16, 0x200);
	assert_int_equal(edit_buf(in.buf, in.len, PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, NULL, &d),
	                 SBAT_E_NO_HEADER_ROOM);
	assert_non_null(strstr(d.what, "kernel"));
	free(in.buf);
}

/* A mid-file .sbat too small: --relocate retires it (renamed, zeroed) and appends a new one. */
static void
test_edit_relocate_mid_file(void **state)
{
	fx_spec spec = spec_with_sbat(2, 0x200, 0x200);
	sbat_edit_opts o = opts_with(1, 0);
	image in, out;
	sbat_edit_report r;
	size_t len, i;
	char *csv = long_csv(20, &len);
	hdr a, b;
	const uint8_t *old, *neu;

	(void)state;
	in = build(&spec);
	a = read_hdr(in.buf);
	out = edit_ok(&in, (const uint8_t *)csv, len, &o, &r);
	b = read_hdr(out.buf);
	assert_int_equal(r.action, SBAT_ACTION_RELOCATE);
	assert_int_equal(r.retired_index, 2);
	assert_int_equal(b.nsec, a.nsec + 1);
	old = sect(out.buf, &b, 2);
	assert_memory_equal(old, ".oldsbat", 8);
	/* the retired section keeps its place in memory and file, zero-filled */
	assert_memory_equal(old + 8, sect(in.buf, &a, 2) + 8, 32);
	for (i = 0; i < fx_le32(old + 16); i++)
		assert_int_equal(out.buf[fx_le32(old + 20) + i], 0);
	neu = sect(out.buf, &b, a.nsec);
	assert_memory_equal(neu, ".sbat\0\0\0", 8);
	assert_int_equal(fx_le32(neu + 12), align_up(virtual_end(in.buf, &a), a.sa));
	check_reads_back(&out, (const uint8_t *)csv, len);
	/* the new .sbat is last: the next, bigger edit grows it; the same edit changes nothing */
	check_idempotent(&out, (const uint8_t *)csv, len, &o);
	free(csv);
	free(in.buf);
	free(out.buf);
}

/* Insert then remove gives back the original bytes, for every kind. */
static void
test_edit_remove_undoes_insert(void **state)
{
	static const int kinds[] = { FX_PLAIN, FX_BZIMAGE_OLD, FX_BZIMAGE_NEW, FX_ARM64, FX_ZBOOT };
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		fx_spec spec;
		sbat_edit_opts rm = opts_with(0, 1);
		image in, one, two;
		sbat_edit_report r;

		fx_spec_init(&spec, kinds[k]);
		spec.set_checksum = kinds[k] == FX_PLAIN;
		spec.overlay_len = kinds[k] == FX_PLAIN ? 77 : 0;
		in = build(&spec);
		one = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
		two = edit_ok(&one, NULL, 0, &rm, &r);
		assert_int_equal(r.action, SBAT_ACTION_REMOVE);
		assert_int_equal(two.len, in.len);
		assert_memory_equal(two.buf, in.buf, in.len);
		free(in.buf);
		free(one.buf);
		free(two.buf);
	}
}

/* A mid-file .sbat cannot go without moving later sections: it is retired in place. */
static void
test_edit_remove_mid_file_retires(void **state)
{
	fx_spec spec = spec_with_sbat(2, 0x200, 0x200);
	sbat_edit_opts rm = opts_with(0, 1);
	image in, out;
	sbat_edit_report r;
	sbat_pe pe;
	hdr a;
	size_t i;

	(void)state;
	in = build(&spec);
	a = read_hdr(in.buf);
	out = edit_ok(&in, NULL, 0, &rm, &r);
	assert_int_equal(r.action, SBAT_ACTION_RETIRE);
	assert_int_equal(out.len, in.len);
	assert_int_equal(pe_parse(out.buf, out.len, &pe, NULL), SBAT_OK);
	assert_int_equal(pe.sbat_count, 0);
	assert_memory_equal(sect(out.buf, &a, 2), ".oldsbat", 8);
	for (i = 0; i < in.len; i++) {
		int in_name = i >= (size_t)(sect(in.buf, &a, 2) - in.buf) &&
		              i < (size_t)(sect(in.buf, &a, 2) - in.buf) + 8;
		int in_data = i >= fx_le32(sect(in.buf, &a, 2) + 20) && i < fx_le32(sect(in.buf, &a, 2) + 20) + 0x200u;

		if (in_data)
			assert_int_equal(out.buf[i], 0);
		else if (!in_name)
			assert_int_equal(out.buf[i], in.buf[i]);
	}
	free(in.buf);
	free(out.buf);
}

static void
test_edit_remove_without_sbat_refused(void **state)
{
	sbat_edit_opts rm = opts_with(0, 1);
	image in = build_kind(FX_PLAIN);
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;

	(void)state;
	assert_int_equal(edit_buf(in.buf, in.len, NULL, 0, &rm, &out, &out_len, NULL, &d), SBAT_E_NO_SBAT);
	assert_null(out);
	free(in.buf);
}

/* Options of another layout (size not this library's) are refused by both edit calls, before anything is read. */
static void
test_edit_opts_size_checked(void **state)
{
	static const sbat_edit_opts init = SBAT_EDIT_OPTS_INIT;
	const size_t sizes[] = { 0, sizeof(sbat_edit_opts) - 1, sizeof(sbat_edit_opts) + 8, 1u << 20 };
	image in = build_kind(FX_PLAIN);
	sbat_edit_opts o;
	sbat_edit_report r;
	sbat_image *img;
	uint8_t *out = NULL;
	size_t out_len, i;
	sbat_diag d;

	(void)state;
	assert_int_equal(init.size, sizeof(sbat_edit_opts));
	assert_int_equal(init.strip_signature | init.relocate | init.remove | init.write_unchanged | init.dry_run, 0);
	memset(&o, 0xa5, sizeof(o));
	sbat_edit_opts_init(&o);
	assert_memory_equal(&o, &init, sizeof(o));
	assert_int_equal(sbat_image_parse(in.buf, in.len, &img, &d), SBAT_OK);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		o.size = sizes[i];
		memset(&d, 0, sizeof(d));
		assert_int_equal(sbat_edit(img, PAYLOAD, PAYLOAD_LEN, &o, &out, &out_len, &r, &d), SBAT_E_ABI);
		assert_null(out);
		assert_int_equal(d.code, SBAT_E_ABI);
		assert_non_null(strstr(d.what, "SBAT_EDIT_OPTS_INIT"));
		assert_int_equal(sbat_edit_fd(img, -1, PAYLOAD, PAYLOAD_LEN, &o, NULL, &r, &d), SBAT_E_ABI);
	}
	/* the right size, and no options at all, edit */
	o.size = sizeof(o);
	assert_int_equal(sbat_edit(img, PAYLOAD, PAYLOAD_LEN, &o, &out, &out_len, &r, &d), SBAT_OK);
	free(out);
	out = NULL;
	assert_int_equal(sbat_edit(img, PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, NULL, &d), SBAT_OK);
	free(out);
	sbat_image_free(img);
	free(in.buf);
}

/* The report and the diagnostic say which layout filled them, and their reserved space is zero. */
static void
test_edit_report_and_diag_versions(void **state)
{
	static const uint64_t zero[8];
	image in = build_kind(FX_PLAIN);
	sbat_edit_opts rm = opts_with(0, 1);
	sbat_edit_report r;
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;

	(void)state;
	memset(&r, 0xa5, sizeof(r));
	assert_int_equal(edit_buf(in.buf, in.len, PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, &r, &d), SBAT_OK);
	assert_int_equal(r.version, SBAT_EDIT_REPORT_VERSION);
	assert_int_equal(SBAT_EDIT_REPORT_VERSION, 2);
	assert_memory_equal(r.reserved, zero, sizeof(r.reserved));
	assert_int_equal(r.uki, 0); /* not a UKI */
	assert_int_equal(r.pcrsig_index, -1);
	free(out);
	out = NULL;
	memset(&d, 0xa5, sizeof(d));
	assert_int_equal(edit_buf(in.buf, in.len, NULL, 0, &rm, &out, &out_len, NULL, &d), SBAT_E_NO_SBAT);
	assert_int_equal(d.version, SBAT_DIAG_VERSION);
	assert_int_equal(SBAT_DIAG_VERSION, 1);
	assert_memory_equal(d.reserved, zero, sizeof(zero));
	free(in.buf);
}

/* arm64 kernels pad their headers with NOP instructions: that is filler too, and comes back on removal. */
static void
test_edit_arm64_nop_filler(void **state)
{
	static const uint8_t nop[4] = { 0x1f, 0x20, 0x03, 0xd5 };
	sbat_edit_opts rm = opts_with(0, 1);
	image in = build_kind(FX_ARM64), one, two;
	sbat_edit_report r;
	hdr a = read_hdr(in.buf);
	size_t off;

	(void)state;
	for (off = a.table + 40u * a.nsec; off + 4 <= a.soh; off += 4)
		memcpy(in.buf + off, nop, 4);
	one = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	assert_int_equal(r.action, SBAT_ACTION_INSERT);
	two = edit_ok(&one, NULL, 0, &rm, &r);
	assert_int_equal(two.len, in.len);
	assert_memory_equal(two.buf, in.buf, in.len);
	free(two.buf);
	free(one.buf);
	/* a NOP pattern out of phase is not filler */
	memmove(in.buf + a.table + 40u * a.nsec, in.buf + a.table + 40u * a.nsec + 1, 64);
	{
		uint8_t *out = NULL;
		size_t out_len;
		sbat_diag d;

		assert_int_equal(edit_buf(in.buf, in.len, PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, NULL, &d),
		                 SBAT_E_NO_HEADER_ROOM);
	}
	free(in.buf);
}

/*
 * Older systemd stubs pack sections tighter in memory than their raw size:
 * .sbat's VirtualSize may not reach the next section's VA.
 */
static void
test_edit_replace_tightly_packed(void **state)
{
	fx_spec spec = spec_with_sbat(2, 0xe2, 0x200);
	image in, out;
	sbat_edit_report r;
	hdr a, b;
	uint32_t va;
	size_t len;
	char *big = long_csv(4, &len);
	uint8_t *fail_out = NULL;
	size_t fail_len;
	sbat_diag d;

	(void)state;
	spec.sect_align = 0x200;
	in = build(&spec);
	a = read_hdr(in.buf);
	va = fx_le32(sect(in.buf, &a, 2) + 12);
	/* the next section starts 0x100 after .sbat, inside its raw size */
	fx_put32((uint8_t *)sect(in.buf, &a, 3) + 12, va + 0x100);
	out = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
	b = read_hdr(out.buf);
	assert_int_equal(r.action, SBAT_ACTION_REPLACE);
	/* the memory view fills the gap up to the next section, no further */
	assert_int_equal(fx_le32(sect(out.buf, &b, 2) + 8), 0x100);
	check_reads_back(&out, PAYLOAD, PAYLOAD_LEN);
	check_idempotent(&out, PAYLOAD, PAYLOAD_LEN, NULL);
	free(out.buf);
	/* larger than the memory gap but within the raw size: refused, or relocated */
	assert_true(len > 0x100 && len <= 0x200);
	assert_int_equal(edit_buf(in.buf, in.len, (const uint8_t *)big, len, NULL, &fail_out, &fail_len, NULL, &d),
	                 SBAT_E_SBAT_NO_ROOM);
	assert_null(fail_out);
	{
		sbat_edit_opts o = opts_with(1, 0);

		out = edit_ok(&in, (const uint8_t *)big, len, &o, &r);
		assert_int_equal(r.action, SBAT_ACTION_RELOCATE);
		check_reads_back(&out, (const uint8_t *)big, len);
		free(out.buf);
	}
	free(big);
	free(in.buf);
}

/*
 * The verifier's general guarantee, on a plan run by hand: a changed byte of
 * another section, a zero fill over one, or a header-sized write into one
 * is caught, whatever the plan meant.
 */
static void
test_edit_verify_kept_catches_lost_bytes(void **state)
{
	image in = build_kind(FX_PLAIN);
	sbat_pe *pe = malloc(sizeof(*pe));
	plan *p = malloc(sizeof(*p));
	sink out;
	uint32_t text;
	sbat_diag d;

	(void)state;
	assert_non_null(pe);
	assert_non_null(p);
	assert_int_equal(pe_parse(in.buf, in.len, pe, &d), SBAT_OK);
	assert_int_equal(plan_build(pe, in.buf, in.len, PAYLOAD, PAYLOAD_LEN, NULL, p, &d), SBAT_OK);
	memset(&out, 0, sizeof(out));
	out.mem = malloc((size_t)p->output_size);
	out.fd = out.in_fd = -1;
	out.sparse_from = UINT64_MAX;
	assert_non_null(out.mem);
	assert_int_equal(emit_plan(p, in.buf, in.len, PAYLOAD, PAYLOAD_LEN, &out, &d), SBAT_OK);
	assert_int_equal(verify_kept(p, pe, in.buf, out.mem, UINT64_MAX, 0, 0, &d), SBAT_OK);

	/* one byte of .text differs in the output */
	text = pe->sections[0].pointer_to_raw_data;
	out.mem[text + 17] ^= 1;
	assert_int_equal(verify_kept(p, pe, in.buf, out.mem, UINT64_MAX, 0, 0, &d), SBAT_E_LAYOUT);
	out.mem[text + 17] ^= 1;
	/* with a window, only the ends of each copied range (and around patches) are compared */
	out.mem[text + 17] ^= 1;
	assert_int_equal(verify_kept(p, pe, in.buf, out.mem, UINT64_MAX, 16, 0, &d), SBAT_OK);
	assert_int_equal(verify_kept(p, pe, in.buf, out.mem, UINT64_MAX, 4096, 0, &d), SBAT_E_LAYOUT);
	out.mem[text + 17] ^= 1;
	/* a dry run did not write it: not compared */
	out.mem[p->verify_prefix + 1] ^= 1;
	assert_int_equal(verify_kept(p, pe, in.buf, out.mem, p->verify_prefix, 0, 0, &d), SBAT_OK);
	out.mem[p->verify_prefix + 1] ^= 1;

	/* a plan that would zero part of .text */
	p->patches[p->n_patches].offset = text + 64;
	p->patches[p->n_patches].len = 16;
	p->patches[p->n_patches].zero = 1;
	p->n_patches++;
	assert_int_equal(verify_kept(p, pe, in.buf, out.mem, UINT64_MAX, 0, 0, &d), SBAT_E_LAYOUT);
	/* or write a whole header's worth into it */
	p->patches[p->n_patches - 1].zero = 0;
	p->patches[p->n_patches - 1].len = 40;
	assert_int_equal(verify_kept(p, pe, in.buf, out.mem, UINT64_MAX, 0, 0, &d), SBAT_E_LAYOUT);
	/* a field-sized fix-up (a debug entry's file offset) is fine */
	p->patches[p->n_patches - 1].len = 4;
	assert_int_equal(verify_kept(p, pe, in.buf, out.mem, UINT64_MAX, 0, 0, &d), SBAT_OK);
	/* a plan that leaves out the last bytes of the section data */
	p->n_patches--;
	p->extents[0].len -= 8;
	assert_int_equal(verify_kept(p, pe, in.buf, out.mem, UINT64_MAX, 0, 0, &d), SBAT_E_LAYOUT);

	free(out.mem);
	free(p);
	free(pe);
	free(in.buf);
}

/* A .sbat whose raw data is also another section's is refused before it is rewritten. */
static void
test_edit_overlapping_sbat_refused(void **state)
{
	fx_spec spec = spec_with_sbat(2, 0x200, 0x200);
	static const int modes[] = { 0, 1, 2 }; /* replace, remove, relocate */
	image in;
	hdr a;
	unsigned m;

	(void)state;
	in = build(&spec);
	a = read_hdr(in.buf);
	/* .sbat's PointerToRawData := .rodata's */
	fx_put32((uint8_t *)sect(in.buf, &a, 2) + 20, fx_le32(sect(in.buf, &a, 1) + 20));
	for (m = 0; m < 3; m++) {
		sbat_edit_opts o = opts_with(0, modes[m] == 1);
		uint8_t *out = NULL;
		size_t out_len, len;
		char *csv = modes[m] == 2 ? long_csv(20, &len) : NULL;
		sbat_diag d;

		o.relocate = modes[m] == 2;
		assert_int_equal(edit_buf(in.buf, in.len,
		                          modes[m] == 1 ? NULL :
		                          csv           ? (const uint8_t *)csv :
		                                          PAYLOAD,
		                          modes[m] == 1 ? 0 :
		                          csv           ? len :
		                                          PAYLOAD_LEN,
		                          &o, &out, &out_len, NULL, &d),
		                 SBAT_E_PE_SECTION);
		assert_null(out);
		assert_int_equal(d.other_index, 1);
		assert_string_equal(d.other_name, ".rodata");
		free(csv);
	}
	free(in.buf);
}

static const uint8_t arm64_nop[4] = { 0x1f, 0x20, 0x03, 0xd5 };
static const uint8_t riscv_nop[4] = { 0x13, 0x00, 0x00, 0x00 };

/*
 * An EFI application laid out like gnu-efi's hand-written arm64 header
 * (Debian 12's systemd-bootaa64.efi): 6 data directories, the section
 * table right after the PE header, NOP instructions from its end up to
 * SizeOfHeaders 0x1000, .text at 0x1000 and the entry point there.
 */
static fx_spec
nop_app_spec(uint16_t machine, int fill)
{
	fx_spec spec;

	fx_spec_init(&spec, FX_PLAIN);
	spec.machine = machine;
	spec.pe32plus = machine != FX_MACHINE_RISCV32;
	spec.pe_offset = 0x40;
	spec.num_rva = 6;
	spec.size_of_headers = 0x1000;
	spec.header_fill = fill;
	spec.n_sections = 2;
	spec.sections[1] = spec.sections[2]; /* .text and .data */
	return spec;
}

typedef struct nop_case {
	const char *what;
	uint16_t machine;
	int fill;
	const uint8_t *nop;
} nop_case;

static const nop_case nop_cases[] = {
	{ "arm64", FX_MACHINE_ARM64, FX_FILL_ARM64_NOP, arm64_nop },
	{ "riscv64", FX_MACHINE_RISCV64, FX_FILL_RISCV_NOP, riscv_nop },
	{ "riscv32", FX_MACHINE_RISCV32, FX_FILL_RISCV_NOP, riscv_nop },
};
#define N_NOP_CASES (sizeof(nop_cases) / sizeof(nop_cases[0]))

/* The edit is refused with `want`, nothing is returned, and the message names `what`. */
static void
edit_refused(const image *in, sbat_err want, const char *what)
{
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(edit_buf(in->buf, in->len, PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, NULL, &d), want);
	assert_null(out);
	if (what && (!d.what || !strstr(d.what, what)))
		fail_msg("refused with \"%s\", want \"%s\"", d.what ? d.what : "", what);
}

/* A NOP-padded arm64 or riscv EFI application (not a kernel): the padding is filler. */
static void
test_edit_nop_padded_app_insert(void **state)
{
	unsigned k;

	(void)state;
	for (k = 0; k < N_NOP_CASES; k++) {
		fx_spec spec = nop_app_spec(nop_cases[k].machine, nop_cases[k].fill);

		run_insert(&spec);
	}
}

/* Replacing the .sbat an insert put into NOP padding touches only that section. */
static void
test_edit_nop_padded_app_replace(void **state)
{
	static const char other[] = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	                            "other,7,X,y,1,https://example.invalid/\n";
	unsigned k;

	(void)state;
	for (k = 0; k < N_NOP_CASES; k++) {
		fx_spec spec = nop_app_spec(nop_cases[k].machine, nop_cases[k].fill);
		image in = build(&spec), one, two;
		sbat_edit_report r;

		one = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
		assert_int_equal(r.action, SBAT_ACTION_INSERT);
		two = edit_ok(&one, (const uint8_t *)other, sizeof(other) - 1, NULL, &r);
		assert_int_equal(r.action, SBAT_ACTION_REPLACE);
		check_replace_in_place(&one, &two, 2, (const uint8_t *)other, sizeof(other) - 1);
		check_reads_back(&two, (const uint8_t *)other, sizeof(other) - 1);
		check_idempotent(&two, (const uint8_t *)other, sizeof(other) - 1, NULL);
		free(in.buf);
		free(one.buf);
		free(two.buf);
	}
}

/* Insert then remove gives back the original bytes: the freed slot gets its NOPs back. */
static void
test_edit_nop_padded_app_remove_restores_nops(void **state)
{
	sbat_edit_opts rm = opts_with(0, 1);
	unsigned k;

	(void)state;
	for (k = 0; k < N_NOP_CASES; k++) {
		fx_spec spec = nop_app_spec(nop_cases[k].machine, nop_cases[k].fill);
		image in = build(&spec), one, two;
		sbat_edit_report r;
		hdr a = read_hdr(in.buf);
		size_t slot = a.table + 40u * a.nsec, off;

		one = edit_ok(&in, PAYLOAD, PAYLOAD_LEN, NULL, &r);
		assert_int_equal(r.action, SBAT_ACTION_INSERT);
		assert_memory_equal(one.buf + slot, ".sbat\0\0\0", 8);
		two = edit_ok(&one, NULL, 0, &rm, &r);
		assert_int_equal(r.action, SBAT_ACTION_REMOVE);
		for (off = slot; off < slot + 40; off += 4)
			assert_memory_equal(two.buf + off, nop_cases[k].nop, 4);
		assert_int_equal(two.len, in.len);
		assert_memory_equal(two.buf, in.buf, in.len);
		free(in.buf);
		free(one.buf);
		free(two.buf);
	}
}

/* Which NOP counts depends on the Machine field: another architecture's NOP is data. */
static void
test_edit_nop_padding_needs_matching_machine(void **state)
{
	static const struct {
		uint16_t machine;
		int fill;
	} wrong[] = {
		{ FX_MACHINE_X86_64, FX_FILL_ARM64_NOP },  { FX_MACHINE_X86_64, FX_FILL_RISCV_NOP },
		{ FX_MACHINE_I386, FX_FILL_ARM64_NOP },    { FX_MACHINE_ARM64, FX_FILL_RISCV_NOP },
		{ FX_MACHINE_RISCV64, FX_FILL_ARM64_NOP }, { FX_MACHINE_RISCV32, FX_FILL_ARM64_NOP },
	};
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(wrong) / sizeof(wrong[0]); k++) {
		fx_spec spec = nop_app_spec(wrong[k].machine, wrong[k].fill);
		image in;

		spec.pe32plus = wrong[k].machine != FX_MACHINE_I386 && wrong[k].machine != FX_MACHINE_RISCV32;
		in = build(&spec);
		edit_refused(&in, SBAT_E_NO_HEADER_ROOM, "bytes after the section table are in use");
		free(in.buf);
	}
}

/* Only whole, aligned NOPs are filler: a changed byte, another instruction, a shifted pattern are not. */
static void
test_edit_nop_padding_must_be_intact(void **state)
{
	static const uint8_t yield[4] = { 0x3f, 0x20, 0x03, 0xd5 }; /* arm64 YIELD */
	static const uint8_t half[4] = { 0x1f, 0x20, 0x00, 0x00 };
	static const uint8_t riscv_addi[4] = { 0x13, 0x05, 0x00, 0x00 }; /* addi a0, zero, 0 */
	unsigned k, word;

	(void)state;
	for (k = 0; k < N_NOP_CASES; k++) {
		fx_spec spec = nop_app_spec(nop_cases[k].machine, nop_cases[k].fill);
		image in = build(&spec);
		hdr a = read_hdr(in.buf);
		size_t slot = a.table + 40u * a.nsec;
		uint8_t *copy = malloc(in.len);

		assert_non_null(copy);
		memcpy(copy, in.buf, in.len);
		/* one byte of one instruction changed, anywhere in the slot */
		for (word = 0; word < 10; word++) {
			in.buf[slot + 4 * word + 3] ^= 0x01;
			edit_refused(&in, SBAT_E_NO_HEADER_ROOM, "in use");
			memcpy(in.buf, copy, in.len);
		}
		/* a different instruction in the padding */
		memcpy(in.buf + slot + 20, nop_cases[k].nop == arm64_nop ? yield : riscv_addi, 4);
		edit_refused(&in, SBAT_E_NO_HEADER_ROOM, "in use");
		memcpy(in.buf, copy, in.len);
		memcpy(in.buf + slot + 36, half, 4);
		edit_refused(&in, SBAT_E_NO_HEADER_ROOM, "in use");
		memcpy(in.buf, copy, in.len);
		/* the pattern out of phase: NOP bytes, but not at 4-byte boundaries */
		memmove(in.buf + slot, in.buf + slot + 2, 64);
		edit_refused(&in, SBAT_E_NO_HEADER_ROOM, "in use");
		free(copy);
		free(in.buf);
	}
}

/*
 * NOPs count only inside the headers: bytes past SizeOfHeaders are not
 * header padding, whatever they look like.
 */
static void
test_edit_nop_padding_only_inside_headers(void **state)
{
	static const uint32_t soh[] = { 0, 8, 20, 36 }; /* SizeOfHeaders: the table end plus these */
	unsigned k, i;

	(void)state;
	for (k = 0; k < N_NOP_CASES; k++) {
		for (i = 0; i < sizeof(soh) / sizeof(soh[0]); i++) {
			fx_spec spec = nop_app_spec(nop_cases[k].machine, nop_cases[k].fill);
			image in = build(&spec);
			hdr a = read_hdr(in.buf);

			fx_put32(in.buf + a.opt + T_OPT_SOH, (uint32_t)(a.table + 40u * a.nsec + soh[i]));
			edit_refused(&in, SBAT_E_NO_HEADER_ROOM, "in use");
			free(in.buf);
		}
	}
}

/* Padding the entry point runs through is code, even if it is all NOPs. */
static void
test_edit_nop_padding_with_entry_in_headers(void **state)
{
	unsigned k;

	(void)state;
	for (k = 0; k < N_NOP_CASES; k++) {
		fx_spec spec = nop_app_spec(nop_cases[k].machine, nop_cases[k].fill);
		image in = build(&spec);
		hdr a = read_hdr(in.buf);

		/* AddressOfEntryPoint at the start of the padding: the NOPs slide into .text */
		fx_put32(in.buf + a.opt + 0x10, (uint32_t)(a.table + 40u * a.nsec));
		edit_refused(&in, SBAT_E_NO_HEADER_ROOM, "in use");
		/* at the last NOP before .text */
		fx_put32(in.buf + a.opt + 0x10, a.soh - 4);
		edit_refused(&in, SBAT_E_NO_HEADER_ROOM, "in use");
		free(in.buf);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edit_insert_pe32plus_x86_64),
		cmocka_unit_test(test_edit_insert_pe32_ia32),
		cmocka_unit_test(test_edit_insert_aarch64_app),
		cmocka_unit_test(test_edit_insert_riscv64_app),
		cmocka_unit_test(test_edit_insert_arm64_image),
		cmocka_unit_test(test_edit_insert_zboot),
		cmocka_unit_test(test_edit_insert_bzimage_old),
		cmocka_unit_test(test_edit_insert_bzimage_new),
		cmocka_unit_test(test_edit_kernel_headers_untouched),
		cmocka_unit_test(test_edit_insert_small_alignments),
		cmocka_unit_test(test_edit_insert_checksum_recomputed),
		cmocka_unit_test(test_edit_insert_moves_overlay_after_sbat),
		cmocka_unit_test(test_edit_insert_fixes_offsets_into_overlay),
		cmocka_unit_test(test_edit_insert_grows_size_of_headers),
		cmocka_unit_test(test_edit_bzimage_never_grows_headers),
		cmocka_unit_test(test_edit_strip_signature),
		cmocka_unit_test(test_edit_replace_last_in_place),
		cmocka_unit_test(test_edit_replace_mid_file_in_place),
		cmocka_unit_test(test_edit_replace_equalizes_virtual_size),
		cmocka_unit_test(test_edit_replace_grows_last),
		cmocka_unit_test(test_edit_replace_mid_file_too_big_refused),
		cmocka_unit_test(test_edit_round_trip_deterministic),
		cmocka_unit_test(test_edit_payload_exactly_file_aligned),
		cmocka_unit_test(test_edit_insert_shifts_data_for_header_room),
		cmocka_unit_test(test_edit_no_room_when_first_va_is_at_headers),
		cmocka_unit_test(test_edit_kernel_never_shifts_data),
		cmocka_unit_test(test_edit_relocate_mid_file),
		cmocka_unit_test(test_edit_remove_undoes_insert),
		cmocka_unit_test(test_edit_remove_mid_file_retires),
		cmocka_unit_test(test_edit_remove_without_sbat_refused),
		cmocka_unit_test(test_edit_opts_size_checked),
		cmocka_unit_test(test_edit_report_and_diag_versions),
		cmocka_unit_test(test_edit_arm64_nop_filler),
		cmocka_unit_test(test_edit_replace_tightly_packed),
		cmocka_unit_test(test_edit_verify_kept_catches_lost_bytes),
		cmocka_unit_test(test_edit_overlapping_sbat_refused),
		cmocka_unit_test(test_edit_nop_padded_app_insert),
		cmocka_unit_test(test_edit_nop_padded_app_replace),
		cmocka_unit_test(test_edit_nop_padded_app_remove_restores_nops),
		cmocka_unit_test(test_edit_nop_padding_needs_matching_machine),
		cmocka_unit_test(test_edit_nop_padding_must_be_intact),
		cmocka_unit_test(test_edit_nop_padding_only_inside_headers),
		cmocka_unit_test(test_edit_nop_padding_with_entry_in_headers),
	};

	return run_group(tests, NULL, NULL);
}
