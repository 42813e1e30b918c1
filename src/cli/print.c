/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* print.c - --print and the --verbose descriptions of images and edits */
#include <inttypes.h>
#include <stdio.h>

#include "sbat/csv.h"
#include "sbat/edit.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/input.h"

#include "json.h"
#include "print_json.h"
#include "messages.h"
#include "options.h"
#include "sigs.h"

static void
print_escaped(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((p[i] >= 0x20 && p[i] < 0x7f) || p[i] == '\n')
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
	if (n && p[n - 1] != '\n')
		putchar('\n');
}

void
cli_describe_image(const char *file, const sbat_image *img)
{
	const sbat_image_info *i = sbat_image_get_info(img);

	fprintf(stderr,
	        "%s: %s, %s %s, %u sections, FileAlignment 0x%" PRIx32 ", SectionAlignment 0x%" PRIx32
	        ", SizeOfHeaders 0x%" PRIx32 ", SizeOfImage 0x%" PRIx32 "\n",
	        cli_quote(file), sbat_pe_kind_name(i->kind), sbat_pe_format_name(i->magic),
	        sbat_pe_machine_name(i->machine), i->number_of_sections, i->file_alignment, i->section_alignment,
	        i->size_of_headers, i->size_of_image);
}

void
cli_describe_edit(const char *file, const sbat_edit_report *r)
{
	file = cli_quote(file);
	if (r->action == SBAT_ACTION_REMOVE || r->action == SBAT_ACTION_RETIRE) {
		fprintf(stderr, "%s: %s .sbat (section %u)%s\n", file, sbat_edit_action_name(r->action),
		        r->section_index,
		        r->action == SBAT_ACTION_RETIRE ?
		            ": it is not the last section, so it stays in place renamed \"" SBAT_RETIRED_SECTION_NAME
		            "\" and zero-filled" :
		            "");
		goto sizes;
	}
	if (r->retired_index >= 0)
		fprintf(stderr,
		        "%s: old .sbat (section %d) renamed \"" SBAT_RETIRED_SECTION_NAME "\" and zero-filled\n", file,
		        r->retired_index);
	if (r->data_shift)
		fprintf(stderr, "%s: moved all section data by 0x%" PRIx64 " bytes to make room for a section header\n",
		        file, r->data_shift);
	fprintf(stderr,
	        "%s: %s .sbat as section %u: VirtualAddress 0x%" PRIx32 ", VirtualSize 0x%" PRIx32
	        ", PointerToRawData 0x%" PRIx32 ", SizeOfRawData 0x%" PRIx32 ", Characteristics 0x%08" PRIx32 "\n",
	        file, sbat_edit_action_name(r->action), r->section_index, r->virtual_address, r->virtual_size,
	        r->pointer_to_raw_data, r->size_of_raw_data, r->characteristics);
sizes:
	if (r->new_size_of_image != r->old_size_of_image)
		fprintf(stderr, "%s: SizeOfImage 0x%" PRIx32 " -> 0x%" PRIx32 "\n", file, r->old_size_of_image,
		        r->new_size_of_image);
	if (r->new_size_of_headers != r->old_size_of_headers)
		fprintf(stderr, "%s: SizeOfHeaders 0x%" PRIx32 " -> 0x%" PRIx32 "\n", file, r->old_size_of_headers,
		        r->new_size_of_headers);
	if (r->old_checksum != 0)
		fprintf(stderr, "%s: CheckSum 0x%08" PRIx32 " -> 0x%08" PRIx32 "\n", file, r->old_checksum,
		        r->new_checksum);
	if (r->stripped_cert_size)
		fprintf(stderr, "%s: removed the certificate table (%" PRIu32 " bytes); sign the result again\n", file,
		        r->stripped_cert_size);
	if (r->overlay_size && r->overlay_new_offset != r->overlay_offset)
		fprintf(stderr,
		        "%s: kept %" PRIu64 " bytes of trailing data, moved from 0x%" PRIx64 " to 0x%" PRIx64
		        " (after .sbat)\n",
		        file, r->overlay_size, r->overlay_offset, r->overlay_new_offset);
	else if (r->overlay_size)
		fprintf(stderr, "%s: kept %" PRIu64 " bytes of trailing data at 0x%" PRIx64 "\n", file, r->overlay_size,
		        r->overlay_offset);
}

/* One image's .sbat (or its JSON object); file is the name it was given as. */
static int
print_one(const cli_opts *o, const char *file)
{
	sbat_mapped_file *mapped = NULL;
	sbat_image *img = NULL;
	const uint8_t *data;
	size_t n;
	sbat_diag d;
	sbat_csv *csv = NULL;
	int status = EXIT_OK;

	if (sbat_file_map(file, SBAT_FILE_MAX_SIZE, &mapped, &d) ||
	    sbat_image_parse(sbat_mapped_file_data(mapped), sbat_mapped_file_size(mapped), &img, &d)) {
		status = cli_report_error(file, &d);
		goto out;
	}
	if (o->verbose)
		cli_describe_image(file, img);
	if (o->json) {
		cli_print_json(stdout, file, img, sbat_mapped_file_fd(mapped));
		/* the JSON says so too, but scripts test the status: the same as without --json */
		if (sbat_image_get_info(img)->sbat_count == 0)
			status = EXIT_NO_SBAT;
		goto out;
	}
	if (sbat_image_sbat_data(img, &data, &n, &d)) {
		if (d.code == SBAT_E_NO_SBAT) {
			cli_message(file, "no .sbat section");
			status = EXIT_NO_SBAT;
		} else {
			status = cli_report_error(file, &d);
		}
		goto signatures;
	}
	print_escaped(data, n);
	/* a malformed .sbat is worth knowing about: shim rejects the whole image for it */
	if (sbat_csv_parse(data, n, &csv, &d) != SBAT_OK)
		cli_diag(CLI_WARNING, file, ".sbat would not pass validation", &d);
	sbat_csv_free(csv);
signatures:
	fflush(stdout); /* the CSV before what is said about the signatures */
	cli_print_signatures(file, img, sbat_mapped_file_fd(mapped));
out:
	sbat_image_free(img);
	sbat_file_unmap(mapped);
	return status;
}

/*
 * --print: each image in turn. Several get a "==> IMAGE <==" line before
 * each block (as head(1) has it) and a blank line between blocks; with
 * --json one object each, one after the other. An unreadable image (1)
 * outweighs one without .sbat (3).
 */
int
cli_run_print(const cli_opts *o)
{
	int i, status = EXIT_OK;

	for (i = 0; i < o->n_images; i++) {
		int one;

		if (o->n_images > 1 && !o->json) {
			printf("%s==> %s <==\n", i ? "\n" : "", cli_quote(o->images[i]));
			fflush(stdout); /* before any message on stderr about this image */
		}
		one = print_one(o, o->images[i]);
		if (one == EXIT_FAILURE_ || status == EXIT_OK)
			status = one == EXIT_OK ? status : one;
	}
	return status;
}
