/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-grubcore.c - GRUB's core image objects, its memdisk (tar and FAT), and grub.cfg run with files known */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/grubcfg.h"
#include "boot/grubcore.h"
#include "boot/memdisk.h"
#include "fixture.h"

/* ------------------------------------------------ the mods section */

/* A module info (64-bit or 32-bit) and objects (type, text with its NUL) into out; the section's length. */
static size_t
mods(uint8_t *out, size_t cap, int is64, const uint32_t *types, const char *const *texts, unsigned n)
{
	size_t at = is64 ? 24 : 12, align = is64 ? 8 : 4, i;

	memset(out, 0, cap);
	memcpy(out, "mimg", 4);
	fx_put32(out + (is64 ? 8 : 4), (uint32_t)at);
	for (i = 0; i < n; i++) {
		size_t len = strlen(texts[i]) + 1;

		assert_true(at + 8 + len + align <= cap);
		fx_put32(out + at, types[i]);
		fx_put32(out + at + 4, (uint32_t)(8 + len));
		memcpy(out + at + 8, texts[i], len);
		at += (8 + len + align - 1) / align * align;
	}
	fx_put32(out + (is64 ? 16 : 8), (uint32_t)at);
	return at + 16; /* the section is longer than its objects, as a section's file alignment makes it */
}

static void
test_objects(void **state)
{
	static const uint32_t types[] = { 0, 3, 2, 1, 2, 3 };
	static const char *const texts[] = { "elf",  "/first", "normal (memdisk)/grub.cfg\n",
		                             "disk", "second", "/EFI/debian" };
	uint8_t buf[512];
	grubcore c;
	sbat_diag d;
	size_t n;
	int is64;

	(void)state;
	for (is64 = 0; is64 < 2; is64++) {
		n = mods(buf, sizeof(buf), is64, types, texts, 6);
		assert_int_equal(grubcore_read(buf, n, is64, &c, &d), SBAT_OK);
		assert_int_equal(c.n_objects, 6);
		assert_true(c.has_prefix);
		assert_string_equal(c.prefix, "/EFI/debian"); /* the last one, as kern/main.c takes it */
		assert_int_equal(c.config_len, strlen(texts[2]));
		assert_memory_equal(c.config, texts[2], c.config_len); /* the first one */
		assert_int_equal(c.memdisk_len, 5);
		assert_memory_equal(c.memdisk, "disk", 5);
	}
	assert_false(c.fw_path_first);
	/* a module naming fw_path beside %s/grub.cfg (normal.mod of Fedora and Debian 2.12): $fw_path first */
	{
		static const uint32_t elf[] = { 0, 0 };
		static const char *const normal[] = { "fw_path", "fw_path %s/grub.cfg" };

		n = mods(buf, sizeof(buf), 1, elf, normal, 2);
		assert_int_equal(grubcore_read(buf, n, 1, &c, &d), SBAT_OK);
		assert_false(c.fw_path_first); /* not both in one module, with their NULs */
		buf[24 + 16 + 8 + 7] = '\0';   /* the second: "fw_path\0%s/grub.cfg\0" */
		assert_int_equal(grubcore_read(buf, n, 1, &c, &d), SBAT_OK);
		assert_true(c.fw_path_first);
	}
	/* no objects at all */
	n = mods(buf, sizeof(buf), 1, types, texts, 0);
	assert_int_equal(grubcore_read(buf, n, 1, &c, &d), SBAT_OK);
	assert_false(c.has_prefix);
	assert_null(c.config);
	assert_null(c.memdisk);
}

