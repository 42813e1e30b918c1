/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pehash.h - the Authenticode SHA-256 (and SHA-1, SHA-384, SHA-512) of an image, from its buffer or from the file it maps */
#ifndef SBAT_SIG_PEHASH_H
#define SBAT_SIG_PEHASH_H

#include <stdint.h>

#include "sbat/authenticode.h"

#include "pe/model.h"
#include "util/hashpass.h"

/* The pieces of the file the Authenticode hash covers, in its order: three of the headers, one per
 * section, the bytes after them and shim's padding (pieces that follow each other are joined). */
typedef struct pehash_plan {
	hashpass_seg seg[SBAT_PE_MAX_SECTIONS + 5];
	size_t n;
} pehash_plan;

/* The plan of img's hash by `rule`; fails as sbat_authenticode_hash does when a size does not fit in the file. */
sbat_err pehash_plan_build(const sbat_image *img, sbat_authenticode_rule rule, pehash_plan *ret, sbat_diag *d);

/*
 * sbat_authenticode_hash of img (not NULL, rule known). fd >= 0: the file
 * img's buffer maps, read through a 256 KiB buffer instead of the mapping,
 * so that a large image does not stay resident; -1: the buffer.
 */
sbat_err pehash_compute(const sbat_image *img, sbat_authenticode_rule rule, int fd,
                        uint8_t ret_digest[SBAT_AUTHENTICODE_SHA256_SIZE], sbat_diag *d);

/* The same, and the Authenticode SHA-1 into ret_sha1 (20 bytes) unless it is NULL. */
sbat_err pehash_compute2(const sbat_image *img, sbat_authenticode_rule rule, int fd,
                         uint8_t ret_digest[SBAT_AUTHENTICODE_SHA256_SIZE], uint8_t *ret_sha1, sbat_diag *d);

/* The bit of a digest algorithm in pehash_digests.algs. */
#define PEHASH_ALG(alg) (1u << (unsigned)(alg))

/* An image's Authenticode hashes by several algorithms: SHA-256 always, the others named in algs. */
typedef struct pehash_digests {
	unsigned algs; /* PEHASH_ALG(SBAT_DIGEST_SHA1 / _SHA384 / _SHA512): computed besides SHA-256 */
	uint8_t sha1[20];
	uint8_t sha256[SBAT_AUTHENTICODE_SHA256_SIZE];
	uint8_t sha384[48];
	uint8_t sha512[64];
} pehash_digests;

/* pehash_compute of img into dg->sha256, and each digest dg->algs names, all in one read of the image. */
sbat_err pehash_compute_all(const sbat_image *img, sbat_authenticode_rule rule, int fd, pehash_digests *dg,
                            sbat_diag *d);

/* The digest of alg in dg, its length in *ret_len; NULL when dg does not hold it. */
const uint8_t *pehash_digest(const pehash_digests *dg, sbat_digest_alg alg, size_t *ret_len);

/*
 * 1 when shim 16.1's rule hashes the same bytes as EDK2's: a certificate
 * table that ends the file, the sections' raw data before it. Then one
 * hash serves both (shim pads only an unsigned image's tail).
 */
int pehash_rules_agree(const sbat_image *img);

#endif
