/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-luks.c - libFuzzer harness: a LUKS2 header, its JSON area and its systemd-tpm2 tokens */

/*
 * Input: a mode byte, then bytes. Mode 0: the bytes are the start of a
 * device, given to sbat_luks_parse as they are (the checksums stop most
 * mutations at the binary header). Any other mode: the bytes are the JSON
 * area's text, put into a header of both copies with valid checksums (the
 * smallest hdr_size that holds them and a NUL), so every mutation reaches
 * the JSON reader and the token reader. Inputs over FUZZ_MAX_INPUT bytes
 * are ignored.
 *
 * These must hold, or the harness aborts:
 *  - the parser does not modify its input;
 *  - a failure is SBAT_E_LUKS (or SBAT_E_NOMEM) with a reason and an offset
 *    inside the data parsed, and hands out no header;
 *  - a header read has at most 32 tokens and no more systemd-tpm2 ones; those
 *    are in rising token order below 32, their PCR masks below bit 24, at
 *    most 8 policy hashes of at most 64 bytes, offsets in the data;
 *  - each token judged against all-zero PCR values of its bank gives a
 *    verdict and a reason in range, the same twice, a digest only when
 *    computed, and "cannot tell" exactly when there is a reason.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/luks.h"

#include "util/sha256.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-luks: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

/* A header around the JSON text json[0..len): both copies, valid checksums. */
static uint8_t *
wrap(const uint8_t *json, size_t len, size_t *ret_size)
{
	size_t hdr = 16384, c, k;
	uint8_t *buf;

	while (hdr - 4096 <= len)
		hdr *= 2;
	if (!(buf = calloc(1, 2 * hdr)))
		return NULL;
	for (c = 0; c < 2; c++) {
		uint8_t *h = buf + c * hdr;

		memcpy(h, c ? "SKUL\xba\xbe" : "LUKS\xba\xbe", 6);
		h[7] = 2;
		for (k = 0; k < 8; k++) {
			h[8 + k] = (uint8_t)((uint64_t)hdr >> (56 - 8 * k));
			h[256 + k] = (uint8_t)((uint64_t)(c * hdr) >> (56 - 8 * k));
		}
		memcpy(h + 72, "sha256", 6);
		if (len)
			memcpy(h + 4096, json, len);
		sha256(h, hdr, h + 448);
	}
	*ret_size = 2 * hdr;
	return buf;
}

static void
check_token(const sbat_luks_tpm2 *t, size_t size)
{
	sbat_luks_pcrs p;
	sbat_luks_judgement a, b;
	size_t i;

	if (t->token >= SBAT_LUKS_MAX_TOKENS || t->pcrs >> SBAT_LUKS_PCRS || t->pubkey_pcrs >> SBAT_LUKS_PCRS ||
	    t->offset >= size)
		fail("a token number, PCR mask or offset out of range");
	if (t->n_policy_hashes > SBAT_LUKS_MAX_POLICY_HASHES)
		fail("more than 8 policy hashes");
	for (i = 0; i < t->n_policy_hashes; i++)
		if (t->policy_hash_size[i] > SBAT_LUKS_MAX_DIGEST)
			fail("a policy hash over 64 bytes");
	if (!sbat_luks_bank_name(t->bank))
		fail("a bank the library does not name");
	memset(&p, 0, sizeof(p));
	p.bank = t->bank;
	p.known = 0xffffff;
	sbat_luks_judge(t, &p, &a);
	sbat_luks_judge(t, &p, &b);
	if (memcmp(&a, &b, sizeof(a)) != 0)
		fail("the same token judged twice differently");
	if (a.verdict >= SBAT__LUKS_VERDICT_MAX || a.why >= SBAT__LUKS_WHY_MAX || !sbat_luks_verdict_name(a.verdict))
		fail("a verdict or reason out of range");
	if ((a.verdict == SBAT_LUKS_CANNOT_TELL) != (a.why != SBAT_LUKS_WHY_NONE) ||
	    a.computed != (a.verdict != SBAT_LUKS_CANNOT_TELL))
		fail("cannot tell without a reason, or a reason with a verdict");
}

static void
check(const uint8_t *buf, size_t size)
{
	sbat_luks *l = NULL;
	sbat_diag d;
	sbat_err err = sbat_luks_parse(buf, size, &l, &d);
	size_t i, n;

	if (err != SBAT_OK) {
		if (l)
			fail("a failure that hands out a header");
		if (err != SBAT_E_NOMEM &&
		    (err != SBAT_E_LUKS || d.code != err || !d.what || !d.has_offset || d.offset > size))
			fail("a failure that is not SBAT_E_LUKS with a reason and an offset in the data");
		return;
	}
	n = sbat_luks_tpm2_count(l);
	if (sbat_luks_header_get(l)->n_tokens > SBAT_LUKS_MAX_TOKENS || n > sbat_luks_header_get(l)->n_tokens)
		fail("more tokens than LUKS2 holds, or systemd-tpm2 ones than tokens");
	for (i = 0; i < n; i++) {
		check_token(sbat_luks_tpm2_at(l, i), size);
		if (i && sbat_luks_tpm2_at(l, i)->token <= sbat_luks_tpm2_at(l, i - 1)->token)
			fail("tokens not in rising order");
	}
	if (sbat_luks_tpm2_at(l, n))
		fail("sbat_luks_tpm2_at past the count");
	sbat_luks_free(l);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *in, *wrapped = NULL;
	size_t wsize = 0;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	in = malloc(size);
	if (!in)
		return 0;
	memcpy(in, data, size);
	if (in[0] == 0) {
		check(in + 1, size - 1);
	} else if ((wrapped = wrap(in + 1, size - 1, &wsize)) != NULL) {
		check(wrapped, wsize);
		if (memcmp(wrapped + 4096, in + 1, size - 1) != 0)
			fail("the parser modified its input");
	}
	free(wrapped);
	if (memcmp(in, data, size) != 0)
		fail("the parser modified its input");
	free(in);
	return 0;
}
