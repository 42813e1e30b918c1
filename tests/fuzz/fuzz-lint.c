/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-lint.c - libFuzzer harness: sbat_lint and the lint profiles on arbitrary images */

/*
 * Input: fuzz-edit's format (and corpus): one byte, then a PE/COFF image
 * (at most FUZZ_MAX_INPUT bytes in all; larger inputs are ignored).
 *
 * Byte 0:
 *   bit 0  the shim-review profile, with a release before and two levels
 *   bit 1  the uefi-ca profile
 *   bit 2  the release before is the image's own .sbat (as shim reads it)
 *          instead of a fixed CSV
 *   bits 3-7 unused
 *
 * Exercised: sbat_image_parse, sbat_lint, sbat_lint_profiles with every
 * rule of the profiles asked for. These must hold, or the harness aborts:
 *  - the input is unchanged;
 *  - with no profile, sbat_lint_profiles reports what sbat_lint does, in
 *    the same order, with empty subjects;
 *  - the counts equal the findings handed out;
 *  - every finding's section is -1 or a section of the image, its offset
 *    lies in the file, and a profile rule's name, severity and parties are
 *    the table's (sbat_lint_profile_rule);
 *  - a subject's row, previous row and policy row have component names.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sbat.h"

#define FUZZ_MAX_INPUT (4u * 1024u * 1024u)
#define MAX_KEPT 256

#define OP_REVIEW 0x01u
#define OP_UEFI_CA 0x02u
#define OP_OWN_PREVIOUS 0x04u

static const char previous_csv[] = SBAT_CSV_HEADER_ROW
    "\n"
    "grub,4,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n"
    "grub.debian,4,Debian,grub2,2.06-13,https://tracker.debian.org/pkg/grub2\n"
    "shim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n";
static const char level_a[] = "sbat,1,2023091900\nshim,2\ngrub,4\n";
static const char level_b[] = "sbat,1,2025051000\nshim,4\ngrub,5\ngrub.proxmox,2\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-lint: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

/* What a run handed out: the count, and the first MAX_KEPT rule names and offsets. */
typedef struct seen {
	const sbat_image *img;
	size_t len;
	unsigned n;
	const char *rule[MAX_KEPT];
	uint64_t offset[MAX_KEPT];
	int profiles; /* 0: every subject must be empty */
} seen;

static const sbat_lint_rule *
table_rule(const char *name)
{
	const sbat_lint_rule *r;
	size_t i;

	for (i = 0; (r = sbat_lint_profile_rule(i)) != NULL; i++)
		if (strcmp(r->rule, name) == 0)
			return r;
	return NULL;
}

static void
check_finding(seen *s, const sbat_lint_finding *f)
{
	if (!f->rule || !f->what)
		fail("a finding without a rule or a message");
	if (f->section < -1 || (f->section >= 0 && !sbat_image_section(s->img, (unsigned)f->section)))
		fail("a finding's section is not one of the image");
	if (f->offset > s->len)
		fail("a finding's offset past the end of the file");
	if (s->n < MAX_KEPT) {
		s->rule[s->n] = f->rule;
		s->offset[s->n] = f->offset;
	}
	s->n++;
}

static int
on_plain(void *ctx, const sbat_lint_finding *f)
{
	check_finding(ctx, f);
	return 0;
}

static int
on_subject(void *ctx, const sbat_lint_finding *f, const sbat_lint_subject *subject)
{
	seen *s = ctx;
	const sbat_lint_rule *r = table_rule(f->rule);

	check_finding(s, f);
	if (!subject || subject->size < sizeof(*subject))
		fail("a finding without its subject");
	if (subject->profile == 0 && r)
		fail("a profile rule's finding without its profile");
	if (subject->profile &&
	    (!r || r->profile != subject->profile || r->severity != f->severity || r->loaders != f->loaders))
		fail("a profile finding that is not as the rule table says");
	if (!s->profiles && (subject->profile || subject->row || subject->level))
		fail("a subject without a profile");
	if ((subject->row && !subject->row->component_name) ||
	    (subject->previous && !subject->previous->component_name) ||
	    (subject->level && (!subject->level_row || !subject->level_row->component_name)))
		fail("a subject's row without a name");
	return 0;
}

