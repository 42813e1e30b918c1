/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* eventlog_model.h - what a parsed event log holds, shared by the files of src/tpm */
#ifndef SBAT_TPM_EVENTLOG_MODEL_H
#define SBAT_TPM_EVENTLOG_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/eventlog.h"

struct sbat_eventlog {
	uint8_t *buf; /* the log, copied: events and digests point into it */
	size_t len;
	sbat_eventlog_event *events;
	size_t n_events;
	sbat_eventlog_digest *digests; /* every event's, one array */
	size_t n_digests;
	sbat_eventlog_bank banks[SBAT_EVENTLOG_MAX_ALGS];
	size_t n_banks;
	int locality; /* of the StartupLocality event that set PCR 0's start; -1: none */
};

#endif
