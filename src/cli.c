/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cli.c - the sbat-add command: options, messages and exit codes (the only code that prints) */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

enum exit_status {
	EXIT_OK = 0,
	EXIT_FAILURE_ = 1,  /* bad input or a refused edit; nothing was written */
	EXIT_USAGE = 2,
	EXIT_NO_SBAT = 3,   /* --print, --check-level: the image has no .sbat */
	EXIT_REVOKED = 4,   /* --check-level: the policy revokes the image */
};

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

typedef struct cli_opts {
	const char *image;
	const char *csv;
	const char *output;
	int print;
	int dry_run;
	int verbose;
	int strip_signature;
	int relocate;
	int remove;
	int merge;
	int force;
	int json;
	const char *check_level;
	int level_payload;  /* SBAT_LEVEL_LATEST or SBAT_LEVEL_AUTOMATIC, for shim binaries */
} cli_opts;

static const char *progname = "sbat-add";

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
	        progname, progname, progname, progname);
}

static int
usage_error(const char *msg, const char *arg)
{
	if (arg)
		fprintf(stderr, "%s: %s '%s'\n", progname, msg, arg);
	else
		fprintf(stderr, "%s: %s\n", progname, msg);
	fprintf(stderr, "Try '%s --help' for more information.\n", progname);
	return EXIT_USAGE;
}

