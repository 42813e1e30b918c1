/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcr7vars.h - the variables PCR 7 measures, read from efivarfs when first needed or set by the caller */
#ifndef SBAT_TPM_PCR7VARS_H
#define SBAT_TPM_PCR7VARS_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/pcr7.h"

/*
 * Variable name of vendor guid (lowercase text): *ret_data and *ret_len its
 * data (the set's: valid until the set changes), *ret_present 0 when it
 * does not exist. A variable that cannot be read fails as
 * sbat_efivar_read does.
 */
sbat_err pcr7vars_get(sbat_pcr7_vars *vars, const char *name, const char *guid, const uint8_t **ret_data,
                      size_t *ret_len, int *ret_present, sbat_diag *reterr);

/* Why variable name of vendor guid is not known after an update (sbat_pcr7_vars_update), or NULL. */
const char *pcr7vars_unknown(const sbat_pcr7_vars *vars, const char *name, const char *guid);

#endif
