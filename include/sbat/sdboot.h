/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sdboot.h - systemd-boot's menu as data: its entries, why some are left out, and the entry it starts by itself */
#ifndef SBAT_SDBOOT_H
#define SBAT_SDBOOT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "partition.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * At most this many entries are read: per directory (\loader\entries,
 * \EFI\Linux) and in the whole menu. Those past it are counted in
 * sbat_sdboot_menu.entries_over, never dropped silently.
 */
#define SBAT_SDBOOT_MAX_ENTRIES 256
/* At most this many notes are kept; more are counted in notes_dropped. */
#define SBAT_SDBOOT_MAX_NOTES 256

/* sbat_sdboot_menu timeouts besides a number of seconds */
#define SBAT_SDBOOT_TIMEOUT_UNSET (-1L)
#define SBAT_SDBOOT_TIMEOUT_MENU_FORCE (-2L) /* menu-force: the menu waits for a key */

/* What an entry starts. */
typedef enum sbat_sdboot_kind {
	SBAT_SDBOOT_KIND_NONE = 0,  /* a Type #1 entry with no linux or efi line */
	SBAT_SDBOOT_KIND_LINUX,     /* a Type #1 entry's `linux` */
	SBAT_SDBOOT_KIND_EFI,       /* a Type #1 entry's `efi` */
	SBAT_SDBOOT_KIND_UKI,       /* a Type #2 entry: a UKI in \EFI\Linux */
	SBAT_SDBOOT_KIND_TYPE1_UKI, /* a Type #1 entry's `uki` (systemd-boot 258 and later) */
} sbat_sdboot_kind;

/* Why an entry is not in the menu. */
typedef enum sbat_sdboot_out {
	SBAT_SDBOOT_LISTED = 0,           /* it is in the menu */
	SBAT_SDBOOT_OUT_UNREADABLE,       /* the entry file cannot be read (diag): not known */
	SBAT_SDBOOT_OUT_SELF,             /* its efi line names systemd-boot itself */
	SBAT_SDBOOT_OUT_ARCH,             /* its architecture is not the loader's (arch) */
	SBAT_SDBOOT_OUT_NO_LOADER,        /* no linux or efi line */
	SBAT_SDBOOT_OUT_LOADER_NOT_FOUND, /* the file it starts is not found (loader_miss) */
	SBAT_SDBOOT_OUT_NOT_IMAGE,        /* a UKI that cannot be read or parsed (diag): not known */
	SBAT_SDBOOT_OUT_NO_OSREL,         /* a UKI without a .osrel section */
	SBAT_SDBOOT_OUT_NO_NAME,          /* a UKI whose .osrel gives no name */
	SBAT_SDBOOT_OUT_CONFLICT,         /* two of linux, efi and uki lines (258 and later refuse it) */
} sbat_sdboot_out;

/* What chose the entry systemd-boot starts by itself (config_select_default_entry). */
typedef enum sbat_sdboot_by {
	SBAT_SDBOOT_BY_NONE = 0,        /* none: no entry is in the menu */
	SBAT_SDBOOT_BY_MENU_FORCE,      /* none: timeout menu-force, the menu waits for a key */
	SBAT_SDBOOT_BY_ONESHOT,         /* the variable LoaderEntryOneShot */
	SBAT_SDBOOT_BY_EFI_DEFAULT,     /* the variable LoaderEntryDefault */
	SBAT_SDBOOT_BY_EFI_SAVED,       /* LoaderEntryDefault "@saved": the variable LoaderEntryLastBooted */
	SBAT_SDBOOT_BY_CONF_SAVED,      /* loader.conf's default @saved: the variable LoaderEntryLastBooted */
	SBAT_SDBOOT_BY_CONF_DEFAULT,    /* loader.conf's default */
	SBAT_SDBOOT_BY_FIRST,           /* the first entry of the menu: no pattern matched */
	SBAT_SDBOOT_BY_OVER_LIMIT,      /* not known: more entries than are read */
	SBAT_SDBOOT_BY_VERSION_UNKNOWN, /* not known: systemd-boot's version is not known and releases differ */
	SBAT_SDBOOT_BY_SYSFAIL,         /* not known: 258 on start LoaderEntrySysFail's entry after a failed
	                                   firmware update, which is not read (default_pattern: its pattern) */
} sbat_sdboot_by;

