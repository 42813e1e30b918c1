/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luks_tokens.c - the LUKS2 JSON's tokens, and each systemd-tpm2 token's fields as systemd-cryptenroll writes them */
#include <stdlib.h>
#include <string.h>

#include "sbat/luks.h"

#include "luks/luks_model.h"
#include "luks/luksjson.h"
#include "util/diag.h"

typedef struct reader {
	const luksjson *j;
	uint64_t base;
	sbat_diag *d;
} reader;

static sbat_err
bad(const reader *r, size_t node, const char *what)
{
	return diag_fail_at(r->d, SBAT_E_LUKS, what, r->base + r->j->nodes[node].off);
}

/* Array node a of PCR numbers into *ret (bit N: PCR N). */
static sbat_err
pcr_mask(const reader *r, size_t a, const char *what, uint32_t *ret)
{
	const luksjson_node *n = &r->j->nodes[a];
	size_t i, k;

	*ret = 0;
	if (n->type != LUKSJSON_ARRAY)
		return bad(r, a, what);
	for (i = a + 1, k = 0; k < n->n_children; k++, i = r->j->nodes[i].end) {
		uint32_t pcr;

		if (!luksjson_uint(r->j, i, &pcr) || pcr >= SBAT_LUKS_PCRS)
			return bad(r, i, what);
		*ret |= 1u << pcr;
	}
	return SBAT_OK;
}

static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One hex policy hash, string node s, into t's next slot. */
static sbat_err
policy_hash(const reader *r, size_t s, sbat_luks_tpm2 *t)
{
	static const char what[] = "tpm2-policy-hash is not a hex digest of at most 64 bytes";
	char hex[2 * SBAT_LUKS_MAX_DIGEST + 1];
	size_t i, n;

	if (t->n_policy_hashes == SBAT_LUKS_MAX_POLICY_HASHES)
		return bad(r, s, "tpm2-policy-hash lists more than 8 digests");
	if (!luksjson_str(r->j, s, hex, sizeof(hex)) || (n = strlen(hex)) % 2)
		return bad(r, s, what);
	for (i = 0; i < n / 2; i++) {
		int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return bad(r, s, what);
		t->policy_hash[t->n_policy_hashes][i] = (uint8_t)(hi << 4 | lo);
	}
	t->policy_hash_size[t->n_policy_hashes++] = n / 2;
	return SBAT_OK;
}

/* tpm2-policy-hash: a hex string, or an array of them. */
static sbat_err
policy_hashes(const reader *r, size_t v, sbat_luks_tpm2 *t)
{
	const luksjson_node *n = &r->j->nodes[v];
	size_t i, k;
	sbat_err err;

	if (n->type == LUKSJSON_STRING)
		return policy_hash(r, v, t);
	if (n->type != LUKSJSON_ARRAY)
		return bad(r, v, "tpm2-policy-hash is neither a string nor an array");
	for (i = v + 1, k = 0; k < n->n_children; k++, i = r->j->nodes[i].end)
		if ((err = policy_hash(r, i, t)) != SBAT_OK)
			return err;
	return SBAT_OK;
}

/* The boolean member key of obj into *ret (absent: 0). */
static sbat_err
boolean(const reader *r, size_t obj, const char *key, const char *what, int *ret)
{
	size_t v = luksjson_get(r->j, obj, key);

	*ret = 0;
	if (!v)
		return SBAT_OK;
	if (r->j->nodes[v].type != LUKSJSON_TRUE && r->j->nodes[v].type != LUKSJSON_FALSE)
		return bad(r, v, what);
	*ret = r->j->nodes[v].type == LUKSJSON_TRUE;
	return SBAT_OK;
}

static sbat_err
bank(const reader *r, size_t obj, sbat_luks_tpm2 *t)
{
	static const uint16_t algs[] = { 0x0004, 0x000b, 0x000c, 0x000d };
	size_t v = luksjson_get(r->j, obj, "tpm2-pcr-bank"), k;

	t->bank = 0x000b;
	if (!v)
		return SBAT_OK;
	for (k = 0; k < sizeof(algs) / sizeof(algs[0]); k++)
		if (luksjson_str_is(r->j, v, sbat_luks_bank_name(algs[k]))) {
			t->bank = algs[k];
			t->bank_given = 1;
			return SBAT_OK;
		}
	return bad(r, v, "tpm2-pcr-bank is not sha1, sha256, sha384 or sha512");
}

/* tpm2_pubkey: a signed policy when it holds a key (a non-empty string, or a non-empty array). */
static sbat_err
pubkey(const reader *r, size_t obj, sbat_luks_tpm2 *t)
{
	size_t v = luksjson_get(r->j, obj, "tpm2_pubkey"), p;
	const luksjson_node *n;

	if (!v)
		return SBAT_OK;
	n = &r->j->nodes[v];
	if (n->type != LUKSJSON_STRING && n->type != LUKSJSON_ARRAY)
		return bad(r, v, "tpm2_pubkey is neither a string nor an array");
	t->pubkey = n->type == LUKSJSON_STRING ? n->len > 0 : n->n_children > 0;
	p = luksjson_get(r->j, obj, "tpm2_pubkey_pcrs");
	return p ? pcr_mask(r, p, "tpm2_pubkey_pcrs holds something other than PCR numbers 0 to 23", &t->pubkey_pcrs) :
	           SBAT_OK;
}

