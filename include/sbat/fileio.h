/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fileio.h - bounded whole-file reads and atomic replacement of a file */
#ifndef SBAT_FILEIO_H
#define SBAT_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Largest image read: 1 GiB. Real kernels and EFI apps are far smaller. */
#define SBAT_FILE_MAX_SIZE (1024u * 1024u * 1024u)

/*
 * Read a whole regular file of at most max_size bytes into a malloc'ed
 * buffer. Refuses directories, devices and FIFOs (SBAT_E_NOT_REGULAR).
 */
sbat_err sbat_file_read(const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len,
                        sbat_diag *reterr);

/*
 * Replace `path` with buf[0..len) atomically: write a temporary file in the
 * same directory, fsync it, give it the mode (and, when permitted, owner) of
 * `mode_from` (or of `path` itself when mode_from is NULL and path exists;
 * 0644 otherwise), rename it over `path` and fsync the directory. On any
 * failure the temporary file is removed and `path` is untouched.
 * A `path` that is a symbolic link is refused (SBAT_E_NOT_REGULAR) rather
 * than silently replaced by a regular file.
 */
sbat_err sbat_file_write_atomic(const char *path, const char *mode_from, const uint8_t *buf,
                                size_t len, sbat_diag *reterr);

#endif
