/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bootreport.h - what each stage of each boot path comes to, as data: the verdict decided, not read back from text */
#ifndef SBAT_BOOTREPORT_H
#define SBAT_BOOTREPORT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "judge.h"
#include "sigdb.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What a stage is about, for programs: with the gate that decided and the
 * facts of the stage (its fields) it says everything the command's line
 * says. Values are not yet ABI (0.3 is not released).
 */
typedef enum sbat_boot_reason {
	SBAT_BOOT_JUDGED = 0,         /* shim's check of the image decided: see judge_reason */
	SBAT_BOOT_NOT_SHIM,           /* the firmware starts an image that is no shim: not governed */
	SBAT_BOOT_SHIM_GOES_ON,       /* shim starts its next stage (shim_level, shim_enforces, shim_next) */
	SBAT_BOOT_SHIM_INPUTS,        /* shim's inputs (its file, the variables) do not read */
	SBAT_BOOT_SHIM_STOPS_REVOKED, /* the stored SbatLevel (level) revokes shim itself: it stops the machine */
	SBAT_BOOT_SHIM_STOPS_LEVEL,   /* shim cannot parse the stored SbatLevel: it stops the machine */
	SBAT_BOOT_POLICY_WAITS,       /* SbatPolicy is invalid: shim waits for a key press, then goes on as above */
	SBAT_BOOT_NOT_FOUND,          /* the file is not there under root: see miss, lookup */
	SBAT_BOOT_UNREADABLE,         /* the file (host) is there but does not read or parse as an image: diag */
	SBAT_BOOT_NO_START,           /* the firmware opens nothing there (miss) and goes on to the next option */
	SBAT_BOOT_PARTITION_UNKNOWN,  /* the partition the option's HD() names (partition) is not mounted */
	SBAT_BOOT_LOAD_OPTIONS,       /* shim's load options name no path it can open: diag */
	SBAT_BOOT_FALLBACK,           /* shim's fallback makes no entry to start: fallback */
	SBAT_BOOT_LOADER_UNKNOWN,     /* the loader is neither systemd-boot nor GRUB: what it starts is not known */
	SBAT_BOOT_MENU,               /* the loader's menu says so: menu_why */
	SBAT_BOOT_OVER_LIMIT,         /* more files (over) than the limit judged for one loader */
	SBAT_BOOT_UKI_KERNEL,         /* the kernel inside a UKI's .linux decided: see judge_reason */
	SBAT_BOOT_VARIABLE,           /* a Boot#### variable is malformed */
	SBAT_BOOT_INACTIVE,           /* a boot option not marked active */
	SBAT_BOOT_APPLICATION,        /* not LOAD_OPTION_CATEGORY_BOOT: started from a menu only */
	SBAT_BOOT_NOT_A_FILE,         /* a network boot, a RAM disk, a vendor's device */
	SBAT_BOOT_NO_OPTIONS, /* neither BootOrder nor BootNext: the firmware makes its own options (removable) */
	SBAT_BOOT_SIGNATURE,  /* the firmware refuses shim's signature before shim runs: see signature_* */
	SBAT_BOOT_VARIABLE_UNREADABLE, /* a Boot#### variable does not read (a note says why) */
	SBAT_BOOT_VARIABLE_MISSING,    /* a Boot#### variable BootOrder names is not there */
	SBAT_BOOT_FIRMWARE_VOLUME,     /* a file of the firmware's own volume: EDK2 starts it unchecked */
	SBAT_BOOT_FILE_ONLY,           /* a path of File() nodes alone: the firmware searches every file system */
	SBAT_BOOT_DEVICE,              /* a whole device: which ESP it holds is not known (boot_current) */
	SBAT_BOOT_DEFAULT_LOADER,      /* the second stage is not there (miss): shim starts default_loader instead */
	SBAT_BOOT_BOOTMGR_SVN,         /* a Windows boot manager judged against dbx's SVN floor for it: see svn_* */
} sbat_boot_reason;

/* Which check decided a stage's verdict. */
typedef enum sbat_boot_gate {
	SBAT_BOOT_GATE_NONE = 0,  /* no check of an image: a file, a variable, the firmware's options decided */
	SBAT_BOOT_GATE_SBAT,      /* shim's check of the image's .sbat (judge_reason) */
	SBAT_BOOT_GATE_SIGNATURE, /* the firmware's or shim's check of its signatures (signature_*) */
	SBAT_BOOT_GATE_SHIM,      /* shim's own state: Secure Boot off, shim stops, SbatPolicy, its inputs */
	SBAT_BOOT_GATE_MENU,      /* the loader's menu: an entry left out or not followed */
	SBAT_BOOT_GATE_FIRMWARE,  /* the firmware's boot manager: an option it skips or does not govern */
	/*
	 * the Windows boot manager's own check, when it starts, of its SVN
	 * against dbx's SVN entries for it (the firmware compares no SVN)
	 */
	SBAT_BOOT_GATE_BOOTMGR_SVN,
} sbat_boot_gate;

