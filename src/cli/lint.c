/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint.c - --lint: every loader rule each image breaks, and the rules of the profiles asked for, as lines or JSON */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/csv.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/input.h"
#include "sbat/lint.h"

#include "history.h"
#include "json.h"
#include "lint_detail.h"
#include "messages.h"
#include "options.h"
#include "policies.h"

typedef struct lint_out {
	const cli_lint_run *run;
	const char *file;
	const sbat_image *img;
	int first; /* JSON: no finding printed yet for this image */
} lint_out;

/* "shim, edk2" into buf: the loaders of a finding. */
static void
print_loaders(FILE *f, unsigned loaders, int json)
{
	unsigned bit;
	int n = 0;

	for (bit = 1; bit && bit <= SBAT_LOADER_SHIM_REVIEW; bit <<= 1) {
		const char *name = loaders & bit ? sbat_lint_loader_name(bit) : NULL;

		if (!name)
			continue;
		fprintf(f, json ? "%s\"%s\"" : "%s%s", n++ ? ", " : "", name);
	}
}

/* One finding; subject is NULL for a plain --lint, whose output stays as it always was. */
static void
print_finding(lint_out *l, const sbat_lint_finding *f, const sbat_lint_subject *subject)
{
	const sbat_section_info *s = f->section >= 0 ? sbat_image_section(l->img, (unsigned)f->section) : NULL;
	char name[256]; /* a long name resolved through the COFF string table */

	if (s)
		sbat_image_section_name(l->img, (unsigned)f->section, name, sizeof(name));

	if (l->run->o->json) {
		fprintf(stdout, "%s\n      {\"severity\": \"%s\", \"rule\": \"%s\", \"message\": ", l->first ? "" : ",",
		        sbat_lint_severity_name(f->severity), f->rule);
		cli_json_cstr(stdout, f->what);
		fputs(", \"section\": ", stdout);
		if (s) {
			fprintf(stdout, "{\"index\": %d, \"name\": ", f->section);
			cli_json_cstr(stdout, name);
			fputs("}", stdout);
		} else {
			fputs("null", stdout);
		}
		fprintf(stdout, ", \"offset\": %" PRIu64 ", \"loaders\": [", f->offset);
		print_loaders(stdout, f->loaders, 1);
		fputs("]", stdout);
		if (subject)
			cli_lint_detail_json(stdout, l->run, subject);
		fputs("}", stdout);
		l->first = 0;
		return;
	}
	printf("%s: %s: %s: %s", cli_quote(l->file), sbat_lint_severity_name(f->severity), f->rule, f->what);
	if (subject)
		cli_lint_detail_text(stdout, l->run, subject);
	if (s)
		printf(" (section %d \"%s\")", f->section, cli_quote(name));
	printf(" (at offset 0x%" PRIx64 ") [", f->offset);
	print_loaders(stdout, f->loaders, 0);
	printf("]\n");
}

static int
on_finding(void *ctx, const sbat_lint_finding *f)
{
	print_finding(ctx, f, NULL);
	return 0;
}

static int
on_profile_finding(void *ctx, const sbat_lint_finding *f, const sbat_lint_subject *subject)
{
	print_finding(ctx, f, subject);
	return 0;
}

/* The exit status of one image's findings; worse statuses win across images. */
static int
lint_status(const sbat_lint_counts *c)
{
	return c->errors ? EXIT_FAILURE_ : c->warnings ? EXIT_LINT_WARNINGS : EXIT_OK;
}

static int
worse(int a, int b)
{
	/* errors (1) over warnings (5) over clean (0) */
	if (a == EXIT_FAILURE_ || b == EXIT_FAILURE_)
		return EXIT_FAILURE_;
	return a == EXIT_LINT_WARNINGS || b == EXIT_LINT_WARNINGS ? EXIT_LINT_WARNINGS : EXIT_OK;
}

