/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_stage.c - a stage of the boot report in words: the firmware's options, the files it opens, shim */
#include <stdio.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/fallback.h"
#include "sbat/judge.h"
#include "sbat/nextstate.h"
#include "sbat/sigverify.h"

#include "render_judged.h"
#include "render_miss.h"
#include "render_stage.h"
#include "render_stage3.h"
#include "strtable.h"
#include "textbuf.h"

/* The word a line of each verdict starts with. */
static const char *const verdict_word_table[] = {
	[SBAT_VERDICT_BOOTS] = "boots",
	[SBAT_VERDICT_REFUSED] = "refused",
	[SBAT_VERDICT_NOT_GOVERNED] = "not governed by SBAT",
	[SBAT_VERDICT_UNKNOWN] = "cannot be followed",
	[SBAT_VERDICT_SKIPPED] = "skipped",
	[SBAT_VERDICT_INACTIVE] = "inactive",
};
CLI_STRTABLE_LOOKUP(verdict_word, sbat_verdict)

/* The JSON "reason" of each reason: the reasons that tell apart lines of one kind share its word. */
static const char *const reason_key_table[] = {
	[SBAT_BOOT_JUDGED] = "judged",
	[SBAT_BOOT_NOT_SHIM] = "not-shim",
	[SBAT_BOOT_SHIM_GOES_ON] = "shim-goes-on",
	[SBAT_BOOT_SHIM_INPUTS] = "shim-inputs",
	[SBAT_BOOT_SHIM_STOPS_REVOKED] = "shim-stops-revoked",
	[SBAT_BOOT_SHIM_STOPS_LEVEL] = "shim-stops-level",
	[SBAT_BOOT_POLICY_WAITS] = "policy-waits",
	[SBAT_BOOT_NOT_FOUND] = "not-found",
	[SBAT_BOOT_UNREADABLE] = "unreadable",
	[SBAT_BOOT_NO_START] = "no-start",
	[SBAT_BOOT_PARTITION_UNKNOWN] = "partition-unknown",
	[SBAT_BOOT_LOAD_OPTIONS] = "load-options",
	[SBAT_BOOT_FALLBACK] = "fallback",
	[SBAT_BOOT_LOADER_UNKNOWN] = "loader-unknown",
	[SBAT_BOOT_MENU] = "menu",
	[SBAT_BOOT_OVER_LIMIT] = "over-limit",
	[SBAT_BOOT_UKI_KERNEL] = "uki-kernel",
	[SBAT_BOOT_VARIABLE] = "variable",
	[SBAT_BOOT_INACTIVE] = "inactive",
	[SBAT_BOOT_APPLICATION] = "application",
	[SBAT_BOOT_NOT_A_FILE] = "not-a-file",
	[SBAT_BOOT_NO_OPTIONS] = "no-options",
	[SBAT_BOOT_SIGNATURE] = "signature",
	[SBAT_BOOT_VARIABLE_UNREADABLE] = "variable",
	[SBAT_BOOT_VARIABLE_MISSING] = "variable",
	[SBAT_BOOT_FIRMWARE_VOLUME] = "not-a-file",
	[SBAT_BOOT_FILE_ONLY] = "partition-unknown",
	[SBAT_BOOT_DEVICE] = "partition-unknown",
	[SBAT_BOOT_DEFAULT_LOADER] = "not-found",
	[SBAT_BOOT_BOOTMGR_SVN] = "bootmgr-svn",
};
CLI_STRTABLE_LOOKUP(reason_key, sbat_boot_reason)

static const char *const loader_name_table[] = {
	[SBAT_BOOT_LOADER_SDBOOT] = "systemd-boot",
	[SBAT_BOOT_LOADER_GRUB] = "grub",
};
CLI_STRTABLE_LOOKUP(loader_name, sbat_boot_loader)

