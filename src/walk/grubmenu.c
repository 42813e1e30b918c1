/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * grubmenu.c - GRUB's menu: what its core image starts with ($prefix, its embedded configuration, its memdisk) or
 * grub.cfg next to it on the ESP, the one it names on /boot, its kernels and its default
 */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/error.h"
#include "sbat/grubcfg.h"
#include "sbat/input.h"
#include "sbat/kv.h"
#include "sbat/partition.h"

#include "boot/grubcfg.h"
#include "boot/grubcore.h"
#include "boot/memdisk.h"
#include "walk/grubmenu.h"
#include "walk/menu.h"
#include "walk/walk.h"

/* The device a configuration read from the ESP starts on (no file-system UUID is written like it). */
#define ESP_DEVICE "esp:"
#define MAX_CHAIN SBAT_BOOT_NOTE_CHAIN_MAX /* configurations read one after the other */
#define MEMDISK_NAME "(memdisk)"
#define EMBEDDED_NAME "GRUB's embedded configuration"

/* Where a configuration of the chain is read from. */
enum cfg_where { ON_HOST, ON_MEMDISK, EMBEDDED };

typedef struct gctx {
	walk *w;
	const char *esp;
	char boot_uuid[80];           /* the file system --boot stands for: where the chain's grub.cfg is */
	char boot_sub[WALK_PATH_MAX]; /* the directory of it that --boot is ("/boot", or "/" for a /boot of its own) */
	char visited[MAX_CHAIN][WALK_PATH_MAX]; /* the file on this machine, or "(memdisk)PATH", or EMBEDDED_NAME */
	enum cfg_where where[MAX_CHAIN];
	char env[WALK_PATH_MAX];     /* $prefix/grubenv on this machine, "" when unknown */
	char cmd_dir[WALK_PATH_MAX]; /* $cmdpath on the ESP: the directory GRUB was started from */
	grubcore core;               /* what GRUB's mods section carries besides its modules */
} gctx;

int
grubmenu_is_grub(const image *im)
{
	size_t i;

	if (walk_section_has(im, "mods", "mimg", 4))
		return 1;
	for (i = 0; im->read->csv && i < im->read->csv->n_entries; i++) {
		const char *c = im->read->csv->entries[i].component_name;

		if (strcmp(c, "grub") == 0 || strncmp(c, "grub.", 5) == 0)
			return 1;
	}
	return 0;
}

/* path without its first `prefix` directory ("/" keeps it); NULL when it is not below it. */
static const char *
below(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strcmp(prefix, "/") == 0 || n == 0)
		return path;
	if (strncmp(path, prefix, n) != 0 || (path[n] != '/' && path[n] != '\0'))
		return NULL;
	return path + n;
}

static void
set_root(char *root_out, const char *dir)
{
	if (root_out)
		menu_copy(root_out, WALK_PATH_MAX, dir);
}

/* r says why; its path is path. */
static void
map_why(menu_reason *r, sbat_boot_menu_why why, const char *path)
{
	menu_reason_set(r, why);
	menu_copy(r->path, sizeof(r->path), path);
}

/*
 * The file on this machine that (device)path names; NULL with r saying
 * why. root (NULL: not wanted) gets the directory the lookup started from.
 */
static char *
map_file(gctx *g, const char *device, const char *path, char root_out[WALK_PATH_MAX], menu_reason *r)
{
	char mnt[1024], root[1024];
	const char *rel;
	sbat_partition_miss miss;
	sbat_diag d;
	char *host;

	if (strcmp(device, ESP_DEVICE) == 0) {
		set_root(root_out, g->esp);
		host = walk_lookup(g->esp, path, 0, &miss);
	} else if (strcmp(device, GRUBCFG_MEMDISK) == 0) {
		map_why(r, SBAT_BOOT_MENU_IN_MEMDISK, path);
		return NULL;
	} else if (g->w->o->boot && g->boot_uuid[0] && strcmp(device, g->boot_uuid) == 0) {
		if (!(rel = below(path, g->boot_sub))) {
			map_why(r, SBAT_BOOT_MENU_OUTSIDE_BOOT, path);
			menu_copy(r->file, sizeof(r->file), g->boot_sub);
			return NULL;
		}
		set_root(root_out, g->w->o->boot);
		host = walk_lookup(g->w->o->boot, rel, WALK_RESOLVE_EXACT, &miss);
	} else if (sbat_partition_mount_of_uuid(device, mnt, sizeof(mnt), root, sizeof(root), &d) != SBAT_OK ||
	           !mnt[0]) {
		map_why(r, SBAT_BOOT_MENU_NOT_MOUNTED, "");
		menu_copy(r->word, sizeof(r->word), device);
		return NULL;
	} else if (!(rel = below(path, root))) {
		map_why(r, SBAT_BOOT_MENU_OUTSIDE_MOUNT, path);
		menu_copy(r->word, sizeof(r->word), device);
		menu_copy(r->file, sizeof(r->file), mnt);
		return NULL;
	} else {
		set_root(root_out, mnt);
		host = walk_lookup(mnt, rel, WALK_RESOLVE_EXACT, &miss);
	}
	if (!host) {
		map_why(r, SBAT_BOOT_MENU_NOT_FOUND, path);
		r->miss = miss == SBAT_PARTITION_FOUND ? SBAT_PARTITION_MISSING : (int)miss;
	}
	return host;
}

