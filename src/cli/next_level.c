/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* next_level.c - --check-level next:SHIM: read what shim reads at boot and predict its SbatLevel */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbat/sbat.h"

#include "json.h"
#include "messages.h"
#include "next_level.h"

/* A variable larger than this is not one shim or the firmware sets. */
#define VAR_MAX_SIZE (SBAT_EFIVAR_ATTRIBUTES_SIZE + SBAT_LEVEL_MAX_SIZE)

static char *
join(const char *dir, const char *name)
{
	char *p = malloc(strlen(dir) + strlen(name) + 2);

	if (p)
		sprintf(p, "%s/%s", dir, name);
	return p;
}

int
cli_efivar_read(const char *dir, const char *name, uint8_t **buf, size_t *len)
{
	char *path = join(dir, name);
	sbat_diag d;
	int status = EXIT_OK;

	if (!path) {
		cli_message(name, "out of memory");
		return EXIT_FAILURE_;
	}
	if (sbat_efivar_read(dir, name, VAR_MAX_SIZE, buf, len, &d) != SBAT_OK)
		status = cli_report_error(path, &d);
	free(path);
	return status;
}

/* A one-byte variable (SecureBoot, SetupMode, SbatPolicy): its first data byte, or -1 when absent. */
static int
read_byte_var(const char *dir, const char *name, int exact, int *ret)
{
	char *path = join(dir, name);
	sbat_diag d;
	int status = EXIT_OK;

	if (!path) {
		cli_message(name, "out of memory");
		return EXIT_FAILURE_;
	}
	if (sbat_efivar_read_byte(dir, name, exact, ret, &d) != SBAT_OK)
		status = cli_report_error(d.code == SBAT_E_EFIVAR ? name : path, &d);
	free(path);
	return status;
}

/* A parsed level as text: the header, then one "name,generation" row each (what shim's comparison reads). */
static char *
level_text(const sbat_level *l)
{
	size_t i, n = 32;
	char *s, *p;

	for (i = 1; i < l->n_entries; i++)
		n += strlen(l->entries[i].component_name) + 8;
	s = malloc(n);
	if (!s)
		return NULL;
	p = s + sprintf(s, "sbat,1,%s\n", l->datestamp);
	for (i = 1; i < l->n_entries; i++)
		p += sprintf(p, "%s,%u\n", l->entries[i].component_name, (unsigned)l->entries[i].generation);
	return s;
}

/*
 * The .sbat of an image as shim reads it (sbat_judge_image): *ret is the
 * judgement, whose csv is NULL when shim reads none. A .sbat shim refuses
 * is an error when strict, and no rows otherwise (shim then refuses the
 * image as it refuses one without a .sbat).
 */
static sbat_err
image_sbat(const sbat_image *img, int strict, sbat_judgement **ret, sbat_diag *d)
{
	sbat_err r = sbat_judge_image(img, NULL, SBAT_JUDGE_SHIM_NOT_ENFORCING, SBAT_JUDGE_STARTED_BY_SHIM, ret, d);

	if (r != SBAT_OK || !strict || (*ret)->csv || (*ret)->sbat_error.code == SBAT_OK)
		return r;
	*d = (*ret)->sbat_error;
	sbat_judgement_free(*ret);
	*ret = NULL;
	return d->code;
}

static int
load_shim(cli_next *n)
{
	sbat_image *img = NULL;
	sbat_level *a = NULL, *l = NULL;
	size_t len;
	sbat_diag d;
	sbat_err r;

	r = sbat_file_read(n->shim, SBAT_FILE_MAX_SIZE, &n->shim_buf, &len, &d);
	n->shim_len = r ? 0 : len;
	if (!r)
		r = sbat_image_parse(n->shim_buf, len, &img, &d);
	if (!r)
		r = sbat_level_from_shim(img, SBAT_LEVEL_AUTOMATIC, &a, &d);
	if (!r)
		r = sbat_level_from_shim(img, SBAT_LEVEL_LATEST, &l, &d);
	if (!r)
		r = image_sbat(img, 1, &n->shim_sbat, &d);
	if (!r) {
		n->automatic = level_text(a);
		n->latest = level_text(l);
		if (!n->automatic || !n->latest) {
			memset(&d, 0, sizeof(d));
			d.code = r = SBAT_E_NOMEM;
			d.other_index = -1;
		}
	}
	sbat_level_free(a);
	sbat_level_free(l);
	sbat_image_free(img);
	return r ? cli_report_error(n->shim, &d) : EXIT_OK;
}

