/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcr7.c - --event-log's PCR 7: each event made again from the variables, and the next boot's value */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/error.h"
#include "sbat/eventlog.h"
#include "sbat/input.h"
#include "sbat/pcr7.h"
#include "sbat/sigdb.h"
#include "sbat/walk.h"

#include "json.h"
#include "messages.h"
#include "next_level.h"
#include "pcr7.h"
#include "render_note.h"

static const char not_trusted[] = "the log does not match the TPM";

/* 1 for a --pending VAR PCR 7 measures; 0 for shim's lists (MokList, MokListX: shim measures them in PCR 14). */
static int
in_pcr7(const char *var)
{
	return !strcmp(var, "KEK") || !strcmp(var, "PK") || !strcmp(var, "db") || !strcmp(var, "dbx");
}

/* 1 when the firmware takes the write PENDING note n is about (its file, or a directory's pick, is appended). */
static int
taken(const sbat_boot_note *n)
{
	return n->check <= SBAT_BOOT_PENDING_SETUP_MODE;
}

/* The next PENDING note of r from *at on (one for each --pending, in order), or NULL. */
static const sbat_boot_note *
pending_note(const sbat_boot_report *r, size_t *at)
{
	while (r && *at < sbat_boot_report_note_count(r)) {
		const sbat_boot_note *n = sbat_boot_report_note_at(r, (*at)++);

		if (n->what == SBAT_BOOT_NOTE_PENDING && n->kind != SBAT_BOOT_NOTE_ERROR)
			return n;
	}
	return NULL;
}

/* Append the file of note n, one the firmware takes, to vars. */
static int
append_taken(const sbat_boot_note *n, sbat_pcr7_vars *vars)
{
	const char *file = n->picked ? n->picked : n->pending;
	uint8_t *buf = NULL;
	size_t len;
	sbat_diag d;

	if (!in_pcr7(n->variable) || !taken(n))
		return EXIT_OK;
	if (sbat_file_read(file, SBAT_SIGDB_MAX_FILE, &buf, &len, &d) != SBAT_OK ||
	    sbat_pcr7_vars_update(vars, n->variable, buf, len, NULL, &d) != SBAT_OK) {
		free(buf);
		return cli_report_error(file, &d);
	}
	free(buf);
	return EXIT_OK;
}

/*
 * o's --pending updates checked as the firmware checks the write (the walk's rule) into *ret, and each the
 * firmware takes appended to vars: EXIT_OK, or an exit status after a message naming the file.
 */
static int
apply_pending(const cli_opts *o, sbat_pcr7_vars *vars, sbat_boot_report **ret)
{
	char buf[4096];
	sbat_walk_opts wo;
	sbat_diag d;
	size_t i;
	int status = EXIT_OK;

	*ret = NULL;
	if (!o->n_pending)
		return EXIT_OK;
	sbat_walk_opts_init(&wo);
	wo.efivarfs = cli_efivarfs_dir();
	wo.pending = o->pending;
	wo.n_pending = o->n_pending;
	if (sbat_walk_pending_check(&wo, ret, &d) != SBAT_OK)
		return cli_report_error(cli_efivarfs_dir(), &d);
	for (i = 0; status == EXIT_OK && i < sbat_boot_report_note_count(*ret); i++) {
		const sbat_boot_note *n = sbat_boot_report_note_at(*ret, i);
		const char *text;

		if (n->kind == SBAT_BOOT_NOTE_ERROR && (text = cli_render_note(n, buf, sizeof(buf))) != NULL) {
			cli_message(n->file, text);
			status = EXIT_FAILURE_;
		} else if (n->kind == SBAT_BOOT_NOTE_ERROR) {
			status = cli_report_error(n->file, &n->diag);
		} else if (n->what == SBAT_BOOT_NOTE_PENDING) {
			status = append_taken(n, vars);
		}
	}
	return status;
}