/* The check shim makes on what a stage starts (verify_sbat_section's in_protocol, and how it gets there). */
typedef enum sbat_boot_rule {
	SBAT_BOOT_RULE_NONE = 0,
	SBAT_BOOT_RULE_SHIM_STARTS,    /* shim starts it itself: a .sbat is required */
	SBAT_BOOT_RULE_FALLBACK,       /* the same, shim's fallback run from the removable-media path */
	SBAT_BOOT_RULE_LOADIMAGE_HOOK, /* systemd-boot's LoadImage, which shim hooks: a missing .sbat passes */
	SBAT_BOOT_RULE_SHIM_LOCK,      /* GRUB's shim_lock verifier: a missing .sbat passes */
	SBAT_BOOT_RULE_SHIM_LOADER,    /* GRUB through shim's image loader protocol: a missing .sbat passes */
} sbat_boot_rule;

/* The loader whose menu stage 3 read. */
typedef enum sbat_boot_loader {
	SBAT_BOOT_LOADER_NONE = 0,
	SBAT_BOOT_LOADER_SDBOOT, /* systemd-boot */
	SBAT_BOOT_LOADER_GRUB,
} sbat_boot_loader;

/* How a file that was not found was looked for (miss says what was found). */
typedef enum sbat_boot_lookup {
	SBAT_BOOT_LOOKUP_NONE = 0,
	SBAT_BOOT_LOOKUP_PATH, /* sbat_partition_resolve */
	SBAT_BOOT_LOOKUP_UEFI, /* sbat_partition_resolve_uefi: as the firmware's FAT driver opens File() nodes */
} sbat_boot_lookup;

/* What did not read, so that the signature gate is not known. */
typedef enum sbat_boot_sig_unread {
	SBAT_BOOT_SIG_READ = 0,
	SBAT_BOOT_SIG_UNREAD_DB,          /* db or dbx */
	SBAT_BOOT_SIG_UNREAD_MOK,         /* MokListRT */
	SBAT_BOOT_SIG_UNREAD_MOKX,        /* MokListXRT */
	SBAT_BOOT_SIG_UNREAD_VENDOR_CERT, /* shim's .vendor_cert */
	SBAT_BOOT_SIG_UNREAD_IMAGE,       /* the image's certificate table or hash (signature_diag) */
} sbat_boot_sig_unread;

/* What chose GRUB's default entry, or why none starts by itself (default_value, default_setting, default_line). */
typedef enum sbat_boot_grub_by {
	SBAT_BOOT_GRUB_BY_NONE = 0,      /* GRUB's menu is not known */
	SBAT_BOOT_GRUB_BY_NO_TIMEOUT,    /* none: no timeout is set, the menu waits */
	SBAT_BOOT_GRUB_BY_TIMEOUT_WAITS, /* none: a timeout (default_setting) that waits */
	SBAT_BOOT_GRUB_BY_NEXT_ENTRY,    /* grubenv's next_entry (default_value) */
	SBAT_BOOT_GRUB_BY_SAVED_ENTRY,   /* grubenv's saved_entry (default_value), set default=default_setting */
	SBAT_BOOT_GRUB_BY_NO_SAVED,      /* set default=default_setting, and grubenv has no saved_entry */
	SBAT_BOOT_GRUB_BY_VARIABLE,      /* not known: set default=default_setting uses a variable */
	SBAT_BOOT_GRUB_BY_SET_DEFAULT,   /* set default=default_setting */
	SBAT_BOOT_GRUB_BY_NOT_SET,       /* no default is set */
	SBAT_BOOT_GRUB_BY_NO_ENTRIES,    /* none: the menu has no entries */
	SBAT_BOOT_GRUB_BY_CONDITIONAL,   /* not known: the entry, or one before it, is inside an if or a loop */
} sbat_boot_grub_by;

/* default_flags */
#define SBAT_BOOT_DEFAULT_NAMES_NONE 1 /* GRUB: the default names no entry, GRUB takes the first */
#define SBAT_BOOT_DEFAULT_FIRST 2      /* GRUB: no default value: the first entry */
#define SBAT_BOOT_DEFAULT_CONF 4       /* systemd-boot: loader.conf has a default (that matched none) */

