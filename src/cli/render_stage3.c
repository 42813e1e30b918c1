/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_stage3.c - the words of stage 3: a loader's menu, its default entry, the rule shim applies */
#include <stdio.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/sdboot.h"

#include "render_miss.h"
#include "render_stage3.h"
#include "strtable.h"
#include "textbuf.h"

/* How shim comes to check what the loader starts, for the line's brackets. */
static const char *const rule_words_table[] = {
	[SBAT_BOOT_RULE_LOADIMAGE_HOOK] = "systemd-boot starts it with LoadImage, which shim hooks: a missing .sbat "
	                                  "passes",
	[SBAT_BOOT_RULE_SHIM_LOCK] = "GRUB has shim verify it through the shim_lock protocol: a missing .sbat passes",
	[SBAT_BOOT_RULE_SHIM_LOADER] = "GRUB has shim load it through shim's image loader protocol: a missing .sbat "
	                               "passes",
};
CLI_STRTABLE_LOOKUP(rule_words, sbat_boot_rule)

static const char *
diag_words(const sbat_diag *d)
{
	return d->what ? d->what : sbat_strerror(d->code);
}

/* Why systemd-boot leaves an entry out of its menu. */
static void
left_out_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	switch (st->sdboot_out) {
	case SBAT_SDBOOT_OUT_UNREADABLE: cli_textbuf_put(t, "%s cannot be read", st->menu_file); break;
	case SBAT_SDBOOT_OUT_SELF:
		cli_textbuf_put(t, "it starts systemd-boot itself, which leaves it out of its menu");
		break;
	case SBAT_SDBOOT_OUT_ARCH:
		cli_textbuf_put(t, "its architecture is %.32s, and this systemd-boot (%s) leaves it out", st->menu_word,
		                st->menu_arch);
		break;
	case SBAT_SDBOOT_OUT_NO_LOADER:
		cli_textbuf_put(t, "no linux or efi line, so systemd-boot leaves it out of its menu");
		break;
	case SBAT_SDBOOT_OUT_LOADER_NOT_FOUND:
		cli_textbuf_put(t, "%s %s, so systemd-boot leaves the entry out of its menu", st->menu_path,
		                cli_render_partition_is(st->miss));
		break;
	case SBAT_SDBOOT_OUT_NOT_IMAGE:
		cli_textbuf_put(t, "%s: %s, so systemd-boot does not list it", st->menu_file, diag_words(&st->diag));
		break;
	case SBAT_SDBOOT_OUT_NO_OSREL: cli_textbuf_put(t, "no .osrel section, so systemd-boot does not list it"); break;
	case SBAT_SDBOOT_OUT_NO_NAME:
		cli_textbuf_put(t, "no name in its .osrel, so systemd-boot does not list it");
		break;
	case SBAT_SDBOOT_OUT_CONFLICT:
		cli_textbuf_put(t, "two of linux, efi and uki lines, so systemd-boot %u leaves it out",
		                st->sdboot_rules);
		break;
	default: break;
	}
}

/* The words of a menu_why that has no facts. */
static const char *const menu_fixed_table[] = {
	[SBAT_BOOT_MENU_UNREADABLE] = "it cannot be read (see above)",
	[SBAT_BOOT_MENU_TOO_DEEP] = "configfile and source nested too deep: not followed",
	[SBAT_BOOT_MENU_EMPTY] = "systemd-boot finds no entries (no loader/entries/*.conf, no EFI/Linux/*.efi)",
	[SBAT_BOOT_MENU_NOT_IN_MEMDISK] = "it is not in GRUB's memdisk",
	[SBAT_BOOT_MENU_NO_MEMDISK] = "GRUB has no memdisk",
};
CLI_STRTABLE_LOOKUP(menu_fixed, sbat_boot_menu_why)

/* Why a file of a loader's menu, or its configuration, is not followed: a file, a device, a command. */
static int
menu_file_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	switch (st->menu_why) {
	case SBAT_BOOT_MENU_NOT_FOUND:
		cli_textbuf_put(t, "%s %s", st->menu_path, cli_render_partition_is(st->miss));
		return 1;
	case SBAT_BOOT_MENU_OUTSIDE_BOOT:
		cli_textbuf_put(t, "%.400s is outside %.400s, the directory --boot names", st->menu_path,
		                st->menu_file);
		return 1;
	case SBAT_BOOT_MENU_NOT_MOUNTED:
		cli_textbuf_put(t, "the file system with UUID %s is not mounted (give --boot DIR)", st->menu_word);
		return 1;
	case SBAT_BOOT_MENU_OUTSIDE_MOUNT:
		cli_textbuf_put(t, "%.400s is outside the part of file system %.80s mounted at %.400s", st->menu_path,
		                st->menu_word, st->menu_file);
		return 1;
	case SBAT_BOOT_MENU_IN_MEMDISK:
		cli_textbuf_put(t, "(memdisk)%.400s is in GRUB's memdisk: a file there is not followed", st->menu_path);
		return 1;
	case SBAT_BOOT_MENU_CONDITIONAL:
		cli_textbuf_put(t,
		                "it is inside an if or a loop that sbat-add cannot run, so whether GRUB adds it is not "
		                "known (%.600s:%u)",
		                st->menu_file, st->menu_line);
		return 1;
	case SBAT_BOOT_MENU_COMMAND:
		cli_textbuf_put(t, "%s %s (%.600s:%u)", st->menu_word, st->menu_text, st->menu_file, st->menu_line);
		return 1;
	case SBAT_BOOT_MENU_NEXT_COMMAND:
		cli_textbuf_put(t, "%s %s (%.800s:%u)", st->menu_word, st->menu_text, st->menu_file, st->menu_line);
		return 1;
	default: return 0;
	}
}

