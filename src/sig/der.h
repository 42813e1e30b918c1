/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* der.h - a checked DER reader: tag, definite length, contents, each inside its parent */
#ifndef SBAT_SIG_DER_H
#define SBAT_SIG_DER_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"

#define DER_MAX_DEPTH 40 /* elements inside elements; a nested Authenticode signature with a timestamp needs ~25 */

#define DER_BOOLEAN 0x01
#define DER_INTEGER 0x02
#define DER_BIT_STRING 0x03
#define DER_OCTET_STRING 0x04
#define DER_OID 0x06
#define DER_SEQUENCE 0x30
#define DER_SET 0x31
#define DER_CONTEXT(n) (0xa0 | (n))      /* [n], constructed */
#define DER_CONTEXT_PRIM(n) (0x80 | (n)) /* [n] IMPLICIT, primitive */

/* One element. Offsets are file offsets. */
typedef struct der {
	uint8_t tag;
	uint64_t offset;    /* of the tag byte */
	const uint8_t *raw; /* tag, length and contents */
	size_t raw_len;
	const uint8_t *val; /* the contents */
	size_t len;
	unsigned depth; /* 0: read from a top-level cursor */
} der;

/* The contents of one element (or a top-level buffer), read left to right. */
typedef struct der_cursor {
	const uint8_t *p;
	size_t len;
	size_t pos;
	uint64_t base;   /* file offset of p[0] */
	unsigned depth;  /* of the elements read from it */
	const char *ctx; /* the structure it holds, named in diagnostics (static) */
} der_cursor;

/* A cursor over p[0..len), at file offset base, holding the structure ctx. */
void der_top(der_cursor *c, const uint8_t *p, size_t len, uint64_t base, const char *ctx);

/* A cursor over e's contents; fails past DER_MAX_DEPTH. */
sbat_err der_enter(const der *e, der_cursor *c, const char *ctx, sbat_diag *d);

/* 1 while c has bytes left. */
int der_more(const der_cursor *c);

/* 1 when the next element's tag is `tag` (0 at the end). */
int der_peek(const der_cursor *c, uint8_t tag);

/* The next element: a single-byte tag, a definite length inside the cursor. */
sbat_err der_read(der_cursor *c, der *e, sbat_diag *d);

/* The next element, which must carry `tag`. */
sbat_err der_expect(der_cursor *c, uint8_t tag, der *e, sbat_diag *d);

/* Check every element below c, constructed ones recursively (tag bit 0x20), to the end of c. */
sbat_err der_walk(der_cursor *c, sbat_diag *d);

/* 1 when e is an OID whose content bytes are oid[0..n). */
int der_oid_is(const der *e, const uint8_t *oid, size_t n);

/* Fail with SBAT_E_SIGNATURE at offset, naming c's structure. */
sbat_err der_fail(const der_cursor *c, const char *what, uint64_t offset, sbat_diag *d);

#endif
