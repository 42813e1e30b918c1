/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* main.c - the sbat-add command: options, usage, messages and exit codes (only the CLI prints) */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbat/edit.h"
#include "sbat/level.h"
#include "sbat/lint.h"
#include "sbat/version.h"

#include "messages.h"
#include "options.h"

enum {
	ARG_STRIP_SIGNATURE = 0x100,
	ARG_RELOCATE,
	ARG_REMOVE,
	ARG_MERGE,
	ARG_FORCE,
	ARG_CHECK_LEVEL,
	ARG_LEVEL_PAYLOAD,
	ARG_JSON,
	ARG_LOCK_TIMEOUT,
	ARG_LINT,
	ARG_NO_SYNC,
	ARG_ESP,
	ARG_PCRSIG,
	ARG_XBOOTLDR,
	ARG_SIGNATURES,
	ARG_NO_SIGNATURES,
	ARG_PENDING,
	ARG_BOOT,
	ARG_PROFILE,
	ARG_PREVIOUS,
	ARG_AGAINST,
	ARG_EVENT_LOG,
	ARG_LUKS,
};

static const struct option long_options[] = {
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
	{ "lock-timeout", required_argument, NULL, ARG_LOCK_TIMEOUT },
	{ "lint", no_argument, NULL, ARG_LINT },
	{ "profile", required_argument, NULL, ARG_PROFILE },
	{ "previous", required_argument, NULL, ARG_PREVIOUS },
	{ "against", required_argument, NULL, ARG_AGAINST },
	{ "quiet", no_argument, NULL, 'q' },
	{ "no-sync", no_argument, NULL, ARG_NO_SYNC },
	{ "esp", required_argument, NULL, ARG_ESP },
	{ "pcrsig", required_argument, NULL, ARG_PCRSIG },
	{ "xbootldr", required_argument, NULL, ARG_XBOOTLDR },
	{ "boot", required_argument, NULL, ARG_BOOT },
	{ "signatures", no_argument, NULL, ARG_SIGNATURES },
	{ "no-signatures", no_argument, NULL, ARG_NO_SIGNATURES },
	{ "pending", required_argument, NULL, ARG_PENDING },
	{ "event-log", required_argument, NULL, ARG_EVENT_LOG },
	{ "luks", required_argument, NULL, ARG_LUKS },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "print", no_argument, NULL, 'p' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void
usage(FILE *out)
{
	fprintf(out,
	        "Usage: %s --file IMAGE --csv FILE [--merge [--force]] [--relocate] [OPTIONS]\n"
	        "       %s --file IMAGE --remove [OPTIONS]\n"
	        "       %s --print [--json] IMAGE...\n"
	        "       %s --check-level POLICY [--level-payload latest|automatic] [--json]\n"
	        "                (IMAGE|DIR... | --csv CSV...)\n"
	        "       %s --check-level next[:SHIM] [--esp DIR] [--xbootldr DIR] [--boot DIR]\n"
	        "                [--event-log running|FILE] [--luks DEV|FILE]...\n"
	        "       %s --lint [--json] IMAGE...\n"
	        "       %s --lint --profile shim-review|uefi-ca... [--previous OLD]\n"
	        "                [--against POLICY...] [--json] IMAGE...\n"
	        "       %s --event-log running|FILE [--pending VAR=FILE]... [--luks DEV|FILE]... [--json]\n"
	        "       %s --luks DEV|FILE... [--json]\n"
	        "\n",
	        cli_progname, cli_progname, cli_progname, cli_progname, cli_progname, cli_progname, cli_progname,
	        cli_progname, cli_progname);
	fprintf(out,
	        "Insert, replace or remove the .sbat section (UEFI Secure Boot Advanced\n"
	        "Targeting metadata) of a PE/COFF image: an x86 bzImage, an arm64/riscv EFI\n"
	        "kernel or an EFI application. Every byte that does not have to change is kept.\n"
	        "\n"
	        "  -f, --file IMAGE        image to work on (or give IMAGE as the only argument)\n"
	        "  -c, --csv CSV           SBAT CSV to store: a FILE, @FILE, - (standard input) or\n"
	        "                          the text itself (it starts with \"sbat,\" or holds a\n"
	        "                          newline, and no such file exists); several are merged\n"
	        "                          in order\n"
	        "  -o, --output OUT        write the result to OUT instead of replacing IMAGE\n"
	        "                          (a file; ./- for one named -)\n"
	        "      --merge             add the CSV's rows to the image's existing .sbat\n"
	        "      --force             with --merge: new rows replace conflicting ones\n"
	        "      --relocate          move a mid-file .sbat that is too small to a new last\n"
	        "                          section (the old one becomes zeroed \"" SBAT_RETIRED_SECTION_NAME "\")\n"
	        "      --remove            take .sbat out of IMAGE instead of writing one\n"
	        "      --strip-signature   remove a certificate table instead of refusing\n"
	        "      --pcrsig=drop|keep  edit a UKI whose .pcrsig (signed PCR 11 values) the\n"
	        "                          edit makes stale instead of refusing: drop removes\n"
	        "                          .pcrsig, keep keeps it as it is (with a warning)\n"
	        "  -n, --dry-run           check and plan the edit, write nothing; print the old\n"
	        "                          and new .sbat as a unified diff\n"
	        "  -p, --print             print each image's .sbat CSV and exit\n"
	        "      --json              with --print: sections, layout and SBAT rows as JSON;\n"
	        "                          with --check-level: the verdicts as JSON;\n"
	        "                          with --lint: the findings as JSON\n");
	fprintf(out, "      --lint              report every rule of shim, EDK2, GRUB, strict PE\n"
	             "                          loaders, systemd-stub and signing tools each IMAGE\n"
	             "                          breaks (exit 1 errors, 5 warnings only)\n"
	             "      --profile NAME      with --lint: also the release checks of profile NAME:\n"
	             "                          shim-review (the .sbat rows, their history, the\n"
	             "                          published revocations) or uefi-ca (the Microsoft UEFI\n"
	             "                          CA's memory rules, shim's NX policy); repeatable\n"
	             "      --previous OLD      with --profile shim-review: compare the generations\n"
	             "                          with OLD, the release before (an image or a CSV)\n"
	             "      --against POLICY    with --profile shim-review: no row may be revoked by\n"
	             "                          POLICY: history (the published levels, the default),\n"
	             "                          running, FILE (a text SbatLevel or a shim binary),\n"
	             "                          latest:SHIM, automatic:SHIM, none; repeatable\n"
	             "      --check-level POLICY\n"
	             "                          would shim holding this SbatLevel refuse the IMAGEs,\n"
	             "                          the PE images under each DIR, or the CSV FILEs?\n"
	             "                          POLICY: running (this machine's SbatLevel), FILE (a\n"
	             "                          text SbatLevel or a shim binary), latest:SHIM or\n"
	             "                          automatic:SHIM (./running names a file); next:SHIM\n"
	             "                          (what SHIM enforces at the next boot), next without\n"
	             "                          IMAGEs (every boot path the firmware will take;\n"
	             "                          next:SHIM: with SHIM as every shim on them)\n"
	             "      --esp DIR           the mounted EFI System Partition, for next\n"
	             "      --xbootldr DIR      the mounted XBOOTLDR partition (systemd-boot), for next\n"
	             "      --boot DIR          the directory that holds GRUB's grub/grub.cfg and the\n"
	             "                          kernels it names (/boot), for next\n"
	             "      --no-signatures     with next: judge SBAT alone; by default each image's\n"
	             "                          signatures are judged too, as the firmware and shim\n"
	             "                          do (db, dbx, MokList, shim's keys), and a stage whose\n"
	             "                          db or dbx does not read is unknown, never boots\n"
	             "      --signatures        with next: the default, signatures judged\n"
	             "      --pending VAR=FILE  with next: judge as if FILE (signature lists, or an\n"
	             "                          authenticated update the firmware would take; a\n"
	             "                          directory: the one it takes) were appended to VAR\n"
	             "                          (db, dbx, KEK, MokList, MokListX; PK: replaced),\n"
	             "                          in the order given; repeatable; with --event-log:\n"
	             "                          PCR 7 (and with next 4 and 14) after the updates\n"
	             "                          the firmware and MokManager would take\n");
	/* in two parts: C99 promises string literals of 4095 bytes, no more */
	fprintf(out,
	        "      --event-log running|FILE\n"
	        "                          replay the firmware's TCG event log (running: this\n"
	        "                          machine's) to PCR values and compare them with the\n"
	        "                          TPM's (exit 10 when they differ); PCR 7 made again\n"
	        "                          from the Secure Boot variables, and its next value;\n"
	        "                          with --check-level next: PCR 4, 7 and 14 of the\n"
	        "                          next boot along each boot path, the default first,\n"
	        "                          and what changes them (the kernel's log without\n"
	        "                          it, with the running efivarfs)\n"
	        "      --luks DEV|FILE     judge each systemd-tpm2 token of this LUKS2 volume:\n"
	        "                          will unlock, will not unlock or cannot tell, with\n"
	        "                          the TPM's PCRs now and, with --event-log, the next\n"
	        "                          boot's (after --pending; with --check-level next,\n"
	        "                          the default path's; without --luks there, the\n"
	        "                          block devices holding a LUKS2 header); repeatable\n"
	        "      --level-payload latest|automatic\n"
	        "                          which SbatLevel of a shim binary FILE to use (latest)\n"
	        "      --lock-timeout SECONDS\n"
	        "                          wait this long for another edit of IMAGE to finish\n"
	        "                          (default %d; 0: fail at once; edits only)\n"
	        "      --no-sync           do not fsync the result (throwaway build trees only;\n"
	        "                          edits only)\n"
	        "  -v, --verbose           describe the image and the edit on stderr\n"
	        "  -q, --quiet             no warnings (errors are still reported)\n"
	        "  -h, --help              show this help and exit\n"
	        "  -V, --version           show the version and exit\n",
	        CLI_LOCK_TIMEOUT_DEFAULT);
	fputs("\n"
	      "Without --output, IMAGE is replaced atomically (temporary file, fsync,\n"
	      "rename) and keeps its mode, owner, ACLs and extended attributes; it is\n"
	      "locked against concurrent edits and not rewritten when nothing changes.\n"
	      "A new --output file gets IMAGE's permissions less the umask.\n"
	      "\n"
	      "Exit status: 0 success, 1 invalid input or refused edit (IMAGE untouched),\n"
	      "2 usage error, 3 no .sbat section (--print, --check-level),\n"
	      "4 revoked by the SbatLevel policy (--check-level),\n"
	      "5 warnings but no errors (--lint),\n"
	      "6 no SbatLevel on this machine (--check-level running),\n"
	      "7 a boot path other than the default one refused (--check-level next; 4: the\n"
	      "default one), 8 the default boot path cannot be followed to the end, 9 another\n"
	      "one cannot (--check-level next, when nothing is refused),\n"
	      "10 the TPM does not hold what the event log replays to (--event-log),\n"
	      "11 a systemd-tpm2 token will not unlock (--luks: after the update when\n"
	      "predicted; after 4, before 10, 7, 8, 9), 12 none will not, but of one it cannot be\n"
	      "told (after 4, 7, 8, 9).\n"
	      "With several images --check-level exits with the first of 4, 1, 3 that applies.\n",
	      out);
}

/* What parsing the command line decided. */
typedef enum parse_result {
	PARSE_RUN,   /* options are consistent: run the mode */
	PARSE_DONE,  /* --help or --version was printed: exit 0 */
	PARSE_USAGE, /* a usage error was reported: exit 2 */
} parse_result;

static parse_result
usage_error(const char *msg, const char *arg)
{
	if (arg)
		fprintf(stderr, "%s: %s '%s'\n", cli_progname, msg, cli_quote(arg));
	else
		fprintf(stderr, "%s: %s\n", cli_progname, msg);
	fprintf(stderr, "Try '%s --help' for more information.\n", cli_progname);
	return PARSE_USAGE;
}

/*
 * The option getopt just refused, as the user wrote it: a long option up to
 * any "=VALUE", else the one letter (optopt) out of a cluster such as -nx.
 */
static const char *
option_name(const char *arg)
{
	static char name[64];

	if (strncmp(arg, "--", 2) == 0) {
		size_t n = strcspn(arg, "=");

		snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) - 1 ? n : sizeof(name) - 1), arg);
		return name;
	}
	if (optopt > 0 && optopt < 0x100) {
		snprintf(name, sizeof(name), "-%c", optopt);
		return name;
	}
	return arg;
}

