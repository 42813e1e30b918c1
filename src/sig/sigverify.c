/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigverify.c - will the firmware or shim accept an image's signatures: the verdict, its options and names */
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/sigdb.h"
#include "sbat/sigverify.h"

#include "sig/authenticode_internal.h"
#include "sig/chain.h"
#include "sig/pehash.h"
#include "sig/pkcs7.h"
#include "sig/sigset.h"
#include "sig/sigverify_rules.h"
#include "util/diag.h"

void
sbat_sigverify_opts_init(sbat_sigverify_opts *o)
{
	const sbat_sigverify_opts init = SBAT_SIGVERIFY_OPTS_INIT;

	if (o)
		*o = init;
}

static sbat_err
take_opts(const sbat_sigverify_opts *opts, sbat_sigverify_opts *o, sbat_diag *d)
{
	sbat_sigverify_opts_init(o);
	if (!opts)
		return SBAT_OK;
	if (opts->size != sizeof(*o))
		return diag_fail(d, SBAT_E_ABI, "sbat_sigverify_opts: a size this library does not know");
	*o = *opts;
	if ((unsigned)o->rule > SBAT_SIGVERIFY_SHIM || (unsigned)o->mode > SBAT_SIGVERIFY_MODE_UNKNOWN)
		return diag_fail(d, SBAT_E_ABI, "sbat_sigverify_opts: an unknown rule or mode");
	return SBAT_OK;
}

/*
 * Signature i's state before a rule reads it; the links of a chain that
 * can reach a certificate are verified once, here.
 */
static sbat_sigverify_state
first_state(sigverify_run *r, size_t i)
{
	const sbat_authenticode_sig *s = &r->a->sigs[i];
	sbat_sigverify_sig *vs = &r->sigs[i];

	const pkcs7_signers *g = sigset_signers(r->a, i);

	if (s->nested_in >= 0)
		return SBAT_SIGVERIFY_SIG_NESTED;
	if (r->o.rule == SBAT_SIGVERIFY_FIRMWARE) {
		/* EDK2 hashes the image by the algorithm at the fixed offset, or passes the signature over */
		if (g->fw_alg == SBAT_DIGEST_UNKNOWN)
			return SBAT_SIGVERIFY_SIG_NOT_COMPUTED;
		if (!g->fw_covers)
			return SBAT_SIGVERIFY_SIG_STALE;
	} else if (s->covers_image < 0 || s->image_digest_alg != SBAT_DIGEST_SHA256) {
		/* shim 16.1 compares the digest with its SHA-256 */
		r->not_computed++;
		return SBAT_SIGVERIFY_SIG_NOT_COMPUTED;
	} else if (s->covers_image == 0) {
		return SBAT_SIGVERIFY_SIG_STALE;
	}
	if (s->signature_verifies == 0) {
		vs->cert = s->signer_cert;
		memcpy(r->subjects[i], s->certs[s->signer_cert].subject, sizeof(r->subjects[i]));
		return SBAT_SIGVERIFY_SIG_BAD_SIGNATURE;
	}
	chain_links(s, vs->chain, vs->n_chain, r->links + (vs->chain - r->chains));
	return SBAT_SIGVERIFY_SIG_NOT_ALLOWED;
}

/* Each signature's starting state and chain. */
static sbat_err
prepare(sigverify_run *r, sbat_diag *d)
{
	const sbat_authenticode *a = r->a;
	size_t i, total = 1, at = 0;

	for (i = 0; i < a->n_sigs; i++)
		total += a->sigs[i].n_certs;
	r->sigs = calloc(a->n_sigs + 1, sizeof(*r->sigs));
	r->subjects = calloc(a->n_sigs + 1, sizeof(*r->subjects));
	r->chains = calloc(total, sizeof(*r->chains));
	r->links = calloc(total, sizeof(*r->links));
	r->failed = calloc(a->n_sigs + 1, sizeof(*r->failed));
	if (!r->sigs || !r->subjects || !r->chains || !r->links || !r->failed)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for the signature verdict");
	for (i = 0; i < a->n_sigs; i++) {
		sbat_sigverify_sig *vs = &r->sigs[i];

		vs->cert = -1;
		vs->chain = r->chains + at;
		vs->n_chain = sigverify_chain(r, i, r->chains + at);
		at += a->sigs[i].n_certs;
		vs->state = first_state(r, i);
	}
	r->v.signatures = a;
	r->v.n_sigs = a->n_sigs;
	r->v.sigs = r->sigs;
	return SBAT_OK;
}

