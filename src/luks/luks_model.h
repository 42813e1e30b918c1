/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luks_model.h - the parsed LUKS2 header the files of luks/ share */
#ifndef SBAT_LUKS_LUKS_MODEL_H
#define SBAT_LUKS_LUKS_MODEL_H

#include "sbat/luks.h"

#include "luks/luksjson.h"

struct sbat_luks {
	sbat_luks_header header;
	sbat_luks_tpm2 *tpm2; /* by token number */
	size_t n_tpm2;
};

/*
 * Read the "tokens" object of j's root into l: count them, and read each
 * systemd-tpm2 token. base: the offset of the JSON text in the file, for
 * the diagnostic (SBAT_E_LUKS naming the field, or SBAT_E_NOMEM).
 */
sbat_err luks_tokens_read(sbat_luks *l, const luksjson *j, uint64_t base, sbat_diag *d);

#endif
