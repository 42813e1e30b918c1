/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* report.c - the stages of every boot path walked, kept as data with their verdicts */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/bootreport.h"

#include "util/diag.h"

struct sbat_boot_report {
	sbat_boot_stage *stages;
	size_t n, cap;
	sbat_boot_outcome outcome;
};

void
sbat_boot_stage_init(sbat_boot_stage *s)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
}

sbat_err
sbat_boot_report_new(sbat_boot_report **ret, sbat_diag *d)
{
	*ret = calloc(1, sizeof(**ret));
	return *ret ? SBAT_OK : diag_fail(d, SBAT_E_NOMEM, "out of memory");
}

/* The strings of a stage, in one list, to copy and free them alike. */
static const char **
string_field(sbat_boot_stage *s, size_t i)
{
	const char **fields[] = { &s->entry,      &s->file,       &s->detail, &s->text,  &s->loader,
		                  &s->menu_entry, &s->default_by, &s->rule,   &s->config };

	return i < sizeof(fields) / sizeof(fields[0]) ? fields[i] : NULL;
}

static void
free_strings(sbat_boot_stage *s)
{
	const char **f;
	size_t i;

	for (i = 0; (f = string_field(s, i)) != NULL; i++) {
		free((char *)*f);
		*f = NULL;
	}
}

/* Copy every string of *s in place; -1 (with none left owned) when memory ran out. */
static int
own_strings(sbat_boot_stage *s)
{
	const char **f;
	size_t i, j;

	for (i = 0; (f = string_field(s, i)) != NULL; i++) {
		if (*f && !(*f = strdup(*f))) {
			for (j = 0; j < i; j++)
				free((char *)*string_field(s, j));
			return -1;
		}
	}
	return 0;
}

sbat_err
sbat_boot_report_add(sbat_boot_report *r, const sbat_boot_stage *s, sbat_diag *d)
{
	sbat_boot_stage copy;

	if (!r || !s || s->size != sizeof(*s))
		return diag_fail(d, SBAT_E_ABI, "a boot stage not made by sbat_boot_stage_init");
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		sbat_boot_stage *p;

		if (cap > SIZE_MAX / sizeof(*p) || !(p = realloc(r->stages, cap * sizeof(*p))))
			return diag_fail(d, SBAT_E_NOMEM, "out of memory");
		r->stages = p;
		r->cap = cap;
	}
	copy = *s;
	if (own_strings(&copy) != 0)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	r->stages[r->n++] = copy;
	r->outcome.n_stages = r->n;
	/* an unknown is never a yes: the path it is on does not count as booting */
	if (s->verdict == SBAT_VERDICT_UNKNOWN && s->is_default && !s->off_default)
		r->outcome.default_unknown = 1;
	else if (s->verdict == SBAT_VERDICT_UNKNOWN)
		r->outcome.other_unknown = 1;
	return SBAT_OK;
}

size_t
sbat_boot_report_count(const sbat_boot_report *r)
{
	return r ? r->n : 0;
}

const sbat_boot_stage *
sbat_boot_report_stage(const sbat_boot_report *r, size_t i)
{
	return r && i < r->n ? &r->stages[i] : NULL;
}

sbat_boot_outcome
sbat_boot_report_outcome(const sbat_boot_report *r)
{
	sbat_boot_outcome none = { 0, 0, 0 };

	return r ? r->outcome : none;
}

void
sbat_boot_report_free(sbat_boot_report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		free_strings(&r->stages[i]);
	free(r->stages);
	free(r);
}
