/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-partition.c - sbat_partition_resolve: a path on a mounted partition named as the firmware names it */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/partition.h"

static char root[4096];

static void
make(const char *rel, int dir)
{
	char p[8192];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (dir) {
		assert_int_equal(mkdir(p, 0755), 0);
		return;
	}
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("MZ", f);
	fclose(f);
}

static int
setup(void **state)
{
	char p[8192];

	(void)state;
	snprintf(root, sizeof(root), "%s/sbat-part-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	make("EFI", 1);
	make("EFI/debian", 1);
	make("EFI/debian/shimx64.efi", 0);
	make("EFI/debian/grub.cfg", 0);
	snprintf(p, sizeof(p), "%s/EFI/debian/link.efi", root);
	assert_int_equal(symlink("shimx64.efi", p), 0);
	snprintf(p, sizeof(p), "%s/EFI/linkdir", root);
	assert_int_equal(symlink("debian", p), 0);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[8300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

typedef struct rcase {
	const char *path;
	unsigned flags;
	sbat_partition_miss miss;
	const char *found; /* below root, with FOUND */
} rcase;

static const rcase cases[] = {
	{ "\\EFI\\debian\\shimx64.efi", 0, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "\\efi\\DEBIAN\\SHIMX64.EFI", 0, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "/EFI/debian//shimx64.efi", 0, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "\\efi\\debian\\shimx64.efi", SBAT_PARTITION_EXACT, SBAT_PARTITION_MISSING, NULL },
	{ "\\EFI\\debian\\link.efi", 0, SBAT_PARTITION_SYMLINK, NULL },
	{ "\\EFI\\linkdir\\shimx64.efi", 0, SBAT_PARTITION_SYMLINK, NULL },
	{ "\\EFI\\..\\EFI\\debian\\shimx64.efi", 0, SBAT_PARTITION_DOT, NULL },
	{ "\\EFI\\debian", 0, SBAT_PARTITION_NOT_REGULAR, NULL },
	{ "\\EFI\\debian\\", SBAT_PARTITION_DIR, SBAT_PARTITION_FOUND, "/EFI/debian" },
	{ "\\EFI\\debian\\grub.cfg", SBAT_PARTITION_DIR, SBAT_PARTITION_NOT_DIRECTORY, NULL },
	{ "\\EFI\\debian\\grub.cfg\\x", 0, SBAT_PARTITION_PARENT_NOT_DIR, NULL },
	{ "\\EFI\\fedora\\shimx64.efi", 0, SBAT_PARTITION_MISSING, NULL },
	{ "", SBAT_PARTITION_DIR, SBAT_PARTITION_FOUND, "" },
	{ "", 0, SBAT_PARTITION_MISSING, NULL },
};

static void
test_resolve_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out = (char *)1;
		sbat_partition_miss m = sbat_partition_resolve(root, cases[i].path, cases[i].flags, &out);

		print_message("# %s (flags %u): %s\n", cases[i].path, cases[i].flags, sbat_partition_miss_name(m));
		assert_int_equal(m, cases[i].miss);
		if (cases[i].found) {
			assert_non_null(out);
			assert_memory_equal(out, root, strlen(root));
			assert_string_equal(out + strlen(root), cases[i].found);
		} else {
			assert_null(out);
		}
		free(out);
	}
}

static void
test_miss_names(void **state)
{
	(void)state;
	assert_string_equal(sbat_partition_miss_name(SBAT_PARTITION_SYMLINK), "symlink");
	assert_string_equal(sbat_partition_miss_name(SBAT_PARTITION_TOO_LONG), "too-long");
	assert_string_equal(sbat_partition_miss_name((sbat_partition_miss)99), "unknown");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_table),
		cmocka_unit_test(test_miss_names),
	};

	return run_group(tests, setup, teardown);
}
