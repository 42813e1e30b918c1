/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint_uefi_ca.c - the uefi-ca profile: the UEFI CA's memory rules and what shim's loader needs under NX */
#include <string.h>

#include "sbat/lint.h"

#include "pe/layout.h"
#include "sbat/lint_internal.h"

#define PAGE_MASK ((uint64_t)LINT_PAGE_SIZE - 1)

static int
is_executable(const sbat_pe_section *s)
{
	return (s->characteristics & (IMAGE_SCN_MEM_EXECUTE | IMAGE_SCN_CNT_CODE)) != 0;
}

/* The sections shim's handle_image looks at: readable ones, but not discardable ones without a size. */
static int
shim_loads(const sbat_pe_section *s)
{
	if ((s->characteristics & IMAGE_SCN_MEM_DISCARDABLE) && s->virtual_size == 0)
		return 0;
	return (s->characteristics & IMAGE_SCN_MEM_READ) != 0;
}

/* SectionAlignment, NX_COMPAT: one field each. */
static void
lint_optional_header(linter *l)
{
	const sbat_pe *pe = l->pe;

	if (pe->section_alignment < LINT_PAGE_SIZE)
		lint_rule_report(l, RULE_UEFI_CA_SECTION_ALIGNMENT,
		                 "SectionAlignment is below 4 KiB: firmware cannot give each section its own page "
		                 "permissions",
		                 -1, pe->off_section_alignment, NULL);
	if (!(pe->dll_characteristics & IMAGE_DLLCHARACTERISTICS_NX_COMPAT))
		lint_rule_report(l, RULE_UEFI_CA_NX_COMPAT,
		                 "DllCharacteristics lacks NX_COMPAT: shim, if built with it, and NX-enforcing "
		                 "firmware treat the image as not NX compatible",
		                 -1, pe->off_dll_characteristics, NULL);
}

/* Per section: page-aligned VAs, W^X, no code in the headers' pages. */
static void
lint_section_memory(linter *l, unsigned i)
{
	const sbat_pe *pe = l->pe;
	const sbat_pe_section *s = &pe->sections[i];
	uint64_t h = s->header_offset;
	uint64_t header_pages = ((uint64_t)pe->size_of_headers + PAGE_MASK) & ~PAGE_MASK;

	if (s->virtual_address & PAGE_MASK)
		lint_rule_report(l, RULE_UEFI_CA_VA_PAGE_ALIGNED,
		                 "VirtualAddress is not a multiple of 4 KiB: the section shares a page with another",
		                 (int)i, h + SH_VIRTUAL_ADDRESS, NULL);
	if ((s->characteristics & IMAGE_SCN_MEM_WRITE) && is_executable(s))
		lint_rule_report(l, RULE_UEFI_CA_WRITE_EXECUTE,
		                 "the section is writable and executable (or code): W^X cannot hold for it", (int)i,
		                 h + SH_CHARACTERISTICS, NULL);
	if (is_executable(s) && s->virtual_address < header_pages)
		lint_rule_report(l, RULE_UEFI_CA_HEADERS_EXECUTABLE,
		                 "an executable section starts in the headers' page: the headers become executable",
		                 (int)i, h + SH_VIRTUAL_ADDRESS, NULL);
}