/* 1 when r says a file is not there (and not that it could not be looked for). */
static int
is_missing(const menu_reason *r)
{
	return r->why == SBAT_BOOT_MENU_NOT_FOUND && r->miss == SBAT_PARTITION_MISSING;
}

/* A GRUB file name for messages: (device)path, the ESP's in its own words. */
static void
grub_name(char *out, size_t size, const char *device, const char *path)
{
	if (strcmp(device, ESP_DEVICE) == 0)
		snprintf(out, size, "(ESP)%s", path);
	else if (strcmp(device, GRUBCFG_MEMDISK) == 0)
		snprintf(out, size, MEMDISK_NAME "%s", path);
	else
		snprintf(out, size, "(%s)%s", device, path);
}

/*
 * A kernel or initrd as GRUB opens it: the word as written when it has no
 * '$'; else, when the file sets its variables, the expansion (the path on
 * $root for a word that starts with '/', else (device)path). A word whose
 * value is not known stays as written: its why says so.
 */
static void
opened_name(char *out, size_t size, const sbat_grub_file *f)
{
	if (!f->path || !strchr(f->word, '$'))
		snprintf(out, size, "%.1000s", f->word);
	else if (f->word[0] == '/')
		snprintf(out, size, "%.1000s", f->path);
	else
		grub_name(out, size, f->device, f->path);
}

/* A variable of grubenv (name=value lines, '#' padding); 0 when it is not set or the file does not read. */
static int
grubenv_get(const gctx *g, const char *name, char *out, size_t size)
{
	sbat_kv_cursor cur;
	sbat_kv_line kv;
	sbat_diag d;
	uint8_t *buf;
	size_t len, n = strlen(name);
	sbat_err err;
	int found = 0;

	out[0] = '\0';
	if (!g->env[0] || sbat_file_read(g->env, SBAT_BOOTCFG_MAX_SIZE, &buf, &len, &d) != SBAT_OK)
		return 0;
	memset(&cur, 0, sizeof(cur));
	while ((err = sbat_kv_next(buf, len, "=", &cur, &kv, &d)) != SBAT_OK || kv.key)
		if (err == SBAT_OK && kv.key_len == n && strncmp(kv.key, name, n) == 0 && kv.value_len < size) {
			memcpy(out, kv.value, kv.value_len);
			out[kv.value_len] = '\0';
			found = out[0] != '\0';
		}
	free(buf);
	return found;
}

/*
 * What `default` holds when the menu shows (its `set default=`, grubenv's
 * entries), in m->default_value; m->grub_by and the setting say what chose
 * it. 0 when it cannot be known.
 */
