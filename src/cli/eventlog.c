/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* eventlog.c - --event-log: the firmware's TCG event log replayed to PCR values and held against the TPM */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/error.h"
#include "sbat/eventlog.h"

#include "json.h"
#include "luks.h"
#include "messages.h"
#include "options.h"
#include "pcr7.h"

/* A bank's name for the reader: its pcr-NAME, or its TPM_ALG_ID. */
static const char *
bank_label(uint16_t alg, const char *name, char *buf, size_t size)
{
	if (name)
		return name;
	snprintf(buf, size, "0x%04x", (unsigned)alg);
	return buf;
}

/* Why a bank has no replay. */
static const char *
not_replayed(const sbat_eventlog_bank *b, char *buf, size_t size)
{
	if (b->missing)
		snprintf(buf, size, "%zu extended event%s without its digest", b->missing, b->missing == 1 ? "" : "s");
	else
		snprintf(buf, size, "an algorithm this program does not hash");
	return buf;
}

static void
text_bank(const sbat_eventlog_bank *b)
{
	char buf[16], why[64];
	const char *label = bank_label(b->alg, b->name, buf, sizeof(buf));
	unsigned n;

	if (!b->replayed) {
		printf("%s: not replayed: %s\n", label, not_replayed(b, why, sizeof(why)));
		return;
	}
	for (n = 0; n < SBAT_EVENTLOG_PCRS; n++) {
		uint32_t bit = 1u << n;

		if (!(b->extended & bit))
			continue;
		printf("%s PCR %2u: ", label, n);
		cli_hex(stdout, b->value[n], b->digest_size);
		if (!(b->tpm_read & bit)) {
			fputs("\n", stdout);
			continue;
		}
		if (b->tpm_differs & bit) {
			fputs(" differs from the TPM: ", stdout);
			cli_hex(stdout, b->tpm[n], b->digest_size);
			fputs("\n", stdout);
		} else {
			fputs(" = TPM\n", stdout);
		}
	}
}

/* The PCRs and banks that differ, as "PCR 7 (sha256)" words, into buf. */
static const char *
differing(const sbat_eventlog *log, char *buf, size_t size)
{
	size_t i, used = 0;
	unsigned n;

	buf[0] = '\0';
	for (i = 0; i < sbat_eventlog_bank_count(log); i++) {
		const sbat_eventlog_bank *b = sbat_eventlog_bank_at(log, i);

		for (n = 0; n < SBAT_EVENTLOG_PCRS && used < size; n++)
			if (b->tpm_differs & (1u << n))
				used += (size_t)snprintf(buf + used, size - used, "%sPCR %u (%s)", used ? ", " : "", n,
				                         b->name);
	}
	return buf;
}

static void
text_report(const char *file, const sbat_eventlog *log, sbat_eventlog_tpm state)
{
	char list[512];
	size_t i;

	printf("%s: %zu events, banks", cli_quote(file), sbat_eventlog_event_count(log));
	for (i = 0; i < sbat_eventlog_bank_count(log); i++) {
		char label[16];

		printf(" %s", bank_label(sbat_eventlog_bank_at(log, i)->alg, sbat_eventlog_bank_at(log, i)->name, label,
		                         sizeof(label)));
	}
	fputs("\n", stdout);
	for (i = 0; i < sbat_eventlog_bank_count(log); i++)
		text_bank(sbat_eventlog_bank_at(log, i));
	if (state == SBAT_EVENTLOG_TPM_MATCHES)
		puts("the log matches the TPM: every PCR it extends holds the value it replays to");
	else if (state == SBAT_EVENTLOG_TPM_DIFFERS)
		printf("the log does not match the TPM in %s: it is not this boot's log, or something extended "
		       "these PCRs outside it; nothing can be predicted from it\n",
		       differing(log, list, sizeof(list)));
	else
		puts("the TPM's PCRs could not be read: the log is not checked against them");
}

static void
json_event(const sbat_eventlog_event *e, int last)
{
	const char *type = sbat_eventlog_type_name(e->type);
	char label[16];
	size_t i;

	printf("    {\"index\": %zu, \"offset\": %" PRIu64 ", \"pcr\": %" PRIu32 ", \"type\": ", e->index, e->offset,
	       e->pcr);
	if (type)
		cli_json_cstr(stdout, type);
	else
		printf("\"0x%08" PRIx32 "\"", e->type);
	fputs(", \"digests\": {", stdout);
	for (i = 0; i < e->n_digests; i++) {
		const sbat_eventlog_digest *g = &e->digests[i];
		const char *name = g->alg == SBAT_EVENTLOG_ALG_SHA1   ? "sha1" :
		                   g->alg == SBAT_EVENTLOG_ALG_SHA256 ? "sha256" :
		                   g->alg == SBAT_EVENTLOG_ALG_SHA384 ? "sha384" :
		                   g->alg == SBAT_EVENTLOG_ALG_SHA512 ? "sha512" :
		                                                        NULL;

		printf("%s\"%s\": ", i ? ", " : "", bank_label(g->alg, name, label, sizeof(label)));
		cli_json_hex(stdout, g->digest, g->size);
	}
	printf("}, \"data_size\": %zu}%s\n", e->data_len, last ? "" : ",");
}

