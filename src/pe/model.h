/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* model.h - the parsed image inside the library: a checked, read-only value model of a PE/COFF image */
#ifndef SBAT_PE_MODEL_H
#define SBAT_PE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"
#include "sbat/image.h"

/* Limits on untrusted input; each is far above anything a real image has. */
#define SBAT_PE_MAX_SECTIONS 96             /* the Windows loader's limit; systemd-stub uses it too */
#define SBAT_PE_MAX_DEBUG_ENTRIES 64        /* debug directory entries we track for fix-ups */
#define SBAT_PE_MAX_SECTION_ALIGN 0x200000u /* 2 MiB: larger is corrupt, not padding */

/* Characteristics of a new .sbat: initialized data, readable (never W or X, no ALIGN bits). */
#define SBAT_SECTION_CHARACTERISTICS 0x40000040u

/* The 8-byte name field of a .sbat section header: the literal's own NUL is the eighth byte. */
#define SBAT_SECTION_NAME_FIELD ".sbat\0\0"
#define SBAT_SECTION_NAME_SIZE 8

typedef struct sbat_pe_section {
	char name[9]; /* the 8-byte name, NUL-terminated for printing */
	uint32_t virtual_size;
	uint32_t virtual_address;
	uint32_t size_of_raw_data;
	uint32_t pointer_to_raw_data;
	uint32_t pointer_to_relocations;
	uint16_t number_of_relocations;
	uint32_t characteristics;
	uint64_t header_offset; /* file offset of this 40-byte section header */
} sbat_pe_section;

typedef struct sbat_pe_debug_entry {
	uint64_t field_offset; /* file offset of the entry's PointerToRawData */
	uint32_t pointer_to_raw_data;
	uint32_t address_of_raw_data; /* an RVA; 0 when the data is not mapped */
	uint32_t size_of_data;
} sbat_pe_debug_entry;

/*
 * The parsed image. Plain numbers and offsets, no pointers into the buffer,
 * so it stays valid after the buffer is gone. Filled by pe_parse.
 */
typedef struct sbat_pe {
	uint64_t file_size;
	sbat_pe_kind kind;
	uint32_t pe_offset; /* e_lfanew */
	uint16_t machine;
	uint16_t number_of_sections;
	uint16_t file_characteristics; /* COFF Characteristics */
	uint32_t pointer_to_symbol_table;
	uint32_t number_of_symbols;
	uint16_t size_of_optional_header;
	uint16_t magic; /* 0x10b PE32, 0x20b PE32+ */
	uint32_t size_of_initialized_data;
	uint32_t address_of_entry_point; /* an RVA */
	uint32_t section_alignment;
	uint32_t file_alignment;
	uint32_t size_of_image;
	uint32_t size_of_headers;
	uint32_t checksum;
	uint32_t number_of_rva_and_sizes;
	uint16_t dll_characteristics;
	uint32_t reloc_rva;   /* Base Relocation Table (data directory 5): an RVA */
	uint32_t reloc_size;  /* 0 when empty or absent */
	uint32_t rsrc_rva;    /* Resource Table (data directory 2): an RVA */
	uint32_t rsrc_size;   /* 0 when empty or absent */
	uint32_t cert_offset; /* Certificate Table: a file offset */
	uint32_t cert_size;   /* 0 when unsigned */

	/* file offsets of the fields an edit may rewrite */
	uint64_t off_number_of_sections;
	uint64_t off_pointer_to_symbol_table;
	uint64_t off_size_of_initialized_data;
	uint64_t off_size_of_image;
	uint64_t off_size_of_headers;
	uint64_t off_checksum;
	uint64_t off_cert_dir;  /* 0 when the directory entry is absent */
	uint64_t off_reloc_dir; /* 0 when the directory entry is absent */
	uint64_t off_rsrc_dir;  /* 0 when the directory entry is absent */
	uint64_t off_address_of_entry_point;
	uint64_t off_section_alignment;
	uint64_t off_dll_characteristics;
	uint64_t off_number_of_rva_and_sizes;
	uint64_t section_table_offset;
	uint64_t section_table_end; /* first byte after the last header */

	/* derived layout */
	uint64_t raw_end;                /* end of headers and all section raw data */
	uint64_t data_end;               /* raw_end plus overlay: where a certificate table begins, or EOF */
	uint64_t lowest_raw_pointer;     /* lowest PointerToRawData of a section with raw data */
	uint64_t lowest_virtual_address; /* lowest VirtualAddress of any section */
	uint64_t virtual_end;            /* highest VA + memory size of any section */

	int sbat_index;      /* index of the .sbat section, -1 if none */
	unsigned sbat_count; /* how many sections are named .sbat */
	int sbat_ignored;    /* that .sbat's SizeOfRawData is 0 or below its VirtualSize: shim skips it */
	int linux_pe_magic;  /* LINUX_PE_MAGIC at 0x38 of the DOS header: a Linux kernel's EFI stub */
	/*
	 * Set only on the edit's view of an input without its last section (a
	 * UKI's .pcrsig the same edit removes): the 40 bytes at
	 * section_table_end are that section's old header, free for a new one.
	 */
	int header_slot_freed;

	sbat_pe_section sections[SBAT_PE_MAX_SECTIONS];
	/* the same headers as the public API shows them, filled by the parser: sbat_image's accessors point here */
	sbat_image_info info;
	sbat_section_info section_info[SBAT_PE_MAX_SECTIONS];
	unsigned debug_count; /* entries tracked in debug[] */
	unsigned debug_total; /* entries the debug directory declares */
	sbat_pe_debug_entry debug[SBAT_PE_MAX_DEBUG_ENTRIES];
} sbat_pe;

