/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * sbat-show.c - an example of the library's public interface: map an
 * image, parse it once, describe it and list the rows of its .sbat.
 *
 *   cc sbat-show.c $(pkg-config --cflags --libs sbat) -o sbat-show
 *   ./sbat-show vmlinuz
 *
 * Exit status: 0, 1 when the image cannot be read or parsed, 3 when it has
 * no .sbat section.
 */
#include <stdio.h>

#include <sbat/sbat.h>

static int
fail(const char *file, const sbat_diag *d)
{
	fprintf(stderr, "sbat-show: %s: %s\n", file, d->what ? d->what : sbat_strerror(d->code));
	return 1;
}

int
main(int argc, char **argv)
{
	sbat_mapped_file *file = NULL;
	sbat_image *img = NULL;
	const sbat_image_info *info;
	const uint8_t *text;
	size_t len, i;
	sbat_csv *csv = NULL;
	sbat_diag d;
	int status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: sbat-show IMAGE\n");
		return 2;
	}
	if (sbat_file_map(argv[1], SBAT_FILE_MAX_SIZE, &file, &d) ||
	    sbat_image_parse(sbat_mapped_file_data(file), sbat_mapped_file_size(file), &img, &d)) {
		status = fail(argv[1], &d);
		goto out;
	}
	info = sbat_image_get_info(img);
	printf("%s: %s, %s, %u sections (library %s)\n", argv[1], sbat_pe_kind_name(info->kind),
	       sbat_pe_machine_name(info->machine), info->number_of_sections, SBAT_VERSION);
	for (i = 0; i < info->number_of_sections; i++)
		printf("  %-8s VA 0x%08x size 0x%08x\n", sbat_image_section(img, (unsigned)i)->name,
		       (unsigned)sbat_image_section(img, (unsigned)i)->virtual_address,
		       (unsigned)sbat_image_section(img, (unsigned)i)->virtual_size);
	if (sbat_image_sbat_data(img, &text, &len, &d)) {
		status = d.code == SBAT_E_NO_SBAT ? 3 : fail(argv[1], &d);
		goto out;
	}
	if (sbat_csv_parse(text, len, &csv, &d)) {
		status = fail(argv[1], &d);
		goto out;
	}
	for (i = 0; i < csv->n_entries; i++)
		printf("  %s %u\n", csv->entries[i].component_name, (unsigned)csv->entries[i].generation);
out:
	sbat_csv_free(csv);
	sbat_image_free(img);
	sbat_file_unmap(file);
	return status;
}
