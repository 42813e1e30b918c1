/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* plan_uki.c - the whole plan of an edit: the .sbat plan, and what it does to a UKI's PCR 11 and .pcrsig */
#include <stdlib.h>
#include <string.h>

#include "sbat/edit.h"

#include "util/diag.h"
#include "pe/image_internal.h"
#include "edit/edit_opts.h"
#include "edit/plan_uki.h"
#include "uki/uki_model.h"

/* Section i of the view taken out (the ones after it move down). */
static void
drop_section(sbat_uki *v, unsigned i)
{
	memmove(&v->sec[i], &v->sec[i + 1], (v->n - i - 1) * sizeof(v->sec[0]));
	v->n--;
}

static void
rename_section(sbat_uki *v, unsigned i, const char *name)
{
	memcpy(v->sec[i].name, name, 8);
}

/* The new .sbat as the plan lays it out: payload, then zeros up to its raw size. */
static void
set_new_sbat(uki_sec *s, const sbat_edit_report *r, const uint8_t *payload, size_t payload_len)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->name, ".sbat\0\0", 8);
	s->virtual_size = r->virtual_size;
	s->virtual_address = r->virtual_address;
	s->raw_size = r->size_of_raw_data;
	s->mem = payload;
	s->mem_len = payload_len;
	s->origin = -1;
}

/*
 * The sections of the planned output, from the input's (`before`, already
 * copied into v) and the plan's report: first what happens to .pcrsig (a
 * removed one is the last section; retired ones are renamed), then what
 * happens to .sbat. The data that moved still has the same bytes.
 */
static void
apply_plan(sbat_uki *v, const plan *p, const uint8_t *payload, size_t payload_len)
{
	const sbat_edit_report *r = &p->report;
	unsigned i;

	if (r->uki & SBAT_EDIT_PCRSIG_REMOVED)
		drop_section(v, v->n - 1u);
	for (i = 0; i < v->n && i < SBAT_PE_MAX_SECTIONS; i++)
		if (p->dropped[i])
			rename_section(v, i, SBAT_RETIRED_PCRSIG_NAME);
	switch (r->action) {
	case SBAT_ACTION_RELOCATE:
		rename_section(v, (unsigned)r->retired_index, SBAT_RETIRED_SECTION_NAME);
		set_new_sbat(&v->sec[v->n++], r, payload, payload_len);
		break;
	case SBAT_ACTION_INSERT: set_new_sbat(&v->sec[v->n++], r, payload, payload_len); break;
	case SBAT_ACTION_REPLACE:
	case SBAT_ACTION_GROW: set_new_sbat(&v->sec[r->section_index], r, payload, payload_len); break;
	case SBAT_ACTION_REMOVE: drop_section(v, r->section_index); break;
	case SBAT_ACTION_RETIRE: rename_section(v, r->section_index, SBAT_RETIRED_SECTION_NAME); break;
	}
	v->size_of_image = r->new_size_of_image;
}

/* The output of plan p as a UKI view (the caller knows the input is one). 1, or -1 out of memory. */
static int
view_after(const sbat_uki *before, const plan *p, const uint8_t *payload, size_t payload_len, sbat_uki *after)
{
	memcpy(after, before, sizeof(*after));
	after->sel = NULL;
	after->pcr = NULL;
	after->owned = NULL;
	after->predicted = 0;
	after->n_profiles = 0;
	after->has_version = 0;
	after->major = 0;
	apply_plan(after, p, payload, payload_len);
	return uki_analyse(after) == 1 ? 1 : -1;
}

/* The report's bits for the input alone. */
static uint32_t
input_bits(const sbat_pe *pe, int *ret_pcrsig)
{
	uint32_t bits = SBAT_EDIT_UKI;
	unsigned i;

	*ret_pcrsig = -1;
	for (i = 0; i < pe->number_of_sections; i++) {
		if (memcmp(pe->sections[i].name, ".pcrsig", 8) == 0 && *ret_pcrsig < 0) {
			*ret_pcrsig = (int)i;
			bits |= SBAT_EDIT_HAS_PCRSIG;
		}
		if (memcmp(pe->sections[i].name, ".pcrpkey", 8) == 0)
			bits |= SBAT_EDIT_HAS_PCRPKEY;
	}
	return bits;
}

/* The refusal: the section that changes, the policy that would no longer match. */
static sbat_err
refuse(const sbat_pe *pe, unsigned kind, int sec, sbat_diag *d)
{
	const char *what = "the UKI's .pcrsig signs its PCR 11 values, and this edit changes what systemd-stub "
	                   "measures into PCR 11: the signed PCR 11 policy would no longer match, and secrets "
	                   "sealed to it would not unlock";

	if (sec >= 0)
		return diag_fail_other(d, SBAT_E_PCRSIG, what, pe->sections[sec].header_offset, sec,
		                       uki_kind_name(kind));
	return diag_fail_other(d, SBAT_E_PCRSIG, what, pe->section_table_end, (int)pe->number_of_sections,
	                       uki_kind_name(kind));
}

/*
 * A stub with profiles (257+) gives the sections after a .profile to that
 * profile. A new or moved .sbat is appended after the last section: in a
 * multi-profile UKI that is inside the last profile, which alone would
 * measure it. ukify places .sbat before the first .profile, and a header
 * there would move the headers after it: the edit is refused, naming that
 * .profile.
 */
