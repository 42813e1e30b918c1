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
#include "pcr7.h"
#include "pcrnext.h"

/* 1 if the walk's PENDING note n says the firmware takes the write. */
static int
applied(const sbat_boot_note *n)
{
	return n->what == SBAT_BOOT_NOTE_PENDING && n->variable && n->pending &&
	       (n->check == SBAT_BOOT_PENDING_PLAIN || n->check == SBAT_BOOT_PENDING_BY_KEK ||
	        n->check == SBAT_BOOT_PENDING_BY_PK || n->check == SBAT_BOOT_PENDING_SETUP_MODE);
}

/* The updates the walk applied, appended to vars and listed in c; a static reason when one cannot be. */
static const char *
append_pending(const sbat_boot_report *r, sbat_pcr7_vars *vars, cli_prediction *c)
{
	size_t i;

	for (i = 0; i < sbat_boot_report_note_count(r); i++) {
		const sbat_boot_note *n = sbat_boot_report_note_at(r, i);
		const char *file = n->picked ? n->picked : n->pending;
		uint8_t *buf = NULL;
		size_t len, added = 0;
		sbat_diag d;
		sbat_err e;

		if (!applied(n))
			continue;
		e = sbat_file_read(file, SBAT_SIGDB_MAX_FILE, &buf, &len, &d);
		if (e == SBAT_OK)
			e = sbat_pcr7_vars_update(vars, n->variable, buf, len, &added, &d);
		free(buf);
		if (e != SBAT_OK)
			return "a pending update does not read or apply";
		if (c->n_updates < CLI_MAX_PENDING) {
			c->update[c->n_updates].var = n->variable;
			c->update[c->n_updates++].added = added;
		}
	}
	return NULL;
}

/* 1 if a stage of entry is on the default path. */
static int
default_stage(const sbat_boot_report *r, const char *entry)
{
	size_t i;

	for (i = 0; i < sbat_boot_report_count(r); i++) {
		const sbat_boot_stage *st = sbat_boot_report_stage(r, i);

		if (st->is_default && st->entry && !strcmp(st->entry, entry))
			return 1;
	}
	return 0;
}

/* The paths of r, the default first, each once, into c->entry (another only when a file of it opens); 0 when no
 * path is the default. */
static int
paths(const sbat_boot_report *r, cli_prediction *c)
{
	size_t i, k;
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < sbat_boot_report_count(r) && c->n < CLI_PCRNEXT_MAX_PATHS; i++) {
			const sbat_boot_stage *st = sbat_boot_report_stage(r, i);

			if (!st->entry || (!st->is_default) != pass || (pass && (!st->host || st->off_default)))
				continue;
			for (k = 0; k < c->n && strcmp(c->entry[k], st->entry) != 0; k++)
				;
			if (k == c->n)
				c->entry[c->n++] = st->entry;
		}
	return c->n && default_stage(r, c->entry[0]);
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

/* Each path of c predicted from log and vars; the first failure's reason, or NULL. */
static const char *
predict_all(const sbat_eventlog *log, sbat_pcr7_vars *vars, const sbat_boot_report *r, cli_prediction *c)
{
	size_t i;
	sbat_diag d;

	for (i = 0; i < c->n; i++)
		if (sbat_pcrnext_predict(log, vars, r, c->entry[i], &c->p[i], &d) != SBAT_OK)
			return "out of memory";
	return NULL;
}

void
cli_pcrnext_make(const cli_opts *o, const sbat_boot_report *r, cli_prediction *c)
{
	const char *path = log_path(o);
	sbat_eventlog *log = NULL;
	sbat_pcr7_vars *vars = NULL;
	sbat_eventlog_tpm tpm = SBAT_EVENTLOG_TPM_NOT_READ;
	sbat_diag d;
	sbat_err e;

	memset(c, 0, sizeof(*c));
	c->trusted = 1;
	c->running = path && !strcmp(path, SBAT_EVENTLOG_KERNEL_PATH);
	if (!path || !paths(r, c)) {
		c->n = 0;
		return;
	}
	e = sbat_eventlog_read(path, &log, &d);
	if (e != SBAT_OK) {
		c->why = e == SBAT_E_IO && d.sys_errno == ENOENT && !o->event_log ? NULL :
		                                                                    "the event log does not read";
		c->n = 0;
		return;
	}
	if (c->running)
		sbat_eventlog_compare_tpm(log, NULL, &tpm, &d);
	c->trusted = tpm != SBAT_EVENTLOG_TPM_DIFFERS;
	if (sbat_pcr7_vars_new(cli_efivarfs_dir(), &vars, &d) != SBAT_OK)
		c->why = "the variables do not read";
	else if (!(c->why = append_pending(r, vars, c)))
		c->why = predict_all(log, vars, r, c);
	sbat_pcr7_vars_free(vars);
	c->log = log;
	c->tpm = tpm;
	if (c->why)
		cli_pcrnext_free(c);
}

