/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pkcs7.c - an Authenticode PKCS#7 SignedData: its certificates, its signer, the digest it claims */
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"

#include "sig/der.h"
#include "sig/pkcs7.h"
#include "sig/rsa.h"
#include "sig/x509.h"
#include "sig/x509name.h"
#include "util/diag.h"

static const uint8_t oid_signed_data[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02 };
static const uint8_t oid_spc_indirect_data[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x01, 0x04 };
static const uint8_t oid_nested_signature[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x04, 0x01 };
static const uint8_t oid_message_digest[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x04 };

/* What one read fills besides the signature itself. */
typedef struct reading {
	sbat_authenticode_sig *s;
	sbat_authenticode_cert *certs;
	pkcs7_nested *nested;
	size_t n_nested;
	const uint8_t *content; /* the SpcIndirectDataContent's content octets, which messageDigest covers */
	size_t content_len;
	int detached;           /* content is the caller's: the SignedData's own contentInfo is passed over */
	int bare;               /* the bytes are a SignedData without its ContentInfo */
	size_t n_signers;       /* SignerInfos */
	int other_bad;          /* a SignerInfo after the first whose certificate is there does not verify */
	const uint8_t *md_algs; /* the SignedData's digestAlgorithms SET (its contents) */
	size_t md_algs_len;
	pkcs7_signers *signers;
} reading;

static int find_signer_cert(const sbat_authenticode_sig *s);
static int signer_verifies(const sbat_authenticode_sig *s, const reading *r);

/* An AlgorithmIdentifier (SEQUENCE { OID, parameters }) read from c. */
static sbat_err
read_alg(der_cursor *c, sbat_digest_alg *ret, sbat_diag *d)
{
	der_cursor a;
	der e;
	sbat_err err = der_expect(c, DER_SEQUENCE, &e, d);

	if (err == SBAT_OK)
		err = der_enter(&e, &a, "AlgorithmIdentifier", d);
	if (err == SBAT_OK)
		err = der_expect(&a, DER_OID, &e, d);
	if (err == SBAT_OK)
		*ret = x509_digest_alg(&e);
	return err;
}

/* SEQUENCE { OID `oid`, [0] EXPLICIT content }: *inner is a cursor over the content. */
static sbat_err
enter_content_info(der_cursor *c, const uint8_t *oid, size_t oid_len, const char *what, der_cursor *inner, sbat_diag *d)
{
	der_cursor ci;
	der e;
	sbat_err err = der_expect(c, DER_SEQUENCE, &e, d);

	if (err == SBAT_OK)
		err = der_enter(&e, &ci, "ContentInfo", d);
	if (err == SBAT_OK && (err = der_expect(&ci, DER_OID, &e, d)) == SBAT_OK && !der_oid_is(&e, oid, oid_len))
		err = der_fail(&ci, what, e.offset, d);
	if (err == SBAT_OK)
		err = der_expect(&ci, DER_CONTEXT(0), &e, d);
	if (err == SBAT_OK)
		err = der_enter(&e, inner, "ContentInfo", d);
	return err;
}

