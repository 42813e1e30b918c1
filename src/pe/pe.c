/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pe.c - read a PE/COFF image into a checked value model */
#include <stdlib.h>
#include <string.h>

#include "pe/model.h"

#include "util/bview.h"
#include "util/ckd.h"
#include "util/diag.h"
#include "pe/layout.h"
#include "util/strtable.h"

/* Which kernel layout, if any, surrounds the PE header. Needs len >= 0x40. */
static sbat_pe_kind
detect_kind(const uint8_t *buf, size_t len)
{
	/* boot sector flag plus the boot-protocol magic: a bzImage */
	if (len >= BZ_HEADER_MAGIC + 4 && memcmp(buf + BZ_HEADER_MAGIC, "HdrS", 4) == 0 && buf[BZ_BOOT_FLAG] == 0x55 &&
	    buf[BZ_BOOT_FLAG + 1] == 0xaa)
		return SBAT_KIND_BZIMAGE;
	if (memcmp(buf + 0x38, "ARM\x64", 4) == 0)
		return SBAT_KIND_ARM64_IMAGE;
	if (memcmp(buf + 0x38, "RSC\x05", 4) == 0)
		return SBAT_KIND_RISCV_IMAGE;
	if (memcmp(buf + 0x04, "zimg", 4) == 0)
		return SBAT_KIND_ZBOOT;
	return SBAT_KIND_EFI_APP;
}

/* File offset of an RVA that lies in the headers or in some section's raw data (model.h). */
int
pe_rva_to_offset(const sbat_pe *pe, uint32_t rva, uint32_t size, uint64_t *ret)
{
	unsigned i;

	if (rva < pe->size_of_headers && size <= pe->size_of_headers - rva) {
		*ret = rva;
		return 1;
	}
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		if (rva >= s->virtual_address && rva - s->virtual_address < s->size_of_raw_data &&
		    size <= s->size_of_raw_data - (rva - s->virtual_address)) {
			*ret = (uint64_t)s->pointer_to_raw_data + (rva - s->virtual_address);
			return 1;
		}
	}
	return 0;
}

/*
 * Debug directory entries carry file offsets (PointerToRawData) that must
 * follow data an edit moves. Entries we cannot locate are not needed for
 * anything else, so an unmappable directory is left alone, not an error.
 */
static void
read_debug_directory(sbat_pe *pe, bview *v, uint32_t rva, uint32_t size)
{
	uint64_t off;
	unsigned n, i;

	if (size == 0 || !pe_rva_to_offset(pe, rva, size, &off))
		return;
	n = size / DEBUG_ENTRY_SIZE;
	pe->debug_total = n;
	if (n > SBAT_PE_MAX_DEBUG_ENTRIES)
		n = SBAT_PE_MAX_DEBUG_ENTRIES;
	for (i = 0; i < n; i++) {
		uint64_t e = off + (uint64_t)i * DEBUG_ENTRY_SIZE;
		sbat_pe_debug_entry *d = &pe->debug[pe->debug_count];

		if (!bv_has(v, e, DEBUG_ENTRY_SIZE))
			break;
		d->field_offset = e + DEBUG_POINTER_TO_RAW_DATA;
		d->pointer_to_raw_data = bv_le32(v, e + DEBUG_POINTER_TO_RAW_DATA);
		d->address_of_raw_data = bv_le32(v, e + DEBUG_ADDRESS_OF_RAW_DATA);
		d->size_of_data = bv_le32(v, e + DEBUG_SIZE_OF_DATA);
		pe->debug_count++;
	}
}

/* Section i as the public API shows it (sbat_image_section points at it). */
static void
publish_section(sbat_pe *pe, unsigned i)
{
	const sbat_pe_section *s = &pe->sections[i];
	sbat_section_info *o = &pe->section_info[i];

	memcpy(o->name, s->name, sizeof(o->name));
	o->virtual_size = s->virtual_size;
	o->virtual_address = s->virtual_address;
	o->size_of_raw_data = s->size_of_raw_data;
	o->pointer_to_raw_data = s->pointer_to_raw_data;
	o->characteristics = s->characteristics;
	o->header_offset = s->header_offset;
}

