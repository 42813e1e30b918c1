/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-judge.c - sbat_judge_image: what shim 16.x does with one image, case by case from its sources */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdlib.h>
#include <string.h>

#include "sbat/judge.h"
#include "fixture.h"

#define LEVEL "sbat,1,2025021800\nshim,4\ngrub,5\n"
#define SBAT_ROW "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
#define GRUB5 SBAT_ROW "grub,5,Free Software Foundation,grub,2.12,https://www.gnu.org/software/grub/\n"
#define GRUB4 SBAT_ROW "grub,4,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n"

/* How the image's .sbat sections are laid out. */
enum layout {
	ONE,              /* one .sbat holding text */
	NONE,             /* no .sbat */
	RAW_ZERO,         /* one .sbat without raw data */
	RAW_SHORT,        /* one .sbat with SizeOfRawData below VirtualSize */
	SHORT_THEN_GOOD,  /* a passed-over .sbat, then one holding text */
	GOOD_THEN_SECOND, /* one holding text, then a second */
	RELOCATIONS,      /* one holding text whose header has relocations */
};

typedef struct jcase {
	const char *name;
	enum layout layout;
	const char *text;
	size_t text_len; /* 0: strlen */
	sbat_judge_shim shim;
	sbat_judge_call call;
	sbat_verdict verdict;
	sbat_judge_reason reason;
	size_t n_revoked;
	const char *revoked; /* the first revoked row's component */
	int sbat_skipped;
	unsigned error_line; /* UNPARSABLE: the line shim's parser stopped at */
} jcase;

