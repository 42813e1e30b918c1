/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* image_internal.h - what the library sees of an sbat_image: the model, the buffer it borrows */
#ifndef SBAT_PE_IMAGE_INTERNAL_H
#define SBAT_PE_IMAGE_INTERNAL_H

#include "sbat/image.h"

#include "pe/model.h"

/* The headers, and the raw data of .sbat and of .pcrsig, each with the padding before it. */
#define SBAT_IMAGE_MAX_DECIDED 3

/* len bytes at file offset `offset`, as the parse saw them (a copy). */
typedef struct sbat_image_range {
	uint64_t offset;
	size_t len;
	const uint8_t *bytes;
} sbat_image_range;

/*
 * The accessors hand out pointers into pe (its info and section_info): there
 * is no second copy of the model. `decided` is a copy of the bytes an edit
 * decides from (where sections go, which rows it merges, whether padding is
 * free): buf maps the file, whose later writes it shows, so an edit that
 * writes compares the file with these copies, to refuse a write it would
 * otherwise undo.
 */
struct sbat_image {
	sbat_pe pe;
	const uint8_t *buf;
	size_t len;
	uint8_t *decided;
	sbat_image_range decided_range[SBAT_IMAGE_MAX_DECIDED];
	unsigned n_decided;
};

#endif
