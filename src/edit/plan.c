/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* plan.c - choose where .sbat goes, which bytes move and which header fields change */
#include <stdlib.h>
#include <string.h>

#include "edit/plan.h"

#include "util/ckd.h"
#include "util/diag.h"
#include "util/le.h"

static const uint8_t zero_header[SH_SIZE];

/* Trailing data that is not the certificate table: kept, behind the sections. */
typedef struct tail {
	uint64_t start; /* input offset where the kept tail begins (end of section data) */
	uint64_t end;   /* input offset where it ends (certificate table or EOF) */
} tail;

static void
add_extent(plan *p, extent_kind kind, uint64_t src, uint64_t len)
{
	extent *e;

	if (len == 0)
		return;
	if (p->n_extents == PLAN_MAX_EXTENTS) {
		p->overflow = 1;
		return;
	}
	e = &p->extents[p->n_extents++];
	e->kind = kind;
	e->src = src;
	e->len = len;
	p->output_size += len;
}

/* A new patch; when the table is full, a spill slot and the plan is marked to be refused. */
static patch *
new_patch(plan *p, uint64_t offset, uint64_t len)
{
	patch *q = p->n_patches < PLAN_MAX_PATCHES ? &p->patches[p->n_patches++] : &p->spill;

	if (q == &p->spill)
		p->overflow = 1;

	memset(q, 0, sizeof(*q));
	q->offset = offset;
	q->len = len;
	return q;
}

static void
add_patch32(plan *p, uint64_t offset, uint32_t value)
{
	le32_put(new_patch(p, offset, 4)->bytes, value);
}

static void
add_patch16(plan *p, uint64_t offset, uint16_t value)
{
	le16_put(new_patch(p, offset, 2)->bytes, value);
}

static void
add_patch_bytes(plan *p, uint64_t offset, const void *bytes, unsigned len)
{
	memcpy(new_patch(p, offset, len)->bytes, bytes, len);
}

static void
add_patch_zero(plan *p, uint64_t offset, uint64_t len)
{
	if (len)
		new_patch(p, offset, len)->zero = 1;
}

static void
fill_section_header(uint8_t h[SH_SIZE], uint32_t vsize, uint32_t va, uint32_t raw_size, uint32_t raw_ptr,
                    uint32_t characteristics)
{
	/* relocations must be 0/0: shim rejects ".sbat" with relocations */
	le32_put(h + SH_VIRTUAL_SIZE, vsize);
	le32_put(h + SH_VIRTUAL_ADDRESS, va);
	le32_put(h + SH_SIZE_OF_RAW_DATA, raw_size);
	le32_put(h + SH_POINTER_TO_RAW_DATA, raw_ptr);
	le32_put(h + SH_POINTER_TO_RELOCATIONS, 0);
	le16_put(h + SH_NUMBER_OF_RELOCATIONS, 0);
	le32_put(h + SH_CHARACTERISTICS, characteristics);
}

int
plan_all_bytes(const uint8_t *p, uint64_t n, uint8_t value)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (p[i] != value)
			return 0;
	return 1;
}

/*
 * Filler a section header may overwrite: zeros, the 0xFF fill of 6.7+
 * bzImages, or the NOP instructions an assembler's `.balign` writes into
 * header padding of arm64 and riscv images (kernels' efi-header.S, gnu-efi's
 * hand-written header). n bytes at file offset off. NOPs count only for the
 * image's own architecture (Machine), only as whole aligned instructions,
 * only inside the headers (before SizeOfHeaders and any section's raw
 * data), and only when the entry point is not in the headers, so that no
 * code runs through them.
 */
static int
is_filler(const sbat_pe *pe, const uint8_t *p, uint64_t off, uint64_t n)
{
	static const uint8_t arm64_nop[4] = { 0x1f, 0x20, 0x03, 0xd5 };
	static const uint8_t riscv_nop[4] = { 0x13, 0x00, 0x00, 0x00 };
	const uint8_t *nop = pe->machine == MACHINE_ARM64                                     ? arm64_nop :
	                     pe->machine == MACHINE_RISCV64 || pe->machine == MACHINE_RISCV32 ? riscv_nop :
	                                                                                        NULL;
	uint64_t i;

	if (plan_all_bytes(p, n, 0) || plan_all_bytes(p, n, 0xff))
		return 1;
	if (!nop || off % 4 != 0 || n % 4 != 0)
		return 0;
	if (off + n > pe->size_of_headers || off + n > pe->lowest_raw_pointer ||
	    pe->address_of_entry_point < pe->size_of_headers)
		return 0;
	for (i = 0; i < n; i += 4)
		if (memcmp(p + i, nop, 4) != 0)
			return 0;
	return 1;
}

/*
 * Where an input byte lands in the output, by the copy extents; 0 when it
 * is not copied (it lies in data the edit drops or overwrites).
 */
int
plan_map_offset(const plan *p, uint64_t in_off, uint64_t *ret)
{
	uint64_t pos = 0;
	unsigned i;

	for (i = 0; i < p->n_extents; i++) {
		const extent *e = &p->extents[i];

		if (e->kind == EXTENT_COPY && in_off >= e->src && in_off - e->src < e->len) {
			*ret = pos + (in_off - e->src);
			return 1;
		}
		pos += e->len;
	}
	return 0;
}

/*
 * File offsets stored in headers follow the bytes they point to: section
 * PointerToRawData (except `skip`, whose header the edit writes itself),
 * debug-directory PointerToRawData and the COFF PointerToSymbolTable.
 */
static void
fix_file_offsets(const sbat_pe *pe, plan *p, int skip)
{
	uint64_t out;
	unsigned i;

	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		if ((int)i == skip || s->size_of_raw_data == 0)
			continue;
		if (plan_map_offset(p, s->pointer_to_raw_data, &out) && out != s->pointer_to_raw_data)
			add_patch32(p, s->header_offset + SH_POINTER_TO_RAW_DATA, (uint32_t)out);
	}
	for (i = 0; i < pe->debug_count; i++) {
		const sbat_pe_debug_entry *e = &pe->debug[i];
		uint64_t field;

		if (e->pointer_to_raw_data == 0 || !plan_map_offset(p, e->field_offset, &field))
			continue;
		if (plan_map_offset(p, e->pointer_to_raw_data, &out) && out != e->pointer_to_raw_data)
			add_patch32(p, field, (uint32_t)out);
	}
	if (pe->pointer_to_symbol_table != 0 && plan_map_offset(p, pe->pointer_to_symbol_table, &out) &&
	    out != pe->pointer_to_symbol_table)
		add_patch32(p, pe->off_pointer_to_symbol_table, (uint32_t)out);
}

