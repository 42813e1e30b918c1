/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* edit.c - the editing modes: insert, replace, merge, relocate and remove */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sbat/csv.h"
#include "sbat/edit.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/input.h"
#include "sbat/output.h"

#include "csv_args.h"
#include "messages.h"
#include "options.h"
#include "uki.h"

/*
 * --merge: the image's own .sbat rows first, then the new file's, one
 * header row, duplicates refused unless --force. Replaces *payload.
 */
static int
merge_payload(const cli_opts *o, const sbat_image *img, uint8_t **payload, size_t *payload_len)
{
	sbat_csv *base = NULL, *add = NULL;
	const uint8_t *old;
	size_t old_len;
	uint8_t *merged;
	size_t merged_len;
	sbat_diag d;
	int status = EXIT_FAILURE_;

	if (sbat_image_sbat_data(img, &old, &old_len, &d)) {
		/* no .sbat: the new rows are all there is */
		return d.code == SBAT_E_NO_SBAT ? EXIT_OK : cli_report_error(o->image, &d);
	}
	if (sbat_csv_parse(old, old_len, &base, &d)) {
		if (o->force) {
			if (o->verbose)
				cli_diag(CLI_WARNING, o->image, "existing .sbat is invalid; --force replaces it", &d);
			return EXIT_OK;
		}
		cli_diag(CLI_ERROR, o->image, "existing .sbat cannot be merged (--force replaces it)", &d);
		return EXIT_FAILURE_;
	}
	if (sbat_csv_parse(*payload, *payload_len, &add, &d) ||
	    sbat_csv_merge(base, add, o->force, &merged, &merged_len, &d)) {
		cli_report_error(o->n_csv == 1 ? cli_csv_label(o->csv) : "the --csv rows", &d);
		goto out;
	}
	free(*payload);
	*payload = merged;
	*payload_len = merged_len;
	status = EXIT_OK;
out:
	sbat_csv_free(base);
	sbat_csv_free(add);
	return status;
}

/* Open IMAGE: locked and held by its directory when it is replaced in place, else just mapped. */
static sbat_err
open_image(const cli_opts *o, sbat_mapped_file **image, sbat_diag *d)
{
	if (o->output || o->dry_run)
		return sbat_file_map(o->image, SBAT_FILE_MAX_SIZE, image, d);
	return sbat_file_open_image(o->image, SBAT_FILE_MAX_SIZE, o->lock_timeout_ms, image, d);
}

/*
 * --output naming IMAGE itself (another link or path to the same inode):
 * refused as cp refuses it, since a new file there would drop IMAGE's ACL,
 * owner and setuid bits without the in-place edit's lock. 1 when refused.
 */
static int
output_is_input(const cli_opts *o, const sbat_mapped_file *image)
{
	struct stat st, in;

	if (!o->output || stat(o->output, &st) != 0 || fstat(sbat_mapped_file_fd(image), &in) != 0 ||
	    st.st_dev != in.st_dev || st.st_ino != in.st_ino)
		return 0;
	cli_message(o->output, "is the same file as the image (the same inode): edit it in place without "
	                       "--output; nothing was written");
	return 1;
}

static sbat_err
open_output(const cli_opts *o, const sbat_mapped_file *image, sbat_output **out, sbat_diag *d)
{
	if (o->dry_run)
		return sbat_output_open_scratch(NULL, out, d);
	if (o->output)
		return sbat_output_open_new(o->output, sbat_mapped_file_mode(image), NULL, out, d);
	return sbat_output_open_replace(image, NULL, out, d);
}

/* The library's options for this command line. */
static sbat_edit_opts
edit_opts(const cli_opts *o)
{
	sbat_edit_opts eo;

	sbat_edit_opts_init(&eo);
	eo.strip_signature = o->strip_signature;
	eo.relocate = o->relocate;
	eo.remove = o->remove;
	eo.write_unchanged = o->output != NULL;
	eo.dry_run = o->dry_run;
	eo.pcrsig = o->pcrsig;
	return eo;
}

/* After a successful edit: say what happened, and put the result in place unless this is a dry run. */
static int
finish(const cli_opts *o, const sbat_edit_report *report, sbat_output **out)
{
	sbat_diag d;
	sbat_err err;

	if (o->verbose || o->dry_run)
		cli_describe_edit(o->image, report);
	if (o->dry_run) {
		cli_message(o->image, report->unchanged ? "dry run: no change, not written" : "dry run: not written");
		return EXIT_OK;
	}
	if (report->unchanged && !o->output) {
		if (o->verbose)
			cli_message(o->image, "already up to date, not rewritten");
		return EXIT_OK;
	}
	err = sbat_output_commit(*out, &d);
	*out = NULL;
	return err ? cli_report_error(o->output ? o->output : o->image, &d) : EXIT_OK;
}

int
cli_run_edit(const cli_opts *o)
{
	sbat_edit_opts eo = edit_opts(o);
	sbat_edit_report report;
	sbat_mapped_file *file = NULL;
	sbat_image *img = NULL;
	sbat_output *out = NULL;
	uint8_t *payload = NULL;
	size_t payload_len = 0;
	sbat_diag d;
	int status;

	if (o->n_csv && (status = cli_load_csvs(o, &payload, &payload_len)) != EXIT_OK)
		return status;
	status = EXIT_FAILURE_;
	cli_catch_signals();
	/* one parse serves the description, the merge and the edit */
	if (open_image(o, &file, &d) ||
	    sbat_image_parse(sbat_mapped_file_data(file), sbat_mapped_file_size(file), &img, &d)) {
		cli_report_error(o->image, &d);
		goto out;
	}
	if (o->verbose)
		cli_describe_image(o->image, img);
	if (o->merge && merge_payload(o, img, &payload, &payload_len) != EXIT_OK)
		goto out;
	if (output_is_input(o, file))
		goto out;
	if (open_output(o, file, &out, &d)) {
		cli_report_error(o->dry_run ? "temporary file" : o->output ? o->output : o->image, &d);
		goto out;
	}
	if (o->no_sync)
		sbat_output_set_sync(out, 0);
	if (sbat_edit_fd(img, sbat_mapped_file_fd(file), payload, payload_len, &eo, out, &report, &d)) {
		cli_report_error(o->image, &d);
		goto out;
	}
	/* said once the edit is known to work */
	if (o->verbose)
		cli_describe_pcr11(o, img, sbat_mapped_file_fd(file), &eo, payload, payload_len);
	cli_uki_notes(o, img, &report);
	if (!o->merge && !o->remove && !o->quiet)
		cli_warn_dropped_rows(o, img, payload, payload_len);
	if (o->dry_run)
		cli_print_sbat_diff(o, img, payload, payload_len);
	status = finish(o, &report, &out);
out:
	sbat_output_abort(out);
	sbat_image_free(img);
	sbat_file_unmap(file);
	free(payload);
	return status;
}
