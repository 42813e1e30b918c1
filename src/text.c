/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* text.c - line-oriented checks shared by the SBAT CSV and SbatLevel parsers */
#include <string.h>

#include "text.h"

#include "diag.h"

#define MAX_GENERATION 65535u

sbat_err
text_fail(sbat_diag *d, sbat_err code, const char *what, unsigned line, unsigned field)
{
	if (d) {
		diag_fail(d, code, what);
		d->line = line;
		d->field = field;
	}
	return code;
}

size_t
text_trim(const uint8_t *buf, size_t len)
{
	while (len > 0 && buf[len - 1] == '\n') {
		len--;
		if (len > 0 && buf[len - 1] == '\r')
			len--;
	}
	return len;
}

sbat_err
text_check_bytes(const uint8_t *p, size_t n, unsigned line, sbat_err code, sbat_diag *d)
{
	static const uint8_t bom[3] = { 0xef, 0xbb, 0xbf };
	unsigned field = 1;
	size_t i;

	if (line == 1 && n >= sizeof(bom) && memcmp(p, bom, sizeof(bom)) == 0)
		return text_fail(d, code, "UTF-8 byte order mark", line, 1);
	for (i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (c == ',')
			field++;
		else if (c == '\0')
			return text_fail(d, code, "NUL byte", line, field);
		else if (c == '\r')
			return text_fail(d, code, "CR not followed by LF", line, 0);
		else if (c < 0x20 || c > 0x7e)
			return text_fail(d, code, "non-printable or non-ASCII byte", line, field);
	}
	return SBAT_OK;
}

sbat_err
text_for_each_line(const uint8_t *buf, size_t end, text_line_fn fn, void *ctx, sbat_diag *d)
{
	size_t pos = 0;
	unsigned line = 0;

	while (pos < end) {
		const uint8_t *lf = memchr(buf + pos, '\n', end - pos);
		size_t stop = lf ? (size_t)(lf - buf) : end;
		size_t next = lf ? stop + 1 : end;
		sbat_err r;

		line++;
		if (lf && stop > pos && buf[stop - 1] == '\r')
			stop--;
		r = fn(ctx, buf + pos, stop - pos, line, d);
		if (r != SBAT_OK)
			return r;
		pos = next;
	}
	return SBAT_OK;
}

const char *
text_parse_generation(const uint8_t *p, size_t n, uint16_t *ret)
{
	uint32_t v = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return "generation is not a decimal number";
		/* saturate so 20 digits cannot wrap back into range */
		v = v * 10 + (uint32_t)(p[i] - '0');
		if (v > MAX_GENERATION)
			v = MAX_GENERATION + 1;
	}
	if (v < 1 || v > MAX_GENERATION)
		return "generation out of range 1..65535";
	*ret = (uint16_t)v;
	return NULL;
}
