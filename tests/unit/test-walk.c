/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-walk.c - sbat_walk_next_boot's decisions on the report, from small efivarfs and ESP snapshots, one table row each */
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
#include "sbat/sbat.h"

#define GLOBAL "-8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define SHIM_VARS "-605dab50-e046-4300-abb6-3dd810dd8b23"
#define SHIM_SBAT "sbat,1,SBAT Version,sbat,1,https://example.org/sbat\nshim,4,UEFI shim,shim,1,https://example.org\n"
#define GRUB_SBAT "sbat,1,SBAT Version,sbat,1,https://example.org/sbat\ngrub,3,Free Software Foundation,grub,2.12,x\n"
#define GRUB_CFG "set timeout=5\nmenuentry 'Debian' {\n\tlinux /vmlinuz\n}\n"

static unsigned seq;
static uint16_t img_machine; /* the machine of the images put_image makes; 0: the fixture's (x86-64) */

static int
setup(void **state)
{
	(void)state;
	return tree_setup("sbat-walk");
}

static int
teardown(void **state)
{
	(void)state;
	return tree_teardown();
}

/* A variable: 4 attribute bytes (NV, BS, RT), then data. */
static void
put_var(const char *dir, const char *name, const void *data, size_t len)
{
	uint8_t buf[4096];

	assert_true(len + 4 <= sizeof(buf));
	fx_put32(buf, 7);
	memcpy(buf + 4, data, len);
	put(dir, name, buf, len + 4);
}

static void
put_text_var(const char *dir, const char *name, const char *text)
{
	put_var(dir, name, text, strlen(text));
}

static void
put_byte_var(const char *dir, const char *name, uint8_t v)
{
	put_var(dir, name, &v, 1);
}

/* An image with the sections given (name, content), built by the fixture generator. */
static void
put_image(const char *root, const char *rel, const char *const *names, const uint8_t *const *contents,
          const size_t *lens, unsigned n)
{
	fx_spec spec;
	fx_section sec;
	uint8_t *img = NULL;
	size_t len = 0;
	unsigned i;

	fx_spec_init(&spec, FX_PLAIN);
	if (img_machine)
		spec.machine = img_machine;
	for (i = 0; i < n; i++) {
		memset(&sec, 0, sizeof(sec));
		sec.name = names[i];
		sec.raw_size = lens[i] > 0x200 ? (uint32_t)lens[i] : 0x200;
		sec.virtual_size = (uint32_t)lens[i];
		sec.characteristics = FX_SCN_RDATA;
		sec.content = (const char *)contents[i];
		sec.content_len = lens[i];
		assert_int_equal(fx_spec_insert_section(&spec, 2 + i, &sec), 0);
	}
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	put(root, rel, img, len);
	free(img);
}

/* An image whose only added section is a .sbat of csv (NULL: none). */
static void
put_sbat_image(const char *root, const char *rel, const char *csv)
{
	const char *names[] = { ".sbat" };
	const uint8_t *contents[] = { (const uint8_t *)csv };
	size_t lens[] = { csv ? strlen(csv) : 0 };

	put_image(root, rel, names, contents, lens, csv ? 1 : 0);
}

/* A shim: .sbat and a .sbatlevel whose two payloads are level (automatic and latest alike). */
static void
put_shim(const char *root, const char *rel, const char *level)
{
	uint8_t payload[512];
	size_t n = strlen(level) + 1;
	const char *names[] = { ".sbat", ".sbatlev" }; /* the 8 bytes a linker without long names leaves */
	const uint8_t *contents[] = { (const uint8_t *)SHIM_SBAT, payload };
	size_t lens[] = { strlen(SHIM_SBAT), 12 + 2 * n };

	assert_true(12 + 2 * n <= sizeof(payload));
	fx_put32(payload, 0);
	fx_put32(payload + 4, 8);
	fx_put32(payload + 8, (uint32_t)(8 + n));
	memcpy(payload + 12, level, n);
	memcpy(payload + 12 + n, level, n);
	put_image(root, rel, names, contents, lens, 2);
}

/* UCS-2 of s into out; the bytes written, NUL included. */
static size_t
ucs2(uint8_t *out, const char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i <= n; i++)
		fx_put16(out + 2 * i, (uint8_t)s[i]);
	return 2 * (n + 1);
}

/*
 * Boot#### for a file at path (NULL: no File() node) on GPT partition
 * guid (NULL: no HD() node), with the attributes and optional data given.
 */
static void
put_option(const char *dir, unsigned num, uint32_t attrs, const char *desc, const char *guid_byte, const char *path,
           const char *opt)
{
	uint8_t buf[2048], dp[1024];
	size_t n = 0, at = 0;
	char name[64];

	if (guid_byte) {
		memset(dp, 0, 42);
		dp[0] = 4, dp[1] = 1, fx_put16(dp + 2, 42);
		fx_put32(dp + 4, 1);
		memset(dp + 24, (uint8_t)guid_byte[0], 16);
		dp[40] = 2, dp[41] = 2;
		n = 42;
	}
	if (path) {
		size_t len = ucs2(dp + n + 4, path);

		dp[n] = 4, dp[n + 1] = 4, fx_put16(dp + n + 2, (uint16_t)(4 + len));
		n += 4 + len;
	}
	dp[n] = 0x7f, dp[n + 1] = 0xff, fx_put16(dp + n + 2, 4);
	n += 4;
	fx_put32(buf, attrs);
	fx_put16(buf + 4, (uint16_t)n);
	at = 6 + ucs2(buf + 6, desc);
	memcpy(buf + at, dp, n);
	at += n;
	if (opt)
		at += ucs2(buf + at, opt);
	snprintf(name, sizeof(name), "Boot%04X" GLOBAL, num);
	put_var(dir, name, buf, at);
}

static void
put_order(const char *dir, const char *name, const unsigned *nums, size_t n)
{
	uint8_t *buf = malloc(4 + 2 * n);
	size_t i;

	assert_non_null(buf);
	fx_put32(buf, 7);
	for (i = 0; i < n; i++)
		fx_put16(buf + 4 + 2 * i, (uint16_t)nums[i]);
	put(dir, name, buf, 4 + 2 * n);
	free(buf);
}

/* The directory of path, in a static buffer. */
static const char *
dirname_of(const char *path)
{
	static char dir[1100];

	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	return dir;
}

/* ---- the machines ---- */

/* What a row changes in the standard machine: Secure Boot on, shim -> GRUB -> /vmlinuz on the ESP. */
typedef struct machine {
	const char *stored;    /* SbatLevelRT; NULL: none */
	const char *grub_sbat; /* NULL: GRUB_SBAT; "-": no .sbat */
	int no_secure_boot;    /* no SecureBoot variable at all */
	int inactive_first;    /* Boot0001 is not active: Boot0002 (the same path) boots */
	int missing_first;     /* Boot0001 names a file the firmware cannot open */
	int not_shim;          /* the first stage is no shim */
	int unknown_loader;    /* the second stage is neither systemd-boot nor GRUB */
	int file_only;         /* Boot0001 has no HD() node */
	int odd_order;         /* BootOrder of an odd length: malformed */
	const char *opt;       /* Boot0001's optional data, shim's load options (UCS-2) */
} machine;

typedef struct paths {
	char efivarfs[1100], esp[1100];
} paths;

static void
build(const machine *m, paths *p)
{
	static const unsigned order[] = { 1, 2 };
	/* a '/' in a File() name: EDK2's FAT driver opens nothing there, whatever the ESP holds */
	const char *shim_path = m->missing_first ? "\\EFI\\debian/shimx64.efi" : "\\EFI\\debian\\shimx64.efi";

	snprintf(p->efivarfs, sizeof(p->efivarfs), "%s/m%u/efivars", base, seq);
	snprintf(p->esp, sizeof(p->esp), "%s/m%u/esp", base, seq++);
	assert_int_equal(mkdir(p->esp, 0755) == 0 || (mkdir(dirname_of(p->esp), 0755) == 0 && mkdir(p->esp, 0755) == 0),
	                 1);
	assert_int_equal(mkdir(p->efivarfs, 0755), 0);
	if (!m->no_secure_boot)
		put_byte_var(p->efivarfs, "SecureBoot" GLOBAL, 1);
	put_byte_var(p->efivarfs, "SetupMode" GLOBAL, 0);
	if (m->stored)
		put_text_var(p->efivarfs, "SbatLevelRT" SHIM_VARS, m->stored);
	put_option(p->efivarfs, 1, m->inactive_first ? 0 : 1, "debian", m->file_only ? NULL : "A", shim_path, m->opt);
	put_option(p->efivarfs, 2, 1, "debian again", "A", "\\EFI\\debian\\shimx64.efi", NULL);
	put_order(p->efivarfs, "BootOrder" GLOBAL, order, 2);
	if (m->odd_order)
		put_var(p->efivarfs, "BootOrder" GLOBAL, "\x01\x00\x02", 3);
	if (m->not_shim)
		put_sbat_image(p->esp, "EFI/debian/shimx64.efi", GRUB_SBAT);
	else
		put_shim(p->esp, "EFI/debian/shimx64.efi", "sbat,1,2021030218\n");
	put_sbat_image(p->esp, "EFI/debian/grubx64.efi",
	               m->unknown_loader ? "sbat,1,SBAT Version,sbat,1,x\nother,1,o,other,1,x\n" :
	               m->grub_sbat && strcmp(m->grub_sbat, "-") == 0 ? NULL :
	               m->grub_sbat                                   ? m->grub_sbat :
	                                                                GRUB_SBAT);
	put(p->esp, "EFI/debian/grub.cfg", GRUB_CFG, strlen(GRUB_CFG));
	put_sbat_image(p->esp, "vmlinuz", NULL);
}

static sbat_boot_report *
walk(const paths *p, const char *shim)
{
	sbat_walk_opts o;
	sbat_boot_report *r = NULL;
	sbat_diag d;

	sbat_walk_opts_init(&o);
	o.efivarfs = p->efivarfs;
	o.esp = p->esp;
	o.shim = shim;
	o.no_signatures = 1; /* these machines have no db: SBAT alone is judged */
	assert_int_equal(sbat_walk_next_boot(&o, &r, &d), SBAT_OK);
	assert_non_null(r);
	return r;
}

