/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint_detail.c - what --lint --profile adds to the lint report: the rows behind a finding, the generations */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "json.h"
#include "lint_detail.h"
#include "messages.h"

/* ------------------------------------------------------------ rows */

/* The image's rows as shim reads them, or NULL when shim reads none. */
static sbat_csv *
image_rows(const sbat_image *img)
{
	const sbat_image_info *info = sbat_image_get_info(img);
	const uint8_t *text;
	size_t n;
	sbat_csv *csv = NULL;
	sbat_diag d;

	if (info->sbat_count != 1 || info->sbat_ignored || sbat_image_sbat_data(img, &text, &n, &d) != SBAT_OK)
		return NULL;
	if (sbat_csv_parse_shim(text, n, &csv, &d) != SBAT_OK)
		return NULL;
	return csv;
}

/* The previous release's rows from an image. */
static int
previous_from_image(const char *path, const uint8_t *data, size_t len, sbat_csv **ret)
{
	sbat_image *img = NULL;
	sbat_diag d;

	if (sbat_image_parse(data, len, &img, &d) != SBAT_OK)
		return cli_report_error(path, &d);
	*ret = image_rows(img);
	sbat_image_free(img);
	if (!*ret) {
		cli_message(path, "--previous: the image has no .sbat that shim reads, so nothing to compare with");
		return EXIT_FAILURE_;
	}
	return EXIT_OK;
}

int
cli_lint_load_previous(const char *path, sbat_csv **ret)
{
	sbat_mapped_file *f = NULL;
	sbat_diag d;
	int status;

	if (sbat_file_map(path, SBAT_FILE_MAX_SIZE, &f, &d) != SBAT_OK)
		return cli_report_error(path, &d);
	if (sbat_mapped_file_size(f) >= 2 && memcmp(sbat_mapped_file_data(f), "MZ", 2) == 0)
		status = previous_from_image(path, sbat_mapped_file_data(f), sbat_mapped_file_size(f), ret);
	else if (sbat_csv_parse(sbat_mapped_file_data(f), sbat_mapped_file_size(f), ret, &d) != SBAT_OK)
		status = cli_report_error(path, &d);
	else
		status = EXIT_OK;
	sbat_file_unmap(f);
	return status;
}

static const sbat_csv_entry *
find_row(const sbat_csv *csv, const char *name)
{
	size_t i;

	for (i = 0; csv && i < csv->n_entries; i++)
		if (strcmp(csv->entries[i].component_name, name) == 0)
			return &csv->entries[i];
	return NULL;
}

/* ------------------------------------------------------------ text */

static void
policy_text(FILE *out, const cli_policy *p)
{
	if (strcmp(p->source, "history") == 0)
		fprintf(out, "the published SbatLevel %s", p->level->datestamp);
	else if (strcmp(p->source, "running") == 0)
		fprintf(out, "SbatLevel %s, this machine's SbatLevelRT", p->level->datestamp);
	else if (p->payload)
		fprintf(out, "SbatLevel %s, the %s payload of %s", p->level->datestamp, p->payload, cli_quote(p->file));
	else
		fprintf(out, "SbatLevel %s in %s", p->level->datestamp, cli_quote(p->file));
}

static void
revoked_text(FILE *out, const cli_lint_run *run, const sbat_lint_subject *s)
{
	char why[512];

	fprintf(out, " (line %u: %s,%u is below %s,%u of ", s->row->line, s->row->component_name,
	        (unsigned)s->row->generation, s->level_row->component_name, (unsigned)s->level_row->generation);
	policy_text(out, &run->policies.p[s->level_index]);
	if (cli_history_explain(s->level_row->component_name, s->level_row->generation, why, sizeof(why)) == 0)
		fprintf(out, "; %s", why);
	fputc(')', out);
}

void
cli_lint_detail_text(FILE *out, const cli_lint_run *run, const sbat_lint_subject *s)
{
	if (s->profile == 0)
		return;
	if (s->level && s->row && s->level_index < run->policies.n) {
		revoked_text(out, run, s);
	} else if (s->previous && s->row) {
		fprintf(out, " (%s: %u -> %u", s->row->component_name, (unsigned)s->previous->generation,
		        (unsigned)s->row->generation);
		if (strcmp(s->previous->vendor_version, s->row->vendor_version) != 0)
			fprintf(out, ", version %s -> %s", s->previous->vendor_version, s->row->vendor_version);
		fputc(')', out);
	} else if (s->previous) {
		fprintf(out, " (%s,%u in %s)", s->previous->component_name, (unsigned)s->previous->generation,
		        cli_quote(run->o->previous));
	} else if (s->row && s->name) {
		fprintf(out, " (line %u: %s,%u; conventional: %s)", s->row->line, s->row->component_name,
		        (unsigned)s->row->generation, s->name);
	} else if (s->row) {
		fprintf(out, " (line %u: %s,%u)", s->row->line, s->row->component_name, (unsigned)s->row->generation);
	}
}

/* IMAGE: generation: NAME: OLD -> NEW, "-" for a side that lacks it. */
static void
generation_line(FILE *out, const char *file, const char *name, const sbat_csv_entry *old, const sbat_csv_entry *now)
{
	fprintf(out, "%s: generation: %s: ", cli_quote(file), name);
	if (old)
		fprintf(out, "%u", (unsigned)old->generation);
	else
		fputc('-', out);
	fputs(" -> ", out);
	if (now)
		fprintf(out, "%u\n", (unsigned)now->generation);
	else
		fputs("-\n", out);
}

