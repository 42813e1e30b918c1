/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-luks.c - sbat_luks: cryptsetup's header with TPM-computed policies, both copies, hostile JSON, the policy digest */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/luks.h"

#include "util/sha256.h"

static char fixture[1024], policies[1024], pcrs_file[1024];

static int
setup(void **state)
{
	const char *src = getenv("FIXTURES_SRC");

	(void)state;
	if (!src)
		return -1;
	snprintf(fixture, sizeof(fixture), "%s/luks/tpm2-tokens.luks2", src);
	snprintf(policies, sizeof(policies), "%s/luks/tpm2-tokens.policies", src);
	snprintf(pcrs_file, sizeof(pcrs_file), "%s/eventlog/ovmf-sb/pcrs", src);
	return 0;
}

static void
unhex(const char *hex, uint8_t *out, size_t n)
{
	size_t i;

	assert_int_equal(strlen(hex), 2 * n);
	for (i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

/* The hash named name in the .policies file the TPM wrote. */
static void
tpm_policy(const char *name, uint8_t out[32])
{
	FILE *f = fopen(policies, "r");
	char key[32], hex[80];
	int found = 0;

	assert_non_null(f);
	while (!found && fscanf(f, "%31s %79s", key, hex) == 2)
		if (strcmp(key, name) == 0) {
			unhex(hex, out, 32);
			found = 1;
		}
	fclose(f);
	assert_true(found);
}

/* The ovmf-sb boot's PCR values of bank name, as the guest read them. */
static void
boot_pcrs(const char *name, uint16_t alg, sbat_luks_pcrs *p)
{
	FILE *f = fopen(pcrs_file, "r");
	char bank[16], hex[130];
	unsigned n;

	assert_non_null(f);
	memset(p, 0, sizeof(*p));
	p->bank = alg;
	while (fscanf(f, "%15s %u %129s", bank, &n, hex) == 3)
		if (strcmp(bank, name) == 0 && n < SBAT_LUKS_PCRS) {
			unhex(hex, p->value[n], sbat_luks_bank_size(alg));
			p->known |= 1u << n;
		}
	fclose(f);
}

static uint8_t *
read_fixture(size_t *len)
{
	FILE *f = fopen(fixture, "rb");
	uint8_t *buf = malloc(1 << 16);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, 1 << 16, f);
	fclose(f);
	assert_int_equal(*len, 32768);
	return buf;
}

/* ------------------------------------------------------------ cryptsetup's header */

static void
test_luks_fixture(void **state)
{
	const sbat_luks_header *h;
	const sbat_luks_tpm2 *t;
	sbat_luks *l;
	sbat_diag d;
	uint8_t p7[32];

	(void)state;
	assert_int_equal(sbat_luks_read(fixture, &l, &d), SBAT_OK);
	h = sbat_luks_header_get(l);
	assert_string_equal(h->uuid, "5b1c1e6e-8f1d-4d0a-9a51-2f6c1d3e4b70");
	assert_string_equal(h->label, "sbat-add-test");
	assert_string_equal(h->checksum_alg, "sha256");
	assert_int_equal(h->hdr_size, 16384);
	assert_int_equal(h->copy_offset, 0);
	assert_true(h->other_valid);
	assert_int_equal(h->n_tokens, 9);
	assert_int_equal(sbat_luks_tpm2_count(l), 8);
	t = sbat_luks_tpm2_at(l, 0);
	tpm_policy("p7", p7);
	assert_int_equal(t->token, 0);
	assert_int_equal(t->pcrs, 1u << 7);
	assert_int_equal(t->bank, 0x000b);
	assert_true(t->bank_given);
	assert_int_equal(t->n_policy_hashes, 1);
	assert_memory_equal(t->policy_hash[0], p7, 32);
	assert_int_equal(t->n_keyslots, 1);
	assert_true(t->offset > 4096 && t->offset < 16384);
	assert_true(sbat_luks_tpm2_at(l, 1)->pin);
	assert_int_equal(sbat_luks_tpm2_at(l, 2)->pcrs, 0x81);
	assert_int_equal(sbat_luks_tpm2_at(l, 3)->bank, 0x0004);
	assert_true(sbat_luks_tpm2_at(l, 5)->pubkey);
	assert_int_equal(sbat_luks_tpm2_at(l, 5)->pubkey_pcrs, 1u << 11);
	assert_true(sbat_luks_tpm2_at(l, 6)->pcrlock);
	assert_null(sbat_luks_tpm2_at(l, 8));
	sbat_luks_free(l);
}

/* Every token against the boot's values: the policy the TPM computed is the one made here. */
static void
test_luks_judge_fixture(void **state)
{
	static const sbat_luks_verdict want[8] = { SBAT_LUKS_UNLOCKS,         SBAT_LUKS_UNLOCKS,
		                                   SBAT_LUKS_UNLOCKS,         SBAT_LUKS_UNLOCKS,
		                                   SBAT_LUKS_WILL_NOT_UNLOCK, SBAT_LUKS_CANNOT_TELL,
		                                   SBAT_LUKS_CANNOT_TELL,     SBAT_LUKS_UNLOCKS };
	sbat_luks_pcrs s256, s1;
	sbat_luks_judgement j;
	sbat_luks *l;
	sbat_diag d;
	size_t i;

	(void)state;
	boot_pcrs("sha256", 0x000b, &s256);
	boot_pcrs("sha1", 0x0004, &s1);
	assert_int_equal(sbat_luks_read(fixture, &l, &d), SBAT_OK);
	for (i = 0; i < 8; i++) {
		const sbat_luks_tpm2 *t = sbat_luks_tpm2_at(l, i);

		sbat_luks_judge(t, t->bank == 0x0004 ? &s1 : &s256, &j);
		assert_int_equal(j.verdict, want[i]);
	}
	sbat_luks_judge(sbat_luks_tpm2_at(l, 5), &s256, &j);
	assert_int_equal(j.why, SBAT_LUKS_WHY_SIGNED);
	sbat_luks_judge(sbat_luks_tpm2_at(l, 6), &s256, &j);
	assert_int_equal(j.why, SBAT_LUKS_WHY_PCRLOCK);
	/* the sha1 token against sha256 values: no value of its bank */
	sbat_luks_judge(sbat_luks_tpm2_at(l, 3), &s256, &j);
	assert_int_equal(j.verdict, SBAT_LUKS_CANNOT_TELL);
	assert_int_equal(j.why, SBAT_LUKS_WHY_PCR_UNKNOWN);
	assert_int_equal(j.unknown, 1u << 7);
	/* one bit of PCR 7 changed: every token bound to it will not unlock; PCR 7 unknown: cannot tell */
	s256.value[7][31] ^= 1;
	sbat_luks_judge(sbat_luks_tpm2_at(l, 2), &s256, &j);
	assert_int_equal(j.verdict, SBAT_LUKS_WILL_NOT_UNLOCK);
	assert_true(j.computed);
	s256.known &= ~(1u << 7);
	sbat_luks_judge(sbat_luks_tpm2_at(l, 1), &s256, &j);
	assert_int_equal(j.verdict, SBAT_LUKS_CANNOT_TELL);
	assert_int_equal(j.unknown, 1u << 7);
	sbat_luks_judge(sbat_luks_tpm2_at(l, 7), &s256, &j);
	assert_int_equal(j.verdict, SBAT_LUKS_UNLOCKS);
	sbat_luks_free(l);
}

/* Digests a TPM (swtpm, tpm2_policypcr -f and tpm2_policyauthvalue) computed for PCR 0 = SHA-256("pcr0"), 7 = ("pcr7"). */
static void
test_luks_policy_vectors(void **state)
{
	static const struct {
		uint32_t pcrs;
		int pin;
		const char *hex;
	} v[] = {
		{ 0x80, 0, "7072ed07d1a124e26f9635fc4c0ef8b26f0dd4b7aeb0bd49cc9b63fa9c2df6c3" },
		{ 0x80, 1, "2077c33c3df3abc98ddfc9c0a4c003eaa450e8a13bce6185cc04e10687465b59" },
		{ 0x81, 0, "0561028940174b64df9d980da150cf49d0ca80d0a94fb0d73304e40a369b3f03" },
	};
	sbat_luks_pcrs p;
	sbat_luks_tpm2 t;
	sbat_luks_judgement j;
	size_t i;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.bank = 0x000b;
	p.known = 0x81;
	sha256("pcr0", 4, p.value[0]);
	sha256("pcr7", 4, p.value[7]);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		memset(&t, 0, sizeof(t));
		t.bank = 0x000b;
		t.pcrs = v[i].pcrs;
		t.pin = v[i].pin;
		t.n_policy_hashes = 2;
		t.policy_hash_size[0] = t.policy_hash_size[1] = 32;
		unhex(v[i].hex, t.policy_hash[1], 32);
		sbat_luks_judge(&t, &p, &j);
		assert_int_equal(j.verdict, SBAT_LUKS_UNLOCKS);
		assert_memory_equal(j.digest, t.policy_hash[1], 32);
	}
	/* no policy hash of SHA-256's size: cannot tell */
	t.policy_hash_size[0] = t.policy_hash_size[1] = 20;
	sbat_luks_judge(&t, &p, &j);
	assert_int_equal(j.why, SBAT_LUKS_WHY_POLICY_HASH);
	assert_string_equal(sbat_luks_verdict_name(SBAT_LUKS_WILL_NOT_UNLOCK), "will not unlock");
	assert_string_equal(sbat_luks_bank_name(0x0004), "sha1");
	assert_null(sbat_luks_bank_name(0x0012));
	assert_int_equal(sbat_luks_bank_size(0x000c), 48);
}

