/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* stage3.c - stage 3 of a boot path: the kernels and programs the loader shim started will start, judged */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/judge.h"
#include "sbat/nextstate.h"

#include "walk/grubmenu.h"
#include "walk/menu.h"
#include "walk/sdbootmenu.h"
#include "walk/signatures.h"
#include "walk/stage3.h"
#include "walk/verdict.h"

/*
 * The kernel in a UKI's .linux: systemd-stub hands it to LoadImage, which
 * shim 16.x hooks; shim finds it among the sections of the UKI it verified
 * and checks its .sbat as for any image through the hook. Its verdict; j
 * gets what decided when it is not BOOTS.
 */
static sbat_verdict
judge_uki_kernel(const walk *w, const sbat_next_state *next, const image *uki, judged *j)
{
	size_t len = 0;
	const uint8_t *p = walk_section_bytes(uki, ".linux", &len);
	sbat_verdict v;
	judged kj;
	image k;

	memset(&k, 0, sizeof(k));
	if (!p || sbat_image_parse(p, len, &k.img, &k.d) != SBAT_OK)
		return SBAT_VERDICT_BOOTS; /* not a PE image: nothing for shim to check */
	v = verdict_judge_image(w, next, &k, 1, &kj);
	if (v != SBAT_VERDICT_BOOTS)
		*j = kj;
	sbat_image_free(k.img);
	return v;
}

/* The judged line of it, opened as im: its check (and its UKI kernel's), its signatures; its verdict. */
static sbat_verdict
judged_item(walk *w, sbat_boot_stage *st, const sbat_next_state *next, const menu_list *m, const menu_item *it,
            image *im)
{
	signatures_facts f;
	judged j;
	sbat_verdict v;

	st->reason = SBAT_BOOT_JUDGED;
	v = verdict_judge_image(w, next, im, 1, &j);
	if (v == SBAT_VERDICT_BOOTS && it->is_uki && (v = judge_uki_kernel(w, next, im, &j)) != SBAT_VERDICT_BOOTS)
		st->reason = SBAT_BOOT_UKI_KERNEL;
	verdict_keys(&j, st);
	signatures_gate(w, im, 1, st, &f);
	walk_decide(st, v, j.judge_reason >= 0 ? SBAT_BOOT_GATE_SBAT : SBAT_BOOT_GATE_NONE,
	            walk_shim_state(w, sbat_next_state_judge_shim(next)));
	st->rule = st->verdict == SBAT_VERDICT_UNKNOWN ? SBAT_BOOT_RULE_NONE : m->rule;
	walk_add(w, st);
	return st->verdict;
}

/* One line for it; returns its verdict. */
static sbat_verdict
judge_item(walk *w, const char *label, int is_default, const sbat_next_state *next, const menu_list *m,
           const menu_item *it)
{
	sbat_verdict v = SBAT_VERDICT_UNKNOWN;
	sbat_boot_stage st;
	image im;

	memset(&im, 0, sizeof(im));
	walk_stage(&st, label, is_default, 3, it->embedded ? NULL : it->file);
	st.file_embedded = it->embedded;
	st.loader = m->loader;
	st.menu_entry = it->desc[0] ? it->desc : NULL;
	st.more_entries = it->more;
	st.default_entry = it->is_default;
	menu_default_put(m, &st.sdboot_by, &st.grub_by, &st.default_value, &st.default_setting, &st.default_line,
	                 &st.default_flags);
	st.config = it->config[0] ? it->config : NULL;
	st.host = it->host;
	st.root = it->root;
	st.missing = it->missing[0] ? it->missing : NULL;
	st.missing_key = it->missing_key[0] ? it->missing_key : NULL;
	st.missing_miss = it->missing_miss;
	st.reason = SBAT_BOOT_MENU;
	st.verdict = SBAT_VERDICT_UNKNOWN;
	if (!it->host) {
		menu_reason_put(&it->why, &st);
		st.gate = SBAT_BOOT_GATE_MENU;
		st.verdict = it->left_out ? SBAT_VERDICT_SKIPPED : SBAT_VERDICT_UNKNOWN;
	} else if (walk_image_open(it->root, it->host, &im) != 0) {
		st.reason = SBAT_BOOT_UNREADABLE;
		st.diag = im.d;
	} else {
		v = judged_item(w, &st, next, m, it, &im);
		walk_image_close(&im);
		return v;
	}
	walk_add(w, &st);
	walk_image_close(&im);
	return v;
}

/* Entries that start the same file make one line: the first names it, the others are counted. */
static void
merge_items(menu_list *m)
{
	size_t i, j, n = 0;

	for (i = 0; i < m->n_items; i++) {
		menu_item *it = &m->items[i];

		for (j = 0; j < n && it->host; j++)
			if (m->items[j].host && strcmp(m->items[j].host, it->host) == 0 &&
			    strcmp(m->items[j].missing, it->missing) == 0 &&
			    strcmp(m->items[j].missing_key, it->missing_key) == 0 &&
			    m->items[j].missing_miss == it->missing_miss)
				break;
		if (it->host && j < n) {
			m->items[j].more++;
			m->items[j].is_default |= it->is_default;
			free(it->host);
			free(it->root);
			continue;
		}
		if (n != i)
			m->items[n] = *it;
		n++;
	}
	m->n_items = n;
}

