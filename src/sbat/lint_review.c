/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint_review.c - the shim-review profile: the .sbat rows, their history, and the published revocations */
#include <string.h>

#include "sbat/csv.h"
#include "sbat/lint.h"

#include "pe/layout.h"
#include "sbat/level_internal.h"
#include "sbat/lint_internal.h"

/* The longest component name the look-alike check looks at; real ones are a dozen bytes. */
#define NAME_MAX_CHECKED 63

/* The rows of one image as shim reads them, and where they lie in the file. */
typedef struct review {
	linter *l;
	const sbat_lint_opts *o;
	int section;          /* the .sbat section's index, or -1 */
	uint64_t text_offset; /* the file offset of its first byte */
	const uint8_t *text;
	size_t n;
	sbat_csv *csv; /* NULL: no rows shim reads */
} review;

/* The conventional component names: shim's, GRUB's, systemd's (before and since 255), the kernel's, ukify's. */
static const char *const conventional[] = {
	"sbat", "shim", "grub", "systemd", "systemd-boot", "systemd-stub", "linux", "kernel", "uki", "uki-addon",
};

/* Spellings that mean one of them. */
static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "sd-boot", "systemd-boot" }, { "sdboot", "systemd-boot" }, { "systemdboot", "systemd-boot" },
	{ "sd-stub", "systemd-stub" }, { "sdstub", "systemd-stub" }, { "systemdstub", "systemd-stub" },
	{ "vmlinuz", "linux" },        { "vmlinux", "linux" },       { "linux-kernel", "linux" },
	{ "uki-add-on", "uki-addon" }, { "ukiaddon", "uki-addon" },
};

/* Architecture and file-type tails a build system may have glued on. */
static const char *const tails[] = { "x86-64", "x64", "ia32", "aa64", "arm64", "amd64", "riscv64", "efi" };

/* ------------------------------------------------------------ names */

/* The length of the component part of a row name: up to the first '.'. */
static size_t
base_len(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot ? (size_t)(dot - name) : strlen(name);
}

static int
is_vendor_row(const sbat_csv_entry *e)
{
	return strchr(e->component_name, '.') != NULL;
}

/* name[0..len) folded: lower case, '_' and ' ' as '-', an architecture tail and trailing digits cut. */
static void
fold_name(const char *name, size_t len, char *out)
{
	size_t i, t;

	for (i = 0; i < len; i++) {
		char c = name[i];

		out[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c == '_' || c == ' ' ? '-' : c;
	}
	out[len] = '\0';
	for (t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		size_t k = strlen(tails[t]);

		if (len > k && strcmp(out + len - k, tails[t]) == 0) {
			len -= k;
			break;
		}
	}
	while (len > 1 && (out[len - 1] == '-' || (out[len - 1] >= '0' && out[len - 1] <= '9')))
		len--;
	out[len] = '\0';
}

/* The conventional name name[0..len) is a look-alike of, or NULL (for a conventional or an unrelated name). */
static const char *
lookalike(const char *name, size_t len)
{
	char folded[NAME_MAX_CHECKED + 1];
	const char *found = NULL;
	size_t i;

	if (len == 0 || len > NAME_MAX_CHECKED)
		return NULL;
	fold_name(name, len, folded);
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(folded, aliases[i].alias) == 0)
			found = aliases[i].name;
	for (i = 0; !found && i < sizeof(conventional) / sizeof(conventional[0]); i++)
		if (strcmp(folded, conventional[i]) == 0)
			found = conventional[i];
	if (found && strlen(found) == len && memcmp(found, name, len) == 0)
		return NULL;
	return found;
}

/* "scheme:rest", as a URL or a mail: address starts. */
static int
looks_like_url(const char *s)
{
	size_t i = 0;

	if (!((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	while (s[i] && s[i] != ':') {
		char c = s[i++];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' ||
		      c == '-' || c == '.'))
			return 0;
	}
	return s[i] == ':' && s[i + 1] != '\0';
}

static int
has_digit(const char *s)
{
	return strpbrk(s, "0123456789") != NULL;
}

/* ------------------------------------------------------------ rows */

/* The row named exactly name[0..len), or NULL. */
static const sbat_csv_entry *
find_row(const sbat_csv *csv, const char *name, size_t len)
{
	size_t i;

	for (i = 0; csv && i < csv->n_entries; i++)
		if (strlen(csv->entries[i].component_name) == len &&
		    memcmp(csv->entries[i].component_name, name, len) == 0)
			return &csv->entries[i];
	return NULL;
}

/* 1 when some row is a vendor row of component name[0..len): "NAME.something". */
static int
has_vendor_row(const sbat_csv *csv, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < csv->n_entries; i++) {
		const char *c = csv->entries[i].component_name;

		if (strncmp(c, name, len) == 0 && c[len] == '.' && c[len + 1] != '\0')
			return 1;
	}
	return 0;
}

