/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* next_level.c - --check-level next:SHIM: read what shim reads at boot and predict its SbatLevel */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbat/boot.h"
#include "sbat/error.h"
#include "sbat/nextstate.h"

#include "json.h"
#include "messages.h"
#include "next_level.h"

const char *
cli_efivarfs_dir(void)
{
	const char *dir = getenv("SBAT_ADD_EFIVARFS");

	return dir && *dir ? dir : CLI_EFIVARFS_DIR;
}

int
cli_next_load(const char *shim, sbat_next_state **ret)
{
	char failed[4096];
	sbat_diag d;

	if (sbat_next_state_load(cli_efivarfs_dir(), shim, ret, failed, sizeof(failed), &d) != SBAT_OK)
		return cli_report_error(failed[0] ? failed : shim, &d);
	if ((*ret)->secure_boot_var < 0) {
		/* every UEFI 2.3.1 firmware has it: without it the variables are not this machine's */
		cli_message((*ret)->efivarfs,
		            "no SecureBoot variable: whether shim checks SBAT at the next boot is not known (the "
		            "machine was not booted through UEFI, or efivarfs is not mounted)");
		return EXIT_NO_LEVEL;
	}
	return EXIT_OK;
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
cli_next_print_text(const sbat_next_state *n, FILE *out)
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
	if (n->revocations_ignored)
		fprintf(out,
		        "inputs: %s: not read by this shim (it reads %s): the SBAT update it carries will not be "
		        "applied\n",
		        n->revocations_ignored, n->revocations_name);
	for (b = 0; b < 2; b++) {
		fprintf(out, "%s:\n", boot_names[b]);
		print_step_text(out, "shim's .sbatlevel", &n->boot[b].builtin);
		if (n->in[b].secure_boot && !n->boot[b].shim_stops)
			print_step_text(out, n->revocations_name, &n->boot[b].revocations);
		fputs("  stored SbatLevel: ", out);
		print_level_brief(out, n->boot[b].stored, n->boot[b].stored_len);
		fputs("\n  images after shim are checked against: ", out);
		if (n->mode[b] == SBAT_NEXT_MODE_NOT_ENFORCED)
			fputs("nothing (Secure Boot is off: shim checks no SBAT)\n", out);
		else if (n->mode[b] == SBAT_NEXT_MODE_SHIM_STOPS)
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
	[SBAT_NEXT_MODE_ENFORCED] = "enforced",
	[SBAT_NEXT_MODE_NOT_ENFORCED] = "not-enforced",
	[SBAT_NEXT_MODE_SHIM_STOPS] = "shim-stops",
};

void
cli_next_print_json(const sbat_next_state *n, FILE *out)
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
	fputs(", \"revocations_ignored\": ", out);
	cli_json_cstr_or_null(out, n->revocations_ignored);
	fputs(", \"boots\": [", out);
	for (b = 0; b < 2; b++) {
		fprintf(out, "%s{\"boot\": \"%s\", ", b ? ", " : "", b ? "after-next" : "next");
		json_step(out, "builtin", &n->boot[b].builtin);
		fputs(", ", out);
		json_step(out, "revocations_file", &n->boot[b].revocations);
		fputs(", \"stored\": ", out);
		json_text(out, n->boot[b].stored, n->boot[b].stored_len);
		fprintf(out, ", \"mode\": \"%s\", \"enforced\": ", mode_names[n->mode[b]]);
		json_text(out, n->mode[b] == SBAT_NEXT_MODE_ENFORCED ? n->boot[b].enforced : NULL,
		          n->boot[b].enforced_len);
		fputc('}', out);
	}
	fprintf(out, "], \"boots_differ\": %s}", n->differ ? "true" : "false");
}
