/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-sdboot.c - systemd-boot's menu from small ESP trees: order, boot counting, what is left out, the default */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-tree.h"
#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fixture.h"
#include "sbat/sdboot.h"

#include "boot/sdrelease.h"

#define SELF "\\EFI\\systemd\\systemd-bootx64.efi"

static unsigned seq;

static int
setup(void **state)
{
	(void)state;
	return tree_setup("sbat-sdboot");
}

static int
teardown(void **state)
{
	(void)state;
	return tree_teardown();
}

/* A new empty partition below base; a static path of its own. */
static const char *
new_part(char *out, size_t size)
{
	snprintf(out, size, "%s/p%u", base, seq++);
	assert_int_equal(mkdir(out, 0755), 0);
	return out;
}

/* A Type #1 entry starting /k (present) with a title, and the extra lines given. */
static void
entry(const char *root, const char *name, const char *extra)
{
	char rel[512], text[2048];

	snprintf(rel, sizeof(rel), "loader/entries/%s", name);
	snprintf(text, sizeof(text), "title %s\n%slinux /k\n", name, extra ? extra : "");
	put(root, rel, text, 0);
}

static sbat_sdboot_menu *
load(const char *esp, const char *xbootldr, const sbat_sdboot_vars *vars)
{
	sbat_sdboot_menu *m = NULL;
	sbat_diag d;

	assert_int_equal(sbat_sdboot_menu_load(esp, xbootldr, SELF, 0x8664, vars, &m, &d), SBAT_OK);
	assert_non_null(m);
	return m;
}

/* The menu's listed entries are ids[] in this order (NULL-ended). */
static void
assert_order(const sbat_sdboot_menu *m, const char *const *ids)
{
	size_t i;

	for (i = 0; ids[i]; i++) {
		assert_true(i < m->n_listed);
		assert_string_equal(sbat_sdboot_menu_entry(m, i)->id, ids[i]);
	}
	assert_int_equal(m->n_listed, i);
}

/* The entry of id in m; fails when none. */
static const sbat_sdboot_entry *
find(const sbat_sdboot_menu *m, const char *id)
{
	size_t i;

	for (i = 0; i < m->n_entries; i++)
		if (strcmp(sbat_sdboot_menu_entry(m, i)->id, id) == 0)
			return sbat_sdboot_menu_entry(m, i);
	fail_msg("no entry %s", id);
	return NULL;
}

static void
test_boot_counting(void **state)
{
	static const struct {
		const char *name;
		int left, done;
	} cases[] = {
		{ "os-1.conf", -1, -1 },     { "os-2+0-3.conf", 0, 3 },  { "os-3+1-2.conf", 1, 2 },
		{ "os-4+3.conf", 3, 0 },     { "os-5+x.conf", -1, -1 },  { "os-6+1-2-b.conf", -1, -1 },
		{ "OS-7+2-1.CONF", -1, -1 }, { "os-8+1-.conf", -1, -1 }, { "os-9+99999999999.conf", -1, -1 },
	};
	static const char *const order[] = {
		"os-9+99999999999.conf", "os-8+1-.conf",  "os-7+2-1.conf", "os-6+1-2-b.conf", "os-5+x.conf",
		"os-4+3.conf",           "os-3+1-2.conf", "os-1.conf",     "os-2+0-3.conf",   NULL
	};
	char esp[4096];
	sbat_sdboot_menu *m;
	size_t i;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		entry(esp, cases[i].name, NULL);
	m = load(esp, NULL, NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char id[64];
		size_t k;

		snprintf(id, sizeof(id), "%s", cases[i].name);
		for (k = 0; id[k]; k++)
			id[k] = (char)(id[k] >= 'A' && id[k] <= 'Z' ? id[k] + 32 : id[k]);
		assert_int_equal(find(m, id)->tries_left, cases[i].left);
		assert_int_equal(find(m, id)->tries_done, cases[i].done);
	}
	/* newest id first; no tries left: last */
	assert_order(m, order);
	assert_int_equal(m->default_by, SBAT_SDBOOT_BY_FIRST);
	assert_int_equal(m->default_index, 0);
	sbat_sdboot_menu_free(m);
}