/* 1 if some copied input byte lands at another offset in the output. */
static int
moves_data(const plan *p)
{
	uint64_t pos = 0;
	unsigned i;

	for (i = 0; i < p->n_extents; i++) {
		if (p->extents[i].kind == EXTENT_COPY && p->extents[i].src != pos)
			return 1;
		pos += p->extents[i].len;
	}
	return 0;
}

static void
report_tail(plan *p, const tail *t)
{
	uint64_t out = t->start;

	p->report.overlay_offset = t->start;
	p->report.overlay_size = t->end - t->start;
	if (t->end > t->start)
		plan_map_offset(p, t->start, &out);
	p->report.overlay_new_offset = out;
}

/*
 * The certificate table goes (signature invalid after any edit) or the
 * edit is refused. Returns the trailing data to keep after the sections.
 */
static sbat_err
plan_signature(const sbat_pe *pe, const uint8_t *in, size_t in_len, const sbat_edit_opts *opts, plan *p, tail *t,
               sbat_diag *d)
{
	t->start = pe->raw_end;
	t->end = pe->data_end;
	if (pe->cert_size == 0)
		return SBAT_OK;
	/* kept as trailing data: only an edit that changes nothing is allowed (see plan_build) */
	if (!opts->strip_signature) {
		p->keep_signature = 1;
		t->end = in_len;
		return SBAT_OK;
	}
	if ((uint64_t)pe->cert_offset + pe->cert_size != in_len)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "data follows the certificate table (data directory 4)",
		                    pe->off_cert_dir);
	/* signers pad the image to 8 bytes with zeros before the table; that padding goes too */
	if (t->end - t->start < 8 && plan_all_bytes(in + t->start, t->end - t->start, 0))
		t->end = t->start;
	add_patch32(p, pe->off_cert_dir, 0);
	add_patch32(p, pe->off_cert_dir + 4, 0);
	p->report.stripped_cert_size = pe->cert_size;
	return SBAT_OK;
}

/* The highest offset a new section header may end at without moving any data. */
static uint64_t
header_room_limit(const sbat_pe *pe)
{
	uint64_t limit = pe->lowest_raw_pointer;

	if (pe->lowest_virtual_address < limit)
		limit = pe->lowest_virtual_address;
	/* the real-mode setup header starts at 0x1EF/0x1F1 in a bzImage */
	if (pe->kind == SBAT_KIND_BZIMAGE && limit > BZ_HEADER_ROOM_LIMIT)
		limit = BZ_HEADER_ROOM_LIMIT;
	return limit;
}

/*
 * Make room for one more section header. Without moving data when it fits
 * (SizeOfHeaders may round up to FileAlignment, as ukify does); otherwise,
 * for plain EFI applications only, by moving all section data down by whole
 * FileAlignment units. Sets *ret_soh and *ret_shift.
 */
static sbat_err
plan_header_room(const sbat_pe *pe, uint32_t *ret_soh, uint64_t *ret_shift, sbat_diag *d)
{
	uint64_t slot = pe->section_table_end, slot_end = slot + SH_SIZE, soh, shift = 0;

	if (pe->number_of_sections >= SBAT_PE_MAX_SECTIONS)
		return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM, "image already has 96 sections",
		                    pe->off_number_of_sections);
	if (pe->kind == SBAT_KIND_BZIMAGE && slot_end > BZ_HEADER_ROOM_LIMIT)
		return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM,
		                    "no room for a section header before the bzImage setup header at 0x1ef, "
		                    "and a bzImage's file offsets cannot move (kernels before 6.7 built with "
		                    "EFI mixed mode have no room; build them with CONFIG_EFI_SBAT_FILE instead)",
		                    slot);
	soh = pe->size_of_headers;
	if (slot_end <= soh && slot_end <= header_room_limit(pe)) {
		*ret_soh = (uint32_t)soh;
		*ret_shift = 0;
		return SBAT_OK;
	}
	if (slot_end > soh && ckd_align_u64(&soh, slot_end, pe->file_alignment))
		return diag_fail(d, SBAT_E_PE_OVERFLOW, "SizeOfHeaders would overflow");
	if (soh > header_room_limit(pe)) {
		/* kernels: loaders and the decompressor rely on file offsets */
		if (pe->kind != SBAT_KIND_EFI_APP)
			return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM,
			                    "no room for a section header before the first section, and the "
			                    "file offsets of a kernel image cannot move",
			                    slot);
		/* VAs never move, so the grown headers must still end below the first VA */
		if (soh > pe->lowest_virtual_address)
			return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM,
			                    "no room for a section header: the headers would overlap the first "
			                    "section's VirtualAddress",
			                    slot);
		if (soh > pe->lowest_raw_pointer &&
		    ckd_align_u64(&shift, soh - pe->lowest_raw_pointer, pe->file_alignment))
			return diag_fail(d, SBAT_E_PE_OVERFLOW, "header growth would overflow");
	}
	*ret_soh = (uint32_t)soh;
	*ret_shift = shift;
	return SBAT_OK;
}

/* 1 if [a, a+an) and [b, b+bn) share a byte. */
static int
ranges_overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
	return an && bn && a < b + bn && b < a + an;
}

/*
 * The slot must be unused filler (see is_filler) and hold no debug data,
 * neither in the file (PointerToRawData; 0 means none) nor in memory, where
 * the headers map at their file offsets (AddressOfRawData). Bytes from the
 * first section's data on are not checked when that data moves away (shift);
 * debug data there moves with it and its file offset is fixed.
 */