/* Section header i into pe->sections[i] and its public copy; fails only when it is past the end of the file. */
static sbat_err
read_section_header(sbat_pe *pe, bview *v, unsigned i, sbat_diag *d)
{
	sbat_pe_section *s = &pe->sections[i];
	uint64_t h = pe->section_table_offset + (uint64_t)i * SH_SIZE;
	const uint8_t *name = bv_ptr(v, h + SH_NAME, 8);

	if (!name)
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "section header past end of file", h);
	memcpy(s->name, name, 8);
	s->name[8] = '\0';
	s->virtual_size = bv_le32(v, h + SH_VIRTUAL_SIZE);
	s->virtual_address = bv_le32(v, h + SH_VIRTUAL_ADDRESS);
	s->size_of_raw_data = bv_le32(v, h + SH_SIZE_OF_RAW_DATA);
	s->pointer_to_raw_data = bv_le32(v, h + SH_POINTER_TO_RAW_DATA);
	s->pointer_to_relocations = bv_le32(v, h + SH_POINTER_TO_RELOCATIONS);
	s->number_of_relocations = bv_le16(v, h + SH_NUMBER_OF_RELOCATIONS);
	s->characteristics = bv_le32(v, h + SH_CHARACTERISTICS);
	s->header_offset = h;
	publish_section(pe, i);
	return SBAT_OK;
}

static sbat_err
parse_sections(sbat_pe *pe, bview *v, sbat_diag *d)
{
	uint64_t lowest_raw = UINT64_MAX, lowest_va = UINT64_MAX;
	unsigned i;
	sbat_err err;

	pe->raw_end = pe->size_of_headers;
	pe->virtual_end = 0;
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];
		uint64_t h, end;

		err = read_section_header(pe, v, i, d);
		if (err != SBAT_OK)
			return err;
		h = s->header_offset;
		/* a section without raw data may carry any pointer; nothing reads it */
		if (s->size_of_raw_data != 0) {
			if (!bv_has(v, s->pointer_to_raw_data, s->size_of_raw_data))
				return diag_fail_at(
				    d, SBAT_E_PE_TRUNCATED,
				    "section raw data past end of file (PointerToRawData + SizeOfRawData)",
				    h + SH_POINTER_TO_RAW_DATA);
			if (s->pointer_to_raw_data < pe->section_table_end)
				return diag_fail_at(d, SBAT_E_PE_SECTION,
				                    "section raw data overlaps the section table (PointerToRawData)",
				                    h + SH_POINTER_TO_RAW_DATA);
			end = (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data;
			if (end > pe->raw_end)
				pe->raw_end = end;
			if (s->pointer_to_raw_data < lowest_raw)
				lowest_raw = s->pointer_to_raw_data;
		}
		end = (uint64_t)s->virtual_address + pe_section_memory_size(s);
		if (end > UINT32_MAX)
			return diag_fail_at(d, SBAT_E_PE_OVERFLOW, "section VirtualAddress + VirtualSize exceeds 4 GiB",
			                    h + SH_VIRTUAL_ADDRESS);
		if (end > pe->virtual_end)
			pe->virtual_end = end;
		if (s->virtual_address < lowest_va)
			lowest_va = s->virtual_address;
		if (memcmp(s->name, SBAT_SECTION_NAME_FIELD, SBAT_SECTION_NAME_SIZE) == 0) {
			if (pe->sbat_count == 0)
				pe->sbat_index = (int)i;
			pe->sbat_count++;
		}
	}
	pe->lowest_raw_pointer = lowest_raw == UINT64_MAX ? pe->raw_end : lowest_raw;
	pe->lowest_virtual_address = lowest_va;
	/* shim's pe.c takes .sbat only when SizeOfRawData is non-zero and at least VirtualSize */
	if (pe->sbat_count) {
		const sbat_pe_section *s = &pe->sections[pe->sbat_index];

		pe->sbat_ignored = s->size_of_raw_data == 0 || s->size_of_raw_data < s->virtual_size;
	}
	return SBAT_OK;
}

