/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sdboot.c - systemd-boot's menu as 252 to 257 build it: Type #1 entries, UKIs, loader.conf, its variables */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "sbat/sbat.h"

#include "messages.h"
#include "stage3.h"

/* systemd-boot's variables (LOADER_GUID) */
#define LOADER_GUID "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
#define MAX_ENTRIES 256
/* names read from one directory, before the filter; more is an error */
#define LIST_MAX 65536
#define TIMEOUT_UNSET (-1L)
#define TIMEOUT_FORCE (-2L) /* menu-force: the menu waits for a key */

typedef struct sd_entry {
	char name[256]; /* the file name */
	char id[256];   /* what default patterns match: the file name in lower case */
	char title[256], version[128], machine_id[128], sort_key[128];
	char loader[1024]; /* the file it starts, as systemd-boot opens it */
	const char *root;  /* the partition it is on */
	int xbootldr;
	int kind;                    /* 'l' linux, 'e' efi, 'u' a UKI; 0 none */
	long tries_left, tries_done; /* -1: no boot counting */
	int in_menu;
	int left_out;   /* not in the menu, for certain (not: could not be read) */
	char why[512];  /* not in the menu: why */
	char note[512]; /* a missing initrd or devicetree */
	char config[CLI_PATH_MAX + 16];
} sd_entry;

typedef struct sd_ctx {
	walk *w;
	const char *esp, *xbootldr, *self; /* self: systemd-boot's own path on the ESP */
	const char *arch;
	sd_entry *e;
	size_t n;
	size_t n_over; /* entries past MAX_ENTRIES: not read, so the menu is not known */
	char conf_default[256];
	unsigned conf_default_line;
	long timeout;
	char conf_file[CLI_PATH_MAX];
} sd_ctx;

int
cli_is_sdboot(const image *im)
{
	static const char magic[] = "LoaderInfo: systemd-boot ";
	static const char osrel[] = "ID=systemd-boot";

	return s3_section_has(im, ".sdmagic", magic, sizeof(magic) - 1) ||
	       s3_section_has(im, ".osrel", osrel, sizeof(osrel) - 1);
}

/* EFI_MACHINE_TYPE_NAME of systemd-boot's build: what an entry's `architecture` must say. */
static const char *
arch_name(uint16_t machine)
{
	switch (machine) {
	case 0x014c: return "ia32";
	case 0xaa64: return "aa64";
	case 0x01c2: return "arm";
	case 0x5064: return "riscv64";
	case 0x6264: return "loongarch64";
	default: return "x64";
	}
}

static void
lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* value[0..n) into out as a NUL-terminated string. */
static void
copy_value(char *out, size_t size, const char *value, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(out, value, n);
	out[n] = '\0';
}

/* A path as systemd-boot opens it (xstr8_to_path): a leading '\', '/' read as '\', doubled ones as one. */
static void
loader_path(char *out, size_t size, const char *value, size_t n)
{
	size_t o = 1, i;

	out[0] = '\\';
	for (i = 0; i < n && o + 1 < size; i++) {
		char c = value[i] == '/' ? '\\' : value[i];

		if (c == '\\' && out[o - 1] == '\\')
			continue;
		out[o++] = c;
	}
	out[o] = '\0';
}

/* Read the whole file into *buf; -1 after a message naming it. */
static int
read_config(const char *path, uint8_t **buf, size_t *len)
{
	sbat_diag d;

	if (sbat_file_read(path, SBAT_BOOTCFG_MAX_SIZE, buf, len, &d) != SBAT_OK) {
		cli_report_error(path, &d);
		return -1;
	}
	return 0;
}

