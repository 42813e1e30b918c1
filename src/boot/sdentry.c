/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sdentry.c - one systemd-boot entry as boot_entry_add_type1 and boot_entry_add_type2 read it (systemd 252 to 259) */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbat/kv.h"
#include "sbat/image.h"
#include "sbat/input.h"
#include "sbat/partition.h"
#include "sbat/sdboot.h"

#include "boot/sdentry.h"
#include "util/bview.h"
#include "util/ckd.h"
#include "util/diag.h"

void
sdentry_note(sdentry_ctx *c, sbat_sdboot_note_kind kind, const char *file, unsigned line, const sbat_diag *d)
{
	sbat_sdboot_note *n;

	if (c->n_notes == SBAT_SDBOOT_MAX_NOTES) {
		c->notes_dropped++;
		return;
	}
	n = &c->notes[c->n_notes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->line = line;
	if (d)
		n->diag = *d;
	if (file && !(n->file = sdentry_strndup(c, file, strlen(file))))
		return;
	c->n_notes++;
}

char *
sdentry_strndup(sdentry_ctx *c, const char *value, size_t n)
{
	char *s = malloc(n + 1);

	if (!s) {
		c->nomem = 1;
		return NULL;
	}
	memcpy(s, value, n);
	s[n] = '\0';
	return s;
}

sbat_err
sdentry_read(const char *root, const char *host, size_t max, uint8_t **ret_buf, size_t *ret_len, sbat_diag *reterr)
{
	size_t n = strlen(root);

	*ret_buf = NULL;
	*ret_len = 0;
	if (strncmp(host, root, n) != 0 || (host[n] != '/' && n && root[n - 1] != '/'))
		return sbat_file_read(host, max, ret_buf, ret_len, reterr);
	return sbat_file_read_beneath(root, host + n + strspn(host + n, "/"), max, ret_buf, ret_len, reterr);
}

/* A path as systemd-boot opens it (xstr8_to_path): a leading '\', '/' read as '\', doubled ones as one. */
static char *
loader_path(sdentry_ctx *c, const char *value, size_t n)
{
	uint64_t size;
	char *out = ckd_add_u64(&size, n, 2) || size > SIZE_MAX ? NULL : malloc((size_t)size);
	size_t o = 1, i;

	if (!out) {
		c->nomem = 1;
		return NULL;
	}
	out[0] = '\\';
	for (i = 0; i < n; i++) {
		char ch = value[i] == '/' ? '\\' : value[i];

		if (ch == '\\' && out[o - 1] == '\\')
			continue;
		out[o++] = ch;
	}
	out[o] = '\0';
	return out;
}

/* 1 when kv's key is word. */
static int
key_is(const sbat_kv_line *kv, const char *word)
{
	return kv->key_len == strlen(word) && memcmp(kv->key, word, kv->key_len) == 0;
}

/* Replace *field by the line's value, remembering its line. */
static void
set_text(sdentry_ctx *c, const char **field, unsigned *line, const sbat_kv_line *kv)
{
	free((char *)*field);
	*field = sdentry_strndup(c, kv->value, kv->value_len);
	*line = kv->line;
}

/* An initrd or devicetree line: the first whose file is not on the entry's partition is kept. */
static void
check_extra(sdentry_ctx *c, sbat_sdboot_entry *e, const char *root, const sbat_kv_line *kv)
{
	char *path, *host = NULL;
	sbat_partition_miss miss;

	if (e->missing_key || !(path = loader_path(c, kv->value, kv->value_len)))
		return;
	miss = sbat_partition_resolve(root, path, 0, &host);
	free(host);
	if (miss == SBAT_PARTITION_FOUND) {
		free(path);
		return;
	}
	e->missing_key = key_is(kv, "initrd") ? "initrd" : "devicetree";
	e->missing_path = path;
	e->missing_line = kv->line;
	e->missing_miss = miss;
}

/*
 * A linux, efi or (258 on) uki line; 1 when it leaves the entry out: an efi
 * line naming systemd-boot itself, or from 258 on a line of another kind than
 * an earlier one (LOADER_BAD).
 */
static int
loader_line(sdentry_ctx *c, sbat_sdboot_entry *e, const sbat_kv_line *kv)
{
	sbat_sdboot_kind kind = key_is(kv, "linux") ? SBAT_SDBOOT_KIND_LINUX :
	                        key_is(kv, "efi")   ? SBAT_SDBOOT_KIND_EFI :
	                                              SBAT_SDBOOT_KIND_TYPE1_UKI;

	if ((c->features & SBAT_SDBOOT_ONE_KIND) && e->kind != SBAT_SDBOOT_KIND_NONE && e->kind != kind) {
		e->out = SBAT_SDBOOT_OUT_CONFLICT;
		return 1;
	}
	e->kind = kind;
	free((char *)e->loader);
	e->loader = loader_path(c, kv->value, kv->value_len);
	e->loader_line = kv->line;
	if (e->kind == SBAT_SDBOOT_KIND_EFI && e->loader && c->self && strcasecmp(e->loader, c->self) == 0) {
		e->out = SBAT_SDBOOT_OUT_SELF;
		return 1;
	}
	return 0;
}

/* 1 when an architecture line names the loader's: in this case before 257, in any case from 257 on. */
static int
arch_matches(const sdentry_ctx *c, const sbat_kv_line *kv)
{
	if (kv->value_len != strlen(c->arch))
		return 0;
	return (c->features & SBAT_SDBOOT_CASE_FOLDED) ? strncasecmp(kv->value, c->arch, kv->value_len) == 0 :
	                                                 memcmp(kv->value, c->arch, kv->value_len) == 0;
}

/* One key of a Type #1 entry; 1 when the entry is out for good. */
static int
type1_key(sdentry_ctx *c, sbat_sdboot_entry *e, const char *root, const sbat_kv_line *kv)
{
	if (key_is(kv, "title"))
		set_text(c, &e->title, &e->title_line, kv);
	else if (key_is(kv, "version"))
		set_text(c, &e->version, &e->version_line, kv);
	else if (key_is(kv, "machine-id"))
		set_text(c, &e->machine_id, &e->machine_id_line, kv);
	else if (key_is(kv, "sort-key"))
		set_text(c, &e->sort_key, &e->sort_key_line, kv);
	else if (key_is(kv, "linux") || key_is(kv, "efi") || ((c->features & SBAT_SDBOOT_UKI_KEY) && key_is(kv, "uki")))
		return loader_line(c, e, kv);
	else if (key_is(kv, "architecture") && !arch_matches(c, kv)) {
		e->arch = sdentry_strndup(c, kv->value, kv->value_len);
		e->out = SBAT_SDBOOT_OUT_ARCH;
		return 1;
	} else if (key_is(kv, "initrd") || key_is(kv, "devicetree"))
		check_extra(c, e, root, kv);
	return 0;
}

/* The loader an entry names, found on root, or why it leaves the entry out. */
static void
find_loader(sbat_sdboot_entry *e, const char *root)
{
	char *host = NULL;

	e->loader_miss = e->loader ? sbat_partition_resolve(root, e->loader, 0, &host) : SBAT_PARTITION_NO_MEMORY;
	e->loader_host = host;
	if (host)
		return;
	e->out = SBAT_SDBOOT_OUT_LOADER_NOT_FOUND;
	e->out_certain = e->loader_miss == SBAT_PARTITION_MISSING;
}

void
sdentry_type1(sdentry_ctx *c, sbat_sdboot_entry *e, const char *root)
{
	sbat_kv_cursor cur;
	sbat_kv_line kv;
	sbat_diag d;
	uint8_t *buf;
	size_t len;
	int out = 0;

	if (sdentry_read(root, e->file, SBAT_BOOTCFG_MAX_SIZE, &buf, &len, &e->diag) != SBAT_OK) {
		sdentry_note(c, SBAT_SDBOOT_NOTE_UNREADABLE, e->file, 0, &e->diag);
		e->out = SBAT_SDBOOT_OUT_UNREADABLE;
		return;
	}
	memset(&cur, 0, sizeof(cur));
	while (!out) {
		sbat_err err = sbat_kv_next(buf, len, " \t", &cur, &kv, &d);

		if (err != SBAT_OK)
			sdentry_note(c, SBAT_SDBOOT_NOTE_LINE, e->file, d.line, &d);
		else if (!kv.key)
			break;
		else
			out = type1_key(c, e, root, &kv);
	}
	free(buf);
	if (out) {
		e->out_certain = 1;
		return;
	}
	if (e->kind == SBAT_SDBOOT_KIND_NONE) {
		e->out = SBAT_SDBOOT_OUT_NO_LOADER;
		e->out_certain = 1;
		return;
	}
	find_loader(e, root);
}

/* value[0..n) into out[0..size), cut to fit and NUL-terminated. */
static void
copy_cut(char *out, size_t size, const char *value, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(out, value, n);
	out[n] = '\0';
}

/* The first of keys[from..to) that os-release text gives; -1: none. */
static int
first_given(char v[][128], int from, int to)
{
	int i;

	for (i = from; i < to; i++)
		if (v[i][0])
			return i;
	return -1;
}

/* os-release of a UKI's .osrel: name, version and sort key as bootspec_pick_name_version_sort_key picks them. */
static int
read_osrel(sdentry_ctx *c, sbat_sdboot_entry *e, const uint8_t *p, size_t n)
{
	static const char *const keys[] = { "PRETTY_NAME",   "IMAGE_ID", "NAME",       "ID",
		                            "IMAGE_VERSION", "VERSION",  "VERSION_ID", "BUILD_ID" };
	char v[8][128];
	sbat_kv_cursor cur;
	sbat_kv_line kv;
	sbat_diag d;
	sbat_err err;
	int i;

	memset(v, 0, sizeof(v));
	memset(&cur, 0, sizeof(cur));
	while ((err = sbat_kv_next(p, n, "=", &cur, &kv, &d)) != SBAT_OK || kv.key)
		for (i = 0; err == SBAT_OK && i < 8; i++)
			if (key_is(&kv, keys[i]))
				copy_cut(v[i], sizeof(v[i]), kv.value, kv.value_len);
	if ((i = first_given(v, 0, 4)) < 0)
		return 0;
	e->title = sdentry_strndup(c, v[i], strlen(v[i]));
	if ((i = first_given(v, 4, 8)) >= 0)
		e->version = sdentry_strndup(c, v[i], strlen(v[i]));
	if ((i = first_given(v, 1, 2)) >= 0 || (i = first_given(v, 3, 4)) >= 0)
		e->sort_key = sdentry_strndup(c, v[i], strlen(v[i]));
	return 1;
}

/* The .osrel of the parsed UKI img (of len bytes in buf): whether systemd-boot lists it. */
static void
type2_osrel(sdentry_ctx *c, sbat_sdboot_entry *e, const sbat_image *img, const uint8_t *buf, size_t len)
{
	int idx = sbat_image_find_section(img, ".osrel");
	const sbat_section_info *s = idx >= 0 ? sbat_image_section(img, (unsigned)idx) : NULL;
	const uint8_t *p;
	uint64_t n;
	bview v;

	bv_init(&v, buf, len);
	e->out_certain = 1;
	if (!s || s->pointer_to_raw_data >= len) {
		e->out = SBAT_SDBOOT_OUT_NO_OSREL;
		return;
	}
	n = s->virtual_size < s->size_of_raw_data ? s->virtual_size : s->size_of_raw_data;
	if (!bv_has(&v, s->pointer_to_raw_data, n))
		n = len - s->pointer_to_raw_data; /* what the file holds of it */
	if (!(p = bv_ptr(&v, s->pointer_to_raw_data, n)) || !read_osrel(c, e, p, (size_t)n)) {
		e->out = SBAT_SDBOOT_OUT_NO_NAME;
		return;
	}
	e->out_certain = 0;
	e->loader_host = sdentry_strndup(c, e->file, strlen(e->file));
}

void
sdentry_type2(sdentry_ctx *c, sbat_sdboot_entry *e, const char *root)
{
	static const char dir[] = "\\EFI\\Linux\\";
	size_t nl = strlen(e->name);
	char *loader = malloc(sizeof(dir) + nl);
	sbat_image *img = NULL;
	uint8_t *buf = NULL;
	size_t len = 0;

	e->kind = SBAT_SDBOOT_KIND_UKI;
	if (!loader) {
		c->nomem = 1;
		return;
	}
	memcpy(loader, dir, sizeof(dir) - 1);
	memcpy(loader + sizeof(dir) - 1, e->name, nl + 1);
	e->loader = loader;
	if (sdentry_read(root, e->file, SBAT_FILE_MAX_SIZE, &buf, &len, &e->diag) != SBAT_OK ||
	    sbat_image_parse(buf, len, &img, &e->diag) != SBAT_OK)
		e->out = SBAT_SDBOOT_OUT_NOT_IMAGE;
	else
		type2_osrel(c, e, img, buf, len);
	sbat_image_free(img);
	free(buf);
}

/* Digits at *p as a number of at most INT_MAX, p moved past them; -1: none, or too large. */
static int
counter(const char **p)
{
	long v = 0;

	if (**p < '0' || **p > '9')
		return -1;
	for (; **p >= '0' && **p <= '9'; (*p)++)
		if ((v = v * 10 + (**p - '0')) > INT_MAX)
			return -1;
	return (int)v;
}

/* From 259 on: the id is the name up to its last '+', then suffix; lower-cased for a Type #1 entry. */
static void
id_without_counter(sdentry_ctx *c, sbat_sdboot_entry *e, const char *plus, const char *suffix, int type1)
{
	size_t n = (size_t)(plus - e->name), sl = strlen(suffix), i;
	char *id = malloc(n + sl + 1);

	if (!id) {
		c->nomem = 1;
		return;
	}
	memcpy(id, e->name, n);
	memcpy(id + n, suffix, sl + 1);
	for (i = 0; type1 && id[i]; i++)
		id[i] = (char)(id[i] >= 'A' && id[i] <= 'Z' ? id[i] - 'A' + 'a' : id[i]);
	free((char *)e->id);
	e->id = id;
}

void
sdentry_tries(sdentry_ctx *c, sbat_sdboot_entry *e, const char *suffix, int type1)
{
	const char *plus = strrchr(e->name, '+'), *p = plus;
	int left, done = 0;

	e->tries_left = e->tries_done = -1;
	if (!p) /* no counter; p + 1 would be arithmetic on a null pointer */
		return;
	p++;
	if ((left = counter(&p)) < 0)
		return;
	if (*p == '-' && (++p, done = counter(&p)) < 0)
		return;
	if ((c->features & SBAT_SDBOOT_CASE_FOLDED) ? strcasecmp(p, suffix) != 0 : strcmp(p, suffix) != 0)
		return;
	e->tries_left = left;
	e->tries_done = done;
	if (c->features & SBAT_SDBOOT_ID_WITHOUT_COUNTER)
		id_without_counter(c, e, plus, suffix, type1);
}

void
sdentry_clear(sbat_sdboot_entry *e)
{
	free((char *)e->name);
	free((char *)e->id);
	free((char *)e->file);
	free((char *)e->title);
	free((char *)e->version);
	free((char *)e->machine_id);
	free((char *)e->sort_key);
	free((char *)e->loader);
	free((char *)e->loader_host);
	free((char *)e->arch);
	free((char *)e->missing_path);
	memset(e, 0, sizeof(*e));
}
