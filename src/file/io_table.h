/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* io_table.h - the streaming system calls, through the replaceable sbat_io table */
#ifndef SBAT_FILE_IO_TABLE_H
#define SBAT_FILE_IO_TABLE_H

#include "sbat/output.h"

/*
 * The syscall layer: the only library code that answers 0, or -1 with
 * errno, as the calls it wraps do (see util/diag.h); callers convert to
 * sbat_err with diag_fail_errno. The one other answer is SBAT_IO_SHRANK.
 */

/* What the reading calls return when the input ends before the bytes asked for (errno is EIO). */
#define SBAT_IO_SHRANK (-2)

/*
 * Read exactly len bytes at offset, retrying short reads and EINTR. 0, -1
 * with errno, or SBAT_IO_SHRANK at end of file.
 */
int io_pread_all(const sbat_io *io, int fd, void *buf, size_t len, uint64_t offset);

/* Write all of buf at offset, retrying short writes and EINTR. 0, or -1 with errno. */
int io_pwrite_all(const sbat_io *io, int fd, const void *buf, size_t len, uint64_t offset);

/*
 * Copy len bytes file to file inside the kernel. 0, or -1 with errno
 * (ENOSYS, EXDEV, EINVAL, EOPNOTSUPP: not possible for these files), or
 * SBAT_IO_SHRANK when the input ends early; *ret_done tells how much was
 * copied before the failure.
 */
int io_copy_range(const sbat_io *io, int in_fd, uint64_t in_off, int out_fd, uint64_t out_off, uint64_t len,
                  uint64_t *ret_done);

/*
 * 1 when copied ranges should go file to file (io_copy_range) rather
 * than through memory: the caller's table has its own copy_range, or the
 * output's file system shares or offloads a kernel copy (btrfs and XFS
 * reflinks, NFS and SMB server-side copies), which is far cheaper than
 * writing the data. Elsewhere (ext4, FAT, tmpfs) the kernel copies the
 * pages itself, for about the cost of reading and writing them.
 */
int io_copy_preferred(const sbat_io *io, int out_fd);

int io_fsync(const sbat_io *io, int fd);
/*
 * Start writing [off, off + len) of fd back to its device, without waiting
 * (sync_file_range SYNC_FILE_RANGE_WRITE, Linux): the device works while
 * the rest is written, and the fsync that follows has less left to wait
 * for. Nothing where the system has no such call.
 */
void io_start_writeback(int fd, uint64_t off, uint64_t len);
int io_renameat(const sbat_io *io, int from_dir, const char *from, int to_dir, const char *to);
/* Exchange the names a and b atomically (renameat2 RENAME_EXCHANGE); -1 with errno where the kernel or the
 * file system cannot (ENOSYS, EINVAL), b does not exist (ENOENT), or io has its own renameat (ENOSYS). */
int io_exchangeat(const sbat_io *io, int dir_a, const char *a, int dir_b, const char *b);

#endif
