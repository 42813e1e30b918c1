/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* plan.c - choose where .sbat goes and which header fields change */
#include <string.h>

#include "plan.h"

#include "ckd.h"
#include "diag.h"
#include "le.h"

/* Trailing data that is not the certificate table: kept, moved behind .sbat. */
typedef struct tail {
	uint64_t start;   /* input offset where the kept tail begins (end of section data) */
	uint64_t end;     /* input offset where it ends (certificate table or EOF) */
} tail;

static void
add_extent(plan *p, extent_kind kind, uint64_t src, uint64_t len)
{
	extent *e;

	if (len == 0)
		return;
	/* callers add at most 5 extents; PLAN_MAX_EXTENTS leaves slack */
	e = &p->extents[p->n_extents++];
	e->kind = kind;
	e->src = src;
	e->len = len;
	p->output_size += len;
}

static void
add_patch32(plan *p, uint64_t offset, uint32_t value)
{
	patch *q = &p->patches[p->n_patches++];

	q->offset = offset;
	q->len = 4;
	le32_put(q->bytes, value);
}

static void
add_patch16(plan *p, uint64_t offset, uint16_t value)
{
	patch *q = &p->patches[p->n_patches++];

	q->offset = offset;
	q->len = 2;
	le16_put(q->bytes, value);
}

static void
add_section_header(plan *p, uint64_t offset, const uint8_t bytes[SH_SIZE])
{
	patch *q = &p->patches[p->n_patches++];

	q->offset = offset;
	q->len = SH_SIZE;
	memcpy(q->bytes, bytes, SH_SIZE);
	p->section_header_offset = offset;
}

static void
fill_section_header(uint8_t h[SH_SIZE], uint32_t vsize, uint32_t va, uint32_t raw_size,
                    uint32_t raw_ptr, uint32_t characteristics)
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

static int
all_bytes(const uint8_t *p, uint64_t n, uint8_t value)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (p[i] != value)
			return 0;
	return 1;
}

/*
 * The certificate table goes (signature invalid after any edit) or the
 * edit is refused. Returns the trailing data to keep after the sections.
 */
static sbat_err
plan_signature(const sbat_pe *pe, const uint8_t *in, size_t in_len, const sbat_edit_opts *opts,
               plan *p, tail *t, sbat_diag *d)
{
	t->start = pe->raw_end;
	t->end = pe->data_end;
	if (pe->cert_size == 0)
		return SBAT_OK;
	if (!opts->strip_signature)
		return diag_fail_at(d, SBAT_E_SIGNED,
		                    "image is signed (certificate table present); adding .sbat would "
		                    "invalidate the signature: sign after editing, or pass --strip-signature",
		                    pe->off_cert_dir);
	if ((uint64_t)pe->cert_offset + pe->cert_size != in_len)
		return diag_fail_at(d, SBAT_E_PE_FIELD,
		                    "data follows the certificate table (data directory 4)", pe->off_cert_dir);
	/* signers pad the image to 8 bytes with zeros before the table; that padding goes too */
	if (t->end - t->start < 8 && all_bytes(in + t->start, t->end - t->start, 0))
		t->end = t->start;
	add_patch32(p, pe->off_cert_dir, 0);
	add_patch32(p, pe->off_cert_dir + 4, 0);
	p->report.stripped_cert_size = pe->cert_size;
	return SBAT_OK;
}

/* File offsets that point into the moved tail must follow it. */
static void
plan_tail_fixups(const sbat_pe *pe, plan *p, const tail *t, uint64_t new_start)
{
	uint64_t delta = new_start - t->start;
	unsigned i;

	p->report.overlay_offset = t->start;
	p->report.overlay_size = t->end - t->start;
	p->report.overlay_new_offset = new_start;
	if (delta == 0 || t->end == t->start)
		return;
	if (pe->pointer_to_symbol_table >= t->start && pe->pointer_to_symbol_table < t->end)
		add_patch32(p, pe->off_pointer_to_symbol_table,
		            (uint32_t)(pe->pointer_to_symbol_table + delta));
	for (i = 0; i < pe->debug_count; i++) {
		const sbat_pe_debug_entry *e = &pe->debug[i];

		if (e->pointer_to_raw_data >= t->start && e->pointer_to_raw_data < t->end)
			add_patch32(p, e->field_offset, (uint32_t)(e->pointer_to_raw_data + delta));
	}
}

