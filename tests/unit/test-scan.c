/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-scan.c - sbat_scan: the PE images under a directory, links and special files passed over */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/scan.h"

static char root[4096];

/* What the callbacks saw, in order. */
typedef struct seen {
	char names[16][256];
	size_t n;
	size_t n_unreadable;
} seen;

static void
put(const char *rel, const char *text)
{
	char p[8192];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
mkdir_in(const char *rel)
{
	char p[8192];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void
link_in(const char *target, const char *rel)
{
	char p[8192];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
}

static sbat_scan_result
on_candidate(void *ctx, const char *path, int fd)
{
	seen *s = ctx;
	char two[2];

	/* the descriptor is the file's, positioned anywhere: read it from the start */
	assert_int_equal(pread(fd, two, 2, 0), 2);
	assert_memory_equal(two, "MZ", 2);
	assert_true(s->n < 16);
	snprintf(s->names[s->n++], sizeof(s->names[0]), "%s", path + strlen(root));
	return strstr(path, "notpe") ? SBAT_SCAN_NOT_PE : SBAT_SCAN_JUDGED;
}

static void
on_unreadable(void *ctx, const char *path, const sbat_diag *d)
{
	(void)path;
	(void)d;
	((seen *)ctx)->n_unreadable++;
}

static int
setup(void **state)
{
	char p[8192];

	(void)state;
	snprintf(root, sizeof(root), "%s/sbat-scan-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	mkdir_in("EFI");
	mkdir_in("EFI/b");
	put("EFI/b/shimx64.efi", "MZ image");
	put("EFI/b/notpe.efi", "MZ but not judged as one");
	put("EFI/b/readme.txt", "text");
	put("EFI/a.efi", "MZ first by name");
	link_in("b/shimx64.efi", "EFI/link.efi");
	link_in("b", "EFI/linkdir");
	snprintf(p, sizeof(p), "%s/EFI/fifo", root);
	assert_int_equal(mkfifo(p, 0600), 0);
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

static void
test_scan_finds_images_in_name_order(void **state)
{
	sbat_scan *sc = NULL;
	sbat_diag d;
	seen s = { 0 };
	sbat_scan_counts c;

	(void)state;
	assert_int_equal(sbat_scan_new(on_candidate, on_unreadable, &s, &sc, &d), SBAT_OK);
	assert_int_equal(sbat_scan_dir(sc, root), SBAT_OK);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.names[0], "/EFI/a.efi");
	assert_string_equal(s.names[1], "/EFI/b/notpe.efi");
	assert_string_equal(s.names[2], "/EFI/b/shimx64.efi");
	c = sbat_scan_get_counts(sc);
	assert_int_equal(c.n_symlinks, 2);
	/* readme.txt, the FIFO (never opened for reading, so never waited on) and notpe.efi */
	assert_int_equal(c.n_not_pe, 3);
	assert_int_equal(c.n_dirs, 3);
	assert_int_equal(s.n_unreadable, 0);
	sbat_scan_free(sc);
}

static void
test_scan_does_not_rescan_a_directory(void **state)
{
	char sub[8192];
	sbat_scan *sc = NULL;
	sbat_diag d;
	seen s = { 0 };

	(void)state;
	snprintf(sub, sizeof(sub), "%s/EFI/b", root);
	assert_int_equal(sbat_scan_new(on_candidate, on_unreadable, &s, &sc, &d), SBAT_OK);
	assert_int_equal(sbat_scan_dir(sc, root), SBAT_OK);
	assert_int_equal(sbat_scan_dir(sc, sub), SBAT_OK);
	assert_int_equal(s.n, 3);
	/* after a reset the same directory is scanned again, from zero counts */
	sbat_scan_reset(sc);
	assert_int_equal(sbat_scan_get_counts(sc).n_dirs, 0);
	assert_int_equal(sbat_scan_dir(sc, sub), SBAT_OK);
	assert_int_equal(s.n, 5);
	assert_int_equal(sbat_scan_get_counts(sc).n_dirs, 1);
	sbat_scan_free(sc);
}

static void
test_scan_reports_a_missing_directory(void **state)
{
	char gone[8192];
	sbat_scan *sc = NULL;
	sbat_diag d;
	seen s = { 0 };

	(void)state;
	snprintf(gone, sizeof(gone), "%s/no-such-dir", root);
	assert_int_equal(sbat_scan_new(on_candidate, on_unreadable, &s, &sc, &d), SBAT_OK);
	sbat_scan_dir(sc, gone);
	assert_int_equal(s.n_unreadable, 1);
	assert_int_equal(s.n, 0);
	sbat_scan_free(sc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_finds_images_in_name_order),
		cmocka_unit_test(test_scan_does_not_rescan_a_directory),
		cmocka_unit_test(test_scan_reports_a_missing_directory),
	};

	return run_group(tests, setup, teardown);
}
