/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luks.c - --luks: each systemd-tpm2 token of a LUKS2 volume judged against today's PCR values and the predicted ones */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/error.h"
#include "sbat/eventlog.h"
#include "sbat/input.h"
#include "sbat/luks.h"
#include "sbat/pcr7.h"
#include "sbat/sigdb.h"

#include "json.h"
#include "luks.h"
#include "messages.h"
#include "next_level.h"

#define N_BANKS 4
static const uint16_t banks[N_BANKS] = { SBAT_EVENTLOG_ALG_SHA1, SBAT_EVENTLOG_ALG_SHA256, SBAT_EVENTLOG_ALG_SHA384,
	                                 SBAT_EVENTLOG_ALG_SHA512 };

/* The PCR values tokens are judged against: today's, and the predicted ones when there are. */
typedef struct values {
	sbat_luks_pcrs today[N_BANKS];
	int predicted;
	const char *when; /* "after the update", "at the next boot" */
	sbat_luks_pcrs next[N_BANKS];
	uint32_t next_unknown; /* PCRs the prediction cannot make */
	const char *next_why;  /* why (the first) */
	char changes[512];     /* what changes PCR 7: "the pending dbx update adds 2 entries" */
} values;

static const sbat_luks_pcrs *
bank_values(const sbat_luks_pcrs *set, uint16_t bank)
{
	size_t i;

	for (i = 0; i < N_BANKS; i++)
		if (set[i].bank == bank)
			return &set[i];
	return &set[1];
}

static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* PCR n of p's bank from the TPM's directory: 1 and the value, or 0 when it cannot be read. */
static int
read_tpm_pcr(const char *dir, sbat_luks_pcrs *p, unsigned n)
{
	size_t size = sbat_luks_bank_size(p->bank), len, i;
	char path[4096];
	uint8_t *buf;
	sbat_diag d;
	int ok;

	if ((size_t)snprintf(path, sizeof(path), "%s/pcr-%s/%u", dir, sbat_luks_bank_name(p->bank), n) >=
	        sizeof(path) ||
	    sbat_file_read(path, 4096, &buf, &len, &d) != SBAT_OK)
		return 0;
	if (len == 2 * size + 1 && buf[2 * size] == '\n')
		len--;
	ok = len == 2 * size;
	for (i = 0; ok && i < size; i++) {
		int hi = hex_digit((char)buf[2 * i]), lo = hex_digit((char)buf[2 * i + 1]);

		ok = hi >= 0 && lo >= 0;
		p->value[n][i] = (uint8_t)(hi << 4 | lo);
	}
	free(buf);
	return ok;
}

/* Today's values: the TPM's (SBAT_ADD_TPM, else the kernel's), then the log's replay where the TPM is silent. */
static void
today_values(values *v, const sbat_eventlog *log, sbat_eventlog_tpm state)
{
	const char *env = getenv("SBAT_ADD_TPM");
	const char *dir = env && *env ? env : SBAT_EVENTLOG_TPM_DIR;
	size_t i, k;
	unsigned n;

	for (i = 0; i < N_BANKS; i++) {
		v->today[i].bank = banks[i];
		for (n = 0; n < SBAT_LUKS_PCRS; n++)
			if (read_tpm_pcr(dir, &v->today[i], n))
				v->today[i].known |= 1u << n;
	}
	for (k = 0; log && state != SBAT_EVENTLOG_TPM_DIFFERS && k < sbat_eventlog_bank_count(log); k++) {
		const sbat_eventlog_bank *b = sbat_eventlog_bank_at(log, k);
		sbat_luks_pcrs *p = (sbat_luks_pcrs *)bank_values(v->today, b->alg);

		if (!b->replayed || p->bank != b->alg)
			continue;
		for (n = 0; n < SBAT_LUKS_PCRS; n++)
			if ((b->extended & (1u << n)) && !(p->known & (1u << n))) {
				memcpy(p->value[n], b->value[n], b->digest_size);
				p->known |= 1u << n;
			}
	}
}

