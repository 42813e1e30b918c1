/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* path.h - split a path into the directory opened once and the name used inside it */
#ifndef SBAT_FILE_PATH_H
#define SBAT_FILE_PATH_H

/*
 * Open the directory part of `path` (O_DIRECTORY; "." when there is none)
 * and point *ret_name at the last component inside `path`. Returns the
 * descriptor, or -1 with errno set; EINVAL when the last component is
 * empty, "." or "..", which name no file of their own.
 */
int path_open_directory(const char *path, const char **ret_name);

#endif
