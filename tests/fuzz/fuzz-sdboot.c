/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-sdboot.c - libFuzzer harness: systemd-boot's menu from loader.conf, an entry and the Loader* variables */

/*
 * Input: byte 0 chooses the entry file's name (bits 0-1: "fuzz.conf",
 * "Fuzz-6.1+3-1.conf", "fuzz+0.CONF", "auto-fuzz.conf"), the machine
 * (bit 2: aa64, else x64) and the partition the entry is on (bit 3: the
 * XBOOTLDR partition, else the ESP). The rest is split at each 0x1e byte
 * into loader.conf, the entry file, and the data of LoaderEntryOneShot,
 * LoaderEntryDefault, LoaderEntryLastBooted, LoaderConfigTimeout and
 * LoaderConfigTimeoutOneShot; an entry file or variable whose part is not
 * there is not there (loader.conf always is). The files are written into an ESP and XBOOTLDR tree made once,
 * which holds two fixed entries, the kernels they start, a file that is
 * not a UKI in \EFI\Linux and systemd-boot itself.
 *
 * These must hold, or the harness aborts:
 *  - sbat_sdboot_menu_load succeeds (or runs out of memory);
 *  - the entries in the menu come first, those without tries left last
 *    among them, the others after, by name; each has a
 *    name, an id that is its name lower-cased and a file; one in the menu
 *    starts a file found on this machine, a regular file;
 *  - the fuzzed entry's lines are lines of its file;
 *  - a default entry is in the menu, chosen by a variable, loader.conf or
 *    as the first, and matches the pattern that chose it; an entry starts
 *    by itself whenever one is in the menu and the timeout is not
 *    menu-force; loader.conf's default is lower-cased;
 *  - notes and entries stay within their limits.
 */
#include "fuzz-tree.h"

#include <fnmatch.h>

#include "sbat/sdboot.h"

#define FUZZ_MAX_INPUT (64u * 1024u)
#define FUZZ_PARTS 7

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-sdboot: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

static const char *const entry_names[] = { "fuzz.conf", "Fuzz-6.1+3-1.conf", "fuzz+0.CONF", "auto-fuzz.conf" };
static char esp[FUZZ_TREE_PATH_MAX], xbootldr[FUZZ_TREE_PATH_MAX];

static void
make_tree(void)
{
	static const char fixed[] = "title Fixed\nversion 6.1\nlinux /vmlinuz\ninitrd /initrd.img\n";
	static const char keyed[] = "title Keyed\nsort-key debian\nversion 6.2\nlinux \\6.1\\linux\n";

	if (!fuzz_tree_init())
		return;
	fuzz_tree_path("esp", esp, sizeof(esp));
	fuzz_tree_path("xbootldr", xbootldr, sizeof(xbootldr));
	fuzz_tree_dir("esp");
	fuzz_tree_dir("esp/loader");
	fuzz_tree_dir("esp/loader/entries");
	fuzz_tree_file("esp/loader/entries/fixed.conf", fixed, sizeof(fixed) - 1);
	fuzz_tree_file("esp/loader/entries/Keyed-6.2.conf", keyed, sizeof(keyed) - 1);
	fuzz_tree_file("esp/vmlinuz", "MZ", 2);
	fuzz_tree_file("esp/initrd.img", "", 0);
	fuzz_tree_dir("esp/6.1");
	fuzz_tree_file("esp/6.1/linux", "MZ", 2);
	fuzz_tree_dir("esp/EFI");
	fuzz_tree_dir("esp/EFI/systemd");
	fuzz_tree_file("esp/EFI/systemd/systemd-bootx64.efi", "MZ", 2);
	fuzz_tree_dir("esp/EFI/Linux");
	fuzz_tree_file("esp/EFI/Linux/not-a-uki.efi", "MZ", 2);
	fuzz_tree_dir("xbootldr");
	fuzz_tree_dir("xbootldr/loader");
	fuzz_tree_dir("xbootldr/loader/entries");
	fuzz_tree_file("xbootldr/vmlinuz", "MZ", 2);
}

