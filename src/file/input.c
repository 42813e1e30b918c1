/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* input.c - bounded whole-file reads and read-only mappings of input files */
#define _GNU_SOURCE 1 /* flock */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sbat/input.h"

#include "file/identity.h"
#include "file/input.h"
#include "file/mapped.h"
#include "file/path.h"
#include "util/diag.h"

/*
 * Open a regular file for reading, `name` relative to dir_fd (AT_FDCWD for
 * a plain path); nofollow refuses a symbolic link (2: when reading it). O_NONBLOCK keeps a FIFO
 * or a device from blocking the open before fstat can refuse it; it is
 * cleared afterwards.
 */
static sbat_err
open_regular(int dir_fd, const char *name, int nofollow, size_t max_size, int *ret_fd, struct stat *st, sbat_diag *d)
{
	int fd, err, flags;

	fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0 && nofollow && errno == ELOOP)
		return diag_fail(d, SBAT_E_NOT_REGULAR,
		                 nofollow == 2 ? "is a symbolic link, not followed" :
		                                 "is a symbolic link; refusing to replace it");
	if (fd < 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot open", errno);
	if (fstat(fd, st) != 0) {
		err = errno;
		close(fd);
		return diag_fail_errno(d, SBAT_E_IO, "cannot stat", err);
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return diag_fail(d, SBAT_E_NOT_REGULAR, "not a regular file");
	}
	if ((uint64_t)st->st_size > max_size) {
		close(fd);
		return diag_fail(d, SBAT_E_TOO_BIG,
		                 max_size >= SBAT_FILE_MAX_SIZE ?
		                     "file is larger than 1 GiB, the largest image accepted" :
		                     "file is larger than 64 KiB, the most a CSV or SbatLevel may hold");
	}
	if (st->st_size == 0) {
		/* /proc and /sys files say 0 and still have contents: neither mapped nor sized */
		uint8_t probe;

		if (pread(fd, &probe, 1, 0) > 0) {
			close(fd);
			return diag_fail(d, SBAT_E_NOT_REGULAR,
			                 "reports a size of 0 but has contents (a generated file, as in /proc or "
			                 "/sys); copy it to a regular file first");
		}
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		err = errno;
		close(fd);
		return diag_fail_errno(d, SBAT_E_IO, "cannot set file flags", err);
	}
	*ret_fd = fd;
	return SBAT_OK;
}

/* The whole of fd (st describes it) into a new buffer; closes fd. */
static sbat_err
read_open_file(int fd, const struct stat *st, uint8_t **ret_buf, size_t *ret_len, sbat_diag *d)
{
	/* one spare byte detects a file that grew since fstat */
	size_t len = 0, cap = (size_t)st->st_size + 1;
	uint8_t *buf = malloc(cap);
	int err;

	if (!buf) {
		close(fd);
		return diag_fail(d, SBAT_E_NOMEM, "out of memory reading the file");
	}
	for (;;) {
		ssize_t n = read(fd, buf + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			free(buf);
			close(fd);
			return diag_fail_errno(d, SBAT_E_IO, "read failed", err);
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == cap) {
			free(buf);
			close(fd);
			return diag_fail(d, SBAT_E_IO, "file changed size while being read");
		}
	}
	close(fd);
	*ret_buf = buf;
	*ret_len = len;
	return SBAT_OK;
}

sbat_err
sbat_file_read(const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len, sbat_diag *d)
{
	struct stat st;
	int fd;
	sbat_err e = open_regular(AT_FDCWD, path, 0, max_size, &fd, &st, d);

	return e ? e : read_open_file(fd, &st, ret_buf, ret_len, d);
}

/* Open directory `name` under dir_fd (AT_FDCWD and any path for the root), not through a link; -1 with d set. */
static int
open_dir_nofollow(int dir_fd, const char *name, int follow, sbat_diag *d)
{
	int fd = openat(dir_fd, name, O_RDONLY | O_CLOEXEC | O_DIRECTORY | (follow ? 0 : O_NOFOLLOW));

	if (fd < 0 && !follow && (errno == ELOOP || errno == ENOTDIR)) {
		struct stat st;

		if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
			diag_fail(d, SBAT_E_NOT_REGULAR, "a directory on the path is a symbolic link, not followed");
		else
			diag_fail_errno(d, SBAT_E_IO, "cannot open a directory on the path", errno);
	} else if (fd < 0) {
		diag_fail_errno(d, SBAT_E_IO, "cannot open a directory on the path", errno);
	}
	return fd;
}