/*
 * Notes on the menu: the files read, what chose the default entry, the
 * rule (verbose); a default that is not known, among menu entries, is said
 * with the stages.
 */
static void
summary_notes(walk *w, const char *label, const menu_list *m)
{
	size_t i, entries = 0;
	sbat_boot_note n;

	for (i = 0; i < m->n_items; i++)
		entries += m->items[i].desc[0] != '\0';
	sbat_boot_note_init(&n);
	n.kind = SBAT_BOOT_NOTE_VERBOSE;
	n.path = label;
	menu_files_put(m, &n);
	walk_add_note(w, &n);
	sbat_boot_note_init(&n);
	n.kind = !m->default_known && entries ? SBAT_BOOT_NOTE_ASSUMED : SBAT_BOOT_NOTE_VERBOSE;
	n.path = label;
	n.what = SBAT_BOOT_NOTE_DEFAULT_ENTRY;
	n.loader = m->loader;
	menu_default_put(m, &n.sdboot_by, &n.grub_by, &n.default_value, &n.default_setting, &n.default_line,
	                 &n.default_flags);
	walk_add_note(w, &n);
	sbat_boot_note_init(&n);
	n.kind = SBAT_BOOT_NOTE_VERBOSE;
	n.path = label;
	n.what = SBAT_BOOT_NOTE_RULE;
	n.loader = m->loader;
	n.rule = m->rule;
	walk_add_note(w, &n);
}

/*
 * Which of shim's protocols GRUB has check what it starts: its shim_lock
 * verifier (grub-core/kern/efi/sb.c) calls shim's image loader protocol
 * when the GRUB has that code (its "bad shim loader signature" error) and
 * the shim installs the protocol (shim 16.x, SHIM_IMAGE_LOADER_GUID in
 * shim.c), else shim_lock's Verify. Both set in_protocol: the same check.
 */
static void
grub_rule(const sbat_next_state *next, const image *grub, menu_list *m)
{
	static const char err[] = "bad shim loader signature";
	static const uint8_t guid[16] = { 0x41, 0x20, 0x49, 0x1f, 0xdb, 0xfa, 0x59, 0x4e,
		                          0x9e, 0x57, 0x7c, 0xaf, 0xe7, 0x3a, 0x55, 0xab };

	if (!walk_holds(grub->buf, grub->len, err, sizeof(err) - 1) ||
	    !walk_holds(next->shim_buf, next->shim_len, guid, 16))
		return;
	m->rule = SBAT_BOOT_RULE_SHIM_LOADER;
}

/*
 * The loaders whose menu stage 3 reads, as data: how each is recognised,
 * its menu reader, and the rule shim applies to what it starts when the
 * reader does not set it (NULL: it does). A new loader is one row.
 */
static const struct stage3_loader {
	int (*is)(const image *im);
	void (*read)(walk *w, const char *esp, const char *loader_path, const image *loader, menu_list *m);
	void (*rule)(const sbat_next_state *next, const image *loader, menu_list *m);
} loaders[] = {
	{ sdbootmenu_is_sdboot, sdbootmenu_read, NULL },
	{ grubmenu_is_grub, grubmenu_read, grub_rule },
};

/* The row of the loader image im is; NULL for one whose menu is not read. */
static const struct stage3_loader *
loader_of(const image *im)
{
	size_t i;

	for (i = 0; i < sizeof(loaders) / sizeof(loaders[0]); i++)
		if (loaders[i].is(im))
			return &loaders[i];
	return NULL;
}

sbat_verdict
stage3_follow(walk *w, const char *label, int is_default, const sbat_next_state *next, const char *esp,
              const char *loader_path, const image *loader)
{
	sbat_verdict result = SBAT_VERDICT_BOOTS;
	sbat_boot_stage st;
	const struct stage3_loader *row;
	menu_list m;
	size_t i;

	memset(&m, 0, sizeof(m));
	m.sdboot_by = -1;
	if ((row = loader_of(loader)) != NULL) {
		row->read(w, esp, loader_path, loader, &m);
		if (row->rule)
			row->rule(next, loader, &m);
	} else {
		walk_stage(&st, label, is_default, 3, loader_path);
		st.verdict = SBAT_VERDICT_UNKNOWN;
		st.reason = SBAT_BOOT_LOADER_UNKNOWN;
		walk_add(w, &st);
		return SBAT_VERDICT_UNKNOWN;
	}
	merge_items(&m);
	summary_notes(w, label, &m);
	for (i = 0; i < m.n_items; i++) {
		const menu_item *it = &m.items[i];

		/* an entry other than the menu's default is another path */
		w->other_entry = m.default_known && !it->is_default;
		if (judge_item(w, label, is_default, next, &m, it) == SBAT_VERDICT_REFUSED &&
		    (it->is_default || !m.default_known))
			result = SBAT_VERDICT_REFUSED;
		free(it->host);
		free(it->root);
	}
	w->other_entry = 0;
	if (m.n_dropped) {
		/* what was not judged may be what starts: never a silent cap */
		walk_stage(&st, label, is_default, 3, loader_path);
		st.verdict = SBAT_VERDICT_UNKNOWN;
		st.reason = SBAT_BOOT_OVER_LIMIT;
		st.over = m.n_dropped;
		st.limit = MENU_MAX_ITEMS;
		walk_add(w, &st);
	}
	free(m.items);
	return result;
}