void
cli_lint_generations_text(FILE *out, const cli_lint_run *run, const char *file, const sbat_image *img)
{
	sbat_csv *rows = image_rows(img);
	size_t i;

	for (i = 0; rows && i < rows->n_entries; i++) {
		const sbat_csv_entry *e = &rows->entries[i];

		if (find_row(rows, e->component_name) == e)
			generation_line(out, file, e->component_name, find_row(run->previous, e->component_name), e);
	}
	for (i = 0; i < run->previous->n_entries; i++) {
		const sbat_csv_entry *p = &run->previous->entries[i];

		if (!find_row(rows, p->component_name) && find_row(run->previous, p->component_name) == p)
			generation_line(out, file, p->component_name, p, NULL);
	}
	sbat_csv_free(rows);
}

/* ------------------------------------------------------------ JSON */

/* {"line": N, "component_name": ..., "generation": N, "vendor_version": ...}, or null */
static void
row_json(FILE *out, const sbat_csv_entry *e)
{
	if (!e) {
		fputs("null", out);
		return;
	}
	fprintf(out, "{\"line\": %u, \"component_name\": ", e->line);
	cli_json_cstr(out, e->component_name);
	fprintf(out, ", \"generation\": %u, \"vendor_version\": ", (unsigned)e->generation);
	cli_json_cstr(out, e->vendor_version);
	fputc('}', out);
}

/* The policy behind a revocation: which one, and its row. */
static void
policy_json(FILE *out, const cli_lint_run *run, const sbat_lint_subject *s)
{
	const cli_policy *p;

	if (!s->level || s->level_index >= run->policies.n) {
		fputs("null", out);
		return;
	}
	p = &run->policies.p[s->level_index];
	fprintf(out, "{\"index\": %zu, \"source\": \"%s\", \"file\": ", s->level_index, p->source);
	cli_json_cstr_or_null(out, p->file);
	fputs(", \"payload\": ", out);
	cli_json_cstr_or_null(out, p->payload);
	fprintf(out, ", \"datestamp\": \"%s\", \"component_name\": ", p->level->datestamp);
	cli_json_cstr(out, s->level_row->component_name);
	fprintf(out, ", \"generation\": %u}", (unsigned)s->level_row->generation);
}

void
cli_lint_detail_json(FILE *out, const cli_lint_run *run, const sbat_lint_subject *s)
{
	fputs(", \"profile\": ", out);
	cli_json_cstr_or_null(out, sbat_lint_profile_name(s->profile));
	fputs(", \"row\": ", out);
	row_json(out, s->row);
	fputs(", \"previous_row\": ", out);
	row_json(out, s->previous);
	fputs(", \"policy\": ", out);
	policy_json(out, run, s);
	fputs(", \"conventional_name\": ", out);
	cli_json_cstr_or_null(out, s->name);
}

/* {"component_name": ..., "previous": N|null, "generation": N|null} */
static void
generation_json(FILE *out, int *first, const char *name, const sbat_csv_entry *old, const sbat_csv_entry *now)
{
	fputs(*first ? "{\"component_name\": " : ", {\"component_name\": ", out);
	*first = 0;
	cli_json_cstr(out, name);
	fputs(", \"previous\": ", out);
	if (old)
		fprintf(out, "%u", (unsigned)old->generation);
	else
		fputs("null", out);
	fputs(", \"generation\": ", out);
	if (now)
		fprintf(out, "%u}", (unsigned)now->generation);
	else
		fputs("null}", out);
}

static void
generations_json(FILE *out, const cli_lint_run *run, const sbat_image *img)
{
	sbat_csv *rows = img ? image_rows(img) : NULL;
	int first = 1;
	size_t i;

	fputc('[', out);
	for (i = 0; rows && i < rows->n_entries; i++) {
		const sbat_csv_entry *e = &rows->entries[i];

		if (find_row(rows, e->component_name) == e)
			generation_json(out, &first, e->component_name, find_row(run->previous, e->component_name), e);
	}
	for (i = 0; i < run->previous->n_entries; i++) {
		const sbat_csv_entry *p = &run->previous->entries[i];

		if (!find_row(rows, p->component_name) && find_row(run->previous, p->component_name) == p)
			generation_json(out, &first, p->component_name, p, NULL);
	}
	fputc(']', out);
	sbat_csv_free(rows);
}

void
cli_lint_result_json(FILE *out, const cli_lint_run *run, const sbat_image *img)
{
	unsigned bit;
	int n = 0;

	fputs(", \"profiles\": [", out);
	for (bit = SBAT_PROFILE_SHIM_REVIEW; bit <= SBAT_PROFILE_UEFI_CA; bit <<= 1)
		if (run->o->profiles & bit)
			fprintf(out, "%s\"%s\"", n++ ? ", " : "", sbat_lint_profile_name(bit));
	fputs("], \"generations\": ", out);
	if (run->previous && img)
		generations_json(out, run, img);
	else
		fputs("null", out);
}

void
cli_lint_run_json(FILE *out, const cli_lint_run *run)
{
	size_t i;

	fputs(", \"previous\": ", out);
	cli_json_cstr_or_null(out, run->previous ? run->o->previous : NULL);
	fputs(", \"policies\": [", out);
	for (i = 0; i < run->policies.n; i++) {
		const cli_policy *p = &run->policies.p[i];

		fprintf(out, "%s{\"index\": %zu, \"source\": \"%s\", \"file\": ", i ? ", " : "", i, p->source);
		cli_json_cstr_or_null(out, p->file);
		fputs(", \"payload\": ", out);
		cli_json_cstr_or_null(out, p->payload);
		fprintf(out, ", \"datestamp\": \"%s\"}", p->level->datestamp);
	}
	fputc(']', out);
}