static int
default_value(const gctx *g, const sbat_grub_cfg *cfg, menu_list *m)
{
	const char *d = cfg->default_value;
	char *value = m->default_value;
	size_t size = sizeof(m->default_value);

	menu_copy(m->default_setting, sizeof(m->default_setting), d ? d : "");
	m->default_line = cfg->default_line;
	if (cfg->next_entry_line && grubenv_get(g, "next_entry", value, size)) {
		m->grub_by = SBAT_BOOT_GRUB_BY_NEXT_ENTRY;
		m->default_line = cfg->next_entry_line;
	} else if (d && (strcmp(d, "${saved_entry}") == 0 || strcmp(d, "$saved_entry") == 0)) {
		m->grub_by = grubenv_get(g, "saved_entry", value, size) ? SBAT_BOOT_GRUB_BY_SAVED_ENTRY :
		                                                          SBAT_BOOT_GRUB_BY_NO_SAVED;
	} else if (d && strchr(d, '$')) {
		m->grub_by = SBAT_BOOT_GRUB_BY_VARIABLE;
		return 0;
	} else if (d) {
		menu_copy(value, size, d);
		m->grub_by = SBAT_BOOT_GRUB_BY_SET_DEFAULT;
	} else {
		m->grub_by = SBAT_BOOT_GRUB_BY_NOT_SET;
	}
	return 1;
}

/* 1 when entry idx, an entry before it in its menus, or a menu above it may or may not be added by GRUB. */
static int
conditional_up_to(const sbat_grub_cfg *cfg, size_t idx)
{
	size_t i;

	for (i = 0; i <= idx && i < cfg->n_entries; i++)
		if (cfg->entries[i].conditional)
			return 1;
	return 0;
}

/* The index of the entry GRUB boots by itself, and what chose it (m); -1 when the menu waits for a key or it is not known. */
static long
default_entry(const gctx *g, const sbat_grub_cfg *cfg, menu_list *m)
{
	const char *value = m->default_value;
	char *end;
	long t = cfg->timeout ? strtol(cfg->timeout, &end, 0) : -1;
	size_t idx;
	int fallback;
	sbat_diag d;

	m->grub_by = SBAT_BOOT_GRUB_BY_NO_TIMEOUT;
	if (!cfg->timeout)
		return -1;
	if (t < 0 || end == cfg->timeout) {
		m->grub_by = SBAT_BOOT_GRUB_BY_TIMEOUT_WAITS;
		menu_copy(m->default_setting, sizeof(m->default_setting), cfg->timeout);
		m->default_line = cfg->timeout_line;
		return -1;
	}
	if (!default_value(g, cfg, m))
		return -1;
	if (sbat_grub_cfg_default_entry(cfg, value[0] ? value : NULL, &idx, &fallback, &d) != SBAT_OK) {
		m->grub_by = SBAT_BOOT_GRUB_BY_NO_ENTRIES;
		return -1;
	}
	if (fallback)
		m->default_flags |= SBAT_BOOT_DEFAULT_NAMES_NONE;
	else if (!value[0])
		m->default_flags |= SBAT_BOOT_DEFAULT_FIRST;
	if (conditional_up_to(cfg, idx)) {
		m->grub_by = SBAT_BOOT_GRUB_BY_CONDITIONAL;
		return -1;
	}
	return (long)idx;
}

/* "menuentry 'Advanced options>Debian ...'": the titles from the top menu down, as `default` can name it. */
static void
entry_desc(const sbat_grub_cfg *cfg, size_t i, char *out, size_t size)
{
	char path[700] = "";
	const sbat_grub_entry *e = &cfg->entries[i];
	unsigned hops = 0;

	menu_copy(path, sizeof(path), e->title);
	while (e->parent >= 0 && hops++ < 32) {
		char tmp[700];

		e = &cfg->entries[e->parent];
		snprintf(tmp, sizeof(tmp), "%s>%s", e->title, path);
		memcpy(path, tmp, sizeof(path));
	}
	snprintf(out, size, "%s '%s'",
	         cfg->entries[i].command && strcmp(cfg->entries[i].command, "chainloader") == 0 ?
	             "chainloader of menuentry" :
	             "menuentry",
	         path);
}

/* The first initrd of entry e that is not there: it->missing. */
static void
initrd_missing(gctx *g, const sbat_grub_entry *e, menu_item *it)
{
	menu_reason r;
	size_t i;

	for (i = 0; i < e->n_initrds && !it->missing[0]; i++) {
		const sbat_grub_file *f = &e->initrds[i];
		char *host = f->path ? map_file(g, f->device, f->path, NULL, &r) : NULL;

		if (f->path && !host && is_missing(&r)) {
			opened_name(it->missing, sizeof(it->missing), f);
			it->missing_miss = SBAT_PARTITION_MISSING;
		}
		free(host);
	}
}