/* "name+LEFT-DONE.conf": systemd-boot's boot counting, which puts entries without tries left last. */
static void
parse_tries(sd_entry *e, const char *suffix)
{
	const char *plus = strrchr(e->name, '+');
	char *end;
	long left, done = 0;

	e->tries_left = e->tries_done = -1;
	if (!plus || plus[1] < '0' || plus[1] > '9')
		return;
	left = strtol(plus + 1, &end, 10);
	if (*end == '-') {
		if (end[1] < '0' || end[1] > '9')
			return;
		done = strtol(end + 1, &end, 10);
	}
	if (strcmp(end, suffix) != 0)
		return;
	e->tries_left = left;
	e->tries_done = done;
}

/* A file an initrd or devicetree line names, on the entry's partition: a note when it is not there. */
static void
check_extra(sd_entry *e, const char *key, const char *value, size_t n)
{
	char path[1024];
	const char *why;
	char *host;

	loader_path(path, sizeof(path), value, n);
	host = cli_resolve(e->root, path, 0, &why);
	if (!host && !e->note[0])
		snprintf(e->note, sizeof(e->note), " (its %s %s %s: systemd-boot fails to start the entry)", key,
		         cli_quote(path), s3_is(why));
	free(host);
}

/* One key of a Type #1 entry (boot.c boot_entry_add_type1); 1 when the entry is out for good. */
static int
entry_key(sd_ctx *c, sd_entry *e, const sbat_kv_line *kv, const char *file)
{
	char key[32];

	copy_value(key, sizeof(key), kv->key, kv->key_len);
	if (strcmp(key, "title") == 0) {
		copy_value(e->title, sizeof(e->title), kv->value, kv->value_len);
	} else if (strcmp(key, "version") == 0) {
		copy_value(e->version, sizeof(e->version), kv->value, kv->value_len);
	} else if (strcmp(key, "machine-id") == 0) {
		copy_value(e->machine_id, sizeof(e->machine_id), kv->value, kv->value_len);
	} else if (strcmp(key, "sort-key") == 0) {
		copy_value(e->sort_key, sizeof(e->sort_key), kv->value, kv->value_len);
	} else if (strcmp(key, "linux") == 0 || strcmp(key, "efi") == 0) {
		e->kind = key[0];
		loader_path(e->loader, sizeof(e->loader), kv->value, kv->value_len);
		snprintf(e->config, sizeof(e->config), "%s:%u", file, kv->line);
		if (e->kind == 'e' && strcasecmp(e->loader, c->self) == 0) {
			snprintf(e->why, sizeof(e->why),
			         "it starts systemd-boot itself, which leaves it out of its menu");
			e->left_out = 1;
			return 1;
		}
	} else if (strcmp(key, "architecture") == 0) {
		if (kv->value_len != strlen(c->arch) || strncmp(kv->value, c->arch, kv->value_len) != 0) {
			snprintf(e->why, sizeof(e->why),
			         "its architecture is %.*s, and this systemd-boot (%s) leaves it out",
			         (int)(kv->value_len > 32 ? 32 : kv->value_len), kv->value, c->arch);
			e->left_out = 1;
			return 1;
		}
	} else if (strcmp(key, "initrd") == 0 || strcmp(key, "devicetree") == 0) {
		check_extra(e, key, kv->value, kv->value_len);
	}
	return 0;
}

/* Read a Type #1 entry file into e (in_menu: whether systemd-boot lists it). */
static void
read_type1(sd_ctx *c, sd_entry *e, const char *path)
{
	sbat_kv_cursor cur;
	sbat_kv_line kv;
	sbat_diag d;
	uint8_t *buf;
	size_t len;
	int out = 0;
	const char *why;
	char *host;

	if (read_config(path, &buf, &len) != 0) {
		snprintf(e->why, sizeof(e->why), "%s cannot be read", cli_quote(path));
		return;
	}
	memset(&cur, 0, sizeof(cur));
	while (!out) {
		sbat_err err = sbat_kv_next(buf, len, " \t", &cur, &kv, &d);

		if (err != SBAT_OK)
			s3_report_line(path, d.line, d.what);
		else if (!kv.key)
			break;
		else
			out = entry_key(c, e, &kv, path);
	}
	free(buf);
	if (out)
		return;
	if (!e->kind) {
		snprintf(e->why, sizeof(e->why), "no linux or efi line, so systemd-boot leaves it out of its menu");
		e->left_out = 1;
		return;
	}
	host = cli_resolve(e->root, e->loader, 0, &why);
	if (!host) {
		snprintf(e->why, sizeof(e->why), "%s %s, so systemd-boot leaves the entry out of its menu",
		         cli_quote(e->loader), s3_is(why));
		e->left_out = strcmp(why, "missing") == 0;
	}
	free(host);
	e->in_menu = host != NULL;
}

