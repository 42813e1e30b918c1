/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcrnext_event.c - one event of a prediction: added, its digests made, copied from the log or compared with it */
#include <stdlib.h>
#include <string.h>

#include "sbat/eventlog.h"
#include "sbat/pcrnext.h"

#include "tpm/replay.h"
#include "util/diag.h"
#include "util/le.h"
#include "walk/pcrnext_model.h"

sbat_err
pcrnext_add(pcrnext_in *in, uint32_t pcr, uint32_t type, size_t log_index, const uint8_t *data, size_t len,
            sbat_pcrnext_event **ret)
{
	sbat_pcrnext *p = in->p;
	uint8_t *copy = malloc(len ? len : 1);

	if (!copy)
		return diag_fail(in->d, SBAT_E_NOMEM, "out of memory for an event");
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 32;
		sbat_pcrnext_event *grown = realloc(p->ev, cap * sizeof(*grown));

		if (!grown) {
			free(copy);
			return diag_fail(in->d, SBAT_E_NOMEM, "out of memory for the events");
		}
		p->ev = grown;
		p->cap = cap;
	}
	if (len)
		memcpy(copy, data, len);
	*ret = &p->ev[p->n++];
	memset(*ret, 0, sizeof(**ret));
	(*ret)->pcr = pcr;
	(*ret)->type = type;
	(*ret)->log_index = log_index;
	(*ret)->data = copy;
	(*ret)->data_len = len;
	return SBAT_OK;
}

void
pcrnext_digest_all(const pcrnext_in *in, sbat_pcrnext_event *x)
{
	size_t i;

	for (i = 0; i < in->p->n_banks; i++)
		if (replay_digest(in->p->alg[i], x->data, x->data_len, x->digest[i]))
			x->has_digest |= 1u << i;
}

/* The log's digest of e in bank i, or NULL. */
const uint8_t *
pcrnext_log_digest(const pcrnext_in *in, const sbat_eventlog_event *e, size_t i)
{
	const sbat_eventlog_bank *b = sbat_eventlog_bank_at(in->log, i);
	size_t j;

	for (j = 0; j < e->n_digests; j++)
		if (e->digests[j].alg == b->alg && e->digests[j].size == b->digest_size &&
		    b->digest_size <= SBAT_EVENTLOG_MAX_DIGEST)
			return e->digests[j].digest;
	return NULL;
}

void
pcrnext_copy_digests(const pcrnext_in *in, sbat_pcrnext_event *x, const sbat_eventlog_event *e)
{
	size_t i;

	for (i = 0; i < in->p->n_banks; i++) {
		const uint8_t *dg = pcrnext_log_digest(in, e, i);

		if (dg) {
			memcpy(x->digest[i], dg, sbat_eventlog_bank_at(in->log, i)->digest_size);
			x->has_digest |= 1u << i;
		}
	}
}

void
pcrnext_compare(const pcrnext_in *in, sbat_pcrnext_event *x, const sbat_eventlog_event *e)
{
	size_t i;

	for (i = 0; i < in->p->n_banks; i++) {
		const uint8_t *dg = pcrnext_log_digest(in, e, i);

		if ((x->has_digest & (1u << i)) &&
		    (!dg || memcmp(dg, x->digest[i], sbat_eventlog_bank_at(in->log, i)->digest_size) != 0)) {
			x->state = SBAT_PCR7_DIFFERS;
			x->why = "made, and not what the log measured: it changes";
			return;
		}
	}
}

void
pcrnext_var_name(const uint8_t *data, size_t len, char *buf, size_t size)
{
	size_t n, i;

	buf[0] = '\0';
	if (!data || len < 32 || size == 0)
		return;
	n = le32_get(data + 16);
	if (le32_get(data + 20) || n >= size || n > (len - 32) / 2)
		return;
	for (i = 0; i < n; i++) {
		uint16_t c = le16_get(data + 32 + 2 * i);

		if (c == 0 || c > 0x7e) {
			buf[0] = '\0';
			return;
		}
		buf[i] = (char)c;
	}
	buf[n] = '\0';
}

void
pcrnext_ipl_text(const uint8_t *data, size_t len, char *buf, size_t size)
{
	size_t i;

	for (i = 0; data && i < len && i + 1 < size && data[i] >= 0x20 && data[i] <= 0x7e; i++)
		buf[i] = (char)data[i];
	buf[i] = '\0';
	if (data && i < len && data[i] != '\0')
		buf[0] = '\0';
}
