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

#include "walk/bootmgr.h"
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
 * options name nothing a path can hold (d says why).
 */
static int
next_stage_name(const char *esp, const char *uefi_path, const uint8_t *opt, size_t opt_len, uint16_t machine, char *out,
                size_t size, sbat_diag *d)
{
	sbat_partition_miss miss;
	sbat_shim_stage2 s2;
	char *fb, fallback[32];

	sbat_fallback_path(machine, fallback, sizeof(fallback));
	if (is_removable_path(uefi_path) && (fb = walk_lookup(esp, fallback, 0, &miss)) != NULL) {
		free(fb);
		snprintf(out, size, "%s", fallback);
		return 1;
	}
	if (sbat_shim_stage2_path(opt, opt_len, uefi_path, sbat_shim_default_loader(machine), &s2, d) != SBAT_OK)
		return -1;
	snprintf(out, size, "%s", s2.path);
	return 0;
}

/*
 * What shim's fallback starts: the entry it makes from a BOOT CSV, now
 * (no TPM) or first after the reset (a TPM), as a path of its own.
 */
static sbat_verdict
follow_fallback(walk *w, const char *label, int is_default, const char *esp, uint16_t machine)
{
	char sub[SBAT_LOAD_OPTION_TEXT_MAX + 80];
	sbat_fallback_entry *e;
	sbat_fallback_result r;
	sbat_boot_stage st;
	sbat_verdict v;

	if (w->in_fallback) /* an entry that starts fallback again: it loops */
		return SBAT_VERDICT_UNKNOWN;
	if (!(e = malloc(sizeof(*e))))
		return SBAT_VERDICT_UNKNOWN;
	r = sbat_fallback_find(esp, machine, e);
	if (r != SBAT_FALLBACK_ENTRY) {
		walk_stage(&st, label, is_default, 3, "\\EFI");
		st.verdict = SBAT_VERDICT_UNKNOWN;
		st.reason = SBAT_BOOT_FALLBACK;
		st.root = esp;
		st.fallback = (int)r;
		walk_add(w, &st);
		free(e);
		return SBAT_VERDICT_UNKNOWN;
	}
	snprintf(sub, sizeof(sub), "%s, fallback's entry", label);
	w->in_fallback = 1;
	/* the entry is HD() and one File() node of that path: the firmware opens it as any option */
	v = bootpath_follow(w, sub, is_default, esp, e->path, e->path, 1, e->args_len ? e->args : NULL, e->args_len);
	w->in_fallback = 0;
	free(e);
	return v;
}

/* Whether EDK2 opens no file at a File() path, and whether that is certain (below). */
static int uefi_no_start(sbat_partition_miss m);

static sbat_verdict judge_second_stage(walk *w, const char *label, int is_default, const sbat_next_state *next,
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
           sbat_partition_miss m, const char *default_loader, sbat_verdict *v)
{
	sbat_boot_stage st;

	if (!default_loader || !uefi_no_start(m) || strcasecmp(second, default_loader) == 0)
		return 0;
	walk_stage(&st, label, is_default, 2, second);
	st.verdict = SBAT_VERDICT_SKIPPED;
	st.reason = SBAT_BOOT_DEFAULT_LOADER;
	st.root = esp;
	st.lookup = SBAT_BOOT_LOOKUP_UEFI;
	st.miss = (int)m;
	st.default_loader = default_loader;
	walk_add(w, &st);
	*v = judge_second_stage(w, label, is_default, next, esp, default_loader, 0, NULL);
	return 1;
}

/* The stage-2 line of the image shim starts itself, opened as im (or not: file NULL, or im.img NULL). */
static sbat_verdict
second_stage_line(walk *w, sbat_boot_stage *st, const sbat_next_state *next, const char *esp, const char *file,
                  sbat_partition_miss m, image *im, int is_fallback)
{
	signatures_facts f;
	judged j;
	sbat_verdict v;

	st->root = esp;
	st->host = file;
	st->verdict = SBAT_VERDICT_UNKNOWN;
	if (!file) {
		st->reason = SBAT_BOOT_NOT_FOUND;
		st->lookup = SBAT_BOOT_LOOKUP_UEFI;
		st->miss = (int)m;
	} else if (walk_image_open(esp, file, im) != 0) {
		st->reason = SBAT_BOOT_UNREADABLE;
		st->diag = im->d;
	} else {
		st->reason = SBAT_BOOT_JUDGED;
		st->rule = is_fallback ? SBAT_BOOT_RULE_FALLBACK : SBAT_BOOT_RULE_SHIM_STARTS;
		v = verdict_judge_image(w, next, im, 0, &j);
		verdict_keys(&j, st);
		signatures_gate(w, im, 1, st, &f);
		walk_decide(st, v, j.judge_reason >= 0 ? SBAT_BOOT_GATE_SBAT : SBAT_BOOT_GATE_NONE,
		            walk_shim_state(w, sbat_next_state_judge_shim(next)));
	}
	walk_add(w, st);
	return st->verdict;
}