/* "the pending dbx update adds 2 entries" for each --pending update PCR 7 measures, into v->changes. */
static void
describe_pending(const cli_opts *o, values *v)
{
	size_t i, used = 0;

	for (i = 0; i < o->n_pending; i++) {
		const char *var = o->pending[i].var;
		const char *guid = strcmp(var, "KEK") == 0 ? SBAT_SIGDB_GUID_GLOBAL : SBAT_SIGDB_GUID_SECURITY_DB;
		sbat_pcr7_vars *vars = NULL;
		size_t added = 0, len;
		uint8_t *buf = NULL;
		sbat_diag d;

		if (strcmp(var, "MokListX") == 0)
			continue;
		if (sbat_pcr7_vars_new(cli_efivarfs_dir(), &vars, &d) == SBAT_OK &&
		    sbat_file_read(o->pending[i].file, SBAT_SIGDB_MAX_FILE, &buf, &len, &d) == SBAT_OK &&
		    sbat_pcr7_vars_append(vars, var, guid, buf, len, &added, &d) == SBAT_OK &&
		    used < sizeof(v->changes))
			used += (size_t)snprintf(v->changes + used, sizeof(v->changes) - used,
			                         "%sthe pending %s update adds %zu entr%s", used ? ", " : "", var,
			                         added, added == 1 ? "y" : "ies");
		free(buf);
		sbat_pcr7_vars_free(vars);
	}
}

/* The predicted values: today's, PCR 7 from the model; a pending MokListX leaves PCR 14 unknown. */
static void
next_values(const cli_opts *o, values *v, sbat_eventlog_tpm state, const sbat_pcr7 *m)
{
	size_t i, k;

	v->predicted = 1;
	v->when = o->n_pending ? "after the update" : "at the next boot";
	memcpy(v->next, v->today, sizeof(v->next));
	for (i = 0; i < N_BANKS; i++) {
		const sbat_pcr7_bank *b = NULL;

		for (k = 0; m && k < sbat_pcr7_bank_count(m); k++)
			if (sbat_pcr7_bank_at(m, k)->alg == banks[i])
				b = sbat_pcr7_bank_at(m, k);
		v->next[i].known &= ~(1u << 7);
		if (state != SBAT_EVENTLOG_TPM_DIFFERS && b && b->predicted && b->today_known)
			memcpy(v->next[i].value[7], b->value, b->digest_size), v->next[i].known |= 1u << 7;
		else if (!v->next_why)
			v->next_why = state == SBAT_EVENTLOG_TPM_DIFFERS ? "the log does not match the TPM" :
			              !b                                 ? "the log has no such bank" :
			              b->predicted                       ? "the log was not replayed" :
			                                                   b->why;
	}
	for (i = 0; i < o->n_pending; i++)
		if (strcmp(o->pending[i].var, "MokListX") == 0) {
			for (k = 0; k < N_BANKS; k++)
				v->next[k].known &= ~(1u << 14);
			v->next_unknown |= 1u << 14;
		}
	describe_pending(o, v);
}

/* "7" or "0+7", the PCRs of mask, into buf. */
static const char *
pcr_list(uint32_t mask, char *buf, size_t size)
{
	size_t used = 0;
	unsigned n;

	buf[0] = '\0';
	for (n = 0; n < SBAT_LUKS_PCRS && used < size; n++)
		if (mask & (1u << n))
			used += (size_t)snprintf(buf + used, size - used, "%s%u", used ? "+" : "", n);
	return buf;
}

/* The PCRs of the token whose predicted value is not today's. */
static uint32_t
changed_pcrs(const sbat_luks_tpm2 *t, const values *v)
{
	const sbat_luks_pcrs *a = bank_values(v->today, t->bank), *b = bank_values(v->next, t->bank);
	size_t size = sbat_luks_bank_size(t->bank);
	uint32_t out = 0;
	unsigned n;

	for (n = 0; n < SBAT_LUKS_PCRS; n++)
		if ((t->pcrs & (1u << n)) && (a->known & b->known & (1u << n)) &&
		    memcmp(a->value[n], b->value[n], size))
			out |= 1u << n;
	return out;
}

/* Why the token will not unlock, or cannot tell, into buf; NULL when it unlocks. next: the predicted values. */
static const char *
reason(const sbat_luks_tpm2 *t, const sbat_luks_judgement *j, const sbat_luks_judgement *today, const values *v,
       int next, char *buf, size_t size)
{
	char list[80];
	uint32_t ch;

	if (j->verdict == SBAT_LUKS_UNLOCKS)
		return NULL;
	if (j->verdict == SBAT_LUKS_CANNOT_TELL && j->why != SBAT_LUKS_WHY_PCR_UNKNOWN)
		return sbat_luks_why_name(j->why);
	if (j->verdict == SBAT_LUKS_CANNOT_TELL) {
		const char *why = !next ? "" :
		                  (j->unknown & v->next_unknown) ?
		                          "a pending MokListX: shim measures it in PCR 14, which is not "
		                          "predicted" :
		                  (j->unknown & (1u << 7)) && v->next_why ? v->next_why :
		                                                            "";
		snprintf(buf, size, "PCR %s of the %s bank is unknown%s%s", pcr_list(j->unknown, list, sizeof(list)),
		         sbat_luks_bank_name(t->bank), *why ? ": " : "", why);
		return buf;
	}
	if (!next) {
		snprintf(buf, size, "its policy is not made by today's values of PCR %s: it was sealed to other values",
		         pcr_list(t->pcrs, list, sizeof(list)));
		return buf;
	}
	if (today->verdict != SBAT_LUKS_UNLOCKS || !(ch = changed_pcrs(t, v)))
		return "its policy is not made by these values either";
	snprintf(buf, size, "PCR %s changes%s%s%s", pcr_list(ch, list, sizeof(list)),
	         (ch & (1u << 7)) && v->changes[0] ? " (" : "", (ch & (1u << 7)) ? v->changes : "",
	         (ch & (1u << 7)) && v->changes[0] ? ")" : "");
	return buf;
}

