/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luksjson.c - a bounded JSON reader (RFC 8259) for the LUKS2 JSON area: one array of nodes, no recursion */
#include <stdlib.h>
#include <string.h>

#include "sbat/luks.h"

#include "luks/luksjson.h"
#include "util/diag.h"

typedef struct parser {
	const char *s;
	size_t len, pos;
	uint64_t base;
	luksjson *j;
	size_t cap;
	size_t stack[SBAT_LUKS_JSON_MAX_DEPTH];
	size_t depth;
	sbat_diag *d;
} parser;

static sbat_err
fail(parser *p, const char *what, size_t at)
{
	return diag_fail_at(p->d, SBAT_E_LUKS, what, p->base + at);
}

static void
skip_ws(parser *p)
{
	while (p->pos < p->len &&
	       (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

/* A new node of type at p->pos, a child of the open container: *ret. */
static sbat_err
new_node(parser *p, uint8_t type, size_t *ret)
{
	luksjson *j = p->j;
	luksjson_node *n;

	if (j->n_nodes == SBAT_LUKS_JSON_MAX_NODES)
		return fail(p, "more JSON values than the reader takes (65536)", p->pos);
	if (j->n_nodes == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 64;
		luksjson_node *grown = realloc(j->nodes, cap * sizeof(*grown));

		if (!grown)
			return diag_fail(p->d, SBAT_E_NOMEM, "out of memory reading the LUKS2 JSON");
		j->nodes = grown;
		p->cap = cap;
	}
	n = &j->nodes[j->n_nodes];
	n->type = type;
	n->off = p->pos;
	n->len = 0;
	n->n_children = 0;
	n->end = j->n_nodes + 1;
	if (p->depth)
		j->nodes[p->stack[p->depth - 1]].n_children++;
	*ret = j->n_nodes++;
	return SBAT_OK;
}

static int
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The string at p->pos (its quote): checked, p->pos past its closing quote, *ret_len its bytes between. */
static sbat_err
scan_string(parser *p, size_t *ret_len)
{
	size_t start = p->pos + 1, i = start;

	while (i < p->len) {
		unsigned char c = (unsigned char)p->s[i];

		if (i - start > SBAT_LUKS_JSON_MAX_STRING)
			return fail(p, "a JSON string longer than the reader takes (65536 bytes)", p->pos);
		if (c == '"') {
			*ret_len = i - start;
			p->pos = i + 1;
			return SBAT_OK;
		}
		if (c < 0x20)
			return fail(p, "a control character in a JSON string", i);
		if (c != '\\') {
			i++;
			continue;
		}
		if (i + 1 >= p->len)
			break;
		c = (unsigned char)p->s[i + 1];
		if (c == 'u') {
			if (p->len - i < 6 || !is_hex(p->s[i + 2]) || !is_hex(p->s[i + 3]) || !is_hex(p->s[i + 4]) ||
			    !is_hex(p->s[i + 5]))
				return fail(p, "a \\u escape without four hex digits in a JSON string", i);
			i += 6;
			continue;
		}
		if (!c || !strchr("\"\\/bfnrt", c))
			return fail(p, "an unknown escape in a JSON string", i);
		i += 2;
	}
	return fail(p, "a JSON string without its closing quote", p->pos);
}

static size_t
digits(const parser *p, size_t i)
{
	size_t n = 0;

	while (i + n < p->len && p->s[i + n] >= '0' && p->s[i + n] <= '9')
		n++;
	return n;
}

/* A number (RFC 8259 6) at p->pos; p->pos past it, *ret_len its length. */
static sbat_err
scan_number(parser *p, size_t *ret_len)
{
	size_t i = p->pos, n;

	if (p->s[i] == '-')
		i++;
	n = digits(p, i);
	if (n == 0 || (n > 1 && p->s[i] == '0'))
		return fail(p, "a malformed JSON number", p->pos);
	i += n;
	if (i < p->len && p->s[i] == '.') {
		if ((n = digits(p, i + 1)) == 0)
			return fail(p, "a malformed JSON number", p->pos);
		i += 1 + n;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if ((n = digits(p, i)) == 0)
			return fail(p, "a malformed JSON number", p->pos);
		i += n;
	}
	if (i - p->pos > SBAT_LUKS_JSON_MAX_STRING)
		return fail(p, "a JSON number longer than the reader takes (65536 bytes)", p->pos);
	*ret_len = i - p->pos;
	p->pos = i;
	return SBAT_OK;
}

static sbat_err
scan_literal(parser *p, uint8_t *ret_type)
{
	static const struct {
		const char *word;
		uint8_t type;
	} words[] = { { "true", LUKSJSON_TRUE }, { "false", LUKSJSON_FALSE }, { "null", LUKSJSON_NULL } };
	size_t k;

	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		size_t n = strlen(words[k].word);

		if (p->len - p->pos >= n && memcmp(p->s + p->pos, words[k].word, n) == 0) {
			*ret_type = words[k].type;
			return SBAT_OK;
		}
	}
	return fail(p, "not a JSON value", p->pos);
}

/* The scalar at p->pos: a node, p->pos past it. */
static sbat_err
scalar(parser *p, char c)
{
	uint8_t type = LUKSJSON_STRING;
	size_t idx, len = 0;
	sbat_err err;

	if (c != '"' && c != '-' && (c < '0' || c > '9') && (err = scan_literal(p, &type)) != SBAT_OK)
		return err;
	if (c == '-' || (c >= '0' && c <= '9'))
		type = LUKSJSON_NUMBER;
	if ((err = new_node(p, type, &idx)) != SBAT_OK)
		return err;
	if (type == LUKSJSON_STRING)
		err = scan_string(p, &len);
	else if (type == LUKSJSON_NUMBER)
		err = scan_number(p, &len);
	else
		p->pos += type == LUKSJSON_FALSE ? 5 : 4;
	p->j->nodes[idx].len = len;
	return err;
}

/* The value at p->pos: a scalar, or a container opened (pushed). */
static sbat_err
value(parser *p)
{
	size_t idx;
	sbat_err err;
	char c;

	skip_ws(p);
	if (p->pos >= p->len)
		return fail(p, "the JSON text ends where a value belongs", p->pos);
	c = p->s[p->pos];
	if (c != '{' && c != '[')
		return scalar(p, c);
	if (p->depth == SBAT_LUKS_JSON_MAX_DEPTH)
		return fail(p, "JSON nested deeper than the reader takes (32 levels)", p->pos);
	if ((err = new_node(p, c == '{' ? LUKSJSON_OBJECT : LUKSJSON_ARRAY, &idx)) != SBAT_OK)
		return err;
	p->stack[p->depth++] = idx;
	p->pos++;
	return SBAT_OK;
}

/* One step inside the open container: close it, or read its next member or element. */
static sbat_err
step(parser *p)
{
	luksjson_node *top = &p->j->nodes[p->stack[p->depth - 1]];
	int object = top->type == LUKSJSON_OBJECT;
	size_t key, len;
	sbat_err err;

	skip_ws(p);
	if (p->pos >= p->len)
		return fail(p, object ? "the JSON text ends inside an object" : "the JSON text ends inside an array",
		            top->off);
	if (p->s[p->pos] == (object ? '}' : ']')) {
		top->end = p->j->n_nodes;
		p->depth--;
		p->pos++;
		return SBAT_OK;
	}
	if (top->n_children) {
		if (p->s[p->pos] != ',')
			return fail(
			    p, object ? "expected ',' or '}' in a JSON object" : "expected ',' or ']' in a JSON array",
			    p->pos);
		p->pos++;
		skip_ws(p);
	}
	if (object) {
		if (p->pos >= p->len || p->s[p->pos] != '"')
			return fail(p, "a JSON object member without a string key", p->pos);
		if ((err = new_node(p, LUKSJSON_STRING, &key)) != SBAT_OK || (err = scan_string(p, &len)) != SBAT_OK)
			return err;
		p->j->nodes[key].len = len;
		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != ':')
			return fail(p, "expected ':' after a JSON object key", p->pos);
		p->pos++;
	}
	return value(p);
}

sbat_err
luksjson_parse(const char *text, size_t len, uint64_t base, luksjson *ret, sbat_diag *d)
{
	parser p = { 0 };
	const char *nul = memchr(text, '\0', len);
	sbat_err err;

	memset(ret, 0, sizeof(*ret));
	ret->text = text;
	if (!nul)
		return diag_fail_at(d, SBAT_E_LUKS, "the JSON area does not end in a NUL byte", base + len);
	p.s = text;
	p.len = (size_t)(nul - text);
	p.base = base;
	p.j = ret;
	p.d = d;
	err = value(&p);
	while (err == SBAT_OK && p.depth)
		err = step(&p);
	if (err == SBAT_OK) {
		skip_ws(&p);
		if (p.pos != p.len)
			err = fail(&p, "bytes after the JSON text", p.pos);
	}
	if (err != SBAT_OK)
		luksjson_free(ret);
	return err;
}

void
luksjson_free(luksjson *j)
{
	free(j->nodes);
	j->nodes = NULL;
	j->n_nodes = 0;
}

size_t
luksjson_get(const luksjson *j, size_t obj, const char *key)
{
	size_t i, k, found = 0;

	if (obj >= j->n_nodes || j->nodes[obj].type != LUKSJSON_OBJECT)
		return 0;
	for (i = obj + 1, k = 0; k < j->nodes[obj].n_children / 2; k++) {
		size_t v = j->nodes[i].end;

		if (luksjson_str_is(j, i, key))
			found = v;
		i = j->nodes[v].end;
	}
	return found;
}

static unsigned
hex4(const char *s)
{
	unsigned v = 0;
	int k;

	for (k = 0; k < 4; k++) {
		char c = s[k];

		v = v << 4 | (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
	}
	return v;
}

/* The code point of the \u escape at s (a surrogate pair read whole: *used 6 or 12); 0 for a lone surrogate. */
static unsigned long
code_point(const char *s, size_t avail, size_t *used)
{
	unsigned hi = hex4(s + 2), lo;

	*used = 6;
	if (hi < 0xd800 || hi > 0xdfff)
		return hi;
	if (hi > 0xdbff || avail < 12 || s[6] != '\\' || s[7] != 'u')
		return 0;
	lo = hex4(s + 8);
	if (lo < 0xdc00 || lo > 0xdfff)
		return 0;
	*used = 12;
	return 0x10000ul + ((unsigned long)(hi - 0xd800) << 10) + (lo - 0xdc00);
}

/* Put code point cp as UTF-8 at out + *n (room for size): 1, or 0 when it does not fit. */
static int
put_utf8(unsigned long cp, char *out, size_t size, size_t *n)
{
	size_t k = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	static const unsigned char lead[] = { 0, 0, 0xc0, 0xe0, 0xf0 };
	size_t i;

	if (size - *n <= k)
		return 0;
	for (i = k - 1; i > 0; i--, cp >>= 6)
		out[*n + i] = (char)(0x80 | (cp & 0x3f));
	out[*n] = (char)(k == 1 ? cp : (lead[k] | cp));
	*n += k;
	return 1;
}

/* The escape at s (s[0] is the backslash, checked by the parser): its code point, *used its length; 0 for \u0000. */
static unsigned long
unescape(const char *s, size_t avail, size_t *used)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at;

	if (s[1] == 'u')
		return code_point(s, avail, used);
	at = strchr(from, s[1]);
	*used = 2;
	return at ? (unsigned char)to[at - from] : 0;
}

int
luksjson_str(const luksjson *j, size_t i, char *out, size_t size)
{
	const char *s;
	size_t k = 0, n = 0, len, used;

	if (i >= j->n_nodes || j->nodes[i].type != LUKSJSON_STRING || size == 0)
		return 0;
	s = j->text + j->nodes[i].off + 1;
	len = j->nodes[i].len;
	while (k < len) {
		unsigned long cp;

		if (s[k] != '\\') {
			if (size - n <= 1)
				return 0;
			out[n++] = s[k++];
			continue;
		}
		if ((cp = unescape(s + k, len - k, &used)) == 0 || !put_utf8(cp, out, size, &n))
			return 0;
		k += used;
	}
	out[n] = '\0';
	return 1;
}

int
luksjson_str_is(const luksjson *j, size_t i, const char *s)
{
	char buf[256];

	return luksjson_str(j, i, buf, sizeof(buf)) && strcmp(buf, s) == 0;
}

int
luksjson_uint(const luksjson *j, size_t i, uint32_t *ret)
{
	const char *s;
	uint64_t v = 0;
	size_t k;

	if (i >= j->n_nodes || j->nodes[i].type != LUKSJSON_NUMBER)
		return 0;
	s = j->text + j->nodes[i].off;
	for (k = 0; k < j->nodes[i].len; k++) {
		if (s[k] < '0' || s[k] > '9')
			return 0;
		v = v * 10 + (uint64_t)(s[k] - '0');
		if (v > UINT32_MAX)
			return 0;
	}
	*ret = (uint32_t)v;
	return 1;
}
