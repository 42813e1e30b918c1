/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* csv.c - strict parser and canonical formatter for SBAT CSV metadata */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/csv.h"
#include "util/diag.h"
#include "sbat/csv_rules.h"
#include "sbat/text.h"

/* Which rules shim's own parser (csv.c, sbat.c) enforces decides what shim refuses. */
const sbat_csv_rule csv_rules[CSV_RULE__COUNT] = {
	[CSV_RULE_FIELDS] = { "fields", "fewer than 6 fields", 1 },
	[CSV_RULE_EMPTY_FIELD] = { "empty-field", "empty field", 1 },
	[CSV_RULE_EMPTY_LINE] = { "empty-line", "empty line", 0 },
	[CSV_RULE_BYTES] = { "bytes", NULL, 0 },
	[CSV_RULE_SPACE] = { "space", "leading or trailing space", 0 },
	[CSV_RULE_GENERATION] = { "generation", NULL, 0 },
	[CSV_RULE_HEADER] = { "header", "first row must be the sbat,1 header", 0 },
	[CSV_RULE_HEADER_TWICE] = { "header-twice", "second sbat header row", 0 },
	[CSV_RULE_DUPLICATE] = { "duplicate", "duplicate component", 0 },
};

static sbat_err
rule_fail(sbat_diag *d, sbat_csv_rule_id rule, unsigned line, unsigned field)
{
	return text_fail(d, SBAT_E_CSV, csv_rules[rule].what, line, field);
}

/*
 * The rules every field of row p[0..n) (no line ending) must meet, left to
 * right so the first bad field is the one named: at least 6 fields, none
 * empty, no space at either end, the generation 1..65535.
 */
static sbat_err
check_fields(const uint8_t *p, size_t n, unsigned line, uint16_t *ret_generation, sbat_diag *d)
{
	size_t start = 0, i, commas = 0;
	unsigned field = 0;
	const char *what;
	sbat_err r;

	if (n == 0)
		return rule_fail(d, CSV_RULE_EMPTY_LINE, line, 0);
	r = text_check_bytes(p, n, line, SBAT_E_CSV, d);
	if (r != SBAT_OK)
		return r;
	for (i = 0; i < n; i++)
		commas += p[i] == ',';
	if (commas + 1 < SBAT_CSV_COLUMNS)
		return rule_fail(d, CSV_RULE_FIELDS, line, 0);
	/* extras included: a stray space or comma is a typo */
	for (i = 0; i <= n; i++) {
		if (i < n && p[i] != ',')
			continue;
		field++;
		if (i == start)
			return rule_fail(d, CSV_RULE_EMPTY_FIELD, line, field);
		if (p[start] == ' ' || p[i - 1] == ' ')
			return rule_fail(d, CSV_RULE_SPACE, line, field);
		if (field == 2 && (what = text_parse_generation(p + start, i - start, ret_generation)) != NULL)
			return text_fail(d, SBAT_E_CSV, what, line, field);
		start = i + 1;
	}
	return SBAT_OK;
}

/* Copy row p[0..n) into *out twice, as text and split on commas into e's fields. */
static void
store_row(sbat_csv_entry *e, const uint8_t *p, size_t n, char **out)
{
	char *text = *out, *fields = text + n + 1, *col[SBAT_CSV_COLUMNS];
	unsigned field = 1;
	size_t i;

	memcpy(text, p, n);
	text[n] = '\0';
	memcpy(fields, p, n);
	fields[n] = '\0';
	*out = fields + n + 1;
	col[0] = fields;
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
}

/* The sbat,1 row leads (it names the format version the other rows follow); no component twice. */
static sbat_err
check_row_order(const sbat_csv *csv, const sbat_csv_entry *e, sbat_diag *d)
{
	size_t i;

	if (csv->n_entries == 0) {
		if (strcmp(e->component_name, "sbat") != 0)
			return rule_fail(d, CSV_RULE_HEADER, e->line, 1);
		if (e->generation != 1)
			return rule_fail(d, CSV_RULE_HEADER, e->line, 2);
		return SBAT_OK;
	}
	if (strcmp(e->component_name, "sbat") == 0)
		return rule_fail(d, CSV_RULE_HEADER_TWICE, e->line, 1);
	/* Rows are few (64 KiB caps them), so a quadratic scan is fine. */
	for (i = 1; i < csv->n_entries; i++)
		if (strcmp(csv->entries[i].component_name, e->component_name) == 0)
			return rule_fail(d, CSV_RULE_DUPLICATE, e->line, 1);
	return SBAT_OK;
}

static sbat_err
parse_row(sbat_text_table *t, const uint8_t *p, size_t n, unsigned line, sbat_diag *d)
{
	sbat_csv *csv = t->block;
	sbat_csv_entry *e;
	sbat_err r;

	csv->entries = t->entries;
	e = &csv->entries[csv->n_entries];
	memset(e, 0, sizeof(*e));
	r = check_fields(p, n, line, &e->generation, d);
	if (r != SBAT_OK)
		return r;
	store_row(e, p, n, &t->storage);
	e->line = line;
	r = check_row_order(csv, e, d);
	if (r == SBAT_OK)
		csv->n_entries++;
	return r;
}

/* The struct, its entries and every string share one block: one malloc, one free. */
struct csv_block {
	sbat_csv csv;
	sbat_csv_entry entries[];
};

static const sbat_text_format csv_format = {
	SBAT_E_CSV,
	SBAT_CSV_MAX_SIZE,
	"CSV is empty",
	"CSV larger than 64 KiB",
	offsetof(struct csv_block, entries),
	sizeof(sbat_csv_entry),
	2,
	parse_row,
};

