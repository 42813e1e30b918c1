/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* eventlog.c - the crypto-agile TCG event log (PC Client PFP 10.2), parsed with every length checked */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/eventlog.h"

#include "file/input.h"
#include "tpm/eventlog_model.h"
#include "tpm/replay.h"
#include "util/bview.h"
#include "util/diag.h"

/* TCG_PCClientPCREvent: PCRIndex, EventType, a SHA-1 digest, EventSize. */
#define SHA1_EVENT_HEADER 32
/* TCG_EfiSpecIdEvent up to its algorithm list: signature[16], platformClass, 4 version bytes, numberOfAlgorithms. */
#define SPEC_ID_FIXED 28
#define SPEC_ID_SIGNATURE "Spec ID Event03"
/* TCG_PCR_EVENT2 up to its digests: PCRIndex, EventType, TPML_DIGEST_VALUES.count. */
#define EVENT2_HEADER 12

typedef struct parser {
	bview v;
	sbat_eventlog *log;
	int fill; /* the second pass: write the events and digests counted by the first */
	size_t n_events, n_digests;
	sbat_diag *d;
} parser;

static sbat_err
fail(parser *p, const char *what, uint64_t offset)
{
	diag_fail_at(p->d, SBAT_E_EVENTLOG, what, offset);
	if (p->d)
		p->d->line = (unsigned)(p->n_events > UINT32_MAX ? UINT32_MAX : p->n_events);
	return SBAT_E_EVENTLOG;
}

/* The digest size of the algorithms the library knows; 0 for another. */
static size_t
known_size(uint16_t alg)
{
	switch (alg) {
	case SBAT_EVENTLOG_ALG_SHA1: return 20;
	case SBAT_EVENTLOG_ALG_SHA256: return 32;
	case SBAT_EVENTLOG_ALG_SHA384: return 48;
	case SBAT_EVENTLOG_ALG_SHA512: return 64;
	case SBAT_EVENTLOG_ALG_SM3_256: return 32;
	default: return 0;
	}
}

static const char *
alg_name(uint16_t alg)
{
	switch (alg) {
	case SBAT_EVENTLOG_ALG_SHA1: return "sha1";
	case SBAT_EVENTLOG_ALG_SHA256: return "sha256";
	case SBAT_EVENTLOG_ALG_SHA384: return "sha384";
	case SBAT_EVENTLOG_ALG_SHA512: return "sha512";
	case SBAT_EVENTLOG_ALG_SM3_256: return "sm3_256";
	default: return NULL;
	}
}

/* The bank of alg, or -1 when the Spec ID event does not list it. */
static int
bank_of(const sbat_eventlog *log, uint16_t alg)
{
	size_t i;

	for (i = 0; i < log->n_banks; i++)
		if (log->banks[i].alg == alg)
			return (int)i;
	return -1;
}

/* One event into the arrays (second pass); the counts advance in both passes. */
static void
add_event(parser *p, uint64_t off, uint32_t pcr, uint32_t type, size_t first_digest, uint64_t data_off, size_t data_len)
{
	if (p->fill) {
		sbat_eventlog_event *e = &p->log->events[p->n_events];

		e->index = p->n_events;
		e->offset = off;
		e->pcr = pcr;
		e->type = type;
		e->digests = p->log->digests + first_digest;
		e->n_digests = p->n_digests - first_digest;
		e->data = p->log->buf + data_off;
		e->data_len = data_len;
	}
	p->n_events++;
}

static void
add_digest(parser *p, uint16_t alg, uint64_t off, size_t size)
{
	if (p->fill) {
		sbat_eventlog_digest *g = &p->log->digests[p->n_digests];

		g->alg = alg;
		g->digest = p->log->buf + off;
		g->size = size;
	}
	p->n_digests++;
}

/* The algorithm list of the Spec ID event whose data starts at off (n algorithms, checked to fit). */
static sbat_err
spec_id_algorithms(parser *p, uint64_t off, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		uint64_t at = off + SPEC_ID_FIXED + 4u * i;
		uint16_t alg = bv_le16(&p->v, at), size = bv_le16(&p->v, at + 2);
		sbat_eventlog_bank *b = &p->log->banks[i];

		if (bank_of(p->log, alg) >= 0)
			return fail(p, "the Spec ID event lists an algorithm twice", at);
		if (size == 0 || size > SBAT_EVENTLOG_MAX_DIGEST)
			return fail(p, "a digest size of the Spec ID event is 0 or over 64 bytes", at + 2);
		if (known_size(alg) && known_size(alg) != size)
			return fail(p, "a digest size of the Spec ID event is not its algorithm's", at + 2);
		memset(b, 0, sizeof(*b));
		b->alg = alg;
		b->name = alg_name(alg);
		b->digest_size = size;
		p->log->n_banks = i + 1;
	}
	return SBAT_OK;
}