/* Each path option names a file; an empty one is a mistake, not "the current directory". */
static parse_result
check_paths(const cli_opts *o)
{
	static const struct {
		const char *option;
		size_t offset;
	} paths[] = {
		{ "--file", offsetof(cli_opts, image) },    { "--csv", offsetof(cli_opts, csv) },
		{ "--output", offsetof(cli_opts, output) }, { "--check-level", offsetof(cli_opts, check_level) },
		{ "--esp", offsetof(cli_opts, esp) },       { "--xbootldr", offsetof(cli_opts, xbootldr) },
		{ "--boot", offsetof(cli_opts, boot) },
	};
	unsigned i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		const char *v = *(const char *const *)((const char *)o + paths[i].offset);

		if (v && !*v)
			return usage_error("empty file name given to", paths[i].option);
	}
	return PARSE_RUN;
}

static parse_result
parse_lock_timeout(const char *arg, cli_opts *o)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v > 86400)
		return usage_error("--lock-timeout takes whole seconds from 0 to 86400, not", arg);
	o->lock_timeout_ms = (unsigned)v * 1000u;
	o->lock_timeout_given = 1;
	return PARSE_RUN;
}

static parse_result
parse_pcrsig(const char *arg, cli_opts *o)
{
	if (strcmp(arg, "drop") == 0)
		o->pcrsig = SBAT_PCRSIG_DROP;
	else if (strcmp(arg, "keep") == 0)
		o->pcrsig = SBAT_PCRSIG_KEEP;
	else
		return usage_error("--pcrsig takes 'drop' or 'keep', not", arg);
	return PARSE_RUN;
}

