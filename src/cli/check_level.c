/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* check_level.c - --check-level: would shim holding an SbatLevel refuse these images? */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sbat/bootreport.h"
#include "sbat/csv.h"
#include "sbat/efivar.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/input.h"
#include "sbat/judge.h"
#include "sbat/level.h"
#include "sbat/nextstate.h"
#include "sbat/scan.h"
#include "sbat/sigdb.h"

#include "csv_args.h"
#include "json.h"
#include "messages.h"
#include "next_level.h"
#include "options.h"
#include "policies.h"

/* Revoked rows named per image; the rest are counted. */
#define MAX_REVOKED 16

/*
 * How one image or CSV fares, from best to worst: the exit status of a run
 * is that of its worst verdict. Revoked comes first because shim will
 * refuse the image for certain; unreadable next, because nobody knows what
 * shim would do with it; no .sbat after that, because shim refuses such an
 * image only on some boot paths.
 */
typedef enum verdict {
	VERDICT_ALLOWED,
	VERDICT_NOT_ENFORCED, /* next:SHIM with Secure Boot off: shim checks no SBAT */
	VERDICT_INSECURE,     /* next:SHIM with shim in insecure mode (MokSBStateRT): it checks no SBAT */
	VERDICT_NO_SBAT,
	VERDICT_UNREADABLE,
	VERDICT_INVALID_SBAT,
	VERDICT_REVOKED,
	VERDICT_SHIM_STOPS, /* next:SHIM: shim stops before starting anything */
} verdict;

static const struct {
	const char *name; /* the word in the report and in JSON */
	int status;
} verdicts[] = {
	[VERDICT_ALLOWED] = { "allowed", EXIT_OK },
	[VERDICT_NO_SBAT] = { "no-sbat", EXIT_NO_SBAT },
	[VERDICT_UNREADABLE] = { "unreadable", EXIT_FAILURE_ },
	[VERDICT_INVALID_SBAT] = { "invalid-sbat", EXIT_REVOKED },
	[VERDICT_REVOKED] = { "revoked", EXIT_REVOKED },
	[VERDICT_NOT_ENFORCED] = { "not-enforced", EXIT_OK },
	[VERDICT_INSECURE] = { "insecure-mode", EXIT_OK },
	[VERDICT_SHIM_STOPS] = { "shim-stops", EXIT_REVOKED },
};

/* The SbatLevel to judge by, and where it came from. */
typedef struct policy {
	sbat_level *level;
	const char *source; /* "running", "text" or "shim" */
	char *file;         /* the file it was read from */
	const char *absent; /* exit 6: why there is no SbatLevel, else NULL */
	int has_next;       /* next:SHIM: level is next.level[0], owned by next */
	sbat_next_state *next;
} policy;

typedef struct judgement {
	const char *path;
	verdict v;
	int kind; /* sbat_pe_kind; -1 when not known, or a CSV file */
	int is_csv;
	size_t n_rows;
	size_t n_revoked;
	sbat_revocation revoked[MAX_REVOKED]; /* they point into the policy and the CSV */
	sbat_diag d;                          /* unreadable, invalid .sbat: why */
	const sbat_section_info *ignored;     /* a .sbat shim ignores (no-sbat verdict), else NULL */
} judgement;

typedef struct audit {
	const cli_opts *o;
	const sbat_level *level;
	verdict worst;
	size_t n_reported;
	int scanned;          /* a directory was among the arguments */
	const char *boot;     /* next:SHIM: which boot the verdicts are for */
	const char *boot_key; /* the same, in JSON */
	int mode;             /* next:SHIM: sbat_next_mode of that boot */
	int insecure;         /* next:SHIM: MokSBStateRT is one nonzero byte: shim runs in insecure mode */
	sbat_scan *scan;
} audit;

/* ------------------------------------------------------------ the policy */

