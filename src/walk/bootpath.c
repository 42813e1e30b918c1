/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bootpath.c - one boot path: what the firmware starts (stage 1), what shim starts (2), shim's fallback */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbat/boot.h"
#include "sbat/loadoption.h"
#include "sbat/shim.h"
#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/fallback.h"
#include "sbat/image.h"
#include "sbat/judge.h"
#include "sbat/nextstate.h"
#include "sbat/partition.h"

#include "walk/bootpath.h"
#include "walk/signatures.h"
#include "walk/stage3.h"
#include "walk/verdict.h"
#include "walk/walk.h"

/* 1 when s ends in ".efi", in any case. */
static int
ends_in_efi(const char *s)
{
	size_t n = strlen(s);

	return n > 4 && strcasecmp(s + n - 4, ".efi") == 0;
}

/* shim's is_removable_media_path: \EFI\BOOT\BOOT*.EFI, in any case, the leading backslash optional. */
static int
is_removable_path(const char *p)
{
	if (*p == '\\')
		p++;
	return strncasecmp(p, "EFI\\BOOT\\BOOT", 13) == 0 && ends_in_efi(p);
}

/*
 * What shim started from uefi_path starts: its FALLBACK when shim runs from
 * the removable-media path and the file is there (should_use_fallback),
 * else its second stage, from its load options as shim reads them.
 * Returns 1 for the fallback, 0 for the second stage, -1 when the load
 * options name nothing a path can hold (why says so).
 */
static int
next_stage_name(const char *esp, const char *uefi_path, const uint8_t *opt, size_t opt_len, uint16_t machine, char *out,
                size_t size, char *why, size_t why_size)
{
	const char *reason;
	sbat_shim_stage2 s2;
	sbat_diag d;
	char *fb, fallback[32];

	sbat_fallback_path(machine, fallback, sizeof(fallback));
	if (is_removable_path(uefi_path) && (fb = walk_resolve(esp, fallback, 0, &reason)) != NULL) {
		free(fb);
		snprintf(out, size, "%s", fallback);
		return 1;
	}
	if (sbat_shim_stage2_path(opt, opt_len, uefi_path, sbat_shim_default_loader(machine), &s2, &d) != SBAT_OK) {
		snprintf(why, why_size, "cannot be followed: shim's load options name no path it can open: %s%s",
		         d.what ? d.what : sbat_strerror(d.code), d.has_offset ? " in the optional data" : "");
		return -1;
	}
	snprintf(out, size, "%s", s2.path);
	return 0;
}

/* The text of the stage-2 line for an image that opened: the verdict and the rule. */
static enum stage_verdict
second_stage_text(walk *w, const sbat_next_state *next, const image *im, int is_fallback, char *why, size_t size,
                  judged *j)
{
	char text[1600];
	enum stage_verdict v = verdict_judge_image(w, next, im, 0, text, sizeof(text), j);

	v = signatures_gate(w, im, 1, v, text, sizeof(text));
	snprintf(why, size, "%s [shim starts it itself: .sbat required%s]", text,
	         is_fallback ? "; shim's fallback, run from the removable-media path: it makes boot entries "
	                       "from BOOT*.CSV and starts the first (or resets, with a TPM, and the firmware does)" :
	                       "");
	return v;
}

/*
 * What shim's fallback starts: the entry it makes from a BOOT CSV, now
 * (no TPM) or first after the reset (a TPM), as a path of its own.
 */
