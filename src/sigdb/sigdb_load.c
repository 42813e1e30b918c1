/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigdb_load.c - signature databases read from efivarfs and from files, without following links */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/error.h"
#include "sbat/sigdb.h"

#include "sigdb/sigdb.h"
#include "util/diag.h"

/* efivarfs' attribute bytes before a variable's data */
#define EFIVAR_ATTRS 4u
/* Longest variable name read (efivarfs file names are at most 255 bytes, with "-GUID"). */
#define NAME_MAX_LEN 200u
#define GUID_LEN 36u
/* The most pieces of a MokListRT read after the first (MokListRT1 ... MokListRT64). */
#define MOK_PIECES_MAX 64u

/* 1 if name can be a file name of its own: not empty, no '/', not "." or "..", not too long. */
static int
name_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return n > 0 && n <= NAME_MAX_LEN && !strchr(name, '/') && strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}

/* 1 if guid is a GUID's text form in lowercase, as efivarfs writes it. */
static int
guid_ok(const char *guid)
{
	size_t i;

	if (!guid || strlen(guid) != GUID_LEN)
		return 0;
	for (i = 0; i < GUID_LEN; i++) {
		char c = guid[i];
		int dash = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return 0;
	}
	return 1;
}

/* A failure about the file `name` (the diagnostic's other_name), with errno err (0: none). */
static sbat_err
fail_named(sbat_diag *d, sbat_err code, const char *what, const char *name, int err)
{
	diag_fail_other(d, code, what, 0, -1, name);
	if (d) {
		d->has_offset = 0;
		d->sys_errno = err;
	}
	return code;
}

/* Read all of fd, at most SBAT_SIGDB_MAX_FILE bytes, into a new *ret_buf (NULL when empty). */
static sbat_err
read_bounded(int fd, const char *name, uint8_t **ret_buf, size_t *ret_len, sbat_diag *reterr)
{
	size_t len = 0, cap = 4096;
	uint8_t *buf = NULL, *tmp;
	ssize_t r;

	*ret_buf = NULL;
	*ret_len = 0;
	for (;;) {
		if (!buf || len == cap) {
			cap = buf ? cap * 2 : cap;
			if (cap > SBAT_SIGDB_MAX_FILE + 1u)
				cap = SBAT_SIGDB_MAX_FILE + 1u;
			tmp = realloc(buf, cap);
			if (!tmp) {
				free(buf);
				return diag_fail(reterr, SBAT_E_NOMEM, "out of memory reading a signature database");
			}
			buf = tmp;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			return fail_named(reterr, SBAT_E_IO, "cannot read the signature database", name, e);
		}
		if (r == 0)
			break;
		len += (size_t)r;
		if (len > SBAT_SIGDB_MAX_FILE) {
			free(buf);
			return fail_named(reterr, SBAT_E_TOO_BIG, "signature database over 1 MiB", name, 0);
		}
	}
	*ret_buf = buf;
	*ret_len = len;
	return SBAT_OK;
}

/*
 * Open dir/file without following a link, a regular file only; *ret_fd -1
 * when there is no such file.
 */
static sbat_err
open_beneath(const char *dir, const char *file, const char *name, int *ret_fd, sbat_diag *reterr)
{
	int dfd, fd, e;
	struct stat st;

	*ret_fd = -1;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return fail_named(reterr, SBAT_E_IO, "cannot open the directory of the signature databases", name,
		                  errno);
	fd = openat(dfd, file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);
	e = errno;
	close(dfd);
	if (fd < 0 && e == ENOENT)
		return SBAT_OK;
	if (fd < 0 && e == ELOOP)
		return fail_named(reterr, SBAT_E_NOT_REGULAR, "signature database is a symbolic link (not followed)",
		                  name, e);
	if (fd < 0)
		return fail_named(reterr, SBAT_E_IO, "cannot open the signature database", name, e);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		e = errno;
		close(fd);
		return fail_named(reterr, SBAT_E_NOT_REGULAR, "signature database is not a regular file", name, e);
	}
	*ret_fd = fd;
	return SBAT_OK;
}

/* Read dir/file; *ret_buf NULL and *ret_missing 1 when it is not there. */
static sbat_err
read_file(const char *dir, const char *file, const char *name, uint8_t **ret_buf, size_t *ret_len, int *ret_missing,
          sbat_diag *reterr)
{
	int fd;
	sbat_err err = open_beneath(dir, file, name, &fd, reterr);

	*ret_buf = NULL;
	*ret_len = 0;
	*ret_missing = 0;
	if (err != SBAT_OK)
		return err;
	if (fd < 0) {
		*ret_missing = 1;
		return SBAT_OK;
	}
	err = read_bounded(fd, name, ret_buf, ret_len, reterr);
	close(fd);
	return err;
}