/* The first stage of the report with this entry prefix and stage number; fails when there is none. */
static const sbat_boot_stage *
find(const sbat_boot_report *r, const char *entry, int stage)
{
	size_t i;

	for (i = 0; i < sbat_boot_report_count(r); i++) {
		const sbat_boot_stage *s = sbat_boot_report_stage(r, i);

		if (strncmp(s->entry, entry, strlen(entry)) == 0 && s->stage == stage)
			return s;
	}
	fail_msg("no stage %d of %s", stage, entry);
	return NULL;
}

/* The first note of this kind that says what, or NULL. */
static const sbat_boot_note *
find_note(const sbat_boot_report *r, sbat_boot_note_kind kind, sbat_boot_note_what what)
{
	size_t i;

	for (i = 0; i < sbat_boot_report_note_count(r); i++) {
		const sbat_boot_note *n = sbat_boot_report_note_at(r, i);

		if (n->kind == kind && n->what == what)
			return n;
	}
	return NULL;
}

static int
has_note(const sbat_boot_report *r, sbat_boot_note_kind kind, sbat_boot_note_what what)
{
	return find_note(r, kind, what) != NULL;
}

/* The note of the files the loader's menu was read from (--verbose). */
static const sbat_boot_note *
files_note(const sbat_boot_report *r)
{
	const sbat_boot_note *n = find_note(r, SBAT_BOOT_NOTE_VERBOSE, SBAT_BOOT_NOTE_MENU_FILES);

	assert_non_null(n);
	return n;
}

/* 1 when a note says what chose the default entry of loader's menu: by (an sbat_sdboot_by or sbat_boot_grub_by). */
static int
has_default_note(const sbat_boot_report *r, sbat_boot_loader loader, int by)
{
	size_t i;

	for (i = 0; i < sbat_boot_report_note_count(r); i++) {
		const sbat_boot_note *n = sbat_boot_report_note_at(r, i);

		if (n->what == SBAT_BOOT_NOTE_DEFAULT_ENTRY && n->loader == loader &&
		    (loader == SBAT_BOOT_LOADER_GRUB ? (int)n->grub_by : n->sdboot_by) == by)
			return 1;
	}
	return 0;
}

/* ---- the table ---- */

typedef struct row {
	const char *name;
	machine m;
	const char *entry; /* the stage checked */
	int stage;
	sbat_verdict verdict;
	sbat_boot_reason reason;
	int judge_reason; /* -1: none */
	const char *revoked, *revoked_by;
	int default_refused, default_unknown, other_refused, other_unknown;
} row;

static const row rows[] = {
	{ "boots",
	  { 0 },
	  "Boot0001",
	  3,
	  SBAT_VERDICT_BOOTS,
	  SBAT_BOOT_JUDGED,
	  SBAT_JUDGE_MISSING_PASSES,
	  NULL,
	  NULL,
	  0,
	  0,
	  0,
	  0 },
	{ "shim goes on",
	  { 0 },
	  "Boot0001",
	  1,
	  SBAT_VERDICT_BOOTS,
	  SBAT_BOOT_SHIM_GOES_ON,
	  -1,
	  NULL,
	  NULL,
	  0,
	  0,
	  0,
	  0 },
	{ "GRUB not revoked",
	  { 0 },
	  "Boot0001",
	  2,
	  SBAT_VERDICT_BOOTS,
	  SBAT_BOOT_JUDGED,
	  SBAT_JUDGE_NOT_REVOKED,
	  NULL,
	  NULL,
	  0,
	  0,
	  0,
	  0 },
	{ "GRUB revoked by the stored level",
	  { .stored = "sbat,1,2099010100\ngrub,5\n" },
	  "Boot0001",
	  2,
	  SBAT_VERDICT_REFUSED,
	  SBAT_BOOT_JUDGED,
	  SBAT_JUDGE_REVOKED,
	  "grub,3",
	  "grub,5",
	  1,
	  0,
	  1,
	  0 },
	{ "a level that revokes shim stops it",
	  { .stored = "sbat,1,2099010100\nshim,9\n" },
	  "Boot0001",
	  1,
	  SBAT_VERDICT_REFUSED,
	  SBAT_BOOT_SHIM_STOPS_REVOKED,
	  -1,
	  NULL,
	  NULL,
	  1,
	  0,
	  1,
	  0 },
	{ "a level shim cannot parse stops it",
	  { .stored = "sbat,1,2099010100\nshim\n" },
	  "Boot0001",
	  1,
	  SBAT_VERDICT_REFUSED,
	  SBAT_BOOT_SHIM_STOPS_LEVEL,
	  -1,
	  NULL,
	  NULL,
	  1,
	  0,
	  1,
	  0 },
	{ "GRUB without .sbat: shim starts it itself",
	  { .grub_sbat = "-" },
	  "Boot0001",
	  2,
	  SBAT_VERDICT_REFUSED,
	  SBAT_BOOT_JUDGED,
	  SBAT_JUDGE_MISSING,
	  NULL,
	  NULL,
	  1,
	  0,
	  1,
	  0 },
	{ "no SecureBoot variable is not known",
	  { .no_secure_boot = 1 },
	  "Boot0001",
	  1,
	  SBAT_VERDICT_UNKNOWN,
	  SBAT_BOOT_SHIM_INPUTS,
	  -1,
	  NULL,
	  NULL,
	  0,
	  1,
	  0,
	  1 },
	{ "an inactive option is skipped",
	  { .inactive_first = 1 },
	  "Boot0001",
	  0,
	  SBAT_VERDICT_INACTIVE,
	  SBAT_BOOT_INACTIVE,
	  -1,
	  NULL,
	  NULL,
	  0,
	  0,
	  0,
	  0 },
	{ "a missing file does not start",
	  { .missing_first = 1 },
	  "Boot0001",
	  1,
	  SBAT_VERDICT_SKIPPED,
	  SBAT_BOOT_NO_START,
	  -1,
	  NULL,
	  NULL,
	  0,
	  0,
	  0,
	  0 },
	{ "a second stage that is missing: shim starts its default loader",
	  { .opt = "missing.efi" },
	  "Boot0001",
	  2,
	  SBAT_VERDICT_SKIPPED,
	  SBAT_BOOT_DEFAULT_LOADER,
	  -1,
	  NULL,
	  NULL,
	  0,
	  0,
	  0,
	  0 },
	{ "a second stage named with '/': EDK2 opens nothing, shim starts its default loader",
	  { .opt = "\\EFI\\debian/grubx64.efi" },
	  "Boot0001",
	  2,
	  SBAT_VERDICT_SKIPPED,
	  SBAT_BOOT_DEFAULT_LOADER,
	  -1,
	  NULL,
	  NULL,
	  0,
	  0,
	  0,
	  0 },
	{ "no shim: not governed",
	  { .not_shim = 1 },
	  "Boot0001",
	  1,
	  SBAT_VERDICT_NOT_GOVERNED,
	  SBAT_BOOT_NOT_SHIM,
	  -1,
	  NULL,
	  NULL,
	  0,
	  0,
	  0,
	  0 },
	{ "a loader not known",
	  { .unknown_loader = 1 },
	  "Boot0001",
	  3,
	  SBAT_VERDICT_UNKNOWN,
	  SBAT_BOOT_LOADER_UNKNOWN,
	  -1,
	  NULL,
	  NULL,
	  0,
	  1,
	  0,
	  1 },
};

static void
test_rows(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const row *t = &rows[i];
		sbat_boot_report *r;
		const sbat_boot_stage *s;
		sbat_boot_outcome out;
		paths p;

		print_message("row: %s\n", t->name);
		build(&t->m, &p);
		r = walk(&p, NULL);
		s = find(r, t->entry, t->stage);
		assert_int_equal(s->verdict, t->verdict);
		assert_int_equal(s->reason, t->reason);
		assert_int_equal(s->judge_reason, t->judge_reason);
		if (t->revoked) {
			assert_string_equal(s->revoked, t->revoked);
			assert_string_equal(s->revoked_by, t->revoked_by);
		} else {
			assert_null(s->revoked);
		}
		out = sbat_boot_report_outcome(r);
		assert_int_equal(out.default_refused, t->default_refused);
		assert_int_equal(out.default_unknown, t->default_unknown);
		assert_int_equal(out.other_refused, t->other_refused);
		assert_int_equal(out.other_unknown, t->other_unknown);
		assert_false(out.no_variables || out.failed);
		sbat_boot_report_free(r);
	}
}

/* shim's line carries the SbatLevel it leaves stored: its own when there is none, a newer one kept. */
static void
test_shim_stored(void **state)
{
	machine none = { .stored = NULL }, newer = { .stored = "sbat,1,2024010900\nshim,4\n" };
	sbat_boot_report *r;
	paths p;

	(void)state;
	build(&none, &p);
	r = walk(&p, NULL);
	assert_string_equal(find(r, "Boot0001", 1)->shim_stored, "sbat,1,2021030218\n");
	sbat_boot_report_free(r);
	build(&newer, &p);
	r = walk(&p, NULL);
	assert_string_equal(find(r, "Boot0001", 1)->shim_stored, newer.stored);
	sbat_boot_report_free(r);
}

/* An option passed over makes the next one the default path. */
static void
test_default_moves_on(void **state)
{
	machine m = { .missing_first = 1 };
	sbat_boot_report *r;
	paths p;

	(void)state;
	build(&m, &p);
	r = walk(&p, NULL);
	assert_false(find(r, "Boot0001", 1)->is_default);
	assert_true(find(r, "Boot0002", 1)->is_default);
	assert_int_equal(find(r, "Boot0002", 3)->verdict, SBAT_VERDICT_BOOTS);
	sbat_boot_report_free(r);
}

