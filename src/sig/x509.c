/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* x509.c - what an X.509 certificate says about itself: names, serial, key identifiers */
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/error.h"

#include "sig/der.h"
#include "sig/rsa.h"
#include "sig/x509.h"
#include "sig/x509name.h"
#include "util/diag.h"
#include "util/sha256.h"

#define TAG_UTF8_STRING 0x0c
#define TAG_BMP_STRING 0x1e

static const uint8_t oid_cn[] = { 0x55, 0x04, 0x03 };
static const uint8_t oid_c[] = { 0x55, 0x04, 0x06 };
static const uint8_t oid_o[] = { 0x55, 0x04, 0x0a };
static const uint8_t oid_ou[] = { 0x55, 0x04, 0x0b };
static const uint8_t oid_ski[] = { 0x55, 0x1d, 0x0e };
static const uint8_t oid_aki[] = { 0x55, 0x1d, 0x23 };
static const uint8_t oid_eku[] = { 0x55, 0x1d, 0x25 };
static const uint8_t oid_basic[] = { 0x55, 0x1d, 0x13 };
static const uint8_t oid_key_usage[] = { 0x55, 0x1d, 0x0f };
static const uint8_t oid_sha1[] = { 0x2b, 0x0e, 0x03, 0x02, 0x1a };
static const uint8_t oid_sha2[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02 };  /* then 1, 2, 3 */
static const uint8_t oid_pkcs1[] = { 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01 }; /* then the algorithm */
#define PKCS1_RSA 1                                                                    /* rsaEncryption */
#define PKCS1_SHA1_RSA 5
#define PKCS1_MGF1 8
#define PKCS1_PSS 10
#define PKCS1_SHA256_RSA 11
#define PKCS1_SHA384_RSA 12
#define PKCS1_SHA512_RSA 13
#define PSS_DEFAULT_SALT 20
/* 1.3.6.1.4.1.2312.16.1.2: module signing only, the key usage shim's verify_eku turns away */
static const uint8_t oid_modsign[] = { 0x2b, 0x06, 0x01, 0x04, 0x01, 0x92, 0x08, 0x10, 0x01, 0x02 };

/* A text being written into out[0..size), always NUL-terminated; `full` once a piece did not fit. */
typedef struct text {
	char *out;
	size_t size, n;
	int full;
} text;

static void
put(text *t, char ch)
{
	if (t->full || t->n + 1 >= t->size) {
		t->full = 1;
		return;
	}
	t->out[t->n++] = ch;
	t->out[t->n] = '\0';
}

/* The printable characters of a string value; others as '?'; UTF-8 kept, UCS-2 (BMPString) as ASCII. */
static void
put_value(text *t, const der *v)
{
	size_t i, step = v->tag == TAG_BMP_STRING ? 2 : 1;

	for (i = 0; i + step <= v->len; i += step) {
		unsigned ch = step == 2 ? ((unsigned)v->val[i] << 8 | v->val[i + 1]) : v->val[i];

		if (ch >= 0x80 && v->tag == TAG_UTF8_STRING)
			put(t, (char)ch);
		else
			put(t, ch < 0x20 || ch >= 0x7f ? '?' : (char)ch);
	}
}

static const char *
attribute_key(const der *oid)
{
	if (der_oid_is(oid, oid_cn, sizeof(oid_cn)))
		return "CN";
	if (der_oid_is(oid, oid_o, sizeof(oid_o)))
		return "O";
	if (der_oid_is(oid, oid_ou, sizeof(oid_ou)))
		return "OU";
	if (der_oid_is(oid, oid_c, sizeof(oid_c)))
		return "C";
	return NULL;
}

/* One RelativeDistinguishedName: a SET of (type, value). */
static sbat_err
put_rdn(text *t, const der *rdn, sbat_diag *d)
{
	der_cursor set, atv;
	der e, oid, value;
	const char *key;
	sbat_err err = der_enter(rdn, &set, "Name", d);

	while (err == SBAT_OK && der_more(&set)) {
		err = der_expect(&set, DER_SEQUENCE, &e, d);
		if (err == SBAT_OK)
			err = der_enter(&e, &atv, "Name", d);
		if (err == SBAT_OK)
			err = der_expect(&atv, DER_OID, &oid, d);
		if (err == SBAT_OK)
			err = der_read(&atv, &value, d);
		if (err != SBAT_OK || !(key = attribute_key(&oid)))
			continue;
		if (t->n)
			put(t, ','), put(t, ' ');
		while (*key)
			put(t, *key++);
		put(t, '=');
		put_value(t, &value);
	}
	return err;
}

