/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * fat_open.c - a load option's File() nodes opened on a mounted partition as EDK2 opens them: the rules of
 * FatPkg/EnhancedFatDxe (FatLocateOFile, FatGetNextNameComponent, FatFileNameIsValid, FatSearchODir with the
 * English collation) and of MdePkg's GetFileBufferByFilePath (one Open per node, each from the one before)
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sbat/partition.h"

#define FAT_PATH_MAX 260 /* EFI_PATH_STRING_LENGTH: "X:" + full path + NUL */
#define FAT_NAME_MAX 255 /* EFI_FILE_STRING_LENGTH */

/* Where the walk is: out holds root then "/name" per directory entered; root_len bytes of it are the root. */
typedef struct fat_walk {
	char *out;
	size_t root_len;
	int is_dir;
} fat_walk;

/* The next code point of UTF-8 text at *s (moved past it); malformed bytes are taken one by one. */
static unsigned
next_cp(const char **s)
{
	const unsigned char *p = (const unsigned char *)*s;
	unsigned c = p[0];

	if (c >= 0xc0 && c < 0xe0 && (p[1] & 0xc0) == 0x80) {
		*s += 2;
		return (c & 0x1f) << 6 | (p[1] & 0x3f);
	}
	if (c >= 0xe0 && c < 0xf0 && (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80) {
		*s += 3;
		return (c & 0x0f) << 12 | (p[1] & 0x3f) << 6 | (p[2] & 0x3f);
	}
	*s += 1;
	return c;
}

/* Characters in text[0..n), as CHAR16 would count them. */
static size_t
count_cp(const char *text, size_t n)
{
	const char *s = text;
	size_t k = 0;

	while (s < text + n) {
		next_cp(&s);
		k++;
	}
	return k;
}

/* EDK2's English collation (EnglishDxe mEngUpperMap): a-z and Latin-1 U+00E0..U+00FE but U+00F7 upper-cased. */
static unsigned
fold(unsigned c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 0xe0 && c <= 0xfe && c != 0xf7))
		return c - 0x20;
	return c;
}

/* 1 when entry equals name[0..n) as EngStriColl compares them. */
static int
same_name(const char *entry, const char *name, size_t n)
{
	const char *a = entry, *b = name;

	while (*a && b < name + n)
		if (fold(next_cp(&a)) != fold(next_cp(&b)))
			return 0;
	return !*a && b == name + n;
}

/* FatFileNameIsValid: cut leading blanks and trailing blanks and dots from c[0..*n), then check what is left. */
static sbat_partition_miss
valid_name(const char **c, size_t *n)
{
	size_t i;

	while (*n && **c == ' ')
		(*c)++, (*n)--;
	while (*n && ((*c)[*n - 1] == ' ' || (*c)[*n - 1] == '.'))
		(*n)--;
	if (count_cp(*c, *n) > FAT_NAME_MAX)
		return SBAT_PARTITION_NAME_TOO_LONG;
	if (*n == 0)
		return SBAT_PARTITION_EMPTY_NAME;
	for (i = 0; i < *n; i++) {
		unsigned char ch = (unsigned char)(*c)[i];

		if (ch == '/')
			return SBAT_PARTITION_SLASH;
		if (ch < 0x20 || strchr("\"*:<>?|", ch))
			return SBAT_PARTITION_BAD_CHAR;
	}
	return SBAT_PARTITION_FOUND;
}

/* Append "/" and entry to w->out; 0 when it does not fit. */
static int
push(fat_walk *w, const char *entry)
{
	size_t l = strlen(w->out), n = strlen(entry);

	if (l + 1 + n >= SBAT_PARTITION_PATH_MAX)
		return 0;
	w->out[l] = '/';
	memcpy(w->out + l + 1, entry, n + 1);
	return 1;
}

