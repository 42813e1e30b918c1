/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-wycheproof-rsa.c - Project Wycheproof's RSA PKCS#1 v1.5 and PSS
 * verification vectors (tests/fixtures/wycheproof, turned into lines by
 * tests/unit/wycheproof-rsa.py at build time): every "valid" signature is
 * accepted, every "invalid" one refused, and each "acceptable" one decided as
 * OpenSSL decides it.
 *
 * The "acceptable" vectors of these files all carry the flag MissingNull: a
 * PKCS#1 v1.5 DigestInfo whose AlgorithmIdentifier has no NULL parameters.
 * OpenSSL (1.1.0 and later; checked with 3.0's `openssl dgst -verify` on each
 * of them) builds the DigestInfo with NULL and compares the whole encoded
 * message, so it refuses them; shim and EDK2 verify through OpenSSL, so this
 * refuses them too. A vector "acceptable" for any other reason fails the test
 * until a decision is written here.
 *
 * usage: test-wycheproof-rsa VECTORS.txt */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sig/rsa.h"
#include "util/sha1.h"
#include "util/sha256.h"
#include "util/sha512.h"

#define FIELDS_MAX 8

static const char *vectors_path;

/* What a group of vectors shares. */
typedef struct group {
	int pss;
	sbat_digest_alg alg, mgf1;
	size_t salt;
	uint8_t *n, *e;
	size_t n_len, e_len;
} group;

/* The counts by scheme (0 PKCS#1 v1.5, 1 PSS) and result (0 valid, 1 invalid, 2 acceptable). */
typedef struct tally {
	size_t seen[2][3];
	size_t wrong;
	size_t file_tests, file_expected;
} tally;

static sbat_digest_alg
alg_of(const char *name)
{
	if (strcmp(name, "SHA-1") == 0)
		return SBAT_DIGEST_SHA1;
	if (strcmp(name, "SHA-256") == 0)
		return SBAT_DIGEST_SHA256;
	if (strcmp(name, "SHA-384") == 0)
		return SBAT_DIGEST_SHA384;
	if (strcmp(name, "SHA-512") == 0)
		return SBAT_DIGEST_SHA512;
	fail_msg("unknown hash %s", name);
	return SBAT_DIGEST_UNKNOWN;
}

/* hex ("-": empty) into a new buffer (never NULL) */
static uint8_t *
unhex(const char *hex, size_t *len)
{
	size_t n = strcmp(hex, "-") == 0 ? 0 : strlen(hex) / 2, i;
	uint8_t *p = malloc(n + 1);
	unsigned v;

	assert_non_null(p);
	for (i = 0; i < n; i++) {
		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		p[i] = (uint8_t)v;
	}
	*len = n;
	return p;
}

static size_t
hash(sbat_digest_alg alg, const uint8_t *data, size_t len, uint8_t *out)
{
	struct sha1_ctx c1;
	struct sha512_ctx c5;
	size_t n;

	if (alg == SBAT_DIGEST_SHA1) {
		sha1_init(&c1);
		sha1_update(&c1, data, len);
		sha1_final(&c1, out);
		return SHA1_DIGEST_SIZE;
	}
	if (alg == SBAT_DIGEST_SHA256) {
		sha256(data, len, out);
		return SHA256_DIGEST_SIZE;
	}
	if (alg == SBAT_DIGEST_SHA384)
		sha512_init_384(&c5);
	else
		sha512_init(&c5);
	n = c5.out_len;
	sha512_update(&c5, data, len);
	sha512_final(&c5, out);
	return n;
}

/* Split line at spaces into f[]; the number of fields. */
static size_t
split(char *line, char **f)
{
	size_t n = 0;
	char *save = NULL, *tok;

	line[strcspn(line, "\r\n")] = '\0';
	for (tok = strtok_r(line, " ", &save); tok && n < FIELDS_MAX; tok = strtok_r(NULL, " ", &save))
		f[n++] = tok;
	return n;
}

static void
read_group(group *g, char **f, size_t n)
{
	assert_int_equal(n, 7);
	free(g->n);
	free(g->e);
	g->pss = strcmp(f[1], "pss") == 0;
	g->alg = alg_of(f[2]);
	g->mgf1 = g->pss ? alg_of(f[3]) : SBAT_DIGEST_UNKNOWN;
	g->salt = g->pss ? strtoul(f[4], NULL, 10) : 0;
	g->n = unhex(f[5], &g->n_len);
	g->e = unhex(f[6], &g->e_len);
}

