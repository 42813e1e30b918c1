/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* partition.c - files on a mounted partition named as the firmware names them, and where partitions are mounted */
#define _XOPEN_SOURCE 700 /* realpath, strndup */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "sbat/partition.h"

#include "util/diag.h"
#include "util/strtable.h"

#define MOUNTINFO "/proc/self/mountinfo"

/* One line of /proc/self/mountinfo, the fields used here, escapes (\040) decoded. */
typedef struct mount_line {
	char root[PATH_MAX], point[PATH_MAX], fstype[64], source[PATH_MAX];
} mount_line;

/* Copy the space-ended field at *p into out (cut to fit), decoding \ooo; *p moves past it and its space. */
static void
take_field(const char **p, char *out, size_t size)
{
	const char *s = *p;
	size_t n = 0;

	while (*s && *s != ' ' && *s != '\n') {
		int c = (unsigned char)*s++;

		if (c == '\\' && s[0] >= '0' && s[0] <= '3' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' &&
		    s[2] <= '7') {
			c = (s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0');
			s += 3;
		}
		if (n + 1 < size)
			out[n++] = (char)c;
	}
	out[n] = '\0';
	*p = *s == ' ' ? s + 1 : s;
}

/* Parse line into m: "id parent major:minor root mountpoint options... - fstype source superoptions". 0 on success. */
static int
parse_mount_line(const char *line, mount_line *m)
{
	const char *p = line, *sep = strstr(line, " - ");
	char skip[64];
	int i;

	if (!sep)
		return -1;
	for (i = 0; i < 3; i++)
		take_field(&p, skip, sizeof(skip));
	take_field(&p, m->root, sizeof(m->root));
	take_field(&p, m->point, sizeof(m->point));
	p = sep + 3;
	take_field(&p, m->fstype, sizeof(m->fstype));
	take_field(&p, m->source, sizeof(m->source));
	return m->point[0] ? 0 : -1;
}

/*
 * The first mount whose source is `source`, or (source NULL) the last one
 * on mount point `point`, the one seen there; 1 when found, 0 when not, -1
 * when the mount table or memory cannot be had.
 */
static int
find_mount(const char *source, const char *point, mount_line *m)
{
	char line[3 * PATH_MAX];
	FILE *f = fopen(MOUNTINFO, "re");
	mount_line *cur = malloc(sizeof(*cur));
	int found = 0;

	while (f && cur && !(found && source) && fgets(line, sizeof(line), f)) {
		if (parse_mount_line(line, cur) != 0)
			continue;
		if (source ? strcmp(cur->source, source) == 0 : strcmp(cur->point, point) == 0) {
			*m = *cur;
			found = 1;
		}
	}
	if (!f || !cur)
		found = -1;
	if (f)
		fclose(f);
	free(cur);
	return found;
}

/* find_mount's -1 as a failure of the library's kind. */
static sbat_err
mount_table_failed(sbat_diag *reterr)
{
	return diag_fail(reterr, SBAT_E_IO, "cannot read the mount table (/proc/self/mountinfo), or out of memory");
}

sbat_err
sbat_partition_mount_of_partuuid(const char *guid, char **ret_mount, sbat_diag *reterr)
{
	char link[128], dev[PATH_MAX];
	mount_line *m;
	int found;
	size_t i;

	*ret_mount = NULL;
	if (!guid || strlen(guid) > 64)
		return diag_fail(reterr, SBAT_E_IO, "partition GUID: longer than a GUID");
	/* udev names the links in lower case */
	snprintf(link, sizeof(link), "/dev/disk/by-partuuid/");
	for (i = 0; guid[i]; i++)
		link[22 + i] = (char)tolower((unsigned char)guid[i]);
	link[22 + i] = '\0';
	if (!realpath(link, dev))
		return SBAT_OK; /* no such partition here */
	if (!(m = malloc(sizeof(*m))))
		return diag_fail(reterr, SBAT_E_NOMEM, "partition lookup: out of memory");
	found = find_mount(dev, NULL, m);
	if (found > 0 && !(*ret_mount = strdup(m->point)))
		found = -1;
	free(m);
	return found < 0 ? mount_table_failed(reterr) : SBAT_OK;
}

sbat_err
sbat_partition_mount_of_uuid(const char *uuid, char *ret_mount, size_t mount_size, char *ret_root, size_t root_size,
                             sbat_diag *reterr)
{
	char link[160], dev[PATH_MAX];
	mount_line *m;
	int found;

	if (mount_size == 0 || root_size == 0)
		return diag_fail(reterr, SBAT_E_IO, "file system lookup: no room for the mount point");
	ret_mount[0] = ret_root[0] = '\0';
	if (!uuid || strlen(uuid) > 128)
		return diag_fail(reterr, SBAT_E_IO, "file system UUID: longer than any UUID");
	snprintf(link, sizeof(link), "/dev/disk/by-uuid/%s", uuid);
	if (!realpath(link, dev))
		return SBAT_OK; /* no such file system here */
	if (!(m = malloc(sizeof(*m))))
		return diag_fail(reterr, SBAT_E_NOMEM, "file system lookup: out of memory");
	found = find_mount(dev, NULL, m);
	if (found > 0) {
		snprintf(ret_mount, mount_size, "%s", m->point);
		snprintf(ret_root, root_size, "%s", m->root);
	}
	free(m);
	return found < 0 ? mount_table_failed(reterr) : SBAT_OK;
}

sbat_err
sbat_partition_is_fat_mount(const char *mount_point, int *ret_is_fat, sbat_diag *reterr)
{
	mount_line *m = malloc(sizeof(*m));
	int found;

	*ret_is_fat = 0;
	if (!m)
		return diag_fail(reterr, SBAT_E_NOMEM, "mount lookup: out of memory");
	found = mount_point ? find_mount(NULL, mount_point, m) : 0;
	*ret_is_fat = found > 0 && strcmp(m->fstype, "vfat") == 0;
	free(m);
	return found < 0 ? mount_table_failed(reterr) : SBAT_OK;
}

sbat_err
sbat_partition_guid_of(const char *dir, char *ret_guid, size_t guid_size, sbat_diag *reterr)
{
	char link[300];
	struct stat at, dev;
	struct dirent *e;
	DIR *d;
	int found = 0;

	if (guid_size == 0)
		return diag_fail(reterr, SBAT_E_IO, "partition GUID lookup: no room for the GUID");
	ret_guid[0] = '\0';
	if (!dir || stat(dir, &at) != 0)
		return diag_fail_errno(reterr, SBAT_E_IO, "partition GUID lookup: the directory cannot be read", errno);
	if (!(d = opendir("/dev/disk/by-partuuid")))
		return SBAT_OK; /* no partitions named here: a copy, a container */
	while (!found && (e = readdir(d)) != NULL) {
		size_t i;

		snprintf(link, sizeof(link), "/dev/disk/by-partuuid/%.200s", e->d_name);
		if (e->d_name[0] == '.' || stat(link, &dev) != 0 || !S_ISBLK(dev.st_mode) || dev.st_rdev != at.st_dev ||
		    strlen(e->d_name) >= guid_size)
			continue;
		for (i = 0; e->d_name[i]; i++)
			ret_guid[i] = (char)tolower((unsigned char)e->d_name[i]);
		ret_guid[i] = '\0';
		found = 1;
	}
	closedir(d);
	return SBAT_OK;
}

/* The entry of directory dir named like name[0..n): exactly, or in any case as FAT matches; into out. */
static sbat_partition_miss
find_component(const char *dir, const char *name, size_t n, int exact, char *out)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	sbat_partition_miss miss = SBAT_PARTITION_MISSING;

	if (!d)
		return SBAT_PARTITION_UNREADABLE;
	while (miss == SBAT_PARTITION_MISSING && (e = readdir(d)) != NULL) {
		size_t dl = strlen(dir);

		if (strlen(e->d_name) != n ||
		    (exact ? strncmp(e->d_name, name, n) : strncasecmp(e->d_name, name, n)) != 0)
			continue;
		if (dl + 1 + n >= SBAT_PARTITION_PATH_MAX) {
			miss = SBAT_PARTITION_TOO_LONG;
			break;
		}
		memmove(out, dir, dl);
		out[dl] = '/';
		memcpy(out + dl + 1, e->d_name, n + 1);
		miss = SBAT_PARTITION_FOUND;
	}
	closedir(d);
	return miss;
}