static void
test_sort_key_before_title(void **state)
{
	static const char *const order[] = { "d.conf", "c.conf", "b.conf", "z-old.conf", "a-old.conf", NULL };
	char esp[4096];
	sbat_sdboot_menu *m;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	/* titles would order them the other way round */
	put(esp, "loader/entries/a-old.conf", "title A\nlinux /k\n", 0);
	put(esp, "loader/entries/z-old.conf", "title B\nlinux /k\n", 0);
	put(esp, "loader/entries/b.conf", "title C\nsort-key debian\nversion 6.1\nlinux /k\n", 0);
	put(esp, "loader/entries/c.conf", "title D\nsort-key debian\nversion 6.12\nlinux /k\n", 0);
	put(esp, "loader/entries/d.conf", "title E\nsort-key arch\nversion 1\nlinux /k\n", 0);
	m = load(esp, NULL, NULL);
	assert_order(m, order);
	assert_string_equal(find(m, "c.conf")->sort_key, "debian");
	assert_int_equal(find(m, "c.conf")->sort_key_line, 2);
	assert_int_equal(find(m, "c.conf")->version_line, 3);
	assert_int_equal(find(m, "c.conf")->loader_line, 4);
	assert_string_equal(find(m, "c.conf")->loader, "\\k");
	assert_null(find(m, "a-old.conf")->sort_key);
	sbat_sdboot_menu_free(m);
}

static void
test_version_order(void **state)
{
	/* newest first: longer is newer, '^' after the end, '~' before it, digits newer than letters */
	static const char *const versions[] = { "6.1", "6.b", "6.1~rc1", "6.9", "6.1^1", "6.12", NULL };
	static const char *const order[] = { "v6.conf", "v4.conf", "v5.conf", "v1.conf", "v3.conf", "v2.conf", NULL };
	char esp[4096], name[32], extra[128];
	sbat_sdboot_menu *m;
	size_t i;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	for (i = 0; versions[i]; i++) {
		snprintf(name, sizeof(name), "v%zu.conf", i + 1);
		snprintf(extra, sizeof(extra), "sort-key os\nversion %s\n", versions[i]);
		entry(esp, name, extra);
	}
	m = load(esp, NULL, NULL);
	assert_order(m, order);
	sbat_sdboot_menu_free(m);
}

static void
test_machine_id_before_version(void **state)
{
	static const char *const order[] = { "m-a.conf", "m-b.conf", NULL };
	char esp[4096];
	sbat_sdboot_menu *m;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "m-a.conf", "sort-key os\nmachine-id aaaa\nversion 1\n");
	entry(esp, "m-b.conf", "sort-key os\nmachine-id bbbb\nversion 9\n");
	m = load(esp, NULL, NULL);
	assert_order(m, order);
	assert_string_equal(find(m, "m-b.conf")->machine_id, "bbbb");
	sbat_sdboot_menu_free(m);
}

static void
test_default_glob(void **state)
{
	static const struct {
		const char *conf;
		const char *id; /* the default */
		sbat_sdboot_by by;
	} cases[] = {
		{ "default debian-6.1*\n", "debian-6.12.conf", SBAT_SDBOOT_BY_CONF_DEFAULT }, /* first in the menu */
		{ "default *6.1.conf\n", "debian-6.1.conf", SBAT_SDBOOT_BY_CONF_DEFAULT },
		{ "default DEBIAN-6.1.CONF\n", "debian-6.1.conf", SBAT_SDBOOT_BY_CONF_DEFAULT },
		{ "default debian-6.?.conf\n", "debian-6.1.conf", SBAT_SDBOOT_BY_CONF_DEFAULT },
		{ "default [a-c]*\n", "arch.conf", SBAT_SDBOOT_BY_CONF_DEFAULT },
		{ "default nomatch*\n", "debian-6.12.conf", SBAT_SDBOOT_BY_FIRST },
		{ "default gone.conf\n", "debian-6.12.conf", SBAT_SDBOOT_BY_FIRST }, /* left out: not matched */
		{ "timeout 3\n", "debian-6.12.conf", SBAT_SDBOOT_BY_FIRST },
	};
	char esp[4096];
	size_t i;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "debian-6.1.conf", "version 6.1\n");
	entry(esp, "debian-6.12.conf", "version 6.12\n");
	entry(esp, "arch.conf", NULL);
	put(esp, "loader/entries/gone.conf", "linux /missing\n", 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sbat_sdboot_menu *m;

		put(esp, "loader/loader.conf", cases[i].conf, 0);
		m = load(esp, NULL, NULL);
		assert_true(m->has_default);
		assert_int_equal(m->default_by, cases[i].by);
		assert_string_equal(sbat_sdboot_menu_entry(m, m->default_index)->id, cases[i].id);
		assert_non_null(m->conf_file);
		sbat_sdboot_menu_free(m);
	}
}

