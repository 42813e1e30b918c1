/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-authenticode.c - libFuzzer harness: the Authenticode hash, the certificate table, DER and PKCS#7 */

/*
 * Input: one operation byte, then the data (at most FUZZ_MAX_INPUT bytes in
 * all; larger inputs are ignored), as fuzz-opbyte.h's driver gives them.
 *
 * Operation byte:
 *   bit 7 set   the data is one PKCS#7 ContentInfo, read as a
 *               WIN_CERTIFICATE's contents at file offset 0
 *   bit 7 clear the data is a PE/COFF image: hashed by both rules, its
 *               certificate table read, its digests checked
 *
 * These must hold, or the harness aborts:
 *  - the input is unchanged;
 *  - a failure names a reason; a failure of the table or DER is
 *    SBAT_E_SIGNATURE at an offset inside the input, naming a structure;
 *  - every signature, certificate, name and key identifier lies inside the
 *    input (and a certificate inside its signature); a nested signature
 *    names an earlier one; the signer's certificate is one of its own;
 *  - the parse's image hash is the EDK2 hash; a signature covers the image
 *    only when its SHA-256 digest is that hash;
 *  - the signature rules (sigverify.h), by both rules, with a db of the
 *    image's certificates and a dbx of its last one, and with shim's keys
 *    read from the image's .vendor_cert section: a verdict in range, a
 *    deciding signature and certificate that exist, chains of distinct
 *    certificates of their signature, the signer first;
 *  - the resource directory reader (the Windows boot manager's SVN
 *    resource): a failure is SBAT_E_PE_FIELD or SBAT_E_PE_TRUNCATED,
 *    naming a field at an offset inside the input; an SVN found lies
 *    inside it and is what its 4 bytes say.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-opbyte.h"

#include "sbat/sbat.h"

#include "pe/image_internal.h"
#include "pe/rsrc.h"
#include "sig/pkcs7.h"

#define FUZZ_MAX_INPUT (1024u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-authenticode: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

/* 1 if p[0..n) lies in buf[0..len) (or p is NULL with n 0). */
static int
inside(const uint8_t *buf, size_t len, const uint8_t *p, size_t n)
{
	if (!p)
		return n == 0;
	return p >= buf && (size_t)(p - buf) <= len && n <= len - (size_t)(p - buf);
}

static void
check_failure(sbat_err err, const sbat_diag *d, size_t n)
{
	if (!d->what)
		fail("a failure without a reason");
	if (err == SBAT_E_SIGNATURE && (!d->has_offset || d->offset > n || !d->other_name[0]))
		fail("SBAT_E_SIGNATURE without an offset in the input and a structure");
}

static void
check_sig(const sbat_authenticode_sig *s, size_t index, const uint8_t *buf, size_t n)
{
	size_t i;

	if (s->offset > n || s->len > n - s->offset)
		fail("a signature outside the input");
	if (s->nested_in >= (int)index || s->nested_in < -1)
		fail("a nested signature naming no earlier signature");
	if (s->signer_cert >= (int)s->n_certs || s->signer_cert < -1)
		fail("a signer certificate that is not one of the signature's");
	if (s->image_digest_len > sizeof(s->image_digest) || !inside(buf, n, s->signer_serial, s->signer_serial_len) ||
	    !inside(buf, n, s->signer_issuer_der, s->signer_issuer_der_len))
		fail("the signer's fields out of bounds");
	if (memchr(s->signer_issuer, 0, sizeof(s->signer_issuer)) == NULL)
		fail("the signer's issuer is not terminated");
	for (i = 0; i < s->n_certs; i++) {
		const sbat_authenticode_cert *c = &s->certs[i];

		if (!inside(buf + s->offset, s->len, c->der, c->der_len) || c->offset != (uint64_t)(c->der - buf) ||
		    !inside(buf, n, c->subject_der, c->subject_der_len) ||
		    !inside(buf, n, c->issuer_der, c->issuer_der_len) || !inside(buf, n, c->serial, c->serial_len) ||
		    !inside(buf, n, c->subject_key_id, c->subject_key_id_len) ||
		    !inside(buf, n, c->authority_key_id, c->authority_key_id_len))
			fail("a certificate's fields outside its signature");
		if (!memchr(c->subject, 0, sizeof(c->subject)) || !memchr(c->issuer, 0, sizeof(c->issuer)))
			fail("a certificate's name is not terminated");
	}
}

