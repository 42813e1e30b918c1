/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* plan_uki.h - the whole plan of an edit: the .sbat plan (plan.h) and, for a UKI, what it does to PCR 11 */
#ifndef SBAT_EDIT_PLAN_UKI_H
#define SBAT_EDIT_PLAN_UKI_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/edit.h"
#include "sbat/error.h"

#include "edit/plan.h"

/*
 * Decide how `payload` becomes the image's .sbat (replace in place, grow
 * the last section, append a new one, relocate a mid-file one) or how the
 * .sbat is removed. Checks header room, signatures and the kernel limits.
 * For a UKI: does the planned edit change PCR 11? Sets the report's uki
 * bits; refuses (SBAT_E_PCRSIG) when it does and .pcrsig signs the image,
 * unless opts say to keep .pcrsig or to drop it (then re-plans on the image
 * without it). A multi-profile UKI's .sbat stays among its base sections
 * (see plan_core). Does no I/O; what the plan owns goes with plan_release.
 */
sbat_err plan_build(const sbat_pe *pe, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
                    const sbat_edit_opts *opts, plan *ret, sbat_diag *reterr);

#endif