/* The parts of in[0..size) split at 0x1e; returns how many there are. */
static size_t
split(const uint8_t *in, size_t size, const uint8_t **part, size_t *len)
{
	size_t n = 0, start = 0, i;

	for (i = 0; i <= size && n < FUZZ_PARTS; i++)
		if (i == size || in[i] == 0x1e) {
			part[n] = in + start;
			len[n++] = i - start;
			start = i + 1;
		}
	return n;
}

/* Write the input's files, removing those of the input before. */
static void
write_files(unsigned op, const uint8_t **part, const size_t *len, size_t n)
{
	char rel[128];
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "esp/loader/entries/%s", entry_names[i]);
		fuzz_tree_unlink(rel);
		snprintf(rel, sizeof(rel), "xbootldr/loader/entries/%s", entry_names[i]);
		fuzz_tree_unlink(rel);
	}
	if (n > 0)
		fuzz_tree_file("esp/loader/loader.conf", part[0], len[0]);
	else
		fuzz_tree_unlink("esp/loader/loader.conf");
	if (n > 1) {
		snprintf(rel, sizeof(rel), "%s/loader/entries/%s", op & 8 ? "xbootldr" : "esp", entry_names[op & 3]);
		fuzz_tree_file(rel, part[1], len[1]);
	}
}

static unsigned
count_lines(const uint8_t *in, size_t size)
{
	unsigned n = 1;
	size_t i;

	for (i = 0; i < size; i++)
		n += in[i] == '\n';
	return n;
}

static void
check_entry(const sbat_sdboot_entry *e, int listed, unsigned max_line)
{
	const unsigned lines[] = { e->title_line,    e->version_line, e->machine_id_line,
		                   e->sort_key_line, e->loader_line,  e->missing_line };
	struct stat st;
	size_t i;

	if (!e->name || !e->id || !e->file || strlen(e->id) != strlen(e->name))
		fail("an entry without a name, id or file");
	for (i = 0; e->name[i]; i++)
		if (e->id[i] != (e->name[i] >= 'A' && e->name[i] <= 'Z' ? e->name[i] + 32 : e->name[i]))
			fail("an id that is not the name lower-cased");
	if (listed != (e->out == SBAT_SDBOOT_LISTED))
		fail("the entries in the menu are not the first ones");
	if (listed && (e->kind == SBAT_SDBOOT_KIND_NONE || !e->loader || !e->loader_host ||
	               lstat(e->loader_host, &st) != 0 || !S_ISREG(st.st_mode)))
		fail("an entry in the menu that starts no regular file");
	if (e->loader_host && strncmp(e->loader_host, fuzz_tree_root, strlen(fuzz_tree_root)) != 0)
		fail("a file found outside the partitions");
	if (strstr(e->name, "fuzz") || strstr(e->name, "Fuzz"))
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
			if (lines[i] > max_line)
				fail("an entry line past the end of its file");
}

static void
check_default(const sbat_sdboot_menu *m)
{
	const sbat_sdboot_entry *e;
	size_t i;

	if (m->conf_default)
		for (i = 0; m->conf_default[i]; i++)
			if (m->conf_default[i] >= 'A' && m->conf_default[i] <= 'Z')
				fail("loader.conf's default not lower-cased");
	if ((m->default_by == SBAT_SDBOOT_BY_MENU_FORCE) != (m->timeout == SBAT_SDBOOT_TIMEOUT_MENU_FORCE) &&
	    !m->over_limit)
		fail("menu-force without its timeout, or the timeout without menu-force");
	if (!m->has_default) {
		/* releases that disagree on the default (no version given), or a LoaderEntrySysFail */
		if (m->default_by != SBAT_SDBOOT_BY_NONE && m->default_by != SBAT_SDBOOT_BY_MENU_FORCE &&
		    m->default_by != SBAT_SDBOOT_BY_OVER_LIMIT && m->default_by != SBAT_SDBOOT_BY_VERSION_UNKNOWN &&
		    m->default_by != SBAT_SDBOOT_BY_SYSFAIL)
			fail("no default entry, chosen by something");
		if (m->n_listed && m->default_by == SBAT_SDBOOT_BY_NONE)
			fail("entries in the menu but none starts by itself");
		return;
	}
	if (m->default_index >= m->n_listed || m->default_by < SBAT_SDBOOT_BY_ONESHOT ||
	    m->default_by > SBAT_SDBOOT_BY_FIRST)
		fail("a default entry not in the menu, or chosen by nothing");
	e = sbat_sdboot_menu_entry(m, m->default_index);
	if (m->default_by == SBAT_SDBOOT_BY_FIRST ? m->default_index != 0 || m->default_pattern :
	                                            !m->default_pattern || fnmatch(m->default_pattern, e->id, 0) != 0)
		fail("a default entry its pattern does not match");
}