/* One line naming the file, the check and where it fired. */
static int
report_error(const char *file, const sbat_diag *d)
{
	if (d->code == SBAT_E_CSV && d->line) {
		if (d->field)
			fprintf(stderr, "%s: %s:%u: field %u: %s\n", progname, file, d->line, d->field, d->what);
		else
			fprintf(stderr, "%s: %s:%u: %s\n", progname, file, d->line, d->what);
	} else if (d->sys_errno) {
		fprintf(stderr, "%s: %s: %s: %s\n", progname, file, d->what, strerror(d->sys_errno));
	} else if (d->has_offset) {
		fprintf(stderr, "%s: %s: %s (at offset 0x%" PRIx64 ")\n", progname, file,
		        d->what ? d->what : sbat_strerror(d->code), d->offset);
	} else {
		fprintf(stderr, "%s: %s: %s\n", progname, file, d->what ? d->what : sbat_strerror(d->code));
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

static void
print_escaped(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((p[i] >= 0x20 && p[i] < 0x7f) || p[i] == '\n')
			putchar(p[i]);
		else
			printf("\\x%02x", p[i]);
	}
	if (n && p[n - 1] != '\n')
		putchar('\n');
}

static void
describe_image(const char *file, const sbat_pe *pe)
{
	fprintf(stderr, "%s: %s, %s %s, %u sections, FileAlignment 0x%" PRIx32
	        ", SectionAlignment 0x%" PRIx32 ", SizeOfHeaders 0x%" PRIx32 ", SizeOfImage 0x%" PRIx32 "\n",
	        file, sbat_pe_kind_name(pe->kind), pe->magic == 0x20b ? "PE32+" : "PE32",
	        sbat_pe_machine_name(pe->machine), pe->number_of_sections, pe->file_alignment,
	        pe->section_alignment, pe->size_of_headers, pe->size_of_image);
}

static void
describe_edit(const char *file, const sbat_edit_report *r)
{
	if (r->action == SBAT_ACTION_REMOVE || r->action == SBAT_ACTION_RETIRE) {
		fprintf(stderr, "%s: %s .sbat (section %u)%s\n", file, sbat_edit_action_name(r->action),
		        r->section_index, r->action == SBAT_ACTION_RETIRE ?
		        ": it is not the last section, so it stays in place renamed \"" SBAT_RETIRED_SECTION_NAME
		        "\" and zero-filled" : "");
		goto sizes;
	}
	if (r->retired_index >= 0)
		fprintf(stderr, "%s: old .sbat (section %d) renamed \"" SBAT_RETIRED_SECTION_NAME "\" and zero-filled\n",
		        file, r->retired_index);
	if (r->data_shift)
		fprintf(stderr, "%s: moved all section data by 0x%" PRIx64 " bytes to make room for a section header\n",
		        file, r->data_shift);
	fprintf(stderr, "%s: %s .sbat as section %u: VirtualAddress 0x%" PRIx32 ", VirtualSize 0x%" PRIx32
	        ", PointerToRawData 0x%" PRIx32 ", SizeOfRawData 0x%" PRIx32 ", Characteristics 0x%08" PRIx32 "\n",
	        file, sbat_edit_action_name(r->action), r->section_index, r->virtual_address, r->virtual_size,
	        r->pointer_to_raw_data, r->size_of_raw_data, r->characteristics);
sizes:
	if (r->new_size_of_image != r->old_size_of_image)
		fprintf(stderr, "%s: SizeOfImage 0x%" PRIx32 " -> 0x%" PRIx32 "\n", file, r->old_size_of_image,
		        r->new_size_of_image);
	if (r->new_size_of_headers != r->old_size_of_headers)
		fprintf(stderr, "%s: SizeOfHeaders 0x%" PRIx32 " -> 0x%" PRIx32 "\n", file,
		        r->old_size_of_headers, r->new_size_of_headers);
	if (r->old_checksum != 0)
		fprintf(stderr, "%s: CheckSum 0x%08" PRIx32 " -> 0x%08" PRIx32 "\n", file, r->old_checksum,
		        r->new_checksum);
	if (r->stripped_cert_size)
		fprintf(stderr, "%s: removed the certificate table (%" PRIu32 " bytes); sign the result again\n",
		        file, r->stripped_cert_size);
	if (r->overlay_size && r->overlay_new_offset != r->overlay_offset)
		fprintf(stderr, "%s: kept %" PRIu64 " bytes of trailing data, moved from 0x%" PRIx64 " to 0x%" PRIx64
		        " (after .sbat)\n", file, r->overlay_size, r->overlay_offset, r->overlay_new_offset);
	else if (r->overlay_size)
		fprintf(stderr, "%s: kept %" PRIu64 " bytes of trailing data at 0x%" PRIx64 "\n", file,
		        r->overlay_size, r->overlay_offset);
}

static int
run_print(const cli_opts *o)
{
	sbat_pe *pe = malloc(sizeof(*pe));
	sbat_mapped_file image = { -1, NULL, 0 };
	const uint8_t *data;
	size_t n;
	sbat_diag d;
	sbat_csv *csv = NULL;
	int status = EXIT_OK;

	if (!pe) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return EXIT_FAILURE_;
	}
	if (sbat_file_map(o->image, SBAT_FILE_MAX_SIZE, &image, &d) ||
	    sbat_pe_parse(image.data, image.len, pe, &d)) {
		status = report_error(o->image, &d);
		goto out;
	}
	if (o->verbose)
		describe_image(o->image, pe);
	if (o->json) {
		cli_print_json(stdout, o->image, pe, image.data, image.len);
		goto out;
	}
	if (sbat_pe_sbat_data(pe, image.data, image.len, &data, &n, &d)) {
		if (d.code == SBAT_E_NO_SBAT) {
			fprintf(stderr, "%s: %s: no .sbat section\n", progname, o->image);
			status = EXIT_NO_SBAT;
		} else {
			status = report_error(o->image, &d);
		}
		goto out;
	}
	print_escaped(data, n);
	/* a malformed .sbat is worth knowing about: shim rejects the whole image for it */
	if (sbat_csv_parse(data, n, &csv, &d) != SBAT_OK) {
		fprintf(stderr, "%s: warning: %s: .sbat would not pass validation: ", progname, o->image);
		if (d.line && d.field)
			fprintf(stderr, "line %u, field %u: %s\n", d.line, d.field, d.what);
		else if (d.line)
			fprintf(stderr, "line %u: %s\n", d.line, d.what);
		else
			fprintf(stderr, "%s\n", d.what);
	}
	sbat_csv_free(csv);
out:
	sbat_file_unmap(&image);
	free(pe);
	return status;
}

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
		status = report_error(path, &d);
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
		fprintf(stderr, "%s: out of memory\n", progname);
		return EXIT_FAILURE_;
	}
	if (sbat_pe_parse(image, image_len, pe, &d)) {
		report_error(o->image, &d);
		goto out;
	}
	if (sbat_pe_sbat_data(pe, image, image_len, &old, &old_len, &d)) {
		if (d.code != SBAT_E_NO_SBAT) {
			report_error(o->image, &d);
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
		        "(--force replaces it)\n", progname, o->image, d.line, d.field, d.what);
		goto out;
	}
	if (sbat_csv_parse(*payload, *payload_len, &add, &d) ||
	    sbat_csv_merge(base, add, o->force, &merged, &merged_len, &d)) {
		report_error(o->csv, &d);
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
	return err ? report_error(o->check_level, &d) : EXIT_OK;
}

