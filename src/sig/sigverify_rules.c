/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigverify_rules.c - EDK2's and shim's rules over one image's signatures and the databases */
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/sigdb.h"
#include "sbat/sigverify.h"

#include "sig/authenticode_internal.h"
#include "sig/chain.h"
#include "sig/pkcs7.h"
#include "sig/sigset.h"
#include "sig/sigverify_rules.h"
#include "sig/x509.h"

#define WIN_CERT_TYPE_PKCS_SIGNED_DATA 0x0002

/* A database and its name, in the order a rule reads them. */
typedef struct dbref {
	const sbat_sigdb *db;
	sbat_sigverify_db which;
} dbref;

static void
decide(sigverify_run *r, sbat_verdict verdict, sbat_sigverify_reason reason, sbat_sigverify_db db,
       const sbat_sigdb_entry *entry)
{
	r->v.verdict = verdict;
	r->v.reason = reason;
	r->v.db = db;
	r->v.entry = entry;
	r->v.sig = -1;
	r->v.cert = -1;
	r->v.subject[0] = '\0';
	r->v.assumes_valid = 0;
	r->v.hash_sha1 = 0;
	r->v.hash_alg = SBAT_DIGEST_UNKNOWN;
}

/* The verdict is that the image's hash by alg is the entry e of the database `db`. */
static void
decide_hash(sigverify_run *r, sbat_verdict verdict, sbat_sigverify_reason reason, sbat_sigverify_db db,
            const sbat_sigdb_entry *e, sbat_digest_alg alg)
{
	decide(r, verdict, reason, db, e);
	r->v.hash_sha1 = alg == SBAT_DIGEST_SHA1;
	r->v.hash_alg = alg;
}

/* The verdict is what became of signature i. */
static void
decide_sig(sigverify_run *r, sbat_verdict verdict, sbat_sigverify_reason reason, size_t i)
{
	const sbat_sigverify_sig *vs = &r->sigs[i];

	decide(r, verdict, reason, vs->db, vs->entry);
	r->v.sig = (int)i;
	r->v.cert = vs->cert;
	memcpy(r->v.subject, r->subjects[i], sizeof(r->v.subject));
}

static void
mark(sigverify_run *r, size_t i, sbat_sigverify_state state, sbat_sigverify_db db, const sbat_sigdb_entry *entry,
     const chain_match *m)
{
	r->sigs[i].state = state;
	r->sigs[i].db = db;
	r->sigs[i].entry = entry;
	r->sigs[i].cert = m ? m->cert : -1;
	if (m)
		memcpy(r->subjects[i], m->subject, sizeof(r->subjects[i]));
}

/*
 * 1 when signature i can meet a certificate: its digest is the image's
 * hash (EDK2: its SpcIndirectDataContent ends in the hash by the algorithm
 * HashPeImageByType took) and its SignerInfo verifies.
 */
static int
usable(const sigverify_run *r, size_t i)
{
	const pkcs7_signers *g = sigset_signers(r->a, i);
	int covers = r->o.rule == SBAT_SIGVERIFY_FIRMWARE ? g->fw_covers : r->a->sigs[i].covers_image == 1;

	return covers && r->a->sigs[i].signature_verifies == 1;
}

/* Signature i met a certificate by name and did not reach it (m->fail): the first such is kept. */
static void
note_failed(sigverify_run *r, size_t i, const chain_match *m)
{
	if (m->fail != CHAIN_OK && r->failed[i].fail == CHAIN_OK)
		r->failed[i] = *m;
}

size_t
sigverify_chain(const sigverify_run *r, size_t i, int *out)
{
	const pkcs7_signers *g = sigset_signers(r->a, i);
	size_t k;

	for (k = 0; k < g->n; k++)
		if (g->cert[k] < 0)
			return 0;
	return g->unwrappable ? 0 : chain_build(&r->a->sigs[i], out);
}