/* --pending VAR=FILE: an update of db, dbx, KEK, PK, MokList or MokListX judged as if applied, by the signature gate. */
static parse_result
parse_pending(char *arg, cli_opts *o)
{
	static const char *const vars[] = { "db", "dbx", "KEK", "PK", "MokList", "MokListX" };
	char *eq = strchr(arg, '=');
	size_t i;

	if (!eq || !eq[1])
		return usage_error("--pending takes VAR=FILE, not", arg);
	*eq = '\0';
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]) && strcmp(arg, vars[i]) != 0; i++)
		;
	if (i == sizeof(vars) / sizeof(vars[0]))
		return usage_error("--pending VAR is db, dbx, KEK, PK, MokList or MokListX, not", arg);
	if (o->n_pending == CLI_MAX_PENDING)
		return usage_error("--pending is given too often", NULL);
	o->pending[o->n_pending].var = vars[i];
	o->pending[o->n_pending++].file = eq + 1;
	o->signatures = 1;
	return PARSE_RUN;
}

static parse_result
parse_level_payload(const char *arg, cli_opts *o)
{
	if (strcmp(arg, "latest") == 0)
		o->level_payload = SBAT_LEVEL_LATEST;
	else if (strcmp(arg, "automatic") == 0 || strcmp(arg, "previous") == 0)
		o->level_payload = SBAT_LEVEL_AUTOMATIC;
	else
		return usage_error("--level-payload takes 'latest' or 'automatic', not", arg);
	o->level_payload_given = 1;
	return PARSE_RUN;
}

