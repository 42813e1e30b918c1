/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-eventlog.c - libFuzzer harness: the TCG event log, parsed and replayed */

/*
 * Input: raw bytes as a crypto-agile TCG event log, given to
 * sbat_eventlog_parse (inputs over FUZZ_MAX_INPUT bytes are ignored).
 *
 * These must hold, or the harness aborts:
 *  - the parser does not modify its input;
 *  - a failure is SBAT_E_EVENTLOG (or SBAT_E_NOMEM) with a reason and an
 *    offset inside the input, and hands out no log;
 *  - a log starts with the Spec ID event at offset 0; its events follow
 *    one another at rising offsets, each one's data and digests lie in the
 *    input (as copied) and hold what the input holds there, each digest is
 *    of an algorithm the Spec ID event lists, of its declared size, once
 *    per event, and no event extends a PCR over 23;
 *  - there are 1 to 16 banks, each digest no larger than 64 bytes; a bank
 *    the library hashes and no event lacks is replayed, and parsing the
 *    same bytes again replays to the same values;
 *  - PCR 7 made again (sbat_pcr7_build, with variables that do not exist)
 *    fails only for memory, has at most one event more than the log has
 *    in PCR 7, a state and kind in range for each, no differing bank on a
 *    reproduced event, and no bank predicted past an unknown event.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/eventlog.h"
#include "sbat/pcr7.h"

#define FUZZ_MAX_INPUT (256u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-eventlog: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

/* Where p lies in the log's copy of the input, checked against in: its offset. */
static size_t
offset_in(const sbat_eventlog_event *e0, const uint8_t *p, size_t n, const uint8_t *in, size_t size)
{
	/* the Spec ID event's data starts 32 bytes into the copy */
	const uint8_t *base = e0->data - 32;
	size_t off;

	if (p < base || (size_t)(p - base) > size || n > size - (size_t)(p - base))
		fail("event bytes outside the input");
	off = (size_t)(p - base);
	if (n && memcmp(p, in + off, n) != 0)
		fail("event bytes that are not what the input holds there");
	return off;
}

static void
check_event(const sbat_eventlog *log, const sbat_eventlog_event *e, uint64_t *last, const uint8_t *in, size_t size)
{
	const sbat_eventlog_event *e0 = sbat_eventlog_event_at(log, 0);
	size_t i, j, b;

	if (e->index && e->offset <= *last)
		fail("events not at rising offsets");
	*last = e->offset;
	if (e->pcr >= SBAT_EVENTLOG_PCRS && e->type != SBAT_EV_NO_ACTION)
		fail("an event extends a PCR over 23");
	if (offset_in(e0, e->data, e->data_len, in, size) < e->offset)
		fail("an event's data before the event");
	for (i = 0; i < e->n_digests; i++) {
		offset_in(e0, e->digests[i].digest, e->digests[i].size, in, size);
		for (j = 0; j < i; j++)
			if (e->digests[j].alg == e->digests[i].alg)
				fail("two digests of one algorithm in an event");
		for (b = 0; b < sbat_eventlog_bank_count(log); b++)
			if (sbat_eventlog_bank_at(log, b)->alg == e->digests[i].alg)
				break;
		if (e->index && (b == sbat_eventlog_bank_count(log) ||
		                 sbat_eventlog_bank_at(log, b)->digest_size != e->digests[i].size))
			fail("a digest of an algorithm or size the Spec ID event does not declare");
	}
}

