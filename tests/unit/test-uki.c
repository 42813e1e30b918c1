/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-uki.c - UKIs: the stub, what it measures per release and profile, PCR 11, .pcrsig and the edits that touch it */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbat/sbat.h"

#include "fixture.h"
#include "test-util.h"
#include "uki/uki_model.h"
#include "util/sha256.h"
#include "uki/uki_model.h"

#define NEW_CSV                                                                                                        \
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"                                \
	"systemd-stub,1,The systemd Developers,systemd,257,https://systemd.io/\n"                                      \
	"uki,1,UKI,uki,1,https://uapi-group.org/specifications/specs/unified_kernel_image/\n"

typedef struct built {
	uint8_t *buf;
	size_t len;
	sbat_image *img;
	sbat_uki *uki;
} built;

static built
build_spec(const fx_spec *spec)
{
	built b;
	sbat_diag d;

	memset(&b, 0, sizeof(b));
	assert_int_equal(fx_build(spec, &b.buf, &b.len), 0);
	assert_int_equal(sbat_image_parse(b.buf, b.len, &b.img, &d), SBAT_OK);
	assert_int_equal(sbat_uki_inspect(b.img, &b.uki, &d), SBAT_OK);
	return b;
}

static built
build_uki(const fx_uki *u)
{
	fx_spec spec;

	fx_uki_spec(&spec, u);
	return build_spec(&spec);
}

static void
built_free(built *b)
{
	sbat_uki_free(b->uki);
	sbat_image_free(b->img);
	free(b->buf);
}

/* The i-th section header of a fixture image. */
static const uint8_t *
header(const uint8_t *buf, unsigned i)
{
	return buf + fx_section_table_offset(buf) + 40u * i;
}

static unsigned
n_sections(const uint8_t *buf)
{
	return fx_le16(buf + fx_le32(buf + 0x3c) + 6);
}

/* The first section named `name`: its bytes as the stub measures them (VirtualSize, zero-filled), malloc'ed. */
static uint8_t *
measured_bytes(const uint8_t *buf, const char *name, size_t *ret_len)
{
	unsigned i;

	for (i = 0; i < n_sections(buf); i++) {
		const uint8_t *h = header(buf, i);
		uint32_t vs = fx_le32(h + 8), raw = fx_le32(h + 16), ptr = fx_le32(h + 20);
		uint8_t *out;

		if (strncmp((const char *)h, name, 8) != 0)
			continue;
		out = calloc(1, vs + 1);
		assert_non_null(out);
		memcpy(out, buf + ptr, raw < vs ? raw : vs);
		*ret_len = vs;
		return out;
	}
	fail_msg("no section %s", name);
	return NULL;
}

static void
extend(uint8_t pcr[32], const void *data, size_t n)
{
	uint8_t two[64];

	memcpy(two, pcr, 32);
	sha256(data, n, two + 32);
	sha256(two, 64, pcr);
}

/* PCR 11 worked out here from the section names given, in that order, and the phase words. */
static void
expected_pcr11(const uint8_t *buf, const char *const *names, uint8_t out[SBAT_UKI_PHASES][32])
{
	static const char *const words[] = { "enter-initrd", "leave-initrd", "sysinit", "ready" };
	uint8_t pcr[32];
	unsigned i;

	memset(pcr, 0, sizeof(pcr));
	for (i = 0; names[i]; i++) {
		size_t n = 0;
		uint8_t *data = measured_bytes(buf, names[i], &n);

		extend(pcr, names[i], strlen(names[i]) + 1);
		extend(pcr, data, n);
		free(data);
	}
	memcpy(out[0], pcr, 32);
	for (i = 0; i < 4; i++) {
		extend(pcr, words[i], strlen(words[i]));
		memcpy(out[i + 1], pcr, 32);
	}
}

/* Section i of a fixture image as the stub measures it (VirtualSize bytes, zero-filled), malloc'ed. */
static uint8_t *
section_bytes(const uint8_t *buf, unsigned i, size_t *ret_len)
{
	const uint8_t *h = header(buf, i);
	uint32_t vs = fx_le32(h + 8), raw = fx_le32(h + 16), ptr = fx_le32(h + 20);
	uint8_t *out = calloc(1, vs + 1);

	assert_non_null(out);
	memcpy(out, buf + ptr, raw < vs ? raw : vs);
	*ret_len = vs;
	return out;
}

/*
 * PCR 11 worked out here from the sections given by index, in that order,
 * each measured under its own name, then the phase words.
 */
static void
expected_pcr11_of(const uint8_t *buf, const int *secs, uint8_t out[SBAT_UKI_PHASES][32])
{
	static const char *const words[] = { "enter-initrd", "leave-initrd", "sysinit", "ready" };
	uint8_t pcr[32];
	unsigned i;

	memset(pcr, 0, sizeof(pcr));
	for (i = 0; secs[i] >= 0; i++) {
		char name[9];
		size_t n = 0;
		uint8_t *data = section_bytes(buf, (unsigned)secs[i], &n);

		memcpy(name, header(buf, (unsigned)secs[i]), 8);
		name[8] = '\0';
		extend(pcr, name, strlen(name) + 1);
		extend(pcr, data, n);
		free(data);
	}
	memcpy(out[0], pcr, 32);
	for (i = 0; i < 4; i++) {
		extend(pcr, words[i], strlen(words[i]));
		memcpy(out[i + 1], pcr, 32);
	}
}

static void
assert_hex(const uint8_t *p, const char *hex)
{
	char s[65];
	unsigned i;

	assert_non_null(p);
	for (i = 0; i < 32; i++)
		snprintf(s + 2 * i, 3, "%02x", p[i]);
	assert_string_equal(s, hex);
}

static void
test_uki_detects_systemd_stub(void **state)
{
	fx_uki u = { "257.9-1", NULL, NULL, NULL, 0, 0 }, none = { NULL, NULL, NULL, NULL, 0, 0 };
	built b = build_uki(&u), n = build_uki(&none);

	(void)state;
	assert_non_null(b.uki);
	assert_string_equal(sbat_uki_stub_version(b.uki), "257.9-1");
	assert_int_equal(sbat_uki_stub_major(b.uki), 257);
	assert_int_equal(sbat_uki_profile_count(b.uki), 0);
	/* .linux without systemd-stub's .sdmagic is no UKI */
	assert_null(n.uki);
	built_free(&b);
	built_free(&n);
}

static void
assert_measured(const sbat_uki *uki, int profile, const char *const *names)
{
	unsigned i;

	for (i = 0; names[i]; i++)
		assert_string_equal(sbat_uki_measured_name(uki, profile, i), names[i]);
	assert_int_equal(sbat_uki_measured_count(uki, profile), i);
	assert_null(sbat_uki_measured_name(uki, profile, i));
}

/* Which sections count follows the stub's release: 252 has no .uname or .sbat, 254 on has both. */
static void
test_uki_measured_sections_by_release(void **state)
{
	static const char *const old[] = { ".linux", ".osrel", ".cmdline", ".initrd", ".pcrpkey", NULL };
	static const char *const new[] = { ".linux", ".osrel", ".cmdline", ".initrd",
		                           ".uname", ".sbat",  ".pcrpkey", NULL };
	fx_uki u = { "252.39-1~deb12u2", NULL, FX_UKI_PCRPKEY, FX_UKI_PCRSIG, 0, 0 };
	built b = build_uki(&u);

	(void)state;
	assert_measured(b.uki, -1, old);
	built_free(&b);
	u.stub_version = "254.26-1~bpo12+1";
	b = build_uki(&u);
	assert_measured(b.uki, -1, new);
	built_free(&b);
	/* an unreadable version: the newest rules */
	u.stub_version = "v-unknown";
	b = build_uki(&u);
	assert_int_equal(sbat_uki_stub_major(b.uki), 0);
	assert_measured(b.uki, -1, new);
	built_free(&b);
}

