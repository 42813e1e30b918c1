/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* tpm2policy.c - the policy digest a systemd-tpm2 token's session reaches (TPM 2.0 Part 3, 23.7 PolicyPCR, 23.18
 * PolicyAuthValue), from given PCR values */
#include <string.h>

#include "sbat/luks.h"

#include "util/sha256.h"

/* TPM_CC values (TPM 2.0 Part 2, 6.5.2). */
#define CC_POLICY_PCR 0x0000017fu
#define CC_POLICY_AUTH_VALUE 0x0000016bu

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* digest = SHA-256(digest || TPM_CC_PolicyPCR || TPML_PCR_SELECTION || SHA-256(the PCR values in index order)). */
static void
policy_pcr(uint8_t digest[32], uint16_t bank, uint32_t mask, const sbat_luks_pcrs *pcrs)
{
	size_t size = sbat_luks_bank_size(bank);
	uint8_t sel[10], values[32], cc[4];
	struct sha256_ctx c;
	unsigned n;

	sha256_init(&c);
	for (n = 0; n < SBAT_LUKS_PCRS; n++)
		if (mask & (1u << n))
			sha256_update(&c, pcrs->value[n], size);
	sha256_final(&c, values);
	/* TPML_PCR_SELECTION: count 1; TPMS_PCR_SELECTION: hash, sizeofSelect 3, pcrSelect[3] (PCR 8k+i: bit i of byte k) */
	put_be32(sel, 1);
	sel[4] = (uint8_t)(bank >> 8);
	sel[5] = (uint8_t)bank;
	sel[6] = 3;
	sel[7] = (uint8_t)mask;
	sel[8] = (uint8_t)(mask >> 8);
	sel[9] = (uint8_t)(mask >> 16);
	put_be32(cc, CC_POLICY_PCR);
	sha256_init(&c);
	sha256_update(&c, digest, 32);
	sha256_update(&c, cc, sizeof(cc));
	sha256_update(&c, sel, sizeof(sel));
	sha256_update(&c, values, sizeof(values));
	sha256_final(&c, digest);
}

/* digest = SHA-256(digest || TPM_CC_PolicyAuthValue). */
static void
policy_auth_value(uint8_t digest[32])
{
	uint8_t buf[36];

	memcpy(buf, digest, 32);
	put_be32(buf + 32, CC_POLICY_AUTH_VALUE);
	sha256(buf, sizeof(buf), digest);
}

/* The verdict without computing: a policy this model does not make, or a value missing. 1 when ret is decided. */
static int
undecidable(const sbat_luks_tpm2 *t, const sbat_luks_pcrs *pcrs, sbat_luks_judgement *ret)
{
	size_t i, sized = 0;

	ret->verdict = SBAT_LUKS_CANNOT_TELL;
	for (i = 0; i < t->n_policy_hashes; i++)
		sized += t->policy_hash_size[i] == 32;
	ret->why = t->pubkey                     ? SBAT_LUKS_WHY_SIGNED :
	           t->pcrlock                    ? SBAT_LUKS_WHY_PCRLOCK :
	           !sized                        ? SBAT_LUKS_WHY_POLICY_HASH :
	           !sbat_luks_bank_size(t->bank) ? SBAT_LUKS_WHY_PCR_UNKNOWN :
	                                           SBAT_LUKS_WHY_NONE;
	if (ret->why == SBAT_LUKS_WHY_NONE) {
		ret->unknown = pcrs->bank == t->bank ? t->pcrs & ~pcrs->known : t->pcrs;
		if (ret->unknown)
			ret->why = SBAT_LUKS_WHY_PCR_UNKNOWN;
	} else if (ret->why == SBAT_LUKS_WHY_PCR_UNKNOWN) {
		ret->unknown = t->pcrs;
	}
	return ret->why != SBAT_LUKS_WHY_NONE;
}

SBAT_API void
sbat_luks_judge(const sbat_luks_tpm2 *token, const sbat_luks_pcrs *pcrs, sbat_luks_judgement *ret)
{
	size_t i;

	memset(ret, 0, sizeof(*ret));
	if (undecidable(token, pcrs, ret))
		return;
	if (token->pcrs)
		policy_pcr(ret->digest, token->bank, token->pcrs, pcrs);
	if (token->pin)
		policy_auth_value(ret->digest);
	ret->computed = 1;
	ret->verdict = SBAT_LUKS_WILL_NOT_UNLOCK;
	for (i = 0; i < token->n_policy_hashes; i++)
		if (token->policy_hash_size[i] == 32 && memcmp(token->policy_hash[i], ret->digest, 32) == 0)
			ret->verdict = SBAT_LUKS_UNLOCKS;
}

SBAT_API const char *
sbat_luks_verdict_name(sbat_luks_verdict verdict)
{
	switch (verdict) {
	case SBAT_LUKS_UNLOCKS: return "will unlock";
	case SBAT_LUKS_WILL_NOT_UNLOCK: return "will not unlock";
	case SBAT_LUKS_CANNOT_TELL: return "cannot tell";
	default: return NULL;
	}
}

SBAT_API const char *
sbat_luks_why_name(sbat_luks_why why)
{
	switch (why) {
	case SBAT_LUKS_WHY_NONE: return "";
	case SBAT_LUKS_WHY_SIGNED:
		return "a signed policy (tpm2_pubkey): it holds whatever PCR values a signature covers";
	case SBAT_LUKS_WHY_PCRLOCK: return "a systemd-pcrlock policy (tpm2_pcrlock): the TPM's NV index holds it";
	case SBAT_LUKS_WHY_PCR_UNKNOWN: return "a PCR value the policy holds is unknown";
	case SBAT_LUKS_WHY_POLICY_HASH: return "the token has no SHA-256 tpm2-policy-hash";
	default: return NULL;
	}
}

SBAT_API const char *
sbat_luks_bank_name(uint16_t bank)
{
	switch (bank) {
	case 0x0004: return "sha1";
	case 0x000b: return "sha256";
	case 0x000c: return "sha384";
	case 0x000d: return "sha512";
	default: return NULL;
	}
}

SBAT_API size_t
sbat_luks_bank_size(uint16_t bank)
{
	switch (bank) {
	case 0x0004: return 20;
	case 0x000b: return 32;
	case 0x000c: return 48;
	case 0x000d: return 64;
	default: return 0;
	}
}