static void
content_info(const uint8_t *p, size_t n, unsigned op)
{
	pkcs7_nested nested[PKCS7_MAX_NESTED];
	pkcs7_signers signers;
	sbat_authenticode_sig s;
	size_t n_nested, i;
	sbat_diag d;
	sbat_err err;

	(void)op;
	memset(&s, 0, sizeof(s));
	s.len = n;
	s.nested_in = -1;
	err = pkcs7_read(p, &s, nested, &n_nested, &signers, &d);
	if (err != SBAT_OK) {
		check_failure(err, &d, n);
		if (s.certs)
			fail("certificates left after a failure");
		return;
	}
	check_sig(&s, 0, p, n);
	for (i = 0; i < n_nested; i++)
		if (nested[i].offset > n || nested[i].len > n - nested[i].offset)
			fail("a nested signature outside the input");
	if (signers.n == 0 || signers.n > PKCS7_MAX_SIGNERS)
		fail("SignerInfos counted out of range");
	for (i = 0; i < signers.n; i++)
		if (signers.cert[i] < -1 || signers.cert[i] >= (int)s.n_certs)
			fail("a SignerInfo's certificate outside the certificates");
	free((void *)s.certs);
}

/* An EFI_CERT_X509_GUID list of one certificate, appended to db. */
static void
add_cert(sbat_sigdb *db, const sbat_authenticode_cert *c)
{
	static const uint8_t x509[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
		                          0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
	size_t total = 44 + c->der_len;
	uint8_t *b = calloc(1, total);
	uint32_t v;

	if (!b || c->der_len > 0xffff)
		goto out;
	memcpy(b, x509, 16);
	v = (uint32_t)total;
	memcpy(b + 16, &v, 4);
	v = (uint32_t)(16 + c->der_len);
	memcpy(b + 24, &v, 4);
	memcpy(b + 44, c->der, c->der_len);
	(void)sbat_sigdb_append(db, b, total, "fuzz", NULL);
out:
	free(b);
}

static void
check_verdict(const sbat_sigverify *v)
{
	const sbat_authenticode *a = v->signatures;
	size_t i, k, j;

	if ((unsigned)v->verdict > SBAT_VERDICT_UNKNOWN || !memchr(v->subject, 0, sizeof(v->subject)) ||
	    v->n_sigs != a->n_sigs || v->sig >= (int)a->n_sigs || v->sig < -1)
		fail("a verdict out of range");
	if (v->sig >= 0 && (v->cert >= (int)a->sigs[v->sig].n_certs || v->cert < -1))
		fail("a deciding certificate that is not its signature's");
	for (i = 0; i < v->n_sigs; i++) {
		const sbat_sigverify_sig *s = &v->sigs[i];

		if (s->n_chain > a->sigs[i].n_certs || (s->n_chain && s->chain[0] != a->sigs[i].signer_cert))
			fail("a chain longer than its certificates or not from the signer");
		for (k = 0; k < s->n_chain; k++)
			for (j = 0; j < k; j++)
				if (s->chain[k] < 0 || s->chain[k] >= (int)a->sigs[i].n_certs ||
				    s->chain[k] == s->chain[j])
					fail("a chain of certificates that are not its own, or twice one");
	}
}

static void
signature_rules(const sbat_image *img, const sbat_authenticode *a)
{
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	sbat_sigdb *db = NULL, *dbx = NULL, *vdb = NULL, *vdbx = NULL;
	const sbat_authenticode_cert *last = NULL;
	sbat_sigverify *v;
	size_t i, k;
	int rule;

	if (sbat_sigdb_new(&db, NULL) != SBAT_OK || sbat_sigdb_new(&dbx, NULL) != SBAT_OK)
		goto out;
	for (i = 0; i < a->n_sigs; i++)
		for (k = 0; k < a->sigs[i].n_certs; k++)
			add_cert(db, last = &a->sigs[i].certs[k]);
	if (last)
		add_cert(dbx, last);
	if (sbat_sigverify_read_vendor(img, &o, &vdb, &vdbx, NULL) != SBAT_OK && (o.vendor_cert || o.vendor_db))
		fail("vendor keys left after a failure");
	o.db = o.mok = db;
	o.dbx = dbx;
	for (rule = 0; rule < 2; rule++) {
		o.rule = rule ? SBAT_SIGVERIFY_SHIM : SBAT_SIGVERIFY_FIRMWARE;
		if (sbat_sigverify_image(img, &o, &v, NULL) == SBAT_OK)
			check_verdict(v);
		sbat_sigverify_free(v);
	}
out:
	sbat_sigdb_free(db);
	sbat_sigdb_free(dbx);
	sbat_sigdb_free(vdb);
	sbat_sigdb_free(vdbx);
}

/* The Windows boot manager's SVN resource of a parsed image (rsrc.h). */
static void
resources(const sbat_image *img, const uint8_t *p, size_t n)
{
	rsrc_svn svn;
	sbat_diag d;
	sbat_err err = rsrc_bootmgr_svn(&img->pe, p, n, &svn, &d);

	if (err != SBAT_OK) {
		if (err != SBAT_E_PE_FIELD && err != SBAT_E_PE_TRUNCATED)
			fail("a resource directory failure of another kind");
		if (!d.what || !d.has_offset || d.offset >= n)
			fail("a resource directory failure without a field at an offset in the input");
		if (svn.found)
			fail("an SVN found after a failure");
	} else if (svn.found) {
		if (svn.offset > n || n - svn.offset < 4)
			fail("the SVN lies outside the input");
		if (svn.minor != (p[svn.offset] | p[svn.offset + 1] << 8) ||
		    svn.major != (p[svn.offset + 2] | p[svn.offset + 3] << 8))
			fail("the SVN is not what its bytes say");
	}
}

static void
image(const uint8_t *p, size_t n, unsigned op)
{
	uint8_t edk2[SBAT_AUTHENTICODE_SHA256_SIZE], shim[SBAT_AUTHENTICODE_SHA256_SIZE];
	sbat_authenticode *a = NULL;
	sbat_image *img = NULL;
	sbat_diag d;
	sbat_err err, edk2_err;
	size_t i;

	(void)op;
	if (sbat_image_parse(p, n, &img, &d) != SBAT_OK)
		return;
	resources(img, p, n);
	edk2_err = sbat_authenticode_hash(img, SBAT_AUTHENTICODE_EDK2, edk2, &d);
	if (edk2_err != SBAT_OK)
		check_failure(edk2_err, &d, n);
	err = sbat_authenticode_hash(img, SBAT_AUTHENTICODE_SHIM, shim, &d);
	if (err != SBAT_OK)
		check_failure(err, &d, n);
	err = sbat_authenticode_parse(img, &a, &d);
	if (err != SBAT_OK) {
		check_failure(err, &d, n);
		if (a)
			fail("a result after a failure");
	} else {
		if (edk2_err != SBAT_OK || memcmp(edk2, a->image_hash, sizeof(edk2)) != 0)
			fail("the parse's image hash is not the EDK2 hash");
		for (i = 0; i < a->n_sigs; i++) {
			check_sig(&a->sigs[i], i, p, n);
			if (a->sigs[i].covers_image == 1 && (a->sigs[i].image_digest_alg != SBAT_DIGEST_SHA256 ||
			                                     memcmp(a->sigs[i].image_digest, edk2, sizeof(edk2)) != 0))
				fail("a signature said to cover the image with another digest");
		}
		err = sbat_authenticode_check(a, &d);
		if (err != SBAT_OK && err != SBAT_E_SIGNATURE_STALE)
			fail("a check failing otherwise than stale");
		signature_rules(img, a);
	}
	sbat_authenticode_free(a);
	sbat_image_free(img);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_opbyte_run("fuzz-authenticode", data, size, FUZZ_MAX_INPUT, content_info, image);
}
