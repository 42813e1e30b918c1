/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* verify.c - check an edited image the way shim, EDK2 and strict loaders will */
#include <stdlib.h>
#include <string.h>

#include "edit/verify.h"

#include "util/ckd.h"
#include "util/diag.h"

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

/* The x86 boot-protocol header, the certificate table's place, SizeOfHeaders and SizeOfImage. */
static sbat_err
verify_headers(const sbat_pe *pe, const sbat_pe *in_pe, const uint8_t *in, const uint8_t *out, size_t out_len,
               sbat_diag *d)
{
	if (pe->kind != in_pe->kind)
		return layout_fail(d, "image kind changed", 0);
	/* nothing may touch the x86 boot protocol header */
	if (pe->kind == SBAT_KIND_BZIMAGE) {
		uint64_t end = BZ_HEADER_MAGIC + (uint64_t)in[BZ_JUMP + 1];

		if (end > out_len || end > in_pe->file_size ||
		    memcmp(out + BZ_HEADER_ROOM_LIMIT, in + BZ_HEADER_ROOM_LIMIT, end - BZ_HEADER_ROOM_LIMIT) != 0)
			return layout_fail(d, "bzImage setup header changed", BZ_SETUP_HEADER_START);
	}
	if (pe->cert_size != 0 && (uint64_t)pe->cert_offset + pe->cert_size != out_len)
		return layout_fail(d, "certificate table is not at the end of the file", pe->off_cert_dir);
	if (pe->size_of_headers != in_pe->size_of_headers &&
	    (pe->lowest_virtual_address < pe->size_of_headers || pe->lowest_raw_pointer < pe->size_of_headers))
		return layout_fail(d, "grown SizeOfHeaders overlaps a section", pe->off_size_of_headers);
	/* zboot kernels carry their exact end (_end) there, unaligned; a removal restores it */
	if (pe->size_of_image != in_pe->size_of_image &&
	    ((pe->size_of_image % pe->section_alignment != 0 &&
	      !(pe->kind == SBAT_KIND_ZBOOT && pe->size_of_image == pe->virtual_end)) ||
	     pe->size_of_image < pe->virtual_end))
		return layout_fail(d, "new SizeOfImage is not aligned or does not cover every section",
		                   pe->off_size_of_image);
	return SBAT_OK;
}

/* A UKI's dropped .pcrsig: none is left; each retired one renamed and zero-filled. */
static sbat_err
verify_pcrsig_dropped(const plan *p, const sbat_pe *pe, const uint8_t *out, sbat_diag *d)
{
	unsigned i;
	uint32_t k;

	if (!(p->report.uki & (SBAT_EDIT_PCRSIG_REMOVED | SBAT_EDIT_PCRSIG_RETIRED)))
		return SBAT_OK;
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		if (memcmp(s->name, ".pcrsig", 8) == 0)
			return layout_fail(d, "output still has a .pcrsig section", s->header_offset);
		if (i >= SBAT_PE_MAX_SECTIONS || !p->dropped[i])
			continue;
		if (memcmp(s->name, SBAT_RETIRED_PCRSIG_NAME, 8) != 0)
			return layout_fail(d, "retired .pcrsig was not renamed", s->header_offset);
		for (k = 0; k < s->size_of_raw_data; k++)
			if (out[s->pointer_to_raw_data + k] != 0)
				return layout_fail(d, "retired .pcrsig data is not zeroed", s->pointer_to_raw_data + k);
	}
	return SBAT_OK;
}

/* A retired .sbat is renamed and zero-filled; after a removal no .sbat is left. */
static sbat_err
verify_removed(const plan *p, const sbat_pe *pe, const uint8_t *out, sbat_diag *d)
{
	unsigned i;

	if (p->report.retired_index >= 0) {
		const sbat_pe_section *r = &pe->sections[p->report.retired_index];

		if (memcmp(r->name, SBAT_RETIRED_SECTION_NAME, 8) != 0)
			return layout_fail(d, "retired .sbat was not renamed", r->header_offset);
		for (i = 0; i < r->size_of_raw_data; i++)
			if (out[r->pointer_to_raw_data + i] != 0)
				return layout_fail(d, "retired .sbat data is not zeroed", r->pointer_to_raw_data + i);
	}
	if ((p->report.action == SBAT_ACTION_REMOVE || p->report.action == SBAT_ACTION_RETIRE) && pe->sbat_count != 0)
		return layout_fail(d, "output still has a .sbat section", pe->off_number_of_sections);
	return verify_pcrsig_dropped(p, pe, out, d);
}