/* Why a menu line (reason SBAT_BOOT_MENU) cannot be followed, or is left out. */
typedef enum sbat_boot_menu_why {
	SBAT_BOOT_MENU_NONE = 0,
	SBAT_BOOT_MENU_LEFT_OUT,      /* systemd-boot leaves the entry out: sdboot_out, menu_file, menu_word */
	SBAT_BOOT_MENU_NOT_FOUND,     /* menu_path is not found (miss) */
	SBAT_BOOT_MENU_OUTSIDE_BOOT,  /* menu_path is outside menu_file, the directory --boot names */
	SBAT_BOOT_MENU_NOT_MOUNTED,   /* the file system with UUID menu_word is not mounted */
	SBAT_BOOT_MENU_OUTSIDE_MOUNT, /* menu_path is outside the part of file system menu_word mounted at menu_file */
	SBAT_BOOT_MENU_CONDITIONAL,   /* the entry is inside an if or a loop (menu_file:menu_line) */
	SBAT_BOOT_MENU_COMMAND,       /* menu_word (linux, chainloader) menu_text (menu_file:menu_line) */
	SBAT_BOOT_MENU_NEXT_COMMAND,  /* menu_word (configfile, source) menu_text (menu_file:menu_line) */
	SBAT_BOOT_MENU_NO_ENTRIES,    /* menu_file: no menu entry starts a kernel or an EFI program */
	SBAT_BOOT_MENU_LOOP,          /* menu_file is read again */
	SBAT_BOOT_MENU_NO_CONFIG,     /* no grub.cfg next to GRUB (miss) */
	SBAT_BOOT_MENU_UNREADABLE,    /* the configuration cannot be read (a note says why) */
	SBAT_BOOT_MENU_TOO_DEEP,      /* configfile and source nested too deep */
	SBAT_BOOT_MENU_OVER_LIMIT,    /* systemd-boot: over entries more than the limit read on a partition */
	SBAT_BOOT_MENU_EMPTY,         /* systemd-boot finds no entries */
	SBAT_BOOT_MENU_IN_MEMDISK,    /* menu_path is a file in GRUB's memdisk: not followed */
	SBAT_BOOT_MENU_MEMDISK_UNREADABLE, /* GRUB's memdisk does not read: diag */
	SBAT_BOOT_MENU_NOT_IN_MEMDISK,     /* the configuration is not in GRUB's memdisk */
	SBAT_BOOT_MENU_NO_MEMDISK,         /* the configuration names GRUB's memdisk, and GRUB has none */
	SBAT_BOOT_MENU_NO_PREFIX, /* normal mode reads $prefix/grub.cfg; $prefix is not known (menu_text, or not set) */
	SBAT_BOOT_MENU_PREFIX_DEVICE,     /* GRUB's prefix menu_word names a device by the firmware's disk numbering */
	SBAT_BOOT_MENU_PREFIX_NO_MEMDISK, /* GRUB's prefix menu_word names (memdisk), and GRUB has none */
	SBAT_BOOT_MENU_MODS_UNREADABLE,   /* GRUB's mods section does not read: diag (its offset in the section) */
} sbat_boot_menu_why;

/*
 * One stage of one boot path. Stage 0 is the boot entry itself, 1 what the
 * firmware starts, 2 what shim starts, 3 what the loader shim started
 * starts. A stage handed to sbat_boot_report_add is copied (its strings
 * too); one read back with sbat_boot_report_stage belongs to the report.
 * Strings may be NULL where they do not apply. Fields are added at the
 * end only, and a caller never uses sizeof on it: sbat_boot_stage_init
 * zeroes one and stamps its size.
 *
 * A stage is a record: its verdict, the gate that decided it, its reason,
 * and the facts behind them; the library writes no sentence. Strings are
 * data (file names, menu titles, a certificate's subject, datestamps).
 */
