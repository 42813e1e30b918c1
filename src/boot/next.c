/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* next.c - the SbatLevel shim 16.x stores and enforces in one boot, rule by rule */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sbat/boot.h"
#include "util/diag.h"
#include "util/strtable.h"

#define ORIGINAL_LEN (sizeof(SBAT_LEVEL_ORIGINAL) - 1)

/* Byte i of buf[0..len), or 0 past its end: shim's copies of the variable end in a NUL. */
static uint8_t
at(const uint8_t *buf, size_t len, size_t i)
{
	return i < len ? buf[i] : 0;
}

/* Where field n (0-based, comma-separated) starts, as shim's nth_sbat_field finds it within limit bytes. */
static size_t
nth_field(const uint8_t *buf, size_t len, size_t limit, unsigned n)
{
	size_t i;

	for (i = 0; i < limit && at(buf, len, i) != 0; i++) {
		if (n == 0)
			return i;
		if (buf[i] == ',')
			n--;
	}
	return i;
}

/* strncmp over two bounded buffers. */
static int
compare_n(const uint8_t *a, size_t alen, size_t ai, const uint8_t *b, size_t blen, size_t bi, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		uint8_t x = at(a, alen, ai + k), y = at(b, blen, bi + k);

		if (x != y)
			return x < y ? -1 : 1;
		if (x == 0)
			break;
	}
	return 0;
}

/*
 * preserve_sbat_uefi_variable: keep the stored value? Returns the rule
 * that decided: kept (version or datestamp), or replaced / corrupt.
 */
static sbat_next_rule
preserve_rule(const uint8_t *cur, size_t cur_len, const char *cand)
{
	const uint8_t *c = (const uint8_t *)cand;
	size_t c_len = strlen(cand), cv, nv, cd, nd;
	long cvl, nvl;

	if (cur_len < ORIGINAL_LEN || memcmp(cur, "sbat,", 5) != 0)
		return SBAT_NEXT_REPLACED_CORRUPT;
	cv = nth_field(cur, cur_len, cur_len, 1);
	nv = nth_field(c, c_len, c_len + 1, 1);
	cd = nth_field(cur, cur_len, cur_len, 2);
	nd = nth_field(c, c_len, c_len + 1, 2);
	cvl = (long)cd - (long)cv - 1;
	nvl = (long)nd - (long)nv - 1;
	if (cvl > nvl || (cvl == nvl && nvl > 0 && compare_n(cur, cur_len, cv, c, c_len, nv, (size_t)nvl) > 0))
		return SBAT_NEXT_KEPT_VERSION;
	if (compare_n(cur, cur_len, cd, c, c_len, nd, SBAT_LEVEL_DATESTAMP_LEN) >= 0)
		return SBAT_NEXT_KEPT_DATESTAMP;
	return SBAT_NEXT_REPLACED;
}

/* The candidate of set_sbat_uefi_variable for this SbatPolicy and Secure Boot state. */
static void
choose(const sbat_next_inputs *in, const char *automatic, const char *latest, sbat_next_step *s)
{
	int reset = 0;

	switch (in->policy) {
	case SBAT_POLICY_ABSENT:
		s->choice = SBAT_NEXT_CHOSE_DEFAULT;
		reset = !in->secure_boot;
		break;
	case SBAT_POLICY_LATEST: s->choice = SBAT_NEXT_CHOSE_LATEST; break;
	case SBAT_POLICY_AUTOMATIC: s->choice = SBAT_NEXT_CHOSE_AUTOMATIC; break;
	case SBAT_POLICY_RESET:
		s->choice = in->secure_boot ? SBAT_NEXT_CHOSE_RESET_REFUSED : SBAT_NEXT_CHOSE_RESET;
		reset = !in->secure_boot;
		break;
	default:
		s->choice = SBAT_NEXT_CHOSE_INVALID;
		reset = !in->secure_boot;
		break;
	}
	if (reset) {
		s->payload = SBAT_NEXT_PAYLOAD_ORIGINAL;
		s->candidate = SBAT_LEVEL_ORIGINAL;
	} else if (s->choice == SBAT_NEXT_CHOSE_LATEST) {
		s->payload = SBAT_NEXT_PAYLOAD_LATEST;
		s->candidate = latest;
	} else {
		s->payload = SBAT_NEXT_PAYLOAD_AUTOMATIC;
		s->candidate = automatic;
	}
}