/* A text SbatLevel, or the payload built into a shim binary. */
static int
load_file_level(const cli_opts *o, policy *p)
{
	sbat_mapped_file *f = NULL;
	sbat_image *img = NULL;
	sbat_diag d;
	sbat_err err;

	p->source = "text";
	err = sbat_file_map(o->level_file, SBAT_FILE_MAX_SIZE, &f, &d);
	if (!err) {
		const uint8_t *data = sbat_mapped_file_data(f);
		size_t len = sbat_mapped_file_size(f);

		if (len >= 2 && data[0] == 'M' && data[1] == 'Z') {
			p->source = "shim";
			err = sbat_image_parse(data, len, &img, &d);
			if (!err)
				err = sbat_level_from_shim(img, o->level_payload, &p->level, &d);
		} else {
			/* only a shim binary has two payloads to choose from: say the choice goes unused */
			if (o->level_payload_given && !o->quiet)
				fprintf(stderr,
				        "%s: warning: %s: a text SbatLevel; --level-payload, latest: and automatic: "
				        "choose between a shim binary's payloads and are ignored here\n",
				        cli_progname, cli_quote(o->level_file));
			err = sbat_level_parse_shim(data, len, &p->level, &d);
		}
	}
	sbat_image_free(img);
	sbat_file_unmap(f);
	return err ? cli_report_error(o->level_file, &d) : EXIT_OK;
}

/*
 * The SbatLevel this machine holds: shim's runtime copy in efivarfs. No
 * variable at all is its own answer (exit 6), told apart from a machine
 * without UEFI variables.
 */
static int
load_running_level(policy *p)
{
	p->source = "running";
	return cli_level_running(&p->level, &p->file, &p->absent);
}

static int
load_policy(const cli_opts *o, policy *p)
{
	if (!o->level_file)
		return load_running_level(p);
	if (o->next_level) {
		int status = cli_next_load(o->level_file, &p->next);

		p->has_next = 1;
		p->source = "next";
		p->file = strdup(o->level_file);
		p->level = p->next ? p->next->level[0] : NULL;
		return status != EXIT_OK ? status : p->file ? EXIT_OK : EXIT_FAILURE_;
	}
	p->file = strdup(o->level_file);
	if (!p->file) {
		cli_message(o->level_file, "out of memory");
		return EXIT_FAILURE_;
	}
	return load_file_level(o, p);
}

/* ------------------------------------------------------------ reporting */

/* What an image without .sbat means, by where it is usually loaded from (see the manual). */
static const char *
no_sbat_meaning(int kind)
{
	if (kind == SBAT_KIND_EFI_APP)
		return "shim refuses to load it (SBAT is mandatory for what shim starts itself)";
	return "boots when verified through shim's protocol (GRUB, systemd-boot); refused when shim loads it itself";
}

static void
print_text(const audit *a, const judgement *j)
{
	size_t i;

	printf("%s: ", cli_quote(j->path));
	if (a->boot)
		printf("%s: ", a->boot);
	switch (j->v) {
	case VERDICT_NOT_ENFORCED: puts("not-enforced: Secure Boot is off, so shim checks no SBAT"); break;
	case VERDICT_INSECURE:
		puts("insecure-mode: shim runs in insecure mode (MokSBState), so it checks no SBAT");
		break;
	case VERDICT_SHIM_STOPS:
		if (a->level->n_entries == 0)
			puts(
			    "shim-stops: shim cannot parse the stored SbatLevel, so it stops the machine before starting "
			    "anything");
		else
			printf(
			    "shim-stops: SbatLevel %s revokes shim itself, so shim stops the machine before starting "
			    "anything\n",
			    a->level->datestamp);
		break;
	case VERDICT_ALLOWED:
		printf("allowed: not revoked by SbatLevel %s (%zu rows checked)\n", a->level->datestamp, j->n_rows);
		break;
	case VERDICT_REVOKED:
		fputs("revoked: ", stdout);
		for (i = 0; i < j->n_revoked && i < MAX_REVOKED; i++)
			printf("%s%s,%u is below %s,%u", i ? "; " : "", j->revoked[i].entry->component_name,
			       (unsigned)j->revoked[i].entry->generation, j->revoked[i].level->component_name,
			       (unsigned)j->revoked[i].level->generation);
		if (j->n_revoked > MAX_REVOKED)
			printf("; and %zu more", j->n_revoked - MAX_REVOKED);
		printf(" (SbatLevel %s)\n", a->level->datestamp);
		break;
	case VERDICT_NO_SBAT:
		if (j->ignored && j->ignored->size_of_raw_data == 0)
			printf("no .sbat as shim reads it (SizeOfRawData is 0, so shim ignores the section): %s\n",
			       no_sbat_meaning(j->kind));
		else if (j->ignored)
			printf("no .sbat as shim reads it (SizeOfRawData %#" PRIx32 " is below VirtualSize %#" PRIx32
			       ", so shim ignores the section): %s\n",
			       j->ignored->size_of_raw_data, j->ignored->virtual_size, no_sbat_meaning(j->kind));
		else
			printf("no .sbat: %s\n", no_sbat_meaning(j->kind));
		break;
	case VERDICT_INVALID_SBAT:
		fputs("revoked: invalid .sbat, so shim refuses the image: ", stdout);
		cli_diag_text(stdout, &j->d);
		putchar('\n');
		break;
	case VERDICT_UNREADABLE:
		fputs("unreadable: ", stdout);
		cli_diag_text(stdout, &j->d);
		putchar('\n');
		break;
	}
}

