/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcrnext_pcr7.c - the next boot's PCR 7 along a path: the policy from the variables (sbat_pcr7), the firmware's
 * and shim's authorities from the walk's signature verdicts, shim's SbatLevel, the rest from the log */
#include <stdlib.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/efivar.h"
#include "sbat/eventlog.h"
#include "sbat/pcr7.h"
#include "sbat/pcrnext.h"
#include "sbat/sigdb.h"
#include "sbat/sigverify.h"

#include "util/diag.h"
#include "util/le.h"
#include "walk/pcrnext_model.h"

#define VAR_HEADER 32
#define AUTH_MAX 64 /* distinct authorities kept per path (a path has at most a handful of images) */

/* GUIDs as stored: the image security database's (db) and shim's. */
static const uint8_t db_guid[16] = { 0xcb, 0xb2, 0x19, 0xd7, 0x3a, 0x3d, 0x96, 0x45,
	                             0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f };
static const uint8_t shim_guid[16] = { 0x50, 0xab, 0x5d, 0x60, 0x46, 0xe0, 0x00, 0x43,
	                               0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 };

/* One authority a check of the path measures: its UEFI_VARIABLE_DATA's name, GUID and data. */
typedef struct auth {
	const char *name;
	const uint8_t *guid;
	const uint8_t *data;
	size_t len;
	int used;         /* emitted */
	const char *file; /* the first stage it verified, as the walk names it */
} auth;

typedef struct auths {
	auth a[AUTH_MAX];
	size_t n;
	int overflow; /* more than AUTH_MAX: not all are known */
} auths;

/* A UEFI_VARIABLE_DATA's name (ASCII, up to size-1 characters), GUID and data; 0 if data is none. */
static int
parse_var(const uint8_t *data, size_t len, char *name, size_t size, const uint8_t **guid, const uint8_t **vd,
          size_t *vd_len)
{
	uint32_t n, i;

	if (len < VAR_HEADER || le32_get(data + 20) || le32_get(data + 28))
		return 0;
	n = le32_get(data + 16);
	if (n == 0 || n >= size || 2 * (size_t)n > len - VAR_HEADER ||
	    le32_get(data + 24) != len - VAR_HEADER - 2 * (size_t)n)
		return 0;
	for (i = 0; i < n; i++) {
		uint16_t c = le16_get(data + VAR_HEADER + 2 * i);

		if (c == 0 || c > 0x7e)
			return 0;
		name[i] = (char)c;
	}
	name[n] = '\0';
	*guid = data;
	*vd = data + VAR_HEADER + 2 * (size_t)n;
	*vd_len = len - VAR_HEADER - 2 * (size_t)n;
	return 1;
}

/* The index of the authority of name, guid and data in s, or -1. */
static int
find(const auths *s, const char *name, const uint8_t *guid, const uint8_t *data, size_t len)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->a[i].name, name) && !memcmp(s->a[i].guid, guid, 16) && s->a[i].len == len &&
		    !memcmp(s->a[i].data, data, len))
			return (int)i;
	return -1;
}

/* The name and GUID shim measures an authority of database db under; NULL for none. */
static const char *
shim_name(int db, const uint8_t **guid)
{
	*guid = shim_guid;
	switch (db) {
	case SBAT_SIGVERIFY_DB: *guid = db_guid; return "db";
	case SBAT_SIGVERIFY_MOK: return "MokListRT";
	case SBAT_SIGVERIFY_VENDOR_DB: return "vendor_db";
	case SBAT_SIGVERIFY_VENDOR_CERT: return "Shim";
	default: return NULL;
	}
}

/* The distinct authorities of the path's stages accepted by the firmware's rule (by_shim 0) or shim's. */
static void
collect(const pcrnext_in *in, int by_shim, auths *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < in->n_stages; i++) {
		const sbat_boot_stage *st = in->stages[i];
		const uint8_t *guid = db_guid;
		const char *name = "db";

		if (!st->signature_judged || st->signature_verdict != SBAT_VERDICT_BOOTS || !st->signature_authority ||
		    (st->signature_rule == SBAT_SIGVERIFY_SHIM) != by_shim)
			continue;
		if (by_shim && !(name = shim_name(st->signature_db, &guid)))
			continue;
		if (!by_shim && st->signature_db != SBAT_SIGVERIFY_DB)
			continue;
		if (find(s, name, guid, st->signature_authority, st->signature_authority_len) >= 0)
			continue;
		if (s->n == AUTH_MAX) {
			s->overflow = 1;
			continue;
		}
		s->a[s->n++] = (auth){ name, guid, st->signature_authority, st->signature_authority_len, 0, st->file };
	}
}

