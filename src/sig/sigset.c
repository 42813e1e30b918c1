/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigset.c - the signatures of one image as they are read */
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"

#include "sig/sigset.h"
#include "util/diag.h"

#define MAX_SIGNATURES 256

/* Append *s; *ret_index is where it went. */
static sbat_err
push(sigset *set, const sbat_authenticode_sig *s, size_t *ret_index, sbat_diag *d)
{
	sbat_authenticode_sig *v;

	if (set->a.n_sigs == MAX_SIGNATURES)
		return diag_fail_other(d, SBAT_E_SIGNATURE, "more than 256 signatures", s->offset, -1, "SignedData");
	if (set->a.n_sigs == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 4;

		v = realloc((void *)set->a.sigs, cap * sizeof(*v));
		if (!v)
			return diag_fail(d, SBAT_E_NOMEM, "out of memory for the signatures");
		set->a.sigs = v;
		set->cap = cap;
	}
	v = (sbat_authenticode_sig *)set->a.sigs;
	v[set->a.n_sigs] = *s;
	*ret_index = set->a.n_sigs++;
	return SBAT_OK;
}

sbat_err
sigset_add_signed_data(sigset *set, const uint8_t *buf, const sbat_authenticode_sig *tmpl, sbat_diag *d)
{
	size_t index;

	(void)buf;
	return push(set, tmpl, &index, d);
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
	free(set);
}