/* contentInfo: SpcIndirectDataContent { data, DigestInfo { algorithm, digest } } */
static sbat_err
read_indirect_data(der_cursor *sd, reading *r, sbat_diag *d)
{
	sbat_authenticode_sig *s = r->s;
	der_cursor content, spc, info;
	der e;
	sbat_err err = enter_content_info(sd, oid_spc_indirect_data, sizeof(oid_spc_indirect_data),
	                                  "content is not SpcIndirectDataContent (1.3.6.1.4.1.311.2.1.4)", &content, d);

	if (err == SBAT_OK)
		err = der_expect(&content, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK) {
		r->content = e.val;
		r->content_len = e.len;
		err = der_enter(&e, &spc, "SpcIndirectDataContent", d);
	}
	if (err == SBAT_OK)
		err = der_expect(&spc, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = der_expect(&spc, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = der_enter(&e, &info, "DigestInfo", d);
	if (err == SBAT_OK)
		err = read_alg(&info, &s->image_digest_alg, d);
	if (err == SBAT_OK)
		err = der_expect(&info, DER_OCTET_STRING, &e, d);
	if (err == SBAT_OK && e.len > sizeof(s->image_digest))
		err = der_fail(&info, "digest longer than 64 bytes", e.offset, d);
	if (err == SBAT_OK) {
		memcpy(s->image_digest, e.val, e.len);
		s->image_digest_len = e.len;
	}
	return err;
}

/* certificates [0] IMPLICIT SET OF Certificate; other choices than a Certificate are passed over. */
static sbat_err
read_certs(const der *set, reading *r, sbat_diag *d)
{
	der_cursor c;
	der e;
	sbat_err err = der_enter(set, &c, "certificates", d);

	while (err == SBAT_OK && der_more(&c)) {
		err = der_read(&c, &e, d);
		if (err != SBAT_OK || e.tag != DER_SEQUENCE)
			continue;
		if (r->s->n_certs == PKCS7_MAX_CERTS)
			return der_fail(&c, "more than 64 certificates in one SignedData", e.offset, d);
		err = x509_read(&e, &r->certs[r->s->n_certs], d);
		if (err == SBAT_OK)
			r->s->n_certs++;
	}
	return err;
}

/* unauthenticatedAttributes [1]: each nested signature (1.3.6.1.4.1.311.2.4.1) is listed for the caller. */
static sbat_err
read_unauthenticated(const der *attrs, reading *r, sbat_diag *d)
{
	der_cursor c, attr, values;
	der e, oid;
	sbat_err err = der_enter(attrs, &c, "unauthenticatedAttributes", d);

	while (err == SBAT_OK && der_more(&c)) {
		err = der_expect(&c, DER_SEQUENCE, &e, d);
		if (err == SBAT_OK)
			err = der_enter(&e, &attr, "Attribute", d);
		if (err == SBAT_OK)
			err = der_expect(&attr, DER_OID, &oid, d);
		if (err == SBAT_OK)
			err = der_expect(&attr, DER_SET, &e, d);
		if (err != SBAT_OK || !der_oid_is(&oid, oid_nested_signature, sizeof(oid_nested_signature)))
			continue;
		err = der_enter(&e, &values, "Attribute", d);
		while (err == SBAT_OK && der_more(&values)) {
			err = der_expect(&values, DER_SEQUENCE, &e, d);
			if (err == SBAT_OK && r->n_nested == PKCS7_MAX_NESTED)
				err = der_fail(&values, "more than 8 nested signatures in one SignerInfo", e.offset, d);
			if (err == SBAT_OK) {
				r->nested[r->n_nested].offset = e.offset;
				r->nested[r->n_nested++].len = e.raw_len;
			}
		}
	}
	return err;
}

/* issuerAndSerialNumber, or a subjectKeyIdentifier [0] (version 3), which names no issuer. */
static sbat_err
read_signer_id(der_cursor *si, sbat_authenticode_sig *s, sbat_diag *d)
{
	der_cursor ias;
	der e, name;
	sbat_err err = der_read(si, &e, d);

	if (err != SBAT_OK || e.tag == DER_CONTEXT_PRIM(0))
		return err;
	if (e.tag != DER_SEQUENCE)
		return der_fail(si, "DER element has an unexpected tag", e.offset, d);
	err = der_enter(&e, &ias, "IssuerAndSerialNumber", d);
	if (err == SBAT_OK)
		err = der_expect(&ias, DER_SEQUENCE, &name, d);
	if (err == SBAT_OK)
		err = der_expect(&ias, DER_INTEGER, &e, d);
	if (err != SBAT_OK)
		return err;
	s->signer_issuer_der = name.raw;
	s->signer_issuer_der_len = name.raw_len;
	s->signer_serial = e.val;
	s->signer_serial_len = e.len;
	return x509_name(&name, s->signer_issuer, sizeof(s->signer_issuer), d);
}

/* authenticatedAttributes [0]: kept whole, and the messageDigest attribute's value (its first). */
static sbat_err
read_authenticated(const der *attrs, sbat_authenticode_sig *s, sbat_diag *d)
{
	der_cursor c, attr, values;
	der e, oid;
	sbat_err err = der_enter(attrs, &c, "authenticatedAttributes", d);

	s->signed_attrs = attrs->raw;
	s->signed_attrs_len = attrs->raw_len;
	while (err == SBAT_OK && der_more(&c)) {
		err = der_expect(&c, DER_SEQUENCE, &e, d);
		if (err == SBAT_OK)
			err = der_enter(&e, &attr, "Attribute", d);
		if (err == SBAT_OK)
			err = der_expect(&attr, DER_OID, &oid, d);
		if (err == SBAT_OK)
			err = der_expect(&attr, DER_SET, &e, d);
		if (err != SBAT_OK || s->message_digest ||
		    !der_oid_is(&oid, oid_message_digest, sizeof(oid_message_digest)))
			continue;
		err = der_enter(&e, &values, "Attribute", d);
		if (err == SBAT_OK)
			err = der_expect(&values, DER_OCTET_STRING, &e, d);
		if (err == SBAT_OK) {
			s->message_digest = e.val;
			s->message_digest_len = e.len;
		}
	}
	return err;
}

/* The first SignerInfo: version, signer, digestAlgorithm, [0] attributes, algorithm, signature, [1] attributes. */
static sbat_err
read_signer(const der *info, reading *r, sbat_diag *d)
{
	der_cursor si;
	der e;
	sbat_digest_alg ignored;
	sbat_err err = der_enter(info, &si, "SignerInfo", d);

	if (err == SBAT_OK)
		err = der_expect(&si, DER_INTEGER, &e, d);
	if (err == SBAT_OK)
		err = read_signer_id(&si, r->s, d);
	if (err == SBAT_OK)
		err = read_alg(&si, &r->s->digest_alg, d);
	if (err == SBAT_OK && der_peek(&si, DER_CONTEXT(0)) && (err = der_read(&si, &e, d)) == SBAT_OK)
		err = read_authenticated(&e, r->s, d);
	if (err == SBAT_OK)
		err = read_alg(&si, &ignored, d);
	if (err == SBAT_OK && (err = der_expect(&si, DER_OCTET_STRING, &e, d)) == SBAT_OK) {
		r->s->signature = e.val;
		r->s->signature_len = e.len;
	}
	if (err == SBAT_OK && der_peek(&si, DER_CONTEXT(1)) && (err = der_read(&si, &e, d)) == SBAT_OK)
		err = read_unauthenticated(&e, r, d);
	return err;
}

/* A SignerInfo after the first: its certificate noted, and whether it verifies (over the same content). */
static sbat_err
read_other_signer(der_cursor *infos, reading *r, sbat_diag *d)
{
	pkcs7_nested scratch[PKCS7_MAX_NESTED];
	sbat_authenticode_sig t = *r->s;
	reading o = *r;
	sbat_err err;
	der e;

	if (r->n_signers == PKCS7_MAX_SIGNERS)
		return der_fail(infos, "more than 8 SignerInfos in one SignedData", infos->base + infos->pos, d);
	err = der_expect(infos, DER_SEQUENCE, &e, d);
	t.signer_issuer_der = t.signed_attrs = t.message_digest = t.signature = NULL;
	t.signer_issuer_der_len = t.signed_attrs_len = t.message_digest_len = t.signature_len = 0;
	o.s = &t;
	o.nested = scratch; /* what a later signer nests is no signature of the image */
	o.n_nested = 0;
	if (err == SBAT_OK)
		err = read_signer(&e, &o, d);
	if (err != SBAT_OK)
		return err;
	t.signer_cert = find_signer_cert(&t);
	if (r->signers)
		r->signers->cert[r->n_signers] = t.signer_cert;
	if (t.signer_cert >= 0 && !signer_verifies(&t, r))
		r->other_bad = 1;
	return SBAT_OK;
}

/* SignedData: version, digestAlgorithms, contentInfo, [0] certificates, [1] crls, signerInfos. */
static sbat_err
read_signed_data(der_cursor *sd, reading *r, sbat_diag *d)
{
	der_cursor infos;
	der e;
	sbat_err err = der_expect(sd, DER_INTEGER, &e, d);

	if (err == SBAT_OK && (err = der_expect(sd, DER_SET, &e, d)) == SBAT_OK) {
		r->md_algs = e.val;
		r->md_algs_len = e.len;
	}
	if (err == SBAT_OK)
		err = r->detached ? der_expect(sd, DER_SEQUENCE, &e, d) : read_indirect_data(sd, r, d);
	if (err == SBAT_OK && der_peek(sd, DER_CONTEXT(0)) && (err = der_read(sd, &e, d)) == SBAT_OK)
		err = read_certs(&e, r, d);
	if (err == SBAT_OK && der_peek(sd, DER_CONTEXT(1)))
		err = der_read(sd, &e, d);
	if (err == SBAT_OK)
		err = der_expect(sd, DER_SET, &e, d);
	if (err == SBAT_OK)
		err = der_enter(&e, &infos, "signerInfos", d);
	if (err == SBAT_OK && !der_more(&infos))
		err = der_fail(&infos, "SignedData has no SignerInfo", e.offset, d);
	if (err == SBAT_OK)
		err = der_expect(&infos, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = read_signer(&e, r, d);
	for (r->n_signers = 1; err == SBAT_OK && der_more(&infos); r->n_signers++)
		err = read_other_signer(&infos, r, d);
	return err;
}

/* The certificate the signer names by issuer (canonical, X509_NAME_cmp) and serial, or -1. */
static int
find_signer_cert(const sbat_authenticode_sig *s)
{
	size_t i;

	for (i = 0; s->signer_issuer_der && i < s->n_certs; i++) {
		const sbat_authenticode_cert *c = &s->certs[i];

		if (c->serial_len == s->signer_serial_len && memcmp(c->serial, s->signer_serial, c->serial_len) == 0 &&
		    x509name_equal(c->issuer_der, c->issuer_der_len, s->signer_issuer_der, s->signer_issuer_der_len))
			return (int)i;
	}
	return -1;
}

/*
 * 1 when the SignedData's digestAlgorithms name alg: OpenSSL's
 * PKCS7_dataInit digests the content by each of them, and
 * PKCS7_signatureVerify finds no digest for a SignerInfo whose algorithm
 * is not among them.
 */
static int
md_algs_name(const reading *r, sbat_digest_alg alg)
{
	der_cursor c;
	sbat_digest_alg a;

	der_top(&c, r->md_algs, r->md_algs_len, 0, "digestAlgorithms");
	while (der_more(&c))
		if (read_alg(&c, &a, NULL) != SBAT_OK)
			return 0;
		else if (a == alg)
			return 1;
	return 0;
}

/*
 * PKCS7_signatureVerify, as OpenSSL runs it for EDK2 and shim: the
 * digestAlgorithm hash of the content octets equals messageDigest, and the
 * signature is RSA PKCS#1 v1.5 over the hash of the attributes re-tagged
 * as a SET (without attributes: over the content's hash), whatever
 * digestEncryptionAlgorithm names. 1 when it verifies.
 */
static int
signer_verifies(const sbat_authenticode_sig *s, const reading *r)
{
	static const uint8_t set_tag = 0x31;
	const sbat_authenticode_cert *c = &s->certs[s->signer_cert];
	uint8_t content_hash[SBAT_AUTHENTICODE_DIGEST_MAX], md[SBAT_AUTHENTICODE_DIGEST_MAX];
	size_t n = rsa_hash(s->digest_alg, r->content, r->content_len, NULL, 0, content_hash);

	if (n == 0 || !c->key_n || !md_algs_name(r, s->digest_alg))
		return 0;
	if (!s->signed_attrs)
		memcpy(md, content_hash, n);
	else if (!s->message_digest || s->message_digest_len != n || memcmp(s->message_digest, content_hash, n) != 0)
		return 0;
	else
		rsa_hash(s->digest_alg, &set_tag, 1, s->signed_attrs + 1, s->signed_attrs_len - 1, md);
	return rsa_verify_pkcs1(c->key_n, c->key_n_len, c->key_e, c->key_e_len, s->digest_alg, md, n, s->signature,
	                        s->signature_len, NULL) == SBAT_OK;
}

/* The ContentInfo's elements all checked first, then read as SignedData. */
static sbat_err
read_content(const uint8_t *buf, reading *r, sbat_diag *d)
{
	der_cursor top, content, sd;
	der e;
	sbat_err err;

	der_top(&top, buf + r->s->offset, r->s->len, r->s->offset, "ContentInfo");
	err = der_read(&top, &e, d);
	if (err != SBAT_OK)
		return err;
	/* what follows the ContentInfo in a WIN_CERTIFICATE is padding, not read */
	r->s->len = e.raw_len;
	der_top(&top, e.raw, e.raw_len, e.offset, "ContentInfo");
	err = der_walk(&top, d);
	top.pos = 0;
	if (err == SBAT_OK && !r->bare)
		err = enter_content_info(&top, oid_signed_data, sizeof(oid_signed_data),
		                         "ContentInfo is not SignedData (1.2.840.113549.1.7.2)", &content, d);
	if (err == SBAT_OK)
		err = der_expect(r->bare ? &top : &content, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = der_enter(&e, &sd, "SignedData", d);
	return err == SBAT_OK ? read_signed_data(&sd, r, d) : err;
}

/* Read into r (s, nested and the detached content filled by the caller), as pkcs7_read says. */
static sbat_err
read_all(const uint8_t *buf, reading *r, sbat_diag *d)
{
	sbat_authenticode_sig *s = r->s;
	sbat_err err;

	s->certs = NULL;
	s->n_certs = 0;
	s->signer_cert = -1;
	s->signed_attrs = s->message_digest = s->signature = NULL;
	s->signed_attrs_len = s->message_digest_len = s->signature_len = 0;
	s->covers_image = -1;
	r->certs = calloc(PKCS7_MAX_CERTS, sizeof(*r->certs));
	if (!r->certs)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for the certificates");
	s->certs = r->certs;
	err = read_content(buf, r, d);
	if (err != SBAT_OK) {
		free(r->certs);
		s->certs = NULL;
		s->n_certs = 0;
		return err;
	}
	s->signer_cert = find_signer_cert(s);
	s->signature_verifies = s->signer_cert < 0 ? -1 : signer_verifies(s, r) && !r->other_bad;
	if (r->signers) {
		r->signers->n = r->n_signers;
		r->signers->cert[0] = s->signer_cert;
		r->signers->content = r->content;
		r->signers->content_len = r->content_len;
	}
	return SBAT_OK;
}

sbat_err
pkcs7_read(const uint8_t *buf, sbat_authenticode_sig *s, pkcs7_nested nested[PKCS7_MAX_NESTED], size_t *ret_n,
           pkcs7_signers *signers, sbat_diag *d)
{
	reading r;
	sbat_err err;

	memset(&r, 0, sizeof(r));
	memset(signers, 0, sizeof(*signers));
	r.s = s;
	r.nested = nested;
	r.signers = signers;
	*ret_n = 0;
	/* the loaders read a WIN_CERTIFICATE's own signature; what it nests, not at all */
	signers->unwrappable = s->nested_in < 0 && !pkcs7_is_content_info(buf + s->offset, s->len);
	err = read_all(buf, &r, d);
	if (err == SBAT_OK)
		*ret_n = r.n_nested;
	if (err == SBAT_OK && signers->unwrappable)
		s->signature_verifies = 0;
	return err;
}

sbat_digest_alg
pkcs7_edk2_digest_alg(const uint8_t *p, size_t len)
{
	/* mHash's order: SHA-1, SHA-224, SHA-256, SHA-384, SHA-512, each OID's value bytes */
	static const struct {
		uint8_t oid[9];
		size_t len;
		sbat_digest_alg alg;
	} hashes[] = {
		{ { 0x2b, 0x0e, 0x03, 0x02, 0x1a }, 5, SBAT_DIGEST_SHA1 },
		{ { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04 }, 9, SBAT_DIGEST_UNKNOWN },
		{ { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 }, 9, SBAT_DIGEST_SHA256 },
		{ { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02 }, 9, SBAT_DIGEST_SHA384 },
		{ { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03 }, 9, SBAT_DIGEST_SHA512 },
	};
	size_t k;

	if (len > 1 && (p[1] & 0x82) != 0x82)
		return SBAT_DIGEST_UNKNOWN;
	for (k = 0; k < sizeof(hashes) / sizeof(hashes[0]); k++)
		if (len >= 32 + hashes[k].len && memcmp(p + 32, hashes[k].oid, hashes[k].len) == 0)
			return hashes[k].alg;
	return SBAT_DIGEST_UNKNOWN;
}

int
pkcs7_is_content_info(const uint8_t *p, size_t len)
{
	return len >= 17 && p[4] == DER_OID && p[5] == sizeof(oid_signed_data) &&
	       memcmp(p + 6, oid_signed_data, sizeof(oid_signed_data)) == 0 && p[15] == DER_CONTEXT(0) && p[16] == 0x82;
}

sbat_err
pkcs7_read_detached(const uint8_t *buf, sbat_authenticode_sig *s, const uint8_t *content, size_t content_len,
                    size_t *ret_signers, sbat_diag *d)
{
	pkcs7_nested nested[PKCS7_MAX_NESTED];
	reading r;
	sbat_err err;

	memset(&r, 0, sizeof(r));
	r.s = s;
	r.nested = nested;
	r.detached = 1;
	r.bare = !pkcs7_is_content_info(buf + s->offset, s->len);
	r.content = content;
	r.content_len = content_len;
	*ret_signers = 0;
	err = read_all(buf, &r, d);
	if (err == SBAT_OK)
		*ret_signers = r.n_signers;
	return err;
}
