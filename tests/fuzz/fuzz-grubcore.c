/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-grubcore.c - libFuzzer harness: GRUB's core image objects, its memdisk, grub.cfg's file tests */

/*
 * Input: byte 0 chooses what the rest is: bits 0-1 0 a "mods" section
 * (bit 2: 64-bit) read by grubcore_read, its memdisk (when it has one)
 * then looked up as below; 1 a memdisk (tar or FAT) looked up at a few
 * paths; 2 a grub.cfg run by grubcfg_parse with file tests answered from
 * the path's bytes; 3 all three on the same bytes.
 *
 * These must hold, or the harness aborts:
 *  - grubcore_read: a failure is SBAT_E_BOOTCFG at an offset inside the
 *    section or at its end; on success the configuration and memdisk lie
 *    inside it, the configuration has no NUL, the prefix ends in its NUL;
 *  - memdisk_lookup: a failure is SBAT_E_BOOTCFG, SBAT_E_TOO_BIG or
 *    SBAT_E_NOMEM and finds nothing; a file is found with at most the size
 *    asked for; the same lookup without its bytes finds the same kind; a
 *    tar member's bytes lie in the input;
 *  - grubcfg_parse: succeeds (the input is below its limit); a file handed
 *    over to has a device, or a why.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/grubcfg.h"
#include "boot/grubcore.h"
#include "boot/memdisk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (256u * 1024u)

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-grubcore: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

/* 1 when needle[0..n) is somewhere in hay[0..len). */
static int
inside(const uint8_t *hay, size_t len, const uint8_t *needle, size_t n)
{
	size_t i;

	if (n == 0)
		return 1;
	for (i = 0; n <= len && i <= len - n; i++)
		if (memcmp(hay + i, needle, n) == 0)
			return 1;
	return 0;
}

static void
check_lookup(const uint8_t *disk, size_t len, const char *path)
{
	enum memdisk_found found, again;
	uint8_t *buf = NULL;
	size_t n = 0, max = 4096;
	sbat_err err = memdisk_lookup(disk, len, path, max, &found, &buf, &n, NULL);
	int is_tar = len >= 512 && memcmp(disk + 257, "ustar", 5) == 0;

	if (err != SBAT_OK) {
		if ((err != SBAT_E_BOOTCFG && err != SBAT_E_TOO_BIG && err != SBAT_E_NOMEM) || buf)
			fail("a failed lookup of an unexpected kind, or one that left bytes");
		return;
	}
	if (found != MEMDISK_MISSING && found != MEMDISK_FILE && found != MEMDISK_DIR)
		fail("a lookup found something that is none of its kinds");
	if ((found == MEMDISK_FILE) != (buf != NULL) || n > max)
		fail("a file without its bytes, bytes without a file, or more than asked for");
	if (found == MEMDISK_FILE && is_tar && !inside(disk, len, buf, n))
		fail("a tar member's bytes that are not in the memdisk");
	if (memdisk_lookup(disk, len, path, max, &again, NULL, NULL, NULL) != SBAT_OK || again != found)
		fail("the same lookup without its bytes finds something else");
	free(buf);
}

static void
lookups(const uint8_t *disk, size_t len)
{
	static const char *const paths[] = { "/grub.cfg", "/boot/grub/grub.cfg", "/boot", "/BOOT/GRUB-L~1.CFG", "/",
		                             "a/./b//c" };
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		check_lookup(disk, len, paths[i]);
}

static void
check_core(const uint8_t *mods, size_t len, int is64)
{
	grubcore c;
	sbat_diag d;
	sbat_err err = grubcore_read(mods, len, is64, &c, &d);

	if (err != SBAT_OK) {
		if (err != SBAT_E_BOOTCFG || !d.has_offset || d.offset > len)
			fail("a failure that is not SBAT_E_BOOTCFG at an offset in the section");
		return;
	}
	if (c.config && (c.config < mods || c.config_len > len || c.config - mods > (ptrdiff_t)(len - c.config_len) ||
	                 memchr(c.config, '\0', c.config_len)))
		fail("a configuration outside the section, or with a NUL");
	if (c.memdisk &&
	    (c.memdisk < mods || c.memdisk_len > len || c.memdisk - mods > (ptrdiff_t)(len - c.memdisk_len)))
		fail("a memdisk outside the section");
	if (!memchr(c.prefix, '\0', sizeof(c.prefix)) || (!c.has_prefix && c.prefix[0]))
		fail("a prefix without its NUL, or one that is not there");
	if (c.memdisk)
		lookups(c.memdisk, c.memdisk_len);
}

/* A file test's answer from the path's first byte. */
static enum grubcfg_kind
kind(void *ctx, const char *device, const char *path)
{
	(void)ctx;
	if (!device || !path)
		fail("a file test without its device or path");
	return (enum grubcfg_kind)((unsigned char)path[0] % 4) - 1;
}

static void
check_cfg(const uint8_t *text, size_t len)
{
	grubcfg_opts o;
	sbat_grub_cfg *cfg = NULL;
	sbat_err err;

	memset(&o, 0, sizeof(o));
	o.root_device = "esp:";
	o.prefix_path = "/EFI/debian";
	o.cmd_device = "esp:";
	o.cmd_path = "/EFI/BOOT";
	o.memdisk = 1;
	o.exists = kind;
	err = grubcfg_parse(text, len, &o, &cfg, NULL);
	if (err == SBAT_E_NOMEM)
		return;
	if (err != SBAT_OK || !cfg)
		fail("a grub.cfg below the limit that does not parse");
	if (cfg->next_command && (cfg->next_config.path ? !cfg->next_config.device : !cfg->next_config.why))
		fail("a file handed over to without a device, or without a why");
	sbat_grub_cfg_free(cfg);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned op;

	if (size == 0 || size - 1 > MAX_INPUT)
		return 0;
	op = data[0];
	if ((op & 3) == 0 || (op & 3) == 3)
		check_core(data + 1, size - 1, (op & 4) != 0);
	if ((op & 3) == 1 || (op & 3) == 3)
		lookups(data + 1, size - 1);
	if ((op & 3) == 2 || (op & 3) == 3)
		check_cfg(data + 1, size - 1);
	return 0;
}
