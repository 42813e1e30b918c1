/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sha256.h - SHA-256 (FIPS 180-4), streamed: a portable block function and,
 * on x86-64 CPUs that have them, the SHA extensions, chosen once at run time */
#ifndef SBAT_UTIL_SHA256_H
#define SBAT_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32
#define SHA256_BLOCK_SIZE 64

struct sha256_ctx {
	uint32_t h[8];
	uint64_t bytes;                 /* message length so far */
	uint8_t buf[SHA256_BLOCK_SIZE]; /* a partial block */
	size_t fill;                    /* bytes in buf */
};

/* which block function is in use */
enum sha256_impl {
	SHA256_IMPL_AUTO = 0, /* the best the CPU offers */
	SHA256_IMPL_PORTABLE,
	SHA256_IMPL_SHANI,
};

void sha256_init(struct sha256_ctx *ctx);
void sha256_update(struct sha256_ctx *ctx, const void *data, size_t len);
/*
 * Two streams at once: the same as sha256_update(a, data_a, len_a) then
 * sha256_update(b, data_b, len_b), the whole blocks the two have in common
 * compressed side by side (a and b must be different contexts). One SHA-256
 * stream waits on each round's result; two fill the time it waits.
 */
void sha256_update2(struct sha256_ctx *a, const void *data_a, size_t len_a, struct sha256_ctx *b, const void *data_b,
                    size_t len_b);
void sha256_final(struct sha256_ctx *ctx, uint8_t out[SHA256_DIGEST_SIZE]);
/* one call: the digest of LEN bytes at DATA */
void sha256(const void *data, size_t len, uint8_t out[SHA256_DIGEST_SIZE]);

/* Select the block functions (one stream, two streams) for all later calls; SHA256_IMPL_SHANI on a CPU
 * without the extensions (or a build without them) returns 0 and changes
 * nothing. Returns 1 when the choice is in effect. For tests and benchmarks. */
int sha256_select(enum sha256_impl impl);
/* the block function now in use (never SHA256_IMPL_AUTO) */
enum sha256_impl sha256_current(void);

#endif
