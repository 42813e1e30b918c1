/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-bootcfg.c - unit tests for systemd-boot's key/value files and version order, and for grub.cfg */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdlib.h>
#include <string.h>

#include "sbat/error.h"
#include "sbat/grubcfg.h"
#include "sbat/kv.h"

/* ------------------------------------------------ systemd-boot */

typedef struct kv_result {
	char key[64], value[256];
	unsigned line;
	sbat_err err;
	unsigned err_line;
} kv_result;

/* All lines of text (sep as given) into out; returns how many, errors included. */
static size_t
kv_all(const char *text, size_t len, const char *sep, kv_result *out, size_t max)
{
	sbat_kv_cursor cur;
	sbat_kv_line kv;
	sbat_diag d;
	size_t n = 0;

	memset(&cur, 0, sizeof(cur));
	while (n < max) {
		sbat_err err = sbat_kv_next((const uint8_t *)text, len, sep, &cur, &kv, &d);

		memset(&out[n], 0, sizeof(out[n]));
		out[n].err = err;
		if (err != SBAT_OK) {
			assert_int_equal(d.code, SBAT_E_BOOTCFG);
			out[n++].err_line = d.line;
			continue;
		}
		if (!kv.key)
			break;
		assert_true(kv.key_len < sizeof(out[n].key) && kv.value_len < sizeof(out[n].value));
		memcpy(out[n].key, kv.key, kv.key_len);
		memcpy(out[n].value, kv.value, kv.value_len);
		out[n++].line = kv.line;
	}
	return n;
}

static void
test_kv_entry_as_systemd_boot_reads_it(void **state)
{
	static const char entry[] = "# Boot Loader Specification type#1 entry\n"
	                            "title      Debian GNU/Linux 12 (bookworm)\r\n"
	                            "  version\t6.1.0-18-amd64  \n"
	                            "\n"
	                            "linux /6.1.0-18-amd64/linux\n"
	                            "options \"root=UUID=1 ro quiet\"\n"
	                            "initrd";
	kv_result r[8];
	size_t n = kv_all(entry, sizeof(entry) - 1, " \t", r, 8);

	(void)state;
	assert_int_equal(n, 5);
	assert_string_equal(r[0].key, "title");
	assert_string_equal(r[0].value, "Debian GNU/Linux 12 (bookworm)");
	assert_int_equal(r[0].line, 2);
	assert_string_equal(r[1].key, "version");
	assert_string_equal(r[1].value, "6.1.0-18-amd64");
	assert_int_equal(r[1].line, 3);
	assert_string_equal(r[2].value, "/6.1.0-18-amd64/linux");
	assert_int_equal(r[2].line, 5);
	/* one pair of enclosing double quotes is dropped */
	assert_string_equal(r[3].value, "root=UUID=1 ro quiet");
	/* a key without a value: systemd-boot ignores it; the caller hears of it with its line */
	assert_int_equal(r[4].err, SBAT_E_BOOTCFG);
	assert_int_equal(r[4].err_line, 7);
}

static void
test_kv_stops_at_a_nul_byte(void **state)
{
	static const char text[] = "default debian-*\ntimeout 5\0editor no\n";
	kv_result r[8];
	size_t n = kv_all(text, sizeof(text) - 1, " \t", r, 8);

	(void)state;
	assert_int_equal(n, 3);
	assert_string_equal(r[0].value, "debian-*");
	assert_string_equal(r[1].key, "timeout");
	assert_string_equal(r[1].value, "5");
	assert_int_equal(r[2].err, SBAT_E_BOOTCFG);
	assert_int_equal(r[2].err_line, 2);
}

static void
test_kv_os_release(void **state)
{
	static const char osrel[] =
	    "PRETTY_NAME=\"Debian GNU/Linux 13 (trixie)\"\nID=debian\nVERSION_ID=\"13\"\nEMPTY=\n"
	    "QUOTE=\"\n";
	kv_result r[8];
	size_t n = kv_all(osrel, sizeof(osrel) - 1, "=", r, 8);

	(void)state;
	assert_int_equal(n, 5);
	assert_string_equal(r[0].key, "PRETTY_NAME");
	assert_string_equal(r[0].value, "Debian GNU/Linux 13 (trixie)");
	assert_string_equal(r[1].value, "debian");
	assert_string_equal(r[2].value, "13");
	assert_string_equal(r[3].key, "EMPTY");
	assert_string_equal(r[3].value, "");
	/* a lone quote is both quotes */
	assert_string_equal(r[4].value, "");
}