static const char *const rule_name_table[] = {
	[SBAT_BOOT_RULE_LOADIMAGE_HOOK] = "loadimage-hook",
	[SBAT_BOOT_RULE_SHIM_LOCK] = "shim-lock",
	[SBAT_BOOT_RULE_SHIM_LOADER] = "shim-loader",
};
CLI_STRTABLE_LOOKUP(rule_name, sbat_boot_rule)

/* The stage-0 lines: a Boot#### the firmware skips, does not govern, or that does not read. */
static int
option_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	switch (st->reason) {
	case SBAT_BOOT_VARIABLE_UNREADABLE:
		cli_textbuf_put(t, "cannot be followed: the variable does not read (see above)");
		return 1;
	case SBAT_BOOT_VARIABLE_MISSING:
		cli_textbuf_put(t, "skipped: no such variable; the firmware goes on to the next option");
		return 1;
	case SBAT_BOOT_VARIABLE: cli_textbuf_put(t, "cannot be followed: malformed load option"); return 1;
	case SBAT_BOOT_INACTIVE: cli_textbuf_put(t, "inactive: the firmware skips it"); return 1;
	case SBAT_BOOT_APPLICATION:
		cli_textbuf_put(t, "not governed by SBAT: an application (not LOAD_OPTION_CATEGORY_BOOT), started "
		                   "from a menu only");
		return 1;
	case SBAT_BOOT_FIRMWARE_VOLUME:
		cli_textbuf_put(t, "not governed by SBAT: a file of the firmware's own volume (its shell or another "
		                   "built-in application), which EDK2 starts without a signature check, Secure Boot "
		                   "on or off");
		return 1;
	case SBAT_BOOT_NOT_A_FILE:
		cli_textbuf_put(t, "not governed by SBAT: not a file on a disk (network boot, a RAM disk, a vendor's "
		                   "device)");
		return 1;
	case SBAT_BOOT_NO_OPTIONS:
		cli_textbuf_put(t,
		                "cannot be followed: neither BootOrder nor BootNext is set, so the firmware makes "
		                "boot options of its own and starts %s of the first device that holds it (give "
		                "--esp DIR)",
		                st->removable);
		return 1;
	default: return 0;
	}
}

/* A stage-1 line whose ESP is not known: the partition is not mounted, or the path names none. */
static int
partition_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	const char *part = st->partition && st->partition[0] ? st->partition : "(no GUID)";

	if (st->reason == SBAT_BOOT_PARTITION_UNKNOWN && st->esp_partition)
		cli_textbuf_put(t, "cannot be followed: partition %s is not mounted, and --esp is partition %s", part,
		                st->esp_partition);
	else if (st->reason == SBAT_BOOT_PARTITION_UNKNOWN)
		cli_textbuf_put(t, "cannot be followed: partition %s is not mounted (give --esp DIR)", part);
	else if (st->reason == SBAT_BOOT_FILE_ONLY && st->partition)
		cli_textbuf_put(t,
		                "cannot be followed: the firmware looks for %s on every file system, removable media "
		                "first, and the options name a partition that --esp is not (%s)",
		                st->file, st->partition);
	else if (st->reason == SBAT_BOOT_FILE_ONLY)
		cli_textbuf_put(
		    t, "cannot be followed: the firmware looks for %s on every file system (give --esp DIR)", st->file);
	else if (st->reason == SBAT_BOOT_DEVICE && st->boot_current >= 0)
		cli_textbuf_put(t,
		                "cannot be followed: the firmware starts %s from this device if it holds one; it did "
		                "not this boot, which came from Boot%04X",
		                st->file, (unsigned)st->boot_current);
	else if (st->reason == SBAT_BOOT_DEVICE)
		cli_textbuf_put(t,
		                "cannot be followed: the firmware starts %s from this device; which ESP it holds the "
		                "variables do not say (--esp is taken for the device this boot came from)",
		                st->file);
	else
		return 0;
	return 1;
}

