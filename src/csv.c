/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* csv.c - strict parser and canonical formatter for SBAT CSV metadata */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/csv.h"
#include "diag.h"
#include "text.h"

/*
 * The struct, its entries and every string share one block, so a parsed CSV
 * is one malloc and one free. csv is the first member: &blk->csv == blk.
 */
struct csv_block {
	sbat_csv csv;
	sbat_csv_entry entries[];
};

/*
 * Validate the row p[0..n) (no line ending) and append it to csv, copying
 * it twice into *out: once as text, once split on commas into fields.
 */
static sbat_err
parse_row(sbat_csv *csv, const uint8_t *p, size_t n, unsigned line, char **out, sbat_diag *d)
{
	sbat_csv_entry *e = &csv->entries[csv->n_entries];
	size_t start = 0, i;
	unsigned field = 0;
	const char *what;
	char *text, *fields, *col[SBAT_CSV_COLUMNS];
	sbat_err r;

	if (n == 0)
		return text_fail(d, SBAT_E_CSV, "empty line", line, 0);
	r = text_check_bytes(p, n, line, SBAT_E_CSV, d);
	if (r != SBAT_OK)
		return r;

	for (i = 0; i < n; i++)
		if (p[i] == ',')
			field++;
	if (field + 1 < SBAT_CSV_COLUMNS)
		return text_fail(d, SBAT_E_CSV, "fewer than 6 fields", line, 0);

	/* Left to right, extras included: a stray space or comma is a typo. */
	field = 0;
	for (i = 0; i <= n; i++) {
		size_t flen;

		if (i < n && p[i] != ',')
			continue;
		field++;
		flen = i - start;
		if (flen == 0)
			return text_fail(d, SBAT_E_CSV, "empty field", line, field);
		if (p[start] == ' ' || p[i - 1] == ' ')
			return text_fail(d, SBAT_E_CSV, "leading or trailing space", line, field);
		if (field == 2) {
			what = text_parse_generation(p + start, flen, &e->generation);
			if (what)
				return text_fail(d, SBAT_E_CSV, what, line, field);
		}
		start = i + 1;
	}

	text = *out;
	memcpy(text, p, n);
	text[n] = '\0';
	fields = text + n + 1;
	memcpy(fields, p, n);
	fields[n] = '\0';
	*out = fields + n + 1;

	col[0] = fields;
	field = 1;
	for (i = 0; i < n; i++) {
		if (fields[i] != ',')
			continue;
		fields[i] = '\0';
		if (field < SBAT_CSV_COLUMNS)
			col[field++] = fields + i + 1;
	}
	e->component_name = col[0];
	e->component_generation = col[1];
	e->vendor_name = col[2];
	e->vendor_package_name = col[3];
	e->vendor_version = col[4];
	e->vendor_url = col[5];
	e->text = text;
	e->line = line;

	/* The sbat,1 row leads: it names the format version the other rows follow. */
	if (csv->n_entries == 0) {
		if (strcmp(e->component_name, "sbat") != 0)
			return text_fail(d, SBAT_E_CSV, "first row must be the sbat,1 header", line, 1);
		if (e->generation != 1)
			return text_fail(d, SBAT_E_CSV, "first row must be the sbat,1 header", line, 2);
	} else {
		if (strcmp(e->component_name, "sbat") == 0)
			return text_fail(d, SBAT_E_CSV, "second sbat header row", line, 1);
		/* Rows are few (64 KiB caps them), so a quadratic scan is fine. */
		for (i = 1; i < csv->n_entries; i++)
			if (strcmp(csv->entries[i].component_name, e->component_name) == 0)
				return text_fail(d, SBAT_E_CSV, "duplicate component", line, 1);
	}
	csv->n_entries++;
	return SBAT_OK;
}

struct row_ctx {
	sbat_csv *csv;
	char *out;
};