/* What the last component found (st) is, against what was asked for. */
static sbat_partition_miss
last_is(const struct stat *st, unsigned flags)
{
	if (flags & SBAT_PARTITION_DIR)
		return S_ISDIR(st->st_mode) ? SBAT_PARTITION_FOUND : SBAT_PARTITION_NOT_DIRECTORY;
	return S_ISREG(st->st_mode) ? SBAT_PARTITION_FOUND : SBAT_PARTITION_NOT_REGULAR;
}

/* Walk p's components below out (root, already copied in), one directory at a time; dir is scratch space. */
static sbat_partition_miss
walk_components(const char *p, unsigned flags, char *out, char *dir)
{
	struct stat st;

	while (*p) {
		size_t n = strcspn(p, "\\/");
		sbat_partition_miss miss;

		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return SBAT_PARTITION_DOT;
		memcpy(dir, out, SBAT_PARTITION_PATH_MAX);
		miss = find_component(dir, p, n, flags & SBAT_PARTITION_EXACT, out);
		if (miss != SBAT_PARTITION_FOUND)
			return miss;
		if (lstat(out, &st) != 0)
			return SBAT_PARTITION_MISSING;
		if (S_ISLNK(st.st_mode))
			return SBAT_PARTITION_SYMLINK;
		p += n;
		p += strspn(p, "\\/");
		if (!*p)
			return last_is(&st, flags);
		if (!S_ISDIR(st.st_mode))
			return SBAT_PARTITION_PARENT_NOT_DIR;
	}
	return SBAT_PARTITION_MISSING;
}