/*
 * Parse and bounds-check an image held in buf[0..len). Every header field is
 * read through a checked view; every section's raw data must lie in the
 * file. On success fills *ret and returns SBAT_OK; on failure returns a code,
 * fills *reterr (if not NULL) and leaves *ret unspecified.
 */
sbat_err pe_parse(const uint8_t *buf, size_t len, sbat_pe *ret, sbat_diag *reterr);

/* The memory size loaders use: VirtualSize, or SizeOfRawData when VirtualSize is 0. */
uint32_t pe_section_memory_size(const sbat_pe_section *s);

/*
 * The .sbat contents as shim reads them: SizeOfRawData bytes from
 * PointerToRawData, cut at the first NUL. Returns SBAT_E_NO_SBAT when the
 * image has none, SBAT_E_SBAT_DUPLICATE when it has several.
 */
sbat_err pe_sbat_data(const sbat_pe *pe, const uint8_t *buf, size_t len, const uint8_t **ret_data, size_t *ret_len,
                      sbat_diag *reterr);

/* Index of the section named `name` (8-byte names, or longer ones through the COFF string table), or -1. */
int pe_find_section(const sbat_pe *pe, const uint8_t *buf, size_t len, const char *name);

/* Bytes free for section headers after the table: before SizeOfHeaders, section data, a VA or a bzImage setup header. */
uint64_t pe_header_room(const sbat_pe *pe);

/*
 * 1 if section i is called `name`, by the rules of pe_find_section
 * (the 8-byte field with its NUL padding, or a long name through the COFF
 * string table); 0 otherwise or when i is past the last section.
 */
int pe_section_name_is(const sbat_pe *pe, const uint8_t *buf, size_t len, unsigned i, const char *name);

/*
 * The bytes of section i that are both in the file and loaded with it: the
 * first min(SizeOfRawData, memory size) bytes at PointerToRawData. The
 * parser has checked that they lie in the file. *ret_size is 0 when the
 * section has no file data (or i is past the last section).
 */
void pe_section_file_range(const sbat_pe *pe, unsigned i, uint64_t *ret_offset, uint32_t *ret_size);

/* Section i's SizeOfRawData bytes in buf (*ret_len of them), or NULL when they do not lie in buf. */
const uint8_t *pe_section_raw(const sbat_pe *pe, const uint8_t *buf, size_t len, unsigned i, size_t *ret_len);

/* See sbat_image_section_name: the resolved name of section i into out[0..size). */
size_t pe_section_name(const sbat_pe *pe, const uint8_t *buf, size_t len, unsigned i, char *out, size_t size);

/*
 * 1 and the file offset of rva in *ret when [rva, rva+size) lies in the
 * headers or in one section's raw data; 0 otherwise.
 */
int pe_rva_to_offset(const sbat_pe *pe, uint32_t rva, uint32_t size, uint64_t *ret);

/* 1 for an x86 machine (x86_64 or i386). */
int pe_is_x86(const sbat_pe *pe);

#endif