static parse_result
parse_profile(const char *arg, cli_opts *o)
{
	unsigned p = sbat_lint_profile_by_name(arg);

	if (!p)
		return usage_error("--profile takes 'shim-review' or 'uefi-ca', not", arg);
	o->profiles |= p;
	return PARSE_RUN;
}

/* One option getopt returned. */
/* One more --csv: an edit merges them in order; --check-level judges each (see collect_targets). */
static parse_result
take_csv(const char *arg, cli_opts *o)
{
	if (o->n_csv == CLI_MAX_CSV)
		return usage_error("too many --csv; at most 16, the last one is", arg);
	if (strcmp(arg, "-") == 0 && o->stdin_csv)
		return usage_error("standard input can be read once; a second --csv is", arg);
	o->stdin_csv |= strcmp(arg, "-") == 0;
	o->csvs[o->n_csv] = arg;
	o->targets[o->n_csv++] = arg;
	if (!o->csv)
		o->csv = arg;
	return PARSE_RUN;
}

static parse_result
take_output(const char *arg, cli_opts *o)
{
	if (o->output)
		return usage_error("--output given twice:", arg);
	/* standard output cannot take an image that is committed atomically */
	if (strcmp(arg, "-") == 0)
		return usage_error("--output writes a file, not standard output; for a file named - give", "./-");
	o->output = arg;
	return PARSE_RUN;
}

