/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_stage.h - a stage of the boot report (a record) in words: its line, and the JSON keys said in words */
#ifndef SBAT_CLI_RENDER_STAGE_H
#define SBAT_CLI_RENDER_STAGE_H

#include <stddef.h>

#include "sbat/bootreport.h"

/* The stage's line from its verdict word on ("boots: not revoked by ..."), into buf[0..size). */
void cli_render_stage(const sbat_boot_stage *st, char *buf, size_t size);

/* The file the stage starts, as the line names it (GRUB's embedded configuration, which has no name, in words). */
const char *cli_render_file(const sbat_boot_stage *st);

/* That line without its verdict's word and the ": " after it: the JSON "detail". */
const char *cli_render_detail(const sbat_boot_stage *st, const char *line);

/* The JSON "reason": "judged", "not-found", ..., "signature" when the signature gate decided. */
const char *cli_render_reason(const sbat_boot_stage *st);

/* Stage 3: the loader's name ("systemd-boot", "grub"), the JSON name of the rule; NULL for none. */
const char *cli_render_loader(const sbat_boot_stage *st);
const char *cli_render_rule(const sbat_boot_stage *st);

/* Stage 3: what chose the default entry, in words, into buf; NULL when the stage has no loader's menu. */
const char *cli_render_default_by(const sbat_boot_stage *st, char *buf, size_t size);

/* What the signature gate found, in words, into buf; NULL when it did not run. */
const char *cli_render_signature(const sbat_boot_stage *st, char *buf, size_t size);

#endif
