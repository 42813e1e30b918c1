/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* edit_opts.c - the edit options: sbat_edit_opts_init (0.2's and today's), the caller's as this library's */
#include <stddef.h>
#include <string.h>

#include "sbat/edit.h"

#include "util/diag.h"
#include "edit/edit_opts.h"

/* The size of 0.2's structure, which ended with dry_run. */
#define OPTS_SIZE_0_2 ((offsetof(sbat_edit_opts, pcrsig) + sizeof(size_t) - 1) / sizeof(size_t) * sizeof(size_t))

sbat_err
edit_normalize_opts(const sbat_edit_opts *opts, sbat_edit_opts *ret, sbat_diag *d)
{
	memset(ret, 0, sizeof(*ret));
	ret->size = sizeof(*ret);
	if (!opts)
		return SBAT_OK;
	/* options from a caller built against another layout are refused, not misread */
	if (opts->size != sizeof(sbat_edit_opts) && opts->size != OPTS_SIZE_0_2)
		return diag_fail(d, SBAT_E_ABI,
		                 "the edit options' size field is not sizeof(sbat_edit_opts) of this library "
		                 "(start from SBAT_EDIT_OPTS_INIT)");
	memcpy(ret, opts, opts->size == OPTS_SIZE_0_2 ? offsetof(sbat_edit_opts, pcrsig) : sizeof(*ret));
	ret->size = sizeof(*ret);
	if (ret->pcrsig < SBAT_PCRSIG_REFUSE || ret->pcrsig > SBAT_PCRSIG_KEEP)
		return diag_fail(d, SBAT_E_ABI,
		                 "the edit options' pcrsig is not one of SBAT_PCRSIG_REFUSE, DROP, KEEP");
	return SBAT_OK;
}

/*
 * sbat_edit_opts_init, twice: a program built against 0.2's headers calls
 * sbat_edit_opts_init@LIBSBAT_0 with 0.2's shorter structure, which must
 * get 0.2's size and not a byte more (the whole of today's structure would
 * be written past its end, and today's size would make the library read
 * past it); a program built now gets sbat_edit_opts_init@@LIBSBAT_0.3.
 * Where symbol versions are not to be had, there is the current one alone.
 */
#if defined(__ELF__) && defined(__GNUC__) && defined(SBAT_BUILDING_LIBRARY)
SBAT_API void edit_opts_init_0_2(sbat_edit_opts *opts);
SBAT_API void edit_opts_init_0_3(sbat_edit_opts *opts);
__asm__(".symver edit_opts_init_0_2, sbat_edit_opts_init@LIBSBAT_0");
__asm__(".symver edit_opts_init_0_3, sbat_edit_opts_init@@LIBSBAT_0.3");

void
edit_opts_init_0_2(sbat_edit_opts *opts)
{
	memset(opts, 0, OPTS_SIZE_0_2);
	opts->size = OPTS_SIZE_0_2;
}
#else
#define edit_opts_init_0_3 sbat_edit_opts_init
#endif

void
edit_opts_init_0_3(sbat_edit_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->size = sizeof(*opts);
}