static parse_result
take_option(int c, char **argv, cli_opts *o)
{
	switch (c) {
	case 'f':
		if (o->image)
			return usage_error("--file given twice:", optarg);
		o->image = optarg;
		break;
	case 'c': return take_csv(optarg, o);
	case 'o': return take_output(optarg, o);
	case ARG_STRIP_SIGNATURE: o->strip_signature = 1; break;
	case ARG_RELOCATE: o->relocate = 1; break;
	case ARG_REMOVE: o->remove = 1; break;
	case ARG_MERGE: o->merge = 1; break;
	case ARG_FORCE: o->force = 1; break;
	case ARG_CHECK_LEVEL: o->check_level = optarg; break;
	case ARG_JSON: o->json = 1; break;
	case ARG_LINT: o->lint = 1; break;
	case ARG_PROFILE: return parse_profile(optarg, o);
	case ARG_PREVIOUS:
		if (o->previous)
			return usage_error("--previous given twice:", optarg);
		o->previous = optarg;
		break;
	case ARG_AGAINST: o->against[o->n_against++] = optarg; break;
	case ARG_LOCK_TIMEOUT: return parse_lock_timeout(optarg, o);
	case ARG_LEVEL_PAYLOAD: return parse_level_payload(optarg, o);
	case ARG_PCRSIG: return parse_pcrsig(optarg, o);
	case 'n': o->dry_run = 1; break;
	case 'p': o->print = 1; break;
	case 'v': o->verbose = 1; break;
	case 'q': o->quiet = 1; break;
	case ARG_NO_SYNC: o->no_sync = 1; break;
	case ARG_ESP: o->esp = optarg; break;
	case ARG_XBOOTLDR: o->xbootldr = optarg; break;
	case ARG_SIGNATURES: o->signatures = 1; break;
	case ARG_NO_SIGNATURES: o->no_signatures = 1; break;
	case ARG_PENDING: return parse_pending(optarg, o);
	case ARG_BOOT: o->boot = optarg; break;
	case ARG_EVENT_LOG:
		if (o->event_log)
			return usage_error("--event-log given twice:", optarg);
		o->event_log = optarg;
		break;
	case ARG_LUKS:
		if (!*optarg)
			return usage_error("empty file name given to", "--luks");
		if (o->n_luks == CLI_MAX_LUKS)
			return usage_error("--luks is given too often", NULL);
		o->luks[o->n_luks++] = optarg;
		break;
	case 'h': usage(stdout); return PARSE_DONE;
	case 'V': printf("sbat-add %s\n", SBAT_VERSION); return PARSE_DONE;
	case ':': return usage_error("option requires an argument:", option_name(argv[optind - 1]));
	default: return usage_error("unrecognized option", option_name(argv[optind - 1]));
	}
	return PARSE_RUN;
}

/*
 * The --check-level POLICY: "running", "latest:SHIM" or "automatic:SHIM"
 * ("previous:" is the older name of automatic), or else a file. A file
 * that is called like one of these is named with a directory: ./running.
 */
static parse_result
parse_policy(cli_opts *o)
{
	static const struct {
		const char *prefix;
		int payload;
	} prefixes[] = {
		{ "latest:", SBAT_LEVEL_LATEST },
		{ "automatic:", SBAT_LEVEL_AUTOMATIC },
		{ "previous:", SBAT_LEVEL_AUTOMATIC },
	};
	const char *p = o->check_level;
	unsigned i;

	if (strcmp(p, "next") == 0) {
		if (o->level_payload_given)
			return usage_error("--level-payload goes with a shim binary's own payload, not with", p);
		if (o->n_targets || o->targets_are_csv)
			return usage_error("POLICY next follows the boot entries and takes no IMAGE (use next:SHIM)",
			                   NULL);
		o->next_level = 1;
		return PARSE_RUN;
	}
	if (strcmp(p, "running") == 0) {
		if (o->level_payload_given)
			return usage_error("--level-payload goes with a shim binary, not with --check-level", p);
		return PARSE_RUN;
	}
	if (strncmp(p, "next:", 5) == 0) {
		if (o->level_payload_given)
			return usage_error("--level-payload goes with a shim binary's own payload, not with", p);
		if (!p[5])
			return usage_error("no shim binary named after", "next:");
		o->next_level = 1;
		o->level_file = p + 5;
		return PARSE_RUN;
	}
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i].prefix);

		if (strncmp(p, prefixes[i].prefix, n) != 0)
			continue;
		if (o->level_payload_given)
			return usage_error("--level-payload and a payload prefix exclude each other:", p);
		if (!p[n])
			return usage_error("no shim binary named after", prefixes[i].prefix);
		o->level_payload = prefixes[i].payload;
		o->level_payload_given = 1;
		o->level_file = p + n;
		return PARSE_RUN;
	}
	o->level_file = p;
	return PARSE_RUN;
}