sbat_err
x509_name(const der *name, char *out, size_t size, sbat_diag *d)
{
	text t = { out, size, 0, 0 };
	der_cursor c;
	sbat_err err;
	der rdn;

	out[0] = '\0';
	err = der_enter(name, &c, "Name", d);
	while (err == SBAT_OK && der_more(&c)) {
		err = der_expect(&c, DER_SET, &rdn, d);
		if (err == SBAT_OK)
			err = put_rdn(&t, &rdn, d);
	}
	/* a cut UTF-8 sequence is dropped whole */
	while (t.full && t.n > 0 && ((unsigned char)out[t.n - 1] & 0xc0u) == 0x80u)
		out[--t.n] = '\0';
	if (t.full && t.n > 0 && ((unsigned char)out[t.n - 1] & 0xc0u) == 0xc0u)
		out[--t.n] = '\0';
	return err;
}

/* The key identifier of a subjectKeyIdentifier (OCTET STRING) or authorityKeyIdentifier ([0] in a SEQUENCE). */
static sbat_err
key_id(const der *value, int authority, const uint8_t **ret, size_t *ret_len, sbat_diag *d)
{
	der_cursor c, seq;
	der e;
	sbat_err err;

	der_top(&c, value->val, value->len, value->offset + (value->raw_len - value->len),
	        authority ? "authorityKeyIdentifier" : "subjectKeyIdentifier");
	c.depth = value->depth + 1;
	if (!authority)
		err = der_expect(&c, DER_OCTET_STRING, &e, d);
	else if ((err = der_expect(&c, DER_SEQUENCE, &e, d)) == SBAT_OK &&
	         (err = der_enter(&e, &seq, c.ctx, d)) == SBAT_OK)
		err = der_peek(&seq, DER_CONTEXT_PRIM(0)) ? der_read(&seq, &e, d) : SBAT_OK;
	if (err == SBAT_OK && (!authority || e.tag == DER_CONTEXT_PRIM(0))) {
		*ret = e.val;
		*ret_len = e.len;
	}
	return err;
}

