/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* menu.h - a loader's menu as stage 3 reads it: the files it starts and the text of its lines */
#ifndef SBAT_WALK_MENU_H
#define SBAT_WALK_MENU_H

#include <stddef.h>

#include "walk/walk.h"

/* At most this many files are listed for one loader; more are counted. */
#define MENU_MAX_ITEMS 256

/* Why a file of the menu cannot be followed, or is left out: the stage's menu_* fields (bootreport.h). */
typedef struct menu_reason {
	sbat_boot_menu_why why;   /* NONE: the file is followed */
	char path[1024];          /* menu_path */
	char file[WALK_PATH_MAX]; /* menu_file */
	char word[1024];          /* menu_word */
	char text[768];           /* menu_text */
	char arch[64];            /* menu_arch */
	unsigned line;            /* menu_line */
	int miss;                 /* the sbat_partition_miss of a lookup */
	sbat_diag diag;           /* what did not read */
	int sdboot_out;           /* LEFT_OUT: the sbat_sdboot_out */
	unsigned sdboot_rules;    /* LEFT_OUT: the systemd-boot version whose rules apply */
	size_t over, limit;       /* OVER_LIMIT */
} menu_reason;

/* One file the loader starts from one or more menu entries: one line of the report. */
typedef struct menu_item {
	char file[1024];                 /* as the loader names it */
	int embedded;                    /* it is GRUB's embedded configuration (file "") */
	char *host;                      /* the file on this machine; NULL when it cannot be followed */
	char *root;                      /* the directory the lookup of host started from, or NULL */
	menu_reason why;                 /* with host NULL: why not */
	char desc[768];                  /* the entry: "entry debian.conf", "menuentry 'Debian GNU/Linux'" */
	char config[WALK_PATH_MAX + 16]; /* FILE:LINE it comes from */
	char missing[1024];              /* that file, as the entry names it; "" when none */
	char missing_key[32];            /* systemd-boot: the key that names it; "" for GRUB */
	int missing_miss;                /* and what its lookup found (sbat_partition_miss) */
	int is_default;                  /* the entry started when nobody touches the keyboard */
	int is_uki;                      /* a UKI: the kernel in its .linux is checked too */
	int left_out;                    /* with host NULL: the loader leaves it out of its menu, for certain */
	unsigned more;                   /* further entries with the same file */
} menu_item;

/* The files a loader's menu was read from: the facts of its note (SBAT_BOOT_NOTE_MENU_FILES), "" for NULL. */
typedef struct menu_files {
	/* systemd-boot */
	char conf_file[WALK_PATH_MAX]; /* loader.conf on this machine */
	char conf_default[512];        /* its default (has_default) and its line */
	int has_default;
	unsigned default_line;
	size_t listed, left_out;      /* entries in the menu, left out */
	char xbootldr[WALK_PATH_MAX]; /* the XBOOTLDR directory read */
	/* GRUB: the configurations read, in order */
	size_t n_chain;
	char chain[SBAT_BOOT_NOTE_CHAIN_MAX][WALK_PATH_MAX];      /* as GRUB names it */
	char chain_host[SBAT_BOOT_NOTE_CHAIN_MAX][WALK_PATH_MAX]; /* the file on this machine */
	int embedded;                                             /* chain[0] is GRUB's embedded configuration */
	int on_esp;                                               /* chain[0] is grub.cfg next to GRUB on the ESP */
} menu_files;

/* What one loader's files say. */
typedef struct menu_list {
	sbat_boot_loader loader; /* systemd-boot or GRUB */
	sbat_boot_rule rule;     /* the check shim makes on what it starts */
	const char *rule_text;   /* the same for the line's brackets */
	menu_item *items;
	size_t n_items, n_dropped;
	int default_known;
	/* what chose the default entry, or why none is known: the stage's fields of the same names */
	int sdboot_by; /* -1: systemd-boot's menu did not read */
	sbat_boot_grub_by grub_by;
	char default_value[512];
	char default_setting[512];
	unsigned default_line;
	int default_flags;
	menu_files files; /* for --verbose: the files read */
} menu_list;

/* A new item at the end of the menu (zeroed); NULL when the menu is full. */
menu_item *menu_add(menu_list *m);

/* r made empty, to say why; the others of its fields are zero. */
void menu_reason_set(menu_reason *r, sbat_boot_menu_why why);

/* The stage's menu_* fields, pointing into r (which must outlive st). */
void menu_reason_put(const menu_reason *r, sbat_boot_stage *st);

/* What chose m's default entry, as a stage's or a note's fields of these names (pointing into m). */
void menu_default_put(const menu_list *m, int *sdboot_by, sbat_boot_grub_by *grub_by, const char **value,
                      const char **setting, unsigned *line, int *flags);

/* The note of the files m was read from (what MENU_FILES, its fields pointing into m): n made by sbat_boot_note_init. */
void menu_files_put(const menu_list *m, sbat_boot_note *n);

/* text into buf[0..size), cut to fit and NUL-terminated. */
void menu_copy(char *buf, size_t size, const char *text);

/* Append formatted text to buf[0..size), keeping it NUL-terminated. */
#if defined(__GNUC__)
__attribute__((format(__printf__, 3, 4)))
#endif
void
menu_append(char *buf, size_t size, const char *fmt, ...);

#endif
