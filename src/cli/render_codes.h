/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_codes.h - a stage's codes for --json, from the record */
#ifndef SBAT_CLI_RENDER_CODES_H
#define SBAT_CLI_RENDER_CODES_H

#include "sbat/bootreport.h"

/* The gate that decided: "sbat", "signature", "shim", "menu", "firmware", "none". */
const char *cli_render_gate(const sbat_boot_stage *st);

/* Stage 3: what chose the menu's default entry, as a code ("oneshot", "first", "saved-entry", ...); NULL: none. */
const char *cli_render_default_code(const sbat_boot_stage *st);

/* A menu line that stops (reason menu): why, as a code ("not-found", "left-out", ...); else NULL. */
const char *cli_render_menu_why(const sbat_boot_stage *st);

/* The signature check's reason (sbat_sigverify_reason_name) when it ran; else NULL. */
const char *cli_render_signature_reason(const sbat_boot_stage *st);

#endif