/* extendedKeyUsage: a SEQUENCE of OIDs; only whether it names module signing is kept. */
static sbat_err
key_usage(const der *value, sbat_authenticode_cert *c, sbat_diag *d)
{
	der_cursor top, seq;
	der e;
	sbat_err err;

	der_top(&top, value->val, value->len, value->offset + (value->raw_len - value->len), "extendedKeyUsage");
	top.depth = value->depth + 1;
	err = der_expect(&top, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = der_enter(&e, &seq, top.ctx, d);
	while (err == SBAT_OK && der_more(&seq))
		if ((err = der_expect(&seq, DER_OID, &e, d)) == SBAT_OK &&
		    der_oid_is(&e, oid_modsign, sizeof(oid_modsign)))
			c->module_signing_eku = 1;
	return err;
}

/* A cursor over what an OCTET STRING or BIT STRING value holds (from its byte skip on). */
static void
inside(const der *value, size_t skip, der_cursor *c, const char *ctx)
{
	der_top(c, value->val + skip, value->len - skip, value->offset + (value->raw_len - value->len) + skip, ctx);
	c->depth = value->depth + 1;
}

/* basicConstraints: SEQUENCE { cA BOOLEAN DEFAULT FALSE, ... }; one that does not read is no CA. */
static void
basic_constraints(const der *value, sbat_authenticode_cert *c)
{
	der_cursor top, seq;
	der e;

	c->basic_ca = 0;
	inside(value, 0, &top, "basicConstraints");
	if (der_expect(&top, DER_SEQUENCE, &e, NULL) == SBAT_OK && der_enter(&e, &seq, top.ctx, NULL) == SBAT_OK &&
	    der_peek(&seq, DER_BOOLEAN) && der_read(&seq, &e, NULL) == SBAT_OK && e.len == 1 && e.val[0] != 0)
		c->basic_ca = 1;
}

/* keyUsage: a BIT STRING; its first two bytes of bits are kept (none: 0). */
static void
key_usage_bits(const der *value, sbat_authenticode_cert *c)
{
	der_cursor top;
	der e;

	c->key_usage = 0;
	inside(value, 0, &top, "keyUsage");
	if (der_expect(&top, DER_BIT_STRING, &e, NULL) != SBAT_OK || e.len < 2)
		return;
	c->key_usage = e.val[1] << 8 | (e.len > 2 ? e.val[2] : 0);
}

/* One Extension: the key identifiers, extendedKeyUsage's module signing, basicConstraints, keyUsage. */
static sbat_err
read_extension(const der *ext, sbat_authenticode_cert *c, sbat_diag *d)
{
	der_cursor x;
	der oid, value;
	sbat_err err = der_enter(ext, &x, "Extension", d);

	if (err == SBAT_OK)
		err = der_expect(&x, DER_OID, &oid, d);
	if (err == SBAT_OK && der_peek(&x, DER_BOOLEAN))
		err = der_read(&x, &value, d);
	if (err == SBAT_OK)
		err = der_expect(&x, DER_OCTET_STRING, &value, d);
	if (err == SBAT_OK && der_oid_is(&oid, oid_ski, sizeof(oid_ski)))
		err = key_id(&value, 0, &c->subject_key_id, &c->subject_key_id_len, d);
	if (err == SBAT_OK && der_oid_is(&oid, oid_aki, sizeof(oid_aki)))
		err = key_id(&value, 1, &c->authority_key_id, &c->authority_key_id_len, d);
	if (err == SBAT_OK && der_oid_is(&oid, oid_eku, sizeof(oid_eku)))
		err = key_usage(&value, c, d);
	if (err == SBAT_OK && der_oid_is(&oid, oid_basic, sizeof(oid_basic)))
		basic_constraints(&value, c);
	if (err == SBAT_OK && der_oid_is(&oid, oid_key_usage, sizeof(oid_key_usage)))
		key_usage_bits(&value, c);
	return err;
}

/* [3] EXPLICIT Extensions, a SEQUENCE of Extension. */
static sbat_err
read_extensions(const der *tagged, sbat_authenticode_cert *c, sbat_diag *d)
{
	der_cursor outer, seq;
	der e;
	sbat_err err = der_enter(tagged, &outer, "Extensions", d);

	if (err == SBAT_OK)
		err = der_expect(&outer, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = der_enter(&e, &seq, "Extensions", d);
	while (err == SBAT_OK && der_more(&seq)) {
		err = der_expect(&seq, DER_SEQUENCE, &e, d);
		if (err == SBAT_OK)
			err = read_extension(&e, c, d);
	}
	return err;
}

sbat_digest_alg
x509_digest_alg(const der *oid)
{
	if (der_oid_is(oid, oid_sha1, sizeof(oid_sha1)))
		return SBAT_DIGEST_SHA1;
	if (oid->tag != DER_OID || oid->len != sizeof(oid_sha2) + 1 || memcmp(oid->val, oid_sha2, sizeof(oid_sha2)))
		return SBAT_DIGEST_UNKNOWN;
	switch (oid->val[sizeof(oid_sha2)]) {
	case 1: return SBAT_DIGEST_SHA256;
	case 2: return SBAT_DIGEST_SHA384;
	case 3: return SBAT_DIGEST_SHA512;
	default: return SBAT_DIGEST_UNKNOWN;
	}
}

/* n of a PKCS#1 algorithm OID 1.2.840.113549.1.1.n; 0 for another OID. */
static int
pkcs1_alg(const der *oid)
{
	if (oid->tag != DER_OID || oid->len != sizeof(oid_pkcs1) + 1 || memcmp(oid->val, oid_pkcs1, sizeof(oid_pkcs1)))
		return 0;
	return oid->val[sizeof(oid_pkcs1)];
}

/* An AlgorithmIdentifier read from c: its OID, and a cursor over its parameters. 1 when it reads. */
static int
alg_id(der_cursor *c, der *oid, der_cursor *params)
{
	der e;

	return der_expect(c, DER_SEQUENCE, &e, NULL) == SBAT_OK &&
	       der_enter(&e, params, "AlgorithmIdentifier", NULL) == SBAT_OK &&
	       der_expect(params, DER_OID, oid, NULL) == SBAT_OK;
}

/* A non-negative INTEGER of at most 2 bytes into *ret: 1 when it is one. */
static int
small_int(der_cursor *c, size_t *ret)
{
	der e;

	if (der_expect(c, DER_INTEGER, &e, NULL) != SBAT_OK || e.len == 0 || e.len > 2 || (e.val[0] & 0x80))
		return 0;
	*ret = e.len == 1 ? e.val[0] : (size_t)e.val[0] << 8 | e.val[1];
	return 1;
}

/* One field of RSASSA-PSS-params (RFC 4055): [0] hash, [1] MGF1 and its hash, [2] salt length, [3] trailer 1. */
static int
pss_field(const der *field, sbat_authenticode_cert *c)
{
	der_cursor t, p, q;
	der oid;
	size_t n;

	if (der_enter(field, &t, "RSASSA-PSS-params", NULL) != SBAT_OK)
		return 0;
	switch (field->tag) {
	case DER_CONTEXT(0): return alg_id(&t, &oid, &p) && (c->sig_digest = x509_digest_alg(&oid)) != 0;
	case DER_CONTEXT(1):
		return alg_id(&t, &oid, &p) && pkcs1_alg(&oid) == PKCS1_MGF1 && alg_id(&p, &oid, &q) &&
		       (c->sig_pss_mgf1 = x509_digest_alg(&oid)) != 0;
	case DER_CONTEXT(2): return small_int(&t, &c->sig_pss_salt_len);
	case DER_CONTEXT(3): return small_int(&t, &n) && n == 1;
	default: return 0;
	}
}

/* RSASSA-PSS-params, their defaults SHA-1, MGF1 with SHA-1, 20 bytes of salt: 1 when they read. */
static int
read_pss(der_cursor *params, sbat_authenticode_cert *c)
{
	der_cursor p;
	der e;

	c->sig_digest = c->sig_pss_mgf1 = SBAT_DIGEST_SHA1;
	c->sig_pss_salt_len = PSS_DEFAULT_SALT;
	if (der_expect(params, DER_SEQUENCE, &e, NULL) != SBAT_OK ||
	    der_enter(&e, &p, "RSASSA-PSS-params", NULL) != SBAT_OK)
		return 0;
	while (der_more(&p))
		if (der_read(&p, &e, NULL) != SBAT_OK || !pss_field(&e, c))
			return 0;
	return 1;
}

/* signatureAlgorithm: sha{1,256,384,512}WithRSAEncryption or RSASSA-PSS into c's sig_ fields. */
static void
read_sig_alg(der_cursor *outer, sbat_authenticode_cert *c)
{
	der_cursor params;
	der oid;

	if (!alg_id(outer, &oid, &params))
		return;
	switch (pkcs1_alg(&oid)) {
	case PKCS1_SHA1_RSA: c->sig_digest = SBAT_DIGEST_SHA1; break;
	case PKCS1_SHA256_RSA: c->sig_digest = SBAT_DIGEST_SHA256; break;
	case PKCS1_SHA384_RSA: c->sig_digest = SBAT_DIGEST_SHA384; break;
	case PKCS1_SHA512_RSA: c->sig_digest = SBAT_DIGEST_SHA512; break;
	case PKCS1_PSS:
		c->sig_pss = 1;
		if (!read_pss(&params, c) || !c->sig_digest || !c->sig_pss_mgf1)
			c->sig_digest = SBAT_DIGEST_UNKNOWN;
		break;
	default: break;
	}
}

/*
 * After the TBSCertificate tbs: signatureAlgorithm, which must be tbs_alg
 * byte for byte (as X509_verify requires), and signatureValue; then the
 * TBSCertificate's hash by that algorithm. What does not read leaves
 * sig_digest unknown: no issuer's key verifies it.
 */
static void
read_signature(der_cursor *outer, const der *tbs, const der *tbs_alg, sbat_authenticode_cert *c)
{
	der_cursor at = *outer;
	der alg, bits;

	if (der_expect(outer, DER_SEQUENCE, &alg, NULL) != SBAT_OK || der_expect(outer, DER_BIT_STRING, &bits, NULL) ||
	    bits.len < 2 || bits.val[0] != 0)
		return;
	c->signature = bits.val + 1;
	c->signature_len = bits.len - 1;
	if (alg.raw_len != tbs_alg->raw_len || memcmp(alg.raw, tbs_alg->raw, alg.raw_len) != 0)
		return;
	read_sig_alg(&at, c);
	if (c->sig_digest == SBAT_DIGEST_SHA256)
		memcpy(c->tbs_digest, c->tbs_sha256, sizeof(c->tbs_sha256));
	else if (!rsa_hash(c->sig_digest, tbs->raw, tbs->raw_len, NULL, 0, c->tbs_digest))
		c->sig_digest = SBAT_DIGEST_UNKNOWN;
}

/*
 * subjectPublicKeyInfo: an RSA key (rsaEncryption or RSASSA-PSS), its
 * modulus and exponent kept when both are positive INTEGERs; any other
 * key, or one that does not read, is left out (OpenSSL keeps such a
 * certificate and verifies nothing with it).
 */
static void
read_key(const der *spki, sbat_authenticode_cert *c)
{
	der_cursor k, params, bits;
	der e, n, x;
	int alg;

	if (der_enter(spki, &k, "SubjectPublicKeyInfo", NULL) != SBAT_OK || !alg_id(&k, &e, &params))
		return;
	alg = pkcs1_alg(&e);
	if ((alg != PKCS1_RSA && alg != PKCS1_PSS) || der_expect(&k, DER_BIT_STRING, &e, NULL) != SBAT_OK ||
	    e.len < 2 || e.val[0] != 0)
		return;
	inside(&e, 1, &bits, "RSAPublicKey");
	if (der_expect(&bits, DER_SEQUENCE, &x, NULL) != SBAT_OK ||
	    der_enter(&x, &k, "RSAPublicKey", NULL) != SBAT_OK || der_expect(&k, DER_INTEGER, &n, NULL) != SBAT_OK ||
	    der_expect(&k, DER_INTEGER, &x, NULL) != SBAT_OK)
		return;
	if (n.len == 0 || x.len == 0 || (n.val[0] & 0x80) || (x.val[0] & 0x80))
		return;
	c->key_n = n.val;
	c->key_n_len = n.len;
	c->key_e = x.val;
	c->key_e_len = x.len;
}

/* [0] EXPLICIT Version: 0 for v1 when absent. */
static void
read_version(const der *tagged, sbat_authenticode_cert *c)
{
	der_cursor v;
	der e;

	if (der_enter(tagged, &v, "Version", NULL) == SBAT_OK && der_expect(&v, DER_INTEGER, &e, NULL) == SBAT_OK &&
	    e.len == 1)
		c->version = e.val[0];
}

/* TBSCertificate: version, serial, signature (*ret_alg), issuer, validity, subject, key, then the optional fields. */
static sbat_err
read_tbs(der_cursor *tbs, sbat_authenticode_cert *c, der *ret_alg, sbat_diag *d)
{
	der e, issuer, subject, key;
	sbat_err err = SBAT_OK;

	if (der_peek(tbs, DER_CONTEXT(0)) && (err = der_read(tbs, &e, d)) == SBAT_OK)
		read_version(&e, c);
	if (err == SBAT_OK && (err = der_expect(tbs, DER_INTEGER, &e, d)) == SBAT_OK) {
		c->serial = e.val;
		c->serial_len = e.len;
	}
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, ret_alg, d);
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, &issuer, d);
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, &subject, d);
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, &key, d);
	if (err != SBAT_OK)
		return err;
	c->issuer_der = issuer.raw;
	c->issuer_der_len = issuer.raw_len;
	c->subject_der = subject.raw;
	c->subject_der_len = subject.raw_len;
	read_key(&key, c);
	err = x509_name(&issuer, c->issuer, sizeof(c->issuer), d);
	if (err == SBAT_OK)
		err = x509_name(&subject, c->subject, sizeof(c->subject), d);
	while (err == SBAT_OK && der_more(tbs)) {
		err = der_read(tbs, &e, d);
		if (err == SBAT_OK && e.tag == DER_CONTEXT(3))
			err = read_extensions(&e, c, d);
	}
	return err;
}