static void
test_version_compare_follows_strverscmp_improved(void **state)
{
	/* the order systemd documents for strverscmp_improved, oldest first */
	static const char *const order[] = { "122.1",   "123~rc1-1", "123",     "123-a",   "123-a.1", "123-1",
		                             "123-1.1", "123^post1", "123.a-1", "123.1-1", "123a-1",  "124-1" };
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		for (j = 0; j < sizeof(order) / sizeof(order[0]); j++) {
			int r = sbat_kv_version_compare(order[i], order[j]);

			if (i < j)
				assert_true(r < 0);
			else if (i > j)
				assert_true(r > 0);
			else
				assert_int_equal(r, 0);
		}
	assert_true(sbat_kv_version_compare("6.1.0-18-amd64", "6.1.0-9-amd64") > 0);
	assert_int_equal(sbat_kv_version_compare("00123", "123"), 0);
	assert_int_equal(sbat_kv_version_compare(NULL, ""), 0);
	assert_true(sbat_kv_version_compare("debian-6.10.conf", "debian-6.9.conf") > 0);
}

/* ------------------------------------------------ GRUB */

static sbat_grub_cfg *
grub(const char *text, const char *root, const char *prefix)
{
	sbat_grub_cfg *cfg = NULL;
	sbat_diag d;

	assert_int_equal(sbat_grub_cfg_parse((const uint8_t *)text, strlen(text), root, prefix, &cfg, &d), SBAT_OK);
	assert_non_null(cfg);
	return cfg;
}

/* What grub-install writes next to grubx64.efi on Debian. */
static void
test_grub_debian_stub(void **state)
{
	static const char stub[] = "search.fs_uuid 0d3c4f8a-7a8e-4f0b-9b1e-2f6c1d0e9a11 root hd0,gpt2 \n"
	                           "set prefix=($root)'/boot/grub'\n"
	                           "configfile $prefix/grub.cfg\n";
	sbat_grub_cfg *cfg = grub(stub, "ESP", "/EFI/debian");

	(void)state;
	assert_int_equal(cfg->n_entries, 0);
	assert_string_equal(cfg->next_command, "configfile");
	assert_string_equal(cfg->next_config.word, "$prefix/grub.cfg");
	assert_string_equal(cfg->next_config.device, "0d3c4f8a-7a8e-4f0b-9b1e-2f6c1d0e9a11");
	assert_string_equal(cfg->next_config.path, "/boot/grub/grub.cfg");
	assert_int_equal(cfg->next_config.line, 3);
	assert_string_equal(cfg->root_device, "0d3c4f8a-7a8e-4f0b-9b1e-2f6c1d0e9a11");
	assert_string_equal(cfg->prefix.path, "/boot/grub");
	assert_string_equal(cfg->prefix.word, "($root)/boot/grub");
	assert_int_equal(cfg->n_notes, 0);
	sbat_grub_cfg_free(cfg);
}