/* text as UTF-16LE with its NUL into out; its length */
static size_t
ucs2(uint8_t *out, const char *text)
{
	size_t i;

	for (i = 0; i <= strlen(text); i++) {
		out[2 * i] = (uint8_t)text[i];
		out[2 * i + 1] = 0;
	}
	return 2 * i;
}

typedef struct pcase {
	const char *oneshot, *efi_default, *last_booted, *timeout; /* variables; NULL: not set */
	const char *conf;                                          /* loader.conf */
	int has_default;
	const char *id;
	sbat_sdboot_by by;
	const char *pattern;
} pcase;

static const pcase pcases[] = {
	{ "b.conf", "c.conf", NULL, NULL, "default d.conf\n", 1, "b.conf", SBAT_SDBOOT_BY_ONESHOT, "b.conf" },
	{ "B*", "c.conf", NULL, NULL, "default d.conf\n", 1, "b.conf", SBAT_SDBOOT_BY_ONESHOT, "b*" },
	{ "none", "c.conf", NULL, NULL, "default d.conf\n", 1, "c.conf", SBAT_SDBOOT_BY_EFI_DEFAULT, "c.conf" },
	{ NULL, "none", NULL, NULL, "default d.conf\n", 1, "d.conf", SBAT_SDBOOT_BY_CONF_DEFAULT, "d.conf" },
	{ NULL, NULL, NULL, NULL, "default d.conf\n", 1, "d.conf", SBAT_SDBOOT_BY_CONF_DEFAULT, "d.conf" },
	{ NULL, "@saved", "b.conf", NULL, "default d.conf\n", 1, "b.conf", SBAT_SDBOOT_BY_EFI_SAVED, "b.conf" },
	{ NULL, "@saved", NULL, NULL, "default d.conf\n", 1, "d.conf", SBAT_SDBOOT_BY_CONF_DEFAULT, "d.conf" },
	{ NULL, NULL, "c.conf", NULL, "default @saved\n", 1, "c.conf", SBAT_SDBOOT_BY_CONF_SAVED, "c.conf" },
	{ NULL, NULL, NULL, NULL, "default @saved\n", 1, "d.conf", SBAT_SDBOOT_BY_FIRST, NULL },
	{ "b.conf", NULL, NULL, NULL, "timeout menu-force\n", 0, NULL, SBAT_SDBOOT_BY_MENU_FORCE, NULL },
	{ "b.conf", NULL, NULL, "5", "timeout menu-force\n", 1, "b.conf", SBAT_SDBOOT_BY_ONESHOT, "b.conf" },
	{ NULL, NULL, NULL, "menu-force", "timeout 5\n", 0, NULL, SBAT_SDBOOT_BY_MENU_FORCE, NULL },
};

static void
check_precedence(const char *esp, const pcase *c)
{
	uint8_t one[128], def[128], last[128], tmo[128];
	sbat_sdboot_vars v = SBAT_SDBOOT_VARS_INIT;
	sbat_sdboot_menu *m;

	if (c->oneshot)
		v.entry_oneshot_len = ucs2(one, c->oneshot), v.entry_oneshot = one;
	if (c->efi_default)
		v.entry_default_len = ucs2(def, c->efi_default), v.entry_default = def;
	if (c->last_booted)
		v.entry_last_booted_len = ucs2(last, c->last_booted), v.entry_last_booted = last;
	if (c->timeout)
		v.config_timeout_len = ucs2(tmo, c->timeout), v.config_timeout = tmo;
	put(esp, "loader/loader.conf", c->conf, 0);
	m = load(esp, NULL, &v);
	assert_int_equal(m->has_default, c->has_default);
	assert_int_equal(m->default_by, c->by);
	if (c->id)
		assert_string_equal(sbat_sdboot_menu_entry(m, m->default_index)->id, c->id);
	if (c->pattern)
		assert_string_equal(m->default_pattern, c->pattern);
	else
		assert_null(m->default_pattern);
	sbat_sdboot_menu_free(m);
}

static void
test_default_precedence(void **state)
{
	char esp[4096];
	size_t i;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "b.conf", NULL);
	entry(esp, "c.conf", NULL);
	entry(esp, "d.conf", NULL);
	for (i = 0; i < sizeof(pcases) / sizeof(pcases[0]); i++)
		check_precedence(esp, &pcases[i]);
}