sbat_err
x509_read(const der *cert, sbat_authenticode_cert *c, sbat_diag *d)
{
	der_cursor outer, tbs;
	der e, alg;
	sbat_err err;

	memset(c, 0, sizeof(*c));
	c->der = cert->raw;
	c->der_len = cert->raw_len;
	c->offset = cert->offset;
	c->basic_ca = -1;
	c->key_usage = -1;
	err = der_enter(cert, &outer, "Certificate", d);
	if (err == SBAT_OK)
		err = der_expect(&outer, DER_SEQUENCE, &e, d);
	if (err != SBAT_OK)
		return err;
	sha256(e.raw, e.raw_len, c->tbs_sha256);
	err = der_enter(&e, &tbs, "TBSCertificate", d);
	if (err == SBAT_OK)
		err = read_tbs(&tbs, c, &alg, d);
	if (err == SBAT_OK)
		read_signature(&outer, &e, &alg, c);
	return err;
}

size_t
x509_tbs_hash(const uint8_t *bytes, size_t len, sbat_digest_alg alg, uint8_t *out)
{
	der_cursor top, outer;
	der cert, tbs;

	der_top(&top, bytes, len, 0, "Certificate");
	if (der_expect(&top, DER_SEQUENCE, &cert, NULL) != SBAT_OK ||
	    der_enter(&cert, &outer, "Certificate", NULL) != SBAT_OK ||
	    der_expect(&outer, DER_SEQUENCE, &tbs, NULL) != SBAT_OK)
		return 0;
	return rsa_hash(alg, tbs.raw, tbs.raw_len, NULL, 0, out);
}