/* systemd-boot's variables (vendor GUID 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f) the menu reads. */
typedef enum sbat_sdboot_var {
	SBAT_SDBOOT_VAR_ENTRY_ONESHOT = 0,      /* LoaderEntryOneShot */
	SBAT_SDBOOT_VAR_ENTRY_DEFAULT,          /* LoaderEntryDefault */
	SBAT_SDBOOT_VAR_ENTRY_LAST_BOOTED,      /* LoaderEntryLastBooted */
	SBAT_SDBOOT_VAR_CONFIG_TIMEOUT,         /* LoaderConfigTimeout */
	SBAT_SDBOOT_VAR_CONFIG_TIMEOUT_ONESHOT, /* LoaderConfigTimeoutOneShot */
	SBAT_SDBOOT_VAR_ENTRY_SYSFAIL           /* LoaderEntrySysFail (258 and later) */
} sbat_sdboot_var;

/*
 * The variables' data as the caller read them (UTF-16LE text, NUL-ended or
 * not, without efivarfs's 4 attribute bytes); NULL: not set. Filled by the
 * caller: `sbat_sdboot_vars v = SBAT_SDBOOT_VARS_INIT;` or
 * sbat_sdboot_vars_init(&v). Fields are added at the end, after `size`;
 * a caller built before `version` or `entry_sysfail` were added passes a
 * smaller size and is read as giving neither.
 *
 * version is the loader's own version, as its .sdmagic section gives it
 * after "LoaderInfo: systemd-boot " ("257.1", "258~rc2", "259.3-1-arch"):
 * the menu follows that release's rules. NULL, or a text that does not
 * start with a release number from 252 on: not known (see
 * sbat_sdboot_menu_load).
 */
typedef struct sbat_sdboot_vars {
	size_t size;
	const uint8_t *entry_oneshot;
	size_t entry_oneshot_len;
	const uint8_t *entry_default;
	size_t entry_default_len;
	const uint8_t *entry_last_booted;
	size_t entry_last_booted_len;
	const uint8_t *config_timeout;
	size_t config_timeout_len;
	const uint8_t *config_timeout_oneshot;
	size_t config_timeout_oneshot_len;
	const char *version; /* NUL-ended; NULL: not known */
	const uint8_t *entry_sysfail;
	size_t entry_sysfail_len;
} sbat_sdboot_vars;

#define SBAT_SDBOOT_VARS_INIT                                                                                          \
	{                                                                                                              \
		sizeof(sbat_sdboot_vars), NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, NULL, 0                   \
	}

/* Sets *vars to SBAT_SDBOOT_VARS_INIT. */
SBAT_API void sbat_sdboot_vars_init(sbat_sdboot_vars *vars);

/* One Type #1 entry or UKI. Allocated by the library; fields may be added at the end. */
typedef struct sbat_sdboot_entry {
	const char *name; /* the file name, as on the partition */
	const char *id;   /* the name lower-cased: what default patterns match */
	const char *file; /* the entry file on this machine */
	int on_xbootldr;  /* 1: on the XBOOTLDR partition, 0: on the ESP */
	sbat_sdboot_kind kind;
	const char *title;   /* NULL: not given (a UKI: its .osrel's name) */
	unsigned title_line; /* the line of `file` it comes from; 0 for a UKI or none */
	const char *version; /* NULL: not given */
	unsigned version_line;
	const char *machine_id; /* NULL: not given */
	unsigned machine_id_line;
	const char *sort_key; /* NULL: not given */
	unsigned sort_key_line;
	int tries_left;                  /* boot counting, from "+LEFT[-DONE]" before the suffix; -1: none */
	int tries_done;                  /* -1: none */
	const char *loader;              /* the file it starts, as systemd-boot opens it ("\6.1\linux"); NULL: none */
	unsigned loader_line;            /* its linux or efi line in `file`; 0 for a UKI */
	const char *loader_host;         /* that file on this machine; NULL: not found */
	sbat_partition_miss loader_miss; /* with loader_host NULL: why */
	sbat_sdboot_out out;             /* SBAT_SDBOOT_LISTED: in the menu */
	int out_certain;          /* with out: systemd-boot leaves it out for certain (not merely unreadable here) */
	const char *arch;         /* SBAT_SDBOOT_OUT_ARCH: the entry's architecture line */
	sbat_diag diag;           /* SBAT_SDBOOT_OUT_UNREADABLE, SBAT_SDBOOT_OUT_NOT_IMAGE: why */
	const char *missing_key;  /* "initrd" or "devicetree": the first line whose file is not found; NULL: none */
	const char *missing_path; /* that file, as systemd-boot opens it */
	unsigned missing_line;
	sbat_partition_miss missing_miss;
	int version_dependent; /* 1: the version is not known and whether it is listed differs by release */
} sbat_sdboot_entry;

