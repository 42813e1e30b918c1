/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* text.h - line-oriented checks shared by the SBAT CSV and SbatLevel parsers */
#ifndef SBAT_SBAT_TEXT_H
#define SBAT_SBAT_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"

/* Fill *d (when given) with a text error at line/field (1-based; field 0: the whole line). */
sbat_err text_fail(sbat_diag *d, sbat_err code, const char *what, unsigned line, unsigned field);

/*
 * Where the content ends once trailing empty lines (LF or CRLF) are dropped;
 * the newline of the last row goes too, so buf[end - 1] is never LF.
 */
size_t text_trim(const uint8_t *buf, size_t len);

/*
 * The first byte of line p[0..n) (no line ending) a reader could misread:
 * shim stops at NUL, skips a BOM and splits lines at a lone CR, and a
 * non-ASCII byte would end up in a name shim compares byte for byte.
 * Fails with `code`, naming the field the byte is in.
 */
sbat_err text_check_bytes(const uint8_t *p, size_t n, unsigned line, sbat_err code, sbat_diag *d);

/*
 * The one driver of the line-oriented parsers (SBAT CSV, SbatLevel): the
 * text is buf[0..len) up to its trailing empty lines (see text_trim).
 * A single block holds the parser's result struct (head_size bytes, with a
 * flexible array of entries right after it), one entry per line and,
 * after them, copies bytes of string storage for every byte of the text.
 * `row` is called for each line (without LF or CRLF, 1-based line
 * numbers) and stops the parse at its first failure.
 */
typedef struct sbat_text_table {
	void *block;   /* malloc'ed; the result struct is at its start */
	void *entries; /* n_rows entries of entry_size bytes */
	char *storage; /* where row() copies strings; it advances the pointer */
	size_t n_rows;
} sbat_text_table;

typedef sbat_err (*sbat_text_row_fn)(sbat_text_table *t, const uint8_t *p, size_t n, unsigned line, sbat_diag *d);

typedef struct sbat_text_format {
	sbat_err code;     /* SBAT_E_CSV or SBAT_E_LEVEL */
	size_t max_size;   /* larger input is SBAT_E_TOO_BIG */
	const char *empty; /* what to say of an empty text */
	const char *too_big;
	size_t head_size; /* offsetof(block struct, entries) */
	size_t entry_size;
	size_t copies; /* storage bytes per text byte */
	sbat_text_row_fn row;
} sbat_text_format;

sbat_err text_parse(const uint8_t *buf, size_t len, const sbat_text_format *f, sbat_text_table *ret, sbat_diag *d);

/*
 * Digits only, value 1..65535: shim's atoi would read "1a" as 1 and "+1",
 * " 1" or "x" as 0 (which revokes a component, or revokes nothing in a
 * policy). Returns NULL and sets *ret when valid, else the reason.
 */
const char *text_parse_generation(const uint8_t *p, size_t n, uint16_t *ret);

/*
 * The next row of buf[0..len) from *pos, as shim's csv.c parse_csv_data
 * finds rows (len stands for the NUL shim puts after the data): a run of
 * CR and LF is skipped; a NUL met right after such a run is passed over
 * and reading goes on after it, any other NUL ends the text. Sets the
 * row's start and length (without its line end) and advances *pos;
 * returns 0 when no row is left.
 */
int text_shim_row(const uint8_t *buf, size_t len, size_t *pos, size_t *ret_start, size_t *ret_n);

#endif
