/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* signatures.c - the signature gate of each stage: the firmware's rule for what it starts, shim's for the rest */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sbat.h"

#include "walk/walk.h"

/* The databases a boot is judged by, read once. */
struct walk_sigs {
	sbat_sigdb *db, *dbx, *mok, *mokx;
	int db_known, dbx_known; /* the variable was read (it may be empty) */
	sbat_sigverify_mode mode;
};

/* Read one database into *ret; its state, or -1 after an error note. */
static int
load_db(walk *w, const char *name, const char *guid, sbat_sigdb **ret)
{
	char where[WALK_PATH_MAX + 128];
	sbat_sigdb_var state = SBAT_SIGDB_VAR_MISSING;
	sbat_diag d;

	if (sbat_sigdb_new(ret, &d) != SBAT_OK) {
		w->report_failed = 1;
		return -1;
	}
	if (sbat_sigdb_load_efivar(*ret, w->efivarfs, name, guid, &state, &d) == SBAT_OK)
		return (int)state;
	snprintf(where, sizeof(where), "%s/%s-%s", w->efivarfs, name, guid);
	walk_error(w, where, &d);
	return -1;
}

/* Secure Boot as the firmware's image verification sees it: SecureBoot 1 and not in setup mode. */
static sbat_sigverify_mode
secure_boot_mode(const walk *w)
{
	int sb = -1, setup = -1;
	sbat_diag d;

	if (sbat_efivar_read_byte(w->efivarfs, "SecureBoot-" SBAT_EFIVAR_GLOBAL_GUID, 1, &sb, &d) != SBAT_OK || sb < 0)
		return SBAT_SIGVERIFY_MODE_UNKNOWN;
	if (sbat_efivar_read_byte(w->efivarfs, "SetupMode-" SBAT_EFIVAR_GLOBAL_GUID, 1, &setup, &d) != SBAT_OK)
		return SBAT_SIGVERIFY_MODE_UNKNOWN;
	return sb == 1 && setup != 1 ? SBAT_SIGVERIFY_ENFORCING : SBAT_SIGVERIFY_NOT_ENFORCING;
}

int
walk_sigs_load(walk *w)
{
	struct walk_sigs *s = calloc(1, sizeof(*s));

	if (!s)
		return -1;
	w->sigs = s;
	s->mode = secure_boot_mode(w);
	s->db_known = load_db(w, "db", SBAT_SIGDB_GUID_SECURITY_DB, &s->db) >= SBAT_SIGDB_VAR_EMPTY;
	s->dbx_known = load_db(w, "dbx", SBAT_SIGDB_GUID_SECURITY_DB, &s->dbx) >= SBAT_SIGDB_VAR_EMPTY;
	/* shim's lists: absent when nothing was enrolled and shim mirrored none */
	load_db(w, "MokListRT", SBAT_SIGDB_GUID_SHIM, &s->mok);
	load_db(w, "MokListXRT", SBAT_SIGDB_GUID_SHIM, &s->mokx);
	walk_note(w, SBAT_BOOT_NOTE_ASSUMED, NULL, NULL,
	          "signatures: the verdicts take every RSA signature for valid; sbat-add does not verify them");
	return 0;
}

void
walk_sigs_free(walk *w)
{
	if (!w->sigs)
		return;
	sbat_sigdb_free(w->sigs->db);
	sbat_sigdb_free(w->sigs->dbx);
	sbat_sigdb_free(w->sigs->mok);
	sbat_sigdb_free(w->sigs->mokx);
	free(w->sigs);
	w->sigs = NULL;
}

void
walk_sigs_enter_shim(walk *w, const sbat_image *shim, walk_shim_keys *saved)
{
	sbat_diag d;

	*saved = w->shim_keys;
	memset(&w->shim_keys, 0, sizeof(w->shim_keys));
	sbat_sigverify_opts_init(&w->shim_keys.o);
	if (w->sigs && shim &&
	    sbat_sigverify_read_vendor(shim, &w->shim_keys.o, &w->shim_keys.vdb, &w->shim_keys.vdbx, &d) != SBAT_OK)
		w->shim_keys.unreadable = 1;
}

void
walk_sigs_leave_shim(walk *w, const walk_shim_keys *saved)
{
	sbat_sigdb_free(w->shim_keys.vdb);
	sbat_sigdb_free(w->shim_keys.vdbx);
	w->shim_keys = *saved;
}

/* The rule's options: the machine's databases, and shim's own keys for shim's rule. */
static void
rule_opts(const walk *w, int by_shim, sbat_sigverify_opts *o)
{
	const struct walk_sigs *s = w->sigs;

	sbat_sigverify_opts_init(o);
	o->rule = by_shim ? SBAT_SIGVERIFY_SHIM : SBAT_SIGVERIFY_FIRMWARE;
	o->mode = s->mode;
	o->db = s->db;
	o->dbx = s->dbx;
	if (!by_shim)
		return;
	o->mok = s->mok;
	o->mokx = s->mokx;
	o->vendor_db = w->shim_keys.o.vendor_db;
	o->vendor_dbx = w->shim_keys.o.vendor_dbx;
	o->vendor_cert = w->shim_keys.o.vendor_cert;
	o->vendor_cert_len = w->shim_keys.o.vendor_cert_len;
}

