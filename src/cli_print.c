/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* cli_print.c - --print and the --verbose descriptions of images and edits */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

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
cli_describe_image(const char *file, const sbat_pe *pe)
{
	fprintf(stderr, "%s: %s, %s %s, %u sections, FileAlignment 0x%" PRIx32
	        ", SectionAlignment 0x%" PRIx32 ", SizeOfHeaders 0x%" PRIx32 ", SizeOfImage 0x%" PRIx32 "\n",
	        file, sbat_pe_kind_name(pe->kind), pe->magic == 0x20b ? "PE32+" : "PE32",
	        sbat_pe_machine_name(pe->machine), pe->number_of_sections, pe->file_alignment,
	        pe->section_alignment, pe->size_of_headers, pe->size_of_image);
}

void
cli_describe_edit(const char *file, const sbat_edit_report *r)
{
	if (r->action == SBAT_ACTION_REMOVE || r->action == SBAT_ACTION_RETIRE) {
		fprintf(stderr, "%s: %s .sbat (section %u)%s\n", file, sbat_edit_action_name(r->action),
		        r->section_index, r->action == SBAT_ACTION_RETIRE ?
		        ": it is not the last section, so it stays in place renamed \"" SBAT_RETIRED_SECTION_NAME
		        "\" and zero-filled" : "");
		goto sizes;
	}
	if (r->retired_index >= 0)
		fprintf(stderr, "%s: old .sbat (section %d) renamed \"" SBAT_RETIRED_SECTION_NAME "\" and zero-filled\n",
		        file, r->retired_index);
	if (r->data_shift)
		fprintf(stderr, "%s: moved all section data by 0x%" PRIx64 " bytes to make room for a section header\n",
		        file, r->data_shift);
	fprintf(stderr, "%s: %s .sbat as section %u: VirtualAddress 0x%" PRIx32 ", VirtualSize 0x%" PRIx32
	        ", PointerToRawData 0x%" PRIx32 ", SizeOfRawData 0x%" PRIx32 ", Characteristics 0x%08" PRIx32 "\n",
	        file, sbat_edit_action_name(r->action), r->section_index, r->virtual_address, r->virtual_size,
	        r->pointer_to_raw_data, r->size_of_raw_data, r->characteristics);
sizes:
	if (r->new_size_of_image != r->old_size_of_image)
		fprintf(stderr, "%s: SizeOfImage 0x%" PRIx32 " -> 0x%" PRIx32 "\n", file, r->old_size_of_image,
		        r->new_size_of_image);
	if (r->new_size_of_headers != r->old_size_of_headers)
		fprintf(stderr, "%s: SizeOfHeaders 0x%" PRIx32 " -> 0x%" PRIx32 "\n", file,
		        r->old_size_of_headers, r->new_size_of_headers);
	if (r->old_checksum != 0)
		fprintf(stderr, "%s: CheckSum 0x%08" PRIx32 " -> 0x%08" PRIx32 "\n", file, r->old_checksum,
		        r->new_checksum);
	if (r->stripped_cert_size)
		fprintf(stderr, "%s: removed the certificate table (%" PRIu32 " bytes); sign the result again\n",
		        file, r->stripped_cert_size);
	if (r->overlay_size && r->overlay_new_offset != r->overlay_offset)
		fprintf(stderr, "%s: kept %" PRIu64 " bytes of trailing data, moved from 0x%" PRIx64 " to 0x%" PRIx64
		        " (after .sbat)\n", file, r->overlay_size, r->overlay_offset, r->overlay_new_offset);
	else if (r->overlay_size)
		fprintf(stderr, "%s: kept %" PRIu64 " bytes of trailing data at 0x%" PRIx64 "\n", file,
		        r->overlay_size, r->overlay_offset);
}

int
cli_run_print(const cli_opts *o)
{
	sbat_pe *pe = malloc(sizeof(*pe));
	sbat_mapped_file image = { -1, NULL, 0 };
	const uint8_t *data;
	size_t n;
	sbat_diag d;
	sbat_csv *csv = NULL;
	int status = EXIT_OK;

	if (!pe) {
		fprintf(stderr, "%s: out of memory\n", cli_progname);
		return EXIT_FAILURE_;
	}
	if (sbat_file_map(o->image, SBAT_FILE_MAX_SIZE, &image, &d) ||
	    sbat_pe_parse(image.data, image.len, pe, &d)) {
		status = cli_report_error(o->image, &d);
		goto out;
	}
	if (o->verbose)
		cli_describe_image(o->image, pe);
	if (o->json) {
		cli_print_json(stdout, o->image, pe, image.data, image.len);
		goto out;
	}
	if (sbat_pe_sbat_data(pe, image.data, image.len, &data, &n, &d)) {
		if (d.code == SBAT_E_NO_SBAT) {
			fprintf(stderr, "%s: %s: no .sbat section\n", cli_progname, o->image);
			status = EXIT_NO_SBAT;
		} else {
			status = cli_report_error(o->image, &d);
		}
		goto out;
	}
	print_escaped(data, n);
	/* a malformed .sbat is worth knowing about: shim rejects the whole image for it */
	if (sbat_csv_parse(data, n, &csv, &d) != SBAT_OK) {
		fprintf(stderr, "%s: warning: %s: .sbat would not pass validation: ", cli_progname, o->image);
		if (d.line && d.field)
			fprintf(stderr, "line %u, field %u: %s\n", d.line, d.field, d.what);
		else if (d.line)
			fprintf(stderr, "line %u: %s\n", d.line, d.what);
		else
			fprintf(stderr, "%s\n", d.what);
	}
	sbat_csv_free(csv);
out:
	sbat_file_unmap(&image);
	free(pe);
	return status;
}
