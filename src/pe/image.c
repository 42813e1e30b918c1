/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* image.c - the opaque parsed image: parsed once, then read through accessors */
#include <stdlib.h>
#include <string.h>

#include "sbat/image.h"

#include "util/diag.h"
#include "pe/image_internal.h"

/*
 * Padding before a section's raw data is read when the section is dropped or
 * moved (is it only zeros?); a gap larger than this is not padding.
 */
#define MAX_PADDING (64u * 1024u)

/* Where section i's raw data starts, with the padding back to the raw data before it. */
static uint64_t
start_with_padding(const sbat_pe *pe, unsigned i)
{
	uint64_t start = pe->sections[i].pointer_to_raw_data, prev = 0;
	unsigned k;

	for (k = 0; k < pe->number_of_sections; k++) {
		uint64_t end = (uint64_t)pe->sections[k].pointer_to_raw_data + pe->sections[k].size_of_raw_data;

		if (k != i && pe->sections[k].size_of_raw_data && end <= start && end > prev)
			prev = end;
	}
	return start - prev <= MAX_PADDING ? prev : start;
}

static void
add_range(sbat_image *img, uint64_t from, uint64_t to)
{
	if (to > img->len)
		to = img->len;
	if (from >= to)
		return;
	img->decided_range[img->n_decided].offset = from;
	img->decided_range[img->n_decided].len = (size_t)(to - from);
	img->n_decided++;
}

/* Copy the bytes an edit decides from (see image_internal.h). */
static sbat_err
keep_decided(sbat_image *img, sbat_diag *d)
{
	const sbat_pe *pe = &img->pe;
	uint64_t headers = pe->size_of_headers > pe->section_table_end ? pe->size_of_headers : pe->section_table_end;
	size_t total = 0;
	unsigned i;

	/* bytes up to the first section's data are read as free header room */
	if (pe->lowest_raw_pointer > headers && pe->lowest_raw_pointer - headers <= MAX_PADDING)
		headers = pe->lowest_raw_pointer;
	add_range(img, 0, headers);
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		if ((int)i == pe->sbat_index || memcmp(s->name, ".pcrsig", 8) == 0)
			add_range(img, start_with_padding(pe, i),
			          (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data);
		if (img->n_decided == SBAT_IMAGE_MAX_DECIDED)
			break;
	}
	for (i = 0; i < img->n_decided; i++)
		total += img->decided_range[i].len;
	img->decided = malloc(total ? total : 1);
	if (!img->decided)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	for (total = 0, i = 0; i < img->n_decided; i++) {
		memcpy(img->decided + total, img->buf + img->decided_range[i].offset, img->decided_range[i].len);
		img->decided_range[i].bytes = img->decided + total;
		total += img->decided_range[i].len;
	}
	return SBAT_OK;
}

sbat_err
sbat_image_parse(const uint8_t *buf, size_t len, sbat_image **ret_img, sbat_diag *d)
{
	sbat_image *img;
	sbat_err err;

	/* several KiB of fixed arrays: always on the heap */
	img = calloc(1, sizeof(*img));
	if (!img)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	err = pe_parse(buf, len, &img->pe, d);
	if (err) {
		free(img);
		return err;
	}
	img->buf = buf;
	img->len = len;
	err = keep_decided(img, d);
	if (err) {
		free(img);
		return err;
	}
	*ret_img = img;
	return SBAT_OK;
}

sbat_image *
sbat_image_free(sbat_image *img)
{
	if (img)
		free(img->decided);
	free(img);
	return NULL;
}

const sbat_image_info *
sbat_image_get_info(const sbat_image *img)
{
	return &img->pe.info;
}

const sbat_section_info *
sbat_image_section(const sbat_image *img, unsigned index)
{
	return index < img->pe.number_of_sections ? &img->pe.section_info[index] : NULL;
}

size_t
sbat_image_section_name(const sbat_image *img, unsigned index, char *buf, size_t size)
{
	return pe_section_name(&img->pe, img->buf, img->len, index, buf, size);
}

int
sbat_image_find_section(const sbat_image *img, const char *name)
{
	return pe_find_section(&img->pe, img->buf, img->len, name);
}

sbat_err
sbat_image_sbat_data(const sbat_image *img, const uint8_t **ret_data, size_t *ret_len, sbat_diag *d)
{
	return pe_sbat_data(&img->pe, img->buf, img->len, ret_data, ret_len, d);
}