static void
test_objects_malformed(void **state)
{
	static const uint32_t types[] = { 3 };
	static const char *const texts[] = { "/EFI/debian" };
	uint8_t buf[256];
	grubcore c;
	sbat_diag d;
	size_t n = mods(buf, sizeof(buf), 1, types, texts, 1);

	(void)state;
	assert_int_equal(grubcore_read(buf, 3, 1, &c, &d), SBAT_E_BOOTCFG);  /* cut inside the magic */
	assert_int_equal(grubcore_read(buf, 20, 1, &c, &d), SBAT_E_BOOTCFG); /* cut inside the module info */
	buf[0] = 'x';
	assert_int_equal(grubcore_read(buf, n, 1, &c, &d), SBAT_E_BOOTCFG);
	assert_non_null(strstr(d.what, "mimg"));
	buf[0] = 'm';
	fx_put32(buf + 16, (uint32_t)n + 1); /* the objects end past the section */
	assert_int_equal(grubcore_read(buf, n, 1, &c, &d), SBAT_E_BOOTCFG);
	assert_int_equal(d.offset, 16);
	fx_put32(buf + 16, (uint32_t)n - 16);
	fx_put32(buf + 28, 4); /* an object smaller than its header */
	assert_int_equal(grubcore_read(buf, n, 1, &c, &d), SBAT_E_BOOTCFG);
	assert_int_equal(d.offset, 28);
	fx_put32(buf + 28, 4096); /* an object past the end */
	assert_int_equal(grubcore_read(buf, n, 1, &c, &d), SBAT_E_BOOTCFG);
	fx_put32(buf + 28, 8 + 3); /* a prefix without its NUL */
	assert_int_equal(grubcore_read(buf, n, 1, &c, &d), SBAT_E_BOOTCFG);
	assert_non_null(strstr(d.what, "NUL"));
	fx_put32(buf + 16, 30); /* a header cut short by the end of the objects */
	assert_int_equal(grubcore_read(buf, n, 1, &c, &d), SBAT_E_BOOTCFG);
}

/* ------------------------------------------------ the memdisk: tar */

/* A ustar member: a file (text), a directory (text NULL) or a GNU long name ('L'). */
static void
tar_add(uint8_t *buf, size_t cap, size_t *at, const char *name, const char *text, char type)
{
	size_t n = text ? strlen(text) : 0;

	assert_true(*at + 512 + n + 1024 <= cap);
	memset(buf + *at, 0, 512);
	memcpy(buf + *at, name, strlen(name) < 100 ? strlen(name) : 100);
	snprintf((char *)buf + *at + 124, 12, "%011o", (unsigned)n);
	buf[*at + 156] = (uint8_t)type;
	memcpy(buf + *at + 257,
	       "ustar\0"
	       "00",
	       8);
	if (n)
		memcpy(buf + *at + 512, text, n);
	*at += 512 + (n + 511) / 512 * 512;
	memset(buf + *at, 0, 1024);
}

/* Look path up; the kind found, and the text of a file into out. */
static sbat_err
look(const uint8_t *disk, size_t len, const char *path, enum memdisk_found *found, char *out, size_t size)
{
	uint8_t *buf = NULL;
	size_t n = 0;
	sbat_diag d;
	sbat_err err = memdisk_lookup(disk, len, path, size - 1, found, &buf, &n, &d);

	out[0] = '\0';
	if (buf) {
		memcpy(out, buf, n);
		out[n] = '\0';
	}
	free(buf);
	return err;
}

