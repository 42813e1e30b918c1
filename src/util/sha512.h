/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sha512.h - SHA-512 and SHA-384 (FIPS 180-4), streamed, portable: the digests
 * an RSA signature may name besides SHA-1 and SHA-256 */
#ifndef SBAT_UTIL_SHA512_H
#define SBAT_UTIL_SHA512_H

#include <stddef.h>
#include <stdint.h>

#define SHA512_DIGEST_SIZE 64
#define SHA384_DIGEST_SIZE 48
#define SHA512_BLOCK_SIZE 128

struct sha512_ctx {
	uint64_t h[8];
	uint64_t bytes;                 /* message length so far (2^64 bytes is far beyond any input) */
	uint8_t buf[SHA512_BLOCK_SIZE]; /* a partial block */
	size_t fill;                    /* bytes in buf */
	size_t out_len;                 /* SHA512_DIGEST_SIZE, or SHA384_DIGEST_SIZE after sha512_init_384 */
};

/* SHA-512 */
void sha512_init(struct sha512_ctx *ctx);
/* SHA-384: SHA-512 from other initial words, its output cut to 48 bytes */
void sha512_init_384(struct sha512_ctx *ctx);
void sha512_update(struct sha512_ctx *ctx, const void *data, size_t len);
/*
 * sha512_update of ctx and of ctx2 with the same bytes, in one pass: one
 * message schedule, both rounds side by side (SHA-384 and SHA-512 of one
 * image). Where the two were fed different bytes before, one after the other.
 */
void sha512_update2(struct sha512_ctx *ctx, struct sha512_ctx *ctx2, const void *data, size_t len);
/* Write ctx->out_len bytes (64, or 48 for SHA-384) to out. */
void sha512_final(struct sha512_ctx *ctx, uint8_t *out);

#endif