/* os-release of a UKI's .osrel: name, version and sort key as bootspec_pick_name_version_sort_key picks them. */
static int
read_osrel(const uint8_t *p, size_t n, sd_entry *e)
{
	static const char *const keys[] = { "PRETTY_NAME",   "IMAGE_ID", "NAME",       "ID",
		                            "IMAGE_VERSION", "VERSION",  "VERSION_ID", "BUILD_ID" };
	char v[8][128];
	sbat_kv_cursor cur;
	sbat_kv_line kv;
	sbat_diag d;
	size_t i;
	sbat_err err;

	memset(v, 0, sizeof(v));
	memset(&cur, 0, sizeof(cur));
	while ((err = sbat_kv_next(p, n, "=", &cur, &kv, &d)) != SBAT_OK || kv.key)
		for (i = 0; err == SBAT_OK && i < 8; i++)
			if (strlen(keys[i]) == kv.key_len && strncmp(kv.key, keys[i], kv.key_len) == 0)
				copy_value(v[i], sizeof(v[i]), kv.value, kv.value_len);
	for (i = 0; i < 4 && !v[i][0]; i++)
		;
	if (i == 4)
		return 0;
	s3_copy(e->title, sizeof(e->title), v[i]);
	for (i = 4; i < 7 && !v[i][0]; i++)
		;
	s3_copy(e->version, sizeof(e->version), v[i]);
	s3_copy(e->sort_key, sizeof(e->sort_key), v[1][0] ? v[1] : v[3]);
	return 1;
}

/* A Type #2 entry: a UKI that systemd-boot lists when its .osrel names it (boot_entry_add_type2). */
static void
read_type2(sd_entry *e, const char *path)
{
	image im;
	int idx;
	const sbat_section_info *s;

	e->kind = 'u';
	s3_copy(e->config, sizeof(e->config), path);
	if (cli_image_open(path, &im) != 0) {
		snprintf(e->why, sizeof(e->why), "%s: %s, so systemd-boot does not list it", cli_quote(path),
		         im.d.what ? im.d.what : sbat_strerror(im.d.code));
	} else if ((idx = sbat_image_find_section(im.img, ".osrel")) < 0 ||
	           !(s = sbat_image_section(im.img, (unsigned)idx)) || s->pointer_to_raw_data >= im.len) {
		snprintf(e->why, sizeof(e->why), "no .osrel section, so systemd-boot does not list it");
		e->left_out = 1;
	} else {
		size_t n = s->virtual_size < s->size_of_raw_data ? s->virtual_size : s->size_of_raw_data;

		if (n > im.len - s->pointer_to_raw_data)
			n = im.len - s->pointer_to_raw_data;
		e->in_menu = read_osrel(im.buf + s->pointer_to_raw_data, n, e);
		if (!e->in_menu)
			snprintf(e->why, sizeof(e->why), "no name in its .osrel, so systemd-boot does not list it");
		e->left_out = !e->in_menu;
	}
	cli_image_close(&im);
}