/* A line for the configuration itself (name: its GRUB file name; NULL: the embedded one) that cannot be followed further: r says why. */
static void
config_line(menu_list *m, const char *name, const menu_reason *r)
{
	menu_item *it = menu_add(m);

	if (!it)
		return;
	snprintf(it->file, sizeof(it->file), "%.1000s", name ? name : "");
	it->embedded = name == NULL;
	it->why = *r;
}

/* The same, for a reason with no facts. */
static void
config_why(menu_list *m, const char *name, sbat_boot_menu_why why)
{
	menu_reason r;

	menu_reason_set(&r, why);
	config_line(m, name, &r);
}

/* The lines of a parsed menu: one per entry that loads a kernel or another EFI program. */
static void
menu_items(gctx *g, const sbat_grub_cfg *cfg, const char *config, const char *name, menu_list *m)
{
	long def = default_entry(g, cfg, m);
	size_t i;

	m->default_known = def >= 0;
	for (i = 0; i < cfg->n_entries; i++) {
		const sbat_grub_entry *e = &cfg->entries[i];
		char root[WALK_PATH_MAX] = "";
		menu_item *it;

		if (!e->command || !(it = menu_add(m)))
			continue;
		if (e->kernel.word)
			opened_name(it->file, sizeof(it->file), &e->kernel);
		else
			menu_copy(it->file, sizeof(it->file), e->command);
		entry_desc(cfg, i, it->desc, sizeof(it->desc));
		snprintf(it->config, sizeof(it->config), "%s:%u", config, e->kernel.line);
		it->is_default = (long)i == def;
		if (e->conditional) {
			menu_reason_set(&it->why, SBAT_BOOT_MENU_CONDITIONAL);
			menu_copy(it->why.file, sizeof(it->why.file), config);
			it->why.line = e->line;
		} else if (e->kernel.path) {
			it->host = map_file(g, e->kernel.device, e->kernel.path, root, &it->why);
		} else {
			menu_reason_set(&it->why, SBAT_BOOT_MENU_COMMAND);
			menu_copy(it->why.word, sizeof(it->why.word), e->command);
			menu_copy(it->why.text, sizeof(it->why.text), e->kernel.why ? e->kernel.why : "(null)");
			menu_copy(it->why.file, sizeof(it->why.file), config);
			it->why.line = e->kernel.line;
		}
		if (it->host)
			it->root = strdup(root);
		initrd_missing(g, e, it);
	}
	if (m->n_items == 0) {
		menu_reason r;

		menu_reason_set(&r, SBAT_BOOT_MENU_NO_ENTRIES);
		menu_copy(r.file, sizeof(r.file), config);
		config_line(m, name, &r);
	}
}

/* What is at path under root (a mounted file system): a file, a directory, nothing, or not known. */
static enum grubcfg_kind
on_partition(const char *root, const char *path)
{
	char *out = NULL;
	sbat_partition_miss miss = sbat_partition_resolve(root, path, 0, &out);

	free(out);
	if (miss == SBAT_PARTITION_NOT_REGULAR) {
		out = NULL;
		miss = sbat_partition_resolve(root, path, SBAT_PARTITION_DIR, &out);
		free(out);
		return miss == SBAT_PARTITION_FOUND ? GRUBCFG_DIR : GRUBCFG_UNKNOWN;
	}
	return miss == SBAT_PARTITION_FOUND   ? GRUBCFG_FILE :
	       miss == SBAT_PARTITION_MISSING ? GRUBCFG_NOTHING :
	                                        GRUBCFG_UNKNOWN;
}

/* The configuration's file tests ([ -e FILE ]): what is at path on device, as GRUB would find it. */
static enum grubcfg_kind
file_kind(void *ctx, const char *device, const char *path)
{
	gctx *g = ctx;
	enum memdisk_found found;
	menu_reason r;
	char *host;
	sbat_diag d;

	if (strcmp(device, GRUBCFG_MEMDISK) == 0) {
		if (!g->core.memdisk ||
		    memdisk_lookup(g->core.memdisk, g->core.memdisk_len, path, 0, &found, NULL, NULL, &d) != SBAT_OK)
			return GRUBCFG_UNKNOWN;
		return found == MEMDISK_FILE ? GRUBCFG_FILE : found == MEMDISK_DIR ? GRUBCFG_DIR : GRUBCFG_NOTHING;
	}
	if (strcmp(device, ESP_DEVICE) == 0)
		return on_partition(g->esp, path);
	host = map_file(g, device, path, NULL, &r);
	free(host);
	return host ? GRUBCFG_FILE : is_missing(&r) ? GRUBCFG_NOTHING : GRUBCFG_UNKNOWN;
}

