/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigset.h - the signatures of one image as they are read: a growing list the caller frees once */
#ifndef SBAT_SIG_SIGSET_H
#define SBAT_SIG_SIGSET_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"

#include "sig/pehash.h"

/* What sbat_authenticode_parse hands out is `a`, the first member: a pointer to it is one to the set. */
typedef struct sigset {
	sbat_authenticode a;
	size_t cap;
	pehash_digests dg; /* the image's hashes by EDK2's rule: a.image_hash, and those its signatures name */
} sigset;

/*
 * Read the SignedData of `tmpl` (its offset and len: a ContentInfo in buf,
 * at file offsets) into a new signature after the others, then the
 * signatures nested in it. tmpl's entry fields are copied.
 */
sbat_err sigset_add_signed_data(sigset *set, const uint8_t *buf, const sbat_authenticode_sig *tmpl, sbat_diag *d);

/* Free the set, its signatures and their certificates. */
void sigset_free(sigset *set);

#endif