static enum stage_verdict
follow_fallback(walk *w, const char *label, int is_default, const char *esp, uint16_t machine)
{
	static const char *const whys[] = {
		[SBAT_FALLBACK_NO_CSV] =
		    "fallback finds no BOOT CSV in \\EFI's directories, so it makes no entry and resets",
		[SBAT_FALLBACK_UNREADABLE] =
		    "a BOOT CSV that cannot be read, or whose first line names no file and label",
		[SBAT_FALLBACK_SEVERAL] =
		    "more than one directory of \\EFI holds a BOOT CSV; which fallback reads first is "
		    "the order of the directory on disk",
	};
	char sub[SBAT_LOAD_OPTION_TEXT_MAX + 80], text[480];
	sbat_fallback_entry *e;
	sbat_fallback_result r;
	enum stage_verdict v;

	if (w->in_fallback) /* an entry that starts fallback again: it loops */
		return STAGE_UNKNOWN;
	if (!(e = malloc(sizeof(*e))))
		return STAGE_UNKNOWN;
	r = sbat_fallback_find(esp, machine, e);
	if (r != SBAT_FALLBACK_ENTRY) {
		snprintf(text, sizeof(text), "cannot be followed: %s", whys[r]);
		walk_line_why(w, label, is_default, 3, "\\EFI", SBAT_VERDICT_UNKNOWN, SBAT_BOOT_FALLBACK, text);
		free(e);
		return STAGE_UNKNOWN;
	}
	snprintf(sub, sizeof(sub), "%s, fallback's entry", label);
	w->in_fallback = 1;
	/* the entry is HD() and one File() node of that path: the firmware opens it as any option */
	v = bootpath_follow(w, sub, is_default, esp, e->path, e->path, 1, e->args_len ? e->args : NULL, e->args_len);
	w->in_fallback = 0;
	free(e);
	return v;
}

/* Why EDK2 opens no file at a File() path, and whether that is certain (below). */
static const char *uefi_miss_text(sbat_partition_miss m);
static int uefi_no_start(sbat_partition_miss m);

static enum stage_verdict judge_second_stage(walk *w, const char *label, int is_default, const sbat_next_state *next,
                                             const char *esp, const char *second, int is_fallback,
                                             const char *default_loader);

/*
 * A second stage that does not open: shim's init_grub starts its default
 * loader instead when start_image fails with EFI_NOT_FOUND or
 * EFI_INVALID_PARAMETER (a missing file, a name the firmware refuses), its
 * load options dropped. 0 when that does not apply.
 */
static int
falls_back(walk *w, const char *label, int is_default, const sbat_next_state *next, const char *esp, const char *second,
           sbat_partition_miss m, const char *default_loader, enum stage_verdict *v)
{
	char why[1400];

	if (!default_loader || !uefi_no_start(m) || strcasecmp(second, default_loader) == 0)
		return 0;
	snprintf(why, sizeof(why),
	         "skipped: %s under %s, so shim's start_image fails and shim starts its default loader %s instead",
	         uefi_miss_text(m), esp, default_loader);
	walk_line_why(w, label, is_default, 2, second, SBAT_VERDICT_SKIPPED, SBAT_BOOT_NOT_FOUND, why);
	*v = judge_second_stage(w, label, is_default, next, esp, default_loader, 0, NULL);
	return 1;
}

/*
 * Judge the image shim starts itself (stage 2), at `second` under esp,
 * opened as the firmware's FAT driver opens it, and, when shim lets it
 * start, what it starts next (stage 3). default_loader: where shim goes
 * when `second` does not open (NULL: nowhere).
 */