/* The bytes of configuration `depth` of the chain; 0 after a note. */
static int
load_cfg(gctx *g, size_t depth, uint8_t **buf, size_t *len)
{
	const char *key = g->visited[depth];
	enum memdisk_found found;
	sbat_diag d;

	if (g->where[depth] == EMBEDDED) {
		*len = g->core.config_len;
		*buf = malloc(*len ? *len : 1);
		if (*buf && *len)
			memcpy(*buf, g->core.config, *len);
		if (!*buf)
			walk_fact(g->w, SBAT_BOOT_NOTE_ERROR, key, SBAT_BOOT_NOTE_OUT_OF_MEMORY);
		return *buf != NULL;
	}
	if (g->where[depth] == ON_MEMDISK) {
		if (memdisk_lookup(g->core.memdisk, g->core.memdisk_len, key + strlen(MEMDISK_NAME),
		                   SBAT_BOOTCFG_MAX_SIZE, &found, buf, len, &d) == SBAT_OK)
			return 1;
		d.offset += g->core.memdisk_offset;
		walk_error(g->w, key, &d);
		return 0;
	}
	if (sbat_file_read(key, SBAT_BOOTCFG_MAX_SIZE, buf, len, &d) != SBAT_OK) {
		walk_error(g->w, key, &d);
		return 0;
	}
	return 1;
}

/* Read and parse configuration `depth` of the chain, from root and $prefix as GRUB has them; NULL after a note. */
static sbat_grub_cfg *
read_cfg(gctx *g, size_t depth, const char *root, const char *prefix)
{
	const char *key = g->visited[depth];
	sbat_grub_cfg *cfg = NULL;
	grubcfg_opts o;
	uint8_t *buf;
	size_t len, i;
	sbat_diag d;

	if (!load_cfg(g, depth, &buf, &len))
		return NULL;
	memset(&o, 0, sizeof(o));
	o.root_device = root;
	o.prefix_path = prefix;
	o.cmd_device = ESP_DEVICE;
	o.cmd_path = g->cmd_dir;
	o.memdisk = g->core.memdisk != NULL;
	o.exists = file_kind;
	o.ctx = g;
	if (grubcfg_parse(buf, len, &o, &cfg, &d) != SBAT_OK)
		walk_error(g->w, key, &d);
	free(buf);
	for (i = 0; cfg && i < cfg->n_notes; i++)
		walk_config_note(g->w, key, cfg->notes[i].line, SBAT_BOOT_NOTE_LINE, cfg->notes[i].what);
	if (cfg && cfg->notes_dropped)
		walk_error_count(g->w, key, SBAT_BOOT_NOTE_MORE_LINES, cfg->notes_dropped);
	return cfg;
}

/* 1 when the chain has read key before, up to depth. */
static int
seen(const gctx *g, const char *key, size_t depth)
{
	size_t i;

	for (i = 0; i <= depth; i++)
		if (strcmp(g->visited[i], key) == 0)
			return 1;
	return 0;
}

/*
 * The configuration (device)path as configuration `to` of the chain: on
 * this machine or in GRUB's memdisk. 0 after a line saying why not.
 */
static int
follow(gctx *g, const char *device, const char *path, size_t to, menu_list *m)
{
	char name[WALK_PATH_MAX], key[WALK_PATH_MAX];
	enum memdisk_found found = MEMDISK_MISSING;
	menu_reason r;
	char *h = NULL;

	grub_name(name, sizeof(name), device, path);
	menu_reason_set(&r, SBAT_BOOT_MENU_MEMDISK_UNREADABLE);
	if (strcmp(device, GRUBCFG_MEMDISK) == 0) {
		if (g->core.memdisk && memdisk_lookup(g->core.memdisk, g->core.memdisk_len, path, 0, &found, NULL, NULL,
		                                      &r.diag) != SBAT_OK) {
			config_line(m, name, &r);
			return 0;
		}
		if (found != MEMDISK_FILE) {
			config_why(m, name,
			           g->core.memdisk ? SBAT_BOOT_MENU_NOT_IN_MEMDISK : SBAT_BOOT_MENU_NO_MEMDISK);
			return 0;
		}
		snprintf(key, sizeof(key), "%s", name);
	} else if (!(h = map_file(g, device, path, NULL, &r))) {
		config_line(m, name, &r);
		return 0;
	} else {
		menu_copy(key, sizeof(key), h);
		free(h);
	}
	if (to && seen(g, key, to - 1)) {
		menu_reason_set(&r, SBAT_BOOT_MENU_LOOP);
		menu_copy(r.file, sizeof(r.file), key);
		config_line(m, name, &r);
		return 0;
	}
	menu_copy(g->visited[to], sizeof(g->visited[0]), key);
	g->where[to] = strcmp(device, GRUBCFG_MEMDISK) == 0 ? ON_MEMDISK : ON_HOST;
	return 1;
}

