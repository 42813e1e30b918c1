/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bview.h - bounds-checked reads from an untrusted byte buffer */
#ifndef SBAT_BVIEW_H
#define SBAT_BVIEW_H

#include <stddef.h>
#include <stdint.h>

/*
 * A read-only view of buf[0..len). Every read names an absolute offset and
 * a width; a read that does not lie wholly inside the view sets `bad` and
 * returns 0, and `bad` stays set (sticky), so a block of field reads needs
 * one check at its end. `bad_offset` remembers the first failing offset.
 */
typedef struct bview {
	const uint8_t *p;
	size_t len;
	int bad;
	uint64_t bad_offset;
} bview;

void bv_init(bview *v, const uint8_t *p, size_t len);

/* 1 if [off, off+n) lies in the view; computed by subtraction, never off+n. */
int bv_has(const bview *v, uint64_t off, uint64_t n);

uint8_t bv_u8(bview *v, uint64_t off);
uint16_t bv_le16(bview *v, uint64_t off);
uint32_t bv_le32(bview *v, uint64_t off);

/* Pointer to n bytes at off, or NULL (and bad set) when out of range. */
const uint8_t *bv_ptr(bview *v, uint64_t off, uint64_t n);

#endif