/* What shim's fallback does on an ESP without an entry to start. */
static const char *const fallback_words_table[] = {
	[SBAT_FALLBACK_NO_CSV] = "fallback finds no BOOT CSV in \\EFI's directories, so it makes no entry and resets",
	[SBAT_FALLBACK_UNREADABLE] = "a BOOT CSV that cannot be read, or whose first line names no file and label",
	[SBAT_FALLBACK_SEVERAL] = "more than one directory of \\EFI holds a BOOT CSV; which fallback reads first is "
	                          "the order of the directory on disk",
};
CLI_STRTABLE_LOOKUP(fallback_words, sbat_fallback_result)

static const char *
diag_words(const sbat_diag *d)
{
	return d->what ? d->what : sbat_strerror(d->code);
}

/* Stage 1 and 2 lines of a file that does not open or start, or that shim does not get to. */
static int
file_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	const char *miss = cli_render_miss(st->lookup, st->miss, st->opens_root);

	switch (st->reason) {
	case SBAT_BOOT_NOT_FOUND: cli_textbuf_put(t, "cannot be followed: %s under %s", miss, st->root); return 1;
	case SBAT_BOOT_NO_START:
		cli_textbuf_put(t, "skipped: does not start: %s%s%s; the firmware goes on to the next option", miss,
		                st->root ? " under " : "", st->root ? st->root : "");
		return 1;
	case SBAT_BOOT_DEFAULT_LOADER:
		cli_textbuf_put(t,
		                "skipped: %s under %s, so shim's start_image fails and shim starts its default loader "
		                "%s instead",
		                miss, st->root, st->default_loader);
		return 1;
	case SBAT_BOOT_LOAD_OPTIONS:
		cli_textbuf_put(t, "cannot be followed: shim's load options name no path it can open: %s%s",
		                diag_words(&st->diag), st->diag.has_offset ? " in the optional data" : "");
		return 1;
	case SBAT_BOOT_FALLBACK:
		cli_textbuf_put(t, "cannot be followed: %s", fallback_words_to_string(st->fallback));
		return 1;
	case SBAT_BOOT_UNREADABLE:
		if (st->stage == 3)
			cli_textbuf_put(t, "cannot be followed: %s: %s", st->host, diag_words(&st->diag));
		else
			cli_textbuf_put(t, "cannot be followed: %s", diag_words(&st->diag));
		if (st->stage == 3)
			cli_render_stage3_tail(st, t);
		return 1;
	default: return 0;
	}
}

/* What shim makes of the signature of the revocations file beside it, when it checks one. */
static void
rev_sig_words(const sbat_boot_stage *st, cli_textbuf *w)
{
	const char *f = st->revocations_file;
	const char *base = f && strrchr(f, '/') ? strrchr(f, '/') + 1 : f;

	switch (st->revocations_signature) {
	case SBAT_NEXT_REV_SIG_VERIFIED:
		cli_textbuf_put(w, "; %s beside it verifies for shim (%s)", base,
		                sbat_sigverify_reason_name((sbat_sigverify_reason)st->revocations_sig_reason));
		break;
	case SBAT_NEXT_REV_SIG_REFUSED:
		cli_textbuf_put(w,
		                "; %s beside it is refused: its signature does not verify for shim (%s), so the SBAT "
		                "update it carries is not applied",
		                base, sbat_sigverify_reason_name((sbat_sigverify_reason)st->revocations_sig_reason));
		break;
	case SBAT_NEXT_REV_SIG_UNKNOWN:
		cli_textbuf_put(w,
		                "; whether shim accepts the signature of %s beside it is not known (%s does not read "
		                "here): its SBAT update is counted",
		                base, st->revocations_sig_unread ? st->revocations_sig_unread : "the verdict");
		break;
	default: break;
	}
}

