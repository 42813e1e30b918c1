/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* timestamps.h - can a file's time stamps show every write made to it from now on? */
#ifndef SBAT_FILE_TIMESTAMPS_H
#define SBAT_FILE_TIMESTAMPS_H

#include <sys/stat.h>

/*
 * 1 when a write to the open file fd, whose state was st just now, might
 * leave its size, modification and change time as they are, so that only
 * its content can tell (see content.h); 0 when any write changes a time
 * stamp. 1, that is, on:
 *
 * - file systems whose time stamps are coarse (FAT: 2 s, exFAT: 10 ms,
 *   HFS and HFS+: 1 s), by their statfs type;
 * - file systems whose time stamps another machine or a user-space server
 *   keeps (NFS, SMB, Ceph, 9P, AFS, FUSE, cluster file systems): a client's
 *   cached attributes need not show another host's write;
 * - a file whose modification and change times both have zero nanoseconds:
 *   ext4 with 128-byte inodes, file systems that keep seconds only;
 * - a file modified within the last few clock ticks, or in the future: the
 *   kernel takes time stamps from a clock that advances a tick (1 to 10 ms)
 *   at a time, so a second write within the tick of the first gets the same
 *   time stamp (the "racily clean" files of git's index);
 * - any file whose file system cannot be asked.
 *
 * Elsewhere (ext4 with 256-byte inodes, XFS, btrfs, tmpfs, F2FS, ...) every
 * write through write(2), copy_file_range(2) or truncate(2) sets the
 * modification and change times to the clock's current tick, which is later
 * than the time in st. A process that writes through a shared writable
 * mapping sets them only when it first writes a clean page: one that keeps
 * the image mapped and dirty across the edit is not seen.
 */
int sbat_times_can_hide_write(int fd, const struct stat *st);

#endif
