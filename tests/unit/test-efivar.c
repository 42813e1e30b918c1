/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-efivar.c - sbat_efivar_read: variables from a copy of efivarfs, missing ones apart from broken ones */
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

#include "sbat/efivar.h"

#define SB "SecureBoot-" SBAT_EFIVAR_GLOBAL_GUID

static char dir[4096];

static void
put(const char *name, const void *data, size_t len)
{
	char p[8192];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static int
setup(void **state)
{
	char p[8192];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/sbat-efivar-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(dir));
	put(SB, "\x06\0\0\0\x01", 5);
	put("SetupMode-" SBAT_EFIVAR_GLOBAL_GUID, "\x06\0\0\0\x00\x00", 6);
	put("PK-" SBAT_EFIVAR_GLOBAL_GUID, "\x06\0\0\0", 4);
	put("Short-" SBAT_EFIVAR_GLOBAL_GUID, "\x06\0", 2);
	snprintf(p, sizeof(p), "%s/Link-" SBAT_EFIVAR_GLOBAL_GUID, dir);
	assert_int_equal(symlink(SB, p), 0);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[8300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_read(void **state)
{
	uint8_t *buf;
	size_t len;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_efivar_read(dir, SB, 0, &buf, &len, &d), SBAT_OK);
	assert_non_null(buf);
	assert_int_equal(len, 5);
	assert_int_equal(buf[4], 1);
	free(buf);
	/* missing is not an error: the caller says "not known" */
	assert_int_equal(sbat_efivar_read(dir, "Nope-" SBAT_EFIVAR_GLOBAL_GUID, 0, &buf, &len, &d), SBAT_OK);
	assert_null(buf);
	/* empty data is a variable all the same */
	assert_int_equal(sbat_efivar_read(dir, "PK-" SBAT_EFIVAR_GLOBAL_GUID, 0, &buf, &len, &d), SBAT_OK);
	assert_non_null(buf);
	assert_int_equal(len, 4);
	free(buf);
	assert_int_equal(sbat_efivar_read(dir, "Short-" SBAT_EFIVAR_GLOBAL_GUID, 0, &buf, &len, &d), SBAT_E_EFIVAR);
	assert_null(buf);
	assert_true(d.has_offset);
	assert_int_equal(d.offset, 0);
	/* a link is not followed */
	assert_int_equal(sbat_efivar_read(dir, "Link-" SBAT_EFIVAR_GLOBAL_GUID, 0, &buf, &len, &d), SBAT_E_NOT_REGULAR);
	assert_null(buf);
	/* over the size asked for */
	assert_int_equal(sbat_efivar_read(dir, SB, 4, &buf, &len, &d), SBAT_E_TOO_BIG);
	assert_null(buf);
}

static void
test_read_byte(void **state)
{
	sbat_diag d;
	int v;

	(void)state;
	assert_int_equal(sbat_efivar_read_byte(dir, SB, 1, &v, &d), SBAT_OK);
	assert_int_equal(v, 1);
	assert_int_equal(sbat_efivar_read_byte(dir, "Nope-" SBAT_EFIVAR_GLOBAL_GUID, 1, &v, &d), SBAT_OK);
	assert_int_equal(v, -1);
	/* two data bytes: the first when not exact, an error when exact */
	assert_int_equal(sbat_efivar_read_byte(dir, "SetupMode-" SBAT_EFIVAR_GLOBAL_GUID, 0, &v, &d), SBAT_OK);
	assert_int_equal(v, 0);
	assert_int_equal(sbat_efivar_read_byte(dir, "SetupMode-" SBAT_EFIVAR_GLOBAL_GUID, 1, &v, &d), SBAT_E_EFIVAR);
	assert_int_equal(d.offset, 4);
	assert_int_equal(v, -1);
	/* no data byte at all */
	assert_int_equal(sbat_efivar_read_byte(dir, "PK-" SBAT_EFIVAR_GLOBAL_GUID, 0, &v, &d), SBAT_E_EFIVAR);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_read_byte),
	};

	return run_group(tests, setup, teardown);
}