static sbat_err
check_slot_free(const sbat_pe *pe, const uint8_t *in, uint64_t shift, sbat_diag *d)
{
	uint64_t slot = pe->section_table_end, n = SH_SIZE;
	unsigned i;

	if (shift && pe->lowest_raw_pointer - slot < n)
		n = pe->lowest_raw_pointer - slot;
	/* the header of a section this edit removes is free: the new header is written over it */
	if (!pe->header_slot_freed && !is_filler(pe, in + slot, slot, n))
		return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM,
		                    "bytes after the section table are in use (debug data or code?)", slot);
	for (i = 0; i < pe->debug_count; i++) {
		const sbat_pe_debug_entry *e = &pe->debug[i];

		if ((e->pointer_to_raw_data && ranges_overlap(e->pointer_to_raw_data, e->size_of_data, slot, n)) ||
		    (e->address_of_raw_data && ranges_overlap(e->address_of_raw_data, e->size_of_data, slot, SH_SIZE)))
			return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM, "debug data lives right after the section table",
			                    e->field_offset);
	}
	return SBAT_OK;
}

/* Where a new .sbat goes, in the file and in memory. */
typedef struct placement {
	uint64_t shift;    /* section data moves down this far to make header room */
	uint64_t data_end; /* where the section data ends once moved */
	uint32_t soh;      /* SizeOfHeaders afterwards */
	uint32_t va, raw_ptr, raw_size, soi;
} placement;

/* The section's numbers in the report. */
static void
report_section(plan *p, unsigned index, uint32_t va, uint32_t vsize, uint32_t raw_ptr, uint32_t raw_size,
               uint32_t characteristics)
{
	p->report.section_index = index;
	p->report.virtual_address = va;
	p->report.virtual_size = vsize;
	p->report.pointer_to_raw_data = raw_ptr;
	p->report.size_of_raw_data = raw_size;
	p->report.characteristics = characteristics;
}

/* SizeOfInitializedData grown by `by`: informational only, firmware ignores it; saturate rather than fail. */
static void
patch_initialized_data(const sbat_pe *pe, plan *p, uint64_t by)
{
	uint32_t v;

	if (ckd_add_u32(&v, pe->size_of_initialized_data, by))
		v = UINT32_MAX;
	add_patch32(p, pe->off_size_of_initialized_data, v);
}

/*
 * The header slot, the VA (exactly the aligned end of the highest section:
 * VAs ascend and are adjacent), the raw data at the aligned end of the
 * section data, and the SizeOfImage that covers it. The raw size always
 * leaves room for a NUL after the CSV, so every reader finds its end.
 */
static sbat_err
place_new_section(const sbat_pe *pe, const uint8_t *in, size_t payload_len, const tail *t, placement *pl, sbat_diag *d)
{
	sbat_err err;

	err = plan_header_room(pe, &pl->soh, &pl->shift, d);
	if (!err)
		err = check_slot_free(pe, in, pl->shift, d);
	if (err)
		return err;
	if (ckd_add_u64(&pl->data_end, t->start, pl->shift) ||
	    ckd_align_u32(&pl->va, pe->virtual_end, pe->section_alignment) ||
	    ckd_align_u32(&pl->raw_ptr, pl->data_end, pe->file_alignment) ||
	    ckd_align_u32(&pl->raw_size, (uint64_t)payload_len + 1, pe->file_alignment) ||
	    ckd_align_u32(&pl->soi, (uint64_t)pl->va + pl->raw_size, pe->section_alignment))
		return diag_fail(d, SBAT_E_PE_OVERFLOW, "new .sbat section would lie beyond 4 GiB");
	if (pl->soi < pe->size_of_image)
		pl->soi = pe->size_of_image;
	return SBAT_OK;
}

/* Keep an old .sbat's header (VAs stay adjacent), but no reader may take it for .sbat: renamed, zeroed. */
static void
retire_section(const sbat_pe *pe, plan *p, int index)
{
	const sbat_pe_section *old = &pe->sections[index];
	uint64_t data;

	add_patch_bytes(p, old->header_offset + SH_NAME, SBAT_RETIRED_SECTION_NAME, 8);
	if (plan_map_offset(p, old->pointer_to_raw_data, &data))
		add_patch_zero(p, data, old->size_of_raw_data);
	p->report.action = SBAT_ACTION_RELOCATE;
	p->report.retired_index = index;
}

/*
 * Append a new .sbat section: header after the last one, data after the
 * section data, trailing data after it. `retire` >= 0 names an old .sbat
 * to rename and zero.
 */
static sbat_err
plan_insert(const sbat_pe *pe, const uint8_t *in, size_t payload_len, plan *p, const tail *t, int retire, sbat_diag *d)
{
	uint8_t header[SH_SIZE];
	placement pl;
	sbat_err err;

	err = place_new_section(pe, in, payload_len, t, &pl, d);
	if (err)
		return err;
	if (pl.shift) {
		add_extent(p, EXTENT_COPY, 0, pe->lowest_raw_pointer);
		add_extent(p, EXTENT_ZERO, 0, pl.shift);
		add_extent(p, EXTENT_COPY, pe->lowest_raw_pointer, t->start - pe->lowest_raw_pointer);
	} else {
		add_extent(p, EXTENT_COPY, 0, t->start);
	}
	add_extent(p, EXTENT_ZERO, 0, pl.raw_ptr - pl.data_end);
	add_extent(p, EXTENT_PAYLOAD, 0, payload_len);
	add_extent(p, EXTENT_ZERO, 0, pl.raw_size - payload_len);
	add_extent(p, EXTENT_COPY, t->start, t->end - t->start);

	memset(header, 0, sizeof(header));
	memcpy(header, SBAT_SECTION_NAME_FIELD, SBAT_SECTION_NAME_SIZE);
	fill_section_header(header, pl.raw_size, pl.va, pl.raw_size, pl.raw_ptr, SBAT_SECTION_CHARACTERISTICS);
	add_patch_bytes(p, pe->section_table_end, header, SH_SIZE);
	p->section_header_offset = pe->section_table_end;
	add_patch16(p, pe->off_number_of_sections, (uint16_t)(pe->number_of_sections + 1));
	add_patch32(p, pe->off_size_of_image, pl.soi);
	if (pl.soh != pe->size_of_headers)
		add_patch32(p, pe->off_size_of_headers, pl.soh);
	patch_initialized_data(pe, p, pl.raw_size);

	p->report.action = SBAT_ACTION_INSERT;
	if (retire >= 0)
		retire_section(pe, p, retire);
	fix_file_offsets(pe, p, -1);
	report_section(p, pe->number_of_sections, pl.va, pl.raw_size, pl.raw_ptr, pl.raw_size,
	               SBAT_SECTION_CHARACTERISTICS);
	p->report.new_size_of_image = pl.soi;
	p->report.new_size_of_headers = pl.soh;
	p->report.data_shift = pl.shift;
	return SBAT_OK;
}

