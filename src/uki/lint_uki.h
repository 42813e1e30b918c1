/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint_uki.h - the UKI rules of --lint, told to the image linter through a callback */
#ifndef SBAT_UKI_LINT_UKI_H
#define SBAT_UKI_LINT_UKI_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/lint.h"
#include "pe/model.h"

typedef void (*uki_report_fn)(void *ctx, sbat_lint_severity severity, const char *rule, const char *what, int section,
                              uint64_t offset, unsigned loaders);

/*
 * When the image is a UKI: its .pcrsig (parses, signs PCR 11, signs the
 * values this image produces), .pcrsig without .pcrpkey, malformed
 * .profile sections, and its .sbat as ukify writes it (row order, NULs,
 * whitespace, before the first .profile). Each finding goes to fn; nothing else happens.
 */
void lint_uki(const sbat_pe *pe, const uint8_t *buf, size_t len, uki_report_fn fn, void *ctx);

#endif