/* The one .sbat: where planned, the payload then NUL padding, covered by VirtualSize, no relocations. */
static sbat_err
verify_contents(const plan *p, const sbat_pe *pe, const uint8_t *out, const uint8_t *payload, size_t payload_len,
                sbat_diag *d)
{
	const sbat_pe_section *s;
	uint64_t h;
	unsigned i;

	if (pe->sbat_count != 1)
		return layout_fail(d, "output does not have exactly one .sbat section", pe->off_number_of_sections);
	s = &pe->sections[pe->sbat_index];
	h = s->header_offset;
	if (h != p->section_header_offset)
		return layout_fail(d, ".sbat header is not where it was planned", h);
	if (s->size_of_raw_data < payload_len || memcmp(out + s->pointer_to_raw_data, payload, payload_len) != 0)
		return layout_fail(d, ".sbat data does not read back", h + SH_POINTER_TO_RAW_DATA);
	for (i = (unsigned)payload_len; i < s->size_of_raw_data; i++)
		if (out[s->pointer_to_raw_data + i] != 0)
			return layout_fail(d, ".sbat padding is not NUL", s->pointer_to_raw_data + i);
	if (s->virtual_size == 0 || s->virtual_size < payload_len)
		return layout_fail(d, ".sbat VirtualSize does not cover the data", h + SH_VIRTUAL_SIZE);
	if (s->pointer_to_relocations != 0 || s->number_of_relocations != 0)
		return layout_fail(d, ".sbat has relocations", h + SH_POINTER_TO_RELOCATIONS);
	return SBAT_OK;
}

/*
 * The .sbat's place: after the headers, aligned where this edit placed or
 * sized it, inside SizeOfImage, overlapping no other section, and a new
 * one exactly at the aligned end of the previous last section.
 */
static sbat_err
verify_placement(const plan *p, const sbat_pe *pe, const sbat_pe *in_pe, sbat_diag *d)
{
	const sbat_pe_section *s = &pe->sections[pe->sbat_index];
	uint64_t h = s->header_offset, expect;
	sbat_edit_action action = p->report.action;
	unsigned i;

	if (s->virtual_address < pe->size_of_headers || s->pointer_to_raw_data < pe->size_of_headers)
		return layout_fail(d, ".sbat lies inside the image headers", h + SH_VIRTUAL_ADDRESS);
	if (action != SBAT_ACTION_REPLACE) {
		if (action != SBAT_ACTION_GROW && s->virtual_address % pe->section_alignment != 0)
			return layout_fail(d, ".sbat VirtualAddress is not a multiple of SectionAlignment",
			                   h + SH_VIRTUAL_ADDRESS);
		if ((action != SBAT_ACTION_GROW && s->pointer_to_raw_data % pe->file_alignment != 0) ||
		    s->size_of_raw_data % pe->file_alignment != 0)
			return layout_fail(d, ".sbat raw data is not aligned to FileAlignment",
			                   h + SH_POINTER_TO_RAW_DATA);
	}
	if ((uint64_t)s->virtual_address + s->virtual_size > pe->size_of_image)
		return layout_fail(d, "SizeOfImage does not cover .sbat", pe->off_size_of_image);
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *o = &pe->sections[i];

		if ((int)i == pe->sbat_index)
			continue;
		if (overlaps(s->virtual_address, s->virtual_size, o->virtual_address, pe_section_memory_size(o)))
			return layout_fail(d, ".sbat overlaps another section in memory", h + SH_VIRTUAL_ADDRESS);
		if (overlaps(s->pointer_to_raw_data, s->size_of_raw_data, o->pointer_to_raw_data, o->size_of_raw_data))
			return layout_fail(d, ".sbat overlaps another section in the file", h + SH_POINTER_TO_RAW_DATA);
	}
	/* strict loaders: each VA is the aligned end of the previous one */
	if ((action == SBAT_ACTION_INSERT || action == SBAT_ACTION_RELOCATE) &&
	    ((unsigned)pe->sbat_index != pe->number_of_sections - 1u ||
	     ckd_align_u64(&expect, in_pe->virtual_end, pe->section_alignment) || s->virtual_address != expect))
		return layout_fail(d, "new .sbat is not adjacent to the last section", h + SH_VIRTUAL_ADDRESS);
	return SBAT_OK;
}

