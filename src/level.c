/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* level.c - SbatLevel policies: strict parser, reader for shim's .sbatlevel, revocation check */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/level.h"
#include "sbat/pe.h"
#include "bview.h"
#include "diag.h"
#include "text.h"

#define MAX_FIELDS 3
#define COFF_SYMBOL_SIZE 18
#define SECTION_NAME_SIZE 8

/* The 8 bytes a toolchain without long section names would leave. */
static const uint8_t truncated_name[SECTION_NAME_SIZE] = { '.', 's', 'b', 'a', 't', 'l', 'e', 'v' };

#define E_HEADER "first line must be sbat,1,YYYYMMDDCC"
#define E_DATESTAMP "datestamp is not 10 decimal digits"

/* As in csv.c: the struct, its entries and every string share one block. */
struct level_block {
	sbat_level level;
	sbat_level_entry entries[];
};

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

/* Validate the line p[0..n) (no line ending) and append it to level. */
static sbat_err
parse_line(sbat_level *level, const uint8_t *p, size_t n, unsigned line, char **out, sbat_diag *d)
{
	sbat_level_entry *e = &level->entries[level->n_entries];
	const uint8_t *f[MAX_FIELDS];
	size_t flen[MAX_FIELDS], start = 0, i;
	unsigned nf = 0;
	const char *what;
	sbat_err r;

	if (n == 0)
		return text_fail(d, SBAT_E_LEVEL, "empty line", line, 0);
	r = text_check_bytes(p, n, line, SBAT_E_LEVEL, d);
	if (r != SBAT_OK)
		return r;

	/* Split left to right so the first bad field is the one reported. */
	for (i = 0; i <= n; i++) {
		size_t len;

		if (i < n && p[i] != ',')
			continue;
		if (nf == MAX_FIELDS)
			return text_fail(d, SBAT_E_LEVEL, "more than 3 fields", line, nf + 1);
		len = i - start;
		if (len == 0)
			return text_fail(d, SBAT_E_LEVEL, "empty field", line, nf + 1);
		if (p[start] == ' ' || p[i - 1] == ' ')
			return text_fail(d, SBAT_E_LEVEL, "leading or trailing space", line, nf + 1);
		f[nf] = p + start;
		flen[nf] = len;
		nf++;
		start = i + 1;
	}
	if (nf < 2)
		return text_fail(d, SBAT_E_LEVEL, "fewer than 2 fields", line, 0);

	if (level->n_entries == 0) {
		/* shim's own generator accepts exactly this shape for the first line. */
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
		e->generation = 1;
	} else {
		what = text_parse_generation(f[1], flen[1], &e->generation);
		if (what)
			return text_fail(d, SBAT_E_LEVEL, what, line, 2);
		/* shim ignores a third field on component rows; it can only be a datestamp. */
		if (nf == 3 && !is_datestamp(f[2], flen[2]))
			return text_fail(d, SBAT_E_LEVEL, E_DATESTAMP, line, 3);
	}

	memcpy(*out, f[0], flen[0]);
	(*out)[flen[0]] = '\0';
	e->component_name = *out;
	e->line = line;
	*out += flen[0] + 1;
	level->n_entries++;
	return SBAT_OK;
}

struct line_ctx {
	sbat_level *level;
	char *out;
};

static sbat_err
parse_line_cb(void *ctx, const uint8_t *p, size_t n, unsigned line, sbat_diag *d)
{
	struct line_ctx *c = ctx;

	return parse_line(c->level, p, n, line, &c->out, d);
}