/* What a note is about. */
typedef enum sbat_sdboot_note_kind {
	SBAT_SDBOOT_NOTE_LINE = 0,        /* a line systemd-boot ignores or stops at (diag.what) */
	SBAT_SDBOOT_NOTE_UNREADABLE,      /* a file that cannot be read (diag) */
	SBAT_SDBOOT_NOTE_DIR_UNREADABLE,  /* a directory that cannot be listed (diag) */
	SBAT_SDBOOT_NOTE_DEFAULT_SPECIAL, /* loader.conf's default is an @ name other than @saved: ignored */
	SBAT_SDBOOT_NOTE_TIMEOUT,         /* a timeout systemd-boot cannot read: ignored */
	SBAT_SDBOOT_NOTE_VARIABLE,        /* a variable that is not text (diag): ignored */
} sbat_sdboot_note_kind;

/* Something systemd-boot reads differently from what its author likely meant, or not at all. */
typedef struct sbat_sdboot_note {
	sbat_sdboot_note_kind kind;
	const char *file;    /* on this machine; NULL for a variable */
	sbat_sdboot_var var; /* SBAT_SDBOOT_NOTE_VARIABLE: which */
	unsigned line;       /* 0: none */
	sbat_diag diag;
} sbat_sdboot_note;

/* What a systemd-boot release changed in how it builds its menu (sbat_sdboot_menu.features). */
typedef enum sbat_sdboot_feature {
	SBAT_SDBOOT_CASE_FOLDED = 1u << 0, /* 257: `architecture`, "auto-", the suffix after a counter in any case */
	SBAT_SDBOOT_UKI_KEY = 1u << 1,     /* 258: `uki` starts a UKI */
	SBAT_SDBOOT_ONE_KIND = 1u << 2,    /* 258: two of linux, efi and uki lines leave the entry out */
	SBAT_SDBOOT_SYSFAIL = 1u << 3,     /* 258: LoaderEntrySysFail can start first */
	SBAT_SDBOOT_ID_WITHOUT_COUNTER = 1u << 4, /* 259: an id loses its boot counter */
} sbat_sdboot_feature;

/* systemd-boot's menu. Allocated by the library; fields may be added at the end. */
typedef struct sbat_sdboot_menu {
	size_t n_entries;         /* those in the menu first, in its order; then those left out, by name */
	size_t n_listed;          /* how many are in the menu */
	size_t entries_over;      /* entries not read, past SBAT_SDBOOT_MAX_ENTRIES; the menu is then not known */
	int over_limit;           /* entries_over > 0 */
	const char *arch;         /* EFI_MACHINE_TYPE_NAME of the loader: "x64", "aa64", ... */
	const char *conf_file;    /* loader.conf on this machine; NULL: none */
	const char *conf_default; /* its default, lower-cased; NULL: none */
	unsigned conf_default_line;
	long conf_timeout; /* its timeout in seconds, or SBAT_SDBOOT_TIMEOUT_*; menu-hidden is 0 */
	long timeout;      /* the one in force: LoaderConfigTimeoutOneShot, LoaderConfigTimeout, loader.conf */
	int has_default;   /* an entry starts by itself: default_index */
	size_t default_index;
	sbat_sdboot_by default_by;
	const char *default_pattern; /* the pattern that chose it (lower-cased); NULL for BY_FIRST and none */
	size_t n_notes;
	const sbat_sdboot_note *notes;
	size_t notes_dropped;
	unsigned release;  /* systemd-boot's major version from vars->version; 0: not known */
	unsigned rules;    /* the release whose rules built the menu: 252, 257, 258 or 259 */
	unsigned features; /* those rules, as sbat_sdboot_feature bits */
} sbat_sdboot_menu;

