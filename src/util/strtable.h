/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* strtable.h - an enum's names as a table indexed by the enum, and the one way to look one up */
#ifndef SBAT_UTIL_STRTABLE_H
#define SBAT_UTIL_STRTABLE_H

#include <stddef.h>

/*
 * The name of value v in table, a static array of names indexed by the enum
 * (designated initializers: [SBAT_X_Y] = "y"); fallback when v is out of
 * the table or has no name there.
 */
#define STRTABLE_NAME(table, v, fallback)                                                                              \
	((size_t)(v) < sizeof(table) / sizeof((table)[0]) && (table)[(size_t)(v)] ? (table)[(size_t)(v)] : (fallback))

#endif
