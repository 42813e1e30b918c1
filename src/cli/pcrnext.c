/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcrnext.c - --check-level next with an event log: PCR 4, 7 and 14 of the next boot along the default path */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/eventlog.h"
#include "sbat/input.h"
#include "sbat/pcr7.h"
#include "sbat/pcrnext.h"
#include "sbat/sigdb.h"

#include "json.h"
#include "next_level.h"
#include "pcrnext.h"

/* The vendor of a pending variable PCR 7 measures, or NULL. */
static const char *
measured_guid(const char *var)
{
	if (!strcmp(var, "KEK"))
		return SBAT_SIGDB_GUID_GLOBAL;
	if (!strcmp(var, "db") || !strcmp(var, "dbx"))
		return SBAT_SIGDB_GUID_SECURITY_DB;
	return NULL;
}

/* 1 if the walk's PENDING note n says the firmware takes the write. */
static int
applied(const sbat_boot_note *n)
{
	return n->what == SBAT_BOOT_NOTE_PENDING && n->variable && n->pending &&
	       (n->check == SBAT_BOOT_PENDING_PLAIN || n->check == SBAT_BOOT_PENDING_BY_KEK ||
	        n->check == SBAT_BOOT_PENDING_BY_PK || n->check == SBAT_BOOT_PENDING_SETUP_MODE);
}

/* The updates the walk applied, appended to vars; a static reason when one cannot be. */
static const char *
append_pending(const sbat_boot_report *r, sbat_pcr7_vars *vars)
{
	size_t i;

	for (i = 0; i < sbat_boot_report_note_count(r); i++) {
		const sbat_boot_note *n = sbat_boot_report_note_at(r, i);
		const char *file = n->picked ? n->picked : n->pending;
		uint8_t *buf = NULL;
		size_t len;
		sbat_diag d;
		sbat_err e;

		if (!applied(n) || !measured_guid(n->variable))
			continue;
		e = sbat_file_read(file, SBAT_SIGDB_MAX_FILE, &buf, &len, &d);
		if (e == SBAT_OK)
			e = sbat_pcr7_vars_append(vars, n->variable, measured_guid(n->variable), buf, len, NULL, &d);
		free(buf);
		if (e != SBAT_OK)
			return "a pending update does not read or apply";
	}
	return NULL;
}

/* The default path's entry, or NULL. */
static const char *
default_entry(const sbat_boot_report *r)
{
	size_t i;

	for (i = 0; i < sbat_boot_report_count(r); i++) {
		const sbat_boot_stage *st = sbat_boot_report_stage(r, i);

		if (st->is_default && st->entry)
			return st->entry;
	}
	return NULL;
}

/* The log meant: --event-log's, or the kernel's with the running efivarfs; NULL for none. */
static const char *
log_path(const cli_opts *o)
{
	const char *env = getenv("SBAT_ADD_EFIVARFS");

	if (o->event_log)
		return strcmp(o->event_log, "running") ? o->event_log : SBAT_EVENTLOG_KERNEL_PATH;
	return env && *env ? NULL : SBAT_EVENTLOG_KERNEL_PATH;
}

void
cli_pcrnext_make(const cli_opts *o, const sbat_boot_report *r, sbat_pcrnext **ret, const char **ret_entry,
                 const char **ret_why, int *ret_trusted)
{
	const char *path = log_path(o);
	sbat_eventlog *log = NULL;
	sbat_pcr7_vars *vars = NULL;
	sbat_eventlog_tpm tpm = SBAT_EVENTLOG_TPM_NOT_READ;
	sbat_diag d;
	sbat_err e;

	*ret = NULL;
	*ret_why = NULL;
	*ret_trusted = 1;
	if (!path || !(*ret_entry = default_entry(r)))
		return;
	e = sbat_eventlog_read(path, &log, &d);
	if (e != SBAT_OK) {
		*ret_why = e == SBAT_E_IO && d.sys_errno == ENOENT && !o->event_log ? NULL :
		                                                                      "the event log does not read";
		return;
	}
	if (!o->event_log || !strcmp(o->event_log, "running"))
		sbat_eventlog_compare_tpm(log, NULL, &tpm, &d);
	*ret_trusted = tpm != SBAT_EVENTLOG_TPM_DIFFERS;
	if (sbat_pcr7_vars_new(cli_efivarfs_dir(), &vars, &d) != SBAT_OK)
		*ret_why = "the variables do not read";
	else if (!(*ret_why = append_pending(r, vars)) && sbat_pcrnext_predict(log, vars, r, *ret_entry, ret, &d))
		*ret_why = "out of memory";
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

static const char *
bank_name(const sbat_pcrnext_value *v, char *buf, size_t size)
{
	if (v->name)
		return v->name;
	snprintf(buf, size, "0x%04x", (unsigned)v->alg);
	return buf;
}

static const char *
type_name(uint32_t type, char *buf, size_t size)
{
	const char *name = sbat_eventlog_type_name(type);

	if (name)
		return name;
	snprintf(buf, size, "0x%08x", (unsigned)type);
	return buf;
}

/* The events the model did not reproduce, one line each: what changes, and what is taken as it was. */
static void
text_events(const sbat_pcrnext *p)
{
	char type[16];
	size_t i;

	for (i = 0; i < sbat_pcrnext_event_count(p); i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);

		if (x->state == SBAT_PCR7_REPRODUCED)
			continue;
		printf("    PCR %u ", (unsigned)x->pcr);
		if (x->log_index)
			printf("event %zu", x->log_index);
		else
			fputs("new event", stdout);
		printf(" (%s): %s", type_name(x->type, type, sizeof(type)), sbat_pcr7_state_name(x->state));
		printf("%s%s\n", x->why ? ": " : "", x->why ? x->why : "");
	}
}