typedef struct sbat_boot_stage {
	size_t size;          /* set by sbat_boot_stage_init */
	const char *entry;    /* the path's name: "Boot0003 debian", "BootNext", "removable media" */
	int is_default;       /* on the path the firmware takes when nobody touches the keyboard */
	int off_default;      /* a stage-3 line for a menu entry other than the one started by default */
	int stage;            /* 0 to 3, as above */
	const char *file;     /* the file the stage starts, as the firmware or loader names it (NULL: file_embedded) */
	sbat_verdict verdict; /* what it comes to */
	sbat_boot_gate gate;  /* the check that decided */
	sbat_boot_reason reason;
	/* the file */
	const char *host;        /* the file opened on this machine, or NULL */
	const char *root;        /* the directory a lookup of it started from (the ESP's mount point), or NULL */
	sbat_boot_lookup lookup; /* a file not found: how it was looked for */
	int miss;                /* and the sbat_partition_miss */
	int opens_root;          /* a File() path that opens the root directory (miss SBAT_PARTITION_IS_DIRECTORY) */
	sbat_diag diag;          /* what did not read or parse (UNREADABLE, LOAD_OPTIONS, an SBAT check) */
	/* the firmware's options */
	const char *partition;      /* PARTITION_UNKNOWN: the GUID the option names ("" none); FILE_ONLY: another */
	const char *esp_partition;  /* PARTITION_UNKNOWN: --esp's partition GUID, when known */
	const char *removable;      /* NO_OPTIONS: the removable-media path the firmware looks for */
	int boot_current;           /* DEVICE: the Boot#### this boot came from, ahead of which it is; else -1 */
	const char *default_loader; /* DEFAULT_LOADER: the loader shim starts instead */
	int fallback;               /* FALLBACK: the sbat_fallback_result */
	/* shim */
	int shim_enforces;      /* SHIM_GOES_ON, POLICY_WAITS: the next boot enforces the SbatLevel (Secure Boot on) */
	int shim_next;          /* judged as the shim given to next:SHIM */
	const char *shim_level; /* SHIM_GOES_ON, POLICY_WAITS, SHIM_STOPS_REVOKED: the SbatLevel's datestamp */
	/* shim's check of the image */
	int judge_reason;       /* the sbat_judge_reason; -1 when none ran */
	const char *revoked;    /* a refusal by a revoked row: the image's row, "grub,3" */
	const char *revoked_by; /* and the level's row that revokes it, "grub,4" */
	const char *level;      /* the SbatLevel's datestamp the image (or shim) was judged by */
	const char *explain;    /* what put revoked_by there (sbat_walk_opts.explain), or NULL */
	int latest_pending;     /* SbatPolicy latest is pending, and shim's automatic level would let it boot */
	/* the signature gate, with signatures judged */
	int signature_judged;                  /* the gate ran (its verdict below) */
	sbat_verdict signature_verdict;        /* BOOTS (accepted), REFUSED or UNKNOWN */
	int signature_reason;                  /* the sbat_sigverify_reason; -1 when the check did not run */
	int signature_rule;                    /* the sbat_sigverify_rule: the firmware's or shim's */
	int signature_db;                      /* the sbat_sigverify_db that decided */
	const char *signature_subject;         /* the deciding certificate's subject, or NULL */
	int signature_sha1;                    /* decided by the image's SHA-1 */
	int signature_several;                 /* the image has more than one signature */
	int signature_by_sig;                  /* a signature decided (not a hash) */
	sbat_boot_sig_unread signature_unread; /* what did not read, so that the gate is not known */
	sbat_diag signature_diag;              /* SBAT_BOOT_SIG_UNREAD_IMAGE: why */
	/* stage 3 */
	sbat_boot_loader loader;
	const char *menu_entry;    /* the menu entry the file is for ("entry debian.conf", "menuentry 'Debian'"); NULL:
	                           the loader's own files */
	unsigned more_entries;     /* further entries that start the same file */
	int default_entry;         /* the entry started when nobody touches the keyboard */
	int sdboot_by;             /* systemd-boot: the sbat_sdboot_by that chose the default entry; -1: not read */
	sbat_boot_grub_by grub_by; /* GRUB: the same */
	const char *default_value; /* the entry's name, id or pattern that chose it */
	const char *default_setting; /* GRUB: what `set default=` or `set timeout=` says */
	unsigned default_line;       /* the line of that setting */
	int default_flags;           /* SBAT_BOOT_DEFAULT_* */
	sbat_boot_rule rule;         /* the check shim makes on it; NONE: none ran */
	const char *config;          /* FILE:LINE the entry comes from */
	sbat_boot_menu_why menu_why; /* reason MENU: why */
	const char *menu_path;       /* the file the menu names */
	const char *menu_file;       /* a configuration file, or a directory */
	const char *menu_word;       /* a command, a UUID, an architecture */
	const char *menu_text;       /* the parser's words (sbat_grub_file.why) */
	const char *menu_arch;       /* systemd-boot's own architecture */
	unsigned menu_line;
	int sdboot_out;          /* LEFT_OUT: the sbat_sdboot_out */
	unsigned sdboot_rules;   /* LEFT_OUT: the systemd-boot version whose rules apply */
	size_t over, limit;      /* OVER_LIMIT: how many more than the limit */
	const char *missing;     /* a file the entry needs that is not there (an initrd), as the entry names it */
	const char *missing_key; /* systemd-boot: the key that names it ("initrd"); NULL for GRUB */
	int missing_miss;        /* the sbat_partition_miss */
	/* shim (stage 1): a revocations file beside it that it does not read (sbat_next_state.revocations_ignored) */
	const char *revocations_ignored;
	int file_embedded; /* stage 3: what GRUB reads is built into its image (its embedded configuration, its
	                            prefix), which has no file name: file is NULL */
	/*
	 * shim (stage 1): what shim makes of the signature of the revocations
	 * file it reads (sbat_next_state.revocations_sig, an sbat_next_rev_sig;
	 * 0: no file), that file, the sbat_sigverify_reason, and what did not
	 * read when it is not known
	 */
	int revocations_signature;
	const char *revocations_file;
	int revocations_sig_reason;
	const char *revocations_sig_unread;
	/*
	 * The signature gate, when it accepted the image: what the check
	 * measures into PCR 7 as the data of its EV_EFI_VARIABLE_AUTHORITY
	 * (after the UEFI_VARIABLE_DATA's name): the EFI_SIGNATURE_DATA of the
	 * entry that allowed it (owner GUID, then the certificate or hash), or
	 * shim's built-in certificate (DER); NULL when none is measured or it is
	 * not known. image_sha256: the image's Authenticode SHA-256, what the
	 * firmware and shim measure into PCR 4 for it (image_sha256_known).
	 */
	const uint8_t *signature_authority;
	size_t signature_authority_len;
	int image_sha256_known;
	uint8_t image_sha256[32];
	/*
	 * shim (SHIM_GOES_ON, POLICY_WAITS): the SbatLevel variable as that
	 * boot leaves it once shim's writes are done (sbat_next_boot.stored),
	 * the data shim then measures into PCR 7 and mirrors to SbatLevelRT;
	 * NULL when there is none, or it holds a NUL byte.
	 */
	const char *shim_stored;
	/*
	 * Stage 1, signatures judged, Secure Boot on, dbx holding an SVN entry
	 * for the Windows boot manager (sbat_sigdb_svn_floor): svn_judged when
	 * the image is named bootmgfw.efi or carries the boot manager's SVN
	 * (its RT_RCDATA resource BOOTMGRSECURITYVERSIONNUMBER). The floor,
	 * the highest of those entries; the image's SVN when svn_read, else
	 * why it is not read: svn_diag (its code SBAT_OK: the image carries
	 * no such resource). Below the floor the boot manager stops itself:
	 * reason BOOTMGR_SVN, gate BOOTMGR_SVN.
	 */
	int svn_judged;
	int svn_read;
	unsigned svn_major, svn_minor;
	unsigned svn_floor_major, svn_floor_minor;
	sbat_diag svn_diag;
	/*
	 * The signature gate decided by an image hash (hash-allowed,
	 * hash-forbidden): the sbat_digest_alg of that hash (SHA-1, SHA-256,
	 * SHA-384, SHA-512); 0 otherwise
	 */
	int signature_hash_alg;
} sbat_boot_stage;

