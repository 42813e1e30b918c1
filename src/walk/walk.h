/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* walk.h - what the stages of a boot path share: the walk's state, images, files on a partition, report lines */
#ifndef SBAT_WALK_WALK_H
#define SBAT_WALK_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/input.h"
#include "sbat/judge.h"
#include "sbat/level.h"
#include "sbat/partition.h"
#include "sbat/sigdb.h"
#include "sbat/sigverify.h"
#include "sbat/walk.h"

#define WALK_PATH_MAX 4096

/* A variable larger than this is not one shim or the firmware sets. */
#define WALK_VAR_MAX_SIZE (SBAT_EFIVAR_ATTRIBUTES_SIZE + SBAT_LEVEL_MAX_SIZE)

/* shim's own keys (its .vendor_cert), for shim's rule on what it starts and checks. */
typedef struct walk_shim_keys {
	sbat_sigverify_opts o; /* vendor_db, vendor_dbx, vendor_cert set */
	sbat_sigdb *vdb, *vdbx;
	int unreadable; /* the section does not read: shim's rule is not known */
} walk_shim_keys;

typedef struct walk {
	const sbat_walk_opts *o;
	const char *efivarfs;
	sbat_boot_report *report; /* every line and note, as data */
	int report_failed;        /* a line could not be kept: out of memory */
	int other_entry;          /* the stage-3 line added is not the menu's default entry */
	char esp_guid[40];        /* the ESP's partition GUID, "" when not known */
	int esp_guid_done, esp_assumed, file_only_assumed;
	char other_esp[40]; /* a partition an option's HD() names that the ESP is not (or a second one), "" when none */
	int in_fallback;    /* following the entry shim's fallback made */
	int default_taken;  /* the path that boots when nobody touches the keyboard is known */
	int has_current;    /* BootCurrent is set: the option this boot came from */
	uint16_t current;
	int before_current;       /* following BootOrder ahead of BootCurrent's option */
	const char *removable;    /* the removable-media path of the firmware's machine (\EFI\BOOT\BOOTX64.EFI, ...) */
	int removable_guessed;    /* the machine is this build's: nothing told the firmware's (said once, when used) */
	struct walk_sigs *sigs;   /* the signature databases, when signatures are judged; else NULL */
	walk_shim_keys shim_keys; /* the keys of the shim of the path followed */
	int insecure;             /* MokSBStateRT (shim's mirror of MokSBState) is one nonzero byte: insecure mode */
} walk;

/* An image read from a partition. */
typedef struct image {
	sbat_mapped_file *map; /* the file, mapped: only the pages read are brought in */
	const uint8_t *buf;
	size_t len;
	sbat_image *img;
	sbat_judgement *read; /* its .sbat as shim reads it (judged by no level) */
	int is_shim;          /* carries .sbatlevel */
	uint16_t machine;
	sbat_diag d;
} image;

/* What shim's check of an image found, beyond the verdict. */
typedef struct judged {
	int judge_reason;     /* sbat_judge_reason; -1 when the check did not run */
	char revoked[600];    /* the image's revoked row, "" when none */
	char revoked_by[600]; /* the level's row that revokes it */
	char explain[400];    /* what put that row there (sbat_walk_opts.explain), "" when not known */
	int latest_pending;   /* SbatPolicy latest is pending, and shim's automatic level lets it boot */
	const char *level;    /* the datestamp judged by */
	sbat_diag diag;       /* the .sbat shim cannot use, or the check that did not run */
} judged;

/* A stage of the path followed: *st initialised with its place on it, for its facts to be filled in. */
void walk_stage(sbat_boot_stage *st, const char *label, int is_default, int stage, const char *file);

/* Add a stage made by walk_stage to the report. */
void walk_add(walk *w, sbat_boot_stage *st);

/* Add note n (made by sbat_boot_note_init) to the report. */
void walk_add_note(walk *w, const sbat_boot_note *n);

/* A note of kind that says what, of file (or NULL), with no other facts. */
void walk_fact(walk *w, sbat_boot_note_kind kind, const char *file, sbat_boot_note_what what);

/* A line of a loader's file (file:line) it ignores: what, or SBAT_BOOT_NOTE_LINE with the parser's words. */
void walk_config_note(walk *w, const char *file, unsigned line, sbat_boot_note_what what, const char *parser);

/* A file that does not read: d says why. */
void walk_error(walk *w, const char *file, const sbat_diag *d);

/* An error note of file that says what, with a count (MORE_LINES, MORE_NOTES). */
void walk_error_count(walk *w, const char *file, sbat_boot_note_what what, size_t count);

/* The file p names under root (sbat_partition_resolve with flags WALK_RESOLVE_*): a malloc'ed path, or NULL with *miss. */
char *walk_lookup(const char *root, const char *p, int flags, sbat_partition_miss *miss);

/* flags of walk_lookup */
#define WALK_RESOLVE_DIR 1   /* the last component is a directory */
#define WALK_RESOLVE_EXACT 2 /* names match case-sensitively (not FAT) */

/*
 * Open and parse the image at path, which a lookup under root returned: it
 * is read beneath root, one component at a time, never through a link
 * (root NULL: path as it is). -1 with im->d saying why (walk_image_close
 * it all the same).
 */
int walk_image_open(const char *root, const char *path, image *im);
void walk_image_close(image *im);

/* 1 when bytes needle[0..n) are anywhere in buf[0..len) (buf may be NULL). */
int walk_holds(const uint8_t *buf, size_t len, const void *needle, size_t n);

/* The file bytes of section `name` of im (what lies inside the file), *len of them; NULL when there is none. */
const uint8_t *walk_section_bytes(const image *im, const char *name, size_t *len);

/* 1 when section `name` of im holds needle (needle_len bytes) within its file data. */
int walk_section_has(const image *im, const char *name, const char *needle, size_t needle_len);

/*
 * st's verdict and deciding gate (sbat_boot_report_decide): v is what it
 * comes to before the signature gate, by gate, with shim in state shim;
 * the signature gate's verdict is st's own, when it ran.
 */
void walk_decide(sbat_boot_stage *st, sbat_verdict v, sbat_boot_gate gate, sbat_judge_shim shim);

/*
 * What shim does with what it starts and checks, in the state next: shim
 * 16.1 imports its MOK state after choosing the SbatLevel and checking
 * itself, so insecure mode (MokSBState) turns only an enforcing shim into
 * one that checks neither SBAT nor signatures.
 */
sbat_judge_shim walk_shim_state(const walk *w, sbat_judge_shim next);

#endif