/* Enter name[0..n) of the directory w is in: its entry as EDK2 matches it, else a short name ('~') the kernel finds. */
static sbat_partition_miss
enter(fat_walk *w, const char *name, size_t n)
{
	sbat_partition_miss miss = SBAT_PARTITION_MISSING;
	DIR *d = opendir(w->out);
	struct dirent *e;
	struct stat st;
	char short_name[FAT_NAME_MAX * 3 + 1];

	if (!d)
		return SBAT_PARTITION_UNREADABLE;
	while (miss == SBAT_PARTITION_MISSING && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && same_name(e->d_name, name, n))
			miss = push(w, e->d_name) ? SBAT_PARTITION_FOUND : SBAT_PARTITION_TOO_LONG;
	closedir(d);
	if (miss == SBAT_PARTITION_MISSING && memchr(name, '~', n) && n < sizeof(short_name)) {
		memcpy(short_name, name, n);
		short_name[n] = '\0';
		if (!push(w, short_name))
			return SBAT_PARTITION_TOO_LONG;
		if (lstat(w->out, &st) == 0)
			miss = SBAT_PARTITION_FOUND;
		else
			*strrchr(w->out, '/') = '\0';
	}
	if (miss != SBAT_PARTITION_FOUND)
		return miss;
	if (lstat(w->out, &st) != 0)
		return SBAT_PARTITION_MISSING;
	if (S_ISLNK(st.st_mode))
		return SBAT_PARTITION_SYMLINK;
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		return SBAT_PARTITION_NOT_REGULAR;
	w->is_dir = S_ISDIR(st.st_mode);
	return SBAT_PARTITION_FOUND;
}

/* One name component c[0..n) of a path (FatLocateOFile's loop body). */
static sbat_partition_miss
component(fat_walk *w, const char *c, size_t n)
{
	sbat_partition_miss miss;

	if (n == 1 && c[0] == '.')
		return SBAT_PARTITION_FOUND;
	if (n == 2 && c[0] == '.' && c[1] == '.') {
		if (strlen(w->out) == w->root_len)
			return SBAT_PARTITION_ABOVE_ROOT;
		*strrchr(w->out, '/') = '\0'; /* a file's parent is its directory too */
		w->is_dir = 1;
		return SBAT_PARTITION_FOUND;
	}
	if ((miss = valid_name(&c, &n)) != SBAT_PARTITION_FOUND)
		return miss;
	if (!w->is_dir)
		return SBAT_PARTITION_PARENT_NOT_DIR;
	return enter(w, c, n);
}

/* Open one File() node's path from where w is (FatLocateOFile). */
static sbat_partition_miss
open_node(fat_walk *w, const char *p)
{
	size_t len = strlen(p);
	int dir_intended;

	if (len == 0)
		return SBAT_PARTITION_EMPTY_NODE;
	dir_intended = p[len - 1] == '\\';
	if (*p == '\\') {
		w->out[w->root_len] = '\0';
		w->is_dir = 1;
		p++, len--;
	}
	/* the directory's full path (each '/' a '\') and this one: "X:" full "\" name NUL */
	if (2 + count_cp(w->out + w->root_len, strlen(w->out + w->root_len)) + 1 + count_cp(p, len) + 1 > FAT_PATH_MAX)
		return SBAT_PARTITION_PATH_TOO_LONG;
	for (;;) {
		size_t n = strcspn(p, "\\");
		sbat_partition_miss miss;

		if (n == 0) /* the end, or an empty name right after the leading '\': the path ends here */
			return dir_intended && !w->is_dir ? SBAT_PARTITION_NOT_DIRECTORY : SBAT_PARTITION_FOUND;
		if ((miss = component(w, p, n)) != SBAT_PARTITION_FOUND)
			return miss;
		p += n;
		p += strspn(p, "\\");
	}
}

sbat_partition_miss
sbat_partition_resolve_uefi(const char *root, const char *nodes, size_t n_nodes, char **ret_path)
{
	fat_walk w;
	sbat_partition_miss miss = SBAT_PARTITION_FOUND;
	size_t i;

	*ret_path = NULL;
	if (!root || (!nodes && n_nodes))
		return SBAT_PARTITION_MISSING;
	if (n_nodes == 0)
		return SBAT_PARTITION_IS_DIRECTORY; /* the volume's root directory */
	w.root_len = strlen(root);
	if (w.root_len >= SBAT_PARTITION_PATH_MAX)
		return SBAT_PARTITION_TOO_LONG;
	if (!(w.out = malloc(SBAT_PARTITION_PATH_MAX)))
		return SBAT_PARTITION_NO_MEMORY;
	memcpy(w.out, root, w.root_len + 1);
	w.is_dir = 1;
	for (i = 0; i < n_nodes && miss == SBAT_PARTITION_FOUND; i++) {
		miss = open_node(&w, nodes);
		nodes += strlen(nodes) + 1;
	}
	if (miss == SBAT_PARTITION_FOUND && w.is_dir)
		miss = SBAT_PARTITION_IS_DIRECTORY; /* GetFileBufferByFilePath reads no directory */
	if (miss == SBAT_PARTITION_FOUND)
		*ret_path = w.out;
	else
		free(w.out);
	return miss;
}
