/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fileio.c - bounded whole-file reads and read-only mappings of input files */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/fileio.h"

#include "diag.h"

/*
 * Open a regular file for reading. O_NONBLOCK keeps a FIFO or a device from
 * blocking the open before fstat can refuse it; it is cleared afterwards.
 */
static sbat_err
open_regular(const char *path, size_t max_size, int *ret_fd, struct stat *st, sbat_diag *d)
{
	int fd, err, flags;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
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
		return diag_fail(d, SBAT_E_TOO_BIG, max_size >= SBAT_FILE_MAX_SIZE ?
		                 "file is larger than 1 GiB, the most sbat-add reads" :
		                 "file is larger than 64 KiB, the most a CSV may hold");
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

sbat_err
sbat_file_read(const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len, sbat_diag *d)
{
	struct stat st;
	uint8_t *buf = NULL;
	size_t len = 0, cap;
	int fd, err;
	sbat_err e;

	e = open_regular(path, max_size, &fd, &st, d);
	if (e)
		return e;
	/* one spare byte detects a file that grew since fstat */
	cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
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
sbat_file_map(const char *path, size_t max_size, sbat_mapped_file *ret, sbat_diag *d)
{
	static const uint8_t empty[1];
	struct stat st;
	void *p;
	int fd, err;
	sbat_err e;

	e = open_regular(path, max_size, &fd, &st, d);
	if (e)
		return e;
	if (st.st_size == 0) {
		ret->fd = fd;
		ret->len = 0;
		ret->data = empty;
		return SBAT_OK;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		close(fd);
		return diag_fail_errno(d, SBAT_E_IO, "cannot map", err);
	}
	ret->fd = fd;
	ret->len = (size_t)st.st_size;
	ret->data = p;
	return SBAT_OK;
}

void
sbat_file_unmap(sbat_mapped_file *f)
{
	if (f->len)
		munmap((void *)(uintptr_t)f->data, f->len);
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->data = NULL;
	f->len = 0;
}
