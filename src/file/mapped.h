/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* mapped.h - what an sbat_mapped_file holds (opaque to callers of the library) */
#ifndef SBAT_FILE_MAPPED_H
#define SBAT_FILE_MAPPED_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "sbat/input.h"

/*
 * A regular file mapped read-only. Only the pages that parsing touches are
 * read; the bulk of the data is copied file-to-file through `fd`. `st` is
 * the file's state when it was opened (after locking, for
 * sbat_file_open_image), to tell later whether it changed.
 */
struct sbat_mapped_file {
	int fd;
	const uint8_t *data;
	size_t len;
	int dir_fd; /* sbat_file_open_image: the directory holding it; else -1 */
	char *name; /* sbat_file_open_image: its name in dir_fd; else NULL */
	struct stat st;
};

#endif