static enum stage_verdict
judge_second_stage(walk *w, const char *label, int is_default, const sbat_next_state *next, const char *esp,
                   const char *second, int is_fallback, const char *default_loader)
{
	char why[2400];
	char *file = NULL;
	sbat_partition_miss m = sbat_partition_resolve_uefi(esp, second, 1, &file);
	enum stage_verdict v = STAGE_UNKNOWN;
	stage_extra x;
	judged j;
	image im;

	if (!file && falls_back(w, label, is_default, next, esp, second, m, default_loader, &v))
		return v;
	memset(&im, 0, sizeof(im));
	memset(&x, 0, sizeof(x));
	x.reason = SBAT_BOOT_NOT_FOUND;
	if (!file) {
		snprintf(why, sizeof(why), "cannot be followed: %s under %s", uefi_miss_text(m), esp);
	} else if (walk_image_open(esp, file, &im) != 0) {
		x.reason = SBAT_BOOT_UNREADABLE;
		snprintf(why, sizeof(why), "cannot be followed: %s", im.d.what ? im.d.what : sbat_strerror(im.d.code));
	} else {
		v = second_stage_text(w, next, &im, is_fallback, why, sizeof(why), &j);
		x.reason = SBAT_BOOT_JUDGED;
		x.j = &j;
	}
	walk_line(w, label, is_default, 2, second, walk_verdict_of(v), why, &x);
	if (v == STAGE_BOOTS && !is_fallback &&
	    stage3_follow(w, label, is_default, next, esp, second, &im) == STAGE_REFUSED)
		v = STAGE_REFUSED;
	if (v == STAGE_BOOTS && is_fallback && follow_fallback(w, label, is_default, esp, im.machine) == STAGE_REFUSED)
		v = STAGE_REFUSED;
	walk_image_close(&im);
	free(file);
	return v;
}

/*
 * The verdict words of shim's stage: an SbatPolicy that is not 1, 2 or 3
 * makes shim show an error and wait for a key (sbat.c, console_error) before
 * it goes on, which an unattended machine never gets.
 */
static const char *
policy_wait_text(const sbat_next_state *next)
{
	if (next->boot[0].builtin.choice != SBAT_NEXT_CHOSE_INVALID)
		return "boots: ";
	return "cannot be followed: SbatPolicy is not 1, 2 or 3, so shim shows an error and waits for a key "
	       "press, which an unattended machine does not get; after one it goes on as ";
}

/* shim's inputs for the next boot in *next; -1 after a note saying why they are not known. */
static int
load_shim_state(walk *w, const char *file, sbat_next_state **next)
{
	char failed[WALK_PATH_MAX + 128];
	sbat_diag d;

	/* next:SHIM: the shim about to be installed decides, wherever a shim starts */
	if (sbat_next_state_load(w->efivarfs, w->o->shim ? w->o->shim : file, next, failed, sizeof(failed), &d) !=
	    SBAT_OK) {
		if (d.code == SBAT_E_NOMEM)
			w->report_failed = 1;
		else
			walk_error(w, failed[0] ? failed : file, &d);
		return -1;
	}
	if ((*next)->secure_boot_var < 0) {
		/* every UEFI 2.3.1 firmware has it: without it the variables are not this machine's */
		walk_error_text(w, (*next)->efivarfs,
		                "no SecureBoot variable: whether shim checks SBAT at the next boot is not known (the "
		                "machine was not booted through UEFI, or efivarfs is not mounted)");
		return -1;
	}
	return 0;
}

/*
 * The firmware's signature check of shim in shim's line: an accepted one
 * added in brackets; one not known makes the line not known, the SBAT
 * words in brackets (the path is followed on: what comes after is known).
 */
static void
signature_words(walk *w, char *why, size_t size, enum stage_verdict *v)
{
	char sbat[1200];

	if (w->sig_verdict == SBAT_VERDICT_BOOTS) {
		snprintf(why + strlen(why), size - strlen(why), " [signature accepted: %s]", w->sig_text);
		return;
	}
	snprintf(sbat, sizeof(sbat), "%s", why);
	snprintf(why, size, "cannot be followed: signature: %.500s [SBAT: %.600s]", w->sig_text, sbat);
	w->sig_decided = 1;
	*v = STAGE_UNKNOWN;
}

/* Judge shim itself (stage 1); 0 when it goes on to start its next stage. */
static int
judge_shim(walk *w, const char *label, int is_default, const char *file, const char *uefi_path, sbat_next_state **ret,
           enum stage_verdict *v)
{
	const sbat_next_state *next;
	char why[1200];