static void
test_left_out(void **state)
{
	static const struct {
		const char *name, *text;
		sbat_sdboot_out out;
		int certain;
	} cases[] = {
		{ "nolinux.conf", "title x\nversion 1\n", SBAT_SDBOOT_OUT_NO_LOADER, 1 },
		{ "missing.conf", "title x\nlinux /6.1/linux\n", SBAT_SDBOOT_OUT_LOADER_NOT_FOUND, 1 },
		{ "link.conf", "title x\nlinux /link\n", SBAT_SDBOOT_OUT_LOADER_NOT_FOUND, 0 },
		{ "self.conf", "efi /efi/SYSTEMD/systemd-bootx64.efi\n", SBAT_SDBOOT_OUT_SELF, 1 },
		{ "arm.conf", "architecture aa64\nlinux /k\n", SBAT_SDBOOT_OUT_ARCH, 1 },
		{ "x64.conf", "architecture x64\nlinux /k\n", SBAT_SDBOOT_LISTED, 0 },
		{ "upper.conf", "architecture X64\nlinux /k\n", SBAT_SDBOOT_OUT_ARCH,
		  0 }, /* version not known: 252's rules, but 257 lists it */
		{ "initrd.conf", "linux /k\ninitrd /k\ninitrd /gone.img\n", SBAT_SDBOOT_LISTED, 0 },
	};
	char esp[4096], p[8192];
	sbat_sdboot_menu *m;
	size_t i;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	snprintf(p, sizeof(p), "%s/link", esp);
	assert_int_equal(symlink("k", p), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(p, sizeof(p), "loader/entries/%s", cases[i].name);
		put(esp, p, cases[i].text, 0);
	}
	put(esp, "loader/entries/auto-x.conf", "linux /k\n", 0);
	put(esp, "loader/entries/.hidden.conf", "linux /k\n", 0);
	put(esp, "loader/entries/other.txt", "linux /k\n", 0);
	m = load(esp, NULL, NULL);
	assert_int_equal(m->n_entries, sizeof(cases) / sizeof(cases[0]));
	assert_int_equal(m->n_listed, 2);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const sbat_sdboot_entry *e = find(m, cases[i].name);

		assert_int_equal(e->out, cases[i].out);
		assert_int_equal(e->out_certain, cases[i].certain);
	}
	assert_int_equal(find(m, "missing.conf")->loader_miss, SBAT_PARTITION_MISSING);
	assert_string_equal(find(m, "missing.conf")->loader, "\\6.1\\linux");
	assert_int_equal(find(m, "link.conf")->loader_miss, SBAT_PARTITION_SYMLINK);
	assert_string_equal(find(m, "arm.conf")->arch, "aa64");
	assert_string_equal(find(m, "initrd.conf")->missing_key, "initrd");
	assert_string_equal(find(m, "initrd.conf")->missing_path, "\\gone.img");
	assert_int_equal(find(m, "initrd.conf")->missing_line, 3);
	assert_non_null(find(m, "initrd.conf")->loader_host);
	assert_string_equal(sbat_sdboot_out_name(find(m, "arm.conf")->out), "architecture");
	sbat_sdboot_menu_free(m);
}

static void
test_more_than_the_limit(void **state)
{
	char esp[4096], name[32];
	sbat_sdboot_menu *m;
	size_t i;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	for (i = 0; i < SBAT_SDBOOT_MAX_ENTRIES + 44; i++) {
		snprintf(name, sizeof(name), "e%zu.conf", i);
		entry(esp, name, NULL);
	}
	m = load(esp, NULL, NULL);
	assert_int_equal(m->n_entries, SBAT_SDBOOT_MAX_ENTRIES);
	assert_int_equal(m->entries_over, 44);
	assert_true(m->over_limit);
	assert_false(m->has_default);
	assert_int_equal(m->default_by, SBAT_SDBOOT_BY_OVER_LIMIT);
	sbat_sdboot_menu_free(m);

	/* exactly the limit: all read, no flag */
	for (i = SBAT_SDBOOT_MAX_ENTRIES; i < SBAT_SDBOOT_MAX_ENTRIES + 44; i++) {
		char p[8192];

		snprintf(p, sizeof(p), "%s/loader/entries/e%zu.conf", esp, i);
		assert_int_equal(unlink(p), 0);
	}
	m = load(esp, NULL, NULL);
	assert_int_equal(m->n_listed, SBAT_SDBOOT_MAX_ENTRIES);
	assert_false(m->over_limit);
	assert_true(m->has_default);
	sbat_sdboot_menu_free(m);
}

