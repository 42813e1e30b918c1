/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* stage3.h - the menu of the loader shim starts: what systemd-boot and GRUB start next, from their files */
#ifndef SBAT_WALK_STAGE3_H
#define SBAT_WALK_STAGE3_H

#include <stddef.h>

#include "walk/walk.h"

/* At most this many files are listed for one loader; more are counted. */
#define S3_MAX_ITEMS 256

/* One file the loader starts from one or more menu entries: one line of the report. */
typedef struct s3_item {
	char file[1024];                 /* as the loader names it */
	char *host;                      /* the file on this machine; NULL when it cannot be followed */
	char *root;                      /* the directory the lookup of host started from, or NULL */
	char why[768];                   /* with host NULL: why not */
	char desc[768];                  /* the entry: "entry debian.conf", "menuentry 'Debian GNU/Linux'" */
	char config[WALK_PATH_MAX + 16]; /* FILE:LINE it comes from */
	char note[512];                  /* added to the line: a missing initrd */
	int is_default;                  /* the entry started when nobody touches the keyboard */
	int is_uki;                      /* a UKI: the kernel in its .linux is checked too */
	int left_out;                    /* with host NULL: the loader leaves it out of its menu, for certain */
	unsigned more;                   /* further entries with the same file */
} s3_item;

/* What one loader's files say. */
typedef struct s3_menu {
	const char *loader;    /* "systemd-boot" or "grub" */
	const char *rule;      /* the JSON name of the check shim makes on what it starts */
	const char *rule_text; /* the same for the line's brackets */
	s3_item *items;
	size_t n_items, n_dropped;
	int default_known;
	char default_by[768]; /* what chose the default entry, or why it cannot be known */
	char summary[1536];   /* for --verbose: the files read */
} s3_menu;

/* A new item at the end of the menu (zeroed); NULL when the menu is full. */
s3_item *s3_add(s3_menu *m);

/* The file bytes of section `name` of im (what lies inside the file), *len of them; NULL when there is none. */
const uint8_t *s3_section_bytes(const image *im, const char *name, size_t *len);

/* 1 when section `name` of im holds needle (needle_len bytes) within its file data. */
int s3_section_has(const image *im, const char *name, const char *needle, size_t needle_len);

/* walk_resolve's why after a name: "is missing" for "missing", else as it is. */
const char *s3_is(const char *why);

/* text into buf[0..size), cut to fit and NUL-terminated. */
void s3_copy(char *buf, size_t size, const char *text);

/* Append formatted text to buf[0..size), keeping it NUL-terminated. */
#if defined(__GNUC__)
__attribute__((format(__printf__, 3, 4)))
#endif
void
s3_append(char *buf, size_t size, const char *fmt, ...);

/* systemd-boot: recognised by its .sdmagic LoaderInfo (or .osrel ID). */
int stage3_is_sdboot(const image *im);
void stage3_sdboot_menu(walk *w, const char *esp, const char *loader_path, const image *loader, s3_menu *m);

/*
 * GRUB: recognised by its module section "mods" or a grub row in its .sbat;
 * its menu starts from what its mods section carries (loader, opened).
 */
int stage3_is_grub(const image *im);
void stage3_grub_menu(walk *w, const char *esp, const char *loader_path, const image *loader, s3_menu *m);

#endif