/* 1 if no other section starts at or above s's VA: s is last in memory. */
static int
is_highest_section(const sbat_pe *pe, unsigned idx)
{
	unsigned i;

	for (i = 0; i < pe->number_of_sections; i++)
		if (i != idx && pe->sections[i].virtual_address >= pe->sections[idx].virtual_address)
			return 0;
	return 1;
}

/* Lowest VirtualAddress above section idx's (idx is not the highest). */
static uint64_t
next_virtual_address(const sbat_pe *pe, unsigned idx)
{
	uint64_t next = UINT64_MAX;
	unsigned i;

	for (i = 0; i < pe->number_of_sections; i++)
		if (pe->sections[i].virtual_address > pe->sections[idx].virtual_address &&
		    pe->sections[i].virtual_address < next)
			next = pe->sections[i].virtual_address;
	return next;
}

/* What a replace does with the existing .sbat's place. */
enum fit { FIT_IN_PLACE, FIT_GROW, FIT_RELOCATE };

/*
 * The raw size the new data gets: the old one when it fits (even exactly:
 * no reader needs the NUL), a larger one with room for a NUL when .sbat is
 * last in both file and memory, else relocation (when allowed) or a
 * refusal with both sizes.
 */
static sbat_err
replace_raw_size(const sbat_pe *pe, size_t payload_len, const sbat_edit_opts *opts, const tail *t, int highest,
                 uint32_t *ret_raw, enum fit *ret_fit, sbat_diag *d)
{
	const sbat_pe_section *s = &pe->sections[pe->sbat_index];
	uint64_t raw_end = (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data;

	*ret_raw = s->size_of_raw_data;
	*ret_fit = FIT_IN_PLACE;
	if (payload_len <= s->size_of_raw_data && s->size_of_raw_data != 0)
		return SBAT_OK;
	if (s->size_of_raw_data != 0 && raw_end == t->start && highest) {
		if (ckd_align_u32(ret_raw, (uint64_t)payload_len + 1, pe->file_alignment))
			return diag_fail(d, SBAT_E_PE_OVERFLOW, "grown .sbat would lie beyond 4 GiB");
		*ret_fit = FIT_GROW;
		return SBAT_OK;
	}
	if (opts->relocate) {
		*ret_fit = FIT_RELOCATE;
		return SBAT_OK;
	}
	if (s->size_of_raw_data == 0)
		/* last or not, it has no bytes in the file to overwrite or extend */
		return diag_fail_size(d, SBAT_E_SBAT_NO_ROOM,
		                      "existing .sbat has no data in the file (SizeOfRawData 0), so the new data "
		                      "cannot go in its place",
		                      s->header_offset + SH_SIZE_OF_RAW_DATA, payload_len, 0);
	return diag_fail_size(d, SBAT_E_SBAT_NO_ROOM,
	                      "existing .sbat is not the last section and the new data does not fit in its "
	                      "SizeOfRawData",
	                      s->header_offset + SH_SIZE_OF_RAW_DATA, payload_len, s->size_of_raw_data);
}

/*
 * VirtualSize == SizeOfRawData satisfies every reader (systemd-stub
 * refuses raw > virtual). Below the highest section the memory view must
 * end by the next section's VA, and where the old one ended exactly at its
 * aligned start (strict loaders demand that) so must the new one; then
 * VirtualSize is the whole gap. The choice depends only on the raw size and
 * the neighbours, so a second identical edit changes nothing. *ret_mem_end
 * is the aligned end of the new memory view.
 */
static sbat_err
replace_virtual_size(const sbat_pe *pe, size_t payload_len, const sbat_edit_opts *opts, int highest, uint32_t raw_size,
                     uint32_t *ret_vsize, uint64_t *ret_mem_end, enum fit *fit, sbat_diag *d)
{
	const sbat_pe_section *s = &pe->sections[pe->sbat_index];
	uint64_t next, room, old_mem_end;
	int was_adjacent;

	*ret_vsize = raw_size;
	if (ckd_align_u64(ret_mem_end, (uint64_t)s->virtual_address + raw_size, pe->section_alignment) ||
	    *ret_mem_end > UINT32_MAX)
		return diag_fail_at(d, SBAT_E_PE_OVERFLOW, ".sbat would extend beyond 4 GiB",
		                    s->header_offset + SH_VIRTUAL_ADDRESS);
	if (highest)
		return SBAT_OK;
	next = next_virtual_address(pe, (unsigned)pe->sbat_index);
	room = next - s->virtual_address;
	was_adjacent = !ckd_align_u64(&old_mem_end, (uint64_t)s->virtual_address + pe_section_memory_size(s),
	                              pe->section_alignment) &&
	               old_mem_end == next;
	if (payload_len > room) {
		if (opts->relocate) {
			*fit = FIT_RELOCATE;
			return SBAT_OK;
		}
		return diag_fail_size(d, SBAT_E_SBAT_NO_ROOM,
		                      "new data does not fit before the next section in memory (VirtualSize)",
		                      s->header_offset + SH_VIRTUAL_SIZE, payload_len, room);
	}
	if (raw_size > room || (was_adjacent && *ret_mem_end != next))
		*ret_vsize = (uint32_t)room;
	return SBAT_OK;
}

/* Rewrite the existing .sbat in its place (grown when it is last); relocate or refuse when it cannot be. */
static sbat_err
plan_replace(const sbat_pe *pe, const uint8_t *in, size_t payload_len, const sbat_edit_opts *opts, plan *p,
             const tail *t, sbat_diag *d)
{
	const sbat_pe_section *s = &pe->sections[pe->sbat_index];
	uint64_t raw_end = (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data, mem_end;
	uint32_t raw_size, vsize, soi = pe->size_of_image;
	int highest = is_highest_section(pe, (unsigned)pe->sbat_index);
	uint8_t header[SH_SIZE];
	enum fit fit;
	sbat_err err;

	err = replace_raw_size(pe, payload_len, opts, t, highest, &raw_size, &fit, d);
	if (!err && fit != FIT_RELOCATE)
		err = replace_virtual_size(pe, payload_len, opts, highest, raw_size, &vsize, &mem_end, &fit, d);
	if (err)
		return err;
	if (fit == FIT_RELOCATE)
		return plan_insert(pe, in, payload_len, p, t, pe->sbat_index, d);
	if (highest && mem_end > soi)
		soi = (uint32_t)mem_end;

	add_extent(p, EXTENT_COPY, 0, s->pointer_to_raw_data);
	add_extent(p, EXTENT_PAYLOAD, 0, payload_len);
	add_extent(p, EXTENT_ZERO, 0, raw_size - payload_len);
	if (fit == FIT_GROW)
		add_extent(p, EXTENT_COPY, t->start, t->end - t->start);
	else
		add_extent(p, EXTENT_COPY, raw_end, t->end - raw_end);

	memcpy(header, in + s->header_offset, SH_SIZE);
	fill_section_header(header, vsize, s->virtual_address, raw_size, s->pointer_to_raw_data, s->characteristics);
	add_patch_bytes(p, s->header_offset, header, SH_SIZE);
	p->section_header_offset = s->header_offset;
	if (soi != pe->size_of_image)
		add_patch32(p, pe->off_size_of_image, soi);
	if (raw_size != s->size_of_raw_data)
		patch_initialized_data(pe, p, raw_size - s->size_of_raw_data);
	fix_file_offsets(pe, p, pe->sbat_index);

	p->report.action = fit == FIT_GROW ? SBAT_ACTION_GROW : SBAT_ACTION_REPLACE;
	report_section(p, (unsigned)pe->sbat_index, s->virtual_address, vsize, s->pointer_to_raw_data, raw_size,
	               s->characteristics);
	p->report.new_size_of_image = soi;
	p->report.new_size_of_headers = pe->size_of_headers;
	return SBAT_OK;
}

/* End of all raw data and headers, leaving out section `skip`. */
static uint64_t
raw_end_without(const sbat_pe *pe, unsigned skip)
{
	uint64_t end = pe->size_of_headers;
	unsigned i;

	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];
		uint64_t e = (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data;

		if (i != skip && s->size_of_raw_data && e > end)
			end = e;
	}
	return end;
}

static uint64_t
virtual_end_without(const sbat_pe *pe, unsigned skip)
{
	uint64_t end = 0;
	unsigned i;

	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];
		uint64_t e = (uint64_t)s->virtual_address + pe_section_memory_size(s);

		if (i != skip && e > end)
			end = e;
	}
	return end;
}