static void
check_log(const sbat_eventlog *log, const uint8_t *in, size_t size)
{
	const sbat_eventlog_event *e;
	uint64_t last = 0;
	size_t i, n = sbat_eventlog_bank_count(log);

	e = sbat_eventlog_event_at(log, 0);
	if (!e || e->offset != 0 || e->pcr != 0 || e->type != SBAT_EV_NO_ACTION)
		fail("a log that does not start with the Spec ID event");
	for (i = 0; (e = sbat_eventlog_event_at(log, i)) != NULL; i++) {
		if (e->index != i)
			fail("an event's index is not its place");
		check_event(log, e, &last, in, size);
	}
	if (i != sbat_eventlog_event_count(log))
		fail("sbat_eventlog_event_at does not reach sbat_eventlog_event_count");
	if (n < 1 || n > SBAT_EVENTLOG_MAX_ALGS)
		fail("a bank count out of 1 to 16");
	for (i = 0; i < n; i++) {
		const sbat_eventlog_bank *b = sbat_eventlog_bank_at(log, i);

		if (b->digest_size == 0 || b->digest_size > SBAT_EVENTLOG_MAX_DIGEST)
			fail("a bank's digest size out of 1 to 64");
		if (b->replayed != (b->name && strcmp(b->name, "sm3_256") != 0 && b->missing == 0))
			fail("a bank replayed or not against what the library hashes");
	}
}

static void
check_pcr7(const sbat_eventlog *log)
{
	sbat_pcr7_vars *vars;
	sbat_pcr7 *m;
	sbat_diag d;
	size_t i, n7 = 0, unknown = 0;

	if (sbat_pcr7_vars_new("/nonexistent/efivarfs", &vars, &d) != SBAT_OK)
		return;
	if (sbat_pcr7_build(log, vars, &m, &d) != SBAT_OK) {
		if (d.code != SBAT_E_NOMEM)
			fail("sbat_pcr7_build fails for another reason than memory");
		sbat_pcr7_vars_free(vars);
		return;
	}
	for (i = 1; i < sbat_eventlog_event_count(log); i++)
		n7 += sbat_eventlog_event_at(log, i)->pcr == 7 &&
		      sbat_eventlog_event_at(log, i)->type != SBAT_EV_NO_ACTION;
	if (sbat_pcr7_event_count(m) > n7 + 1)
		fail("more PCR 7 events than the log has, and dbt");
	for (i = 0; i < sbat_pcr7_event_count(m); i++) {
		const sbat_pcr7_event *x = sbat_pcr7_event_at(m, i);

		if (x->state >= SBAT__PCR7_STATE_MAX || x->kind >= SBAT__PCR7_KIND_MAX)
			fail("a PCR 7 event's state or kind out of range");
		if (x->state == SBAT_PCR7_REPRODUCED && x->banks_differ)
			fail("a reproduced event that differs");
		unknown += x->state == SBAT_PCR7_UNKNOWN;
	}
	for (i = 0; i < sbat_pcr7_bank_count(m); i++)
		if (unknown && sbat_pcr7_bank_at(m, i)->predicted)
			fail("PCR 7 predicted past an unknown event");
	sbat_pcr7_free(m);
	sbat_pcr7_vars_free(vars);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sbat_eventlog *log = NULL, *again = NULL;
	sbat_diag d;
	sbat_err err;
	uint8_t *in;
	size_t i;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	in = malloc(size ? size : 1);
	if (!in)
		return 0;
	if (size)
		memcpy(in, data, size);
	err = sbat_eventlog_parse(in, size, &log, &d);
	if (err != SBAT_OK) {
		if (log)
			fail("a failure that hands out a log");
		if (err != SBAT_E_NOMEM &&
		    (err != SBAT_E_EVENTLOG || d.code != err || !d.what || !d.has_offset || d.offset > size))
			fail("a failure that is not SBAT_E_EVENTLOG with a reason and an offset in the input");
	} else {
		check_log(log, in, size);
		check_pcr7(log);
		if (sbat_eventlog_parse(in, size, &again, &d) != SBAT_OK)
			fail("the same bytes parsed again fail");
		for (i = 0; i < sbat_eventlog_bank_count(log); i++)
			if (memcmp(sbat_eventlog_bank_at(log, i)->value, sbat_eventlog_bank_at(again, i)->value,
			           sizeof(sbat_eventlog_bank_at(log, i)->value)) != 0)
				fail("the same bytes replayed to other values");
	}
	sbat_eventlog_free(log);
	sbat_eventlog_free(again);
	if (size && memcmp(in, data, size) != 0)
		fail("the parser modified its input");
	free(in);
	return 0;
}
