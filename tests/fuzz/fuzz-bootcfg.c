/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-bootcfg.c - libFuzzer harness: systemd-boot's key/value files, the version order, grub.cfg */

/*
 * Input: the raw bytes of a loader entry, loader.conf, os-release or
 * grub.cfg (inputs over FUZZ_MAX_INPUT bytes are ignored), read by
 * sbat_kv_next with both separators, by sbat_grub_cfg_parse from a given
 * root and prefix, and by sbat_grub_cfg_default_entry with values taken from
 * the input; sbat_kv_version_compare compares the input's first and second
 * line both ways.
 *
 * These must hold, or the harness aborts:
 *  - no call modifies its input;
 *  - every key and value lies inside the input, line numbers never go back,
 *    and the reader ends within one call per byte;
 *  - failures are SBAT_E_BOOTCFG with a line inside the input;
 *  - an entry's parent is an earlier submenu; a file with a path has a
 *    device and no why, one without a path has a why;
 *  - the default entry is a menuentry of the parsed file;
 *  - the version order is antisymmetric and a string equals itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/error.h"
#include "sbat/grubcfg.h"
#include "sbat/kv.h"

#define FUZZ_MAX_INPUT (256u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-bootcfg: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
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
check_kv(const uint8_t *in, size_t size, const char *sep)
{
	const char *lo = (const char *)in, *hi = lo + size;
	sbat_kv_cursor cur;
	sbat_kv_line kv;
	sbat_diag d;
	unsigned last = 0, max_line = count_lines(in, size);
	size_t calls;

	memset(&cur, 0, sizeof(cur));
	for (calls = 0;; calls++) {
		sbat_err err = sbat_kv_next(in, size, sep, &cur, &kv, &d);
		unsigned line = err == SBAT_OK ? kv.line : d.line;

		if (calls > size + 2)
			fail("the key/value reader does not end");
		if (err != SBAT_OK && (err != SBAT_E_BOOTCFG || d.code != SBAT_E_BOOTCFG || !d.what))
			fail("a key/value failure that is not SBAT_E_BOOTCFG with a reason");
		if (err == SBAT_OK && !kv.key)
			break;
		if (line < last || line > max_line || line == 0)
			fail("a key/value line number out of order or range");
		last = line;
		if (err == SBAT_OK &&
		    (kv.key < lo || kv.key + kv.key_len > hi || kv.value < lo || kv.value + kv.value_len > hi))
			fail("a key or value outside the input");
	}
}

static void
check_file(const sbat_grub_file *f)
{
	if (f->path && (!f->device || f->why || f->path[0] != '/'))
		fail("a file with a path but no device, or with a why");
	if (!f->path && f->word && !f->why)
		fail("a file without a path and without a why");
}

static void
check_default(const sbat_grub_cfg *cfg, const char *value)
{
	size_t i;
	int fb;
	sbat_diag d;
	sbat_err err = sbat_grub_cfg_default_entry(cfg, value, &i, &fb, &d);

	if (err == SBAT_OK && (i >= cfg->n_entries || cfg->entries[i].is_submenu))
		fail("a default entry that is not a menuentry of the file");
	if (err != SBAT_OK && err != SBAT_E_BOOTCFG)
		fail("a default entry failure that is not SBAT_E_BOOTCFG");
}

static void
check_grub(const uint8_t *in, size_t size)
{
	sbat_grub_cfg *cfg = NULL;
	sbat_diag d;
	unsigned max_line = count_lines(in, size);
	size_t i, j;
	char value[64];

	if (sbat_grub_cfg_parse(in, size, "ROOT-UUID", "/boot/grub", &cfg, &d) != SBAT_OK)
		return; /* out of memory only */
	for (i = 0; i < cfg->n_entries; i++) {
		const sbat_grub_entry *e = &cfg->entries[i];

		if (e->parent >= (int)i || (e->parent >= 0 && !cfg->entries[e->parent].is_submenu))
			fail("an entry whose parent is not an earlier submenu");
		if (!e->title || e->line == 0 || e->line > max_line)
			fail("an entry without a title or with a line out of range");
		if (e->command)
			check_file(&e->kernel);
		for (j = 0; j < e->n_initrds; j++)
			check_file(&e->initrds[j]);
	}
	for (i = 0; i < cfg->n_notes; i++)
		if (cfg->notes[i].line == 0 || cfg->notes[i].line > max_line || !cfg->notes[i].what)
			fail("a note with a line out of range");
	if (cfg->next_command)
		check_file(&cfg->next_config);
	check_default(cfg, cfg->default_value);
	check_default(cfg, "1>0");
	for (i = 0; i < sizeof(value) - 1 && i < size && in[i] != '\n'; i++)
		value[i] = in[i] ? (char)in[i] : '?';
	value[i] = '\0';
	check_default(cfg, value);
	sbat_grub_cfg_free(cfg);
}

static void
check_versions(const uint8_t *in, size_t size)
{
	char *a = malloc(size + 1), *b;
	size_t i;

	if (!a)
		return;
	memcpy(a, in, size);
	a[size] = '\0';
	for (i = 0; i < size && a[i] != '\n'; i++)
		;
	a[i] = '\0';
	b = i < size ? a + i + 1 : a + size;
	for (i = 0; b[i] && b[i] != '\n'; i++)
		;
	b[i] = '\0';
	if ((sbat_kv_version_compare(a, b) > 0) != (sbat_kv_version_compare(b, a) < 0) ||
	    (sbat_kv_version_compare(a, b) == 0) != (sbat_kv_version_compare(b, a) == 0))
		fail("the version order is not antisymmetric");
	if (sbat_kv_version_compare(a, a) != 0)
		fail("a version that differs from itself");
	free(a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *in;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	in = calloc(size ? size : 1, 1);
	if (!in)
		return 0;
	if (size)
		memcpy(in, data, size);
	check_kv(in, size, " \t");
	check_kv(in, size, "=");
	check_grub(in, size);
	check_versions(in, size);
	if (size && memcmp(in, data, size) != 0)
		fail("a parser modified its input");
	free(in);
	return 0;
}