/* The C string section `name` of a revocations file holds, checked as an SbatLevel. */
static int
revocation_payload(cli_next *n, const sbat_image *img, size_t len, const char *name, char **ret)
{
	const sbat_section_info *s;
	const uint8_t *p, *nul;
	sbat_level *level = NULL;
	sbat_diag d;
	char msg[160];
	int i = sbat_image_find_section(img, name);

	*ret = NULL;
	if (i < 0)
		return EXIT_OK;
	s = sbat_image_section(img, (unsigned)i);
	p = n->rev_buf + s->pointer_to_raw_data;
	nul = s->pointer_to_raw_data < len ? memchr(p, '\0', len - s->pointer_to_raw_data) : NULL;
	if (!nul) {
		snprintf(msg, sizeof(msg), "%s at offset %#x is not a NUL-terminated string inside the file", name,
		         (unsigned)s->pointer_to_raw_data);
		cli_message(n->revocations, msg);
		return EXIT_FAILURE_;
	}
	if (sbat_level_parse_shim(p, (size_t)(nul - p), &level, &d) != SBAT_OK) {
		snprintf(msg, sizeof(msg), "%s at offset %#x: line %u: %s", name, (unsigned)s->pointer_to_raw_data,
		         d.line, d.what ? d.what : sbat_strerror(d.code));
		cli_message(n->revocations, msg);
		return EXIT_FAILURE_;
	}
	sbat_level_free(level);
	*ret = strdup((const char *)p);
	return *ret ? EXIT_OK : EXIT_FAILURE_;
}

/* revocations_sbat.efi in the shim's directory (any case, as FAT), when there is one. */
static int
load_revocations(cli_next *n)
{
	const char *slash = strrchr(n->shim, '/');
	char *dir = slash ? strndup(n->shim, (size_t)(slash - n->shim) + (slash == n->shim)) : strdup(".");
	sbat_image *img = NULL;
	char **names = NULL;
	size_t len, n_names = 0, i;
	sbat_diag d;
	sbat_err err;
	int status = EXIT_OK;

	if (!dir)
		return EXIT_FAILURE_;
	/* every name, links included: one named so is reported, not passed over */
	if (sbat_partition_list(dir, SBAT_PARTITION_LIST_ANY, 65536, &names, &n_names, &d) == SBAT_OK)
		for (i = 0; i < n_names && !n->revocations; i++)
			if (strcasecmp(names[i], CLI_REVOCATIONS_FILE) == 0)
				n->revocations = join(dir, names[i]);
	sbat_partition_names_free(names, n_names);
	if (!n->revocations) {
		free(dir);
		return EXIT_OK;
	}
	/* the name found, in the shim's directory, not through a link */
	err = sbat_file_read_beneath(dir, n->revocations + strlen(dir) + 1, SBAT_FILE_MAX_SIZE, &n->rev_buf, &len, &d);
	free(dir);
	if (err != SBAT_OK || sbat_image_parse(n->rev_buf, len, &img, &d) != SBAT_OK ||
	    image_sbat(img, 0, &n->rev_sbat, &d) != SBAT_OK) {
		sbat_image_free(img);
		return cli_report_error(n->revocations, &d);
	}
	status = revocation_payload(n, img, len, ".sbata", &n->rev_automatic);
	if (status == EXIT_OK)
		status = revocation_payload(n, img, len, ".sbatl", &n->rev_latest);
	sbat_image_free(img);
	return status;
}