/* After the default loader, the path goes on: GRUB's menu is followed from it. */
static void
test_default_loader_followed(void **state)
{
	machine m = { .opt = "missing.efi" };
	sbat_boot_report *r;
	size_t i, n2 = 0;
	paths p;

	(void)state;
	build(&m, &p);
	r = walk(&p, NULL);
	for (i = 0; i < sbat_boot_report_count(r); i++) {
		const sbat_boot_stage *s = sbat_boot_report_stage(r, i);

		if (strncmp(s->entry, "Boot0001", 8) == 0 && s->stage == 2 && n2++ == 1) {
			assert_string_equal(s->file, "\\EFI\\debian\\grubx64.efi");
			assert_int_equal(s->verdict, SBAT_VERDICT_BOOTS);
		}
	}
	assert_int_equal(n2, 2);
	assert_int_equal(find(r, "Boot0001", 3)->verdict, SBAT_VERDICT_BOOTS);
	sbat_boot_report_free(r);
}

/* GRUB's stage 3 names the rule, the menu entry and the line it came from. */
static void
test_stage3_keys(void **state)
{
	machine m = { 0 };
	const sbat_boot_stage *s;
	const sbat_boot_note *n;
	sbat_boot_report *r;
	paths p;

	(void)state;
	build(&m, &p);
	r = walk(&p, NULL);
	s = find(r, "Boot0001", 3);
	assert_int_equal(s->loader, SBAT_BOOT_LOADER_GRUB);
	assert_int_equal(s->rule, SBAT_BOOT_RULE_SHIM_LOCK);
	assert_string_equal(s->menu_entry, "menuentry 'Debian'");
	assert_true(s->default_entry);
	assert_int_equal(s->grub_by, SBAT_BOOT_GRUB_BY_NOT_SET); /* set timeout=5, no default: the first entry */
	assert_true(s->default_flags & SBAT_BOOT_DEFAULT_FIRST);
	assert_true(has_default_note(r, SBAT_BOOT_LOADER_GRUB, SBAT_BOOT_GRUB_BY_NOT_SET));
	assert_non_null(strstr(s->config, "grub.cfg:3"));
	assert_string_equal(s->file, "/vmlinuz");
	assert_non_null(find_note(r, SBAT_BOOT_NOTE_VERBOSE, SBAT_BOOT_NOTE_RULE));
	assert_int_equal(find_note(r, SBAT_BOOT_NOTE_VERBOSE, SBAT_BOOT_NOTE_RULE)->loader, SBAT_BOOT_LOADER_GRUB);
	assert_int_equal(find_note(r, SBAT_BOOT_NOTE_VERBOSE, SBAT_BOOT_NOTE_RULE)->rule, SBAT_BOOT_RULE_SHIM_LOCK);
	/* GRUB without a prefix reads grub.cfg next to it: named by its path on the ESP */
	n = files_note(r);
	assert_int_equal(n->loader, SBAT_BOOT_LOADER_GRUB);
	assert_int_equal(n->n_chain, 1);
	assert_string_equal(n->chain[0], "\\EFI\\debian\\grub.cfg");
	assert_non_null(strstr(n->chain_host[0], "/EFI/debian/grub.cfg"));
	assert_true(n->chain_on_esp);
	sbat_boot_report_free(r);
}

/* The shim about to be installed decides wherever a shim starts: its level revokes GRUB. */
static void
test_next_shim(void **state)
{
	machine m = { 0 };
	const sbat_boot_stage *s;
	sbat_boot_report *r;
	char shim[1200];
	paths p;

	(void)state;
	build(&m, &p);
	snprintf(shim, sizeof(shim), "%s/new-shim.efi", p.esp);
	put_shim(p.esp, "new-shim.efi", "sbat,1,2099010100\ngrub,4\n");
	r = walk(&p, shim);
	s = find(r, "Boot0001", 2);
	assert_int_equal(s->verdict, SBAT_VERDICT_REFUSED);
	assert_string_equal(s->revoked_by, "grub,4");
	assert_string_equal(s->level, "2099010100");
	assert_true(sbat_boot_report_outcome(r).default_refused);
	sbat_boot_report_free(r);
}

/* A File()-only option is looked for on the ESP given, and the report says so in a note. */
static void
test_file_only_assumed(void **state)
{
	machine m = { .file_only = 1 };
	sbat_boot_report *r;
	paths p;

	(void)state;
	build(&m, &p);
	r = walk(&p, NULL);
	assert_true(has_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_FILE_ONLY_ESP));
	assert_int_equal(find(r, "Boot0001", 3)->verdict, SBAT_VERDICT_BOOTS);
	sbat_boot_report_free(r);
}

/* No efivarfs: no path is known; a malformed BootOrder stops the walk with an error note. */
static void
test_stopped(void **state)
{
	machine m = { .odd_order = 1 };
	sbat_boot_report *r;
	paths p;

	(void)state;
	build(&m, &p);
	r = walk(&p, NULL);
	assert_true(sbat_boot_report_outcome(r).failed);
	assert_int_equal(sbat_boot_report_count(r), 0);
	/* the verdicts are SBAT's alone with no_signatures, and the report says so */
	assert_int_equal(sbat_boot_report_note_count(r), 2);
	assert_int_equal(sbat_boot_report_note_at(r, 0)->kind, SBAT_BOOT_NOTE_ASSUMED);
	assert_int_equal(sbat_boot_report_note_at(r, 0)->what, SBAT_BOOT_NOTE_NOT_JUDGED);
	assert_int_equal(sbat_boot_report_note_at(r, 1)->what, SBAT_BOOT_NOTE_DIAG);
	assert_int_equal(sbat_boot_report_note_at(r, 1)->kind, SBAT_BOOT_NOTE_ERROR);
	assert_int_equal(sbat_boot_report_note_at(r, 1)->diag.code, SBAT_E_EFIVAR);
	sbat_boot_report_free(r);
	snprintf(p.efivarfs, sizeof(p.efivarfs), "%s/no-such-dir", base);
	r = walk(&p, NULL);
	assert_true(sbat_boot_report_outcome(r).no_variables);
	sbat_boot_report_free(r);
}

/* ---- BootOrder of any length, no BootOrder, the removable-media name ---- */

static unsigned long_order[40000];

/* Lines of stage 0 with this verdict. */
static size_t
count_stage0(const sbat_boot_report *r, sbat_verdict v)
{
	size_t i, n = 0;

	for (i = 0; i < sbat_boot_report_count(r); i++)
		if (sbat_boot_report_stage(r, i)->stage == 0 && sbat_boot_report_stage(r, i)->verdict == v)
			n++;
	return n;
}

/* A BootOrder longer than 128 numbers, and one longer than 64 KiB that repeats numbers: each option taken once. */
static void
test_long_boot_order(void **state)
{
	machine m = { 0 };
	sbat_boot_report *r;
	size_t i;
	paths p;

	(void)state;
	build(&m, &p);
	long_order[0] = 1, long_order[1] = 2;
	for (i = 2; i < 200; i++)
		long_order[i] = (unsigned)(0x100 + i);
	put_order(p.efivarfs, "BootOrder" GLOBAL, long_order, 200);
	r = walk(&p, NULL);
	assert_false(sbat_boot_report_outcome(r).failed);
	assert_true(find(r, "Boot0001", 1)->is_default);
	assert_int_equal(find(r, "Boot0001", 3)->verdict, SBAT_VERDICT_BOOTS);
	assert_int_equal(find(r, "Boot01C7", 0)->verdict, SBAT_VERDICT_SKIPPED);
	assert_int_equal(count_stage0(r, SBAT_VERDICT_SKIPPED), 198);
	sbat_boot_report_free(r);

	for (i = 2; i < 40000; i++)
		long_order[i] = (unsigned)(0x100 + i % 300);
	put_order(p.efivarfs, "BootOrder" GLOBAL, long_order, 40000);
	r = walk(&p, NULL);
	assert_false(sbat_boot_report_outcome(r).failed);
	assert_int_equal(find(r, "Boot0001", 3)->verdict, SBAT_VERDICT_BOOTS);
	assert_int_equal(count_stage0(r, SBAT_VERDICT_SKIPPED), 300);
	sbat_boot_report_free(r);
}

/* The standard machine without BootOrder (its Boot#### kept), with what the ESP's \EFI\BOOT holds. */
static void
no_order_machine(paths *p)
{
	machine m = { 0 };
	char order[1200];

	build(&m, p);
	snprintf(order, sizeof(order), "%s/BootOrder" GLOBAL, p->efivarfs);
	assert_int_equal(unlink(order), 0);
}

/* Lines marked default, of any stage. */
static size_t
count_default(const sbat_boot_report *r)
{
	size_t i, n = 0;

	for (i = 0; i < sbat_boot_report_count(r); i++)
		if (sbat_boot_report_stage(r, i)->is_default && sbat_boot_report_stage(r, i)->stage <= 1)
			n++;
	return n;
}

/*
 * No BootOrder nor BootNext: the firmware makes options of its own and
 * starts the removable-media path; it is the one default path, followed
 * to the kernel, and a note says what is taken.
 */
static void
test_no_boot_order(void **state)
{
	sbat_boot_report *r;
	sbat_boot_outcome out;
	paths p;

	(void)state;
	no_order_machine(&p);
	img_machine = FX_MACHINE_X86_64;
	put_shim(p.esp, "EFI/BOOT/BOOTX64.EFI", "sbat,1,2021030218\n");
	put_sbat_image(p.esp, "EFI/BOOT/grubx64.efi", GRUB_SBAT);
	img_machine = 0;
	put(p.esp, "EFI/BOOT/grub.cfg", GRUB_CFG, strlen(GRUB_CFG));
	r = walk(&p, NULL);
	assert_int_equal(count_default(r), 1);
	assert_true(find(r, "removable media", 1)->is_default);
	assert_string_equal(find(r, "removable media", 1)->file, "\\EFI\\BOOT\\BOOTX64.EFI");
	assert_int_equal(find(r, "removable media", 3)->verdict, SBAT_VERDICT_BOOTS);
	out = sbat_boot_report_outcome(r);
	assert_false(out.default_unknown || out.default_refused || out.other_unknown || out.failed);
	assert_true(has_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_NO_BOOT_ORDER));
	sbat_boot_report_free(r);
}

#if defined(__aarch64__)
#define OTHER_MACHINE FX_MACHINE_X86_64
#define OTHER_ARCH "x64"
#define OTHER_BOOT "BOOTX64.EFI"
#else
#define OTHER_MACHINE FX_MACHINE_ARM64
#define OTHER_ARCH "aa64"
#define OTHER_BOOT "BOOTAA64.EFI"
#endif