/* A new event of an authority a: its UEFI_VARIABLE_DATA made, its digests. */
static sbat_err
add_auth(pcrnext_in *in, auth *a, size_t log_index, sbat_pcrnext_event **ret)
{
	size_t n = strlen(a->name), i;
	uint8_t *buf = malloc(VAR_HEADER + 2 * n + a->len);
	sbat_err r;

	if (!buf)
		return diag_fail(in->d, SBAT_E_NOMEM, "out of memory for a PCR 7 event");
	memcpy(buf, a->guid, 16);
	le32_put(buf + 16, (uint32_t)n);
	le32_put(buf + 20, 0);
	le32_put(buf + 24, (uint32_t)a->len);
	le32_put(buf + 28, 0);
	for (i = 0; i < n; i++)
		le16_put(buf + VAR_HEADER + 2 * i, (uint8_t)a->name[i]);
	memcpy(buf + VAR_HEADER + 2 * n, a->data, a->len);
	r = pcrnext_add(in, 7, SBAT_EV_EFI_VARIABLE_AUTHORITY, log_index, buf, VAR_HEADER + 2 * n + a->len, ret);
	free(buf);
	if (r == SBAT_OK) {
		pcrnext_digest_all(in, *ret);
		(*ret)->state = log_index ? SBAT_PCR7_REPRODUCED : SBAT_PCR7_ADDED;
		a->used = 1;
		if (a->file && !((*ret)->cause_file = strdup(a->file)))
			r = diag_fail(in->d, SBAT_E_NOMEM, "out of memory for an event");
	}
	return r;
}

/* The authorities of s not yet emitted, added after the log's. */
static sbat_err
flush(pcrnext_in *in, auths *s)
{
	sbat_pcrnext_event *x;
	size_t i;
	sbat_err r = SBAT_OK;

	for (i = 0; i < s->n && r == SBAT_OK; i++)
		if (!s->a[i].used)
			r = add_auth(in, &s->a[i], 0, &x);
	if (r == SBAT_OK && s->overflow) {
		r = pcrnext_add(in, 7, SBAT_EV_EFI_VARIABLE_AUTHORITY, 0, NULL, 0, &x);
		if (r == SBAT_OK) {
			x->state = SBAT_PCR7_UNKNOWN;
			x->why = "more distinct authorities than this program keeps";
			x->cause = SBAT_PCRNEXT_CAUSE_NOT_MODELLED;
		}
	}
	return r;
}

/* The model's event m (of the log's event e) as it is, made or copied, with its state and why. */
static sbat_err
take_model(pcrnext_in *in, const sbat_pcr7_event *m, const sbat_eventlog_event *e, const char *why)
{
	sbat_pcrnext_event *x;
	sbat_err r = pcrnext_add(in, 7, m->type, m->log_index, m->data, m->data_len, &x);

	if (r != SBAT_OK)
		return r;
	memcpy(x->digest, m->digest, sizeof(x->digest));
	x->has_digest = m->has_digest;
	x->state = m->state;
	x->why = m->why;
	if (why && e) {
		x->state = SBAT_PCR7_COPIED;
		x->why = why;
		x->has_digest = 0;
		pcrnext_copy_digests(in, x, e);
	}
	if (m->state == SBAT_PCR7_UNKNOWN)
		x->has_digest = 0;
	return SBAT_OK;
}

/* The SbatLevel the path's shim leaves stored in the next boot (stage shim_stored), or NULL when not known. */
static const char *
next_stored(const pcrnext_in *in)
{
	size_t i;

	for (i = 0; i < in->n_stages; i++)
		if (in->stages[i]->reason == SBAT_BOOT_SHIM_GOES_ON || in->stages[i]->reason == SBAT_BOOT_POLICY_WAITS)
			return in->stages[i]->shim_stored;
	return NULL;
}

/*
 * shim's SbatLevel event e of the log (model event m): shim 16.1 measures the variable every boot, as its writes
 * of that boot left it (set_sbat_uefi_variable, then load_unbundled_trust's revocations, then import_mok_state:
 * MOK_VARIABLE_MEASURE, tpm_measure_variable), so the next boot's is made from the level the path's shim stores.
 */
static sbat_err
level_event(pcrnext_in *in, const sbat_pcr7_event *m, const sbat_eventlog_event *e)
{
	const char *stored = next_stored(in);
	auth a = { "SbatLevel", shim_guid, (const uint8_t *)stored, stored ? strlen(stored) : 0, 0, NULL };
	sbat_pcrnext_event *x;
	sbat_err r;

	if (!stored) {
		if ((r = take_model(in, m, e, "the SbatLevel shim stores in the next boot is not known")) == SBAT_OK) {
			in->p->ev[in->p->n - 1].state = SBAT_PCR7_UNKNOWN;
			in->p->ev[in->p->n - 1].has_digest = 0;
		}
		return r;
	}
	if ((r = add_auth(in, &a, e->index, &x)) != SBAT_OK)
		return r;
	pcrnext_compare(in, x, e);
	if (x->state == SBAT_PCR7_DIFFERS)
		x->why = "shim stores another SbatLevel in the next boot: made from that level";
	return SBAT_OK;
}

