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
	make("EFI/debian/caf\xc3\xa9.efi", 0);
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

/* One row per rule of EDK2's FAT driver and boot manager (sbat_partition_resolve_uefi). */
typedef struct ucase {
	const char *nodes; /* n NUL-terminated File() paths, one after another */
	size_t n;
	sbat_partition_miss miss;
	const char *found;
} ucase;

static const ucase ucases[] = {
	/* FatLocateOFile: a leading '\\' starts at the root; without one the root is where the volume opens */
	{ "\\EFI\\debian\\shimx64.efi", 1, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "EFI\\debian\\shimx64.efi", 1, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	/* FatSearchODir + EngStriColl: ASCII and Latin-1 letters in any case */
	{ "\\efi\\DEBIAN\\SHIMX64.EFI", 1, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "\\EFI\\DEBIAN\\CAF\xc3\x89.EFI", 1, SBAT_PARTITION_FOUND, "/EFI/debian/caf\xc3\xa9.efi" },
	/* FatGetNextNameComponent splits at '\\' only; FatFileNameIsValid refuses '/' */
	{ "/EFI/debian/shimx64.efi", 1, SBAT_PARTITION_SLASH, NULL },
	{ "\\EFI\\debian/shimx64.efi", 1, SBAT_PARTITION_SLASH, NULL },
	/* runs of '\\' after a name are one; an empty name right after the leading '\\' ends the path: the root */
	{ "\\EFI\\\\debian\\\\\\shimx64.efi", 1, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "\\\\EFI\\debian\\shimx64.efi", 1, SBAT_PARTITION_IS_DIRECTORY, NULL },
	/* a trailing '\\' asks for a directory */
	{ "\\EFI\\debian\\shimx64.efi\\", 1, SBAT_PARTITION_NOT_DIRECTORY, NULL },
	{ "\\EFI\\debian\\", 1, SBAT_PARTITION_IS_DIRECTORY, NULL },
	/* "." is skipped, ".." goes up (from a file too), and is refused in the root */
	{ "\\EFI\\.\\debian\\shimx64.efi\\.", 1, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "\\EFI\\..\\EFI\\debian\\shimx64.efi", 1, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "\\EFI\\debian\\shimx64.efi\\..\\grub.cfg", 1, SBAT_PARTITION_FOUND, "/EFI/debian/grub.cfg" },
	{ "\\..\\EFI\\debian\\shimx64.efi", 1, SBAT_PARTITION_ABOVE_ROOT, NULL },
	/* FatFileNameIsValid: leading blanks, trailing blanks and dots cut; nothing left; forbidden characters */
	{ "\\EFI\\ debian\\shimx64.efi. .", 1, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "\\EFI\\...\\shimx64.efi", 1, SBAT_PARTITION_EMPTY_NAME, NULL },
	{ "\\EFI\\deb:ian\\shimx64.efi", 1, SBAT_PARTITION_BAD_CHAR, NULL },
	{ "\\EFI\\debian\\shim*.efi", 1, SBAT_PARTITION_BAD_CHAR, NULL },
	/* FatLocateOFile: an empty path; a name below a file; a name not there */
	{ "", 1, SBAT_PARTITION_EMPTY_NODE, NULL },
	{ "\\EFI\\debian\\grub.cfg\\x", 1, SBAT_PARTITION_PARENT_NOT_DIR, NULL },
	{ "\\EFI\\fedora\\shimx64.efi", 1, SBAT_PARTITION_MISSING, NULL },
	/* GetFileBufferByFilePath: a directory is not read; each node opens from the one before */
	{ "\\EFI\\debian", 1, SBAT_PARTITION_IS_DIRECTORY, NULL },
	{ "\\EFI\\debian\0shimx64.efi", 2, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "\\EFI\0debian\\\0shimx64.efi", 3, SBAT_PARTITION_FOUND, "/EFI/debian/shimx64.efi" },
	{ "\\EFI\\debian\0\\shimx64.efi", 2, SBAT_PARTITION_MISSING, NULL },
	{ "\\EFI\\debian\\shimx64.efi\0grub.cfg", 2, SBAT_PARTITION_PARENT_NOT_DIR, NULL },
	{ "\\EFI\\debian\0", 2, SBAT_PARTITION_EMPTY_NODE, NULL },
	/* what a FAT file system has not: links */
	{ "\\EFI\\debian\\link.efi", 1, SBAT_PARTITION_SYMLINK, NULL },
	{ "\\EFI\\linkdir\\shimx64.efi", 1, SBAT_PARTITION_SYMLINK, NULL },
};

static void
check_uefi(const char *nodes, size_t n, sbat_partition_miss want, const char *found)
{
	char *out = (char *)1;
	sbat_partition_miss m = sbat_partition_resolve_uefi(root, nodes, n, &out);

	print_message("# %s (%zu nodes): %s\n", nodes, n, sbat_partition_miss_name(m));
	assert_int_equal(m, want);
	if (found) {
		assert_non_null(out);
		assert_memory_equal(out, root, strlen(root));
		assert_string_equal(out + strlen(root), found);
	} else {
		assert_null(out);
	}
	free(out);
}

static void
test_uefi_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ucases) / sizeof(ucases[0]); i++)
		check_uefi(ucases[i].nodes, ucases[i].n, ucases[i].miss, ucases[i].found);
}

