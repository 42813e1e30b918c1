/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sdrelease.h - systemd-boot by release: the menu rules each release changed, as data */
#ifndef SBAT_BOOT_SDRELEASE_H
#define SBAT_BOOT_SDRELEASE_H

#include <stddef.h>

#include "sbat/sdboot.h"

/* One systemd-boot release whose menu rules differ from the release before it. */
typedef struct sdrelease {
	unsigned release;  /* the first major version with these rules */
	unsigned features; /* sbat_sdboot_feature bits */
} sdrelease;

/* The rows, oldest first; *n of them. */
const sdrelease *sdrelease_rows(size_t *n);

/* The row whose rules major version `release` follows; NULL before the first (not known). */
const sdrelease *sdrelease_of(unsigned release);

#endif
