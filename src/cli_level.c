/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cli_level.c - --check-level: would shim holding an SbatLevel refuse the image? */
#include <stdio.h>

#include "cli.h"

/* Load an SbatLevel policy: a text file, or the payload built into a shim binary. */
static int
load_level(const cli_opts *o, sbat_level **ret)
{
	sbat_mapped_file f = SBAT_MAPPED_FILE_INIT;
	sbat_image *img = NULL;
	sbat_diag d;
	sbat_err err;

	err = sbat_file_map(o->check_level, SBAT_FILE_MAX_SIZE, &f, &d);
	if (!err) {
		if (f.len >= 2 && f.data[0] == 'M' && f.data[1] == 'Z') {
			err = sbat_image_parse(f.data, f.len, &img, &d);
			if (!err)
				err = sbat_level_from_shim(img, o->level_payload, ret, &d);
		} else {
			err = sbat_level_parse(f.data, f.len, ret, &d);
		}
	}
	sbat_image_free(img);
	sbat_file_unmap(&f);
	return err ? cli_report_error(o->check_level, &d) : EXIT_OK;
}

/*
 * The rows to judge: the CSV file, or the image's .sbat. Exit statuses for
 * an image without a .sbat (3) or with one shim cannot parse (4) are set in
 * *status when that is the answer.
 */
static int
load_rows(const cli_opts *o, sbat_mapped_file *file, sbat_image **img, sbat_csv **csv)
{
	const uint8_t *text;
	size_t n;
	sbat_diag d;

	if (o->csv) {
		if (sbat_file_map(o->csv, SBAT_CSV_MAX_SIZE, file, &d) || sbat_csv_parse(file->data, file->len, csv, &d))
			return cli_report_error(o->csv, &d);
		return EXIT_OK;
	}
	if (sbat_file_map(o->image, SBAT_FILE_MAX_SIZE, file, &d) || sbat_image_parse(file->data, file->len, img, &d) ||
	    sbat_image_sbat_data(*img, &text, &n, &d)) {
		if (d.code != SBAT_E_NO_SBAT)
			return cli_report_error(o->image, &d);
		/* shim refuses images it loads itself without .sbat when SbatLevel is set */
		cli_message(o->image, "no .sbat section: shim refuses to load it");
		return EXIT_NO_SBAT;
	}
	if (sbat_csv_parse(text, n, csv, &d)) {
		cli_diag(CLI_ERROR, o->image, ".sbat is invalid, so shim refuses the image", &d);
		return EXIT_REVOKED;
	}
	return EXIT_OK;
}

/* Would shim, holding this SbatLevel, refuse the image (or CSV)? Exit 4 when it would. */
int
cli_run_check_level(const cli_opts *o)
{
	sbat_level *level = NULL;
	sbat_csv *csv = NULL;
	sbat_mapped_file file = SBAT_MAPPED_FILE_INIT;
	sbat_image *img = NULL;
	const char *subject = o->image ? o->image : o->csv;
	size_t n_revoked = 0, i;
	sbat_revocation revoked[16];
	sbat_diag d;
	int status;

	status = load_level(o, &level);
	if (status == EXIT_OK)
		status = load_rows(o, &file, &img, &csv);
	if (status != EXIT_OK)
		goto out;
	if (sbat_level_check(level, csv, revoked, sizeof(revoked) / sizeof(revoked[0]), &n_revoked, &d)) {
		status = cli_report_error(subject, &d);
		goto out;
	}
	for (i = 0; i < n_revoked && i < sizeof(revoked) / sizeof(revoked[0]); i++)
		printf("%s: revoked: %s,%u is below %s,%u (SbatLevel %s)\n", cli_quote(subject),
		       revoked[i].entry->component_name, (unsigned)revoked[i].entry->generation,
		       revoked[i].level->component_name, (unsigned)revoked[i].level->generation, level->datestamp);
	if (n_revoked) {
		status = EXIT_REVOKED;
	} else {
		printf("%s: not revoked by SbatLevel %s (%zu rows checked)\n", cli_quote(subject), level->datestamp,
		       csv->n_entries);
	}
out:
	sbat_csv_free(csv);
	sbat_level_free(level);
	sbat_image_free(img);
	sbat_file_unmap(&file);
	return status;
}
