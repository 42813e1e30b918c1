/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-profiles.c - the lint profiles: the rule table, each rule on an image that breaks it and one that passes */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sbat.h"

#include "fixture.h"

#define MAX_FOUND 64

#define SBAT_ROW "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
#define GRUB_ROW "grub,5,Free Software Foundation,grub,2.12,https://www.gnu.org/software/grub/\n"
#define VENDOR_ROW "grub.fxdistro,1,Fixture Distro,grub2,2.12-1fx1,https://example.invalid/grub2\n"

typedef struct seen {
	sbat_lint_finding f;
	sbat_lint_subject s;
	char row[64];      /* the subject's row name, copied: the pointers die with the callback */
	char previous[64]; /* the subject's previous row name */
} seen;

typedef struct found {
	unsigned n;
	seen f[MAX_FOUND];
} found;

static int
collect(void *ctx, const sbat_lint_finding *f, const sbat_lint_subject *s)
{
	found *fd = ctx;
	seen *x;

	assert_non_null(s);
	assert_true(s->size >= sizeof(sbat_lint_subject));
	if (fd->n == MAX_FOUND)
		return 0;
	x = &fd->f[fd->n++];
	x->f = *f;
	x->s = *s;
	snprintf(x->row, sizeof(x->row), "%s", s->row ? s->row->component_name : "");
	snprintf(x->previous, sizeof(x->previous), "%s", s->previous ? s->previous->component_name : "");
	return 0;
}

/* What a case adds to the image: the release before, the policies. */
typedef struct extras {
	const char *previous;  /* CSV text, or NULL */
	const char *levels[2]; /* SbatLevel texts, or NULL */
} extras;

static sbat_csv *
parse_csv(const char *text)
{
	sbat_csv *csv = NULL;

	assert_int_equal(sbat_csv_parse((const uint8_t *)text, strlen(text), &csv, NULL), SBAT_OK);
	return csv;
}

/* Lint spec's image with both profiles and the extras. */
static found
lint_spec(const fx_spec *spec, const extras *x, sbat_lint_counts *counts)
{
	sbat_lint_opts o = SBAT_LINT_OPTS_INIT;
	sbat_level *levels[2] = { NULL, NULL };
	const sbat_level *cl[2];
	sbat_image *img;
	uint8_t *buf;
	size_t len, i;
	found fd;

	memset(&fd, 0, sizeof(fd));
	assert_int_equal(fx_build(spec, &buf, &len), 0);
	assert_int_equal(sbat_image_parse(buf, len, &img, NULL), SBAT_OK);
	o.profiles = SBAT_PROFILE_SHIM_REVIEW | SBAT_PROFILE_UEFI_CA;
	o.previous = x && x->previous ? parse_csv(x->previous) : NULL;
	for (i = 0; x && i < 2 && x->levels[i]; i++) {
		assert_int_equal(
		    sbat_level_parse((const uint8_t *)x->levels[i], strlen(x->levels[i]), &levels[i], NULL), SBAT_OK);
		cl[i] = levels[i];
		o.n_levels = i + 1;
	}
	o.levels = cl;
	assert_int_equal(sbat_lint_profiles(img, &o, collect, &fd, counts), SBAT_OK);
	sbat_csv_free((sbat_csv *)o.previous);
	sbat_level_free(levels[0]);
	sbat_level_free(levels[1]);
	sbat_image_free(img);
	free(buf);
	return fd;
}

static const seen *
has(const found *fd, const char *rule)
{
	unsigned i;

	for (i = 0; i < fd->n; i++)
		if (strcmp(fd->f[i].f.rule, rule) == 0)
			return &fd->f[i];
	return NULL;
}

static unsigned
count(const found *fd, const char *rule)
{
	unsigned i, n = 0;

	for (i = 0; i < fd->n; i++)
		n += strcmp(fd->f[i].f.rule, rule) == 0;
	return n;
}

/* ------------------------------------------------------------ the images */

static void
release(fx_spec *spec, const char *csv)
{
	fx_variant_release(spec, csv);
}

static void
build_no_sbat(fx_spec *spec)
{
	fx_variant_release(spec, NULL);
	spec->n_sections = 3; /* .text, .rodata, .data: no .sbat, no .reloc */
	spec->reloc_dir = 0;
}