/* --boot stands for the file system of f, a configuration on neither the ESP nor the memdisk: the directory of its grub/. */
static void
boot_is(gctx *g, const sbat_grub_file *f)
{
	size_t i;

	if (!g->w->o->boot || g->boot_uuid[0] || strcmp(f->device, ESP_DEVICE) == 0 ||
	    strcmp(f->device, GRUBCFG_MEMDISK) == 0)
		return;
	menu_copy(g->boot_uuid, sizeof(g->boot_uuid), f->device);
	menu_copy(g->boot_sub, sizeof(g->boot_sub), f->path);
	for (i = 0; i < 2 && strrchr(g->boot_sub, '/'); i++)
		*strrchr(g->boot_sub, '/') = '\0';
	if (!g->boot_sub[0])
		snprintf(g->boot_sub, sizeof(g->boot_sub), "/");
}

/*
 * The file normal mode reads (normal/main.c): $prefix/grub.cfg (prefix_path
 * on device; NULL: $prefix is not known), after $fw_path/grub.cfg, in the
 * directory GRUB was started from, when this GRUB tries that first and it
 * is there. *ret_device and path[0..size) get it; 0 when it is not known.
 */
static int
normal_file(gctx *g, const char *device, const char *prefix_path, const char **ret_device, char *path, size_t size)
{
	char fw[WALK_PATH_MAX];

	snprintf(fw, sizeof(fw), "%.4000s/grub.cfg", strcmp(g->cmd_dir, "/") == 0 ? "" : g->cmd_dir);
	if (g->core.fw_path_first && file_kind(g, ESP_DEVICE, fw) == GRUBCFG_FILE) {
		*ret_device = ESP_DEVICE;
		menu_copy(path, size, fw);
		return 1;
	}
	if (!prefix_path)
		return 0;
	*ret_device = device;
	snprintf(path, size, "%.4000s/grub.cfg", strcmp(prefix_path, "/") == 0 ? "" : prefix_path);
	return 1;
}

/*
 * The configuration that cfg (configuration `depth`) hands over to with
 * configfile, source or normal FILE, when it has no menu of its own; after
 * GRUB's embedded configuration, normal mode's $prefix/grub.cfg. *f gets
 * the file. 0 after a line saying why not.
 */
static int
next_config(gctx *g, const sbat_grub_cfg *cfg, size_t depth, menu_list *m, sbat_grub_file *f, char *path, size_t size)
{
	const char *key = g->visited[depth];
	menu_reason r;

	*f = cfg->next_config;
	if (!cfg->next_command) {
		/* normal mode reads $prefix/grub.cfg (normal/main.c) */
		*f = cfg->prefix;
		if (!normal_file(g, f->device, f->path, &f->device, path, size)) {
			menu_reason_set(&r, SBAT_BOOT_MENU_NO_PREFIX);
			if (f->word)
				menu_copy(r.text, sizeof(r.text), f->why ? f->why : "(null)");
			config_line(m, "$prefix/grub.cfg", &r);
			return 0;
		}
		f->path = path;
	} else if (!f->path) {
		menu_reason_set(&r, SBAT_BOOT_MENU_NEXT_COMMAND);
		menu_copy(r.word, sizeof(r.word), cfg->next_command);
		menu_copy(r.text, sizeof(r.text), f->why ? f->why : "(null)");
		menu_copy(r.file, sizeof(r.file), key);
		r.line = f->line;
		config_line(m, f->word, &r);
		return 0;
	}
	boot_is(g, f);
	return follow(g, f->device, f->path, depth + 1, m);
}