static void
test_ukis_and_xbootldr(void **state)
{
	fx_uki u = { "257.1", NULL, NULL, NULL, 0, 0 };
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	char esp[4096], xb[4096];
	sbat_sdboot_menu *m;
	const sbat_sdboot_entry *e;

	(void)state;
	new_part(esp, sizeof(esp));
	new_part(xb, sizeof(xb));
	fx_uki_spec(&spec, &u);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	put(esp, "EFI/Linux/fixture.efi", buf, len);
	free(buf);
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	put(esp, "EFI/Linux/no-osrel.efi", buf, len);
	free(buf);
	put(esp, "EFI/Linux/junk.efi", "not a PE", 0);
	put(xb, "7.0/linux", "kernel", 0);
	put(xb, "loader/entries/debian-7.0.conf", "title Debian 13\nversion 7.0\nlinux /7.0/linux\n", 0);
	m = load(esp, xb, NULL);
	assert_int_equal(m->n_entries, 4);
	assert_int_equal(m->n_listed, 2);
	e = find(m, "fixture.efi");
	assert_int_equal(e->kind, SBAT_SDBOOT_KIND_UKI);
	assert_string_equal(e->title, "fixture");
	assert_string_equal(e->sort_key, "fixture");
	assert_string_equal(e->version, "1");
	assert_string_equal(e->loader, "\\EFI\\Linux\\fixture.efi");
	assert_int_equal(e->on_xbootldr, 0);
	assert_int_equal(find(m, "no-osrel.efi")->out, SBAT_SDBOOT_OUT_NO_OSREL);
	assert_int_equal(find(m, "junk.efi")->out, SBAT_SDBOOT_OUT_NOT_IMAGE);
	assert_int_equal(find(m, "junk.efi")->out_certain, 0);
	e = find(m, "debian-7.0.conf");
	assert_int_equal(e->on_xbootldr, 1);
	assert_int_equal(e->kind, SBAT_SDBOOT_KIND_LINUX);
	assert_non_null(e->loader_host);
	/* the UKI has a sort key, the entry none: the UKI first */
	assert_string_equal(sbat_sdboot_menu_entry(m, 0)->id, "fixture.efi");
	sbat_sdboot_menu_free(m);
}

static void
test_notes(void **state)
{
	static const uint8_t odd[] = { 'a', 0, 'b' };
	sbat_sdboot_vars v;
	char esp[4096];
	sbat_sdboot_menu *m = NULL;
	sbat_diag d;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	put(esp, "loader/loader.conf", "default @foo\ntimeout soon\neditor\ndefault b*\n", 0);
	put(esp, "loader/entries/b.conf", "title\nlinux /k\n", 0);
	sbat_sdboot_vars_init(&v);
	v.entry_oneshot = odd;
	v.entry_oneshot_len = sizeof(odd);
	m = load(esp, NULL, &v);
	assert_int_equal(m->n_notes, 5);
	assert_int_equal(m->notes[0].kind, SBAT_SDBOOT_NOTE_DEFAULT_SPECIAL);
	assert_int_equal(m->notes[0].line, 1);
	assert_int_equal(m->notes[1].kind, SBAT_SDBOOT_NOTE_TIMEOUT);
	assert_int_equal(m->notes[1].line, 2);
	assert_int_equal(m->notes[2].kind, SBAT_SDBOOT_NOTE_LINE);
	assert_int_equal(m->notes[2].line, 3);
	assert_int_equal(m->notes[3].kind, SBAT_SDBOOT_NOTE_LINE);
	assert_non_null(strstr(m->notes[3].file, "b.conf"));
	assert_int_equal(m->notes[4].kind, SBAT_SDBOOT_NOTE_VARIABLE);
	assert_int_equal(m->notes[4].var, SBAT_SDBOOT_VAR_ENTRY_ONESHOT);
	assert_null(m->notes[4].file);
	assert_string_equal(m->conf_default, "b*");
	assert_int_equal(m->conf_default_line, 4);
	assert_int_equal(m->default_by, SBAT_SDBOOT_BY_CONF_DEFAULT);
	sbat_sdboot_menu_free(m);

	v.size = 8;
	m = (sbat_sdboot_menu *)&d;
	assert_int_equal(sbat_sdboot_menu_load(esp, NULL, SELF, 0x8664, &v, &m, &d), SBAT_E_ABI);
	assert_null(m);
	sbat_sdboot_menu_free(NULL);
}

/* The menu of esp as systemd-boot `version` builds it (NULL: not known), loader.conf conf (NULL: none). */
static sbat_sdboot_menu *
load_version(const char *esp, const char *version, const char *conf)
{
	sbat_sdboot_vars v = SBAT_SDBOOT_VARS_INIT;

	v.version = version;
	if (conf)
		put(esp, "loader/loader.conf", conf, 0);
	return load(esp, NULL, &v);
}

