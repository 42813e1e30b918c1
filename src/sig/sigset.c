/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigset.c - the signatures of one image as they are read */
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"

#include "sig/pkcs7.h"
#include "sig/sigset.h"
#include "util/diag.h"

#define MAX_SIGNATURES 256
#define MAX_NESTING 4 /* signatures in signatures in ... */

/* Append *s and its SignerInfos; *ret_index is where it went. */
static sbat_err
push(sigset *set, const sbat_authenticode_sig *s, const pkcs7_signers *signers, size_t *ret_index, sbat_diag *d)
{
	sbat_authenticode_sig *v;
	pkcs7_signers *g;

	if (set->a.n_sigs == MAX_SIGNATURES)
		return diag_fail_other(d, SBAT_E_SIGNATURE, "more than 256 signatures", s->offset, -1, "SignedData");
	if (set->a.n_sigs == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 4;

		v = realloc((void *)set->a.sigs, cap * sizeof(*v));
		if (v)
			set->a.sigs = v;
		g = v ? realloc(set->signers, cap * sizeof(*g)) : NULL;
		if (!g)
			return diag_fail(d, SBAT_E_NOMEM, "out of memory for the signatures");
		set->signers = g;
		set->cap = cap;
	}
	v = (sbat_authenticode_sig *)set->a.sigs;
	v[set->a.n_sigs] = *s;
	set->signers[set->a.n_sigs] = *signers;
	*ret_index = set->a.n_sigs++;
	return SBAT_OK;
}

/* The signature tmpl names, then those nested in it, `level` signatures deep. */
static sbat_err
add(sigset *set, const uint8_t *buf, const sbat_authenticode_sig *tmpl, unsigned level, sbat_diag *d)
{
	pkcs7_nested nested[PKCS7_MAX_NESTED];
	sbat_authenticode_sig s = *tmpl;
	pkcs7_signers signers;
	size_t n, i, index;
	/* EDK2 reads the algorithm of a WIN_CERTIFICATE's data at a fixed offset (HashPeImageByType) */
	sbat_digest_alg fw_alg = level == 0 ? pkcs7_edk2_digest_alg(buf + tmpl->offset, tmpl->len) :
	                                      SBAT_DIGEST_UNKNOWN;
	sbat_err err;

	err = pkcs7_read(buf, &s, nested, &n, &signers, d);
	if (err != SBAT_OK)
		return err;
	signers.fw_alg = fw_alg;
	err = push(set, &s, &signers, &index, d);
	if (err != SBAT_OK) {
		free((void *)s.certs);
		return err;
	}
	if (n > 0 && level == MAX_NESTING)
		return diag_fail_other(d, SBAT_E_SIGNATURE, "signatures nested more than 4 deep", nested[0].offset, -1,
		                       "SignerInfo");
	for (i = 0; i < n && err == SBAT_OK; i++) {
		s = *tmpl;
		s.nested_in = (int)index;
		s.offset = nested[i].offset;
		s.len = nested[i].len;
		err = add(set, buf, &s, level + 1, d);
	}
	return err;
}

sbat_err
sigset_add_signed_data(sigset *set, const uint8_t *buf, const sbat_authenticode_sig *tmpl, sbat_diag *d)
{
	return add(set, buf, tmpl, 0, d);
}

void
sigset_free(sigset *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->a.n_sigs; i++)
		free((void *)set->a.sigs[i].certs);
	free((void *)set->a.sigs);
	free(set->signers);
	free(set);
}

const pkcs7_signers *
sigset_signers(const sbat_authenticode *a, size_t i)
{
	return &((const sigset *)a)->signers[i];
}

int
sigset_unpadded_end(const sbat_authenticode *a)
{
	return ((const sigset *)a)->unpadded_end;
}

const table_stop *
sigset_table_stop(const sbat_authenticode *a, int shim)
{
	const sigset *set = (const sigset *)a;
	const table_stop *t = shim ? &set->shim_stop : &set->fw_stop;

	return t->what ? t : NULL;
}