static const jcase cases[] = {
	{ "grub,5 is not revoked by grub,5", ONE, GRUB5, 0, SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_STARTED_BY_SHIM,
	  SBAT_VERDICT_BOOTS, SBAT_JUDGE_NOT_REVOKED, 0, NULL, 0, 0 },
	{ "grub,4 is revoked by grub,5", ONE, GRUB4, 0, SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_IN_PROTOCOL,
	  SBAT_VERDICT_REFUSED, SBAT_JUDGE_REVOKED, 1, "grub", 0, 0 },
	{ "a vendor field with byte 0xE9 is read as shim reads it", ONE,
	  SBAT_ROW "grub,5,Free Software Foundati\xe9n,grub,2.12,https://www.gnu.org/software/grub/\n", 0,
	  SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_STARTED_BY_SHIM, SBAT_VERDICT_BOOTS, SBAT_JUDGE_NOT_REVOKED, 0, NULL, 0,
	  0 },
	{ "rows after a NUL are not read", ONE, GRUB5 "\0grub,1,x,y,z,w\n", sizeof(GRUB5 "\0grub,1,x,y,z,w\n") - 1,
	  SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_STARTED_BY_SHIM, SBAT_VERDICT_BOOTS, SBAT_JUDGE_NOT_REVOKED, 0, NULL, 0,
	  0 },
	{ "no .sbat: shim refuses what it starts itself", NONE, NULL, 0, SBAT_JUDGE_SHIM_ENFORCES,
	  SBAT_JUDGE_STARTED_BY_SHIM, SBAT_VERDICT_REFUSED, SBAT_JUDGE_MISSING, 0, NULL, 0, 0 },
	{ "no .sbat: passes in protocol", NONE, NULL, 0, SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_IN_PROTOCOL,
	  SBAT_VERDICT_BOOTS, SBAT_JUDGE_MISSING_PASSES, 0, NULL, 0, 0 },
	{ "a .sbat without raw data is passed over", RAW_ZERO, NULL, 0, SBAT_JUDGE_SHIM_ENFORCES,
	  SBAT_JUDGE_STARTED_BY_SHIM, SBAT_VERDICT_REFUSED, SBAT_JUDGE_MISSING, 0, NULL, 1, 0 },
	{ "a .sbat with less raw data than VirtualSize is passed over", RAW_SHORT, GRUB5, 0, SBAT_JUDGE_SHIM_ENFORCES,
	  SBAT_JUDGE_IN_PROTOCOL, SBAT_VERDICT_BOOTS, SBAT_JUDGE_MISSING_PASSES, 0, NULL, 1, 0 },
	{ "after a passed-over .sbat, the next one is taken", SHORT_THEN_GOOD, GRUB4, 0, SBAT_JUDGE_SHIM_ENFORCES,
	  SBAT_JUDGE_IN_PROTOCOL, SBAT_VERDICT_REFUSED, SBAT_JUDGE_REVOKED, 1, "grub", 1, 0 },
	{ "a second .sbat after the one taken is refused", GOOD_THEN_SECOND, GRUB5, 0, SBAT_JUDGE_SHIM_ENFORCES,
	  SBAT_JUDGE_IN_PROTOCOL, SBAT_VERDICT_REFUSED, SBAT_JUDGE_MULTIPLE, 0, NULL, 0, 0 },
	{ "a .sbat with relocations is refused", RELOCATIONS, GRUB5, 0, SBAT_JUDGE_SHIM_ENFORCES,
	  SBAT_JUDGE_IN_PROTOCOL, SBAT_VERDICT_REFUSED, SBAT_JUDGE_RELOCATIONS, 0, NULL, 0, 0 },
	{ "a .sbat of line ends only has no rows, which pass", ONE, "\r\n\n", 0, SBAT_JUDGE_SHIM_ENFORCES,
	  SBAT_JUDGE_STARTED_BY_SHIM, SBAT_VERDICT_BOOTS, SBAT_JUDGE_NO_ROWS, 0, NULL, 0, 0 },
	{ "a .sbat of zeros has no rows, which pass", ONE, "", 0, SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_STARTED_BY_SHIM,
	  SBAT_VERDICT_BOOTS, SBAT_JUDGE_NO_ROWS, 0, NULL, 0, 0 },
	{ "a row of five fields is refused", ONE, SBAT_ROW "grub,5,Free Software Foundation,grub,2.12\n", 0,
	  SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_IN_PROTOCOL, SBAT_VERDICT_REFUSED, SBAT_JUDGE_UNPARSABLE, 0, NULL, 0,
	  2 },
	{ "an empty field is refused", ONE, SBAT_ROW "grub,5,,grub,2.12,https://www.gnu.org/software/grub/\n", 0,
	  SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_IN_PROTOCOL, SBAT_VERDICT_REFUSED, SBAT_JUDGE_UNPARSABLE, 0, NULL, 0,
	  2 },
	{ "Secure Boot off: shim checks nothing", ONE, GRUB4, 0, SBAT_JUDGE_SHIM_NOT_ENFORCING,
	  SBAT_JUDGE_STARTED_BY_SHIM, SBAT_VERDICT_BOOTS, SBAT_JUDGE_NOT_ENFORCED, 0, NULL, 0, 0 },
	{ "shim in insecure mode: a revoked image boots", ONE, GRUB4, 0, SBAT_JUDGE_SHIM_INSECURE,
	  SBAT_JUDGE_STARTED_BY_SHIM, SBAT_VERDICT_BOOTS, SBAT_JUDGE_INSECURE_MODE, 0, NULL, 0, 0 },
	{ "shim stops: nothing starts", ONE, GRUB5, 0, SBAT_JUDGE_SHIM_STOPS, SBAT_JUDGE_IN_PROTOCOL,
	  SBAT_VERDICT_REFUSED, SBAT_JUDGE_SHIM_STOPPED, 0, NULL, 0, 0 },
	{ "Secure Boot not known: unknown, never boots", ONE, GRUB5, 0, SBAT_JUDGE_SHIM_UNKNOWN, SBAT_JUDGE_IN_PROTOCOL,
	  SBAT_VERDICT_UNKNOWN, SBAT_JUDGE_SECURE_BOOT_UNKNOWN, 0, NULL, 0, 0 },
};

/* A .sbat section holding the case's text. */
static void
sbat_with_text(fx_section *s, const jcase *c)
{
	fx_sbat_section(s, c->text ? c->text : "");
	s->content_len = c->text_len;
}

/* The image of a case. */
static uint8_t *
build(const jcase *c, size_t *len)
{
	fx_spec spec;
	fx_section s;
	uint8_t *buf = NULL;

	fx_spec_init(&spec, FX_PLAIN);
	sbat_with_text(&s, c);
	if (c->layout == RAW_ZERO) {
		s.raw_size = 0;
		s.content = NULL;
	} else if (c->layout == RAW_SHORT || c->layout == SHORT_THEN_GOOD) {
		s.raw_size = 0x200;
		s.virtual_size = 0x400;
	}
	if (c->layout != NONE)
		assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	if (c->layout == SHORT_THEN_GOOD || c->layout == GOOD_THEN_SECOND) {
		sbat_with_text(&s, c);
		assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	}
	assert_int_equal(fx_build(&spec, &buf, len), 0);
	if (c->layout == RELOCATIONS) {
		/* NumberOfRelocations (offset 32) of the last section header */
		size_t h = fx_section_table_offset(buf) + 40u * (spec.n_sections - 1);

		fx_put16(buf + h + 32, 1);
	}
	return buf;
}

