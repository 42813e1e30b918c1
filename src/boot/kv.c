/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* kv.c - systemd-boot's "key value" files (loader.conf, Type #1 entries, os-release) and its version order */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sbat/error.h"
#include "sbat/kv.h"
#include "util/diag.h"

/* cursor states */
#define KV_READING 0
#define KV_DONE 1
#define KV_NUL_PENDING 2 /* a NUL byte ended the last line: report it, then stop */

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
in_set(const char *set, char c)
{
	return c != '\0' && strchr(set, c) != NULL;
}

static sbat_err
kv_fail(sbat_diag *d, const char *what, unsigned line, size_t offset)
{
	diag_fail_at(d, SBAT_E_BOOTCFG, what, offset);
	if (d)
		d->line = line;
	return SBAT_E_BOOTCFG;
}

/*
 * The next line [*start, *end) of buf from the cursor, and its number; advances
 * the cursor. Lines are counted by their '\n', so "\r\n" is one. 0 at the end.
 */
static int
next_line(const uint8_t *buf, size_t len, sbat_kv_cursor *cur, size_t *start, size_t *end, unsigned *line)
{
	size_t e = cur->pos;

	if (cur->done != KV_READING || cur->pos >= len)
		return 0;
	while (e < len && buf[e] != '\n' && buf[e] != '\r' && buf[e] != '\0')
		e++;
	*start = cur->pos;
	*end = e;
	*line = cur->line + 1;
	if (e < len && buf[e] == '\0') {
		/* systemd-boot reads the file as a C string: nothing after the NUL */
		cur->pos = e;
		cur->done = KV_NUL_PENDING;
	} else {
		cur->pos = e < len ? e + 1 : e;
		cur->line += e < len && buf[e] == '\n';
	}
	return 1;
}

/* Split the trimmed line [s, e) into ret, as line_get_key_value does; 0 when it has no separator. */
static int
split_line(const char *s, const char *e, const char *sep, sbat_kv_line *ret)
{
	const char *v = s;

	while (v < e && !in_set(sep, *v))
		v++;
	if (v == e)
		return 0;
	ret->key = s;
	ret->key_len = (size_t)(v - s);
	while (v < e && in_set(sep, *v))
		v++;
	if (v < e && *v == '"' && e[-1] == '"') {
		/* a lone '"' is both quotes: the value is empty */
		v++;
		e = v > e - 1 ? v : e - 1;
	}
	ret->value = v;
	ret->value_len = (size_t)(e - v);
	return 1;
}

sbat_err
sbat_kv_next(const uint8_t *buf, size_t len, const char *sep, sbat_kv_cursor *cur, sbat_kv_line *ret, sbat_diag *reterr)
{
	size_t start, end;

	memset(ret, 0, sizeof(*ret));
	if (!buf)
		len = 0;
	if (!sep || !*sep)
		sep = " \t";
	for (;;) {
		const char *s, *e;
		unsigned line;

		if (cur->done == KV_NUL_PENDING) {
			cur->done = KV_DONE;
			return kv_fail(reterr, "a NUL byte: systemd-boot reads nothing after it", cur->line + 1,
			               cur->pos);
		}
		if (!next_line(buf, len, cur, &start, &end, &line))
			return SBAT_OK;
		s = (const char *)buf + start;
		e = (const char *)buf + end;
		while (s < e && is_blank(*s))
			s++;
		while (e > s && is_blank(e[-1]))
			e--;
		if (s == e || *s == '#')
			continue;
		if (!split_line(s, e, sep, ret))
			return kv_fail(reterr, "a key without a value: systemd-boot ignores the line", line, start);
		ret->line = line;
		ret->offset = start;
		return SBAT_OK;
	}
}

/* ------------------------------------------------ strverscmp_improved */

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
version_char(char c)
{
	return is_digit(c) || is_alpha(c) || c == '~' || c == '-' || c == '^' || c == '.';
}

static int
cmp_int(long a, long b)
{
	return (a > b) - (a < b);
}

/* One separator kind c ('-', '^' or '.'): the string without it here sorts after; both step past it. */
static int
compare_prefix(const char **a, const char **b, char c)
{
	int r;

	if (**a != c && **b != c)
		return 0;
	r = cmp_int(**a != c, **b != c);
	if (r)
		return r;
	(*a)++;
	(*b)++;
	return 0;
}

/* Compare the segments at *a and *b and step past them; 0 when they are equivalent. */
static int
compare_segment(const char **a, const char **b)
{
	const char *aa = *a, *bb = *b;
	int r;

	if (is_digit(**a) || is_digit(**b)) {
		while (is_digit(*aa))
			aa++;
		while (is_digit(*bb))
			bb++;
		r = cmp_int(aa != *a, bb != *b);
		if (r)
			return r;
		while (**a == '0')
			(*a)++;
		while (**b == '0')
			(*b)++;
		r = cmp_int(aa - *a, bb - *b);
		if (r == 0)
			r = strncmp(*a, *b, (size_t)(aa - *a));
	} else {
		while (is_alpha(*aa))
			aa++;
		while (is_alpha(*bb))
			bb++;
		r = strncmp(*a, *b, (size_t)((aa - *a) < (bb - *b) ? aa - *a : bb - *b));
		if (r == 0)
			r = cmp_int(aa - *a, bb - *b);
	}
	*a = aa;
	*b = bb;
	return r < 0 ? -1 : r > 0;
}

int
sbat_kv_version_compare(const char *a, const char *b)
{
	a = a ? a : "";
	b = b ? b : "";
	for (;;) {
		int r;

		while (*a && !version_char(*a))
			a++;
		while (*b && !version_char(*b))
			b++;
		if (*a == '~' || *b == '~') {
			r = cmp_int(*a != '~', *b != '~');
			if (r)
				return r;
			a++;
			b++;
		}
		if (*a == '\0' || *b == '\0')
			return cmp_int((unsigned char)*a, (unsigned char)*b);
		if ((r = compare_prefix(&a, &b, '-')) != 0 || (r = compare_prefix(&a, &b, '^')) != 0 ||
		    (r = compare_prefix(&a, &b, '.')) != 0)
			return r;
		r = compare_segment(&a, &b);
		if (r)
			return r;
	}
}