int
cli_pcr7_build(const cli_opts *o, const sbat_eventlog *log, sbat_pcr7 **ret, sbat_boot_report **ret_pending)
{
	sbat_pcr7_vars *vars;
	sbat_diag d;
	int status;

	*ret = NULL;
	*ret_pending = NULL;
	if (sbat_pcr7_vars_new(cli_efivarfs_dir(), &vars, &d) != SBAT_OK)
		return cli_report_error(cli_efivarfs_dir(), &d);
	status = apply_pending(o, vars, ret_pending);
	if (status == EXIT_OK && sbat_pcr7_build(log, vars, ret, &d) != SBAT_OK)
		status = cli_report_error(cli_efivarfs_dir(), &d);
	sbat_pcr7_vars_free(vars);
	if (status != EXIT_OK) {
		sbat_boot_report_free(*ret_pending);
		*ret_pending = NULL;
	}
	return status;
}

static const char *
bank_label(const sbat_pcr7_bank *k, char *buf, size_t size)
{
	if (k->name)
		return k->name;
	snprintf(buf, size, "0x%04x", (unsigned)k->alg);
	return buf;
}

const char *
cli_pcr7_type_label(uint32_t type, char *buf, size_t size)
{
	const char *name = sbat_eventlog_type_name(type);

	if (name)
		return name;
	snprintf(buf, size, "0x%08x", (unsigned)type);
	return buf;
}

static void
text_event(const sbat_pcr7 *m, const sbat_pcr7_event *x)
{
	char type[16], label[16];
	size_t i, n = 0;

	if (x->log_index)
		printf("PCR 7 event %zu (%s", x->log_index, cli_pcr7_type_label(x->type, type, sizeof(type)));
	else
		printf("PCR 7 new event (%s", cli_pcr7_type_label(x->type, type, sizeof(type)));
	printf("%s%s): %s", x->name[0] ? " " : "", x->name, sbat_pcr7_state_name(x->state));
	for (i = 0; i < sbat_pcr7_bank_count(m); i++)
		if (x->banks_differ & (1u << i))
			printf("%s%s", n++ ? ", " : " in ", bank_label(sbat_pcr7_bank_at(m, i), label, sizeof(label)));
	if (x->state == SBAT_PCR7_ADDED)
		fputs(": the next boot measures it", stdout);
	else if (x->why)
		printf(": %s", x->why);
	fputs("\n", stdout);
}

void
cli_pcr7_print_text(const cli_opts *o, const sbat_pcr7 *m, const sbat_boot_report *pending, int trusted)
{
	const char *when = o->n_pending ? "after the update" : "at the next boot";
	const sbat_boot_note *n;
	char label[16], buf[4096];
	size_t i;

	printf("PCR 7, made again from the variables in %s%s:\n", cli_quote(cli_efivarfs_dir()),
	       o->n_pending ? " with the pending updates" : "");
	for (i = 0; i < o->n_pending; i++)
		if (!in_pcr7(o->pending[i].var))
			printf("pending %s: shim measures it in PCR 14, not in PCR 7\n", o->pending[i].var);
	for (i = 0; (n = pending_note(pending, &i)) != NULL;)
		if (in_pcr7(n->variable))
			printf("%s\n", cli_render_note(n, buf, sizeof(buf)));
	for (i = 0; i < sbat_pcr7_event_count(m); i++)
		text_event(m, sbat_pcr7_event_at(m, i));
	for (i = 0; i < sbat_pcr7_bank_count(m); i++) {
		const sbat_pcr7_bank *k = sbat_pcr7_bank_at(m, i);

		printf("%s PCR 7 %s: ", bank_label(k, label, sizeof(label)), when);
		if (!trusted || !k->predicted || !k->today_known) {
			printf("unknown: %s\n", !trusted     ? not_trusted :
			                        k->predicted ? "the log was not replayed" :
			                                       k->why);
			continue;
		}
		cli_hex(stdout, k->value, k->digest_size);
		fputs(" (today ", stdout);
		cli_hex(stdout, k->today, k->digest_size);
		printf("): %s\n", memcmp(k->value, k->today, k->digest_size) ? "changes" : "unchanged");
	}
}

