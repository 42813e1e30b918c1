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
 *    only when its SHA-256 digest is that hash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-opbyte.h"

#include "sbat/sbat.h"

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
	sbat_authenticode_sig s;
	size_t n_nested, i;
	sbat_diag d;
	sbat_err err;

	(void)op;
	memset(&s, 0, sizeof(s));
	s.len = n;
	s.nested_in = -1;
	err = pkcs7_read(p, &s, nested, &n_nested, &d);
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
	free((void *)s.certs);
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
	}
	sbat_authenticode_free(a);
	sbat_image_free(img);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_opbyte_run("fuzz-authenticode", data, size, FUZZ_MAX_INPUT, content_info, image);
}
