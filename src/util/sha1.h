/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sha1.h - SHA-1 (FIPS 180-4), streamed: shim compares an image's Authenticode
 * SHA-1 with the EFI_CERT_SHA1 entries of dbx and db, so a model of shim must too */
#ifndef SBAT_UTIL_SHA1_H
#define SBAT_UTIL_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define SHA1_DIGEST_SIZE 20
#define SHA1_BLOCK_SIZE 64

struct sha1_ctx {
	uint32_t h[5];
	uint64_t bytes;               /* message length so far */
	uint8_t buf[SHA1_BLOCK_SIZE]; /* a partial block */
	size_t fill;                  /* bytes in buf */
};

void sha1_init(struct sha1_ctx *ctx);
void sha1_update(struct sha1_ctx *ctx, const void *data, size_t len);
void sha1_final(struct sha1_ctx *ctx, uint8_t out[SHA1_DIGEST_SIZE]);

/*
 * Select the block function for all later calls: 1 the x86-64 SHA
 * extensions', 0 the portable one, -1 the best the CPU offers (what the
 * first sha1_init picks); both give the same digests. 0 when the CPU or
 * the build lacks what was asked for (the function in use stays), else 1.
 */
int sha1_select(int shani);

#endif
