/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* chain.c - a signature's certificate chain, and whether it reaches a certificate a database holds */
#include <string.h>

#include "sbat/authenticode.h"

#include "sig/chain.h"
#include "sig/der.h"
#include "sig/x509.h"
#include "sig/x509name.h"

static int
same(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	return a && b && a_len == b_len && memcmp(a, b, a_len) == 0;
}

/*
 * 1 when `issuer` names c's issuer, as OpenSSL's check_issued: the subject
 * (X509_NAME_cmp, canonical), and the key identifier when both carry one
 * (X509_check_akid); without one on either side the name alone.
 */
static int
issued_by(const sbat_authenticode_cert *c, const sbat_authenticode_cert *issuer)
{
	if (!x509name_equal(c->issuer_der, c->issuer_der_len, issuer->subject_der, issuer->subject_der_len))
		return 0;
	if (c->authority_key_id && issuer->subject_key_id)
		return same(c->authority_key_id, c->authority_key_id_len, issuer->subject_key_id,
		            issuer->subject_key_id_len);
	return 1;
}

static int
self_issued(const sbat_authenticode_cert *c)
{
	return x509name_equal(c->subject_der, c->subject_der_len, c->issuer_der, c->issuer_der_len);
}

static int
in_chain(const int *chain, size_t n, int j)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (chain[i] == j)
			return 1;
	return 0;
}

size_t
chain_build(const sbat_authenticode_sig *s, int *out)
{
	int cur = s->signer_cert, next;
	size_t n = 0, j;

	while (cur >= 0 && (size_t)cur < s->n_certs && n < s->n_certs) {
		out[n++] = cur;
		if (self_issued(&s->certs[cur]))
			break;
		next = -1;
		for (j = 0; j < s->n_certs && next < 0; j++)
			if (!in_chain(out, n, (int)j) && issued_by(&s->certs[cur], &s->certs[j]))
				next = (int)j;
		cur = next;
	}
	return n;
}

/* Read der[0..len) as a certificate: 1 when it reads. */
static int
read_anchor(const uint8_t *bytes, size_t len, sbat_authenticode_cert *c)
{
	der_cursor cur;
	der e;

	der_top(&cur, bytes, len, 0, "database certificate");
	if (der_expect(&cur, DER_SEQUENCE, &e, NULL) != SBAT_OK)
		return 0;
	return x509_read(&e, c, NULL) == SBAT_OK;
}

static void
copy_subject(chain_match *m, const char *subject)
{
	size_t n = strlen(subject);

	if (n >= sizeof(m->subject))
		n = sizeof(m->subject) - 1;
	memcpy(m->subject, subject, n);
	m->subject[n] = '\0';
}

void
chain_links(const sbat_authenticode_sig *s, const int *chain, size_t n, uint8_t *links)
{
	size_t k;

	for (k = 0; k + 1 < n; k++)
		links[k] = (uint8_t)x509_signed_by(&s->certs[chain[k]], &s->certs[chain[k + 1]]);
}

/* The match fails at certificate `cert` of s (-1: the database certificate, `anchor`): 0. */
static int
fail_at(chain_match *m, chain_fail why, const sbat_authenticode_sig *s, int cert, const sbat_authenticode_cert *anchor)
{
	m->fail = why;
	m->cert = cert;
	copy_subject(m, cert >= 0 ? s->certs[cert].subject : anchor->subject);
	return 0;
}

/*
 * The chain up to chain[top], trusted as it is (anchor NULL) or as issued
 * by anchor, checked as X509_verify_cert checks it: the CAs first
 * (check_chain_extensions), then each signature (internal_verify). 1 when
 * it verifies.
 */
static int
verified(const sbat_authenticode_sig *s, const int *chain, const uint8_t *links, size_t top,
         const sbat_authenticode_cert *anchor, chain_match *m)
{
	size_t j;

	for (j = 1; j <= top; j++)
		if (!x509_may_issue(&s->certs[chain[j]], !anchor && j == top))
			return fail_at(m, CHAIN_NOT_CA, s, chain[j], NULL);
	if (anchor && !x509_may_issue(anchor, 1))
		return fail_at(m, CHAIN_NOT_CA, s, -1, anchor);
	for (j = 0; j < top; j++)
		if (!links[j])
			return fail_at(m, CHAIN_BAD_SIGNATURE, s, chain[j], NULL);
	if (anchor && !x509_signed_by(&s->certs[chain[top]], anchor))
		return fail_at(m, CHAIN_BAD_SIGNATURE, s, chain[top], NULL);
	return 1;
}

int
chain_reaches(const sbat_authenticode_sig *s, const int *chain, const uint8_t *links, size_t n, const uint8_t *bytes,
              size_t len, chain_match *m)
{
	sbat_authenticode_cert anchor;
	int parsed = read_anchor(bytes, len, &anchor);
	const sbat_authenticode_cert *c;
	size_t k;

	memset(m, 0, sizeof(*m));
	m->cert = -1;
	m->have_tbs = parsed;
	m->module_signing = parsed && anchor.module_signing_eku;
	if (parsed)
		memcpy(m->tbs_sha256, anchor.tbs_sha256, sizeof(m->tbs_sha256));
	for (k = 0; k < n; k++) {
		c = &s->certs[chain[k]];
		if (same(c->der, c->der_len, bytes, len)) {
			if (!verified(s, chain, links, k, NULL, m))
				return 0;
			m->cert = chain[k];
			copy_subject(m, c->subject);
			return 1;
		}
		if (parsed && issued_by(c, &anchor)) {
			if (!verified(s, chain, links, k, &anchor, m))
				return 0;
			copy_subject(m, anchor.subject);
			return 1;
		}
	}
	return 0;
}

size_t
sbat_authenticode_chain(const sbat_authenticode_sig *s, int *out)
{
	return chain_build(s, out);
}
