/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-opbyte.h - the driver of the harnesses whose operation byte's top bit picks one of two readers */
#ifndef SBAT_FUZZ_OPBYTE_H
#define SBAT_FUZZ_OPBYTE_H

/*
 * Shared by fuzz-uki.c and fuzz-authenticode.c. The input is one operation
 * byte, then the data (inputs of more than max bytes, or empty, are
 * ignored). The data is copied to a buffer of exactly its size, so that a
 * read past its end is caught, and given with the operation byte to
 * top_set when its bit 7 is set, else to top_clear. The harness aborts,
 * naming itself, when the reader modified the data.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void fuzz_opbyte_reader(const uint8_t *p, size_t n, unsigned op);

static inline int
fuzz_opbyte_run(const char *harness, const uint8_t *data, size_t size, size_t max, fuzz_opbyte_reader *top_set,
                fuzz_opbyte_reader *top_clear)
{
	uint8_t *copy;

	if (size < 1 || size > max)
		return 0;
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (data[0] & 0x80u)
		top_set(copy, size - 1, data[0]);
	else
		top_clear(copy, size - 1, data[0]);
	if (size > 1 && memcmp(copy, data + 1, size - 1) != 0) {
		fprintf(stderr, "%s: invariant violated: the input was modified\n", harness);
		fflush(stderr);
		abort();
	}
	free(copy);
	return 0;
}

#endif