/* shim's event e (name: its variable, vd[0..len) its data) of the next boot along the path. */
static sbat_err
shim_event(pcrnext_in *in, const sbat_pcr7_event *m, const sbat_eventlog_event *e, const char *name, const uint8_t *vd,
           size_t len, auths *sh)
{
	sbat_pcrnext_event *x;
	sbat_err r;
	int k;

	if (!in->has_shim) {
		if ((r = take_model(in, m, e, "measured by shim, and the path starts no shim")) == SBAT_OK)
			in->p->ev[in->p->n - 1].state = SBAT_PCR7_DROPPED;
		return r;
	}
	if (!strcmp(name, "SbatLevel") && !memcmp(e->data, shim_guid, 16))
		return level_event(in, m, e);
	if ((k = find(sh, name, e->data, vd, len)) >= 0 && !sh->a[k].used) {
		if ((r = add_auth(in, &sh->a[k], e->index, &x)) == SBAT_OK)
			pcrnext_compare(in, x, e);
		return r;
	}
	return take_model(in, m, e,
	                  !strcmp(name, "MokSBState") ?
	                      "shim's MokSBState: taken from the log" :
	                      "an event of shim the walk does not account for (revocations_sbat.efi's authority, "
	                      "another image's): taken from the log");
}

/* The firmware's db authority e (vd[0..len)) along the path. */
static sbat_err
firmware_auth(pcrnext_in *in, const sbat_pcr7_event *m, const sbat_eventlog_event *e, const uint8_t *vd, size_t len,
              auths *fw)
{
	sbat_pcrnext_event *x;
	sbat_err r;
	int k = find(fw, "db", db_guid, vd, len);

	if (k >= 0 && !fw->a[k].used) {
		if ((r = add_auth(in, &fw->a[k], e->index, &x)) == SBAT_OK)
			pcrnext_compare(in, x, e);
		return r;
	}
	if (m->state == SBAT_PCR7_UNKNOWN)
		return take_model(in, m, e, NULL);
	return take_model(
	    in, m, e, "an authority the walk does not account for (an option ROM's, a driver's): taken from the log");
}

typedef struct walker {
	auths fw, sh;
	int after_separator, in_shim, sbat_level; /* sbat_level: the log has shim's SbatLevel event */
} walker;

/* The model's event m after the separator. */
static sbat_err
after_separator(pcrnext_in *in, walker *k, const sbat_pcr7_event *m)
{
	const sbat_eventlog_event *e = m->log_index ? sbat_eventlog_event_at(in->log, m->log_index) : NULL;
	const uint8_t *guid, *vd;
	size_t len;
	char name[SBAT_PCR7_NAME_MAX + 1];
	sbat_err r;

	if (!e || m->type != SBAT_EV_EFI_VARIABLE_AUTHORITY ||
	    !parse_var(e->data, e->data_len, name, sizeof(name), &guid, &vd, &len))
		return take_model(in, m, e, NULL);
	if (!k->in_shim && !memcmp(guid, db_guid, 16) && !strcmp(name, "db"))
		return firmware_auth(in, m, e, vd, len, &k->fw);
	if (!k->in_shim && memcmp(guid, shim_guid, 16) != 0)
		return take_model(in, m, e, NULL);
	if (!k->in_shim) {
		k->in_shim = 1;
		if ((r = flush(in, &k->fw)) != SBAT_OK)
			return r;
	}
	k->sbat_level |= !strcmp(name, "SbatLevel") && !memcmp(guid, shim_guid, 16);
	return shim_event(in, m, e, name, vd, len, &k->sh);
}

sbat_err
pcrnext_pcr7(pcrnext_in *in)
{
	sbat_pcr7 *m;
	walker k;
	size_t i;
	sbat_err r = sbat_pcr7_build(in->log, in->vars, &m, in->d);

	if (r != SBAT_OK)
		return r;
	memset(&k, 0, sizeof(k));
	collect(in, 0, &k.fw);
	collect(in, 1, &k.sh);
	for (i = 0; i < sbat_pcr7_event_count(m) && r == SBAT_OK; i++) {
		const sbat_pcr7_event *x = sbat_pcr7_event_at(m, i);

		if (k.after_separator)
			r = after_separator(in, &k, x);
		else
			r = take_model(in, x, NULL, NULL);
		if (x->kind == SBAT_PCR7_SEPARATOR)
			k.after_separator = 1;
	}
	if (r == SBAT_OK && !k.in_shim)
		r = flush(in, &k.fw);
	if (r == SBAT_OK && in->has_shim && (!k.in_shim || !k.sbat_level)) {
		sbat_pcrnext_event *x;

		if ((r = pcrnext_add(in, 7, SBAT_EV_EFI_VARIABLE_AUTHORITY, 0, NULL, 0, &x)) == SBAT_OK) {
			x->state = SBAT_PCR7_UNKNOWN;
			x->why =
			    !k.in_shim ?
			        "the log's boot ran no shim: shim's SbatLevel and MokSBState events are not known" :
			        "the log's shim measured no SbatLevel: where the next boot's goes is not known";
			x->cause = !k.in_shim ? SBAT_PCRNEXT_CAUSE_NO_SHIM : SBAT_PCRNEXT_CAUSE_SBAT_LEVEL;
		}
	}
	if (r == SBAT_OK && in->has_shim)
		r = flush(in, &k.sh);
	sbat_pcr7_free(m);
	return r;
}
