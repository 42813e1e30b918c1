/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* checksum.h - the PE CheckSum, computed incrementally while an image is written */
#ifndef SBAT_PE_CHECKSUM_H
#define SBAT_PE_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Bytes may arrive in any chunking: each is added at its absolute file
 * offset (low byte of a 16-bit word at even offsets, high byte at odd
 * ones). End-around-carry addition is associative, so this equals the
 * word-by-word fold of the whole file.
 */
typedef struct csum {
	uint64_t sum;
	uint64_t field; /* file offset of the 4-byte CheckSum field, counted as zero */
} csum;

void checksum_init(csum *c, uint64_t checksum_offset);
void checksum_add(csum *c, uint64_t offset, const uint8_t *p, size_t n);
uint32_t checksum_final(const csum *c, uint64_t file_size);

#endif
