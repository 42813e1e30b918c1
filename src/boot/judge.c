/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* judge.c - what shim 16.x does with one image: its .sbat found, parsed and checked as shim's sources do */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/judge.h"

#include "pe/image_internal.h"
#include "pe/layout.h"
#include "pe/model.h"
#include "util/diag.h"
#include "util/strtable.h"

/* The judgement and what it owns; the public part comes first so one pointer serves both. */
typedef struct judgement {
	sbat_judgement pub;
	sbat_csv *csv;
	sbat_revocation *revoked;
} judgement;

/*
 * The .sbat shim's verify_buffer_sbat takes: the sections named ".sbat"
 * (all 8 bytes) in table order; a second one after one was taken, or one
 * with relocations, refuses the image; one without raw data or with less
 * raw data than VirtualSize is passed over. Returns 0, or the refusal.
 */
static int
find_sbat(const sbat_pe *pe, judgement *j)
{
	unsigned i;

	j->pub.sbat_index = -1;
	for (i = 0; i < pe->number_of_sections && i < SBAT_PE_MAX_SECTIONS; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		if (memcmp(s->name, SBAT_SECTION_NAME_FIELD, SBAT_SECTION_NAME_SIZE) != 0)
			continue;
		if (j->pub.sbat_index >= 0) {
			diag_fail_at(&j->pub.sbat_error, SBAT_E_SBAT_DUPLICATE,
			             "a second .sbat section after the one shim took", s->header_offset);
			return SBAT_JUDGE_MULTIPLE;
		}
		if (s->number_of_relocations != 0 || s->pointer_to_relocations != 0) {
			diag_fail_at(&j->pub.sbat_error, SBAT_E_PE_SECTION, "the .sbat section header has relocations",
			             s->header_offset + SH_POINTER_TO_RELOCATIONS);
			return SBAT_JUDGE_RELOCATIONS;
		}
		if (s->size_of_raw_data != 0 && s->size_of_raw_data >= s->virtual_size)
			j->pub.sbat_index = (int)i;
		else
			j->pub.sbat_skipped = 1;
	}
	return 0;
}

/* Parse the taken .sbat as shim does; 0, a reason of its own, or -1 when memory ran out. */
static int
read_rows(const sbat_image *img, judgement *j)
{
	const sbat_pe_section *s;
	sbat_err r;

	if (j->pub.sbat_index < 0)
		return SBAT_JUDGE_MISSING;
	s = &img->pe.sections[j->pub.sbat_index];
	/* the parser checked the range against the file; shim reads SizeOfRawData bytes as parse_csv_data does */
	if (s->size_of_raw_data > img->len || s->pointer_to_raw_data > img->len - s->size_of_raw_data) {
		diag_fail_at(&j->pub.sbat_error, SBAT_E_PE_TRUNCATED, "section raw data past end of file",
		             s->header_offset + SH_POINTER_TO_RAW_DATA);
		return SBAT_JUDGE_UNPARSABLE;
	}
	r = sbat_csv_parse_shim(img->buf + s->pointer_to_raw_data, s->size_of_raw_data, &j->csv, &j->pub.sbat_error);
	if (r == SBAT_E_NOMEM)
		return -1;
	if (r != SBAT_OK)
		return SBAT_JUDGE_UNPARSABLE;
	j->pub.csv = j->csv;
	return j->csv->n_entries ? 0 : SBAT_JUDGE_NO_ROWS;
}

/* Every revoked row against the level, kept in the judgement. */
static sbat_err
check_rows(judgement *j, const sbat_level *level, sbat_diag *d)
{
	size_t n = 0;
	sbat_err r = sbat_level_check(level, j->csv, NULL, 0, &n, d);

	if (r != SBAT_OK || n == 0)
		return r;
	j->revoked = calloc(n, sizeof(*j->revoked));
	if (!j->revoked)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for the revoked rows");
	r = sbat_level_check(level, j->csv, j->revoked, n, &j->pub.n_revoked, d);
	j->pub.revoked = j->revoked;
	return r;
}