static int
load_variables(cli_next *n, sbat_next_inputs *in)
{
	size_t len;
	int status, policy;

	status = read_byte_var(n->efivarfs, "SecureBoot-" CLI_EFI_GLOBAL_GUID, 1, &n->secure_boot_var);
	if (status == EXIT_OK)
		status = read_byte_var(n->efivarfs, "SetupMode-" CLI_EFI_GLOBAL_GUID, 1, &n->setup_mode_var);
	/* shim reads the first byte of SbatPolicy, whatever its size */
	if (status == EXIT_OK)
		status = read_byte_var(n->efivarfs, SBAT_POLICY_EFIVAR_NAME, 0, &policy);
	if (status == EXIT_OK)
		status = cli_efivar_read(n->efivarfs, SBAT_LEVEL_EFIVAR_NAME, &n->current_buf, &len);
	if (status != EXIT_OK)
		return status;
	if (n->secure_boot_var < 0) {
		/* every UEFI 2.3.1 firmware has it: without it the variables are not this machine's */
		cli_message(n->efivarfs,
		            "no SecureBoot variable: whether shim checks SBAT at the next boot is not known (the "
		            "machine was not booted through UEFI, or efivarfs is not mounted)");
		return EXIT_NO_LEVEL;
	}
	in->secure_boot = n->secure_boot_var == 1 && n->setup_mode_var != 1;
	in->policy = policy < 0 ? SBAT_POLICY_ABSENT : policy;
	if (n->current_buf) {
		in->current = n->current_buf + SBAT_EFIVAR_ATTRIBUTES_SIZE;
		in->current_len = len - SBAT_EFIVAR_ATTRIBUTES_SIZE;
	}
	return EXIT_OK;
}

/* The level images are judged by in boot b, parsed. */
static int
judged_level(cli_next *n, int b)
{
	const sbat_next_boot *boot = &n->boot[b];
	const uint8_t *text = boot->enforced;
	size_t len = boot->enforced_len;
	sbat_diag d;

	n->mode[b] = CLI_NEXT_ENFORCED;
	if (!n->in[b].secure_boot)
		n->mode[b] = CLI_NEXT_NOT_ENFORCED;
	else if (boot->shim_stops)
		n->mode[b] = CLI_NEXT_SHIM_STOPS;
	if (n->mode[b] != CLI_NEXT_ENFORCED) {
		text = boot->stored;
		len = boot->stored_len;
	}
	if (!text) {
		text = (const uint8_t *)SBAT_LEVEL_ORIGINAL;
		len = strlen(SBAT_LEVEL_ORIGINAL);
	}
	if (sbat_level_parse_shim(text, len, &n->level[b], &d) == SBAT_OK)
		return EXIT_OK;
	/* a stored level shim cannot parse stops it (efi_main: import of SBAT data): no rows, nothing judged by it */
	if (n->mode[b] == CLI_NEXT_SHIM_STOPS &&
	    sbat_level_parse_shim((const uint8_t *)"\n", 1, &n->level[b], &d) == SBAT_OK)
		return EXIT_OK;
	return cli_report_error(b ? "SbatLevel after the boot after next" : "SbatLevel after the next boot", &d);
}

static int
same_text(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	if (!a || !b)
		return a == b;
	return alen == blen && memcmp(a, b, alen) == 0;
}

const char *
cli_efivarfs_dir(void)
{
	const char *dir = getenv("SBAT_ADD_EFIVARFS");

	return dir && *dir ? dir : CLI_EFIVARFS_DIR;
}