static void
json_event(const sbat_pcr7 *m, const sbat_pcr7_event *x, int last)
{
	char type[16], label[16];
	size_t i, n = 0;

	fputs("      {\"index\": ", stdout);
	if (x->log_index)
		printf("%zu", x->log_index);
	else
		fputs("null", stdout);
	printf(", \"type\": \"%s\", \"kind\": ", cli_pcr7_type_label(x->type, type, sizeof(type)));
	cli_json_cstr(stdout, sbat_pcr7_kind_name(x->kind));
	printf(", \"state\": \"%s\", \"variable\": ", sbat_pcr7_state_name(x->state));
	cli_json_cstr_or_null(stdout, x->name[0] ? x->name : NULL);
	fputs(", \"guid\": ", stdout);
	cli_json_cstr_or_null(stdout, x->guid[0] ? x->guid : NULL);
	fputs(", \"why\": ", stdout);
	cli_json_cstr_or_null(stdout, x->why);
	printf(", \"data_size\": %zu, \"digests\": {", x->data_len);
	for (i = 0; i < sbat_pcr7_bank_count(m); i++) {
		const sbat_pcr7_bank *k = sbat_pcr7_bank_at(m, i);

		if (!(x->has_digest & (1u << i)))
			continue;
		printf("%s\"%s\": ", n++ ? ", " : "", bank_label(k, label, sizeof(label)));
		cli_json_hex(stdout, x->digest[i], k->digest_size);
	}
	fputs("}, \"differs_in\": [", stdout);
	for (i = 0, n = 0; i < sbat_pcr7_bank_count(m); i++)
		if (x->banks_differ & (1u << i))
			printf("%s\"%s\"", n++ ? ", " : "", bank_label(sbat_pcr7_bank_at(m, i), label, sizeof(label)));
	printf("]}%s\n", last ? "" : ",");
}

static void
json_bank(const sbat_pcr7_bank *k, int trusted, int last)
{
	char label[16];
	int known = trusted && k->predicted && k->today_known;

	printf("      {\"bank\": \"%s\", \"today\": ", bank_label(k, label, sizeof(label)));
	if (k->today_known)
		cli_json_hex(stdout, k->today, k->digest_size);
	else
		fputs("null", stdout);
	fputs(", \"predicted\": ", stdout);
	if (known)
		cli_json_hex(stdout, k->value, k->digest_size);
	else
		fputs("null", stdout);
	printf(", \"changes\": %s, \"why\": ", !known                                     ? "null" :
	                                       memcmp(k->value, k->today, k->digest_size) ? "true" :
	                                                                                    "false");
	cli_json_cstr_or_null(stdout, known         ? NULL :
	                              !trusted      ? not_trusted :
	                              !k->predicted ? k->why :
	                                              "the log was not replayed");
	printf("}%s\n", last ? "" : ",");
}

/* The "pending" array's entries: each --pending, whether the firmware takes it and the note that says so. */
static void
json_pending(const cli_opts *o, const sbat_boot_report *pending)
{
	char buf[4096];
	size_t i, k = 0;

	for (i = 0; i < o->n_pending; i++) {
		const sbat_boot_note *n = pending_note(pending, &k);

		printf("%s{\"var\": \"%s\", \"file\": ", i ? ", " : "", o->pending[i].var);
		cli_json_cstr(stdout, o->pending[i].file);
		printf(", \"measured\": %s, \"applied\": %s, \"check\": ",
		       in_pcr7(o->pending[i].var) ? "true" : "false", n && taken(n) ? "true" : "false");
		cli_json_cstr_or_null(stdout, n ? cli_render_note(n, buf, sizeof(buf)) : NULL);
		fputs("}", stdout);
	}
}

void
cli_pcr7_print_json(const cli_opts *o, const sbat_pcr7 *m, const sbat_boot_report *pending, int trusted)
{
	size_t i, n;

	fputs("{\n    \"efivarfs\": ", stdout);
	cli_json_cstr(stdout, cli_efivarfs_dir());
	fputs(",\n    \"pending\": [", stdout);
	json_pending(o, pending);
	fputs("],\n    \"events\": [\n", stdout);
	n = sbat_pcr7_event_count(m);
	for (i = 0; i < n; i++)
		json_event(m, sbat_pcr7_event_at(m, i), i + 1 == n);
	fputs("    ],\n    \"banks\": [\n", stdout);
	n = sbat_pcr7_bank_count(m);
	for (i = 0; i < n; i++)
		json_bank(sbat_pcr7_bank_at(m, i), trusted, i + 1 == n);
	fputs("    ]\n  }", stdout);
}
