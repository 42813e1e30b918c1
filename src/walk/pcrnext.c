/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcrnext.c - PCR 4, 7 and 14 of the next boot along one path of the walk: the events, and their replay per bank */
#include <stdlib.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/authenticode.h"
#include "sbat/efivar.h"
#include "sbat/input.h"
#include "sbat/eventlog.h"
#include "sbat/pcr7.h"
#include "sbat/pcrnext.h"

#include "sig/pehash.h"
#include "tpm/pcr7vars.h"
#include "tpm/replay.h"
#include "util/diag.h"
#include "walk/pcrnext_model.h"
#include "walk/walk.h"

#define EV_IPL 0x0000000du
#define EV_EFI_BOOT_SERVICES_APPLICATION 0x80000003u
#define MAX_STAGES 64

/* The log's event e as it is. */
static sbat_err
copy(pcrnext_in *in, const sbat_eventlog_event *e, const char *why, sbat_pcrnext_event **ret)
{
	sbat_err r = pcrnext_add(in, e->pcr, e->type, e->index, e->data, e->data_len, ret);

	if (r == SBAT_OK) {
		pcrnext_copy_digests(in, *ret, e);
		(*ret)->state = SBAT_PCR7_COPIED;
		(*ret)->why = why;
	}
	return r;
}

/* The path's images in load order: the stages whose image hash the walk took. */
static size_t
images(const pcrnext_in *in, const sbat_boot_stage **out)
{
	size_t i, n = 0;

	for (i = 0; i < in->n_stages; i++)
		if (in->stages[i]->image_sha256_known && in->stages[i]->stage >= 1)
			out[n++] = in->stages[i];
	return n;
}

/* st's Authenticode hashes from the file the walk opened, when its SHA-256 is still the walk's: 1, or 0. */
static int
image_digests(const sbat_boot_stage *st, pehash_digests *dg)
{
	image im;
	sbat_diag d;
	int ok = 0;

	dg->algs = PEHASH_ALG(SBAT_DIGEST_SHA1) | PEHASH_ALG(SBAT_DIGEST_SHA384) | PEHASH_ALG(SBAT_DIGEST_SHA512);
	if (!st->host)
		return 0;
	if (walk_image_open(st->root, st->host, &im) == 0 &&
	    pehash_compute_all(im.img, SBAT_AUTHENTICODE_EDK2, sbat_mapped_file_fd(im.map), dg, &d) == SBAT_OK)
		ok = !memcmp(dg->sha256, st->image_sha256, sizeof(dg->sha256));
	walk_image_close(&im);
	return ok;
}

/* The Authenticode hash of dg in the bank of TPM_ALG_ID alg, or NULL. */
static const uint8_t *
bank_digest(const pehash_digests *dg, uint16_t alg, size_t size)
{
	size_t len;
	const uint8_t *out = alg == SBAT_EVENTLOG_ALG_SHA1   ? pehash_digest(dg, SBAT_DIGEST_SHA1, &len) :
	                     alg == SBAT_EVENTLOG_ALG_SHA256 ? pehash_digest(dg, SBAT_DIGEST_SHA256, &len) :
	                     alg == SBAT_EVENTLOG_ALG_SHA384 ? pehash_digest(dg, SBAT_DIGEST_SHA384, &len) :
	                     alg == SBAT_EVENTLOG_ALG_SHA512 ? pehash_digest(dg, SBAT_DIGEST_SHA512, &len) :
	                                                       NULL;

	return out && len == size ? out : NULL;
}

/* x's cause: c, with the stage's file (copied). SBAT_E_NOMEM. */
static sbat_err
set_cause(pcrnext_in *in, sbat_pcrnext_event *x, sbat_pcrnext_cause c, const char *file)
{
	x->cause = c;
	if (file && !(x->cause_file = strdup(file)))
		return diag_fail(in->d, SBAT_E_NOMEM, "out of memory for an event");
	return SBAT_OK;
}

