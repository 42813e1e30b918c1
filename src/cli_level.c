/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* cli_level.c - --check-level: would shim holding an SbatLevel refuse the image? */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

/* Load an SbatLevel policy: a text file, or the payload built into a shim binary. */
static int
load_level(const cli_opts *o, sbat_level **ret)
{
	sbat_mapped_file f = { -1, NULL, 0 };
	sbat_diag d;
	sbat_err err;

	err = sbat_file_map(o->check_level, SBAT_FILE_MAX_SIZE, &f, &d);
	if (!err) {
		if (f.len >= 2 && f.data[0] == 'M' && f.data[1] == 'Z')
			err = sbat_level_from_shim(f.data, f.len, o->level_payload, ret, &d);
		else
			err = sbat_level_parse(f.data, f.len, ret, &d);
	}
	sbat_file_unmap(&f);
	return err ? cli_report_error(o->check_level, &d) : EXIT_OK;
}

/* Would shim, holding this SbatLevel, refuse the image (or CSV)? Exit 4 when it would. */
int
cli_run_check_level(const cli_opts *o)
{
	sbat_level *level = NULL;
	sbat_csv *csv = NULL;
	sbat_mapped_file image = { -1, NULL, 0 };
	sbat_pe *pe = NULL;
	const char *subject = o->image ? o->image : o->csv;
	const uint8_t *text;
	size_t n, n_revoked = 0, i;
	sbat_revocation revoked[16];
	sbat_diag d;
	int status;

	status = load_level(o, &level);
	if (status != EXIT_OK)
		return status;
	status = EXIT_FAILURE_;
	if (o->csv) {
		if (sbat_file_map(o->csv, SBAT_CSV_MAX_SIZE, &image, &d) || sbat_csv_parse(image.data, image.len, &csv, &d)) {
			cli_report_error(o->csv, &d);
			goto out;
		}
	} else {
		pe = malloc(sizeof(*pe));
		if (!pe || sbat_file_map(o->image, SBAT_FILE_MAX_SIZE, &image, &d) ||
		    sbat_pe_parse(image.data, image.len, pe, &d)) {
			if (pe)
				cli_report_error(o->image, &d);
			goto out;
		}
		if (sbat_pe_sbat_data(pe, image.data, image.len, &text, &n, &d)) {
			if (d.code == SBAT_E_NO_SBAT) {
				/* shim refuses images it loads itself without .sbat when SbatLevel is set */
				fprintf(stderr, "%s: %s: no .sbat section: shim refuses to load it\n", cli_progname, o->image);
				status = EXIT_NO_SBAT;
			} else {
				cli_report_error(o->image, &d);
			}
			goto out;
		}
		if (sbat_csv_parse(text, n, &csv, &d)) {
			fprintf(stderr, "%s: %s: .sbat is invalid (line %u, field %u: %s): shim refuses the image\n",
			        cli_progname, o->image, d.line, d.field, d.what);
			status = EXIT_REVOKED;
			goto out;
		}
	}
	if (sbat_level_check(level, csv, revoked, sizeof(revoked) / sizeof(revoked[0]), &n_revoked)) {
		fprintf(stderr, "%s: internal error checking the policy\n", cli_progname);
		goto out;
	}
	for (i = 0; i < n_revoked && i < sizeof(revoked) / sizeof(revoked[0]); i++)
		printf("%s: revoked: %s,%u is below %s,%u (SbatLevel %s)\n", subject,
		       revoked[i].entry->component_name, (unsigned)revoked[i].entry->generation,
		       revoked[i].level->component_name, (unsigned)revoked[i].level->generation, level->datestamp);
	if (n_revoked) {
		status = EXIT_REVOKED;
	} else {
		printf("%s: not revoked by SbatLevel %s (%zu rows checked)\n", subject, level->datestamp,
		       csv->n_entries);
		status = EXIT_OK;
	}
out:
	sbat_csv_free(csv);
	sbat_level_free(level);
	sbat_file_unmap(&image);
	free(pe);
	return status;
}
