/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* boot_stage.h - what the stages of a boot path share: the walk, files on a partition, images, verdict lines */
#ifndef SBAT_CLI_BOOT_STAGE_H
#define SBAT_CLI_BOOT_STAGE_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/sbat.h"

#include "next_level.h"
#include "options.h"

#define CLI_PATH_MAX 4096

/* What one stage comes to. */
enum stage_verdict {
	STAGE_BOOTS,        /* the check that applies passes (or none applies) */
	STAGE_NOT_GOVERNED, /* not started through shim: SBAT does not apply */
	STAGE_UNKNOWN,      /* cannot be followed from the files */
	STAGE_REFUSED,      /* shim refuses it */
};

typedef struct walk {
	const cli_opts *o;
	const char *efivarfs;
	sbat_boot_report *report; /* every line, as data */
	int report_failed;        /* a line could not be kept: out of memory */
	int default_refused, other_refused;
	int other_entry;   /* the stage-3 line printed is not the menu's default entry */
	char esp_guid[40]; /* --esp's partition GUID, "" when not known */
	int esp_guid_done, esp_assumed, file_only_assumed;
	char other_esp[40]; /* a partition an option's HD() names that --esp is not (or a second one), "" when none */
	int in_fallback;    /* following the entry shim's fallback made */
	int n_paths;
	int default_taken; /* the path that boots when nobody touches the keyboard is known */
	int has_current;   /* BootCurrent is set: the option this boot came from */
	uint16_t current;
	int before_current; /* following BootOrder ahead of BootCurrent's option */
	size_t n_lines;     /* JSON objects printed */
} walk;

/* An image read from a partition. */
typedef struct image {
	uint8_t *buf;
	size_t len;
	sbat_image *img;
	sbat_judgement *read; /* its .sbat as shim reads it (judged by no level) */
	int is_shim;          /* carries .sbatlevel */
	uint16_t machine;
	sbat_diag d;
} image;

/* The last bytes of a stage-3 line and its JSON keys. */
typedef struct stage_extra {
	const char *loader;     /* "systemd-boot" or "grub" */
	const char *menu_entry; /* the entry it is for; NULL: the loader's configuration itself */
	unsigned more;          /* further entries that start the same file */
	int default_entry;      /* 1: the entry started when nobody touches the keyboard */
	const char *default_by; /* what chose the menu's default entry, or why no entry starts by itself */
	const char *rule;       /* "loadimage-hook", "shim-lock"; NULL: no check ran */
	const char *config;     /* FILE:LINE the entry comes from */
} stage_extra;

/* cli_resolve flags */
#define CLI_RESOLVE_DIR 1   /* the last component is a directory */
#define CLI_RESOLVE_EXACT 2 /* names match case-sensitively (not FAT) */

/*
 * The file (or directory) p names under root: components split at '\' or
 * '/', matched case-insensitively as FAT does unless CLI_RESOLVE_EXACT;
 * "." and ".." and symbolic links refused. A malloc'ed path, or NULL with
 * *why set. An empty p is root itself (with CLI_RESOLVE_DIR).
 */
char *cli_resolve(const char *root, const char *p, int flags, const char **why);

/* Why a lookup on a partition found nothing, as words after the file's name ("missing" for MISSING). */
const char *cli_partition_why(sbat_partition_miss miss);

/* Open and parse the image at path; -1 with im->d saying why (image_close it all the same). */
int cli_image_open(const char *path, image *im);
void cli_image_close(image *im);

/*
 * Judge im as shim 16.x does (sbat_judge_image) in the next boot:
 * in_protocol 0 (what shim starts itself) requires a .sbat, in_protocol 1
 * (its LoadImage hook, the shim_lock protocol) lets a missing one pass.
 * why gets the line's text from the verdict word on.
 */
enum stage_verdict cli_judge_image(const cli_next *n, const image *im, int in_protocol, char *why, size_t why_size);

/* The report's verdict for a stage's. */
sbat_verdict cli_verdict_of(enum stage_verdict v);

/*
 * One line of the report (stage 0: the entry itself): kept in w->report
 * with its verdict, and shown as text or a JSON object. text starts with
 * the verdict's word ("boots", "refused", "cannot be followed", ...); x
 * only for stage 3.
 */
void cli_stage_line(walk *w, const char *label, int is_default, int stage, const char *file, sbat_verdict verdict,
                    const char *text, const stage_extra *x);

/*
 * Stage 3: what the loader that shim started (stage 2, loader_path on esp,
 * already opened as *loader) starts next, when it is systemd-boot or GRUB.
 * Returns STAGE_REFUSED when the default entry's file is refused (or any,
 * when the default entry cannot be known); a refused file of another entry
 * sets w->other_refused.
 */
enum stage_verdict cli_follow_stage3(walk *w, const char *label, int is_default, const cli_next *next, const char *esp,
                                     const char *loader_path, const image *loader);

#endif
