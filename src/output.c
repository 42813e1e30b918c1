/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* output.c - a temporary file that atomically replaces its target when committed */
#define _GNU_SOURCE 1  /* O_TMPFILE, AT_EMPTY_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/fileio.h"

#include "diag.h"
#include "io.h"

struct sbat_output {
	int fd;
	const sbat_io *io;
	char *path;        /* the target; NULL for a scratch file */
	char *dir;
	char *tmp_name;    /* the temporary's name, NULL while it is nameless (O_TMPFILE) */
	mode_t mode;
	int have_owner;
	uid_t uid;
	gid_t gid;
};

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

static sbat_output *
output_free(sbat_output *o)
{
	if (o) {
		if (o->fd >= 0)
			close(o->fd);
		free(o->path);
		free(o->dir);
		free(o->tmp_name);
		free(o);
	}
	return NULL;
}

/* ".NAME.XXXXXX" in the target's directory, malloc'ed */
static char *
temp_name(const sbat_output *o)
{
	const char *base;
	char *dir = directory_of(o->path, &base), *name;
	size_t n;

	if (!dir)
		return NULL;
	n = strlen(dir) + strlen(base) + sizeof("/..XXXXXX");
	name = malloc(n);
	if (name)
		snprintf(name, n, "%s/.%s.XXXXXX", dir, base);
	free(dir);
	return name;
}

sbat_err
sbat_output_open(const char *path, const char *mode_from, const sbat_io *io, sbat_output **ret,
                 sbat_diag *d)
{
	struct stat st;
	const char *base;
	sbat_output *o;
	int err;

	o = calloc(1, sizeof(*o));
	if (!o)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	o->fd = -1;
	o->io = io;
	o->mode = 0644;
	if (lstat(path, &st) == 0) {
		if (S_ISLNK(st.st_mode)) {
			output_free(o);
			return diag_fail(d, SBAT_E_NOT_REGULAR, "is a symbolic link; refusing to replace it");
		}
		if (!S_ISREG(st.st_mode)) {
			output_free(o);
			return diag_fail(d, SBAT_E_NOT_REGULAR, "not a regular file");
		}
		o->mode = st.st_mode & 07777;
		o->uid = st.st_uid;
		o->gid = st.st_gid;
		o->have_owner = 1;
	} else if (errno != ENOENT) {
		err = errno;
		output_free(o);
		return diag_fail_errno(d, SBAT_E_IO, "cannot stat", err);
	}
	if (mode_from) {
		if (stat(mode_from, &st) != 0) {
			err = errno;
			output_free(o);
			return diag_fail_errno(d, SBAT_E_IO, "cannot stat", err);
		}
		o->mode = st.st_mode & 07777;
		o->uid = st.st_uid;
		o->gid = st.st_gid;
		o->have_owner = 1;
	}
	o->path = strdup(path);
	o->dir = o->path ? directory_of(path, &base) : NULL;
	if (!o->dir) {
		output_free(o);
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	}
#ifdef O_TMPFILE
	/* nameless until commit: a crash or a kill leaves nothing behind */
	o->fd = open(o->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (o->fd < 0) {
		o->tmp_name = temp_name(o);
		if (!o->tmp_name) {
			output_free(o);
			return diag_fail(d, SBAT_E_NOMEM, "out of memory");
		}
		o->fd = mkstemp(o->tmp_name);
		if (o->fd < 0) {
			err = errno;
			output_free(o);
			return diag_fail_errno(d, SBAT_E_IO, "cannot create a temporary file next to it", err);
		}
	}
	*ret = o;
	return SBAT_OK;
}

sbat_err
sbat_output_open_scratch(const sbat_io *io, sbat_output **ret, sbat_diag *d)
{
	sbat_output *o = calloc(1, sizeof(*o));
	FILE *f;
	int err;

	if (!o)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	o->io = io;
	/* tmpfile() is already unlinked; keep a dup of its descriptor */
	f = tmpfile();
	o->fd = f ? dup(fileno(f)) : -1;
	err = errno;  /* before fclose can change it */
	if (f)
		fclose(f);
	if (o->fd < 0) {
		free(o);
		return diag_fail_errno(d, SBAT_E_IO, "cannot create a scratch file", err);
	}
	*ret = o;
	return SBAT_OK;
}

int
sbat_output_fd(const sbat_output *o)
{
	return o->fd;
}

const sbat_io *
sbat_output_io(const sbat_output *o)
{
	return o->io;
}

void
sbat_output_abort(sbat_output *o)
{
	if (!o)
		return;
	if (o->tmp_name)
		unlink(o->tmp_name);
	output_free(o);
}

/* Give a nameless temporary a name in the target's directory. */
static int
link_tmpfile(sbat_output *o)
{
	char proc[64];
	int i;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
	for (i = 0; i < 100; i++) {
		int fd;

		free(o->tmp_name);
		o->tmp_name = temp_name(o);
		if (!o->tmp_name) {
			errno = ENOMEM;
			return -1;
		}
		/* reserve a unique name, then put the file there */
		fd = mkstemp(o->tmp_name);
		if (fd < 0)
			return -1;
		close(fd);
		unlink(o->tmp_name);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp_name, AT_SYMLINK_FOLLOW) == 0)
			return 0;
#ifdef AT_EMPTY_PATH
		if (errno == ENOENT && linkat(o->fd, "", AT_FDCWD, o->tmp_name, AT_EMPTY_PATH) == 0)
			return 0;
#endif
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

sbat_err
sbat_output_commit(sbat_output *o, sbat_diag *d)
{
	const char *what;
	int err, dfd;

	if (!o->path) {
		output_free(o);
		return diag_fail(d, SBAT_E_IO, "a scratch output cannot be committed");
	}
	/* keep the owner when allowed (root); a plain user cannot and need not */
	what = "cannot set the owner of the temporary file";
	if (o->have_owner && (o->uid != geteuid() || o->gid != getegid()) &&
	    fchown(o->fd, o->uid, o->gid) != 0 && errno != EPERM)
		goto fail;
	what = "cannot set the mode of the temporary file";
	if (fchmod(o->fd, o->mode) != 0)
		goto fail;
	what = "cannot flush the temporary file to disk";
	if (io_fsync(o->io, o->fd) != 0)
		goto fail;
	what = "cannot name the temporary file";
	if (!o->tmp_name && link_tmpfile(o) != 0) {
		free(o->tmp_name);
		o->tmp_name = NULL;
		goto fail;
	}
	what = "cannot rename the temporary file into place";
	if (io_rename(o->io, o->tmp_name, o->path) != 0)
		goto fail;
	free(o->tmp_name);
	o->tmp_name = NULL;
	/* make the rename itself durable */
	dfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	output_free(o);
	return SBAT_OK;

fail:
	err = errno;
	sbat_output_abort(o);
	return diag_fail_errno(d, SBAT_E_IO, what, err);
}

sbat_err
sbat_file_write_atomic(const char *path, const char *mode_from, const uint8_t *buf, size_t len,
                       sbat_diag *d)
{
	sbat_output *o;
	sbat_err e;
	int err;

	e = sbat_output_open(path, mode_from, NULL, &o, d);
	if (e)
		return e;
	if (io_pwrite_all(o->io, o->fd, buf, len, 0) != 0) {
		err = errno;
		sbat_output_abort(o);
		return diag_fail_errno(d, SBAT_E_IO, "cannot write the temporary file", err);
	}
	return sbat_output_commit(o, d);
}
