/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fileio.c - bounded whole-file reads and atomic file replacement */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/fileio.h"

#include "diag.h"

sbat_err
sbat_file_read(const char *path, size_t max_size, uint8_t **ret_buf, size_t *ret_len, sbat_diag *d)
{
	struct stat st;
	uint8_t *buf = NULL;
	size_t len = 0, cap;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
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
	if ((uint64_t)st.st_size > max_size) {
		close(fd);
		return diag_fail(d, SBAT_E_TOO_BIG, "file is larger than the supported maximum");
	}
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

static int
write_all(int fd, const uint8_t *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Split path into a malloc'ed directory ("." when none) and a pointer to its last component. */
static char *
directory_of(const char *path, const char **ret_base)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!slash) {
		*ret_base = path;
		return strdup(".");
	}
	*ret_base = slash + 1;
	if (slash == path)
		return strdup("/");
	dir = malloc((size_t)(slash - path) + 1);
	if (dir) {
		memcpy(dir, path, (size_t)(slash - path));
		dir[slash - path] = '\0';
	}
	return dir;
}

sbat_err
sbat_file_write_atomic(const char *path, const char *mode_from, const uint8_t *buf, size_t len,
                       sbat_diag *d)
{
	struct stat st, src;
	const char *base;
	char *dir = NULL, *tmp = NULL;
	mode_t mode = 0644;
	int have_owner = 0, fd = -1, dfd, err;
	size_t n;

	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return diag_fail(d, SBAT_E_NOT_REGULAR,
			                 "is a symbolic link; refusing to replace it");
		if (!S_ISREG(st.st_mode))
			return diag_fail(d, SBAT_E_NOT_REGULAR, "not a regular file");
		mode = st.st_mode & 07777;
		src = st;
		have_owner = 1;
	} else if (errno != ENOENT) {
		return diag_fail_errno(d, SBAT_E_IO, "cannot stat", errno);
	}
	if (mode_from) {
		if (stat(mode_from, &src) != 0)
			return diag_fail_errno(d, SBAT_E_IO, "cannot stat", errno);
		mode = src.st_mode & 07777;
		have_owner = 1;
	}

	dir = directory_of(path, &base);
	n = dir ? strlen(dir) + strlen(base) + sizeof("/..XXXXXX") : 0;
	tmp = dir ? malloc(n) : NULL;
	if (!tmp) {
		free(dir);
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	}
	snprintf(tmp, n, "%s/.%s.XXXXXX", dir, base);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		free(tmp);
		free(dir);
		return diag_fail_errno(d, SBAT_E_IO, "cannot create a temporary file next to it", err);
	}
	if (write_all(fd, buf, len) != 0) {
		err = errno;
		goto fail_write;
	}
	/* keep the owner when allowed (root); a plain user cannot and need not */
	if (have_owner && (src.st_uid != geteuid() || src.st_gid != getegid()) &&
	    fchown(fd, src.st_uid, src.st_gid) != 0 && errno != EPERM) {
		err = errno;
		goto fail_write;
	}
	if (fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		err = errno;
		goto fail_write;
	}
	if (close(fd) != 0) {
		err = errno;
		fd = -1;
		goto fail_write;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		err = errno;
		unlink(tmp);
		free(tmp);
		free(dir);
		return diag_fail_errno(d, SBAT_E_IO, "cannot rename the temporary file into place", err);
	}
	/* make the rename itself durable */
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	free(tmp);
	free(dir);
	return SBAT_OK;

fail_write:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	free(dir);
	return diag_fail_errno(d, SBAT_E_IO, "cannot write the temporary file", err);
}