sbat_err
verify_output(const plan *p, const sbat_pe *in_pe, const uint8_t *in, const uint8_t *out, size_t out_len,
              const uint8_t *payload, size_t payload_len, sbat_diag *d)
{
	sbat_pe *pe = malloc(sizeof(*pe));
	sbat_err err;

	if (!pe)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	/* the output must parse with the same rules as any input */
	err = pe_parse(out, out_len, pe, d);
	if (!err)
		err = verify_headers(pe, in_pe, in, out, out_len, d);
	if (!err)
		err = verify_removed(p, pe, out, d);
	if (!err && p->report.action != SBAT_ACTION_REMOVE && p->report.action != SBAT_ACTION_RETIRE) {
		err = verify_contents(p, pe, out, payload, payload_len, d);
		if (!err)
			err = verify_placement(p, pe, in_pe, d);
	}
	free(pe);
	return err;
}

/* 1 if output byte `at` lies under some patch or the recomputed CheckSum. */
static int
patched(const plan *p, uint64_t at)
{
	unsigned i;

	if (p->update_checksum && at >= p->checksum_offset && at - p->checksum_offset < 4)
		return 1;

	for (i = 0; i < p->n_patches; i++)
		if (at >= p->patches[i].offset && at - p->patches[i].offset < p->patches[i].len)
			return 1;
	return 0;
}

/*
 * A copied byte at input offset `at` differs in the output. From a file
 * input (in_file), copied from the file moments before, the file changed
 * in between: a process writing through a shared mapping moves no time
 * stamp. From memory it is a fault of the edit.
 */
static sbat_err
copy_differs(int in_file, uint64_t at, sbat_diag *d)
{
	if (in_file)
		return diag_fail_at(d, SBAT_E_CHANGED,
		                    "the file changed while being edited: its bytes here are no longer those just "
		                    "copied from it (a write through a shared mapping moves no time stamp); "
		                    "nothing was written",
		                    at);
	return layout_fail(d, "internal error: a copied byte changed in the output", at);
}

/* Copied bytes [pos, pos+len) of the output equal in[src..]; differences only under patches. */
static sbat_err
verify_copy(const plan *p, const uint8_t *in, uint64_t src, const uint8_t *out, uint64_t pos, uint64_t len, int in_file,
            sbat_diag *d)
{
	uint64_t off = 0;

	while (off < len) {
		size_t n = len - off > 4096 ? 4096 : (size_t)(len - off);
		size_t i;

		if (memcmp(in + src + off, out + pos + off, n) != 0)
			for (i = 0; i < n; i++)
				if (in[src + off + i] != out[pos + off + i] && !patched(p, pos + off + i))
					return copy_differs(in_file, src + off + i, d);
		off += n;
	}
	return SBAT_OK;
}

/*
 * Input range [a, b) (part `what` of the image, section `index` or -1 for
 * headers and trailing data) is copied whole, and no data patch, nor for a
 * section any patch longer than a field, overwrites it in the output.
 */