/* ------------------------------------------------------------ the two copies */

/* Write the checksum of the copy at off (sha256 over hdr_size bytes, the field zeroed). */
static void
reseal(uint8_t *buf, size_t off, size_t hdr_size)
{
	memset(buf + off + 448, 0, 64);
	sha256(buf + off, hdr_size, buf + off + 448);
}

static void
test_luks_copies(void **state)
{
	size_t len;
	uint8_t *buf = read_fixture(&len);
	sbat_luks *l;
	sbat_diag d;

	(void)state;
	/* a damaged primary: the secondary is read, and the primary's fault said */
	buf[4096 + 10] ^= 0x20;
	assert_int_equal(sbat_luks_parse(buf, len, &l, &d), SBAT_OK);
	assert_int_equal(sbat_luks_header_get(l)->copy_offset, 16384);
	assert_false(sbat_luks_header_get(l)->other_valid);
	assert_string_equal(sbat_luks_header_get(l)->other_why, "the header's checksum does not match");
	assert_int_equal(sbat_luks_tpm2_count(l), 8);
	sbat_luks_free(l);
	/* both damaged: the primary's fault, at its checksum field */
	buf[16384 + 4096 + 10] ^= 0x20;
	assert_int_equal(sbat_luks_parse(buf, len, &l, &d), SBAT_E_LUKS);
	assert_null(l);
	assert_int_equal(d.offset, 448);
	/* the secondary with a higher seqid is the one read */
	buf[4096 + 10] ^= 0x20;
	buf[16384 + 4096 + 10] ^= 0x20;
	buf[16384 + 23]++;
	reseal(buf, 16384, 16384);
	assert_int_equal(sbat_luks_parse(buf, len, &l, &d), SBAT_OK);
	assert_int_equal(sbat_luks_header_get(l)->copy_offset, 16384);
	assert_true(sbat_luks_header_get(l)->other_valid);
	sbat_luks_free(l);
	/* the primary alone (the data cut after it) */
	assert_int_equal(sbat_luks_parse(buf, 16384, &l, &d), SBAT_OK);
	assert_string_equal(sbat_luks_header_get(l)->other_why, "the header runs past the end of the data");
	sbat_luks_free(l);
	/* not LUKS at all */
	memset(buf, 0, len);
	assert_int_equal(sbat_luks_parse(buf, len, &l, &d), SBAT_E_LUKS);
	assert_string_equal(d.what, "not a LUKS2 header (magic)");
	free(buf);
}

