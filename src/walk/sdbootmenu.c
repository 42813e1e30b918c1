/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sdboot.c - systemd-boot's menu (sbat_sdboot_menu_load) as the lines of stage 3 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbat/boot.h"
#include "sbat/efivar.h"
#include "sbat/error.h"
#include "sbat/level.h"
#include "sbat/partition.h"
#include "sbat/sdboot.h"

#include "walk/menu.h"
#include "walk/sdbootmenu.h"

/* systemd-boot's variables (LOADER_GUID) */
#define LOADER_GUID "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
#define N_VARS 6

int
sdbootmenu_is_sdboot(const image *im)
{
	static const char magic[] = "LoaderInfo: systemd-boot ";
	static const char osrel[] = "ID=systemd-boot";

	return walk_section_has(im, ".sdmagic", magic, sizeof(magic) - 1) ||
	       walk_section_has(im, ".osrel", osrel, sizeof(osrel) - 1);
}

/*
 * systemd-boot's version from its .sdmagic ("#### LoaderInfo: systemd-boot
 * 257.1 ####") into out: the text after "systemd-boot " up to the next
 * space; "" when there is none.
 */
static void
sdmagic_version(const image *im, char *out, size_t size)
{
	static const char magic[] = "LoaderInfo: systemd-boot ";
	size_t n = 0, i, k;
	const uint8_t *p = walk_section_bytes(im, ".sdmagic", &n);

	out[0] = '\0';
	for (i = 0; p && n >= sizeof(magic) - 1 && i <= n - (sizeof(magic) - 1); i++) {
		if (memcmp(p + i, magic, sizeof(magic) - 1) != 0)
			continue;
		for (i += sizeof(magic) - 1, k = 0; i < n && k + 1 < size && p[i] > ' ' && p[i] < 0x7f; i++)
			out[k++] = (char)p[i];
		out[k] = '\0';
		return;
	}
}

/*
 * 1 when systemd-boot reads LoaderEntryLastBooted for this menu: loader.conf
 * (its conf_default; menu NULL: not known) or LoaderEntryDefault says
 * @saved, in any case (config_load_defaults).
 */
static int
reads_last_booted(const sbat_sdboot_menu *menu, const sbat_sdboot_vars *v)
{
	char text[16];
	sbat_diag d;

	if (menu && menu->conf_default && strcmp(menu->conf_default, "@saved") == 0)
		return 1;
	return v->entry_default &&
	       sbat_ucs2_to_utf8(v->entry_default, v->entry_default_len, text, sizeof(text), &d) == SBAT_OK &&
	       strcasecmp(text, "@saved") == 0;
}

/* The variables systemd-boot reads, as efivarfs holds them; bufs[] to free, errs[] what did not read. */
static void
read_vars(walk *w, sbat_sdboot_vars *v, uint8_t **bufs, sbat_diag *errs, int *failed)
{
	const uint8_t **data[N_VARS] = { &v->entry_oneshot,  &v->entry_default,          &v->entry_last_booted,
		                         &v->config_timeout, &v->config_timeout_oneshot, &v->entry_sysfail };
	size_t *lens[N_VARS] = { &v->entry_oneshot_len,  &v->entry_default_len,          &v->entry_last_booted_len,
		                 &v->config_timeout_len, &v->config_timeout_oneshot_len, &v->entry_sysfail_len };
	char name[128];
	size_t i, len;

	sbat_sdboot_vars_init(v);
	for (i = 0; i < N_VARS; i++) {
		snprintf(name, sizeof(name), "%s-%s", sbat_sdboot_var_name((sbat_sdboot_var)i), LOADER_GUID);
		failed[i] = sbat_efivar_read(w->efivarfs, name, WALK_VAR_MAX_SIZE, &bufs[i], &len, &errs[i]) != SBAT_OK;
		if (failed[i] || !bufs[i])
			continue;
		*data[i] = bufs[i] + SBAT_EFIVAR_ATTRIBUTES_SIZE;
		*lens[i] = len - SBAT_EFIVAR_ATTRIBUTES_SIZE;
	}
}

/*
 * An error for each variable that did not read and that systemd-boot reads
 * for this menu: all but LoaderEntryLastBooted and LoaderEntrySysFail always
 * (config_load_defaults), the first only for @saved, the second from 258 on
 * (or when the version is not known).
 */
static void
report_vars(walk *w, const sbat_sdboot_menu *menu, const sbat_sdboot_vars *v, const sbat_diag *errs, const int *failed)
{
	char where[WALK_PATH_MAX + 128];
	size_t i;

	for (i = 0; i < N_VARS; i++) {
		if (!failed[i] || (i == SBAT_SDBOOT_VAR_ENTRY_LAST_BOOTED && !reads_last_booted(menu, v)) ||
		    (i == SBAT_SDBOOT_VAR_ENTRY_SYSFAIL && menu && menu->release &&
		     !(menu->features & SBAT_SDBOOT_SYSFAIL)))
			continue;
		snprintf(where, sizeof(where), "%s/%s-%s", w->efivarfs, sbat_sdboot_var_name((sbat_sdboot_var)i),
		         LOADER_GUID);
		walk_error(w, where, &errs[i]);
	}
}

