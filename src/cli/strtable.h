/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* strtable.h - the words of an enum: one table indexed by its values, and the lookup made from it */
#ifndef SBAT_CLI_STRTABLE_H
#define SBAT_CLI_STRTABLE_H

#include <stddef.h>

/*
 * CLI_STRTABLE_LOOKUP(name, type) defines `static const char
 * *name_to_string(type v)` over the table `name_table[]`, declared before
 * it with designated initializers ([VALUE] = "word"): the word of v, or
 * NULL for a value past the table or not in it.
 */
#define CLI_STRTABLE_LOOKUP(name, type)                                                                                \
	static const char *name##_to_string(type v)                                                                    \
	{                                                                                                              \
		if ((size_t)v >= sizeof(name##_table) / sizeof(name##_table[0]))                                       \
			return NULL;                                                                                   \
		return name##_table[v];                                                                                \
	}

#endif