/* The default entry of m is id, chosen by `by`. */
static void
assert_default(const sbat_sdboot_menu *m, const char *id, sbat_sdboot_by by)
{
	assert_true(m->has_default);
	assert_int_equal(m->default_by, by);
	assert_string_equal(sbat_sdboot_menu_entry(m, m->default_index)->id, id);
}

/* The default of m is not known: the releases choose differently. */
static void
assert_version_unknown(const sbat_sdboot_menu *m)
{
	assert_false(m->has_default);
	assert_int_equal(m->default_by, SBAT_SDBOOT_BY_VERSION_UNKNOWN);
	assert_null(m->default_pattern);
	assert_string_equal(sbat_sdboot_by_name(m->default_by), "version-unknown");
}

/* 257 matches `architecture` in any case (f819a516db), 252 to 256 in this case only. */
static void
test_version_architecture_case(void **state)
{
	char esp[4096];
	sbat_sdboot_menu *m;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "a.conf", NULL);
	entry(esp, "z.conf", "architecture X64\n");
	m = load_version(esp, "256.7", NULL);
	assert_int_equal(m->rules, 252);
	assert_int_equal(m->release, 256);
	assert_int_equal(find(m, "z.conf")->out, SBAT_SDBOOT_OUT_ARCH);
	assert_int_equal(find(m, "z.conf")->out_certain, 1);
	assert_default(m, "a.conf", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, "257.1", NULL);
	assert_int_equal(m->rules, 257);
	assert_int_equal(find(m, "z.conf")->out, SBAT_SDBOOT_LISTED);
	assert_default(m, "z.conf", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, NULL, NULL);
	assert_int_equal(m->release, 0);
	assert_int_equal(m->rules, 252);
	assert_int_equal(find(m, "z.conf")->out_certain, 0);
	assert_true(find(m, "z.conf")->version_dependent);
	assert_false(find(m, "a.conf")->version_dependent);
	assert_version_unknown(m);
	sbat_sdboot_menu_free(m);
}

/* 257 reads a boot counter before ".CONF" too (764faf6040): no tries left puts it last. */
static void
test_version_counter_suffix_case(void **state)
{
	char esp[4096];
	sbat_sdboot_menu *m;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "a.conf", NULL);
	entry(esp, "os+0-3.CONF", NULL);
	m = load_version(esp, "255.4", NULL);
	assert_int_equal(find(m, "os+0-3.conf")->tries_left, -1);
	assert_default(m, "os+0-3.conf", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, "257.9", NULL);
	assert_int_equal(find(m, "os+0-3.conf")->tries_left, 0);
	assert_default(m, "a.conf", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, "garbage", NULL);
	assert_version_unknown(m);
	sbat_sdboot_menu_free(m);
}

/* 257 skips "Auto-" names too (759cf7e10a); 252 to 256 skip "auto-" only. */
static void
test_version_auto_prefix_case(void **state)
{
	char esp[4096];
	sbat_sdboot_menu *m;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "a.conf", NULL);
	entry(esp, "Auto-z.conf", NULL);
	entry(esp, "auto-y.conf", NULL);
	m = load_version(esp, "252.3", NULL);
	assert_int_equal(m->n_entries, 2);
	assert_default(m, "auto-z.conf", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, "257", NULL);
	assert_int_equal(m->n_entries, 1);
	assert_default(m, "a.conf", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, NULL, NULL);
	assert_true(find(m, "auto-z.conf")->version_dependent);
	assert_version_unknown(m);
	sbat_sdboot_menu_free(m);
}