/* 1 when the chain of signature i's SignerInfo k (after the first) reaches bytes[0..len) too; else *m says where. */
static int
other_reaches(const sigverify_run *r, size_t i, size_t k, const uint8_t *bytes, size_t len, chain_match *m)
{
	sbat_authenticode_sig t = r->a->sigs[i];
	uint8_t links[PKCS7_MAX_CERTS];
	int chain[PKCS7_MAX_CERTS];
	size_t n;

	t.signer_cert = sigset_signers(r->a, i)->cert[k];
	n = chain_build(&t, chain);
	chain_links(&t, chain, n, links);
	return chain_reaches(&t, chain, links, n, bytes, len, m);
}

/*
 * signature i's chain reaches the certificate bytes[0..len) (chain_reaches),
 * and so does every other SignerInfo's: PKCS7_verify verifies each
 * signer's chain against the one certificate it is given. A failure is
 * noted.
 */
static int
reaches(sigverify_run *r, size_t i, const uint8_t *bytes, size_t len, chain_match *m)
{
	const sbat_sigverify_sig *vs = &r->sigs[i];
	size_t at = (size_t)(vs->chain - r->chains), k;
	chain_match other;

	if (!chain_reaches(&r->a->sigs[i], vs->chain, r->links + at, vs->n_chain, bytes, len, m))
		return 0;
	for (k = 1; k < sigset_signers(r->a, i)->n; k++) {
		if (!other_reaches(r, i, k, bytes, len, &other)) {
			*m = other;
			return 0;
		}
	}
	return 1;
}

int
sigverify_has_type(const sbat_sigdb *db, sbat_sig_type type)
{
	const sbat_sigdb_entry *e;
	size_t k;

	for (k = 0; db && (e = sbat_sigdb_get(db, k)); k++)
		if (e->type == type)
			return 1;
	return 0;
}

/*
 * 1 when entry k of db is the first of its signature list: none before it
 * came from the same list of the same append (when a list's first entry
 * was left out as a duplicate of an earlier one, its second is taken).
 */
static int
first_of_list(const sbat_sigdb *db, size_t k)
{
	const sbat_sigdb_entry *e = sbat_sigdb_get(db, k), *p = k ? sbat_sigdb_get(db, k - 1) : NULL;

	return !p || p->source != e->source || p->list != e->list;
}

/*
 * Whether shim's check_db_cert_in_ram tries entry e, the first of its list
 * (its DER read into m by chain_reaches): verify_x509 takes only a DER
 * certificate whose length is written in two bytes and fills the entry,
 * and verify_eku turns away one whose extendedKeyUsage names module
 * signing only (as the keys DKMS enrolls in MokList do). EDK2 has neither.
 */
static int
shim_tries(const sigverify_run *r, const sbat_sigdb_entry *e, const chain_match *m)
{
	if (r->o.rule != SBAT_SIGVERIFY_SHIM)
		return 1;
	if (e->data_len < 4 || e->data[0] != 0x30 || e->data[1] != 0x82 ||
	    ((size_t)e->data[2] << 8 | e->data[3]) != e->data_len - 4)
		return 0;
	return !m->module_signing;
}

/* The first EFI_CERT_X509 entry of db that signature i's chain reaches, or NULL. */
static const sbat_sigdb_entry *
db_cert(sigverify_run *r, const sbat_sigdb *db, size_t i, chain_match *m)
{
	const sbat_sigdb_entry *e;
	size_t k;

	if (!db || !usable(r, i))
		return NULL;
	for (k = 0; (e = sbat_sigdb_get(db, k)); k++) {
		if (e->type != SBAT_SIG_X509)
			continue;
		/* shim's check_db_cert_in_ram reads the first certificate of each X.509 list only; EDK2 all */
		if (r->o.rule == SBAT_SIGVERIFY_SHIM && !first_of_list(db, k))
			continue;
		if (reaches(r, i, e->data, e->data_len, m) && shim_tries(r, e, m))
			return e;
		if (shim_tries(r, e, m))
			note_failed(r, i, m);
	}
	return NULL;
}

