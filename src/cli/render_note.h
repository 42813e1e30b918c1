/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_note.h - a note of the boot report (a record) in words */
#ifndef SBAT_CLI_RENDER_NOTE_H
#define SBAT_CLI_RENDER_NOTE_H

#include <stddef.h>

#include "sbat/bootreport.h"

/* What note n says, into buf[0..size) (or a fixed text); NULL for an error that its diag says. */
const char *cli_render_note(const sbat_boot_note *n, char *buf, size_t size);

#endif