/* The keys of an image that could not be read: it counts as one error. */
static void
print_unreadable(const cli_lint_run *run, const char *file, const sbat_diag *d)
{
	const char *why = d->what ? d->what : sbat_strerror(d->code);

	if (!run->o->json) {
		printf("%s: error: unreadable: %s\n", cli_quote(file), why);
		return;
	}
	fputs(", \"error\": ", stdout);
	cli_json_cstr(stdout, why);
	fputs(", \"system_error\": ", stdout);
	if (d->sys_errno)
		cli_json_cstr(stdout, strerror(d->sys_errno));
	else
		fputs("null", stdout);
	fputs(", \"findings\": null, \"errors\": 1, \"warnings\": 0, \"notes\": 0", stdout);
	if (run->o->profiles)
		cli_lint_result_json(stdout, run, NULL);
	fputs("}", stdout);
}

/* The findings of one mapped image, and what follows them. */
static int
lint_image(const cli_lint_run *run, const char *file, const sbat_image *img)
{
	sbat_lint_counts counts = { 0, 0, 0 };
	lint_out out = { run, file, img, 1 };
	const cli_opts *o = run->o;

	if (o->json)
		fputs(", \"findings\": [", stdout);
	if (o->profiles)
		sbat_lint_profiles(img, &run->opts, on_profile_finding, &out, &counts);
	else
		sbat_lint(img, on_finding, &out, &counts);
	if (o->json) {
		fprintf(stdout, "%s], \"errors\": %u, \"warnings\": %u, \"notes\": %u", out.first ? "" : "\n    ",
		        counts.errors, counts.warnings, counts.notes);
		if (o->profiles)
			cli_lint_result_json(stdout, run, img);
		fputs("}", stdout);
	} else {
		if (!counts.errors && !counts.warnings && !counts.notes)
			printf("%s: clean\n", cli_quote(file));
		if (run->previous)
			cli_lint_generations_text(stdout, run, file, img);
	}
	return lint_status(&counts);
}

/* One image: its findings, or why it could not be linted. */
static int
lint_one(const cli_lint_run *run, const char *file, int index)
{
	sbat_mapped_file *f = NULL;
	sbat_image *img = NULL;
	sbat_diag d;
	int status;

	if (run->o->json) {
		fprintf(stdout, "%s\n  {\"file\": ", index ? "," : "");
		cli_json_cstr(stdout, file);
	}
	if (sbat_file_map(file, SBAT_FILE_MAX_SIZE, &f, &d) ||
	    sbat_image_parse(sbat_mapped_file_data(f), sbat_mapped_file_size(f), &img, &d)) {
		cli_report_error(file, &d);
		print_unreadable(run, file, &d);
		sbat_file_unmap(f);
		return EXIT_FAILURE_;
	}
	status = lint_image(run, file, img);
	sbat_image_free(img);
	sbat_file_unmap(f);
	return status;
}

/* What the profiles need before the first image: the release before, the policies. */
static int
prepare(const cli_opts *o, cli_lint_run *run)
{
	int status = EXIT_OK;

	memset(run, 0, sizeof(*run));
	run->o = o;
	sbat_lint_opts_init(&run->opts);
	run->opts.profiles = o->profiles;
	if (!(o->profiles & SBAT_PROFILE_SHIM_REVIEW))
		return EXIT_OK;
	if (o->previous)
		status = cli_lint_load_previous(o->previous, &run->previous);
	if (status == EXIT_OK)
		status = cli_policies_load(o->against, o->n_against, &run->policies);
	run->opts.previous = run->previous;
	run->opts.levels = run->policies.levels;
	run->opts.n_levels = run->policies.n;
	return status;
}

int
cli_run_lint(const cli_opts *o)
{
	cli_lint_run run;
	int i, status = prepare(o, &run);

	if (status == EXIT_OK) {
		if (o->json)
			fputs("{\"schema\": 1, \"results\": [", stdout);
		for (i = 0; i < o->n_images; i++)
			status = worse(status, lint_one(&run, o->images[i], i));
		if (o->json) {
			fputs("\n]", stdout);
			if (o->profiles)
				cli_lint_run_json(stdout, &run);
			fputs("}\n", stdout);
		}
	}
	sbat_csv_free(run.previous);
	cli_policies_free(&run.policies);
	return status;
}