int
cli_next_load(const char *shim, cli_next *n)
{
	sbat_diag d;
	int status, b;

	memset(n, 0, sizeof(*n));
	n->efivarfs = cli_efivarfs_dir();
	n->shim = shim;
	status = load_variables(n, &n->in[0]);
	if (status == EXIT_OK)
		status = load_shim(n);
	if (status == EXIT_OK)
		status = load_revocations(n);
	if (status != EXIT_OK)
		return status;
	n->in[0].automatic = n->automatic;
	n->in[0].latest = n->latest;
	n->in[0].shim_sbat = n->shim_sbat ? n->shim_sbat->csv : NULL;
	n->in[0].rev_automatic = n->rev_automatic;
	n->in[0].rev_latest = n->rev_latest;
	n->in[0].rev_sbat = n->rev_sbat ? n->rev_sbat->csv : NULL;
	for (b = 0; b < 2 && status == EXIT_OK; b++) {
		if (b == 1) {
			/* shim deleted SbatPolicy; it starts from what the next boot stored */
			n->in[1] = n->in[0];
			n->in[1].policy = SBAT_POLICY_ABSENT;
			n->in[1].current = n->boot[0].stored;
			n->in[1].current_len = n->boot[0].stored_len;
		}
		if (sbat_next_boot_predict(&n->in[b], &n->boot[b], &d) != SBAT_OK)
			return cli_report_error(n->shim, &d);
		status = judged_level(n, b);
	}
	if (status == EXIT_OK)
		n->differ = n->mode[0] != n->mode[1] ||
		            !same_text(n->boot[0].enforced, n->boot[0].enforced_len, n->boot[1].enforced,
		                       n->boot[1].enforced_len) ||
		            (n->mode[0] != CLI_NEXT_ENFORCED && !same_text(n->boot[0].stored, n->boot[0].stored_len,
		                                                           n->boot[1].stored, n->boot[1].stored_len));
	return status;
}

void
cli_next_free(cli_next *n)
{
	int b;

	for (b = 0; b < 2; b++)
		sbat_level_free(n->level[b]);
	free(n->revocations);
	free(n->current_buf);
	free(n->automatic);
	free(n->latest);
	free(n->rev_automatic);
	free(n->rev_latest);
	free(n->shim_buf);
	free(n->rev_buf);
	sbat_judgement_free(n->shim_sbat);
	sbat_judgement_free(n->rev_sbat);
}

/* ------------------------------------------------------------ reporting */

/* The first line of a level's text, and its rows joined with spaces: "2025021800 (shim,4 grub,5)". */
static void
print_level_brief(FILE *out, const uint8_t *p, size_t n)
{
	size_t i, start = 0;
	int row = 0;

	if (!p) {
		fputs("none", out);
		return;
	}
	for (i = 0; i <= n; i++) {
		if (i < n && p[i] != '\n' && p[i] != '\0')
			continue;
		if (i > start && row == 0 && i - start >= 7)
			fprintf(out, "%.*s", (int)(i - start - 7), (const char *)p + start + 7);
		else if (i > start)
			fprintf(out, "%s%.*s", row == 1 ? " (" : " ", (int)(i - start), (const char *)p + start);
		if (i > start)
			row++;
		start = i + 1;
		if (i < n && p[i] == '\0')
			break;
	}
	if (row > 1)
		putc(')', out);
}

static const char *
policy_word(int policy)
{
	switch (policy) {
	case SBAT_POLICY_ABSENT: return "absent";
	case SBAT_POLICY_LATEST: return "1 (latest)";
	case SBAT_POLICY_AUTOMATIC: return "2 (automatic)";
	case SBAT_POLICY_RESET: return "3 (reset)";
	default: return "not 1, 2 or 3 (taken as absent, after an error shown until a key is pressed)";
	}
}

