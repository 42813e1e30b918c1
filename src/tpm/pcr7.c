/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcr7.c - a log's PCR 7 events made again as EDK2 makes them (Tcg2Dxe's MeasureSecureBootPolicy,
 * DxeImageVerificationLib's authority measurement) from the variables as they are or will be, and replayed */
#include <stdlib.h>
#include <string.h>

#include "sbat/efivar.h"
#include "sbat/eventlog.h"
#include "sbat/pcr7.h"
#include "sbat/sigdb.h"

#include "sigdb/esl.h"
#include "tpm/pcr7vars.h"
#include "tpm/replay.h"
#include "util/diag.h"
#include "util/le.h"
#include "util/strtable.h"

/* UEFI_VARIABLE_DATA up to its name: VariableName (the vendor GUID), UnicodeNameLength, VariableDataLength. */
#define VAR_DATA_HEADER 32
#define OWNER_SIZE 16

/* The image security database's GUID as stored (d719b2cb-3d3a-4596-a3bc-dad00e67656f). */
static const uint8_t security_db_guid[16] = { 0xcb, 0xb2, 0x19, 0xd7, 0x3a, 0x3d, 0x96, 0x45,
	                                      0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f };

struct sbat_pcr7 {
	sbat_pcr7_event *ev; /* each one's data is malloc'ed, the model's */
	size_t n, cap;
	sbat_pcr7_bank banks[SBAT_EVENTLOG_MAX_ALGS];
	size_t n_banks;
};

typedef struct builder {
	const sbat_eventlog *log;
	sbat_pcr7_vars *vars;
	sbat_pcr7 *m;
	int after_separator; /* PCR 7's first separator was taken */
	int log_has_dbt;     /* the log measures dbt before it */
	sbat_diag *d;
} builder;

static const char why_differs[] = "not what the log measured: the variable is not what that boot measured";

/* 1 if guid (text) is the image security database's (db, dbx, dbt). */
static int
is_security_db(const char *guid)
{
	return strcmp(guid, SBAT_SIGDB_GUID_SECURITY_DB) == 0;
}

/* 1 if name-guid is one of the five variables EDK2 measures even when absent (with no data). */
static int
always_measured(const char *name, const char *guid)
{
	if (strcmp(guid, SBAT_EFIVAR_GLOBAL_GUID) == 0)
		return !strcmp(name, "SecureBoot") || !strcmp(name, "PK") || !strcmp(name, "KEK");
	return is_security_db(guid) && (!strcmp(name, "db") || !strcmp(name, "dbx"));
}

static uint64_t
le64(const uint8_t *p)
{
	return (uint64_t)le32_get(p) | (uint64_t)le32_get(p + 4) << 32;
}

/*
 * 1 if data[0..len) is a UEFI_VARIABLE_DATA whose name this model can look up (printable ASCII, no '/'): its
 * name and GUID into x, its VariableData into *ret_vd and *ret_vd_len; 0 else.
 */
static int
parse_var_data(const uint8_t *data, size_t len, sbat_pcr7_event *x, const uint8_t **ret_vd, size_t *ret_vd_len)
{
	uint64_t n, vd, i;

	if (len < VAR_DATA_HEADER)
		return 0;
	n = le64(data + 16);
	vd = le64(data + 24);
	if (n == 0 || n > SBAT_PCR7_NAME_MAX || 2 * n > len - VAR_DATA_HEADER || vd != len - VAR_DATA_HEADER - 2 * n)
		return 0;
	for (i = 0; i < n; i++) {
		uint16_t c = le16_get(data + VAR_DATA_HEADER + 2 * i);

		if (c <= 0x20 || c >= 0x7f || c == '/')
			return 0;
		x->name[i] = (char)c;
	}
	x->name[n] = '\0';
	sbat_sigdb_guid_format(data, x->guid);
	*ret_vd = data + VAR_DATA_HEADER + 2 * n;
	*ret_vd_len = (size_t)vd;
	return 1;
}

/* Each bank's digest of x's data. */
static void
digest_all(const builder *b, sbat_pcr7_event *x)
{
	size_t i;

	for (i = 0; i < b->m->n_banks; i++)
		if (replay_digest(b->m->banks[i].alg, x->data, x->data_len, x->digest[i]))
			x->has_digest |= 1u << i;
}

