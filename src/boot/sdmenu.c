/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sdmenu.c - systemd-boot's menu as 252 to 259 build it (boot.c): loader.conf, entries, order, default entry */
#define _XOPEN_SOURCE 700
#include <ctype.h>
#include <stddef.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbat/boot.h"
#include "sbat/error.h"
#include "sbat/kv.h"
#include "sbat/partition.h"
#include "sbat/sdboot.h"

#include "boot/sdentry.h"
#include "boot/sdrelease.h"
#include "util/diag.h"
#include "util/strtable.h"

/* names read from one directory, before the filter; more is a note */
#define LIST_MAX 65536

/* What the caller gets: the public part first. */
typedef struct menu_impl {
	sbat_sdboot_menu pub;
	sbat_sdboot_entry *entries; /* SBAT_SDBOOT_MAX_ENTRIES */
	sbat_sdboot_note *notes;    /* SBAT_SDBOOT_MAX_NOTES */
	char *conf_file, *conf_default, *default_pattern;
} menu_impl;

void
sbat_sdboot_vars_init(sbat_sdboot_vars *vars)
{
	static const sbat_sdboot_vars init = SBAT_SDBOOT_VARS_INIT;

	if (vars)
		*vars = init;
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
	for (; s && *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* A timeout as loader.conf and the variables give it (efivar_get_timeout); UNSET when it cannot be read. */
static long
parse_timeout(const char *v)
{
	char *end;
	long t;

	if (strcmp(v, "menu-force") == 0)
		return SBAT_SDBOOT_TIMEOUT_MENU_FORCE;
	if (strcmp(v, "menu-hidden") == 0 || strcmp(v, "menu-disabled") == 0)
		return 0;
	if (v[0] < '0' || v[0] > '9')
		return SBAT_SDBOOT_TIMEOUT_UNSET;
	t = strtol(v, &end, 10);
	return *end ? SBAT_SDBOOT_TIMEOUT_UNSET : t;
}

/* One key of loader.conf (config_defaults_load_from_file): default and timeout; others choose no entry. */
static void
conf_key(menu_impl *m, sdentry_ctx *c, const sbat_kv_line *kv)
{
	char *value = sdentry_strndup(c, kv->value, kv->value_len);

	if (!value)
		return;
	if (kv->key_len == 7 && memcmp(kv->key, "default", 7) == 0) {
		if (value[0] == '@' && strcasecmp(value, "@saved") != 0) {
			sdentry_note(c, SBAT_SDBOOT_NOTE_DEFAULT_SPECIAL, m->conf_file, kv->line, NULL);
		} else {
			free(m->conf_default);
			m->conf_default = value;
			value = NULL;
			lower(m->conf_default);
			m->pub.conf_default_line = kv->line;
		}
	} else if (kv->key_len == 7 && memcmp(kv->key, "timeout", 7) == 0) {
		long t = parse_timeout(value);

		if (t == SBAT_SDBOOT_TIMEOUT_UNSET)
			sdentry_note(c, SBAT_SDBOOT_NOTE_TIMEOUT, m->conf_file, kv->line, NULL);
		else
			m->pub.conf_timeout = t;
	}
	free(value);
}

/* loader.conf on the ESP (config_load_defaults); a file not found is none. */
static void
read_loader_conf(menu_impl *m, sdentry_ctx *c, const char *esp)
{
	char *path = NULL;
	sbat_kv_cursor cur;
	sbat_kv_line kv;
	sbat_diag d;
	uint8_t *buf;
	size_t len;
	sbat_err err;

	m->pub.conf_timeout = SBAT_SDBOOT_TIMEOUT_UNSET;
	if (sbat_partition_resolve(esp, "\\loader\\loader.conf", 0, &path) != SBAT_PARTITION_FOUND)
		return;
	if (sdentry_read(esp, path, SBAT_BOOTCFG_MAX_SIZE, &buf, &len, &d) != SBAT_OK) {
		sdentry_note(c, SBAT_SDBOOT_NOTE_UNREADABLE, path, 0, &d);
		free(path);
		return;
	}
	m->conf_file = path;
	memset(&cur, 0, sizeof(cur));
	while ((err = sbat_kv_next(buf, len, " \t", &cur, &kv, &d)) != SBAT_OK || kv.key) {
		if (err != SBAT_OK)
			sdentry_note(c, SBAT_SDBOOT_NOTE_LINE, path, d.line, &d);
		else
			conf_key(m, c, &kv);
	}
	free(buf);
}

/*
 * 1 when systemd-boot reads name in a directory whose entries end in suffix
 * (valid_type1_filename); "auto-" in this case before 257, in any case on.
 */
static int
entry_name(const char *name, const char *suffix, unsigned features)
{
	size_t len = strlen(name), sl = strlen(suffix);
	int is_auto = (features & SBAT_SDBOOT_CASE_FOLDED) ? strncasecmp(name, "auto-", 5) == 0 :
	                                                     strncmp(name, "auto-", 5) == 0;

	return name[0] != '.' && !is_auto && len > sl && strcasecmp(name + len - sl, suffix) == 0;
}

/* A new entry for file name in dir on root, its file read; past the limit it is counted. */
static void
add_entry(menu_impl *m, sdentry_ctx *c, const char *root, int on_xbootldr, const char *dir, const char *name, int type1)
{
	sbat_sdboot_entry *e;
	size_t dl = strlen(dir), nl = strlen(name);
	char *file;

	if (m->pub.n_entries == SBAT_SDBOOT_MAX_ENTRIES) {
		m->pub.entries_over++;
		return;
	}
	e = &m->entries[m->pub.n_entries++];
	e->on_xbootldr = on_xbootldr;
	e->name = sdentry_strndup(c, name, nl);
	e->id = sdentry_strndup(c, name, nl);
	e->file = file = malloc(dl + nl + 2);
	if (!e->name || !e->id || !file) {
		c->nomem = 1;
		return;
	}
	lower((char *)e->id);
	memcpy(file, dir, dl);
	file[dl] = '/';
	memcpy(file + dl + 1, name, nl + 1);
	if (type1)
		sdentry_type1(c, e, root);
	else
		sdentry_type2(c, e, root);
	sdentry_tries(c, e, type1 ? ".conf" : ".efi", type1);
}

/* The entries of one directory of root: \loader\entries (type1) or \EFI\Linux. */
static void
scan_dir(menu_impl *m, sdentry_ctx *c, const char *root, int on_xbootldr, int type1)
{
	const char *suffix = type1 ? ".conf" : ".efi";
	char *dir = NULL, **names = NULL;
	size_t n = 0, i, taken = 0;
	sbat_diag d;

	if (sbat_partition_resolve(root, type1 ? "\\loader\\entries" : "\\EFI\\Linux", SBAT_PARTITION_DIR, &dir) !=
	    SBAT_PARTITION_FOUND)
		return;
	if (sbat_partition_list(dir, SBAT_PARTITION_LIST_FILES, LIST_MAX, &names, &n, &d) != SBAT_OK) {
		sdentry_note(c, SBAT_SDBOOT_NOTE_DIR_UNREADABLE, dir, 0, &d);
		free(dir);
		return;
	}
	for (i = 0; i < n; i++) {
		if (!entry_name(names[i], suffix, c->features))
			continue;
		if (taken == SBAT_SDBOOT_MAX_ENTRIES) {
			m->pub.entries_over++; /* counted, never cut silently */
			continue;
		}
		taken++;
		add_entry(m, c, root, on_xbootldr, dir, names[i], type1);
	}
	sbat_partition_names_free(names, n);
	free(dir);
}

static int
cmp_int(long a, long b)
{
	return (a > b) - (a < b);
}

static int
cmp_text(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* boot_entry_compare: the menu's order; entries left out after it, by name. */
static int
entry_order(const void *pa, const void *pb)
{
	const sbat_sdboot_entry *a = pa, *b = pb;
	int r;

	if ((r = cmp_int(a->out != SBAT_SDBOOT_LISTED, b->out != SBAT_SDBOOT_LISTED)) != 0)
		return r;
	if (a->out != SBAT_SDBOOT_LISTED)
		return strcmp(a->name, b->name);
	if ((r = cmp_int(a->tries_left == 0, b->tries_left == 0)) != 0)
		return r;
	if ((r = cmp_int(!a->sort_key, !b->sort_key)) != 0)
		return r;
	if (a->sort_key) {
		if ((r = strcmp(a->sort_key, b->sort_key)) != 0 || (r = cmp_text(a->machine_id, b->machine_id)) != 0 ||
		    (r = -sbat_kv_version_compare(a->version, b->version)) != 0)
			return r;
	}
	if ((r = -sbat_kv_version_compare(a->id, b->id)) != 0)
		return r;
	if (a->tries_left < 0 || b->tries_left < 0)
		return 0;
	if ((r = -cmp_int(a->tries_left, b->tries_left)) != 0)
		return r;
	return cmp_int(a->tries_done, b->tries_done);
}

/* The variable's data. */
static void
var_data(const sbat_sdboot_vars *v, sbat_sdboot_var var, const uint8_t **p, size_t *n)
{
	switch (var) {
	case SBAT_SDBOOT_VAR_ENTRY_ONESHOT: *p = v->entry_oneshot, *n = v->entry_oneshot_len; break;
	case SBAT_SDBOOT_VAR_ENTRY_DEFAULT: *p = v->entry_default, *n = v->entry_default_len; break;
	case SBAT_SDBOOT_VAR_ENTRY_LAST_BOOTED: *p = v->entry_last_booted, *n = v->entry_last_booted_len; break;
	case SBAT_SDBOOT_VAR_CONFIG_TIMEOUT: *p = v->config_timeout, *n = v->config_timeout_len; break;
	case SBAT_SDBOOT_VAR_CONFIG_TIMEOUT_ONESHOT:
		*p = v->config_timeout_oneshot, *n = v->config_timeout_oneshot_len;
		break;
	default:
		*p = v->size == sizeof(*v) ? v->entry_sysfail : NULL;
		*n = v->size == sizeof(*v) ? v->entry_sysfail_len : 0;
		break;
	}
}

/* A variable's text, lower-cased, into out; 0 when it is not set or empty (a note when it is not text). */
static int
var_text(sdentry_ctx *c, const sbat_sdboot_vars *v, sbat_sdboot_var var, char *out, size_t size)
{
	const uint8_t *p;
	size_t n;
	sbat_diag d;

	out[0] = '\0';
	var_data(v, var, &p, &n);
	if (!p)
		return 0;
	if (sbat_ucs2_to_utf8(p, n, out, size, &d) != SBAT_OK) {
		size_t k = c->n_notes;

		out[0] = '\0';
		sdentry_note(c, SBAT_SDBOOT_NOTE_VARIABLE, NULL, 0, &d);
		if (c->n_notes > k)
			c->notes[k].var = var;
		return 0;
	}
	lower(out);
	return out[0] != '\0';
}

/* A timeout variable; UNSET when not set or not a timeout. */
static long
var_timeout(sdentry_ctx *c, const sbat_sdboot_vars *v, sbat_sdboot_var var)
{
	char t[64];

	return var_text(c, v, var, t, sizeof(t)) ? parse_timeout(t) : SBAT_SDBOOT_TIMEOUT_UNSET;
}

/* The first entry in the menu whose id the glob pattern matches (config_find_entry, efi_fnmatch); -1: none. */
static long
find_entry(const menu_impl *m, const char *pattern)
{
	size_t i;

	for (i = 0; pattern && pattern[0] && i < m->pub.n_listed; i++)
		if (fnmatch(pattern, m->entries[i].id, 0) == 0)
			return (long)i;
	return -1;
}

/* The default is entry i (-1: none), chosen by `by` with pattern. */
static int
chosen(menu_impl *m, sdentry_ctx *c, long i, sbat_sdboot_by by, const char *pattern)
{
	if (i < 0)
		return 0;
	m->pub.has_default = 1;
	m->pub.default_index = (size_t)i;
	m->pub.default_by = by;
	if (pattern)
		m->default_pattern = sdentry_strndup(c, pattern, strlen(pattern));
	return 1;
}

/* config_select_default_entry: one-shot, LoaderEntryDefault (or @saved), loader.conf's default, the first. */
static void
choose_default(menu_impl *m, sdentry_ctx *c, const sbat_sdboot_vars *v)
{
	char oneshot[256], efi_default[256], saved[256];
	int saved_conf = m->conf_default && strcmp(m->conf_default, "@saved") == 0, saved_efivar;

	m->pub.timeout = var_timeout(c, v, SBAT_SDBOOT_VAR_CONFIG_TIMEOUT_ONESHOT);
	if (m->pub.timeout == SBAT_SDBOOT_TIMEOUT_UNSET)
		m->pub.timeout = var_timeout(c, v, SBAT_SDBOOT_VAR_CONFIG_TIMEOUT);
	if (m->pub.timeout == SBAT_SDBOOT_TIMEOUT_UNSET)
		m->pub.timeout = m->pub.conf_timeout;
	if (m->pub.timeout == SBAT_SDBOOT_TIMEOUT_MENU_FORCE) {
		m->pub.default_by = SBAT_SDBOOT_BY_MENU_FORCE;
		return;
	}
	var_text(c, v, SBAT_SDBOOT_VAR_ENTRY_ONESHOT, oneshot, sizeof(oneshot));
	var_text(c, v, SBAT_SDBOOT_VAR_ENTRY_DEFAULT, efi_default, sizeof(efi_default));
	saved_efivar = strcmp(efi_default, "@saved") == 0;
	saved[0] = '\0';
	if (saved_efivar || saved_conf)
		var_text(c, v, SBAT_SDBOOT_VAR_ENTRY_LAST_BOOTED, saved, sizeof(saved));
	if (chosen(m, c, find_entry(m, oneshot), SBAT_SDBOOT_BY_ONESHOT, oneshot) ||
	    chosen(m, c, find_entry(m, saved_efivar ? saved : efi_default),
	           saved_efivar ? SBAT_SDBOOT_BY_EFI_SAVED : SBAT_SDBOOT_BY_EFI_DEFAULT,
	           saved_efivar ? saved : efi_default))
		return;
	if (saved_conf ? !saved_efivar && chosen(m, c, find_entry(m, saved), SBAT_SDBOOT_BY_CONF_SAVED, saved) :
	                 chosen(m, c, find_entry(m, m->conf_default), SBAT_SDBOOT_BY_CONF_DEFAULT, m->conf_default))
		return;
	if (!chosen(m, c, m->pub.n_listed ? 0 : -1, SBAT_SDBOOT_BY_FIRST, NULL))
		m->pub.default_by = SBAT_SDBOOT_BY_NONE;
}

/*
 * From 258 on (config_select_default_entry, sysfail_check): an entry
 * LoaderEntrySysFail matches starts first after a failed system firmware
 * update, not read here; when it is not the default chosen otherwise, the
 * default is not known.
 */
static void
check_sysfail(menu_impl *m, sdentry_ctx *c, const sbat_sdboot_vars *v)
{
	char sysfail[256];
	long i;

	if (!(c->features & SBAT_SDBOOT_SYSFAIL) ||
	    !var_text(c, v, SBAT_SDBOOT_VAR_ENTRY_SYSFAIL, sysfail, sizeof(sysfail)) ||
	    (i = find_entry(m, sysfail)) < 0 || m->pub.default_by == SBAT_SDBOOT_BY_MENU_FORCE)
		return;
	if (m->pub.has_default && m->pub.default_index == (size_t)i)
		return;
	m->pub.has_default = 0;
	m->pub.default_by = SBAT_SDBOOT_BY_SYSFAIL;
	free(m->default_pattern);
	m->default_pattern = sdentry_strndup(c, sysfail, strlen(sysfail));
}

/* The menu of esp and xbootldr into m, as it is before its default is chosen. */
static void
build(menu_impl *m, sdentry_ctx *c, const char *esp, const char *xbootldr)
{
	size_t i;

	read_loader_conf(m, c, esp);
	scan_dir(m, c, esp, 0, 0);
	scan_dir(m, c, esp, 0, 1);
	if (xbootldr) {
		scan_dir(m, c, xbootldr, 1, 0);
		scan_dir(m, c, xbootldr, 1, 1);
	}
	qsort(m->entries, m->pub.n_entries, sizeof(*m->entries), entry_order);
	for (i = 0; i < m->pub.n_entries && m->entries[i].out == SBAT_SDBOOT_LISTED; i++)
		;
	m->pub.n_listed = i;
}

/* 1 when vars is NULL or of a size the library knows: this one, or one from before `version` or `entry_sysfail`. */
static int
vars_known(const sbat_sdboot_vars *vars)
{
	return !vars || vars->size == sizeof(sbat_sdboot_vars) || vars->size == offsetof(sbat_sdboot_vars, version) ||
	       vars->size == offsetof(sbat_sdboot_vars, entry_sysfail);
}

/*
 * The major version at the start of text ("257.1", "258~rc2", "259-1-arch");
 * 0 when it does not start with a number followed by its end or one of
 * ".~-+_ ".
 */
static unsigned
parse_release(const char *text)
{
	unsigned long n = 0;
	const char *p = text;

	if (!p || *p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((n = n * 10 + (unsigned long)(*p - '0')) > 100000UL)
			return 0;
	return *p == '\0' || strchr(".~-+_ ", *p) ? (unsigned)n : 0;
}

/* What sbat_sdboot_menu_load was given. */
typedef struct load_in {
	const char *esp, *xbootldr, *loader_path;
	uint16_t machine;
	const sbat_sdboot_vars *vars;
} load_in;

/* The menu of in, as a release of row `rules` builds it, into *ret. */
static sbat_err
menu_build(const load_in *in, const sdrelease *rules, menu_impl **ret)
{
	static const sbat_sdboot_vars none = SBAT_SDBOOT_VARS_INIT;
	menu_impl *m = calloc(1, sizeof(*m));
	sdentry_ctx c;

	*ret = NULL;
	if (!m || !(m->entries = calloc(SBAT_SDBOOT_MAX_ENTRIES, sizeof(*m->entries))) ||
	    !(m->notes = calloc(SBAT_SDBOOT_MAX_NOTES, sizeof(*m->notes)))) {
		sbat_sdboot_menu_free(m ? &m->pub : NULL);
		return SBAT_E_NOMEM;
	}
	memset(&c, 0, sizeof(c));
	c.self = in->loader_path;
	c.arch = m->pub.arch = arch_name(in->machine);
	m->pub.rules = rules->release;
	c.features = m->pub.features = rules->features;
	c.notes = m->notes;
	build(m, &c, in->esp, in->xbootldr);
	choose_default(m, &c, in->vars ? in->vars : &none);
	check_sysfail(m, &c, in->vars ? in->vars : &none);
	m->pub.over_limit = m->pub.entries_over > 0;
	if (m->pub.over_limit) {
		m->pub.has_default = 0;
		m->pub.default_by = SBAT_SDBOOT_BY_OVER_LIMIT;
	}
	m->pub.conf_file = m->conf_file;
	m->pub.conf_default = m->conf_default;
	m->pub.default_pattern = m->default_pattern;
	m->pub.notes = m->notes;
	m->pub.n_notes = c.n_notes;
	m->pub.notes_dropped = c.notes_dropped;
	if (c.nomem) {
		sbat_sdboot_menu_free(&m->pub);
		return SBAT_E_NOMEM;
	}
	*ret = m;
	return SBAT_OK;
}

/* The file of m's default entry; NULL: none. */
static const char *
default_file(const menu_impl *m)
{
	return m->pub.has_default ? m->entries[m->pub.default_index].file : NULL;
}

/* The entry of m read from file; NULL: none. */
static const sbat_sdboot_entry *
entry_of(const menu_impl *m, const char *file)
{
	size_t i;

	for (i = 0; i < m->pub.n_entries; i++)
		if (m->entries[i].file && strcmp(m->entries[i].file, file) == 0)
			return &m->entries[i];
	return NULL;
}

/* m, built by the oldest row's rules for a version not known, against o, built by a later row's. */
static void
compare_rules(menu_impl *m, const menu_impl *o)
{
	const char *a = default_file(m), *b = default_file(o);
	size_t i;

	if (m->pub.default_by != SBAT_SDBOOT_BY_OVER_LIMIT && (a || b) && (!a || !b || strcmp(a, b) != 0)) {
		m->pub.has_default = 0;
		m->pub.default_by = SBAT_SDBOOT_BY_VERSION_UNKNOWN;
		free(m->default_pattern);
		m->pub.default_pattern = m->default_pattern = NULL;
	}
	for (i = 0; i < m->pub.n_entries; i++) {
		sbat_sdboot_entry *e = &m->entries[i];
		const sbat_sdboot_entry *f = e->file ? entry_of(o, e->file) : NULL;

		if ((e->out == SBAT_SDBOOT_LISTED) == (f && f->out == SBAT_SDBOOT_LISTED))
			continue;
		e->version_dependent = 1;
		if (e->out != SBAT_SDBOOT_LISTED)
			e->out_certain = 0;
	}
}

sbat_err
sbat_sdboot_menu_load(const char *esp, const char *xbootldr, const char *loader_path, uint16_t machine,
                      const sbat_sdboot_vars *vars, sbat_sdboot_menu **ret, sbat_diag *reterr)
{
	load_in in = { esp, xbootldr, loader_path, machine, vars };
	menu_impl *m = NULL, *o = NULL;
	const sdrelease *rows, *rules;
	unsigned release;
	size_t i, n;

	*ret = NULL;
	if (!vars_known(vars))
		return diag_fail(reterr, SBAT_E_ABI, "sbat_sdboot_vars: a size this library does not know");
	release = vars && vars->size > offsetof(sbat_sdboot_vars, version) ? parse_release(vars->version) : 0;
	rows = sdrelease_rows(&n);
	rules = sdrelease_of(release);
	if (menu_build(&in, rules ? rules : &rows[0], &m) != SBAT_OK)
		return diag_fail(reterr, SBAT_E_NOMEM, "systemd-boot menu: out of memory");
	/* not known: built by the oldest row's rules, against each later row's */
	for (i = 1; !rules && i < n; i++) {
		if (menu_build(&in, &rows[i], &o) != SBAT_OK) {
			sbat_sdboot_menu_free(&m->pub);
			return diag_fail(reterr, SBAT_E_NOMEM, "systemd-boot menu: out of memory");
		}
		compare_rules(m, o);
		sbat_sdboot_menu_free(&o->pub);
	}
	m->pub.release = release;
	*ret = &m->pub;
	return SBAT_OK;
}

const sbat_sdboot_entry *
sbat_sdboot_menu_entry(const sbat_sdboot_menu *menu, size_t index)
{
	const menu_impl *m = (const menu_impl *)menu;

	return m && index < menu->n_entries ? &m->entries[index] : NULL;
}

void
sbat_sdboot_menu_free(sbat_sdboot_menu *menu)
{
	menu_impl *m = (menu_impl *)menu;
	size_t i;

	if (!m)
		return;
	for (i = 0; m->entries && i < SBAT_SDBOOT_MAX_ENTRIES; i++)
		sdentry_clear(&m->entries[i]);
	for (i = 0; m->notes && i < SBAT_SDBOOT_MAX_NOTES; i++)
		free((char *)m->notes[i].file);
	free(m->entries);
	free(m->notes);
	free(m->conf_file);
	free(m->conf_default);
	free(m->default_pattern);
	free(m);
}

const char *
sbat_sdboot_out_name(sbat_sdboot_out out)
{
	static const char *const names[] = {
		[SBAT_SDBOOT_LISTED] = "listed",           [SBAT_SDBOOT_OUT_UNREADABLE] = "unreadable",
		[SBAT_SDBOOT_OUT_SELF] = "self",           [SBAT_SDBOOT_OUT_ARCH] = "architecture",
		[SBAT_SDBOOT_OUT_NO_LOADER] = "no-loader", [SBAT_SDBOOT_OUT_LOADER_NOT_FOUND] = "loader-missing",
		[SBAT_SDBOOT_OUT_NOT_IMAGE] = "not-image", [SBAT_SDBOOT_OUT_NO_OSREL] = "no-osrel",
		[SBAT_SDBOOT_OUT_NO_NAME] = "no-name",     [SBAT_SDBOOT_OUT_CONFLICT] = "conflict",
	};

	return STRTABLE_NAME(names, out, "unknown");
}

const char *
sbat_sdboot_by_name(sbat_sdboot_by by)
{
	static const char *const names[] = {
		[SBAT_SDBOOT_BY_NONE] = "none",
		[SBAT_SDBOOT_BY_MENU_FORCE] = "menu-force",
		[SBAT_SDBOOT_BY_ONESHOT] = "oneshot",
		[SBAT_SDBOOT_BY_EFI_DEFAULT] = "efi-default",
		[SBAT_SDBOOT_BY_EFI_SAVED] = "efi-saved",
		[SBAT_SDBOOT_BY_CONF_SAVED] = "conf-saved",
		[SBAT_SDBOOT_BY_CONF_DEFAULT] = "conf-default",
		[SBAT_SDBOOT_BY_FIRST] = "first",
		[SBAT_SDBOOT_BY_OVER_LIMIT] = "over-limit",
		[SBAT_SDBOOT_BY_VERSION_UNKNOWN] = "version-unknown",
		[SBAT_SDBOOT_BY_SYSFAIL] = "sysfail",
	};

	return STRTABLE_NAME(names, by, "unknown");
}

const char *
sbat_sdboot_var_name(sbat_sdboot_var var)
{
	static const char *const names[] = {
		[SBAT_SDBOOT_VAR_ENTRY_ONESHOT] = "LoaderEntryOneShot",
		[SBAT_SDBOOT_VAR_ENTRY_DEFAULT] = "LoaderEntryDefault",
		[SBAT_SDBOOT_VAR_ENTRY_LAST_BOOTED] = "LoaderEntryLastBooted",
		[SBAT_SDBOOT_VAR_CONFIG_TIMEOUT] = "LoaderConfigTimeout",
		[SBAT_SDBOOT_VAR_CONFIG_TIMEOUT_ONESHOT] = "LoaderConfigTimeoutOneShot",
		[SBAT_SDBOOT_VAR_ENTRY_SYSFAIL] = "LoaderEntrySysFail",
	};

	return STRTABLE_NAME(names, var, "unknown");
}