/* The headers and layout as the public API shows them (sbat_image_get_info points at them). */
static void
publish_info(sbat_pe *pe)
{
	sbat_image_info *info = &pe->info;

	info->file_size = pe->file_size;
	info->kind = pe->kind;
	info->machine = pe->machine;
	info->magic = pe->magic;
	info->number_of_sections = pe->number_of_sections;
	info->file_alignment = pe->file_alignment;
	info->section_alignment = pe->section_alignment;
	info->size_of_headers = pe->size_of_headers;
	info->size_of_image = pe->size_of_image;
	info->checksum = pe->checksum;
	info->section_table_offset = pe->section_table_offset;
	info->section_table_end = pe->section_table_end;
	info->header_room = pe_header_room(pe);
	info->raw_end = pe->raw_end;
	info->data_end = pe->data_end;
	info->cert_offset = pe->cert_offset;
	info->cert_size = pe->cert_size;
	info->sbat_index = pe->sbat_index;
	info->sbat_count = pe->sbat_count;
	info->sbat_ignored = pe->sbat_ignored;
}

/* The DOS header and the "PE\0\0" signature it points to. */
static sbat_err
parse_dos(sbat_pe *pe, bview *v, sbat_diag *d)
{
	if (v->len < DOS_HEADER_SIZE)
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "file too small for a DOS header", v->len);
	if (v->p[0] != 'M' || v->p[1] != 'Z')
		return diag_fail_at(d, SBAT_E_PE_MAGIC, "DOS signature \"MZ\" missing", 0);
	pe->pe_offset = bv_le32(v, DOS_E_LFANEW);
	if (pe->pe_offset < DOS_HEADER_SIZE)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "e_lfanew points into the DOS header", DOS_E_LFANEW);
	if (!bv_has(v, pe->pe_offset, PE_SIGNATURE_SIZE + COFF_HEADER_SIZE))
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "PE header past end of file (e_lfanew)", DOS_E_LFANEW);
	if (memcmp(v->p + pe->pe_offset, "PE\0\0", 4) != 0)
		return diag_fail_at(d, SBAT_E_PE_MAGIC, "PE signature \"PE\\0\\0\" missing", pe->pe_offset);
	return SBAT_OK;
}

/* The COFF file header; returns the optional header's offset in *ret_opt. */
static sbat_err
parse_coff(sbat_pe *pe, bview *v, uint64_t *ret_opt, sbat_diag *d)
{
	uint64_t coff = (uint64_t)pe->pe_offset + PE_SIGNATURE_SIZE;

	pe->machine = bv_le16(v, coff + COFF_MACHINE);
	pe->number_of_sections = bv_le16(v, coff + COFF_NUMBER_OF_SECTIONS);
	pe->pointer_to_symbol_table = bv_le32(v, coff + COFF_POINTER_TO_SYMBOL_TABLE);
	pe->number_of_symbols = bv_le32(v, coff + COFF_NUMBER_OF_SYMBOLS);
	pe->size_of_optional_header = bv_le16(v, coff + COFF_SIZE_OF_OPTIONAL_HEADER);
	pe->file_characteristics = bv_le16(v, coff + COFF_CHARACTERISTICS);
	pe->off_number_of_sections = coff + COFF_NUMBER_OF_SECTIONS;
	pe->off_pointer_to_symbol_table = coff + COFF_POINTER_TO_SYMBOL_TABLE;
	if (pe->number_of_sections == 0)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "NumberOfSections is 0", pe->off_number_of_sections);
	if (pe->number_of_sections > SBAT_PE_MAX_SECTIONS)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "NumberOfSections is above 96", pe->off_number_of_sections);
	*ret_opt = coff + COFF_HEADER_SIZE;
	return SBAT_OK;
}