	*v = STAGE_REFUSED;
	if (load_shim_state(w, file, ret) != 0) {
		walk_line_why(w, label, is_default, 1, uefi_path, SBAT_VERDICT_UNKNOWN, SBAT_BOOT_SHIM_INPUTS,
		              "cannot be followed: shim's inputs do not read (see above)");
		*v = STAGE_UNKNOWN;
		return -1;
	}
	next = *ret;
	if (next->mode[0] == SBAT_NEXT_MODE_SHIM_STOPS && next->level[0]->n_entries == 0) {
		walk_line_why(w, label, is_default, 1, uefi_path, SBAT_VERDICT_REFUSED, SBAT_BOOT_SHIM_STOPS_LEVEL,
		              "refused: shim cannot parse the stored SbatLevel, so it stops the machine");
		return -1;
	}
	if (next->mode[0] == SBAT_NEXT_MODE_SHIM_STOPS) {
		snprintf(why, sizeof(why), "refused: shim, SbatLevel %s revokes shim itself, so it stops the machine",
		         next->level[0]->datestamp);
		walk_line_why(w, label, is_default, 1, uefi_path, SBAT_VERDICT_REFUSED, SBAT_BOOT_SHIM_STOPS_REVOKED,
		              why);
		return -1;
	}
	snprintf(why, sizeof(why), "%sshim%s, next boot enforces %s%s", policy_wait_text(next),
	         w->o->shim ? " (judged as the shim given to next:)" : "",
	         next->mode[0] == SBAT_NEXT_MODE_NOT_ENFORCED ? "nothing (Secure Boot off), stores SbatLevel " :
	                                                        "SbatLevel ",
	         next->level[0]->datestamp);
	*v = next->boot[0].builtin.choice == SBAT_NEXT_CHOSE_INVALID ? STAGE_UNKNOWN : STAGE_BOOTS;
	if (w->sig_pending)
		signature_words(w, why, sizeof(why), v);
	walk_line_why(w, label, is_default, 1, uefi_path, walk_verdict_of(*v),
	              w->sig_decided    ? SBAT_BOOT_SIGNATURE :
	              *v == STAGE_BOOTS ? SBAT_BOOT_SHIM_GOES_ON :
	                                  SBAT_BOOT_POLICY_WAITS,
	              why);
	return 0;
}

/* Why there is no file to load at a load option's File() nodes (sbat_partition_resolve_uefi). */
static const char *
uefi_miss_text(sbat_partition_miss m)
{
	switch (m) {
	case SBAT_PARTITION_NOT_DIRECTORY: return "ends in \\, which asks for a directory, but names a file";
	case SBAT_PARTITION_IS_DIRECTORY: return "opens a directory, which the firmware does not load";
	case SBAT_PARTITION_EMPTY_NODE: return "the path has an empty File() node, which EDK2's FAT driver refuses";
	case SBAT_PARTITION_SLASH:
		return "the path has a / in a name: EDK2's FAT driver splits paths at \\ only and refuses a / in a name";
	case SBAT_PARTITION_BAD_CHAR:
		return "the path has a name with a character EDK2's FAT driver refuses (\" * : < > ? | or a control "
		       "character)";
	case SBAT_PARTITION_EMPTY_NAME:
		return "the path has a name of blanks and dots only, which EDK2's FAT driver refuses";
	case SBAT_PARTITION_NAME_TOO_LONG:
		return "the path has a name longer than the 255 characters EDK2's FAT driver takes";
	case SBAT_PARTITION_PATH_TOO_LONG: return "the path is longer than the 260 characters EDK2's FAT driver takes";
	case SBAT_PARTITION_ABOVE_ROOT: return "the path goes above the root with .., which EDK2's FAT driver refuses";
	default: return walk_partition_why(m);
	}
}

/* 1 when EDK2 opens nothing at a path whatever the ESP holds, 2 when this ESP holds nothing it opens there, else 0. */
static int
uefi_no_start(sbat_partition_miss m)
{
	if (m >= SBAT_PARTITION_EMPTY_NODE && m <= SBAT_PARTITION_ABOVE_ROOT)
		return 1;
	if (m == SBAT_PARTITION_MISSING || m == SBAT_PARTITION_NOT_DIRECTORY || m == SBAT_PARTITION_PARENT_NOT_DIR ||
	    m == SBAT_PARTITION_IS_DIRECTORY)
		return 2;
	return 0;
}

