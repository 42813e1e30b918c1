/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint.c - --lint: every loader rule each image breaks, as lines or JSON */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sbat/sbat.h"

#include "json.h"
#include "messages.h"
#include "options.h"

typedef struct lint_out {
	const cli_opts *o;
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

	for (bit = 1; bit && bit <= SBAT_LOADER_TPM; bit <<= 1) {
		const char *name = loaders & bit ? sbat_lint_loader_name(bit) : NULL;

		if (!name)
			continue;
		fprintf(f, json ? "%s\"%s\"" : "%s%s", n++ ? ", " : "", name);
	}
}

static int
print_finding(void *ctx, const sbat_lint_finding *f)
{
	lint_out *l = ctx;
	const sbat_section_info *s = f->section >= 0 ? sbat_image_section(l->img, (unsigned)f->section) : NULL;
	char name[256]; /* a long name resolved through the COFF string table */

	if (s)
		sbat_image_section_name(l->img, (unsigned)f->section, name, sizeof(name));

	if (l->o->json) {
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
		fputs("]}", stdout);
		l->first = 0;
		return 0;
	}
	printf("%s: %s: %s: %s", cli_quote(l->file), sbat_lint_severity_name(f->severity), f->rule, f->what);
	if (s)
		printf(" (section %d \"%s\")", f->section, cli_quote(name));
	printf(" (at offset 0x%" PRIx64 ") [", f->offset);
	print_loaders(stdout, f->loaders, 0);
	printf("]\n");
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

/* One image: its findings, or why it could not be linted. */
static int
lint_one(const cli_opts *o, const char *file, int index)
{
	sbat_mapped_file *f = NULL;
	sbat_image *img = NULL;
	sbat_lint_counts counts = { 0, 0, 0 };
	lint_out out = { o, file, NULL, 1 };
	sbat_diag d;
	int status;

	if (o->json) {
		fprintf(stdout, "%s\n  {\"file\": ", index ? "," : "");
		cli_json_cstr(stdout, file);
	}
	if (sbat_file_map(file, SBAT_FILE_MAX_SIZE, &f, &d) ||
	    sbat_image_parse(sbat_mapped_file_data(f), sbat_mapped_file_size(f), &img, &d)) {
		cli_report_error(file, &d);
		if (o->json) {
			/* the keys of any result: the image counts as one error */
			fputs(", \"error\": ", stdout);
			cli_json_cstr(stdout, d.what ? d.what : sbat_strerror(d.code));
			fputs(", \"system_error\": ", stdout);
			if (d.sys_errno)
				cli_json_cstr(stdout, strerror(d.sys_errno));
			else
				fputs("null", stdout);
			fputs(", \"findings\": null, \"errors\": 1, \"warnings\": 0, \"notes\": 0}", stdout);
		} else {
			printf("%s: error: unreadable: %s\n", cli_quote(file), d.what ? d.what : sbat_strerror(d.code));
		}
		sbat_file_unmap(f);
		return EXIT_FAILURE_;
	}
	out.img = img;
	if (o->json)
		fputs(", \"findings\": [", stdout);
	sbat_lint(img, print_finding, &out, &counts);
	if (o->json)
		fprintf(stdout, "%s], \"errors\": %u, \"warnings\": %u, \"notes\": %u}", out.first ? "" : "\n    ",
		        counts.errors, counts.warnings, counts.notes);
	else if (!counts.errors && !counts.warnings && !counts.notes)
		printf("%s: clean\n", cli_quote(file));
	status = lint_status(&counts);
	sbat_image_free(img);
	sbat_file_unmap(f);
	return status;
}

int
cli_run_lint(const cli_opts *o)
{
	int i, status = EXIT_OK;

	if (o->json)
		fputs("{\"schema\": 1, \"results\": [", stdout);
	for (i = 0; i < o->n_images; i++)
		status = worse(status, lint_one(o, o->images[i], i));
	if (o->json)
		fputs("\n]}\n", stdout);
	return status;
}