/* The menu's notes on standard error, one line each. */
static void
report_notes(walk *w, const sbat_sdboot_menu *menu)
{
	char where[WALK_PATH_MAX];
	size_t i;

	for (i = 0; i < menu->n_notes; i++) {
		const sbat_sdboot_note *n = &menu->notes[i];

		switch (n->kind) {
		case SBAT_SDBOOT_NOTE_LINE:
			walk_config_note(w, n->file, n->line, SBAT_BOOT_NOTE_LINE, n->diag.what);
			break;
		case SBAT_SDBOOT_NOTE_UNREADABLE: walk_error(w, n->file, &n->diag); break;
		case SBAT_SDBOOT_NOTE_DIR_UNREADABLE:
			walk_fact(w, SBAT_BOOT_NOTE_ERROR, n->file, SBAT_BOOT_NOTE_DIR_UNREADABLE);
			break;
		case SBAT_SDBOOT_NOTE_DEFAULT_SPECIAL:
			walk_config_note(w, n->file, n->line, SBAT_BOOT_NOTE_SPECIAL_DEFAULT, NULL);
			break;
		case SBAT_SDBOOT_NOTE_TIMEOUT:
			walk_config_note(w, n->file, n->line, SBAT_BOOT_NOTE_BAD_TIMEOUT, NULL);
			break;
		case SBAT_SDBOOT_NOTE_VARIABLE:
			snprintf(where, sizeof(where), "%s/%s-%s", w->efivarfs, sbat_sdboot_var_name(n->var),
			         LOADER_GUID);
			walk_error(w, where, &n->diag);
			break;
		}
	}
	if (menu->notes_dropped)
		walk_error_count(w, "systemd-boot", SBAT_BOOT_NOTE_MORE_NOTES, menu->notes_dropped);
}

/* What chose the default entry, or why none starts by itself. */
static void
default_facts(const sbat_sdboot_menu *menu, menu_list *m)
{
	m->sdboot_by = (int)menu->default_by;
	menu_copy(m->default_value, sizeof(m->default_value), menu->default_pattern ? menu->default_pattern : "");
	m->default_line = menu->conf_default_line;
	m->default_flags = menu->conf_default ? SBAT_BOOT_DEFAULT_CONF : 0;
}

/* Why entry e is not in the menu. */
static void
out_reason(const sbat_sdboot_menu *menu, const sbat_sdboot_entry *e, menu_reason *r)
{
	menu_reason_set(r, SBAT_BOOT_MENU_LEFT_OUT);
	r->sdboot_out = (int)e->out;
	r->sdboot_rules = menu->rules;
	r->miss = (int)e->loader_miss;
	r->diag = e->diag;
	menu_copy(r->file, sizeof(r->file), e->file ? e->file : "");
	menu_copy(r->path, sizeof(r->path), e->loader ? e->loader : "");
	menu_copy(r->word, sizeof(r->word), e->arch ? e->arch : "");
	menu_copy(r->arch, sizeof(r->arch), menu->arch ? menu->arch : "");
}

/* One line's item for entry e. */
static void
add_item(menu_list *m, const sbat_sdboot_menu *menu, const sbat_sdboot_entry *e, int is_default,
         const char *const *roots)
{
	menu_item *it = menu_add(m);
	int uki = e->kind == SBAT_SDBOOT_KIND_UKI || e->kind == SBAT_SDBOOT_KIND_TYPE1_UKI;
	int listed = e->out == SBAT_SDBOOT_LISTED;

	if (!it)
		return;
	if (e->kind != SBAT_SDBOOT_KIND_NONE && e->loader)
		menu_copy(it->file, sizeof(it->file), e->loader);
	else
		snprintf(it->file, sizeof(it->file), "\\loader\\entries\\%s", e->name);
	snprintf(it->desc, sizeof(it->desc), "%s %s%s", e->kind == SBAT_SDBOOT_KIND_UKI ? "UKI" : "entry", e->name,
	         e->on_xbootldr ? " on XBOOTLDR" : "");
	if (e->kind == SBAT_SDBOOT_KIND_UKI)
		menu_copy(it->config, sizeof(it->config), e->file);
	else if (e->loader_line)
		snprintf(it->config, sizeof(it->config), "%s:%u", e->file, e->loader_line);
	if (e->missing_key) {
		menu_copy(it->missing, sizeof(it->missing), e->missing_path);
		menu_copy(it->missing_key, sizeof(it->missing_key), e->missing_key);
		it->missing_miss = (int)e->missing_miss;
	}
	it->is_default = is_default;
	it->is_uki = uki;
	it->host = listed && e->loader_host ? strdup(e->loader_host) : NULL;
	it->root = it->host && roots[e->on_xbootldr != 0] ? strdup(roots[e->on_xbootldr != 0]) : NULL;
	it->left_out = !listed && e->out_certain;
	if (!listed) {
		out_reason(menu, e, &it->why);
	} else if (!it->host) {
		menu_reason_set(&it->why, SBAT_BOOT_MENU_NOT_FOUND);
		menu_copy(it->why.path, sizeof(it->why.path), e->loader);
		it->why.miss = (int)e->loader_miss;
	}
}