/* Would shim, holding this SbatLevel, refuse the image (or CSV)? Exit 4 when it would. */
static int
run_check_level(const cli_opts *o)
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
			report_error(o->csv, &d);
			goto out;
		}
	} else {
		pe = malloc(sizeof(*pe));
		if (!pe || sbat_file_map(o->image, SBAT_FILE_MAX_SIZE, &image, &d) ||
		    sbat_pe_parse(image.data, image.len, pe, &d)) {
			if (pe)
				report_error(o->image, &d);
			goto out;
		}
		if (sbat_pe_sbat_data(pe, image.data, image.len, &text, &n, &d)) {
			if (d.code == SBAT_E_NO_SBAT) {
				/* shim refuses images it loads itself without .sbat when SbatLevel is set */
				fprintf(stderr, "%s: %s: no .sbat section: shim refuses to load it\n", progname, o->image);
				status = EXIT_NO_SBAT;
			} else {
				report_error(o->image, &d);
			}
			goto out;
		}
		if (sbat_csv_parse(text, n, &csv, &d)) {
			fprintf(stderr, "%s: %s: .sbat is invalid (line %u, field %u: %s): shim refuses the image\n",
			        progname, o->image, d.line, d.field, d.what);
			status = EXIT_REVOKED;
			goto out;
		}
	}
	if (sbat_level_check(level, csv, revoked, sizeof(revoked) / sizeof(revoked[0]), &n_revoked)) {
		fprintf(stderr, "%s: internal error checking the policy\n", progname);
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

/* In-place edits replace IMAGE by rename; through a symlink that would replace the link. */
static int
refuse_symlink(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		fprintf(stderr, "%s: %s: is a symbolic link; name its target, or use --output\n", progname, path);
		return EXIT_FAILURE_;
	}
	return EXIT_OK;
}

static int
run_edit(const cli_opts *o)
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
		report_error(o->image, &d);
		goto out;
	}
	if (o->verbose) {
		sbat_pe *pe = malloc(sizeof(*pe));

		if (pe && sbat_pe_parse(image.data, image.len, pe, NULL) == SBAT_OK)
			describe_image(o->image, pe);
		free(pe);
	}
	if (o->merge && merge_payload(o, image.data, image.len, &payload, &payload_len) != EXIT_OK)
		goto out;
	if (o->dry_run ? sbat_output_open_scratch(NULL, &out, &d) :
	                 sbat_output_open(target, o->output ? o->image : NULL, NULL, &out, &d)) {
		report_error(target, &d);
		goto out;
	}
	memset(&eo, 0, sizeof(eo));
	eo.strip_signature = o->strip_signature;
	eo.relocate = o->relocate;
	eo.remove = o->remove;
	eo.write_unchanged = o->output != NULL;
	if (sbat_edit_fd(image.data, image.len, image.fd, payload, payload_len, &eo, out, &report, &d)) {
		report_error(o->image, &d);
		goto out;
	}
	if (o->verbose || o->dry_run)
		describe_edit(o->image, &report);
	if (o->dry_run) {
		fprintf(stderr, "%s: dry run: %snot written\n", o->image, report.unchanged ? "no change, " : "");
	} else if (report.unchanged && !o->output) {
		if (o->verbose)
			fprintf(stderr, "%s: already up to date, not rewritten\n", o->image);
	} else {
		sbat_err err = sbat_output_commit(out, &d);

		out = NULL;
		if (err) {
			report_error(target, &d);
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
		return run_check_level(&o);
	return o.print ? run_print(&o) : run_edit(&o);
}