static sbat_err
parse_row_cb(void *ctx, const uint8_t *p, size_t n, unsigned line, sbat_diag *d)
{
	struct row_ctx *c = ctx;

	return parse_row(c->csv, p, n, line, &c->out, d);
}

sbat_err
sbat_csv_parse(const uint8_t *buf, size_t len, sbat_csv **ret_csv, sbat_diag *reterr)
{
	struct csv_block *blk;
	sbat_csv *csv;
	size_t end, i, n_lf = 0, n_crlf = 0, n_rows, text_size, size;
	struct row_ctx ctx;
	char *storage;
	sbat_err r;

	if (len > SBAT_CSV_MAX_SIZE)
		return text_fail(reterr, SBAT_E_TOO_BIG, "CSV larger than 64 KiB", 0, 0);
	end = buf ? text_trim(buf, len) : 0;
	if (end == 0)
		return text_fail(reterr, SBAT_E_CSV, "CSV is empty", 0, 0);

	for (i = 0; i < end; i++) {
		if (buf[i] != '\n')
			continue;
		n_lf++;
		if (i > 0 && buf[i - 1] == '\r')
			n_crlf++;
	}
	/*
	 * Each row is stored twice (text, fields) with a NUL instead of its line
	 * ending; the 64 KiB cap keeps this small, but check anyway.
	 */
	n_rows = n_lf + 1;
	text_size = end - n_crlf + 1;
	/* what gets stored (LF endings, final newline) must fit the limit too */
	if (text_size > SBAT_CSV_MAX_SIZE)
		return text_fail(reterr, SBAT_E_TOO_BIG, "CSV larger than 64 KiB once each row ends in a newline",
		                 0, 0);
	size = offsetof(struct csv_block, entries);
	if (n_rows > (SIZE_MAX - size) / sizeof(sbat_csv_entry))
		return text_fail(reterr, SBAT_E_TOO_BIG, "CSV size overflows", 0, 0);
	size += n_rows * sizeof(sbat_csv_entry);
	if (text_size > (SIZE_MAX - size) / 2)
		return text_fail(reterr, SBAT_E_TOO_BIG, "CSV size overflows", 0, 0);
	size += 2 * text_size;

	blk = malloc(size);
	if (!blk)
		return text_fail(reterr, SBAT_E_NOMEM, "allocating parsed CSV", 0, 0);
	csv = &blk->csv;
	csv->n_entries = 0;
	csv->entries = blk->entries;
	csv->storage = (char *)(blk->entries + n_rows);
	storage = csv->storage;

	/* text_trim() left no LF at the end, so this visits exactly n_rows lines. */
	ctx.csv = csv;
	ctx.out = storage;
	r = text_for_each_line(buf, end, parse_row_cb, &ctx, reterr);
	if (r != SBAT_OK) {
		free(blk);
		return r;
	}

	*ret_csv = csv;
	return SBAT_OK;
}

sbat_csv *
sbat_csv_free(sbat_csv *csv)
{
	/* csv is the start of its block (see struct csv_block). */
	free(csv);
	return NULL;
}

