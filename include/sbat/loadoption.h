/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* loadoption.h - a Boot#### variable's EFI_LOAD_OPTION: its description, device path and optional data */
#ifndef SBAT_LOADOPTION_H
#define SBAT_LOADOPTION_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* UEFI load option attributes. */
#define SBAT_LOAD_OPTION_ACTIVE 0x00000001u
#define SBAT_LOAD_OPTION_HIDDEN 0x00000008u
#define SBAT_LOAD_OPTION_CATEGORY 0x00001f00u

/* Longest texts kept from a load option (longer ones are refused, not cut). */
#define SBAT_LOAD_OPTION_TEXT_MAX 512

/* A Boot#### variable's EFI_LOAD_OPTION, as far as a boot path needs it. */
typedef struct sbat_load_option {
	uint32_t attributes;
	char description[SBAT_LOAD_OPTION_TEXT_MAX]; /* UTF-8 */
	unsigned n_nodes;                            /* device path nodes before the first end node */
	int has_hd;                                  /* a Media/Hard Drive node */
	uint32_t partition_number;
	uint8_t partition_format; /* 1 MBR, 2 GPT */
	uint8_t signature_type;   /* 1 MBR signature, 2 GUID */
	/* the GPT partition GUID as text (lower case), when signature_type is 2 */
	char partition_guid[37];
	int has_file;                              /* one or more Media/File Path nodes */
	char file_path[SBAT_LOAD_OPTION_TEXT_MAX]; /* their paths joined, UTF-8, backslashes as stored */
	int has_other_media; /* a node that is neither hardware nor HD nor File (network, URI, firmware volume...) */
	/* the optional data after the device paths: offsets into the buffer given */
	size_t optional_offset;
	size_t optional_len;
} sbat_load_option;

/*
 * Parse a Boot#### variable as efivarfs shows it: buf[0..len) is the 4
 * attribute bytes, then the EFI_LOAD_OPTION (UINT32 Attributes, UINT16
 * FilePathListLength, a NUL-terminated CHAR16 Description, the device path
 * list of FilePathListLength bytes, then optional data). Every length is
 * checked against the buffer; the first device path instance is read up to
 * its end node (type 0x7f). On failure returns SBAT_E_EFIVAR with
 * reterr->what naming the check and reterr->offset the byte of buf at
 * fault (buf's offset 0 is the first attribute byte).
 */
SBAT_API sbat_err sbat_load_option_parse(const uint8_t *buf, size_t len, sbat_load_option *ret, sbat_diag *reterr);

/*
 * The File() nodes of the Boot#### variable buf[0..len) one by one, as the
 * firmware opens them (sbat_partition_resolve_uefi), where
 * sbat_load_option's file_path joins them: *ret_n paths, UTF-8, each ended
 * by a NUL, one after another in out[0..out_size). Fails as
 * sbat_load_option_parse does, and with SBAT_E_EFIVAR when they do not fit.
 */
SBAT_API sbat_err sbat_load_option_file_nodes(const uint8_t *buf, size_t len, char *out, size_t out_size,
                                              unsigned *ret_n, sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