/* The file offset of the start of row e's line. */
static uint64_t
row_offset(const review *r, const sbat_csv_entry *e)
{
	unsigned line = 1;
	size_t i;

	for (i = 0; i < r->n && line < e->line; i++)
		line += r->text[i] == '\n';
	return r->text_offset + i;
}

static void
row_report(review *r, lint_rule_id id, const char *what, const sbat_csv_entry *e, const char *name)
{
	sbat_lint_subject s = lint_subject(id);

	s.row = e;
	s.name = name;
	lint_rule_report(r->l, id, what, r->section, row_offset(r, e), &s);
}

/* The first row: sbat,1. */
static void
check_header(review *r)
{
	const sbat_csv_entry *e = r->csv->n_entries ? &r->csv->entries[0] : NULL;

	if (!e)
		lint_rule_report(r->l, RULE_REVIEW_HEADER, ".sbat holds no row", r->section, r->text_offset, NULL);
	else if (strcmp(e->component_name, "sbat") != 0)
		row_report(r, RULE_REVIEW_HEADER, "the first row is not the sbat row", e, NULL);
	else if (e->generation != 1)
		row_report(r, RULE_REVIEW_HEADER, "the sbat row's generation is not 1", e, NULL);
}

/* Rules on one row against the others: duplicates, vendor and upstream rows, the vendor's version. */
static void
check_row_relations(review *r, size_t i)
{
	const sbat_csv *csv = r->csv;
	const sbat_csv_entry *e = &csv->entries[i], *up;
	size_t len = base_len(e->component_name);

	if (find_row(csv, e->component_name, strlen(e->component_name)) != e)
		row_report(r, RULE_REVIEW_DUPLICATE, "the component is named by an earlier row too", e, NULL);
	if (!is_vendor_row(e)) {
		if (strcmp(e->component_name, "sbat") != 0 && !has_vendor_row(csv, e->component_name, len))
			row_report(r, RULE_REVIEW_VENDOR_ROW, "no vendor row COMPONENT.VENDOR follows this component",
			           e, NULL);
		return;
	}
	up = find_row(csv, e->component_name, len);
	if (!up && !(len == 3 && strncmp(e->component_name, "uki", 3) == 0))
		row_report(r, RULE_REVIEW_UPSTREAM_ROW, "the vendor row's component has no row of its own", e, NULL);
	if (up && strcmp(up->vendor_version, e->vendor_version) == 0)
		row_report(r, RULE_REVIEW_VENDOR_VERSION,
		           "the vendor row's version is its component row's, not the vendor's package version", e,
		           NULL);
	else if (!has_digit(e->vendor_version))
		row_report(r, RULE_REVIEW_VENDOR_VERSION, "the vendor row's version field holds no version number", e,
		           NULL);
}

/* Rules on one row alone: its URL and its name. */
static void
check_row_fields(review *r, const sbat_csv_entry *e)
{
	const char *like = lookalike(e->component_name, base_len(e->component_name));

	if (!looks_like_url(e->vendor_url))
		row_report(r, RULE_REVIEW_URL, "vendor_url is not a URL", e, NULL);
	if (like)
		row_report(r, RULE_REVIEW_COMPONENT_NAME,
		           "the component name looks like a conventional one but is not it: a revocation of that "
		           "one misses this row",
		           e, like);
	if (strcmp(e->component_name, "systemd") == 0)
		row_report(r, RULE_REVIEW_SYSTEMD_SHARED,
		           "systemd before 255 names systemd-boot and systemd-stub alike: neither can be revoked "
		           "without the other",
		           e, NULL);
}

/* A unified kernel image (systemd-stub with a .linux section) names itself a UKI. */
static void
check_uki(review *r)
{
	const sbat_pe *pe = r->l->pe;
	size_t i;

	if (pe_find_section(pe, r->l->buf, r->l->len, ".linux") < 0)
		return;
	for (i = 0; i < r->csv->n_entries; i++)
		if (base_len(r->csv->entries[i].component_name) == 3 &&
		    strncmp(r->csv->entries[i].component_name, "uki", 3) == 0)
			return;
	lint_rule_report(r->l, RULE_REVIEW_UKI_ROW, "a unified kernel image without a uki or uki.VENDOR row",
	                 r->section, r->text_offset, NULL);
}

/* ------------------------------------------------------------ history and revocations */

