/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* replay.h - the PCR values a parsed event log extends to */
#ifndef SBAT_TPM_REPLAY_H
#define SBAT_TPM_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "tpm/eventlog_model.h"

/* Replay every bank the library hashes into log->banks (it cannot fail: the log is checked). */
void replay_log(sbat_eventlog *log);

/* H(value || digest) into value, for alg (SHA-1, SHA-256, SHA-384, SHA-512); 0 for another alg. */
int replay_extend(uint16_t alg, uint8_t *value, const uint8_t *digest, size_t size);

/* The digest of data[0..len) by alg (SHA-1, SHA-256, SHA-384, SHA-512) into out; 0 for another alg. */
int replay_digest(uint16_t alg, const uint8_t *data, size_t len, uint8_t *out);

#endif
