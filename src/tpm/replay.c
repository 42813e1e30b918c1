/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* replay.c - the PCR values a parsed event log extends to: PCR = H(PCR || digest), bank by bank */
#include <string.h>

#include "sbat/eventlog.h"

#include "tpm/eventlog_model.h"
#include "tpm/replay.h"
#include "util/sha1.h"
#include "util/sha256.h"
#include "util/sha512.h"

/* The data of the EV_NO_ACTION event that gives PCR 0's start (PC Client PFP 10.4.5.3), then the locality. */
static const uint8_t startup_locality[16] = "StartupLocality";

int
replay_extend(uint16_t alg, uint8_t *value, const uint8_t *digest, size_t size)
{
	struct sha1_ctx c1;
	struct sha256_ctx c256;
	struct sha512_ctx c512;

	switch (alg) {
	case SBAT_EVENTLOG_ALG_SHA1:
		sha1_init(&c1);
		sha1_update(&c1, value, size);
		sha1_update(&c1, digest, size);
		sha1_final(&c1, value);
		return 1;
	case SBAT_EVENTLOG_ALG_SHA256:
		sha256_init(&c256);
		sha256_update(&c256, value, size);
		sha256_update(&c256, digest, size);
		sha256_final(&c256, value);
		return 1;
	case SBAT_EVENTLOG_ALG_SHA384:
	case SBAT_EVENTLOG_ALG_SHA512:
		if (alg == SBAT_EVENTLOG_ALG_SHA384)
			sha512_init_384(&c512);
		else
			sha512_init(&c512);
		sha512_update(&c512, value, size);
		sha512_update(&c512, digest, size);
		sha512_final(&c512, value);
		return 1;
	default: return 0;
	}
}

int
replay_digest(uint16_t alg, const uint8_t *data, size_t len, uint8_t *out)
{
	struct sha1_ctx c1;
	struct sha256_ctx c256;
	struct sha512_ctx c512;

	switch (alg) {
	case SBAT_EVENTLOG_ALG_SHA1:
		sha1_init(&c1);
		sha1_update(&c1, data, len);
		sha1_final(&c1, out);
		return 1;
	case SBAT_EVENTLOG_ALG_SHA256:
		sha256_init(&c256);
		sha256_update(&c256, data, len);
		sha256_final(&c256, out);
		return 1;
	case SBAT_EVENTLOG_ALG_SHA384:
	case SBAT_EVENTLOG_ALG_SHA512:
		if (alg == SBAT_EVENTLOG_ALG_SHA384)
			sha512_init_384(&c512);
		else
			sha512_init(&c512);
		sha512_update(&c512, data, len);
		sha512_final(&c512, out);
		return 1;
	default: return 0;
	}
}

/* The reset values: 0, PCRs 17 to 22 all ones (they wait for a dynamic launch), PCR 0 the locality. */
static void
reset(sbat_eventlog_bank *b, int locality)
{
	int i;

	memset(b->value, 0, sizeof(b->value));
	for (i = 17; i <= 22; i++)
		memset(b->value[i], 0xff, b->digest_size);
	if (locality >= 0)
		b->value[0][b->digest_size - 1] = (uint8_t)locality;
}

/* The locality of the StartupLocality event, when one comes before any extension of PCR 0; -1 else. */
static int
find_locality(const sbat_eventlog *log)
{
	size_t i;

	for (i = 1; i < log->n_events; i++) {
		const sbat_eventlog_event *e = &log->events[i];

		if (e->pcr != 0)
			continue;
		if (e->type != SBAT_EV_NO_ACTION)
			return -1;
		if (e->data_len == sizeof(startup_locality) + 1 &&
		    memcmp(e->data, startup_locality, sizeof(startup_locality)) == 0)
			return e->data[sizeof(startup_locality)];
	}
	return -1;
}

/* This bank's digest of e, or NULL. */
static const sbat_eventlog_digest *
digest_of(const sbat_eventlog_event *e, uint16_t alg)
{
	size_t i;

	for (i = 0; i < e->n_digests; i++)
		if (e->digests[i].alg == alg)
			return &e->digests[i];
	return NULL;
}

static void
replay_bank(const sbat_eventlog *log, sbat_eventlog_bank *b)
{
	uint8_t probe[SBAT_EVENTLOG_MAX_DIGEST] = { 0 };
	size_t i;

	reset(b, log->locality);
	b->replayed = replay_extend(b->alg, probe, probe, b->digest_size);
	for (i = 1; i < log->n_events; i++) {
		const sbat_eventlog_event *e = &log->events[i];
		const sbat_eventlog_digest *g;

		if (e->type == SBAT_EV_NO_ACTION)
			continue;
		b->extended |= 1u << e->pcr;
		g = digest_of(e, b->alg);
		if (!g)
			b->missing++;
		else if (b->replayed)
			replay_extend(b->alg, b->value[e->pcr], g->digest, b->digest_size);
	}
	if (b->missing)
		b->replayed = 0;
	if (!b->replayed)
		memset(b->value, 0, sizeof(b->value));
}

void
replay_log(sbat_eventlog *log)
{
	size_t i;

	log->locality = find_locality(log);
	for (i = 0; i < log->n_banks; i++)
		replay_bank(log, &log->banks[i]);
}