/* The optional header's fields, its size rules and the two alignments. */
static sbat_err
parse_optional(sbat_pe *pe, bview *v, uint64_t opt, uint32_t *ret_fixed, sbat_diag *d)
{
	uint64_t size_field = pe->off_number_of_sections - COFF_NUMBER_OF_SECTIONS + COFF_SIZE_OF_OPTIONAL_HEADER;
	uint32_t fixed, num_rva_off;

	if (!bv_has(v, opt, 2))
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "optional header past end of file", opt);
	pe->magic = bv_le16(v, opt + OPT_MAGIC);
	if (pe->magic == OPT_MAGIC_PE32) {
		fixed = OPT_PE32_FIXED_SIZE;
		num_rva_off = OPT_PE32_NUMBER_OF_RVA_AND_SIZES;
	} else if (pe->magic == OPT_MAGIC_PE32PLUS) {
		fixed = OPT_PE32PLUS_FIXED_SIZE;
		num_rva_off = OPT_PE32PLUS_NUMBER_OF_RVA_AND_SIZES;
	} else {
		return diag_fail_at(d, SBAT_E_PE_MAGIC, "optional header magic is neither PE32 nor PE32+", opt);
	}
	if (pe->size_of_optional_header < fixed)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "SizeOfOptionalHeader is too small", size_field);
	if (!bv_has(v, opt, pe->size_of_optional_header))
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "optional header past end of file (SizeOfOptionalHeader)",
		                    size_field);

	pe->size_of_initialized_data = bv_le32(v, opt + OPT_SIZE_OF_INITIALIZED_DATA);
	pe->address_of_entry_point = bv_le32(v, opt + OPT_ADDRESS_OF_ENTRY_POINT);
	pe->section_alignment = bv_le32(v, opt + OPT_SECTION_ALIGNMENT);
	pe->file_alignment = bv_le32(v, opt + OPT_FILE_ALIGNMENT);
	pe->size_of_image = bv_le32(v, opt + OPT_SIZE_OF_IMAGE);
	pe->size_of_headers = bv_le32(v, opt + OPT_SIZE_OF_HEADERS);
	pe->checksum = bv_le32(v, opt + OPT_CHECKSUM);
	pe->number_of_rva_and_sizes = bv_le32(v, opt + num_rva_off);
	pe->dll_characteristics = bv_le16(v, opt + OPT_DLL_CHARACTERISTICS);
	pe->off_address_of_entry_point = opt + OPT_ADDRESS_OF_ENTRY_POINT;
	pe->off_section_alignment = opt + OPT_SECTION_ALIGNMENT;
	pe->off_dll_characteristics = opt + OPT_DLL_CHARACTERISTICS;
	pe->off_number_of_rva_and_sizes = opt + num_rva_off;
	pe->off_size_of_initialized_data = opt + OPT_SIZE_OF_INITIALIZED_DATA;
	pe->off_size_of_image = opt + OPT_SIZE_OF_IMAGE;
	pe->off_size_of_headers = opt + OPT_SIZE_OF_HEADERS;
	pe->off_checksum = opt + OPT_CHECKSUM;

	/* shim and EDK2 both insist on these two exact relations */
	if (pe->number_of_rva_and_sizes > OPT_MAX_DATA_DIRECTORIES)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "NumberOfRvaAndSizes is above 16", opt + num_rva_off);
	if (pe->size_of_optional_header != fixed + DATA_DIR_SIZE * pe->number_of_rva_and_sizes)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "SizeOfOptionalHeader does not match NumberOfRvaAndSizes",
		                    size_field);
	/* the spec says 512..64K; Linux before 6.7 uses 0x20, shim only needs it even */
	if (!ckd_is_pow2(pe->file_alignment) || pe->file_alignment < 2 || pe->file_alignment > 0x10000)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "FileAlignment is not a power of two in 2..64 KiB",
		                    opt + OPT_FILE_ALIGNMENT);
	if (!ckd_is_pow2(pe->section_alignment) || pe->section_alignment < pe->file_alignment ||
	    pe->section_alignment > SBAT_PE_MAX_SECTION_ALIGN)
		return diag_fail_at(d, SBAT_E_PE_FIELD,
		                    "SectionAlignment is not a power of two between FileAlignment and 2 MiB",
		                    opt + OPT_SECTION_ALIGNMENT);
	*ret_fixed = fixed;
	return SBAT_OK;
}