static void
build_uki(fx_spec *spec, const char *csv)
{
	fx_section s;

	fx_variant_release(spec, csv);
	memset(&s, 0, sizeof(s));
	s.name = ".linux";
	s.raw_size = 0x200;
	s.characteristics = FX_SCN_RDATA;
	assert_int_equal(fx_spec_insert_section(spec, spec->n_sections, &s), 0);
}

/* One rule: how to break it, and the passing image for it. */
typedef struct rule_case {
	const char *rule;
	void (*breaker)(fx_spec *spec, extras *x);
	void (*passer)(fx_spec *spec, extras *x); /* NULL: the release image, with the same extras */
} rule_case;

static void
b_sbat_missing(fx_spec *spec, extras *x)
{
	(void)x;
	build_no_sbat(spec);
}

static void
b_header(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, GRUB_ROW VENDOR_ROW);
}

static void
b_duplicate(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, SBAT_ROW GRUB_ROW VENDOR_ROW GRUB_ROW);
}

static void
b_vendor_row(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, SBAT_ROW GRUB_ROW);
}

static void
b_upstream_row(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, SBAT_ROW VENDOR_ROW);
}

static void
b_vendor_version(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, SBAT_ROW GRUB_ROW "grub.fxdistro,1,Fixture Distro,grub2,2.12,https://example.invalid/\n");
}

static void
b_url(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, SBAT_ROW GRUB_ROW "grub.fxdistro,1,Fixture Distro,grub2,2.12-1fx1,none\n");
}

static void
b_component_name(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, SBAT_ROW "systemd_boot,1,The systemd Developers,systemd,257,https://systemd.io/\n"
	                       "systemd_boot.fx,1,Fixture Distro,systemd,257.1-1fx1,https://example.invalid/\n");
}

static void
b_systemd_shared(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, SBAT_ROW "systemd,1,The systemd Developers,systemd,252,https://systemd.io/\n"
	                       "systemd.fx,1,Fixture Distro,systemd,252.1-1fx1,https://example.invalid/\n");
}

#define STUB_ROWS                                                                                                      \
	SBAT_ROW "systemd-stub,1,The systemd Developers,systemd,257,https://systemd.io/\n"                             \
	         "systemd-stub.fx,1,Fixture Distro,systemd,257.1-1fx1,https://example.invalid/\n"

static void
b_uki(fx_spec *spec, extras *x)
{
	(void)x;
	build_uki(spec, STUB_ROWS);
}

static void
p_uki(fx_spec *spec, extras *x)
{
	(void)x;
	build_uki(spec, STUB_ROWS "uki.fx,1,UKI for Fixture Distro,fx,1,https://example.invalid/uki\n");
}

static void
b_revoked(fx_spec *spec, extras *x)
{
	release(spec, NULL);
	x->levels[0] = "sbat,1,2099010100\ngrub,6\n";
}

static void
b_generation_lower(fx_spec *spec, extras *x)
{
	release(spec, NULL);
	x->previous = SBAT_ROW
	    "grub,6,Free Software Foundation,grub,2.14,https://www.gnu.org/software/grub/\n" VENDOR_ROW;
}

static void
b_generation_jump(fx_spec *spec, extras *x)
{
	release(spec, NULL);
	x->previous = SBAT_ROW
	    "grub,3,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n" VENDOR_ROW;
}

static void
b_component_gone(fx_spec *spec, extras *x)
{
	release(spec, NULL);
	x->previous = FX_RELEASE_CSV "grub.fxdistro12,1,Fixture Distro,grub2,2.06-1fx1,https://example.invalid/\n";
}

static void
b_generation_same(fx_spec *spec, extras *x)
{
	release(spec, NULL);
	x->previous = SBAT_ROW GRUB_ROW
	    "grub.fxdistro,1,Fixture Distro,grub2,2.12-0fx9,https://example.invalid/grub2\n";
}

/* The release before, one generation lower where it moved: what every history rule accepts. */
static void
p_history(fx_spec *spec, extras *x)
{
	release(spec, NULL);
	x->previous = SBAT_ROW
	    "grub,4,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n" VENDOR_ROW;
	x->levels[0] = "sbat,1,2025051000\nshim,4\ngrub,5\ngrub.proxmox,2\n";
}

static void
b_section_alignment(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, NULL);
	spec->file_align = 0x200;
	spec->sect_align = 0x200;
}

static void
b_write_execute(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, NULL);
	spec->sections[fx_spec_find_section(spec, ".data")].characteristics = FX_SCN_WRITE_EXECUTE;
}

static void
b_nx_compat(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, NULL);
	spec->no_nx_compat = 1;
}