static sbat_err
check_new_sbat_place(const plan *p, const sbat_uki *after, sbat_diag *d)
{
	unsigned i;

	if (after->n_profiles == 0 ||
	    (p->report.action != SBAT_ACTION_INSERT && p->report.action != SBAT_ACTION_RELOCATE))
		return SBAT_OK;
	for (i = 0; i < after->n && memcmp(after->sec[i].name, ".profile", 8) != 0; i++)
		;
	if (i == after->n || after->sec[i].origin < 0)
		return SBAT_OK;
	return diag_fail_other(d, SBAT_E_NO_HEADER_ROOM,
	                       "no room for the new .sbat's section header before the UKI's first .profile, where "
	                       "ukify places it, without moving the headers after it; appended after the last "
	                       "profile's sections it would belong to that profile alone, and systemd-stub 257 and "
	                       "later would measure it only when that profile boots (rebuild the UKI with ukify)",
	                       after->sec[i].header_offset, after->sec[i].origin, ".profile");
}

/* The first .profile of a UKI whose stub boots profiles (257 on), else -1: where its base sections end. */
static int
profile_start(const sbat_uki *uki)
{
	unsigned i;

	if (uki->n_profiles == 0)
		return -1;
	for (i = 0; i < uki->n && memcmp(uki->sec[i].name, ".profile", 8) != 0; i++)
		;
	return i < uki->n ? (int)i : -1;
}

/* Does the plan change PCR 11, and what then: refuse, keep .pcrsig, or drop it. */
static sbat_err
judge(const sbat_pe *pe, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
      const sbat_edit_opts *opts, plan *p, sbat_uki *before, sbat_uki *after, sbat_diag *d)
{
	uint32_t bits;
	unsigned kind;
	int sec, pcrsig, changed;
	sbat_err err = SBAT_OK;

	if (view_after(before, p, payload, payload_len, after) < 0)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	err = check_new_sbat_place(p, after, d);
	if (err)
		return err;
	bits = input_bits(pe, &pcrsig);
	changed = compare_pcr11_changes(before, after, &kind, &sec);
	if (changed)
		bits |= SBAT_EDIT_PCR11_CHANGED;
	if (changed && (bits & SBAT_EDIT_HAS_PCRSIG)) {
		if (opts->pcrsig == SBAT_PCRSIG_KEEP)
			bits |= SBAT_EDIT_PCRSIG_KEPT;
		else if (opts->pcrsig == SBAT_PCRSIG_DROP)
			err = plan_drop_pcrsig(pe, in, in_len, payload, payload_len, opts, profile_start(before), p, d);
		else
			err = refuse(pe, kind, sec, d);
	}
	p->report.uki |= bits;
	p->report.pcrsig_index = pcrsig;
	return err;
}

/*
 * The .sbat plan (plan_core), told where a UKI's base sections end, then
 * for a UKI what it does to PCR 11 and .pcrsig (judge).
 */
sbat_err
plan_build(const sbat_pe *pe, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
           const sbat_edit_opts *opts, plan *p, sbat_diag *d)
{
	static const sbat_edit_opts defaults;
	sbat_uki *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	sbat_err err;
	int r = -1;

	if (!opts)
		opts = &defaults;
	if (before && after)
		r = uki_from_pe(before, pe, in, in_len);
	if (r < 0) {
		memset(p, 0, sizeof(*p));
		err = diag_fail(d, SBAT_E_NOMEM, "out of memory");
	} else {
		err = plan_core(pe, in, in_len, payload, payload_len, opts, r == 1 ? profile_start(before) : -1, p, d);
	}
	if (!err && r == 1)
		err = judge(pe, in, in_len, payload, payload_len, opts, p, before, after, d);
	sbat_uki_free(before);
	sbat_uki_free(after);
	return err;
}

/* The planned output of `img` as a UKI, sections of new data pointing into a copy of payload. */
static sbat_err
predict_view(const sbat_image *img, const plan *p, const uint8_t *payload, size_t payload_len, sbat_uki **ret,
             sbat_diag *d)
{
	sbat_uki *before = calloc(1, sizeof(*before)), *after = calloc(1, sizeof(*after));
	uint8_t *copy = malloc(payload_len ? payload_len : 1);
	int r = -1;

	if (before && after && copy) {
		if (payload_len)
			memcpy(copy, payload, payload_len);
		r = uki_from_pe(before, &img->pe, img->buf, img->len);
		if (r == 1)
			r = view_after(before, p, copy, payload_len, after);
	}
	sbat_uki_free(before);
	if (r == 1) {
		after->owned = copy;
		*ret = after;
		return SBAT_OK;
	}
	free(copy);
	sbat_uki_free(after);
	return r < 0 ? diag_fail(d, SBAT_E_NOMEM, "out of memory") : SBAT_OK;
}

sbat_err
sbat_edit_predict_uki(const sbat_image *img, const uint8_t *payload, size_t payload_len, const sbat_edit_opts *opts,
                      sbat_uki **ret, sbat_diag *d)
{
	sbat_edit_opts o;
	plan *p = calloc(1, sizeof(*p));
	sbat_err err;

	*ret = NULL;
	if (!p)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	err = edit_normalize_opts(opts, &o, d);
	if (!err)
		err = plan_build(&img->pe, img->buf, img->len, payload, payload_len, &o, p, d);
	if (!err && (p->report.uki & SBAT_EDIT_UKI))
		err = predict_view(img, p, payload, payload_len, ret, d);
	plan_release(p);
	free(p);
	return err;
}
