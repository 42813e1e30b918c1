/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* level.h - SbatLevel revocation policies: parse them, read them from shim, check a .sbat against one */
#ifndef SBAT_LEVEL_H
#define SBAT_LEVEL_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "csv.h"
#include "error.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Real policies are a few dozen bytes; anything this large is not one. */
#define SBAT_LEVEL_MAX_SIZE (64u * 1024u)
#define SBAT_LEVEL_DATESTAMP_LEN 10

/*
 * The section shim (15.7 and later) links its built-in policies into. The
 * name is longer than 8 bytes, so binutils stores it in the COFF string
 * table and the section header holds "/<offset>".
 */
#define SBAT_LEVEL_SECTION_NAME ".sbatlevel"

/*
 * Which of the two payloads in .sbatlevel. shim 15.7 and 15.8 call the first
 * one "previous", shim 16 calls it "automatic"; it is what shim applies
 * unless SbatPolicy asks for "latest".
 */
#define SBAT_LEVEL_PREVIOUS 0
#define SBAT_LEVEL_AUTOMATIC SBAT_LEVEL_PREVIOUS
#define SBAT_LEVEL_LATEST 1

typedef struct sbat_level_entry {
	const char *component_name;
	uint16_t generation;
	unsigned line; /* 1-based line number in the payload */
} sbat_level_entry;

typedef struct sbat_level {
	char datestamp[SBAT_LEVEL_DATESTAMP_LEN + 1]; /* YYYYMMDDCC from the first line */
	size_t n_entries;
	sbat_level_entry *entries; /* entries[0] is the "sbat",1 header row */
	char *storage;             /* one block holding all strings */
} sbat_level;

/*
 * Parse an SbatLevel payload (the SbatLevel variable's contents, or one of
 * the strings in shim's .sbatlevel) from buf[0..len). Parsing stops at the
 * first NUL, as shim's does, but a text where shim reads on past it (a
 * NUL right after a run of line ends, see sbat_level_parse_shim) is
 * refused. Stricter than shim's reader:
 *  - at most SBAT_LEVEL_MAX_SIZE bytes before the NUL, printable ASCII only
 *    (no BOM, no tab), lines end in LF or CRLF (a lone CR is an error), no
 *    empty line except trailing ones; the last newline is optional;
 *  - the first line is exactly "sbat,1,YYYYMMDDCC" (10 decimal digits);
 *  - every other line is "component,generation", optionally followed by a
 *    third field holding a 10-digit datestamp (shim reads up to three
 *    fields and ignores the third on component rows); no empty field, no
 *    leading or trailing space; generation is decimal digits, 1..65535.
 * A component may appear more than once (shim then only ever uses the
 * first); the header row is kept as entries[0] because shim compares it
 * like any other row.
 * On failure returns SBAT_E_LEVEL with reterr->line/field set (1-based;
 * field 0 when the whole line is at fault) and a static `what`;
 * SBAT_E_TOO_BIG or SBAT_E_NOMEM for oversized input or a failed allocation.
 */
SBAT_API sbat_err sbat_level_parse(const uint8_t *buf, size_t len, sbat_level **ret, sbat_diag *reterr);

/*
 * Read an SbatLevel as shim 16.1 reads one (sbat.c parse_sbat_var_data with
 * csv.c parse_csv_data), and refuse only what it refuses, so that every
 * level shim accepts is accepted here and means what it means to shim:
 *  - len 0 is refused (shim's parser is given no byte before its NUL);
 *  - a UTF-8 BOM at the start is skipped;
 *  - rows end at any run of CR and LF; blank lines are skipped;
 *  - a NUL ends the text, except one that follows a run of CR and LF
 *    (two or more bytes, or one at the very start): shim passes over it
 *    and reads on;
 *  - each row needs at least 2 comma-separated fields, and none of the
 *    first 3 may be empty ("grub,3," is refused); what follows a third
 *    field is ignored, and the third is never judged;
 *  - nothing else: no header row is required (entries[0] is the first
 *    row, whatever it names), any other byte may be in a name, and a
 *    generation is what shim's atoi makes of its field: leading blanks
 *    and zeros skipped, then the decimal digits up to the first other
 *    byte, kept in 16 bits ("+3" and "x" are 0, "3a" is 3, "65539" is 3).
 * A text with no row at all gives n_entries 0 (shim then enforces
 * nothing). datestamp is the first row's third field when it is 10
 * digits, else "". Line numbers count LF, as for sbat_level_parse.
 * Errors: SBAT_E_LEVEL ("SbatLevel is empty", "fewer than 2 fields",
 * "empty field", with reterr->line/field), SBAT_E_TOO_BIG above
 * SBAT_LEVEL_MAX_SIZE bytes, SBAT_E_NOMEM. Free with sbat_level_free.
 */
SBAT_API sbat_err sbat_level_parse_shim(const uint8_t *buf, size_t len, sbat_level **ret, sbat_diag *reterr);

/* Frees what sbat_level_parse, sbat_level_parse_shim, sbat_level_from_shim or sbat_level_from_efivar returned. NULL-safe; returns NULL. */
SBAT_API sbat_level *sbat_level_free(sbat_level *level);

