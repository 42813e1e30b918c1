/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_stage3.c - the words of stage 3: a loader's menu, its default entry, the rule shim applies */
#include <stdio.h>
#include <string.h>

#include "sbat/bootreport.h"

#include "render_stage3.h"
#include "textbuf.h"

void
cli_render_stage3_default_by(const sbat_boot_stage *st, cli_textbuf *t)
{
	(void)st;
	(void)t;
}