/*
 * Would level revoke csv? A missing .sbat counts as revoked (shim checks
 * itself as an image it loads); one without rows passes, as in shim's
 * verify_sbat. The first revoked row goes to *s when s is not NULL.
 */
static sbat_err
revokes(const uint8_t *text, size_t len, const sbat_csv *csv, int *ret, sbat_next_step *s, sbat_diag *d)
{
	sbat_level *level = NULL;
	sbat_revocation first;
	size_t n = 0;
	sbat_err r;

	r = sbat_level_parse_shim(text, len, &level, d);
	if (r != SBAT_OK)
		return r;
	/* an empty list passes everything, even a shim without .sbat (verify_sbat_section) */
	*ret = !csv && level->n_entries > 0;
	if (csv && csv->n_entries) {
		r = sbat_level_check(level, csv, &first, 1, &n, d);
		*ret = n > 0;
		if (n > 0 && s) {
			/* the level is freed below: keep the numbers, and the name from csv */
			s->self_component = first.entry->component_name;
			s->self_generation = first.entry->generation;
			s->self_minimum = first.level->generation;
		}
	}
	sbat_level_free(level);
	return r;
}

/*
 * One set_sbat_uefi_variable call on the stored value (*stored, *stored_len,
 * updated). *list_replaced is set when shim's in-memory list becomes the
 * candidate (the reparse before writing succeeded).
 */
static void
run_step(const sbat_next_inputs *in, const char *automatic, const char *latest, const uint8_t **stored,
         size_t *stored_len, sbat_next_step *s, int *list_replaced)
{
	sbat_diag d;
	int self = 0;

	*list_replaced = 0;
	choose(in, automatic, latest, s);
	if (!*stored) {
		s->rule = SBAT_NEXT_WRITTEN_ABSENT;
	} else if (s->payload != SBAT_NEXT_PAYLOAD_ORIGINAL &&
	           (s->rule = preserve_rule(*stored, *stored_len, s->candidate)) != SBAT_NEXT_REPLACED &&
	           s->rule != SBAT_NEXT_REPLACED_CORRUPT) {
		/* kept */
	} else {
		if (s->payload == SBAT_NEXT_PAYLOAD_ORIGINAL)
			s->rule = SBAT_NEXT_RESET;
		if (revokes((const uint8_t *)s->candidate, strlen(s->candidate), in->shim_sbat, &self, s, &d) !=
		    SBAT_OK) {
			s->rule = SBAT_NEXT_REFUSED_PARSE;
		} else {
			*list_replaced = 1;
			if (self)
				s->rule = SBAT_NEXT_REFUSED_SELF;
		}
	}
	if (s->rule == SBAT_NEXT_WRITTEN_ABSENT || s->rule == SBAT_NEXT_REPLACED ||
	    s->rule == SBAT_NEXT_REPLACED_CORRUPT || s->rule == SBAT_NEXT_RESET) {
		*stored = (const uint8_t *)s->candidate;
		*stored_len = strlen(s->candidate);
	}
	s->stored = *stored;
	s->stored_len = *stored_len;
}

/* Does the revocations file itself pass shim's check against the level in force (loaded as shim loads images)? */
static int
revocations_file_passes(const sbat_next_inputs *in, const uint8_t *level, size_t len)
{
	sbat_diag d;
	int revoked = 1;

	if (revokes(level, len, in->rev_sbat, &revoked, NULL, &d) != SBAT_OK)
		return 0;
	return !revoked;
}

