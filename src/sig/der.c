/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* der.c - a checked DER reader: definite lengths only, every element inside its parent, nesting bounded */
#include <string.h>

#include "sig/der.h"
#include "util/diag.h"

#define DER_CONSTRUCTED 0x20
#define DER_MAX_LENGTH_BYTES 4 /* lengths up to 4 GiB; anything longer cannot be in an image */

sbat_err
der_fail(const der_cursor *c, const char *what, uint64_t offset, sbat_diag *d)
{
	return diag_fail_other(d, SBAT_E_SIGNATURE, what, offset, -1, c->ctx);
}

void
der_top(der_cursor *c, const uint8_t *p, size_t len, uint64_t base, const char *ctx)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
	c->base = base;
	c->depth = 0;
	c->ctx = ctx;
}

sbat_err
der_enter(const der *e, der_cursor *c, const char *ctx, sbat_diag *d)
{
	der_top(c, e->val, e->len, e->offset + (e->raw_len - e->len), ctx);
	c->depth = e->depth + 1;
	if (c->depth >= DER_MAX_DEPTH)
		return der_fail(c, "DER elements nested deeper than 40", e->offset, d);
	return SBAT_OK;
}

int
der_more(const der_cursor *c)
{
	return c->pos < c->len;
}

int
der_peek(const der_cursor *c, uint8_t tag)
{
	return der_more(c) && c->p[c->pos] == tag;
}

/* The length at p[*pos] (the byte after the tag) of an element at `at`; *pos moves past it. */
static sbat_err
read_length(const der_cursor *c, size_t *pos, uint64_t at, uint64_t *ret_len, sbat_diag *d)
{
	uint8_t first = c->p[(*pos)++];
	uint64_t len = 0;
	unsigned n, i;

	if (first < 0x80) {
		*ret_len = first;
		return SBAT_OK;
	}
	if (first == 0x80)
		return der_fail(c, "DER indefinite length (BER 0x80) is not allowed", at, d);
	n = first & 0x7fu;
	if (n > DER_MAX_LENGTH_BYTES)
		return der_fail(c, "DER length of more than 4 bytes", at, d);
	if (n > c->len - *pos)
		return der_fail(c, "DER length runs past its enclosing element", at, d);
	for (i = 0; i < n; i++)
		len = (len << 8) | c->p[(*pos)++];
	*ret_len = len;
	return SBAT_OK;
}

sbat_err
der_read(der_cursor *c, der *e, sbat_diag *d)
{
	uint64_t at = c->base + c->pos, len;
	size_t pos = c->pos;
	sbat_err err;

	if (!der_more(c))
		return der_fail(c, "DER element missing: the structure ends early", at, d);
	if (c->len - c->pos < 2)
		return der_fail(c, "DER element truncated: no room for its tag and length", at, d);
	if ((c->p[pos] & 0x1fu) == 0x1fu)
		return der_fail(c, "DER tag in the high-number form (0x1f) is not used by PKCS#7", at, d);
	pos++;
	err = read_length(c, &pos, at, &len, d);
	if (err != SBAT_OK)
		return err;
	if (len > c->len - pos)
		return der_fail(c, "DER length runs past its enclosing element", at, d);
	e->tag = c->p[c->pos];
	e->offset = at;
	e->raw = c->p + c->pos;
	e->val = c->p + pos;
	e->len = (size_t)len;
	e->raw_len = pos - c->pos + (size_t)len;
	e->depth = c->depth;
	c->pos = pos + (size_t)len;
	return SBAT_OK;
}

sbat_err
der_expect(der_cursor *c, uint8_t tag, der *e, sbat_diag *d)
{
	uint64_t at = c->base + c->pos;
	sbat_err err = der_read(c, e, d);

	if (err == SBAT_OK && e->tag != tag)
		return der_fail(c, "DER element has an unexpected tag", at, d);
	return err;
}

sbat_err
der_walk(der_cursor *c, sbat_diag *d)
{
	der_cursor inner;
	sbat_err err;
	der e;

	while (der_more(c)) {
		err = der_read(c, &e, d);
		if (err == SBAT_OK && (e.tag & DER_CONSTRUCTED))
			err = der_enter(&e, &inner, c->ctx, d);
		if (err == SBAT_OK && (e.tag & DER_CONSTRUCTED))
			err = der_walk(&inner, d);
		if (err != SBAT_OK)
			return err;
	}
	return SBAT_OK;
}

int
der_oid_is(const der *e, const uint8_t *oid, size_t n)
{
	return e->tag == DER_OID && e->len == n && memcmp(e->val, oid, n) == 0;
}