/* The parts of grub-mkconfig's output (Debian 12, GRUB 2.06) that matter here. */
static const char debian_cfg[] =
    "#\n# DO NOT EDIT THIS FILE\n#\n"
    "if [ -s $prefix/grubenv ]; then\n  set have_grubenv=true\n  load_env\nfi\n"
    "if [ \"${next_entry}\" ] ; then\n   set default=\"${next_entry}\"\n   set next_entry=\n"
    "   save_env next_entry\n   set boot_once=true\nelse\n   set default=\"0\"\nfi\n"
    "if [ x\"${feature_menuentry_id}\" = xy ]; then\n  menuentry_id_option=\"--id\"\nelse\n"
    "  menuentry_id_option=\"\"\nfi\nexport menuentry_id_option\n"
    "function savedefault {\n  if [ -z \"${boot_once}\" ]; then\n    saved_entry=\"${chosen}\"\n"
    "    save_env saved_entry\n  fi\n}\n"
    "function load_video {\n  if [ x$feature_all_video_module = xy ]; then\n    insmod all_video\n  fi\n}\n"
    "if [ x$feature_timeout_style = xy ] ; then\n  set timeout_style=menu\n  set timeout=5\n"
    "else\n  set timeout=5\nfi\n"
    "menuentry 'Debian GNU/Linux' --class debian --class gnu-linux --class gnu --class os $menuentry_id_option "
    "'gnulinux-simple-UUIDROOT' {\n"
    "\tload_video\n\tinsmod gzio\n\tif [ x$grub_platform = xxen ]; then insmod xzio; insmod lzopio; fi\n"
    "\tinsmod part_gpt\n\tinsmod ext2\n\tset root='hd0,gpt2'\n"
    "\tif [ x$feature_platform_search_hint = xy ]; then\n"
    "\t  search --no-floppy --fs-uuid --set=root --hint-bios=hd0,gpt2 --hint-efi=hd0,gpt2 "
    "--hint-baremetal=ahci0,gpt2  aaaa-bbbb\n"
    "\telse\n\t  search --no-floppy --fs-uuid --set=root aaaa-bbbb\n\tfi\n"
    "\techo\t'Loading Linux 6.1.0-18-amd64 ...'\n"
    "\tlinux\t/boot/vmlinuz-6.1.0-18-amd64 root=UUID=aaaa-bbbb ro  quiet\n"
    "\techo\t'Loading initial ramdisk ...'\n\tinitrd\t/boot/initrd.img-6.1.0-18-amd64\n}\n"
    "submenu 'Advanced options for Debian GNU/Linux' $menuentry_id_option 'gnulinux-advanced-UUIDROOT' {\n"
    "\tmenuentry 'Debian GNU/Linux, with Linux 6.1.0-18-amd64' --class debian $menuentry_id_option "
    "'gnulinux-6.1.0-18-amd64-advanced-UUIDROOT' {\n"
    "\t\tsearch --no-floppy --fs-uuid --set=root aaaa-bbbb\n"
    "\t\tlinux\t/boot/vmlinuz-6.1.0-18-amd64 root=UUID=aaaa-bbbb ro  quiet\n"
    "\t\tinitrd\t/boot/initrd.img-6.1.0-18-amd64\n\t}\n"
    "\tmenuentry 'Debian GNU/Linux, with Linux 6.1.0-9-amd64' --class debian $menuentry_id_option "
    "'gnulinux-6.1.0-9-amd64-advanced-UUIDROOT' {\n"
    "\t\tlinux\t\"/boot/vmlinuz-6.1.0-9-amd64\" root=UUID=aaaa-bbbb ro\n"
    "\t}\n"
    "}\n"
    "if [ \"$grub_platform\" = \"efi\" ]; then\n"
    "\tmenuentry 'UEFI Firmware Settings' $menuentry_id_option 'uefi-firmware' {\n\t\tfwsetup\n\t}\nfi\n";

static void
test_grub_debian_menu(void **state)
{
	sbat_grub_cfg *cfg = grub(debian_cfg, "aaaa-bbbb", "/boot/grub");
	const sbat_grub_entry *e;

	(void)state;
	assert_int_equal(cfg->n_entries, 5);
	assert_int_equal(cfg->n_notes, 0);
	assert_string_equal(cfg->default_value, "0");
	assert_int_equal(cfg->default_line, 14);
	assert_int_equal(cfg->next_entry_line, 9);
	assert_string_equal(cfg->timeout, "5");
	e = &cfg->entries[0];
	assert_string_equal(e->title, "Debian GNU/Linux");
	assert_string_equal(e->id, "gnulinux-simple-UUIDROOT");
	assert_int_equal(e->parent, -1);
	assert_int_equal(e->position, 0);
	assert_string_equal(e->command, "linux");
	assert_string_equal(e->kernel.word, "/boot/vmlinuz-6.1.0-18-amd64");
	assert_string_equal(e->kernel.device, "aaaa-bbbb");
	assert_string_equal(e->kernel.path, "/boot/vmlinuz-6.1.0-18-amd64");
	assert_null(e->kernel.why);
	assert_int_equal(e->n_initrds, 1);
	assert_string_equal(e->initrds[0].path, "/boot/initrd.img-6.1.0-18-amd64");
	e = &cfg->entries[1];
	assert_true(e->is_submenu);
	assert_int_equal(e->position, 1);
	assert_null(e->command);
	e = &cfg->entries[3];
	assert_int_equal(e->parent, 1);
	assert_int_equal(e->position, 1);
	assert_string_equal(e->kernel.path, "/boot/vmlinuz-6.1.0-9-amd64");
	/* no search in the entry: the root of the file */
	assert_string_equal(e->kernel.device, "aaaa-bbbb");
	e = &cfg->entries[4];
	assert_true(e->conditional);
	assert_null(e->command);
	/* the entry's search did not leak to the top */
	assert_string_equal(cfg->root_device, "aaaa-bbbb");
	sbat_grub_cfg_free(cfg);
}