/* Zero *s and set its size (judge_reason, signature_reason and boot_current -1): call it before filling a stage. */
SBAT_API void sbat_boot_stage_init(sbat_boot_stage *s);

/* signature of sbat_boot_report_decide: the signature gate did not run */
#define SBAT_BOOT_NOT_JUDGED (-1)

/*
 * The one rule that decides a stage from its gates, as the walk and
 * --check-level apply it. sbat is what the stage comes to before the
 * signature gate, and gate what gave it: SBAT_BOOT_GATE_SBAT for shim's
 * check of an image's .sbat (sbat_judgement.verdict, or a level checked
 * against rows), else the stage's own (shim's line, a file not found).
 * shim is shim's state in the boot judged: with an SBAT check, Secure Boot
 * off and shim's insecure mode boot (no SBAT is checked), shim stopping
 * refuses, a state not known is unknown, each decided by
 * SBAT_BOOT_GATE_SHIM. signature is the
 * signature gate's sbat_verdict, or SBAT_BOOT_NOT_JUDGED: a refused
 * signature refuses the stage, one not known makes a stage not refused
 * unknown, each decided by SBAT_BOOT_GATE_SIGNATURE; an accepted one
 * leaves the verdict as it was. Returns the verdict; *ret_gate the gate
 * that decided it.
 */
SBAT_API sbat_verdict sbat_boot_report_decide(sbat_verdict sbat, sbat_boot_gate gate, sbat_judge_shim shim,
                                              int signature, sbat_boot_gate *ret_gate);

/* What the report adds up to. Fixed for the life of the soname. */
typedef struct sbat_boot_outcome {
	size_t n_stages;
	int default_unknown; /* a stage on the default path could not be followed */
	int other_unknown;   /* one on another path could not */
	int default_refused; /* a stage on the default path is refused */
	int other_refused;   /* one on another path is */
	int no_variables;    /* sbat_walk_next_boot: no UEFI variables, so no path is known */
	int failed; /* sbat_walk_next_boot stopped: BootOrder, BootNext or BootCurrent does not read (a note says why) */
} sbat_boot_outcome;