/*
 * Judge the image shim starts itself (stage 2), at `second` under esp,
 * opened as the firmware's FAT driver opens it, and, when shim lets it
 * start, what it starts next (stage 3). default_loader: where shim goes
 * when `second` does not open (NULL: nowhere).
 */
static sbat_verdict
judge_second_stage(walk *w, const char *label, int is_default, const sbat_next_state *next, const char *esp,
                   const char *second, int is_fallback, const char *default_loader)
{
	char *file = NULL;
	sbat_partition_miss m = sbat_partition_resolve_uefi(esp, second, 1, &file);
	sbat_verdict v = SBAT_VERDICT_UNKNOWN;
	sbat_boot_stage st;
	image im;

	if (!file && falls_back(w, label, is_default, next, esp, second, m, default_loader, &v))
		return v;
	memset(&im, 0, sizeof(im));
	walk_stage(&st, label, is_default, 2, second);
	v = second_stage_line(w, &st, next, esp, file, m, &im, is_fallback);
	if (v == SBAT_VERDICT_BOOTS && !is_fallback &&
	    stage3_follow(w, label, is_default, next, esp, second, &im) == SBAT_VERDICT_REFUSED)
		v = SBAT_VERDICT_REFUSED;
	if (v == SBAT_VERDICT_BOOTS && is_fallback &&
	    follow_fallback(w, label, is_default, esp, im.machine) == SBAT_VERDICT_REFUSED)
		v = SBAT_VERDICT_REFUSED;
	walk_image_close(&im);
	free(file);
	return v;
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
		walk_fact(w, SBAT_BOOT_NOTE_ERROR, (*next)->efivarfs, SBAT_BOOT_NOTE_NO_SECURE_BOOT);
		return -1;
	}
	return 0;
}

/* A stage-1 line of shim that stops here: verdict v by shim's state, for reason. */
static void
shim_stops(walk *w, sbat_boot_stage *st, sbat_verdict v, sbat_boot_reason reason)
{
	st->verdict = v;
	st->gate = SBAT_BOOT_GATE_SHIM;
	st->reason = reason;
	walk_add(w, st);
}

/* A note that shim names a release older than every one modelled, and whose rules are applied instead. */
static void
rules_assumed_note(walk *w, const char *label, const sbat_next_state *next)
{
	sbat_boot_note n;

	sbat_boot_note_init(&n);
	n.kind = SBAT_BOOT_NOTE_ASSUMED;
	n.what = SBAT_BOOT_NOTE_SHIM_RULES_ASSUMED;
	n.path = label;
	n.file = next->shim;
	n.shim_major = next->shim_major;
	n.shim_minor = next->shim_minor;
	n.rules_major = next->rules_major;
	n.rules_minor = next->rules_minor;
	walk_add_note(w, &n);
}
/* The SbatLevel boot b leaves stored, as a string (malloc'ed); NULL for none, or one with a NUL byte. */
static char *
stored_text(walk *w, const sbat_next_boot *b)
{
	char *s;

	if (!b->stored || memchr(b->stored, '\0', b->stored_len))
		return NULL;
	if (!(s = malloc(b->stored_len + 1))) {
		w->report_failed = 1;
		return NULL;
	}
	memcpy(s, b->stored, b->stored_len);
	s[b->stored_len] = '\0';
	return s;
}

/*
 * Judge shim itself (stage 1, st: its line, with the firmware's signature
 * gate when it ran); 0 when it goes on to start its next stage. An
 * SbatPolicy that is not 1, 2 or 3 makes shim show an error and wait for a
 * key (sbat.c, console_error) before it goes on, which an unattended
 * machine never gets.
 */