/* Known answers: a 252 stub's values as systemd-measure 252 calculate gives them for this fixture. */
static void
test_uki_pcr11_matches_systemd_measure_252(void **state)
{
	fx_uki u = { "252.39-1~deb12u2", NULL, FX_UKI_PCRPKEY, FX_UKI_PCRSIG, 0, 0 };
	built b = build_uki(&u);
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_OK);
	assert_hex(sbat_uki_pcr11(b.uki, -1, 1), "43790fd8629c5c97b52c68f81a3e997c9b531699c5d9921b0293dc7b0ff826a7");
	assert_hex(sbat_uki_pcr11(b.uki, -1, 2), "489f96384c85ca7649160d089d6fe65c6c95fb83945f7a633b65d6df7393bf97");
	assert_hex(sbat_uki_pcr11(b.uki, -1, 3), "84109806b39b6f854b569bc021999fc09569d22a5f0b6cd64fb566ff0b7a8da2");
	assert_hex(sbat_uki_pcr11(b.uki, -1, 4), "f74be4130f58885cbb3e69e1cfaf8c32af1c653952e9b6d570f48391deca9e55");
	assert_string_equal(sbat_uki_phase_name(4), "enter-initrd:leave-initrd:sysinit:ready");
	assert_null(sbat_uki_phase_name(5));
	built_free(&b);
}

/* The chain worked out independently, for a 257 stub (which measures .uname and .sbat). */
static void
test_uki_pcr11_chain_257(void **state)
{
	static const char *const names[] = { ".linux", ".osrel", ".cmdline", ".initrd",
		                             ".uname", ".sbat",  ".pcrpkey", NULL };
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, NULL, 0, 0 };
	built b = build_uki(&u);
	uint8_t want[SBAT_UKI_PHASES][32];
	sbat_diag d;
	unsigned ph;

	(void)state;
	assert_null(sbat_uki_pcr11(b.uki, -1, 0)); /* not before predict */
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_OK);
	expected_pcr11(b.buf, names, want);
	for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
		assert_memory_equal(sbat_uki_pcr11(b.uki, -1, ph), want[ph], 32);
	built_free(&b);
}

/* 257 profiles: the base, overridden by the profile's own range; each profile's values differ. */
static void
test_uki_profiles(void **state)
{
	fx_uki u = { "257.9-1", NULL, NULL, NULL, 0, 3 };
	built b = build_uki(&u);
	sbat_diag d;
	int cmd0 = -1, cmd1 = -1;
	unsigned i;

	(void)state;
	assert_int_equal(sbat_uki_profile_count(b.uki), 3);
	assert_int_equal(sbat_uki_measured_count(b.uki, 1),
	                 7); /* .linux .osrel .cmdline .initrd .uname .sbat .profile */
	for (i = 0; i < sbat_uki_measured_count(b.uki, 0); i++)
		if (strcmp(sbat_uki_measured_name(b.uki, 0, i), ".cmdline") == 0)
			cmd0 = sbat_uki_measured_section(b.uki, 0, i);
	for (i = 0; i < sbat_uki_measured_count(b.uki, 1); i++)
		if (strcmp(sbat_uki_measured_name(b.uki, 1, i), ".cmdline") == 0)
			cmd1 = sbat_uki_measured_section(b.uki, 1, i);
	/* fixture: .text .sbat .sdmagic .osrel .cmdline(4) .uname .linux .initrd, then .profile/.cmdline pairs */
	assert_int_equal(cmd0, 9);
	assert_int_equal(cmd1, 11);
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_OK);
	assert_memory_not_equal(sbat_uki_pcr11(b.uki, 0, 0), sbat_uki_pcr11(b.uki, 1, 0), 32);
	assert_memory_equal(sbat_uki_pcr11(b.uki, -1, 0), sbat_uki_pcr11(b.uki, 0, 0), 32);
	assert_null(sbat_uki_pcr11(b.uki, 3, 0));
	built_free(&b);
	/* a 256 stub knows no profiles: the first .cmdline in the table counts */
	u.stub_version = "256.7-2";
	b = build_uki(&u);
	assert_int_equal(sbat_uki_profile_count(b.uki), 0);
	for (i = 0; i < sbat_uki_measured_count(b.uki, -1); i++)
		if (strcmp(sbat_uki_measured_name(b.uki, -1, i), ".cmdline") == 0)
			assert_int_equal(sbat_uki_measured_section(b.uki, -1, i), 4);
	built_free(&b);
	/* a 252 stub: the last match wins */
	u.stub_version = "252.39-1~deb12u2";
	b = build_uki(&u);
	for (i = 0; i < sbat_uki_measured_count(b.uki, -1); i++)
		if (strcmp(sbat_uki_measured_name(b.uki, -1, i), ".cmdline") == 0)
			assert_int_equal(sbat_uki_measured_section(b.uki, -1, i), 13);
	built_free(&b);
}

/* A measured section past SizeOfImage, or with a huge zero tail, is refused; a small tail is hashed as zeros. */
static void
test_uki_hostile_virtual_size(void **state)
{
	static const char *const names[] = { ".linux", ".osrel", ".cmdline", ".initrd", ".uname", ".sbat", NULL };
	fx_uki u = { "257.9-1", NULL, NULL, NULL, 0, 0 };
	fx_spec spec;
	built b;
	sbat_diag d;
	uint8_t want[SBAT_UKI_PHASES][32];
	unsigned linux_index = 6;

	(void)state;
	fx_uki_spec(&spec, &u);
	assert_string_equal(spec.sections[linux_index].name, ".linux");
	spec.sections[linux_index].virtual_size = 0x3000 + 0x800; /* zeros past the raw data */
	b = build_spec(&spec);
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_OK);
	expected_pcr11(b.buf, names, want);
	assert_memory_equal(sbat_uki_pcr11(b.uki, -1, 0), want[0], 32);
	/* past SizeOfImage */
	fx_put32((uint8_t *)header(b.buf, linux_index) + 8, 0x7fffffff);
	sbat_uki_free(b.uki);
	sbat_image_free(b.img);
	assert_int_equal(sbat_image_parse(b.buf, b.len, &b.img, &d), SBAT_OK);
	assert_int_equal(sbat_uki_inspect(b.img, &b.uki, &d), SBAT_OK);
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_E_UKI);
	assert_int_equal(d.offset, fx_section_table_offset(b.buf) + 40u * linux_index + 8);
	built_free(&b);
	/* inside SizeOfImage but 17 MiB of zeros */
	spec.sections[linux_index].virtual_size = 0x3000 + 17u * 1024 * 1024;
	b = build_spec(&spec);
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_E_UKI);
	assert_non_null(strstr(d.what, "16 MiB"));
	built_free(&b);
}

/* A temporary file holding len bytes of buf, unlinked; its descriptor. */
static int
temp_file(const uint8_t *buf, size_t len)
{
	char path[] = "/tmp/test-uki-digests.XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	return fd;
}

/* sbat_walk_image_digests of b (fd or its buffer) against sbat_uki_predict and sbat_authenticode_hash apart. */
static void
assert_digests_one_pass(built *b, int fd, int profiles)
{
	uint8_t hash[SBAT_AUTHENTICODE_SHA256_SIZE];
	sbat_authenticode *a = NULL;
	sbat_uki *apart = NULL;
	sbat_diag d, ud;
	unsigned ph;
	int p;

	assert_int_equal(sbat_uki_inspect(b->img, &apart, &d), SBAT_OK);
	assert_int_equal(sbat_uki_predict(apart, -1, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_hash(b->img, SBAT_AUTHENTICODE_EDK2, hash, &d), SBAT_OK);
	assert_int_equal(sbat_walk_image_digests(b->img, fd, b->uki, &a, &ud, &d), SBAT_OK);
	assert_int_equal(ud.code, SBAT_OK);
	assert_memory_equal(a->image_hash, hash, sizeof(hash));
	for (p = -1; p < profiles; p++)
		for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
			assert_memory_equal(sbat_uki_pcr11(b->uki, p, ph), sbat_uki_pcr11(apart, p, ph), 32);
	sbat_authenticode_free(a);
	sbat_uki_free(apart);
}

/*
 * One read for both: the Authenticode hash and the PCR 11 prediction of
 * sbat_walk_image_digests are those of the two calls apart, from the file
 * and from the buffer, with each SHA-256 block function; a prediction that
 * fails leaves the signatures read.
 */
static void
test_uki_digests_one_pass(void **state)
{
	static const enum sha256_impl impls[] = { SHA256_IMPL_PORTABLE, SHA256_IMPL_SHANI };
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, FX_UKI_PCRSIG, 0, 0 };
	sbat_authenticode *a = NULL;
	enum sha256_impl mine = sha256_current();
	built b;
	sbat_diag d, ud;
	size_t i;
	int fd;

	(void)state;
	b = build_uki(&u);
	fd = temp_file(b.buf, b.len);
	for (i = 0; i < 2; i++) {
		if (!sha256_select(impls[i]))
			continue;
		assert_digests_one_pass(&b, fd, 0);
		sbat_uki_free(b.uki);
		assert_int_equal(sbat_uki_inspect(b.img, &b.uki, &d), SBAT_OK);
		assert_digests_one_pass(&b, -1, 0);
	}
	assert_true(sha256_select(mine));
	/* a measured section past SizeOfImage: no prediction, the signatures still read */
	fx_put32((uint8_t *)header(b.buf, 6) + 8, 0x7fffffff);
	sbat_uki_free(b.uki);
	sbat_image_free(b.img);
	assert_int_equal(sbat_image_parse(b.buf, b.len, &b.img, &d), SBAT_OK);
	assert_int_equal(sbat_uki_inspect(b.img, &b.uki, &d), SBAT_OK);
	assert_int_equal(sbat_walk_image_digests(b.img, -1, b.uki, &a, &ud, &d), SBAT_OK);
	assert_int_equal(ud.code, SBAT_E_UKI);
	assert_null(sbat_uki_pcr11(b.uki, -1, 0));
	assert_non_null(a);
	sbat_authenticode_free(a);
	close(fd);
	built_free(&b);
}

