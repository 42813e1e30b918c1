/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* scan.c - find the PE images under a directory, without following links or blocking on special files */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/scan.h"

#include "util/diag.h"

typedef struct scan_seen {
	dev_t dev;
	ino_t ino;
} scan_seen;

struct sbat_scan {
	sbat_scan_candidate_fn on_candidate;
	sbat_scan_unreadable_fn on_unreadable;
	void *ctx;
	sbat_scan_counts counts;
	scan_seen *seen; /* directories already scanned, so none is scanned twice */
	size_t n_seen, cap_seen;
};

static void
fail_errno(sbat_diag *d, const char *what, int err)
{
	diag_fail_errno(d, SBAT_E_IO, what, err);
}

static void
fail_nomem(sbat_scan *s, const char *path)
{
	sbat_diag d;

	diag_fail_errno(&d, SBAT_E_NOMEM, "out of memory", ENOMEM);
	s->on_unreadable(s->ctx, path, &d);
}

/*
 * 1 when the directory was scanned before (a later argument inside an
 * earlier one, or a bind mount), else remember it and return 0; -1 when
 * memory ran out.
 */
static int
seen_before(sbat_scan *s, const struct stat *st)
{
	size_t i;

	for (i = 0; i < s->n_seen; i++)
		if (s->seen[i].dev == st->st_dev && s->seen[i].ino == st->st_ino)
			return 1;
	if (s->n_seen == s->cap_seen) {
		size_t cap = s->cap_seen ? 2 * s->cap_seen : 64;
		scan_seen *p = realloc(s->seen, cap * sizeof(*p));

		if (!p)
			return -1;
		s->seen = p;
		s->cap_seen = cap;
	}
	s->seen[s->n_seen].dev = st->st_dev;
	s->seen[s->n_seen].ino = st->st_ino;
	s->n_seen++;
	return 0;
}

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
free_names(char **names, size_t n)
{
	while (n)
		free(names[--n]);
	free(names);
}

/* The entries of dir except . and .., sorted so that every run lists them alike. */
static int
read_names(const char *dir, char ***ret, size_t *ret_n, sbat_diag *d)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char **names = NULL, **p;
	size_t n = 0, cap = 0;

	if (!dp) {
		fail_errno(d, "cannot open the directory", errno);
		return -1;
	}
	for (errno = 0; (e = readdir(dp)) != NULL; errno = 0) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			p = realloc(names, cap * sizeof(*names));
			if (!p)
				break;
			names = p;
		}
		names[n] = strdup(e->d_name);
		if (!names[n])
			break;
		n++;
	}
	if (e || errno) {
		fail_errno(d, e ? "out of memory" : "cannot read the directory", e ? ENOMEM : errno);
		closedir(dp);
		free_names(names, n);
		return -1;
	}
	closedir(dp);
	if (n)
		qsort(names, n, sizeof(*names), compare_names);
	*ret = names;
	*ret_n = n;
	return 0;
}

static char *
join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	int slash = n > 0 && dir[n - 1] == '/';
	char *p = malloc(n + !slash + strlen(name) + 1);

	if (p) {
		memcpy(p, dir, n);
		if (!slash)
			p[n++] = '/';
		strcpy(p + n, name);
	}
	return p;
}

/*
 * Does the regular file at path start with "MZ"? Read without following a
 * link that replaced it meanwhile, and without blocking on a FIFO that did.
 * 1 yes, with *ret_fd open on it (to be judged, not the path again); 0 no;
 * -1 unreadable (d says why).
 */
static int
starts_with_mz(const char *path, int *ret_fd, sbat_diag *d)
{
	unsigned char magic[2];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);

	*ret_fd = -1;
	if (fd < 0) {
		fail_errno(d, "cannot open", errno);
		return -1;
	}
	do
		n = read(fd, magic, sizeof(magic));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		fail_errno(d, "read failed", errno);
	if (n == 2 && magic[0] == 'M' && magic[1] == 'Z') {
		*ret_fd = fd;
		return 1;
	}
	close(fd);
	return n < 0 ? -1 : 0;
}