/* Open path beneath root one component at a time, never through a link; *ret_fd and *st on success. */
static sbat_err
open_beneath(const char *root, const char *path, size_t max_size, int *ret_fd, struct stat *st, sbat_diag *d)
{
	char comp[256];
	int dir_fd, fd;
	sbat_err e;

	if (!root || !path)
		return diag_fail(d, SBAT_E_IO, "no directory or path to read");
	dir_fd = open_dir_nofollow(AT_FDCWD, root, 1, d);
	if (dir_fd < 0)
		return d ? d->code : SBAT_E_IO;
	for (;;) {
		size_t n;

		path += strspn(path, "/");
		n = strcspn(path, "/");
		if (n == 0 || n >= sizeof(comp) || (n == 1 && path[0] == '.') || (n == 2 && !strncmp(path, "..", 2))) {
			close(dir_fd);
			return diag_fail(d, SBAT_E_NOT_REGULAR, "an empty, . or .. component, or one too long");
		}
		memcpy(comp, path, n);
		comp[n] = '\0';
		path += n;
		if (path[strspn(path, "/")] == '\0')
			break;
		fd = open_dir_nofollow(dir_fd, comp, 0, d);
		close(dir_fd);
		if (fd < 0)
			return d ? d->code : SBAT_E_IO;
		dir_fd = fd;
	}
	e = open_regular(dir_fd, comp, 2, max_size, ret_fd, st, d);
	close(dir_fd);
	return e;
}

sbat_err
input_read_beneath(const char *root, const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len,
                   sbat_diag *d)
{
	struct stat st;
	int fd;
	sbat_err e;

	if (!ret_buf || !ret_len)
		return diag_fail(d, SBAT_E_IO, "no directory or path to read");
	e = open_beneath(root, path, max_size, &fd, &st, d);
	return e ? e : read_open_file(fd, &st, ret_buf, ret_len, d);
}

