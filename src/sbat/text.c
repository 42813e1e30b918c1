/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* text.c - line-oriented checks shared by the SBAT CSV and SbatLevel parsers */
#include <stdlib.h>
#include <string.h>

#include "sbat/text.h"

#include "sbat/csv.h"

#include "util/diag.h"

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
text_parse(const uint8_t *buf, size_t len, const sbat_text_format *f, sbat_text_table *t, sbat_diag *d)
{
	size_t end, pos = 0, i, size;
	unsigned line = 0;
	sbat_err r = SBAT_OK;

	if (len > f->max_size)
		return text_fail(d, SBAT_E_TOO_BIG, f->too_big, 0, 0);
	end = buf ? text_trim(buf, len) : 0;
	if (end == 0)
		return text_fail(d, f->code, f->empty, 0, 0);
	t->n_rows = 1;
	for (i = 0; i < end; i++)
		if (buf[i] == '\n')
			t->n_rows++;
	/* the size cap (64 KiB) keeps these far from overflowing; each string gets a NUL per line */
	size = f->head_size + t->n_rows * f->entry_size + f->copies * (end + 1);
	t->block = malloc(size);
	if (!t->block)
		return text_fail(d, SBAT_E_NOMEM, "out of memory", 0, 0);
	memset(t->block, 0, f->head_size);
	t->entries = (uint8_t *)t->block + f->head_size;
	t->storage = (char *)t->entries + t->n_rows * f->entry_size;
	while (pos < end && r == SBAT_OK) {
		const uint8_t *lf = memchr(buf + pos, '\n', end - pos);
		size_t stop = lf ? (size_t)(lf - buf) : end;
		size_t next = lf ? stop + 1 : end;

		line++;
		if (lf && stop > pos && buf[stop - 1] == '\r')
			stop--;
		r = f->row(t, buf + pos, stop - pos, line, d);
		pos = next;
	}
	if (r != SBAT_OK) {
		free(t->block);
		t->block = NULL;
	}
	return r;
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
		if (v > SBAT_CSV_MAX_GENERATION)
			v = SBAT_CSV_MAX_GENERATION + 1;
	}
	if (v < 1 || v > SBAT_CSV_MAX_GENERATION)
		return "generation out of range 1..65535";
	*ret = (uint16_t)v;
	return NULL;
}

static int
is_break(uint8_t c)
{
	return c == '\r' || c == '\n';
}

int
text_shim_row(const uint8_t *buf, size_t len, size_t *pos, size_t *ret_start, size_t *ret_n)
{
	size_t i = *pos, stop;

	for (;;) {
		if (i >= len || buf[i] == '\0')
			return 0;
		while (i < len && is_break(buf[i]))
			i++;
		if (i >= len)
			return 0;
		if (buf[i] != '\0')
			break;
		i++;
	}
	for (stop = i; stop < len && buf[stop] != '\0' && !is_break(buf[stop]); stop++)
		;
	*ret_start = i;
	*ret_n = stop - i;
	/* a row ended by a NUL (or the data's end) is the last one */
	*pos = stop < len && buf[stop] != '\0' ? stop + 1 : len;
	return 1;
}
