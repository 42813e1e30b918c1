/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* authvar.c - an authenticated update of db, dbx or KEK, checked as the firmware checks the write */
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/error.h"
#include "sbat/sigdb.h"

#include "sig/authvar.h"
#include "sig/chain.h"
#include "sig/der.h"
#include "sig/pkcs7.h"
#include "sig/x509.h"
#include "sigdb/esl.h"
#include "util/diag.h"

#define TIME_SIZE 16u    /* EFI_TIME */
#define CERT_HEADER 24u  /* WIN_CERTIFICATE_UEFI_GUID: dwLength, wRevision, wCertificateType, CertType */
#define NAME_MAX_BYTES 6 /* "dbx" or "KEK" in UTF-16 */
#define PREFIX_MAX (NAME_MAX_BYTES + 16 + 4 + TIME_SIZE)
#define WRAP_MAX (0xffffu - 15u) /* a bare SignedData EDK2 can wrap: its ContentInfo length in 16 bits */

/* The image security database's GUID and the global variables', as stored (little-endian fields). */
static const uint8_t guid_security_db[16] = { 0xcb, 0xb2, 0x19, 0xd7, 0x3a, 0x3d, 0x96, 0x45,
	                                      0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f };
static const uint8_t guid_global[16] = { 0x61, 0xdf, 0xe4, 0x8b, 0xca, 0x93, 0xd2, 0x11,
	                                 0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c };
static const uint8_t oid_sha256[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };

/* What is signed before the lists: name (UTF-16LE, no NUL), GUID, attributes, EFI_TIME. Its length; 0: var unknown. */
static size_t
signed_prefix(const char *var, const uint8_t *time, uint8_t out[PREFIX_MAX], int *by_kek)
{
	size_t n = strlen(var), i, at = 0;
	int db = strcmp(var, "db") == 0 || strcmp(var, "dbx") == 0, pk = strcmp(var, "PK") == 0;
	uint32_t attributes = pk ? AUTHVAR_PK_ATTRIBUTES : AUTHVAR_ATTRIBUTES;

	if (!db && !pk && strcmp(var, "KEK") != 0)
		return 0;
	*by_kek = db;
	for (i = 0; i < n; i++) {
		out[at++] = (uint8_t)var[i];
		out[at++] = 0;
	}
	memcpy(out + at, db ? guid_security_db : guid_global, 16);
	at += 16;
	out[at++] = (uint8_t)attributes;
	out[at++] = 0;
	out[at++] = 0;
	out[at++] = 0;
	memcpy(out + at, time, TIME_SIZE);
	return at + TIME_SIZE;
}

/* VerifyTimeBasedPayload's checks before the signature: AUTHVAR_ACCEPTED when they pass, else why it refuses. */
static authvar_result
descriptor_refused(const uint8_t *buf, const uint8_t *sig, size_t sig_len)
{
	size_t i;

	for (i = 7; i < TIME_SIZE; i++)
		if (buf[i] != 0)
			return AUTHVAR_BAD_TIME;
	if (sig_len >= 13 + sizeof(oid_sha256) &&
	    ((sig[1] & 0x82) != 0x82 || memcmp(sig + 13, oid_sha256, sizeof(oid_sha256)) != 0))
		return AUTHVAR_NOT_SHA256;
	if (!pkcs7_is_content_info(sig, sig_len) && sig_len > WRAP_MAX)
		return AUTHVAR_TOO_BIG;
	return AUTHVAR_ACCEPTED;
}

static void
copy_name(char *out, const char *in)
{
	size_t n = strlen(in);

	if (n >= SBAT_AUTHENTICODE_NAME_MAX)
		n = SBAT_AUTHENTICODE_NAME_MAX - 1;
	memcpy(out, in, n);
	out[n] = '\0';
}

/* PK's rule: the signer's certificate is PK's first entry, byte for byte. 1 when it is. */
static int
signed_by_pk(const sbat_authenticode_sig *s, const sbat_sigdb *pk)
{
	const sbat_sigdb_entry *e = sbat_sigdb_get(pk, 0);
	const sbat_authenticode_cert *c = &s->certs[s->signer_cert];

	return e && e->data_len == c->der_len && memcmp(e->data, c->der, c->der_len) == 0;
}

/* KEK's rule: each EFI_CERT_X509 entry in turn as the trusted certificate. */
static void
check_kek(const sbat_authenticode_sig *s, const sbat_sigdb *kek, authvar_check *c)
{
	int chain[PKCS7_MAX_CERTS];
	uint8_t links[PKCS7_MAX_CERTS];
	size_t n = chain_build(s, chain), i;
	const sbat_sigdb_entry *e;
	chain_match m;

	chain_links(s, chain, n, links);
	c->result = AUTHVAR_NOT_SIGNED_BY_KEY;
	for (i = 0; (e = sbat_sigdb_get(kek, i)) != NULL; i++) {
		if (e->type != SBAT_SIG_X509)
			continue;
		if (chain_reaches(s, chain, links, n, e->data, e->data_len, &m)) {
			c->result = AUTHVAR_ACCEPTED;
			copy_name(c->key, m.subject);
			return;
		}
		if (m.fail != CHAIN_OK && c->result == AUTHVAR_NOT_SIGNED_BY_KEY) {
			c->result = m.fail == CHAIN_NOT_CA ? AUTHVAR_CHAIN_NOT_CA : AUTHVAR_CHAIN_BAD_SIGNATURE;
			copy_name(c->key, m.subject);
		}
	}
}