static void
text_token(const char *file, const sbat_luks_tpm2 *t, const sbat_luks_judgement *a, const sbat_luks_judgement *b,
           const values *v)
{
	char list[80], buf[768];
	const char *why;

	printf("%s: token %u (%s PCR %s", file, t->token, sbat_luks_bank_name(t->bank),
	       t->pcrs ? pcr_list(t->pcrs, list, sizeof(list)) : "none");
	if (t->pin)
		fputs(", PIN", stdout);
	if (t->pubkey)
		printf(", signed policy for PCR %s", pcr_list(t->pubkey_pcrs, list, sizeof(list)));
	if (t->pcrlock)
		fputs(", pcrlock", stdout);
	why = reason(t, a, NULL, v, 0, buf, sizeof(buf));
	printf("): %s today%s%s", sbat_luks_verdict_name(a->verdict), why ? ": " : "", why ? why : "");
	if (v->predicted) {
		why = reason(t, b, a, v, 1, buf, sizeof(buf));
		printf("; %s %s%s%s", sbat_luks_verdict_name(b->verdict), v->when, why ? ": " : "", why ? why : "");
	}
	fputs("\n", stdout);
}

static void
json_pcrs(uint32_t mask)
{
	unsigned n, first = 1;

	fputs("[", stdout);
	for (n = 0; n < SBAT_LUKS_PCRS; n++)
		if (mask & (1u << n)) {
			printf("%s%u", first ? "" : ", ", n);
			first = 0;
		}
	fputs("]", stdout);
}

static void
json_judgement(const sbat_luks_tpm2 *t, const sbat_luks_judgement *j, const sbat_luks_judgement *today, const values *v,
               int next)
{
	char buf[768];

	fputs("{\"verdict\": ", stdout);
	cli_json_cstr(stdout, sbat_luks_verdict_name(j->verdict));
	fputs(", \"why\": ", stdout);
	cli_json_cstr_or_null(stdout, reason(t, j, today, v, next, buf, sizeof(buf)));
	fputs(", \"unknown_pcrs\": ", stdout);
	json_pcrs(j->unknown);
	if (next) {
		fputs(", \"changed_pcrs\": ", stdout);
		json_pcrs(changed_pcrs(t, v));
	}
	fputs(", \"policy\": ", stdout);
	if (j->computed)
		cli_json_hex(stdout, j->digest, sizeof(j->digest));
	else
		fputs("null", stdout);
	fputs("}", stdout);
}

static void
json_token(const sbat_luks_tpm2 *t, const sbat_luks_judgement *a, const sbat_luks_judgement *b, const values *v,
           int last)
{
	size_t i;

	printf("        {\"token\": %u, \"pcrs\": ", t->token);
	json_pcrs(t->pcrs);
	printf(
	    ", \"bank\": \"%s\", \"bank_given\": %s, \"pin\": %s, \"pcrlock\": %s, \"signed\": %s, \"signed_pcrs\": ",
	    sbat_luks_bank_name(t->bank), t->bank_given ? "true" : "false", t->pin ? "true" : "false",
	    t->pcrlock ? "true" : "false", t->pubkey ? "true" : "false");
	json_pcrs(t->pubkey_pcrs);
	fputs(", \"policy_hashes\": [", stdout);
	for (i = 0; i < t->n_policy_hashes; i++) {
		fputs(i ? ", " : "", stdout);
		cli_json_hex(stdout, t->policy_hash[i], t->policy_hash_size[i]);
	}
	fputs("],\n         \"today\": ", stdout);
	json_judgement(t, a, NULL, v, 0);
	fputs(",\n         \"predicted\": ", stdout);
	if (v->predicted)
		json_judgement(t, b, a, v, 1);
	else
		fputs("null", stdout);
	printf("}%s\n", last ? "" : ",");
}

