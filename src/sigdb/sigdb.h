/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigdb.h - the signature database's appends with an offset base, for the loaders */
#ifndef SBAT_SIGDB_SIGDB_H
#define SBAT_SIGDB_SIGDB_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"
#include "sbat/sigdb.h"

/* sbat_sigdb_append, buf[0] being at offset base of its source (for the diagnostics and entries' offsets). */
sbat_err sigdb_append_at(sbat_sigdb *db, const uint8_t *buf, size_t len, uint64_t base, const char *source,
                         sbat_diag *reterr);

#endif