static void
b_entry_point(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, NULL);
	spec->entry_section = ".rodata";
}

static void
b_relocations(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, NULL);
	spec->reloc_dir = 0;
}

static void
b_raw_page(fx_spec *spec, extras *x)
{
	(void)x;
	release(spec, NULL);
	spec->file_align = 0x200;
}

static const rule_case cases[] = {
	{ "review-sbat-missing", b_sbat_missing, NULL },
	{ "review-header", b_header, NULL },
	{ "review-duplicate", b_duplicate, NULL },
	{ "review-vendor-row", b_vendor_row, NULL },
	{ "review-upstream-row", b_upstream_row, NULL },
	{ "review-vendor-version", b_vendor_version, NULL },
	{ "review-url", b_url, NULL },
	{ "review-component-name", b_component_name, NULL },
	{ "review-systemd-shared", b_systemd_shared, NULL },
	{ "review-uki-row", b_uki, p_uki },
	{ "review-revoked", b_revoked, p_history },
	{ "review-generation-lower", b_generation_lower, p_history },
	{ "review-generation-jump", b_generation_jump, p_history },
	{ "review-component-gone", b_component_gone, p_history },
	{ "review-generation-same", b_generation_same, p_history },
	{ "uefi-ca-section-alignment", b_section_alignment, NULL },
	{ "uefi-ca-va-page-aligned", b_section_alignment, NULL },
	{ "uefi-ca-headers-executable", b_section_alignment, NULL },
	{ "uefi-ca-write-execute", b_write_execute, NULL },
	{ "uefi-ca-nx-compat", b_nx_compat, NULL },
	{ "uefi-ca-entry-point", b_entry_point, NULL },
	{ "uefi-ca-relocations", b_relocations, NULL },
	{ "uefi-ca-raw-page-aligned", b_raw_page, NULL },
};

/* ------------------------------------------------------------ tests */

/* The table: every rule named, sourced, in one profile, once; the names say the profile. */
static void
test_rule_table(void **state)
{
	const sbat_lint_rule *r;
	size_t i, j, n[2] = { 0, 0 };

	(void)state;
	for (i = 0; (r = sbat_lint_profile_rule(i)) != NULL; i++) {
		const char *prefix = r->profile == SBAT_PROFILE_UEFI_CA ? "uefi-ca-" : "review-";

		assert_true(r->profile == SBAT_PROFILE_UEFI_CA || r->profile == SBAT_PROFILE_SHIM_REVIEW);
		n[r->profile == SBAT_PROFILE_UEFI_CA]++;
		assert_memory_equal(r->rule, prefix, strlen(prefix));
		assert_true(strlen(r->summary) > 10);
		assert_true(strlen(r->source) > 10);
		assert_true(r->severity <= SBAT_LINT_ERROR);
		assert_true(r->loaders != 0);
		assert_true(r->loaders < (SBAT_LOADER_SHIM_REVIEW << 1));
		assert_true(r->loaders & (SBAT_LOADER_UEFI_CA | SBAT_LOADER_SHIM_REVIEW | SBAT_LOADER_SHIM));
		for (j = 0; j < i; j++)
			assert_string_not_equal(sbat_lint_profile_rule(j)->rule, r->rule);
	}
	assert_true(n[0] > 0 && n[1] > 0);
	assert_int_equal(i, sizeof(cases) / sizeof(cases[0]));
}

static void
test_profile_names(void **state)
{
	(void)state;
	assert_int_equal(sbat_lint_profile_by_name("shim-review"), SBAT_PROFILE_SHIM_REVIEW);
	assert_int_equal(sbat_lint_profile_by_name("uefi-ca"), SBAT_PROFILE_UEFI_CA);
	assert_int_equal(sbat_lint_profile_by_name("UEFI-CA"), 0);
	assert_int_equal(sbat_lint_profile_by_name(NULL), 0);
	assert_string_equal(sbat_lint_profile_name(SBAT_PROFILE_SHIM_REVIEW), "shim-review");
	assert_string_equal(sbat_lint_profile_name(SBAT_PROFILE_UEFI_CA), "uefi-ca");
	assert_null(sbat_lint_profile_name(0));
	assert_null(sbat_lint_profile_name(SBAT_PROFILE_UEFI_CA << 1));
	assert_string_equal(sbat_lint_loader_name(SBAT_LOADER_UEFI_CA), "uefi-ca");
	assert_string_equal(sbat_lint_loader_name(SBAT_LOADER_SHIM_REVIEW), "shim-review");
}