/* The deciding certificate, for the words: "CN=...", or the database's entry. */
static const char *
who(const sbat_sigverify *v)
{
	return v->subject[0] ? v->subject : "a certificate";
}

/* The words of a verdict, from its verdict word on. */
static void
words(const sbat_sigverify *v, int by_shim, char *text, size_t size)
{
	const char *db = sbat_sigverify_db_name(v->db);

	switch (v->reason) {
	case SBAT_SIGVERIFY_NOT_ENFORCED: snprintf(text, size, "Secure Boot is off"); break;
	case SBAT_SIGVERIFY_CERT_ALLOWED: snprintf(text, size, "its signature chains to %s, in %s", who(v), db); break;
	case SBAT_SIGVERIFY_HASH_ALLOWED: snprintf(text, size, "its hash is in %s", db); break;
	case SBAT_SIGVERIFY_HASH_FORBIDDEN: snprintf(text, size, "its hash is in %s", db); break;
	case SBAT_SIGVERIFY_CERT_FORBIDDEN:
		snprintf(text, size, "its signature chains to %s, which %s forbids%s", who(v), db,
		         !by_shim && v->n_sigs > 1 ? " (another signature does not help: one forbidden signature is "
		                                     "enough for EDK2)" :
		                                     "");
		break;
	case SBAT_SIGVERIFY_CERT_HASH_FORBIDDEN:
		snprintf(text, size, "the certificate of %s is in dbx by its TBS hash", who(v));
		break;
	case SBAT_SIGVERIFY_SIGNER_MISSING:
		snprintf(text, size, "a signature lacks its signer's certificate while dbx is set");
		break;
	case SBAT_SIGVERIFY_NOT_ALLOWED:
		snprintf(text, size, "no signature chains to a certificate of %s, and its hash is in none",
		         by_shim ? "db, MokListRT or shim's own keys" : "db");
		break;
	case SBAT_SIGVERIFY_SECURE_BOOT_UNKNOWN: snprintf(text, size, "whether Secure Boot is on is not known"); break;
	case SBAT_SIGVERIFY_DIGEST_NOT_COMPUTED:
		snprintf(text, size, "a signature names a digest other than SHA-256");
		break;
	}
}

enum stage_verdict
walk_sigs_check(walk *w, const image *im, int by_shim, char *text, size_t size)
{
	sbat_sigverify_opts o;
	sbat_sigverify *v = NULL;
	enum stage_verdict r;
	sbat_diag d;

	if (!w->sigs->db_known || !w->sigs->dbx_known) {
		snprintf(text, size, "db or dbx does not read here");
		return STAGE_UNKNOWN;
	}
	if (by_shim && w->shim_keys.unreadable) {
		snprintf(text, size, "shim's .vendor_cert does not read");
		return STAGE_UNKNOWN;
	}
	rule_opts(w, by_shim, &o);
	if (sbat_sigverify_image(im->img, &o, &v, &d) != SBAT_OK) {
		snprintf(text, size, "%s", d.what ? d.what : sbat_strerror(d.code));
		return STAGE_UNKNOWN;
	}
	words(v, by_shim, text, size);
	r = v->verdict == SBAT_VERDICT_BOOTS   ? STAGE_BOOTS :
	    v->verdict == SBAT_VERDICT_REFUSED ? STAGE_REFUSED :
	                                         STAGE_UNKNOWN;
	sbat_sigverify_free(v);
	return r;
}

enum stage_verdict
walk_sigs_gate(walk *w, const image *im, int by_shim, enum stage_verdict v, char *text, size_t size)
{
	char sig[600], sbat[1600];
	enum stage_verdict s;

	if (!w->sigs || !im->img)
		return v;
	s = walk_sigs_check(w, im, by_shim, sig, sizeof(sig));
	w->sig_pending = 1;
	w->sig_verdict = walk_verdict_of(s);
	snprintf(w->sig_text, sizeof(w->sig_text), "%s", sig);
	snprintf(sbat, sizeof(sbat), "%s", text);
	if (s == STAGE_REFUSED || (s == STAGE_UNKNOWN && v != STAGE_REFUSED)) {
		/* the signature decides: the SBAT verdict follows in brackets */
		snprintf(text, size, "%s: signature: %s [SBAT: %s]",
		         s == STAGE_REFUSED ? "refused" : "cannot be followed", sig, sbat);
		w->sig_decided = 1;
		return s;
	}
	snprintf(text, size, "%s [signature accepted: %s]", sbat, sig);
	return v;
}