/*
 * The firmware hashes an unsigned image by every algorithm it has
 * (SHA-1, SHA-256, SHA-384, SHA-512) and looks each hash up in dbx and db:
 * the hashes other than SHA-256 those lists have entries for, as PEHASH_ALG
 * bits (a signed image is hashed by what its signatures name).
 */
static unsigned
firmware_algs(const sbat_sigverify_opts *o)
{
	static const struct {
		sbat_sig_type type;
		sbat_digest_alg alg;
	} by_type[] = { { SBAT_SIG_SHA1, SBAT_DIGEST_SHA1 },
		        { SBAT_SIG_SHA384, SBAT_DIGEST_SHA384 },
		        { SBAT_SIG_SHA512, SBAT_DIGEST_SHA512 } };
	unsigned algs = 0;
	size_t k;

	for (k = 0; o->rule == SBAT_SIGVERIFY_FIRMWARE && k < sizeof(by_type) / sizeof(by_type[0]); k++)
		if (sigverify_has_type(o->db, by_type[k].type) || sigverify_has_type(o->dbx, by_type[k].type))
			algs |= PEHASH_ALG(by_type[k].alg);
	return algs;
}

/* shim hashes the image with SHA-1 too; that hash is compared only with these lists' EFI_CERT_SHA1 entries. */
static int
wants_sha1(const sbat_sigverify_opts *o)
{
	return sigverify_has_type(o->vendor_dbx, SBAT_SIG_SHA1) || sigverify_has_type(o->dbx, SBAT_SIG_SHA1) ||
	       (!o->ignore_db && sigverify_has_type(o->db, SBAT_SIG_SHA1));
}

static void
judge(sigverify_run *r)
{
	r->v.sig = -1;
	r->v.cert = -1;
	if (r->o.mode == SBAT_SIGVERIFY_NOT_ENFORCING) {
		r->v.verdict = SBAT_VERDICT_BOOTS;
		r->v.reason = SBAT_SIGVERIFY_NOT_ENFORCED;
	} else if (r->o.mode == SBAT_SIGVERIFY_MODE_UNKNOWN) {
		r->v.verdict = SBAT_VERDICT_UNKNOWN;
		r->v.reason = SBAT_SIGVERIFY_SECURE_BOOT_UNKNOWN;
	} else if (r->o.rule == SBAT_SIGVERIFY_SHIM) {
		sigverify_shim(r);
	} else {
		sigverify_firmware(r);
	}
}

sbat_err
sbat_sigverify_image(const sbat_image *img, const sbat_sigverify_opts *opts, sbat_sigverify **ret, sbat_diag *reterr)
{
	sigverify_run *r;
	sbat_err err;

	if (ret)
		*ret = NULL;
	if (!img || !ret)
		return diag_fail(reterr, SBAT_E_ABI, "sbat_sigverify_image: no image or no result pointer");
	r = calloc(1, sizeof(*r));
	if (!r)
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory for the signature verdict");
	err = take_opts(opts, &r->o, reterr);
	if (err == SBAT_OK)
		err = authenticode_parse_algs(img, r->o.fd, firmware_algs(&r->o), &r->a, reterr);
	if (err == SBAT_OK)
		memcpy(r->v.image_hash, r->a->image_hash, sizeof(r->v.image_hash));
	if (err == SBAT_OK && r->o.rule == SBAT_SIGVERIFY_SHIM) {
		/* shim's hash, unless it is EDK2's already computed; with SHA-1 when a list holds one */
		r->have_sha1 = wants_sha1(&r->o);
		if (r->have_sha1 || !pehash_rules_agree(img))
			err = pehash_compute2(img, SBAT_AUTHENTICODE_SHIM, r->o.fd, r->v.image_hash,
			                      r->have_sha1 ? r->sha1 : NULL, reterr);
	}
	if (err == SBAT_OK)
		err = prepare(r, reterr);
	if (err != SBAT_OK) {
		sbat_sigverify_free(&r->v);
		return err;
	}
	judge(r);
	*ret = &r->v;
	return SBAT_OK;
}

