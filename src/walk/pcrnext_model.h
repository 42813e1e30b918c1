/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcrnext_model.h - what a prediction of PCR 4, 7 and 14 holds, shared by pcrnext.c and pcrnext_pcr7.c */
#ifndef SBAT_WALK_PCRNEXT_MODEL_H
#define SBAT_WALK_PCRNEXT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/bootreport.h"
#include "sbat/eventlog.h"
#include "sbat/pcr7.h"
#include "sbat/pcrnext.h"

struct sbat_pcrnext {
	sbat_pcrnext_event *ev; /* each one's data malloc'ed, the prediction's */
	size_t n, cap;
	sbat_pcrnext_value *val;
	size_t n_val;
	size_t n_banks;
	uint16_t alg[SBAT_EVENTLOG_MAX_ALGS];
};

/* What one prediction reads. */
typedef struct pcrnext_in {
	const sbat_eventlog *log;
	sbat_pcr7_vars *vars;
	const sbat_boot_stage **stages; /* the path's, in order */
	size_t n_stages;
	int has_shim; /* a stage of the path is shim going on */
	sbat_pcrnext *p;
	sbat_diag *d;
} pcrnext_in;

/* A new event at the end (data copied; NULL, 0 for none), digests none: SBAT_E_NOMEM. */
sbat_err pcrnext_add(pcrnext_in *in, uint32_t pcr, uint32_t type, size_t log_index, const uint8_t *data, size_t len,
                     sbat_pcrnext_event **ret);

/* The log's digest of e in bank i, or NULL. */
const uint8_t *pcrnext_log_digest(const pcrnext_in *in, const sbat_eventlog_event *e, size_t i);

/* x's digests: data's in every bank. */
void pcrnext_digest_all(const pcrnext_in *in, sbat_pcrnext_event *x);

/* x's digests: the log's event e's, bank by bank. */
void pcrnext_copy_digests(const pcrnext_in *in, sbat_pcrnext_event *x, const sbat_eventlog_event *e);

/* x's state against the log's event e: REPRODUCED when every bank is e's, DIFFERS else. */
void pcrnext_compare(const pcrnext_in *in, sbat_pcrnext_event *x, const sbat_eventlog_event *e);

/* The name of the UEFI_VARIABLE_DATA data[0..len) (ASCII) into buf; "" when it is none. */
void pcrnext_var_name(const uint8_t *data, size_t len, char *buf, size_t size);

/* The text of an EV_IPL event data[0..len) (ASCII up to its NUL) into buf; "" when it is none. */
void pcrnext_ipl_text(const uint8_t *data, size_t len, char *buf, size_t size);

/* PCR 7's events (pcrnext_pcr7.c). */
sbat_err pcrnext_pcr7(pcrnext_in *in);

#endif
