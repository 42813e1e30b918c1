/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * pcrsig_json.c - a bounded reader of the JSON in a UKI's .pcrsig section: only
 * what systemd-measure writes there, {"sha256": [{"pcrs": [11], "pkfp":
 * "HEX", "pol": "HEX", "sig": "BASE64"}, ...], ...}, any other key skipped.
 * Untrusted input: every read is checked against the end, nesting is
 * limited, nothing is allocated.
 */
#include <string.h>

#include "util/diag.h"
#include "uki/uki_model.h"

#define MAX_DEPTH 16

typedef struct cursor {
	const uint8_t *p;
	size_t n, pos;
	int depth;
	const char *what; /* the first defect */
	size_t at;
} cursor;

static int
fail(cursor *c, const char *what)
{
	if (!c->what) {
		c->what = what;
		c->at = c->pos;
	}
	return -1;
}

static void
skip_space(cursor *c)
{
	while (c->pos < c->n &&
	       (c->p[c->pos] == ' ' || c->p[c->pos] == '\t' || c->p[c->pos] == '\n' || c->p[c->pos] == '\r'))
		c->pos++;
}

/* The next byte after white space, or -1 at the end. */
static int
peek(cursor *c)
{
	skip_space(c);
	return c->pos < c->n ? c->p[c->pos] : -1;
}

static int
expect(cursor *c, uint8_t ch, const char *what)
{
	if (peek(c) != ch)
		return fail(c, what);
	c->pos++;
	return 0;
}

/* A string: *ret_start and *ret_len delimit its raw contents (escapes left as they are). */
static int
string(cursor *c, size_t *ret_start, size_t *ret_len)
{
	if (expect(c, '"', "a string was expected") < 0)
		return -1;
	*ret_start = c->pos;
	while (c->pos < c->n && c->p[c->pos] != '"') {
		if (c->p[c->pos] < 0x20)
			return fail(c, "a control character inside a string");
		if (c->p[c->pos] == '\\' && ++c->pos >= c->n)
			break;
		c->pos++;
	}
	if (c->pos >= c->n)
		return fail(c, "the JSON ends inside a string");
	*ret_len = c->pos - *ret_start;
	c->pos++;
	return 0;
}

/* A non-negative integer below 1000 (a PCR index). */
static int
small_number(cursor *c, unsigned *ret)
{
	unsigned v = 0, digits = 0;

	skip_space(c);
	while (c->pos < c->n && c->p[c->pos] >= '0' && c->p[c->pos] <= '9' && digits < 4) {
		v = v * 10 + (unsigned)(c->p[c->pos++] - '0');
		digits++;
	}
	if (!digits || digits > 3)
		return fail(c, "a PCR number was expected");
	*ret = v;
	return 0;
}

static int skip_value(cursor *c);

/* The rest of an object or array after its opening bracket, values skipped. */
static int
skip_container(cursor *c, uint8_t close, int object)
{
	size_t s, n;

	if (++c->depth > MAX_DEPTH)
		return fail(c, "the JSON nests too deep");
	if (peek(c) == close) {
		c->pos++;
		c->depth--;
		return 0;
	}
	for (;;) {
		if (object && (string(c, &s, &n) < 0 || expect(c, ':', "':' was expected after a key") < 0))
			return -1;
		if (skip_value(c) < 0)
			return -1;
		if (peek(c) == ',') {
			c->pos++;
			continue;
		}
		if (expect(c, close, object ? "',' or '}' was expected" : "',' or ']' was expected") < 0)
			return -1;
		c->depth--;
		return 0;
	}
}

static int
literal(cursor *c, const char *word)
{
	size_t n = strlen(word);

	if (c->n - c->pos < n || memcmp(c->p + c->pos, word, n) != 0)
		return fail(c, "a JSON value was expected");
	c->pos += n;
	return 0;
}

static int
skip_value(cursor *c)
{
	size_t s, n;
	int ch = peek(c);

	if (ch == '"')
		return string(c, &s, &n);
	if (ch == '{' || ch == '[') {
		c->pos++;
		return skip_container(c, ch == '{' ? '}' : ']', ch == '{');
	}
	if (ch == 't')
		return literal(c, "true");
	if (ch == 'f')
		return literal(c, "false");
	if (ch == 'n')
		return literal(c, "null");
	if (ch == '-' || (ch >= '0' && ch <= '9')) {
		while (c->pos < c->n && strchr("+-.eE0123456789", c->p[c->pos]) && c->p[c->pos])
			c->pos++;
		return 0;
	}
	return fail(c, ch < 0 ? "the JSON ends where a value was expected" : "a JSON value was expected");
}