/*
 * The SizeOfImage an image whose sections end at `end` was built with: the
 * aligned end, as the PE format asks, except on EFI zboot kernels, whose
 * linker script sets it to _end, the last section's exact end. Removing an
 * inserted .sbat thus gives back the value the image had before the insert.
 * As the ckd_* helpers: true when it overflows.
 */
static bool
ckd_image_size(uint64_t *ret, const sbat_pe *pe, uint64_t end)
{
	if (pe->kind == SBAT_KIND_ZBOOT) {
		*ret = end;
		return false;
	}
	return ckd_align_u64(ret, end, pe->section_alignment);
}

/* Retire .sbat, section idx, in place: renamed and its data zeroed, so that no VA or offset moves. */
static void
plan_retire(const sbat_pe *pe, plan *p, const tail *t, unsigned idx)
{
	const sbat_pe_section *s = &pe->sections[idx];

	add_extent(p, EXTENT_COPY, 0, t->end);
	add_patch_bytes(p, s->header_offset + SH_NAME, SBAT_RETIRED_SECTION_NAME, 8);
	if (s->size_of_raw_data)
		add_patch_zero(p, s->pointer_to_raw_data, s->size_of_raw_data);
	p->report.action = SBAT_ACTION_RETIRE;
	p->report.retired_index = (int)idx;
	p->report.section_index = idx;
	p->report.new_size_of_image = pe->size_of_image;
	p->report.new_size_of_headers = pe->size_of_headers;
}

/*
 * Take .sbat out. When it is last in the table, the file and memory, the
 * header, data and alignment padding go and the image shrinks back; any
 * other .sbat is retired in place (renamed, zeroed) so no VA or offset moves.
 */
