/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* signatures.c - the signature gate of each stage: the firmware's rule for what it starts, shim's for the rest */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/bootreport.h"
#include "sbat/efivar.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/input.h"
#include "sbat/judge.h"
#include "sbat/sigdb.h"
#include "sbat/sigverify.h"
#include "sbat/walk.h"

#include "pe/image_internal.h"
#include "pe/layout.h"
#include "sigdb/sigdb.h"
#include "walk/pending.h"
#include "walk/signatures.h"
#include "walk/walk.h"

/* The databases a boot is judged by, read once. */
struct walk_sigs {
	sbat_sigdb *db, *dbx, *mok, *mokx, *dbt;
	int db_known, dbx_known;   /* the variable was read (it may be empty) */
	int mok_known, mokx_known; /* read, or absent: shim mirrored nothing */
	int dbt_unknown;           /* dbt is there and does not read */
	int ignore_db;  /* MokIgnoreDB (shim's mirror of MokDBState) is one nonzero byte: shim trusts no db */
	int require_nx; /* MokPolicyRT (shim's mirror of MokPolicy) is one byte with MOK_POLICY_REQUIRE_NX */
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

/*
 * MokListRT alone into *ret, as shim 16.1's own check reads it
 * (check_allowlist: get_variable of MokListRT), not the pieces
 * MokListRT1..N it mirrors for the OS when the list is too large for one
 * variable: what they hold shim does not trust. Its state, or -1 after an
 * error note.
 */
static int
load_mok_rt(walk *w, sbat_sigdb **ret)
{
	char where[WALK_PATH_MAX + 128];
	uint8_t *buf = NULL;
	size_t len = 0;
	sbat_diag d;
	int state = -1;

	snprintf(where, sizeof(where), "%s/MokListRT-%s", w->efivarfs, SBAT_SIGDB_GUID_SHIM);
	if (sbat_sigdb_new(ret, &d) != SBAT_OK) {
		w->report_failed = 1;
		return -1;
	}
	if (sbat_efivar_read(w->efivarfs, "MokListRT-" SBAT_SIGDB_GUID_SHIM, SBAT_SIGDB_MAX_FILE, &buf, &len, &d) !=
	    SBAT_OK)
		walk_error(w, where, &d);
	else if (!buf)
		state = SBAT_SIGDB_VAR_MISSING;
	else if (len == 4)
		state = SBAT_SIGDB_VAR_EMPTY;
	else if (sigdb_append_at(*ret, buf + 4, len - 4, 4, "MokListRT", &d) == SBAT_OK)
		state = SBAT_SIGDB_VAR_LOADED;
	else
		walk_error(w, where, &d);
	free(buf);
	return state;
}

/* shim's one-byte mirror `name` (MokIgnoreDB-..., MokSBStateRT-...): its byte, or 0 when it is not one byte. */
static int
mok_byte(const char *efivarfs, const char *name)
{
	int v = -1;
	sbat_diag d;

	if (sbat_efivar_read_byte(efivarfs ? efivarfs : SBAT_EFIVAR_DIR, name, 1, &v, &d) != SBAT_OK)
		return 0;
	return v > 0 ? v : 0;
}

/* 1 when shim's one-byte mirror `name` is there and nonzero. */
static int
mok_flag(const char *efivarfs, const char *name)
{
	return mok_byte(efivarfs, name) != 0;
}

/* MokManager's requests (MokSBvar, MokDBvar, MokManager.c): the state asked for, the password's length, 16 CHAR16. */
#define MOK_REQUEST_SIZE 40u

/*
 * The request shim's variable `name` (MokSB, MokDB) holds: a note of
 * what0 (state 0) or what1 (another state). check_mok_request starts
 * MokManager for it, and mok_sb_prompt and mok_db_prompt take only this
 * size.
 */
static void
mok_request(walk *w, const char *name, sbat_boot_note_what what0, sbat_boot_note_what what1)
{
	char var[64], where[WALK_PATH_MAX + 128];
	uint8_t *buf = NULL;
	size_t len = 0;
	uint32_t state;
	sbat_diag d;

	snprintf(var, sizeof(var), "%s-%s", name, SBAT_SIGDB_GUID_SHIM);
	if (sbat_efivar_read(w->efivarfs, var, 0, &buf, &len, &d) != SBAT_OK || !buf || len != 4 + MOK_REQUEST_SIZE) {
		free(buf);
		return;
	}
	state = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 | (uint32_t)buf[6] << 16 | (uint32_t)buf[7] << 24;
	free(buf);
	snprintf(where, sizeof(where), "%s/%s", w->efivarfs, var);
	walk_fact(w, SBAT_BOOT_NOTE_ASSUMED, where, state == 0 ? what0 : what1);
}

void
signatures_mok_pending(walk *w)
{
	mok_request(w, "MokSB", SBAT_BOOT_NOTE_MOK_SB_DISABLE_PENDING, SBAT_BOOT_NOTE_MOK_SB_ENABLE_PENDING);
	mok_request(w, "MokDB", SBAT_BOOT_NOTE_MOK_DB_IGNORE_PENDING, SBAT_BOOT_NOTE_MOK_DB_USE_PENDING);
}

int
signatures_mok_ignore_db(const char *efivarfs)
{
	return mok_flag(efivarfs, "MokIgnoreDB-" SBAT_SIGDB_GUID_SHIM);
}

int
signatures_mok_insecure(const char *efivarfs)
{
	return mok_flag(efivarfs, "MokSBStateRT-" SBAT_SIGDB_GUID_SHIM);
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

/* A subject's "CN=..." (as UEFI CAs name themselves), or the whole subject when it has none; its length. */
static const char *
common_name(const char *subject, size_t *len)
{
	const char *cn = strncmp(subject, "CN=", 3) == 0 ? subject : strstr(subject, ", CN=");

	if (!cn) {
		*len = strlen(subject);
		return subject;
	}
	cn += cn == subject ? 0 : 2;
	*len = strcspn(cn, ",");
	return cn;
}

/* "db: certificates CN=..., CN=...; 2 image hashes; 3 SVN entries; 1 other": what a database trusts or forbids. */
static void
list_db(walk *w, sbat_boot_note_what what, const sbat_sigdb *db)
{
	char certs[1600] = "";
	size_t i, n_certs = 0, n_hashes = 0, n_other = 0, at = 0;
	sbat_boot_note note;
	const sbat_sigdb_entry *e;
	sbat_authenticode_cert *c = NULL;
	sbat_diag d;

	sbat_boot_note_init(&note);
	for (i = 0; (e = sbat_sigdb_get(db, i)) != NULL; i++) {
		if (e->type == SBAT_SIG_X509 && sbat_authenticode_cert_read(e->data, e->data_len, &c, &d) == SBAT_OK) {
			size_t n;
			const char *cn = common_name(c->subject, &n);

			if (at + n + 3 < sizeof(certs))
				at += (size_t)snprintf(certs + at, sizeof(certs) - at, "%s%.*s", n_certs ? "; " : "",
				                       (int)n, cn);
			n_certs++;
			sbat_authenticode_cert_free(c);
		} else if (sbat_sigdb_svn_read(e, note.svns < SBAT_BOOT_NOTE_SVN_MAX ? &note.svn[note.svns] : NULL)) {
			note.svns++;
		} else if (e->type == SBAT_SIG_SHA256) {
			n_hashes++;
		} else {
			n_other++;
		}
	}
	note.kind = SBAT_BOOT_NOTE_ASSUMED;
	note.what = what;
	note.count = n_certs;
	note.hashes = n_hashes;
	note.others = n_other;
	note.subjects = certs;
	walk_add_note(w, &note);
}

/* Apply the pending updates to s's databases; -1 after a note when one does not read. */
static int
apply_pending(walk *w, struct walk_sigs *s)
{
	pending_dbs t = { s->db, s->dbx, s->mok, s->mokx, s->db_known, s->dbx_known };
	int r = pending_apply(w, &t);

	s->db_known = t.db_known;
	s->dbx_known = t.dbx_known;
	return r;
}

int
signatures_load(walk *w)
{
	struct walk_sigs *s = calloc(1, sizeof(*s));

	if (!s)
		return -1;
	w->sigs = s;
	s->mode = secure_boot_mode(w);
	s->db_known = load_db(w, "db", SBAT_SIGDB_GUID_SECURITY_DB, &s->db) >= SBAT_SIGDB_VAR_EMPTY;
	s->dbx_known = load_db(w, "dbx", SBAT_SIGDB_GUID_SECURITY_DB, &s->dbx) >= SBAT_SIGDB_VAR_EMPTY;
	/* shim's lists: absent when nothing was enrolled and shim mirrored none */
	s->mok_known = load_mok_rt(w, &s->mok) >= 0;
	s->mokx_known = load_db(w, "MokListXRT", SBAT_SIGDB_GUID_SHIM, &s->mokx) >= 0;
	/* the timestamping authorities, for a dbx entry that revokes from a time on */
	s->dbt_unknown = load_db(w, "dbt", SBAT_SIGDB_GUID_SECURITY_DB, &s->dbt) < 0;
	s->ignore_db = signatures_mok_ignore_db(w->efivarfs);
	/* import_mok_state sets mok_policy to MokPolicy's byte when it is one byte (MOK_POLICY_REQUIRE_NX: 1) */
	s->require_nx = (mok_byte(w->efivarfs, "MokPolicyRT-" SBAT_SIGDB_GUID_SHIM) & 1) != 0;
	walk_fact(w, SBAT_BOOT_NOTE_ASSUMED, NULL, SBAT_BOOT_NOTE_SIGNATURES_VERIFIED);
	if (apply_pending(w, s) != 0)
		return 1;
	if (s->db_known)
		list_db(w, SBAT_BOOT_NOTE_DB, s->db);
	if (s->dbx_known)
		list_db(w, SBAT_BOOT_NOTE_DBX, s->dbx);
	return 0;
}

void
signatures_free(walk *w)
{
	if (!w->sigs)
		return;
	sbat_sigdb_free(w->sigs->db);
	sbat_sigdb_free(w->sigs->dbx);
	sbat_sigdb_free(w->sigs->mok);
	sbat_sigdb_free(w->sigs->mokx);
	sbat_sigdb_free(w->sigs->dbt);
	free(w->sigs);
	w->sigs = NULL;
}

void
signatures_enter_shim(walk *w, const sbat_image *shim, walk_shim_keys *saved)
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
signatures_leave_shim(walk *w, const walk_shim_keys *saved)
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
	o->dbt = s->dbt;
	o->dbt_unknown = s->dbt_unknown;
	if (!by_shim)
		return;
	o->mok = s->mok;
	o->mokx = s->mokx;
	o->ignore_db = s->ignore_db;
	o->vendor_db = w->shim_keys.o.vendor_db;
	o->vendor_dbx = w->shim_keys.o.vendor_dbx;
	o->vendor_cert = w->shim_keys.o.vendor_cert;
	o->vendor_cert_len = w->shim_keys.o.vendor_cert_len;
}

/* What did not read, so that the rule is not known; SBAT_BOOT_SIG_READ when everything did. */
static sbat_boot_sig_unread
unread(const walk *w, int by_shim)
{
	/* Secure Boot off or setup mode: neither EDK2 nor shim reads a database (the rule says so) */
	if (w->sigs->mode == SBAT_SIGVERIFY_NOT_ENFORCING)
		return SBAT_BOOT_SIG_READ;
	if (!w->sigs->db_known || !w->sigs->dbx_known)
		return SBAT_BOOT_SIG_UNREAD_DB;
	if (by_shim && !w->sigs->mok_known)
		return SBAT_BOOT_SIG_UNREAD_MOK;
	if (by_shim && !w->sigs->mokx_known)
		return SBAT_BOOT_SIG_UNREAD_MOKX;
	if (by_shim && w->shim_keys.unreadable)
		return SBAT_BOOT_SIG_UNREAD_VENDOR_CERT;
	return SBAT_BOOT_SIG_READ;
}

/* What the check that accepted the image measures into PCR 7 (bootreport.h's signature_authority), into f. */
static void
record_authority(sbat_boot_stage *st, const sbat_sigverify *v, const sbat_sigverify_opts *o, signatures_facts *f)
{
	const sbat_sigdb_entry *e = v->entry;

	if (v->db == SBAT_SIGVERIFY_VENDOR_CERT && o->vendor_cert && o->vendor_cert_len <= sizeof(f->authority)) {
		memcpy(f->authority, o->vendor_cert, o->vendor_cert_len);
		st->signature_authority_len = o->vendor_cert_len;
	} else if ((v->db == SBAT_SIGVERIFY_DB || v->db == SBAT_SIGVERIFY_MOK || v->db == SBAT_SIGVERIFY_VENDOR_DB) &&
	           e && e->data_len <= sizeof(f->authority) - 16) {
		memcpy(f->authority, e->owner, 16);
		memcpy(f->authority + 16, e->data, e->data_len);
		st->signature_authority_len = 16 + e->data_len;
	} else {
		return;
	}
	st->signature_authority = f->authority;
}

/* 1 when a section is loaded writable and executable, as handle_image refuses under MOK_POLICY_REQUIRE_NX. */
static int
has_wx_section(const sbat_image *img)
{
	const uint32_t wx = IMAGE_SCN_MEM_WRITE | IMAGE_SCN_MEM_EXECUTE | IMAGE_SCN_MEM_READ;
	const sbat_section_info *sec;
	unsigned i;

	for (i = 0; (sec = sbat_image_section(img, i)); i++)
		if ((sec->characteristics & wx) == wx && !(sec->characteristics & IMAGE_SCN_MEM_DISCARDABLE))
			return 1;
	return 0;
}

/*
 * 1 when shim's MokPolicy (MOK_POLICY_REQUIRE_NX) refuses the image of
 * stage `stage`: read_header, for every image shim loads or verifies,
 * refuses one whose DllCharacteristics lack NX_COMPAT; handle_image, for
 * what shim starts itself (stage 2), one with a writable and executable
 * section. Past stage 2 shim is asked only while Secure Boot is on.
 */
static int
nx_refused(const walk *w, const image *im, int stage)
{
	if (!w->sigs->require_nx || (stage > 2 && w->sigs->mode != SBAT_SIGVERIFY_ENFORCING))
		return 0;
	if (!(im->img->pe.dll_characteristics & IMAGE_DLLCHARACTERISTICS_NX_COMPAT))
		return 1;
	return stage == 2 && has_wx_section(im->img);
}

sbat_verdict
signatures_judge(walk *w, const image *im, int by_shim, sbat_boot_stage *st, signatures_facts *f)
{
	sbat_sigverify_opts o;
	sbat_sigverify *v = NULL;

	st->signature_judged = 1;
	st->signature_verdict = SBAT_VERDICT_UNKNOWN;
	st->signature_rule = by_shim ? SBAT_SIGVERIFY_SHIM : SBAT_SIGVERIFY_FIRMWARE;
	if (by_shim && nx_refused(w, im, st->stage)) {
		/* shim's read_header refuses it before any check, in insecure mode too */
		st->signature_reason = (int)SBAT_SIGVERIFY_NX_REQUIRED;
		st->signature_verdict = SBAT_VERDICT_REFUSED;
		return SBAT_VERDICT_REFUSED;
	}
	if (by_shim && w->insecure && w->sigs->mode == SBAT_SIGVERIFY_ENFORCING) {
		/* shim in insecure mode checks no signature, whatever its databases hold */
		st->signature_reason = (int)SBAT_SIGVERIFY_INSECURE_MODE;
		st->signature_verdict = SBAT_VERDICT_BOOTS;
		return SBAT_VERDICT_BOOTS;
	}
	st->signature_unread = unread(w, by_shim);
	if (st->signature_unread != SBAT_BOOT_SIG_READ)
		return SBAT_VERDICT_UNKNOWN;
	rule_opts(w, by_shim, &o);
	o.fd = im->map ? sbat_mapped_file_fd(im->map) : -1;
	if (sbat_sigverify_image(im->img, &o, &v, &st->signature_diag) != SBAT_OK) {
		st->signature_unread = SBAT_BOOT_SIG_UNREAD_IMAGE;
		return SBAT_VERDICT_UNKNOWN;
	}
	memcpy(f->subject, v->subject, sizeof(f->subject));
	f->subject[sizeof(f->subject) - 1] = '\0';
	st->signature_reason = (int)v->reason;
	st->signature_db = (int)v->db;
	st->signature_subject = f->subject[0] ? f->subject : NULL;
	st->signature_sha1 = v->hash_sha1;
	st->signature_hash_alg = (int)v->hash_alg;
	st->signature_several = v->n_sigs > 1;
	st->signature_by_sig = v->sig >= 0;
	if (v->signatures) {
		/* the firmware's hash (Tcg2's PE/COFF measurement, and shim's, which asks the firmware for it) */
		memcpy(st->image_sha256, v->signatures->image_hash, sizeof(st->image_sha256));
		st->image_sha256_known = 1;
	}
	if (v->verdict == SBAT_VERDICT_BOOTS)
		record_authority(st, v, &o, f);
	st->signature_verdict = v->verdict == SBAT_VERDICT_BOOTS || v->verdict == SBAT_VERDICT_REFUSED ?
	                            v->verdict :
	                            SBAT_VERDICT_UNKNOWN;
	sbat_sigverify_free(v);
	return st->signature_verdict;
}

const sbat_sigdb *
signatures_dbx_enforced(const walk *w)
{
	const struct walk_sigs *s = w->sigs;

	return s && s->mode == SBAT_SIGVERIFY_ENFORCING && s->dbx_known ? s->dbx : NULL;
}

void
signatures_gate(walk *w, const image *im, int by_shim, sbat_boot_stage *st, signatures_facts *f)
{
	if (w->sigs && im->img)
		signatures_judge(w, im, by_shim, st, f);
}