/*
 * The removable-media name is the ESP's machine's, not this build's: the
 * only BOOT*.EFI there, else the machine of what an option starts; when
 * nothing tells, this build's, and a note says so.
 */
static void
test_removable_machine(void **state)
{
	sbat_boot_report *r;
	paths p;

	(void)state;
	/* an ESP of another machine: its only BOOT*.EFI, shim, then a GRUB its level revokes */
	no_order_machine(&p);
	img_machine = OTHER_MACHINE;
	put_shim(p.esp, "EFI/BOOT/" OTHER_BOOT, "sbat,1,2099010100\ngrub,5\n");
	put_sbat_image(p.esp, "EFI/BOOT/grub" OTHER_ARCH ".efi", GRUB_SBAT);
	img_machine = 0;
	r = walk(&p, NULL);
	assert_string_equal(find(r, "removable media", 1)->file, "\\EFI\\BOOT\\" OTHER_BOOT);
	assert_string_equal(find(r, "removable media", 2)->file, "\\EFI\\BOOT\\grub" OTHER_ARCH ".efi");
	assert_int_equal(find(r, "removable media", 2)->verdict, SBAT_VERDICT_REFUSED);
	assert_true(sbat_boot_report_outcome(r).default_refused);
	assert_false(has_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_REMOVABLE_GUESSED));
	sbat_boot_report_free(r);

	/* two BOOT*.EFI: the machine of the shim Boot0001 starts decides */
	put_sbat_image(p.esp, "EFI/BOOT/BOOTX64.EFI", GRUB_SBAT);
	put_sbat_image(p.esp, "EFI/BOOT/BOOTAA64.EFI", GRUB_SBAT);
	img_machine = OTHER_MACHINE;
	put_shim(p.esp, "EFI/BOOT/" OTHER_BOOT, "sbat,1,2099010100\ngrub,5\n");
	put_shim(p.esp, "EFI/debian/shimx64.efi", "sbat,1,2021030218\n");
	img_machine = 0;
	{
		static const unsigned one[] = { 1 };

		put_order(p.efivarfs, "BootOrder" GLOBAL, one, 1);
	}
	r = walk(&p, NULL);
	assert_string_equal(find(r, "removable media", 1)->file, "\\EFI\\BOOT\\" OTHER_BOOT);
	assert_int_equal(find(r, "removable media", 2)->verdict, SBAT_VERDICT_REFUSED);
	assert_false(has_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_REMOVABLE_GUESSED));
	sbat_boot_report_free(r);

	/* nothing tells: no option starts a file, two BOOT*.EFI; this build's name, said in a note */
	no_order_machine(&p);
	put_sbat_image(p.esp, "EFI/BOOT/BOOTX64.EFI", GRUB_SBAT);
	put_sbat_image(p.esp, "EFI/BOOT/BOOTAA64.EFI", GRUB_SBAT);
	r = walk(&p, NULL);
	assert_true(has_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_REMOVABLE_GUESSED));
	sbat_boot_report_free(r);
}

/* ---- systemd-boot's release, from the loader's .sdmagic ---- */

/* The standard machine with systemd-boot of release `release` as shim's second stage: a.conf and b+3.conf, loader.conf's default b.conf. */
static void
sdboot_machine(const char *release, paths *p)
{
	static const char sbat[] =
	    "sbat,1,SBAT Version,sbat,1,x\nsystemd-boot,1,The systemd Developers,systemd,259,x\n";
	static const char conf[] = "default b.conf\ntimeout 3\n";
	char magic[96];
	const char *names[] = { ".sbat", ".sdmagic" };
	const uint8_t *contents[] = { (const uint8_t *)sbat, (const uint8_t *)magic };
	size_t lens[2];
	machine m = { 0 };

	build(&m, p);
	snprintf(magic, sizeof(magic), "#### LoaderInfo: systemd-boot %s ####", release);
	lens[0] = strlen(sbat);
	lens[1] = strlen(magic) + 1;
	put_image(p->esp, "EFI/debian/grubx64.efi", names, contents, lens, 2);
	put(p->esp, "loader/loader.conf", conf, strlen(conf));
	put(p->esp, "loader/entries/a.conf", "title a\nlinux /ka\n", 17);
	put(p->esp, "loader/entries/b+3.conf", "title b\nlinux /kb\n", 17);
	put_sbat_image(p->esp, "ka", NULL);
	put_sbat_image(p->esp, "kb", NULL);
}

/* The stage-3 line of Boot0001 for file. */
static const sbat_boot_stage *
find_file(const sbat_boot_report *r, const char *file)
{
	size_t i;

	for (i = 0; i < sbat_boot_report_count(r); i++) {
		const sbat_boot_stage *s = sbat_boot_report_stage(r, i);

		if (strncmp(s->entry, "Boot0001", 8) == 0 && s->stage == 3 && s->file && strcmp(s->file, file) == 0)
			return s;
	}
	fail_msg("no stage 3 for %s", file);
	return NULL;
}

/*
 * The release in the loader's .sdmagic reaches the menu: 259 matches the
 * default b.conf to b+3.conf (an id without its boot counter), 258 does
 * not and starts the menu's first entry.
 */
static void
test_sdboot_release(void **state)
{
	const sbat_boot_note *n;
	sbat_boot_report *r;
	paths p;

	(void)state;
	sdboot_machine("259.1", &p);
	r = walk(&p, NULL);
	assert_int_equal(find_file(r, "\\kb")->loader, SBAT_BOOT_LOADER_SDBOOT);
	assert_true(find_file(r, "\\kb")->default_entry);
	assert_int_equal(find_file(r, "\\kb")->sdboot_by, SBAT_SDBOOT_BY_CONF_DEFAULT);
	assert_string_equal(find_file(r, "\\kb")->default_value, "b.conf");
	assert_int_equal(find_file(r, "\\kb")->default_line, 1);
	assert_true(has_default_note(r, SBAT_BOOT_LOADER_SDBOOT, SBAT_SDBOOT_BY_CONF_DEFAULT));
	/* the files read: loader.conf and its default, both entries listed, no XBOOTLDR */
	n = files_note(r);
	assert_int_equal(n->loader, SBAT_BOOT_LOADER_SDBOOT);
	assert_non_null(strstr(n->conf_file, "/loader/loader.conf"));
	assert_string_equal(n->conf_default, "b.conf");
	assert_int_equal(n->conf_default_line, 1);
	assert_int_equal(n->listed, 2);
	assert_int_equal(n->left_out, 0);
	assert_null(n->xbootldr);
	assert_int_equal(n->n_chain, 0);
	sbat_boot_report_free(r);

	/* 258: b.conf names no entry, and the first of the menu starts (b+3.conf sorts first) */
	sdboot_machine("258.1", &p);
	r = walk(&p, NULL);
	assert_true(find_file(r, "\\kb")->default_entry);
	assert_int_equal(find_file(r, "\\kb")->sdboot_by, SBAT_SDBOOT_BY_FIRST);
	assert_true(find_file(r, "\\kb")->default_flags & SBAT_BOOT_DEFAULT_CONF);
	assert_true(has_default_note(r, SBAT_BOOT_LOADER_SDBOOT, SBAT_SDBOOT_BY_FIRST));
	sbat_boot_report_free(r);
}

/* ---- signatures ---- */

/* A shell command; its status. */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static int
sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* A CA and a signer it issued, in dir: ca.pem, ca.der, l.pem, l.key; -1 without openssl. */
static int
make_keys(const char *dir)
{
	return sh("cd '%s' && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -keyout ca.key -out ca.pem "
	          "-subj '/CN=Test UEFI CA/O=Example' >/dev/null 2>&1 && openssl x509 -in ca.pem -outform DER -out ca.der "
	          "&& openssl req -newkey rsa:2048 -nodes -keyout l.key -out l.csr -subj '/CN=Test Signer/O=Example' "
	          ">/dev/null 2>&1 && openssl x509 -req -in l.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 "
	          "-out l.pem >/dev/null 2>&1",
	          dir) == 0 ?
	           0 :
	           -1;
}

/* Sign root/rel in place with the signer of dir, its CA added. */
static void
sign_file(const char *dir, const char *root, const char *rel)
{
	assert_int_equal(sh("sbsign --key '%s/l.key' --cert '%s/l.pem' --addcert '%s/ca.pem' --output '%s/%s.signed' "
	                    "'%s/%s' >/dev/null 2>&1 && mv '%s/%s.signed' '%s/%s'",
	                    dir, dir, dir, root, rel, root, rel, root, rel, root, rel),
	                 0);
}