/* Why GRUB's configuration is not followed: where GRUB finds it, how it is chained. */
static int
menu_config_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	switch (st->menu_why) {
	case SBAT_BOOT_MENU_NO_ENTRIES:
		cli_textbuf_put(t, "%s: no menu entry in it starts a kernel or an EFI program", st->menu_file);
		return 1;
	case SBAT_BOOT_MENU_LOOP: cli_textbuf_put(t, "a loop: %.1100s is read again", st->menu_file); return 1;
	case SBAT_BOOT_MENU_NO_CONFIG:
		cli_textbuf_put(t, "%s: GRUB finds no grub.cfg next to it", cli_render_partition_why(st->miss));
		return 1;
	case SBAT_BOOT_MENU_MEMDISK_UNREADABLE:
		cli_textbuf_put(t, "GRUB's memdisk does not read: %s", diag_words(&st->diag));
		return 1;
	case SBAT_BOOT_MENU_NO_PREFIX:
		cli_textbuf_put(t, "GRUB's normal mode reads $prefix/grub.cfg, and $prefix is not known: %s",
		                st->menu_text ? st->menu_text : "it is not set");
		return 1;
	case SBAT_BOOT_MENU_PREFIX_DEVICE:
	case SBAT_BOOT_MENU_PREFIX_NO_MEMDISK:
		cli_textbuf_put(
		    t, "GRUB's prefix %.1000s names a device by the firmware's disk numbering%s: not followed",
		    st->menu_word, st->menu_why == SBAT_BOOT_MENU_PREFIX_NO_MEMDISK ? " (GRUB has no memdisk)" : "");
		return 1;
	case SBAT_BOOT_MENU_MODS_UNREADABLE:
		cli_textbuf_put(t, "GRUB's mods section does not read: %s (offset %llu in it)", diag_words(&st->diag),
		                (unsigned long long)st->diag.offset);
		return 1;
	case SBAT_BOOT_MENU_OVER_LIMIT:
		cli_textbuf_put(
		    t,
		    "%zu entries more than the %zu read on a partition, so systemd-boot's menu and the entry "
		    "it starts are not known",
		    st->over, st->limit);
		return 1;
	default: return 0;
	}
}

void
cli_render_stage3_menu(const sbat_boot_stage *st, cli_textbuf *t)
{
	const char *fixed = menu_fixed_to_string(st->menu_why);

	if (fixed)
		cli_textbuf_put(t, "%s", fixed);
	else if (st->menu_why == SBAT_BOOT_MENU_LEFT_OUT)
		left_out_words(st, t);
	else if (!menu_file_words(st, t))
		menu_config_words(st, t);
}

/* What chose systemd-boot's default entry (p: its pattern). */
static void
sdboot_default_words(const cli_default_facts *d, cli_textbuf *t)
{
	const char *p = d->default_value;

	switch (d->sdboot_by) {
	case -1: break; /* its menu did not read */
	case SBAT_SDBOOT_BY_MENU_FORCE:
		cli_textbuf_put(t, "none: the menu waits for a key (timeout menu-force)");
		break;
	case SBAT_SDBOOT_BY_ONESHOT:
		cli_textbuf_put(t, "the variable LoaderEntryOneShot \"%s\" (this boot only)", p);
		break;
	case SBAT_SDBOOT_BY_EFI_DEFAULT: cli_textbuf_put(t, "the variable LoaderEntryDefault \"%s\"", p); break;
	case SBAT_SDBOOT_BY_EFI_SAVED: cli_textbuf_put(t, "the variable LoaderEntryLastBooted \"%s\"", p); break;
	case SBAT_SDBOOT_BY_CONF_SAVED:
		cli_textbuf_put(t, "the variable LoaderEntryLastBooted \"%s\" (loader.conf: default @saved)", p);
		break;
	case SBAT_SDBOOT_BY_CONF_DEFAULT:
		cli_textbuf_put(t, "loader.conf's default \"%s\" (line %u)", p, d->default_line);
		break;
	case SBAT_SDBOOT_BY_FIRST:
		cli_textbuf_put(t, "the first entry of systemd-boot's menu%s",
		                (d->default_flags & SBAT_BOOT_DEFAULT_CONF) ? " (loader.conf's default matches none)" :
		                                                              "");
		break;
	case SBAT_SDBOOT_BY_OVER_LIMIT: cli_textbuf_put(t, "not known: more entries than are read"); break;
	case SBAT_SDBOOT_BY_SYSFAIL:
		cli_textbuf_put(
		    t, "not known: after a failed firmware update systemd-boot starts LoaderEntrySysFail's \"%s\"", p);
		break;
	case SBAT_SDBOOT_BY_VERSION_UNKNOWN:
		cli_textbuf_put(t, "not known: systemd-boot's version is not known, and releases choose differently");
		break;
	default: cli_textbuf_put(t, "none: systemd-boot finds no entry to start"); break;
	}
}

