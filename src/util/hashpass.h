/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* hashpass.h - SHA-256 streams over pieces of one file, all computed in one read of it: each block is read
 * once and fed to every stream that covers it, two streams at a time side by side (sha256_update2) */
#ifndef SBAT_UTIL_HASHPASS_H
#define SBAT_UTIL_HASHPASS_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"

#include "util/sha1.h"
#include "util/sha256.h"
#include "util/sha512.h"

/* The file is read through a buffer of this size. */
#define HASHPASS_CHUNK (256u * 1024u)

enum hashpass_kind {
	HASHPASS_FILE,  /* bytes [off, off + len) of the file */
	HASHPASS_MEM,   /* len bytes at mem */
	HASHPASS_ZEROS, /* len zero bytes */
};

/* One piece of a stream. */
typedef struct hashpass_seg {
	enum hashpass_kind kind;
	uint64_t off;
	uint64_t len;
	const uint8_t *mem;
} hashpass_seg;

/* One stream: its pieces in the order they are hashed (the caller's array), and the state of its hash. */
typedef struct hashpass_stream {
	const hashpass_seg *seg;
	size_t n_seg;
	struct sha1_ctx *sha1;              /* NULL, or a SHA-1 (initialised by the caller) fed the same bytes */
	struct sha512_ctx *sha384, *sha512; /* NULL, or a SHA-384 and a SHA-512 (the same) fed the same bytes */
	struct sha256_ctx ctx; /* initialised by hashpass_run; the caller takes the digest with sha256_final */
	size_t cur;            /* the piece being hashed */
	uint64_t done;         /* its bytes hashed so far */
} hashpass_stream;

/*
 * Hash the n streams of s, their file pieces read from fd (>= 0) through a
 * buffer of HASHPASS_CHUNK bytes, or from buf (buf_len bytes) when fd < 0.
 * The file is walked from its start: a block is read once for all the
 * streams whose next bytes are in it; only a stream whose pieces go back
 * in the file reads a block again. Fails (SBAT_E_PE_TRUNCATED) when a piece
 * ends past buf_len or the file's end, or a read fails (SBAT_E_IO).
 */
sbat_err hashpass_run(hashpass_stream *s, size_t n, int fd, const uint8_t *buf, uint64_t buf_len, sbat_diag *d);

#endif