/* 258 leaves out an entry with two loader kinds and reads `uki` (149609cfcb, e2a3d56218). */
static void
test_version_loader_kinds(void **state)
{
	char esp[4096];
	sbat_sdboot_menu *m;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "a.conf", NULL);
	put(esp, "loader/entries/z.conf", "linux /k\nefi /k\n", 0);
	put(esp, "loader/entries/u.conf", "uki /k\n", 0);
	m = load_version(esp, "257.1", NULL);
	assert_int_equal(find(m, "z.conf")->kind, SBAT_SDBOOT_KIND_EFI);
	assert_int_equal(find(m, "u.conf")->out, SBAT_SDBOOT_OUT_NO_LOADER);
	assert_default(m, "z.conf", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, "258~rc2", NULL);
	assert_int_equal(m->rules, 258);
	assert_int_equal(find(m, "z.conf")->out, SBAT_SDBOOT_OUT_CONFLICT);
	assert_int_equal(find(m, "z.conf")->out_certain, 1);
	assert_string_equal(sbat_sdboot_out_name(SBAT_SDBOOT_OUT_CONFLICT), "conflict");
	assert_int_equal(find(m, "u.conf")->out, SBAT_SDBOOT_LISTED);
	assert_int_equal(find(m, "u.conf")->kind, SBAT_SDBOOT_KIND_TYPE1_UKI);
	assert_string_equal(find(m, "u.conf")->loader, "\\k");
	assert_default(m, "u.conf", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, NULL, NULL);
	assert_version_unknown(m);
	sbat_sdboot_menu_free(m);
}

/* 259 drops the boot counter from ids (4301ad00ef): "default b.conf" matches b+3.conf. */
static void
test_version_id_without_counter(void **state)
{
	fx_uki u = { "259.1", NULL, NULL, NULL, 0, 0 };
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	char esp[4096];
	sbat_sdboot_menu *m;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "c.conf", NULL);
	entry(esp, "b+3.conf", NULL);
	fx_uki_spec(&spec, &u);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	put(esp, "EFI/Linux/Fix+2-1.efi", buf, len);
	free(buf);
	m = load_version(esp, "258.2", "default b.conf\n");
	assert_non_null(find(m, "b+3.conf"));
	assert_non_null(find(m, "fix+2-1.efi"));
	assert_default(m, "fix+2-1.efi", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, "259.3-1-arch", NULL);
	assert_int_equal(m->rules, 259);
	assert_int_equal(find(m, "b.conf")->tries_left, 3);
	assert_int_equal(find(m, "Fix.efi")->tries_left, 2); /* a UKI's id keeps its case */
	assert_default(m, "b.conf", SBAT_SDBOOT_BY_CONF_DEFAULT);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, "261", NULL);
	assert_int_equal(m->release, 261);
	assert_int_equal(m->rules, 259);
	sbat_sdboot_menu_free(m);
	m = load_version(esp, NULL, NULL);
	assert_version_unknown(m);
	sbat_sdboot_menu_free(m);
}

/* 258 starts LoaderEntrySysFail's entry first after a failed firmware update (004e3e4082): not read here. */
static void
test_version_sysfail(void **state)
{
	sbat_sdboot_vars v = SBAT_SDBOOT_VARS_INIT;
	uint8_t text[64];
	char esp[4096];
	sbat_sdboot_menu *m;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "a.conf", NULL);
	entry(esp, "rescue.conf", NULL);
	v.entry_sysfail_len = ucs2(text, "Rescue*");
	v.entry_sysfail = text;
	v.version = "257.4";
	m = load(esp, NULL, &v);
	assert_default(m, "rescue.conf", SBAT_SDBOOT_BY_FIRST);
	sbat_sdboot_menu_free(m);
	put(esp, "loader/loader.conf", "default a.conf\n", 0);
	m = load(esp, NULL, &v);
	assert_default(m, "a.conf", SBAT_SDBOOT_BY_CONF_DEFAULT);
	sbat_sdboot_menu_free(m);
	v.version = "258.1";
	m = load(esp, NULL, &v);
	assert_false(m->has_default);
	assert_int_equal(m->default_by, SBAT_SDBOOT_BY_SYSFAIL);
	assert_string_equal(m->default_pattern, "rescue*");
	assert_string_equal(sbat_sdboot_by_name(m->default_by), "sysfail");
	assert_string_equal(sbat_sdboot_var_name(SBAT_SDBOOT_VAR_ENTRY_SYSFAIL), "LoaderEntrySysFail");
	sbat_sdboot_menu_free(m);
	/* the entry it names is the default anyway: known */
	put(esp, "loader/loader.conf", "default rescue.conf\n", 0);
	m = load(esp, NULL, &v);
	assert_default(m, "rescue.conf", SBAT_SDBOOT_BY_CONF_DEFAULT);
	sbat_sdboot_menu_free(m);
	/* a caller built before entry_sysfail: its version is read, the variable is not */
	put(esp, "loader/loader.conf", "default a.conf\n", 0);
	v.size = offsetof(sbat_sdboot_vars, entry_sysfail);
	m = load(esp, NULL, &v);
	assert_int_equal(m->release, 258);
	assert_default(m, "a.conf", SBAT_SDBOOT_BY_CONF_DEFAULT);
	sbat_sdboot_menu_free(m);
}