/* The systemd-tpm2 token obj, number id. */
static sbat_err
read_tpm2(const reader *r, size_t obj, unsigned id, sbat_luks_tpm2 *t)
{
	size_t v;
	sbat_err err;

	memset(t, 0, sizeof(*t));
	t->token = id;
	t->offset = r->base + r->j->nodes[obj].off;
	if (!(v = luksjson_get(r->j, obj, "tpm2-pcrs")))
		return bad(r, obj, "a systemd-tpm2 token without tpm2-pcrs");
	if ((err = pcr_mask(r, v, "tpm2-pcrs holds something other than PCR numbers 0 to 23", &t->pcrs)) != SBAT_OK ||
	    (err = bank(r, obj, t)) != SBAT_OK)
		return err;
	if ((v = luksjson_get(r->j, obj, "tpm2-policy-hash")) && (err = policy_hashes(r, v, t)) != SBAT_OK)
		return err;
	if ((err = boolean(r, obj, "tpm2-pin", "tpm2-pin is not true or false", &t->pin)) != SBAT_OK ||
	    (err = boolean(r, obj, "tpm2_pcrlock", "tpm2_pcrlock is not true or false", &t->pcrlock)) != SBAT_OK ||
	    (err = pubkey(r, obj, t)) != SBAT_OK)
		return err;
	if ((v = luksjson_get(r->j, obj, "keyslots")) && r->j->nodes[v].type == LUKSJSON_ARRAY)
		t->n_keyslots = r->j->nodes[v].n_children;
	return SBAT_OK;
}

/* The token number of key node k: 0 to 31 in decimal, as cryptsetup takes it. */
static int
token_id(const luksjson *j, size_t k, unsigned *ret)
{
	char s[4];
	size_t i;

	if (!luksjson_str(j, k, s, sizeof(s)) || !s[0] || (s[0] == '0' && s[1]))
		return 0;
	for (*ret = 0, i = 0; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		*ret = *ret * 10 + (unsigned)(s[i] - '0');
	}
	return *ret < SBAT_LUKS_MAX_TOKENS;
}

/* The token at key node k (its value follows): counted, and read when it is systemd-tpm2. */
static sbat_err
one_token(const reader *r, sbat_luks *l, size_t k)
{
	size_t v = r->j->nodes[k].end, type;
	unsigned id;

	if (!token_id(r->j, k, &id))
		return bad(r, k, "a token number that is not 0 to 31");
	if (r->j->nodes[v].type != LUKSJSON_OBJECT)
		return bad(r, v, "a token that is not a JSON object");
	if (!(type = luksjson_get(r->j, v, "type")) || r->j->nodes[type].type != LUKSJSON_STRING)
		return bad(r, v, "a token without a string \"type\"");
	l->header.n_tokens++;
	if (!luksjson_str_is(r->j, type, "systemd-tpm2"))
		return SBAT_OK;
	return read_tpm2(r, v, id, &l->tpm2[l->n_tpm2++]);
}

static int
by_token(const void *a, const void *b)
{
	unsigned x = ((const sbat_luks_tpm2 *)a)->token, y = ((const sbat_luks_tpm2 *)b)->token;

	return (x > y) - (x < y);
}

sbat_err
luks_tokens_read(sbat_luks *l, const luksjson *j, uint64_t base, sbat_diag *d)
{
	reader r = { j, base, d };
	size_t tokens, k, i, n;
	sbat_err err;

	if (j->nodes[0].type != LUKSJSON_OBJECT)
		return bad(&r, 0, "the LUKS2 JSON is not an object");
	if (!(tokens = luksjson_get(j, 0, "tokens")))
		return SBAT_OK;
	if (j->nodes[tokens].type != LUKSJSON_OBJECT)
		return bad(&r, tokens, "\"tokens\" is not a JSON object");
	n = j->nodes[tokens].n_children / 2;
	if (n > SBAT_LUKS_MAX_TOKENS)
		return bad(&r, tokens, "more than 32 tokens");
	if (n && !(l->tpm2 = calloc(n, sizeof(*l->tpm2))))
		return diag_fail(d, SBAT_E_NOMEM, "out of memory reading the LUKS2 tokens");
	for (i = tokens + 1, k = 0; k < n; k++, i = j->nodes[j->nodes[i].end].end)
		if ((err = one_token(&r, l, i)) != SBAT_OK)
			return err;
	qsort(l->tpm2, l->n_tpm2, sizeof(*l->tpm2), by_token);
	for (k = 1; k < l->n_tpm2; k++)
		if (l->tpm2[k].token == l->tpm2[k - 1].token)
			return diag_fail_at(d, SBAT_E_LUKS, "a token number given twice", l->tpm2[k].offset);
	return SBAT_OK;
}