/* Each row against the policies: the first that revokes it. */
static void
check_revoked(review *r)
{
	size_t i, k;

	for (i = 0; i < r->csv->n_entries; i++) {
		const sbat_csv_entry *e = &r->csv->entries[i];

		for (k = 0; k < r->o->n_levels; k++) {
			const sbat_level_entry *m = level_first_match(r->o->levels[k], e->component_name);
			sbat_lint_subject s = lint_subject(RULE_REVIEW_REVOKED);

			if (!m || e->generation >= m->generation)
				continue;
			s.row = e;
			s.level = r->o->levels[k];
			s.level_row = m;
			s.level_index = k;
			lint_rule_report(r->l, RULE_REVIEW_REVOKED,
			                 "the row's generation is below a policy's: shim holding it refuses the image",
			                 r->section, row_offset(r, e), &s);
			break;
		}
	}
}

/* One row against its component's row in the release before. */
static void
check_against_previous(review *r, const sbat_csv_entry *e, const sbat_csv_entry *p)
{
	sbat_lint_subject s;
	lint_rule_id id;
	const char *what;

	if (e->generation < p->generation) {
		id = RULE_REVIEW_GENERATION_LOWER;
		what = "the generation is lower than in the release before: generations never go back";
	} else if (e->generation > p->generation + 1u) {
		id = RULE_REVIEW_GENERATION_JUMP;
		what = "the generation rose by more than one since the release before: say why";
	} else if (is_vendor_row(e) && e->generation == p->generation && strcmp(e->vendor_version, p->vendor_version)) {
		id = RULE_REVIEW_GENERATION_SAME;
		what = "the vendor row's version changed but its generation did not";
	} else {
		return;
	}
	s = lint_subject(id);
	s.row = e;
	s.previous = p;
	lint_rule_report(r->l, id, what, r->section, row_offset(r, e), &s);
}

/* Every component against the release before; a component it had and this one lacks. */
static void
check_previous(review *r)
{
	const sbat_csv *prev = r->o->previous;
	size_t i;

	for (i = 0; r->csv && i < r->csv->n_entries; i++) {
		const sbat_csv_entry *e = &r->csv->entries[i];
		const sbat_csv_entry *p = find_row(prev, e->component_name, strlen(e->component_name));

		if (p)
			check_against_previous(r, e, p);
	}
	for (i = 0; i < prev->n_entries; i++) {
		const sbat_csv_entry *p = &prev->entries[i];
		sbat_lint_subject s = lint_subject(RULE_REVIEW_COMPONENT_GONE);

		if (find_row(r->csv, p->component_name, strlen(p->component_name)))
			continue;
		s.previous = p;
		lint_rule_report(r->l, RULE_REVIEW_COMPONENT_GONE,
		                 "a component of the release before is not named any more", r->section,
		                 r->section >= 0 ? r->text_offset : r->l->pe->section_table_offset, &s);
	}
}

/* ------------------------------------------------------------ the profile */

/* The .sbat as shim reads it; 0 when there is none it reads, or shim cannot parse it. */
static int
read_rows(review *r)
{
	const sbat_pe *pe = r->l->pe;
	const sbat_pe_section *s;
	const uint8_t *nul;

	if (pe->sbat_count != 1 || pe->sbat_ignored)
		return 0;
	s = &pe->sections[pe->sbat_index];
	r->section = pe->sbat_index;
	r->text_offset = s->pointer_to_raw_data;
	r->text = pe_section_raw(pe, r->l->buf, r->l->len, (unsigned)pe->sbat_index, &r->n);
	if (!r->text)
		return 0;
	nul = memchr(r->text, '\0', r->n);
	r->n = nul ? (size_t)(nul - r->text) : r->n;
	return sbat_csv_parse_shim(r->text, r->n, &r->csv, NULL) == SBAT_OK;
}

void
lint_shim_review(linter *l, const sbat_lint_opts *opts)
{
	const sbat_pe *pe = l->pe;
	review r;
	size_t i;

	memset(&r, 0, sizeof(r));
	r.l = l;
	r.o = opts;
	r.section = -1;
	if (!read_rows(&r)) {
		/* shim refuses a .sbat it cannot parse on its own: the loader rules said so */
		if (pe->sbat_count == 1 && !pe->sbat_ignored)
			return;
		if (pe->sbat_count == 0 || pe->sbat_ignored) {
			if (pe->kind == SBAT_KIND_EFI_APP)
				lint_rule_report(l, RULE_REVIEW_SBAT_MISSING, "no .sbat that shim reads", -1,
				                 pe->section_table_offset, NULL);
			if (opts->previous)
				check_previous(&r);
		}
		return;
	}
	check_header(&r);
	for (i = 0; i < r.csv->n_entries; i++) {
		check_row_relations(&r, i);
		check_row_fields(&r, &r.csv->entries[i]);
	}
	check_uki(&r);
	check_revoked(&r);
	if (opts->previous)
		check_previous(&r);
	sbat_csv_free(r.csv);
}
