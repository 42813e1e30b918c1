/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* policies.c - SbatLevels read from where a POLICY argument says: a file, a shim binary, this machine, the history */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "messages.h"
#include "next_level.h"
#include "options.h"
#include "policies.h"

int
cli_level_running(sbat_level **ret, char **ret_file, const char **ret_absent)
{
	const char *dir = cli_efivarfs_dir();
	sbat_level_absence absent;
	sbat_diag d;
	char *file = malloc(strlen(dir) + sizeof("/" SBAT_LEVEL_EFIVAR_NAME));

	*ret_file = file;
	if (!file) {
		cli_message(dir, "out of memory");
		return EXIT_FAILURE_;
	}
	sprintf(file, "%s/%s", dir, SBAT_LEVEL_EFIVAR_NAME);
	if (sbat_level_running(dir, ret, &absent, &d) != SBAT_OK)
		return cli_report_error(file, &d);
	if (absent == SBAT_LEVEL_PRESENT)
		return EXIT_OK;
	*ret_absent = absent == SBAT_LEVEL_NO_EFIVARFS ?
	                  "no UEFI variables: the machine was not booted through UEFI, or efivarfs is not "
	                  "mounted; there is no SbatLevel to check against" :
	                  "no such variable: shim has not published an SbatLevel on this machine";
	cli_message(absent == SBAT_LEVEL_NO_EFIVARFS ? dir : file, *ret_absent);
	return EXIT_NO_LEVEL;
}

/* Room for one more policy; NULL (reported) when out of memory. */
static cli_policy *
new_policy(cli_policies *ps)
{
	cli_policy *grown = realloc(ps->p, (ps->n + 1) * sizeof(*grown));

	if (!grown) {
		cli_message("--against", "out of memory");
		return NULL;
	}
	ps->p = grown;
	memset(&ps->p[ps->n], 0, sizeof(ps->p[ps->n]));
	return &ps->p[ps->n++];
}

/* Every published level, one policy each. */
static int
add_history(cli_policies *ps)
{
	sbat_level **levels = NULL;
	size_t n = 0, i;
	int status = cli_history_levels(&levels, &n);

	for (i = 0; status == EXIT_OK && i < n; i++) {
		cli_policy *p = new_policy(ps);

		if (!p) {
			status = EXIT_FAILURE_;
			break;
		}
		p->level = levels[i];
		levels[i] = NULL;
		p->source = "history";
		p->file = cli_history_path();
	}
	cli_history_free(levels, n);
	return status;
}

static int
add_running(cli_policies *ps)
{
	cli_policy *p = new_policy(ps);
	const char *absent = NULL;
	int status;

	if (!p)
		return EXIT_FAILURE_;
	p->source = "running";
	status = cli_level_running(&p->level, &p->owned, &absent);
	p->file = p->owned;
	/* for a lint, no SbatLevel to check against is a failed check like any other */
	return status == EXIT_OK ? EXIT_OK : EXIT_FAILURE_;
}

/* A text SbatLevel, or the payloads of a shim binary (which: SBAT_LEVEL_*, or -1 for both). */
static int
add_file(cli_policies *ps, const char *path, int which)
{
	sbat_mapped_file *f = NULL;
	sbat_image *img = NULL;
	sbat_diag d;
	int k, status = EXIT_OK, shim;

	if (sbat_file_map(path, SBAT_FILE_MAX_SIZE, &f, &d) != SBAT_OK)
		return cli_report_error(path, &d);
	shim = sbat_mapped_file_size(f) >= 2 && memcmp(sbat_mapped_file_data(f), "MZ", 2) == 0;
	if (shim && sbat_image_parse(sbat_mapped_file_data(f), sbat_mapped_file_size(f), &img, &d) != SBAT_OK)
		status = cli_report_error(path, &d);
	for (k = 0; status == EXIT_OK && k < 2; k++) {
		int payload = k ? SBAT_LEVEL_LATEST : SBAT_LEVEL_AUTOMATIC;
		cli_policy *p;

		if ((shim && which >= 0 && which != payload) || (!shim && k))
			continue;
		p = new_policy(ps);
		if (!p) {
			status = EXIT_FAILURE_;
			break;
		}
		p->source = shim ? "shim" : "text";
		p->file = path;
		p->payload = shim ? (k ? "latest" : "automatic") : NULL;
		if (shim ? sbat_level_from_shim(img, payload, &p->level, &d) :
		           sbat_level_parse(sbat_mapped_file_data(f), sbat_mapped_file_size(f), &p->level, &d))
			status = cli_report_error(path, &d);
	}
	sbat_image_free(img);
	sbat_file_unmap(f);
	return status;
}

static int
add_spec(cli_policies *ps, const char *spec)
{
	if (strcmp(spec, "history") == 0)
		return add_history(ps);
	if (strcmp(spec, "running") == 0)
		return add_running(ps);
	if (strcmp(spec, "none") == 0)
		return EXIT_OK;
	if (strncmp(spec, "latest:", 7) == 0)
		return add_file(ps, spec + 7, SBAT_LEVEL_LATEST);
	if (strncmp(spec, "automatic:", 10) == 0)
		return add_file(ps, spec + 10, SBAT_LEVEL_AUTOMATIC);
	return add_file(ps, spec, -1);
}

int
cli_policies_load(const char *const *specs, size_t n_specs, cli_policies *ret)
{
	size_t i;
	int status = EXIT_OK;

	memset(ret, 0, sizeof(*ret));
	if (n_specs == 0)
		status = add_history(ret);
	for (i = 0; status == EXIT_OK && i < n_specs; i++)
		status = add_spec(ret, specs[i]);
	if (status == EXIT_OK && ret->n) {
		ret->levels = malloc(ret->n * sizeof(*ret->levels));
		if (!ret->levels) {
			cli_message("--against", "out of memory");
			status = EXIT_FAILURE_;
		}
		for (i = 0; ret->levels && i < ret->n; i++)
			ret->levels[i] = ret->p[i].level;
	}
	if (status != EXIT_OK)
		cli_policies_free(ret);
	return status;
}

void
cli_policies_free(cli_policies *ps)
{
	size_t i;

	for (i = 0; i < ps->n; i++) {
		sbat_level_free(ps->p[i].level);
		free(ps->p[i].owned);
	}
	free(ps->p);
	free(ps->levels);
	memset(ps, 0, sizeof(*ps));
}
