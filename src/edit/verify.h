/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* verify.h - check an edited image the way shim, EDK2 and strict loaders will, and that nothing else changed */
#ifndef SBAT_EDIT_VERIFY_H
#define SBAT_EDIT_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "edit/plan.h"

/*
 * Re-parse the output and check the rules loaders apply to the section we
 * wrote: one .sbat with the payload and NUL padding (none after a removal),
 * aligned and inside the file and image, overlapping nothing, kernel setup
 * bytes unchanged.
 */
sbat_err verify_output(const plan *p, const sbat_pe *in_pe, const uint8_t *in, const uint8_t *out, size_t out_len,
                       const uint8_t *payload, size_t payload_len, sbat_diag *reterr);

/*
 * The general guarantee behind every edit: each input byte of the headers,
 * of every section but .sbat and of the kept trailing data is copied to the
 * output, and every copied byte is unchanged unless a planned patch covers
 * it. Zero-fill patches and patches longer than a field never touch another
 * section's bytes. Copied bytes from output offset sparse_from on are not
 * compared (a dry run did not write them). A non-zero window compares
 * only that many bytes at both ends of each copied range and around each
 * patch: enough to catch any offset mistake when the kernel copied the
 * range whole, without reading every byte of a large image again.
 * in_file: `in` maps a file the output was copied from, which others may
 * write; a copied byte that differs then means the file changed
 * (SBAT_E_CHANGED), else an internal error (SBAT_E_LAYOUT).
 */
sbat_err verify_kept(const plan *p, const sbat_pe *in_pe, const uint8_t *in, const uint8_t *out, uint64_t sparse_from,
                     uint64_t window, int in_file, sbat_diag *reterr);

#endif
