/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_stage3.h - the words of stage 3: a loader's menu, its default entry, the rule shim applies */
#ifndef SBAT_CLI_RENDER_STAGE3_H
#define SBAT_CLI_RENDER_STAGE3_H

#include "sbat/bootreport.h"

#include "textbuf.h"

/* Why a line of a loader's menu (reason SBAT_BOOT_MENU) is not followed, or left out: its menu_why. */
void cli_render_stage3_menu(const sbat_boot_stage *st, cli_textbuf *t);

/* What chose the default entry of st's loader. */
void cli_render_stage3_default_by(const sbat_boot_stage *st, cli_textbuf *t);

/* What a stage-3 line ends with: the rule shim applies in brackets (when one ran), a file the entry misses. */
void cli_render_stage3_tail(const sbat_boot_stage *st, cli_textbuf *t);

#endif