/* Load the one variable name-guid; *ret_state what was found. */
static sbat_err
load_one(sbat_sigdb *db, const char *dir, const char *name, const char *guid, sbat_sigdb_var *ret_state,
         sbat_diag *reterr)
{
	char file[NAME_MAX_LEN + 1 + GUID_LEN + 1];
	uint8_t *buf;
	size_t len, n = strlen(name);
	int missing;
	sbat_err err;

	memcpy(file, name, n);
	file[n] = '-';
	memcpy(file + n + 1, guid, GUID_LEN + 1);
	err = read_file(dir, file, name, &buf, &len, &missing, reterr);
	*ret_state = missing ? SBAT_SIGDB_VAR_MISSING : SBAT_SIGDB_VAR_EMPTY;
	if (err != SBAT_OK || missing)
		return err;
	if (len > 0 && len < EFIVAR_ATTRS)
		err = diag_fail_other(reterr, SBAT_E_EFIVAR, "efivarfs file shorter than its 4 attribute bytes", 0, -1,
		                      name);
	else if (len > EFIVAR_ATTRS)
		err = sigdb_append_at(db, buf + EFIVAR_ATTRS, len - EFIVAR_ATTRS, EFIVAR_ATTRS, name, reterr);
	if (err == SBAT_OK && len > EFIVAR_ATTRS)
		*ret_state = SBAT_SIGDB_VAR_LOADED;
	free(buf);
	return err;
}

/* 1 if shim splits the variable into numbered pieces when it is too large (MOK_MIRROR_KEYDB in shim's mok.c). */
static int
split_by_shim(const char *name, const char *guid)
{
	return strcmp(guid, SBAT_SIGDB_GUID_SHIM) == 0 &&
	       (strcmp(name, "MokListRT") == 0 || strcmp(name, "MokListXRT") == 0);
}

/* The pieces name1, name2, ... after name, up to the first missing. */
static sbat_err
load_pieces(sbat_sigdb *db, const char *dir, const char *name, const char *guid, sbat_diag *reterr)
{
	char piece[NAME_MAX_LEN + 1];
	char file[NAME_MAX_LEN + 1 + GUID_LEN + 1];
	size_t n = strlen(name), i;
	sbat_sigdb_var state;
	uint8_t *buf;
	size_t len;
	int missing;
	sbat_err err;

	memcpy(piece, name, n);
	for (i = 1; i <= MOK_PIECES_MAX; i++) {
		piece[n] = i >= 10 ? (char)('0' + i / 10) : (char)('0' + i);
		piece[n + 1] = i >= 10 ? (char)('0' + i % 10) : '\0';
		piece[n + 2] = '\0';
		err = load_one(db, dir, piece, guid, &state, reterr);
		if (err != SBAT_OK || state == SBAT_SIGDB_VAR_MISSING)
			return err;
	}
	/* one more is not read: it must not be there */
	memcpy(file, name, n);
	memcpy(file + n, "65-", 4);
	memcpy(file + n + 3, guid, GUID_LEN + 1);
	err = read_file(dir, file, file, &buf, &len, &missing, reterr);
	free(buf);
	if (err == SBAT_OK && !missing)
		err = fail_named(reterr, SBAT_E_TOO_BIG, "more pieces of a MokListRT than are read (64)", name, 0);
	return err;
}

SBAT_API sbat_err
sbat_sigdb_load_efivar(sbat_sigdb *db, const char *dir, const char *name, const char *guid, sbat_sigdb_var *ret_state,
                       sbat_diag *reterr)
{
	sbat_sigdb_var state;
	sbat_err err;

	if (ret_state)
		*ret_state = SBAT_SIGDB_VAR_MISSING;
	if (!db || !dir || !name_ok(name) || !guid_ok(guid))
		return fail_named(reterr, SBAT_E_IO, "not a variable name and lowercase GUID",
		                  name_ok(name) ? name : "", EINVAL);
	err = load_one(db, dir, name, guid, &state, reterr);
	if (err == SBAT_OK && state != SBAT_SIGDB_VAR_MISSING && split_by_shim(name, guid))
		err = load_pieces(db, dir, name, guid, reterr);
	if (err == SBAT_OK && ret_state)
		*ret_state = state;
	return err;
}

SBAT_API sbat_err
sbat_sigdb_load_file(sbat_sigdb *db, const char *dir, const char *name, sbat_sigdb_var *ret_state, sbat_diag *reterr)
{
	uint8_t *buf;
	size_t len;
	int missing;
	sbat_err err;

	if (ret_state)
		*ret_state = SBAT_SIGDB_VAR_MISSING;
	if (!db || !dir || !name_ok(name))
		return fail_named(reterr, SBAT_E_IO, "not a file name", "", EINVAL);
	err = read_file(dir, name, name, &buf, &len, &missing, reterr);
	if (err == SBAT_OK && len > 0)
		err = sbat_sigdb_append_update(db, buf, len, name, reterr);
	free(buf);
	if (err == SBAT_OK && ret_state)
		*ret_state = missing ? SBAT_SIGDB_VAR_MISSING : len > 0 ? SBAT_SIGDB_VAR_LOADED : SBAT_SIGDB_VAR_EMPTY;
	return err;
}
