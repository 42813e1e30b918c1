/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* boot.h - what shim 16.x will do at the next boot: the SbatLevel it stores and the one it checks images against */
#ifndef SBAT_BOOT_H
#define SBAT_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "csv.h"
#include "error.h"
#include "level.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The level shim writes on a reset, and the floor of every valid SbatLevel. */
#define SBAT_LEVEL_ORIGINAL "sbat,1,2021030218\n"

/* The SbatPolicy variable (shim's GUID, one byte): what the OS asks shim to do at the next boot. */
#define SBAT_POLICY_EFIVAR_NAME "SbatPolicy-" SBAT_LEVEL_EFIVAR_GUID
#define SBAT_POLICY_ABSENT (-1)
#define SBAT_POLICY_LATEST 1
#define SBAT_POLICY_AUTOMATIC 2
#define SBAT_POLICY_RESET 3

/* The payload shim picks: the built-in (or revocations file's) automatic or latest one, or the original level. */
#define SBAT_NEXT_PAYLOAD_AUTOMATIC SBAT_LEVEL_AUTOMATIC
#define SBAT_NEXT_PAYLOAD_LATEST SBAT_LEVEL_LATEST
#define SBAT_NEXT_PAYLOAD_ORIGINAL 2

/* Why that payload (set_sbat_uefi_variable's choice). */
typedef enum sbat_next_choice {
	SBAT_NEXT_CHOSE_DEFAULT,       /* no SbatPolicy: automatic with Secure Boot on, reset with it off */
	SBAT_NEXT_CHOSE_LATEST,        /* SbatPolicy 1 */
	SBAT_NEXT_CHOSE_AUTOMATIC,     /* SbatPolicy 2 */
	SBAT_NEXT_CHOSE_RESET,         /* SbatPolicy 3 with Secure Boot off */
	SBAT_NEXT_CHOSE_RESET_REFUSED, /* SbatPolicy 3 with Secure Boot on: automatic instead */
	SBAT_NEXT_CHOSE_INVALID,       /* another SbatPolicy value: as if absent */
} sbat_next_choice;

/* What happened to the stored SbatLevel (the rule that decided). */
typedef enum sbat_next_rule {
	SBAT_NEXT_NOT_RUN,             /* the step does not happen (no revocations file, or Secure Boot off) */
	SBAT_NEXT_WRITTEN_ABSENT,      /* no SbatLevel yet: the candidate is written, unchecked */
	SBAT_NEXT_KEPT_VERSION,        /* the current version field is newer: kept */
	SBAT_NEXT_KEPT_DATESTAMP,      /* the current datestamp is not older: kept */
	SBAT_NEXT_REPLACED,            /* the candidate is newer: written */
	SBAT_NEXT_REPLACED_CORRUPT,    /* the current value is no SbatLevel (short, or not "sbat,"): written */
	SBAT_NEXT_RESET,               /* a reset: the original level is written, whatever is there */
	SBAT_NEXT_REFUSED_SELF,        /* the candidate revokes shim's own .sbat: not written */
	SBAT_NEXT_REFUSED_PARSE,       /* the candidate does not parse: not written */
	SBAT_NEXT_REVOCATIONS_REFUSED, /* revocations_sbat.efi fails shim's SBAT check: its payloads are not read */
} sbat_next_rule;

/* The inputs of one boot, as shim reads them. */
typedef struct sbat_next_inputs {
	int secure_boot;        /* shim's secure_mode(): SecureBoot is 1 and SetupMode is not 1 */
	int policy;             /* the first byte of SbatPolicy, or SBAT_POLICY_ABSENT */
	const uint8_t *current; /* the stored SbatLevel (as SbatLevelRT shows it), NULL when there is none */
	size_t current_len;
	const char *automatic; /* the shim's .sbatlevel payloads, NUL-terminated */
	const char *latest;
	const sbat_csv *shim_sbat; /* the shim's own .sbat; NULL when it has none */
	/* a revocations_sbat.efi next to the shim (.sbata and .sbatl); NULL when there is none */
	const char *rev_automatic;
	const char *rev_latest;
	const sbat_csv *rev_sbat; /* that file's own .sbat; NULL when it has none */
} sbat_next_inputs;