static int scan_at(sbat_scan *s, const char *dir, const struct stat *st, unsigned depth);

/* One entry of a directory being scanned. */
static int
scan_entry(sbat_scan *s, const char *path, unsigned depth)
{
	struct stat st;
	sbat_diag d;
	int mz, fd = -1;

	if (lstat(path, &st) != 0) {
		fail_errno(&d, "cannot stat", errno);
		s->on_unreadable(s->ctx, path, &d);
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		s->counts.n_symlinks++;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return scan_at(s, path, &st, depth + 1);
	/* devices, FIFOs and sockets are never opened */
	mz = S_ISREG(st.st_mode) ? starts_with_mz(path, &fd, &d) : 0;
	if (mz < 0)
		s->on_unreadable(s->ctx, path, &d);
	else if (mz == 0 || s->on_candidate(s->ctx, path, fd) == SBAT_SCAN_NOT_PE)
		s->counts.n_not_pe++;
	if (fd >= 0)
		close(fd);
	return 0;
}

static int
scan_at(sbat_scan *s, const char *dir, const struct stat *st, unsigned depth)
{
	char **names = NULL;
	size_t n = 0, i;
	sbat_diag d;
	int r = 0;

	if (depth > SBAT_SCAN_MAX_DEPTH) {
		/* SBAT_SCAN_MAX_DEPTH */
		fail_errno(&d, "directory nested more than 32 levels deep; not scanned", 0);
		s->on_unreadable(s->ctx, dir, &d);
		return 0;
	}
	switch (seen_before(s, st)) {
	case 1: return 0;
	case -1: fail_nomem(s, dir); return -1;
	}
	if (read_names(dir, &names, &n, &d) != 0) {
		s->on_unreadable(s->ctx, dir, &d);
		return d.sys_errno == ENOMEM ? -1 : 0;
	}
	s->counts.n_dirs++;
	for (i = 0; i < n && r == 0; i++) {
		char *path = join(dir, names[i]);

		if (!path) {
			fail_nomem(s, dir);
			r = -1;
			break;
		}
		r = scan_entry(s, path, depth);
		free(path);
	}
	free_names(names, n);
	return r;
}

sbat_err
sbat_scan_new(sbat_scan_candidate_fn on_candidate, sbat_scan_unreadable_fn on_unreadable, void *ctx, sbat_scan **ret,
              sbat_diag *d)
{
	sbat_scan *s;

	if (!ret)
		return diag_fail(d, SBAT_E_ABI, "no place for the scan");
	*ret = NULL;
	if (!on_candidate || !on_unreadable)
		return diag_fail(d, SBAT_E_ABI, "a scan needs both callbacks");
	s = calloc(1, sizeof(*s));
	if (!s)
		return diag_fail_errno(d, SBAT_E_NOMEM, "out of memory", ENOMEM);
	s->on_candidate = on_candidate;
	s->on_unreadable = on_unreadable;
	s->ctx = ctx;
	*ret = s;
	return SBAT_OK;
}

sbat_err
sbat_scan_dir(sbat_scan *s, const char *dir)
{
	struct stat st;
	sbat_diag d;

	/* the directory named may be a link; those found inside are not followed */
	if (stat(dir, &st) != 0) {
		fail_errno(&d, "cannot stat", errno);
		s->on_unreadable(s->ctx, dir, &d);
		return SBAT_OK;
	}
	return scan_at(s, dir, &st, 0) == 0 ? SBAT_OK : SBAT_E_NOMEM;
}

sbat_scan_counts
sbat_scan_get_counts(const sbat_scan *s)
{
	return s->counts;
}

void
sbat_scan_reset(sbat_scan *s)
{
	free(s->seen);
	s->seen = NULL;
	s->n_seen = s->cap_seen = 0;
	memset(&s->counts, 0, sizeof(s->counts));
}

void
sbat_scan_free(sbat_scan *s)
{
	if (!s)
		return;
	free(s->seen);
	free(s);
}