/* FatFileNameIsValid: at most 255 characters a name; FatLocateOFile: at most 260 the path, "X:" and NUL counted. */
static void
test_uefi_lengths(void **state)
{
	char p[600];

	(void)state;
	memset(p, 0, sizeof(p));
	p[0] = '\\';
	memset(p + 1, 'a', 256);
	check_uefi(p, 1, SBAT_PARTITION_NAME_TOO_LONG, NULL);
	p[256] = '\0'; /* 255: a valid name, not there */
	check_uefi(p, 1, SBAT_PARTITION_MISSING, NULL);
	memcpy(p, "\\EFI\\", 5);
	memset(p + 5, 'a', 252); /* 2 + 1 + 256 + 1 = 260 */
	p[257] = '\0';
	check_uefi(p, 1, SBAT_PARTITION_MISSING, NULL);
	p[257] = 'a';
	p[258] = '\0';
	check_uefi(p, 1, SBAT_PARTITION_PATH_TOO_LONG, NULL);
	/* the directory a node opens from counts: "\\EFI" then 253 more */
	memcpy(p, "\\EFI\0", 5);
	memset(p + 5, 'a', 253);
	p[258] = '\0';
	check_uefi(p, 2, SBAT_PARTITION_PATH_TOO_LONG, NULL);
	p[257] = '\0';
	check_uefi(p, 2, SBAT_PARTITION_MISSING, NULL);
}

static void
test_miss_names(void **state)
{
	(void)state;
	assert_string_equal(sbat_partition_miss_name(SBAT_PARTITION_SYMLINK), "symlink");
	assert_string_equal(sbat_partition_miss_name(SBAT_PARTITION_TOO_LONG), "too-long");
	assert_string_equal(sbat_partition_miss_name(SBAT_PARTITION_SLASH), "slash");
	assert_string_equal(sbat_partition_miss_name(SBAT_PARTITION_IS_DIRECTORY), "is-directory");
	assert_string_equal(sbat_partition_miss_name((sbat_partition_miss)99), "unknown");
}

/* The mount lookups: not there is SBAT_OK with an empty answer, a directory that does not read a failure. */
static void
test_mount_lookups(void **state)
{
	char mnt[256] = "x", mroot[256] = "x", guid[64] = "x";
	char *mounted = (char *)"x";
	int fat = -1;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_partition_mount_of_uuid("no-such-uuid-0000", mnt, sizeof(mnt), mroot, sizeof(mroot), &d),
	                 SBAT_OK);
	assert_string_equal(mnt, "");
	assert_string_equal(mroot, "");
	assert_int_equal(sbat_partition_mount_of_partuuid("00000000-0000-0000-0000-000000000000", &mounted, &d),
	                 SBAT_OK);
	assert_null(mounted);
	assert_int_equal(sbat_partition_is_fat_mount("/no/such/mount/point", &fat, &d), SBAT_OK);
	assert_int_equal(fat, 0);
	assert_int_equal(sbat_partition_guid_of("/no/such/directory", guid, sizeof(guid), &d), SBAT_E_IO);
	assert_string_equal(guid, "");
	assert_int_equal(sbat_partition_mount_of_uuid("u", mnt, 0, mroot, sizeof(mroot), &d), SBAT_E_IO);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resolve_table), cmocka_unit_test(test_uefi_table),
		cmocka_unit_test(test_uefi_lengths),  cmocka_unit_test(test_miss_names),
		cmocka_unit_test(test_mount_lookups),
	};

	return run_group(tests, setup, teardown);
}