static void
test_grub_default_entry(void **state)
{
	sbat_grub_cfg *cfg = grub(debian_cfg, "aaaa-bbbb", "/boot/grub");
	size_t i;
	int fb;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_grub_cfg_default_entry(cfg, "0", &i, &fb, &d), SBAT_OK);
	assert_int_equal(i, 0);
	assert_int_equal(fb, 0);
	assert_int_equal(sbat_grub_cfg_default_entry(cfg, NULL, &i, &fb, &d), SBAT_OK);
	assert_int_equal(i, 0);
	/* a submenu chosen by number boots its first entry */
	assert_int_equal(sbat_grub_cfg_default_entry(cfg, "1", &i, &fb, &d), SBAT_OK);
	assert_int_equal(i, 2);
	assert_int_equal(sbat_grub_cfg_default_entry(cfg, "1>1", &i, &fb, &d), SBAT_OK);
	assert_int_equal(i, 3);
	assert_int_equal(sbat_grub_cfg_default_entry(
	                     cfg, "gnulinux-advanced-UUIDROOT>gnulinux-6.1.0-9-amd64-advanced-UUIDROOT", &i, &fb, &d),
	                 SBAT_OK);
	assert_int_equal(i, 3);
	assert_int_equal(fb, 0);
	assert_int_equal(sbat_grub_cfg_default_entry(cfg,
	                                             "Advanced options for Debian GNU/Linux>Debian GNU/Linux, "
	                                             "with Linux 6.1.0-9-amd64",
	                                             &i, &fb, &d),
	                 SBAT_OK);
	assert_int_equal(i, 3);
	assert_int_equal(sbat_grub_cfg_default_entry(cfg, "UEFI Firmware Settings", &i, &fb, &d), SBAT_OK);
	assert_int_equal(i, 4);
	/* nothing matches, or a number past the end: the first entry, as GRUB does */
	assert_int_equal(sbat_grub_cfg_default_entry(cfg, "no such entry", &i, &fb, &d), SBAT_OK);
	assert_int_equal(i, 0);
	assert_int_equal(fb, 1);
	assert_int_equal(sbat_grub_cfg_default_entry(cfg, "7", &i, &fb, &d), SBAT_OK);
	assert_int_equal(i, 0);
	assert_int_equal(fb, 1);
	sbat_grub_cfg_free(cfg);
}

static void
test_grub_what_cannot_be_followed(void **state)
{
	static const char text[] = "menuentry 'var' {\n  linux /vmlinuz-$version\n}\n"
	                           "menuentry 'disk' {\n  linux (hd0,gpt2)/vmlinuz\n}\n"
	                           "menuentry 'loop' {\n  for x in 1 2; do linux /vmlinuz; done\n}\n"
	                           "menuentry 'empty' {\n  linux\n}\n"
	                           "} \n"
	                           "menuentry 'bios' {\n  linux16 /memtest86+.bin\n}\n"
	                           "menuentry 'open' {\n  linux \"/vmlinuz\n}\n";
	sbat_grub_cfg *cfg = grub(text, "ROOT", NULL);

	(void)state;
	assert_int_equal(cfg->n_entries, 6);
	assert_string_equal(cfg->entries[0].kernel.why, "it uses a variable that this file does not set");
	assert_string_equal(cfg->entries[0].kernel.word, "/vmlinuz-$version");
	assert_string_equal(cfg->entries[1].kernel.why,
	                    "a device named by the firmware's disk numbering, not by a file-system UUID");
	assert_string_equal(cfg->entries[2].kernel.why, "the line is inside a loop");
	assert_string_equal(cfg->entries[3].kernel.why, "the command names no file");
	assert_string_equal(cfg->entries[4].kernel.why, "linux16 exists in BIOS GRUB only");
	assert_string_equal(cfg->entries[5].kernel.why, "its menuentry is never closed");
	assert_int_equal(cfg->n_notes, 3);
	assert_int_equal(cfg->notes[0].line, 13);
	assert_string_equal(cfg->notes[0].what, "a } without a {");
	assert_int_equal(cfg->notes[1].line, 18);
	assert_string_equal(cfg->notes[1].what, "a quote that is never closed: GRUB reads nothing after it");
	assert_int_equal(cfg->notes[2].line, 17);
	sbat_grub_cfg_free(cfg);
}