/*
 * --check-level judges every IMAGE (--file and the arguments, in order) or
 * every --csv FILE; the CSV names are already in targets.
 */
static parse_result
collect_targets(int argc, char **argv, cli_opts *o)
{
	size_t i;

	for (i = 0; i < o->n_csv; i++)
		if (!*o->targets[i])
			return usage_error("empty file name given to", "--csv");
	if (o->n_csv) {
		if (o->image || optind < argc)
			return usage_error("--check-level judges either IMAGEs or --csv FILEs, not both", NULL);
		o->n_targets = o->n_csv;
		o->targets_are_csv = 1;
		return PARSE_RUN;
	}
	if (o->image)
		o->targets[o->n_targets++] = o->image;
	for (; optind < argc; optind++) {
		if (!*argv[optind])
			return usage_error("empty file name given as an IMAGE", NULL);
		o->targets[o->n_targets++] = argv[optind];
	}
	/* next, and next:SHIM without IMAGEs, follow the boot paths */
	if (!o->n_targets && strcmp(o->check_level, "next") != 0 && strncmp(o->check_level, "next:", 5) != 0)
		return usage_error("no IMAGE given (use --file IMAGE)", NULL);
	o->image = o->n_targets ? o->targets[0] : NULL;
	return PARSE_RUN;
}

/* An edit takes one IMAGE: --file, or the only argument; --print takes any number of them. */
static parse_result
take_image_argument(int argc, char **argv, cli_opts *o)
{
	static char *only[1];
	int i;

	if (optind < argc) {
		if (o->image)
			return usage_error("IMAGE was already given with --file; unexpected argument", argv[optind]);
		o->image = argv[optind];
		o->images = &argv[optind];
		o->n_images = argc - optind;
		optind++;
	} else if (o->image) {
		only[0] = (char *)(uintptr_t)o->image;
		o->images = only;
		o->n_images = 1;
	}
	if (optind < argc && !o->print)
		return usage_error("unexpected argument", argv[optind]);
	/* an empty --file is check_paths' to report */
	for (i = 0; o->images != only && i < o->n_images; i++)
		if (!*o->images[i])
			return usage_error("empty file name given as an IMAGE", NULL);
	return PARSE_RUN;
}

/* --print and --check-level read only; they take no editing options. */
static parse_result
check_read_modes(cli_opts *o)
{
	if (o->print && o->check_level)
		return usage_error("--print and --check-level exclude each other", NULL);
	if (o->print && o->level_payload_given)
		return usage_error("--level-payload goes with --check-level, not with", "--print");
	if (o->lock_timeout_given || o->no_sync)
		return usage_error(o->lock_timeout_given ? "--lock-timeout goes with an edit, not with" :
		                                           "--no-sync goes with an edit, not with",
		                   o->print ? "--print" : "--check-level");
	if (o->output || o->strip_signature || o->dry_run || o->relocate || o->remove || o->merge || o->force ||
	    o->pcrsig || (o->print && o->csv))
		return usage_error(o->print ? "--print takes only an IMAGE (and --json)" :
		                              "--check-level takes only IMAGEs and directories, or --csv FILEs",
		                   NULL);
	if (o->check_level)
		return parse_policy(o);
	if (!o->image)
		return usage_error("no IMAGE given (use --file IMAGE)", NULL);
	return PARSE_RUN;
}

static parse_result
check_edit_mode(const cli_opts *o)
{
	if (!o->image)
		return usage_error("no IMAGE given (use --file IMAGE)", NULL);
	if (o->json)
		return usage_error("--json goes with --print, --check-level or --lint", NULL);
	if (o->level_payload_given)
		return usage_error("--level-payload goes with --check-level", NULL);
	if (o->remove && (o->csv || o->relocate || o->merge))
		return usage_error("--remove takes no --csv, --merge or --relocate", NULL);
	if (!o->csv && !o->remove)
		return usage_error("no SBAT CSV given (use --csv FILE, or --remove)", NULL);
	if (o->force && !o->merge && o->n_csv < 2)
		return usage_error("--force goes with --merge or several --csv", NULL);
	if (o->output && o->dry_run)
		return usage_error("--output and --dry-run exclude each other", NULL);
	if (o->no_sync && o->dry_run)
		return usage_error("--no-sync and --dry-run exclude each other", NULL);
	return PARSE_RUN;
}