/*
 * Read systemd-boot's menu as systemd-boot 252 to 259 build it: loader.conf
 * on the ESP (esp, its mount point); the Type #1 entries in
 * \loader\entries\*.conf and the UKIs in \EFI\Linux\*.efi on the ESP and on
 * the XBOOTLDR partition (xbootldr, NULL: none), names starting with "." or
 * "auto-" skipped; each file found as the firmware finds it
 * (sbat_partition_resolve: FAT's case-insensitive names, no symbolic link).
 * loader_path is systemd-boot's own path on the ESP ("\EFI\systemd\
 * systemd-bootx64.efi"), whose efi entries it leaves out; machine its PE
 * machine type, which gives the architecture entries must name. The menu
 * is sorted as boot_entry_compare sorts it (entries without tries left
 * last; those with a sort-key first, by sort-key, machine-id, and version
 * newest first; then by id, newest first; then by boot counting), and its
 * default chosen as config_select_default_entry chooses it
 * (LoaderEntryOneShot, LoaderEntryDefault or, for "@saved",
 * LoaderEntryLastBooted, loader.conf's default, the first entry; none with
 * timeout menu-force), patterns matched as globs against ids.
 *
 * The releases differ, and vars->version chooses (menu->rules):
 *  - 252 to 256: `architecture`, the "auto-" prefix and the ".conf" or
 *    ".efi" after a boot counter match in this case only;
 *  - 257: all three in any case;
 *  - 258: also an entry with two of linux, efi and uki lines is left out
 *    (SBAT_SDBOOT_OUT_CONFLICT), and `uki` starts a UKI;
 *  - 259 and later: also an id loses its boot counter ("a+3-1.conf" is
 *    "a.conf"; a UKI's id then keeps the case of its name).
 * With the version not known the menu follows 252's rules, is built with
 * each later set too, and where they choose another default entry the
 * default is not known (SBAT_SDBOOT_BY_VERSION_UNKNOWN); an entry listed
 * by some and not others is version_dependent, and when left out, not
 * out_certain. From 258 on an entry LoaderEntrySysFail matches starts
 * first after a failed update of the system firmware (its ESRT entry),
 * which is not read here: when that entry is not the default otherwise
 * chosen, the default is not known (SBAT_SDBOOT_BY_SYSFAIL). UKI profiles
 * (257), `uki-url` and entries from SMBIOS (258) are not modelled.
 *
 * What cannot be read is a fact of the menu (an entry's out, a note), not
 * a failure. SBAT_E_NOMEM; SBAT_E_ABI for a vars->size not known.
 * *ret is freed by sbat_sdboot_menu_free.
 */
SBAT_API sbat_err sbat_sdboot_menu_load(const char *esp, const char *xbootldr, const char *loader_path,
                                        uint16_t machine, const sbat_sdboot_vars *vars, sbat_sdboot_menu **ret,
                                        sbat_diag *reterr);

/* Entry index of menu (0 to n_entries - 1); NULL past the end. */
SBAT_API const sbat_sdboot_entry *sbat_sdboot_menu_entry(const sbat_sdboot_menu *menu, size_t index);

/* NULL-safe. */
SBAT_API void sbat_sdboot_menu_free(sbat_sdboot_menu *menu);

/* Short names for JSON: "listed", "unreadable", "self", "architecture", ..., "conflict"; "unknown" past the list. */
SBAT_API const char *sbat_sdboot_out_name(sbat_sdboot_out out);
/* "none", "menu-force", "oneshot", "efi-default", "efi-saved", "conf-saved", "conf-default", "first", "over-limit",
 * "version-unknown", "sysfail". */
SBAT_API const char *sbat_sdboot_by_name(sbat_sdboot_by by);
/* The variable's name: "LoaderEntryOneShot", ... */
SBAT_API const char *sbat_sdboot_var_name(sbat_sdboot_var var);

#ifdef __cplusplus
}
#endif

#endif