static const char *
rule_text(sbat_next_rule r)
{
	switch (r) {
	case SBAT_NEXT_NOT_RUN: return "not run";
	case SBAT_NEXT_WRITTEN_ABSENT: return "written: there was no SbatLevel";
	case SBAT_NEXT_KEPT_VERSION: return "kept the stored level: its version field is newer";
	case SBAT_NEXT_KEPT_DATESTAMP: return "kept the stored level: its datestamp is not older";
	case SBAT_NEXT_REPLACED: return "written: newer than the stored level";
	case SBAT_NEXT_REPLACED_CORRUPT: return "written: the stored value is not an SbatLevel";
	case SBAT_NEXT_RESET: return "reset to the original level";
	case SBAT_NEXT_REFUSED_SELF: return "not written: it would revoke shim itself";
	case SBAT_NEXT_REFUSED_PARSE: return "not written: it does not parse";
	case SBAT_NEXT_REVOCATIONS_REFUSED: return "revocations file refused by shim's SBAT check; not read";
	}
	return "?";
}

static void
print_step_text(FILE *out, const char *what, const sbat_next_step *s)
{
	fprintf(out, "  %s: ", what);
	if (s->rule == SBAT_NEXT_NOT_RUN || s->rule == SBAT_NEXT_REVOCATIONS_REFUSED) {
		fprintf(out, "%s\n", rule_text(s->rule));
		return;
	}
	fprintf(out, "candidate %s (SbatPolicy %s) ", sbat_next_payload_name(s->payload),
	        sbat_next_choice_name(s->choice));
	print_level_brief(out, (const uint8_t *)s->candidate, strlen(s->candidate));
	fprintf(out, ": %s\n", rule_text(s->rule));
}

static const char *const boot_names[2] = { "next boot", "boot after next" };

void
cli_next_print_text(const cli_next *n, FILE *out)
{
	int b;

	fprintf(out, "inputs: SecureBoot %d, SetupMode %d (Secure Boot %s for shim), SbatPolicy %s, SbatLevelRT ",
	        n->secure_boot_var, n->setup_mode_var, n->in[0].secure_boot ? "on" : "off",
	        policy_word(n->in[0].policy));
	print_level_brief(out, n->in[0].current, n->in[0].current_len);
	fprintf(out, "\ninputs: shim %s: automatic ", n->shim);
	print_level_brief(out, (const uint8_t *)n->automatic, strlen(n->automatic));
	fputs(", latest ", out);
	print_level_brief(out, (const uint8_t *)n->latest, strlen(n->latest));
	fputc('\n', out);
	if (n->revocations) {
		fprintf(out, "inputs: %s: %s", n->revocations, n->rev_automatic && n->rev_latest ? "automatic " : "");
		if (n->rev_automatic && n->rev_latest) {
			print_level_brief(out, (const uint8_t *)n->rev_automatic, strlen(n->rev_automatic));
			fputs(", latest ", out);
			print_level_brief(out, (const uint8_t *)n->rev_latest, strlen(n->rev_latest));
		} else {
			fputs("no .sbata and .sbatl pair: shim reads no SbatLevel from it", out);
		}
		fputc('\n', out);
	}
	for (b = 0; b < 2; b++) {
		fprintf(out, "%s:\n", boot_names[b]);
		print_step_text(out, "shim's .sbatlevel", &n->boot[b].builtin);
		if (n->in[b].secure_boot && !n->boot[b].shim_stops)
			print_step_text(out, "revocations_sbat.efi", &n->boot[b].revocations);
		fputs("  stored SbatLevel: ", out);
		print_level_brief(out, n->boot[b].stored, n->boot[b].stored_len);
		fputs("\n  images after shim are checked against: ", out);
		if (n->mode[b] == CLI_NEXT_NOT_ENFORCED)
			fputs("nothing (Secure Boot is off: shim checks no SBAT)\n", out);
		else if (n->mode[b] == CLI_NEXT_SHIM_STOPS)
			fputs(n->level[b] && n->level[b]->n_entries == 0 ?
			          "nothing starts: shim stops the machine (it cannot parse the stored SbatLevel)\n" :
			          "nothing starts: shim stops the machine (its own .sbat is revoked)\n",
			      out);
		else {
			print_level_brief(out, n->boot[b].enforced, n->boot[b].enforced_len);
			fputc('\n', out);
		}
	}
}