/* ------------------------------------------------------------ hostile JSON */

/* A valid header of hdr_size (both copies) around json; *ret_len the buffer's size. */
static uint8_t *
make_header(const char *json, size_t json_len, size_t hdr_size, size_t *ret_len)
{
	uint8_t *buf = calloc(1, 2 * hdr_size);
	size_t c, k;

	assert_non_null(buf);
	assert_true(json_len <= hdr_size - 4096);
	for (c = 0; c < 2; c++) {
		uint8_t *h = buf + c * hdr_size;

		memcpy(h, c ? "SKUL\xba\xbe" : "LUKS\xba\xbe", 6);
		h[7] = 2;
		for (k = 0; k < 8; k++) {
			h[8 + k] = (uint8_t)((uint64_t)hdr_size >> (56 - 8 * k));
			h[256 + k] = (uint8_t)((uint64_t)(c * hdr_size) >> (56 - 8 * k));
		}
		h[23] = 1;
		memcpy(h + 72, "sha256", 6);
		memcpy(h + 4096, json, json_len);
		reseal(buf, c * hdr_size, hdr_size);
	}
	*ret_len = 2 * hdr_size;
	return buf;
}

/* json in a header: its error code, and (for SBAT_E_LUKS) where in the JSON text it fired. */
static sbat_err
parse_json(const char *json, size_t json_len, size_t hdr_size, uint64_t *ret_at, const char **ret_what)
{
	size_t len;
	uint8_t *buf = make_header(json, json_len, hdr_size, &len);
	sbat_luks *l;
	sbat_diag d;
	sbat_err err = sbat_luks_parse(buf, len, &l, &d);

	*ret_at = err == SBAT_E_LUKS ? d.offset - 4096 : 0;
	*ret_what = err == SBAT_OK ? "" : d.what;
	sbat_luks_free(l);
	free(buf);
	return err;
}