void
cli_pcrnext_print_text(const sbat_pcrnext *p, const char *entry, const char *why, int trusted)
{
	char label[16];
	size_t i;

	if (!p && !why)
		return;
	printf("next boot's PCRs along %s:\n", entry ? entry : "the default path");
	if (!p) {
		printf("    unknown: %s\n", why);
		return;
	}
	for (i = 0; i < sbat_pcrnext_value_count(p); i++) {
		const sbat_pcrnext_value *v = sbat_pcrnext_value_at(p, i);

		printf("    PCR %u (%s) next boot: ", (unsigned)v->pcr, bank_name(v, label, sizeof(label)));
		if (!trusted || !v->predicted) {
			printf("unknown: %s\n", !trusted ? "the log does not match the TPM" : v->why);
			continue;
		}
		cli_hex(stdout, v->value, v->digest_size);
		fputs(" (today ", stdout);
		if (v->today_known)
			cli_hex(stdout, v->today, v->digest_size);
		else
			fputs("unknown", stdout);
		printf("): %s\n",
		       v->today_known && !memcmp(v->value, v->today, v->digest_size) ? "unchanged" : "changes");
	}
	text_events(p);
}

static void
json_value(const sbat_pcrnext_value *v, int trusted, int last)
{
	char label[16];
	int known = trusted && v->predicted;

	printf("      {\"pcr\": %u, \"bank\": ", (unsigned)v->pcr);
	cli_json_cstr(stdout, bank_name(v, label, sizeof(label)));
	fputs(", \"value\": ", stdout);
	if (known)
		cli_json_hex(stdout, v->value, v->digest_size);
	else
		fputs("null", stdout);
	fputs(", \"today\": ", stdout);
	if (v->today_known)
		cli_json_hex(stdout, v->today, v->digest_size);
	else
		fputs("null", stdout);
	fputs(", \"unknown_reason\": ", stdout);
	cli_json_cstr_or_null(stdout, known ? NULL : !trusted ? "the log does not match the TPM" : v->why);
	printf("}%s\n", last ? "" : ",");
}

/* One event as a record of TCG's Canonical Event Log in JSON, as systemd-pcrlock reads it. */
static void
json_event(const sbat_pcrnext *p, const sbat_pcrnext_event *x, size_t recnum, int last)
{
	char type[16], label[16];
	size_t i, n = 0;

	printf("      {\"recnum\": %zu, \"pcr\": %u, \"digests\": [", recnum, (unsigned)x->pcr);
	for (i = 0; i < sbat_pcrnext_value_count(p); i++) {
		const sbat_pcrnext_value *v = sbat_pcrnext_value_at(p, i);

		if (v->pcr != x->pcr || !(x->has_digest & (1u << v->bank)))
			continue;
		printf("%s{\"hashAlg\": ", n++ ? ", " : "");
		cli_json_cstr(stdout, bank_name(v, label, sizeof(label)));
		fputs(", \"digest\": ", stdout);
		cli_json_hex(stdout, x->digest[v->bank], v->digest_size);
		fputs("}", stdout);
	}
	fputs("], \"content_type\": \"pcclient_std\", \"content\": {\"event_type\": ", stdout);
	cli_json_cstr(stdout, type_name(x->type, type, sizeof(type)));
	fputs(", \"event_data\": ", stdout);
	cli_json_hex(stdout, x->data, x->data_len);
	printf("}, \"state\": \"%s\", \"why\": ", sbat_pcr7_state_name(x->state));
	cli_json_cstr_or_null(stdout, x->why);
	printf("}%s\n", last ? "" : ",");
}

void
cli_pcrnext_print_json(const sbat_pcrnext *p, const char *entry, const char *why, int trusted)
{
	size_t i, n = sbat_pcrnext_value_count(p), recnum = 0;

	if (!p && !why)
		return;
	fputs("  \"pcrs\": {\n    \"path\": ", stdout);
	cli_json_cstr_or_null(stdout, entry);
	fputs(",\n    \"unknown_reason\": ", stdout);
	cli_json_cstr_or_null(stdout, p ? NULL : why);
	fputs(",\n    \"values\": [\n", stdout);
	for (i = 0; i < n; i++)
		json_value(sbat_pcrnext_value_at(p, i), trusted, i + 1 == n);
	fputs("    ],\n    \"events\": [\n", stdout);
	n = sbat_pcrnext_event_count(p);
	for (i = 0; i < n; i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);

		if (x->state != SBAT_PCR7_DROPPED)
			json_event(p, x, recnum++, i + 1 == n);
	}
	fputs("    ]\n  },\n", stdout);
}
