/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* cli.c - the sbat-add command: options, usage, messages and exit codes (only the CLI prints) */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

enum {
	ARG_STRIP_SIGNATURE = 0x100,
	ARG_RELOCATE,
	ARG_REMOVE,
	ARG_MERGE,
	ARG_FORCE,
	ARG_CHECK_LEVEL,
	ARG_LEVEL_PAYLOAD,
	ARG_JSON,
};

const char *const cli_progname = "sbat-add";

static void
usage(FILE *out)
{
	fprintf(out,
	        "Usage: %s --file IMAGE --csv FILE [--merge [--force]] [OPTIONS]\n"
	        "       %s --file IMAGE --remove [OPTIONS]\n"
	        "       %s --print [--json] IMAGE\n"
	        "       %s --check-level POLICY (IMAGE | --csv FILE)\n"
	        "\n"
	        "Insert, replace or remove the .sbat section (UEFI Secure Boot Advanced\n"
	        "Targeting metadata) of a PE/COFF image: an x86 bzImage, an arm64/riscv EFI\n"
	        "kernel or an EFI application. Every byte that does not have to change is kept.\n"
	        "\n"
	        "  -f, --file IMAGE        image to work on (or give IMAGE as the only argument)\n"
	        "  -c, --csv FILE          SBAT CSV to store; validated as shim parses it\n"
	        "  -o, --output OUT        write the result to OUT instead of replacing IMAGE\n"
	        "      --merge             add the CSV's rows to the image's existing .sbat\n"
	        "      --force             with --merge: new rows replace conflicting ones\n"
	        "      --relocate          move a mid-file .sbat that is too small to a new last\n"
	        "                          section (the old one becomes zeroed \"" SBAT_RETIRED_SECTION_NAME "\")\n"
	        "      --remove            take .sbat out of IMAGE instead of writing one\n"
	        "      --strip-signature   remove a certificate table instead of refusing\n"
	        "  -n, --dry-run           check and plan the edit, write nothing\n"
	        "  -p, --print             print the image's .sbat CSV and exit\n"
	        "      --json              with --print: sections, layout and SBAT rows as JSON\n"
	        "      --check-level POLICY\n"
	        "                          would shim holding this SbatLevel (a text file or a\n"
	        "                          shim binary) refuse IMAGE or the CSV FILE?\n"
	        "      --level-payload latest|automatic\n"
	        "                          which SbatLevel of a shim binary to use (latest)\n"
	        "  -v, --verbose           describe the image and the edit on stderr\n"
	        "  -h, --help              show this help and exit\n"
	        "  -V, --version           show the version and exit\n"
	        "\n"
	        "Without --output, IMAGE is replaced atomically (temporary file, fsync,\n"
	        "rename) and keeps its mode; it is not rewritten when nothing changes.\n"
	        "\n"
	        "Exit status: 0 success, 1 invalid input or refused edit (IMAGE untouched),\n"
	        "2 usage error, 3 no .sbat section (--print, --check-level),\n"
	        "4 revoked by the SbatLevel policy (--check-level).\n",
	        cli_progname, cli_progname, cli_progname, cli_progname);
}

static int
usage_error(const char *msg, const char *arg)
{
	if (arg)
		fprintf(stderr, "%s: %s '%s'\n", cli_progname, msg, arg);
	else
		fprintf(stderr, "%s: %s\n", cli_progname, msg);
	fprintf(stderr, "Try '%s --help' for more information.\n", cli_progname);
	return EXIT_USAGE;
}

/* One line naming the file, the check and where it fired. */
int
cli_report_error(const char *file, const sbat_diag *d)
{
	if ((d->code == SBAT_E_CSV || d->code == SBAT_E_LEVEL) && d->line) {
		if (d->field)
			fprintf(stderr, "%s: %s:%u: field %u: %s\n", cli_progname, file, d->line, d->field, d->what);
		else
			fprintf(stderr, "%s: %s:%u: %s\n", cli_progname, file, d->line, d->what);
	} else if (d->sys_errno) {
		fprintf(stderr, "%s: %s: %s: %s\n", cli_progname, file, d->what, strerror(d->sys_errno));
	} else if (d->has_offset) {
		fprintf(stderr, "%s: %s: %s (at offset 0x%" PRIx64 ")\n", cli_progname, file,
		        d->what ? d->what : sbat_strerror(d->code), d->offset);
	} else {
		fprintf(stderr, "%s: %s: %s\n", cli_progname, file, d->what ? d->what : sbat_strerror(d->code));
	}
	return EXIT_FAILURE_;
}