/* shim's rule: the entry point in exactly one section; NX firmware's: an executable one. */
static void
lint_entry_point(linter *l)
{
	const sbat_pe *pe = l->pe;
	uint64_t ep = pe->address_of_entry_point;
	unsigned i, n = 0;
	int found = -1;

	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		/* shim counts a section when VA <= entry < VA + VirtualSize - 1 */
		if (!shim_loads(s) || s->virtual_size == 0)
			continue;
		if (s->virtual_address <= ep && ep + 1 < (uint64_t)s->virtual_address + s->virtual_size) {
			n++;
			found = found < 0 ? (int)i : found;
		}
	}
	if (n == 0)
		lint_rule_report(
		    l, RULE_UEFI_CA_ENTRY_POINT,
		    "AddressOfEntryPoint lies in no section (shim: \"Entry point is not within sections\")", -1,
		    pe->off_address_of_entry_point, NULL);
	else if (n > 1)
		lint_rule_report(l, RULE_UEFI_CA_ENTRY_POINT, "AddressOfEntryPoint lies in more than one section",
		                 found, pe->off_address_of_entry_point, NULL);
	else if (!(pe->sections[found].characteristics & IMAGE_SCN_MEM_EXECUTE))
		lint_rule_report(l, RULE_UEFI_CA_ENTRY_POINT,
		                 "AddressOfEntryPoint lies in a section that is not executable: NX firmware faults on "
		                 "the first instruction",
		                 found, pe->off_address_of_entry_point, NULL);
}

/* A .reloc section as shim checks it: sizes, and the directory's table inside it. */
static int
reloc_section_agrees(const sbat_pe *pe, const sbat_pe_section *s)
{
	uint64_t start = s->virtual_address, end = start + s->virtual_size;

	/* an empty table at the section's start passes shim's comparison too */
	if (!s->size_of_raw_data || !s->virtual_size)
		return 0;
	return pe->reloc_rva == start && (uint64_t)pe->reloc_rva + pe->reloc_size <= end;
}

/* shim 16.1 refuses stripped relocations, a missing directory entry, and a .reloc section that disagrees. */
static void
lint_relocations(linter *l)
{
	const sbat_pe *pe = l->pe;
	unsigned i, n = 0;

	if (pe->file_characteristics & IMAGE_FILE_RELOCS_STRIPPED)
		lint_rule_report(l, RULE_UEFI_CA_RELOCATIONS,
		                 "COFF Characteristics say relocations were stripped (shim: \"Relocations have been "
		                 "stripped\")",
		                 -1, pe->pe_offset + PE_SIGNATURE_SIZE + COFF_CHARACTERISTICS, NULL);
	if (pe->off_reloc_dir == 0)
		lint_rule_report(l, RULE_UEFI_CA_RELOCATIONS,
		                 "NumberOfRvaAndSizes leaves out the base relocation directory (shim: \"Image has no "
		                 "relocation entry\")",
		                 -1, pe->off_number_of_rva_and_sizes, NULL);
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		/* shim compares the 8-byte name field, without the COFF string table */
		if (!shim_loads(s) || strcmp(s->name, ".reloc") != 0)
			continue;
		if (n++)
			lint_rule_report(l, RULE_UEFI_CA_RELOCATIONS,
			                 "a second .reloc section (shim: \"Image has multiple relocation sections\")",
			                 (int)i, s->header_offset, NULL);
		else if (!reloc_section_agrees(pe, s))
			lint_rule_report(
			    l, RULE_UEFI_CA_RELOCATIONS,
			    "the .reloc section does not hold the base relocation directory's table (shim: "
			    "\"Relocation section is invalid\")",
			    (int)i, s->header_offset + SH_VIRTUAL_ADDRESS, NULL);
	}
}

/* One note for the image: the first section whose file data does not start on a page. */
static void
lint_raw_pages(linter *l)
{
	const sbat_pe *pe = l->pe;
	unsigned i;

	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		if (s->size_of_raw_data && (s->pointer_to_raw_data & PAGE_MASK)) {
			lint_rule_report(l, RULE_UEFI_CA_RAW_PAGE_ALIGNED,
			                 "PointerToRawData is not a multiple of 4 KiB (here and maybe in later "
			                 "sections)",
			                 (int)i, s->header_offset + SH_POINTER_TO_RAW_DATA, NULL);
			return;
		}
	}
}

void
lint_uefi_ca(linter *l)
{
	unsigned i;

	lint_optional_header(l);
	for (i = 0; i < l->pe->number_of_sections; i++)
		lint_section_memory(l, i);
	lint_entry_point(l);
	lint_relocations(l);
	lint_raw_pages(l);
}
