/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bootreport.h - what each stage of each boot path comes to, as data: the verdict decided, not read back from text */
#ifndef SBAT_BOOTREPORT_H
#define SBAT_BOOTREPORT_H

#include <stddef.h>

#include "api.h"
#include "error.h"
#include "judge.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a stage came to its verdict: what was decided, for programs (the stage's detail says it in English). */
typedef enum sbat_boot_reason {
	SBAT_BOOT_JUDGED = 0,         /* shim's check of the image decided: see judge_reason */
	SBAT_BOOT_NOT_SHIM,           /* the firmware starts an image that is no shim: not governed */
	SBAT_BOOT_SHIM_GOES_ON,       /* shim starts its next stage */
	SBAT_BOOT_SHIM_INPUTS,        /* shim's inputs (its file, the variables) do not read */
	SBAT_BOOT_SHIM_STOPS_REVOKED, /* the stored SbatLevel revokes shim itself: it stops the machine */
	SBAT_BOOT_SHIM_STOPS_LEVEL,   /* shim cannot parse the stored SbatLevel: it stops the machine */
	SBAT_BOOT_POLICY_WAITS,       /* SbatPolicy is invalid: shim waits for a key press */
	SBAT_BOOT_NOT_FOUND,          /* the file is not there (or a link, not a regular file, ...) */
	SBAT_BOOT_UNREADABLE,         /* the file is there but does not read or parse as an image */
	SBAT_BOOT_NO_START,           /* the firmware opens nothing there and goes on to the next option */
	SBAT_BOOT_PARTITION_UNKNOWN,  /* which partition holds the file is not known here */
	SBAT_BOOT_LOAD_OPTIONS,       /* shim's load options name no path it can open */
	SBAT_BOOT_FALLBACK,           /* shim's fallback makes no entry to start */
	SBAT_BOOT_LOADER_UNKNOWN,     /* the loader is neither systemd-boot nor GRUB: what it starts is not known */
	SBAT_BOOT_MENU,               /* the loader's menu says so (left out, not known, a missing file) */
	SBAT_BOOT_OVER_LIMIT,         /* more files than are judged for one loader */
	SBAT_BOOT_UKI_KERNEL,         /* the kernel inside a UKI's .linux decided */
	SBAT_BOOT_VARIABLE,           /* a Boot#### variable is missing or malformed */
	SBAT_BOOT_INACTIVE,           /* a boot option not marked active */
	SBAT_BOOT_APPLICATION,        /* not LOAD_OPTION_CATEGORY_BOOT: started from a menu only */
	SBAT_BOOT_NOT_A_FILE,         /* a network boot or a firmware application */
	SBAT_BOOT_NO_OPTIONS,         /* neither BootOrder nor BootNext: the firmware makes its own options */
	SBAT_BOOT_SIGNATURE,          /* the signature gate decided: see signature */
} sbat_boot_reason;

/*
 * One stage of one boot path. Stage 0 is the boot entry itself, 1 what the
 * firmware starts, 2 what shim starts, 3 what the loader shim started
 * starts. A stage handed to sbat_boot_report_add is copied (its strings
 * too); one read back with sbat_boot_report_stage belongs to the report.
 * Strings may be NULL where they do not apply. Fields are added at the
 * end only, and a caller never uses sizeof on it: sbat_boot_stage_init
 * zeroes one and stamps its size.
 */
typedef struct sbat_boot_stage {
	size_t size;            /* set by sbat_boot_stage_init */
	const char *entry;      /* the path's name: "Boot0003 debian", "BootNext", "removable media" */
	int is_default;         /* on the path the firmware takes when nobody touches the keyboard */
	int off_default;        /* a stage-3 line for a menu entry other than the one started by default */
	int stage;              /* 0 to 3, as above */
	const char *file;       /* the file the stage starts, as the firmware or loader names it */
	sbat_verdict verdict;   /* what it comes to */
	const char *detail;     /* why, for people (English); no verdict word in it */
	const char *text;       /* the whole line as the command shows it, verdict word first */
	const char *loader;     /* stage 3: "systemd-boot" or "grub" */
	const char *menu_entry; /* stage 3: the menu entry the file is for; NULL: the loader's own files */
	unsigned more_entries;  /* stage 3: further entries that start the same file */
	int default_entry;      /* stage 3: the entry started when nobody touches the keyboard */
	const char *default_by; /* stage 3: what chose the default entry, or why none starts by itself */
	const char *rule;       /* stage 3: the check shim makes on it ("loadimage-hook", "shim-lock") */
	const char *config;     /* stage 3: FILE:LINE the entry comes from */
	sbat_boot_reason reason;
	int judge_reason;               /* reason SBAT_BOOT_JUDGED or _UKI_KERNEL: the sbat_judge_reason; else -1 */
	const char *revoked;            /* a refusal by a revoked row: the image's row, "grub,3" */
	const char *revoked_by;         /* and the level's row that revokes it, "grub,4" */
	const char *level;              /* the SbatLevel's datestamp the image was judged by */
	const char *signature;          /* with signatures judged: what the signature gate found (English), else NULL */
	sbat_verdict signature_verdict; /* and its verdict: BOOTS (accepted), REFUSED or UNKNOWN */
} sbat_boot_stage;

/* Zero *s and set its size: call it before filling a stage to add. */
SBAT_API void sbat_boot_stage_init(sbat_boot_stage *s);

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
	SBAT_BOOT_NOTE_ERROR,   /* a file or variable (file) that does not read: diag, or text */
} sbat_boot_note_kind;

/*
 * A note made while walking, kept apart from the stages. Library-allocated
 * and read only; fields are added at the end.
 */
typedef struct sbat_boot_note {
	sbat_boot_note_kind kind;
	size_t before;    /* the number of stages added before it: where it goes among them */
	const char *path; /* the stage's entry it is about, or NULL */
	const char *file; /* the file or variable it is about, or NULL */
	unsigned line;    /* CONFIG: the line, 1-based */
	const char *text; /* what it says (English); NULL for an ERROR that diag says */
	sbat_diag diag;   /* ERROR: what failed (code SBAT_OK when text says it) */
} sbat_boot_note;

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
 * Add a note (copied, strings too) at the report's current place; d may be
 * NULL. SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_boot_report_note(sbat_boot_report *r, sbat_boot_note_kind kind, const char *path,
                                        const char *file, unsigned line, const char *text, const sbat_diag *d,
                                        sbat_diag *reterr);

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