/* An application event e of PCR 4 for image st. */
static sbat_err
application(pcrnext_in *in, const sbat_eventlog_event *e, const sbat_boot_stage *st)
{
	pehash_digests dg;
	sbat_pcrnext_event *x;
	size_t i;
	int all;
	sbat_err r = pcrnext_add(in, 4, e->type, e->index, e->data, e->data_len, &x);

	if (r != SBAT_OK)
		return r;
	for (i = 0; i < in->p->n_banks; i++) {
		const uint8_t *dg_log = pcrnext_log_digest(in, e, i);

		if (in->p->alg[i] == SBAT_EVENTLOG_ALG_SHA256 && dg_log && !memcmp(dg_log, st->image_sha256, 32)) {
			pcrnext_copy_digests(in, x, e);
			x->state = SBAT_PCR7_REPRODUCED;
			return SBAT_OK;
		}
	}
	all = image_digests(st, &dg);
	if (!all) {
		memcpy(dg.sha256, st->image_sha256, sizeof(dg.sha256));
		dg.algs = 0;
	}
	for (i = 0; i < in->p->n_banks; i++) {
		size_t size = sbat_eventlog_bank_at(in->log, i)->digest_size;
		const uint8_t *h = bank_digest(&dg, in->p->alg[i], size);

		if (h) {
			memcpy(x->digest[i], h, size);
			x->has_digest |= 1u << i;
		}
	}
	x->state = SBAT_PCR7_DIFFERS;
	x->why = all ? "another image: its Authenticode hash, in every bank" :
	               "another image: its Authenticode hash in banks other than SHA-256 is not known (the file "
	               "does not read again, or is not the one judged)";
	return set_cause(in, x, SBAT_PCRNEXT_CAUSE_IMAGE, st->file);
}

/* PCR 4: the log's events, its applications matched with the path's images in load order. */
static sbat_err
pcr4(pcrnext_in *in)
{
	const sbat_boot_stage *im[MAX_STAGES];
	size_t n_im = images(in, im), n_app = 0, i, k = 0;
	sbat_pcrnext_event *x;
	sbat_err r = SBAT_OK;

	for (i = 1; i < sbat_eventlog_event_count(in->log); i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(in->log, i);

		n_app += e->pcr == 4 && e->type == EV_EFI_BOOT_SERVICES_APPLICATION;
	}
	for (i = 1; i < sbat_eventlog_event_count(in->log) && r == SBAT_OK; i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(in->log, i);

		if (e->pcr != 4 || e->type == SBAT_EV_NO_ACTION)
			continue;
		if (e->type != EV_EFI_BOOT_SERVICES_APPLICATION)
			r = copy(in, e, "the firmware's, as logged", &x);
		else if (n_app == n_im)
			r = application(in, e, im[k++]);
		else if ((r = copy(in, e,
		                   "the log's boot started another number of applications than the path has "
		                   "images: which is which is not known",
		                   &x)) == SBAT_OK) {
			x->state = SBAT_PCR7_UNKNOWN;
			x->has_digest = 0;
			x->cause = SBAT_PCRNEXT_CAUSE_NOT_MODELLED;
		}
	}
	return r;
}