/* No version, or one that is not read: where every release agrees, the default is known. */
static void
test_version_unknown(void **state)
{
	static const char *const unknown[] = { NULL, "", "v257", "25x", "251.4", "systemd-boot" };
	sbat_sdboot_vars v = SBAT_SDBOOT_VARS_INIT;
	char esp[4096];
	sbat_sdboot_menu *m;
	size_t i;

	(void)state;
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "a.conf", NULL);
	entry(esp, "b+2.conf", NULL);
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		m = load_version(esp, unknown[i], "default a.conf\n");
		assert_int_equal(m->rules, 252);
		assert_int_equal(m->release, i == 4 ? 251 : 0);
		assert_default(m, "a.conf", SBAT_SDBOOT_BY_CONF_DEFAULT);
		assert_false(find(m, "b+2.conf")->version_dependent);
		sbat_sdboot_menu_free(m);
	}
	/* a caller built before `version`: its smaller size, read as no version */
	v.size = offsetof(sbat_sdboot_vars, version);
	v.version = "259";
	m = load(esp, NULL, &v);
	assert_int_equal(m->release, 0);
	sbat_sdboot_menu_free(m);
	/* 259 reads "default b.conf" as b+2.conf, earlier releases as nothing: their first, c.conf */
	entry(esp, "c.conf", NULL);
	m = load_version(esp, NULL, "default b.conf\n");
	assert_version_unknown(m);
	sbat_sdboot_menu_free(m);
}

/* The release table: rows oldest first, each release after the first a row's, features only ever added. */
static void
test_release_table(void **state)
{
	static const struct {
		unsigned release, rules, features;
	} cases[] = {
		{ 251, 0, 0 },
		{ 252, 252, 0 },
		{ 256, 252, 0 },
		{ 257, 257, SBAT_SDBOOT_CASE_FOLDED },
		{ 258, 258,
		  SBAT_SDBOOT_CASE_FOLDED | SBAT_SDBOOT_UKI_KEY | SBAT_SDBOOT_ONE_KIND | SBAT_SDBOOT_SYSFAIL },
		{ 300, 259,
		  SBAT_SDBOOT_CASE_FOLDED | SBAT_SDBOOT_UKI_KEY | SBAT_SDBOOT_ONE_KIND | SBAT_SDBOOT_SYSFAIL |
		      SBAT_SDBOOT_ID_WITHOUT_COUNTER },
	};
	const sdrelease *rows;
	size_t i, n;
	char esp[4096];
	char version[16];
	sbat_sdboot_menu *m;

	(void)state;
	rows = sdrelease_rows(&n);
	assert_true(n >= 2);
	for (i = 1; i < n; i++) {
		assert_true(rows[i].release > rows[i - 1].release);
		assert_int_equal(rows[i].features & rows[i - 1].features, rows[i - 1].features);
	}
	new_part(esp, sizeof(esp));
	put(esp, "k", "kernel", 0);
	entry(esp, "a.conf", NULL);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const sdrelease *r = sdrelease_of(cases[i].release);

		assert_int_equal(r ? r->release : 0, cases[i].rules);
		assert_int_equal(r ? r->features : 0, cases[i].features);
		snprintf(version, sizeof(version), "%u.1", cases[i].release);
		m = load_version(esp, version, NULL);
		assert_int_equal(m->rules, cases[i].rules ? cases[i].rules : rows[0].release);
		assert_int_equal(m->features, cases[i].rules ? cases[i].features : rows[0].features);
		sbat_sdboot_menu_free(m);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_counting),
		cmocka_unit_test(test_sort_key_before_title),
		cmocka_unit_test(test_version_order),
		cmocka_unit_test(test_machine_id_before_version),
		cmocka_unit_test(test_default_glob),
		cmocka_unit_test(test_default_precedence),
		cmocka_unit_test(test_left_out),
		cmocka_unit_test(test_more_than_the_limit),
		cmocka_unit_test(test_ukis_and_xbootldr),
		cmocka_unit_test(test_notes),
		cmocka_unit_test(test_version_architecture_case),
		cmocka_unit_test(test_version_counter_suffix_case),
		cmocka_unit_test(test_version_auto_prefix_case),
		cmocka_unit_test(test_version_loader_kinds),
		cmocka_unit_test(test_version_id_without_counter),
		cmocka_unit_test(test_version_sysfail),
		cmocka_unit_test(test_version_unknown),
		cmocka_unit_test(test_release_table),
	};

	return run_group(tests, setup, teardown);
}