/* Read fd to its end into a buffer growing up to max_size bytes (one more is too big); closes fd. */
static sbat_err
read_to_end(int fd, size_t max_size, uint8_t **ret_buf, size_t *ret_len, sbat_diag *d)
{
	size_t len = 0, cap = 0;
	uint8_t *buf = NULL, *grown;
	ssize_t n;
	int err;

	for (;;) {
		if (len == cap) {
			size_t want = cap              ? (cap > max_size / 2 ? max_size + 1 : cap * 2) :
			              max_size < 65536 ? max_size + 1 :
			                                 65536;

			if (len > max_size) {
				free(buf);
				close(fd);
				return diag_fail(d, SBAT_E_TOO_BIG, "file is larger than the most read of it");
			}
			grown = realloc(buf, want);
			if (!grown) {
				free(buf);
				close(fd);
				return diag_fail(d, SBAT_E_NOMEM, "out of memory reading the file");
			}
			buf = grown;
			cap = want;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			free(buf);
			close(fd);
			return diag_fail_errno(d, SBAT_E_IO, "read failed", err);
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	*ret_buf = buf;
	*ret_len = len;
	return SBAT_OK;
}

sbat_err
input_read_generated(const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len, sbat_diag *d)
{
	struct stat st;
	int fd, err;

	*ret_buf = NULL;
	*ret_len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot open", errno);
	if (fstat(fd, &st) != 0) {
		err = errno;
		close(fd);
		return diag_fail_errno(d, SBAT_E_IO, "cannot stat", err);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return diag_fail(d, SBAT_E_NOT_REGULAR, "not a regular file");
	}
	return read_to_end(fd, max_size, ret_buf, ret_len, d);
}

/* Map the open file fd (st describes it) into *ret. Takes fd over, also on failure. */
static sbat_err
map_open_file(int fd, const struct stat *st, sbat_mapped_file *ret, sbat_diag *d)
{
	static const uint8_t empty[1];
	void *p = NULL;
	int err;

	if (st->st_size != 0) {
		p = mmap(NULL, (size_t)st->st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			err = errno;
			close(fd);
			return diag_fail_errno(d, SBAT_E_IO, "cannot map", err);
		}
	}
	ret->fd = fd;
	ret->len = (size_t)st->st_size;
	ret->data = p ? p : empty;
	ret->dir_fd = -1;
	ret->name = NULL;
	ret->st = *st;
	return SBAT_OK;
}

static sbat_err
map_path(const char *path, size_t max_size, sbat_mapped_file *ret, sbat_diag *d)
{
	struct stat st;
	int fd;
	sbat_err e;

	e = open_regular(AT_FDCWD, path, 0, max_size, &fd, &st, d);
	if (e)
		return e;
	return map_open_file(fd, &st, ret, d);
}

/* The size limit and its message, as open_regular words them. */
static sbat_err
check_size(const struct stat *st, size_t max_size, sbat_diag *d)
{
	if ((uint64_t)st->st_size <= max_size)
		return SBAT_OK;
	return diag_fail(d, SBAT_E_TOO_BIG,
	                 max_size >= SBAT_FILE_MAX_SIZE ?
	                     "file is larger than 1 GiB, the largest image accepted" :
	                     "file is larger than 64 KiB, the most a CSV or SbatLevel may hold");
}

static sbat_err
map_fd(int fd, size_t max_size, sbat_mapped_file *ret, sbat_diag *d)
{
	struct stat st;
	int dup_fd, err;
	sbat_err e;

	dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dup_fd < 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot duplicate a file descriptor", errno);
	if (fstat(dup_fd, &st) != 0) {
		err = errno;
		close(dup_fd);
		return diag_fail_errno(d, SBAT_E_IO, "cannot stat", err);
	}
	e = !S_ISREG(st.st_mode) ? diag_fail(d, SBAT_E_NOT_REGULAR, "not a regular file") :
	                           check_size(&st, max_size, d);
	if (e) {
		close(dup_fd);
		return e;
	}
	return map_open_file(dup_fd, &st, ret, d);
}

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * Take an exclusive flock on fd, waiting until `deadline` (now_ms). A file
 * system that cannot lock at all is not an error: there is nothing to wait for.
 */
static sbat_err
lock_until(int fd, uint64_t deadline, sbat_diag *d)
{
	for (;;) {
		struct timespec pause = { 0, 20 * 1000 * 1000 };

		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return SBAT_OK;
		if (errno == EINTR)
			continue;
		if (errno == ENOLCK || errno == EOPNOTSUPP || errno == EINVAL)
			return SBAT_OK;
		if (errno != EWOULDBLOCK)
			return diag_fail_errno(d, SBAT_E_IO, "cannot lock", errno);
		if (now_ms() >= deadline)
			return diag_fail(d, SBAT_E_LOCKED,
			                 "another process is editing it (it holds the file's "
			                 "lock) and did not finish in time");
		nanosleep(&pause, NULL);
	}
}

/* A concurrent edit may replace the file while we wait for its lock; follow it a few times. */
#define OPEN_IMAGE_ATTEMPTS 16

static sbat_err
open_image(const char *path, size_t max_size, unsigned wait_ms, sbat_mapped_file *ret, sbat_diag *d)
{
	uint64_t deadline = now_ms() + wait_ms;
	const char *name;
	char *name_copy;
	struct stat st, now;
	int dir_fd, fd = -1, attempt;
	sbat_err e;

	dir_fd = path_open_directory(path, &name);
	if (dir_fd < 0)
		return errno == EINVAL ? diag_fail(d, SBAT_E_NOT_REGULAR, "not a regular file") :
		                         diag_fail_errno(d, SBAT_E_IO, "cannot open its directory", errno);
	for (attempt = 0;; attempt++) {
		e = open_regular(dir_fd, name, 1, max_size, &fd, &st, d);
		if (!e)
			e = lock_until(fd, deadline, d);
		if (e)
			goto fail;
		/* locked: is this still the file the name refers to, and as it is now? */
		if (fstat(fd, &st) != 0 || fstatat(dir_fd, name, &now, AT_SYMLINK_NOFOLLOW) != 0) {
			e = diag_fail_errno(d, SBAT_E_IO, "cannot stat", errno);
			goto fail;
		}
		if (sbat_same_file(&st, &now))
			break;
		close(fd);
		fd = -1;
		if (attempt + 1 >= OPEN_IMAGE_ATTEMPTS) {
			e = diag_fail(d, SBAT_E_CHANGED, "it keeps being replaced by other processes");
			goto fail;
		}
	}
	if ((uint64_t)st.st_size > max_size) {
		e = diag_fail(d, SBAT_E_TOO_BIG, "file is larger than 1 GiB, the largest image accepted");
		goto fail;
	}
	name_copy = strdup(name);
	if (!name_copy) {
		e = diag_fail(d, SBAT_E_NOMEM, "out of memory");
		goto fail;
	}
	e = map_open_file(fd, &st, ret, d);
	fd = -1;
	if (e) {
		free(name_copy);
		goto fail;
	}
	ret->dir_fd = dir_fd;
	ret->name = name_copy;
	return SBAT_OK;
fail:
	if (fd >= 0)
		close(fd);
	close(dir_fd);
	return e;
}

/* A new handle, unset (safe to unmap), for map_path or open_image to fill. */
static sbat_mapped_file *
mapped_new(void)
{
	sbat_mapped_file *f = calloc(1, sizeof(*f));

	if (f) {
		f->fd = -1;
		f->dir_fd = -1;
	}
	return f;
}

sbat_err
sbat_file_map(const char *path, size_t max_size, sbat_mapped_file **ret, sbat_diag *d)
{
	sbat_mapped_file *f = mapped_new();
	sbat_err e;

	*ret = NULL;
	if (!f)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	e = map_path(path, max_size, f, d);
	if (e) {
		free(f);
		return e;
	}
	*ret = f;
	return SBAT_OK;
}

sbat_err
sbat_file_map_beneath(const char *root, const char *path, size_t max_size, sbat_mapped_file **ret, sbat_diag *d)
{
	sbat_mapped_file *f;
	struct stat st;
	int fd;
	sbat_err e;

	if (!ret)
		return diag_fail(d, SBAT_E_IO, "no place for the mapped file");
	*ret = NULL;
	if (!(f = mapped_new()))
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	e = open_beneath(root, path, max_size, &fd, &st, d);
	if (!e)
		e = map_open_file(fd, &st, f, d);
	if (e) {
		free(f);
		return e;
	}
	*ret = f;
	return SBAT_OK;
}

sbat_err
sbat_file_map_fd(int fd, size_t max_size, sbat_mapped_file **ret, sbat_diag *d)
{
	sbat_mapped_file *f = mapped_new();
	sbat_err e;

	*ret = NULL;
	if (!f)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	e = map_fd(fd, max_size, f, d);
	if (e) {
		free(f);
		return e;
	}
	*ret = f;
	return SBAT_OK;
}

sbat_err
sbat_file_open_image(const char *path, size_t max_size, unsigned wait_ms, sbat_mapped_file **ret, sbat_diag *d)
{
	sbat_mapped_file *f = mapped_new();
	sbat_err e;

	*ret = NULL;
	if (!f)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	e = open_image(path, max_size, wait_ms, f, d);
	if (e) {
		free(f);
		return e;
	}
	*ret = f;
	return SBAT_OK;
}

const uint8_t *
sbat_mapped_file_data(const sbat_mapped_file *f)
{
	return f->data;
}

size_t
sbat_mapped_file_size(const sbat_mapped_file *f)
{
	return f->len;
}

int
sbat_mapped_file_fd(const sbat_mapped_file *f)
{
	return f->fd;
}

mode_t
sbat_mapped_file_mode(const sbat_mapped_file *f)
{
	return f->st.st_mode;
}

sbat_err
sbat_file_check_unchanged(const sbat_mapped_file *f, sbat_diag *d)
{
	struct stat st;

	if (fstat(f->fd, &st) != 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot stat", errno);
	if (!sbat_file_unchanged(&st, &f->st))
		return diag_fail(d, SBAT_E_CHANGED, "the file was modified while being edited; nothing was written");
	if (f->dir_fd >= 0) {
		if (fstatat(f->dir_fd, f->name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			if (errno == ENOENT)
				return diag_fail(d, SBAT_E_CHANGED,
				                 "the file was removed or renamed while being "
				                 "edited; nothing was written");
			return diag_fail_errno(d, SBAT_E_IO, "cannot stat", errno);
		}
		if (!sbat_same_file(&st, &f->st))
			return diag_fail(d, SBAT_E_CHANGED,
			                 "the name was given to another file while it was "
			                 "being edited; nothing was written");
	}
	return SBAT_OK;
}

void
sbat_file_unmap(sbat_mapped_file *f)
{
	if (!f)
		return;
	if (f->len)
		munmap((void *)(uintptr_t)f->data, f->len);
	if (f->fd >= 0)
		close(f->fd); /* releases the lock */
	if (f->dir_fd >= 0)
		close(f->dir_fd);
	free(f->name);
	f->fd = -1;
	f->dir_fd = -1;
	f->name = NULL;
	f->data = NULL;
	f->len = 0;
	free(f);
}