/* x's data: a UEFI_VARIABLE_DATA of x's name, guid (16 bytes as stored) and vd[0..vd_len). */
static sbat_err
make_var_data(sbat_pcr7_event *x, const uint8_t *guid, const uint8_t *vd, size_t vd_len, sbat_diag *d)
{
	size_t n = strlen(x->name), i;
	uint8_t *p;

	if (vd_len > SIZE_MAX - VAR_DATA_HEADER - 2 * n || !(p = malloc(VAR_DATA_HEADER + 2 * n + vd_len)))
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for a PCR 7 event");
	memcpy(p, guid, 16);
	le32_put(p + 16, (uint32_t)n);
	le32_put(p + 20, 0);
	le32_put(p + 24, (uint32_t)vd_len);
	le32_put(p + 28, (uint32_t)((uint64_t)vd_len >> 32));
	for (i = 0; i < n; i++)
		le16_put(p + VAR_DATA_HEADER + 2 * i, (uint8_t)x->name[i]);
	if (vd_len)
		memcpy(p + VAR_DATA_HEADER + 2 * n, vd, vd_len);
	x->data = p;
	x->data_len = VAR_DATA_HEADER + 2 * n + vd_len;
	return SBAT_OK;
}

/* x becomes the log's event e as it is: its data and its digests. */
static sbat_err
copy_event(const builder *b, sbat_pcr7_event *x, const sbat_eventlog_event *e, const char *why)
{
	uint8_t *p = malloc(e->data_len ? e->data_len : 1);
	size_t i, j;

	if (!p)
		return diag_fail(b->d, SBAT_E_NOMEM, "out of memory for a PCR 7 event");
	if (e->data_len)
		memcpy(p, e->data, e->data_len);
	x->data = p;
	x->data_len = e->data_len;
	x->kind = SBAT_PCR7_FROM_LOG;
	x->state = SBAT_PCR7_COPIED;
	x->why = why;
	for (i = 0; i < b->m->n_banks; i++)
		for (j = 0; j < e->n_digests; j++)
			if (e->digests[j].alg == b->m->banks[i].alg && e->digests[j].size <= SBAT_EVENTLOG_MAX_DIGEST) {
				memcpy(x->digest[i], e->digests[j].digest, e->digests[j].size);
				x->has_digest |= 1u << i;
			}
	return SBAT_OK;
}

/* A new event at the end of the model, for the log's event index (0: none). */
static sbat_err
new_event(builder *b, size_t index, uint32_t type, sbat_pcr7_event **ret)
{
	sbat_pcr7 *m = b->m;

	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		sbat_pcr7_event *grown = realloc(m->ev, cap * sizeof(*grown));

		if (!grown)
			return diag_fail(b->d, SBAT_E_NOMEM, "out of memory for the PCR 7 events");
		m->ev = grown;
		m->cap = cap;
	}
	*ret = &m->ev[m->n++];
	memset(*ret, 0, sizeof(**ret));
	(*ret)->log_index = index;
	(*ret)->type = type;
	return SBAT_OK;
}

/* x, of name and guid (16 bytes), made from the variable as vars holds it (the rules of the file's comment). */
static sbat_err
make_variable(builder *b, sbat_pcr7_event *x, const uint8_t *guid)
{
	const uint8_t *data;
	size_t len;
	int present;
	sbat_diag local;
	sbat_err e;

	x->kind = SBAT_PCR7_VARIABLE;
	e = pcr7vars_get(b->vars, x->name, x->guid, &data, &len, &present, &local);
	if (e == SBAT_E_NOMEM)
		return diag_fail(b->d, e, "out of memory for a variable");
	if (e != SBAT_OK) {
		x->state = SBAT_PCR7_UNKNOWN;
		x->why = pcr7vars_unknown(b->vars, x->name, x->guid);
		if (!x->why)
			x->why = "the variable cannot be read";
		return SBAT_OK;
	}
	if (!present && !always_measured(x->name, x->guid)) {
		int dbt = is_security_db(x->guid) && strcmp(x->name, "dbt") == 0;

		x->state = dbt ? SBAT_PCR7_DROPPED : SBAT_PCR7_UNKNOWN;
		x->why = dbt ? "dbt no longer exists: the firmware measures it only when it does" :
		               "the variable does not exist: whether this firmware measures it then is not known";
		return SBAT_OK;
	}
	if ((e = make_var_data(x, guid, present ? data : NULL, present ? len : 0, b->d)) == SBAT_OK)
		digest_all(b, x);
	return e;
}