int
x509_signed_by(const sbat_authenticode_cert *c, const sbat_authenticode_cert *issuer)
{
	size_t h = rsa_digest_size(c->sig_digest);
	rsa_pss_params pss;

	if (!h || !issuer->key_n || !c->signature)
		return 0;
	if (!c->sig_pss)
		return rsa_verify_pkcs1(issuer->key_n, issuer->key_n_len, issuer->key_e, issuer->key_e_len,
		                        c->sig_digest, c->tbs_digest, h, c->signature, c->signature_len,
		                        NULL) == SBAT_OK;
	pss.mgf1_alg = c->sig_pss_mgf1;
	pss.salt_len = c->sig_pss_salt_len;
	return rsa_verify_pss(issuer->key_n, issuer->key_n_len, issuer->key_e, issuer->key_e_len, c->sig_digest,
	                      c->tbs_digest, h, c->signature, c->signature_len, &pss, NULL) == SBAT_OK;
}

int
x509_may_issue(const sbat_authenticode_cert *c, int top)
{
	if (c->key_usage >= 0 && !(c->key_usage & X509_KU_KEY_CERT_SIGN))
		return 0;
	if (c->basic_ca >= 0)
		return c->basic_ca == 1;
	if (!top)
		return 0;
	return c->key_usage >= 0 || (c->version == 0 && x509name_equal(c->subject_der, c->subject_der_len,
	                                                               c->issuer_der, c->issuer_der_len));
}

sbat_err
sbat_authenticode_cert_read(const uint8_t *bytes, size_t len, sbat_authenticode_cert **ret, sbat_diag *d)
{
	sbat_authenticode_cert *c = calloc(1, sizeof(*c));
	der_cursor cur;
	der e;
	sbat_err err;

	*ret = NULL;
	if (!c)
		return diag_fail(d, SBAT_E_NOMEM, "certificate: out of memory");
	der_top(&cur, bytes, len, 0, "certificate");
	err = der_expect(&cur, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = x509_read(&e, c, d);
	if (err != SBAT_OK) {
		free(c);
		return err;
	}
	*ret = c;
	return SBAT_OK;
}

void
sbat_authenticode_cert_free(sbat_authenticode_cert *cert)
{
	free(cert);
}
