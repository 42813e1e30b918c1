/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* menu.h - a loader's menu as stage 3 reads it: the files it starts and the text of its lines */
#ifndef SBAT_WALK_MENU_H
#define SBAT_WALK_MENU_H

#include <stddef.h>

#include "walk/walk.h"

/* At most this many files are listed for one loader; more are counted. */
#define MENU_MAX_ITEMS 256

/* One file the loader starts from one or more menu entries: one line of the report. */
typedef struct menu_item {
	char file[1024];                 /* as the loader names it */
	char *host;                      /* the file on this machine; NULL when it cannot be followed */
	char *root;                      /* the directory the lookup of host started from, or NULL */
	char why[768];                   /* with host NULL: why not */
	char desc[768];                  /* the entry: "entry debian.conf", "menuentry 'Debian GNU/Linux'" */
	char config[WALK_PATH_MAX + 16]; /* FILE:LINE it comes from */
	char note[512];                  /* added to the line: a missing initrd */
	char missing[1024];              /* that file, as the entry names it; "" when none */
	char missing_key[32];            /* systemd-boot: the key that names it; "" for GRUB */
	int missing_miss;                /* and what its lookup found (sbat_partition_miss) */
	int is_default;                  /* the entry started when nobody touches the keyboard */
	int is_uki;                      /* a UKI: the kernel in its .linux is checked too */
	int left_out;                    /* with host NULL: the loader leaves it out of its menu, for certain */
	unsigned more;                   /* further entries with the same file */
} menu_item;

/* What one loader's files say. */
typedef struct menu_list {
	sbat_boot_loader loader; /* systemd-boot or GRUB */
	sbat_boot_rule rule;     /* the check shim makes on what it starts */
	const char *rule_text;   /* the same for the line's brackets */
	menu_item *items;
	size_t n_items, n_dropped;
	int default_known;
	char default_by[768]; /* what chose the default entry, or why it cannot be known */
	char summary[1536];   /* for --verbose: the files read */
} menu_list;

/* A new item at the end of the menu (zeroed); NULL when the menu is full. */
menu_item *menu_add(menu_list *m);

/* walk_resolve's why after a name: "is missing" for "missing", else as it is. */
const char *menu_is(const char *why);

/* text into buf[0..size), cut to fit and NUL-terminated. */
void menu_copy(char *buf, size_t size, const char *text);

/* Append formatted text to buf[0..size), keeping it NUL-terminated. */
#if defined(__GNUC__)
__attribute__((format(__printf__, 3, 4)))
#endif
void
menu_append(char *buf, size_t size, const char *fmt, ...);

#endif
