/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_codes.c - a stage's codes for --json: the gate, what chose the default entry, why a menu line stops */
#include <stddef.h>

#include "sbat/bootreport.h"
#include "sbat/sdboot.h"
#include "sbat/sigverify.h"

#include "render_codes.h"
#include "strtable.h"

static const char *const gate_table[] = {
	[SBAT_BOOT_GATE_NONE] = "none",
	[SBAT_BOOT_GATE_SBAT] = "sbat",
	[SBAT_BOOT_GATE_SIGNATURE] = "signature",
	[SBAT_BOOT_GATE_SHIM] = "shim",
	[SBAT_BOOT_GATE_MENU] = "menu",
	[SBAT_BOOT_GATE_FIRMWARE] = "firmware",
	[SBAT_BOOT_GATE_BOOTMGR_SVN] = "bootmgr-svn",
};

CLI_STRTABLE_LOOKUP(gate, sbat_boot_gate)

static const char *const grub_by_table[] = {
	[SBAT_BOOT_GRUB_BY_NO_TIMEOUT] = "no-timeout",   [SBAT_BOOT_GRUB_BY_TIMEOUT_WAITS] = "timeout-waits",
	[SBAT_BOOT_GRUB_BY_NEXT_ENTRY] = "next-entry",   [SBAT_BOOT_GRUB_BY_SAVED_ENTRY] = "saved-entry",
	[SBAT_BOOT_GRUB_BY_NO_SAVED] = "no-saved",       [SBAT_BOOT_GRUB_BY_VARIABLE] = "variable",
	[SBAT_BOOT_GRUB_BY_SET_DEFAULT] = "set-default", [SBAT_BOOT_GRUB_BY_NOT_SET] = "not-set",
	[SBAT_BOOT_GRUB_BY_NO_ENTRIES] = "no-entries",   [SBAT_BOOT_GRUB_BY_CONDITIONAL] = "conditional",
};

CLI_STRTABLE_LOOKUP(grub_by, sbat_boot_grub_by)

static const char *const menu_why_table[] = {
	[SBAT_BOOT_MENU_LEFT_OUT] = "left-out",
	[SBAT_BOOT_MENU_NOT_FOUND] = "not-found",
	[SBAT_BOOT_MENU_OUTSIDE_BOOT] = "outside-boot",
	[SBAT_BOOT_MENU_NOT_MOUNTED] = "not-mounted",
	[SBAT_BOOT_MENU_OUTSIDE_MOUNT] = "outside-mount",
	[SBAT_BOOT_MENU_CONDITIONAL] = "conditional",
	[SBAT_BOOT_MENU_COMMAND] = "command",
	[SBAT_BOOT_MENU_NEXT_COMMAND] = "next-command",
	[SBAT_BOOT_MENU_NO_ENTRIES] = "no-entries",
	[SBAT_BOOT_MENU_LOOP] = "loop",
	[SBAT_BOOT_MENU_NO_CONFIG] = "no-config",
	[SBAT_BOOT_MENU_UNREADABLE] = "unreadable",
	[SBAT_BOOT_MENU_TOO_DEEP] = "too-deep",
	[SBAT_BOOT_MENU_OVER_LIMIT] = "over-limit",
	[SBAT_BOOT_MENU_EMPTY] = "empty",
	[SBAT_BOOT_MENU_IN_MEMDISK] = "in-memdisk",
	[SBAT_BOOT_MENU_MEMDISK_UNREADABLE] = "memdisk-unreadable",
	[SBAT_BOOT_MENU_NOT_IN_MEMDISK] = "not-in-memdisk",
	[SBAT_BOOT_MENU_NO_MEMDISK] = "no-memdisk",
	[SBAT_BOOT_MENU_NO_PREFIX] = "no-prefix",
	[SBAT_BOOT_MENU_PREFIX_DEVICE] = "prefix-device",
	[SBAT_BOOT_MENU_PREFIX_NO_MEMDISK] = "prefix-no-memdisk",
	[SBAT_BOOT_MENU_MODS_UNREADABLE] = "mods-unreadable",
};

CLI_STRTABLE_LOOKUP(menu_why, sbat_boot_menu_why)

const char *
cli_render_gate(const sbat_boot_stage *st)
{
	const char *name = gate_to_string(st->gate);

	return name ? name : "unknown";
}

const char *
cli_render_default_code(const sbat_boot_stage *st)
{
	if (st->loader == SBAT_BOOT_LOADER_SDBOOT)
		return st->sdboot_by >= 0 ? sbat_sdboot_by_name((sbat_sdboot_by)st->sdboot_by) : NULL;
	if (st->loader == SBAT_BOOT_LOADER_GRUB)
		return grub_by_to_string(st->grub_by);
	return NULL;
}

const char *
cli_render_menu_why(const sbat_boot_stage *st)
{
	return st->reason == SBAT_BOOT_MENU ? menu_why_to_string(st->menu_why) : NULL;
}

const char *
cli_render_signature_reason(const sbat_boot_stage *st)
{
	return st->signature_judged && st->signature_reason >= 0 ?
	           sbat_sigverify_reason_name((sbat_sigverify_reason)st->signature_reason) :
	           NULL;
}