sbat_partition_miss
sbat_partition_resolve(const char *root, const char *path, unsigned flags, char **ret_path)
{
	char *out, *dir;
	sbat_partition_miss miss;

	*ret_path = NULL;
	if (!root || !path)
		return SBAT_PARTITION_MISSING;
	if (strlen(root) >= SBAT_PARTITION_PATH_MAX)
		return SBAT_PARTITION_TOO_LONG;
	out = malloc(SBAT_PARTITION_PATH_MAX);
	dir = malloc(SBAT_PARTITION_PATH_MAX);
	if (!out || !dir) {
		free(out);
		free(dir);
		return SBAT_PARTITION_NO_MEMORY;
	}
	snprintf(out, SBAT_PARTITION_PATH_MAX, "%s", root);
	path += strspn(path, "\\/");
	if (!*path)
		miss = (flags & SBAT_PARTITION_DIR) ? SBAT_PARTITION_FOUND : SBAT_PARTITION_MISSING;
	else
		miss = walk_components(path, flags, out, dir);
	free(dir);
	if (miss == SBAT_PARTITION_FOUND)
		*ret_path = out;
	else
		free(out);
	return miss;
}

const char *
sbat_partition_miss_name(sbat_partition_miss m)
{
	static const char *const names[] = {
		[SBAT_PARTITION_FOUND] = "found",
		[SBAT_PARTITION_MISSING] = "missing",
		[SBAT_PARTITION_DOT] = "dot-component",
		[SBAT_PARTITION_SYMLINK] = "symlink",
		[SBAT_PARTITION_NOT_REGULAR] = "not-regular-file",
		[SBAT_PARTITION_NOT_DIRECTORY] = "not-directory",
		[SBAT_PARTITION_PARENT_NOT_DIR] = "parent-not-directory",
		[SBAT_PARTITION_UNREADABLE] = "unreadable",
		[SBAT_PARTITION_NO_MEMORY] = "no-memory",
		[SBAT_PARTITION_TOO_LONG] = "too-long",
		[SBAT_PARTITION_EMPTY_NODE] = "empty-node",
		[SBAT_PARTITION_SLASH] = "slash",
		[SBAT_PARTITION_BAD_CHAR] = "bad-character",
		[SBAT_PARTITION_EMPTY_NAME] = "empty-name",
		[SBAT_PARTITION_NAME_TOO_LONG] = "name-too-long",
		[SBAT_PARTITION_PATH_TOO_LONG] = "path-too-long",
		[SBAT_PARTITION_ABOVE_ROOT] = "above-root",
		[SBAT_PARTITION_IS_DIRECTORY] = "is-directory",
	};

	return STRTABLE_NAME(names, m, "unknown");
}

/* 1 when entry name of dir (dirfd) is of the kinds asked for; never follows a link. */
static int
is_kind(int dirfd, const char *name, unsigned kinds)
{
	struct stat st;

	if (kinds == SBAT_PARTITION_LIST_ANY)
		return 1;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	return ((kinds & SBAT_PARTITION_LIST_FILES) && S_ISREG(st.st_mode)) ||
	       ((kinds & SBAT_PARTITION_LIST_DIRS) && S_ISDIR(st.st_mode));
}

static int
by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append a copy of name to *names (n of cap); -1 when memory ran out. */
static int
push_name(char ***names, size_t *n, size_t *cap, const char *name)
{
	char *copy;

	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 32;
		char **p = realloc(*names, c * sizeof(*p));

		if (!p)
			return -1;
		*names = p;
		*cap = c;
	}
	if (!(copy = strdup(name)))
		return -1;
	(*names)[(*n)++] = copy;
	return 0;
}

sbat_err
sbat_partition_list(const char *dir, unsigned kinds, size_t max, char ***ret_names, size_t *ret_n, sbat_diag *d)
{
	DIR *dh = dir ? opendir(dir) : NULL;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	sbat_err err = SBAT_OK;

	*ret_names = NULL;
	*ret_n = 0;
	if (!dh)
		return diag_fail_errno(d, SBAT_E_IO, "cannot read the directory", errno);
	while (err == SBAT_OK && (e = readdir(dh)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    !is_kind(dirfd(dh), e->d_name, kinds))
			continue;
		if (n == max)
			err = diag_fail(d, SBAT_E_TOO_BIG, "more names in the directory than are read");
		else if (push_name(&names, &n, &cap, e->d_name) != 0)
			err = diag_fail_errno(d, SBAT_E_NOMEM, "out of memory", ENOMEM);
	}
	closedir(dh);
	if (err != SBAT_OK) {
		sbat_partition_names_free(names, n);
		return err;
	}
	if (n)
		qsort(names, n, sizeof(*names), by_bytes);
	*ret_names = names;
	*ret_n = n;
	return SBAT_OK;
}

void
sbat_partition_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}
