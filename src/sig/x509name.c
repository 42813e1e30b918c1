/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* x509name.c - X.509 Names compared as OpenSSL compares them (X509_NAME_cmp over the canonical encoding) */
#include <stdlib.h>
#include <string.h>

#include "sig/der.h"
#include "sig/x509name.h"

#define MAX_ATVS 16 /* attributes in one RDN compared as a set; a real name has one */

/* Bytes per character of a string type OpenSSL canonicalises: 1 (Latin-1), 2 (UCS-2), 4 (UCS-4), -1 (UTF-8); 0 other. */
static int
char_width(uint8_t tag)
{
	switch (tag) {
	case 0x0c: return -1; /* UTF8String */
	case 0x13:
	case 0x14:
	case 0x16:
	case 0x1a: return 1; /* Printable, T61, IA5, VisibleString */
	case 0x1e: return 2; /* BMPString */
	case 0x1c: return 4; /* UniversalString */
	default: return 0;
	}
}

static int
is_space(uint8_t c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The value v (width w) as UTF-8 into out (room for 2 * v->len bytes); its length. */
static size_t
to_utf8(const der *v, int w, uint8_t *out)
{
	size_t i, n = 0;
	uint32_t ch;

	if (w < 0) {
		memcpy(out, v->val, v->len);
		return v->len;
	}
	for (i = 0; i + (size_t)w <= v->len; i += (size_t)w) {
		ch = w == 1 ? v->val[i] :
		     w == 2 ? (uint32_t)v->val[i] << 8 | v->val[i + 1] :
		              (uint32_t)v->val[i] << 24 | (uint32_t)v->val[i + 1] << 16 | (uint32_t)v->val[i + 2] << 8 |
		                  v->val[i + 3];
		if (ch < 0x80) {
			out[n++] = (uint8_t)ch;
		} else if (ch < 0x800) {
			out[n++] = (uint8_t)(0xc0 | ch >> 6);
			out[n++] = (uint8_t)(0x80 | (ch & 0x3f));
		} else if (ch < 0x10000) {
			out[n++] = (uint8_t)(0xe0 | ch >> 12);
			out[n++] = (uint8_t)(0x80 | (ch >> 6 & 0x3f));
			out[n++] = (uint8_t)(0x80 | (ch & 0x3f));
		} else {
			out[n++] = (uint8_t)(0xf0 | (ch >> 18 & 0x07));
			out[n++] = (uint8_t)(0x80 | (ch >> 12 & 0x3f));
			out[n++] = (uint8_t)(0x80 | (ch >> 6 & 0x3f));
			out[n++] = (uint8_t)(0x80 | (ch & 0x3f));
		}
	}
	return n;
}

/* asn1_string_canon on p[0..n), in place: ASCII spaces trimmed and collapsed, ASCII lower-cased. Its length. */
static size_t
canon(uint8_t *p, size_t n)
{
	size_t from = 0, to = 0;

	while (n > 0 && is_space(p[n - 1]))
		n--;
	while (from < n && is_space(p[from]))
		from++;
	while (from < n) {
		if (is_space(p[from])) {
			p[to++] = ' ';
			while (from < n && is_space(p[from]))
				from++;
		} else {
			p[to++] = (uint8_t)(p[from] >= 'A' && p[from] <= 'Z' ? p[from] + 32 : p[from]);
			from++;
		}
	}
	return to;
}

/* Two attribute values as OpenSSL's canonical names hold them: 1 when equal. */
static int
values_equal(const der *a, const der *b)
{
	int wa = char_width(a->tag), wb = char_width(b->tag), eq;
	uint8_t *ca, *cb;
	size_t na, nb;

	if (!wa || !wb)
		return !wa && !wb && a->raw_len == b->raw_len && memcmp(a->raw, b->raw, a->raw_len) == 0;
	ca = malloc(2 * a->len + 1);
	cb = malloc(2 * b->len + 1);
	eq = ca && cb;
	if (eq) {
		na = canon(ca, to_utf8(a, wa, ca));
		nb = canon(cb, to_utf8(b, wb, cb));
		eq = na == nb && memcmp(ca, cb, na) == 0;
	}
	free(ca);
	free(cb);
	return eq;
}

/* One AttributeTypeAndValue: its type (OID) and value. 1 when it reads. */
static int
read_atv(der_cursor *set, der *oid, der *value)
{
	der_cursor atv;
	der e;

	return der_expect(set, DER_SEQUENCE, &e, NULL) == SBAT_OK && der_enter(&e, &atv, "Name", NULL) == SBAT_OK &&
	       der_expect(&atv, DER_OID, oid, NULL) == SBAT_OK && der_read(&atv, value, NULL) == SBAT_OK;
}

/* The attributes of one RDN into oids/values; their number, or -1 when it does not read or holds too many. */
static int
read_rdn(const der *rdn, der *oids, der *values)
{
	der_cursor set;
	int n = 0;

	if (der_enter(rdn, &set, "Name", NULL) != SBAT_OK)
		return -1;
	while (der_more(&set)) {
		if (n == MAX_ATVS || !read_atv(&set, &oids[n], &values[n]))
			return -1;
		n++;
	}
	return n;
}

/* Two RDNs as sets of attributes: 1 when each of a's is one of b's, once. */
static int
rdns_equal(const der *a, const der *b)
{
	der oa[MAX_ATVS], va[MAX_ATVS], ob[MAX_ATVS], vb[MAX_ATVS];
	uint8_t used[MAX_ATVS] = { 0 };
	int n = read_rdn(a, oa, va), i, j;

	if (n < 0 || read_rdn(b, ob, vb) != n)
		return 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++)
			if (!used[j] && oa[i].raw_len == ob[j].raw_len &&
			    memcmp(oa[i].raw, ob[j].raw, oa[i].raw_len) == 0 && values_equal(&va[i], &vb[j]))
				break;
		if (j == n)
			return 0;
		used[j] = 1;
	}
	return 1;
}

/* A cursor over the RDNs of the Name p[0..len). 1 when it reads. */
static int
enter_name(const uint8_t *p, size_t len, der_cursor *c)
{
	der_cursor top;
	der e;

	der_top(&top, p, len, 0, "Name");
	return der_expect(&top, DER_SEQUENCE, &e, NULL) == SBAT_OK && der_enter(&e, c, "Name", NULL) == SBAT_OK;
}

int
x509name_equal(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	der_cursor ca, cb;
	der ra, rb;

	if (!a || !b)
		return 0;
	if (a_len == b_len && memcmp(a, b, a_len) == 0)
		return 1;
	if (!enter_name(a, a_len, &ca) || !enter_name(b, b_len, &cb))
		return 0;
	while (der_more(&ca) && der_more(&cb)) {
		if (der_expect(&ca, DER_SET, &ra, NULL) != SBAT_OK || der_expect(&cb, DER_SET, &rb, NULL) != SBAT_OK ||
		    !rdns_equal(&ra, &rb))
			return 0;
	}
	return !der_more(&ca) && !der_more(&cb);
}