sbat_err
sbat_csv_format(const sbat_csv *csv, uint8_t **ret_buf, size_t *ret_len, sbat_diag *reterr)
{
	size_t total = 0, pos = 0, i, n;
	sbat_csv *check = NULL;
	uint8_t *b;
	sbat_err r;

	if (!csv || csv->n_entries == 0 || !csv->entries)
		return text_fail(reterr, SBAT_E_CSV, "CSV is empty", 0, 0);
	for (i = 0; i < csv->n_entries; i++) {
		if (!csv->entries[i].text)
			return text_fail(reterr, SBAT_E_CSV, "CSV row has no text", 0, 0);
		n = strlen(csv->entries[i].text);
		if (n >= SIZE_MAX - total)
			return text_fail(reterr, SBAT_E_TOO_BIG, "CSV size overflows", 0, 0);
		total += n + 1;
	}
	if (total > SBAT_CSV_MAX_SIZE)
		return text_fail(reterr, SBAT_E_TOO_BIG, "CSV larger than 64 KiB", 0, 0);

	b = malloc(total);
	if (!b)
		return text_fail(reterr, SBAT_E_NOMEM, "allocating formatted CSV", 0, 0);
	for (i = 0; i < csv->n_entries; i++) {
		n = strlen(csv->entries[i].text);
		memcpy(b + pos, csv->entries[i].text, n);
		pos += n;
		b[pos++] = '\n';
	}

	/* A struct edited or built by hand must not slip bad rows past the rules. */
	r = sbat_csv_parse(b, total, &check, reterr);
	if (r != SBAT_OK) {
		free(b);
		return r;
	}
	sbat_csv_free(check);

	*ret_buf = b;
	*ret_len = total;
	return SBAT_OK;
}

static int
rows_complete(const sbat_csv *csv)
{
	size_t i;

	for (i = 0; i < csv->n_entries; i++)
		if (!csv->entries[i].text || !csv->entries[i].component_name)
			return 0;
	return 1;
}

/* Index of the non-header row of csv naming component, or 0 (the header's index) if none. */
static size_t
find_component(const sbat_csv *csv, const char *component)
{
	size_t i;

	for (i = 1; i < csv->n_entries; i++)
		if (strcmp(csv->entries[i].component_name, component) == 0)
			return i;
	return 0;
}

sbat_err
sbat_csv_merge(const sbat_csv *base, const sbat_csv *add, int force,
               uint8_t **ret_buf, size_t *ret_len, sbat_diag *reterr)
{
	sbat_csv merged;
	sbat_csv_entry *rows;
	size_t i, n;
	sbat_err r;

	if (!base || base->n_entries == 0 || !base->entries ||
	    !add || add->n_entries == 0 || !add->entries)
		return text_fail(reterr, SBAT_E_CSV, "CSV is empty", 0, 0);
	/* Structs built by hand get the same scrutiny as in sbat_csv_format. */
	if (!rows_complete(base) || !rows_complete(add))
		return text_fail(reterr, SBAT_E_CSV, "CSV row has no text", 0, 0);
	if (base->n_entries > SIZE_MAX / sizeof(*rows) ||
	    add->n_entries - 1 > SIZE_MAX / sizeof(*rows) - base->n_entries)
		return text_fail(reterr, SBAT_E_TOO_BIG, "CSV size overflows", 0, 0);
	n = base->n_entries + add->n_entries - 1;
	rows = malloc(n * sizeof(*rows));
	if (!rows)
		return text_fail(reterr, SBAT_E_NOMEM, "allocating merged CSV", 0, 0);

	/* Copies of the entries: texts still point into base and add. */
	memcpy(rows, base->entries, base->n_entries * sizeof(*rows));
	n = base->n_entries;
	for (i = 1; i < add->n_entries; i++) {
		const sbat_csv_entry *e = &add->entries[i];
		size_t at = find_component(base, e->component_name);

		if (at == 0) {
			rows[n++] = *e;
			continue;
		}
		if (strcmp(base->entries[at].text, e->text) == 0)
			continue;
		if (!force) {
			free(rows);
			if (base->entries[at].generation != e->generation)
				return text_fail(reterr, SBAT_E_CSV,
				            "component already present with a different generation",
				            e->line, 2);
			return text_fail(reterr, SBAT_E_CSV, "component already present with a different row",
			            e->line, 0);
		}
		/* In place: base's order is kept, only that row changes. */
		rows[at] = *e;
	}

	merged.n_entries = n;
	merged.entries = rows;
	merged.storage = NULL;
	/* Formatting parses the result again, so what is returned is valid .sbat. */
	r = sbat_csv_format(&merged, ret_buf, ret_len, reterr);
	free(rows);
	return r;
}
