/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* shim.h - what shim starts as its second stage, from its load options */
#ifndef SBAT_SHIM_H
#define SBAT_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "loadoption.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the path of shim's second stage came from (parse_load_options in shim's load-options.c). */
typedef enum sbat_shim_stage2_from {
	SBAT_SHIM_STAGE2_OPTION,     /* the first word of the load options */
	SBAT_SHIM_STAGE2_NO_OPTIONS, /* none, or they begin with a NUL character: DEFAULT_LOADER */
	SBAT_SHIM_STAGE2_ODD_SIZE,   /* an odd number of bytes, which shim ignores: DEFAULT_LOADER */
	SBAT_SHIM_STAGE2_WINDOWS,    /* "WINDOWS" and a NUL in 8-bit, as bcdedit writes: DEFAULT_LOADER */
	SBAT_SHIM_STAGE2_NO_WORD,    /* no space and no NUL character ends a first word: DEFAULT_LOADER */
	SBAT_SHIM_STAGE2_EMPTY_WORD, /* the first word is empty: DEFAULT_LOADER */
} sbat_shim_stage2_from;

/* Longest path the second stage can have: shim's directory and a word of the load options. */
#define SBAT_SHIM_STAGE2_PATH_MAX (2 * SBAT_LOAD_OPTION_TEXT_MAX)

/* The file shim starts as its second stage, and how its load options led there. */
typedef struct sbat_shim_stage2 {
	sbat_shim_stage2_from from;
	int bds_tag_removed;    /* the options ended in the boot manager's GUID, which shim cuts off */
	int nested_load_option; /* the options were a whole EFI_LOAD_OPTION: its optional data was read */
	int own_path_skipped;   /* the first word named shim itself (a shell command line): the next one was read */
	int absolute;           /* the word starts with \EFI\ (in that case): used as it is */
	char word[SBAT_LOAD_OPTION_TEXT_MAX]; /* the word read, UTF-8 ("" for DEFAULT_LOADER) */
	char path[SBAT_SHIM_STAGE2_PATH_MAX]; /* the path shim opens on its own device, with backslashes */
} sbat_shim_stage2;

/*
 * What shim 16.x starts as its second stage, from the load options the
 * firmware started it with (for a Boot#### option, its optional data) and
 * shim's own path on its device (the File() path, e.g. \EFI\debian\shimx64.efi),
 * as parse_load_options, split_load_options and generate_path_from_image_path
 * in shim's load-options.c take them:
 *
 *  - an odd size, no options or a first NUL character mean DEFAULT_LOADER;
 *    the boot manager's GUID at the end of longer options is cut off;
 *  - options that are themselves an EFI_LOAD_OPTION give their optional
 *    data; otherwise a first word naming shim itself is skipped;
 *  - "WINDOWS" and a NUL (8-bit) mean DEFAULT_LOADER;
 *  - leading spaces are skipped and the word ends at the first space or
 *    NUL; no end, or an empty word, means DEFAULT_LOADER;
 *  - a word starting with \EFI\ is the path; any other word gives its last
 *    component (after the last backslash), opened in shim's directory. No
 *    ".efi" is required.
 *
 * default_loader is shim's DEFAULT_LOADER file name for its architecture
 * (sbat_shim_default_loader). SBAT_E_EFIVAR when the word is not text a
 * path can hold (a control character, a lone surrogate, too long; offset
 * into options), or the result does not fit.
 */
SBAT_API sbat_err sbat_shim_stage2_path(const uint8_t *options, size_t len, const char *shim_path,
                                        const char *default_loader, sbat_shim_stage2 *ret, sbat_diag *reterr);

/* shim's DEFAULT_LOADER file name for a PE machine type: grubx64.efi, grubaa64.efi, ... */
SBAT_API const char *sbat_shim_default_loader(uint16_t machine);

/* Short words for sbat_shim_stage2_from, for reports: "option", "no-options", "odd-size", ... */
SBAT_API const char *sbat_shim_stage2_from_name(sbat_shim_stage2_from from);

#ifdef __cplusplus
}
#endif

#endif