/* TPM2_PolicyPCR over PCR 11 (SHA-256), a vector worked out by the TPM 2.0 Part 3 formula with Python's hashlib. */
static void
test_uki_policy_digest(void **state)
{
	uint8_t pcr[32], pol[32];

	(void)state;
	memset(pcr, 0, sizeof(pcr));
	sbat_uki_policy_digest(pcr, pol);
	assert_hex(pol, "fd32fa22c52cfc8e1a0c29eb38519f87084cab0b04b0d8f020a4d38b2f4e223e");
}

static void
test_uki_pcrsig_json(void **state)
{
	static const char good[] = "{\"sha256\": [{\"pcrs\": [11], \"pkfp\": \"ab\", \"pol\": \"00ff\", \"sig\": \"x\","
	                           " \"extra\": [1, {\"a\": null}, true]}], \"sha1\": []}\0\0\0";
	static const char *const bad[] = {
		"",
		"[]",
		"{\"sha256\": [",
		"{\"sha256\": {}}",
		"{\"sha256\": [{\"pol\": \"0g\"}]}",
		"{\"sha256\": [{\"pcrs\": [40]}]}",
		"{\"sha256\": []} x",
		"{\"a\": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}",
		"{\"sha256\": [{\"pcrs\": [11], \"pol\": \"00\"",
	};
	uki_pcrsig sig;
	sbat_diag d;
	unsigned i;

	(void)state;
	assert_int_equal(pcrsig_json_parse((const uint8_t *)good, sizeof(good) - 1, &sig, &d), SBAT_OK);
	assert_int_equal(sig.n, 1);
	assert_string_equal(sig.e[0].bank, "sha256");
	assert_int_equal(sig.e[0].pcr_mask, 1u << 11);
	assert_int_equal(sig.e[0].pol_len, 2);
	assert_int_equal(sig.e[0].pol[1], 0xff);
	assert_true(sig.e[0].has_sig && sig.e[0].has_pkfp);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint8_t *copy = dup_exact(bad[i], strlen(bad[i]));

		assert_int_equal(pcrsig_json_parse(copy, strlen(bad[i]), &sig, &d), SBAT_E_UKI);
		assert_true(d.offset <= strlen(bad[i]));
		free(copy);
	}
}

/* Put the policy of the PCR 11 value pcr into a fixture's .pcrsig, in place of its nth policy digest. */
static void
sign_nth(built *b, unsigned nth, const uint8_t pcr[32])
{
	uint8_t pol[32];
	char *at = NULL;
	size_t i;
	unsigned k;

	sbat_uki_policy_digest(pcr, pol);
	for (i = 0; i + 64 <= b->len && !at; i++)
		if (memcmp(b->buf + i, "\"pol\":\"", 7) == 0 && nth-- == 0)
			at = (char *)b->buf + i + 7;
	assert_non_null(at);
	for (k = 0; k < 32; k++) {
		char two[3];

		snprintf(two, sizeof(two), "%02x", pol[k]);
		memcpy(at + 2 * k, two, 2);
	}
}

/* Put the real policy of the stub's enter-initrd value into a fixture's .pcrsig (its zeros placeholder). */
/* The same in place of the first. */
static void
sign_value(built *b, const uint8_t pcr[32])
{
	sign_nth(b, 0, pcr);
}

static void
sign_fixture(built *b)
{
	sbat_diag d;

	assert_int_equal(sbat_uki_predict(b->uki, -1, &d), SBAT_OK);
	sign_value(b, sbat_uki_pcr11(b->uki, -1, 1));
}

typedef struct rules {
	unsigned n;
	char rule[16][40];
} rules;

static int
collect(void *ctx, const sbat_lint_finding *f)
{
	rules *r = ctx;

	if (r->n < 16)
		snprintf(r->rule[r->n++], sizeof(r->rule[0]), "%s", f->rule);
	return 0;
}

static int
has_rule(const sbat_image *img, const char *rule)
{
	rules r;
	unsigned i;

	memset(&r, 0, sizeof(r));
	sbat_lint(img, collect, &r, NULL);
	for (i = 0; i < r.n; i++)
		if (strcmp(r.rule[i], rule) == 0)
			return 1;
	return 0;
}

static void
test_uki_lint_pcrsig(void **state)
{
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, FX_UKI_PCRSIG, 0, 0 };
	built b = build_uki(&u);

	(void)state;
	assert_true(has_rule(b.img, "uki-pcrsig-stale"));
	sign_fixture(&b);
	assert_false(has_rule(b.img, "uki-pcrsig-stale"));
	assert_false(has_rule(b.img, "uki-pcrsig-without-pcrpkey"));
	built_free(&b);
	u.pcrpkey = NULL;
	u.pcrsig = "{\"sha256\": [{\"pcrs\": [11], \"pol\": \"00\"";
	b = build_uki(&u);
	assert_true(has_rule(b.img, "uki-pcrsig-without-pcrpkey"));
	assert_true(has_rule(b.img, "uki-pcrsig-malformed"));
	built_free(&b);
	u.pcrsig = "{\"sha256\": [{\"pcrs\": [7], \"pol\": \"00\"}]}";
	b = build_uki(&u);
	assert_true(has_rule(b.img, "uki-pcrsig-no-pcr11"));
	built_free(&b);
}

static void
add_text(fx_spec *spec, const char *name, const char *text)
{
	fx_section *s = &spec->sections[spec->n_sections++];

	memset(s, 0, sizeof(*s));
	s->name = name;
	s->content = text;
	s->raw_size = s->virtual_size = (uint32_t)strlen(text);
}

/* A UKI with what the machine selects: see fx_uki_machine (without hwids, that section has another name). */
static built
build_machine_uki(const char *version, int hwids)
{
	fx_spec spec;

	fx_uki_machine(&spec, version, hwids);
	return build_spec(&spec);
}

/* The values of the boot in which the machine selects .dtbauto dt and .efifw fw (-1: none). */
static void
machine_expected(const built *b, int hwids, int dt, int fw, uint8_t want[SBAT_UKI_PHASES][32])
{
	int secs[12] = { 8, 4, 5, 9, 6, 1, 7 };
	unsigned n = 7;

	if (dt >= 0)
		secs[n++] = dt;
	if (hwids)
		secs[n++] = 10;
	if (fw >= 0)
		secs[n++] = fw;
	secs[n] = -1;
	expected_pcr11_of(b->buf, secs, want);
}

/*
 * systemd-stub measures a .dtbauto or an .efifw only when the machine
 * selects it, .hwids always: neither is in the sections measured on every
 * machine, and a .pcrsig that signs any boot the machine may make is not
 * stale.
 */
