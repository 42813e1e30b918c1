/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* authenticode_internal.h - what the library adds to sbat/authenticode.h */
#ifndef SBAT_SIG_AUTHENTICODE_INTERNAL_H
#define SBAT_SIG_AUTHENTICODE_INTERNAL_H

#include <stdint.h>

#include "sbat/authenticode.h"

#include <stddef.h>

/*
 * sbat_authenticode_parse_fd of img whose Authenticode SHA-256 (EDK2's
 * rule) is hash, computed by the caller: the image is read again only for
 * the SHA-1, SHA-384 or SHA-512 a signature names.
 */
sbat_err authenticode_parse_hashed(const sbat_image *img, int fd, const uint8_t hash[SBAT_AUTHENTICODE_SHA256_SIZE],
                                   sbat_authenticode **ret, sbat_diag *d);

/*
 * sbat_authenticode_parse_fd, and when img is unsigned, its hashes by the
 * algorithms `unsigned_algs` names too (PEHASH_ALG bits; SHA-256 always),
 * in the same read. A signed image is hashed by each algorithm its
 * signatures name.
 */
sbat_err authenticode_parse_algs(const sbat_image *img, int fd, unsigned unsigned_algs, sbat_authenticode **ret,
                                 sbat_diag *d);

/* The image's Authenticode hash (EDK2's rule) by alg, its length in *ret_len; NULL when it was not computed. */
const uint8_t *authenticode_image_digest(const sbat_authenticode *a, sbat_digest_alg alg, size_t *ret_len);

#endif