static void
json_header(const char *file, const sbat_luks_header *h)
{
	fputs("    {\"file\": ", stdout);
	cli_json_cstr(stdout, file);
	fputs(", \"uuid\": ", stdout);
	cli_json_cstr(stdout, h->uuid);
	fputs(", \"label\": ", stdout);
	cli_json_cstr(stdout, h->label);
	printf(", \"copy\": \"%s\", \"seqid\": %llu, \"other_copy_why\": ", h->copy_offset ? "secondary" : "primary",
	       (unsigned long long)h->seqid);
	cli_json_cstr_or_null(stdout, h->other_valid ? NULL : h->other_why);
	printf(", \"tokens\": %zu,\n     \"systemd_tpm2\": [\n", h->n_tokens);
}

/* One volume judged and shown; *will_not, *cannot set by the verdicts that count (the predicted, else today's). */
static int
one_volume(const cli_opts *o, const char *file, const values *v, int last, int *will_not, int *cannot)
{
	const sbat_luks_header *h;
	sbat_luks *l;
	sbat_diag d;
	size_t i, n;

	if (sbat_luks_read(file, &l, &d) != SBAT_OK) {
		cli_diag(CLI_ERROR, file, NULL, &d);
		if (o->json) {
			fputs("    {\"file\": ", stdout);
			cli_json_cstr(stdout, file);
			printf(", \"error\": \"%s\"}%s\n", sbat_strerror(d.code), last ? "" : ",");
		}
		return EXIT_FAILURE_;
	}
	h = sbat_luks_header_get(l);
	n = sbat_luks_tpm2_count(l);
	if (o->json)
		json_header(file, h);
	else
		printf("%s: LUKS2 %s, %zu token%s, %zu systemd-tpm2\n", file, h->uuid, h->n_tokens,
		       h->n_tokens == 1 ? "" : "s", n);
	if (!o->json && !h->other_valid)
		printf("%s: the %s header copy is not valid: %s\n", file, h->copy_offset ? "primary" : "secondary",
		       h->other_why);
	for (i = 0; i < n; i++) {
		const sbat_luks_tpm2 *t = sbat_luks_tpm2_at(l, i);
		sbat_luks_judgement a, b;
		const sbat_luks_judgement *final = v->predicted ? &b : &a;

		sbat_luks_judge(t, bank_values(v->today, t->bank), &a);
		sbat_luks_judge(t, bank_values(v->next, t->bank), &b);
		*will_not |= final->verdict == SBAT_LUKS_WILL_NOT_UNLOCK;
		*cannot |= final->verdict == SBAT_LUKS_CANNOT_TELL;
		if (o->json)
			json_token(t, &a, &b, v, i + 1 == n);
		else
			text_token(file, t, &a, &b, v);
	}
	if (o->json)
		printf("     ]}%s\n", last ? "" : ",");
	sbat_luks_free(l);
	return EXIT_OK;
}

/* Every --luks volume; the exit status: a failure, 11 (will not unlock), status, 12 (cannot tell), in that order. */
static int
judge_all(const cli_opts *o, const values *v, int status)
{
	int will_not = 0, cannot = 0, failed = 0;
	size_t i;

	if (o->json)
		fputs("[\n", stdout);
	for (i = 0; i < o->n_luks; i++)
		failed |= one_volume(o, o->luks[i], v, i + 1 == o->n_luks, &will_not, &cannot) != EXIT_OK;
	if (o->json)
		fputs("  ]", stdout);
	if (failed || status == EXIT_FAILURE_)
		return EXIT_FAILURE_;
	if (will_not)
		return EXIT_LUKS_WILL_NOT_UNLOCK;
	if (status != EXIT_OK)
		return status;
	return cannot ? EXIT_LUKS_CANNOT_TELL : EXIT_OK;
}

int
cli_run_luks(const cli_opts *o)
{
	values v;
	int status;

	memset(&v, 0, sizeof(v));
	today_values(&v, NULL, SBAT_EVENTLOG_TPM_NOT_READ);
	if (o->json)
		fputs("{\n  \"luks\": ", stdout);
	status = judge_all(o, &v, EXIT_OK);
	if (o->json)
		fputs("\n}\n", stdout);
	return status;
}

int
cli_luks_report(const cli_opts *o, const sbat_eventlog *log, sbat_eventlog_tpm state, const sbat_pcr7 *m, int status)
{
	values v;

	memset(&v, 0, sizeof(v));
	today_values(&v, log, state);
	next_values(o, &v, state, m);
	return judge_all(o, &v, status);
}
