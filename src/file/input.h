/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* input.h - what the library's readers share of file/input.c beyond <sbat/input.h> */
#ifndef SBAT_FILE_INPUT_H
#define SBAT_FILE_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"

/*
 * Read path, relative to the directory root, as sbat_file_read does (the public way is sbat_file_map_beneath), but
 * opening it one component at a time without following a symbolic link
 * (root itself may be reached through links): for files on a partition
 * given by its mount point, such as an ESP, whose links belong to the
 * machine that mounts it, not to the firmware. Components are separated by
 * '/'; an empty, "." or ".." component is refused (SBAT_E_NOT_REGULAR), as
 * is a link (SBAT_E_NOT_REGULAR, "not followed").
 */
sbat_err input_read_beneath(const char *root, const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len,
                            sbat_diag *reterr);

/*
 * Read the regular file path to its end without trusting the size it
 * says (the kernel's generated files in /sys say 0 or 4096), at most
 * max_size bytes (more: SBAT_E_TOO_BIG), into a malloc'ed *ret_buf.
 */
sbat_err input_read_generated(const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len, sbat_diag *reterr);

#endif