void
cli_pcrnext_free(cli_prediction *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		sbat_pcrnext_free(c->p[i]);
		c->p[i] = NULL;
	}
	c->n = 0;
	sbat_eventlog_free(c->log);
	c->log = NULL;
}

static const char *
bank_name(const sbat_pcrnext_value *v, char *buf, size_t size)
{
	if (v->name)
		return v->name;
	snprintf(buf, size, "0x%04x", (unsigned)v->alg);
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
		printf(" (%s): %s", cli_pcr7_type_label(x->type, type, sizeof(type)), sbat_pcr7_state_name(x->state));
		printf("%s%s\n", x->why ? ": " : "", x->why ? x->why : "");
	}
}

/* The entries the pending updates of var add, or -1 when none was applied. */
static long
update_added(const cli_prediction *c, const char *var)
{
	size_t i, n = 0;
	int found = 0;

	for (i = 0; i < c->n_updates; i++)
		if (!strcmp(c->update[i].var, var)) {
			n += c->update[i].added;
			found = 1;
		}
	return found ? (long)n : -1;
}

/* What event x changes, worded into buf; NULL when it changes nothing that can be said. */
static const char *
cause_text(const cli_prediction *c, const sbat_pcrnext_event *x, char *buf, size_t size)
{
	const char *file = x->cause_file ? x->cause_file : "an image";
	long added;

	switch (x->cause) {
	case SBAT_PCRNEXT_CAUSE_VARIABLE:
		if ((added = update_added(c, x->cause_name)) >= 0)
			snprintf(buf, size, "the pending %s update adds %ld entr%s", x->cause_name, added,
			         added == 1 ? "y" : "ies");
		else
			snprintf(buf, size, "%s is not what the last boot measured", x->cause_name);
		return buf;
	case SBAT_PCRNEXT_CAUSE_AUTHORITY:
		snprintf(buf, size, "%s is verified by a %s entry the last boot did not measure", file,
		         x->cause_name[0] ? x->cause_name : "db");
		return buf;
	case SBAT_PCRNEXT_CAUSE_IMAGE: snprintf(buf, size, "%s is another image", file); return buf;
	case SBAT_PCRNEXT_CAUSE_MOK:
		snprintf(buf, size, "%s is not what the last boot measured",
		         x->cause_name[0] ? x->cause_name : "a MOK variable");
		return buf;
	case SBAT_PCRNEXT_CAUSE_SBAT_LEVEL: return "shim writes another SbatLevel";
	case SBAT_PCRNEXT_CAUSE_NO_SHIM: return "the path starts no shim, and the last boot ran one";
	default: return NULL;
	}
}

const char *
cli_pcrnext_changes(const cli_prediction *c, const sbat_pcrnext *p, uint32_t pcr, char *buf, size_t size)
{
	char one[512];
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < sbat_pcrnext_event_count(p); i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);
		const char *t;

		if (x->pcr != pcr ||
		    (x->state != SBAT_PCR7_DIFFERS && x->state != SBAT_PCR7_ADDED && x->state != SBAT_PCR7_DROPPED))
			continue;
		if (!(t = cause_text(c, x, one, sizeof(one))) || strstr(buf, t))
			continue;
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? "; " : "", t);
	}
	return buf;
}