static sd_entry *
new_entry(sd_ctx *c, const char *root, int xbootldr, const char *name)
{
	sd_entry *e;

	if (c->n == MAX_ENTRIES)
		return NULL;
	e = &c->e[c->n++];
	memset(e, 0, sizeof(*e));
	e->root = root;
	e->xbootldr = xbootldr;
	s3_copy(e->name, sizeof(e->name), name);
	s3_copy(e->id, sizeof(e->id), name);
	lower(e->id);
	return e;
}

/*
 * The regular files of directory p on root whose names end in suffix (in
 * any case) and do not start with "." or "auto-", sorted; symbolic links are
 * never followed. Returns how many (names to free), or -1 after a message.
 */
static int
list_dir(const char *root, const char *p, const char *suffix, char **dir_ret, char ***names_ret, size_t *n_over)
{
	const char *why;
	char *dir = cli_resolve(root, p, CLI_RESOLVE_DIR, &why), **all = NULL, **names = NULL;
	size_t n_all = 0, i, sl = strlen(suffix);
	sbat_diag d;
	int n = 0;

	*dir_ret = dir;
	*names_ret = NULL;
	if (!dir)
		return 0;
	if (sbat_partition_list(dir, SBAT_PARTITION_LIST_FILES, LIST_MAX, &all, &n_all, &d) != SBAT_OK ||
	    !(names = calloc(MAX_ENTRIES, sizeof(*names)))) {
		cli_message(dir, "cannot be read");
		sbat_partition_names_free(all, n_all);
		return -1;
	}
	for (i = 0; i < n_all; i++) {
		size_t len = strlen(all[i]);

		if (all[i][0] == '.' || strncmp(all[i], "auto-", 5) == 0 || len <= sl ||
		    strcasecmp(all[i] + len - sl, suffix) != 0)
			continue;
		if (n == MAX_ENTRIES) {
			(*n_over)++; /* counted, never cut silently */
		} else {
			names[n++] = all[i];
			all[i] = NULL;
		}
	}
	sbat_partition_names_free(all, n_all);
	*names_ret = names;
	return n;
}

/* The Type #1 entries and UKIs of one partition. */
static void
scan_partition(sd_ctx *c, const char *root, int xbootldr)
{
	char **names, *dir, path[CLI_PATH_MAX];
	int n, i, t;

	for (t = 0; t < 2; t++) {
		n = list_dir(root, t ? "\\loader\\entries" : "\\EFI\\Linux", t ? ".conf" : ".efi", &dir, &names,
		             &c->n_over);
		for (i = 0; i < n; i++) {
			sd_entry *e = new_entry(c, root, xbootldr, names[i]);

			c->n_over += e == NULL;
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			if (e && t) {
				read_type1(c, e, path);
				parse_tries(e, ".conf");
			} else if (e) {
				snprintf(e->loader, sizeof(e->loader), "\\EFI\\Linux\\%s", names[i]);
				read_type2(e, path);
				parse_tries(e, ".efi");
			}
			free(names[i]);
		}
		free(names);
		free(dir);
	}
}