/* Ubuntu's entries load the same kernel in both branches of an if: GRUB runs one, so it counts. */
static void
test_grub_kernel_in_if_branches(void **state)
{
	static const char text[] = "menuentry 'same' {\n"
	                           "  if [ \"${initrdfail}\" = 1 ]; then\n    linux /vmlinuz-6.8 ro\n"
	                           "  else\n    linux /vmlinuz-6.8 ro panic=-1\n  fi\n}\n"
	                           "menuentry 'different' {\n"
	                           "  if [ \"$u\" = y ]; then linux /vmlinuz-a; else linux /vmlinuz-b; fi\n}\n"
	                           "menuentry 'one branch' {\n  if [ \"$u\" = y ]; then linux /vmlinuz-a; fi\n}\n";
	sbat_grub_cfg *cfg = grub(text, "ROOT", NULL);

	(void)state;
	assert_int_equal(cfg->n_entries, 3);
	assert_string_equal(cfg->entries[0].kernel.path, "/vmlinuz-6.8");
	assert_int_equal(cfg->entries[0].kernel.line, 5);
	assert_null(cfg->entries[1].kernel.path);
	assert_string_equal(cfg->entries[1].kernel.why, "the branches of an if name different files");
	assert_string_equal(cfg->entries[2].kernel.path, "/vmlinuz-a");
	sbat_grub_cfg_free(cfg);
}

/* A condition known without running anything decides: GRUB never adds an entry of a branch that does not run. */
static void
test_grub_known_conditions(void **state)
{
	static const char text[] =
	    "set p=efi\n"
	    "if false; then\n menuentry 'never' {\n  linux /vmlinuz-never\n }\nfi\n"
	    "if [ \"$p\" = efi ]; then\n menuentry 'efi' {\n  linux /vmlinuz-efi\n }\n"
	    "else\n menuentry 'pc' {\n  linux /vmlinuz-pc\n }\nfi\n"
	    "if [ \"$grub_platform\" = efi ]; then\n menuentry 'maybe' {\n  linux /m\n }\nfi\n"
	    "if [ x != x ]; then set k=a; elif true; then set k=b; else set k=c; fi\n"
	    "menuentry 'k' {\n  if [ x = y ]; then linux /vmlinuz-a; else linux /vmlinuz-$k; fi\n}\n"
	    "function f {\n menuentry 'in a function' {\n  linux /f\n }\n}\n";
	sbat_grub_cfg *cfg = grub(text, "ROOT", NULL);

	(void)state;
	assert_int_equal(cfg->n_entries, 3);
	assert_string_equal(cfg->entries[0].title, "efi");
	assert_int_equal(cfg->entries[0].conditional, 0);
	assert_int_equal(cfg->entries[0].position, 0);
	assert_string_equal(cfg->entries[1].title, "maybe");
	assert_int_equal(cfg->entries[1].conditional, 1);
	assert_string_equal(cfg->entries[2].title, "k");
	assert_string_equal(cfg->entries[2].kernel.path, "/vmlinuz-b");
	sbat_grub_cfg_free(cfg);
}

static void
test_grub_quoting_and_variables(void **state)
{
	static const char text[] = "set kdir=/boot\n"
	                           "search --no-floppy --fs-uuid --set=bootdev 1234-ABCD\n"
	                           "menuentry \"it's \\\"quoted\\\"\" --id=q {\n"
	                           "  linux ($bootdev)${kdir}/'vmlinuz $x' ro # comment\n"
	                           "  initrd \\\n    /initrd.img\n"
	                           "}\n"
	                           "menuentry 'chain' { chainloader --force /EFI/Microsoft/Boot/bootmgfw.efi; }\n";
	sbat_grub_cfg *cfg = grub(text, NULL, NULL);

	(void)state;
	assert_int_equal(cfg->n_entries, 2);
	assert_string_equal(cfg->entries[0].title, "it's \"quoted\"");
	assert_string_equal(cfg->entries[0].id, "q");
	assert_string_equal(cfg->entries[0].kernel.word, "($bootdev)${kdir}/vmlinuz $x");
	assert_string_equal(cfg->entries[0].kernel.device, "1234-ABCD");
	assert_string_equal(cfg->entries[0].kernel.path, "/boot/vmlinuz $x");
	assert_int_equal(cfg->entries[0].n_initrds, 1);
	/* no root device: the initrd cannot be placed */
	assert_null(cfg->entries[0].initrds[0].path);
	assert_int_equal(cfg->entries[0].initrds[0].line, 5);
	assert_string_equal(cfg->entries[1].command, "chainloader");
	assert_string_equal(cfg->entries[1].kernel.word, "/EFI/Microsoft/Boot/bootmgfw.efi");
	assert_null(cfg->root_device);
	sbat_grub_cfg_free(cfg);
}