static void
test_uki_machine_selected_sections(void **state)
{
	static const char *const ordered[] = { ".linux", ".osrel",   ".cmdline", ".initrd", ".uname",
		                               ".sbat",  ".pcrpkey", ".hwids",   NULL };
	built b = build_machine_uki("262.1-1", 1);
	uint8_t want[SBAT_UKI_PHASES][32];

	(void)state;
	assert_measured(b.uki, -1, ordered);
	/* signed for the boot in which the machine selects nothing */
	machine_expected(&b, 1, -1, -1, want);
	sign_value(&b, want[1]);
	assert_false(has_rule(b.img, "uki-pcrsig-stale"));
	/* for the one in which it selects the second .dtbauto and the .efifw */
	machine_expected(&b, 1, 12, 13, want);
	sign_value(&b, want[4]);
	assert_false(has_rule(b.img, "uki-pcrsig-stale"));
	/* for the first .dtbauto alone */
	machine_expected(&b, 1, 11, -1, want);
	sign_value(&b, want[2]);
	assert_false(has_rule(b.img, "uki-pcrsig-stale"));
	/* without .hwids no device is found: an .efifw is never selected */
	built_free(&b);
	b = build_machine_uki("262.1-1", 0);
	machine_expected(&b, 0, 11, 13, want);
	sign_value(&b, want[1]);
	assert_true(has_rule(b.img, "uki-pcrsig-stale"));
	machine_expected(&b, 0, 11, -1, want);
	sign_value(&b, want[1]);
	assert_false(has_rule(b.img, "uki-pcrsig-stale"));
	/* a value no boot gives is stale */
	memset(want[1], 0x5a, 32);
	sign_value(&b, want[1]);
	assert_true(has_rule(b.img, "uki-pcrsig-stale"));
	built_free(&b);
}

/* Each alternative's values, worked out here from the sections it names; each combination once. */
static void
assert_alternatives(const built *b, int hwids, unsigned n_dtb, unsigned n_fw)
{
	uint8_t want[SBAT_UKI_PHASES][32];
	unsigned a, ph, seen[3][2];
	sbat_diag d;

	memset(seen, 0, sizeof(seen));
	assert_int_equal(sbat_uki_predict(b->uki, -1, &d), SBAT_OK);
	assert_int_equal(sbat_uki_pcr11_alternatives(b->uki, -1), (n_dtb + 1) * (n_fw + 1));
	for (a = 0; a < sbat_uki_pcr11_alternatives(b->uki, -1); a++) {
		int dt = sbat_uki_alternative_section(b->uki, -1, a, ".dtbauto");
		int fw = sbat_uki_alternative_section(b->uki, -1, a, ".efifw");

		assert_true(dt == -1 || (dt >= 11 && dt < 11 + (int)n_dtb));
		assert_true(fw == -1 || (n_fw && fw == 13));
		seen[dt < 0 ? 0 : dt - 10][fw < 0 ? 0 : 1]++;
		machine_expected(b, hwids, dt, fw, want);
		for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
			assert_memory_equal(sbat_uki_pcr11_alternative(b->uki, -1, a, ph), want[ph], 32);
	}
	for (a = 0; a < (n_dtb + 1) * 2; a++)
		assert_int_equal(seen[a / 2][a % 2], a / 2 <= n_dtb && a % 2 <= n_fw ? 1 : 0);
	/* alternative 0: the machine selects nothing */
	assert_int_equal(sbat_uki_alternative_section(b->uki, -1, 0, ".dtbauto"), -1);
	assert_int_equal(sbat_uki_alternative_section(b->uki, -1, 0, ".efifw"), -1);
	assert_null(sbat_uki_pcr11_alternative(b->uki, -1, (n_dtb + 1) * (n_fw + 1), 0));
	assert_int_equal(sbat_uki_alternative_section(b->uki, -1, 0, ".hwids"), -1);
}

/*
 * Where the machine selects, there is no single PCR 11 value: one per
 * combination of none or one .dtbauto and none or one .efifw.
 */
static void
test_uki_pcr11_alternatives(void **state)
{
	built b = build_machine_uki("262.1-1", 1);
	sbat_diag d;
	unsigned ph;

	(void)state;
	assert_int_equal(sbat_uki_pcr11_alternatives(b.uki, -1), 6);
	assert_null(sbat_uki_pcr11_alternative(b.uki, -1, 0, 0)); /* not before predict */
	assert_alternatives(&b, 1, 2, 1);
	assert_null(sbat_uki_pcr11(b.uki, -1, 0));
	assert_int_equal(sbat_uki_pcr11_alternatives(b.uki, 1), 0);
	built_free(&b);
	/* no .hwids: no .efifw */
	b = build_machine_uki("262.1-1", 0);
	assert_alternatives(&b, 0, 2, 0);
	built_free(&b);
	/* a 257 stub knows .dtbauto, not .efifw */
	b = build_machine_uki("257.9-1", 1);
	assert_alternatives(&b, 1, 2, 0);
	built_free(&b);
	/* a 256 stub knows neither (nor .hwids): one value */
	b = build_machine_uki("256.7-2", 1);
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_OK);
	assert_int_equal(sbat_uki_pcr11_alternatives(b.uki, -1), 1);
	for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
		assert_ptr_equal(sbat_uki_pcr11(b.uki, -1, ph), sbat_uki_pcr11_alternative(b.uki, -1, 0, ph));
	built_free(&b);
}

/* The alternatives of profile: each combination once, naming only sections in dts and fws (-1 ends each). */
static void
assert_only(const built *b, int profile, const int *dts, const int *fws)
{
	unsigned a, n = sbat_uki_pcr11_alternatives(b->uki, profile), i, j, want = 0, seen[8][8];

	memset(seen, 0, sizeof(seen));
	for (a = 0; a < n; a++) {
		int dt = sbat_uki_alternative_section(b->uki, profile, a, ".dtbauto");
		int fw = sbat_uki_alternative_section(b->uki, profile, a, ".efifw");

		for (i = 0; dts[i] != dt; i++)
			assert_int_not_equal(dts[i], -2); /* a .dtbauto the stub never selects */
		for (j = 0; fws[j] != fw; j++)
			assert_int_not_equal(fws[j], -2); /* an .efifw the stub never selects */
		seen[i][j]++;
	}
	for (i = 0; dts[i] != -2; i++)
		for (j = 0; fws[j] != -2; j++, want++)
			assert_int_equal(seen[i][j], 1);
	assert_int_equal(n, want);
}

/*
 * Only what systemd-stub can select counts: the first .dtbauto of each
 * compatible that is a device tree, and the first .efifw of each firmware
 * id that an .hwids firmware entry of its own range names (a profile's
 * .efifw needs a .hwids in that profile; ukify copies none there).
 */
static void
test_uki_alternatives_the_stub_can_select(void **state)
{
	static const int dts[] = { -1, 11, 12, -2 }, fws[] = { -1, 13, -2 };
	uint8_t dup_dt[128], fw_c[128], dup_fw[128];
	fx_spec spec;
	built b;

	(void)state;
	fx_uki_machine(&spec, "262.1-1", 1);
	fx_uki_add(&spec, ".dtbauto", dup_dt, fx_dtb("vendor,board-a", dup_dt, sizeof(dup_dt)));            /* 14 */
	add_text(&spec, ".dtbauto", "not a device tree");                                                   /* 15 */
	fx_uki_add(&spec, ".efifw", fw_c, fx_efifw("vendor-fw-c", "payload C", fw_c, sizeof(fw_c)));        /* 16 */
	fx_uki_add(&spec, ".efifw", dup_fw, fx_efifw("vendor-fw-b", "payload B2", dup_fw, sizeof(dup_fw))); /* 17 */
	b = build_spec(&spec);
	assert_only(&b, -1, dts, fws);
	built_free(&b);

	/* a profile with an .efifw of its own and no .hwids: the base's .efifw only */
	fx_uki_machine(&spec, "262.1-1", 1);
	add_text(&spec, ".profile", "ID=fw\n");                                                             /* 14 */
	fx_uki_add(&spec, ".efifw", dup_fw, fx_efifw("vendor-fw-b", "payload B2", dup_fw, sizeof(dup_fw))); /* 15 */
	b = build_spec(&spec);
	assert_only(&b, 0, dts, fws);
	built_free(&b);
}

/* The alternative of the default boot that selects .dtbauto dt and .efifw fw (-1: none). */
static unsigned
alt_of(const built *b, int dt, int fw)
{
	unsigned a;

	for (a = 0; a < sbat_uki_pcr11_alternatives(b->uki, -1); a++)
		if (sbat_uki_alternative_section(b->uki, -1, a, ".dtbauto") == dt &&
		    sbat_uki_alternative_section(b->uki, -1, a, ".efifw") == fw)
			return a;
	fail_msg("no alternative selects %d and %d", dt, fw);
	return 0;
}

