/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* path.c - split a path into the directory opened once and the name used inside it */
#define _GNU_SOURCE 1 /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "file/path.h"

/*
 * Open a directory to work in. Creating, linking and renaming in it need
 * write and search permission only: a directory this user cannot list
 * (mode 0300) is opened with O_PATH, where the system has it.
 */
static int
open_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

#ifdef O_PATH
	if (fd < 0 && errno == EACCES)
		fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
#endif
	return fd;
}

int
path_open_directory(const char *path, const char **ret_name)
{
	const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
	char *dir;
	int fd, err;

	if (*name == '\0' || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
		errno = EINVAL;
		return -1;
	}
	*ret_name = name;
	if (!slash)
		return open_dir(".");
	if (slash == path)
		return open_dir("/");
	dir = malloc((size_t)(slash - path) + 1);
	if (!dir) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	fd = open_dir(dir);
	err = errno;
	free(dir);
	errno = err;
	return fd;
}
