/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* image.c - the opaque parsed image: parsed once, then read through accessors */
#include <stdlib.h>

#include "sbat/image.h"

#include "util/diag.h"
#include "pe/image_internal.h"

sbat_err
sbat_image_parse(const uint8_t *buf, size_t len, sbat_image **ret_img, sbat_diag *d)
{
	sbat_image *img;
	sbat_err err;

	/* several KiB of fixed arrays: always on the heap */
	img = calloc(1, sizeof(*img));
	if (!img)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	err = sbat_pe_parse(buf, len, &img->pe, d);
	if (err) {
		free(img);
		return err;
	}
	img->buf = buf;
	img->len = len;
	*ret_img = img;
	return SBAT_OK;
}

sbat_image *
sbat_image_free(sbat_image *img)
{
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
	return sbat_pe_section_name(&img->pe, img->buf, img->len, index, buf, size);
}

int
sbat_image_find_section(const sbat_image *img, const char *name)
{
	return sbat_pe_find_section(&img->pe, img->buf, img->len, name);
}

sbat_err
sbat_image_sbat_data(const sbat_image *img, const uint8_t **ret_data, size_t *ret_len, sbat_diag *d)
{
	return sbat_pe_sbat_data(&img->pe, img->buf, img->len, ret_data, ret_len, d);
}