/* shim's own line (stage 1). */
static int
shim_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	char sbat[1200];
	cli_textbuf w;

	switch (st->reason) {
	case SBAT_BOOT_SHIM_INPUTS:
		cli_textbuf_put(t, "cannot be followed: shim's inputs do not read (see above)");
		return 1;
	case SBAT_BOOT_SHIM_STOPS_LEVEL:
		cli_textbuf_put(t, "refused: shim cannot parse the stored SbatLevel, so it stops the machine");
		return 1;
	case SBAT_BOOT_SHIM_STOPS_REVOKED:
		cli_textbuf_put(t, "refused: shim, SbatLevel %s revokes shim itself, so it stops the machine",
		                st->shim_level);
		return 1;
	case SBAT_BOOT_SHIM_GOES_ON:
	case SBAT_BOOT_POLICY_WAITS: break;
	default: return 0;
	}
	cli_textbuf_init(&w, sbat, sizeof(sbat));
	if (st->reason == SBAT_BOOT_POLICY_WAITS)
		cli_textbuf_put(&w,
		                "cannot be followed: SbatPolicy is not 1, 2 or 3, so shim shows an error and waits "
		                "for a key press, which an unattended machine does not get; after one it goes on as ");
	else
		cli_textbuf_put(&w, "boots: ");
	cli_textbuf_put(
	    &w, "shim%s, next boot enforces %s%s", st->shim_next ? " (judged as the shim given to next:)" : "",
	    st->shim_enforces ? "SbatLevel " : "nothing (Secure Boot off), stores SbatLevel ", st->shim_level);
	if (st->revocations_ignored)
		cli_textbuf_put(&w,
		                "; %s beside it is not read (this shim reads revocations_sbat.efi): the SBAT update "
		                "it carries will not be applied",
		                strrchr(st->revocations_ignored, '/') ? strrchr(st->revocations_ignored, '/') + 1 :
		                                                        st->revocations_ignored);
	rev_sig_words(st, &w);
	cli_render_gated(st, sbat, 1, t);
	return 1;
}

/*
 * A Windows boot manager the check of dbx's SVN floor decided: the
 * firmware compares no SVN; the boot manager reads dbx when it starts and
 * stops when its own SVN is below the floor.
 */
static void
bootmgr_svn_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	if (st->verdict == SBAT_VERDICT_REFUSED && st->svn_read) {
		cli_textbuf_put(t,
		                "refused: dbx's SVN floor for the Windows boot manager, %u.%u, revokes it (its SVN is "
		                "%u.%u): the firmware starts it, and the boot manager's own check of dbx stops it",
		                st->svn_floor_major, st->svn_floor_minor, st->svn_major, st->svn_minor);
		return;
	}
	cli_textbuf_put(t,
	                "cannot be followed: dbx holds an SVN floor for the Windows boot manager (%u.%u), and its SVN "
	                "cannot be read: ",
	                st->svn_floor_major, st->svn_floor_minor);
	if (st->svn_diag.code == SBAT_OK)
		cli_textbuf_put(t, "it carries no BOOTMGRSECURITYVERSIONNUMBER resource");
	else if (st->svn_diag.has_offset)
		cli_textbuf_put(t, "%s (offset 0x%llx)", diag_words(&st->svn_diag),
		                (unsigned long long)st->svn_diag.offset);
	else
		cli_textbuf_put(t, "%s", diag_words(&st->svn_diag));
}

