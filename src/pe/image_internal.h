/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* image_internal.h - what the library sees of an sbat_image: the model, the buffer it borrows */
#ifndef SBAT_PE_IMAGE_INTERNAL_H
#define SBAT_PE_IMAGE_INTERNAL_H

#include "sbat/image.h"

#include "pe/model.h"

/* The accessors hand out pointers into pe (its info and section_info): there is no second copy. */
struct sbat_image {
	sbat_pe pe;
	const uint8_t *buf;
	size_t len;
};

#endif