/* loader.conf's default and timeout (config_defaults_load_from_file); other keys do not choose an entry. */
static void
read_loader_conf(sd_ctx *c)
{
	const char *why;
	char *path = cli_resolve(c->esp, "\\loader\\loader.conf", 0, &why), value[256], key[32];
	sbat_kv_cursor cur;
	sbat_kv_line kv;
	sbat_diag d;
	uint8_t *buf;
	size_t len;
	sbat_err err;

	c->timeout = TIMEOUT_UNSET;
	if (!path || read_config(path, &buf, &len) != 0) {
		free(path);
		return;
	}
	s3_copy(c->conf_file, sizeof(c->conf_file), path);
	memset(&cur, 0, sizeof(cur));
	while ((err = sbat_kv_next(buf, len, " \t", &cur, &kv, &d)) != SBAT_OK || kv.key) {
		if (err != SBAT_OK) {
			s3_report_line(path, d.line, d.what);
			continue;
		}
		copy_value(key, sizeof(key), kv.key, kv.key_len);
		copy_value(value, sizeof(value), kv.value, kv.value_len);
		if (strcmp(key, "default") == 0 && value[0] == '@' && strcasecmp(value, "@saved") != 0) {
			s3_report_line(path, kv.line, "a special entry other than @saved, which systemd-boot ignores");
		} else if (strcmp(key, "default") == 0) {
			s3_copy(c->conf_default, sizeof(c->conf_default), value);
			lower(c->conf_default);
			c->conf_default_line = kv.line;
		} else if (strcmp(key, "timeout") == 0) {
			char *end;
			long t = strtol(value, &end, 10);

			if (strcmp(value, "menu-force") == 0)
				c->timeout = TIMEOUT_FORCE;
			else if (strcmp(value, "menu-hidden") == 0 || strcmp(value, "menu-disabled") == 0)
				c->timeout = 0;
			else if (value[0] >= '0' && value[0] <= '9' && !*end)
				c->timeout = t;
			else
				s3_report_line(path, kv.line, "a timeout systemd-boot cannot read: ignored");
		}
	}
	free(buf);
	free(path);
}

/* One of systemd-boot's variables (a CHAR16 string) into out, lower-cased; 0 when it is not set. */
static int
loader_var(sd_ctx *c, const char *name, char *out, size_t size)
{
	char var[128], where[CLI_PATH_MAX];
	uint8_t *buf = NULL;
	size_t len;
	sbat_diag d;
	int ok = 0;

	snprintf(var, sizeof(var), "%s-%s", name, LOADER_GUID);
	out[0] = '\0';
	if (cli_efivar_read(c->w->efivarfs, var, &buf, &len) != EXIT_OK || !buf)
		return 0;
	if (sbat_ucs2_to_utf8(buf + 4, len - 4, out, size, &d) == SBAT_OK) {
		ok = out[0] != '\0';
	} else {
		snprintf(where, sizeof(where), "%s/%s", c->w->efivarfs, var);
		cli_report_error(where, &d);
	}
	free(buf);
	lower(out);
	return ok;
}

static int
cmp_int(long a, long b)
{
	return (a > b) - (a < b);
}

/* boot_entry_compare: entries in systemd-boot's menu order (those not in the menu last, by name). */
static int
entry_order(const void *pa, const void *pb)
{
	const sd_entry *a = pa, *b = pb;
	int r;

	if ((r = cmp_int(!a->in_menu, !b->in_menu)) != 0 || !a->in_menu)
		return r ? r : strcmp(a->name, b->name);
	if ((r = cmp_int(a->tries_left == 0, b->tries_left == 0)) != 0)
		return r;
	if ((r = cmp_int(!a->sort_key[0], !b->sort_key[0])) != 0)
		return r;
	if (a->sort_key[0]) {
		if ((r = strcmp(a->sort_key, b->sort_key)) != 0 || (r = strcmp(a->machine_id, b->machine_id)) != 0 ||
		    (r = -sbat_version_compare(a->version, b->version)) != 0)
			return r;
	}
	if ((r = -sbat_version_compare(a->id, b->id)) != 0)
		return r;
	if (a->tries_left < 0 || b->tries_left < 0)
		return 0;
	if ((r = -cmp_int(a->tries_left, b->tries_left)) != 0)
		return r;
	return cmp_int(a->tries_done, b->tries_done);
}

/* The first entry in the menu whose id the glob pattern matches (config_find_entry, efi_fnmatch); -1: none. */
static long
find_entry(const sd_ctx *c, const char *pattern)
{
	size_t i;

	for (i = 0; pattern[0] && i < c->n && c->e[i].in_menu; i++)
		if (fnmatch(pattern, c->e[i].id, 0) == 0)
			return (long)i;
	return -1;
}