/* One EFI_SIGNATURE_LIST of one EFI_CERT_X509 entry (the file der), or of one zero SHA-256, into buf; its size. */
static size_t
esl(uint8_t *buf, size_t size, const char *der)
{
	static const uint8_t x509[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
		                          0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
	static const uint8_t sha256[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
		                            0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };
	size_t n = 32;
	FILE *f = der ? fopen(der, "rb") : NULL;

	memset(buf, 0, size);
	if (der) {
		assert_non_null(f);
		n = fread(buf + 44, 1, size - 44, f);
		fclose(f);
	}
	memcpy(buf, der ? x509 : sha256, 16);
	fx_put32(buf + 16, (uint32_t)(44 + n));
	fx_put32(buf + 24, (uint32_t)(16 + n));
	memset(buf + 28, 0x5a, 16);
	return 44 + n;
}

/* The bytes of the file at path (malloc'ed), its size in *ret_len. */
static uint8_t *
slurp_file(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	b = malloc((size_t)n);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*ret_len = (size_t)n;
	return b;
}

/* A signature database variable of esl(der). */
static void
put_db(const char *efivarfs, const char *name, const char *der)
{
	uint8_t buf[4096];
	size_t n = esl(buf, sizeof(buf), der);
	char var[128];

	snprintf(var, sizeof(var), "%s-d719b2cb-3d3a-4596-a3bc-dad00e67656f", name);
	put_var(efivarfs, var, buf, n);
}

/* The standard machine with shim, GRUB and the kernel signed by a signer of the CA in keys/ca.der. */
static void
signed_machine(const char *keys, paths *p)
{
	machine m = { 0 };

	build(&m, p);
	sign_file(keys, p->esp, "EFI/debian/shimx64.efi");
	sign_file(keys, p->esp, "EFI/debian/grubx64.efi");
	sign_file(keys, p->esp, "vmlinuz");
}

static sbat_boot_report *
walk_signatures(const paths *p)
{
	sbat_walk_opts o;
	sbat_boot_report *r = NULL;
	sbat_diag d;

	/* signatures are judged by default: nothing but the paths is set */
	sbat_walk_opts_init(&o);
	o.efivarfs = p->efivarfs;
	o.esp = p->esp;
	assert_int_equal(sbat_walk_next_boot(&o, &r, &d), SBAT_OK);
	return r;
}

/* The signature gate on every stage: db accepts, dbx and an unsigned GRUB refuse, a missing db is not known. */
static void
test_signatures(void **state)
{
	char keys[1100], der[1200];
	const sbat_boot_stage *s;
	const sbat_boot_note *note;
	sbat_boot_report *r;
	paths p;

	(void)state;
	snprintf(keys, sizeof(keys), "%s/keys", base);
	if (mkdir(keys, 0755) != 0 || sh("command -v sbsign >/dev/null") != 0 || make_keys(keys) != 0) {
		skip();
		return;
	}
	snprintf(der, sizeof(der), "%s/ca.der", keys);

	signed_machine(keys, &p);
	put_db(p.efivarfs, "db", der);
	put_db(p.efivarfs, "dbx", NULL);
	r = walk_signatures(&p);
	s = find(r, "Boot0001", 1);
	assert_int_equal(s->verdict, SBAT_VERDICT_BOOTS);
	assert_int_equal(s->signature_verdict, SBAT_VERDICT_BOOTS);
	assert_int_equal(s->signature_reason, SBAT_SIGVERIFY_CERT_ALLOWED);
	assert_int_equal(s->signature_db, SBAT_SIGVERIFY_DB);
	assert_int_equal(s->signature_rule, SBAT_SIGVERIFY_FIRMWARE);
	assert_string_equal(s->signature_subject, "CN=Test UEFI CA, O=Example");
	assert_int_equal(s->gate, SBAT_BOOT_GATE_SHIM);
	assert_int_equal(find(r, "Boot0001", 2)->signature_verdict, SBAT_VERDICT_BOOTS);
	assert_int_equal(find(r, "Boot0001", 3)->verdict, SBAT_VERDICT_BOOTS);
	assert_true(has_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_SIGNATURES_VERIFIED));
	assert_false(has_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_NOT_JUDGED));
	note = find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_DB);
	assert_non_null(note);
	assert_int_equal(note->count, 1);
	assert_string_equal(note->subjects, "CN=Test UEFI CA");
	assert_int_equal(note->hashes, 0);
	note = find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_DBX);
	assert_non_null(note);
	assert_int_equal(note->count, 0);
	assert_int_equal(note->hashes, 1);
	sbat_boot_report_free(r);

	/* one bit of shim's signature value flipped: the signature does not verify, the firmware refuses it */
	{
		char path[1200];
		uint8_t *img;
		size_t len;

		snprintf(path, sizeof(path), "%s/EFI/debian/shimx64.efi", p.esp);
		img = slurp_file(path, &len);
		img[len - 16] ^= 0x01; /* sbsign's SignerInfo ends the table with its signature, padded to 8 */
		put(p.esp, "EFI/debian/shimx64.efi", img, len);
		r = walk_signatures(&p);
		s = find(r, "Boot0001", 1);
		assert_int_equal(s->verdict, SBAT_VERDICT_REFUSED);
		assert_int_equal(s->gate, SBAT_BOOT_GATE_SIGNATURE);
		assert_string_equal(sbat_sigverify_reason_name((sbat_sigverify_reason)s->signature_reason),
		                    "bad-signature");
		assert_string_equal(s->signature_subject, "CN=Test Signer, O=Example");
		sbat_boot_report_free(r);
		img[len - 16] ^= 0x01;
		put(p.esp, "EFI/debian/shimx64.efi", img, len);
		free(img);
	}

	/* the CA in dbx: the firmware refuses shim */
	put_db(p.efivarfs, "dbx", der);
	r = walk_signatures(&p);
	s = find(r, "Boot0001", 1);
	assert_int_equal(s->verdict, SBAT_VERDICT_REFUSED);
	assert_int_equal(s->reason, SBAT_BOOT_SIGNATURE);
	assert_int_equal(s->gate, SBAT_BOOT_GATE_SIGNATURE);
	assert_int_equal(s->signature_reason, SBAT_SIGVERIFY_CERT_FORBIDDEN);
	assert_int_equal(s->signature_db, SBAT_SIGVERIFY_DBX);
	assert_true(sbat_boot_report_outcome(r).default_refused);
	sbat_boot_report_free(r);

	/* a pending dbx update that forbids the CA: judged as if applied */
	{
		sbat_walk_pending pending = { "dbx", NULL };
		char file[1200];
		uint8_t buf[4096];
		size_t n = esl(buf, sizeof(buf), der);
		sbat_walk_opts o;
		sbat_diag d;

		put_db(p.efivarfs, "dbx", NULL);
		put(base, "dbx-update.bin", buf, n);
		snprintf(file, sizeof(file), "%s/dbx-update.bin", base);
		pending.file = file;
		sbat_walk_opts_init(&o);
		o.efivarfs = p.efivarfs;
		o.esp = p.esp;
		o.no_signatures = 1; /* a pending update is judged by the signature gate all the same */
		o.pending = &pending;
		o.n_pending = 1;
		assert_int_equal(sbat_walk_next_boot(&o, &r, &d), SBAT_OK);
		assert_int_equal(find(r, "Boot0001", 1)->verdict, SBAT_VERDICT_REFUSED);
		assert_non_null(find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_PENDING));
		assert_string_equal(find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_PENDING)->variable, "dbx");
		assert_int_equal(find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_PENDING)->count, 1);
		assert_false(find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_PENDING)->unread);
		sbat_boot_report_free(r);
		pending.file = "/nonexistent/update.bin";
		assert_int_equal(sbat_walk_next_boot(&o, &r, &d), SBAT_OK);
		assert_true(sbat_boot_report_outcome(r).failed);
		sbat_boot_report_free(r);
	}

	/* a MokListXRT that does not read: what shim judges is not known, what the firmware judges is */
	{
		static const uint8_t bad[4 + 28] = { 6, 0, 0, 0, [4 + 16] = 0x00, 0x10 };
		char mokx[1200];

		put_db(p.efivarfs, "dbx", NULL);
		put(p.efivarfs, "MokListXRT-605dab50-e046-4300-abb6-3dd810dd8b23", bad, sizeof(bad));
		r = walk_signatures(&p);
		assert_int_equal(find(r, "Boot0001", 1)->verdict, SBAT_VERDICT_BOOTS);
		s = find(r, "Boot0001", 2);
		assert_int_equal(s->verdict, SBAT_VERDICT_UNKNOWN);
		assert_int_equal(s->reason, SBAT_BOOT_JUDGED);
		assert_int_equal(s->gate, SBAT_BOOT_GATE_SIGNATURE);
		assert_int_equal(s->signature_unread, SBAT_BOOT_SIG_UNREAD_MOKX);
		assert_int_equal(s->signature_rule, SBAT_SIGVERIFY_SHIM);
		sbat_boot_report_free(r);
		snprintf(mokx, sizeof(mokx), "%s/MokListXRT-605dab50-e046-4300-abb6-3dd810dd8b23", p.efivarfs);
		assert_int_equal(unlink(mokx), 0);
	}

	/* an unsigned GRUB: shim refuses it */
	put_db(p.efivarfs, "dbx", NULL);
	put_sbat_image(p.esp, "EFI/debian/grubx64.efi", GRUB_SBAT);
	r = walk_signatures(&p);
	s = find(r, "Boot0001", 2);
	assert_int_equal(s->verdict, SBAT_VERDICT_REFUSED);
	assert_int_equal(s->reason, SBAT_BOOT_JUDGED);
	assert_int_equal(s->gate, SBAT_BOOT_GATE_SIGNATURE);
	assert_int_equal(s->signature_verdict, SBAT_VERDICT_REFUSED);
	assert_int_equal(s->signature_reason, SBAT_SIGVERIFY_NOT_ALLOWED);
	sbat_boot_report_free(r);

	/* no db: not known */
	snprintf(der, sizeof(der), "%s/db-d719b2cb-3d3a-4596-a3bc-dad00e67656f", p.efivarfs);
	assert_int_equal(unlink(der), 0);
	r = walk_signatures(&p);
	s = find(r, "Boot0001", 1);
	assert_int_equal(s->verdict, SBAT_VERDICT_UNKNOWN);
	assert_int_equal(s->reason, SBAT_BOOT_SHIM_GOES_ON);
	assert_int_equal(s->gate, SBAT_BOOT_GATE_SIGNATURE);
	assert_int_equal(s->signature_unread, SBAT_BOOT_SIG_UNREAD_DB);
	assert_true(sbat_boot_report_outcome(r).default_unknown);
	sbat_boot_report_free(r);

	/* no db, Secure Boot off: neither the firmware nor shim checks a signature, so nothing is unknown for it */
	put_byte_var(p.efivarfs, "SecureBoot" GLOBAL, 0);
	r = walk_signatures(&p);
	s = find(r, "Boot0001", 1);
	assert_int_equal(s->verdict, SBAT_VERDICT_BOOTS);
	assert_int_equal(s->signature_unread, SBAT_BOOT_SIG_READ);
	assert_int_equal(s->signature_verdict, SBAT_VERDICT_BOOTS);
	assert_int_equal(s->signature_reason, SBAT_SIGVERIFY_NOT_ENFORCED);
	s = find(r, "Boot0001", 2);
	assert_int_equal(s->verdict, SBAT_VERDICT_BOOTS);
	assert_int_equal(s->signature_reason, SBAT_SIGVERIFY_NOT_ENFORCED);
	sbat_boot_report_free(r);
	put_byte_var(p.efivarfs, "SecureBoot" GLOBAL, 1);
}