/* One path's values, each changed PCR's "changes:" line, and its events. */
static void
text_path(const cli_prediction *c, size_t k)
{
	static const uint32_t pcrs[] = { 7, 4, 14 };
	char label[16], changes[2048];
	size_t i;

	printf("next boot's PCRs along %s:\n", c->entry[k]);
	for (i = 0; i < sbat_pcrnext_value_count(c->p[k]); i++) {
		const sbat_pcrnext_value *v = sbat_pcrnext_value_at(c->p[k], i);

		printf("    PCR %u (%s) next boot: ", (unsigned)v->pcr, bank_name(v, label, sizeof(label)));
		if (!c->trusted || !v->predicted) {
			printf("unknown: %s\n", !c->trusted ? "the log does not match the TPM" : v->why);
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
	for (i = 0; i < 3; i++)
		if (*cli_pcrnext_changes(c, c->p[k], pcrs[i], changes, sizeof(changes)))
			printf("    PCR %u changes: %s\n", (unsigned)pcrs[i], changes);
	text_events(c->p[k]);
}

void
cli_pcrnext_print_text(const cli_prediction *c)
{
	size_t k;

	if (!c->n && c->why)
		printf("next boot's PCRs along %s:\n    unknown: %s\n", c->entry[0] ? c->entry[0] : "the default path",
		       c->why);
	for (k = 0; k < c->n; k++)
		text_path(c, k);
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

/* One event as a record of TCG's Canonical Event Log in JSON, as systemd-pcrlock reads it, and its cause. */
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
	cli_json_cstr(stdout, cli_pcr7_type_label(x->type, type, sizeof(type)));
	fputs(", \"event_data\": ", stdout);
	cli_json_hex(stdout, x->data, x->data_len);
	printf("}, \"state\": \"%s\", \"why\": ", sbat_pcr7_state_name(x->state));
	cli_json_cstr_or_null(stdout, x->why);
	fputs(", \"cause\": ", stdout);
	cli_json_cstr_or_null(stdout, x->cause ? sbat_pcrnext_cause_name(x->cause) : NULL);
	fputs(", \"cause_name\": ", stdout);
	cli_json_cstr_or_null(stdout, x->cause_name[0] ? x->cause_name : NULL);
	fputs(", \"cause_file\": ", stdout);
	cli_json_cstr_or_null(stdout, x->cause_file);
	printf("}%s\n", last ? "" : ",");
}

/* "changes": what changes each PCR, worded. */
static void
json_changes(const cli_prediction *c, const sbat_pcrnext *p)
{
	static const uint32_t pcrs[] = { 7, 4, 14 };
	char changes[2048];
	size_t i, n = 0;

	fputs("    \"changes\": [", stdout);
	for (i = 0; i < 3; i++)
		if (*cli_pcrnext_changes(c, p, pcrs[i], changes, sizeof(changes))) {
			printf("%s{\"pcr\": %u, \"why\": ", n++ ? ", " : "", (unsigned)pcrs[i]);
			cli_json_cstr(stdout, changes);
			fputs("}", stdout);
		}
	fputs("],\n", stdout);
}

/* One path's object (with "default" and without a trailing comma). */
static void
json_path(const cli_prediction *c, size_t k, const char *indent)
{
	const sbat_pcrnext *p = k < c->n ? c->p[k] : NULL;
	size_t i, n = sbat_pcrnext_value_count(p), recnum = 0;

	fputs("{\n    \"path\": ", stdout);
	cli_json_cstr_or_null(stdout, c->entry[k]);
	printf(",\n    \"default\": %s,\n    \"unknown_reason\": ", k == 0 ? "true" : "false");
	cli_json_cstr_or_null(stdout, p ? NULL : c->why);
	fputs(",\n", stdout);
	if (p)
		json_changes(c, p);
	fputs("    \"values\": [\n", stdout);
	for (i = 0; i < n; i++)
		json_value(sbat_pcrnext_value_at(p, i), c->trusted, i + 1 == n);
	fputs("    ],\n    \"events\": [\n", stdout);
	for (i = 0, n = 0; i < sbat_pcrnext_event_count(p); i++)
		n += sbat_pcrnext_event_at(p, i)->state != SBAT_PCR7_DROPPED;
	for (i = 0; i < sbat_pcrnext_event_count(p); i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);

		if (x->state != SBAT_PCR7_DROPPED) {
			recnum++;
			json_event(p, x, recnum - 1, recnum == n);
		}
	}
	printf("    ]\n%s}", indent);
}

void
cli_pcrnext_print_json(const cli_prediction *c)
{
	size_t k;

	if (!c->n && !c->why)
		return;
	fputs("  \"pcrs\": ", stdout);
	json_path(c, 0, "  ");
	fputs(",\n  \"pcrs_other_paths\": [", stdout);
	for (k = 1; k < c->n; k++) {
		fputs(k > 1 ? ", " : "", stdout);
		json_path(c, k, "  ");
	}
	fputs("],\n", stdout);
}