/* 1 when this library must accept the vector: see the top of the file for "acceptable" */
static int
must_accept(const char *result, const char *flags, const char *tc)
{
	if (strcmp(result, "valid") == 0)
		return 1;
	if (strcmp(result, "invalid") == 0)
		return 0;
	if (strcmp(flags, "MissingNull") == 0)
		return 0;
	fail_msg("tcId %s: \"acceptable\" with flags %s: no decision written for it", tc, flags);
	return 0;
}

static void
run_vector(const group *g, char **f, size_t n, const char *file, tally *t)
{
	uint8_t digest[64], *m, *sig;
	size_t m_len, sig_len, d_len;
	int want = must_accept(f[2], f[3], f[1]), res = f[2][0] == 'v' ? 0 : f[2][0] == 'i' ? 1 : 2;
	rsa_pss_params pss;
	sbat_diag d;
	sbat_err err;

	assert_int_equal(n, 6);
	m = unhex(f[4], &m_len);
	sig = unhex(f[5], &sig_len);
	d_len = hash(g->alg, m, m_len, digest);
	pss.mgf1_alg = g->mgf1;
	pss.salt_len = g->salt;
	memset(&d, 0, sizeof(d));
	err = g->pss ? rsa_verify_pss(g->n, g->n_len, g->e, g->e_len, g->alg, digest, d_len, sig, sig_len, &pss, &d) :
	               rsa_verify_pkcs1(g->n, g->n_len, g->e, g->e_len, g->alg, digest, d_len, sig, sig_len, &d);
	if ((err == SBAT_OK) != want || (err != SBAT_OK && (err != SBAT_E_SIGNATURE || d.code != err || !d.what))) {
		print_error("%s tcId %s (%s, %s): %s\n", file, f[1], f[2], f[3],
		            err == SBAT_OK ? "accepted" :
		            d.what         ? d.what :
		                             "refused without a reason");
		t->wrong++;
	}
	t->seen[g->pss][res]++;
	t->file_tests++;
	free(m);
	free(sig);
}

static void
end_file(const char *file, tally *t)
{
	if (file[0] && t->file_tests != t->file_expected)
		fail_msg("%s: %zu tests read, numberOfTests %zu", file, t->file_tests, t->file_expected);
	t->file_tests = 0;
}

static void
wycheproof(void **state)
{
	FILE *in = fopen(vectors_path, "r");
	char *line = NULL, *f[FIELDS_MAX], file[128] = "";
	size_t cap = 0, n;
	group g = { 0 };
	tally t = { 0 };

	(void)state;
	assert_non_null(in);
	while (getline(&line, &cap, in) > 0) {
		n = split(line, f);
		if (n == 3 && strcmp(f[0], "F") == 0) {
			end_file(file, &t);
			snprintf(file, sizeof(file), "%s", f[1]);
			t.file_expected = strtoul(f[2], NULL, 10);
		} else if (n > 0 && strcmp(f[0], "G") == 0) {
			read_group(&g, f, n);
		} else if (n > 0 && strcmp(f[0], "T") == 0) {
			assert_non_null(g.n);
			run_vector(&g, f, n, file, &t);
		} else {
			fail_msg("line not understood: %s", n ? f[0] : "(empty)");
		}
	}
	end_file(file, &t);
	free(line);
	free(g.n);
	free(g.e);
	fclose(in);
	assert_int_equal(t.wrong, 0);
	/* the files of tests/fixtures/wycheproof, all read: PKCS#1 v1.5 valid, invalid, acceptable; PSS the same */
	assert_int_equal(t.seen[0][0], 68);
	assert_int_equal(t.seen[0][1], 2253);
	assert_int_equal(t.seen[0][2], 9);
	assert_int_equal(t.seen[1][0], 809);
	assert_int_equal(t.seen[1][1], 452);
	assert_int_equal(t.seen[1][2], 0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wycheproof),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s VECTORS.txt\n", argv[0]);
		return 2;
	}
	vectors_path = argv[1];
	return run_group(tests, NULL, NULL);
}