/* What a note of the report is. */
typedef enum sbat_boot_note_kind {
	SBAT_BOOT_NOTE_ASSUMED =
	    0,                  /* something taken as given, or not known, that the stages rest on: show it with them */
	SBAT_BOOT_NOTE_VERBOSE, /* what the files read hold (a loader's menu, its rule): on request */
	SBAT_BOOT_NOTE_CONFIG,  /* a line of a loader's file (file, line) that the loader ignores or cannot read */
	SBAT_BOOT_NOTE_ERROR,   /* a file or variable (file) that does not read: diag, or what */
} sbat_boot_note_kind;

/* What a note says (with its fields), when it is a record. */
typedef enum sbat_boot_note_what {
	SBAT_BOOT_NOTE_DIAG = 0,      /* ERROR: diag says it */
	SBAT_BOOT_NOTE_DEFAULT_ENTRY, /* what chose the default entry of loader's menu: sdboot_by or grub_by, default_* */
	/* ASSUMED */
	SBAT_BOOT_NOTE_REMOVABLE_GUESSED, /* the removable-media path is this build's machine's: --esp tells none */
	SBAT_BOOT_NOTE_REMOVABLE_NO_ESP,  /* the same, without --esp */
	SBAT_BOOT_NOTE_FILE_ONLY_ESP, /* file (--esp) taken as the one file system searched for a path of File() alone */
	SBAT_BOOT_NOTE_ESP_PARTITION,       /* file (--esp) taken as partition, the options' HD() */
	SBAT_BOOT_NOTE_NO_BOOT_ORDER,       /* no BootOrder, no BootNext: the removable-media path taken as --esp's */
	SBAT_BOOT_NOTE_NOT_JUDGED,          /* signatures are not judged: each verdict is the SBAT gate's */
	SBAT_BOOT_NOTE_SIGNATURES_VERIFIED, /* every RSA signature is verified; certificate expiry is not checked */
	SBAT_BOOT_NOTE_PENDING, /* pending (a file) appended to variable: count new entries, check how; unread: none
	                           reads it */
	SBAT_BOOT_NOTE_DB,      /* db: count certificates (subjects), hashes, others */
	SBAT_BOOT_NOTE_DBX,     /* dbx: the same */
	SBAT_BOOT_NOTE_SHIM_RULES_ASSUMED, /* file (a shim) names release shim_major.shim_minor, older than every
	                                      release modelled: rules_major.rules_minor's rules are applied */
	/* VERBOSE */
	SBAT_BOOT_NOTE_RULE, /* the rule shim applies to what loader starts (rule) */
	/* the files loader's menu was read from: systemd-boot's conf_*, listed, left_out, xbootldr; GRUB's chain */
	SBAT_BOOT_NOTE_MENU_FILES,
	/* ERROR, about file */
	SBAT_BOOT_NOTE_NO_VARIABLES,     /* no UEFI variables there */
	SBAT_BOOT_NOTE_NO_SECURE_BOOT,   /* no SecureBoot variable there */
	SBAT_BOOT_NOTE_PENDING_VARIABLE, /* a pending update of a variable other than db, dbx, KEK, PK, MokList,
	                                    MokListX */
	SBAT_BOOT_NOTE_OUT_OF_MEMORY,    /* it could not be read: out of memory */
	SBAT_BOOT_NOTE_DIR_UNREADABLE,   /* the directory cannot be read */
	SBAT_BOOT_NOTE_MORE_LINES,       /* count more lines of it that are not followed */
	SBAT_BOOT_NOTE_MORE_NOTES,       /* count more notes on the loader's files, not shown */
	/* CONFIG, a line of file */
	SBAT_BOOT_NOTE_LINE,            /* the loader ignores it or stops at it: diag.what */
	SBAT_BOOT_NOTE_SPECIAL_DEFAULT, /* systemd-boot: a special entry other than @saved, which it ignores */
	SBAT_BOOT_NOTE_BAD_TIMEOUT,     /* systemd-boot: a timeout it cannot read */
	/* ASSUMED, about file (shim's MokSB variable): a request MokManager confirms at the next boot, not applied */
	SBAT_BOOT_NOTE_MOK_SB_DISABLE_PENDING, /* mokutil --disable-validation (MokSB state 0) */
	SBAT_BOOT_NOTE_MOK_SB_ENABLE_PENDING,  /* mokutil --enable-validation (MokSB state 1) */
	/* ASSUMED, about file (shim's MokDB variable, of MokSB's layout): not applied until MokManager confirms it */
	SBAT_BOOT_NOTE_MOK_DB_IGNORE_PENDING, /* mokutil --ignore-db (MokDB state 0) */
	SBAT_BOOT_NOTE_MOK_DB_USE_PENDING,    /* mokutil --use-db (MokDB state 1) */
} sbat_boot_note_what;