void
sbat_sigverify_free(sbat_sigverify *v)
{
	sigverify_run *r = (sigverify_run *)v;

	if (!r)
		return;
	sbat_authenticode_free(r->a);
	free(r->sigs);
	free(r->subjects);
	free(r->chains);
	free(r->links);
	free(r->failed);
	free(r);
}

static const char *const reason_names[] = {
	[SBAT_SIGVERIFY_NOT_ENFORCED] = "not-enforced",
	[SBAT_SIGVERIFY_CERT_ALLOWED] = "cert-allowed",
	[SBAT_SIGVERIFY_HASH_ALLOWED] = "hash-allowed",
	[SBAT_SIGVERIFY_HASH_FORBIDDEN] = "hash-forbidden",
	[SBAT_SIGVERIFY_CERT_FORBIDDEN] = "cert-forbidden",
	[SBAT_SIGVERIFY_CERT_HASH_FORBIDDEN] = "cert-hash-forbidden",
	[SBAT_SIGVERIFY_SIGNER_MISSING] = "signer-missing",
	[SBAT_SIGVERIFY_NOT_ALLOWED] = "not-allowed",
	[SBAT_SIGVERIFY_SECURE_BOOT_UNKNOWN] = "secure-boot-unknown",
	[SBAT_SIGVERIFY_DIGEST_NOT_COMPUTED] = "digest-not-computed",
	[SBAT_SIGVERIFY_PARENT_VERIFIED] = "parent-verified",
	[SBAT_SIGVERIFY_TIMESTAMP_NOT_CHECKED] = "timestamp-not-checked",
	[SBAT_SIGVERIFY_BAD_SIGNATURE] = "bad-signature",
	[SBAT_SIGVERIFY_NOT_CA] = "issuer-not-ca",
	[SBAT_SIGVERIFY_INSECURE_MODE] = "insecure-mode",
	[SBAT_SIGVERIFY_NX_REQUIRED] = "nx-required",
	[SBAT_SIGVERIFY_TABLE_UNPADDED] = "table-unpadded",
	[SBAT_SIGVERIFY_TABLE_CORRUPT] = "table-corrupt",
	[SBAT_SIGVERIFY_DB_IGNORED] = "db-ignored",
	[SBAT_SIGVERIFY_CERT_NOT_FIRST] = "cert-not-first",
};

static const char *const db_names[] = {
	[SBAT_SIGVERIFY_DB_NONE] = "none",
	[SBAT_SIGVERIFY_DB] = "db",
	[SBAT_SIGVERIFY_DBX] = "dbx",
	[SBAT_SIGVERIFY_MOK] = "MokListRT",
	[SBAT_SIGVERIFY_MOKX] = "MokListXRT",
	[SBAT_SIGVERIFY_VENDOR_DB] = "vendor_db",
	[SBAT_SIGVERIFY_VENDOR_DBX] = "vendor_dbx",
	[SBAT_SIGVERIFY_VENDOR_CERT] = "vendor_cert",
};

static const char *const state_names[] = {
	[SBAT_SIGVERIFY_SIG_ALLOWED] = "allowed",
	[SBAT_SIGVERIFY_SIG_FORBIDDEN] = "forbidden",
	[SBAT_SIGVERIFY_SIG_NOT_ALLOWED] = "not-allowed",
	[SBAT_SIGVERIFY_SIG_STALE] = "stale",
	[SBAT_SIGVERIFY_SIG_NOT_COMPUTED] = "not-computed",
	[SBAT_SIGVERIFY_SIG_NESTED] = "nested",
	[SBAT_SIGVERIFY_SIG_NOT_REACHED] = "not-reached",
	[SBAT_SIGVERIFY_SIG_REVOKED_ROOT] = "revoked-root",
	[SBAT_SIGVERIFY_SIG_BAD_SIGNATURE] = "bad-signature",
	[SBAT_SIGVERIFY_SIG_NOT_CA] = "issuer-not-ca",
};

#define NAME(table, i) ((unsigned)(i) < sizeof(table) / sizeof(table[0]) ? table[i] : "unknown")

const char *
sbat_sigverify_reason_name(sbat_sigverify_reason reason)
{
	return NAME(reason_names, reason);
}

const char *
sbat_sigverify_db_name(sbat_sigverify_db db)
{
	return NAME(db_names, db);
}

const char *
sbat_sigverify_state_name(sbat_sigverify_state state)
{
	return NAME(state_names, state);
}
