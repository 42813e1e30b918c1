/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luks.h - --luks: each systemd-tpm2 token of a LUKS2 volume judged against today's PCR values and the predicted ones */
#ifndef SBAT_CLI_LUKS_H
#define SBAT_CLI_LUKS_H

#include "sbat/eventlog.h"
#include "sbat/pcr7.h"

#include "options.h"
#include "pcrnext.h"

/* cli_run_luks (options.h), --luks alone: each token against the TPM's PCRs now (SBAT_ADD_TPM, else the kernel's
 * pcr-BANK/N). */

/*
 * --luks with --event-log: today's values are the TPM's, else the log's
 * replay (when the TPM does not contradict it); the predicted ones are
 * those with PCR 7 from model m (NULL or a log that differs: unknown).
 * Prints the report (text, or with --json the value of a "luks" member,
 * without a trailing newline) and returns its exit status, given the
 * status so far.
 */
int cli_luks_report(const cli_opts *o, const sbat_eventlog *log, sbat_eventlog_tpm state, const sbat_pcr7 *m,
                    int status);

/*
 * --check-level next: the --luks volumes, or without any, when the prediction is this machine's (the kernel's log)
 * or SBAT_ADD_BLOCK_ROOT names a directory that stands for / (ROOT/sys/class/block lists the devices, ROOT/dev/NAME
 * is read), the block devices whose first 4 KiB start a LUKS2 header; each token judged against today's values and
 * the default path's prediction (PCR 4, 7 and 14 from c, the others today's). Prints the scan's line and the
 * report (text, or with --json the members "luks_scan" and "luks", each with a trailing comma and newline) and
 * returns the exit status, given the status so far; status as it is when there is nothing to judge.
 */
int cli_luks_next(const cli_opts *o, const cli_prediction *c, int status);

#endif
