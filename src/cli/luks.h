/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luks.h - --luks: each systemd-tpm2 token of a LUKS2 volume judged against today's PCR values and the predicted ones */
#ifndef SBAT_CLI_LUKS_H
#define SBAT_CLI_LUKS_H

#include "sbat/eventlog.h"
#include "sbat/pcr7.h"

#include "options.h"

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

#endif