/*
 * Each signature that met a certificate and did not reach it takes the
 * state that says why (its signer's signature was found bad already).
 * Returns the first readable one so marked, or -1.
 */
static int
settle_failed(sigverify_run *r)
{
	const chain_match *m;
	int first = -1;
	size_t i;

	for (i = 0; i < r->a->n_sigs; i++) {
		m = &r->failed[i];
		if (r->sigs[i].state == SBAT_SIGVERIFY_SIG_NOT_ALLOWED && m->fail != CHAIN_OK) {
			r->sigs[i].state = m->fail == CHAIN_NOT_CA ? SBAT_SIGVERIFY_SIG_NOT_CA :
			                                             SBAT_SIGVERIFY_SIG_BAD_SIGNATURE;
			r->sigs[i].cert = m->cert;
			memcpy(r->subjects[i], m->subject, sizeof(r->subjects[i]));
		}
		if (first < 0 && (r->sigs[i].state == SBAT_SIGVERIFY_SIG_BAD_SIGNATURE ||
		                  r->sigs[i].state == SBAT_SIGVERIFY_SIG_NOT_CA))
			first = (int)i;
	}
	return first;
}

/* Nothing accepted the image: refused because signature `bad` does not verify, or for want of an allowed one. */
static void
refuse(sigverify_run *r, int bad)
{
	if (bad < 0) {
		decide(r, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_NOT_ALLOWED, SBAT_SIGVERIFY_DB_NONE, NULL);
		return;
	}
	decide_sig(r, SBAT_VERDICT_REFUSED,
	           r->sigs[bad].state == SBAT_SIGVERIFY_SIG_NOT_CA ? SBAT_SIGVERIFY_NOT_CA :
	                                                             SBAT_SIGVERIFY_BAD_SIGNATURE,
	           (size_t)bad);
	r->v.db = SBAT_SIGVERIFY_DB_NONE;
	r->v.entry = NULL;
}

static const sbat_sigdb_entry *
db_hash(const sigverify_run *r, const sbat_sigdb *db)
{
	return db ? sbat_sigdb_find(db, SBAT_SIG_SHA256, r->v.image_hash, 32) : NULL;
}

/*
 * IsSignatureFoundInDatabase: the entry of db holding the image's hash by
 * alg (EDK2's rule), of the type for it (EFI_CERT_SHA1, _SHA256, _SHA384,
 * _SHA512), or NULL; a hash not computed is in no list.
 */
static const sbat_sigdb_entry *
fw_hash(const sigverify_run *r, const sbat_sigdb *db, sbat_digest_alg alg)
{
	const uint8_t *digest;
	size_t n;

	if (!db || alg == SBAT_DIGEST_SHA256)
		return db_hash(r, db);
	if (!(digest = authenticode_image_digest(r->a, alg, &n)))
		return NULL;
	return sbat_sigdb_find(db,
	                       alg == SBAT_DIGEST_SHA1   ? SBAT_SIG_SHA1 :
	                       alg == SBAT_DIGEST_SHA384 ? SBAT_SIG_SHA384 :
	                                                   SBAT_SIG_SHA512,
	                       digest, n);
}

/*
 * PassTimestampCheck fails for certain for an EFI_CERT_X509_SHA256, _SHA384
 * or _SHA512 entry (TBS hash, then the EFI_TIME it revokes from) whose time
 * is zero (as IsTimeZero reads it: Year to Second, not Nanosecond nor the
 * time zone), or when dbt holds no certificate; otherwise a timestamp could
 * let the signature pass: 0.
 */
static int
revoked_for_certain(const sigverify_run *r, const sbat_sigdb_entry *e)
{
	static const uint8_t zero_time[7]; /* EFI_TIME's Year (2 bytes), Month, Day, Hour, Minute, Second */

	if (e->data_len < 16 + 32 || memcmp(e->data + e->data_len - 16, zero_time, sizeof(zero_time)) == 0)
		return 1;
	return !r->o.dbt_unknown && !sigverify_has_type(r->o.dbt, SBAT_SIG_X509);
}