static void
check_case(const jcase *c)
{
	sbat_level *level = NULL;
	sbat_image *img = NULL;
	sbat_judgement *j = NULL;
	sbat_diag d;
	size_t len = 0;
	uint8_t *buf = build(c, &len);

	print_message("case: %s\n", c->name);
	assert_int_equal(sbat_level_parse((const uint8_t *)LEVEL, strlen(LEVEL), &level, &d), SBAT_OK);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	assert_int_equal(sbat_judge_image(img, level, c->shim, c->call, &j, &d), SBAT_OK);
	assert_non_null(j);
	assert_int_equal(j->verdict, c->verdict);
	assert_int_equal(j->reason, c->reason);
	assert_int_equal(j->n_revoked, c->n_revoked);
	assert_int_equal(j->sbat_skipped, c->sbat_skipped);
	if (c->revoked) {
		assert_string_equal(j->revoked[0].entry->component_name, c->revoked);
		assert_int_equal(j->revoked[0].entry->generation, 4);
		assert_int_equal(j->revoked[0].level->generation, 5);
	}
	if (c->reason == SBAT_JUDGE_UNPARSABLE) {
		assert_int_equal(j->sbat_error.code, SBAT_E_CSV);
		assert_int_equal(j->sbat_error.line, c->error_line);
		assert_null(j->csv);
	}
	if (c->reason == SBAT_JUDGE_MULTIPLE || c->reason == SBAT_JUDGE_RELOCATIONS)
		assert_int_equal(j->sbat_error.has_offset, 1);
	sbat_judgement_free(j);
	sbat_image_free(img);
	sbat_level_free(level);
	free(buf);
}

static void
test_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
}

/* The rows are read whatever shim does: a caller may name the image's components. */
static void
test_rows_read_when_not_enforcing(void **state)
{
	sbat_image *img = NULL;
	sbat_judgement *j = NULL;
	size_t len = 0;
	uint8_t *buf = build(&cases[1], &len);

	(void)state;
	assert_int_equal(sbat_image_parse(buf, len, &img, NULL), SBAT_OK);
	assert_int_equal(
	    sbat_judge_image(img, NULL, SBAT_JUDGE_SHIM_NOT_ENFORCING, SBAT_JUDGE_STARTED_BY_SHIM, &j, NULL), SBAT_OK);
	assert_non_null(j->csv);
	assert_int_equal(j->csv->n_entries, 2);
	assert_string_equal(j->csv->entries[1].component_name, "grub");
	assert_int_equal(j->sbat_index, (int)sbat_image_get_info(img)->sbat_index);
	sbat_judgement_free(j);
	sbat_image_free(img);
	free(buf);
}

static void
test_no_level_to_enforce(void **state)
{
	sbat_image *img = NULL;
	sbat_judgement *j = (sbat_judgement *)&j;
	sbat_diag d;
	size_t len = 0;
	uint8_t *buf = build(&cases[0], &len);

	(void)state;
	assert_int_equal(sbat_image_parse(buf, len, &img, NULL), SBAT_OK);
	assert_int_equal(sbat_judge_image(img, NULL, SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_IN_PROTOCOL, &j, &d),
	                 SBAT_E_LEVEL);
	assert_null(j);
	assert_int_equal(sbat_judge_image(NULL, NULL, SBAT_JUDGE_SHIM_NOT_ENFORCING, SBAT_JUDGE_IN_PROTOCOL, &j, &d),
	                 SBAT_E_ABI);
	sbat_judgement_free(NULL);
	sbat_image_free(img);
	free(buf);
}

static void
test_names(void **state)
{
	int r;

	(void)state;
	assert_string_equal(sbat_judge_verdict_name(SBAT_VERDICT_BOOTS), "boots");
	assert_string_equal(sbat_judge_verdict_name(SBAT_VERDICT_REFUSED), "refused");
	assert_string_equal(sbat_judge_verdict_name(SBAT_VERDICT_NOT_GOVERNED), "not-governed");
	assert_string_equal(sbat_judge_verdict_name(SBAT_VERDICT_UNKNOWN), "unknown");
	assert_null(sbat_judge_verdict_name((sbat_verdict)99));
	for (r = SBAT_JUDGE_NOT_REVOKED; r <= SBAT_JUDGE_INSECURE_MODE; r++)
		assert_non_null(sbat_judge_reason_name((sbat_judge_reason)r));
	assert_string_equal(sbat_judge_reason_name(SBAT_JUDGE_MULTIPLE), "multiple-sbat");
	assert_null(sbat_judge_reason_name((sbat_judge_reason)(SBAT_JUDGE_INSECURE_MODE + 1)));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_rows_read_when_not_enforcing),
		cmocka_unit_test(test_no_level_to_enforce),
		cmocka_unit_test(test_names),
	};

	return run_group(tests, NULL, NULL);
}