static void
print_json_error(const sbat_diag *d)
{
	fputs(", \"error\": {\"what\": ", stdout);
	cli_json_cstr(stdout, d->what ? d->what : sbat_strerror(d->code));
	printf(", \"line\": %u, \"field\": %u, \"offset\": ", d->line, d->field);
	if (d->has_offset)
		printf("%" PRIu64, d->offset);
	else
		fputs("null", stdout);
	fputs(", \"system_error\": ", stdout);
	if (d->sys_errno)
		cli_json_cstr(stdout, strerror(d->sys_errno));
	else
		fputs("null", stdout);
	putchar('}');
}

static void
print_json_revoked(const judgement *j)
{
	size_t i;

	printf(", \"rows\": %zu, \"n_revoked\": %zu, \"revoked\": [", j->n_rows, j->n_revoked);
	for (i = 0; i < j->n_revoked && i < MAX_REVOKED; i++) {
		fputs(i ? ", {\"component_name\": " : "{\"component_name\": ", stdout);
		cli_json_cstr(stdout, j->revoked[i].entry->component_name);
		printf(", \"generation\": %u, \"minimum\": %u}", (unsigned)j->revoked[i].entry->generation,
		       (unsigned)j->revoked[i].level->generation);
	}
	putchar(']');
}

static void
print_json(const audit *a, const judgement *j)
{
	printf("%s    {\"path\": ", a->n_reported ? ",\n" : "");
	cli_json_cstr(stdout, j->path);
	if (a->boot)
		printf(", \"boot\": \"%s\"", a->boot_key);
	printf(", \"input\": \"%s\", \"kind\": ", j->is_csv ? "csv" : "image");
	if (j->kind >= 0)
		cli_json_cstr(stdout, sbat_pe_kind_name((sbat_pe_kind)j->kind));
	else
		fputs("null", stdout);
	printf(", \"verdict\": \"%s\", \"exit_status\": %d", verdicts[j->v].name, verdicts[j->v].status);
	if (j->v == VERDICT_ALLOWED)
		printf(", \"rows\": %zu", j->n_rows);
	else if (j->v == VERDICT_REVOKED)
		print_json_revoked(j);
	else if (j->v == VERDICT_NO_SBAT)
		printf(", \"loaded_by_shim\": \"refused\", \"verified_through_protocol\": \"allowed\", \"usual_path\": "
		       "\"%s\", \"sbat_ignored\": %s",
		       j->kind == SBAT_KIND_EFI_APP ? "loaded_by_shim" : "verified_through_protocol",
		       j->ignored ? "true" : "false");
	else
		print_json_error(&j->d);
	putchar('}');
}

/* One line (or JSON object) per image; what could not be read is an error on stderr too. */
static void
report(audit *a, judgement *j)
{
	if (j->v > a->worst)
		a->worst = j->v;
	if (a->o->json)
		print_json(a, j);
	else
		print_text(a, j);
	a->n_reported++;
	if (j->v == VERDICT_UNREADABLE)
		cli_diag(CLI_ERROR, j->path, NULL, &j->d);
}