static int
hex_digit(uint8_t ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* "pol": a hex policy digest of at most 64 bytes. */
static int
policy(cursor *c, uki_pcrsig_entry *e)
{
	size_t s, n, i;

	if (string(c, &s, &n) < 0)
		return -1;
	if (n % 2 || n / 2 > sizeof(e->pol) || n == 0) {
		c->pos = s;
		return fail(c, "\"pol\" is not a hex digest");
	}
	for (i = 0; i < n; i += 2) {
		int hi = hex_digit(c->p[s + i]), lo = hex_digit(c->p[s + i + 1]);

		if (hi < 0 || lo < 0) {
			c->pos = s + i;
			return fail(c, "\"pol\" is not a hex digest");
		}
		e->pol[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	e->pol_len = n / 2;
	return 0;
}

/* "pcrs": an array of PCR numbers. */
static int
pcrs(cursor *c, uki_pcrsig_entry *e)
{
	unsigned v;

	if (expect(c, '[', "\"pcrs\" is not an array") < 0)
		return -1;
	if (peek(c) == ']') {
		c->pos++;
		return 0;
	}
	for (;;) {
		if (small_number(c, &v) < 0)
			return -1;
		if (v >= 32)
			return fail(c, "\"pcrs\" names a PCR above 31");
		e->pcr_mask |= 1u << v;
		if (peek(c) == ',') {
			c->pos++;
			continue;
		}
		return expect(c, ']', "',' or ']' was expected in \"pcrs\"");
	}
}

static int
key_is(cursor *c, size_t s, size_t n, const char *key)
{
	return n == strlen(key) && memcmp(c->p + s, key, n) == 0;
}

/* One entry of a bank's array. */
static int
entry(cursor *c, uki_pcrsig_entry *e)
{
	size_t s, n;

	e->offset = c->pos;
	if (expect(c, '{', "an entry of a bank is not an object") < 0)
		return -1;
	if (peek(c) == '}') {
		c->pos++;
		return 0;
	}
	for (;;) {
		int r;

		if (string(c, &s, &n) < 0 || expect(c, ':', "':' was expected after a key") < 0)
			return -1;
		if (key_is(c, s, n, "pcrs"))
			r = pcrs(c, e);
		else if (key_is(c, s, n, "pol"))
			r = policy(c, e);
		else {
			e->has_sig |= key_is(c, s, n, "sig");
			e->has_pkfp |= key_is(c, s, n, "pkfp");
			r = skip_value(c);
		}
		if (r < 0)
			return -1;
		if (peek(c) == ',') {
			c->pos++;
			continue;
		}
		return expect(c, '}', "',' or '}' was expected in an entry");
	}
}

/* A bank's array of entries; bank names the key. */
static int
bank(cursor *c, size_t ks, size_t kn, uki_pcrsig *ret)
{
	if (expect(c, '[', "a bank's value is not an array") < 0)
		return -1;
	if (peek(c) == ']') {
		c->pos++;
		return 0;
	}
	for (;;) {
		uki_pcrsig_entry scratch, *e = ret->n < UKI_PCRSIG_MAX_ENTRIES ? &ret->e[ret->n] : &scratch;

		memset(e, 0, sizeof(*e));
		memcpy(e->bank, c->p + ks, kn < sizeof(e->bank) - 1 ? kn : sizeof(e->bank) - 1);
		if (entry(c, e) < 0)
			return -1;
		if (e == &scratch)
			ret->dropped++;
		else
			ret->n++;
		if (peek(c) == ',') {
			c->pos++;
			continue;
		}
		return expect(c, ']', "',' or ']' was expected in a bank's array");
	}
}

static int
document(cursor *c, uki_pcrsig *ret)
{
	size_t s, n;

	if (expect(c, '{', "the JSON is not an object") < 0)
		return -1;
	if (peek(c) == '}') {
		c->pos++;
		return 0;
	}
	for (;;) {
		if (string(c, &s, &n) < 0 || expect(c, ':', "':' was expected after a key") < 0 ||
		    bank(c, s, n, ret) < 0)
			return -1;
		if (peek(c) == ',') {
			c->pos++;
			continue;
		}
		return expect(c, '}', "',' or '}' was expected after a bank");
	}
}

sbat_err
pcrsig_json_parse(const uint8_t *p, size_t n, uki_pcrsig *ret, sbat_diag *d)
{
	cursor c;

	memset(ret, 0, sizeof(*ret));
	memset(&c, 0, sizeof(c));
	c.p = p;
	c.n = n;
	/* the section's padding: NULs after the text */
	while (c.n > 0 && c.p[c.n - 1] == '\0')
		c.n--;
	if (document(&c, ret) == 0 && peek(&c) >= 0)
		fail(&c, "data follows the JSON object");
	if (c.what)
		return diag_fail_at(d, SBAT_E_UKI, c.what, c.at);
	return SBAT_OK;
}
