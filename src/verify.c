/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* verify.c - check an edited image the way shim, EDK2 and strict loaders will */
#include <string.h>

#include "plan.h"

#include "ckd.h"
#include "diag.h"

static sbat_err
layout_fail(sbat_diag *d, const char *what, uint64_t offset)
{
	return diag_fail_at(d, SBAT_E_LAYOUT, what, offset);
}

/* 1 if [a, a+an) and [b, b+bn) share a byte. */
static int
overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
	return an && bn && a < b + bn && b < a + an;
}

sbat_err
plan_verify(const plan *p, const sbat_pe *in_pe, const uint8_t *in, const uint8_t *out,
            size_t out_len, const uint8_t *payload, size_t payload_len, sbat_diag *d)
{
	sbat_pe pe;
	const sbat_pe_section *s;
	uint64_t h;
	unsigned i;
	sbat_err err;

	/* the output must parse with the same rules as any input */
	err = sbat_pe_parse(out, out_len, &pe, d);
	if (err)
		return err;
	if (pe.kind != in_pe->kind)
		return layout_fail(d, "image kind changed", 0);
	/* nothing may touch the x86 boot protocol header */
	if (pe.kind == SBAT_KIND_BZIMAGE) {
		uint64_t end = BZ_HEADER_MAGIC + (uint64_t)in[BZ_JUMP + 1];

		if (end > out_len || end > in_pe->file_size ||
		    memcmp(out + BZ_HEADER_ROOM_LIMIT, in + BZ_HEADER_ROOM_LIMIT, end - BZ_HEADER_ROOM_LIMIT) != 0)
			return layout_fail(d, "bzImage setup header changed", BZ_SETUP_HEADER_START);
	}
	if (pe.cert_size != 0 && (uint64_t)pe.cert_offset + pe.cert_size != out_len)
		return layout_fail(d, "certificate table is not at the end of the file", pe.off_cert_dir);
	if (pe.size_of_headers != in_pe->size_of_headers &&
	    (pe.lowest_virtual_address < pe.size_of_headers || pe.lowest_raw_pointer < pe.size_of_headers))
		return layout_fail(d, "grown SizeOfHeaders overlaps a section", pe.off_size_of_headers);
	if (pe.size_of_image != in_pe->size_of_image &&
	    (pe.size_of_image % pe.section_alignment != 0 || pe.size_of_image < pe.virtual_end))
		return layout_fail(d, "new SizeOfImage is not aligned or does not cover every section",
		                   pe.off_size_of_image);
	if (p->report.retired_index >= 0) {
		const sbat_pe_section *r = &pe.sections[p->report.retired_index];

		if (memcmp(r->name, SBAT_RETIRED_SECTION_NAME, 8) != 0)
			return layout_fail(d, "retired .sbat was not renamed", r->header_offset);
		for (i = 0; i < r->size_of_raw_data; i++)
			if (out[r->pointer_to_raw_data + i] != 0)
				return layout_fail(d, "retired .sbat data is not zeroed", r->pointer_to_raw_data + i);
	}
	if (p->report.action == SBAT_ACTION_REMOVE || p->report.action == SBAT_ACTION_RETIRE) {
		if (pe.sbat_count != 0)
			return layout_fail(d, "output still has a .sbat section", pe.off_number_of_sections);
		return SBAT_OK;
	}

	if (pe.sbat_count != 1)
		return layout_fail(d, "output does not have exactly one .sbat section", pe.off_number_of_sections);
	s = &pe.sections[pe.sbat_index];
	h = s->header_offset;
	if (h != p->section_header_offset)
		return layout_fail(d, ".sbat header is not where it was planned", h);
	if (s->size_of_raw_data < payload_len ||
	    memcmp(out + s->pointer_to_raw_data, payload, payload_len) != 0)
		return layout_fail(d, ".sbat data does not read back", h + SH_POINTER_TO_RAW_DATA);
	for (i = (unsigned)payload_len; i < s->size_of_raw_data; i++)
		if (out[s->pointer_to_raw_data + i] != 0)
			return layout_fail(d, ".sbat padding is not NUL", s->pointer_to_raw_data + i);
	if (s->virtual_size == 0 || s->virtual_size < payload_len)
		return layout_fail(d, ".sbat VirtualSize does not cover the data", h + SH_VIRTUAL_SIZE);
	if (s->pointer_to_relocations != 0 || s->number_of_relocations != 0)
		return layout_fail(d, ".sbat has relocations", h + SH_POINTER_TO_RELOCATIONS);
	if (s->virtual_address < pe.size_of_headers || s->pointer_to_raw_data < pe.size_of_headers)
		return layout_fail(d, ".sbat lies inside the image headers", h + SH_VIRTUAL_ADDRESS);
	/* where this edit placed or sized the section, it follows the image's alignments */
	if (p->report.action != SBAT_ACTION_REPLACE) {
		if (p->report.action != SBAT_ACTION_GROW && s->virtual_address % pe.section_alignment != 0)
			return layout_fail(d, ".sbat VirtualAddress is not a multiple of SectionAlignment",
			                   h + SH_VIRTUAL_ADDRESS);
		if ((p->report.action != SBAT_ACTION_GROW && s->pointer_to_raw_data % pe.file_alignment != 0) ||
		    s->size_of_raw_data % pe.file_alignment != 0)
			return layout_fail(d, ".sbat raw data is not aligned to FileAlignment",
			                   h + SH_POINTER_TO_RAW_DATA);
	}
	if ((uint64_t)s->virtual_address + s->virtual_size > pe.size_of_image)
		return layout_fail(d, "SizeOfImage does not cover .sbat", pe.off_size_of_image);

	for (i = 0; i < pe.number_of_sections; i++) {
		const sbat_pe_section *o = &pe.sections[i];

		if ((int)i == pe.sbat_index)
			continue;
		if (overlaps(s->virtual_address, s->virtual_size, o->virtual_address,
		             sbat_pe_section_memory_size(o)))
			return layout_fail(d, ".sbat overlaps another section in memory", h + SH_VIRTUAL_ADDRESS);
		if (overlaps(s->pointer_to_raw_data, s->size_of_raw_data, o->pointer_to_raw_data,
		             o->size_of_raw_data))
			return layout_fail(d, ".sbat overlaps another section in the file", h + SH_POINTER_TO_RAW_DATA);
	}
	if (p->report.action == SBAT_ACTION_INSERT || p->report.action == SBAT_ACTION_RELOCATE) {
		uint64_t expect;

		/* strict loaders: each VA is the aligned end of the previous one */
		if ((unsigned)pe.sbat_index != pe.number_of_sections - 1u ||
		    !ckd_align_u64(&expect, in_pe->virtual_end, pe.section_alignment) ||
		    s->virtual_address != expect)
			return layout_fail(d, "new .sbat is not adjacent to the last section", h + SH_VIRTUAL_ADDRESS);
	}
	return SBAT_OK;
}
