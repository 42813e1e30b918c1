/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* grubmenu.c - GRUB's menu: grub.cfg next to it on the ESP, the one it names on /boot, its kernels and its default */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/bootcfg.h"
#include "sbat/error.h"
#include "sbat/input.h"
#include "sbat/partition.h"

#include "walk/grubmenu.h"
#include "walk/menu.h"

/* The device a configuration read from the ESP starts on (no file-system UUID is written like it). */
#define ESP_DEVICE "esp:"
#define MAX_CHAIN 4

typedef struct gctx {
	walk *w;
	const char *esp;
	char boot_uuid[80];           /* the file system --boot stands for: where the chain's grub.cfg is */
	char boot_sub[WALK_PATH_MAX]; /* the directory of it that --boot is ("/boot", or "/" for a /boot of its own) */
	char visited[MAX_CHAIN][WALK_PATH_MAX];
	char env[WALK_PATH_MAX]; /* $prefix/grubenv on this machine, "" when unknown */
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

/*
 * The file on this machine that (device)path names; NULL with why set.
 * root (NULL: not wanted) gets the directory the lookup started from.
 */
static char *
map_file(gctx *g, const char *device, const char *path, char root_out[WALK_PATH_MAX], char *why, size_t why_size)
{
	char mnt[1024], root[1024];
	const char *rel, *reason;
	char *host;

	if (strcmp(device, ESP_DEVICE) == 0) {
		set_root(root_out, g->esp);
		host = walk_resolve(g->esp, path, 0, &reason);
	} else if (g->w->o->boot && g->boot_uuid[0] && strcmp(device, g->boot_uuid) == 0) {
		if (!(rel = below(path, g->boot_sub))) {
			snprintf(why, why_size, "%.400s is outside %.400s, the directory --boot names", path,
			         g->boot_sub);
			return NULL;
		}
		set_root(root_out, g->w->o->boot);
		host = walk_resolve(g->w->o->boot, rel, WALK_RESOLVE_EXACT, &reason);
	} else if (!sbat_partition_mount_of_uuid(device, mnt, sizeof(mnt), root, sizeof(root))) {
		snprintf(why, why_size, "the file system with UUID %s is not mounted (give --boot DIR)", device);
		return NULL;
	} else if (!(rel = below(path, root))) {
		snprintf(why, why_size, "%.400s is outside the part of file system %.80s mounted at %.400s", path,
		         device, mnt);
		return NULL;
	} else {
		set_root(root_out, mnt);
		host = walk_resolve(mnt, rel, WALK_RESOLVE_EXACT, &reason);
	}
	if (!host)
		snprintf(why, why_size, "%s %s", path, menu_is(reason));
	return host;
}

/* A GRUB file name for messages: (device)path, the ESP's in its own words. */
static void
grub_name(char *out, size_t size, const char *device, const char *path)
{
	if (strcmp(device, ESP_DEVICE) == 0)
		snprintf(out, size, "(ESP)%s", path);
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

/* What `default` holds when the menu shows (its `set default=`, grubenv's entries); 0 when it cannot be known. */
static int
default_value(const gctx *g, const sbat_grub_cfg *cfg, char *value, size_t size, char *by, size_t by_size)
{
	const char *d = cfg->default_value;

	if (cfg->next_entry_line && grubenv_get(g, "next_entry", value, size)) {
		snprintf(by, by_size, "grubenv's next_entry \"%s\" (this boot only; line %u)", value,
		         cfg->next_entry_line);
	} else if (d && (strcmp(d, "${saved_entry}") == 0 || strcmp(d, "$saved_entry") == 0)) {
		if (grubenv_get(g, "saved_entry", value, size))
			snprintf(by, by_size, "grubenv's saved_entry \"%s\" (set default=%s, line %u)", value, d,
			         cfg->default_line);
		else
			snprintf(by, by_size, "set default=%s (line %u), and grubenv has no saved_entry", d,
			         cfg->default_line);
	} else if (d && strchr(d, '$')) {
		snprintf(by, by_size, "none known: set default=\"%s\" (line %u) uses a variable", d, cfg->default_line);
		return 0;
	} else if (d) {
		menu_copy(value, size, d);
		snprintf(by, by_size, "set default=\"%s\" (line %u)", d, cfg->default_line);
	} else {
		snprintf(by, by_size, "no default is set");
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

/* The index of the entry GRUB boots by itself; -1 when the menu waits for a key or it is not known. */
static long
default_entry(const gctx *g, const sbat_grub_cfg *cfg, char *by, size_t by_size)
{
	char value[512] = "", *end;
	long t = cfg->timeout ? strtol(cfg->timeout, &end, 0) : -1;
	size_t idx;
	int fallback;
	sbat_diag d;

	if (!cfg->timeout) {
		snprintf(by, by_size, "none: no timeout is set, so GRUB's menu waits for a key");
		return -1;
	}
	if (t < 0 || end == cfg->timeout) {
		snprintf(by, by_size, "none: timeout %s (line %u): GRUB's menu waits for a key", cfg->timeout,
		         cfg->timeout_line);
		return -1;
	}
	if (!default_value(g, cfg, value, sizeof(value), by, by_size))
		return -1;
	if (sbat_grub_default_entry(cfg, value[0] ? value : NULL, &idx, &fallback, &d) != SBAT_OK) {
		snprintf(by, by_size, "none: the menu has no entries");
		return -1;
	}
	if (fallback)
		menu_append(by, by_size, ", which names no entry: GRUB takes the first");
	else if (!value[0])
		menu_append(by, by_size, ": the first entry");
	if (conditional_up_to(cfg, idx)) {
		snprintf(by, by_size,
		         "not known: it, or an entry before it, is inside an if or a loop that sbat-add "
		         "cannot run, so which entry GRUB starts is not known");
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

/* A note for the first initrd of entry e that is not there. */
static void
initrd_note(gctx *g, const sbat_grub_entry *e, menu_item *it)
{
	char why[1024];
	size_t i;

	for (i = 0; i < e->n_initrds; i++) {
		const sbat_grub_file *f = &e->initrds[i];
		char *host = f->path ? map_file(g, f->device, f->path, NULL, why, sizeof(why)) : NULL;

		if (f->path && !host && strstr(why, " is missing")) {
			char name[1024];

			opened_name(name, sizeof(name), f);
			menu_append(it->note, sizeof(it->note),
			            " (its initrd %s is missing: GRUB fails to start the entry)", name);
			menu_copy(it->missing, sizeof(it->missing), name);
			it->missing_miss = SBAT_PARTITION_MISSING;
		}
		free(host);
		if (it->note[0])
			return;
	}
}

/* A line for the configuration itself (name: its GRUB file name) that cannot be followed further. */
static void
config_line(menu_list *m, const char *name, const char *why)
{
	menu_item *it = menu_add(m);

	if (!it)
		return;
	snprintf(it->file, sizeof(it->file), "%.1000s", name);
	snprintf(it->why, sizeof(it->why), "%.760s", why);
}

/* The lines of a parsed menu: one per entry that loads a kernel or another EFI program. */
static void
menu_items(gctx *g, const sbat_grub_cfg *cfg, const char *config, const char *name, menu_list *m)
{
	long def = default_entry(g, cfg, m->default_by, sizeof(m->default_by));
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
		if (e->conditional)
			snprintf(
			    it->why, sizeof(it->why),
			    "it is inside an if or a loop that sbat-add cannot run, so whether GRUB adds it is not "
			    "known (%.600s:%u)",
			    config, e->line);
		else if (e->kernel.path)
			it->host = map_file(g, e->kernel.device, e->kernel.path, root, it->why, sizeof(it->why));
		else
			snprintf(it->why, sizeof(it->why), "%s %s (%.600s:%u)", e->command, e->kernel.why, config,
			         e->kernel.line);
		if (it->host)
			it->root = strdup(root);
		initrd_note(g, e, it);
	}
	if (m->n_items == 0) {
		char why[1200];

		snprintf(why, sizeof(why), "%s: no menu entry in it starts a kernel or an EFI program", config);
		config_line(m, name, why);
	}
}

/* Read and parse one configuration file; NULL after a note. */
static sbat_grub_cfg *
read_cfg(gctx *g, const char *host, const char *root, const char *prefix)
{
	sbat_grub_cfg *cfg = NULL;
	uint8_t *buf;
	size_t len, i;
	sbat_diag d;
	char text[80];

	if (sbat_file_read(host, SBAT_BOOTCFG_MAX_SIZE, &buf, &len, &d) != SBAT_OK) {
		walk_error(g->w, host, &d);
		return NULL;
	}
	if (sbat_grub_cfg_parse(buf, len, root, prefix, &cfg, &d) != SBAT_OK)
		walk_error(g->w, host, &d);
	free(buf);
	for (i = 0; cfg && i < cfg->n_notes; i++)
		walk_config_note(g->w, host, cfg->notes[i].line, cfg->notes[i].what);
	if (cfg && cfg->notes_dropped) {
		snprintf(text, sizeof(text), "%zu more lines that are not followed", cfg->notes_dropped);
		walk_error_text(g->w, host, text);
	}
	return cfg;
}

/*
 * The configuration that cfg (read from host) hands over to with configfile
 * or source, when it has no menu of its own: its file on this machine, with
 * the root and $prefix GRUB keeps. 0 after a line saying why not.
 */
static int
next_config(gctx *g, const sbat_grub_cfg *cfg, const char *host, size_t depth, menu_list *m, char *next, size_t size)
{
	const sbat_grub_file *f = &cfg->next_config;
	char why[1024], name[WALK_PATH_MAX];
	char *h;
	size_t i;

	if (!f->path) {
		menu_copy(name, sizeof(name), f->word);
		snprintf(why, sizeof(why), "%s %s (%.800s:%u)", cfg->next_command, f->why, host, f->line);
		config_line(m, name, why);
		return 0;
	}
	grub_name(name, sizeof(name), f->device, f->path);
	if (g->w->o->boot && !g->boot_uuid[0] && strcmp(f->device, ESP_DEVICE) != 0) {
		/* --boot is the directory that holds this grub/grub.cfg */
		menu_copy(g->boot_uuid, sizeof(g->boot_uuid), f->device);
		menu_copy(g->boot_sub, sizeof(g->boot_sub), f->path);
		for (i = 0; i < 2 && strrchr(g->boot_sub, '/'); i++)
			*strrchr(g->boot_sub, '/') = '\0';
		if (!g->boot_sub[0])
			snprintf(g->boot_sub, sizeof(g->boot_sub), "/");
	}
	if (!(h = map_file(g, f->device, f->path, NULL, why, sizeof(why)))) {
		config_line(m, name, why);
		return 0;
	}
	for (i = 0; i <= depth; i++)
		if (strcmp(g->visited[i], h) == 0) {
			snprintf(why, sizeof(why), "a loop: %s is read again", h);
			config_line(m, name, why);
			free(h);
			return 0;
		}
	menu_copy(next, size, h);
	free(h);
	return 1;
}

/* $prefix/grubenv, which load_env reads: where grubenv_get looks. */
static void
find_grubenv(gctx *g, const sbat_grub_cfg *cfg)
{
	char path[WALK_PATH_MAX], why[1024];
	char *h;

	if (!cfg->prefix.path || !cfg->prefix.device)
		return;
	snprintf(path, sizeof(path), "%s/grubenv", cfg->prefix.path);
	h = map_file(g, cfg->prefix.device, path, NULL, why, sizeof(why));
	if (h)
		menu_copy(g->env, sizeof(g->env), h);
	free(h);
}

/* The configuration next to GRUB on the ESP: its path there, and $prefix as GRUB starts with it. */
static char *
esp_config(gctx *g, const char *loader_path, char *prefix, size_t size, menu_list *m)
{
	char dir[1024], cfg[1100];
	const char *slash = strrchr(loader_path, '\\'), *why;
	size_t n = slash ? (size_t)(slash - loader_path) : 0, i;
	char *h;

	snprintf(dir, sizeof(dir), "%.*s", (int)n, loader_path);
	snprintf(cfg, sizeof(cfg), "%s\\grub.cfg", dir);
	for (i = 0; dir[i]; i++)
		dir[i] = dir[i] == '\\' ? '/' : dir[i];
	menu_copy(prefix, size, dir[0] ? dir : "/");
	h = walk_resolve(g->esp, cfg, 0, &why);
	if (!h) {
		char text[300];

		snprintf(text, sizeof(text), "%s: GRUB finds no grub.cfg next to it", why);
		config_line(m, cfg, text);
	}
	menu_copy(m->summary, sizeof(m->summary), cfg);
	return h;
}

void
grubmenu_read(walk *w, const char *esp, const char *loader_path, menu_list *m)
{
	char root[128] = ESP_DEVICE, prefix[1024], name[WALK_PATH_MAX];
	sbat_grub_cfg *cfg;
	size_t depth;
	gctx *g = calloc(1, sizeof(*g));
	char *h;

	m->loader = SBAT_BOOT_LOADER_GRUB;
	m->rule = SBAT_BOOT_RULE_SHIM_LOCK;
	snprintf(m->default_by, sizeof(m->default_by), "none: GRUB's menu is not known");
	if (!g)
		return;
	g->w = w;
	g->esp = esp;
	if (!(h = esp_config(g, loader_path, prefix, sizeof(prefix), m))) {
		free(g);
		return;
	}
	menu_copy(g->visited[0], sizeof(g->visited[0]), h);
	menu_copy(name, sizeof(name), m->summary);
	free(h);
	for (depth = 0; depth < MAX_CHAIN; depth++) {
		if (!(cfg = read_cfg(g, g->visited[depth], root[0] ? root : NULL, prefix[0] ? prefix : NULL))) {
			config_line(m, name, "it cannot be read (see above)");
			break;
		}
		if (cfg->n_entries || !cfg->next_command) {
			find_grubenv(g, cfg);
			menu_items(g, cfg, g->visited[depth], name, m);
		} else if (depth + 1 == MAX_CHAIN) {
			config_line(m, name, "configfile and source nested too deep: not followed");
		} else if (next_config(g, cfg, g->visited[depth], depth, m, g->visited[depth + 1], WALK_PATH_MAX)) {
			grub_name(name, sizeof(name), cfg->next_config.device, cfg->next_config.path);
			menu_append(m->summary, sizeof(m->summary), " -> %s (%s)", name, g->visited[depth + 1]);
			menu_copy(root, sizeof(root), cfg->root_device ? cfg->root_device : "");
			menu_copy(prefix, sizeof(prefix),
			          cfg->prefix.path && cfg->root_device &&
			                  strcmp(cfg->prefix.device, cfg->root_device) == 0 ?
			              cfg->prefix.path :
			              "");
			sbat_grub_cfg_free(cfg);
			continue;
		}
		sbat_grub_cfg_free(cfg);
		break;
	}
	free(g);
}
