/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* timestamps.h - can a file's time stamps show every write made to it from now on? */
#ifndef SBAT_FILE_TIMESTAMPS_H
#define SBAT_FILE_TIMESTAMPS_H

#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

/*
 * fstat(2) fd into *st and tell, in *ret_can_hide, whether a write to the
 * file from then on might leave its size, modification and change time as
 * they are, so that only its content can tell (see content.h): 1, or 0 when
 * any later write changes a time stamp. 0, or -1 with errno when fstat
 * fails. *ret_can_hide is 1 on:
 *
 * - file systems whose time stamps are coarse (FAT: 2 s, exFAT: 10 ms,
 *   HFS and HFS+: 1 s), by their statfs type;
 * - file systems whose time stamps another machine or a user-space server
 *   keeps (NFS, SMB, Ceph, 9P, AFS, FUSE, cluster file systems): a client's
 *   cached attributes need not show another host's write;
 * - a file whose modification and change times both have zero nanoseconds
 *   (ext4 with 128-byte inodes, file systems that keep seconds only), except
 *   on ext2, ext3 and ext4 when the second of its change time ended before
 *   the fstat (by a few clock ticks): there the kernel alone sets the change
 *   time, so any later write moves it to a later second;
 * - a file modified within the last few clock ticks before the fstat, or in
 *   the future: the kernel takes time stamps from a clock that advances a
 *   tick (1 to 10 ms) at a time, so a second write within the tick of the
 *   first gets the same time stamp (the "racily clean" files of git's
 *   index). The clock is read before the fstat, so that a slow caller
 *   cannot make a racy time look old;
 * - any file whose file system cannot be asked.
 *
 * Elsewhere (ext4 with 256-byte inodes, XFS, btrfs, tmpfs, F2FS, ...) every
 * write through write(2), copy_file_range(2) or truncate(2) sets the
 * modification and change times to the clock's current tick, which is later
 * than the time in st. A process that writes through a shared writable
 * mapping sets them only when it first writes a clean page: one that keeps
 * the image mapped and dirty across the edit is not seen.
 */
int timestamps_fstat(int fd, struct stat *st, int *ret_can_hide);

/*
 * The rule timestamps_fstat applies: st as fstat gave it, type the file
 * system's statfs type (type_known 0 when statfs failed), before the
 * clock (CLOCK_REALTIME) read just before the fstat. 1 or 0.
 */
int timestamps_can_hide(const struct stat *st, int type_known, uint32_t type, const struct timespec *before);

#endif