sbat_err
sbat_level_parse(const uint8_t *buf, size_t len, sbat_level **ret, sbat_diag *reterr)
{
	struct level_block *blk;
	sbat_level *level;
	const uint8_t *nul;
	size_t end, i, n_rows = 1, size;
	struct line_ctx ctx;
	char *storage;
	sbat_err r;

	if (!buf)
		len = 0;
	/* Payloads embedded in shim are C strings; the variable may carry one too. */
	nul = len ? memchr(buf, '\0', len) : NULL;
	if (nul)
		len = (size_t)(nul - buf);
	if (len > SBAT_LEVEL_MAX_SIZE)
		return text_fail(reterr, SBAT_E_TOO_BIG, "SbatLevel larger than 64 KiB", 0, 0);
	end = len ? text_trim(buf, len) : 0;
	if (end == 0)
		return text_fail(reterr, SBAT_E_LEVEL, "SbatLevel is empty", 0, 0);

	for (i = 0; i < end; i++)
		if (buf[i] == '\n')
			n_rows++;
	/*
	 * A name is at most its line, plus a NUL instead of the line ending,
	 * so end + 1 bytes hold them all. The size cap keeps this far from
	 * overflowing.
	 */
	size = offsetof(struct level_block, entries) + n_rows * sizeof(sbat_level_entry) + end + 1;

	blk = malloc(size);
	if (!blk)
		return text_fail(reterr, SBAT_E_NOMEM, "allocating parsed SbatLevel", 0, 0);
	level = &blk->level;
	memset(level->datestamp, 0, sizeof(level->datestamp));
	level->n_entries = 0;
	level->entries = blk->entries;
	level->storage = (char *)(blk->entries + n_rows);
	storage = level->storage;

	ctx.level = level;
	ctx.out = storage;
	r = text_for_each_line(buf, end, parse_line_cb, &ctx, reterr);
	if (r != SBAT_OK) {
		free(blk);
		return r;
	}

	*ret = level;
	return SBAT_OK;
}

sbat_level *
sbat_level_free(sbat_level *level)
{
	/* level is the start of its block (see struct level_block). */
	free(level);
	return NULL;
}

/*
 * Does section header s name .sbatlevel? binutils writes names longer than
 * 8 bytes as "/<decimal offset>" into the COFF string table, which follows
 * the symbol table. A name that cannot be resolved inside the file is
 * simply not .sbatlevel.
 */
static int
is_level_section(const sbat_pe *pe, bview *v, const sbat_pe_section *s)
{
	static const char long_name[] = SBAT_LEVEL_SECTION_NAME;
	const uint8_t *raw = bv_ptr(v, s->header_offset, SECTION_NAME_SIZE);
	const uint8_t *p;
	uint64_t strtab;
	uint32_t off = 0, strsize;
	size_t i;

	if (!raw)
		return 0;
	if (memcmp(raw, truncated_name, SECTION_NAME_SIZE) == 0)
		return 1;
	if (raw[0] != '/' || raw[1] < '0' || raw[1] > '9')
		return 0;
	/* At most 7 digits, then NUL padding: off stays below 10^7. */
	for (i = 1; i < SECTION_NAME_SIZE && raw[i] != '\0'; i++) {
		if (raw[i] < '0' || raw[i] > '9')
			return 0;
		off = off * 10 + (uint32_t)(raw[i] - '0');
	}
	for (; i < SECTION_NAME_SIZE; i++)
		if (raw[i] != '\0')
			return 0;

	if (pe->pointer_to_symbol_table == 0)
		return 0;
	strtab = (uint64_t)pe->pointer_to_symbol_table + (uint64_t)pe->number_of_symbols * COFF_SYMBOL_SIZE;
	if (!bv_has(v, strtab, 4))
		return 0;
	strsize = bv_le32(v, strtab);
	/* The name, NUL included, must lie inside the size the table declares. */
	if (off < 4 || off > strsize || strsize - off < sizeof(long_name))
		return 0;
	p = bv_ptr(v, strtab + off, sizeof(long_name));
	return p && memcmp(p, long_name, sizeof(long_name)) == 0;
}