/* At most this many SVN entries read into a note (DB, DBX, PENDING). */
#define SBAT_BOOT_NOTE_SVN_MAX 8

/* At most this many configurations of GRUB's chain in a note (MENU_FILES). */
#define SBAT_BOOT_NOTE_CHAIN_MAX 6

/*
 * How the firmware takes a pending update's write (a PENDING note's
 * `check`), as EDK2's AuthVariableLib checks it in user mode. Values are
 * ABI: new ones go at the end.
 */
typedef enum sbat_boot_pending {
	SBAT_BOOT_PENDING_PLAIN = 0,     /* appended as given: signature lists without authentication, MokList, MokListX
	                                (PK: in place of it) */
	SBAT_BOOT_PENDING_BY_KEK,        /* appended: it verifies under `key`, a certificate of KEK */
	SBAT_BOOT_PENDING_BY_PK,         /* appended (PK: replaced; deleted when `count` is 0): signed by `key`, the
	                                    PK */
	SBAT_BOOT_PENDING_SETUP_MODE,    /* appended: the machine is in setup mode (no PK), nothing is checked */
	SBAT_BOOT_PENDING_NOT_SIGNED,    /* not applied: not signed by the PK, nor (db, dbx) under a KEK certificate */
	SBAT_BOOT_PENDING_BAD_SIGNATURE, /* not applied: its signature does not verify over the variable's name, GUID,
	                                    attributes, timestamp and lists */
	SBAT_BOOT_PENDING_NO_SIGNER,     /* not applied: its signer's certificate is not in its SignedData */
	SBAT_BOOT_PENDING_BAD_TIME,      /* not applied: its timestamp's Pad1, Nanosecond, TimeZone, Daylight or Pad2 */
	SBAT_BOOT_PENDING_NOT_SHA256,    /* not applied: no SHA-256 where the firmware reads the digest algorithm */
	SBAT_BOOT_PENDING_TOO_BIG,       /* not applied: a SignedData the firmware cannot wrap (over 65520 bytes) */
	SBAT_BOOT_PENDING_CHAIN_BAD_SIGNATURE, /* not applied: it meets `key`, a signature on the way does not verify */
	SBAT_BOOT_PENDING_CHAIN_NOT_CA,        /* not applied: it meets `key` through an issuer that is not a CA */
	SBAT_BOOT_PENDING_UNKNOWN_TYPE,        /* not applied: a list of a type the firmware does not know */
	SBAT_BOOT_PENDING_BAD_CERT, /* not applied: an EFI_CERT_X509 entry that is no certificate with an RSA key */
	SBAT_BOOT_PENDING_SEVERAL_SIGNERS, /* not applied: more than one SignerInfo, not checked */
	SBAT_BOOT_PENDING_DIR_NONE,        /* a directory: none of its `candidates` updates is taken */
	SBAT_BOOT_PENDING_DIR_SETUP_MODE,  /* a directory, in setup mode: any would be taken; none is applied */
	SBAT_BOOT_PENDING_PK_SEVERAL,      /* not applied: a PK update of more than one signature */
} sbat_boot_pending;

/*
 * A note made while walking, kept apart from the stages. Library-allocated
 * and read only; fields are added at the end. One handed to
 * sbat_boot_report_add_note is made by sbat_boot_note_init and copied (its
 * strings too).
 */