static void
print_json_head(const policy *p, const cli_opts *o)
{
	size_t i;

	fputs("{\n  \"schema\": 1,\n  \"policy\": {\"source\": ", stdout);
	cli_json_cstr(stdout, p->source);
	fputs(", \"file\": ", stdout);
	cli_json_cstr(stdout, p->file);
	fputs(", \"payload\": ", stdout);
	if (p->has_next) {
		fputs("null, \"prediction\": ", stdout);
		if (p->next)
			cli_next_print_json(p->next, stdout);
		else
			fputs("null", stdout);
	} else if (strcmp(p->source, "shim") == 0)
		fputs(o->level_payload == SBAT_LEVEL_LATEST ? "\"latest\"" : "\"automatic\"", stdout);
	else
		fputs("null", stdout);
	if (!p->level) {
		/* no SbatLevel (exit 6): the report keeps its keys, and says why */
		fputs(", \"datestamp\": null, \"entries\": [], \"absent\": ", stdout);
		cli_json_cstr(stdout, p->absent);
		fputs("},\n  \"results\": [\n", stdout);
		return;
	}
	printf(", \"datestamp\": \"%s\", \"entries\": [", p->level->datestamp);
	for (i = 0; i < p->level->n_entries; i++) {
		fputs(i ? ", {\"component_name\": " : "{\"component_name\": ", stdout);
		cli_json_cstr(stdout, p->level->entries[i].component_name);
		printf(", \"generation\": %u}", (unsigned)p->level->entries[i].generation);
	}
	fputs("]},\n  \"results\": [\n", stdout);
}

static void
print_tail(const audit *a)
{
	sbat_scan_counts c = sbat_scan_get_counts(a->scan);

	if (a->o->json) {
		printf("%s  ],\n  \"skipped\": {\"not_pe\": %zu, \"symbolic_links\": %zu},\n  \"exit_status\": %d\n}\n",
		       a->n_reported ? "\n" : "", c.n_not_pe, c.n_symlinks, verdicts[a->worst].status);
		return;
	}
	if (!a->scanned)
		return;
	printf("%zu %s skipped: not PE images\n", c.n_not_pe, c.n_not_pe == 1 ? "file" : "files");
	if (c.n_symlinks)
		printf("%zu symbolic %s skipped: not followed\n", c.n_symlinks, c.n_symlinks == 1 ? "link" : "links");
}

/* ------------------------------------------------------------ judging */

static void
start_judgement(judgement *j, const char *path)
{
	memset(j, 0, sizeof(*j));
	j->path = path;
	j->kind = -1;
	j->d.other_index = -1;
}

/* What shim does in the boot judged: checks against the level, unless next:SHIM says otherwise. */
static sbat_judge_shim
shim_state(const audit *a)
{
	if (a->boot && a->mode == SBAT_NEXT_MODE_NOT_ENFORCED)
		return SBAT_JUDGE_SHIM_NOT_ENFORCING;
	if (a->boot && a->mode == SBAT_NEXT_MODE_SHIM_STOPS)
		return SBAT_JUDGE_SHIM_STOPS;
	if (a->boot && a->insecure)
		return SBAT_JUDGE_SHIM_INSECURE;
	return SBAT_JUDGE_SHIM_ENFORCES;
}

/* The report's verdict from the library's: the gate that decided (shim's state, or its check) and the reason. */
static verdict
verdict_of(sbat_verdict v, sbat_boot_gate gate, sbat_judge_reason reason)
{
	if (gate == SBAT_BOOT_GATE_SHIM)
		return v == SBAT_VERDICT_BOOTS   ? VERDICT_NOT_ENFORCED :
		       v == SBAT_VERDICT_REFUSED ? VERDICT_SHIM_STOPS :
		                                   VERDICT_UNREADABLE;
	switch (reason) {
	case SBAT_JUDGE_NOT_REVOKED:
	case SBAT_JUDGE_NO_ROWS: return VERDICT_ALLOWED;
	case SBAT_JUDGE_REVOKED: return VERDICT_REVOKED;
	case SBAT_JUDGE_MISSING:
	case SBAT_JUDGE_MISSING_PASSES: return VERDICT_NO_SBAT;
	case SBAT_JUDGE_NOT_ENFORCED: return VERDICT_NOT_ENFORCED;
	case SBAT_JUDGE_INSECURE_MODE: return VERDICT_INSECURE;
	case SBAT_JUDGE_SHIM_STOPPED: return VERDICT_SHIM_STOPS;
	case SBAT_JUDGE_UNPARSABLE:
	case SBAT_JUDGE_MULTIPLE:
	case SBAT_JUDGE_RELOCATIONS: return VERDICT_INVALID_SBAT;
	case SBAT_JUDGE_SECURE_BOOT_UNKNOWN: break;
	}
	return VERDICT_UNREADABLE;
}