/*
 * IsCertHashFoundInDbx: the first EFI_CERT_X509_SHA256, _SHA384 or _SHA512
 * entry of dbx holding the TBS hash, by its algorithm, of the certificate
 * cert[0..len) (its SHA-256 given: tbs_sha256), or NULL.
 */
static const sbat_sigdb_entry *
dbx_cert_hash(const sigverify_run *r, const uint8_t *cert, size_t len, const uint8_t *tbs_sha256)
{
	static const sbat_digest_alg algs[] = { SBAT_DIGEST_SHA256, SBAT_DIGEST_SHA384, SBAT_DIGEST_SHA512 };
	uint8_t tbs[3][SBAT_AUTHENTICODE_DIGEST_MAX];
	size_t tbs_len[3] = { 0, 0, 0 }, k, j;
	const sbat_sigdb_entry *e;

	memcpy(tbs[0], tbs_sha256, 32);
	tbs_len[0] = 32;
	for (k = 0; r->o.dbx && (e = sbat_sigdb_get(r->o.dbx, k)); k++) {
		if (e->type != SBAT_SIG_X509_SHA256 && e->type != SBAT_SIG_X509_SHA384 &&
		    e->type != SBAT_SIG_X509_SHA512)
			continue;
		j = e->type == SBAT_SIG_X509_SHA256 ? 0 : e->type == SBAT_SIG_X509_SHA384 ? 1 : 2;
		if (!tbs_len[j] && !(tbs_len[j] = x509_tbs_hash(cert, len, algs[j], tbs[j])))
			return NULL;
		if (e->data_len == tbs_len[j] + 16 && memcmp(e->data, tbs[j], tbs_len[j]) == 0)
			return e;
	}
	return NULL;
}

/* The dbx entry of the first SignerInfo certificate of signature i whose TBS hash it holds (Pkcs7GetSigners), or NULL. */
static const sbat_sigdb_entry *
signer_tbs_in_dbx(const sigverify_run *r, size_t i, int *ret_cert)
{
	const sbat_authenticode_sig *s = &r->a->sigs[i];
	const pkcs7_signers *g = sigset_signers(r->a, i);
	const sbat_authenticode_cert *c;
	const sbat_sigdb_entry *e;
	size_t k;

	for (k = 0; k < g->n; k++) {
		c = &s->certs[g->cert[k]];
		if ((e = dbx_cert_hash(r, c->der, c->der_len, c->tbs_sha256))) {
			*ret_cert = g->cert[k];
			return e;
		}
	}
	return NULL;
}

/* IsForbiddenByDbx: a dbx certificate the chain reaches, no signer certificate, or a signer's TBS hash. */
static int
fw_forbidden(sigverify_run *r, size_t i)
{
	const sbat_authenticode_sig *s = &r->a->sigs[i];
	const sbat_sigdb_entry *e;
	chain_match m;

	if (!r->o.dbx)
		return 0;
	if ((e = db_cert(r, r->o.dbx, i, &m))) {
		mark(r, i, SBAT_SIGVERIFY_SIG_FORBIDDEN, SBAT_SIGVERIFY_DBX, e, &m);
		decide_sig(r, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_CERT_FORBIDDEN, i);
		return 1;
	}
	if (r->sigs[i].n_chain == 0) {
		mark(r, i, SBAT_SIGVERIFY_SIG_FORBIDDEN, SBAT_SIGVERIFY_DBX, NULL, NULL);
		decide_sig(r, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_SIGNER_MISSING, i);
		return 1;
	}
	memset(&m, 0, sizeof(m));
	if (!(e = signer_tbs_in_dbx(r, i, &m.cert)))
		return 0;
	memcpy(m.subject, s->certs[m.cert].subject, sizeof(m.subject));
	if (!revoked_for_certain(r, e)) {
		mark(r, i, SBAT_SIGVERIFY_SIG_NOT_ALLOWED, SBAT_SIGVERIFY_DBX, e, &m);
		decide_sig(r, SBAT_VERDICT_UNKNOWN, SBAT_SIGVERIFY_TIMESTAMP_NOT_CHECKED, i);
		r->v.timestamps_ignored = 1;
		return 1;
	}
	mark(r, i, SBAT_SIGVERIFY_SIG_FORBIDDEN, SBAT_SIGVERIFY_DBX, e, &m);
	decide_sig(r, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_CERT_HASH_FORBIDDEN, i);
	return 1;
}

