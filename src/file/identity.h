/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* identity.h - the one answer to "is this still the same file, and is it unchanged" */
#ifndef SBAT_FILE_IDENTITY_H
#define SBAT_FILE_IDENTITY_H

#include <sys/stat.h>

/* 1 if a and b describe the same file: device and inode. */
static inline int
sbat_same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * 1 if `now` describes the file `then` described, unchanged: the same file,
 * and the same size, modification time and change time (to the nanosecond).
 * A coarse mtime (vfat: 2 s) can hide a write; ctime and size still tell most.
 */
static inline int
sbat_file_unchanged(const struct stat *now, const struct stat *then)
{
	return sbat_same_file(now, then) && now->st_size == then->st_size &&
	       now->st_mtim.tv_sec == then->st_mtim.tv_sec && now->st_mtim.tv_nsec == then->st_mtim.tv_nsec &&
	       now->st_ctim.tv_sec == then->st_ctim.tv_sec && now->st_ctim.tv_nsec == then->st_ctim.tv_nsec;
}

#endif