/* An item naming \loader\entries, not followed: why. */
static menu_item *
add_dir_item(menu_list *m, sbat_boot_menu_why why)
{
	menu_item *it = menu_add(m);

	if (!it)
		return NULL;
	snprintf(it->file, sizeof(it->file), "\\loader\\entries");
	menu_reason_set(&it->why, why);
	return it;
}

/* The files the menu was read from, for their note. */
static void
files_read(const sbat_sdboot_menu *menu, const char *xbootldr, menu_list *m)
{
	menu_files *f = &m->files;

	menu_copy(f->conf_file, sizeof(f->conf_file), menu->conf_file ? menu->conf_file : "");
	f->has_default = menu->conf_default != NULL;
	menu_copy(f->conf_default, sizeof(f->conf_default), menu->conf_default ? menu->conf_default : "");
	f->default_line = menu->conf_default_line;
	f->listed = menu->n_listed;
	f->left_out = menu->n_entries - menu->n_listed;
	menu_copy(f->xbootldr, sizeof(f->xbootldr), xbootldr ? xbootldr : "");
}

/*
 * The XBOOTLDR partition systemd-boot also reads: --xbootldr; else, unless
 * --esp says this is not the running system, /boot when it is a FAT file
 * system of its own (systemd-boot reads it through the firmware, which
 * reads FAT) other than the ESP.
 */
static const char *
xbootldr_dir(const walk *w, const char *esp)
{
	char real[WALK_PATH_MAX];
	sbat_diag d;
	int fat;

	if (w->o->xbootldr || w->o->esp)
		return w->o->xbootldr;
	if (realpath(esp, real) && strcmp(real, "/boot") == 0)
		return NULL;
	return sbat_partition_is_fat_mount("/boot", &fat, &d) == SBAT_OK && fat ? "/boot" : NULL;
}

/* The menu's lines: a line for entries not read, or for none at all, then one per entry. */
static void
add_items(menu_list *m, const sbat_sdboot_menu *menu, const char *const *roots)
{
	menu_item *it;
	size_t i;

	if (menu->over_limit && (it = add_dir_item(m, SBAT_BOOT_MENU_OVER_LIMIT))) {
		it->why.over = menu->entries_over;
		it->why.limit = SBAT_SDBOOT_MAX_ENTRIES;
	}
	if (menu->n_entries == 0)
		add_dir_item(m, SBAT_BOOT_MENU_EMPTY);
	for (i = 0; i < menu->n_entries; i++)
		add_item(m, menu, sbat_sdboot_menu_entry(menu, i), menu->has_default && i == menu->default_index,
		         roots);
}

void
sdbootmenu_read(walk *w, const char *esp, const char *loader_path, const image *loader, menu_list *m)
{
	const char *xbootldr = xbootldr_dir(w, esp);
	const char *roots[2] = { esp, xbootldr }; /* where an entry's files are: its own partition */
	uint8_t *bufs[N_VARS] = { NULL };
	sbat_diag errs[N_VARS];
	int failed[N_VARS];
	sbat_sdboot_menu *menu = NULL;
	sbat_sdboot_vars vars;
	char version[64];
	sbat_diag d;
	size_t i;

	m->loader = SBAT_BOOT_LOADER_SDBOOT;
	m->rule = SBAT_BOOT_RULE_LOADIMAGE_HOOK;
	m->sdboot_by = -1;
	read_vars(w, &vars, bufs, errs, failed);
	sdmagic_version(loader, version, sizeof(version));
	vars.version = version[0] ? version : NULL;
	if (sbat_sdboot_menu_load(esp, xbootldr, loader_path, loader->machine, &vars, &menu, &d) != SBAT_OK) {
		report_vars(w, NULL, &vars, errs, failed);
		walk_error(w, esp, &d);
	} else {
		report_vars(w, menu, &vars, errs, failed);
		report_notes(w, menu);
		m->default_known = menu->has_default;
		default_facts(menu, m);
		files_read(menu, xbootldr, m);
		add_items(m, menu, roots);
	}
	sbat_sdboot_menu_free(menu);
	for (i = 0; i < N_VARS; i++)
		free(bufs[i]);
}