typedef struct sbat_boot_note {
	size_t size; /* set by sbat_boot_note_init */
	sbat_boot_note_kind kind;
	size_t before;    /* the number of stages added before it: where it goes among them */
	const char *path; /* the stage's entry it is about, or NULL */
	const char *file; /* the file or variable it is about, or NULL */
	unsigned line;    /* CONFIG: the line, 1-based */
	sbat_diag diag;   /* ERROR (what DIAG): what failed */
	sbat_boot_note_what what;
	/* DEFAULT_ENTRY: as a stage-3 line's fields of the same names */
	sbat_boot_loader loader;
	int sdboot_by;             /* systemd-boot: the sbat_sdboot_by; -1: its menu did not read */
	sbat_boot_grub_by grub_by; /* GRUB */
	const char *default_value;
	const char *default_setting;
	unsigned default_line;
	int default_flags;
	const char *partition; /* ESP_PARTITION: the GUID */
	const char *pending;   /* PENDING: the update's file */
	const char *variable;  /* PENDING: the variable it goes to */
	int unread;            /* PENDING: no verdict reads that variable (KEK) */
	size_t count;          /* PENDING: new entries; DB, DBX: certificates; MORE_*: how many */
	size_t hashes, others; /* DB, DBX: image hashes (SVN entries apart: svns), other entries */
	const char *subjects;  /* DB, DBX: the certificates' common names, "; " between them */
	sbat_boot_rule rule;   /* RULE */
	/*
	 * PENDING: how the firmware takes the write; the certificate it is
	 * signed by or meets (BY_*, CHAIN_*); for a directory given as
	 * `pending`, the update of it applied (NULL: none) and how many of
	 * its updates were tried (in name order, up to the one applied).
	 */
	sbat_boot_pending check;
	const char *key;
	const char *picked;
	size_t candidates;
	unsigned shim_major, shim_minor;   /* SHIM_RULES_ASSUMED: the release the shim names */
	unsigned rules_major, rules_minor; /* and the release whose rules are applied */
	/* MENU_FILES, systemd-boot */
	const char *conf_file;      /* loader.conf on this machine; NULL: none */
	const char *conf_default;   /* its default; NULL: none */
	unsigned conf_default_line; /* and its line */
	size_t listed, left_out;    /* the entries in the menu, and those left out */
	const char *xbootldr;       /* the XBOOTLDR directory read; NULL: none */
	/* MENU_FILES, GRUB: the configurations read, in order (each hands over to the next) */
	size_t n_chain;                                   /* 0: GRUB's image does not say which */
	const char *chain[SBAT_BOOT_NOTE_CHAIN_MAX];      /* as GRUB names it ("(UUID)/boot/grub/grub.cfg",
	                                                     "(memdisk)/grub.cfg"); NULL: its embedded configuration */
	const char *chain_host[SBAT_BOOT_NOTE_CHAIN_MAX]; /* the file on this machine, or NULL (memdisk, embedded, not
	                                                     found) */
	int chain_on_esp; /* chain[0] is the grub.cfg next to GRUB (its image names no prefix), named by its path on
	                     the ESP as the firmware names a file */
	/*
	 * DB, DBX: Microsoft's SVN entries (sbat_sigdb_svn_read), counted apart
	 * from the image hashes; PENDING: those among the new entries. The
	 * first SBAT_BOOT_NOTE_SVN_MAX of them, read, in svn.
	 */
	size_t svns;
	sbat_sigdb_svn svn[SBAT_BOOT_NOTE_SVN_MAX];
} sbat_boot_note;

/* Zero *n and set its size (sdboot_by -1): call it before filling a note for sbat_boot_report_add_note. */
SBAT_API void sbat_boot_note_init(sbat_boot_note *n);

/* The stages of every path walked, in order: opaque, library-allocated. */
typedef struct sbat_boot_report sbat_boot_report;

SBAT_API sbat_err sbat_boot_report_new(sbat_boot_report **ret, sbat_diag *reterr);

/*
 * Copy s to the end of the report. An UNKNOWN stage marks its path: the
 * default one (is_default and not off_default) or another. SBAT_E_ABI for
 * a stage not made by sbat_boot_stage_init; SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_boot_report_add(sbat_boot_report *r, const sbat_boot_stage *s, sbat_diag *reterr);

SBAT_API size_t sbat_boot_report_count(const sbat_boot_report *r);

/* Stage i (0-based) as added, or NULL past the end. */
SBAT_API const sbat_boot_stage *sbat_boot_report_stage(const sbat_boot_report *r, size_t i);

SBAT_API sbat_boot_outcome sbat_boot_report_outcome(const sbat_boot_report *r);

/*
 * Add a note (copied, strings too) at the report's current place: one of
 * what DIAG, that d says (d may be NULL). SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_boot_report_note(sbat_boot_report *r, sbat_boot_note_kind kind, const char *path,
                                        const char *file, unsigned line, const sbat_diag *d, sbat_diag *reterr);

/*
 * Copy note n (made by sbat_boot_note_init; its before is ignored) to the
 * report's current place. SBAT_E_ABI, SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_boot_report_add_note(sbat_boot_report *r, const sbat_boot_note *n, sbat_diag *reterr);

SBAT_API size_t sbat_boot_report_note_count(const sbat_boot_report *r);

/* Note i (0-based), or NULL past the end. */
SBAT_API const sbat_boot_note *sbat_boot_report_note_at(const sbat_boot_report *r, size_t i);

/* Short words for the enums, for JSON: "judged", "not-shim", ...; "assumed", "verbose", ... */
SBAT_API const char *sbat_boot_report_reason_name(sbat_boot_reason reason);
SBAT_API const char *sbat_boot_report_note_kind_name(sbat_boot_note_kind kind);

/* NULL-safe. */
SBAT_API void sbat_boot_report_free(sbat_boot_report *r);

#ifdef __cplusplus
}
#endif

#endif