/* A variable of the global GUID (PK, KEK) holding esl(der). */
static void
put_global(const char *efivarfs, const char *name, const char *der)
{
	uint8_t buf[4096];
	size_t n = esl(buf, sizeof(buf), der);
	char var[128];

	snprintf(var, sizeof(var), "%s-8be4df61-93ca-11d2-aa0d-00e098032b8c", name);
	put_var(efivarfs, var, buf, n);
}

/*
 * An authenticated update of var (db or dbx) appending lists[0..n), signed by the signer of keys (l.pem, l.key)
 * as sign-efi-sig-list signs one: a SignedData without its ContentInfo, no signed attributes, over the name, the
 * GUID, the attributes 0x67, the EFI_TIME and the lists; written to path.
 */
static void
signed_update(const char *keys, const char *var, const uint8_t *lists, size_t n, const char *path)
{
	static const uint8_t time[16] = { 0xea, 0x07, 1, 2, 3, 4, 5 };
	static const uint8_t db_guid[16] = { 0xcb, 0xb2, 0x19, 0xd7, 0x3a, 0x3d, 0x96, 0x45,
		                             0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f };
	static const uint8_t pkcs7_guid[16] = { 0x9d, 0xd2, 0xaf, 0x4a, 0xdf, 0x68, 0xee, 0x49,
		                                0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7 };
	static uint8_t buf[16384];
	char content[1300], sig[1300];
	size_t at = 0, i, sig_len;
	uint8_t *p7;
	FILE *f;

	for (i = 0; var[i]; i++) {
		buf[at++] = (uint8_t)var[i];
		buf[at++] = 0;
	}
	memcpy(buf + at, db_guid, 16);
	fx_put32(buf + at + 16, 0x67);
	memcpy(buf + at + 20, time, 16);
	memcpy(buf + at + 36, lists, n);
	snprintf(content, sizeof(content), "%s.content", path);
	snprintf(sig, sizeof(sig), "%s.p7", path);
	f = fopen(content, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, at + 36 + n, f), at + 36 + n);
	fclose(f);
	assert_int_equal(sh("openssl cms -sign -binary -noattr -md sha256 -signer '%s/l.pem' -inkey '%s/l.key' "
	                    "-outform DER -in '%s' -out '%s' 2>/dev/null",
	                    keys, keys, content, sig),
	                 0);
	p7 = slurp_file(sig, &sig_len);
	assert_true(sig_len > 19 && p7[15] == 0xa0 && p7[16] == 0x82); /* the ContentInfo around it: taken off */
	memcpy(buf, time, 16);
	fx_put32(buf + 16, (uint32_t)(24 + sig_len - 19));
	buf[20] = 0x00;
	buf[21] = 0x02;
	buf[22] = 0xf1;
	buf[23] = 0x0e;
	memcpy(buf + 24, pkcs7_guid, 16);
	memcpy(buf + 40, p7 + 19, sig_len - 19);
	memcpy(buf + 40 + sig_len - 19, lists, n);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, 40 + sig_len - 19 + n, f), 40 + sig_len - 19 + n);
	fclose(f);
	free(p7);
}

/* The walk with one pending update (var, file). */
static sbat_boot_report *
walk_pending(const paths *p, const char *var, const char *file)
{
	sbat_walk_pending pending = { var, file };
	sbat_walk_opts o;
	sbat_boot_report *r = NULL;
	sbat_diag d;

	sbat_walk_opts_init(&o);
	o.efivarfs = p->efivarfs;
	o.esp = p->esp;
	o.pending = &pending;
	o.n_pending = 1;
	assert_int_equal(sbat_walk_next_boot(&o, &r, &d), SBAT_OK);
	assert_false(sbat_boot_report_outcome(r).failed);
	return r;
}

/*
 * A pending dbx update that forbids shim's CA is applied only when a KEK of the machine signed it, as the firmware
 * takes the write: signed by a KEK certificate, shim is refused; offered to a machine whose KEK is another, the
 * update is refused and shim boots.
 */
static void
test_pending_authenticated(void **state)
{
	char keys[1100], der[1200], l_der[1200], upd[1200], kek_ca[1200];
	const char *src = getenv("FIXTURES_SRC");
	const sbat_boot_note *note;
	uint8_t lists[4096];
	size_t n;
	paths p;
	sbat_boot_report *r;

	(void)state;
	snprintf(keys, sizeof(keys), "%s/keys-pending", base);
	if (!src || mkdir(keys, 0755) != 0 || sh("command -v sbsign >/dev/null") != 0 || make_keys(keys) != 0 ||
	    sh("cd '%s' && openssl x509 -in l.pem -outform DER -out l.der", keys) != 0) {
		skip();
		return;
	}
	snprintf(der, sizeof(der), "%s/ca.der", keys);
	snprintf(l_der, sizeof(l_der), "%s/l.der", keys);
	snprintf(upd, sizeof(upd), "%s/dbx-forbids-ca.bin", keys);
	snprintf(kek_ca, sizeof(kek_ca), "%s/secureboot-updates/MicCorKEKCA2011_2011-06-24.der", src);
	signed_machine(keys, &p);
	put_db(p.efivarfs, "db", der);
	put_db(p.efivarfs, "dbx", NULL);
	put_global(p.efivarfs, "PK", der);
	n = esl(lists, sizeof(lists), der);
	signed_update(keys, "dbx", lists, n, upd);

	/* KEK: Microsoft's CA, which did not sign it: the firmware refuses the write, and shim boots */
	put_global(p.efivarfs, "KEK", kek_ca);
	r = walk_pending(&p, "dbx", upd);
	assert_int_equal(find(r, "Boot0001", 1)->verdict, SBAT_VERDICT_BOOTS);
	note = find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_PENDING);
	assert_non_null(note);
	assert_int_equal(note->check, SBAT_BOOT_PENDING_NOT_SIGNED);
	assert_int_equal(note->count, 0);
	assert_string_equal(note->pending, upd);
	assert_int_equal(find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_DBX)->hashes, 1);
	sbat_boot_report_free(r);

	/* KEK: the signer's certificate: the firmware takes it, and shim's CA is forbidden */
	put_global(p.efivarfs, "KEK", l_der);
	r = walk_pending(&p, "dbx", upd);
	assert_int_equal(find(r, "Boot0001", 1)->verdict, SBAT_VERDICT_REFUSED);
	note = find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_PENDING);
	assert_int_equal(note->check, SBAT_BOOT_PENDING_BY_KEK);
	assert_int_equal(note->count, 1);
	assert_string_equal(note->key, "CN=Test Signer, O=Example");
	sbat_boot_report_free(r);

	/* the same update offered as db: its signature covers the name dbx */
	r = walk_pending(&p, "db", upd);
	assert_int_equal(find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_PENDING)->check,
	                 SBAT_BOOT_PENDING_BAD_SIGNATURE);
	sbat_boot_report_free(r);
}

/*
 * KEK=DIR: of Microsoft's KEK updates, one per platform key, the one this machine's PK signs is applied and named;
 * with a PK that signed none, none is, and the note says so.
 */
static void
test_pending_kek_dir(void **state)
{
	static const struct {
		const char *pk, *picked, *key;
	} kek_rows[] = {
		{ "pk/WindowsOEMDevicesPK.der", "kek/Microsoft/KEKUpdate_Microsoft_PK3d8660c0.bin",
		  "C=US, O=Microsoft Corporation, CN=Windows OEM Devices PK" },
		{ "pk/AMITestPK1.der", "kek/AMI/KEKUpdate_AMI_PK1.bin", "CN=DO NOT TRUST - AMI Test PK" },
		{ "MicCorKEKCA2011_2011-06-24.der", NULL, NULL },
	};
	const char *src = getenv("FIXTURES_SRC");
	char dir[1200], pk[1200];
	const sbat_boot_note *note;
	machine m = { 0 };
	paths p;
	sbat_boot_report *r;
	size_t i;

	(void)state;
	if (!src) {
		skip();
		return;
	}
	build(&m, &p);
	put_db(p.efivarfs, "db", NULL);
	put_db(p.efivarfs, "dbx", NULL);
	snprintf(dir, sizeof(dir), "%s/secureboot-updates/kek", src);
	for (i = 0; i < sizeof(kek_rows) / sizeof(kek_rows[0]); i++) {
		snprintf(pk, sizeof(pk), "%s/secureboot-updates/%s", src, kek_rows[i].pk);
		put_global(p.efivarfs, "PK", pk);
		r = walk_pending(&p, "KEK", dir);
		note = find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_PENDING);
		assert_non_null(note);
		if (kek_rows[i].picked) {
			assert_non_null(note->picked);
			assert_non_null(strstr(note->picked, kek_rows[i].picked));
			assert_int_equal(note->check, SBAT_BOOT_PENDING_BY_PK);
			assert_string_equal(note->key, kek_rows[i].key);
			assert_int_equal(note->count, 1);
		} else {
			assert_null(note->picked);
			assert_int_equal(note->check, SBAT_BOOT_PENDING_DIR_NONE);
			assert_int_equal(note->candidates, 3);
		}
		sbat_boot_report_free(r);
	}
}

/*
 * sbat_walk_pending_check: the pending updates alone, checked in order as the walk checks them (a KEK update
 * taken counts for the next), one note each; a file that does not read stops it with an ERROR note naming it.
 */