#define PCRSIG_ENTRY "{\"pcrs\":[11],\"pkfp\":\"00\",\"pol\":\"" FX_ZEROS64 "\",\"sig\":\"AA==\"}"
#define FX_ZEROS64 "0000000000000000000000000000000000000000000000000000000000000000"

/*
 * ukify 262 signs the boots without .efifw only, systemd-stub 262 measures
 * the .efifw that a firmware entry of .hwids selects: each alternative
 * says whether .pcrsig signs it and which .hwids entry selects its
 * sections, and --lint warns of a selecting alternative left unsigned.
 */
static void
test_uki_pcrsig_covers_alternatives(void **state)
{
	static const int dts[] = { -1, 11, 12 };
	fx_spec spec;
	built b;
	sbat_diag d;
	unsigned i, a;

	(void)state;
	fx_uki_machine(&spec, "262.1-1", 1);
	spec.sections[fx_spec_find_section(&spec, ".pcrsig")].content = "{\"sha256\":[" PCRSIG_ENTRY "," PCRSIG_ENTRY
	                                                                "," PCRSIG_ENTRY "," PCRSIG_ENTRY
	                                                                "," PCRSIG_ENTRY "," PCRSIG_ENTRY "]}";
	spec.sections[fx_spec_find_section(&spec, ".pcrsig")].raw_size =
	    spec.sections[fx_spec_find_section(&spec, ".pcrsig")].virtual_size = (uint32_t)strlen(
	        spec.sections[fx_spec_find_section(&spec, ".pcrsig")].content);
	spec.sections[fx_spec_find_section(&spec, ".pcrsig")].content_len = 0;
	b = build_spec(&spec);
	assert_int_equal(sbat_uki_alternative_signed(b.uki, -1, 0), -1); /* not before predict */
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_OK);
	/* as ukify 262 signs it: each .dtbauto alone, no .efifw */
	for (i = 1; i < 3; i++)
		sign_nth(&b, i - 1, sbat_uki_pcr11_alternative(b.uki, -1, alt_of(&b, dts[i], -1), 1));
	assert_false(has_rule(b.img, "uki-pcrsig-stale"));
	assert_true(has_rule(b.img, "uki-pcrsig-uncovered"));
	sbat_uki_free(b.uki);
	assert_int_equal(sbat_uki_inspect(b.img, &b.uki, &d), SBAT_OK);
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_OK);
	assert_int_equal(sbat_uki_alternative_signed(b.uki, -1, alt_of(&b, 11, -1)), 1);
	assert_int_equal(sbat_uki_alternative_signed(b.uki, -1, alt_of(&b, 11, 13)), 0);
	assert_int_equal(sbat_uki_alternative_signed(b.uki, -1, alt_of(&b, -1, -1)), 0);
	assert_string_equal(sbat_uki_alternative_hwid(b.uki, -1, alt_of(&b, 11, 13), ".efifw"), "Firmware B");
	assert_string_equal(sbat_uki_alternative_hwid(b.uki, -1, alt_of(&b, 11, 13), ".dtbauto"), "Board A");
	assert_string_equal(sbat_uki_alternative_hwid(b.uki, -1, alt_of(&b, 12, -1), ".dtbauto"), "Board B");
	assert_null(sbat_uki_alternative_hwid(b.uki, -1, alt_of(&b, 12, -1), ".efifw"));
	/* every boot in which the machine selects a section signed: nothing uncovered */
	for (i = 0; i < 3; i++)
		sign_nth(&b, 2 + i, sbat_uki_pcr11_alternative(b.uki, -1, alt_of(&b, dts[i], 13), 1));
	assert_false(has_rule(b.img, "uki-pcrsig-uncovered"));
	for (a = 0; a < sbat_uki_pcr11_alternatives(b.uki, -1); a++)
		assert_int_equal(sbat_uki_alternative_signed(b.uki, -1, a), a == alt_of(&b, -1, -1) ? 0 : 1);
	built_free(&b);
}

#define STUB_ROWS                                                                                                      \
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"                                \
	"systemd-stub,1,The systemd Developers,systemd,262,https://systemd.io/\n"                                      \
	"systemd-stub.debian,1,Debian,systemd,262.1-1,https://tracker.debian.org/pkg/systemd\n"                        \
	"uki,1,UKI,uki,1,https://uapi-group.org/specifications/specs/unified_kernel_image/\n"
#define NO_STUB_ROWS                                                                                                   \
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"                                \
	"uki,1,UKI,uki,1,https://uapi-group.org/specifications/specs/unified_kernel_image/\n"

/* Whether --lint finds systemd-stub's rows missing in a UKI with this base .sbat and, unless NULL, a profile's. */
static int
stub_rows_missing(const char *base, const char *profile_sbat)
{
	fx_uki u = { "262.1-1", NULL, NULL, NULL, 0, 1 };
	fx_spec spec;
	built b;
	int r;

	u.sbat = base;
	fx_uki_spec(&spec, &u);
	if (profile_sbat)
		add_text(&spec, ".sbat", profile_sbat);
	b = build_spec(&spec);
	r = has_rule(b.img, "uki-sbat-stub-rows");
	built_free(&b);
	return r;
}

/*
 * The stub's own rows (systemd-stub and systemd-stub.VENDOR) belong in
 * every .sbat of a UKI: ukify 262 copies a profile's .sbat when it joins
 * profiles, and the stub takes it in place of the base's.
 */
static void
test_uki_lint_stub_rows(void **state)
{
	(void)state;
	assert_false(stub_rows_missing(STUB_ROWS, NULL));
	assert_true(stub_rows_missing(NO_STUB_ROWS, NULL));
	assert_true(stub_rows_missing(STUB_ROWS, NO_STUB_ROWS));
	/* the vendor row counts too */
	assert_true(stub_rows_missing(STUB_ROWS, "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/"
	                                         "SBAT.md\nsystemd-stub,1,The systemd Developers,systemd,262,https://"
	                                         "systemd.io/\n"));
	assert_false(stub_rows_missing(STUB_ROWS, STUB_ROWS));
}

static void
test_uki_lint_sbat_and_profile(void **state)
{
	fx_uki u = { "257.9-1",
		     "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
		     "uki,1,UKI,uki,1,https://example.invalid/\n"
		     "systemd-stub,1,The systemd Developers,systemd,257,https://systemd.io/\n",
		     NULL,
		     NULL,
		     0,
		     0 };
	built b = build_uki(&u);

	(void)state;
	assert_true(has_rule(b.img, "uki-sbat-order"));
	assert_false(has_rule(b.img, "uki-sbat-whitespace"));
	built_free(&b);
	u.sbat = FX_UKI_SBAT "\0\0\0uki,1,UKI,uki,1,https://example.invalid/\n";
	{
		fx_spec spec;

		fx_uki_spec(&spec, &u);
		spec.sections[1].content_len = sizeof(FX_UKI_SBAT "\0\0\0uki,1,UKI,uki,1,https://example.invalid/\n") -
		                               1;
		b = build_spec(&spec);
	}
	assert_true(has_rule(b.img, "uki-sbat-nul-inside"));
	assert_false(has_rule(b.img, "uki-sbat-order"));
	built_free(&b);
	u.sbat = FX_UKI_SBAT "uki,1,UKI,uki,1,https://example.invalid/ \r\n";
	b = build_uki(&u);
	assert_true(has_rule(b.img, "uki-sbat-whitespace"));
	built_free(&b);
	/* the fixture's own UKIs are clean, profiles and all */
	u.sbat = NULL;
	u.n_profiles = 2;
	b = build_uki(&u);
	assert_false(has_rule(b.img, "uki-profile-malformed"));
	assert_false(has_rule(b.img, "uki-sbat-order"));
	built_free(&b);
}

static sbat_err
edit_mode(const built *b, int mode, uint8_t **out, size_t *out_len, sbat_edit_report *r, sbat_diag *d)
{
	sbat_edit_opts o = SBAT_EDIT_OPTS_INIT;

	o.pcrsig = mode;
	return sbat_edit(b->img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &o, out, out_len, r, d);
}