/* The image's own rows as shim reads them, or NULL. */
static sbat_csv *
own_rows(const sbat_image *img)
{
	const uint8_t *text;
	size_t n;
	sbat_csv *csv = NULL;

	if (sbat_image_sbat_data(img, &text, &n, NULL) != SBAT_OK ||
	    sbat_csv_parse_shim(text, n, &csv, NULL) != SBAT_OK)
		return NULL;
	if (csv->n_entries == 0)
		csv = sbat_csv_free(csv);
	return csv;
}

/* sbat_lint and sbat_lint_profiles without a profile agree. */
static void
check_plain(const sbat_image *img, size_t len)
{
	seen a, b;
	sbat_lint_counts ca, cb;
	unsigned i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	a.img = b.img = img;
	a.len = b.len = len;
	if (sbat_lint(img, on_plain, &a, &ca) != SBAT_OK ||
	    sbat_lint_profiles(img, NULL, on_subject, &b, &cb) != SBAT_OK)
		fail("a lint that did not run");
	if (memcmp(&ca, &cb, sizeof(ca)) != 0 || a.n != b.n || a.n != ca.errors + ca.warnings + ca.notes)
		fail("sbat_lint and sbat_lint_profiles without a profile differ");
	for (i = 0; i < a.n && i < MAX_KEPT; i++)
		if (strcmp(a.rule[i], b.rule[i]) != 0 || a.offset[i] != b.offset[i])
			fail("sbat_lint and sbat_lint_profiles report other findings");
}

static void
check_profiles(const sbat_image *img, size_t len, unsigned op)
{
	sbat_lint_opts o = SBAT_LINT_OPTS_INIT;
	sbat_level *la = NULL, *lb = NULL;
	const sbat_level *levels[2];
	sbat_csv *prev = NULL;
	sbat_lint_counts c;
	seen s;

	if (sbat_level_parse((const uint8_t *)level_a, strlen(level_a), &la, NULL) != SBAT_OK ||
	    sbat_level_parse((const uint8_t *)level_b, strlen(level_b), &lb, NULL) != SBAT_OK)
		fail("the fixed levels do not parse");
	if (op & OP_OWN_PREVIOUS)
		prev = own_rows(img);
	else if (sbat_csv_parse((const uint8_t *)previous_csv, strlen(previous_csv), &prev, NULL) != SBAT_OK)
		fail("the fixed CSV does not parse");
	levels[0] = la;
	levels[1] = lb;
	o.profiles = (op & OP_REVIEW ? SBAT_PROFILE_SHIM_REVIEW : 0) | (op & OP_UEFI_CA ? SBAT_PROFILE_UEFI_CA : 0);
	o.previous = prev;
	o.levels = levels;
	o.n_levels = 2;
	memset(&s, 0, sizeof(s));
	s.img = img;
	s.len = len;
	s.profiles = 1;
	if (sbat_lint_profiles(img, &o, on_subject, &s, &c) != SBAT_OK)
		fail("sbat_lint_profiles refused valid options");
	if (s.n != c.errors + c.warnings + c.notes)
		fail("the counts are not the findings handed out");
	sbat_csv_free(prev);
	sbat_level_free(la);
	sbat_level_free(lb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sbat_image *img = NULL;
	uint8_t *in;
	size_t len;
	unsigned op;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	op = data[0];
	len = size - 1;
	/* exactly len bytes (one when empty), so an overread is caught by the sanitizers */
	in = calloc(1, len ? len : 1);
	if (!in)
		return 0;
	if (len)
		memcpy(in, data + 1, len);
	if (sbat_image_parse(in, len, &img, NULL) == SBAT_OK) {
		check_plain(img, len);
		check_profiles(img, len, op);
		sbat_image_free(img);
	}
	if (len && memcmp(in, data + 1, len) != 0)
		fail("the input changed");
	free(in);
	return 0;
}