/*
 * Read one of the policies a shim binary carries (img, see sbat_image_parse).
 *
 * The .sbatlevel section (found by its full name through the COFF string
 * table, or by the 8-byte truncation ".sbatlev" a toolchain without long
 * names would leave) starts with three little-endian u32: a format version
 * (always 0 so far; any other value is refused, as the layout may differ),
 * then the offsets of the previous/automatic and of the latest payload.
 * The offsets count from the end of the version field, i.e. from byte 4 of
 * the section. Each payload is a NUL-terminated string.
 *
 * Only bytes both in the file and in the loaded section are used: the
 * first min(SizeOfRawData, VirtualSize) bytes at PointerToRawData (the
 * whole SizeOfRawData when VirtualSize is 0). The header, both offsets and
 * the chosen string with its NUL must lie inside them, and the offsets
 * must point past the header.
 *
 * which is SBAT_LEVEL_PREVIOUS (= SBAT_LEVEL_AUTOMATIC) or SBAT_LEVEL_LATEST.
 * Returns SBAT_E_NO_SBATLEVEL when the image
 * has no such section, SBAT_E_LEVEL (with an image offset in reterr when
 * one applies) for a malformed or duplicated section, or the errors of
 * sbat_level_parse_shim for the payload, read as shim reads it (line
 * numbers count within it).
 */
SBAT_API sbat_err sbat_level_from_shim(const sbat_image *img, int which, sbat_level **ret, sbat_diag *reterr);

/*
 * The copy of SbatLevel that shim publishes for the running system, as
 * Linux's efivarfs names it (NAME-GUID; the GUID is shim's SHIM_LOCK_GUID).
 * shim sets the boot-time-only SbatLevel and mirrors it into this runtime
 * variable, which is what a booted machine can read.
 */
#define SBAT_LEVEL_EFIVAR_GUID "605dab50-e046-4300-abb6-3dd810dd8b23"
#define SBAT_LEVEL_EFIVAR_NAME "SbatLevelRT-" SBAT_LEVEL_EFIVAR_GUID

/* efivarfs puts the variable's UEFI attributes (a little-endian u32) before its data. */
#define SBAT_EFIVAR_ATTRIBUTES_SIZE 4

/*
 * Parse an SbatLevel read from an efivarfs file: buf[0..len) is the 4-byte
 * attribute word, then the payload, which is read as shim reads the
 * variable, by sbat_level_parse_shim (line numbers count within the payload). The
 * attributes are stored in *ret_attributes when it is not NULL; they are
 * not judged, as shim and firmware differ in what they set.
 * Returns SBAT_E_LEVEL (with offset 0) when len is below 4, or the errors
 * of sbat_level_parse_shim.
 */
SBAT_API sbat_err sbat_level_from_efivar(const uint8_t *buf, size_t len, uint32_t *ret_attributes, sbat_level **ret,
                                         sbat_diag *reterr);

/* Why sbat_level_running found no SbatLevel. */
typedef enum sbat_level_absence {
	SBAT_LEVEL_PRESENT = 0, /* there is one */
	SBAT_LEVEL_NO_EFIVARFS, /* no such directory: not booted through UEFI, or efivarfs not mounted */
	SBAT_LEVEL_NO_VARIABLE, /* no SbatLevelRT: shim has not published one */
} sbat_level_absence;

/*
 * The SbatLevel this machine holds: shim's SbatLevelRT in the efivarfs
 * directory dir (NULL: SBAT_EFIVAR_DIR), opened without following a
 * symbolic link (sbat_efivar_read) and read as sbat_level_from_efivar
 * reads it. No variable is not an error: SBAT_OK, *ret NULL and *absent
 * saying why.
 */
SBAT_API sbat_err sbat_level_running(const char *dir, sbat_level **ret, sbat_level_absence *absent, sbat_diag *reterr);

/* One .sbat row revoked by a policy, and the policy row that revokes it. */
typedef struct sbat_revocation {
	const sbat_csv_entry *entry;
	const sbat_level_entry *level;
} sbat_revocation;

/*
 * Check a .sbat against a policy the way shim's verify_sbat does:
 * for every row of csv (its sbat header row included), take the FIRST
 * level entry whose component name is byte-for-byte equal (case-sensitive,
 * no prefix or product matching: "grub.debian" and "grub" are unrelated).
 * The row is revoked when its generation is lower than that entry's.
 * Rows with no matching level entry pass, and so do level entries no row
 * names. An image fails shim's check when at least one row is revoked.
 *
 * Returns SBAT_OK and sets *ret_n_revoked (when not NULL) to the number of
 * revoked rows; the first min(that, max_revoked) of them are stored in
 * ret_revoked, in csv order (pass NULL and 0 to only count). The pointers
 * refer into level and csv. A level without entries (as
 * sbat_level_parse_shim reads a text of line ends only) revokes nothing,
 * as shim's verify_sbat_helper passes everything against an empty list.
 * Returns SBAT_E_LEVEL for a NULL level
 * (or one with a NULL component name) or for a NULL ret_revoked with a
 * non-zero max_revoked, SBAT_E_CSV for a NULL or empty csv (or one with a
 * NULL component name), with *reterr (if not NULL) saying which; nothing
 * is written then.
 */
SBAT_API sbat_err sbat_level_check(const sbat_level *level, const sbat_csv *csv, sbat_revocation *ret_revoked,
                                   size_t max_revoked, size_t *ret_n_revoked, sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
