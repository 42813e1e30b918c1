/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* output.h - writing images: the replaceable system calls, and a new file that replaces its target only when committed */
#ifndef SBAT_OUTPUT_H
#define SBAT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "api.h"
#include "error.h"
#include "input.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The system calls that read and write the images while an edit streams.
 * Tests replace them to inject faults (EIO, ENOSPC, short reads and
 * writes) or to act at a chosen moment; NULL members
 * and a NULL table mean libc. copy_range has copy_file_range semantics and
 * may fail with ENOSYS or EXDEV, after which plain reads and writes are
 * used. open_tmpfile creates a nameless file in a directory (O_TMPFILE); when
 * it fails, a named temporary is used instead. Offsets are int64_t, never
 * off_t, so the table is the same whatever _FILE_OFFSET_BITS the caller
 * and the library were built with.
 */
typedef struct sbat_io {
	ssize_t (*pread)(int fd, void *buf, size_t len, int64_t offset);
	ssize_t (*pwrite)(int fd, const void *buf, size_t len, int64_t offset);
	ssize_t (*copy_range)(int in_fd, int64_t in_off, int out_fd, int64_t out_off, size_t len);
	int (*fsync)(int fd);
	int (*renameat)(int from_dir, const char *from, int to_dir, const char *to);
	int (*open_tmpfile)(int dir_fd);
} sbat_io;

/*
 * A new file that replaces its target only when committed: written in the
 * target's directory, nameless (O_TMPFILE) where the file system allows, so
 * a crash leaves nothing behind, else as ".NAME.XXXXXX" (shortened so that
 * it always fits NAME_MAX). Commit fsyncs the file, renames it over the
 * target and fsyncs the directory. A named temporary is removed again by
 * sbat_output_abort and by sbat_output_remove_temporaries (signals).
 */
typedef struct sbat_output sbat_output;

/*
 * The replacement of an image opened with sbat_file_open_image. Commit gives
 * the new file the image's mode, owner, group and extended attributes
 * (POSIX ACLs included; a file system without them is fine), checks that
 * the image's name still refers to the image (SBAT_E_CHANGED otherwise)
 * and renames over it within the image's directory.
 */
SBAT_API sbat_err sbat_output_open_replace(const sbat_mapped_file *image, const sbat_io *io, sbat_output **ret,
                                           sbat_diag *reterr);

/*
 * A new file at `path`, as cp without -p makes one: permission bits `mode`
 * (setuid, setgid and sticky bits dropped) less the umask, owned by the
 * caller. The umask is read (/proc/self/status; without /proc, the mode a
 * nameless probe file gets in that directory; else 077), never set: the
 * caller's other threads are not disturbed. An existing regular file there is replaced; a symbolic link, a
 * directory or another kind of file is refused (SBAT_E_NOT_REGULAR), and so
 * is a name the directory cannot hold (too long), before anything is written.
 */
SBAT_API sbat_err sbat_output_open_new(const char *path, mode_t mode, const sbat_io *io, sbat_output **ret,
                                       sbat_diag *reterr);

/* A scratch output that is never committed (dry runs). */
SBAT_API sbat_err sbat_output_open_scratch(const sbat_io *io, sbat_output **ret, sbat_diag *reterr);
SBAT_API int sbat_output_fd(const sbat_output *out);
SBAT_API const sbat_io *sbat_output_io(const sbat_output *out);
/*
 * Whether commit fsyncs the file and its directory (the default, 1). 0 is
 * for throwaway build trees: an existing target is replaced by exchanging
 * the two names (renameat2 RENAME_EXCHANGE, where the kernel and the file
 * system have it, and the io table has no renameat of its own), then the
 * old file is removed, since a rename over a file with data makes ext4 and
 * btrfs start writing the new one out. Still atomic for other processes,
 * but after a power loss the target may hold either version or, on some
 * file systems, an empty or partial file.
 */
SBAT_API void sbat_output_set_sync(sbat_output *out, int sync);

/* Make the file `path`. Frees `out` whatever the result; on failure the target is untouched. */
SBAT_API sbat_err sbat_output_commit(sbat_output *out, sbat_diag *reterr);
/* Discard the file. NULL-safe. */
SBAT_API void sbat_output_abort(sbat_output *out);

/*
 * Remove every named temporary file of an output that is neither committed
 * nor aborted. Async-signal-safe: for a handler of a terminating signal.
 */
SBAT_API void sbat_output_remove_temporaries(void);

/*
 * Non-zero once an output of this process has been renamed into place. The
 * rename and this record are one step for signal handlers: a handler that
 * sees 0 may end the process knowing every target is the old file.
 * Async-signal-safe.
 */
SBAT_API int sbat_output_committed(void);

/*
 * Write buf[0..len) to `path` atomically: an existing file is replaced and
 * keeps its metadata (as with sbat_output_open_replace), a new one gets
 * `mode` as with sbat_output_open_new.
 */
SBAT_API sbat_err sbat_file_write_atomic(const char *path, mode_t mode, const uint8_t *buf, size_t len,
                                         sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
