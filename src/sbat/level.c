/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* level.c - SbatLevel policies: strict parser, reader for shim's .sbatlevel, revocation check */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/level.h"
#include "util/bview.h"
#include "util/diag.h"
#include "pe/image_internal.h"
#include "sbat/level_internal.h"
#include "sbat/text.h"

#define MAX_FIELDS 3

/* The 8 bytes a toolchain without long section names would leave. */
#define TRUNCATED_NAME ".sbatlev"

#define E_HEADER "first line must be sbat,1,YYYYMMDDCC"
#define E_DATESTAMP "datestamp is not 10 decimal digits"

static int
is_datestamp(const uint8_t *p, size_t n)
{
	size_t i;

	if (n != SBAT_LEVEL_DATESTAMP_LEN)
		return 0;
	for (i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return 0;
	return 1;
}

static int
field_is(const uint8_t *p, size_t n, const char *s)
{
	return n == strlen(s) && memcmp(p, s, n) == 0;
}

/* Split line p[0..n) into at most 3 fields, left to right so the first bad field is the one reported. */
static sbat_err
split_fields(const uint8_t *p, size_t n, unsigned line, const uint8_t **f, size_t *flen, unsigned *ret_nf, sbat_diag *d)
{
	size_t start = 0, i;
	unsigned nf = 0;
	sbat_err r;

	if (n == 0)
		return text_fail(d, SBAT_E_LEVEL, "empty line", line, 0);
	r = text_check_bytes(p, n, line, SBAT_E_LEVEL, d);
	if (r != SBAT_OK)
		return r;
	for (i = 0; i <= n; i++) {
		if (i < n && p[i] != ',')
			continue;
		if (nf == MAX_FIELDS)
			return text_fail(d, SBAT_E_LEVEL, "more than 3 fields", line, nf + 1);
		if (i == start)
			return text_fail(d, SBAT_E_LEVEL, "empty field", line, nf + 1);
		if (p[start] == ' ' || p[i - 1] == ' ')
			return text_fail(d, SBAT_E_LEVEL, "leading or trailing space", line, nf + 1);
		f[nf] = p + start;
		flen[nf] = i - start;
		nf++;
		start = i + 1;
	}
	if (nf < 2)
		return text_fail(d, SBAT_E_LEVEL, "fewer than 2 fields", line, 0);
	*ret_nf = nf;
	return SBAT_OK;
}

/* The first line: exactly "sbat,1,YYYYMMDDCC", as shim's own generator accepts it. */
static sbat_err
parse_header(sbat_level *level, const uint8_t **f, const size_t *flen, unsigned nf, unsigned line, sbat_diag *d)
{
	if (!field_is(f[0], flen[0], "sbat"))
		return text_fail(d, SBAT_E_LEVEL, E_HEADER, line, 1);
	if (!field_is(f[1], flen[1], "1"))
		return text_fail(d, SBAT_E_LEVEL, E_HEADER, line, 2);
	if (nf < 3)
		return text_fail(d, SBAT_E_LEVEL, E_HEADER, line, 0);
	if (!is_datestamp(f[2], flen[2]))
		return text_fail(d, SBAT_E_LEVEL, E_DATESTAMP, line, 3);
	memcpy(level->datestamp, f[2], SBAT_LEVEL_DATESTAMP_LEN);
	level->datestamp[SBAT_LEVEL_DATESTAMP_LEN] = '\0';
	return SBAT_OK;
}

/* Validate line p[0..n) (no line ending) and append it to the level. */
static sbat_err
parse_line(sbat_text_table *t, const uint8_t *p, size_t n, unsigned line, sbat_diag *d)
{
	sbat_level *level = t->block;
	sbat_level_entry *e;
	const uint8_t *f[MAX_FIELDS];
	size_t flen[MAX_FIELDS];
	unsigned nf = 0;
	const char *what;
	sbat_err r;

	level->entries = t->entries;
	e = &level->entries[level->n_entries];
	r = split_fields(p, n, line, f, flen, &nf, d);
	if (r == SBAT_OK && level->n_entries == 0) {
		r = parse_header(level, f, flen, nf, line, d);
		e->generation = 1;
	} else if (r == SBAT_OK) {
		what = text_parse_generation(f[1], flen[1], &e->generation);
		if (what)
			return text_fail(d, SBAT_E_LEVEL, what, line, 2);
		/* shim ignores a third field on component rows; it can only be a datestamp. */
		if (nf == 3 && !is_datestamp(f[2], flen[2]))
			return text_fail(d, SBAT_E_LEVEL, E_DATESTAMP, line, 3);
	}
	if (r != SBAT_OK)
		return r;
	memcpy(t->storage, f[0], flen[0]);
	t->storage[flen[0]] = '\0';
	e->component_name = t->storage;
	e->line = line;
	t->storage += flen[0] + 1;
	level->n_entries++;
	return SBAT_OK;
}

/* As for CSV: the struct, its entries and every string share one block. */
struct level_block {
	sbat_level level;
	sbat_level_entry entries[];
};

static const sbat_text_format level_format = {
	SBAT_E_LEVEL,
	SBAT_LEVEL_MAX_SIZE,
	"SbatLevel is empty",
	"SbatLevel larger than 64 KiB",
	offsetof(struct level_block, entries),
	sizeof(sbat_level_entry),
	1,
	parse_line,
};

/* 1 when shim's parse_csv_data finds a row of buf[0..len) at or after offset at (a NUL there it passes over). */
static int
row_after(const uint8_t *buf, size_t len, size_t at)
{
	size_t pos = 0, start = 0, n;

	while (text_shim_row(buf, len, &pos, &start, &n))
		if (start >= at)
			return 1;
	return 0;
}

sbat_err
sbat_level_parse(const uint8_t *buf, size_t len, sbat_level **ret, sbat_diag *reterr)
{
	sbat_text_table t;
	const uint8_t *nul;
	sbat_err r;

	if (!buf)
		len = 0;
	/* Payloads embedded in shim are C strings; the variable may carry one too. */
	nul = len ? memchr(buf, '\0', len) : NULL;
	if (nul && row_after(buf, len, (size_t)(nul - buf)))
		return text_fail(reterr, SBAT_E_LEVEL, "a row after a NUL, which shim reads on to", 0, 0);
	if (nul)
		len = (size_t)(nul - buf);
	memset(&t, 0, sizeof(t));
	r = text_parse(buf, len, &level_format, &t, reterr);
	if (r != SBAT_OK)
		return r;
	*ret = t.block;
	(*ret)->entries = t.entries;
	(*ret)->storage = (char *)t.entries + t.n_rows * sizeof(sbat_level_entry);
	return SBAT_OK;
}

/* shim's atoi (Cryptlib's AsciiStrDecimalToUintn): blanks, then zeros skipped, the digits up to any other byte; UINT16. */
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
 * One row p[0..n) as shim's parse_csv_line and parse_sbat_var_data take it:
 * up to 3 comma-separated fields, at least 2, none of them empty; what
 * follows a third field is ignored. Sets f/flen and *ret_nf.
 */
static sbat_err
shim_fields(const uint8_t *p, size_t n, unsigned line, const uint8_t **f, size_t *flen, unsigned *ret_nf, sbat_diag *d)
{
	size_t i, start = 0;
	unsigned nf = 0;

	for (i = 0; i <= n && nf < MAX_FIELDS; i++) {
		if (i < n && p[i] != ',')
			continue;
		f[nf] = p + start;
		flen[nf] = i - start;
		nf++;
		start = i + 1;
	}
	/* a lone field is no token at all for shim's strntoken; either way the row has fewer than 2 */
	if (nf < 2)
		return text_fail(d, SBAT_E_LEVEL, "fewer than 2 fields", line, 0);
	for (i = 0; i < nf; i++)
		if (flen[i] == 0)
			return text_fail(d, SBAT_E_LEVEL, "empty field", line, (unsigned)i + 1);
	*ret_nf = nf;
	return SBAT_OK;
}

/* Append row p[0..n) to level (its strings at *out); the first row's third field is its datestamp when 10 digits. */
static sbat_err
shim_add_row(sbat_level *level, const uint8_t *p, size_t n, unsigned line, char **out, sbat_diag *d)
{
	sbat_level_entry *e = &level->entries[level->n_entries];
	const uint8_t *f[MAX_FIELDS];
	size_t flen[MAX_FIELDS];
	unsigned nf = 0;
	sbat_err r = shim_fields(p, n, line, f, flen, &nf, d);

	if (r != SBAT_OK)
		return r;
	if (level->n_entries == 0 && nf == 3 && is_datestamp(f[2], flen[2]))
		memcpy(level->datestamp, f[2], SBAT_LEVEL_DATESTAMP_LEN);
	memcpy(*out, f[0], flen[0]);
	(*out)[flen[0]] = '\0';
	e->component_name = *out;
	*out += flen[0] + 1;
	memcpy(*out, f[1], flen[1]);
	(*out)[flen[1]] = '\0';
	e->generation = shim_generation(*out);
	e->line = line;
	level->n_entries++;
	return SBAT_OK;
}

/* Lines before buf[pos], as the strict parser counts them (LF ends a line). */
static unsigned
count_lines(const uint8_t *buf, size_t from, size_t to, unsigned line)
{
	for (; from < to; from++)
		line += buf[from] == '\n';
	return line;
}

sbat_err
sbat_level_parse_shim(const uint8_t *buf, size_t len, sbat_level **ret, sbat_diag *reterr)
{
	struct level_block *b;
	size_t i, pos, start, n, rows = 1;
	unsigned line = 1;
	char *out;
	sbat_err r = SBAT_OK;

	if (!buf || len == 0)
		return text_fail(reterr, SBAT_E_LEVEL, "SbatLevel is empty", 0, 0);
	if (len > SBAT_LEVEL_MAX_SIZE)
		return text_fail(reterr, SBAT_E_TOO_BIG, "SbatLevel larger than 64 KiB", 0, 0);
	for (i = 0; i < len; i++)
		rows += buf[i] == '\r' || buf[i] == '\n' || buf[i] == '\0';
	/* entries, then each row's two strings with their NULs: at most len + 2 * rows bytes */
	b = malloc(sizeof(*b) + rows * sizeof(sbat_level_entry) + len + 2 * rows);
	if (!b)
		return text_fail(reterr, SBAT_E_NOMEM, "out of memory", 0, 0);
	memset(&b->level, 0, sizeof(b->level));
	b->level.entries = b->entries;
	out = b->level.storage = (char *)(b->entries + rows);
	pos = len >= 3 && buf[0] == 0xef && buf[1] == 0xbb && buf[2] == 0xbf ? 3 : 0;
	i = pos;
	while (r == SBAT_OK && text_shim_row(buf, len, &pos, &start, &n)) {
		line = count_lines(buf, i, start, line);
		i = start;
		r = shim_add_row(&b->level, buf + start, n, line, &out, reterr);
	}
	if (r != SBAT_OK) {
		free(b);
		return r;
	}
	*ret = &b->level;
	return SBAT_OK;
}

sbat_level *
sbat_level_free(sbat_level *level)
{
	/* level is the start of its block (see struct level_block). */
	free(level);
	return NULL;
}

/* 1 if section i is .sbatlevel: by its long name, or the 8 bytes a toolchain without long names leaves. */
static int
is_level_section(const sbat_image *img, unsigned i)
{
	return pe_section_name_is(&img->pe, img->buf, img->len, i, SBAT_LEVEL_SECTION_NAME) ||
	       pe_section_name_is(&img->pe, img->buf, img->len, i, TRUNCATED_NAME);
}

/* The index of the one .sbatlevel section of the image, or an error. */
static sbat_err
find_level_section(const sbat_image *img, unsigned *ret, sbat_diag *d)
{
	const sbat_pe *pe = &img->pe;
	unsigned i;
	int found = -1;

	for (i = 0; i < pe->number_of_sections; i++) {
		if (!is_level_section(img, i))
			continue;
		/* The linker merges every input .sbatlevel; two mean a doctored image. */
		if (found >= 0)
			return diag_fail_at(d, SBAT_E_LEVEL, "more than one .sbatlevel section",
			                    pe->sections[i].header_offset);
		found = (int)i;
	}
	if (found < 0)
		return diag_fail(d, SBAT_E_NO_SBATLEVEL, "image has no .sbatlevel section");
	*ret = (unsigned)found;
	return SBAT_OK;
}

sbat_err
sbat_level_from_shim(const sbat_image *img, int which, sbat_level **ret, sbat_diag *reterr)
{
	const uint8_t *payload, *nul;
	uint64_t base, field, start, header;
	uint32_t size, version, off;
	unsigned i;
	bview v;
	sbat_err r;

	if (which != SBAT_LEVEL_PREVIOUS && which != SBAT_LEVEL_LATEST)
		return diag_fail(reterr, SBAT_E_LEVEL, "unknown .sbatlevel payload selector");
	r = find_level_section(img, &i, reterr);
	if (r != SBAT_OK)
		return r;

	/* Only bytes that are both in the file and loaded with the section count. */
	pe_section_file_range(&img->pe, i, &base, &size);
	header = img->pe.sections[i].header_offset;
	bv_init(&v, img->buf, img->len);
	if (base == 0 || size == 0)
		return diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel has no file data", header);
	if (!bv_has(&v, base, size))
		return diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel data past end of file", header);
	if (size < 12)
		return diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel shorter than its 12-byte header", base);
	version = bv_le32(&v, base);
	if (version != 0)
		return diag_fail_at(reterr, SBAT_E_LEVEL, "unknown .sbatlevel format version", base);

	/* The offsets count from byte 4, where shim's payload header symbol starts. */
	field = base + 4 + 4 * (uint64_t)which;
	off = bv_le32(&v, field);
	if (off < 8)
		return diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel payload offset points into its header", field);
	if (off >= size - 4)
		return diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel payload offset past the section end", field);
	start = base + 4 + off;
	payload = img->buf + start;
	nul = memchr(payload, '\0', size - 4 - off);
	if (!nul)
		return diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel payload is not NUL-terminated", start);
	return sbat_level_parse_shim(payload, (size_t)(nul - payload), ret, reterr);
}

sbat_err
sbat_level_from_efivar(const uint8_t *buf, size_t len, uint32_t *ret_attributes, sbat_level **ret, sbat_diag *reterr)
{
	bview v;

	if (!buf || len < SBAT_EFIVAR_ATTRIBUTES_SIZE)
		return diag_fail_at(reterr, SBAT_E_LEVEL, "variable shorter than its 4 attribute bytes", 0);
	bv_init(&v, buf, len);
	if (ret_attributes)
		*ret_attributes = bv_le32(&v, 0);
	return sbat_level_parse_shim(buf + SBAT_EFIVAR_ATTRIBUTES_SIZE, len - SBAT_EFIVAR_ATTRIBUTES_SIZE, ret, reterr);
}

const sbat_level_entry *
level_first_match(const sbat_level *level, const char *name)
{
	size_t j;

	for (j = 0; j < level->n_entries; j++)
		if (strcmp(name, level->entries[j].component_name) == 0)
			return &level->entries[j];
	return NULL;
}

sbat_err
sbat_level_check(const sbat_level *level, const sbat_csv *csv, sbat_revocation *ret_revoked, size_t max_revoked,
                 size_t *ret_n_revoked, sbat_diag *reterr)
{
	size_t i, j, n = 0;

	if (!level || (level->n_entries > 0 && !level->entries))
		return diag_fail(reterr, SBAT_E_LEVEL, "SbatLevel is empty");
	if (!csv || csv->n_entries == 0 || !csv->entries)
		return diag_fail(reterr, SBAT_E_CSV, "CSV is empty");
	if (max_revoked > 0 && !ret_revoked)
		return diag_fail(reterr, SBAT_E_LEVEL, "no room given for the revoked rows");
	/* A hand-built struct missing a name fails closed rather than passing. */
	for (j = 0; j < level->n_entries; j++)
		if (!level->entries[j].component_name)
			return diag_fail(reterr, SBAT_E_LEVEL, "SbatLevel entry without a component name");
	for (i = 0; i < csv->n_entries; i++)
		if (!csv->entries[i].component_name)
			return diag_fail(reterr, SBAT_E_CSV, "CSV row without a component name");

	for (i = 0; i < csv->n_entries; i++) {
		const sbat_csv_entry *e = &csv->entries[i];
		/* Only the first match counts, whatever it says (shim stops there). */
		const sbat_level_entry *l = level_first_match(level, e->component_name);

		if (l && e->generation < l->generation) {
			if (n < max_revoked) {
				ret_revoked[n].entry = e;
				ret_revoked[n].level = l;
			}
			n++;
		}
	}
	if (ret_n_revoked)
		*ret_n_revoked = n;
	return SBAT_OK;
}