/* Where the section table lies, and that SizeOfHeaders covers it inside the file. */
static sbat_err
locate_section_table(sbat_pe *pe, bview *v, uint64_t opt, sbat_diag *d)
{
	pe->section_table_offset = opt + pe->size_of_optional_header;
	pe->section_table_end = pe->section_table_offset + (uint64_t)pe->number_of_sections * SH_SIZE;
	if (!bv_has(v, pe->section_table_offset, pe->section_table_end - pe->section_table_offset))
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "section table past end of file (NumberOfSections)",
		                    pe->off_number_of_sections);
	if (pe->size_of_headers < pe->section_table_end)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "SizeOfHeaders ends inside the section table",
		                    pe->off_size_of_headers);
	if (pe->size_of_headers > v->len)
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "SizeOfHeaders is past end of file",
		                    pe->off_size_of_headers);
	return SBAT_OK;
}

/* The certificate table must lie in the file, after every section's data. */
static sbat_err
check_certificate_table(sbat_pe *pe, bview *v, sbat_diag *d)
{
	pe->data_end = v->len;
	if (pe->cert_size == 0)
		return SBAT_OK;
	if (!bv_has(v, pe->cert_offset, pe->cert_size))
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "certificate table past end of file (data directory 4)",
		                    pe->off_cert_dir);
	if (pe->cert_offset < pe->raw_end)
		return diag_fail_at(d, SBAT_E_PE_FIELD,
		                    "certificate table overlaps headers or section data (data directory 4)",
		                    pe->off_cert_dir);
	pe->data_end = pe->cert_offset;
	return SBAT_OK;
}

sbat_err
pe_parse(const uint8_t *buf, size_t len, sbat_pe *pe, sbat_diag *d)
{
	bview v;
	uint64_t opt, dirs;
	uint32_t fixed;
	sbat_err err;

	bv_init(&v, buf, len);
	memset(pe, 0, sizeof(*pe));
	pe->file_size = len;
	pe->sbat_index = -1;

	err = parse_dos(pe, &v, d);
	if (!err)
		err = parse_coff(pe, &v, &opt, d);
	if (!err)
		err = parse_optional(pe, &v, opt, &fixed, d);
	if (err)
		return err;
	dirs = opt + fixed;
	if (pe->number_of_rva_and_sizes > DIR_RESOURCE) {
		pe->off_rsrc_dir = dirs + DIR_RESOURCE * DATA_DIR_SIZE;
		pe->rsrc_rva = bv_le32(&v, pe->off_rsrc_dir);
		pe->rsrc_size = bv_le32(&v, pe->off_rsrc_dir + 4);
	}
	if (pe->number_of_rva_and_sizes > DIR_CERTIFICATE_TABLE) {
		pe->off_cert_dir = dirs + DIR_CERTIFICATE_TABLE * DATA_DIR_SIZE;
		pe->cert_offset = bv_le32(&v, pe->off_cert_dir);
		pe->cert_size = bv_le32(&v, pe->off_cert_dir + 4);
	}
	if (pe->number_of_rva_and_sizes > DIR_BASE_RELOCATION) {
		pe->off_reloc_dir = dirs + DIR_BASE_RELOCATION * DATA_DIR_SIZE;
		pe->reloc_rva = bv_le32(&v, pe->off_reloc_dir);
		pe->reloc_size = bv_le32(&v, pe->off_reloc_dir + 4);
	}
	err = locate_section_table(pe, &v, opt, d);
	if (!err)
		err = parse_sections(pe, &v, d);
	if (!err)
		err = check_certificate_table(pe, &v, d);
	if (err)
		return err;
	if (pe->number_of_rva_and_sizes > DIR_DEBUG) {
		uint64_t e = dirs + DIR_DEBUG * DATA_DIR_SIZE;

		read_debug_directory(pe, &v, bv_le32(&v, e), bv_le32(&v, e + 4));
	}
	if (v.bad)
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "header field past end of file", v.bad_offset);
	pe->kind = detect_kind(buf, len);
	pe->linux_pe_magic = bv_has(&v, LINUX_PE_MAGIC_OFFSET, 4) &&
	                     bv_le32(&v, LINUX_PE_MAGIC_OFFSET) == LINUX_PE_MAGIC;
	publish_info(pe);
	return SBAT_OK;
}

uint32_t
pe_section_memory_size(const sbat_pe_section *s)
{
	return s->virtual_size ? s->virtual_size : s->size_of_raw_data;
}

