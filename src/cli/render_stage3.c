/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_stage3.c - the words of stage 3: a loader's menu, its default entry, the rule shim applies */
#include <stdio.h>
#include <string.h>

#include "sbat/bootreport.h"

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

void
cli_render_stage3_default_by(const sbat_boot_stage *st, cli_textbuf *t)
{
	(void)st;
	(void)t;
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