sbat_err
sbat_level_from_shim(const uint8_t *image, size_t len, int which, sbat_level **ret, sbat_diag *reterr)
{
	const sbat_pe_section *s = NULL;
	const uint8_t *payload, *nul;
	uint64_t base, field, start;
	uint32_t size, mem, version, off;
	sbat_pe *pe;
	bview v;
	unsigned i;
	sbat_err r;

	if (which != SBAT_LEVEL_PREVIOUS && which != SBAT_LEVEL_LATEST)
		return diag_fail(reterr, SBAT_E_LEVEL, "unknown .sbatlevel payload selector");
	/* Several KiB: keep it off the stack, as the other callers do. */
	pe = malloc(sizeof(*pe));
	if (!pe)
		return diag_fail(reterr, SBAT_E_NOMEM, "allocating parsed image");
	r = sbat_pe_parse(image, len, pe, reterr);
	if (r != SBAT_OK)
		goto out;

	bv_init(&v, image, len);
	for (i = 0; i < pe->number_of_sections; i++) {
		if (!is_level_section(pe, &v, &pe->sections[i]))
			continue;
		/* The linker merges every input .sbatlevel; two mean a doctored image. */
		if (s) {
			r = diag_fail_at(reterr, SBAT_E_LEVEL, "more than one .sbatlevel section",
			                 pe->sections[i].header_offset);
			goto out;
		}
		s = &pe->sections[i];
	}
	if (!s) {
		r = diag_fail(reterr, SBAT_E_NO_SBATLEVEL, "image has no .sbatlevel section");
		goto out;
	}

	/* Only bytes that are both in the file and loaded with the section count. */
	size = s->size_of_raw_data;
	mem = sbat_pe_section_memory_size(s);
	if (mem < size)
		size = mem;
	base = s->pointer_to_raw_data;
	if (base == 0 || size == 0) {
		r = diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel has no file data", s->header_offset);
		goto out;
	}
	if (!bv_has(&v, base, size)) {
		r = diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel data past end of file", s->header_offset);
		goto out;
	}
	if (size < 12) {
		r = diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel shorter than its 12-byte header", base);
		goto out;
	}
	version = bv_le32(&v, base);
	if (version != 0) {
		r = diag_fail_at(reterr, SBAT_E_LEVEL, "unknown .sbatlevel format version", base);
		goto out;
	}

	/* The offsets count from byte 4, where shim's payload header symbol starts. */
	field = base + 4 + 4 * (uint64_t)which;
	off = bv_le32(&v, field);
	if (off < 8) {
		r = diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel payload offset points into its header", field);
		goto out;
	}
	if (off >= size - 4) {
		r = diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel payload offset past the section end", field);
		goto out;
	}
	start = base + 4 + off;
	payload = image + start;
	nul = memchr(payload, '\0', size - 4 - off);
	if (!nul) {
		r = diag_fail_at(reterr, SBAT_E_LEVEL, ".sbatlevel payload is not NUL-terminated", start);
		goto out;
	}
	r = sbat_level_parse(payload, (size_t)(nul - payload), ret, reterr);
out:
	free(pe);
	return r;
}

sbat_err
sbat_level_check(const sbat_level *level, const sbat_csv *csv, sbat_revocation *ret_revoked,
                 size_t max_revoked, size_t *ret_n_revoked)
{
	size_t i, j, n = 0;

	if (!level || level->n_entries == 0 || !level->entries)
		return SBAT_E_LEVEL;
	if (!csv || csv->n_entries == 0 || !csv->entries)
		return SBAT_E_CSV;
	if (max_revoked > 0 && !ret_revoked)
		return SBAT_E_LEVEL;
	/* A hand-built struct missing a name fails closed rather than passing. */
	for (j = 0; j < level->n_entries; j++)
		if (!level->entries[j].component_name)
			return SBAT_E_LEVEL;
	for (i = 0; i < csv->n_entries; i++)
		if (!csv->entries[i].component_name)
			return SBAT_E_CSV;

	for (i = 0; i < csv->n_entries; i++) {
		const sbat_csv_entry *e = &csv->entries[i];

		for (j = 0; j < level->n_entries; j++) {
			const sbat_level_entry *l = &level->entries[j];

			if (strcmp(e->component_name, l->component_name) != 0)
				continue;
			/* Only the first match counts, whatever it says (shim stops there). */
			if (e->generation < l->generation) {
				if (n < max_revoked) {
					ret_revoked[n].entry = e;
					ret_revoked[n].level = l;
				}
				n++;
			}
			break;
		}
	}
	if (ret_n_revoked)
		*ret_n_revoked = n;
	return SBAT_OK;
}