static void
json_bank(const sbat_eventlog_bank *b, int last)
{
	char label[16], why[64];
	unsigned n, first = 1;

	printf("    {\"bank\": \"%s\", \"alg\": %u, \"digest_size\": %zu, \"replayed\": %s",
	       bank_label(b->alg, b->name, label, sizeof(label)), (unsigned)b->alg, b->digest_size,
	       b->replayed ? "true" : "false");
	if (!b->replayed) {
		printf(", \"why\": \"%s\", \"pcrs\": []}%s\n", not_replayed(b, why, sizeof(why)), last ? "" : ",");
		return;
	}
	fputs(", \"pcrs\": [", stdout);
	for (n = 0; n < SBAT_EVENTLOG_PCRS; n++) {
		uint32_t bit = 1u << n;

		if (!(b->extended & bit))
			continue;
		printf("%s\n      {\"pcr\": %u, \"value\": ", first ? "" : ",", n);
		cli_json_hex(stdout, b->value[n], b->digest_size);
		fputs(", \"tpm\": ", stdout);
		if (b->tpm_read & bit)
			cli_json_hex(stdout, b->tpm[n], b->digest_size);
		else
			fputs("null", stdout);
		printf(", \"matches\": %s}", !(b->tpm_read & bit) ? "null" : b->tpm_differs & bit ? "false" : "true");
		first = 0;
	}
	printf("\n    ]}%s\n", last ? "" : ",");
}

static void
json_report(const cli_opts *o, const char *file, const sbat_eventlog *log, sbat_eventlog_tpm state, const sbat_pcr7 *m,
            const sbat_boot_report *pending)
{
	size_t i, n;

	fputs("{\n  \"event_log\": ", stdout);
	cli_json_cstr(stdout, file);
	fputs(",\n  \"tpm\": ", stdout);
	cli_json_cstr(stdout, sbat_eventlog_tpm_name(state));
	fputs(",\n  \"banks\": [\n", stdout);
	n = sbat_eventlog_bank_count(log);
	for (i = 0; i < n; i++)
		json_bank(sbat_eventlog_bank_at(log, i), i + 1 == n);
	fputs("  ],\n  \"events\": [\n", stdout);
	n = sbat_eventlog_event_count(log);
	for (i = 0; i < n; i++)
		json_event(sbat_eventlog_event_at(log, i), i + 1 == n);
	fputs("  ],\n  \"pcr7\": ", stdout);
	cli_pcr7_print_json(o, m, pending, state != SBAT_EVENTLOG_TPM_DIFFERS);
}

int
cli_run_event_log(const cli_opts *o)
{
	const char *path = strcmp(o->event_log, "running") == 0 ? SBAT_EVENTLOG_KERNEL_PATH : o->event_log;
	const char *tpm = getenv("SBAT_ADD_TPM");
	sbat_eventlog *log;
	sbat_eventlog_tpm state;
	sbat_boot_report *pending;
	sbat_pcr7 *m;
	sbat_diag d;
	char context[32];
	int status;

	if (sbat_eventlog_read(path, &log, &d) != SBAT_OK) {
		snprintf(context, sizeof(context), "event %u", d.line);
		cli_diag(CLI_ERROR, path, d.code == SBAT_E_EVENTLOG ? context : NULL, &d);
		return EXIT_FAILURE_;
	}
	if (sbat_eventlog_compare_tpm(log, tpm && *tpm ? tpm : NULL, &state, &d) != SBAT_OK) {
		cli_diag(CLI_ERROR, d.other_name[0] ? d.other_name : tpm ? tpm : SBAT_EVENTLOG_TPM_DIR, NULL, &d);
		sbat_eventlog_free(log);
		return EXIT_FAILURE_;
	}
	if ((status = cli_pcr7_build(o, log, &m, &pending)) != EXIT_OK) {
		sbat_eventlog_free(log);
		return status;
	}
	if (o->json) {
		json_report(o, path, log, state, m, pending);
	} else {
		text_report(path, log, state);
		cli_pcr7_print_text(o, m, pending, state != SBAT_EVENTLOG_TPM_DIFFERS);
	}
	sbat_boot_report_free(pending);
	status = state == SBAT_EVENTLOG_TPM_DIFFERS ? EXIT_LOG_DIFFERS : EXIT_OK;
	if (o->n_luks && o->json)
		fputs(",\n  \"luks\": ", stdout);
	if (o->n_luks)
		status = cli_luks_report(o, log, state, m, status);
	if (o->json)
		fputs("\n}\n", stdout);
	sbat_pcr7_free(m);
	sbat_eventlog_free(log);
	return status;
}
