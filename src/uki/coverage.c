/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* coverage.c - which PCR 11 alternatives a UKI's .pcrsig signs, and the .hwids entries that select them */
#include <stdlib.h>
#include <string.h>

#include "sbat/uki.h"

#include "uki/uki_model.h"

/* 1 if e is an entry of the SHA-256 bank for PCR 11 alone with a digest of that size. */
static int
pcr11_entry(const uki_pcrsig_entry *e)
{
	return strcmp(e->bank, "sha256") == 0 && e->pcr_mask == 1u << 11 && e->pol_len == SBAT_UKI_DIGEST_SIZE;
}

int
coverage_alt_signed(const sbat_uki *uki, unsigned p, unsigned a, const uki_pcrsig *sig)
{
	uint8_t pol[SBAT_UKI_PHASES][SBAT_UKI_DIGEST_SIZE];
	unsigned i, ph;

	for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
		sbat_uki_policy_digest(uki->pcr[uki->sel[p].alt0 + a][ph], pol[ph]);
	for (i = 0; i < sig->n; i++) {
		if (!pcr11_entry(&sig->e[i]))
			continue;
		for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
			if (memcmp(sig->e[i].pol, pol[ph], SBAT_UKI_DIGEST_SIZE) == 0)
				return 1;
	}
	return 0;
}

/* The .pcrsig profile p boots with, parsed (malloc'ed), or NULL: none, or one that signs no SHA-256 PCR 11 policy. */
static uki_pcrsig *
pcrsig_of(const sbat_uki *uki, unsigned p)
{
	int s = uki->sel[p].sec[UKI_PCRSIG];
	uki_pcrsig *sig;
	const uint8_t *data;
	size_t n, i;
	sbat_diag d;

	if (s < 0 || !(data = uki_loaded_bytes(uki, (unsigned)s, &n)) || !(sig = malloc(sizeof(*sig))))
		return NULL;
	if (pcrsig_json_parse(data, n, sig, &d) == SBAT_OK)
		for (i = 0; i < sig->n; i++)
			if (pcr11_entry(&sig->e[i]))
				return sig;
	free(sig);
	return NULL;
}

/* Profile `profile`'s index (-1: the default), or -1 when alt is not one of its alternatives. */
static int
profile_index(const sbat_uki *uki, int profile, unsigned alt)
{
	unsigned p = profile < 0 ? 0u : (unsigned)profile;

	if (p >= (uki->n_profiles ? uki->n_profiles : 1u) || alt >= uki_alt_count(uki, p))
		return -1;
	return (int)p;
}

int
sbat_uki_alternative_signed(const sbat_uki *uki, int profile, unsigned alt)
{
	int p = profile_index(uki, profile, alt), r;
	uki_pcrsig *sig;

	if (p < 0 || !uki->predicted || !(sig = pcrsig_of(uki, (unsigned)p)))
		return -1;
	r = coverage_alt_signed(uki, (unsigned)p, alt, sig);
	free(sig);
	return r;
}

const char *
sbat_uki_alternative_hwid(const sbat_uki *uki, int profile, unsigned alt, const char *name)
{
	int p = profile_index(uki, profile, alt), c;
	unsigned j;

	for (j = 0; name && p >= 0 && j < UKI_MACHINE_KINDS; j++) {
		if (strcmp(name, uki_kind_name(uki_machine_kind(j))) != 0)
			continue;
		c = uki_alt_candidate(uki, (unsigned)p, alt, j);
		return c >= 0 ? uki->sel[p].cand_hwid[j][c] : NULL;
	}
	return NULL;
}
