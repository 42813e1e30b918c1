/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* x509.c - what an X.509 certificate says about itself: names, serial, key identifiers */
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/error.h"

#include "sig/der.h"
#include "sig/x509.h"
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

/* One Extension: subjectKeyIdentifier and authorityKeyIdentifier are kept, and extendedKeyUsage's module signing. */
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

/* TBSCertificate: version, serial, signature, issuer, validity, subject, key, then the optional fields. */
static sbat_err
read_tbs(der_cursor *tbs, sbat_authenticode_cert *c, sbat_diag *d)
{
	der e, issuer, subject;
	sbat_err err = SBAT_OK;

	if (der_peek(tbs, DER_CONTEXT(0)))
		err = der_read(tbs, &e, d);
	if (err == SBAT_OK && (err = der_expect(tbs, DER_INTEGER, &e, d)) == SBAT_OK) {
		c->serial = e.val;
		c->serial_len = e.len;
	}
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, &issuer, d);
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, &e, d);
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, &subject, d);
	if (err == SBAT_OK)
		err = der_expect(tbs, DER_SEQUENCE, &e, d);
	if (err != SBAT_OK)
		return err;
	c->issuer_der = issuer.raw;
	c->issuer_der_len = issuer.raw_len;
	c->subject_der = subject.raw;
	c->subject_der_len = subject.raw_len;
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
	der e;
	sbat_err err;

	memset(c, 0, sizeof(*c));
	c->der = cert->raw;
	c->der_len = cert->raw_len;
	c->offset = cert->offset;
	err = der_enter(cert, &outer, "Certificate", d);
	if (err == SBAT_OK)
		err = der_expect(&outer, DER_SEQUENCE, &e, d);
	if (err != SBAT_OK)
		return err;
	sha256(e.raw, e.raw_len, c->tbs_sha256);
	err = der_enter(&e, &tbs, "TBSCertificate", d);
	return err == SBAT_OK ? read_tbs(&tbs, c, d) : err;
}

sbat_err
sbat_authenticode_cert_read(const uint8_t *bytes, size_t len, sbat_authenticode_cert *ret, sbat_diag *d)
{
	der_cursor cur;
	der e;
	sbat_err err;

	der_top(&cur, bytes, len, 0, "certificate");
	err = der_expect(&cur, DER_SEQUENCE, &e, d);
	return err == SBAT_OK ? x509_read(&e, ret, d) : err;
}
