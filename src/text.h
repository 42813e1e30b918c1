/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* text.h - line-oriented checks shared by the SBAT CSV and SbatLevel parsers */
#ifndef SBAT_TEXT_H
#define SBAT_TEXT_H

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
 * Call fn for each line of buf[0..end) (end as from text_trim), without its
 * LF or CRLF, with 1-based line numbers; stop at the first failure.
 */
typedef sbat_err (*text_line_fn)(void *ctx, const uint8_t *p, size_t n, unsigned line, sbat_diag *d);
sbat_err text_for_each_line(const uint8_t *buf, size_t end, text_line_fn fn, void *ctx, sbat_diag *d);

/*
 * Digits only, value 1..65535: shim's atoi would read "1a" as 1 and "+1",
 * " 1" or "x" as 0 (which revokes a component, or revokes nothing in a
 * policy). Returns NULL and sets *ret when valid, else the reason.
 */
const char *text_parse_generation(const uint8_t *p, size_t n, uint16_t *ret);

#endif
