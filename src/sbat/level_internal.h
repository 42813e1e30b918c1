/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* level_internal.h - the one place that says which policy row applies to a .sbat row */
#ifndef SBAT_SBAT_LEVEL_INTERNAL_H
#define SBAT_SBAT_LEVEL_INTERNAL_H

#include "sbat/level.h"

/*
 * The first row of level whose component name is name, byte for byte, as
 * shim's verify_single_entry takes it (later rows of the same name are
 * never looked at), or NULL. Every name must be non-NULL.
 */
const sbat_level_entry *level_first_match(const sbat_level *level, const char *name);

#endif