/* A timeout variable's value (efivar_get_timeout); TIMEOUT_UNSET when not set. */
static long
timeout_var(sd_ctx *c, const char *name)
{
	char v[64], *end;
	long t;

	if (!loader_var(c, name, v, sizeof(v)))
		return TIMEOUT_UNSET;
	if (strcmp(v, "menu-force") == 0)
		return TIMEOUT_FORCE;
	if (strcmp(v, "menu-hidden") == 0 || strcmp(v, "menu-disabled") == 0)
		return 0;
	t = strtol(v, &end, 10);
	return v[0] >= '0' && v[0] <= '9' && !*end ? t : TIMEOUT_UNSET;
}

/*
 * The entry systemd-boot starts by itself (config_select_default_entry):
 * LoaderEntryOneShot, then LoaderEntryDefault (or LoaderEntryLastBooted for
 * @saved), then loader.conf's default (or LoaderEntryLastBooted), then the
 * first entry. -1 when the menu waits for a key or is empty.
 */
static long
default_entry(sd_ctx *c, char *by, size_t size)
{
	char oneshot[256], efi_default[256], saved[256];
	long i, t = timeout_var(c, "LoaderConfigTimeoutOneShot");
	int saved_efivar, saved_conf = strcmp(c->conf_default, "@saved") == 0;

	if (t == TIMEOUT_UNSET)
		t = timeout_var(c, "LoaderConfigTimeout");
	if (t == TIMEOUT_UNSET)
		t = c->timeout;
	if (t == TIMEOUT_FORCE) {
		snprintf(by, size, "none: the menu waits for a key (timeout menu-force)");
		return -1;
	}
	loader_var(c, "LoaderEntryOneShot", oneshot, sizeof(oneshot));
	loader_var(c, "LoaderEntryDefault", efi_default, sizeof(efi_default));
	saved_efivar = strcmp(efi_default, "@saved") == 0;
	if (saved_efivar || saved_conf)
		loader_var(c, "LoaderEntryLastBooted", saved, sizeof(saved));
	if ((i = find_entry(c, oneshot)) >= 0) {
		snprintf(by, size, "the variable LoaderEntryOneShot \"%s\" (this boot only)", oneshot);
	} else if ((i = find_entry(c, saved_efivar ? saved : efi_default)) >= 0) {
		snprintf(by, size, "the variable %s \"%s\"",
		         saved_efivar ? "LoaderEntryLastBooted" : "LoaderEntryDefault",
		         saved_efivar ? saved : efi_default);
	} else if (saved_conf && (i = saved_efivar ? -1 : find_entry(c, saved)) >= 0) {
		snprintf(by, size, "the variable LoaderEntryLastBooted \"%s\" (loader.conf: default @saved)", saved);
	} else if (!saved_conf && (i = find_entry(c, c->conf_default)) >= 0) {
		snprintf(by, size, "loader.conf's default \"%s\" (line %u)", c->conf_default, c->conf_default_line);
	} else if (c->n && c->e[0].in_menu) {
		i = 0;
		snprintf(by, size, "the first entry of systemd-boot's menu%s",
		         c->conf_default[0] ? " (loader.conf's "
		                              "default matches none)" :
		                              "");
	} else {
		snprintf(by, size, "none: systemd-boot finds no entry to start");
	}
	return i;
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
	char real[CLI_PATH_MAX];

	if (w->o->xbootldr || w->o->esp)
		return w->o->xbootldr;
	if (realpath(esp, real) && strcmp(real, "/boot") == 0)
		return NULL;
	return sbat_partition_is_fat_mount("/boot") ? "/boot" : NULL;
}