/* The menu's order where it is plain: no tries left last; entries left out after it, by name. */
static void
check_order(const sbat_sdboot_menu *m)
{
	size_t i;

	for (i = 0; i + 1 < m->n_entries; i++) {
		const sbat_sdboot_entry *a = sbat_sdboot_menu_entry(m, i), *b = sbat_sdboot_menu_entry(m, i + 1);

		if (i + 1 < m->n_listed && a->tries_left == 0 && b->tries_left != 0)
			fail("an entry without tries left before one with");
		if (i >= m->n_listed && strcmp(a->name, b->name) > 0)
			fail("entries left out not in the order of their names");
	}
}

static void
check_menu(const sbat_sdboot_menu *m, unsigned max_line)
{
	size_t i;

	if (m->n_entries > 2 * SBAT_SDBOOT_MAX_ENTRIES || m->n_listed > m->n_entries ||
	    m->n_notes > SBAT_SDBOOT_MAX_NOTES || (m->over_limit != 0) != (m->entries_over != 0))
		fail("counts out of range");
	for (i = 0; i < m->n_entries; i++)
		check_entry(sbat_sdboot_menu_entry(m, i), i < m->n_listed, max_line);
	if (sbat_sdboot_menu_entry(m, m->n_entries))
		fail("an entry past the end");
	check_order(m);
	for (i = 0; i < m->n_notes; i++)
		if (m->notes[i].kind > SBAT_SDBOOT_NOTE_VARIABLE ||
		    (m->notes[i].kind == SBAT_SDBOOT_NOTE_VARIABLE && m->notes[i].file))
			fail("a note of no known kind, or a variable's with a file");
	check_default(m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part[FUZZ_PARTS] = { NULL };
	size_t len[FUZZ_PARTS] = { 0 }, n;
	sbat_sdboot_vars v = SBAT_SDBOOT_VARS_INIT;
	sbat_sdboot_menu *m;
	sbat_diag d;
	sbat_err err;
	unsigned op;

	if (size == 0 || size > FUZZ_MAX_INPUT)
		return 0;
	make_tree();
	op = data[0];
	n = split(data + 1, size - 1, part, len);
	write_files(op, part, len, n);
	v.entry_oneshot = part[2], v.entry_oneshot_len = len[2];
	v.entry_default = part[3], v.entry_default_len = len[3];
	v.entry_last_booted = part[4], v.entry_last_booted_len = len[4];
	v.config_timeout = part[5], v.config_timeout_len = len[5];
	v.config_timeout_oneshot = part[6], v.config_timeout_oneshot_len = len[6];
	err = sbat_sdboot_menu_load(esp, xbootldr, "\\EFI\\systemd\\systemd-bootx64.efi", op & 4 ? 0xaa64 : 0x8664, &v,
	                            &m, &d);
	if (err == SBAT_E_NOMEM)
		return 0;
	if (err != SBAT_OK || !m)
		fail("the menu cannot be read");
	check_menu(m, n > 1 ? count_lines(part[1], len[1]) : 0);
	sbat_sdboot_menu_free(m);
	return 0;
}