/* After dbx: dbt, when the log did not measure it and it exists now. */
static sbat_err
add_dbt(builder *b)
{
	const uint8_t *data;
	size_t len;
	int present;
	sbat_pcr7_event *x;
	sbat_diag local;
	sbat_err r, e = pcr7vars_get(b->vars, "dbt", SBAT_SIGDB_GUID_SECURITY_DB, &data, &len, &present, &local);

	if (e == SBAT_E_NOMEM)
		return diag_fail(b->d, e, "out of memory for a variable");
	if (e == SBAT_OK && !present)
		return SBAT_OK;
	if ((r = new_event(b, 0, SBAT_EV_EFI_VARIABLE_DRIVER_CONFIG, &x)) != SBAT_OK)
		return r;
	strcpy(x->name, "dbt");
	strcpy(x->guid, SBAT_SIGDB_GUID_SECURITY_DB);
	x->kind = SBAT_PCR7_VARIABLE;
	x->state = SBAT_PCR7_ADDED;
	if (e != SBAT_OK) {
		x->state = SBAT_PCR7_UNKNOWN;
		x->why = "dbt cannot be read";
		return SBAT_OK;
	}
	if ((r = make_var_data(x, security_db_guid, data, len, b->d)) == SBAT_OK)
		digest_all(b, x);
	return r;
}

/* The entry an authority names: the EFI_SIGNATURE_DATA sig[0..size), owner first; found when db holds it. */
typedef struct wanted {
	const uint8_t *sig;
	size_t size;
	int found;
} wanted;

static sbat_err
match_entry(void *ctx, const esl_entry *e, sbat_diag *d)
{
	wanted *w = ctx;

	(void)d;
	if (e->data_len + OWNER_SIZE == w->size && memcmp(e->owner, w->sig, w->size) == 0)
		w->found = 1;
	return SBAT_OK;
}

/*
 * x, an EV_EFI_VARIABLE_AUTHORITY: a db entry the log names (vd[0..vd_len)) is measured again when db holds
 * it; shim's and any other are taken from the log.
 */
static sbat_err
make_authority(builder *b, sbat_pcr7_event *x, const sbat_eventlog_event *e, const uint8_t *vd, size_t vd_len)
{
	wanted w = { vd, vd_len, 0 };
	const uint8_t *db;
	size_t len;
	int present;
	sbat_diag local;
	sbat_err r;

	if (strcmp(x->guid, SBAT_EFIVAR_SHIM_GUID) == 0)
		return copy_event(b, x, e, "measured by shim: not modelled yet");
	if (!b->after_separator || !is_security_db(x->guid) || strcmp(x->name, "db") != 0)
		return copy_event(b, x, e, "an authority other than a db entry after the separator: not modelled");
	x->kind = SBAT_PCR7_AUTHORITY;
	r = pcr7vars_get(b->vars, "db", SBAT_SIGDB_GUID_SECURITY_DB, &db, &len, &present, &local);
	if (r == SBAT_E_NOMEM)
		return diag_fail(b->d, r, "out of memory for a variable");
	if (r == SBAT_OK && present && vd_len > OWNER_SIZE)
		r = esl_walk(db, len, 0, "db", match_entry, &w, &local);
	if (r != SBAT_OK || !w.found) {
		x->state = SBAT_PCR7_UNKNOWN;
		x->why = r != SBAT_OK ? "db cannot be read, or does not parse" :
		                        "db does not hold the entry the log names: which entry verifies the image, if "
		                        "any, is not known";
		return SBAT_OK;
	}
	if ((r = make_var_data(x, e->data, vd, vd_len, b->d)) == SBAT_OK)
		digest_all(b, x);
	return r;
}

/* x, the separator: four zero bytes. */
static sbat_err
make_separator(builder *b, sbat_pcr7_event *x)
{
	uint8_t *p = calloc(1, 4);

	if (!p)
		return diag_fail(b->d, SBAT_E_NOMEM, "out of memory for a PCR 7 event");
	x->kind = SBAT_PCR7_SEPARATOR;
	x->data = p;
	x->data_len = 4;
	digest_all(b, x);
	return SBAT_OK;
}

