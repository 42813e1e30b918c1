/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* cli_edit.c - the editing modes: insert, replace, merge, relocate and remove */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Read, validate and canonicalize the CSV named by --csv. */
static int
load_payload(const char *path, uint8_t **ret_payload, size_t *ret_len)
{
	uint8_t *text = NULL;
	size_t len;
	sbat_csv *csv = NULL;
	sbat_diag d;
	int status = EXIT_OK;

	if (sbat_file_read(path, SBAT_CSV_MAX_SIZE, &text, &len, &d) ||
	    sbat_csv_parse(text, len, &csv, &d) || sbat_csv_format(csv, ret_payload, ret_len, &d))
		status = cli_report_error(path, &d);
	sbat_csv_free(csv);
	free(text);
	return status;
}

/*
 * --merge: the image's own .sbat rows first, then the new file's, one
 * header row, duplicates refused unless --force. Replaces *payload.
 */
static int
merge_payload(const cli_opts *o, const uint8_t *image, size_t image_len, uint8_t **payload,
              size_t *payload_len)
{
	sbat_pe *pe = malloc(sizeof(*pe));
	sbat_csv *base = NULL, *add = NULL;
	const uint8_t *old;
	size_t old_len;
	uint8_t *merged;
	size_t merged_len;
	sbat_diag d;
	int status = EXIT_FAILURE_;

	if (!pe) {
		fprintf(stderr, "%s: out of memory\n", cli_progname);
		return EXIT_FAILURE_;
	}
	if (sbat_pe_parse(image, image_len, pe, &d)) {
		cli_report_error(o->image, &d);
		goto out;
	}
	if (sbat_pe_sbat_data(pe, image, image_len, &old, &old_len, &d)) {
		if (d.code != SBAT_E_NO_SBAT) {
			cli_report_error(o->image, &d);
			goto out;
		}
		status = EXIT_OK;  /* nothing to merge with: the new rows are all there is */
		goto out;
	}
	if (sbat_csv_parse(old, old_len, &base, &d)) {
		if (o->force) {
			if (o->verbose)
				fprintf(stderr, "%s: existing .sbat is invalid (line %u: %s); --force replaces it\n",
				        o->image, d.line, d.what);
			status = EXIT_OK;
			goto out;
		}
		fprintf(stderr, "%s: %s: existing .sbat cannot be merged: line %u, field %u: %s "
		        "(--force replaces it)\n", cli_progname, o->image, d.line, d.field, d.what);
		goto out;
	}
	if (sbat_csv_parse(*payload, *payload_len, &add, &d) ||
	    sbat_csv_merge(base, add, o->force, &merged, &merged_len, &d)) {
		cli_report_error(o->csv, &d);
		goto out;
	}
	free(*payload);
	*payload = merged;
	*payload_len = merged_len;
	status = EXIT_OK;
out:
	sbat_csv_free(base);
	sbat_csv_free(add);
	free(pe);
	return status;
}

/* In-place edits replace IMAGE by rename; through a symlink that would replace the link. */
static int
refuse_symlink(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		fprintf(stderr, "%s: %s: is a symbolic link; name its target, or use --output\n", cli_progname, path);
		return EXIT_FAILURE_;
	}
	return EXIT_OK;
}

int
cli_run_edit(const cli_opts *o)
{
	sbat_edit_opts eo;
	sbat_edit_report report;
	sbat_mapped_file image = { -1, NULL, 0 };
	sbat_output *out = NULL;
	uint8_t *payload = NULL;
	size_t payload_len = 0;
	const char *target = o->output ? o->output : o->image;
	sbat_diag d;
	int status;

	if (!o->output && (status = refuse_symlink(o->image)) != EXIT_OK)
		return status;
	if (o->csv && (status = load_payload(o->csv, &payload, &payload_len)) != EXIT_OK)
		return status;
	status = EXIT_FAILURE_;
	if (sbat_file_map(o->image, SBAT_FILE_MAX_SIZE, &image, &d)) {
		cli_report_error(o->image, &d);
		goto out;
	}
	if (o->verbose) {
		sbat_pe *pe = malloc(sizeof(*pe));

		if (pe && sbat_pe_parse(image.data, image.len, pe, NULL) == SBAT_OK)
			cli_describe_image(o->image, pe);
		free(pe);
	}
	if (o->merge && merge_payload(o, image.data, image.len, &payload, &payload_len) != EXIT_OK)
		goto out;
	if (o->dry_run ? sbat_output_open_scratch(NULL, &out, &d) :
	                 sbat_output_open(target, o->output ? o->image : NULL, NULL, &out, &d)) {
		cli_report_error(target, &d);
		goto out;
	}
	memset(&eo, 0, sizeof(eo));
	eo.strip_signature = o->strip_signature;
	eo.relocate = o->relocate;
	eo.remove = o->remove;
	eo.write_unchanged = o->output != NULL;
	if (sbat_edit_fd(image.data, image.len, image.fd, payload, payload_len, &eo, out, &report, &d)) {
		cli_report_error(o->image, &d);
		goto out;
	}
	if (o->verbose || o->dry_run)
		cli_describe_edit(o->image, &report);
	if (o->dry_run) {
		fprintf(stderr, "%s: dry run: %snot written\n", o->image, report.unchanged ? "no change, " : "");
	} else if (report.unchanged && !o->output) {
		if (o->verbose)
			fprintf(stderr, "%s: already up to date, not rewritten\n", o->image);
	} else {
		sbat_err err = sbat_output_commit(out, &d);

		out = NULL;
		if (err) {
			cli_report_error(target, &d);
			goto out;
		}
	}
	status = EXIT_OK;
out:
	sbat_output_abort(out);
	sbat_file_unmap(&image);
	free(payload);
	return status;
}