/* A 257 stub measures .sbat: the edit is refused on a signed UKI; keep and drop go ahead. */
static void
test_uki_edit_refused_and_opt_ins(void **state)
{
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, FX_UKI_PCRSIG, 0, 0 };
	built b = build_uki(&u), o;
	sbat_edit_report r;
	sbat_diag d;
	uint8_t *out = NULL;
	size_t out_len;

	(void)state;
	assert_int_equal(edit_mode(&b, SBAT_PCRSIG_REFUSE, &out, &out_len, &r, &d), SBAT_E_PCRSIG);
	assert_string_equal(d.other_name, ".sbat");
	assert_int_equal(d.other_index, 1);
	assert_int_equal(d.offset, fx_section_table_offset(b.buf) + 40);
	assert_int_equal(edit_mode(&b, SBAT_PCRSIG_KEEP, &out, &out_len, &r, &d), SBAT_OK);
	assert_true(r.uki & SBAT_EDIT_PCRSIG_KEPT);
	assert_true(r.uki & SBAT_EDIT_PCR11_CHANGED);
	free(out);
	assert_int_equal(edit_mode(&b, SBAT_PCRSIG_DROP, &out, &out_len, &r, &d), SBAT_OK);
	assert_true(r.uki & SBAT_EDIT_PCRSIG_REMOVED);
	assert_int_equal(out_len, b.len - 0x200); /* the last section and its 0x200 bytes are gone */
	assert_int_equal(sbat_image_parse(out, out_len, &o.img, &d), SBAT_OK);
	assert_int_equal(sbat_image_find_section(o.img, ".pcrsig"), -1);
	assert_int_equal(sbat_image_get_info(o.img)->number_of_sections, n_sections(b.buf) - 1);
	sbat_image_free(o.img);
	free(out);
	built_free(&b);
}

/* Not the last section: --pcrsig=drop renames it and zeroes its data in place. */
static void
test_uki_edit_drop_retires_mid_pcrsig(void **state)
{
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, FX_UKI_PCRSIG, 1, 0 };
	built b = build_uki(&u);
	sbat_edit_report r;
	sbat_diag d;
	sbat_image *img;
	uint8_t *out = NULL;
	size_t out_len;
	int i;

	(void)state;
	assert_int_equal(edit_mode(&b, SBAT_PCRSIG_DROP, &out, &out_len, &r, &d), SBAT_OK);
	assert_true(r.uki & SBAT_EDIT_PCRSIG_RETIRED);
	assert_int_equal(out_len, b.len);
	assert_int_equal(sbat_image_parse(out, out_len, &img, &d), SBAT_OK);
	i = sbat_image_find_section(img, SBAT_RETIRED_PCRSIG_NAME);
	assert_int_equal(i, 3);
	assert_int_equal(sbat_image_find_section(img, ".pcrsig"), -1);
	assert_true(out[sbat_image_section(img, 3)->pointer_to_raw_data] == 0);
	sbat_image_free(img);
	free(out);
	built_free(&b);
}

/* A 252 stub does not measure .sbat: not refused, .pcrsig stays. */
static void
test_uki_edit_252_not_refused(void **state)
{
	fx_uki u = { "252.39-1~deb12u2", NULL, FX_UKI_PCRPKEY, FX_UKI_PCRSIG, 0, 0 };
	built b = build_uki(&u);
	sbat_edit_report r;
	sbat_diag d;
	uint8_t *out = NULL;
	size_t out_len;

	(void)state;
	assert_int_equal(edit_mode(&b, SBAT_PCRSIG_REFUSE, &out, &out_len, &r, &d), SBAT_OK);
	assert_true(r.uki & SBAT_EDIT_UKI);
	assert_true(r.uki & SBAT_EDIT_HAS_PCRSIG);
	assert_false(r.uki & SBAT_EDIT_PCR11_CHANGED);
	assert_int_equal(r.pcrsig_index, 9);
	free(out);
	/* even drop keeps a .pcrsig that stays valid */
	assert_int_equal(edit_mode(&b, SBAT_PCRSIG_DROP, &out, &out_len, &r, &d), SBAT_OK);
	assert_false(r.uki & (SBAT_EDIT_PCRSIG_REMOVED | SBAT_EDIT_PCRSIG_RETIRED));
	free(out);
	built_free(&b);
}

/* The prediction for an edit equals what the edited image, inspected afterwards, gives. */
static void
test_uki_edit_prediction_matches_result(void **state)
{
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, NULL, 0, 2 };
	built b = build_uki(&u), o;
	sbat_uki *after = NULL;
	sbat_edit_opts opts = SBAT_EDIT_OPTS_INIT;
	sbat_edit_report r;
	sbat_diag d;
	unsigned p, ph;

	(void)state;
	opts.relocate = 1;
	assert_int_equal(sbat_edit_predict_uki(b.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &opts, &after, &d),
	                 SBAT_OK);
	assert_non_null(after);
	assert_int_equal(sbat_uki_predict(after, -1, &d), SBAT_OK);
	memset(&o, 0, sizeof(o));
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &opts, &o.buf, &o.len, &r, &d),
	                 SBAT_OK);
	assert_true(r.uki & SBAT_EDIT_PCR11_CHANGED);
	assert_int_equal(sbat_image_parse(o.buf, o.len, &o.img, &d), SBAT_OK);
	assert_int_equal(sbat_uki_inspect(o.img, &o.uki, &d), SBAT_OK);
	assert_int_equal(sbat_uki_predict(o.uki, -1, &d), SBAT_OK);
	for (p = 0; p < 2; p++)
		for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
			assert_memory_equal(sbat_uki_pcr11(after, (int)p, ph), sbat_uki_pcr11(o.uki, (int)p, ph), 32);
	sbat_uki_free(after);
	built_free(&o);
	built_free(&b);
}

/* The same for a UKI with .dtbauto and .efifw: every alternative, each naming the same sections. */
static void
test_uki_edit_prediction_alternatives(void **state)
{
	built b = build_machine_uki("262.1-1", 1), o;
	sbat_uki *after = NULL;
	sbat_edit_opts opts = SBAT_EDIT_OPTS_INIT;
	sbat_edit_report r;
	sbat_diag d;
	unsigned a, ph;

	(void)state;
	opts.pcrsig = SBAT_PCRSIG_KEEP;
	assert_int_equal(sbat_edit_predict_uki(b.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &opts, &after, &d),
	                 SBAT_OK);
	assert_int_equal(sbat_uki_predict(after, -1, &d), SBAT_OK);
	memset(&o, 0, sizeof(o));
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &opts, &o.buf, &o.len, &r, &d),
	                 SBAT_OK);
	assert_true(r.uki & SBAT_EDIT_PCRSIG_KEPT);
	assert_int_equal(sbat_image_parse(o.buf, o.len, &o.img, &d), SBAT_OK);
	assert_int_equal(sbat_uki_inspect(o.img, &o.uki, &d), SBAT_OK);
	assert_int_equal(sbat_uki_predict(o.uki, -1, &d), SBAT_OK);
	assert_int_equal(sbat_uki_pcr11_alternatives(after, -1), 6);
	assert_int_equal(sbat_uki_pcr11_alternatives(o.uki, -1), 6);
	for (a = 0; a < 6; a++) {
		assert_int_equal(sbat_uki_alternative_section(after, -1, a, ".dtbauto"),
		                 sbat_uki_alternative_section(o.uki, -1, a, ".dtbauto"));
		assert_int_equal(sbat_uki_alternative_section(after, -1, a, ".efifw"),
		                 sbat_uki_alternative_section(o.uki, -1, a, ".efifw"));
		for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
			assert_memory_equal(sbat_uki_pcr11_alternative(after, -1, a, ph),
			                    sbat_uki_pcr11_alternative(o.uki, -1, a, ph), 32);
	}
	sbat_uki_free(after);
	built_free(&o);
	built_free(&b);
}

/* A CSV larger than the fixture stub's 0x200-byte .sbat: replacing it needs --relocate. */
static char *
big_csv(size_t *ret_len)
{
	char *csv = malloc(4096);
	size_t n;
	unsigned i;

	assert_non_null(csv);
	n = (size_t)snprintf(csv, 4096, "%s", NEW_CSV);
	for (i = 0; i < 8; i++)
		n += (size_t)snprintf(csv + n, 4096 - n,
		                      "comp%u,1,Component %u,comp%u,1.%u,https://example.invalid/c%u\n", i, i, i, i, i);
	assert_true(n > 0x200);
	*ret_len = n;
	return csv;
}

/*
 * The output of a drop edit of a ukify-shaped UKI (.pcrsig last): one .sbat,
 * last, whose header took the removed .pcrsig's slot; no .pcrsig; it parses
 * and holds csv.
 */