/* --previous and --against feed the shim-review profile; each names a file or a policy. */
static parse_result
check_profile_options(const cli_opts *o)
{
	size_t i;

	if ((o->previous || o->n_against) && !(o->profiles & SBAT_PROFILE_SHIM_REVIEW))
		return usage_error(o->previous ? "--previous goes with --lint --profile shim-review" :
		                                 "--against goes with --lint --profile shim-review",
		                   NULL);
	if (o->previous && !*o->previous)
		return usage_error("empty file name given to", "--previous");
	for (i = 0; i < o->n_against; i++)
		if (!*o->against[i] || strcmp(o->against[i], "latest:") == 0 ||
		    strcmp(o->against[i], "automatic:") == 0)
			return usage_error("no policy named by --against", o->against[i]);
	return PARSE_RUN;
}

/* --lint reads any number of images, named as arguments (or one with --file), and takes only --json. */
static parse_result
check_lint_mode(int argc, char **argv, cli_opts *o)
{
	int i;

	if (o->print || o->check_level || o->csv || o->output || o->strip_signature || o->dry_run || o->relocate ||
	    o->remove || o->merge || o->force || o->level_payload_given || o->lock_timeout_given || o->no_sync ||
	    o->pcrsig)
		return usage_error("--lint takes only IMAGE arguments (and --json, --profile, --previous, --against)",
		                   NULL);
	if (check_profile_options(o) != PARSE_RUN)
		return PARSE_USAGE;
	if (o->image) {
		static char *only[1];

		if (optind < argc)
			return usage_error("--lint: give the images as arguments, not with --file:", o->image);
		only[0] = (char *)(uintptr_t)o->image;
		o->images = only;
		o->n_images = 1;
	} else {
		o->images = &argv[optind];
		o->n_images = argc - optind;
	}
	if (o->n_images == 0)
		return usage_error("no IMAGE given to --lint", NULL);
	for (i = 0; i < o->n_images; i++)
		if (!o->images[i][0])
			return usage_error("empty file name given to", "--lint");
	return PARSE_RUN;
}

/* --event-log reads one log and takes only --json and --pending. */
static parse_result
check_event_log_mode(int argc, const cli_opts *o)
{
	if (!*o->event_log)
		return usage_error("empty file name given to", "--event-log");
	if (optind < argc || o->image || o->csv || o->output || o->print || o->check_level || o->lint || o->profiles ||
	    o->previous || o->n_against || o->strip_signature || o->dry_run || o->relocate || o->remove || o->merge ||
	    o->force || o->level_payload_given || o->lock_timeout_given || o->no_sync || o->pcrsig || o->esp ||
	    o->xbootldr || o->boot || (o->signatures && !o->n_pending) || o->no_signatures)
		return usage_error("--event-log takes only --json, --pending and --luks", NULL);
	return PARSE_RUN;
}

/* --luks without --event-log judges against the TPM's PCRs now: it takes only --json. */
static parse_result
check_luks_mode(int argc, const cli_opts *o)
{
	if (optind < argc || o->image || o->csv || o->output || o->print || o->check_level || o->lint || o->profiles ||
	    o->previous || o->n_against || o->strip_signature || o->dry_run || o->relocate || o->remove || o->merge ||
	    o->force || o->level_payload_given || o->lock_timeout_given || o->no_sync || o->pcrsig || o->esp ||
	    o->xbootldr || o->boot || o->signatures || o->no_signatures || o->n_pending)
		return usage_error(
		    "--luks takes only --json, or goes with --event-log (and --pending) or --check-level next", NULL);
	return PARSE_RUN;
}

/*
 * Fill *o from argv and check every combination before any file is opened.
 * targets has room for argc names (each one takes an argument of its own).
 */
/*
 * --esp, --xbootldr, --boot, --signatures, --no-signatures and --pending
 * given where no boot path is walked: without next, or with next:SHIM and
 * IMAGEs, which are judged alone.
 */
static parse_result
walk_option_error(const cli_opts *o)
{
	const char *name = o->esp           ? "--esp" :
	                   o->xbootldr      ? "--xbootldr" :
	                   o->n_pending     ? "--pending" :
	                   o->signatures    ? "--signatures" :
	                   o->no_signatures ? "--no-signatures" :
	                                      "--boot";
	char msg[160];

	snprintf(msg, sizeof(msg), "%s goes with --check-level next%s", name,
	         o->next_level ? " without IMAGEs: next:SHIM with IMAGEs judges those images alone" : "");
	return usage_error(msg, NULL);
}