static sbat_err
plan_remove(const sbat_pe *pe, const uint8_t *in, plan *p, const tail *t, sbat_diag *d)
{
	const sbat_pe_section *s;
	unsigned idx;
	uint64_t raw_end, cut, mem_end, soi, rest;
	uint32_t init_data;

	if (pe->sbat_count == 0)
		return diag_fail(d, SBAT_E_NO_SBAT, "image has no .sbat section to remove");
	idx = (unsigned)pe->sbat_index;
	s = &pe->sections[idx];
	raw_end = (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data;
	if (idx + 1u != pe->number_of_sections || !is_highest_section(pe, idx) ||
	    (s->size_of_raw_data != 0 && raw_end != t->start)) {
		plan_retire(pe, p, t, idx);
		return SBAT_OK;
	}

	/* drop the alignment padding an insert put before the data, if it is only zeros */
	cut = raw_end_without(pe, idx);
	if (s->size_of_raw_data == 0 || cut > s->pointer_to_raw_data ||
	    !plan_all_bytes(in + cut, s->pointer_to_raw_data - cut, 0))
		cut = s->size_of_raw_data ? s->pointer_to_raw_data : t->start;
	add_extent(p, EXTENT_COPY, 0, cut);
	add_extent(p, EXTENT_COPY, t->start, t->end - t->start);

	/* the freed slot gets the filler that follows it back (0xFF, NOPs), else zeros */
	if (s->header_offset + 2 * SH_SIZE <= pe->lowest_raw_pointer &&
	    is_filler(pe, in + s->header_offset + SH_SIZE, s->header_offset + SH_SIZE, SH_SIZE))
		add_patch_bytes(p, s->header_offset, in + s->header_offset + SH_SIZE, SH_SIZE);
	else
		add_patch_bytes(p, s->header_offset, zero_header, SH_SIZE);
	add_patch16(p, pe->off_number_of_sections, (uint16_t)(pe->number_of_sections - 1));
	/* SizeOfImage shrinks only if .sbat was what defined it */
	soi = pe->size_of_image;
	if (!ckd_align_u64(&mem_end, (uint64_t)s->virtual_address + pe_section_memory_size(s), pe->section_alignment) &&
	    mem_end == pe->size_of_image && !ckd_image_size(&rest, pe, virtual_end_without(pe, idx)) &&
	    rest >= pe->size_of_headers)
		soi = rest;
	add_patch32(p, pe->off_size_of_image, (uint32_t)soi);
	init_data = pe->size_of_initialized_data >= s->size_of_raw_data ?
	                pe->size_of_initialized_data - s->size_of_raw_data :
	                0;
	add_patch32(p, pe->off_size_of_initialized_data, init_data);
	fix_file_offsets(pe, p, (int)idx);

	p->report.action = SBAT_ACTION_REMOVE;
	p->report.section_index = idx;
	p->report.new_size_of_image = (uint32_t)soi;
	p->report.new_size_of_headers = pe->size_of_headers;
	return SBAT_OK;
}

/*
 * Replacing, growing, relocating or removing .sbat rewrites, zeroes or drops
 * its raw bytes. When they are also the headers' or another section's
 * (malformed input), those would go with them: refuse, naming the other.
 */
static sbat_err
check_sbat_owns_its_bytes(const sbat_pe *pe, sbat_diag *d)
{
	const sbat_pe_section *s = &pe->sections[pe->sbat_index];
	unsigned i;

	if (s->size_of_raw_data == 0)
		return SBAT_OK;
	if (s->pointer_to_raw_data < pe->size_of_headers)
		return diag_fail_other(d, SBAT_E_PE_SECTION,
		                       ".sbat's raw data overlaps the image headers (SizeOfHeaders); "
		                       "rewriting it would destroy them",
		                       s->header_offset + SH_POINTER_TO_RAW_DATA, -1, "headers");
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *o = &pe->sections[i];

		if ((int)i != pe->sbat_index && ranges_overlap(s->pointer_to_raw_data, s->size_of_raw_data,
		                                               o->pointer_to_raw_data, o->size_of_raw_data))
			return diag_fail_other(d, SBAT_E_PE_SECTION,
			                       ".sbat's raw data overlaps another section's in the file; "
			                       "rewriting it would destroy that section's bytes",
			                       s->header_offset + SH_POINTER_TO_RAW_DATA, (int)i, o->name);
	}
	return SBAT_OK;
}

int
plan_is_identity(const plan *p, const uint8_t *in, size_t in_len, const uint8_t *payload)
{
	uint64_t pos = 0;
	unsigned i;

	if (p->output_size != in_len)
		return 0;
	for (i = 0; i < p->n_extents; i++) {
		const extent *e = &p->extents[i];

		if (e->kind == EXTENT_COPY && e->src != pos)
			return 0;
		if (e->kind == EXTENT_PAYLOAD && memcmp(in + pos, payload, (size_t)e->len) != 0)
			return 0;
		if (e->kind == EXTENT_ZERO && !plan_all_bytes(in + pos, e->len, 0))
			return 0;
		pos += e->len;
	}
	for (i = 0; i < p->n_patches; i++) {
		const patch *q = &p->patches[i];

		if (q->zero ? !plan_all_bytes(in + q->offset, q->len, 0) :
		              memcmp(in + q->offset, q->bytes, (size_t)q->len) != 0)
			return 0;
	}
	return 1;
}

/* 1 if section i's 8-byte name is `name`. */
static int
named(const sbat_pe *pe, unsigned i, const char *name)
{
	return memcmp(pe->sections[i].name, name, 8) == 0;
}

/*
 * A base section (before section `profiles`, the first .profile) named
 * SBAT_RETIRED_SECTION_NAME whose data is all zeros (what --remove leaves
 * of a mid-file .sbat): the place a .sbat goes back to. Its index, or -1.
 */