/* The first event: PCR 0's EV_NO_ACTION in the SHA-1 format, carrying the TCG_EfiSpecIdEvent. */
static sbat_err
spec_id(parser *p, uint64_t *ret_next)
{
	uint32_t size, n, vendor;
	uint64_t data = SHA1_EVENT_HEADER;

	if (!bv_has(&p->v, 0, SHA1_EVENT_HEADER))
		return fail(p, "the log is shorter than the header of its first event", 0);
	if (bv_le32(&p->v, 0) != 0 || bv_le32(&p->v, 4) != SBAT_EV_NO_ACTION)
		return fail(p, "not a crypto-agile log: the first event is not PCR 0's EV_NO_ACTION", 0);
	size = bv_le32(&p->v, 28);
	if (!bv_has(&p->v, data, size))
		return fail(p, "the Spec ID event's EventSize runs past the end of the log", 28);
	if (size < SPEC_ID_FIXED + 1 || memcmp(p->v.p + data, SPEC_ID_SIGNATURE, sizeof(SPEC_ID_SIGNATURE)) != 0)
		return fail(p, "not a crypto-agile log: the first event is not a \"Spec ID Event03\"", data);
	n = bv_le32(&p->v, data + 24);
	if (n == 0)
		return fail(p, "the Spec ID event lists no algorithm", data + 24);
	if (n > SBAT_EVENTLOG_MAX_ALGS)
		return fail(p, "the Spec ID event lists more than 16 algorithms", data + 24);
	if (SPEC_ID_FIXED + 4u * n + 1 > size)
		return fail(p, "the Spec ID event's algorithm list runs past its EventSize", data + 24);
	if (spec_id_algorithms(p, data, n) != SBAT_OK)
		return SBAT_E_EVENTLOG;
	vendor = p->v.p[data + SPEC_ID_FIXED + 4u * n];
	if (SPEC_ID_FIXED + 4u * n + 1 + vendor > size)
		return fail(p, "the Spec ID event's vendor information runs past its EventSize",
		            data + SPEC_ID_FIXED + 4u * n);
	add_digest(p, SBAT_EVENTLOG_ALG_SHA1, 8, 20);
	add_event(p, 0, 0, SBAT_EV_NO_ACTION, 0, data, size);
	*ret_next = data + size;
	return SBAT_OK;
}

/* The digests of the event at off (count of them, from off + EVENT2_HEADER); *ret_end after them. */
static sbat_err
event_digests(parser *p, uint64_t off, uint32_t count, uint64_t *ret_end)
{
	uint64_t at = off + EVENT2_HEADER;
	uint32_t seen = 0, i;
	int b;

	for (i = 0; i < count; i++) {
		uint16_t alg = bv_le16(&p->v, at);
		size_t size;

		if (p->v.bad)
			return fail(p, "a digest's algorithm runs past the end of the log", at);
		b = bank_of(p->log, alg);
		if (b < 0)
			return fail(p, "a digest of an algorithm the Spec ID event does not list", at);
		if (seen & (1u << b))
			return fail(p, "two digests of one algorithm in an event", at);
		seen |= 1u << b;
		size = p->log->banks[b].digest_size;
		if (!bv_has(&p->v, at + 2, size))
			return fail(p, "a digest runs past the end of the log", at + 2);
		add_digest(p, alg, at + 2, size);
		at += 2 + size;
	}
	*ret_end = at;
	return SBAT_OK;
}

/* The TCG_PCR_EVENT2 at off; *ret_next after it. */
static sbat_err
event2(parser *p, uint64_t off, uint64_t *ret_next)
{
	size_t first = p->n_digests;
	uint32_t pcr, type, count, size;
	uint64_t at;

	if (!bv_has(&p->v, off, EVENT2_HEADER))
		return fail(p, "an event's header runs past the end of the log", off);
	pcr = bv_le32(&p->v, off);
	type = bv_le32(&p->v, off + 4);
	count = bv_le32(&p->v, off + 8);
	if (pcr >= SBAT_EVENTLOG_PCRS && type != SBAT_EV_NO_ACTION)
		return fail(p, "an event extends a PCR over 23", off);
	if (count > p->log->n_banks)
		return fail(p, "an event's digest count is larger than the Spec ID event's algorithms", off + 8);
	if (event_digests(p, off, count, &at) != SBAT_OK)
		return SBAT_E_EVENTLOG;
	if (!bv_has(&p->v, at, 4))
		return fail(p, "an event's EventSize runs past the end of the log", at);
	size = bv_le32(&p->v, at);
	if (!bv_has(&p->v, at + 4, size))
		return fail(p, "an event's EventSize is larger than the rest of the log", at);
	add_event(p, off, pcr, type, first, at + 4, size);
	*ret_next = at + 4 + size;
	return SBAT_OK;
}