/*
 * The file stage 1 is: a load option's File() nodes opened as EDK2's boot
 * manager opens them (nodes), else uefi_path as before. *no_start: 1 when
 * the firmware opens nothing there whatever the ESP holds, 2 when this ESP
 * holds nothing it opens, else 0 (*why says why the file is not known).
 */
static char *
first_stage_file(const char *esp, const char *uefi_path, const char *nodes, size_t n_nodes, const char **why,
                 int *no_start)
{
	char *out = NULL;
	const char *last;
	sbat_partition_miss m;

	if (!nodes) {
		out = walk_resolve(esp, uefi_path, 0, why);
		*no_start = !out && strcmp(*why, "missing") == 0 ? 2 : 0;
		return out;
	}
	m = sbat_partition_resolve_uefi(esp, nodes, n_nodes, &out);
	*why = uefi_miss_text(m);
	*no_start = uefi_no_start(m);
	for (last = nodes; n_nodes > 1; n_nodes--)
		last += strlen(last) + 1;
	/* a last node ending in '\\' opens a directory or nothing, never a file to load */
	if (*no_start == 2 && *last && last[strlen(last) - 1] == '\\')
		*no_start = 1;
	/* one starting with two ends at the empty name after the first: the root */
	if (m == SBAT_PARTITION_IS_DIRECTORY && strncmp(last, "\\\\", 2) == 0) {
		*no_start = 1;
		*why = "the path opens the root directory: EDK2's FAT driver ends a path at an empty name right after "
		       "its leading \\";
	}
	return out;
}

/* Stage 1's line when the firmware opens no file there: it goes on to the next option; 0 when it is not known. */
static int
no_start_line(walk *w, const char *label, int is_default, const char *esp, const char *uefi_path, const char *reason,
              int no_start)
{
	char why[1024];

	if (no_start == 1) {
		/* whatever the ESP holds: the path that boots by default is a later one */
		if (is_default)
			w->default_taken = 0;
		snprintf(why, sizeof(why), "skipped: does not start: %s; the firmware goes on to the next option",
		         reason);
	} else if (no_start == 2 && !is_default) {
		snprintf(why, sizeof(why),
		         "skipped: does not start: %s under %s; the firmware goes on to the next option", reason, esp);
	} else {
		return 0;
	}
	walk_line_why(w, label, is_default && no_start != 1, 1, uefi_path, SBAT_VERDICT_SKIPPED, SBAT_BOOT_NO_START,
	              why);
	return 1;
}

/* Stage 2 of a path whose shim goes on: its fallback or second stage, and what that starts. */
static enum stage_verdict
after_shim(walk *w, const char *label, int is_default, const sbat_next_state *next, const char *esp,
           const char *uefi_path, const image *shim, const uint8_t *opt, size_t opt_len)
{
	char second[SBAT_SHIM_STAGE2_PATH_MAX], why[1024];
	const char *default_loader = NULL;
	sbat_shim_stage2 dflt;
	sbat_diag d;
	int fb = next_stage_name(esp, uefi_path, opt, opt_len, shim->machine, second, sizeof(second), why, sizeof(why));

	if (fb < 0) {
		walk_line_why(w, label, is_default, 2, "(its load options)", SBAT_VERDICT_UNKNOWN,
		              SBAT_BOOT_LOAD_OPTIONS, why);
		return STAGE_UNKNOWN;
	}
	/* shim's DEFAULT_LOADER, next to it: where it goes when its second stage does not open */
	if (fb == 0 &&
	    sbat_shim_stage2_path(NULL, 0, uefi_path, sbat_shim_default_loader(shim->machine), &dflt, &d) == SBAT_OK)
		default_loader = dflt.path;
	return judge_second_stage(w, label, is_default, next, esp, second, fb, default_loader);
}

