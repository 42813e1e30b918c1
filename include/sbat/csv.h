/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* csv.h - strict validation and canonical form of SBAT CSV metadata */
#ifndef SBAT_CSV_H
#define SBAT_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A .sbat larger than this is corrupt input, not metadata (real ones are < 1 KiB). */
#define SBAT_CSV_MAX_SIZE (64u * 1024u)
#define SBAT_CSV_COLUMNS 6
#define SBAT_CSV_MAX_GENERATION 65535u

/* The header row every .sbat must start with (component "sbat", generation 1). */
#define SBAT_CSV_HEADER_ROW "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md"

typedef struct sbat_csv_entry {
	const char *component_name;
	const char *component_generation; /* the digits as written */
	const char *vendor_name;
	const char *vendor_package_name;
	const char *vendor_version;
	const char *vendor_url;
	const char *text;    /* the whole row as written, without line ending */
	uint16_t generation; /* component_generation, parsed */
	unsigned line;       /* 1-based line number in the input */
} sbat_csv_entry;

typedef struct sbat_csv {
	size_t n_entries;
	sbat_csv_entry *entries; /* entries[0] is the "sbat" header row */
	char *storage;           /* one block holding all strings */
} sbat_csv;

/*
 * Parse SBAT CSV from buf[0..len) (not NUL-terminated) and apply every rule
 * a writer must obey, stricter than shim's reader:
 *  - at most SBAT_CSV_MAX_SIZE bytes, printable ASCII only (no NUL, no BOM,
 *    no tab), lines end in LF or CRLF (a lone CR is an error);
 *  - no empty line except trailing ones at the end of the input;
 *  - every row has at least 6 comma-separated fields, none empty, no leading
 *    or trailing space in a field;
 *  - component_generation is plain decimal digits with value 1..65535;
 *  - the first row's component is "sbat" with generation 1, and no later
 *    row names "sbat" again; a component name appears at most once.
 * On failure returns SBAT_E_CSV with reterr->line/field set (1-based; field 0
 * when the whole line is at fault) and a static `what`; SBAT_E_TOO_BIG or
 * SBAT_E_NOMEM for oversized input or a failed allocation. To check a .sbat
 * read from an image, pass the bytes before its first NUL.
 */
SBAT_API sbat_err sbat_csv_parse(const uint8_t *buf, size_t len, sbat_csv **ret_csv, sbat_diag *reterr);

/*
 * Read .sbat bytes as shim's parser does, and refuse only what it refuses:
 * a UTF-8 BOM is skipped, rows end at any run of CR and LF (blank lines
 * are skipped), a NUL ends the text except one right after a run of CR
 * and LF (two or more bytes after a row, or at the start), which shim's
 * parse_csv_data passes over to read on, and each row needs at least
 * 6 comma-separated fields with none of those 6 empty; later fields are
 * ignored. Nothing else is checked (non-ASCII bytes, blanks, the header
 * row, duplicates: see sbat_csv_parse for those). Each entry's generation
 * is what shim's atoi makes of the field: leading blanks skipped, the
 * digits up to the first other byte, kept in 16 bits (so "x" is 0).
 * entries[0] is the first row, whatever it names; a text without rows
 * gives n_entries 0. On failure returns SBAT_E_CSV ("fewer than 6 fields",
 * "empty field") with reterr->line/field set, or SBAT_E_NOMEM. Free the
 * result with sbat_csv_free.
 */
SBAT_API sbat_err sbat_csv_parse_shim(const uint8_t *buf, size_t len, sbat_csv **ret_csv, sbat_diag *reterr);

/* Frees what sbat_csv_parse or sbat_csv_parse_shim returned (only that). NULL-safe; returns NULL. */
SBAT_API sbat_csv *sbat_csv_free(sbat_csv *csv);

/*
 * The canonical bytes to store in .sbat: each row's text followed by "\n".
 * *ret_buf is malloc'ed and owned by the caller. The result is parsed again
 * before it is returned, so a hand-edited struct cannot produce a bad CSV
 * (SBAT_E_CSV).
 */
SBAT_API sbat_err sbat_csv_format(const sbat_csv *csv, uint8_t **ret_buf, size_t *ret_len, sbat_diag *reterr);

/*
 * Combine two .sbat the way ukify merges a stub's and a kernel's: base's
 * header row, then base's other rows, then add's rows except its header
 * (whatever add's header says, as ukify does). The result is canonical,
 * formatted and checked like sbat_csv_format's.
 *
 * A component that both name is resolved instead of duplicated, since shim only
 * honours the first row it finds and the parser refuses duplicates:
 *  - add's row text equal to base's: kept once, no error;
 *  - different generation: SBAT_E_CSV "component already present with a
 *    different generation" (reterr->line = add's line, field 2);
 *  - same generation, other fields differ: SBAT_E_CSV "component already
 *    present with a different row" (add's line, field 0).
 * With force set neither is an error: add's row replaces base's row at
 * base's position, so the order of base's rows never changes and add's
 * other rows still follow them. A lower generation is accepted too; force
 * means the caller decided.
 * *ret_buf is malloc'ed and owned by the caller. SBAT_E_TOO_BIG when the
 * result exceeds SBAT_CSV_MAX_SIZE, SBAT_E_NOMEM on a failed allocation.
 */
SBAT_API sbat_err sbat_csv_merge(const sbat_csv *base, const sbat_csv *add, int force, uint8_t **ret_buf,
                                 size_t *ret_len, sbat_diag *reterr);

/* One line of a diff of two .sbat texts. */
typedef struct sbat_csv_diff_line {
	char op;          /* ' ' in both, '-' only in the old, '+' only in the new */
	const char *text; /* the line, without its newline, pointing into the text it came from */
	size_t len;
} sbat_csv_diff_line;

/*
 * What an edit changes in a .sbat: the lines of old_text[0..old_len) and
 * new_text[0..new_len) as one hunk with every line as context, the longest
 * common subsequence deciding what stays (a .sbat is at most 64 KiB, so
 * the quadratic table stays small; larger texts are SBAT_E_TOO_BIG). A
 * malloc'ed array *ret of *ret_n lines (free() it), which points into the
 * texts; *ret_old_lines and *ret_new_lines count each text's lines.
 */
SBAT_API sbat_err sbat_csv_diff(const uint8_t *old_text, size_t old_len, const uint8_t *new_text, size_t new_len,
                                sbat_csv_diff_line **ret, size_t *ret_n, size_t *ret_old_lines, size_t *ret_new_lines,
                                sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