/* Which banks of x differ from the log's event e, and x's state by them. */
static void
compare(const builder *b, sbat_pcr7_event *x, const sbat_eventlog_event *e)
{
	size_t i, j;

	if (x->state != SBAT_PCR7_REPRODUCED)
		return;
	for (i = 0; i < b->m->n_banks; i++) {
		int same = 0;

		if (!(x->has_digest & (1u << i)))
			continue;
		for (j = 0; j < e->n_digests; j++)
			if (e->digests[j].alg == b->m->banks[i].alg && e->digests[j].size == b->m->banks[i].digest_size)
				same = memcmp(e->digests[j].digest, x->digest[i], e->digests[j].size) == 0;
		if (!same)
			x->banks_differ |= 1u << i;
	}
	if (x->banks_differ) {
		x->state = SBAT_PCR7_DIFFERS;
		x->why = why_differs;
	}
}

/* The model's event for the log's PCR 7 event e. */
static sbat_err
take(builder *b, const sbat_eventlog_event *e)
{
	const uint8_t *vd = NULL;
	size_t vd_len = 0;
	sbat_pcr7_event *x;
	sbat_err r = new_event(b, e->index, e->type, &x);
	int parsed = r == SBAT_OK && parse_var_data(e->data, e->data_len, x, &vd, &vd_len);

	if (r != SBAT_OK)
		return r;
	if (e->type == SBAT_EV_SEPARATOR && !b->after_separator) {
		r = make_separator(b, x);
		b->after_separator = 1;
	} else if (e->type == SBAT_EV_EFI_VARIABLE_DRIVER_CONFIG && !b->after_separator) {
		r = parsed ? make_variable(b, x, e->data) :
		             copy_event(b, x, e, "not a UEFI_VARIABLE_DATA of a name this program looks up");
	} else if (e->type == SBAT_EV_EFI_VARIABLE_AUTHORITY && parsed) {
		r = make_authority(b, x, e, vd, vd_len);
	} else {
		r = copy_event(b, x, e,
		               e->type == SBAT_EV_EFI_VARIABLE_DRIVER_CONFIG ?
		                   "a variable written during the boot: not modelled" :
		                   "an event this model does not make");
	}
	if (r != SBAT_OK)
		return r;
	compare(b, x, e);
	if (parsed && x->kind == SBAT_PCR7_VARIABLE && is_security_db(x->guid) && strcmp(x->name, "dbx") == 0 &&
	    !b->log_has_dbt)
		return add_dbt(b);
	return SBAT_OK;
}

/* 1 if the log measures dbt before PCR 7's separator. */
static int
log_measures_dbt(const sbat_eventlog *log)
{
	sbat_pcr7_event probe;
	const uint8_t *vd;
	size_t i, vd_len;

	for (i = 1; i < sbat_eventlog_event_count(log); i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, i);

		if (e->pcr != 7)
			continue;
		if (e->type == SBAT_EV_SEPARATOR)
			return 0;
		if (e->type == SBAT_EV_EFI_VARIABLE_DRIVER_CONFIG &&
		    parse_var_data(e->data, e->data_len, &probe, &vd, &vd_len) && strcmp(probe.name, "dbt") == 0 &&
		    is_security_db(probe.guid))
			return 1;
	}
	return 0;
}

/* Bank i's PCR 7: the log's, and the model's events replayed (or why they cannot be). */
static void
replay_bank(sbat_pcr7 *m, size_t i, const sbat_eventlog_bank *lb)
{
	sbat_pcr7_bank *k = &m->banks[i];
	uint8_t probe[SBAT_EVENTLOG_MAX_DIGEST];
	size_t j;

	k->today_known = lb->replayed;
	if (lb->replayed)
		memcpy(k->today, lb->value[7], k->digest_size);
	k->predicted = k->digest_size <= SBAT_EVENTLOG_MAX_DIGEST && replay_digest(k->alg, k->value, 0, probe);
	memset(k->value, 0, sizeof(k->value));
	k->why = k->predicted ? NULL : "an algorithm this program does not hash";
	if (k->predicted && m->n == 0) {
		k->predicted = 0;
		k->why = "the log has no event of PCR 7";
	}
	for (j = 0; j < m->n && k->predicted; j++) {
		const sbat_pcr7_event *x = &m->ev[j];

		if (x->state == SBAT_PCR7_DROPPED)
			continue;
		if (x->state == SBAT_PCR7_UNKNOWN || !(x->has_digest & (1u << i))) {
			k->predicted = 0;
			k->why = x->state == SBAT_PCR7_UNKNOWN ? x->why : "an event taken from the log lacks this bank";
			break;
		}
		replay_extend(k->alg, k->value, x->digest[i], k->digest_size);
	}
	if (!k->predicted)
		memset(k->value, 0, sizeof(k->value));
}