/* An entry's body runs at boot, with the variables as the whole file leaves them (menu.c runs it then). */
static void
test_grub_entry_body_sees_the_final_variables(void **state)
{
	sbat_grub_cfg *cfg;

	(void)state;
	cfg = grub("set k=good\nmenuentry 'a' {\n linux /vmlinuz-$k\n}\nset k=bad\n"
	           "submenu 's' {\n menuentry 'b' {\n  linux /vmlinuz-$k\n }\n}\n"
	           "menuentry 'c' {\n set k=own\n linux /vmlinuz-$k\n}\n"
	           "menuentry 'd' {\n linux /vmlinuz-$gone\n}\nset gone=x\nunset gone\n",
	           "UUID", "/boot/grub");
	assert_int_equal(cfg->n_entries, 5);
	assert_string_equal(cfg->entries[0].kernel.path, "/vmlinuz-bad");
	assert_string_equal(cfg->entries[2].kernel.path, "/vmlinuz-bad");
	assert_string_equal(cfg->entries[3].kernel.path, "/vmlinuz-own");
	assert_null(cfg->entries[4].kernel.path);
	assert_string_equal(cfg->entries[4].kernel.why, "it uses a variable that this file does not set");
	sbat_grub_cfg_free(cfg);
}

static void
test_grub_control_bytes_cannot_forge_a_device(void **state)
{
	static const char text[] = "menuentry 'x' {\n  linux (\001evil\002)/vmlinuz\n}\n";
	sbat_grub_cfg *cfg = grub(text, "ROOT", NULL);

	(void)state;
	assert_null(cfg->entries[0].kernel.device);
	assert_null(cfg->entries[0].kernel.path);
	sbat_grub_cfg_free(cfg);
}

static void
test_grub_too_big(void **state)
{
	sbat_grub_cfg *cfg = (sbat_grub_cfg *)1;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_grub_cfg_parse((const uint8_t *)"", SBAT_BOOTCFG_MAX_SIZE + 1, NULL, NULL, &cfg, &d),
	                 SBAT_E_TOO_BIG);
	assert_null(cfg);
	assert_int_equal(sbat_grub_cfg_parse(NULL, 0, NULL, NULL, &cfg, &d), SBAT_OK);
	assert_int_equal(cfg->n_entries, 0);
	assert_int_equal(sbat_grub_cfg_default_entry(cfg, "0", &(size_t){ 0 }, &(int){ 0 }, &d), SBAT_E_BOOTCFG);
	sbat_grub_cfg_free(cfg);
	sbat_grub_cfg_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kv_entry_as_systemd_boot_reads_it),
		cmocka_unit_test(test_kv_stops_at_a_nul_byte),
		cmocka_unit_test(test_kv_os_release),
		cmocka_unit_test(test_version_compare_follows_strverscmp_improved),
		cmocka_unit_test(test_grub_debian_stub),
		cmocka_unit_test(test_grub_debian_menu),
		cmocka_unit_test(test_grub_entry_body_sees_the_final_variables),
		cmocka_unit_test(test_grub_known_conditions),
		cmocka_unit_test(test_grub_default_entry),
		cmocka_unit_test(test_grub_what_cannot_be_followed),
		cmocka_unit_test(test_grub_kernel_in_if_branches),
		cmocka_unit_test(test_grub_quoting_and_variables),
		cmocka_unit_test(test_grub_control_bytes_cannot_forge_a_device),
		cmocka_unit_test(test_grub_too_big),
	};

	return run_group(tests, NULL, NULL);
}
