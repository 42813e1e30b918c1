/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luks.c - --luks: each systemd-tpm2 token of a LUKS2 volume judged against today's PCR values and the predicted ones */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
#include "pcrnext.h"

#define N_BANKS 4
/* The LUKS2 volumes a scan of the block devices judges at most. */
#define CLI_MAX_SCAN 64
static const uint16_t banks[N_BANKS] = { SBAT_EVENTLOG_ALG_SHA1, SBAT_EVENTLOG_ALG_SHA256, SBAT_EVENTLOG_ALG_SHA384,
	                                 SBAT_EVENTLOG_ALG_SHA512 };

/* The PCR values tokens are judged against: today's, and the predicted ones when there are. */
typedef struct values {
	sbat_luks_pcrs today[N_BANKS];
	int predicted;
	const char *when; /* "after the update", "at the next boot" */
	sbat_luks_pcrs next[N_BANKS];
	const char *why[SBAT_LUKS_PCRS];   /* a PCR the prediction cannot make: why (the first bank's) */
	char changes[SBAT_LUKS_PCRS][512]; /* what changes a PCR: "the pending dbx update adds 2 entries" */
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

/* "the pending dbx update adds 2 entries" for each --pending update PCR 7 measures, into v->changes[7]. */
static void
describe_pending(const cli_opts *o, values *v)
{
	size_t i, used = 0;

	for (i = 0; i < o->n_pending; i++) {
		const char *var = o->pending[i].var;
		sbat_pcr7_vars *vars = NULL;
		size_t added = 0, len;
		uint8_t *buf = NULL;
		sbat_diag d;

		if (strncmp(var, "MokList", 7) == 0)
			continue;
		if (sbat_pcr7_vars_new(cli_efivarfs_dir(), &vars, &d) == SBAT_OK &&
		    sbat_file_read(o->pending[i].file, SBAT_SIGDB_MAX_FILE, &buf, &len, &d) == SBAT_OK &&
		    sbat_pcr7_vars_update(vars, var, buf, len, &added, &d) == SBAT_OK && used < sizeof(v->changes[7]))
			used += (size_t)snprintf(v->changes[7] + used, sizeof(v->changes[7]) - used,
			                         "%sthe pending %s update adds %zu entr%s", used ? ", " : "", var,
			                         added, added == 1 ? "y" : "ies");
		free(buf);
		sbat_pcr7_vars_free(vars);
	}
}

/* The predicted values: today's, PCR 7 from the model; a pending MokList or MokListX leaves PCR 14 unknown. */
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
		else if (!v->why[7])
			v->why[7] = state == SBAT_EVENTLOG_TPM_DIFFERS ? "the log does not match the TPM" :
			            !b                                 ? "the log has no such bank" :
			            b->predicted                       ? "the log was not replayed" :
			                                                 b->why;
	}
	for (i = 0; i < o->n_pending; i++)
		if (strncmp(o->pending[i].var, "MokList", 7) == 0) {
			for (k = 0; k < N_BANKS; k++)
				v->next[k].known &= ~(1u << 14);
			v->why[14] =
			    "a pending MokList or MokListX: shim measures it in PCR 14, which only --check-level "
			    "next predicts";
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

/* "PCR 7 changes (the pending dbx update adds 2 entries)" for each PCR of ch, into buf. */
static const char *
changes_text(uint32_t ch, const values *v, char *buf, size_t size)
{
	size_t used = 0;
	unsigned n;

	buf[0] = '\0';
	for (n = 0; n < SBAT_LUKS_PCRS && used < size; n++)
		if (ch & (1u << n))
			used += (size_t)snprintf(buf + used, size - used, "%sPCR %u changes%s%s%s", used ? "; " : "", n,
			                         v->changes[n][0] ? " (" : "", v->changes[n],
			                         v->changes[n][0] ? ")" : "");
	return buf;
}

/* The reason the prediction gives for the first PCR of mask it cannot make, or "". */
static const char *
unknown_why(uint32_t mask, const values *v)
{
	unsigned n;

	for (n = 0; n < SBAT_LUKS_PCRS; n++)
		if ((mask & (1u << n)) && v->why[n])
			return v->why[n];
	return "";
}

/* Why the token will not unlock, or cannot tell, into buf; NULL when it unlocks. next: the predicted values. */
static const char *
reason(const sbat_luks_tpm2 *t, const sbat_luks_judgement *j, const sbat_luks_judgement *today, const values *v,
       int next, char *buf, size_t size)
{
	char list[80];
	const char *why;
	uint32_t ch;

	if (j->verdict == SBAT_LUKS_UNLOCKS)
		return NULL;
	if (j->verdict == SBAT_LUKS_CANNOT_TELL && j->why != SBAT_LUKS_WHY_PCR_UNKNOWN)
		return sbat_luks_why_name(j->why);
	if (j->verdict == SBAT_LUKS_CANNOT_TELL) {
		why = next ? unknown_why(j->unknown, v) : "";
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
	return changes_text(ch, v, buf, size);
}

static void
text_token(const char *file, const sbat_luks_tpm2 *t, const sbat_luks_judgement *a, const sbat_luks_judgement *b,
           const values *v)
{
	char list[80], buf[2048];
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
	char buf[2048];

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

/*
 * The volumes files[0..n); the exit status: a failure, the walk's 4 (the
 * default path refused: it does not boot, so whether it unlocks is moot,
 * and a script that took 4 for "refused" before volumes were judged still
 * sees it), 11 (will not unlock), status, 12 (cannot tell), in that order.
 */
static int
judge_all(const cli_opts *o, const char *const *files, size_t n, const values *v, int status)
{
	int will_not = 0, cannot = 0, failed = 0;
	size_t i;

	if (o->json)
		fputs("[\n", stdout);
	for (i = 0; i < n; i++)
		failed |= one_volume(o, files[i], v, i + 1 == n, &will_not, &cannot) != EXIT_OK;
	if (o->json)
		fputs("  ]", stdout);
	if (failed || status == EXIT_FAILURE_)
		return EXIT_FAILURE_;
	if (status == EXIT_REVOKED)
		return status;
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
	status = judge_all(o, o->luks, o->n_luks, &v, EXIT_OK);
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
	return judge_all(o, o->luks, o->n_luks, &v, status);
}

/* The predicted values of the default path of c: PCR 4, 7 and 14 from its prediction, the others today's. */
static void
predicted_values(const cli_opts *o, values *v, const cli_prediction *c)
{
	static const uint32_t pcrs[] = { 4, 7, 14 };
	size_t i, k;

	v->predicted = 1;
	v->when = o->n_pending ? "after the update" : "at the next boot";
	memcpy(v->next, v->today, sizeof(v->next));
	for (k = 0; k < 3; k++) {
		uint32_t n = pcrs[k];

		for (i = 0; i < N_BANKS; i++) {
			const sbat_pcrnext_value *pv = sbat_pcrnext_value_find(c->p[0], n, banks[i]);

			v->next[i].known &= ~(1u << n);
			if (c->trusted && pv && pv->predicted && pv->digest_size == sbat_luks_bank_size(banks[i])) {
				memcpy(v->next[i].value[n], pv->value, pv->digest_size);
				v->next[i].known |= 1u << n;
			} else if (!v->why[n]) {
				v->why[n] = !c->trusted ? "the log does not match the TPM" :
				            !pv         ? "the log has no such bank" :
				                          pv->why;
			}
		}
		cli_pcrnext_changes(c, c->p[0], n, v->changes[n], sizeof(v->changes[n]));
	}
}

/* The directory that stands for / when the block devices are scanned: SBAT_ADD_BLOCK_ROOT, else "". */
static const char *
block_root(void)
{
	const char *env = getenv("SBAT_ADD_BLOCK_ROOT");

	return env ? env : "";
}

/* 1 if the device or file at path starts with a LUKS2 header; 0 if not; -1 if it does not read. */
static int
holds_luks2(const char *path)
{
	unsigned char buf[4096];
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return -1;
	do
		got = pread(fd, buf, sizeof(buf), 0);
	while (got < 0 && errno == EINTR);
	close(fd);
	if (got < 0)
		return -1;
	return got >= 8 && !memcmp(buf, "LUKS\xba\xbe", 6) && buf[6] == 0 && buf[7] == 2;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The block devices the system lists (ROOT/sys/class/block), as ROOT/dev/NAME, sorted; *ret_listed 0 when the
 * list does not read. */
static char **
list_devices(size_t *ret_n, int *ret_listed)
{
	char dir[4096], **out = NULL, **grown;
	struct dirent *e;
	size_t n = 0, cap = 0;
	DIR *d;

	*ret_n = 0;
	snprintf(dir, sizeof(dir), "%s/sys/class/block", block_root());
	if (!(*ret_listed = (d = opendir(dir)) != NULL))
		return NULL;
	while ((e = readdir(d))) {
		size_t len = strlen(block_root()) + strlen(e->d_name) + 6;

		if (e->d_name[0] == '.')
			continue;
		if (n == cap && (grown = realloc(out, (cap = cap ? 2 * cap : 32) * sizeof(*out))))
			out = grown;
		if (n == cap || !(out[n] = malloc(len)))
			break;
		snprintf(out[n++], len, "%s/dev/%s", block_root(), e->d_name);
	}
	closedir(d);
	if (n)
		qsort(out, n, sizeof(*out), by_name);
	*ret_n = n;
	return out;
}

/* The devices that hold a LUKS2 header, into files (the first max); how many were read and not read. */
static size_t
scan_devices(char **devs, size_t n_devs, const char **files, size_t max, size_t *ret_unread)
{
	size_t i, n = 0;

	*ret_unread = 0;
	for (i = 0; i < n_devs; i++) {
		int r = holds_luks2(devs[i]);

		*ret_unread += r < 0;
		if (r > 0 && n < max)
			files[n++] = devs[i];
	}
	return n;
}

/* The scan said: text, or the JSON member "luks_scan" (a trailing comma and newline). */
static void
print_scan(const cli_opts *o, size_t n_devs, size_t n_luks, size_t unread)
{
	if (o->json)
		printf("  \"luks_scan\": {\"block_devices\": %zu, \"luks2\": %zu, \"unreadable\": %zu},\n", n_devs,
		       n_luks, unread);
	else
		printf("block devices: %zu, %zu with a LUKS2 header, %zu could not be read\n", n_devs, n_luks, unread);
}

int
cli_luks_next(const cli_opts *o, const cli_prediction *c, int status)
{
	const char *files[CLI_MAX_SCAN];
	char **devs = NULL;
	size_t n = 0, n_devs = 0, unread = 0, i;
	int listed = 1;
	values v;

	if (!o->n_luks && (!c->n || (!c->running && !getenv("SBAT_ADD_BLOCK_ROOT"))))
		return status;
	if (!o->n_luks && !(devs = list_devices(&n_devs, &listed)) && !listed)
		return status;
	memset(&v, 0, sizeof(v));
	today_values(&v, c->log, c->tpm);
	if (c->n)
		predicted_values(o, &v, c);
	if (!o->n_luks) {
		n = scan_devices(devs, n_devs, files, CLI_MAX_SCAN, &unread);
		print_scan(o, n_devs, n, unread);
	}
	if (o->json)
		fputs("  \"luks\": ", stdout);
	status = o->n_luks ? judge_all(o, o->luks, o->n_luks, &v, status) : judge_all(o, files, n, &v, status);
	if (o->json)
		fputs(",\n", stdout);
	for (i = 0; i < n_devs; i++)
		free(devs[i]);
	free(devs);
	return status;
}