/* Where the table may grow to: a new header has to end at or before this. */
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

static sbat_err
plan_insert(const sbat_pe *pe, const uint8_t *in, size_t payload_len, plan *p, const tail *t,
            sbat_diag *d)
{
	uint64_t slot = pe->section_table_end, slot_end = slot + SH_SIZE, new_soh64;
	uint32_t new_va, raw_ptr, raw_size, new_soi, new_soh = pe->size_of_headers, init_data;
	uint8_t header[SH_SIZE];
	unsigned i;

	if (pe->number_of_sections >= SBAT_PE_MAX_SECTIONS)
		return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM, "image already has 96 sections",
		                    pe->off_number_of_sections);
	if (slot_end > header_room_limit(pe)) {
		if (pe->kind == SBAT_KIND_BZIMAGE && slot_end > BZ_HEADER_ROOM_LIMIT)
			return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM,
			                    "no room for a section header before the bzImage setup header at 0x1ef "
			                    "(kernels before 6.7 built with EFI mixed mode have none; build the kernel "
			                    "with CONFIG_EFI_SBAT_FILE instead)", slot);
		return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM,
		                    "no room for a section header: the section table reaches the first section",
		                    slot);
	}
	if (slot_end > pe->size_of_headers) {
		/* grow SizeOfHeaders as ukify does, only where no section data or VA is in the way */
		if (pe->kind == SBAT_KIND_BZIMAGE || !ckd_align_u64(&new_soh64, slot_end, pe->file_alignment) ||
		    new_soh64 > header_room_limit(pe))
			return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM,
			                    "no room for a section header inside SizeOfHeaders", pe->off_size_of_headers);
		new_soh = (uint32_t)new_soh64;
	}
	/* the slot must be unused filler: zeros, or the 0xFF padding of 6.7+ bzImages */
	if (!all_bytes(in + slot, SH_SIZE, 0) && !all_bytes(in + slot, SH_SIZE, 0xff))
		return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM,
		                    "bytes after the section table are in use (debug data or code?)", slot);
	for (i = 0; i < pe->debug_count; i++) {
		const sbat_pe_debug_entry *e = &pe->debug[i];

		if (e->size_of_data && e->pointer_to_raw_data < slot_end &&
		    (uint64_t)e->pointer_to_raw_data + e->size_of_data > slot)
			return diag_fail_at(d, SBAT_E_NO_HEADER_ROOM,
			                    "debug data lives right after the section table", e->field_offset);
	}

	/* VAs ascend and are adjacent: exactly the aligned end of the highest section */
	if (!ckd_align_u32(&new_va, pe->virtual_end, pe->section_alignment) ||
	    !ckd_align_u32(&raw_ptr, t->start, pe->file_alignment) ||
	    !ckd_align_u32(&raw_size, payload_len, pe->file_alignment) ||
	    !ckd_align_u32(&new_soi, (uint64_t)new_va + raw_size, pe->section_alignment))
		return diag_fail(d, SBAT_E_PE_OVERFLOW, "new .sbat section would lie beyond 4 GiB");
	if (raw_size == 0)
		return diag_fail(d, SBAT_E_CSV, "SBAT payload is empty");

	memset(header, 0, sizeof(header));
	memcpy(header, SBAT_SECTION_NAME, sizeof(SBAT_SECTION_NAME) - 1);
	fill_section_header(header, raw_size, new_va, raw_size, raw_ptr, SBAT_SECTION_CHARACTERISTICS);
	add_section_header(p, slot, header);
	add_patch16(p, pe->off_number_of_sections, (uint16_t)(pe->number_of_sections + 1));
	if (new_soi < pe->size_of_image)
		new_soi = pe->size_of_image;
	add_patch32(p, pe->off_size_of_image, new_soi);
	if (new_soh != pe->size_of_headers)
		add_patch32(p, pe->off_size_of_headers, new_soh);
	/* informational only: firmware ignores it; saturate rather than fail */
	if (!ckd_add_u32(&init_data, pe->size_of_initialized_data, raw_size))
		init_data = UINT32_MAX;
	add_patch32(p, pe->off_size_of_initialized_data, init_data);

	add_extent(p, EXTENT_COPY, 0, t->start);
	add_extent(p, EXTENT_ZERO, 0, raw_ptr - t->start);
	add_extent(p, EXTENT_PAYLOAD, 0, payload_len);
	add_extent(p, EXTENT_ZERO, 0, raw_size - payload_len);
	plan_tail_fixups(pe, p, t, (uint64_t)raw_ptr + raw_size);
	add_extent(p, EXTENT_COPY, t->start, t->end - t->start);

	p->report.action = SBAT_ACTION_INSERT;
	p->report.section_index = pe->number_of_sections;
	p->report.virtual_address = new_va;
	p->report.virtual_size = raw_size;
	p->report.pointer_to_raw_data = raw_ptr;
	p->report.size_of_raw_data = raw_size;
	p->report.characteristics = SBAT_SECTION_CHARACTERISTICS;
	p->report.new_size_of_image = new_soi;
	p->report.new_size_of_headers = new_soh;
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

