/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-partition.c - libFuzzer harness: a load option's File() nodes opened as EDK2's FAT driver opens them */

/*
 * Input: File() node paths separated by NUL bytes (the input with one NUL
 * after it: a NUL at its end adds an empty node; at most FUZZ_MAX_NODES),
 * given to sbat_partition_resolve_uefi on a small tree made once: mixed
 * case directories and files, a Latin-1 name, one with '~', one with a
 * blank, a symbolic link to a file and one to a directory, a FIFO and an
 * empty directory.
 *
 * These must hold, or the harness aborts:
 *  - the result is one of sbat_partition_miss, with a path exactly when
 *    it is SBAT_PARTITION_FOUND;
 *  - a path found lies beneath the root, names a regular file, and every
 *    directory on the way is a directory, none a link, none "." or "..";
 *    sbat_partition_resolve finds that same path with
 *    SBAT_PARTITION_EXACT;
 *  - one node of plain names (letters, digits, '-', '_' and inner dots,
 *    one '\' between them) is found, or not, as sbat_partition_resolve
 *    finds it, a directory being what it calls not regular (and a FIFO
 *    before the last name refused where it is met, or as a parent).
 */
#include "fuzz-tree.h"

#include "sbat/partition.h"

#define FUZZ_MAX_INPUT 2048u
#define FUZZ_MAX_NODES 8u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[FUZZ_TREE_PATH_MAX];

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-partition: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

static void
make_tree(void)
{
	if (!fuzz_tree_init())
		return;
	fuzz_tree_path("part", root, sizeof(root));
	fuzz_tree_dir("part");
	fuzz_tree_dir("part/EFI");
	fuzz_tree_dir("part/EFI/Boot");
	fuzz_tree_file("part/EFI/Boot/BOOTX64.EFI", "MZ", 2);
	fuzz_tree_dir("part/EFI/debian");
	fuzz_tree_file("part/EFI/debian/shimx64.efi", "MZ", 2);
	fuzz_tree_file("part/EFI/debian/GrubX64.Efi", "MZ", 2);
	fuzz_tree_file("part/EFI/debian/Caf\xc3\xa9.efi", "MZ", 2);
	fuzz_tree_file("part/EFI/debian/LONGNA~1.EFI", "MZ", 2);
	fuzz_tree_file("part/EFI/debian/my file.efi", "MZ", 2);
	fuzz_tree_dir("part/EFI/Linux");
	fuzz_tree_symlink("EFI/Boot/BOOTX64.EFI", "part/link.efi");
	fuzz_tree_symlink("debian", "part/EFI/linkdir");
	fuzz_tree_fifo("part/EFI/fifo");
}

/* The path found: beneath root, a regular file, through directories only. */
static void
check_found(const char *path)
{
	size_t rl = strlen(root), i;
	char *copy, *rel;
	struct stat st;

	if (strlen(path) >= SBAT_PARTITION_PATH_MAX || strncmp(path, root, rl) != 0 || path[rl] != '/')
		fail("a path found outside the root");
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		fail("a path found that is not a regular file");
	if (strstr(path + rl, "/./") || strstr(path + rl, "/../") || strstr(path + rl, "//"))
		fail("a path found through \".\", \"..\" or an empty name");
	copy = strdup(path);
	if (!copy)
		return;
	for (i = rl + 1; copy[i]; i++) {
		if (copy[i] != '/')
			continue;
		copy[i] = '\0';
		if (lstat(copy, &st) != 0 || !S_ISDIR(st.st_mode))
			fail("a path found through something that is not a directory");
		copy[i] = '/';
	}
	free(copy);
	if (sbat_partition_resolve(root, path + rl, SBAT_PARTITION_EXACT, &rel) != SBAT_PARTITION_FOUND ||
	    strcmp(rel, path) != 0)
		fail("sbat_partition_resolve does not find the path found");
	free(rel);
}

/* 1 when node is '\'-separated plain names, at least one, no empty one. */
static int
plain(const char *node)
{
	size_t i, n = 0;

	node += *node == '\\';
	for (i = 0; node[i]; i++) {
		char c = node[i];
		int end = node[i + 1] == '\0' || node[i + 1] == '\\';

		if (c == '\\') {
			if (n == 0)
				return 0;
			n = 0;
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
		           c == '_' || (c == '.' && n > 0 && !end)) {
			n++;
		} else {
			return 0;
		}
	}
	return n > 0 && i < 200;
}

/* One plain node: as sbat_partition_resolve finds it. */
static void
check_plain(const char *node, sbat_partition_miss miss, const char *found)
{
	char *other = NULL;
	sbat_partition_miss m = sbat_partition_resolve(root, node, 0, &other);

	/* a FIFO on the way: refused where it is met, or as the parent of the next name */
	if (miss == SBAT_PARTITION_NOT_REGULAR && m == SBAT_PARTITION_PARENT_NOT_DIR)
		m = miss;
	if (miss == SBAT_PARTITION_IS_DIRECTORY ? m != SBAT_PARTITION_NOT_REGULAR : m != miss)
		fail("a plain path that sbat_partition_resolve finds otherwise");
	if (found && strcmp(found, other) != 0)
		fail("a plain path that sbat_partition_resolve finds elsewhere");
	free(other);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *nodes, *path = (char *)"unset";
	size_t n_nodes = 1, i;
	sbat_partition_miss miss;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	for (i = 0; i < size; i++)
		n_nodes += data[i] == 0;
	if (n_nodes > FUZZ_MAX_NODES)
		return 0;
	make_tree();
	nodes = malloc(size + 1);
	if (!nodes)
		return 0;
	if (size)
		memcpy(nodes, data, size);
	nodes[size] = '\0';
	miss = sbat_partition_resolve_uefi(root, nodes, n_nodes, &path);
	if (miss > SBAT_PARTITION_IS_DIRECTORY || (miss == SBAT_PARTITION_FOUND) != (path != NULL))
		fail("a result out of range, or a path exactly when nothing is found");
	if (path)
		check_found(path);
	if (n_nodes == 1 && plain(nodes))
		check_plain(nodes, miss, path);
	free(path);
	free(nodes);
	return 0;
}