static int
judge_shim(walk *w, sbat_boot_stage *st, const char *file, sbat_next_state **ret, sbat_verdict *v)
{
	const sbat_next_state *next;
	char *stored;
	int waits;

	*v = SBAT_VERDICT_REFUSED;
	if (load_shim_state(w, file, ret) != 0) {
		shim_stops(w, st, SBAT_VERDICT_UNKNOWN, SBAT_BOOT_SHIM_INPUTS);
		*v = SBAT_VERDICT_UNKNOWN;
		return -1;
	}
	next = *ret;
	if (next->rules_assumed)
		rules_assumed_note(w, st->entry, next);
	st->shim_level = next->level[0]->datestamp;
	st->revocations_ignored = next->revocations_ignored;
	st->revocations_signature = (int)next->revocations_sig;
	st->revocations_file = next->revocations;
	st->revocations_sig_reason = (int)next->revocations_sig_reason;
	st->revocations_sig_unread = next->revocations_sig_unread;
	if (next->mode[0] == SBAT_NEXT_MODE_SHIM_STOPS) {
		shim_stops(w, st, SBAT_VERDICT_REFUSED,
		           next->level[0]->n_entries == 0 ? SBAT_BOOT_SHIM_STOPS_LEVEL : SBAT_BOOT_SHIM_STOPS_REVOKED);
		return -1;
	}
	waits = next->boot[0].builtin.choice == SBAT_NEXT_CHOSE_INVALID;
	st->reason = waits ? SBAT_BOOT_POLICY_WAITS : SBAT_BOOT_SHIM_GOES_ON;
	st->shim_next = w->o->shim != NULL;
	st->shim_enforces = next->mode[0] != SBAT_NEXT_MODE_NOT_ENFORCED;
	walk_decide(st, waits ? SBAT_VERDICT_UNKNOWN : SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SHIM,
	            SBAT_JUDGE_SHIM_ENFORCES);
	stored = stored_text(w, &next->boot[0]);
	st->shim_stored = stored;
	walk_add(w, st);
	st->shim_stored = NULL;
	free(stored);
	*v = st->verdict;
	return 0;
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
 * holds nothing it opens, else 0; st gets why the file is not found.
 */
static char *
first_stage_file(const char *esp, const char *uefi_path, const char *nodes, size_t n_nodes, sbat_boot_stage *st,
                 int *no_start)
{
	char *out = NULL;
	const char *last;
	sbat_partition_miss m;

	if (!nodes) {
		out = walk_lookup(esp, uefi_path, 0, &m);
		st->lookup = SBAT_BOOT_LOOKUP_PATH;
		st->miss = (int)m;
		*no_start = !out && m == SBAT_PARTITION_MISSING ? 2 : 0;
		return out;
	}
	m = sbat_partition_resolve_uefi(esp, nodes, n_nodes, &out);
	st->lookup = SBAT_BOOT_LOOKUP_UEFI;
	st->miss = (int)m;
	*no_start = uefi_no_start(m);
	for (last = nodes; n_nodes > 1; n_nodes--)
		last += strlen(last) + 1;
	/* a last node ending in '\\' opens a directory or nothing, never a file to load */
	if (*no_start == 2 && *last && last[strlen(last) - 1] == '\\')
		*no_start = 1;
	/* one starting with two ends at the empty name after the first: the root */
	if (m == SBAT_PARTITION_IS_DIRECTORY && strncmp(last, "\\\\", 2) == 0) {
		*no_start = 1;
		st->opens_root = 1;
	}
	return out;
}

/* Stage 1's line (st) when the firmware opens no file there: it goes on to the next option; 0 when it is not known. */
static int
no_start_line(walk *w, sbat_boot_stage *st, const char *esp, int no_start)
{
	if (no_start == 1) {
		/* whatever the ESP holds: the path that boots by default is a later one */
		if (st->is_default)
			w->default_taken = 0;
		st->is_default = 0;
	} else if (no_start == 2 && !st->is_default) {
		st->root = esp;
	} else {
		return 0;
	}
	st->verdict = SBAT_VERDICT_SKIPPED;
	st->gate = SBAT_BOOT_GATE_FIRMWARE;
	st->reason = SBAT_BOOT_NO_START;
	walk_add(w, st);
	return 1;
}

/* Stage 2 of a path whose shim goes on: its fallback or second stage, and what that starts. */
static sbat_verdict
after_shim(walk *w, const char *label, int is_default, const sbat_next_state *next, const char *esp,
           const char *uefi_path, const image *shim, const uint8_t *opt, size_t opt_len)
{
	char second[SBAT_SHIM_STAGE2_PATH_MAX];
	const char *default_loader = NULL;
	sbat_shim_stage2 dflt;
	sbat_boot_stage st;
	sbat_diag d;
	int fb = next_stage_name(esp, uefi_path, opt, opt_len, shim->machine, second, sizeof(second), &d);

	if (fb < 0) {
		walk_stage(&st, label, is_default, 2, "(its load options)");
		st.verdict = SBAT_VERDICT_UNKNOWN;
		st.reason = SBAT_BOOT_LOAD_OPTIONS;
		st.diag = d;
		walk_add(w, &st);
		return SBAT_VERDICT_UNKNOWN;
	}
	/* shim's DEFAULT_LOADER, next to it: where it goes when its second stage does not open */
	if (fb == 0 &&
	    sbat_shim_stage2_path(NULL, 0, uefi_path, sbat_shim_default_loader(shim->machine), &dflt, &d) == SBAT_OK)
		default_loader = dflt.path;
	return judge_second_stage(w, label, is_default, next, esp, second, fb, default_loader);
}

/*
 * The firmware's signature check of shim (with signatures judged) into
 * shim's line st: 1 after the line of a refused one (*v set), else 0, the
 * line for judge_shim to finish.
 */
static int
shim_signature(walk *w, sbat_boot_stage *st, const image *im, signatures_facts *f, sbat_verdict *v)
{
	if (!w->sigs || signatures_judge(w, im, 0, st, f) != SBAT_VERDICT_REFUSED)
		return 0; /* shim's line says it */
	st->reason = SBAT_BOOT_SIGNATURE;
	walk_decide(st, SBAT_VERDICT_UNKNOWN, SBAT_BOOT_GATE_NONE, SBAT_JUDGE_SHIM_ENFORCES);
	walk_add(w, st);
	*v = SBAT_VERDICT_REFUSED;
	return 1;
}

/* after_shim with the keys of the shim that decides (next:SHIM's, else this one's) for shim's signature rule. */
static sbat_verdict
with_shim_keys(walk *w, const char *label, int is_default, const sbat_next_state *next, const char *esp,
               const char *uefi_path, const image *shim, const uint8_t *opt, size_t opt_len)
{
	sbat_image *given = NULL;
	walk_shim_keys saved;
	sbat_verdict v;
	sbat_diag d;

	if (w->sigs && w->o->shim && sbat_image_parse(next->shim_buf, next->shim_len, &given, &d) != SBAT_OK)
		given = NULL;
	signatures_enter_shim(w, w->o->shim ? given : shim->img, &saved);
	v = after_shim(w, label, is_default, next, esp, uefi_path, shim, opt, opt_len);
	signatures_leave_shim(w, &saved);
	sbat_image_free(given);
	return v;
}

/* Stage 1 when the file opened as im: not a shim, or shim and what it starts. */
static sbat_verdict
first_stage(walk *w, sbat_boot_stage *st, const char *esp, const char *file, image *im, const uint8_t *opt,
            size_t opt_len)
{
	sbat_next_state *next = NULL;
	signatures_facts f;
	sbat_verdict v;

	if (!im->is_shim) {
		st->reason = SBAT_BOOT_NOT_SHIM;
		signatures_gate(w, im, 0, st, &f);
		walk_decide(st, SBAT_VERDICT_NOT_GOVERNED, SBAT_BOOT_GATE_NONE, SBAT_JUDGE_SHIM_ENFORCES);
		bootmgr_svn_gate(w, im, st);
		walk_add(w, st);
		return st->verdict;
	}
	if (!shim_signature(w, st, im, &f, &v) && judge_shim(w, st, file, &next, &v) == 0 &&
	    with_shim_keys(w, st->entry, st->is_default, next, esp, st->file, im, opt, opt_len) == SBAT_VERDICT_REFUSED)
		v = SBAT_VERDICT_REFUSED;
	sbat_next_state_free(next);
	return v;
}

sbat_verdict
bootpath_follow(walk *w, const char *label, int is_default, const char *esp, const char *uefi_path, const char *nodes,
                size_t n_nodes, const uint8_t *opt, size_t opt_len)
{
	sbat_boot_stage st;
	char *file;
	sbat_verdict v = SBAT_VERDICT_UNKNOWN;
	image im;
	int no_start;

	walk_stage(&st, label, is_default, 1, uefi_path);
	file = first_stage_file(esp, uefi_path, nodes, n_nodes, &st, &no_start);
	if (!file && no_start_line(w, &st, esp, no_start))
		return SBAT_VERDICT_NOT_GOVERNED;
	st.root = esp;
	st.host = file;
	if (!file) {
		st.verdict = SBAT_VERDICT_UNKNOWN;
		st.reason = SBAT_BOOT_NOT_FOUND;
		walk_add(w, &st);
		return SBAT_VERDICT_UNKNOWN;
	}
	st.lookup = SBAT_BOOT_LOOKUP_NONE;
	if (walk_image_open(esp, file, &im) != 0) {
		st.verdict = SBAT_VERDICT_UNKNOWN;
		st.reason = SBAT_BOOT_UNREADABLE;
		st.diag = im.d;
		walk_add(w, &st);
	} else {
		v = first_stage(w, &st, esp, file, &im, opt, opt_len);
	}
	walk_image_close(&im);
	free(file);
	return v;
}