static void
expect_json_error(const char *json, uint64_t at, const char *what)
{
	uint64_t got;
	const char *w;

	assert_int_equal(parse_json(json, strlen(json), 16384, &got, &w), SBAT_E_LUKS);
	assert_string_equal(w, what);
	assert_int_equal(got, at);
}

static void
test_luks_hostile_json(void **state)
{
	char *big = malloc(200000);
	uint64_t at;
	const char *what;
	size_t i, n;

	(void)state;
	assert_non_null(big);
	/* 33 levels: the 33rd bracket is refused */
	memset(big, '[', 40);
	big[40] = '\0';
	expect_json_error(big, 32, "JSON nested deeper than the reader takes (32 levels)");
	/* 70000 values in one array (a 128 KiB area holds them) */
	n = (size_t)snprintf(big, 200000, "{\"tokens\":[");
	for (i = 0; i < 70000; i++) {
		big[n++] = '0';
		big[n++] = ',';
	}
	memcpy(big + n - 1, "]}", 3);
	assert_int_equal(parse_json(big, n + 1, 262144, &at, &what), SBAT_E_LUKS);
	assert_string_equal(what, "more JSON values than the reader takes (65536)");
	/* a 70000-byte string */
	big[0] = '"';
	memset(big + 1, 'a', 70000);
	memcpy(big + 70001, "\"", 2);
	assert_int_equal(parse_json(big, 70002, 131072, &at, &what), SBAT_E_LUKS);
	assert_string_equal(what, "a JSON string longer than the reader takes (65536 bytes)");
	assert_int_equal(at, 0);
	/* the area full to its last byte: no NUL */
	memset(big, ' ', 16384 - 4096);
	assert_int_equal(parse_json(big, 16384 - 4096, 16384, &at, &what), SBAT_E_LUKS);
	assert_string_equal(what, "the JSON area does not end in a NUL byte");
	free(big);
	expect_json_error("{\"tokens\":{}} x", 14, "bytes after the JSON text");
	expect_json_error("{\"a\":\"b\\q\"}", 7, "an unknown escape in a JSON string");
	expect_json_error("{\"a\":\"b", 5, "a JSON string without its closing quote");
	expect_json_error("{\"a\":01}", 5, "a malformed JSON number");
	expect_json_error("{\"a\" 1}", 5, "expected ':' after a JSON object key");
	expect_json_error("{\"a\":1,}", 7, "a JSON object member without a string key");
	expect_json_error("[1 2]", 3, "expected ',' or ']' in a JSON array");
	expect_json_error("{\"a\":[1,", 8, "the JSON text ends where a value belongs");
	expect_json_error("{\"a\":[1", 5, "the JSON text ends inside an array");
	expect_json_error("{\"a\":tru}", 5, "not a JSON value");
	expect_json_error("[]", 0, "the LUKS2 JSON is not an object");
	expect_json_error("{\"tokens\":[]}", 10, "\"tokens\" is not a JSON object");
	expect_json_error("{\"tokens\":{\"32\":{\"type\":\"x\"}}}", 11, "a token number that is not 0 to 31");
	expect_json_error("{\"tokens\":{\"01\":{\"type\":\"x\"}}}", 11, "a token number that is not 0 to 31");
	expect_json_error("{\"tokens\":{\"1\":{\"typ\":\"x\"}}}", 15, "a token without a string \"type\"");
	expect_json_error("{\"tokens\":{\"1\":{\"type\":\"systemd-tpm2\"}}}", 15,
	                  "a systemd-tpm2 token without tpm2-pcrs");
	expect_json_error("{\"tokens\":{\"1\":{\"type\":\"systemd-tpm2\",\"tpm2-pcrs\":[7,24]}}}", 53,
	                  "tpm2-pcrs holds something other than PCR numbers 0 to 23");
	expect_json_error("{\"tokens\":{\"1\":{\"type\":\"systemd-tpm2\",\"tpm2-pcrs\":[],\"tpm2-pin\":\"yes\"}}}", 64,
	                  "tpm2-pin is not true or false");
	expect_json_error(
	    "{\"tokens\":{\"1\":{\"type\":\"systemd-tpm2\",\"tpm2-pcrs\":[],\"tpm2-policy-hash\":\"0g\"}}}", 72,
	    "tpm2-policy-hash is not a hex digest of at most 64 bytes");
	expect_json_error("{\"tokens\":{\"1\":{\"type\":\"systemd-tpm2\",\"tpm2-pcrs\":[],\"tpm2-pcr-bank\":\"md5\"}}}",
	                  69, "tpm2-pcr-bank is not sha1, sha256, sha384 or sha512");
}