/* IsAllowedByDb: the first db certificate the chain reaches, unless dbx holds its TBS hash. */
static int
fw_allowed(sigverify_run *r, size_t i)
{
	const sbat_sigdb_entry *e, *x;
	chain_match m;

	if (!(e = db_cert(r, r->o.db, i, &m)))
		return 0;
	x = m.have_tbs ? dbx_cert_hash(r, e->data, e->data_len, m.tbs_sha256) : NULL;
	if (x) {
		mark(r, i, SBAT_SIGVERIFY_SIG_REVOKED_ROOT, SBAT_SIGVERIFY_DBX, x, &m);
		r->root_time_unknown |= !revoked_for_certain(r, x);
		return 0;
	}
	mark(r, i, SBAT_SIGVERIFY_SIG_ALLOWED, SBAT_SIGVERIFY_DB, e, &m);
	return 1;
}

/* One WIN_CERTIFICATE's signature in DxeImageVerificationHandler's loop: 1 when it stops the loop (refused). */
static int
fw_signature(sigverify_run *r, size_t i, int *verified)
{
	sbat_digest_alg alg = sigset_signers(r->a, i)->fw_alg; /* HashPeImageByType: the image hashed by it */
	const sbat_sigdb_entry *e;

	if (fw_forbidden(r, i))
		return 1;
	if (fw_allowed(r, i) && !*verified) {
		*verified = 1;
		decide_sig(r, SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_CERT_ALLOWED, i);
	}
	if ((e = fw_hash(r, r->o.dbx, alg))) {
		decide_hash(r, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_HASH_FORBIDDEN, SBAT_SIGVERIFY_DBX, e, alg);
		return 1;
	}
	if (!*verified && (e = fw_hash(r, r->o.db, alg))) {
		*verified = 1;
		decide_hash(r, SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_HASH_ALLOWED, SBAT_SIGVERIFY_DB, e, alg);
	}
	return 0;
}

/* An unsigned image: its hash by each algorithm EDK2 has (mHash, from the last), refused by any in dbx. */
static void
fw_unsigned(sigverify_run *r)
{
	static const sbat_digest_alg algs[] = { SBAT_DIGEST_SHA512, SBAT_DIGEST_SHA384, SBAT_DIGEST_SHA256,
		                                SBAT_DIGEST_SHA1 };
	const sbat_sigdb_entry *e, *allowed = NULL;
	sbat_digest_alg allowed_alg = SBAT_DIGEST_SHA256;
	size_t k;

	for (k = 0; k < sizeof(algs) / sizeof(algs[0]); k++) {
		if ((e = fw_hash(r, r->o.dbx, algs[k]))) {
			decide_hash(r, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_HASH_FORBIDDEN, SBAT_SIGVERIFY_DBX, e,
			            algs[k]);
			return;
		}
		if (!allowed && (allowed = fw_hash(r, r->o.db, algs[k])))
			allowed_alg = algs[k];
	}
	if (allowed)
		decide_hash(r, SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_HASH_ALLOWED, SBAT_SIGVERIFY_DB, allowed,
		            allowed_alg);
	else
		decide(r, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_NOT_ALLOWED, SBAT_SIGVERIFY_DB_NONE, NULL);
}