/* 1 when buf[off..len) is all zero bytes (a log area read whole after its last event). */
static int
rest_is_zero(const bview *v, uint64_t off)
{
	for (; off < v->len; off++)
		if (v->p[off])
			return 0;
	return 1;
}

static sbat_err
walk(parser *p)
{
	uint64_t off;

	p->n_events = 0;
	p->n_digests = 0;
	p->log->n_banks = 0;
	if (spec_id(p, &off) != SBAT_OK)
		return SBAT_E_EVENTLOG;
	while (off < p->v.len && !rest_is_zero(&p->v, off))
		if (event2(p, off, &off) != SBAT_OK)
			return SBAT_E_EVENTLOG;
	return SBAT_OK;
}

/* Count (first pass), allocate, fill (second pass). */
static sbat_err
build(sbat_eventlog *log, sbat_diag *d)
{
	parser p;

	memset(&p, 0, sizeof(p));
	p.log = log;
	p.d = d;
	bv_init(&p.v, log->buf, log->len);
	if (walk(&p) != SBAT_OK)
		return SBAT_E_EVENTLOG;
	log->events = calloc(p.n_events, sizeof(*log->events));
	log->digests = calloc(p.n_digests ? p.n_digests : 1, sizeof(*log->digests));
	if (!log->events || !log->digests)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory reading the event log");
	p.fill = 1;
	walk(&p);
	log->n_events = p.n_events;
	log->n_digests = p.n_digests;
	return SBAT_OK;
}

SBAT_API sbat_err
sbat_eventlog_parse(const uint8_t *buf, size_t len, sbat_eventlog **ret, sbat_diag *reterr)
{
	sbat_eventlog *log;
	sbat_err err;

	*ret = NULL;
	if (!buf && len)
		return diag_fail(reterr, SBAT_E_EVENTLOG, "no event log given");
	if (len > SBAT_EVENTLOG_MAX_SIZE)
		return diag_fail(reterr, SBAT_E_TOO_BIG, "the event log is larger than 16 MiB");
	log = calloc(1, sizeof(*log));
	if (log)
		log->buf = malloc(len ? len : 1);
	if (!log || !log->buf) {
		free(log);
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory reading the event log");
	}
	if (len)
		memcpy(log->buf, buf, len);
	log->len = len;
	err = build(log, reterr);
	if (err != SBAT_OK) {
		sbat_eventlog_free(log);
		return err;
	}
	replay_log(log);
	*ret = log;
	return SBAT_OK;
}

SBAT_API sbat_err
sbat_eventlog_read(const char *path, sbat_eventlog **ret, sbat_diag *reterr)
{
	uint8_t *buf;
	size_t len;
	sbat_err err;

	*ret = NULL;
	err = input_read_generated(path ? path : SBAT_EVENTLOG_KERNEL_PATH, SBAT_EVENTLOG_MAX_SIZE, &buf, &len, reterr);
	if (err == SBAT_E_TOO_BIG)
		return diag_fail(reterr, SBAT_E_TOO_BIG, "the event log is larger than 16 MiB");
	if (err != SBAT_OK)
		return err;
	err = sbat_eventlog_parse(buf, len, ret, reterr);
	free(buf);
	return err;
}

SBAT_API void
sbat_eventlog_free(sbat_eventlog *log)
{
	if (!log)
		return;
	free(log->events);
	free(log->digests);
	free(log->buf);
	free(log);
}

SBAT_API size_t
sbat_eventlog_event_count(const sbat_eventlog *log)
{
	return log ? log->n_events : 0;
}

SBAT_API const sbat_eventlog_event *
sbat_eventlog_event_at(const sbat_eventlog *log, size_t i)
{
	return log && i < log->n_events ? &log->events[i] : NULL;
}

SBAT_API size_t
sbat_eventlog_bank_count(const sbat_eventlog *log)
{
	return log ? log->n_banks : 0;
}

SBAT_API const sbat_eventlog_bank *
sbat_eventlog_bank_at(const sbat_eventlog *log, size_t i)
{
	return log && i < log->n_banks ? &log->banks[i] : NULL;
}