static sbat_err
plan_replace(const sbat_pe *pe, const uint8_t *in, size_t payload_len, plan *p, const tail *t,
             sbat_diag *d)
{
	const sbat_pe_section *s = &pe->sections[pe->sbat_index];
	uint64_t raw_end = (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data, old_mem_end, new_mem_end;
	uint32_t raw_size = s->size_of_raw_data, vsize, new_soi = pe->size_of_image, init_data;
	int highest = is_highest_section(pe, (unsigned)pe->sbat_index);
	uint8_t header[SH_SIZE];

	if (s->size_of_raw_data == 0)
		return diag_fail_at(d, SBAT_E_SBAT_NO_ROOM, "existing .sbat has no raw data (SizeOfRawData is 0)",
		                    s->header_offset + SH_SIZE_OF_RAW_DATA);
	p->report.action = SBAT_ACTION_REPLACE;
	if (payload_len > raw_size) {
		/* only the section last in both file and memory can grow */
		if (raw_end != t->start || !highest)
			return diag_fail_at(d, SBAT_E_SBAT_NO_ROOM,
			                    "existing .sbat is not the last section and the new data does not fit "
			                    "in its SizeOfRawData", s->header_offset + SH_SIZE_OF_RAW_DATA);
		if (!ckd_align_u32(&raw_size, payload_len, pe->file_alignment))
			return diag_fail(d, SBAT_E_PE_OVERFLOW, "grown .sbat would lie beyond 4 GiB");
		p->report.action = SBAT_ACTION_GROW;
	}

	/*
	 * VirtualSize == SizeOfRawData satisfies every reader (systemd-stub
	 * refuses raw > virtual). Below the highest section, the aligned end in
	 * memory must not move, or strict loaders see a gap or an overlap.
	 */
	vsize = raw_size;
	if (!ckd_align_u64(&old_mem_end, (uint64_t)s->virtual_address + sbat_pe_section_memory_size(s),
	                   pe->section_alignment) ||
	    !ckd_align_u64(&new_mem_end, (uint64_t)s->virtual_address + vsize, pe->section_alignment) ||
	    new_mem_end > UINT32_MAX)
		return diag_fail_at(d, SBAT_E_PE_OVERFLOW, ".sbat would extend beyond 4 GiB",
		                    s->header_offset + SH_VIRTUAL_ADDRESS);
	if (!highest && new_mem_end != old_mem_end) {
		if (payload_len > s->virtual_size)
			return diag_fail_at(d, SBAT_E_SBAT_NO_ROOM,
			                    "new data does not fit in the existing .sbat's VirtualSize",
			                    s->header_offset + SH_VIRTUAL_SIZE);
		vsize = s->virtual_size;
	}
	if (highest && new_mem_end > new_soi)
		new_soi = (uint32_t)new_mem_end;

	memcpy(header, in + s->header_offset, SH_SIZE);
	fill_section_header(header, vsize, s->virtual_address, raw_size, s->pointer_to_raw_data,
	                    s->characteristics);
	add_section_header(p, s->header_offset, header);
	if (new_soi != pe->size_of_image)
		add_patch32(p, pe->off_size_of_image, new_soi);
	if (raw_size != s->size_of_raw_data) {
		if (!ckd_add_u32(&init_data, pe->size_of_initialized_data, raw_size - s->size_of_raw_data))
			init_data = UINT32_MAX;
		add_patch32(p, pe->off_size_of_initialized_data, init_data);
	}

	add_extent(p, EXTENT_COPY, 0, s->pointer_to_raw_data);
	add_extent(p, EXTENT_PAYLOAD, 0, payload_len);
	add_extent(p, EXTENT_ZERO, 0, raw_size - payload_len);
	if (p->report.action == SBAT_ACTION_GROW) {
		plan_tail_fixups(pe, p, t, (uint64_t)s->pointer_to_raw_data + raw_size);
		add_extent(p, EXTENT_COPY, t->start, t->end - t->start);
	} else {
		/* everything after the old data stays where it was */
		add_extent(p, EXTENT_COPY, raw_end, t->end - raw_end);
		plan_tail_fixups(pe, p, t, t->start);
	}

	p->report.section_index = (unsigned)pe->sbat_index;
	p->report.virtual_address = s->virtual_address;
	p->report.virtual_size = vsize;
	p->report.pointer_to_raw_data = s->pointer_to_raw_data;
	p->report.size_of_raw_data = raw_size;
	p->report.characteristics = s->characteristics;
	p->report.new_size_of_image = new_soi;
	p->report.new_size_of_headers = pe->size_of_headers;
	return SBAT_OK;
}

sbat_err
plan_build(const sbat_pe *pe, const uint8_t *in, size_t in_len, size_t payload_len,
           const sbat_edit_opts *opts, plan *p, sbat_diag *d)
{
	static const sbat_edit_opts defaults;
	tail t;
	sbat_err err;

	memset(p, 0, sizeof(*p));
	if (!opts)
		opts = &defaults;
	if (pe->file_size != in_len)
		return diag_fail(d, SBAT_E_LAYOUT, "parsed image does not match the buffer");
	if (payload_len == 0 || payload_len > UINT32_MAX)
		return diag_fail(d, SBAT_E_CSV, "SBAT payload is empty or too large");
	if (pe->sbat_count > 1)
		return diag_fail_at(d, SBAT_E_SBAT_DUPLICATE,
		                    "image has more than one .sbat section (shim rejects it)",
		                    pe->sections[pe->sbat_index].header_offset);
	p->report.old_size_of_image = pe->size_of_image;
	p->report.old_size_of_headers = pe->size_of_headers;
	p->report.old_checksum = pe->checksum;

	err = plan_signature(pe, in, in_len, opts, p, &t, d);
	if (err)
		return err;
	if (pe->sbat_count == 1)
		err = plan_replace(pe, in, payload_len, p, &t, d);
	else
		err = plan_insert(pe, in, payload_len, p, &t, d);
	if (err)
		return err;

	/* a zero CheckSum stays zero (nothing checks it); a stale non-zero one is recomputed */
	p->update_checksum = pe->checksum != 0;
	p->checksum_offset = pe->off_checksum;
	p->report.output_size = p->output_size;
	return SBAT_OK;
}
