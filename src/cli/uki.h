/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* uki.h - the command's words on editing a UKI: PCR 11 and its signed policy */
#ifndef SBAT_CLI_UKI_H
#define SBAT_CLI_UKI_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/edit.h"
#include "sbat/image.h"

#include "options.h"

/*
 * After an edit (or its dry run) of a UKI: a warning when .pcrsig was kept
 * stale (always, even with --quiet), what --pcrsig=drop did, a warning when
 * PCR 11 changes for a UKI with only .pcrpkey, a note when the stub does
 * not measure what changed.
 */
void cli_uki_notes(const cli_opts *o, const sbat_image *img, const sbat_edit_report *r);

/* --verbose: PCR 11 (SHA-256) before and after the edit, the stub's value and each phase's. */
void cli_describe_pcr11(const cli_opts *o, const sbat_image *img, int fd, const sbat_edit_opts *eo,
                        const uint8_t *payload, size_t payload_len);

#endif
