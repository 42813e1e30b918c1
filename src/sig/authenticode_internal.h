/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* authenticode_internal.h - what the library adds to sbat/authenticode.h */
#ifndef SBAT_SIG_AUTHENTICODE_INTERNAL_H
#define SBAT_SIG_AUTHENTICODE_INTERNAL_H

#include <stdint.h>

#include "sbat/authenticode.h"

/* sbat_authenticode_parse of img whose Authenticode SHA-256 (EDK2's rule) is hash, computed by the caller. */
sbat_err authenticode_parse_hashed(const sbat_image *img, const uint8_t hash[SBAT_AUTHENTICODE_SHA256_SIZE],
                                   sbat_authenticode **ret, sbat_diag *d);

#endif