/* The runtime mirror shim makes of a MOK variable it measures into PCR 14 (its EV_IPL's text), or NULL. */
static const char *
mirror(const uint8_t *text, size_t len)
{
	static const char *const names[][2] = {
		{ "MokList", "MokListRT" },       { "MokListX", "MokListXRT" },
		{ "MokSBState", "MokSBStateRT" }, { "MokListTrusted", "MokListTrustedRT" },
		{ "MokPolicy", "MokPolicyRT" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (len == strlen(names[i][0]) + 1 && !memcmp(text, names[i][0], len))
			return names[i][1];
	return NULL;
}

/* One of shim's PCR 14 events e, its digest the data of the mirror rt. */
static sbat_err
mok_event(pcrnext_in *in, const sbat_eventlog_event *e, const char *rt)
{
	const uint8_t *data;
	size_t len, i;
	int present;
	sbat_diag local;
	sbat_pcrnext_event *x;
	sbat_err r = pcr7vars_get(in->vars, rt, SBAT_EFIVAR_SHIM_GUID, &data, &len, &present, &local);

	if (r == SBAT_E_NOMEM)
		return diag_fail(in->d, r, "out of memory for a variable");
	if ((r = pcrnext_add(in, 14, e->type, e->index, e->data, e->data_len, &x)) != SBAT_OK)
		return r;
	if (present && len) {
		for (i = 0; i < in->p->n_banks; i++)
			if (replay_digest(in->p->alg[i], data, len, x->digest[i]))
				x->has_digest |= 1u << i;
		x->state = SBAT_PCR7_REPRODUCED;
		pcrnext_compare(in, x, e);
		return SBAT_OK;
	}
	x->state = SBAT_PCR7_UNKNOWN;
	x->cause = SBAT_PCRNEXT_CAUSE_MOK;
	x->why = "its runtime mirror does not read, or is empty: what shim measures is not known";
	return SBAT_OK;
}

/* PCR 14: shim's events, made from the mirrors, along a path with shim; the rest copied. */
static sbat_err
pcr14(pcrnext_in *in)
{
	sbat_pcrnext_event *x;
	size_t i, n = 0;
	sbat_err r = SBAT_OK;

	for (i = 1; i < sbat_eventlog_event_count(in->log) && r == SBAT_OK; i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(in->log, i);
		const char *rt = e->type == EV_IPL ? mirror(e->data, e->data_len) : NULL;

		if (e->pcr != 14 || e->type == SBAT_EV_NO_ACTION)
			continue;
		n++;
		if (rt && in->has_shim) {
			r = mok_event(in, e, rt);
		} else if ((r = copy(in, e,
		                     rt ? "measured by shim, and the path starts no shim" : "not modelled: copied",
		                     &x)) == SBAT_OK &&
		           rt) {
			x->state = SBAT_PCR7_DROPPED;
			x->cause = SBAT_PCRNEXT_CAUSE_NO_SHIM;
		}
	}
	if (r == SBAT_OK && !n && in->has_shim && (r = pcrnext_add(in, 14, EV_IPL, 0, NULL, 0, &x)) == SBAT_OK) {
		x->state = SBAT_PCR7_UNKNOWN;
		x->why = "the log's boot ran no shim: what shim measures into PCR 14 is not known";
		x->cause = SBAT_PCRNEXT_CAUSE_NO_SHIM;
	}
	return r;
}

/* The cause of event x, from what it is, where its maker did not set one (no English: the caller words it). */
static void
cause_of(sbat_pcrnext_event *x)
{
	int changed = x->state == SBAT_PCR7_DIFFERS || x->state == SBAT_PCR7_ADDED || x->state == SBAT_PCR7_DROPPED ||
	              x->state == SBAT_PCR7_UNKNOWN;

	if (!changed) {
		x->cause = SBAT_PCRNEXT_CAUSE_NONE;
		return;
	}
	if (x->pcr == 14 && x->type == EV_IPL)
		pcrnext_ipl_text(x->data, x->data_len, x->cause_name, sizeof(x->cause_name));
	else if (x->pcr == 7)
		pcrnext_var_name(x->data, x->data_len, x->cause_name, sizeof(x->cause_name));
	if (x->cause != SBAT_PCRNEXT_CAUSE_NONE)
		return;
	if (x->pcr == 14)
		x->cause = SBAT_PCRNEXT_CAUSE_MOK;
	else if (x->pcr == 7 && x->type == SBAT_EV_EFI_VARIABLE_DRIVER_CONFIG)
		x->cause = SBAT_PCRNEXT_CAUSE_VARIABLE;
	else if (x->pcr == 7 && !strcmp(x->cause_name, "SbatLevel"))
		x->cause = SBAT_PCRNEXT_CAUSE_SBAT_LEVEL;
	else if (x->pcr == 7 && x->state == SBAT_PCR7_DROPPED)
		x->cause = SBAT_PCRNEXT_CAUSE_NO_SHIM;
	else if (x->pcr == 7 && x->type == SBAT_EV_EFI_VARIABLE_AUTHORITY && x->state != SBAT_PCR7_UNKNOWN)
		x->cause = SBAT_PCRNEXT_CAUSE_AUTHORITY;
	else
		x->cause = SBAT_PCRNEXT_CAUSE_NOT_MODELLED;
}

/* pcr's value in bank i: its events replayed, or why not. */
static void
replay(pcrnext_in *in, uint32_t pcr, size_t i, sbat_pcrnext_value *v)
{
	const sbat_eventlog_bank *b = sbat_eventlog_bank_at(in->log, i);
	size_t j;

	v->pcr = pcr;
	v->bank = i;
	v->alg = b->alg;
	v->name = b->name;
	v->digest_size = b->digest_size;
	v->today_known = b->replayed;
	if (b->replayed)
		memcpy(v->today, b->value[pcr], b->digest_size);
	v->predicted = b->replayed;
	v->why = b->replayed ? NULL : "a bank this program does not replay";
	for (j = 0; j < in->p->n && v->predicted; j++) {
		const sbat_pcrnext_event *x = &in->p->ev[j];

		if (x->pcr != pcr || x->state == SBAT_PCR7_DROPPED)
			continue;
		if (!(x->has_digest & (1u << i))) {
			v->predicted = 0;
			v->why = x->why ? x->why : "an event lacks this bank";
		} else {
			replay_extend(v->alg, v->value, x->digest[i], v->digest_size);
		}
	}
	if (!v->predicted)
		memset(v->value, 0, sizeof(v->value));
}

static sbat_err
values(pcrnext_in *in)
{
	static const uint32_t pcrs[] = { 7, 4, 14 };
	sbat_pcrnext *p = in->p;
	size_t k, i;

	for (i = 0; i < p->n; i++)
		cause_of(&p->ev[i]);
	if (!(p->val = calloc(3 * (p->n_banks ? p->n_banks : 1), sizeof(*p->val))))
		return diag_fail(in->d, SBAT_E_NOMEM, "out of memory for the PCR values");
	for (k = 0; k < 3; k++)
		for (i = 0; i < p->n_banks; i++)
			replay(in, pcrs[k], i, &p->val[p->n_val++]);
	return SBAT_OK;
}

/* The stages of the path entry, into in (at most MAX_STAGES), and whether shim goes on along it. */
static void
path_stages(pcrnext_in *in, const sbat_boot_report *report, const char *entry, const sbat_boot_stage **buf)
{
	size_t i;

	in->stages = buf;
	for (i = 0; i < sbat_boot_report_count(report) && in->n_stages < MAX_STAGES; i++) {
		const sbat_boot_stage *st = sbat_boot_report_stage(report, i);

		if (!st->entry || strcmp(st->entry, entry) != 0 || st->off_default)
			continue;
		buf[in->n_stages++] = st;
		if (st->reason == SBAT_BOOT_SHIM_GOES_ON || st->reason == SBAT_BOOT_POLICY_WAITS)
			in->has_shim = 1;
	}
}

SBAT_API sbat_err
sbat_pcrnext_predict(const sbat_eventlog *log, sbat_pcr7_vars *vars, const sbat_boot_report *report, const char *entry,
                     sbat_pcrnext **ret, sbat_diag *reterr)
{
	const sbat_boot_stage *buf[MAX_STAGES];
	pcrnext_in in;
	size_t i;
	sbat_err r;

	*ret = NULL;
	if (!log || !vars || !report || !entry)
		return diag_fail(reterr, SBAT_E_IO, "no event log, variables, report or path");
	memset(&in, 0, sizeof(in));
	in.log = log;
	in.vars = vars;
	in.d = reterr;
	if (!(in.p = calloc(1, sizeof(*in.p))))
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory for the prediction");
	in.p->n_banks = sbat_eventlog_bank_count(log);
	for (i = 0; i < in.p->n_banks; i++)
		in.p->alg[i] = sbat_eventlog_bank_at(log, i)->alg;
	path_stages(&in, report, entry, buf);
	r = pcrnext_pcr7(&in);
	if (r == SBAT_OK)
		r = pcr4(&in);
	if (r == SBAT_OK)
		r = pcr14(&in);
	if (r == SBAT_OK)
		r = values(&in);
	if (r != SBAT_OK) {
		sbat_pcrnext_free(in.p);
		return r;
	}
	*ret = in.p;
	return SBAT_OK;
}

SBAT_API void
sbat_pcrnext_free(sbat_pcrnext *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++) {
		free((void *)p->ev[i].data);
		free((void *)p->ev[i].cause_file);
	}
	free(p->ev);
	free(p->val);
	free(p);
}

SBAT_API size_t
sbat_pcrnext_event_count(const sbat_pcrnext *p)
{
	return p ? p->n : 0;
}

SBAT_API const sbat_pcrnext_event *
sbat_pcrnext_event_at(const sbat_pcrnext *p, size_t i)
{
	return p && i < p->n ? &p->ev[i] : NULL;
}

SBAT_API size_t
sbat_pcrnext_value_count(const sbat_pcrnext *p)
{
	return p ? p->n_val : 0;
}

SBAT_API const sbat_pcrnext_value *
sbat_pcrnext_value_at(const sbat_pcrnext *p, size_t i)
{
	return p && i < p->n_val ? &p->val[i] : NULL;
}

SBAT_API const sbat_pcrnext_value *
sbat_pcrnext_value_find(const sbat_pcrnext *p, uint32_t pcr, uint16_t alg)
{
	size_t i;

	for (i = 0; p && i < p->n_val; i++)
		if (p->val[i].pcr == pcr && p->val[i].alg == alg)
			return &p->val[i];
	return NULL;
}

SBAT_API const char *
sbat_pcrnext_cause_name(sbat_pcrnext_cause cause)
{
	static const char *const names[] = { "",    "variable",   "authority", "image",
		                             "mok", "sbat-level", "no-shim",   "not-modelled" };

	return (unsigned)cause < sizeof(names) / sizeof(names[0]) ? names[cause] : NULL;
}
