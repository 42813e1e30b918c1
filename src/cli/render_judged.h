/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_judged.h - the words of shim's SBAT check and of the signature gate of a stage */
#ifndef SBAT_CLI_RENDER_JUDGED_H
#define SBAT_CLI_RENDER_JUDGED_H

#include "sbat/bootreport.h"

#include "textbuf.h"

/* shim's check of the image as words, from the verdict word on ("refused: grub,3 is below grub,4 ..."). */
void cli_render_judged_words(const sbat_boot_stage *st, cli_textbuf *t);

/* The same for the kernel in a UKI's .linux ("refused: the kernel in its .linux section: ..."). */
void cli_render_uki_kernel_words(const sbat_boot_stage *st, cli_textbuf *t);

/* The signature gate's words, after its verdict ("its signature chains to CN=..., in db"). */
void cli_render_signature_words(const sbat_boot_stage *st, cli_textbuf *t);

/*
 * The line of a stage whose SBAT words (from the verdict word on) are sbat,
 * with its signature gate: a signature that decided comes first, the SBAT
 * words in brackets; an accepted one follows in brackets. shim: shim's own
 * line, whose words are cut shorter.
 */
void cli_render_gated(const sbat_boot_stage *st, const char *sbat, int shim, cli_textbuf *t);

#endif