/* 1 when the rule reads signature i: a WIN_CERTIFICATE's own, naming a digest the rule computes. */
static int
readable(const sigverify_run *r, size_t i)
{
	return r->sigs[i].state != SBAT_SIGVERIFY_SIG_NESTED && r->sigs[i].state != SBAT_SIGVERIFY_SIG_NOT_COMPUTED;
}

/* 1 when a loader's walk of the table (shim: 1) gives up before it reads signature i: at its entry or before. */
static int
walk_stops(const sigverify_run *r, size_t i, int shim)
{
	const table_stop *t = sigset_table_stop(r->a, shim);

	return t && r->a->sigs[i].entry >= t->entry;
}

/* The loader's walk of the table (shim: 1) gave up: refused, and where. */
static void
refuse_table(sigverify_run *r, int shim)
{
	const table_stop *t = sigset_table_stop(r->a, shim);

	decide(r, SBAT_VERDICT_REFUSED,
	       !shim && sigset_unpadded_end(r->a) ? SBAT_SIGVERIFY_TABLE_UNPADDED : SBAT_SIGVERIFY_TABLE_CORRUPT,
	       SBAT_SIGVERIFY_DB_NONE, NULL);
	r->v.table_problem = t->what;
	r->v.table_problem_offset = t->offset;
}

void
sigverify_firmware(sigverify_run *r)
{
	int verified = 0, stopped = 0, bad;
	size_t i;

	if (r->a->n_entries == 0) {
		fw_unsigned(r);
		return;
	}
	for (i = 0; i < r->a->n_sigs; i++) {
		if (!readable(r, i))
			continue;
		if (stopped || walk_stops(r, i, 0))
			r->sigs[i].state = SBAT_SIGVERIFY_SIG_NOT_REACHED;
		else
			stopped = fw_signature(r, i, &verified);
	}
	bad = settle_failed(r);
	if (!stopped && sigset_table_stop(r->a, 0)) {
		refuse_table(r, 0);
		return;
	}
	if (stopped || verified)
		return;
	if (r->root_time_unknown) {
		decide(r, SBAT_VERDICT_UNKNOWN, SBAT_SIGVERIFY_TIMESTAMP_NOT_CHECKED, SBAT_SIGVERIFY_DB_NONE, NULL);
		r->v.timestamps_ignored = 1;
	} else
		refuse(r, bad);
}

/* A list shim compares the image hash with: by its SHA-256, or (sha1) its SHA-1 against EFI_CERT_SHA1 entries. */
typedef struct hashref {
	const sbat_sigdb *db;
	sbat_sigverify_db which;
	int sha1;
} hashref;

static const sbat_sigdb_entry *
hash_entry(const sigverify_run *r, const hashref *h)
{
	if (!h->sha1)
		return db_hash(r, h->db);
	return r->have_sha1 ? sbat_sigdb_find(h->db, SBAT_SIG_SHA1, r->sha1, 20) : NULL;
}

/* The first of n lists holding the image hash: its verdict decided; 1 when one did. */
static int
hash_in(sigverify_run *r, const hashref *lists, size_t n, sbat_verdict verdict, sbat_sigverify_reason reason)
{
	const sbat_sigdb_entry *e;
	size_t k;

	for (k = 0; k < n; k++)
		if ((e = hash_entry(r, &lists[k]))) {
			decide_hash(r, verdict, reason, lists[k].which, e,
			            lists[k].sha1 ? SBAT_DIGEST_SHA1 : SBAT_DIGEST_SHA256);
			return 1;
		}
	return 0;
}

/*
 * check_denylist(NULL, ...), then (unless the image is a part of one shim
 * verified) check_allowlist(NULL, ...), in their order: 1 when they decided.
 */
