/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-tree.h - a scratch directory tree for the harnesses that read files beneath a mounted partition */
#ifndef SBAT_FUZZ_TREE_H
#define SBAT_FUZZ_TREE_H

/*
 * Included by the harnesses whose library calls read a directory tree
 * (fuzz-fallback.c, fuzz-sdboot.c, fuzz-partition.c). The tree lives in a
 * directory made once per process under $TMPDIR (else /tmp) and is removed
 * when the process exits. Any failure to build it aborts: a harness that
 * cannot make its tree tests nothing.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_TREE_PATH_MAX 512

static char fuzz_tree_root[FUZZ_TREE_PATH_MAX];

static inline void
fuzz_tree_die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz tree: cannot %s %s\n", what, path);
	fflush(stderr);
	abort();
}

/* root/rel into out. */
static inline void
fuzz_tree_path(const char *rel, char *out, size_t size)
{
	if (snprintf(out, size, "%s/%s", fuzz_tree_root, rel) >= (int)size)
		fuzz_tree_die("name", rel);
}

static inline int
fuzz_tree_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static inline void
fuzz_tree_remove(void)
{
	if (fuzz_tree_root[0])
		nftw(fuzz_tree_root, fuzz_tree_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Make the scratch root once; 1 when it was made by this call (the caller then fills it). */
static inline int
fuzz_tree_init(void)
{
	const char *tmp = getenv("TMPDIR");

	if (fuzz_tree_root[0])
		return 0;
	if (snprintf(fuzz_tree_root, sizeof(fuzz_tree_root), "%s/sbat-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
	    (int)sizeof(fuzz_tree_root))
		fuzz_tree_die("use", "TMPDIR");
	if (!mkdtemp(fuzz_tree_root))
		fuzz_tree_die("make", fuzz_tree_root);
	atexit(fuzz_tree_remove);
	return 1;
}

/* A directory root/rel (its parent exists). */
static inline void
fuzz_tree_dir(const char *rel)
{
	char p[FUZZ_TREE_PATH_MAX];

	fuzz_tree_path(rel, p, sizeof(p));
	if (mkdir(p, 0755) != 0)
		fuzz_tree_die("make", p);
}

/* The file root/rel holding data[0..n), replaced if it exists. */
static inline void
fuzz_tree_file(const char *rel, const void *data, size_t n)
{
	char p[FUZZ_TREE_PATH_MAX];
	FILE *f;

	fuzz_tree_path(rel, p, sizeof(p));
	f = fopen(p, "wb");
	if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0)
		fuzz_tree_die("write", p);
}

/* Remove the file root/rel if it exists. */
static inline void
fuzz_tree_unlink(const char *rel)
{
	char p[FUZZ_TREE_PATH_MAX];

	fuzz_tree_path(rel, p, sizeof(p));
	unlink(p);
}

/* A symbolic link root/rel to target. */
static inline void
fuzz_tree_symlink(const char *target, const char *rel)
{
	char p[FUZZ_TREE_PATH_MAX];

	fuzz_tree_path(rel, p, sizeof(p));
	if (symlink(target, p) != 0)
		fuzz_tree_die("link", p);
}

/* A FIFO root/rel. */
static inline void
fuzz_tree_fifo(const char *rel)
{
	char p[FUZZ_TREE_PATH_MAX];

	fuzz_tree_path(rel, p, sizeof(p));
	if (mkfifo(p, 0644) != 0)
		fuzz_tree_die("make", p);
}

#endif
