/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcr7.h - --event-log's PCR 7: each event made again from the variables, and the next boot's value */
#ifndef SBAT_CLI_PCR7_H
#define SBAT_CLI_PCR7_H

#include "sbat/bootreport.h"
#include "sbat/eventlog.h"
#include "sbat/pcr7.h"

#include "options.h"

/*
 * The model of log's PCR 7 from the variables of cli_efivarfs_dir(), with
 * o's --pending updates checked as the firmware checks the write
 * (sbat_walk_pending_check) and those it takes appended as it appends them:
 * EXIT_OK, *ret and *ret_pending (the updates' notes; NULL without
 * --pending), or an exit status after a message naming the file.
 */
int cli_pcr7_build(const cli_opts *o, const sbat_eventlog *log, sbat_pcr7 **ret, sbat_boot_report **ret_pending);

/*
 * The events, each pending update's fate and each bank's value, in words; trusted: 0 when the log does not
 * match the TPM.
 */
void cli_pcr7_print_text(const cli_opts *o, const sbat_pcr7 *m, const sbat_boot_report *pending, int trusted);

/* The same as the JSON object "pcr7" (no trailing newline). */
void cli_pcr7_print_json(const cli_opts *o, const sbat_pcr7 *m, const sbat_boot_report *pending, int trusted);

/* An event type's name ("EV_SEPARATOR"), or the type in hex in buf. */
const char *cli_pcr7_type_label(uint32_t type, char *buf, size_t size);

#endif