static int
shim_hashes(sigverify_run *r)
{
	const sbat_sigdb *db = r->o.ignore_db ? NULL : r->o.db;
	const hashref deny[] = { { r->o.vendor_dbx, SBAT_SIGVERIFY_VENDOR_DBX, 0 },
		                 { r->o.vendor_dbx, SBAT_SIGVERIFY_VENDOR_DBX, 1 },
		                 { r->o.dbx, SBAT_SIGVERIFY_DBX, 0 },
		                 { r->o.dbx, SBAT_SIGVERIFY_DBX, 1 },
		                 { r->o.mokx, SBAT_SIGVERIFY_MOKX, 0 } };
	const hashref allow[] = { { db, SBAT_SIGVERIFY_DB, 0 },
		                  { db, SBAT_SIGVERIFY_DB, 1 },
		                  { r->o.vendor_db, SBAT_SIGVERIFY_VENDOR_DB, 0 },
		                  { r->o.mok, SBAT_SIGVERIFY_MOK, 0 } };

	if (hash_in(r, deny, sizeof(deny) / sizeof(deny[0]), SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_HASH_FORBIDDEN))
		return 1;
	if (r->o.parent_verified) {
		decide(r, SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_PARENT_VERIFIED, SBAT_SIGVERIFY_DB_NONE, NULL);
		return 1;
	}
	return hash_in(r, allow, sizeof(allow) / sizeof(allow[0]), SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_HASH_ALLOWED);
}

/* The first of n lists with a certificate signature i's chain reaches: its index, or -1; *ret_e and *m set. */
static int
cert_in(sigverify_run *r, size_t i, const dbref *lists, size_t n, const sbat_sigdb_entry **ret_e, chain_match *m)
{
	size_t k;

	for (k = 0; k < n; k++)
		if ((*ret_e = db_cert(r, lists[k].db, i, m)))
			return (int)k;
	return -1;
}

/* verify_one_signature: forbidden (-1), allowed (1) or neither (0), marked. */
static int
shim_signature(sigverify_run *r, size_t i)
{
	const dbref deny[] = { { r->o.vendor_dbx, SBAT_SIGVERIFY_VENDOR_DBX },
		               { r->o.dbx, SBAT_SIGVERIFY_DBX },
		               { r->o.mokx, SBAT_SIGVERIFY_MOKX } };
	const dbref allow[] = { { r->o.ignore_db ? NULL : r->o.db, SBAT_SIGVERIFY_DB },
		                { r->o.vendor_db, SBAT_SIGVERIFY_VENDOR_DB },
		                { r->o.mok, SBAT_SIGVERIFY_MOK } };
	const sbat_sigdb_entry *e;
	chain_match m;
	int k;

	if ((k = cert_in(r, i, deny, 3, &e, &m)) >= 0) {
		mark(r, i, SBAT_SIGVERIFY_SIG_FORBIDDEN, deny[k].which, e, &m);
		return -1;
	}
	if ((k = cert_in(r, i, allow, 3, &e, &m)) >= 0) {
		mark(r, i, SBAT_SIGVERIFY_SIG_ALLOWED, allow[k].which, e, &m);
		return 1;
	}
	if (!r->o.vendor_cert || !usable(r, i))
		return 0;
	if (reaches(r, i, r->o.vendor_cert, r->o.vendor_cert_len, &m)) {
		mark(r, i, SBAT_SIGVERIFY_SIG_ALLOWED, SBAT_SIGVERIFY_VENDOR_CERT, NULL, &m);
		return 1;
	}
	note_failed(r, i, &m);
	return 0;
}

/*
 * A certificate of db that signature i's chain reaches among those shim
 * passes over: the first of an X.509 list (later 0: in a db shim ignores)
 * or one after it (later 1), one shim would take were it tried; or NULL.
 */
