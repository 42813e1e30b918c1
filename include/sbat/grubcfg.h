/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* grubcfg.h - GRUB's grub.cfg as GRUB reads it: the files its commands name, its menu entries and its default */
#ifndef SBAT_GRUBCFG_H
#define SBAT_GRUBCFG_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "kv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A file that a command of grub.cfg names. */
typedef struct sbat_grub_file {
	const char *word;   /* the argument as written, quotes removed, variables not expanded; NULL: none */
	const char *device; /* the device: a file-system UUID a search found, or the root_device given; NULL: unknown */
	const char *path;   /* the path on that device, variables expanded; NULL when it cannot be followed */
	const char *why;    /* a static text saying why it cannot be followed; NULL when it can */
	unsigned line;
} sbat_grub_file;

/* A menuentry or submenu. */
typedef struct sbat_grub_entry {
	const char *title; /* the first argument */
	const char *id;    /* --id ID (also written $menuentry_id_option ID); NULL when none */
	int parent;        /* the enclosing submenu's index, -1 at the top */
	int is_submenu;    /* 1 for a submenu */
	int conditional; /* inside a loop, or an if whose condition is not known: GRUB adds it only when that runs it */
	unsigned position;   /* among the entries of its menu, from 0: what a number in `default` counts */
	unsigned line;       /* where it starts */
	const char *command; /* "linux", "linuxefi" or "chainloader": what `kernel` names; NULL: none */
	sbat_grub_file kernel;
	size_t n_initrds;
	const sbat_grub_file *initrds;
} sbat_grub_entry;

/* A line that GRUB reads differently than sbat-add can follow, or not at all. */
typedef struct sbat_grub_note {
	unsigned line;
	const char *what; /* static text */
} sbat_grub_note;

/* What sbat_grub_cfg_parse found. Allocated by the library; fields may be added at the end. */
typedef struct sbat_grub_cfg {
	size_t n_entries; /* in file order; a submenu precedes its entries */
	const sbat_grub_entry *entries;
	const char *default_value; /* the last `set default=` other than ${next_entry}, as written; NULL: none */
	unsigned default_line;
	unsigned next_entry_line; /* a `set default="${next_entry}"` (grubenv's one-shot entry); 0: none */
	const char *timeout;      /* the last `set timeout=`, as written; NULL: none */
	unsigned timeout_line;
	const char *next_command; /* "configfile", "source" or "normal" (normal FILE): the last one at the top, which
	                             reads next_config (no path when it is in an if or a loop that is not known) */
	sbat_grub_file next_config;
	const char *root_device; /* the root device when the file has run; NULL: not known */
	sbat_grub_file prefix;   /* $prefix when the file has run (word NULL: not set) */
	size_t n_notes;
	const sbat_grub_note *notes;
	size_t notes_dropped; /* notes beyond the kept ones */
} sbat_grub_cfg;

/*
 * Read the grub.cfg in buf[0..len) as GRUB 2.06 and 2.12 would run it,
 * without running anything: the menuentry and submenu blocks, their
 * linux/linuxefi, initrd/initrdefi and chainloader lines, `set default=`
 * and `set timeout=`, `search` (--fs-uuid and search.fs_uuid) and `set`
 * for the root device and other variables, and the top's configfile,
 * source or normal FILE; the branch of an if whose condition is known from
 * the words (true, false, [ ... ] with =, !=, -z, -n, !, -a, -o). Quotes,
 * escapes and $variables are handled as GRUB's script lexer does; an
 * entry's body is read with the variables as the whole file leaves them, since GRUB runs it at boot, after the file; what this cannot follow (function bodies, loops, a kernel
 * path with a variable the file does not set, a device name such as
 * (hd0,gpt2), a quote that is never closed) is left unresolved, with a note
 * or a why. root_device names the device the file starts on (its root) and
 * prefix_path $prefix on it; either may be NULL.
 *
 * SBAT_E_TOO_BIG over SBAT_BOOTCFG_MAX_SIZE bytes; SBAT_E_NOMEM. A file
 * GRUB cannot parse is not an error: its notes say where.
 */
SBAT_API sbat_err sbat_grub_cfg_parse(const uint8_t *buf, size_t len, const char *root_device, const char *prefix_path,
                                      sbat_grub_cfg **ret, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_grub_cfg_free(sbat_grub_cfg *cfg);

/*
 * The entry GRUB boots for the value of `default` (NULL: unset), as its
 * menu code chooses: a number counts the top menu's entries from 0 (GRUB
 * reads it with strtoul, so a leading number wins); otherwise an entry
 * whose title or id is the value; "A>B" picks B in submenu A (">>" is a
 * literal '>'). A submenu that is chosen boots its own first entry unless
 * the value goes on. A value that matches nothing, or a number past the
 * end, gives the first entry, as GRUB does: *ret_fallback is then 1.
 * Stores an index of a menuentry (never a submenu). SBAT_E_BOOTCFG when
 * the chosen menu is empty.
 */
SBAT_API sbat_err sbat_grub_cfg_default_entry(const sbat_grub_cfg *cfg, const char *value, size_t *ret_index,
                                              int *ret_fallback, sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
