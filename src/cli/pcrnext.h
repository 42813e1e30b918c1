/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcrnext.h - --check-level next with an event log: PCR 4, 7 and 14 of the next boot along each boot path */
#ifndef SBAT_CLI_PCRNEXT_H
#define SBAT_CLI_PCRNEXT_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/bootreport.h"
#include "sbat/eventlog.h"
#include "sbat/pcrnext.h"

#include "options.h"

/* The paths predicted at most (the default first). */
#define CLI_PCRNEXT_MAX_PATHS 32

/* The prediction of every path of a walk's report, from one log. */
typedef struct cli_prediction {
	const char *why;       /* none is made: why (static); NULL also when no log is meant */
	int trusted;           /* 0: the TPM does not hold what the log replays to (every value is unknown) */
	int running;           /* the log is the kernel's: the prediction is this machine's */
	sbat_eventlog *log;    /* the log predicted from (today's values of the other PCRs), or NULL */
	sbat_eventlog_tpm tpm; /* and what the TPM says of it */
	size_t n;              /* paths predicted, the default first; 0 when none is */
	const char *entry[CLI_PCRNEXT_MAX_PATHS];
	sbat_pcrnext *p[CLI_PCRNEXT_MAX_PATHS];
	size_t n_updates; /* the pending updates the walk applied (its PENDING notes), as appended */
	struct {
		const char *var;
		size_t added; /* entries the append adds */
	} update[CLI_MAX_PENDING];
} cli_prediction;

/*
 * The prediction of each path of r, when a log is there: --event-log's, or the kernel's when efivarfs is the
 * running one; with the pending updates the walk applied, appended as the firmware does. Free with
 * cli_pcrnext_free.
 */
void cli_pcrnext_make(const cli_opts *o, const sbat_boot_report *r, cli_prediction *ret);
void cli_pcrnext_free(cli_prediction *c);

/*
 * What changes pcr along p (its events that are not the log's: the pending update, the authority, the image, the
 * MOK variable), worded into buf: "the pending dbx update adds 2 entries; \EFI\Linux\uki.efi is another image";
 * "" when nothing does.
 */
const char *cli_pcrnext_changes(const cli_prediction *c, const sbat_pcrnext *p, uint32_t pcr, char *buf, size_t size);

/* The lines of each path (text), or the JSON members "pcrs" and "pcrs_other_paths" (a trailing comma, newline). */
void cli_pcrnext_print_text(const cli_prediction *c);
void cli_pcrnext_print_json(const cli_prediction *c);

#endif