/* The signature judged, once it read: the signer's, then PK's rule, then KEK's (db and dbx). */
static void
judge(const sbat_authenticode_sig *s, size_t n_signers, const sbat_sigdb *pk, const sbat_sigdb *kek, int by_kek,
      authvar_check *c)
{
	if (s->signer_cert >= 0)
		copy_name(c->signer, s->certs[s->signer_cert].subject);
	if (n_signers > 1)
		c->result = AUTHVAR_SEVERAL_SIGNERS;
	else if (s->signature_verifies < 0)
		c->result = AUTHVAR_NO_SIGNER;
	else if (s->signature_verifies == 0)
		c->result = AUTHVAR_BAD_SIGNATURE;
	else if (signed_by_pk(s, pk)) {
		c->result = AUTHVAR_ACCEPTED;
		c->by_pk = 1;
		copy_name(c->key, c->signer);
	} else if (by_kek)
		check_kek(s, kek, c);
	else
		c->result = AUTHVAR_NOT_SIGNED_BY_KEY;
}

/* CheckSignatureListFormat, on lists that read: the first entry of each list. */
typedef struct list_rule {
	size_t next;           /* the list whose first entry comes next */
	authvar_result result; /* AUTHVAR_ACCEPTED while they pass */
	size_t entries;        /* the signatures of all lists */
} list_rule;

/* 1 when der[0..len) is a certificate with an RSA key (RsaGetPublicKeyFromX509). */
static int
rsa_certificate(const uint8_t *der_bytes, size_t len)
{
	sbat_authenticode_cert c;
	der_cursor cur;
	der e;

	der_top(&cur, der_bytes, len, 0, "certificate");
	return der_expect(&cur, DER_SEQUENCE, &e, NULL) == SBAT_OK && x509_read(&e, &c, NULL) == SBAT_OK && c.key_n;
}

static sbat_err
list_entry(void *ctx, const esl_entry *e, sbat_diag *d)
{
	list_rule *r = ctx;

	(void)d;
	r->entries++;
	if (r->result != AUTHVAR_ACCEPTED || e->list < r->next)
		return SBAT_OK;
	r->next = e->list + 1;
	if (e->type == SBAT_SIG_UNKNOWN)
		r->result = AUTHVAR_UNKNOWN_TYPE;
	else if (e->type == SBAT_SIG_X509 && !rsa_certificate(e->data, e->data_len))
		r->result = AUTHVAR_BAD_CERT;
	return SBAT_OK;
}

/* The signature read over the signed data, and judged into c. */
static sbat_err
verify(const uint8_t *buf, size_t sig_end, const uint8_t *prefix, size_t prefix_len, const uint8_t *lists,
       size_t lists_len, const sbat_sigdb *pk, const sbat_sigdb *kek, int by_kek, authvar_check *c, sbat_diag *d)
{
	sbat_authenticode_sig s;
	size_t n_signers = 0;
	uint8_t *content = malloc(prefix_len + lists_len + 1);
	sbat_err err;

	if (!content)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for an update's signed data");
	memcpy(content, prefix, prefix_len);
	if (lists_len)
		memcpy(content + prefix_len, lists, lists_len);
	memset(&s, 0, sizeof(s));
	s.offset = TIME_SIZE + CERT_HEADER;
	s.len = sig_end - s.offset;
	err = pkcs7_read_detached(buf, &s, content, prefix_len + lists_len, &n_signers, d);
	free(content);
	if (err != SBAT_OK)
		return err;
	judge(&s, n_signers, pk, kek, by_kek, c);
	free((void *)s.certs);
	return SBAT_OK;
}

sbat_err
authvar_check_update(const uint8_t *buf, size_t len, const char *var, const sbat_sigdb *pk, const sbat_sigdb *kek,
                     authvar_check *ret, sbat_diag *d)
{
	uint8_t prefix[PREFIX_MAX];
	size_t end, prefix_len;
	int by_kek = 0;
	list_rule lr = { 0, AUTHVAR_ACCEPTED, 0 };
	sbat_err err;

	memset(ret, 0, sizeof(*ret));
	err = esl_auth2_skip(buf, len, var, &end, d);
	if (err != SBAT_OK)
		return err;
	prefix_len = end ? signed_prefix(var, buf, prefix, &by_kek) : 1;
	if (prefix_len == 0)
		return diag_fail(d, SBAT_E_EFIVAR,
		                 "an authenticated update of a variable other than db, dbx, KEK or PK");
	ret->payload_offset = end;
	err = esl_walk(buf + end, len - end, end, var, list_entry, &lr, d);
	ret->entries = lr.entries;
	if (err != SBAT_OK || end == 0) {
		ret->result = AUTHVAR_NOT_AUTHENTICATED;
		return err;
	}
	ret->result = descriptor_refused(buf, buf + TIME_SIZE + CERT_HEADER, end - TIME_SIZE - CERT_HEADER);
	if (ret->result != AUTHVAR_ACCEPTED)
		return SBAT_OK;
	err = verify(buf, end, prefix, prefix_len, buf + end, len - end, pk, kek, by_kek, ret, d);
	if (err == SBAT_OK && ret->result == AUTHVAR_ACCEPTED)
		ret->result = lr.result;
	if (err == SBAT_OK && ret->result == AUTHVAR_ACCEPTED && lr.entries > 1 && strcmp(var, "PK") == 0)
		ret->result = AUTHVAR_PK_SEVERAL;
	return err;
}
