/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* content.h - a fingerprint of a file's bytes, to see a change that the time stamps cannot */
#ifndef SBAT_FILE_CONTENT_H
#define SBAT_FILE_CONTENT_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/output.h"

/*
 * A 64-bit fingerprint of a file's bytes that can be taken piece by piece,
 * in any order: the sum (mod 2^64) over the aligned 8-byte words w_j of
 * term(w_j ^ key_j), key_j a constant of the word's place j, then mixed
 * with the length. term is a bijection of 64-bit words (xor-shifts and
 * multiplications by odd 64-bit constants) in which every bit of its
 * argument changes about half of its bits. An edit that already reads the
 * input to copy it takes the fingerprint on the way instead of in a pass
 * of its own.
 *
 * What it guarantees: a file of the same length with one word changed
 * (any number of bits of one aligned 8-byte word) always has another
 * fingerprint, since the sum moves by term(a) - term(b), which is not 0
 * when a != b.
 *
 * What it does not: for changes of two or more words (two bits of
 * different words, two words swapped, a block rewritten) or of the length,
 * the fingerprint stays the same only with a probability of about 2^-64,
 * for changes not chosen with knowledge of the constants. It is not a cryptographic
 * hash: changes that keep it can be computed. It tells a concurrent
 * writer's change, not a forgery; a writer who could choose such a change
 * could as well write the file after the check, or anything else.
 *
 * The pieces must not overlap; words split between pieces are put together
 * in `split` (a few per copied range).
 */
#define SBAT_CONTENT_MAX_SPLIT 24

typedef struct sbat_content_fp {
	uint64_t acc;
	unsigned n_split;
	int bad; /* a byte added twice, or more split words than fit */
	struct {
		uint64_t word;
		uint8_t bytes[8];
		uint8_t have; /* a bit per byte of bytes[] */
	} split[SBAT_CONTENT_MAX_SPLIT];
} sbat_content_fp;

void content_fp_init(sbat_content_fp *fp);

/*
 * The word loop: 2 for the x86-64 AVX-512 one (AVX512F and AVX512DQ), 1 for
 * the AVX2 one, 0 for the portable one; all give the same fingerprint.
 * Returns 0 where the CPU lacks what the loop needs (the loop in use stays),
 * 1 otherwise. The first fingerprint picks the fastest the CPU has; tests
 * call this to compare them.
 */
int content_select(int level);

/* The n bytes at p are the file's bytes [offset, offset+n). */
void content_fp_add(sbat_content_fp *fp, uint64_t offset, const uint8_t *p, size_t n);

/* Read [from, to) of fd through a small buffer (with io's pread) and add it. 0, -1 with errno, or SBAT_IO_SHRANK when the file ends first. */
int content_fp_read(sbat_content_fp *fp, const sbat_io *io, int fd, uint64_t from, uint64_t to);

/*
 * The fingerprint of a file of len bytes, every one of them added exactly
 * once. 0, or -1 when some byte is missing or was added twice.
 */
int content_fp_final(const sbat_content_fp *fp, uint64_t len, uint64_t *ret);

/* The fingerprint of the first len bytes of the file fd, read through a small buffer. As content_fp_read. */
int content_sum_fd(const sbat_io *io, int fd, size_t len, uint64_t *ret);

/*
 * When `out` replaces a file: commit, after the last fsync and just before
 * the rename (before the fsync where the time stamps show any write from
 * then on: timestamps_can_hide), reads that file again and refuses
 * (SBAT_E_CHANGED) unless it still has len bytes with fingerprint sum. Returns 1 then, and 0 for an
 * output that replaces nothing (the caller checks the input itself).
 */
int output_expect_source(sbat_output *out, size_t len, uint64_t sum);

/* 1 when commit will fsync out (an output that replaces or creates a file, without sbat_output_set_sync 0), else 0. */
int output_syncs(const sbat_output *out);

/*
 * When the fingerprint is taken: an edit takes it only where the input's
 * time stamps cannot show every write (timestamps_fstat in
 * timestamps.h: coarse or remote file systems, times without nanoseconds,
 * a file written in the current clock tick). Elsewhere a write(2), a copy
 * or a truncation during the edit sets the modification time to a later
 * clock tick than the one read at the start, so comparing the times (with
 * size and identity, sbat_file_unchanged) already refuses it, and copied
 * ranges go file to file unread.
 */

#endif