/* A line an image's checks decided: what the firmware starts, what shim or the loader starts. */
static int
judged_line(const sbat_boot_stage *st, cli_textbuf *t)
{
	char sbat[1600];
	cli_textbuf w;

	cli_textbuf_init(&w, sbat, sizeof(sbat));
	if (st->reason == SBAT_BOOT_NOT_SHIM)
		cli_textbuf_put(&w, "not governed by SBAT: the firmware starts it, not shim");
	else if (st->reason == SBAT_BOOT_BOOTMGR_SVN)
		bootmgr_svn_words(st, &w);
	else if (st->reason == SBAT_BOOT_JUDGED)
		cli_render_judged_words(st, &w);
	else if (st->reason == SBAT_BOOT_UKI_KERNEL)
		cli_render_uki_kernel_words(st, &w);
	else
		return 0;
	cli_render_gated(st, sbat, 0, t);
	if (st->rule == SBAT_BOOT_RULE_SHIM_STARTS || st->rule == SBAT_BOOT_RULE_FALLBACK)
		cli_textbuf_put(t, " [shim starts it itself: .sbat required%s]",
		                st->rule == SBAT_BOOT_RULE_FALLBACK ?
		                    "; shim's fallback, run from the removable-media path: it makes boot entries from "
		                    "BOOT*.CSV and starts the first (or resets, with a TPM, and the firmware does)" :
		                    "");
	else if (st->stage == 3)
		cli_render_stage3_tail(st, t);
	return 1;
}

void
cli_render_stage(const sbat_boot_stage *st, char *buf, size_t size)
{
	cli_textbuf t;

	cli_textbuf_init(&t, buf, size);
	if (st->reason == SBAT_BOOT_SIGNATURE) {
		char sig[700];
		cli_textbuf w;

		cli_textbuf_init(&w, sig, sizeof(sig));
		cli_render_signature_words(st, &w);
		cli_textbuf_put(&t, "refused: signature: %s", sig);
		return;
	}
	if (st->reason == SBAT_BOOT_LOADER_UNKNOWN) {
		cli_textbuf_put(&t, "cannot be followed: neither systemd-boot nor GRUB, so what it starts next is not "
		                    "known from the files");
		return;
	}
	if (st->reason == SBAT_BOOT_MENU) {
		cli_textbuf_put(&t, "%s: ", verdict_word_to_string(st->verdict));
		cli_render_stage3_menu(st, &t);
		cli_render_stage3_tail(st, &t);
		return;
	}
	if (st->reason == SBAT_BOOT_OVER_LIMIT) {
		cli_textbuf_put(&t, "cannot be followed: %zu more files than the %zu judged for one loader", st->over,
		                st->limit);
		return;
	}
	if (option_words(st, &t) || partition_words(st, &t) || file_words(st, &t) || shim_words(st, &t) ||
	    judged_line(st, &t))
		return;
	cli_textbuf_put(&t, "%s", verdict_word_to_string(st->verdict) ? verdict_word_to_string(st->verdict) : "?");
}

const char *
cli_render_detail(const sbat_boot_stage *st, const char *line)
{
	const char *word = verdict_word_to_string(st->verdict);
	size_t n = word ? strlen(word) : 0;

	if (!word || strncmp(line, word, n) != 0)
		return line;
	line += n;
	if (*line == ':')
		line += 1 + (line[1] == ' ');
	return line;
}

const char *
cli_render_reason(const sbat_boot_stage *st)
{
	const char *key = reason_key_to_string(st->reason);

	if (st->gate == SBAT_BOOT_GATE_SIGNATURE)
		return "signature";
	return key ? key : "unknown";
}

const char *
cli_render_file(const sbat_boot_stage *st)
{
	return st->file_embedded ? CLI_GRUB_EMBEDDED : st->file;
}

const char *
cli_render_loader(const sbat_boot_stage *st)
{
	return loader_name_to_string(st->loader);
}

const char *
cli_render_rule(const sbat_boot_stage *st)
{
	return rule_name_to_string(st->rule);
}

const char *
cli_render_default_by(const sbat_boot_stage *st, char *buf, size_t size)
{
	cli_textbuf t;

	if (st->loader == SBAT_BOOT_LOADER_NONE)
		return NULL;
	cli_textbuf_init(&t, buf, size);
	cli_render_stage3_default_by(st, &t);
	return buf;
}

const char *
cli_render_signature(const sbat_boot_stage *st, char *buf, size_t size)
{
	cli_textbuf t;

	if (!st->signature_judged)
		return NULL;
	cli_textbuf_init(&t, buf, size);
	cli_render_signature_words(st, &t);
	return buf;
}
