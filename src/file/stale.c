/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* stale.c - named temporaries that a killed run left behind, and how a live one is told from them */
#define _GNU_SOURCE 1 /* flock */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "file/stale.h"

/* A temporary younger than this may be a live run's, created but not yet locked. */
#define STALE_AGE_SECONDS 60

void
stale_mark_live(int fd)
{
	/* a file system without locks has none to honour: nothing is removed there (see is_stale) */
	(void)flock(fd, LOCK_EX | LOCK_NB);
}

/* Is entry the name make_temp_name gives a temporary of target `name`? */
static int
is_temp_name(const char *entry, const char *name)
{
	size_t n = strlen(name), i;

	if (n > NAME_MAX - 8)
		n = NAME_MAX - 8;
	if (strlen(entry) != n + 8 || entry[0] != '.' || memcmp(entry + 1, name, n) != 0 || entry[n + 1] != '.')
		return 0;
	for (i = n + 2; i < n + 8; i++) {
		char c = entry[i];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			return 0;
	}
	return 1;
}

/* 1 if st looks like a temporary of ours that nobody has touched for a while. */
static int
looks_abandoned(const struct stat *st)
{
	return S_ISREG(st->st_mode) && st->st_nlink == 1 && st->st_uid == geteuid() &&
	       st->st_mtime + STALE_AGE_SECONDS < time(NULL);
}

/* Remove entry when it is a stale temporary: opened, checked and locked, the name checked again. */
static void
remove_if_stale(int dir_fd, const char *entry)
{
	struct stat st, opened, again;
	int fd;

	if (fstatat(dir_fd, entry, &st, AT_SYMLINK_NOFOLLOW) != 0 || !looks_abandoned(&st))
		return;
	fd = openat(dir_fd, entry, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	/* a live run holds its temporary locked; a file system that cannot lock proves nothing */
	if (fstat(fd, &opened) == 0 && opened.st_dev == st.st_dev && opened.st_ino == st.st_ino &&
	    looks_abandoned(&opened) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
	    fstatat(dir_fd, entry, &again, AT_SYMLINK_NOFOLLOW) == 0 && again.st_dev == st.st_dev &&
	    again.st_ino == st.st_ino)
		(void)unlinkat(dir_fd, entry, 0);
	close(fd);
}

void
stale_remove(int dir_fd, const char *name)
{
	struct dirent *e;
	DIR *dir;
	int fd;

	/* a directory opened for write and search only (mode 0300) cannot be listed */
	fd = openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((e = readdir(dir)) != NULL)
		if (e->d_name[0] == '.' && is_temp_name(e->d_name, name))
			remove_if_stale(dir_fd, e->d_name);
	closedir(dir);
}