/* Each rule fires on its breaking image, with the table's severity and profile, and not on its passing one. */
static void
test_each_rule_breaks_and_passes(void **state)
{
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const rule_case *c = &cases[i];
		const sbat_lint_rule *r = NULL;
		extras x;
		fx_spec spec;
		found fd;
		const seen *s;

		for (k = 0; sbat_lint_profile_rule(k); k++)
			if (strcmp(sbat_lint_profile_rule(k)->rule, c->rule) == 0)
				r = sbat_lint_profile_rule(k);
		if (!r)
			fail_msg("%s is not in the rule table", c->rule);
		memset(&x, 0, sizeof(x));
		c->breaker(&spec, &x);
		fd = lint_spec(&spec, &x, NULL);
		s = has(&fd, c->rule);
		if (!s)
			fail_msg("%s did not fire on its breaking image", c->rule);
		assert_int_equal(s->f.severity, r->severity);
		assert_int_equal(s->f.loaders, r->loaders);
		assert_int_equal(s->s.profile, r->profile);
		memset(&x, 0, sizeof(x));
		if (c->passer)
			c->passer(&spec, &x);
		else
			release(&spec, NULL);
		fd = lint_spec(&spec, &x, NULL);
		if (has(&fd, c->rule))
			fail_msg("%s fired on its passing image", c->rule);
	}
}

/* The release image passes both profiles whole: no finding at all. */
static void
test_release_image_is_clean(void **state)
{
	fx_spec spec;
	extras x;
	found fd;
	sbat_lint_counts c;

	(void)state;
	memset(&x, 0, sizeof(x));
	p_history(&spec, &x);
	fd = lint_spec(&spec, &x, &c);
	if (fd.n)
		fail_msg("first finding: %s", fd.f[0].f.rule);
	assert_int_equal(c.errors + c.warnings + c.notes, 0);
}

/* No profile: the same findings, in the same order, as sbat_lint; the subjects are empty. */
static void
test_no_profile_is_sbat_lint(void **state)
{
	static const int kinds[] = { FX_PLAIN, FX_BZIMAGE_OLD, FX_BZIMAGE_NEW, FX_ARM64, FX_ZBOOT };
	size_t k;

	(void)state;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		sbat_lint_opts o = SBAT_LINT_OPTS_INIT;
		sbat_lint_counts c1, c2;
		fx_spec spec;
		sbat_image *img;
		uint8_t *buf;
		size_t len;
		found fd;

		fx_spec_init(&spec, kinds[k]);
		fx_variant_long_name(&spec); /* one finding at least */
		assert_int_equal(fx_build(&spec, &buf, &len), 0);
		assert_int_equal(sbat_image_parse(buf, len, &img, NULL), SBAT_OK);
		memset(&fd, 0, sizeof(fd));
		assert_int_equal(sbat_lint(img, NULL, NULL, &c1), SBAT_OK);
		assert_int_equal(sbat_lint_profiles(img, &o, collect, &fd, &c2), SBAT_OK);
		assert_memory_equal(&c1, &c2, sizeof(c1));
		assert_true(fd.n > 0);
		assert_int_equal(fd.f[0].s.profile, 0);
		assert_null(fd.f[0].s.row);
		assert_int_equal(sbat_lint_profiles(img, NULL, NULL, NULL, &c2), SBAT_OK);
		assert_memory_equal(&c1, &c2, sizeof(c1));
		sbat_image_free(img);
		free(buf);
	}
}