/* What GRUB's `default` holds, or why its menu starts nothing by itself. */
static void
grub_default_words(const cli_default_facts *d, cli_textbuf *t)
{
	const char *v = d->default_value, *set = d->default_setting;

	switch (d->grub_by) {
	case SBAT_BOOT_GRUB_BY_NONE: cli_textbuf_put(t, "none: GRUB's menu is not known"); return;
	case SBAT_BOOT_GRUB_BY_NO_TIMEOUT:
		cli_textbuf_put(t, "none: no timeout is set, so GRUB's menu waits for a key");
		return;
	case SBAT_BOOT_GRUB_BY_TIMEOUT_WAITS:
		cli_textbuf_put(t, "none: timeout %s (line %u): GRUB's menu waits for a key", set, d->default_line);
		return;
	case SBAT_BOOT_GRUB_BY_VARIABLE:
		cli_textbuf_put(t, "none known: set default=\"%s\" (line %u) uses a variable", set, d->default_line);
		return;
	case SBAT_BOOT_GRUB_BY_NO_ENTRIES: cli_textbuf_put(t, "none: the menu has no entries"); return;
	case SBAT_BOOT_GRUB_BY_CONDITIONAL:
		cli_textbuf_put(t,
		                "not known: it, or an entry before it, is inside an if or a loop that sbat-add cannot "
		                "run, so which entry GRUB starts is not known");
		return;
	case SBAT_BOOT_GRUB_BY_NEXT_ENTRY:
		cli_textbuf_put(t, "grubenv's next_entry \"%s\" (this boot only; line %u)", v, d->default_line);
		break;
	case SBAT_BOOT_GRUB_BY_SAVED_ENTRY:
		cli_textbuf_put(t, "grubenv's saved_entry \"%s\" (set default=%s, line %u)", v, set, d->default_line);
		break;
	case SBAT_BOOT_GRUB_BY_NO_SAVED:
		cli_textbuf_put(t, "set default=%s (line %u), and grubenv has no saved_entry", set, d->default_line);
		break;
	case SBAT_BOOT_GRUB_BY_SET_DEFAULT:
		cli_textbuf_put(t, "set default=\"%s\" (line %u)", set, d->default_line);
		break;
	default: cli_textbuf_put(t, "no default is set"); break;
	}
	if (d->default_flags & SBAT_BOOT_DEFAULT_NAMES_NONE)
		cli_textbuf_put(t, ", which names no entry: GRUB takes the first");
	else if (d->default_flags & SBAT_BOOT_DEFAULT_FIRST)
		cli_textbuf_put(t, ": the first entry");
}

void
cli_render_stage3_default_words(const cli_default_facts *d, cli_textbuf *t)
{
	if (d->loader == SBAT_BOOT_LOADER_GRUB)
		grub_default_words(d, t);
	else if (d->loader == SBAT_BOOT_LOADER_SDBOOT)
		sdboot_default_words(d, t);
}

void
cli_render_stage3_default_by(const sbat_boot_stage *st, cli_textbuf *t)
{
	cli_default_facts d;

	d.loader = st->loader;
	d.sdboot_by = st->sdboot_by;
	d.grub_by = st->grub_by;
	d.default_value = st->default_value ? st->default_value : "";
	d.default_setting = st->default_setting ? st->default_setting : "";
	d.default_line = st->default_line;
	d.default_flags = st->default_flags;
	cli_render_stage3_default_words(&d, t);
}

void
cli_render_stage3_tail(const sbat_boot_stage *st, cli_textbuf *t)
{
	if (rule_words_to_string(st->rule))
		cli_textbuf_put(t, " [%s]", rule_words_to_string(st->rule));
	if (!st->missing)
		return;
	if (st->loader == SBAT_BOOT_LOADER_GRUB)
		cli_textbuf_put(t, " (its initrd %s is missing: GRUB fails to start the entry)", st->missing);
	else
		cli_textbuf_put(t, " (its %s %s %s: systemd-boot fails to start the entry)", st->missing_key,
		                st->missing, cli_render_partition_is(st->missing_miss));
}