sbat_err
sbat_next_boot_predict(const sbat_next_inputs *in, sbat_next_boot *ret, sbat_diag *reterr)
{
	const uint8_t *stored;
	size_t stored_len;
	int replaced, self = 0;
	sbat_diag d;

	if (!in || !ret || !in->automatic || !in->latest)
		return diag_fail(reterr, SBAT_E_LEVEL, "the shim's automatic and latest payloads are needed");
	memset(ret, 0, sizeof(*ret));
	stored = in->current;
	stored_len = in->current ? in->current_len : 0;
	run_step(in, in->automatic, in->latest, &stored, &stored_len, &ret->builtin, &replaced);
	ret->stored = stored;
	ret->stored_len = stored_len;
	if (!in->secure_boot)
		return SBAT_OK; /* shim checks nothing, and reads no revocations file from its disk */
	if (ret->builtin.rule == SBAT_NEXT_REFUSED_SELF || ret->builtin.rule == SBAT_NEXT_REFUSED_PARSE ||
	    revokes(stored, stored_len, in->shim_sbat, &self, NULL, &d) != SBAT_OK || self) {
		ret->shim_stops = 1;
		return SBAT_OK;
	}
	ret->enforced = stored;
	ret->enforced_len = stored_len;
	if (!in->rev_automatic || !in->rev_latest)
		return SBAT_OK;
	if (!revocations_file_passes(in, stored, stored_len)) {
		ret->revocations.rule = SBAT_NEXT_REVOCATIONS_REFUSED;
		ret->revocations.stored = stored;
		ret->revocations.stored_len = stored_len;
		return SBAT_OK;
	}
	run_step(in, in->rev_automatic, in->rev_latest, &stored, &stored_len, &ret->revocations, &replaced);
	if (replaced) {
		ret->enforced = (const uint8_t *)ret->revocations.candidate;
		ret->enforced_len = strlen(ret->revocations.candidate);
	}
	ret->stored = stored;
	ret->stored_len = stored_len;
	return SBAT_OK;
}

const char *
sbat_next_choice_name(sbat_next_choice choice)
{
	static const char *const names[] = {
		[SBAT_NEXT_CHOSE_DEFAULT] = "default",
		[SBAT_NEXT_CHOSE_LATEST] = "latest",
		[SBAT_NEXT_CHOSE_AUTOMATIC] = "automatic",
		[SBAT_NEXT_CHOSE_RESET] = "reset",
		[SBAT_NEXT_CHOSE_RESET_REFUSED] = "reset-refused",
		[SBAT_NEXT_CHOSE_INVALID] = "invalid",
	};

	return STRTABLE_NAME(names, choice, "?");
}

const char *
sbat_next_rule_name(sbat_next_rule rule)
{
	static const char *const names[] = {
		[SBAT_NEXT_NOT_RUN] = "not-run",
		[SBAT_NEXT_WRITTEN_ABSENT] = "written-absent",
		[SBAT_NEXT_KEPT_VERSION] = "kept-version",
		[SBAT_NEXT_KEPT_DATESTAMP] = "kept-datestamp",
		[SBAT_NEXT_REPLACED] = "replaced",
		[SBAT_NEXT_REPLACED_CORRUPT] = "replaced-corrupt",
		[SBAT_NEXT_RESET] = "reset",
		[SBAT_NEXT_REFUSED_SELF] = "refused-self-revoking",
		[SBAT_NEXT_REFUSED_PARSE] = "refused-unparsable",
		[SBAT_NEXT_REVOCATIONS_REFUSED] = "revocations-file-refused",
	};

	return STRTABLE_NAME(names, rule, "?");
}

const char *
sbat_next_payload_name(int payload)
{
	switch (payload) {
	case SBAT_NEXT_PAYLOAD_AUTOMATIC: return "automatic";
	case SBAT_NEXT_PAYLOAD_LATEST: return "latest";
	case SBAT_NEXT_PAYLOAD_ORIGINAL: return "original";
	default: return "?";
	}
}