/* The verdict from what shim read and what it does in this boot. */
static sbat_err
decide(judgement *j, int read, const sbat_level *level, sbat_judge_shim shim, sbat_judge_call call, sbat_diag *d)
{
	sbat_judgement *p = &j->pub;
	sbat_err r;

	p->verdict = SBAT_VERDICT_BOOTS;
	if (shim == SBAT_JUDGE_SHIM_NOT_ENFORCING) {
		p->reason = SBAT_JUDGE_NOT_ENFORCED;
	} else if (shim == SBAT_JUDGE_SHIM_INSECURE) {
		p->reason = SBAT_JUDGE_INSECURE_MODE;
	} else if (shim == SBAT_JUDGE_SHIM_STOPS) {
		p->verdict = SBAT_VERDICT_REFUSED;
		p->reason = SBAT_JUDGE_SHIM_STOPPED;
	} else if (shim != SBAT_JUDGE_SHIM_ENFORCES) {
		p->verdict = SBAT_VERDICT_UNKNOWN;
		p->reason = SBAT_JUDGE_SECURE_BOOT_UNKNOWN;
	} else if (level->n_entries == 0 && (read == SBAT_JUDGE_MISSING || read == SBAT_JUDGE_UNPARSABLE)) {
		/* verify_sbat_section passes everything against an empty list before it looks at .sbat */
		p->reason = SBAT_JUDGE_NOT_REVOKED;
	} else if (read == SBAT_JUDGE_MISSING && call == SBAT_JUDGE_IN_PROTOCOL) {
		p->reason = SBAT_JUDGE_MISSING_PASSES;
	} else if (read == SBAT_JUDGE_NO_ROWS) {
		p->reason = SBAT_JUDGE_NO_ROWS;
	} else if (read != 0) {
		p->verdict = SBAT_VERDICT_REFUSED;
		p->reason = (sbat_judge_reason)read;
	} else {
		r = check_rows(j, level, d);
		if (r != SBAT_OK)
			return r;
		p->reason = p->n_revoked ? SBAT_JUDGE_REVOKED : SBAT_JUDGE_NOT_REVOKED;
		p->verdict = p->n_revoked ? SBAT_VERDICT_REFUSED : SBAT_VERDICT_BOOTS;
	}
	return SBAT_OK;
}

sbat_err
sbat_judge_image(const sbat_image *img, const sbat_level *level, sbat_judge_shim shim, sbat_judge_call call,
                 sbat_judgement **ret, sbat_diag *d)
{
	judgement *j;
	sbat_err r;
	int read;

	if (!ret)
		return diag_fail(d, SBAT_E_ABI, "no place for the judgement");
	*ret = NULL;
	if (!img)
		return diag_fail(d, SBAT_E_ABI, "no image to judge");
	if (!level && shim == SBAT_JUDGE_SHIM_ENFORCES)
		return diag_fail(d, SBAT_E_LEVEL, "no SbatLevel to judge the image by");
	j = calloc(1, sizeof(*j));
	if (!j)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for a judgement");
	j->pub.sbat_error.other_index = -1;
	read = find_sbat(&img->pe, j);
	if (read == 0)
		read = read_rows(img, j);
	r = read < 0 ? diag_fail(d, SBAT_E_NOMEM, "out of memory for the .sbat rows") :
	               decide(j, read, level, shim, call, d);
	if (r != SBAT_OK) {
		sbat_judgement_free(&j->pub);
		return r;
	}
	*ret = &j->pub;
	return SBAT_OK;
}

void
sbat_judgement_free(sbat_judgement *p)
{
	judgement *j = (judgement *)p;

	if (!j)
		return;
	sbat_csv_free(j->csv);
	free(j->revoked);
	free(j);
}

const char *
sbat_judge_verdict_name(sbat_verdict verdict)
{
	static const char *const names[] = {
		[SBAT_VERDICT_BOOTS] = "boots",
		[SBAT_VERDICT_REFUSED] = "refused",
		[SBAT_VERDICT_NOT_GOVERNED] = "not-governed",
		[SBAT_VERDICT_UNKNOWN] = "unknown",
		[SBAT_VERDICT_SKIPPED] = "skipped",
		[SBAT_VERDICT_INACTIVE] = "inactive",
	};

	return STRTABLE_NAME(names, verdict, NULL);
}

const char *
sbat_judge_reason_name(sbat_judge_reason reason)
{
	static const char *const names[] = {
		[SBAT_JUDGE_NOT_REVOKED] = "not-revoked",
		[SBAT_JUDGE_NO_ROWS] = "no-rows",
		[SBAT_JUDGE_MISSING_PASSES] = "no-sbat-passes",
		[SBAT_JUDGE_NOT_ENFORCED] = "not-enforced",
		[SBAT_JUDGE_REVOKED] = "revoked",
		[SBAT_JUDGE_MISSING] = "no-sbat",
		[SBAT_JUDGE_UNPARSABLE] = "unparsable",
		[SBAT_JUDGE_MULTIPLE] = "multiple-sbat",
		[SBAT_JUDGE_RELOCATIONS] = "sbat-relocations",
		[SBAT_JUDGE_SHIM_STOPPED] = "shim-stops",
		[SBAT_JUDGE_SECURE_BOOT_UNKNOWN] = "secure-boot-unknown",
		[SBAT_JUDGE_INSECURE_MODE] = "insecure-mode",
	};

	return STRTABLE_NAME(names, reason, NULL);
}