/* The verdict of shim's check (sbat, for reason) in the boot judged, by the library's one stage decision. */
static verdict
decided(const audit *a, sbat_verdict sbat, sbat_judge_reason reason)
{
	sbat_boot_gate gate;
	sbat_judge_shim shim = shim_state(a);
	sbat_verdict v = sbat_boot_report_decide(sbat, SBAT_BOOT_GATE_SBAT, shim, SBAT_BOOT_NOT_JUDGED, &gate);

	if (gate == SBAT_BOOT_GATE_SHIM && shim == SBAT_JUDGE_SHIM_INSECURE)
		return VERDICT_INSECURE;
	return verdict_of(v, gate, reason);
}

/* Check the rows of a CSV file text[0..n) against the policy and report before the rows are freed. */
static void
judge_rows(audit *a, judgement *j, const uint8_t *text, size_t n)
{
	sbat_csv *csv = NULL;

	if (sbat_csv_parse(text, n, &csv, &j->d) != SBAT_OK) {
		j->v = VERDICT_UNREADABLE; /* a CSV file is just bad input */
	} else if (sbat_level_check(a->level, csv, j->revoked, MAX_REVOKED, &j->n_revoked, &j->d) != SBAT_OK) {
		j->v = VERDICT_UNREADABLE;
	} else {
		j->v = j->n_revoked ? decided(a, SBAT_VERDICT_REFUSED, SBAT_JUDGE_REVOKED) :
		                      decided(a, SBAT_VERDICT_BOOTS, SBAT_JUDGE_NOT_REVOKED);
		j->n_rows = csv->n_entries;
	}
	report(a, j);
	sbat_csv_free(csv);
}

/* The format's stricter rules (printable ASCII, the header row, ...) than shim's only warn. */
static void
warn_format(const judgement *j, const sbat_image *img)
{
	sbat_csv *strict = NULL;
	const uint8_t *text;
	size_t n;
	sbat_diag d;

	if (sbat_image_sbat_data(img, &text, &n, &d) == SBAT_OK && sbat_csv_parse(text, n, &strict, &d) != SBAT_OK)
		cli_diag(CLI_WARNING, j->path, ".sbat breaks a rule of the format that shim does not check", &d);
	sbat_csv_free(strict);
}

/* The verdict of the report from shim's judgement (sbat_judge_image); the rows stay in sj. */
static void
take_judgement(const audit *a, judgement *j, const sbat_image *img, const sbat_judgement *sj)
{
	const sbat_image_info *info = sbat_image_get_info(img);
	size_t i;

	j->v = decided(a, sj->verdict, sj->reason);
	j->d = sj->sbat_error;
	j->n_rows = sj->csv ? sj->csv->n_entries : 0;
	j->n_revoked = sj->n_revoked;
	for (i = 0; i < sj->n_revoked && i < MAX_REVOKED; i++)
		j->revoked[i] = sj->revoked[i];
	if (j->v == VERDICT_NO_SBAT && sj->sbat_skipped)
		j->ignored = sbat_image_section(img, (unsigned)info->sbat_index);
}

/*
 * Judge the image at path as shim would start it itself. A file a
 * directory scan found that turns out not to be a PE image is only
 * counted; one named on the command line is reported unreadable.
 */
static sbat_scan_result
judge_image(audit *a, const char *path, int fd, int found_by_scan)
{
	sbat_mapped_file *f = NULL;
	sbat_image *img = NULL;
	sbat_judgement *sj = NULL;
	sbat_scan_result r = SBAT_SCAN_JUDGED;
	judgement j;

	start_judgement(&j, path);
	j.v = VERDICT_UNREADABLE;
	if ((fd >= 0 ? sbat_file_map_fd(fd, SBAT_FILE_MAX_SIZE, &f, &j.d) :
	               sbat_file_map(path, SBAT_FILE_MAX_SIZE, &f, &j.d)) != SBAT_OK)
		goto report;
	if (sbat_image_parse(sbat_mapped_file_data(f), sbat_mapped_file_size(f), &img, &j.d) != SBAT_OK) {
		if (found_by_scan)
			r = SBAT_SCAN_NOT_PE;
		goto report;
	}
	j.kind = (int)sbat_image_get_info(img)->kind;
	if (sbat_judge_image(img, a->level, shim_state(a), SBAT_JUDGE_STARTED_BY_SHIM, &sj, &j.d) != SBAT_OK)
		goto report;
	take_judgement(a, &j, img, sj);
	if (sj->csv)
		warn_format(&j, img);
report:
	if (r == SBAT_SCAN_JUDGED)
		report(a, &j);
	sbat_judgement_free(sj);
	sbat_image_free(img);
	sbat_file_unmap(f);
	return r;
}