/* $prefix/grubenv, which load_env reads: where grubenv_get looks. */
static void
find_grubenv(gctx *g, const sbat_grub_cfg *cfg)
{
	char path[WALK_PATH_MAX];
	menu_reason r;
	char *h;

	if (!cfg->prefix.path || !cfg->prefix.device)
		return;
	snprintf(path, sizeof(path), "%s/grubenv", cfg->prefix.path);
	h = map_file(g, cfg->prefix.device, path, NULL, &r);
	if (h)
		menu_copy(g->env, sizeof(g->env), h);
	free(h);
}

/* Configuration depth of the chain, for the note of the files read: its name, and its file on this machine ("": none). */
static void
chain_put(menu_list *m, size_t depth, const char *name, const char *host)
{
	menu_copy(m->files.chain[depth], sizeof(m->files.chain[depth]), name);
	menu_copy(m->files.chain_host[depth], sizeof(m->files.chain_host[depth]), host);
	m->files.n_chain = depth + 1;
}

/* The configuration next to GRUB on the ESP (it has no prefix object): configuration 0 of the chain; 0 after a line. */
static int
esp_config(gctx *g, const char *loader_path, menu_list *m)
{
	char cfg[1100];
	const char *slash = strrchr(loader_path, '\\');
	size_t n = slash ? (size_t)(slash - loader_path) : 0;
	sbat_partition_miss miss;
	menu_reason r;
	char *h;

	snprintf(cfg, sizeof(cfg), "%.*s\\grub.cfg", (int)n, loader_path);
	chain_put(m, 0, cfg, "");
	m->files.on_esp = 1;
	h = walk_lookup(g->esp, cfg, 0, &miss);
	if (!h) {
		menu_reason_set(&r, SBAT_BOOT_MENU_NO_CONFIG);
		r.miss = miss == SBAT_PARTITION_FOUND ? SBAT_PARTITION_MISSING : (int)miss;
		config_line(m, cfg, &r);
		return 0;
	}
	menu_copy(g->visited[0], sizeof(g->visited[0]), h);
	chain_put(m, 0, cfg, h);
	free(h);
	return 1;
}

/* 1 for the machines whose GRUB has a 64-bit grub_module_info. */
static int
is64(uint16_t machine)
{
	return machine == 0x8664 || machine == 0xaa64 || machine == 0x5064 || machine == 0x6264;
}

/*
 * $root and $prefix as GRUB sets them from its prefix object (kern/main.c):
 * "(DEVICE)PATH" or "PATH" on the device it was started from, the ESP;
 * without a path, its own directory. 0 after a line saying why not.
 */
static int
prefix_of(gctx *g, char *root, size_t root_size, char *prefix, size_t size, menu_list *m)
{
	const char *p = g->core.prefix, *close = p[0] == '(' ? strrchr(p, ')') : NULL, *path = close ? close + 1 : p;
	size_t n = close ? (size_t)(close - p - 1) : 0;
	int memdisk = n == 7 && strncmp(p + 1, "memdisk", 7) == 0;
	menu_reason r;

	menu_copy(root, root_size, ESP_DEVICE);
	if (close && memdisk && g->core.memdisk) {
		menu_copy(root, root_size, GRUBCFG_MEMDISK);
	} else if (close && n > 0) {
		menu_reason_set(&r, memdisk ? SBAT_BOOT_MENU_PREFIX_NO_MEMDISK : SBAT_BOOT_MENU_PREFIX_DEVICE);
		menu_copy(r.word, sizeof(r.word), p);
		config_line(m, NULL, &r);
		return 0;
	}
	menu_copy(prefix, size, path[0] ? path : g->cmd_dir);
	return 1;
}

/*
 * Configuration 0 of the chain, and the root and $prefix GRUB starts with:
 * its embedded configuration when it has one, else $prefix/grub.cfg; grub.cfg
 * next to it when its mods section has no prefix object. 0 after a line.
 */
