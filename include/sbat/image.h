/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* image.h - a parsed PE/COFF image: parse once, ask what it holds, hand it to the edit calls */
#ifndef SBAT_IMAGE_H
#define SBAT_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What kind of image sits around the PE header; kernels need extra care. */
typedef enum sbat_pe_kind {
	SBAT_KIND_EFI_APP = 0, /* plain PE/COFF */
	SBAT_KIND_BZIMAGE,     /* x86 bzImage: "HdrS" at 0x202, 0xAA55 at 0x1FE */
	SBAT_KIND_ARM64_IMAGE, /* arm64 Image: "ARM\x64" at 0x38 */
	SBAT_KIND_RISCV_IMAGE, /* riscv Image: "RSC\x05" at 0x38 */
	SBAT_KIND_ZBOOT,       /* EFI zboot: "zimg" at 0x04 */
} sbat_pe_kind;

/* The parsed image. Opaque: see the accessors below. */
typedef struct sbat_image sbat_image;

/* The headers as parsed, and the layout derived from them. */
typedef struct sbat_image_info {
	uint64_t file_size;
	sbat_pe_kind kind;
	uint16_t machine; /* COFF Machine, e.g. 0x8664 */
	uint16_t magic;   /* 0x10b PE32, 0x20b PE32+ */
	unsigned number_of_sections;
	uint32_t file_alignment;
	uint32_t section_alignment;
	uint32_t size_of_headers;
	uint32_t size_of_image;
	uint32_t checksum;
	uint64_t section_table_offset;
	uint64_t section_table_end; /* first byte after the last section header */
	uint64_t header_room;       /* bytes free after the table for new section headers */
	uint64_t raw_end;           /* end of the headers and of all section raw data */
	uint64_t data_end;          /* raw_end plus trailing data: a certificate table's offset, or EOF */
	uint32_t cert_offset;       /* certificate table (a file offset), when cert_size != 0 */
	uint32_t cert_size;         /* 0 when unsigned */
	int sbat_index;             /* index of the (first) .sbat section, -1 if none */
	unsigned sbat_count;        /* how many sections are named .sbat */
	int sbat_ignored;           /* 1 when shim skips that .sbat (SizeOfRawData 0 or below VirtualSize) */
} sbat_image_info;

typedef struct sbat_section_info {
	char name[9]; /* the 8-byte name field, NUL-terminated */
	uint32_t virtual_size;
	uint32_t virtual_address;
	uint32_t size_of_raw_data;
	uint32_t pointer_to_raw_data;
	uint32_t characteristics;
	uint64_t header_offset; /* file offset of the 40-byte section header */
} sbat_section_info;

/*
 * Parse and bounds-check the image in buf[0..len). The image borrows buf:
 * it must stay valid and unchanged until sbat_image_free. On success
 * *ret_img is set; on failure a code is returned and *reterr (if not NULL)
 * names the check and the file offset.
 */
SBAT_API sbat_err sbat_image_parse(const uint8_t *buf, size_t len, sbat_image **ret_img, sbat_diag *reterr);

/* NULL-safe; returns NULL. */
SBAT_API sbat_image *sbat_image_free(sbat_image *img);

/* The headers and layout; valid as long as img. */
SBAT_API const sbat_image_info *sbat_image_get_info(const sbat_image *img);

/* Section `index` (0-based, table order), or NULL past the last one. */
SBAT_API const sbat_section_info *sbat_image_section(const sbat_image *img, unsigned index);

/*
 * The name of section `index` as a reader should see it, NUL-terminated in
 * buf[0..size): a long name the linker stored in the COFF string table
 * ("/4" in the header, ".eh_frame" in the table) when it resolves inside
 * the file, else the 8-byte name field. Truncated to size - 1 bytes.
 * Returns the length written, 0 for an index past the last section (or a
 * size of 0).
 */
SBAT_API size_t sbat_image_section_name(const sbat_image *img, unsigned index, char *buf, size_t size);

/*
 * Index of the first section called `name`: an 8-byte name compared with
 * its NUL padding, or a longer one stored by the linker in the COFF string
 * table ("/<offset>" in the header) as for ".sbatlevel". -1 when none.
 */
SBAT_API int sbat_image_find_section(const sbat_image *img, const char *name);

/*
 * The .sbat contents as shim reads them: SizeOfRawData bytes from
 * PointerToRawData, cut at the first NUL; they point into the image's
 * buffer. SBAT_E_NO_SBAT when the image has none, SBAT_E_SBAT_DUPLICATE
 * when it has several.
 */
SBAT_API sbat_err sbat_image_sbat_data(const sbat_image *img, const uint8_t **ret_data, size_t *ret_len,
                                       sbat_diag *reterr);

SBAT_API const char *sbat_pe_kind_name(sbat_pe_kind kind);
SBAT_API const char *sbat_pe_machine_name(uint16_t machine);
/* "PE32" or "PE32+" for an optional header magic (sbat_image_info.magic), "unknown" for any other. */
SBAT_API const char *sbat_pe_format_name(uint16_t magic);

/* PE CheckSum over buf with the 4 bytes at checksum_offset counted as zero. */
SBAT_API uint32_t sbat_pe_checksum(const uint8_t *buf, size_t len, uint64_t checksum_offset);

#ifdef __cplusplus
}
#endif

#endif