sbat_err
sbat_csv_parse(const uint8_t *buf, size_t len, sbat_csv **ret_csv, sbat_diag *reterr)
{
	sbat_text_table t;
	size_t end, i, n_crlf = 0;
	sbat_err r;

	/* what gets stored (LF endings, final newline) must fit the limit too */
	end = buf && len <= SBAT_CSV_MAX_SIZE ? text_trim(buf, len) : 0;
	for (i = 1; i < end; i++)
		n_crlf += buf[i] == '\n' && buf[i - 1] == '\r';
	if (end && end - n_crlf + 1 > SBAT_CSV_MAX_SIZE)
		return text_fail(reterr, SBAT_E_TOO_BIG, "CSV larger than 64 KiB once each row ends in a newline", 0,
		                 0);
	memset(&t, 0, sizeof(t));
	r = text_parse(buf, len, &csv_format, &t, reterr);
	if (r != SBAT_OK)
		return r;
	*ret_csv = t.block;
	(*ret_csv)->entries = t.entries;
	(*ret_csv)->storage = (char *)t.entries + t.n_rows * sizeof(sbat_csv_entry);
	return SBAT_OK;
}

/* shim's atoi: blanks skipped, then decimal digits up to the first other byte, kept in 16 bits. */
static uint16_t
shim_generation(const char *s)
{
	uint32_t v = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		v = (v * 10 + (uint32_t)(*s - '0')) & 0xffffu;
	return (uint16_t)v;
}

/*
 * The rules shim enforces (csv_rules[].shim) on row p[0..n): at least
 * 6 fields and none of the 6 it keeps empty; what follows the 6th is ignored.
 */
static sbat_err
check_shim_row(const uint8_t *p, size_t n, unsigned line, sbat_diag *d)
{
	size_t i, start = 0;
	unsigned field = 0;

	for (i = 0; i <= n && field < SBAT_CSV_COLUMNS; i++) {
		if (i < n && p[i] != ',')
			continue;
		field++;
		if (i == start)
			return rule_fail(d, CSV_RULE_EMPTY_FIELD, line, field);
		start = i + 1;
	}
	if (field < SBAT_CSV_COLUMNS)
		return rule_fail(d, CSV_RULE_FIELDS, line, 0);
	return SBAT_OK;
}

/* The row p[0..n) as shim keeps it, appended to csv (storage is at *out). */
static void
add_shim_row(sbat_csv *csv, const uint8_t *p, size_t n, unsigned line, char **out)
{
	sbat_csv_entry *e = &csv->entries[csv->n_entries++];

	memset(e, 0, sizeof(*e));
	store_row(e, p, n, out);
	e->line = line;
	e->generation = shim_generation(e->component_generation);
}

sbat_err
sbat_csv_parse_shim(const uint8_t *buf, size_t len, sbat_csv **ret_csv, sbat_diag *reterr)
{
	size_t i, pos, start, n, rows = 1;
	struct csv_block *b;
	unsigned line = 1;
	char *out;

	if (!buf)
		len = 0;
	for (i = 0; i < len; i++)
		rows += buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\0';
	/* each row costs an entry and two NULs: far below this for any file that can be mapped */
	if (len > SIZE_MAX / 256)
		return text_fail(reterr, SBAT_E_TOO_BIG, "CSV size overflows", 0, 0);
	b = malloc(sizeof(*b) + rows * sizeof(sbat_csv_entry) + 2 * (len + rows));
	if (!b)
		return text_fail(reterr, SBAT_E_NOMEM, "out of memory", 0, 0);
	b->csv.n_entries = 0;
	b->csv.entries = b->entries;
	out = (char *)(b->entries + rows);
	b->csv.storage = out;
	pos = i = len >= 3 && buf[0] == 0xef && buf[1] == 0xbb && buf[2] == 0xbf ? 3 : 0;
	/* rows as shim's parse_csv_data finds them (text_shim_row) */
	while (text_shim_row(buf, len, &pos, &start, &n)) {
		sbat_err r;

		for (; i < start; i++)
			line += buf[i] == '\n';
		r = check_shim_row(buf + start, n, line, reterr);
		if (r != SBAT_OK) {
			free(b);
			return r;
		}
		add_shim_row(&b->csv, buf + start, n, line, &out);
	}
	*ret_csv = &b->csv;
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

/* Two rows for one component: say which, and both generations. */
static sbat_err
merge_conflict(sbat_diag *d, const sbat_csv_entry *have, const sbat_csv_entry *want)
{
	int generations = have->generation != want->generation;
	sbat_err r = text_fail(d, SBAT_E_CSV,
	                       generations ? "component already present with a different "
	                                     "generation" :
	                                     "component already present with a different row",
	                       want->line, generations ? 2 : 0);

	if (d) {
		size_t n = strlen(want->component_name);

		if (n > sizeof(d->other_name) - 1)
			n = sizeof(d->other_name) - 1;
		memcpy(d->other_name, want->component_name, n);
		d->other_name[n] = '\0';
		d->existing_generation = have->generation;
		d->new_generation = want->generation;
	}
	return r;
}

sbat_err
sbat_csv_merge(const sbat_csv *base, const sbat_csv *add, int force, uint8_t **ret_buf, size_t *ret_len,
               sbat_diag *reterr)
{
	sbat_csv merged;
	sbat_csv_entry *rows;
	size_t i, n;
	sbat_err r;

	if (!base || base->n_entries == 0 || !base->entries || !add || add->n_entries == 0 || !add->entries)
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
			return merge_conflict(reterr, &base->entries[at], e);
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