static int
first_config(gctx *g, const image *loader, const char *loader_path, char *root, char *prefix, size_t size, menu_list *m)
{
	size_t len = 0, i;
	const uint8_t *mods = walk_section_bytes(loader, "mods", &len);
	const char *device = root;
	char path[1200], name[WALK_PATH_MAX];
	menu_reason r;

	snprintf(g->cmd_dir, sizeof(g->cmd_dir), "%s", loader_path);
	if (strrchr(g->cmd_dir, '\\'))
		*strrchr(g->cmd_dir, '\\') = '\0';
	for (i = 0; g->cmd_dir[i]; i++)
		g->cmd_dir[i] = g->cmd_dir[i] == '\\' ? '/' : g->cmd_dir[i];
	if (!g->cmd_dir[0])
		snprintf(g->cmd_dir, sizeof(g->cmd_dir), "/");
	menu_reason_set(&r, SBAT_BOOT_MENU_MODS_UNREADABLE);
	if (mods && grubcore_read(mods, len, is64(loader->machine), &g->core, &r.diag) != SBAT_OK) {
		config_line(m, loader_path, &r);
		return 0;
	}
	if (!g->core.has_prefix && !g->core.config) {
		menu_copy(root, size, ESP_DEVICE);
		menu_copy(prefix, size, g->cmd_dir);
		return esp_config(g, loader_path, m);
	}
	if (!prefix_of(g, root, size, prefix, size, m))
		return 0;
	if (g->core.config) {
		menu_copy(g->visited[0], sizeof(g->visited[0]), EMBEDDED_NAME);
		g->where[0] = EMBEDDED;
		chain_put(m, 0, "", "");
		m->files.embedded = 1;
		return 1;
	}
	normal_file(g, root, prefix, &device, path, sizeof(path));
	grub_name(name, sizeof(name), device, path);
	chain_put(m, 0, name, "");
	if (!follow(g, device, path, 0, m))
		return 0;
	if (g->where[0] == ON_HOST)
		chain_put(m, 0, name, g->visited[0]);
	return 1;
}

/* After configuration depth hands over to f: root and $prefix as it leaves them, the chain, the next name. */
static void
hand_over(gctx *g, const sbat_grub_cfg *cfg, const sbat_grub_file *f, size_t depth, char *root, char *prefix,
          size_t size, char *name, menu_list *m)
{
	grub_name(name, WALK_PATH_MAX, f->device, f->path);
	chain_put(m, depth + 1, name, g->where[depth + 1] == ON_MEMDISK ? "" : g->visited[depth + 1]);
	menu_copy(root, size, cfg->root_device ? cfg->root_device : "");
	menu_copy(prefix, size,
	          cfg->prefix.path && cfg->root_device && strcmp(cfg->prefix.device, cfg->root_device) == 0 ?
	              cfg->prefix.path :
	              "");
}

void
grubmenu_read(walk *w, const char *esp, const char *loader_path, const image *loader, menu_list *m)
{
	char root[128], prefix[1024], name[WALK_PATH_MAX], path[WALK_PATH_MAX];
	sbat_grub_cfg *cfg;
	sbat_grub_file f;
	size_t depth;
	gctx *g = calloc(1, sizeof(*g));

	m->loader = SBAT_BOOT_LOADER_GRUB;
	m->rule = SBAT_BOOT_RULE_SHIM_LOCK;
	m->grub_by = SBAT_BOOT_GRUB_BY_NONE;
	if (!g)
		return;
	g->w = w;
	g->esp = esp;
	if (!first_config(g, loader, loader_path, root, prefix, sizeof(prefix), m)) {
		free(g);
		return;
	}
	menu_copy(name, sizeof(name), m->files.chain[0]);
	for (depth = 0; depth < MAX_CHAIN; depth++) {
		const char *at = g->where[depth] == EMBEDDED ? NULL : name; /* a line's name for it */

		if (!(cfg = read_cfg(g, depth, root[0] ? root : NULL, prefix[0] ? prefix : NULL))) {
			config_why(m, at, SBAT_BOOT_MENU_UNREADABLE);
			break;
		}
		if (cfg->n_entries || (!cfg->next_command && g->where[depth] != EMBEDDED)) {
			find_grubenv(g, cfg);
			menu_items(g, cfg, g->visited[depth], at, m);
		} else if (depth + 1 == MAX_CHAIN) {
			config_why(m, at, SBAT_BOOT_MENU_TOO_DEEP);
		} else if (next_config(g, cfg, depth, m, &f, path, sizeof(path))) {
			hand_over(g, cfg, &f, depth, root, prefix, sizeof(prefix), name, m);
			sbat_grub_cfg_free(cfg);
			continue;
		}
		sbat_grub_cfg_free(cfg);
		break;
	}
	free(g);
}