static sbat_err
build_events(builder *b)
{
	size_t i;
	sbat_err r = SBAT_OK;

	for (i = 1; i < sbat_eventlog_event_count(b->log) && r == SBAT_OK; i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(b->log, i);

		if (e->pcr == 7 && e->type != SBAT_EV_NO_ACTION)
			r = take(b, e);
	}
	return r;
}

SBAT_API sbat_err
sbat_pcr7_build(const sbat_eventlog *log, sbat_pcr7_vars *vars, sbat_pcr7 **ret, sbat_diag *reterr)
{
	builder b = { log, vars, NULL, 0, 0, reterr };
	size_t i;
	sbat_err r;

	*ret = NULL;
	if (!log || !vars)
		return diag_fail(reterr, SBAT_E_IO, "no event log or no variables");
	if (!(b.m = calloc(1, sizeof(*b.m))))
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory for the PCR 7 model");
	b.m->n_banks = sbat_eventlog_bank_count(log);
	for (i = 0; i < b.m->n_banks; i++) {
		const sbat_eventlog_bank *lb = sbat_eventlog_bank_at(log, i);

		b.m->banks[i].alg = lb->alg;
		b.m->banks[i].name = lb->name;
		b.m->banks[i].digest_size = lb->digest_size;
	}
	b.log_has_dbt = log_measures_dbt(log);
	if ((r = build_events(&b)) != SBAT_OK) {
		sbat_pcr7_free(b.m);
		return r;
	}
	for (i = 0; i < b.m->n_banks; i++)
		replay_bank(b.m, i, sbat_eventlog_bank_at(log, i));
	*ret = b.m;
	return SBAT_OK;
}

SBAT_API void
sbat_pcr7_free(sbat_pcr7 *model)
{
	size_t i;

	if (!model)
		return;
	for (i = 0; i < model->n; i++)
		free((void *)model->ev[i].data);
	free(model->ev);
	free(model);
}

SBAT_API size_t
sbat_pcr7_event_count(const sbat_pcr7 *model)
{
	return model ? model->n : 0;
}

SBAT_API const sbat_pcr7_event *
sbat_pcr7_event_at(const sbat_pcr7 *model, size_t i)
{
	return model && i < model->n ? &model->ev[i] : NULL;
}

SBAT_API size_t
sbat_pcr7_bank_count(const sbat_pcr7 *model)
{
	return model ? model->n_banks : 0;
}

SBAT_API const sbat_pcr7_bank *
sbat_pcr7_bank_at(const sbat_pcr7 *model, size_t i)
{
	return model && i < model->n_banks ? &model->banks[i] : NULL;
}

SBAT_API const char *
sbat_pcr7_kind_name(sbat_pcr7_kind kind)
{
	static const char *const names[] = {
		[SBAT_PCR7_VARIABLE] = "variable",
		[SBAT_PCR7_SEPARATOR] = "separator",
		[SBAT_PCR7_AUTHORITY] = "authority",
		[SBAT_PCR7_FROM_LOG] = "from the log",
	};

	return STRTABLE_NAME(names, kind, "unknown");
}

SBAT_API const char *
sbat_pcr7_state_name(sbat_pcr7_state state)
{
	static const char *const names[] = {
		[SBAT_PCR7_REPRODUCED] = "reproduced", [SBAT_PCR7_DIFFERS] = "differs", [SBAT_PCR7_COPIED] = "copied",
		[SBAT_PCR7_ADDED] = "added",           [SBAT_PCR7_DROPPED] = "dropped", [SBAT_PCR7_UNKNOWN] = "unknown",
	};

	return STRTABLE_NAME(names, state, "unknown");
}