static const sbat_sigdb_entry *
unused_cert(sigverify_run *r, const sbat_sigdb *db, size_t i, int later, chain_match *m)
{
	const sbat_sigdb_entry *e;
	size_t k;

	if (!db || !usable(r, i))
		return NULL;
	for (k = 0; (e = sbat_sigdb_get(db, k)); k++)
		if (e->type == SBAT_SIG_X509 && first_of_list(db, k) != later &&
		    reaches(r, i, e->data, e->data_len, m) && shim_tries(r, e, m))
			return e;
	return NULL;
}

/* The verdict is that signature i would be allowed by the entry e of `db`, which shim passes over: refused. */
static int
decide_unused(sigverify_run *r, sbat_sigverify_reason reason, sbat_sigverify_db db, size_t i, const sbat_sigdb_entry *e,
              const chain_match *m)
{
	decide(r, SBAT_VERDICT_REFUSED, reason, db, e);
	r->v.sig = (int)i;
	r->v.cert = m->cert;
	memcpy(r->v.subject, m->subject, sizeof(r->v.subject));
	return 1;
}

/*
 * Nothing allowed the image: 1 when only what shim passes over would have,
 * the verdict decided: db's hash or certificate while MokIgnoreDB is set
 * (DB_IGNORED), or a certificate after the first of its X.509 list in a
 * database shim reads (CERT_NOT_FIRST).
 */
static int
shim_unused(sigverify_run *r)
{
	const hashref db_hashes[] = { { r->o.db, SBAT_SIGVERIFY_DB, 0 }, { r->o.db, SBAT_SIGVERIFY_DB, 1 } };
	const dbref lists[] = { { r->o.ignore_db ? NULL : r->o.db, SBAT_SIGVERIFY_DB },
		                { r->o.vendor_db, SBAT_SIGVERIFY_VENDOR_DB },
		                { r->o.mok, SBAT_SIGVERIFY_MOK } };
	const sbat_sigdb_entry *e;
	chain_match m;
	size_t i, k;

	if (r->o.ignore_db && hash_in(r, db_hashes, 2, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_DB_IGNORED))
		return 1;
	for (i = 0; i < r->a->n_sigs; i++) {
		if (!readable(r, i) || r->a->sigs[i].cert_type != WIN_CERT_TYPE_PKCS_SIGNED_DATA)
			continue;
		if (r->o.ignore_db && (e = unused_cert(r, r->o.db, i, 0, &m)))
			return decide_unused(r, SBAT_SIGVERIFY_DB_IGNORED, SBAT_SIGVERIFY_DB, i, e, &m);
		for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++)
			if ((e = unused_cert(r, lists[k].db, i, 1, &m)))
				return decide_unused(r, SBAT_SIGVERIFY_CERT_NOT_FIRST, lists[k].which, i, e, &m);
	}
	return 0;
}

void
sigverify_shim(sigverify_run *r)
{
	int first_ok = -1, first_bad = -1, got, bad;
	size_t i;

	if (shim_hashes(r))
		return;
	for (i = 0; i < r->a->n_sigs; i++) {
		if (!readable(r, i))
			continue;
		if (r->a->sigs[i].cert_type != WIN_CERT_TYPE_PKCS_SIGNED_DATA || walk_stops(r, i, 1)) {
			/* verify_buffer_authenticode passes over an entry of another type */
			r->sigs[i].state = SBAT_SIGVERIFY_SIG_NOT_REACHED;
			continue;
		}
		got = shim_signature(r, i);
		if (got > 0 && first_ok < 0)
			first_ok = (int)i;
		if (got < 0 && first_bad < 0)
			first_bad = (int)i;
	}
	bad = settle_failed(r);
	if (sigset_table_stop(r->a, 1))
		refuse_table(r, 1); /* verify_buffer_authenticode returns EFI_INVALID_PARAMETER, whatever came before */
	else if (first_ok >= 0)
		decide_sig(r, SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_CERT_ALLOWED, (size_t)first_ok);
	else if (first_bad >= 0)
		decide_sig(r, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_CERT_FORBIDDEN, (size_t)first_bad);
	else if (bad >= 0 || !shim_unused(r))
		refuse(r, bad);
}