static void
assert_dropped_and_appended(const built *in, const uint8_t *out, size_t out_len, const char *csv, size_t csv_len,
                            unsigned want_sections)
{
	unsigned last = n_sections(in->buf) - 1u;
	const uint8_t *data;
	size_t data_len;
	sbat_image *img;
	sbat_diag d;

	assert_string_equal(sbat_image_section(in->img, last)->name, ".pcrsig");
	assert_int_equal(sbat_image_parse(out, out_len, &img, &d), SBAT_OK);
	assert_int_equal(sbat_image_find_section(img, ".pcrsig"), -1);
	assert_int_equal(sbat_image_get_info(img)->number_of_sections, want_sections);
	assert_int_equal(sbat_image_find_section(img, ".sbat"), (int)want_sections - 1);
	assert_int_equal(sbat_image_section(img, want_sections - 1)->header_offset,
	                 sbat_image_section(in->img, last)->header_offset);
	assert_int_equal(sbat_image_sbat_data(img, &data, &data_len, &d), SBAT_OK);
	assert_int_equal(data_len, csv_len);
	assert_memory_equal(data, csv, csv_len);
	sbat_image_free(img);
}

/*
 * ukify's layout, .pcrsig last: --pcrsig=drop --relocate takes .pcrsig out
 * and appends the new .sbat in one edit, its header in .pcrsig's slot; so
 * does an insert into a UKI without .sbat.
 */
static void
test_uki_edit_drop_and_relocate(void **state)
{
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, FX_UKI_PCRSIG, 0, 0 };
	built b = build_uki(&u);
	sbat_edit_opts o = SBAT_EDIT_OPTS_INIT;
	sbat_edit_report r;
	sbat_diag d;
	uint8_t *out = NULL;
	size_t out_len, csv_len;
	char *csv = big_csv(&csv_len);
	fx_spec spec;

	(void)state;
	o.pcrsig = SBAT_PCRSIG_DROP;
	o.relocate = 1;
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)csv, csv_len, &o, &out, &out_len, &r, &d), SBAT_OK);
	assert_int_equal(r.action, SBAT_ACTION_RELOCATE);
	assert_int_equal(r.retired_index, 1);
	assert_true(r.uki & SBAT_EDIT_PCRSIG_REMOVED);
	assert_dropped_and_appended(&b, out, out_len, csv, csv_len, n_sections(b.buf));
	free(out);
	built_free(&b);
	/* no .sbat at all: the new one is inserted where .pcrsig was */
	fx_uki_spec(&spec, &u);
	assert_string_equal(spec.sections[1].name, ".sbat");
	memmove(&spec.sections[1], &spec.sections[2], (spec.n_sections - 2) * sizeof(spec.sections[0]));
	spec.n_sections--;
	b = build_spec(&spec);
	o.relocate = 0;
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)csv, csv_len, &o, &out, &out_len, &r, &d), SBAT_OK);
	assert_int_equal(r.action, SBAT_ACTION_INSERT);
	assert_true(r.uki & SBAT_EDIT_PCRSIG_REMOVED);
	assert_dropped_and_appended(&b, out, out_len, csv, csv_len, n_sections(b.buf));
	free(out);
	built_free(&b);
	free(csv);
}

/* spec's section i moved to the end of the table (and of the file and memory). */
static void
move_to_end(fx_spec *spec, unsigned i)
{
	fx_section s = spec->sections[i];

	memmove(&spec->sections[i], &spec->sections[i + 1], (spec->n_sections - i - 1) * sizeof(spec->sections[0]));
	spec->sections[spec->n_sections - 1] = s;
}

/* A new .sbat in a multi-profile UKI is refused, naming the first .profile, before which ukify puts it. */
static void
assert_refused_in_profile(const built *b, const char *csv, size_t csv_len, int relocate)
{
	sbat_edit_opts o = SBAT_EDIT_OPTS_INIT;
	int first = sbat_image_find_section(b->img, ".profile");
	sbat_uki *after = NULL;
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;

	assert_true(first > 0);
	o.relocate = relocate;
	assert_int_equal(sbat_edit(b->img, (const uint8_t *)csv, csv_len, &o, &out, &out_len, NULL, &d),
	                 SBAT_E_NO_HEADER_ROOM);
	assert_null(out);
	assert_string_equal(d.other_name, ".profile");
	assert_int_equal(d.other_index, first);
	assert_int_equal(d.offset, sbat_image_section(b->img, (unsigned)first)->header_offset);
	assert_non_null(strstr(d.what, "profile"));
	assert_int_equal(sbat_edit_predict_uki(b->img, (const uint8_t *)csv, csv_len, &o, &after, &d),
	                 SBAT_E_NO_HEADER_ROOM);
	assert_null(after);
}

/*
 * 257+ stubs give the sections after a .profile to that profile: a new or
 * moved .sbat, appended after the last one, is refused (a zeroed .oldsbat
 * before the first .profile is reused: test_uki_sbat_back_in_base); an edit in place,
 * or one for a stub without profiles, is not. --lint reports a .sbat that
 * belongs to a profile.
 */
static void
test_uki_sbat_in_profile(void **state)
{
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, NULL, 0, 2 };
	built b = build_uki(&u);
	sbat_edit_opts o = SBAT_EDIT_OPTS_INIT;
	uint8_t *out = NULL;
	size_t out_len, csv_len;
	char *csv = big_csv(&csv_len);
	sbat_diag d;
	fx_spec spec;

	(void)state;
	/* too large for its place: --relocate would append it, so the refusal names the first .profile */
	o.relocate = 1;
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)csv, csv_len, &o, &out, &out_len, NULL, &d),
	                 SBAT_E_SBAT_NO_ROOM);
	assert_null(out);
	assert_string_equal(d.other_name, ".profile");
	o.relocate = 0;
	/* in place: .sbat stays where ukify put it */
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &o, &out, &out_len, NULL, &d),
	                 SBAT_OK);
	free(out);
	assert_false(has_rule(b.img, "uki-sbat-in-profile"));
	built_free(&b);
	/* no .sbat: an insert is refused alike */
	fx_uki_spec(&spec, &u);
	memmove(&spec.sections[1], &spec.sections[2], (spec.n_sections - 2) * sizeof(spec.sections[0]));
	spec.n_sections--;
	b = build_spec(&spec);
	assert_refused_in_profile(&b, csv, csv_len, 0);
	built_free(&b);
	/* .sbat in the last profile's range */
	fx_uki_spec(&spec, &u);
	move_to_end(&spec, 1);
	b = build_spec(&spec);
	assert_true(has_rule(b.img, "uki-sbat-in-profile"));
	built_free(&b);
	/* a 256 stub boots no profiles: every boot measures the new .sbat */
	u.stub_version = "256.7-2";
	b = build_uki(&u);
	o.relocate = 1;
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)csv, csv_len, &o, &out, &out_len, NULL, &d), SBAT_OK);
	free(out);
	built_free(&b);
	free(csv);
}

/* A UKI image from an edit's output: parsed, inspected and predicted. */
static built
built_from(uint8_t *buf, size_t len)
{
	built b;
	sbat_diag d;

	memset(&b, 0, sizeof(b));
	b.buf = buf;
	b.len = len;
	assert_int_equal(sbat_image_parse(b.buf, b.len, &b.img, &d), SBAT_OK);
	assert_int_equal(sbat_uki_inspect(b.img, &b.uki, &d), SBAT_OK);
	assert_int_equal(sbat_uki_predict(b.uki, -1, &d), SBAT_OK);
	return b;
}

/* 1 if profile `profile` of uki measures section `index` under `name`. */
static int
measures(const sbat_uki *uki, int profile, const char *name, int index)
{
	unsigned i;

	for (i = 0; i < sbat_uki_measured_count(uki, profile); i++)
		if (strcmp(sbat_uki_measured_name(uki, profile, i), name) == 0)
			return sbat_uki_measured_section(uki, profile, i) == index;
	return 0;
}

/* 1 if every profile's PCR 11, in every phase, is the same in a and b. */
static int
same_pcr11(const sbat_uki *a, const sbat_uki *b)
{
	unsigned p, ph;

	for (p = 0; p < sbat_uki_profile_count(a); p++)
		for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
			if (memcmp(sbat_uki_pcr11(a, (int)p, ph), sbat_uki_pcr11(b, (int)p, ph), 32) != 0)
				return 0;
	return 1;
}

