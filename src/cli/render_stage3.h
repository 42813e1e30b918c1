/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_stage3.h - the words of stage 3: a loader's menu, its default entry, the rule shim applies */
#ifndef SBAT_CLI_RENDER_STAGE3_H
#define SBAT_CLI_RENDER_STAGE3_H

#include "sbat/bootreport.h"

#include "textbuf.h"

/* GRUB's embedded configuration, which has no file name (a stage's file_embedded, a note's NULL chain[0]). */
#define CLI_GRUB_EMBEDDED "GRUB's embedded configuration"

/* Why a line of a loader's menu (reason SBAT_BOOT_MENU) is not followed, or left out: its menu_why. */
void cli_render_stage3_menu(const sbat_boot_stage *st, cli_textbuf *t);

/* What chose a loader's default entry: a stage-3 line's or a note's fields of these names. */
typedef struct cli_default_facts {
	sbat_boot_loader loader;
	int sdboot_by;
	sbat_boot_grub_by grub_by;
	const char *default_value;
	const char *default_setting;
	unsigned default_line;
	int default_flags;
} cli_default_facts;

/* What chose the default entry, or why none is known, in words. */
void cli_render_stage3_default_words(const cli_default_facts *d, cli_textbuf *t);

/* The same for the default entry of st's loader. */
void cli_render_stage3_default_by(const sbat_boot_stage *st, cli_textbuf *t);

/* What a stage-3 line ends with: the rule shim applies in brackets (when one ran), a file the entry misses. */
void cli_render_stage3_tail(const sbat_boot_stage *st, cli_textbuf *t);

#endif
