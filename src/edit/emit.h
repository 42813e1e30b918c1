/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* emit.h - write a planned image in one pass: extents, patches and the checksum */
#ifndef SBAT_EDIT_EMIT_H
#define SBAT_EDIT_EMIT_H

#include <stddef.h>
#include <stdint.h>

#include "edit/plan.h"
#include "file/content.h"

/*
 * Where emitted bytes go: a memory buffer of p->output_size bytes, or a file
 * written with io (offset 0 on). in_fd, when >= 0, is the input file: copy
 * extents then move file to file (copy_file_range, or pread) instead of
 * through `in`, so the input's pages are never touched. fp, when not
 * NULL, takes the fingerprint of every input byte read for a copy extent
 * (and then every one is read: no kernel copies).
 */
typedef struct sink {
	uint8_t *mem;
	int fd;
	const sbat_io *io;
	int in_fd;
	uint64_t sparse_from; /* copied bytes from this output offset on are not written (dry run);
	                          UINT64_MAX: write everything */
	sbat_content_fp *fp;
	int writeback; /* the output will be flushed: start writing it back while the rest is written */
} sink;

/*
 * Write the planned image in one pass: extents in order, patches applied
 * on the way, the CheckSum accumulated over the bytes as they are written
 * and stored last. Checks that the extents add up to the planned size.
 */
sbat_err emit_plan(plan *p, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
                   const sink *out, sbat_diag *reterr);

#endif