static sbat_err
verify_range_kept(const plan *p, uint64_t a, uint64_t b, int index, uint64_t header_offset, sbat_diag *d)
{
	while (a < b) {
		uint64_t pos = 0, run = 0, out_at = 0;
		unsigned i;

		for (i = 0; i < p->n_extents; i++) {
			const extent *e = &p->extents[i];

			if (e->kind == EXTENT_COPY && a >= e->src && a - e->src < e->len) {
				out_at = pos + (a - e->src);
				run = e->len - (a - e->src);
				break;
			}
			pos += p->extents[i].len;
		}
		if (!run)
			return layout_fail(d,
			                   index >= 0 ? "internal error: the edit would drop bytes of another "
			                                "section" :
			                                "internal error: the edit would drop header or trailing bytes",
			                   index >= 0 ? header_offset : a);
		if (run > b - a)
			run = b - a;
		for (i = 0; i < p->n_patches; i++) {
			const patch *q = &p->patches[i];

			if ((q->zero || (index >= 0 && q->len > 4)) && overlaps(q->offset, q->len, out_at, run))
				return layout_fail(d,
				                   "internal error: the edit would overwrite bytes of another section",
				                   index >= 0 ? header_offset : a);
		}
		a += run;
	}
	return SBAT_OK;
}

/* Compare copied bytes [pos+from, pos+to) of extent e against the input. */
static sbat_err
verify_copy_part(const plan *p, const uint8_t *in, const extent *e, const uint8_t *out, uint64_t pos, uint64_t from,
                 uint64_t to, int in_file, sbat_diag *d)
{
	return from < to ? verify_copy(p, in, e->src + from, out, pos + from, to - from, in_file, d) : SBAT_OK;
}

/*
 * The copied bytes of extent e (at output offset pos, the first n of them
 * written): all of them, or with a window, only the window's worth at both
 * ends and around every patch, where an offset mistake would show.
 */
static sbat_err
verify_extent(const plan *p, const uint8_t *in, const extent *e, const uint8_t *out, uint64_t pos, uint64_t n,
              uint64_t window, int in_file, sbat_diag *d)
{
	sbat_err err;
	unsigned i;

	if (!window || n <= 2 * window)
		return verify_copy_part(p, in, e, out, pos, 0, n, in_file, d);
	err = verify_copy_part(p, in, e, out, pos, 0, window, in_file, d);
	if (!err)
		err = verify_copy_part(p, in, e, out, pos, n - window, n, in_file, d);
	for (i = 0; i < p->n_patches && !err; i++) {
		const patch *q = &p->patches[i];
		uint64_t a, b;

		if (!overlaps(q->offset, q->len, pos, n))
			continue;
		a = q->offset > pos + window ? q->offset - pos - window : 0;
		b = q->offset + q->len + window - pos;
		err = verify_copy_part(p, in, e, out, pos, a, b < n ? b : n, in_file, d);
	}
	return err;
}

sbat_err
verify_kept(const plan *p, const sbat_pe *in_pe, const uint8_t *in, const uint8_t *out, uint64_t sparse_from,
            uint64_t window, int in_file, sbat_diag *d)
{
	uint64_t pos = 0;
	unsigned i;
	sbat_err err;

	for (i = 0; i < p->n_extents; i++) {
		const extent *e = &p->extents[i];

		if (e->kind == EXTENT_COPY && pos < sparse_from) {
			uint64_t n = sparse_from - pos < e->len ? sparse_from - pos : e->len;

			err = verify_extent(p, in, e, out, pos, n, window, in_file, d);
			if (err)
				return err;
		}
		pos += e->len;
	}
	err = verify_range_kept(p, 0, in_pe->size_of_headers, -1, 0, d);
	if (!err)
		err = verify_range_kept(p, p->report.overlay_offset, p->report.overlay_offset + p->report.overlay_size,
		                        -1, 0, d);
	for (i = 0; i < in_pe->number_of_sections && !err; i++) {
		const sbat_pe_section *s = &in_pe->sections[i];

		if ((int)i != in_pe->sbat_index && !p->dropped[i] && s->size_of_raw_data)
			err = verify_range_kept(p, s->pointer_to_raw_data,
			                        (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data, (int)i,
			                        s->header_offset, d);
	}
	return err;
}
