/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-tree.h - a scratch tree for the tests that build ESPs and efivarfs
 * snapshots (test-walk, test-sdboot): `base`, made by tree_setup and
 * removed with everything below it by tree_teardown, and put() to write a
 * file below a root, making its directories. Include after cmocka.h. */
#ifndef SBAT_TEST_TREE_H
#define SBAT_TEST_TREE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char base[1024];

/* A fresh directory $TMPDIR/NAME-XXXXXX as base: 0, or -1. */
static inline int
tree_setup(const char *name)
{
	snprintf(base, sizeof(base), "%s/%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name);
	return mkdtemp(base) ? 0 : -1;
}

static inline int
tree_teardown(void)
{
	char cmd[sizeof(base) + 64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

/* Write len bytes (len 0: the text's length) to rel below root, making its directories. */
static inline void
put(const char *root, const char *rel, const void *data, size_t len)
{
	char p[8192];
	char *s;
	FILE *f;

	assert_true((size_t)snprintf(p, sizeof(p), "%s/%s", root, rel) < sizeof(p));
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		assert_true(mkdir(p, 0755) == 0 || access(p, F_OK) == 0);
		*s = '/';
	}
	f = fopen(p, "wb");
	assert_non_null(f);
	if (!len)
		len = strlen(data);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

#endif
