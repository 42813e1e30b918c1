/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* content.h - a sum of a file's bytes, to see a change that the time stamps cannot */
#ifndef SBAT_FILE_CONTENT_H
#define SBAT_FILE_CONTENT_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/output.h"

/*
 * A 64-bit sum of the first len bytes of the file fd, read through a small
 * buffer; a shorter file is EIO. Any change of one 8-byte word changes it,
 * and other changes almost surely do. Not a cryptographic hash: it tells a
 * concurrent writer's change, not a forgery. 0, or -1 with errno.
 */
int sbat_content_sum_fd(int fd, size_t len, uint64_t *ret);

/*
 * When `out` replaces a file: commit, after the last fsync and just before
 * the rename, sums that file again and refuses (SBAT_E_CHANGED) unless it
 * still has len bytes summing to sum. Returns 1 then, and 0 for an output
 * that replaces nothing (the caller checks the input itself).
 */
int sbat_output_expect_source(sbat_output *out, size_t len, uint64_t sum);

#endif
