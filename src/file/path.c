/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* path.c - split a path into the directory opened once and the name used inside it */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "file/path.h"

int
sbat_path_open_directory(const char *path, const char **ret_name)
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
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (slash == path)
		return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = malloc((size_t)(slash - path) + 1);
	if (!dir) {
		errno = ENOMEM;
		return -1;
	}
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	err = errno;
	free(dir);
	errno = err;
	return fd;
}