sbat_err
pe_sbat_data(const sbat_pe *pe, const uint8_t *buf, size_t len, const uint8_t **ret_data, size_t *ret_len, sbat_diag *d)
{
	const sbat_pe_section *s;
	const uint8_t *p, *nul;
	size_t n;

	if (pe->sbat_count == 0)
		return diag_fail(d, SBAT_E_NO_SBAT, "image has no .sbat section");
	if (pe->sbat_count > 1)
		return diag_fail(d, SBAT_E_SBAT_DUPLICATE, "image has more than one .sbat section");
	s = &pe->sections[pe->sbat_index];
	/* parse already checked the range; recheck against this buffer */
	if (s->size_of_raw_data > len || s->pointer_to_raw_data > len - s->size_of_raw_data)
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "section raw data past end of file",
		                    s->header_offset + SH_POINTER_TO_RAW_DATA);
	/* shim reads SizeOfRawData bytes and stops at the first NUL */
	p = buf + s->pointer_to_raw_data;
	n = s->size_of_raw_data;
	nul = n ? memchr(p, 0, n) : NULL;
	*ret_data = p;
	*ret_len = nul ? (size_t)(nul - p) : n;
	return SBAT_OK;
}

const char *
sbat_pe_kind_name(sbat_pe_kind kind)
{
	static const char *const names[] = {
		[SBAT_KIND_EFI_APP] = "PE/COFF image",   [SBAT_KIND_BZIMAGE] = "x86 bzImage",
		[SBAT_KIND_ARM64_IMAGE] = "arm64 Image", [SBAT_KIND_RISCV_IMAGE] = "riscv Image",
		[SBAT_KIND_ZBOOT] = "EFI zboot image",
	};

	return STRTABLE_NAME(names, kind, "unknown");
}

const char *
sbat_pe_machine_name(uint16_t machine)
{
	switch (machine) {
	case MACHINE_I386: return "i386";
	case MACHINE_AMD64: return "x86_64";
	case MACHINE_ARM64: return "aarch64";
	case MACHINE_ARM: return "arm";
	case MACHINE_THUMB: return "thumb";
	case MACHINE_ARMNT: return "armv7";
	case MACHINE_RISCV32: return "riscv32";
	case MACHINE_RISCV64: return "riscv64";
	case MACHINE_LOONGARCH32: return "loongarch32";
	case MACHINE_LOONGARCH64: return "loongarch64";
	case MACHINE_EBC: return "ebc";
	}
	return "unknown";
}

const char *
sbat_pe_format_name(uint16_t magic)
{
	switch (magic) {
	case OPT_MAGIC_PE32: return "PE32";
	case OPT_MAGIC_PE32PLUS: return "PE32+";
	}
	return "unknown";
}

const uint8_t *
pe_section_raw(const sbat_pe *pe, const uint8_t *buf, size_t len, unsigned i, size_t *ret_len)
{
	const sbat_pe_section *s;
	bview v;

	*ret_len = 0;
	if (i >= pe->number_of_sections)
		return NULL;
	s = &pe->sections[i];
	bv_init(&v, buf, len);
	if (!bv_has(&v, s->pointer_to_raw_data, s->size_of_raw_data))
		return NULL;
	*ret_len = s->size_of_raw_data;
	return buf + s->pointer_to_raw_data;
}

int
pe_is_x86(const sbat_pe *pe)
{
	return pe->machine == MACHINE_AMD64 || pe->machine == MACHINE_I386;
}

/*
 * The name of a section whose header holds "/<decimal offset>": binutils
 * stores names longer than 8 bytes in the COFF string table, right after
 * the symbol table. NULL when it cannot be resolved inside the file;
 * *ret_max is how many bytes the table has from there.
 */
