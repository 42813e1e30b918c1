/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fileio.h - bounded reads, mapped inputs and atomic replacement of a file */
#ifndef SBAT_FILEIO_H
#define SBAT_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

/* Largest image accepted: 1 GiB. Real kernels and EFI apps are far smaller. */
#define SBAT_FILE_MAX_SIZE (1024u * 1024u * 1024u)

/*
 * Read a whole regular file of at most max_size bytes into a malloc'ed
 * buffer. Refuses directories, devices and FIFOs (SBAT_E_NOT_REGULAR).
 */
sbat_err sbat_file_read(const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len,
                        sbat_diag *reterr);

/*
 * A regular file mapped read-only. Only the pages that parsing touches are
 * read; the bulk of the data is copied file-to-file through `fd`.
 */
typedef struct sbat_mapped_file {
	int fd;
	const uint8_t *data;
	size_t len;
} sbat_mapped_file;

sbat_err sbat_file_map(const char *path, size_t max_size, sbat_mapped_file *ret, sbat_diag *reterr);
void sbat_file_unmap(sbat_mapped_file *f);

/*
 * The system calls that write output. Tests replace them to inject faults
 * (ENOSPC, EIO, short writes); NULL members and a NULL table mean libc.
 * copy_range has copy_file_range semantics and may fail with ENOSYS or
 * EXDEV, after which plain reads and writes are used.
 */
typedef struct sbat_io {
	ssize_t (*pwrite)(int fd, const void *buf, size_t len, off_t offset);
	ssize_t (*copy_range)(int in_fd, off_t in_off, int out_fd, off_t out_off, size_t len);
	int (*fsync)(int fd);
	int (*rename)(const char *from, const char *to);
} sbat_io;

/*
 * A new file that replaces `path` only when committed. It is created in
 * the target's directory: nameless (O_TMPFILE) where the file system allows,
 * so a crash leaves nothing behind, else as ".NAME.XXXXXX". Commit sets the
 * mode (and owner, when permitted) of `mode_from`, or of `path` itself when
 * mode_from is NULL and path exists (0644 otherwise), fsyncs, renames over
 * `path` and fsyncs the directory. A `path` that is a symbolic link or not a
 * regular file is refused (SBAT_E_NOT_REGULAR).
 */
typedef struct sbat_output sbat_output;

sbat_err sbat_output_open(const char *path, const char *mode_from, const sbat_io *io,
                          sbat_output **ret, sbat_diag *reterr);
/* A scratch output that is never committed (dry runs). */
sbat_err sbat_output_open_scratch(const sbat_io *io, sbat_output **ret, sbat_diag *reterr);
int sbat_output_fd(const sbat_output *out);
const sbat_io *sbat_output_io(const sbat_output *out);
/* Make the file `path`. Frees `out` whatever the result; on failure `path` is untouched. */
sbat_err sbat_output_commit(sbat_output *out, sbat_diag *reterr);
/* Discard the file. NULL-safe. */
void sbat_output_abort(sbat_output *out);

/* sbat_output_open, write buf[0..len), commit. */
sbat_err sbat_file_write_atomic(const char *path, const char *mode_from, const uint8_t *buf,
                                size_t len, sbat_diag *reterr);

#endif