static void
test_pending_check_alone(void **state)
{
	static const struct {
		const char *var, *file;
		sbat_boot_pending check;
		size_t count;
	} updates[] = {
		{ "KEK", "kek/AMI/KEKUpdate_AMI_PK1.bin", SBAT_BOOT_PENDING_NOT_SIGNED, 0 },
		{ "KEK", "kek/Microsoft/KEKUpdate_Microsoft_PK3d8660c0.bin", SBAT_BOOT_PENDING_BY_PK, 1 },
		{ "dbx", "DBXUpdate.bin", SBAT_BOOT_PENDING_BY_KEK, 443 },
		{ "db", "DBUpdate3P2023.bin", SBAT_BOOT_PENDING_BY_KEK, 1 },
	};
	const char *src = getenv("FIXTURES_SRC");
	char files[4][1200], file[1200];
	sbat_walk_pending pending[4];
	machine m = { 0 };
	paths p;
	sbat_walk_opts o;
	sbat_boot_report *r = NULL;
	sbat_diag d;
	size_t i;

	(void)state;
	if (!src) {
		skip();
		return;
	}
	build(&m, &p);
	put_db(p.efivarfs, "db", NULL);
	put_db(p.efivarfs, "dbx", NULL);
	snprintf(file, sizeof(file), "%s/secureboot-updates/pk/WindowsOEMDevicesPK.der", src);
	put_global(p.efivarfs, "PK", file);
	snprintf(file, sizeof(file), "%s/secureboot-updates/MicCorKEKCA2011_2011-06-24.der", src);
	put_global(p.efivarfs, "KEK", file);
	for (i = 0; i < 4; i++) {
		snprintf(files[i], sizeof(files[i]), "%s/secureboot-updates/%s", src, updates[i].file);
		pending[i].var = updates[i].var;
		pending[i].file = files[i];
	}
	sbat_walk_opts_init(&o);
	o.efivarfs = p.efivarfs;
	o.pending = pending;
	o.n_pending = 4;
	assert_int_equal(sbat_walk_pending_check(&o, &r, &d), SBAT_OK);
	assert_int_equal(sbat_boot_report_count(r), 0);
	assert_int_equal(sbat_boot_report_note_count(r), 4);
	for (i = 0; i < 4; i++) {
		const sbat_boot_note *n = sbat_boot_report_note_at(r, i);

		assert_int_equal(n->what, SBAT_BOOT_NOTE_PENDING);
		assert_string_equal(n->pending, files[i]);
		assert_int_equal(n->check, updates[i].check);
		assert_int_equal(n->count, updates[i].count);
	}
	sbat_boot_report_free(r);

	/* a file that does not read: an ERROR note naming it, and nothing after it is checked */
	pending[1].file = "/nonexistent/update.bin";
	o.n_pending = 3;
	assert_int_equal(sbat_walk_pending_check(&o, &r, &d), SBAT_OK);
	assert_int_equal(sbat_boot_report_note_count(r), 2);
	assert_int_equal(sbat_boot_report_note_at(r, 1)->kind, SBAT_BOOT_NOTE_ERROR);
	assert_string_equal(sbat_boot_report_note_at(r, 1)->file, "/nonexistent/update.bin");
	sbat_boot_report_free(r);

	o.size = 0;
	assert_int_equal(sbat_walk_pending_check(&o, &r, &d), SBAT_E_ABI);
	assert_null(r);
}

/* ---- GRUB's core image: the prefix, configuration and memdisk grub-mkimage puts in its mods section ---- */

/* One ustar member (a file of text, or a directory when text is NULL) at buf[*at]. */
static void
tar_add(uint8_t *buf, size_t cap, size_t *at, const char *name, const char *text)
{
	size_t n = text ? strlen(text) : 0;

	assert_true(*at + 512 + n + 1024 <= cap);
	memset(buf + *at, 0, 512);
	snprintf((char *)buf + *at, 100, "%s", name);
	snprintf((char *)buf + *at + 124, 12, "%011o", (unsigned)n);
	buf[*at + 156] = text ? '0' : '5';
	memcpy(buf + *at + 257,
	       "ustar\0"
	       "00",
	       8);
	if (n)
		memcpy(buf + *at + 512, text, n);
	*at += 512 + (n + 511) / 512 * 512;
	memset(buf + *at, 0, 1024); /* the end: two zero blocks */
}

/* The objects of a mods section (types 1 memdisk, 2 config, 3 prefix), after a 64-bit module info. */
static size_t
grub_mods(uint8_t *out, size_t cap, const uint32_t *types, const uint8_t *const *objs, const size_t *lens, unsigned n)
{
	size_t at = 24, i;

	memset(out, 0, cap);
	memcpy(out, "mimg", 4);
	fx_put32(out + 8, 24);
	for (i = 0; i < n; i++) {
		assert_true(at + 8 + lens[i] + 8 <= cap);
		fx_put32(out + at, types[i]);
		fx_put32(out + at + 4, (uint32_t)(8 + lens[i]));
		memcpy(out + at + 8, objs[i], lens[i]);
		at += (8 + lens[i] + 7) / 8 * 8;
	}
	fx_put32(out + 16, (uint32_t)at);
	return at;
}

/* GRUB with this mods section at rel. */
static void
put_grub(const char *root, const char *rel, const uint8_t *mods, size_t len)
{
	const char *names[] = { ".sbat", "mods" };
	const uint8_t *contents[] = { (const uint8_t *)GRUB_SBAT, mods };
	size_t lens[] = { strlen(GRUB_SBAT), len };

	put_image(root, rel, names, contents, lens, 2);
}

/*
 * The standard machine started from the removable path: Boot0001 names
 * \EFI\BOOT\BOOTX64.EFI, shim there, and GRUB beside it with mods; grub.cfg
 * stays in \EFI\debian only.
 */
static void
removable_machine(paths *p, const uint8_t *mods, size_t len)
{
	machine m = { 0 };

	build(&m, p);
	put_option(p->efivarfs, 1, 1, "removable", "A", "\\EFI\\BOOT\\BOOTX64.EFI", NULL);
	put_shim(p->esp, "EFI/BOOT/BOOTX64.EFI", "sbat,1,2021030218\n");
	put_grub(p->esp, "EFI/BOOT/grubx64.efi", mods, len);
}

/* Debian's embedded configuration and the script in its memdisk (debian/build-efi-images), in the words GRUB reads. */
#define DEBIAN_MEMDISK_CFG                                                                                             \
	"if [ -z \"$prefix\" -o ! -e \"$prefix\" ]; then\n"                                                            \
	"\tif ! search --file --set=root /.disk/info; then\n"                                                          \
	"\t\tsearch --file --set=root /.disk/mini-info\n"                                                              \
	"\tfi\n"                                                                                                       \
	"\tset prefix=($root)/boot/grub\n"                                                                             \
	"fi\n"                                                                                                         \
	"if [ -e $prefix/x86_64-efi/grub.cfg ]; then\n"                                                                \
	"\tsource $prefix/x86_64-efi/grub.cfg\n"                                                                       \
	"elif [ -e $prefix/grub.cfg ]; then\n"                                                                         \
	"\tsource $prefix/grub.cfg\n"                                                                                  \
	"else\n"                                                                                                       \
	"\tsource $cmdpath/grub.cfg\n"                                                                                 \
	"fi\n"

/* The stage-3 line of Boot0001 (the removable path). */
static const sbat_boot_stage *
removable_stage3(const sbat_boot_report *r)
{
	return find(r, "Boot0001", 3);
}

/* A prefix without a device is on the device GRUB was started from: \EFI\debian\grub.cfg is read, not the one beside it. */
static void
test_grub_prefix(void **state)
{
	static const char prefix[] = "/EFI/debian";
	const uint32_t types[] = { 3 };
	const uint8_t *objs[] = { (const uint8_t *)prefix };
	const size_t lens[] = { sizeof(prefix) };
	uint8_t mods[256];
	const sbat_boot_stage *s;
	const sbat_boot_note *n;
	sbat_boot_report *r;
	paths p;

	(void)state;
	removable_machine(&p, mods, grub_mods(mods, sizeof(mods), types, objs, lens, 1));
	r = walk(&p, NULL);
	assert_string_equal(find(r, "Boot0001", 2)->file, "\\EFI\\BOOT\\grubx64.efi");
	s = removable_stage3(r);
	assert_int_equal(s->verdict, SBAT_VERDICT_BOOTS);
	assert_string_equal(s->file, "/vmlinuz");
	assert_string_equal(s->menu_entry, "menuentry 'Debian'");
	assert_non_null(strstr(s->config, "EFI/debian/grub.cfg:3"));
	n = files_note(r);
	assert_int_equal(n->n_chain, 1);
	assert_string_equal(n->chain[0], "(ESP)/EFI/debian/grub.cfg");
	assert_non_null(strstr(n->chain_host[0], "/EFI/debian/grub.cfg"));
	assert_false(n->chain_on_esp);
	sbat_boot_report_free(r);
	/* a configuration with no entries: the line names it as GRUB does, its file on this machine apart */
	put(p.esp, "EFI/debian/grub.cfg", "set timeout=1\n", 0);
	r = walk(&p, NULL);
	s = removable_stage3(r);
	assert_int_equal(s->menu_why, SBAT_BOOT_MENU_NO_ENTRIES);
	assert_string_equal(s->file, "(ESP)/EFI/debian/grub.cfg");
	assert_non_null(strstr(s->menu_file, "/EFI/debian/grub.cfg"));
	sbat_boot_report_free(r);
}

/*
 * A normal module that names fw_path (Fedora's and Debian's 2.12 and later): normal mode reads grub.cfg in the
 * directory GRUB was started from before $prefix/grub.cfg, when it is there.
 */
static void
test_grub_fw_path(void **state)
{
	static const char normal[] = "\x7f"
	                             "ELF normal fw_path\0prefix\0%s/grub.cfg\0",
	                  prefix[] = "/EFI/debian";
	const uint32_t types[] = { 0, 3 };
	const uint8_t *objs[] = { (const uint8_t *)normal, (const uint8_t *)prefix };
	const size_t lens[] = { sizeof(normal), sizeof(prefix) };
	uint8_t mods[256];
	sbat_boot_report *r;
	paths p;

	(void)state;
	removable_machine(&p, mods, grub_mods(mods, sizeof(mods), types, objs, lens, 2));
	r = walk(&p, NULL);
	assert_non_null(strstr(removable_stage3(r)->config, "EFI/debian/grub.cfg:3"));
	sbat_boot_report_free(r);
	put(p.esp, "EFI/BOOT/grub.cfg", "set timeout=1\nmenuentry 'Beside' {\n\tlinux /beside\n}\n", 0);
	put_sbat_image(p.esp, "beside", NULL);
	r = walk(&p, NULL);
	assert_string_equal(removable_stage3(r)->file, "/beside");
	sbat_boot_report_free(r);
	/* without that module, $prefix/grub.cfg alone */
	removable_machine(&p, mods, grub_mods(mods, sizeof(mods), types + 1, objs + 1, lens + 1, 1));
	put(p.esp, "EFI/BOOT/grub.cfg", "set timeout=1\nmenuentry 'Beside' {\n\tlinux /beside\n}\n", 0);
	r = walk(&p, NULL);
	assert_string_equal(removable_stage3(r)->file, "/vmlinuz");
	sbat_boot_report_free(r);
}