static const char *
long_section_name(const sbat_pe *pe, bview *v, const uint8_t raw[8], size_t *ret_max)
{
	uint64_t strtab;
	uint32_t off = 0, strsize;
	size_t i;

	if (raw[0] != '/' || raw[1] < '0' || raw[1] > '9' || pe->pointer_to_symbol_table == 0)
		return NULL;
	/* at most 7 digits, then NUL padding: off stays below 10^7 */
	for (i = 1; i < 8 && raw[i] != '\0'; i++) {
		if (raw[i] < '0' || raw[i] > '9')
			return NULL;
		off = off * 10 + (uint32_t)(raw[i] - '0');
	}
	for (; i < 8; i++)
		if (raw[i] != '\0')
			return NULL;
	strtab = (uint64_t)pe->pointer_to_symbol_table + (uint64_t)pe->number_of_symbols * COFF_SYMBOL_SIZE;
	if (!bv_has(v, strtab, 4))
		return NULL;
	strsize = bv_le32(v, strtab);
	if (off < 4 || off >= strsize || !bv_has(v, strtab + off, strsize - off))
		return NULL;
	*ret_max = strsize - off;
	return (const char *)v->p + strtab + off;
}

/* 1 if the 8-byte name field raw holds name (at most 8 bytes) and NUL padding after it. */
static int
short_name_is(const uint8_t raw[8], const char *name, size_t n)
{
	size_t k;

	if (memcmp(raw, name, n) != 0)
		return 0;
	for (k = n; k < 8 && raw[k] == '\0'; k++)
		;
	return k == 8;
}

int
pe_section_name_is(const sbat_pe *pe, const uint8_t *buf, size_t len, unsigned i, const char *name)
{
	size_t n = strlen(name), max;
	const uint8_t *raw;
	const char *full;
	bview v;

	if (i >= pe->number_of_sections)
		return 0;
	bv_init(&v, buf, len);
	raw = bv_ptr(&v, pe->sections[i].header_offset + SH_NAME, 8);
	if (!raw)
		return 0;
	if (n <= 8)
		return short_name_is(raw, name, n);
	/* the name and its NUL must lie inside the size the table declares */
	full = long_section_name(pe, &v, raw, &max);
	return full && max > n && memcmp(full, name, n + 1) == 0;
}

size_t
pe_section_name(const sbat_pe *pe, const uint8_t *buf, size_t len, unsigned i, char *out, size_t size)
{
	const char *name, *full = NULL, *nul;
	const uint8_t *raw;
	size_t n, max = 0;
	bview v;

	if (size == 0 || i >= pe->number_of_sections)
		return 0;
	name = pe->sections[i].name;
	n = strlen(name);
	bv_init(&v, buf, len);
	raw = bv_ptr(&v, pe->sections[i].header_offset + SH_NAME, 8);
	if (raw)
		full = long_section_name(pe, &v, raw, &max);
	/* only a name whose NUL lies inside the table */
	nul = full ? memchr(full, '\0', max) : NULL;
	if (nul) {
		name = full;
		n = (size_t)(nul - full);
	}
	if (n > size - 1)
		n = size - 1;
	memcpy(out, name, n);
	out[n] = '\0';
	return n;
}

int
pe_find_section(const sbat_pe *pe, const uint8_t *buf, size_t len, const char *name)
{
	unsigned i;

	for (i = 0; i < pe->number_of_sections; i++)
		if (pe_section_name_is(pe, buf, len, i, name))
			return (int)i;
	return -1;
}

void
pe_section_file_range(const sbat_pe *pe, unsigned i, uint64_t *ret_offset, uint32_t *ret_size)
{
	const sbat_pe_section *s;
	uint32_t mem;

	*ret_offset = 0;
	*ret_size = 0;
	if (i >= pe->number_of_sections)
		return;
	s = &pe->sections[i];
	mem = pe_section_memory_size(s);
	*ret_offset = s->pointer_to_raw_data;
	*ret_size = mem < s->size_of_raw_data ? mem : s->size_of_raw_data;
}

uint64_t
pe_header_room(const sbat_pe *pe)
{
	uint64_t limit = pe->size_of_headers;

	if (pe->lowest_raw_pointer < limit)
		limit = pe->lowest_raw_pointer;
	if (pe->lowest_virtual_address < limit)
		limit = pe->lowest_virtual_address;
	if (pe->kind == SBAT_KIND_BZIMAGE && limit > BZ_HEADER_ROOM_LIMIT)
		limit = BZ_HEADER_ROOM_LIMIT;
	return limit > pe->section_table_end ? limit - pe->section_table_end : 0;
}