static void
json_text(FILE *out, const uint8_t *p, size_t n)
{
	const uint8_t *nul;

	if (!p) {
		fputs("null", out);
		return;
	}
	nul = memchr(p, '\0', n);
	cli_json_string(out, (const char *)p, nul ? (size_t)(nul - p) : n);
}

static void
json_step(FILE *out, const char *key, const sbat_next_step *s)
{
	fprintf(out, "\"%s\": {\"rule\": \"%s\"", key, sbat_next_rule_name(s->rule));
	if (s->rule != SBAT_NEXT_NOT_RUN && s->rule != SBAT_NEXT_REVOCATIONS_REFUSED) {
		fprintf(out,
		        ", \"choice\": \"%s\", \"payload\": \"%s\", \"candidate\": ", sbat_next_choice_name(s->choice),
		        sbat_next_payload_name(s->payload));
		cli_json_cstr(out, s->candidate);
	}
	if (s->rule == SBAT_NEXT_REFUSED_SELF && s->self_component) {
		fputs(", \"revokes_shim\": {\"component_name\": ", out);
		cli_json_cstr(out, s->self_component);
		fprintf(out, ", \"generation\": %u, \"minimum\": %u}", s->self_generation, s->self_minimum);
	}
	fputc('}', out);
}

static const char *const mode_names[] = {
	[CLI_NEXT_ENFORCED] = "enforced",
	[CLI_NEXT_NOT_ENFORCED] = "not-enforced",
	[CLI_NEXT_SHIM_STOPS] = "shim-stops",
};

void
cli_next_print_json(const cli_next *n, FILE *out)
{
	int b;

	fputs("{\"efivarfs\": ", out);
	cli_json_cstr(out, n->efivarfs);
	fprintf(out, ", \"secure_boot\": %d, \"setup_mode\": %d, \"shim_secure_mode\": %s, \"sbat_policy\": ",
	        n->secure_boot_var, n->setup_mode_var, n->in[0].secure_boot ? "true" : "false");
	if (n->in[0].policy == SBAT_POLICY_ABSENT)
		fputs("null", out);
	else
		fprintf(out, "%d", n->in[0].policy);
	fputs(", \"sbat_level_rt\": ", out);
	json_text(out, n->in[0].current, n->in[0].current_len);
	fputs(", \"shim\": ", out);
	cli_json_cstr(out, n->shim);
	fputs(", \"automatic\": ", out);
	cli_json_cstr(out, n->automatic);
	fputs(", \"latest\": ", out);
	cli_json_cstr(out, n->latest);
	fputs(", \"revocations\": ", out);
	if (n->revocations) {
		fputs("{\"file\": ", out);
		cli_json_cstr(out, n->revocations);
		fputs(", \"automatic\": ", out);
		cli_json_cstr(out, n->rev_automatic);
		fputs(", \"latest\": ", out);
		cli_json_cstr(out, n->rev_latest);
		fputc('}', out);
	} else {
		fputs("null", out);
	}
	fputs(", \"boots\": [", out);
	for (b = 0; b < 2; b++) {
		fprintf(out, "%s{\"boot\": \"%s\", ", b ? ", " : "", b ? "after-next" : "next");
		json_step(out, "builtin", &n->boot[b].builtin);
		fputs(", ", out);
		json_step(out, "revocations_file", &n->boot[b].revocations);
		fputs(", \"stored\": ", out);
		json_text(out, n->boot[b].stored, n->boot[b].stored_len);
		fprintf(out, ", \"mode\": \"%s\", \"enforced\": ", mode_names[n->mode[b]]);
		json_text(out, n->mode[b] == CLI_NEXT_ENFORCED ? n->boot[b].enforced : NULL, n->boot[b].enforced_len);
		fputc('}', out);
	}
	fprintf(out, "], \"boots_differ\": %s}", n->differ ? "true" : "false");
}