/* Debian's signed GRUB: prefix /EFI/debian, `normal (memdisk)/grub.cfg`, and the memdisk's script, which sources $prefix/grub.cfg. */
static void
test_grub_debian_memdisk(void **state)
{
	static const char prefix[] = "/EFI/debian", config[] = "normal (memdisk)/grub.cfg\n";
	static uint8_t disk[8192], mods[16384];
	const uint32_t types[] = { 1, 2, 3 };
	const uint8_t *objs[] = { disk, (const uint8_t *)config, (const uint8_t *)prefix };
	size_t lens[] = { 0, sizeof(config), sizeof(prefix) }, at = 0;
	const sbat_boot_stage *s;
	const sbat_boot_note *n;
	sbat_boot_report *r;
	paths p;

	(void)state;
	tar_add(disk, sizeof(disk), &at, "grub.cfg", DEBIAN_MEMDISK_CFG);
	lens[0] = at + 1024;
	removable_machine(&p, mods, grub_mods(mods, sizeof(mods), types, objs, lens, 3));
	r = walk(&p, NULL);
	s = removable_stage3(r);
	assert_int_equal(s->verdict, SBAT_VERDICT_BOOTS);
	assert_string_equal(s->file, "/vmlinuz");
	assert_non_null(strstr(s->config, "EFI/debian/grub.cfg:3"));
	/* the chain read: the embedded configuration, the memdisk's script, \EFI\debian\grub.cfg */
	n = files_note(r);
	assert_int_equal(n->loader, SBAT_BOOT_LOADER_GRUB);
	assert_int_equal(n->n_chain, 3);
	assert_null(n->chain[0]);
	assert_null(n->chain_host[0]);
	assert_string_equal(n->chain[1], "(memdisk)/grub.cfg");
	assert_null(n->chain_host[1]);
	assert_string_equal(n->chain[2], "(ESP)/EFI/debian/grub.cfg");
	assert_non_null(strstr(n->chain_host[2], "/EFI/debian/grub.cfg"));
	assert_false(n->chain_on_esp);
	assert_null(n->conf_file);
	sbat_boot_report_free(r);

	/* \EFI\debian\x86_64-efi\grub.cfg, when it is there, comes first */
	put(p.esp, "EFI/debian/x86_64-efi/grub.cfg", "set timeout=1\nmenuentry 'Other' {\n\tlinux /other\n}\n", 0);
	put_sbat_image(p.esp, "other", NULL);
	r = walk(&p, NULL);
	s = removable_stage3(r);
	assert_string_equal(s->file, "/other");
	assert_string_equal(s->menu_entry, "menuentry 'Other'");
	sbat_boot_report_free(r);
}

/* grub-mkstandalone: prefix (memdisk)/boot/grub, its grub.cfg in the memdisk's tar; $cmdpath is GRUB's own directory. */
static void
test_grub_standalone(void **state)
{
	static const char prefix[] = "(memdisk)/boot/grub";
	static uint8_t disk[8192], mods[16384];
	const uint32_t types[] = { 1, 3 };
	const uint8_t *objs[] = { disk, (const uint8_t *)prefix };
	size_t lens[] = { 0, sizeof(prefix) }, at = 0;
	const sbat_boot_stage *s;
	sbat_boot_report *r;
	paths p;

	(void)state;
	tar_add(disk, sizeof(disk), &at, "boot/grub/", NULL);
	tar_add(disk, sizeof(disk), &at, "boot/grub/grub.cfg",
	        "set timeout=2\nmenuentry 'Next' {\n\tchainloader $cmdpath/next.efi\n}\nmenuentry 'Mem' {\n\tlinux "
	        "/vmlinuz\n}\n");
	lens[0] = at + 1024;
	removable_machine(&p, mods, grub_mods(mods, sizeof(mods), types, objs, lens, 2));
	put_sbat_image(p.esp, "EFI/BOOT/next.efi", NULL);
	r = walk(&p, NULL);
	s = removable_stage3(r);
	assert_int_equal(s->verdict, SBAT_VERDICT_BOOTS);
	assert_string_equal(s->menu_entry, "chainloader of menuentry 'Next'");
	assert_true(s->default_entry);
	assert_non_null(strstr(s->config, "(memdisk)/boot/grub/grub.cfg:3"));
	s = find_file(r, "/vmlinuz");
	assert_int_equal(s->verdict, SBAT_VERDICT_UNKNOWN);
	assert_int_equal(s->reason, SBAT_BOOT_MENU);
	assert_int_equal(s->gate, SBAT_BOOT_GATE_MENU);
	assert_int_equal(s->menu_why, SBAT_BOOT_MENU_IN_MEMDISK);
	assert_string_equal(s->menu_path, "/vmlinuz");
	sbat_boot_report_free(r);
}

/* A prefix on a device by the firmware's numbering, and a mods section that does not read: not followed, and why. */
static void
test_grub_core_unknown(void **state)
{
	static const char prefix[] = "(hd0,gpt2)/boot/grub";
	const uint32_t types[] = { 3 };
	const uint8_t *objs[] = { (const uint8_t *)prefix };
	const size_t lens[] = { sizeof(prefix) };
	uint8_t mods[256];
	size_t n;
	const sbat_boot_stage *s;
	sbat_boot_report *r;
	paths p;

	(void)state;
	n = grub_mods(mods, sizeof(mods), types, objs, lens, 1);
	removable_machine(&p, mods, n);
	r = walk(&p, NULL);
	s = removable_stage3(r);
	assert_int_equal(s->verdict, SBAT_VERDICT_UNKNOWN);
	assert_int_equal(s->reason, SBAT_BOOT_MENU);
	assert_int_equal(s->menu_why, SBAT_BOOT_MENU_PREFIX_DEVICE);
	assert_string_equal(s->menu_word, "(hd0,gpt2)/boot/grub");
	/* the prefix is in GRUB's image: no file name */
	assert_null(s->file);
	assert_true(s->file_embedded);
	sbat_boot_report_free(r);

	fx_put32(mods + 16, 4096); /* the objects end past the section */
	put_grub(p.esp, "EFI/BOOT/grubx64.efi", mods, n);
	r = walk(&p, NULL);
	s = removable_stage3(r);
	assert_int_equal(s->verdict, SBAT_VERDICT_UNKNOWN);
	assert_int_equal(s->menu_why, SBAT_BOOT_MENU_MODS_UNREADABLE);
	assert_non_null(s->diag.what);
	assert_non_null(strstr(s->diag.what, "module info"));
	sbat_boot_report_free(r);
}

/* Options made by anything but sbat_walk_opts_init are refused. */
static void
test_abi(void **state)
{
	sbat_walk_opts o;
	sbat_boot_report *r = (sbat_boot_report *)&o;
	sbat_diag d;

	(void)state;
	memset(&o, 0, sizeof(o));
	assert_int_equal(sbat_walk_next_boot(&o, &r, &d), SBAT_E_ABI);
	assert_null(r);
}

/* A shim that names a release older than every one modelled: a note says whose rules judge it; 16.1 gets none. */
static void
test_shim_release_assumed(void **state)
{
	static const char *const versions[] = { "15.8", "16.1" };
	const sbat_boot_note *n;
	char path[1200], tag[64];
	sbat_boot_report *r;
	size_t i;
	FILE *f;
	paths p;

	(void)state;
	for (i = 0; i < 2; i++) {
		machine m = { 0 };

		build(&m, &p);
		snprintf(path, sizeof(path), "%s/EFI/debian/shimx64.efi", p.esp);
		snprintf(tag, sizeof(tag), "UEFI SHIM\n$Version: %s $\n", versions[i]);
		assert_non_null(f = fopen(path, "ab"));
		assert_int_equal(fputs(tag, f) >= 0, 1);
		assert_int_equal(fclose(f), 0);
		r = walk(&p, NULL);
		n = find_note(r, SBAT_BOOT_NOTE_ASSUMED, SBAT_BOOT_NOTE_SHIM_RULES_ASSUMED);
		if (i == 0) {
			assert_non_null(n);
			assert_int_equal(n->shim_major, 15);
			assert_int_equal(n->shim_minor, 8);
			assert_int_equal(n->rules_major, 16);
			assert_int_equal(n->rules_minor, 0);
			assert_string_equal(n->path, "Boot0001 debian");
		} else {
			assert_null(n);
		}
		assert_int_equal(find(r, "Boot0001", 2)->verdict, SBAT_VERDICT_BOOTS);
		sbat_boot_report_free(r);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_default_loader_followed),
		cmocka_unit_test(test_default_moves_on),
		cmocka_unit_test(test_shim_stored),
		cmocka_unit_test(test_stage3_keys),
		cmocka_unit_test(test_next_shim),
		cmocka_unit_test(test_shim_release_assumed),
		cmocka_unit_test(test_file_only_assumed),
		cmocka_unit_test(test_stopped),
		cmocka_unit_test(test_long_boot_order),
		cmocka_unit_test(test_no_boot_order),
		cmocka_unit_test(test_removable_machine),
		cmocka_unit_test(test_sdboot_release),
		cmocka_unit_test(test_signatures),
		cmocka_unit_test(test_pending_authenticated),
		cmocka_unit_test(test_pending_kek_dir),
		cmocka_unit_test(test_pending_check_alone),
		cmocka_unit_test(test_grub_prefix),
		cmocka_unit_test(test_grub_fw_path),
		cmocka_unit_test(test_grub_debian_memdisk),
		cmocka_unit_test(test_grub_standalone),
		cmocka_unit_test(test_grub_core_unknown),
		cmocka_unit_test(test_abi),
	};

	return run_group(tests, setup, teardown);
}