static parse_result
parse_args(int argc, char **argv, const char **targets, const char **against, cli_opts *o)
{
	parse_result r;
	int c;

	memset(o, 0, sizeof(*o));
	o->targets = targets;
	o->against = against;
	o->level_payload = SBAT_LEVEL_LATEST;
	o->lock_timeout_ms = CLI_LOCK_TIMEOUT_DEFAULT * 1000u;
	opterr = 0; /* our own messages, with our own prefix */
	while ((c = getopt_long(argc, argv, ":f:c:o:npvqhV", long_options, NULL)) != -1)
		if ((r = take_option(c, argv, o)) != PARSE_RUN)
			return r;
	if (o->event_log && !o->check_level)
		return check_event_log_mode(argc, o);
	if (o->event_log && !*o->event_log)
		return usage_error("empty file name given to", "--event-log");
	if (o->n_luks && !o->check_level)
		return check_luks_mode(argc, o);
	if (o->lint)
		return check_lint_mode(argc, argv, o);
	if (o->profiles || o->previous || o->n_against)
		return usage_error("--profile, --previous and --against go with --lint", NULL);
	r = o->check_level ? collect_targets(argc, argv, o) : take_image_argument(argc, argv, o);
	if (r == PARSE_RUN)
		r = check_paths(o);
	if (r != PARSE_RUN)
		return r;
	r = o->print || o->check_level ? check_read_modes(o) : check_edit_mode(o);
	if (r == PARSE_RUN && (o->esp || o->xbootldr || o->boot || o->signatures || o->no_signatures) &&
	    !(o->next_level && !o->n_targets))
		return walk_option_error(o);
	if (r == PARSE_RUN && o->n_luks && !(o->next_level && !o->n_targets))
		return usage_error("--luks goes with --check-level next without IMAGEs, with --event-log, or alone",
		                   NULL);
	if (r == PARSE_RUN && o->no_signatures && o->signatures)
		return usage_error("--no-signatures contradicts --signatures and --pending", NULL);
	return r;
}

/*
 * Everything printed on stdout must have reached it: a full disk, a closed
 * pipe or /dev/full is an error (as gnulib's close_stdout has it). A stdout
 * that was closed before we started and never written to is fine.
 */
static int
close_stdout(int status)
{
	int err = 0, failed;

	errno = 0;
	failed = fflush(stdout) != 0;
	if (failed)
		err = errno;
	failed |= ferror(stdout) != 0;
	if (fclose(stdout) != 0 && !failed && errno != EBADF) {
		failed = 1;
		err = errno;
	}
	if (!failed)
		return status;
	if (err)
		fprintf(stderr, "%s: write error on standard output: %s\n", cli_progname, strerror(err));
	else
		fprintf(stderr, "%s: write error on standard output\n", cli_progname);
	return status == EXIT_OK ? EXIT_FAILURE_ : status;
}

int
main(int argc, char **argv)
{
	cli_opts o;
	const char **targets, **against;
	int status = EXIT_USAGE;

	/* a write to a closed pipe fails with EPIPE and is reported, instead of killing us silently */
	signal(SIGPIPE, SIG_IGN);
	/* likewise a file-size limit: the write fails with EFBIG and the edit is undone */
	signal(SIGXFSZ, SIG_IGN);
	targets = calloc((size_t)argc + 1, sizeof(*targets));
	against = calloc((size_t)argc + 1, sizeof(*against));
	if (!targets || !against) {
		fprintf(stderr, "%s: out of memory\n", cli_progname);
		free(targets);
		free(against);
		return EXIT_FAILURE_;
	}
	switch (parse_args(argc, argv, targets, against, &o)) {
	case PARSE_DONE: status = close_stdout(EXIT_OK); break;
	case PARSE_USAGE: status = EXIT_USAGE; break;
	case PARSE_RUN:
		if (o.event_log && !o.check_level)
			status = cli_run_event_log(&o);
		else if (o.n_luks && !o.check_level)
			status = cli_run_luks(&o);
		else if (o.lint)
			status = cli_run_lint(&o);
		else if (o.check_level && o.next_level && !o.n_targets)
			status = cli_run_boot_paths(&o);
		else if (o.check_level)
			status = cli_run_check_level(&o);
		else
			status = o.print ? cli_run_print(&o) : cli_run_edit(&o);
		status = close_stdout(status);
		break;
	}
	free(targets);
	free(against);
	return status;
}
