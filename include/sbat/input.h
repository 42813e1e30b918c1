/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* input.h - reading images and CSV files: bounded reads, read-only mappings, the image an edit replaces */
#ifndef SBAT_INPUT_H
#define SBAT_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest image accepted: 1 GiB. Real kernels and EFI apps are far smaller. */
#define SBAT_FILE_MAX_SIZE (1024u * 1024u * 1024u)

/*
 * Read a whole regular file of at most max_size bytes into a malloc'ed
 * buffer. Refuses directories, devices and FIFOs (SBAT_E_NOT_REGULAR).
 */
SBAT_API sbat_err sbat_file_read(const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len,
                                 sbat_diag *reterr);

/*
 * A regular file mapped read-only, opaque: sbat_file_map and
 * sbat_file_open_image allocate it, sbat_file_unmap frees it, the accessors
 * below read it. Only the pages that parsing touches are read; the bulk of
 * the data is copied file-to-file through its descriptor. It remembers the
 * file's state when it was opened (after locking, for sbat_file_open_image),
 * to tell later whether it changed (sbat_file_check_unchanged).
 */
typedef struct sbat_mapped_file sbat_mapped_file;

/* Map `path` (a regular file of at most max_size bytes) into a new *ret; *ret is NULL on failure. */
SBAT_API sbat_err sbat_file_map(const char *path, size_t max_size, sbat_mapped_file **ret, sbat_diag *reterr);

/*
 * Map the file already open as fd, for a caller that opened it itself (for
 * example without following a symbolic link) and must judge that very
 * file, not what its path names by now. The same checks as sbat_file_map:
 * a regular file of at most max_size bytes. fd stays the caller's: the
 * mapped file holds its own duplicate, closed by sbat_file_unmap.
 */
SBAT_API sbat_err sbat_file_map_fd(int fd, size_t max_size, sbat_mapped_file **ret, sbat_diag *reterr);

/*
 * sbat_file_map of path beneath the directory root, opened as
 * sbat_file_read_beneath opens it: one component at a time, never through
 * a symbolic link, no "." or ".." component. Its pages are read only where
 * they are used (a reader that needs every byte once can pread through
 * sbat_mapped_file_fd instead and keep them out of memory). Another
 * program cutting the file short while it is mapped raises SIGBUS.
 */
SBAT_API sbat_err sbat_file_map_beneath(const char *root, const char *path, size_t max_size, sbat_mapped_file **ret,
                                        sbat_diag *reterr);

/*
 * Open and map an image that is to be replaced in place. The directory of
 * `path` is opened once; the file, the temporary that replaces it and the
 * rename are all relative to that descriptor (see sbat_output_open_replace),
 * so a directory on the path that is swapped or replaced by a symbolic link
 * meanwhile changes nothing outside the directory first opened. A symbolic
 * link as the last component is refused (SBAT_E_NOT_REGULAR).
 *
 * The file is locked (flock, exclusive, advisory) until sbat_file_unmap, so
 * concurrent edits of one image run one after the other. When another
 * process holds the lock, this waits up to wait_ms milliseconds, then fails
 * with SBAT_E_LOCKED. After locking, the name must still refer to the locked
 * file; when a concurrent edit has replaced it, the new file is opened and
 * locked instead (so its edit is not lost). *ret is NULL on failure.
 */
SBAT_API sbat_err sbat_file_open_image(const char *path, size_t max_size, unsigned wait_ms, sbat_mapped_file **ret,
                                       sbat_diag *reterr);

/*
 * SBAT_E_CHANGED when the file's size, modification or change time or
 * identity (device, inode) differs from what they were when it was opened, or, for a file from
 * sbat_file_open_image, when its name no longer refers to it.
 */
SBAT_API sbat_err sbat_file_check_unchanged(const sbat_mapped_file *f, sbat_diag *reterr);

/* Unmap, close (releasing the lock) and free. NULL-safe. */
SBAT_API void sbat_file_unmap(sbat_mapped_file *f);

/* The mapped bytes (never NULL, also for an empty file) and their number. */
SBAT_API const uint8_t *sbat_mapped_file_data(const sbat_mapped_file *f);
SBAT_API size_t sbat_mapped_file_size(const sbat_mapped_file *f);
/* The open descriptor (owned by f: for sbat_edit_fd, not to be closed). */
SBAT_API int sbat_mapped_file_fd(const sbat_mapped_file *f);
/* The file's permission bits and type (st_mode) when it was opened. */
SBAT_API mode_t sbat_mapped_file_mode(const sbat_mapped_file *f);

#ifdef __cplusplus
}
#endif

#endif