/* What the subjects carry: the rows, the previous row, the revoking level (the first of several). */
static void
test_subjects(void **state)
{
	fx_spec spec;
	extras x;
	found fd;
	const seen *s;

	(void)state;
	memset(&x, 0, sizeof(x));
	release(&spec, SBAT_ROW "grub,3,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n"
	                        "grub.fxdistro,1,Fixture Distro,grub2,2.06-1fx1,https://example.invalid/\n");
	x.levels[0] = "sbat,1,2023091900\nshim,2\ngrub,4\n";
	x.levels[1] = "sbat,1,2025021800\nshim,4\ngrub,5\n";
	x.previous = SBAT_ROW "grub,4,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n";
	fd = lint_spec(&spec, &x, NULL);
	assert_int_equal(count(&fd, "review-revoked"), 1);
	s = has(&fd, "review-revoked");
	assert_string_equal(s->row, "grub");
	assert_int_equal(s->s.level_index, 0);
	assert_non_null(s->s.level_row);
	assert_int_equal(s->f.section, 3);
	s = has(&fd, "review-generation-lower");
	assert_non_null(s);
	assert_string_equal(s->row, "grub");
	assert_string_equal(s->previous, "grub");
	/* the new vendor row is not a component that was gone: nothing was there before it */
	assert_null(has(&fd, "review-component-gone"));

	release(&spec, SBAT_ROW "Grub,5,FSF,grub,2.12,https://g.invalid/\n"
	                        "Grub.fx,1,Fx,grub2,2.12-1,https://f.invalid/\n"
	                        "shim-x64,4,UEFI shim,shim,1,https://s.invalid/\n"
	                        "shim-x64.fx,1,Fx,shim,16.1-1,https://f.invalid/\n"
	                        "sd-stub,1,systemd,systemd,257,https://s.invalid/\n"
	                        "sd-stub.fx,1,Fx,systemd,257.1-1,https://f.invalid/\n"
	                        "memtest86+,1,Memtest86+,memtest86+,7.20,https://m.invalid/\n"
	                        "memtest86+.fx,1,Fx,memtest86+,7.20-1,https://f.invalid/\n");
	memset(&x, 0, sizeof(x));
	fd = lint_spec(&spec, &x, NULL);
	assert_int_equal(count(&fd, "review-component-name"), 6);
	assert_string_equal(has(&fd, "review-component-name")->s.name, "grub");
}

/* Options from a caller built against an earlier header: fields past its size are never read. */
static void
test_short_opts(void **state)
{
	sbat_lint_opts o;
	sbat_image *img;
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	found fd;
	sbat_csv *prev = parse_csv(SBAT_ROW "grub,9,Free Software Foundation,grub,3,https://example.invalid/\n");

	(void)state;
	release(&spec, NULL);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	assert_int_equal(sbat_image_parse(buf, len, &img, NULL), SBAT_OK);
	sbat_lint_opts_init(&o);
	o.profiles = SBAT_PROFILE_SHIM_REVIEW;
	o.previous = prev;
	o.size = offsetof(sbat_lint_opts, previous);
	memset(&fd, 0, sizeof(fd));
	assert_int_equal(sbat_lint_profiles(img, &o, collect, &fd, NULL), SBAT_OK);
	assert_null(has(&fd, "review-generation-lower"));
	o.size = sizeof(o);
	memset(&fd, 0, sizeof(fd));
	assert_int_equal(sbat_lint_profiles(img, &o, collect, &fd, NULL), SBAT_OK);
	assert_non_null(has(&fd, "review-generation-lower"));
	/* levels missing while n_levels is set: refused, nothing reported */
	o.n_levels = 1;
	o.levels = NULL;
	memset(&fd, 0, sizeof(fd));
	assert_int_equal(sbat_lint_profiles(img, &o, collect, &fd, NULL), SBAT_E_LEVEL);
	assert_int_equal(fd.n, 0);
	sbat_csv_free(prev);
	sbat_image_free(img);
	free(buf);
}

/* A stopping callback stops the profiles too. */
static int
stop_first(void *ctx, const sbat_lint_finding *f, const sbat_lint_subject *s)
{
	(void)f;
	(void)s;
	(*(unsigned *)ctx)++;
	return 1;
}

static void
test_stop(void **state)
{
	sbat_lint_opts o = SBAT_LINT_OPTS_INIT;
	sbat_image *img;
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	unsigned calls = 0;

	(void)state;
	release(&spec, SBAT_ROW "grub,5,x,grub,2,none\nshim,1,x,y,z,none\n");
	spec.no_nx_compat = 1;
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	assert_int_equal(sbat_image_parse(buf, len, &img, NULL), SBAT_OK);
	o.profiles = SBAT_PROFILE_SHIM_REVIEW | SBAT_PROFILE_UEFI_CA;
	assert_int_equal(sbat_lint_profiles(img, &o, stop_first, &calls, NULL), SBAT_OK);
	assert_int_equal(calls, 1);
	sbat_image_free(img);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_table),
		cmocka_unit_test(test_profile_names),
		cmocka_unit_test(test_each_rule_breaks_and_passes),
		cmocka_unit_test(test_release_image_is_clean),
		cmocka_unit_test(test_no_profile_is_sbat_lint),
		cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_short_opts),
		cmocka_unit_test(test_stop),
	};

	return run_group(tests, NULL, NULL);
}
