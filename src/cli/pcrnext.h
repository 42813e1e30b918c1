/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcrnext.h - --check-level next with an event log: PCR 4, 7 and 14 of the next boot along the default path */
#ifndef SBAT_CLI_PCRNEXT_H
#define SBAT_CLI_PCRNEXT_H

#include "sbat/bootreport.h"
#include "sbat/pcrnext.h"

#include "options.h"

/*
 * The prediction along the default path of r, when a log is there: --event-log's, or the kernel's when
 * efivarfs is the running one. *ret NULL (and *ret_why, static, says why, NULL when no log is meant) when
 * none is made; with the pending updates the walk applied (its PENDING notes), appended as the firmware does.
 * *ret_trusted: 0 when the TPM does not hold what the log replays to.
 */
void cli_pcrnext_make(const cli_opts *o, const sbat_boot_report *r, sbat_pcrnext **ret, const char **ret_entry,
                      const char **ret_why, int *ret_trusted);

/* Its lines under the path (text), or the JSON member "pcrs" (with a trailing comma and newline). */
void cli_pcrnext_print_text(const sbat_pcrnext *p, const char *entry, const char *why, int trusted);
void cli_pcrnext_print_json(const sbat_pcrnext *p, const char *entry, const char *why, int trusted);

#endif
