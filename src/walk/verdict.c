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
 * withdrawing that request keeps it bootable.
 */
static const char *
pending_latest_hint(const sbat_next_state *n, const sbat_csv *csv)
{
	const sbat_next_step *s = &n->boot[0].builtin;

	if (s->choice != SBAT_NEXT_CHOSE_LATEST || s->rule != SBAT_NEXT_REPLACED || !n->automatic)
		return "";
	if (level_revokes(n->in[0].current, n->in[0].current_len, csv) ||
	    level_revokes((const uint8_t *)n->automatic, strlen(n->automatic), csv))
		return "";
	return "; SbatPolicy latest is pending: without it shim's automatic level would let it boot "
	       "(mokutil --set-sbat-policy delete)";
}

/* The refusal of a revoked row, what put it there, and what else fixes it. */
static void
revoked_text(const walk *w, const sbat_next_state *n, const sbat_judgement *j, char *why, size_t why_size)
{
	const sbat_revocation *r = &j->revoked[0];
	char past[400];

	past[0] = '\0';
	if (w->o->explain && w->o->explain(r->level->component_name, r->level->generation, past + 2, sizeof(past) - 2,
	                                   w->o->explain_ctx) == 0)
		memcpy(past, "; ", 2);
	else
		past[0] = '\0';
	snprintf(why, why_size, "refused: %s,%u is below %s,%u (SbatLevel %s%s); install one with %s,%u or later%s",
	         r->entry->component_name, (unsigned)r->entry->generation, r->level->component_name,
	         (unsigned)r->level->generation, n->level[0]->datestamp, past, r->level->component_name,
	         (unsigned)r->level->generation, pending_latest_hint(n, j->csv));
}

/* The line's text from the verdict word on. */
static void
judgement_text(const walk *w, const sbat_next_state *n, const sbat_judgement *j, char *why, size_t why_size)
{
	const sbat_diag *e = &j->sbat_error;

	switch (j->reason) {
	case SBAT_JUDGE_NOT_REVOKED:
		snprintf(why, why_size, "boots: not revoked by SbatLevel %s", n->level[0]->datestamp);
		break;
	case SBAT_JUDGE_NO_ROWS: snprintf(why, why_size, "boots: its .sbat holds no row shim reads"); break;
	case SBAT_JUDGE_MISSING_PASSES: snprintf(why, why_size, "boots: no .sbat, which this check lets pass"); break;
	case SBAT_JUDGE_NOT_ENFORCED:
		snprintf(why, why_size, "boots: Secure Boot is off, so shim checks no SBAT");
		break;
	case SBAT_JUDGE_REVOKED: revoked_text(w, n, j, why, why_size); break;
	case SBAT_JUDGE_MISSING:
		snprintf(why, why_size, "refused: no .sbat, which shim requires of what it starts itself");
		break;
	case SBAT_JUDGE_UNPARSABLE:
	case SBAT_JUDGE_MULTIPLE:
	case SBAT_JUDGE_RELOCATIONS:
		snprintf(why, why_size, "refused: shim cannot use its .sbat (%s)",
		         e->what ? e->what : sbat_strerror(e->code));
		break;
	case SBAT_JUDGE_SHIM_STOPPED: snprintf(why, why_size, "refused: shim stops before starting it"); break;
	case SBAT_JUDGE_SECURE_BOOT_UNKNOWN:
		snprintf(why, why_size, "unknown: whether Secure Boot is on is not known");
		break;
	}
}

/* What decided, as data: the reason, and the rows of a revocation. */
static void
judged_keys(const sbat_next_state *n, const sbat_judgement *j, judged *out)
{
	out->judge_reason = (int)j->reason;
	out->level = n->level[0] ? n->level[0]->datestamp : NULL;
	if (j->reason != SBAT_JUDGE_REVOKED || j->n_revoked == 0)
		return;
	snprintf(out->revoked, sizeof(out->revoked), "%.80s,%u", j->revoked[0].entry->component_name,
	         (unsigned)j->revoked[0].entry->generation);
	snprintf(out->revoked_by, sizeof(out->revoked_by), "%.80s,%u", j->revoked[0].level->component_name,
	         (unsigned)j->revoked[0].level->generation);
}

enum stage_verdict
verdict_judge_image(const walk *w, const sbat_next_state *n, const image *im, int in_protocol, char *why,
                    size_t why_size, judged *out)
{
	static const enum stage_verdict verdicts[] = {
		[SBAT_VERDICT_BOOTS] = STAGE_BOOTS,
		[SBAT_VERDICT_REFUSED] = STAGE_REFUSED,
		[SBAT_VERDICT_NOT_GOVERNED] = STAGE_NOT_GOVERNED,
		[SBAT_VERDICT_UNKNOWN] = STAGE_UNKNOWN,
	};
	sbat_judgement *j = NULL;
	enum stage_verdict v;
	sbat_diag d;

	memset(out, 0, sizeof(*out));
	out->judge_reason = -1;
	if (sbat_judge_image(im->img, n->level[0], sbat_next_state_judge_shim(n),
	                     in_protocol ? SBAT_JUDGE_IN_PROTOCOL : SBAT_JUDGE_STARTED_BY_SHIM, &j, &d) != SBAT_OK) {
		snprintf(why, why_size, "unknown: %s", d.what ? d.what : sbat_strerror(d.code));
		return STAGE_UNKNOWN;
	}
	judgement_text(w, n, j, why, why_size);
	judged_keys(n, j, out);
	v = (unsigned)j->verdict < sizeof(verdicts) / sizeof(verdicts[0]) ? verdicts[j->verdict] : STAGE_UNKNOWN;
	sbat_judgement_free(j);
	return v;
}
