/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-fallback.c - sbat_fallback_find: the entry shim's fallback makes from a BOOT CSV, ESP by ESP */
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

#include "sbat/fallback.h"

#define X64 0x8664
#define AA64 0xaa64

/* One ESP: up to four files "DIR/NAME" with text (written as UCS-2 with a BOM unless it starts with '!'). */
typedef struct fcase {
	const char *name;
	uint16_t machine;
	const char *files[4][2];
	sbat_fallback_result result;
	const char *path, *args; /* with ENTRY */
} fcase;

static const fcase cases[] = {
	{ "one vendor CSV",
	  X64,
	  { { "debian/BOOTX64.CSV", "shimx64.efi,debian,,This is the boot entry\n" } },
	  SBAT_FALLBACK_ENTRY,
	  "\\EFI\\debian\\shimx64.efi",
	  "" },
	{ "arguments become load options",
	  X64,
	  { { "debian/bootx64.csv", "shimx64.efi,debian,\\grubx64.efi -v,x\n" } },
	  SBAT_FALLBACK_ENTRY,
	  "\\EFI\\debian\\shimx64.efi",
	  "\\grubx64.efi -v" },
	{ "BOOT.CSV when there is no BOOT{ARCH}.CSV",
	  X64,
	  { { "fedora/BOOT.CSV", "shim.efi,Fedora\n" } },
	  SBAT_FALLBACK_ENTRY,
	  "\\EFI\\fedora\\shim.efi",
	  "" },
	{ "the arch is the fallback's",
	  AA64,
	  { { "debian/BOOTX64.CSV", "shimx64.efi,debian\n" }, { "debian/BOOTAA64.CSV", "shimaa64.efi,debian\n" } },
	  SBAT_FALLBACK_ENTRY,
	  "\\EFI\\debian\\shimaa64.efi",
	  "" },
	{ "\\EFI\\BOOT's own CSV does not count",
	  X64,
	  { { "BOOT/BOOTX64.CSV", "x.efi,x\n" } },
	  SBAT_FALLBACK_NO_CSV,
	  NULL,
	  NULL },
	{ "no CSV anywhere", X64, { { "debian/grub.cfg", "!set x=1\n" } }, SBAT_FALLBACK_NO_CSV, NULL, NULL },
	{ "two vendors",
	  X64,
	  { { "debian/BOOTX64.CSV", "shimx64.efi,debian\n" }, { "fedora/BOOTX64.CSV", "shimx64.efi,fedora\n" } },
	  SBAT_FALLBACK_SEVERAL,
	  NULL,
	  NULL },
	{ "an empty label is refused",
	  X64,
	  { { "debian/BOOTX64.CSV", "shimx64.efi,,x\n" } },
	  SBAT_FALLBACK_UNREADABLE,
	  NULL,
	  NULL },
	{ "blank lines before the first stanza",
	  X64,
	  { { "debian/BOOTX64.CSV", "\r\n\r\nshimx64.efi,debian\n" } },
	  SBAT_FALLBACK_ENTRY,
	  "\\EFI\\debian\\shimx64.efi",
	  "" },
};

static char root[4096];

/* Write text as UCS-2 little-endian with a BOM, or as it is after a leading '!'. */
static void
put(const char *rel, const char *text)
{
	char p[8192], dir[8192];
	FILE *f;
	size_t i;

	snprintf(dir, sizeof(dir), "%s/EFI/%.*s", root, (int)(strchr(rel, '/') - rel), rel);
	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/EFI/%s", root, rel);
	f = fopen(p, "wb");
	assert_non_null(f);
	if (text[0] == '!') {
		fputs(text + 1, f);
	} else {
		fputc(0xff, f);
		fputc(0xfe, f);
		for (i = 0; text[i]; i++) {
			fputc(text[i], f);
			fputc(0, f);
		}
	}
	fclose(f);
}

static void
run_case(const fcase *c)
{
	char cmd[8300], efi[4200];
	sbat_fallback_entry e;
	sbat_fallback_result r;
	size_t i;

	snprintf(root, sizeof(root), "%s/sbat-fb-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	snprintf(efi, sizeof(efi), "%s/EFI", root);
	assert_int_equal(mkdir(efi, 0755), 0);
	for (i = 0; i < 4 && c->files[i][0]; i++)
		put(c->files[i][0], c->files[i][1]);
	memset(&e, 0, sizeof(e));
	r = sbat_fallback_find(root, c->machine, &e);
	print_message("# %s: %s %s\n", c->name, sbat_fallback_result_name(r), r == SBAT_FALLBACK_ENTRY ? e.path : "");
	assert_int_equal(r, c->result);
	if (c->path) {
		assert_string_equal(e.path, c->path);
		assert_int_equal(e.args_len, c->args[0] ? 2 * strlen(c->args) + 2 : 0);
		for (i = 0; c->args[i]; i++) {
			assert_int_equal(e.args[2 * i], (uint8_t)c->args[i]);
			assert_int_equal(e.args[2 * i + 1], 0);
		}
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

static void
test_fallback_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

static void
test_fallback_path(void **state)
{
	char p[64];

	(void)state;
	sbat_fallback_path(X64, p, sizeof(p));
	assert_string_equal(p, "\\EFI\\BOOT\\fbx64.efi");
	sbat_fallback_path(AA64, p, sizeof(p));
	assert_string_equal(p, "\\EFI\\BOOT\\fbaa64.efi");
	sbat_fallback_path(0x5064, p, sizeof(p));
	assert_string_equal(p, "\\EFI\\BOOT\\fbriscv64.efi");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fallback_table),
		cmocka_unit_test(test_fallback_path),
	};

	return run_group(tests, NULL, NULL);
}
