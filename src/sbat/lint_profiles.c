/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint_profiles.c - the entry point that runs the loader rules and the profiles asked for */
#include <string.h>

#include "sbat/lint.h"

#include "pe/image_internal.h"
#include "sbat/lint_internal.h"

/* The fields of opts the caller's struct has, the rest as SBAT_LINT_OPTS_INIT. */
static void
take_opts(const sbat_lint_opts *opts, sbat_lint_opts *o)
{
	size_t n = opts && opts->size < sizeof(*o) ? opts->size : sizeof(*o);

	sbat_lint_opts_init(o);
	if (opts && n > sizeof(o->size))
		memcpy((char *)o + sizeof(o->size), (const char *)opts + sizeof(o->size), n - sizeof(o->size));
}

sbat_err
sbat_lint_profiles(const sbat_image *img, const sbat_lint_opts *opts, sbat_lint_subject_fn fn, void *ctx,
                   sbat_lint_counts *ret_counts)
{
	sbat_lint_opts o;
	linter l;
	size_t i;

	take_opts(opts, &o);
	if (o.n_levels && !o.levels)
		return SBAT_E_LEVEL;
	for (i = 0; i < o.n_levels; i++)
		if (!o.levels[i] || !o.levels[i]->entries || o.levels[i]->n_entries == 0)
			return SBAT_E_LEVEL;
	lint_start(&l, img, ctx);
	l.sfn = fn;
	lint_loader_rules(&l);
	if (o.profiles & SBAT_PROFILE_SHIM_REVIEW)
		lint_shim_review(&l, &o);
	if (o.profiles & SBAT_PROFILE_UEFI_CA)
		lint_uefi_ca(&l);
	if (ret_counts)
		*ret_counts = l.counts;
	return SBAT_OK;
}