static int
parse_args(int argc, char **argv, cli_opts *o)
{
	static const struct option longopts[] = {
		{ "file", required_argument, NULL, 'f' },
		{ "csv", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "strip-signature", no_argument, NULL, ARG_STRIP_SIGNATURE },
		{ "relocate", no_argument, NULL, ARG_RELOCATE },
		{ "remove", no_argument, NULL, ARG_REMOVE },
		{ "merge", no_argument, NULL, ARG_MERGE },
		{ "force", no_argument, NULL, ARG_FORCE },
		{ "check-level", required_argument, NULL, ARG_CHECK_LEVEL },
		{ "level-payload", required_argument, NULL, ARG_LEVEL_PAYLOAD },
		{ "json", no_argument, NULL, ARG_JSON },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "print", no_argument, NULL, 'p' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->level_payload = SBAT_LEVEL_LATEST;
	opterr = 0;  /* our own messages, with our own prefix */
	while ((c = getopt_long(argc, argv, ":f:c:o:npvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (o->image)
				return usage_error("--file given twice:", optarg);
			o->image = optarg;
			break;
		case 'c': o->csv = optarg; break;
		case 'o': o->output = optarg; break;
		case ARG_STRIP_SIGNATURE: o->strip_signature = 1; break;
		case ARG_RELOCATE: o->relocate = 1; break;
		case ARG_REMOVE: o->remove = 1; break;
		case ARG_MERGE: o->merge = 1; break;
		case ARG_FORCE: o->force = 1; break;
		case ARG_CHECK_LEVEL: o->check_level = optarg; break;
		case ARG_JSON: o->json = 1; break;
		case ARG_LEVEL_PAYLOAD:
			if (strcmp(optarg, "latest") == 0)
				o->level_payload = SBAT_LEVEL_LATEST;
			else if (strcmp(optarg, "automatic") == 0 || strcmp(optarg, "previous") == 0)
				o->level_payload = SBAT_LEVEL_AUTOMATIC;
			else
				return usage_error("--level-payload takes 'latest' or 'automatic', not", optarg);
			break;
		case 'n': o->dry_run = 1; break;
		case 'p': o->print = 1; break;
		case 'v': o->verbose = 1; break;
		case 'h': usage(stdout); return -EXIT_OK - 1;
		case 'V': printf("sbat-add %s\n", SBAT_ADD_VERSION); return -EXIT_OK - 1;
		case ':': return usage_error("option requires an argument:", argv[optind - 1]);
		default: return usage_error("unrecognized option", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		if (o->image)
			return usage_error("IMAGE was already given with --file; unexpected argument", argv[optind]);
		o->image = argv[optind++];
	}
	if (optind < argc)
		return usage_error("unexpected argument", argv[optind]);
	/* every combination is checked before any file is opened */
	if (o->print && o->check_level)
		return usage_error("--print and --check-level exclude each other", NULL);
	if (o->print || o->check_level) {
		if (o->output || o->strip_signature || o->dry_run || o->relocate || o->remove || o->merge ||
		    o->force || (o->print && o->csv))
			return usage_error(o->print ? "--print takes only an IMAGE (and --json)" :
			                   "--check-level takes only an IMAGE, or --csv FILE", NULL);
		if (o->json && !o->print)
			return usage_error("--json goes with --print", NULL);
		/* --check-level may judge a CSV on its own, before it is embedded */
		if (!o->image && !(o->check_level && o->csv))
			return usage_error("no IMAGE given (use --file IMAGE)", NULL);
		if (o->image && o->csv)
			return usage_error("--check-level judges either an IMAGE or a --csv FILE, not both", NULL);
		return 0;
	}
	if (!o->image)
		return usage_error("no IMAGE given (use --file IMAGE)", NULL);
	if (o->json)
		return usage_error("--json goes with --print", NULL);
	if (o->remove && (o->csv || o->relocate || o->merge))
		return usage_error("--remove takes no --csv, --merge or --relocate", NULL);
	if (!o->csv && !o->remove)
		return usage_error("no SBAT CSV given (use --csv FILE, or --remove)", NULL);
	if (o->force && !o->merge)
		return usage_error("--force goes with --merge", NULL);
	if (o->output && o->dry_run)
		return usage_error("--output and --dry-run exclude each other", NULL);
	return 0;
}

int
main(int argc, char **argv)
{
	cli_opts o;
	int r;

	r = parse_args(argc, argv, &o);
	if (r < 0)
		return -r - 1;
	if (r > 0)
		return r;
	if (o.check_level)
		return cli_run_check_level(&o);
	return o.print ? cli_run_print(&o) : cli_run_edit(&o);
}
