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
} sbat_boot_stage;

/* Zero *s and set its size: call it before filling a stage to add. */
SBAT_API void sbat_boot_stage_init(sbat_boot_stage *s);

/* What the report adds up to. Fixed for the life of the soname. */
typedef struct sbat_boot_outcome {
	size_t n_stages;
	int default_unknown; /* a stage on the default path could not be followed */
	int other_unknown;   /* one on another path could not */
} sbat_boot_outcome;

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

/* NULL-safe. */
SBAT_API void sbat_boot_report_free(sbat_boot_report *r);

#ifdef __cplusplus
}
#endif

#endif