/* One --csv argument, read as an edit reads it: a file, @FILE, - or the text itself. */
static void
judge_csv(audit *a, const char *arg)
{
	uint8_t *text = NULL;
	size_t n = 0;
	judgement j;

	start_judgement(&j, cli_csv_label(arg));
	j.is_csv = 1;
	if (cli_read_csv_arg(arg, &text, &n, &j.d) != SBAT_OK) {
		j.v = VERDICT_UNREADABLE;
		report(a, &j);
	} else {
		judge_rows(a, &j, text, n);
	}
	free(text);
}

static sbat_scan_result
scan_candidate(void *ctx, const char *path, int fd)
{
	return judge_image(ctx, path, fd, 1);
}

static void
scan_unreadable(void *ctx, const char *path, const sbat_diag *d)
{
	judgement j;

	start_judgement(&j, path);
	j.v = VERDICT_UNREADABLE;
	j.d = *d;
	report(ctx, &j);
}

/* One argument: a CSV file, a directory to scan, or an image. Returns -1 when the run must stop. */
static int
judge_target(audit *a, const char *path)
{
	struct stat st;

	if (a->o->targets_are_csv) {
		judge_csv(a, path);
		return 0;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		a->scanned = 1;
		return sbat_scan_dir(a->scan, path) == SBAT_OK ? 0 : -1;
	}
	judge_image(a, path, -1, 0);
	return 0;
}

/*
 * shim 16.1's insecure mode (mokutil --disable-validation): its mirror
 * MokSBStateRT is one byte, nonzero. shim takes it after it chooses the
 * SbatLevel and checks itself, so only what it starts is unchecked.
 */
static int
mok_insecure(const char *efivarfs)
{
	int v = -1;
	sbat_diag d;

	if (!efivarfs || sbat_efivar_read_byte(efivarfs, "MokSBStateRT-" SBAT_SIGDB_GUID_SHIM, 1, &v, &d) != SBAT_OK)
		return 0;
	return v > 0;
}

/* Every target once, or for next:SHIM once per boot where the two differ. */
static void
judge_targets(audit *a, policy *p)
{
	int b, boots = p->has_next ? 1 + p->next->differ : 1;
	size_t i;

	for (b = 0; b < boots; b++) {
		if (p->has_next) {
			a->level = p->next->level[b];
			a->mode = p->next->mode[b];
			a->insecure = mok_insecure(p->next->efivarfs);
			a->boot = b ? "boot after next" : "next boot";
			a->boot_key = b ? "after-next" : "next";
		}
		if (b) {
			/* the same files again: count what the scan skips once */
			sbat_scan_reset(a->scan);
		}
		for (i = 0; i < a->o->n_targets; i++)
			if (judge_target(a, a->o->targets[i]) != 0)
				break;
	}
}

/* Would shim, holding this SbatLevel, refuse the images (or CSVs)? The worst verdict sets the exit status. */
int
cli_run_check_level(const cli_opts *o)
{
	policy p;
	audit a;
	sbat_diag d;
	int status;

	memset(&p, 0, sizeof(p));
	status = load_policy(o, &p);
	if (status == EXIT_OK) {
		memset(&a, 0, sizeof(a));
		a.o = o;
		a.level = p.level;
		if (sbat_scan_new(scan_candidate, scan_unreadable, &a, &a.scan, &d) != SBAT_OK)
			status = cli_report_error("--check-level", &d);
	}
	if (status == EXIT_OK) {
		if (o->json)
			print_json_head(&p, o);
		else if (p.has_next && o->verbose)
			cli_next_print_text(p.next, stdout);
		judge_targets(&a, &p);
		print_tail(&a);
		sbat_scan_free(a.scan);
		status = verdicts[a.worst].status;
	} else if (status == EXIT_NO_LEVEL && o->json) {
		print_json_head(&p, o);
		printf("  ],\n  \"skipped\": {\"not_pe\": 0, \"symbolic_links\": 0},\n  \"exit_status\": %d\n}\n",
		       EXIT_NO_LEVEL);
	}
	if (p.has_next)
		sbat_next_state_free(p.next);
	else
		sbat_level_free(p.level);
	free(p.file);
	return status;
}