/* One call of set_sbat_uefi_variable. Pointers refer into the inputs or to SBAT_LEVEL_ORIGINAL. */
typedef struct sbat_next_step {
	sbat_next_rule rule;
	sbat_next_choice choice;
	int payload; /* SBAT_NEXT_PAYLOAD_* */
	const char *candidate;
	/* the stored SbatLevel after the step (NULL: none) */
	const uint8_t *stored;
	size_t stored_len;
	/* rule SBAT_NEXT_REFUSED_SELF: the row of shim's own .sbat that is revoked (into shim_sbat; NULL when
	 * shim has no .sbat) with its generation, and the minimum the candidate sets */
	const char *self_component;
	unsigned self_generation;
	unsigned self_minimum;
} sbat_next_step;

/* One boot. */
typedef struct sbat_next_boot {
	sbat_next_step builtin;     /* the payloads in shim's .sbatlevel (set_sbat_uefi_variable_internal) */
	sbat_next_step revocations; /* revocations_sbat.efi (load_unbundled_trust), Secure Boot on only */
	/*
	 * 1 when shim stops the machine (Secure Boot on): the built-in step was
	 * refused, or the level shim then holds revokes shim's own .sbat.
	 */
	int shim_stops;
	/* The level the images shim checks after that are judged by (Secure Boot on); NULL when none. */
	const uint8_t *enforced;
	size_t enforced_len;
	/* The stored SbatLevel at the end of the boot, which SbatLevelRT then shows. */
	const uint8_t *stored;
	size_t stored_len;
} sbat_next_boot;

/*
 * Work out what shim 16.x does with the SbatLevel in one boot, from its
 * sources (sbat.c set_sbat_uefi_variable and preserve_sbat_uefi_variable,
 * shim.c efi_main and load_unbundled_trust):
 *
 *  1. The candidate: SbatPolicy 1 latest, 2 automatic, 3 reset (refused,
 *     automatic used, with Secure Boot on); absent or any other value:
 *     automatic with Secure Boot on, reset with it off.
 *  2. No stored SbatLevel: the candidate is written without further check.
 *     Otherwise, unless resetting, the stored value is kept when it is an
 *     SbatLevel (at least as long as the original, starting "sbat,") whose
 *     version field is newer (longer, or as long and greater) or whose
 *     datestamp (10 characters) is not older. Else the candidate is parsed
 *     and checked against shim's own .sbat; it is written only if it does
 *     not revoke shim.
 *  3. With Secure Boot on, a refused candidate stops shim; so does a stored
 *     level that revokes shim's own .sbat. The stored level is what shim
 *     checks later images against.
 *  4. With Secure Boot on and a revocations_sbat.efi (both payloads) that
 *     passes shim's SBAT check (it is loaded as shim loads an image: a
 *     missing .sbat fails it), the same choice runs again on its payloads,
 *     with the same SbatPolicy (shim reads it once). When the stored value
 *     is not kept, the candidate replaces the in-memory list shim checks
 *     images against at once, in this boot, even when it is then refused
 *     for revoking shim; it is written only when it is not refused.
 *     Its signature is not checked here: the caller vouches for it.
 *
 * The attributes of the stored variable are not known from the OS (it is
 * boot-services only); they are taken to be the ones shim sets.
 * Returns SBAT_E_LEVEL for missing inputs (no automatic or latest payload).
 */
SBAT_API sbat_err sbat_next_boot_predict(const sbat_next_inputs *in, sbat_next_boot *ret, sbat_diag *reterr);

/* Short words for the enums, for reports: "default", "latest", ...; "written-absent", "kept-version", ... */
SBAT_API const char *sbat_next_choice_name(sbat_next_choice choice);
SBAT_API const char *sbat_next_rule_name(sbat_next_rule rule);
SBAT_API const char *sbat_next_payload_name(int payload);

/* ------------------------------------------------ boot variables and load options */

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

/*
 * BootOrder (or BootNext, max 1): buf[0..len) is the 4 attribute bytes and
 * an array of little-endian UINT16. Stores at most max of them in out and
 * their count in *ret_n. SBAT_E_EFIVAR for an odd data length (offset: the
 * stray byte), an empty array, or more than max entries.
 */
SBAT_API sbat_err sbat_boot_order_parse(const uint8_t *buf, size_t len, uint16_t *out, size_t max, size_t *ret_n,
                                        sbat_diag *reterr);

/*
 * A CHAR16 string (optional data of a load option that names a file, as
 * shim reads it) in buf[0..len) to UTF-8 in out[0..out_size), ending at
 * the first NUL or at len. SBAT_E_EFIVAR for an odd length, a lone
 * surrogate or a control character (offset relative to buf), or a text
 * that does not fit.
 */
SBAT_API sbat_err sbat_ucs2_to_utf8(const uint8_t *buf, size_t len, char *out, size_t out_size, sbat_diag *reterr);

/* ------------------------------------------------ shim's second stage */

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
