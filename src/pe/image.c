/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* image.c - the opaque parsed image: parsed once, then read through accessors */
#include <stdlib.h>
#include <string.h>

#include "sbat/image.h"

#include "util/diag.h"
#include "pe/image_internal.h"

sbat_err
sbat_image_parse(const uint8_t *buf, size_t len, sbat_image **ret_img, sbat_diag *d)
{
	sbat_image *img;
	sbat_image_info *info;
	unsigned i;
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
	info = &img->info;
	info->file_size = img->pe.file_size;
	info->kind = img->pe.kind;
	info->machine = img->pe.machine;
	info->magic = img->pe.magic;
	info->number_of_sections = img->pe.number_of_sections;
	info->file_alignment = img->pe.file_alignment;
	info->section_alignment = img->pe.section_alignment;
	info->size_of_headers = img->pe.size_of_headers;
	info->size_of_image = img->pe.size_of_image;
	info->checksum = img->pe.checksum;
	info->section_table_offset = img->pe.section_table_offset;
	info->section_table_end = img->pe.section_table_end;
	info->header_room = sbat_pe_header_room(&img->pe);
	info->raw_end = img->pe.raw_end;
	info->data_end = img->pe.data_end;
	info->cert_offset = img->pe.cert_offset;
	info->cert_size = img->pe.cert_size;
	info->sbat_index = img->pe.sbat_index;
	info->sbat_count = img->pe.sbat_count;
	info->sbat_ignored = img->pe.sbat_ignored;
	for (i = 0; i < img->pe.number_of_sections; i++) {
		const sbat_pe_section *s = &img->pe.sections[i];
		sbat_section_info *o = &img->sections[i];

		memcpy(o->name, s->name, sizeof(o->name));
		o->virtual_size = s->virtual_size;
		o->virtual_address = s->virtual_address;
		o->size_of_raw_data = s->size_of_raw_data;
		o->pointer_to_raw_data = s->pointer_to_raw_data;
		o->characteristics = s->characteristics;
		o->header_offset = s->header_offset;
	}
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
	return &img->info;
}

const sbat_section_info *
sbat_image_section(const sbat_image *img, unsigned index)
{
	return index < img->pe.number_of_sections ? &img->sections[index] : NULL;
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
