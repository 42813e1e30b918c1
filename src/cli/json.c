/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* json.c - the JSON writers the command's reports share: strings escaped, hex */
#include <inttypes.h>
#include <string.h>

#include "json.h"

/* Length of the valid UTF-8 sequence at p[0..n) (2 to 4 bytes), or 0. */
static size_t
utf8_sequence(const unsigned char *p, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, cp = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, cp = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, cp = p[0] & 0x07u;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3fu);
	}
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/*
 * A JSON string: quotes, backslashes and control characters escaped,
 * valid UTF-8 passed through as it is, every byte that is not part of
 * valid UTF-8 replaced by U+FFFD (\ufffd), so the output is always valid
 * JSON in UTF-8.
 */
void
cli_json_string(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	fputc('"', out);
	while (i < n) {
		unsigned char c = p[i];
		size_t len;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\u%04x", c);
		else if (c < 0x80)
			fputc(c, out);
		else if ((len = utf8_sequence(p + i, n - i)) != 0) {
			fwrite(p + i, 1, len, out);
			i += len;
			continue;
		} else
			fputs("\\ufffd", out);
		i++;
	}
	fputc('"', out);
}

void
cli_json_cstr(FILE *out, const char *s)
{
	cli_json_string(out, s, strlen(s));
}

void
cli_json_cstr_or_null(FILE *out, const char *s)
{
	if (s)
		cli_json_cstr(out, s);
	else
		fputs("null", out);
}

void
cli_hex(FILE *out, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(out, "%02x", p[i]);
}

void
cli_json_hex(FILE *out, const uint8_t *p, size_t n)
{
	fputc('"', out);
	cli_hex(out, p, n);
	fputc('"', out);
}