static void
test_tar(void **state)
{
	static uint8_t disk[8192];
	char text[600], longname[300];
	enum memdisk_found f;
	size_t at = 0;

	(void)state;
	tar_add(disk, sizeof(disk), &at, "./boot/grub/grub.cfg", "set timeout=1\n", '0');
	tar_add(disk, sizeof(disk), &at, "/empty/", NULL, '5');
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	memcpy(longname, "long/", 5);
	tar_add(disk, sizeof(disk), &at, "././@LongLink", longname, 'L');
	tar_add(disk, sizeof(disk), &at, "cut-short", "the long one\n", '0');
	assert_int_equal(look(disk, at + 1024, "/boot/grub/grub.cfg", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_FILE);
	assert_string_equal(text, "set timeout=1\n");
	assert_int_equal(look(disk, at + 1024, "//boot/./grub", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_DIR); /* implied by the file in it */
	assert_int_equal(look(disk, at + 1024, "/empty", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_DIR);
	assert_int_equal(look(disk, at + 1024, "/boot/grub/GRUB.CFG", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_MISSING); /* tar names are as they are */
	assert_int_equal(look(disk, at + 1024, longname, &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_FILE);
	assert_string_equal(text, "the long one\n");
	assert_int_equal(look(disk, at + 1024, "/", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_DIR);
	/* over the size asked for, a path with "..", a member running past the end, a header without its magic */
	assert_int_equal(look(disk, at + 1024, "/boot/grub/grub.cfg", &f, text, 4), SBAT_E_TOO_BIG);
	assert_int_equal(look(disk, at + 1024, "/boot/../x", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
	assert_int_equal(look(disk, 520, "/x", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
	memcpy(disk + 512 + 257 + 512, "xstar", 5); /* the second header */
	assert_int_equal(look(disk, at + 1024, "/empty", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
	disk[124] = '9'; /* a size that is not octal */
	assert_int_equal(look(disk, at + 1024, "/x", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
}

/* ------------------------------------------------ the memdisk: FAT */

/* A short-name directory entry. */
static void
dirent(uint8_t *e, const char name11[12], uint8_t attr, uint16_t cluster, uint32_t size)
{
	memcpy(e, name11, 11);
	e[11] = attr;
	fx_put16(e + 26, cluster);
	fx_put32(e + 28, size);
}

/* A long-name entry: order ord (0x40 on the last), 13 characters of name from (ord - 1) * 13. */
static void
lfn(uint8_t *e, unsigned ord, const char *name)
{
	static const uint8_t at[13] = { 1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30 };
	size_t from = ((ord & 0x1f) - 1) * 13, n = strlen(name), i;

	memset(e, 0, 32);
	e[0] = (uint8_t)ord;
	e[11] = 0x0f;
	for (i = 0; i < 13; i++) {
		unsigned c = from + i < n ? (uint8_t)name[from + i] : from + i == n ? 0 : 0xffff;

		fx_put16(e + at[i], (uint16_t)c);
	}
}

/* FAT12 entry c = v. */
static void
fat12(uint8_t *fat, unsigned c, unsigned v)
{
	uint8_t *p = fat + c + c / 2;

	if (c & 1) {
		p[0] = (uint8_t)((p[0] & 0x0f) | (v << 4));
		p[1] = (uint8_t)(v >> 4);
	} else {
		p[0] = (uint8_t)v;
		p[1] = (uint8_t)((p[1] & 0xf0) | (v >> 8));
	}
}

/*
 * A FAT12 file system as mkfs.fat makes a small one: 512-byte sectors, 1 per cluster, 1 reserved, 1 FAT of 1
 * sector, 16 root entries (1 sector), 64 sectors: data from sector 3, cluster 2.
 */
static void
make_fat(uint8_t *disk, size_t len, const char *cfg, const char *big)
{
	uint8_t *fat = disk + 512, *root = disk + 1024, *data = disk + 1536;

	memset(disk, 0, len);
	fx_put16(disk + 11, 512);
	disk[13] = 1;
	fx_put16(disk + 14, 1);
	disk[16] = 1;
	fx_put16(disk + 17, 16);
	fx_put16(disk + 19, 64);
	disk[21] = 0xf8;
	fx_put16(disk + 22, 1);
	disk[510] = 0x55, disk[511] = 0xaa;
	fat12(fat, 0, 0xff8), fat12(fat, 1, 0xfff);
	dirent(root, "GRUB    CFG", 0x20, 2, (uint32_t)strlen(cfg));
	root[32] = 0xe5; /* a deleted entry */
	dirent(root + 64, "BOOT       ", 0x10, 3, 0);
	fat12(fat, 2, 0xfff), fat12(fat, 3, 0xfff);
	memcpy(data, cfg, strlen(cfg));
	/* in BOOT: ".", "..", then grub-long.cfg over clusters 4 and 5 */
	dirent(data + 512, ".          ", 0x10, 3, 0);
	dirent(data + 512 + 32, "..         ", 0x10, 0, 0);
	lfn(data + 512 + 64, 0x41, "grub-long.cfg");
	dirent(data + 512 + 96, "GRUB-L~1CFG", 0x20, 4, (uint32_t)strlen(big));
	fat12(fat, 4, 5), fat12(fat, 5, 0xfff);
	memcpy(data + 1024, big, strlen(big));
}

static void
test_fat(void **state)
{
	static uint8_t disk[64 * 512];
	static char big[800], text[1000];
	enum memdisk_found f;

	(void)state;
	memset(big, 'b', sizeof(big) - 1);
	make_fat(disk, sizeof(disk), "normal\n", big);
	assert_int_equal(look(disk, sizeof(disk), "/grub.cfg", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_FILE);
	assert_string_equal(text, "normal\n");
	assert_int_equal(look(disk, sizeof(disk), "/boot", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_DIR);
	assert_int_equal(look(disk, sizeof(disk), "/Boot/GRUB-long.cfg", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_FILE);
	assert_string_equal(text, big); /* over two clusters */
	assert_int_equal(look(disk, sizeof(disk), "/boot/grub-l~1.cfg", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_FILE);
	assert_int_equal(look(disk, sizeof(disk), "/boot/../grub.cfg", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
	assert_int_equal(look(disk, sizeof(disk), "/boot/missing", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_MISSING);
	assert_int_equal(look(disk, sizeof(disk), "/grub.cfg/x", &f, text, sizeof(text)), SBAT_OK);
	assert_int_equal(f, MEMDISK_MISSING);
	/* a chain that loops (a file reads as far as its size, as GRUB reads it; a directory does not end) */
	fat12(disk + 512, 5, 4);
	assert_int_equal(look(disk, sizeof(disk), "/boot/grub-long.cfg", &f, text, sizeof(text)), SBAT_OK);
	fat12(disk + 512, 3, 3);
	assert_int_equal(look(disk, sizeof(disk), "/boot/grub-long.cfg", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
	fat12(disk + 512, 3, 0xfff);
	/* one that leaves the disk, a disk cut short, no file system at all */
	fat12(disk + 512, 4, 0x7f0);
	assert_int_equal(look(disk, sizeof(disk), "/boot/grub-long.cfg", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
	assert_int_equal(look(disk, 1100, "/grub.cfg", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
	assert_int_equal(look(disk, 600, "/grub.cfg", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
	memset(disk, 0, 64);
	assert_int_equal(look(disk, sizeof(disk), "/grub.cfg", &f, text, sizeof(text)), SBAT_E_BOOTCFG);
}

/* ------------------------------------------------ grub.cfg with its files known */

/* ESP "esp:" holds /EFI/debian/ and /EFI/debian/grub.cfg; the memdisk is not looked at. */
static enum grubcfg_kind
kind(void *ctx, const char *device, const char *path)
{
	(void)ctx;
	if (strcmp(device, "esp:") != 0)
		return GRUBCFG_UNKNOWN;
	if (strcmp(path, "/EFI/debian") == 0)
		return GRUBCFG_DIR;
	return strcmp(path, "/EFI/debian/grub.cfg") == 0 ? GRUBCFG_FILE : GRUBCFG_NOTHING;
}

/* text parsed from root esp: and $prefix /EFI/debian, $cmdpath /EFI/BOOT, with the memdisk when memdisk. */
static sbat_grub_cfg *
parse(const char *text, int memdisk)
{
	grubcfg_opts o;
	sbat_grub_cfg *cfg = NULL;
	sbat_diag d;

	memset(&o, 0, sizeof(o));
	o.root_device = "esp:";
	o.prefix_path = "/EFI/debian";
	o.cmd_device = "esp:";
	o.cmd_path = "/EFI/BOOT";
	o.memdisk = memdisk;
	o.exists = kind;
	assert_int_equal(grubcfg_parse((const uint8_t *)text, strlen(text), &o, &cfg, &d), SBAT_OK);
	return cfg;
}

/* The file the configuration hands over to: "DEVICE PATH", or its why. */
static const char *
next_of(const sbat_grub_cfg *cfg)
{
	static char out[600];

	if (!cfg->next_command)
		return "none";
	if (cfg->next_config.path)
		snprintf(out, sizeof(out), "%s %s %s", cfg->next_command, cfg->next_config.device,
		         cfg->next_config.path);
	else
		snprintf(out, sizeof(out), "%s: %s", cfg->next_command, cfg->next_config.why);
	return out;
}

static void
test_cfg_files(void **state)
{
	static const struct {
		const char *text, *next;
	} rows[] = {
		{ "if [ -e $prefix/x86_64-efi/grub.cfg ]; then source $prefix/x86_64-efi/grub.cfg\n"
		  "elif [ -e $prefix/grub.cfg ]; then source $prefix/grub.cfg\nelse source $cmdpath/grub.cfg\nfi\n",
		  "source esp: /EFI/debian/grub.cfg" },
		{ "if [ -f $prefix/x ]; then source $prefix/x\nelse configfile $cmdpath/grub.cfg\nfi\n",
		  "configfile esp: /EFI/BOOT/grub.cfg" },
		{ "if [ -z \"$prefix\" -o ! -e \"$prefix\" ]; then set prefix=/nowhere\nfi\nconfigfile $prefix/grub.cfg\n",
		  "configfile esp: /EFI/debian/grub.cfg" },
		{ "if [ -d $prefix -a -n \"$unset\" ]; then source $prefix/grub.cfg\nfi\n",
		  "source: it is inside an if or a loop that sbat-add cannot run" },
		{ "if [ -d $prefix -a -n \"\" ]; then source $prefix/grub.cfg\nfi\n", "none" },
		{ "if test -d $prefix -a x = x; then normal $prefix/grub.cfg\nfi\n",
		  "normal esp: /EFI/debian/grub.cfg" },
		{ "if [ -e (hd0,gpt1)/x ]; then source $prefix/grub.cfg\nfi\n",
		  "source: it is inside an if or a loop that sbat-add cannot run" },
		{ "if [ ( -e $prefix ) ]; then source $prefix/grub.cfg\nfi\n",
		  "source: it is inside an if or a loop that sbat-add cannot run" },
		{ "if [ -s $prefix/none ]; then source $prefix/grub.cfg\nfi\n", "none" },
		{ "if [ \"x\" ]; then source $prefix/grub.cfg\nfi\n", "source esp: /EFI/debian/grub.cfg" },
		{ "normal\n", "none" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		sbat_grub_cfg *cfg = parse(rows[i].text, 0);

		if (strcmp(next_of(cfg), rows[i].next) != 0)
			fail_msg("row %zu: %s, not %s", i, next_of(cfg), rows[i].next);
		sbat_grub_cfg_free(cfg);
	}
}

/* (memdisk) is a device only where GRUB has one. */
static void
test_cfg_memdisk(void **state)
{
	sbat_grub_cfg *cfg;

	(void)state;
	cfg = parse("normal (memdisk)/grub.cfg\n", 1);
	assert_string_equal(next_of(cfg), "normal memdisk: /grub.cfg");
	sbat_grub_cfg_free(cfg);
	cfg = parse("normal (memdisk)/grub.cfg\n", 0);
	assert_null(cfg->next_config.path);
	sbat_grub_cfg_free(cfg);
	assert_int_equal(sbat_grub_cfg_parse((const uint8_t *)"configfile (memdisk)/x\n", 23, "esp:", "/", &cfg, NULL),
	                 SBAT_OK);
	assert_null(cfg->next_config.path);
	sbat_grub_cfg_free(cfg);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects),   cmocka_unit_test(test_objects_malformed),
		cmocka_unit_test(test_tar),       cmocka_unit_test(test_fat),
		cmocka_unit_test(test_cfg_files), cmocka_unit_test(test_cfg_memdisk),
	};

	return run_group(tests, NULL, NULL);
}