/* What json-c and RFC 8259 allow: escapes in keys, the last of a repeated key, an array of policy hashes. */
static void
test_luks_json_accepted(void **state)
{
	static const char json[] =
	    "{\"tokens\":{\"3\":{\"\\u0074ype\":\"systemd-tpm2\",\"tpm2-pcrs\":[1],\"tpm2-pcrs\":[7,11],"
	    "\"tpm2-policy-hash\":[\"00\",\"ABCD\"],\"tpm2-pin\":true,\"tpm2_pcrlock\":false,\"x\":[{\"y\":-1.5e+3,"
	    "\"z\":null}],\"s\":\"\\ud83d\\ude00 \\n\"},\"0\":{\"type\":\"systemd-fido2\"}},\"keyslots\":{}}\n";
	size_t len;
	uint8_t *buf = make_header(json, sizeof(json), 16384, &len);
	const sbat_luks_tpm2 *t;
	sbat_luks *l;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_luks_parse(buf, len, &l, &d), SBAT_OK);
	assert_int_equal(sbat_luks_header_get(l)->n_tokens, 2);
	assert_int_equal(sbat_luks_tpm2_count(l), 1);
	t = sbat_luks_tpm2_at(l, 0);
	assert_int_equal(t->token, 3);
	assert_int_equal(t->pcrs, (1u << 7) | (1u << 11));
	assert_false(t->bank_given);
	assert_int_equal(t->bank, 0x000b);
	assert_int_equal(t->n_policy_hashes, 2);
	assert_int_equal(t->policy_hash_size[1], 2);
	assert_int_equal(t->policy_hash[1][0], 0xab);
	assert_true(t->pin);
	assert_false(t->pcrlock);
	sbat_luks_free(l);
	free(buf);
}

static void
test_luks_read_errors(void **state)
{
	sbat_luks *l;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_luks_read("/nonexistent/luks", &l, &d), SBAT_E_IO);
	assert_null(l);
	assert_int_equal(sbat_luks_read(pcrs_file, &l, &d), SBAT_E_LUKS);
	assert_null(sbat_luks_header_get(NULL));
	assert_int_equal(sbat_luks_tpm2_count(NULL), 0);
	sbat_luks_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_luks_fixture),        cmocka_unit_test(test_luks_judge_fixture),
		cmocka_unit_test(test_luks_policy_vectors), cmocka_unit_test(test_luks_copies),
		cmocka_unit_test(test_luks_hostile_json),   cmocka_unit_test(test_luks_json_accepted),
		cmocka_unit_test(test_luks_read_errors),
	};

	return run_group(tests, setup, NULL);
}
