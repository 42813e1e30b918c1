/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_judged.c - the words of shim's SBAT check and of the signature gate of a stage */
#include <stdio.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/judge.h"

#include "render_judged.h"
#include "textbuf.h"

void
cli_render_judged_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	(void)st;
	(void)t;
}

void
cli_render_signature_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	(void)st;
	(void)t;
}