static int
base_oldsbat_slot(const sbat_pe *pe, const uint8_t *in, int profiles)
{
	int i;

	for (i = 0; i < profiles; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		if (named(pe, (unsigned)i, SBAT_RETIRED_SECTION_NAME) && s->size_of_raw_data != 0 &&
		    (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data <= pe->file_size &&
		    plan_all_bytes(in + s->pointer_to_raw_data, s->size_of_raw_data, 0))
			return i;
	}
	return -1;
}

/*
 * The refusal when a multi-profile UKI's .sbat has no base slot that holds
 * the data: appended, a new .sbat would belong to the last profile alone.
 */
static sbat_err
refuse_profile_sbat(const sbat_pe *pe, int place, int profiles, size_t payload_len, sbat_diag *d)
{
	uint64_t have = place >= 0 ? pe->sections[place].size_of_raw_data : 0;
	uint64_t at = place >= 0 ? pe->sections[place].header_offset + SH_SIZE_OF_RAW_DATA : pe->section_table_end;
	sbat_err err;

	err = diag_fail_size(d, SBAT_E_SBAT_NO_ROOM,
	                     "a multi-profile UKI's .sbat must stay among the sections before its first .profile, "
	                     "which every profile measures, and no .sbat or zeroed .oldsbat there holds the new "
	                     "data (a new one appended would belong to the last profile alone); rebuild the UKI "
	                     "with ukify build --sbat=@FILE, its profiles joined again with --join-profile",
	                     at, payload_len, have);
	if (d) {
		d->other_index = profiles;
		memcpy(d->other_name, ".profile", sizeof(".profile"));
	}
	return err;
}

/*
 * A multi-profile UKI without .sbat: the zeroed .oldsbat among its base
 * sections becomes .sbat again and takes the data, in place, so that every
 * profile measures it, as one ukify built. The plan is made on a model in
 * which that slot is the .sbat (p->base); too small, it is refused.
 */
static sbat_err
plan_revive(const sbat_pe *pe, const uint8_t *in, size_t payload_len, const sbat_edit_opts *opts, int profiles, plan *p,
            const tail *t, int slot, sbat_diag *d)
{
	sbat_edit_opts o = *opts;
	sbat_pe *b = malloc(sizeof(*b));
	sbat_err err;

	if (!b)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	*b = *pe;
	b->sbat_index = slot;
	b->sbat_count = 1;
	o.relocate = 0;
	err = check_sbat_owns_its_bytes(b, d);
	if (!err)
		err = plan_replace(b, in, payload_len, &o, p, t, d);
	if (err) {
		free(b);
		return err == SBAT_E_SBAT_NO_ROOM ? refuse_profile_sbat(pe, slot, profiles, payload_len, d) : err;
	}
	add_patch_bytes(p, pe->sections[slot].header_offset + SH_NAME, SBAT_SECTION_NAME_FIELD, SBAT_SECTION_NAME_SIZE);
	p->base = b;
	p->report.uki |= SBAT_EDIT_SBAT_REVIVED;
	return SBAT_OK;
}

/*
 * A new .sbat, or one that outgrows its place: in a UKI whose stub boots
 * profiles (`profiles`: the first .profile, else -1) it goes back into a
 * zeroed .oldsbat among the base sections, or is refused (--relocate would
 * append it after the last profile); elsewhere it is replaced, grown,
 * relocated or inserted.
 */
static sbat_err
plan_write(const sbat_pe *pe, const uint8_t *in, size_t payload_len, const sbat_edit_opts *opts, int profiles, plan *p,
           const tail *t, sbat_diag *d)
{
	sbat_edit_opts o = *opts;
	int slot = profiles >= 0 ? base_oldsbat_slot(pe, in, profiles) : -1;
	sbat_err err;

	if (pe->sbat_count == 0)
		return slot >= 0 ? plan_revive(pe, in, payload_len, opts, profiles, p, t, slot, d) :
		                   plan_insert(pe, in, payload_len, p, t, -1, d);
	if (profiles < 0 || pe->sbat_index > profiles)
		return plan_replace(pe, in, payload_len, opts, p, t, d);
	o.relocate = 0;
	err = plan_replace(pe, in, payload_len, &o, p, t, d);
	return err == SBAT_E_SBAT_NO_ROOM ? refuse_profile_sbat(pe, pe->sbat_index, profiles, payload_len, d) : err;
}

/* What every edit's plan must allow before it is run; then the fields the emitter and verifier use. */
static sbat_err
finish_plan(const sbat_pe *pe, plan *p, const tail *t, sbat_diag *d)
{
	if (p->overflow)
		return diag_fail(d, SBAT_E_LAYOUT,
		                 "internal error: the edit needs more extents or patches "
		                 "than the plan holds");
	/* every file offset into moved data must be fixed; refuse if some are out of reach */
	if (pe->debug_total > pe->debug_count && moves_data(p))
		return diag_fail(d, SBAT_E_PE_FIELD,
		                 "debug directory has more entries than can be relocated (more than 64)");
	/* an output that could not be read back in would break idempotence */
	if (p->output_size > SBAT_FILE_MAX_SIZE)
		return diag_fail(d, SBAT_E_TOO_BIG,
		                 "the edited image would be larger than 1 GiB, the largest image accepted");
	report_tail(p, t);

	/*
	 * What verification reads of the output: the headers and the bzImage
	 * setup header (it starts below 0x200 and is at most 0x301 long), and
	 * the patched or new ranges. A dry run writes only those.
	 */
	p->verify_prefix = p->report.new_size_of_headers > 0x400 ? p->report.new_size_of_headers : 0x400;
	if (p->verify_prefix > p->output_size)
		p->verify_prefix = p->output_size;

	/* a zero CheckSum stays zero (nothing checks it); a stale non-zero one is recomputed */
	p->update_checksum = pe->checksum != 0;
	p->checksum_offset = pe->off_checksum;
	p->report.output_size = p->output_size;
	return SBAT_OK;
}

sbat_err
plan_core(const sbat_pe *pe, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
          const sbat_edit_opts *opts, int profiles, plan *p, sbat_diag *d)
{
	static const sbat_edit_opts defaults;
	tail t;
	sbat_err err;

	memset(p, 0, sizeof(*p));
	p->report.version = SBAT_EDIT_REPORT_VERSION;
	p->report.retired_index = -1;
	p->report.pcrsig_index = -1;
	if (!opts)
		opts = &defaults;
	if (pe->file_size != in_len)
		return diag_fail(d, SBAT_E_LAYOUT, "parsed image does not match the buffer");
	if (opts->remove ? payload_len != 0 : (payload_len == 0 || payload_len > UINT32_MAX))
		return diag_fail(d, SBAT_E_CSV, "SBAT payload is empty or too large");
	if (pe->sbat_count > 1)
		return diag_fail_at(d, SBAT_E_SBAT_DUPLICATE, "image has more than one .sbat section (shim rejects it)",
		                    pe->sections[pe->sbat_index].header_offset);
	p->report.old_size_of_image = pe->size_of_image;
	p->report.old_size_of_headers = pe->size_of_headers;
	p->report.old_checksum = pe->checksum;

	err = plan_signature(pe, in, in_len, opts, p, &t, d);
	if (!err && pe->sbat_count == 1)
		err = check_sbat_owns_its_bytes(pe, d);
	if (err)
		return err;
	if (opts->remove)
		err = plan_remove(pe, in, p, &t, d);
	else
		err = plan_write(pe, in, payload_len, opts, profiles, p, &t, d);
	/* a signed image may only be "edited" into itself: the signature then stays valid */
	if (p->keep_signature && (err || !payload || !plan_is_identity(p, in, in_len, payload)))
		return diag_fail_at(d, SBAT_E_SIGNED,
		                    "image is signed (certificate table present); editing it "
		                    "would invalidate the signature",
		                    pe->off_cert_dir);
	return err ? err : finish_plan(pe, p, &t, d);
}

void
plan_release(plan *p)
{
	free(p->base);
	p->base = NULL;
}

const sbat_pe *
plan_input(const plan *p, const sbat_pe *pe)
{
	return p->base ? p->base : pe;
}

/* 1 if section i's 8-byte name is .pcrsig. */
static int
is_pcrsig(const sbat_pe *pe, unsigned i)
{
	return memcmp(pe->sections[i].name, ".pcrsig", 8) == 0;
}

/*
 * The input as the .sbat edit sees it once a last .pcrsig is taken out: it
 * must be the last section in the table, the file and memory, with nothing
 * after its data (no trailing data, no certificate table). The zero
 * padding before its data goes with it. Returns a malloc'ed model, with
 * *ret_removed its index (-1 when it stays: the copy is then the input's).
 */
static sbat_pe *
without_last_pcrsig(const sbat_pe *pe, const uint8_t *in, int *ret_removed)
{
	unsigned i = pe->number_of_sections - 1u;
	const sbat_pe_section *s = &pe->sections[i];
	uint64_t cut, end = (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data, mem_end, rest;
	sbat_pe *b = malloc(sizeof(*b));

	*ret_removed = -1;
	if (!b)
		return NULL;
	*b = *pe;
	if (pe->number_of_sections < 2 || !is_pcrsig(pe, i) || !is_highest_section(pe, i) || pe->cert_size != 0 ||
	    pe->data_end != pe->raw_end || (s->size_of_raw_data != 0 && end != pe->raw_end))
		return b;
	cut = raw_end_without(pe, i);
	if (s->size_of_raw_data != 0 &&
	    (cut > s->pointer_to_raw_data || !plan_all_bytes(in + cut, s->pointer_to_raw_data - cut, 0)))
		cut = s->pointer_to_raw_data;
	b->number_of_sections--;
	b->section_table_end -= SH_SIZE;
	b->header_slot_freed = 1;
	b->raw_end = b->data_end = cut;
	b->virtual_end = virtual_end_without(pe, i);
	/* SizeOfImage shrinks only when .pcrsig was what defined it (as plan_remove does) */
	if (!ckd_align_u64(&mem_end, (uint64_t)s->virtual_address + pe_section_memory_size(s), pe->section_alignment) &&
	    mem_end == pe->size_of_image && !ckd_image_size(&rest, pe, b->virtual_end) && rest >= pe->size_of_headers)
		b->size_of_image = (uint32_t)rest;
	b->size_of_initialized_data -= pe->size_of_initialized_data >= s->size_of_raw_data ?
	                                   s->size_of_raw_data :
	                                   pe->size_of_initialized_data;
	*ret_removed = (int)i;
	return b;
}

/* Put the patches [from, n_patches) before all others: the .sbat edit's own then win where both write. */
static void
patches_first(plan *p, unsigned from)
{
	patch tmp;
	unsigned i, j;

	for (i = from; i < p->n_patches; i++) {
		tmp = p->patches[i];
		for (j = i; j > i - from; j--)
			p->patches[j] = p->patches[j - 1];
		p->patches[i - from] = tmp;
	}
}

/* The removed .pcrsig's header, count, SizeOfImage and SizeOfInitializedData, under the edit's patches. */
static void
patch_removed_pcrsig(const sbat_pe *pe, const sbat_pe *b, plan *p, int removed)
{
	unsigned first = p->n_patches;

	add_patch_bytes(p, pe->sections[removed].header_offset, zero_header, SH_SIZE);
	add_patch16(p, pe->off_number_of_sections, b->number_of_sections);
	add_patch32(p, pe->off_size_of_image, b->size_of_image);
	add_patch32(p, pe->off_size_of_initialized_data, b->size_of_initialized_data);
	patches_first(p, first);
	p->report.uki |= SBAT_EDIT_PCRSIG_REMOVED;
}

/* Every other .pcrsig stays in place, renamed and zero-filled: no reader takes it for one. */
static void
retire_pcrsigs(const sbat_pe *b, plan *p)
{
	unsigned i;
	uint64_t data;

	for (i = 0; i < b->number_of_sections; i++) {
		const sbat_pe_section *s = &b->sections[i];

		if (!is_pcrsig(b, i))
			continue;
		add_patch_bytes(p, s->header_offset + SH_NAME, SBAT_RETIRED_PCRSIG_NAME, 8);
		if (s->size_of_raw_data && plan_map_offset(p, s->pointer_to_raw_data, &data))
			add_patch_zero(p, data, s->size_of_raw_data);
		p->dropped[i] = 1;
		p->report.uki |= SBAT_EDIT_PCRSIG_RETIRED;
	}
}

/*
 * SBAT_PCRSIG_DROP: plan the .sbat edit again on the input without its
 * last .pcrsig (when it can go), and retire the others.
 */
sbat_err
plan_drop_pcrsig(const sbat_pe *pe, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
                 const sbat_edit_opts *opts, int profiles, plan *p, sbat_diag *d)
{
	int removed;
	sbat_pe *b = without_last_pcrsig(pe, in, &removed);
	sbat_err err;

	if (!b)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	plan_release(p);
	err = plan_core(b, in, in_len, payload, payload_len, opts, profiles, p, d);
	if (err) {
		free(b);
		return err;
	}
	/* a revived .oldsbat's model is b with that slot as .sbat: it stays the base */
	if (p->base)
		free(b);
	else
		p->base = b;
	if (removed >= 0)
		patch_removed_pcrsig(pe, p->base, p, removed);
	retire_pcrsigs(p->base, p);
	return p->overflow ?
	           diag_fail(d, SBAT_E_LAYOUT, "internal error: the edit needs more patches than the plan holds") :
	           SBAT_OK;
}