/* One line's item for entry e (the i-th of the menu). */
static void
add_item(s3_menu *m, const sd_entry *e, int is_default)
{
	s3_item *it = s3_add(m);
	const char *why;

	if (!it)
		return;
	if (e->kind && e->loader[0])
		s3_copy(it->file, sizeof(it->file), e->loader);
	else
		snprintf(it->file, sizeof(it->file), "\\loader\\entries\\%s", e->name);
	snprintf(it->desc, sizeof(it->desc), "%s %s%s", e->kind == 'u' ? "UKI" : "entry", e->name,
	         e->xbootldr ? " on XBOOTLDR" : "");
	s3_copy(it->config, sizeof(it->config), e->config);
	s3_copy(it->note, sizeof(it->note), e->note);
	it->is_default = is_default;
	it->is_uki = e->kind == 'u';
	it->host = e->in_menu ? cli_resolve(e->root, e->loader, 0, &why) : NULL;
	it->left_out = !e->in_menu && e->left_out;
	if (!e->in_menu)
		s3_copy(it->why, sizeof(it->why), e->why);
	else if (!it->host)
		snprintf(it->why, sizeof(it->why), "%s %s", cli_quote(e->loader), s3_is(why));
}

/* More entries than are read: the menu, and so its default entry, are not known; one line says so. */
static void
too_many_entries(s3_menu *m, size_t n_over)
{
	s3_item *it = s3_add(m);

	m->default_known = 0;
	snprintf(m->default_by, sizeof(m->default_by), "not known: more entries than are read");
	if (!it)
		return;
	snprintf(it->file, sizeof(it->file), "\\loader\\entries");
	snprintf(it->why, sizeof(it->why),
	         "%zu entries more than the %d read on a partition, so systemd-boot's menu and the entry it starts "
	         "are not known",
	         n_over, MAX_ENTRIES);
}

static void
summarize(const sd_ctx *c, s3_menu *m)
{
	size_t i, in = 0;

	for (i = 0; i < c->n; i++)
		in += c->e[i].in_menu;
	snprintf(m->summary, sizeof(m->summary), "loader.conf %s", c->conf_file[0] ? cli_quote(c->conf_file) : "none");
	if (c->conf_default[0])
		s3_append(m->summary, sizeof(m->summary), " (default \"%s\", line %u)", c->conf_default,
		          c->conf_default_line);
	s3_append(m->summary, sizeof(m->summary), "; %zu entries in the menu, %zu left out; XBOOTLDR %s", in, c->n - in,
	          c->xbootldr ? cli_quote(c->xbootldr) : "none");
}

void
cli_sdboot_menu(walk *w, const char *esp, const char *loader_path, const image *loader, s3_menu *m)
{
	sd_ctx c;
	long def;
	size_t i;

	memset(&c, 0, sizeof(c));
	c.w = w;
	c.esp = esp;
	c.xbootldr = xbootldr_dir(w, esp);
	c.self = loader_path;
	c.arch = arch_name(loader->machine);
	m->loader = "systemd-boot";
	m->rule = "loadimage-hook";
	m->rule_text = "systemd-boot starts it with LoadImage, which shim hooks: a missing .sbat passes";
	c.e = calloc(MAX_ENTRIES, sizeof(*c.e));
	if (!c.e)
		return;
	read_loader_conf(&c);
	scan_partition(&c, esp, 0);
	if (c.xbootldr)
		scan_partition(&c, c.xbootldr, 1);
	qsort(c.e, c.n, sizeof(*c.e), entry_order);
	def = default_entry(&c, m->default_by, sizeof(m->default_by));
	m->default_known = def >= 0;
	summarize(&c, m);
	if (c.n_over) {
		too_many_entries(m, c.n_over);
		def = -1;
	}
	if (c.n == 0) {
		s3_item *it = s3_add(m);

		if (it) {
			snprintf(it->file, sizeof(it->file), "\\loader\\entries");
			snprintf(it->why, sizeof(it->why),
			         "systemd-boot finds no entries (no loader/entries/*.conf, no "
			         "EFI/Linux/*.efi)");
		}
	}
	for (i = 0; i < c.n; i++)
		add_item(m, &c.e[i], (long)i == def);
	free(c.e);
}