/* Data too large for the base's .sbat or .oldsbat is refused with both sizes, naming the first .profile. */
static void
assert_refused_in_base(const built *b, const char *csv, size_t csv_len, int first)
{
	sbat_edit_opts o = SBAT_EDIT_OPTS_INIT;
	uint8_t *out;
	size_t out_len;
	sbat_diag d;

	for (o.relocate = 0; o.relocate < 2; o.relocate++) {
		out = NULL;
		assert_int_equal(sbat_edit(b->img, (const uint8_t *)csv, csv_len, &o, &out, &out_len, NULL, &d),
		                 SBAT_E_SBAT_NO_ROOM);
		assert_null(out);
		assert_string_equal(d.other_name, ".profile");
		assert_int_equal(d.other_index, first);
		assert_int_equal(d.size_needed, csv_len);
		assert_int_equal(d.size_available, 0x200);
		assert_non_null(strstr(d.what, "ukify"));
	}
}

/*
 * A multi-profile UKI's .sbat goes back into the zeroed .oldsbat that
 * --remove left before the first .profile: every profile measures it
 * again, each PCR 11 as before the removal; the image is the one the
 * in-place edit made. Data too large for that slot, or for the .sbat
 * itself, is refused with both sizes, naming the first .profile (relocated,
 * it would be appended to the last profile).
 */
static void
test_uki_sbat_back_in_base(void **state)
{
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, NULL, 0, 3 };
	built b = build_uki(&u), a, r, c;
	sbat_edit_opts o = SBAT_EDIT_OPTS_INIT;
	sbat_edit_report rep;
	sbat_uki *predicted = NULL;
	uint8_t *out = NULL;
	size_t out_len, csv_len;
	char *csv = big_csv(&csv_len);
	int first = sbat_image_find_section(b.img, ".profile"), slot = sbat_image_find_section(b.img, ".sbat");
	unsigned prof, ph;
	sbat_diag d;

	(void)state;
	assert_true(slot > 0 && first > slot);
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &o, &out, &out_len, NULL, &d),
	                 SBAT_OK);
	a = built_from(out, out_len);
	o.remove = 1;
	assert_int_equal(sbat_edit(a.img, NULL, 0, &o, &out, &out_len, &rep, &d), SBAT_OK);
	assert_int_equal(rep.action, SBAT_ACTION_RETIRE);
	r = built_from(out, out_len);
	for (prof = 0; prof < 3; prof++)
		assert_memory_not_equal(sbat_uki_pcr11(a.uki, (int)prof, 0), sbat_uki_pcr11(r.uki, (int)prof, 0), 32);
	o.remove = 0;
	if (sbat_edit(r.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &o, &out, &out_len, &rep, &d) != SBAT_OK)
		fail_msg("putting .sbat back: %s", d.what);
	assert_int_equal(rep.action, SBAT_ACTION_REPLACE);
	assert_int_equal(rep.section_index, (unsigned)slot);
	assert_true(rep.uki & SBAT_EDIT_SBAT_REVIVED);
	assert_true(rep.uki & SBAT_EDIT_PCR11_CHANGED);
	c = built_from(out, out_len);
	assert_int_equal(c.len, a.len);
	assert_memory_equal(c.buf, a.buf, a.len);
	for (prof = 0; prof < 3; prof++)
		assert_true(measures(c.uki, (int)prof, ".sbat", slot));
	assert_true(same_pcr11(a.uki, c.uki));
	/* the prediction before the edit says the same */
	assert_int_equal(sbat_edit_predict_uki(r.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &o, &predicted, &d),
	                 SBAT_OK);
	assert_int_equal(sbat_uki_predict(predicted, -1, &d), SBAT_OK);
	for (prof = 0; prof < 3; prof++)
		for (ph = 0; ph < SBAT_UKI_PHASES; ph++)
			assert_memory_equal(sbat_uki_pcr11(predicted, (int)prof, ph),
			                    sbat_uki_pcr11(c.uki, (int)prof, ph), 32);
	sbat_uki_free(predicted);
	assert_refused_in_base(&r, csv, csv_len, first);
	assert_refused_in_base(&a, csv, csv_len, first);
	built_free(&c);
	built_free(&r);
	built_free(&a);
	built_free(&b);
	free(csv);
}

/* 0.2's shorter options structure is still taken, with the defaults of the later fields. */
static void
test_uki_edit_opts_of_0_2(void **state)
{
	fx_uki u = { "257.9-1", NULL, FX_UKI_PCRPKEY, FX_UKI_PCRSIG, 0, 0 };
	built b = build_uki(&u);
	sbat_edit_opts o = SBAT_EDIT_OPTS_INIT;
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;

	(void)state;
	o.size = (offsetof(sbat_edit_opts, pcrsig) + sizeof(size_t) - 1) / sizeof(size_t) * sizeof(size_t);
	o.pcrsig = SBAT_PCRSIG_KEEP; /* beyond a 0.2 caller's structure: not read */
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &o, &out, &out_len, NULL, &d),
	                 SBAT_E_PCRSIG);
	o.size = sizeof(o);
	o.pcrsig = 7;
	assert_int_equal(sbat_edit(b.img, (const uint8_t *)NEW_CSV, strlen(NEW_CSV), &o, &out, &out_len, NULL, &d),
	                 SBAT_E_ABI);
	built_free(&b);
}

/* systemd-stub by release: what each release looks for and how, as its row says. */
static void
test_uki_stub_release_rows(void **state)
{
#define B(k) (1u << (k))
	const uint32_t base = B(UKI_LINUX) | B(UKI_OSREL) | B(UKI_CMDLINE) | B(UKI_INITRD) | B(UKI_SPLASH) |
	                      B(UKI_DTB) | B(UKI_PCRSIG) | B(UKI_PCRPKEY);
	const uint32_t r254 = base | B(UKI_UNAME) | B(UKI_SBAT), r256 = r254 | B(UKI_UCODE);
	const uint32_t r257 = r256 | B(UKI_PROFILE) | B(UKI_DTBAUTO) | B(UKI_HWIDS), r258 = r257 | B(UKI_EFIFW);
	static const unsigned majors[] = { 1, 252, 253, 254, 255, 256, 257, 258, 300, 0 };
	const uint32_t known[] = { base, base, base, r254, r254, r256, r257, r258, r258, r258 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(majors) / sizeof(majors[0]); i++) {
		uki_rules r = uki_rules_for(majors[i]);

		assert_int_equal(r.known, known[i]);
		assert_int_equal(r.exact_names, majors[i] == 0 || majors[i] >= 256);
		assert_int_equal(r.first_wins, majors[i] == 0 || majors[i] >= 256);
		assert_int_equal(r.profiles, majors[i] == 0 || majors[i] >= 257);
	}
#undef B
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uki_detects_systemd_stub),
		cmocka_unit_test(test_uki_measured_sections_by_release),
		cmocka_unit_test(test_uki_stub_release_rows),
		cmocka_unit_test(test_uki_pcr11_matches_systemd_measure_252),
		cmocka_unit_test(test_uki_pcr11_chain_257),
		cmocka_unit_test(test_uki_profiles),
		cmocka_unit_test(test_uki_hostile_virtual_size),
		cmocka_unit_test(test_uki_policy_digest),
		cmocka_unit_test(test_uki_pcrsig_json),
		cmocka_unit_test(test_uki_lint_pcrsig),
		cmocka_unit_test(test_uki_lint_sbat_and_profile),
		cmocka_unit_test(test_uki_machine_selected_sections),
		cmocka_unit_test(test_uki_pcr11_alternatives),
		cmocka_unit_test(test_uki_alternatives_the_stub_can_select),
		cmocka_unit_test(test_uki_pcrsig_covers_alternatives),
		cmocka_unit_test(test_uki_lint_stub_rows),
		cmocka_unit_test(test_uki_edit_refused_and_opt_ins),
		cmocka_unit_test(test_uki_edit_drop_retires_mid_pcrsig),
		cmocka_unit_test(test_uki_edit_252_not_refused),
		cmocka_unit_test(test_uki_edit_prediction_matches_result),
		cmocka_unit_test(test_uki_edit_prediction_alternatives),
		cmocka_unit_test(test_uki_edit_opts_of_0_2),
		cmocka_unit_test(test_uki_sbat_back_in_base),
		cmocka_unit_test(test_uki_edit_drop_and_relocate),
		cmocka_unit_test(test_uki_sbat_in_profile),
		cmocka_unit_test(test_uki_digests_one_pass),
	};

	return run_group(tests, NULL, NULL);
}