/*
 * The firmware's signature check of shim (with signatures judged): 1 after
 * the line of a refused one (*v set), else 0, its words kept for shim's
 * line.
 */
static int
shim_signature(walk *w, const char *label, int is_default, const char *uefi_path, const image *im,
               enum stage_verdict *v)
{
	char text[800];

	if (!w->sigs || signatures_judge(w, im, 0) != STAGE_REFUSED)
		return 0; /* shim's line says it */
	w->sig_decided = 1;
	snprintf(text, sizeof(text), "refused: signature: %s", w->sig_text);
	walk_line_why(w, label, is_default, 1, uefi_path, SBAT_VERDICT_REFUSED, SBAT_BOOT_SIGNATURE, text);
	*v = STAGE_REFUSED;
	return 1;
}

/* after_shim with the keys of the shim that decides (next:SHIM's, else this one's) for shim's signature rule. */
static enum stage_verdict
with_shim_keys(walk *w, const char *label, int is_default, const sbat_next_state *next, const char *esp,
               const char *uefi_path, const image *shim, const uint8_t *opt, size_t opt_len)
{
	sbat_image *given = NULL;
	walk_shim_keys saved;
	enum stage_verdict v;
	sbat_diag d;

	if (w->sigs && w->o->shim && sbat_image_parse(next->shim_buf, next->shim_len, &given, &d) != SBAT_OK)
		given = NULL;
	signatures_enter_shim(w, w->o->shim ? given : shim->img, &saved);
	v = after_shim(w, label, is_default, next, esp, uefi_path, shim, opt, opt_len);
	signatures_leave_shim(w, &saved);
	sbat_image_free(given);
	return v;
}

enum stage_verdict
bootpath_follow(walk *w, const char *label, int is_default, const char *esp, const char *uefi_path, const char *nodes,
                size_t n_nodes, const uint8_t *opt, size_t opt_len)
{
	char why[1024];
	const char *reason;
	char *file;
	enum stage_verdict v;
	sbat_next_state *next = NULL;
	image im;
	int no_start;

	file = first_stage_file(esp, uefi_path, nodes, n_nodes, &reason, &no_start);
	if (!file && no_start_line(w, label, is_default, esp, uefi_path, reason, no_start))
		return STAGE_NOT_GOVERNED;
	if (!file) {
		snprintf(why, sizeof(why), "cannot be followed: %s under %s", reason, esp);
		walk_line_why(w, label, is_default, 1, uefi_path, SBAT_VERDICT_UNKNOWN, SBAT_BOOT_NOT_FOUND, why);
		return STAGE_UNKNOWN;
	}
	if (walk_image_open(esp, file, &im) != 0) {
		snprintf(why, sizeof(why), "cannot be followed: %s", im.d.what ? im.d.what : sbat_strerror(im.d.code));
		v = STAGE_UNKNOWN;
		walk_line_why(w, label, is_default, 1, uefi_path, SBAT_VERDICT_UNKNOWN, SBAT_BOOT_UNREADABLE, why);
	} else if (!im.is_shim) {
		char text[1200] = "not governed by SBAT: the firmware starts it, not shim";

		v = signatures_gate(w, &im, 0, STAGE_NOT_GOVERNED, text, sizeof(text));
		walk_line_why(w, label, is_default, 1, uefi_path, walk_verdict_of(v), SBAT_BOOT_NOT_SHIM, text);
	} else if (!shim_signature(w, label, is_default, uefi_path, &im, &v) &&
	           judge_shim(w, label, is_default, file, uefi_path, &next, &v) == 0 &&
	           with_shim_keys(w, label, is_default, next, esp, uefi_path, &im, opt, opt_len) == STAGE_REFUSED) {
		v = STAGE_REFUSED;
	}
	sbat_next_state_free(next);
	walk_image_close(&im);
	free(file);
	return v;
}
