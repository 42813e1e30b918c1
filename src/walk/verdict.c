/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* verdict.c - shim's check of one image (sbat_judge_image) in the next boot, as a line's verdict and words */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/boot.h"
#include "sbat/csv.h"
#include "sbat/error.h"
#include "sbat/judge.h"
#include "sbat/level.h"
#include "sbat/nextstate.h"

#include "walk/verdict.h"
#include "walk/walk.h"

/* 1 when the level in text (len bytes; NULL: none) parses and revokes a row of csv. */
static int
level_revokes(const uint8_t *text, size_t len, const sbat_csv *csv)
{
	sbat_level *level = NULL;
	sbat_revocation r;
	size_t nr = 0;
	sbat_diag d;
	int revokes;

	if (!text || sbat_level_parse_shim(text, len, &level, &d) != SBAT_OK)
		return 0;
	revokes = sbat_level_check(level, csv, &r, 1, &nr, &d) == SBAT_OK && nr > 0;
	sbat_level_free(level);
	return revokes;
}

/*
 * What else fixes a refusal: when SbatPolicy asked for shim's latest payload
 * and neither the stored level nor the automatic payload revokes the image,
 * withdrawing that request keeps it bootable. 1 when that is so.
 */
static int
pending_latest(const sbat_next_state *n, const sbat_csv *csv)
{
	const sbat_next_step *s = &n->boot[0].builtin;

	if (s->choice != SBAT_NEXT_CHOSE_LATEST || s->rule != SBAT_NEXT_REPLACED || !n->automatic)
		return 0;
	return !level_revokes(n->in[0].current, n->in[0].current_len, csv) &&
	       !level_revokes((const uint8_t *)n->automatic, strlen(n->automatic), csv);
}

/* What decided, as data: the reason, the rows of a revocation, what put the level's row there. */
static void
judged_keys(const walk *w, const sbat_next_state *n, const sbat_judgement *j, judged *out)
{
	const sbat_revocation *r = j->n_revoked ? &j->revoked[0] : NULL;

	out->judge_reason = (int)j->reason;
	out->level = n->level[0] ? n->level[0]->datestamp : NULL;
	out->diag = j->sbat_error;
	if (j->reason != SBAT_JUDGE_REVOKED || !r)
		return;
	snprintf(out->revoked, sizeof(out->revoked), "%.580s,%u", r->entry->component_name,
	         (unsigned)r->entry->generation);
	snprintf(out->revoked_by, sizeof(out->revoked_by), "%.580s,%u", r->level->component_name,
	         (unsigned)r->level->generation);
	if (!w->o->explain || w->o->explain(r->level->component_name, r->level->generation, out->explain,
	                                    sizeof(out->explain) - 2, w->o->explain_ctx) != 0)
		out->explain[0] = '\0';
	out->latest_pending = pending_latest(n, j->csv);
}

sbat_verdict
verdict_judge_image(const walk *w, const sbat_next_state *n, const image *im, int in_protocol, judged *out)
{
	sbat_judgement *j = NULL;
	sbat_verdict v;

	memset(out, 0, sizeof(*out));
	out->judge_reason = -1;
	if (sbat_judge_image(im->img, n->level[0], walk_shim_state(w, sbat_next_state_judge_shim(n)),
	                     in_protocol ? SBAT_JUDGE_IN_PROTOCOL : SBAT_JUDGE_STARTED_BY_SHIM, &j,
	                     &out->diag) != SBAT_OK)
		return SBAT_VERDICT_UNKNOWN;
	judged_keys(w, n, j, out);
	v = j->verdict;
	sbat_judgement_free(j);
	return v;
}

void
verdict_keys(const judged *j, sbat_boot_stage *st)
{
	st->judge_reason = j->judge_reason;
	st->revoked = j->revoked[0] ? j->revoked : NULL;
	st->revoked_by = j->revoked_by[0] ? j->revoked_by : NULL;
	st->explain = j->explain[0] ? j->explain : NULL;
	st->latest_pending = j->latest_pending;
	st->level = j->level;
	st->diag = j->diag;
}
