/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-authenticode.c - the Authenticode hash against sbsign and osslsigncode, and the certificate table's checks */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbat/authenticode.h"
#include "sbat/image.h"
#include "fixture.h"

static char dir[64];
static int have_tools; /* openssl made a key and certificate; sbsign and osslsigncode are there */

static int
setup(void **state)
{
	char cmd[512];

	(void)state;
	strcpy(dir, "/tmp/test-authenticode.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof(cmd),
	         "command -v sbsign >/dev/null && command -v osslsigncode >/dev/null && "
	         "openssl req -new -x509 -newkey rsa:2048 -nodes -days 30 -keyout %s/k.pem -out %s/c.pem "
	         "-subj '/CN=Test Signer/O=Example Org/OU=Tests/C=DE' >/dev/null 2>&1",
	         dir, dir);
	have_tools = system(cmd) == 0;
	if (have_tools) {
		snprintf(cmd, sizeof(cmd),
		         "openssl req -new -x509 -newkey rsa:2048 -nodes -days 30 -keyout %s/k2.pem -out %s/c2.pem "
		         "-subj '/CN=Second Signer/C=FR' >/dev/null 2>&1",
		         dir, dir);
		have_tools = system(cmd) == 0;
	}
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static uint8_t *
read_file(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	b = malloc((size_t)n);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*ret_len = (size_t)n;
	return b;
}

static void
hex(const uint8_t *d, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02X", d[i]);
}

/* osslsigncode's "Calculated message digest" of the signed image at path, upper-case hex */
static void
osslsigncode_digest(const char *path, char out[65])
{
	char cmd[256], line[512];
	const char *key = "Calculated message digest : ";
	FILE *p;

	out[0] = '\0';
	snprintf(cmd, sizeof(cmd), "osslsigncode verify -in %s 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		if (!out[0] && strncmp(line, key, strlen(key)) == 0)
			memcpy(out, line + strlen(key), 64), out[64] = '\0';
	pclose(p);
	assert_int_equal(strlen(out), 64);
}

/* Build spec, write it as u.efi, sign it with sbsign into s.efi; returns s.efi's bytes. */
static uint8_t *
build_and_sign(const fx_spec *spec, uint8_t **ret_unsigned, size_t *ret_ulen, size_t *ret_len)
{
	char path[128], cmd[512];
	uint8_t *u;
	size_t ulen;

	assert_int_equal(fx_build(spec, &u, &ulen), 0);
	snprintf(path, sizeof(path), "%s/u.efi", dir);
	assert_int_equal(fx_write_file(path, u, ulen), 0);
	snprintf(cmd, sizeof(cmd), "sbsign --key %s/k.pem --cert %s/c.pem --output %s/s.efi %s >/dev/null 2>&1", dir,
	         dir, dir, path);
	assert_int_equal(system(cmd), 0);
	*ret_unsigned = u;
	*ret_ulen = ulen;
	snprintf(path, sizeof(path), "%s/s.efi", dir);
	return read_file(path, ret_len);
}

static void
hash_hex(const uint8_t *buf, size_t len, sbat_authenticode_rule rule, char out[65])
{
	uint8_t digest[SBAT_AUTHENTICODE_SHA256_SIZE];
	sbat_image *img = NULL;
	sbat_diag d;

	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_hash(img, rule, digest, &d), SBAT_OK);
	hex(digest, sizeof(digest), out);
	sbat_image_free(img);
}

/* Swap the first two section headers: the table's order is no longer the order of PointerToRawData. */
static void
swap_first_sections(uint8_t *buf)
{
	uint8_t tmp[40], *t = buf + fx_section_table_offset(buf);

	memcpy(tmp, t, 40);
	memmove(t, t + 40, 40);
	memcpy(t + 40, tmp, 40);
}

enum variant { PLAIN, PE32, OVERLAY, SBAT_MID, UKI };

static void
make_spec(fx_spec *spec, enum variant v)
{
	fx_spec_init(spec, FX_PLAIN);
	if (v == PE32)
		fx_variant_ia32(spec);
	if (v == OVERLAY)
		fx_variant_overlay(spec);
	if (v == SBAT_MID)
		fx_variant_sbat_mid(spec);
}

/* The hash of an image sbsign signed is the digest osslsigncode calculates; the unsigned one's by shim's rule too. */
static void
check_variant(enum variant v)
{
	char want[65], got[65], path[128];
	uint8_t *u, *s;
	size_t ulen, slen;
	fx_spec spec;

	if (!have_tools)
		skip();
	make_spec(&spec, v);
	s = build_and_sign(&spec, &u, &ulen, &slen);
	snprintf(path, sizeof(path), "%s/s.efi", dir);
	osslsigncode_digest(path, want);
	hash_hex(s, slen, SBAT_AUTHENTICODE_EDK2, got);
	assert_string_equal(got, want);
	hash_hex(s, slen, SBAT_AUTHENTICODE_SHIM, got);
	assert_string_equal(got, want);
	hash_hex(u, ulen, SBAT_AUTHENTICODE_SHIM, got);
	assert_string_equal(got, want);
	free(u);
	free(s);
}

static void
test_hash_pe32plus(void **state)
{
	(void)state;
	check_variant(PLAIN);
}

static void
test_hash_pe32(void **state)
{
	(void)state;
	check_variant(PE32);
}

static void
test_hash_sbat_mid(void **state)
{
	(void)state;
	check_variant(SBAT_MID);
}

/* 100 bytes after the sections: sbsign pads them to 8 before it signs; shim pads an unsigned image the same way */
static void
test_hash_trailing_data(void **state)
{
	char edk2[65], shim[65];
	uint8_t *u;
	size_t ulen;
	fx_spec spec;

	(void)state;
	check_variant(OVERLAY);
	make_spec(&spec, OVERLAY);
	assert_int_equal(fx_build(&spec, &u, &ulen), 0);
	assert_int_not_equal(ulen % 8, 0);
	hash_hex(u, ulen, SBAT_AUTHENTICODE_EDK2, edk2);
	hash_hex(u, ulen, SBAT_AUTHENTICODE_SHIM, shim);
	assert_string_not_equal(edk2, shim);
	free(u);
}

/* Section headers out of file order: the raw data is hashed by PointerToRawData, as osslsigncode does */
static void
test_hash_sections_sorted(void **state)
{
	char want[65], got[65], path[128], cmd[512];
	uint8_t *u, *s;
	size_t ulen, slen;
	fx_spec spec;

	(void)state;
	if (!have_tools)
		skip();
	make_spec(&spec, PLAIN);
	assert_int_equal(fx_build(&spec, &u, &ulen), 0);
	swap_first_sections(u);
	snprintf(path, sizeof(path), "%s/swapped.efi", dir);
	assert_int_equal(fx_write_file(path, u, ulen), 0);
	snprintf(cmd, sizeof(cmd), "sbsign --key %s/k.pem --cert %s/c.pem --output %s/ss.efi %s >/dev/null 2>&1", dir,
	         dir, dir, path);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/ss.efi", dir);
	s = read_file(path, &slen);
	osslsigncode_digest(path, want);
	hash_hex(s, slen, SBAT_AUTHENTICODE_EDK2, got);
	assert_string_equal(got, want);
	free(u);
	free(s);
}

/* The fixture's signed image: one WIN_CERTIFICATE of 0x400 bytes at the end */
static uint8_t *
signed_fixture(size_t *ret_len, uint64_t *ret_table)
{
	uint8_t *buf;
	fx_spec spec;

	fx_spec_init(&spec, FX_PLAIN);
	fx_variant_signed(&spec);
	assert_int_equal(fx_build(&spec, &buf, ret_len), 0);
	*ret_table = *ret_len - 0x400;
	return buf;
}

static sbat_err
parse_table(const uint8_t *buf, size_t len, sbat_authenticode **ret, sbat_diag *d)
{
	sbat_image *img = NULL;
	sbat_err err;

	assert_int_equal(sbat_image_parse(buf, len, &img, d), SBAT_OK);
	err = sbat_authenticode_parse(img, ret, d);
	sbat_image_free(img);
	return err;
}

typedef struct tcase {
	const char *name;
	uint64_t at;   /* offset in the table */
	uint32_t put;  /* the 32-bit value written there */
	int width;     /* 2 or 4 */
	uint64_t diag; /* offset the diagnostic names, in the table */
	const char *what;
} tcase;

static const tcase table_cases[] = {
	{ "dwLength past the table", 0, 0x408, 4, 0,
	  "WIN_CERTIFICATE dwLength (padded to 8) runs past the certificate table" },
	{ "dwLength of its header alone", 0, 8, 4, 0, "WIN_CERTIFICATE dwLength leaves no room for a signature" },
	{ "a second entry truncated", 0, 0x3f8, 4, 0x3f8,
	  "WIN_CERTIFICATE truncated: the table ends inside its 8-byte header" },
	{ "wRevision 0x0100", 4, 0x0100, 2, 4, "WIN_CERTIFICATE wRevision is not 0x0200" },
	{ "wCertificateType 0x0001 (X.509)", 6, 0x0001, 2, 6,
	  "WIN_CERTIFICATE wCertificateType is not 0x0002 (PKCS_SIGNED_DATA)" },
};

static void
test_table_malformed(void **state)
{
	sbat_authenticode *a = NULL;
	uint64_t table;
	size_t len, i;
	uint8_t *buf;
	sbat_diag d;

	(void)state;
	for (i = 0; i < sizeof(table_cases) / sizeof(table_cases[0]); i++) {
		const tcase *c = &table_cases[i];

		buf = signed_fixture(&len, &table);
		if (c->width == 4)
			fx_put32(buf + table + c->at, c->put);
		else
			fx_put16(buf + table + c->at, (uint16_t)c->put);
		memset(&d, 0, sizeof(d));
		assert_int_equal(parse_table(buf, len, &a, &d), SBAT_E_SIGNATURE);
		assert_null(a);
		assert_string_equal(d.what, c->what);
		assert_int_equal(d.has_offset, 1);
		assert_int_equal(d.offset, table + c->diag);
		assert_string_equal(d.other_name, "WIN_CERTIFICATE");
		free(buf);
	}
}

/* A table that does not end the file: EDK2 hashes up to the file's end less its size, shim refuses */
static void
test_table_not_at_end(void **state)
{
	uint8_t digest[SBAT_AUTHENTICODE_SHA256_SIZE];
	sbat_image *img = NULL;
	uint64_t table;
	uint8_t *buf;
	size_t len;
	sbat_diag d;

	(void)state;
	buf = signed_fixture(&len, &table);
	fx_put32(buf + fx_opt_offset(buf) + 0x70 + 8 * 4 + 4, 0x200); /* PE32+: the directory at 0x70 */
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	assert_int_equal(sbat_image_get_info(img)->cert_size, 0x200);
	assert_int_equal(sbat_authenticode_hash(img, SBAT_AUTHENTICODE_EDK2, digest, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_hash(img, SBAT_AUTHENTICODE_SHIM, digest, &d), SBAT_E_PE_FIELD);
	assert_string_equal(d.what, "certificate table does not end the file (shim refuses)");
	sbat_image_free(img);
	free(buf);
}

static void
test_unsigned(void **state)
{
	sbat_authenticode *a = NULL;
	uint8_t digest[SBAT_AUTHENTICODE_SHA256_SIZE];
	sbat_image *img = NULL;
	uint8_t *buf;
	size_t len;
	fx_spec spec;
	sbat_diag d;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_parse(img, &a, &d), SBAT_OK);
	assert_int_equal(a->n_sigs, 0);
	assert_int_equal(a->n_entries, 0);
	assert_int_equal(sbat_authenticode_hash(img, SBAT_AUTHENTICODE_EDK2, digest, &d), SBAT_OK);
	assert_memory_equal(digest, a->image_hash, sizeof(digest));
	assert_int_equal(sbat_authenticode_check(a, &d), SBAT_OK);
	sbat_authenticode_free(a);
	sbat_authenticode_free(NULL);
	sbat_image_free(img);
	free(buf);
	assert_string_equal(sbat_digest_alg_name(SBAT_DIGEST_SHA256), "SHA-256");
	assert_string_equal(sbat_digest_alg_name((sbat_digest_alg)99), "unknown");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_pe32plus),        cmocka_unit_test(test_hash_pe32),
		cmocka_unit_test(test_hash_sbat_mid),        cmocka_unit_test(test_hash_trailing_data),
		cmocka_unit_test(test_hash_sections_sorted), cmocka_unit_test(test_table_malformed),
		cmocka_unit_test(test_table_not_at_end),     cmocka_unit_test(test_unsigned),
	};

	return run_group(tests, setup, teardown);
}
