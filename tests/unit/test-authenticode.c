/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-authenticode.c - the Authenticode hash against sbsign and osslsigncode, and the certificate table's checks */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbat/authenticode.h"
#include "sbat/image.h"
#include "fixture.h"
#include "sig/der.h"
#include "util/sha256.h"

static char dir[64];
static int have_tools; /* openssl made a key and certificate; sbsign and osslsigncode are there */

static int
setup(void **state)
{
	char cmd[512];

	(void)state;
	strcpy(dir, "/tmp/test-authenticode.XXXXXX");
	if (!mkdtemp(dir) || setenv("D", dir, 1) != 0)
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

enum variant { PLAIN, PE32, OVERLAY, SBAT_MID };

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

/* NumberOfRvaAndSizes 4: no Certificate Table entry, so only CheckSum is left out (EDK2's step 6) */
static void
test_hash_no_cert_directory(void **state)
{
	uint8_t want[SHA256_DIGEST_SIZE], got[SBAT_AUTHENTICODE_SHA256_SIZE];
	struct sha256_ctx ctx;
	sbat_image *img = NULL;
	size_t len, cks;
	uint8_t *buf;
	fx_spec spec;
	sbat_diag d;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.num_rva = 4;
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	assert_int_equal(len % 8, 0);
	cks = fx_opt_offset(buf) + 64; /* CheckSum, PE32+ */
	sha256_init(&ctx);
	sha256_update(&ctx, buf, cks);
	sha256_update(&ctx, buf + cks + 4, len - cks - 4);
	sha256_final(&ctx, want);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_hash(img, SBAT_AUTHENTICODE_EDK2, got, &d), SBAT_OK);
	assert_memory_equal(got, want, sizeof(want));
	assert_int_equal(sbat_authenticode_hash(img, SBAT_AUTHENTICODE_SHIM, got, &d), SBAT_OK);
	assert_memory_equal(got, want, sizeof(want));
	sbat_image_free(img);
	free(buf);
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
};

/*
 * Neither EDK2 nor shim reads wRevision, and both pass over an entry of
 * another type: this fixture's entry (not DER) is read whatever its
 * revision, and as type 0x0001 (X.509) not at all.
 */
static void
test_table_entry_kinds(void **state)
{
	sbat_authenticode *a = NULL;
	uint64_t table;
	size_t len;
	uint8_t *buf;
	sbat_diag d;

	(void)state;
	buf = signed_fixture(&len, &table);
	fx_put16(buf + table + 4, 0x0100);
	memset(&d, 0, sizeof(d));
	assert_int_equal(parse_table(buf, len, &a, &d), SBAT_E_SIGNATURE);
	assert_string_equal(d.other_name, "ContentInfo");
	fx_put16(buf + table + 6, 0x0001);
	assert_int_equal(parse_table(buf, len, &a, &d), SBAT_OK);
	assert_int_equal(a->n_entries, 1);
	assert_int_equal(a->n_sigs, 0);
	sbat_authenticode_free(a);
	free(buf);
}

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
	assert_string_equal(sbat_authenticode_digest_name(SBAT_DIGEST_SHA256), "SHA-256");
	assert_string_equal(sbat_authenticode_digest_name((sbat_digest_alg)99), "unknown");
}

/* sbat_authenticode_parse_fd on buf written to path (cut to len - cut bytes), opened read-only. */
static sbat_err
parse_fd_of(const sbat_image *img, const uint8_t *buf, size_t len, size_t cut, sbat_authenticode **ret, sbat_diag *d)
{
	char path[128];
	sbat_err err;
	int fd;

	snprintf(path, sizeof(path), "%s/fd.efi", dir);
	assert_int_equal(fx_write_file(path, buf, len - cut), 0);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	err = sbat_authenticode_parse_fd(img, fd, ret, d);
	close(fd);
	return err;
}

/* Hashed through the file, the image (trailing data included) has the hash its buffer has; a short file or a bad fd fails. */
static void
test_parse_fd(void **state)
{
	sbat_authenticode *a = NULL, *b = NULL;
	sbat_image *img = NULL;
	uint8_t *buf;
	size_t len;
	fx_spec spec;
	sbat_diag d;
	int fd;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	fx_variant_overlay(&spec);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_parse(img, &a, &d), SBAT_OK);
	assert_int_equal(parse_fd_of(img, buf, len, 0, &b, &d), SBAT_OK);
	assert_memory_equal(a->image_hash, b->image_hash, SBAT_AUTHENTICODE_SHA256_SIZE);
	sbat_authenticode_free(b);
	assert_int_equal(sbat_authenticode_parse_fd(img, -1, &b, &d), SBAT_OK);
	assert_memory_equal(a->image_hash, b->image_hash, SBAT_AUTHENTICODE_SHA256_SIZE);
	sbat_authenticode_free(b);
	b = (sbat_authenticode *)1;
	assert_int_equal(parse_fd_of(img, buf, len, 16, &b, &d), SBAT_E_PE_TRUNCATED);
	assert_null(b);
	assert_true(d.has_offset);
	fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sbat_authenticode_parse_fd(img, fd, &b, &d), SBAT_E_IO);
	assert_null(b);
	sbat_authenticode_free(a);
	sbat_image_free(img);
	free(buf);
}

/* The first line a shell command prints, without its newline */
static void
command_line(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");

	assert_non_null(p);
	out[0] = '\0';
	if (!fgets(out, (int)size, p))
		out[0] = '\0';
	pclose(p);
	out[strcspn(out, "\n")] = '\0';
}

/* Run a shell command; $D is the test's directory. */
static void
run(const char *cmd)
{
	assert_int_equal(system(cmd), 0);
}

static sbat_authenticode *
parse_file(const char *name, uint8_t **ret_buf, size_t *ret_len, sbat_image **ret_img)
{
	sbat_authenticode *a = NULL;
	char path[128];
	sbat_diag d;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	*ret_buf = read_file(path, ret_len);
	assert_int_equal(sbat_image_parse(*ret_buf, *ret_len, ret_img, &d), SBAT_OK);
	if (sbat_authenticode_parse(*ret_img, &a, &d) != SBAT_OK)
		fail_msg("%s at 0x%llx (%s)", d.what, (unsigned long long)d.offset, d.other_name);
	return a;
}

/* What sbsign wrote: one entry, one signature over this image, the certificate as openssl describes it */
static void
test_signature_sbsign(void **state)
{
	char want[256], got[256];
	const sbat_authenticode_sig *s;
	const sbat_authenticode_cert *c;
	sbat_authenticode *a;
	sbat_image *img;
	uint8_t *u, *buf;
	size_t ulen, len;
	fx_spec spec;
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	make_spec(&spec, PLAIN);
	free(build_and_sign(&spec, &u, &ulen, &len));
	free(u);
	a = parse_file("s.efi", &buf, &len, &img);
	assert_int_equal(a->n_entries, 1);
	assert_int_equal(a->n_sigs, 1);
	s = &a->sigs[0];
	assert_int_equal(s->nested_in, -1);
	assert_int_equal(s->revision, 0x0200);
	assert_int_equal(s->cert_type, 0x0002);
	assert_int_equal(s->entry_offset, a->table_offset);
	assert_int_equal(s->covers_image, 1);
	assert_int_equal(s->image_digest_alg, SBAT_DIGEST_SHA256);
	assert_int_equal(s->digest_alg, SBAT_DIGEST_SHA256);
	assert_int_equal(s->n_certs, 1);
	assert_int_equal(s->signer_cert, 0);
	assert_string_equal(s->signer_issuer, "CN=Test Signer, O=Example Org, OU=Tests, C=DE");
	c = &s->certs[0];
	assert_string_equal(c->subject, "CN=Test Signer, O=Example Org, OU=Tests, C=DE");
	assert_string_equal(c->issuer, c->subject);
	assert_memory_equal(c->subject_der, c->issuer_der, c->issuer_der_len);
	assert_true(c->offset > s->offset && c->offset + c->der_len <= s->offset + s->len);
	assert_memory_equal(c->der, buf + c->offset, c->der_len);
	run("openssl x509 -in $D/c.pem -noout -serial | sed 's/serial=//' >$D/serial");
	command_line("cat $D/serial", want, sizeof(want));
	hex(c->serial[0] == 0 ? c->serial + 1 : c->serial, c->serial_len - (c->serial[0] == 0), got);
	assert_string_equal(got, want);
	run("openssl asn1parse -in $D/c.pem -strparse 4 -noout -out $D/tbs.der && sha256sum $D/tbs.der | "
	    "cut -c1-64 | tr a-f A-F >$D/tbs");
	command_line("cat $D/tbs", want, sizeof(want));
	hex(c->tbs_sha256, sizeof(c->tbs_sha256), got);
	assert_string_equal(got, want);
	run("openssl x509 -in $D/c.pem -noout -ext subjectKeyIdentifier | sed -n 2p | tr -d ' :' >$D/ski");
	command_line("cat $D/ski", want, sizeof(want));
	assert_non_null(c->subject_key_id);
	assert_int_equal(c->subject_key_id_len * 2, strlen(want));
	hex(c->subject_key_id, c->subject_key_id_len, got);
	assert_string_equal(got, want);
	assert_non_null(c->authority_key_id);
	assert_memory_equal(c->authority_key_id, c->subject_key_id, c->subject_key_id_len);
	assert_int_equal(sbat_authenticode_check(a, &d), SBAT_OK);
	sbat_authenticode_free(a);
	sbat_image_free(img);
	free(buf);
}

/* One byte of a section changed after signing: the digest no longer matches */
static void
test_signature_stale(void **state)
{
	sbat_authenticode *a = NULL;
	sbat_image *img = NULL;
	uint8_t *u, *buf;
	size_t ulen, len;
	fx_spec spec;
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	make_spec(&spec, PLAIN);
	buf = build_and_sign(&spec, &u, &ulen, &len);
	free(u);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	buf[sbat_image_section(img, 0)->pointer_to_raw_data] ^= 1;
	assert_int_equal(sbat_authenticode_parse(img, &a, &d), SBAT_OK);
	assert_int_equal(a->sigs[0].covers_image, 0);
	assert_int_equal(sbat_authenticode_check(a, &d), SBAT_E_SIGNATURE_STALE);
	assert_string_equal(d.what, "the signature no longer covers this image");
	assert_int_equal(d.other_index, 0);
	sbat_authenticode_free(a);
	sbat_image_free(img);
	free(buf);
}

/* sbsign over a signed image adds a second WIN_CERTIFICATE; osslsigncode -nest a nested signature */
static void
test_signature_two_and_nested(void **state)
{
	sbat_authenticode *a;
	sbat_image *img;
	uint8_t *u, *buf;
	size_t ulen, len, i;
	fx_spec spec;

	(void)state;
	if (!have_tools)
		skip();
	make_spec(&spec, OVERLAY);
	free(build_and_sign(&spec, &u, &ulen, &len));
	free(u);
	run("sbsign --key $D/k2.pem --cert $D/c2.pem --output $D/s2.efi $D/s.efi >/dev/null 2>&1");
	run("osslsigncode sign -certs $D/c2.pem -key $D/k2.pem -nest -in $D/s.efi -out $D/n.efi >/dev/null 2>&1");
	a = parse_file("s2.efi", &buf, &len, &img);
	assert_int_equal(a->n_entries, 2);
	assert_int_equal(a->n_sigs, 2);
	assert_int_equal(a->sigs[1].entry, 1);
	assert_int_equal(a->sigs[1].nested_in, -1);
	assert_string_equal(a->sigs[1].certs[0].subject, "CN=Second Signer, C=FR");
	for (i = 0; i < 2; i++)
		assert_int_equal(a->sigs[i].covers_image, 1);
	sbat_authenticode_free(a);
	sbat_image_free(img);
	free(buf);
	a = parse_file("n.efi", &buf, &len, &img);
	assert_int_equal(a->n_entries, 1);
	assert_int_equal(a->n_sigs, 2);
	assert_int_equal(a->sigs[1].entry, 0);
	assert_int_equal(a->sigs[1].nested_in, 0);
	assert_true(a->sigs[1].offset > a->sigs[0].offset);
	assert_string_equal(a->sigs[0].certs[0].subject, "CN=Test Signer, O=Example Org, OU=Tests, C=DE");
	assert_string_equal(a->sigs[1].signer_issuer, "CN=Second Signer, C=FR");
	assert_int_equal(a->sigs[1].signer_cert, 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(a->sigs[i].covers_image, 1);
	sbat_authenticode_free(a);
	sbat_image_free(img);
	free(buf);
}

typedef struct dcase {
	const char *name;
	const uint8_t *bytes;
	size_t len;
	const char *what;
	uint64_t offset; /* of the failing element, from a base of 0x1000 */
} dcase;

static const uint8_t der_indefinite[] = { 0x30, 0x80, 0x02, 0x01, 0x00, 0x00, 0x00 };
static const uint8_t der_past_parent[] = { 0x30, 0x04, 0x02, 0x05, 0x00, 0x00 };
static const uint8_t der_past_end[] = { 0x30, 0x10, 0x02, 0x01, 0x00 };
static const uint8_t der_long_length[] = { 0x30, 0x85, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00 };
static const uint8_t der_length_bytes_cut[] = { 0x30, 0x03, 0x04, 0x82, 0x01 };
static const uint8_t der_truncated[] = { 0x30, 0x01, 0x05 };
static const uint8_t der_high_tag[] = { 0x1f, 0x81, 0x00 };

static const dcase der_cases[] = {
	{ "indefinite length", der_indefinite, sizeof(der_indefinite),
	  "DER indefinite length (BER 0x80) is not allowed", 0x1000 },
	{ "inner length past its parent", der_past_parent, sizeof(der_past_parent),
	  "DER length runs past its enclosing element", 0x1002 },
	{ "length past the buffer", der_past_end, sizeof(der_past_end), "DER length runs past its enclosing element",
	  0x1000 },
	{ "a 5-byte length", der_long_length, sizeof(der_long_length), "DER length of more than 4 bytes", 0x1000 },
	{ "length bytes cut by the parent", der_length_bytes_cut, sizeof(der_length_bytes_cut),
	  "DER length runs past its enclosing element", 0x1002 },
	{ "a lone tag byte", der_truncated, sizeof(der_truncated),
	  "DER element truncated: no room for its tag and length", 0x1002 },
	{ "high tag number", der_high_tag, sizeof(der_high_tag),
	  "DER tag in the high-number form (0x1f) is not used by PKCS#7", 0x1000 },
};

static void
test_der_malformed(void **state)
{
	der_cursor c;
	sbat_diag d;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(der_cases) / sizeof(der_cases[0]); i++) {
		uint8_t *b = dup_exact(der_cases[i].bytes, der_cases[i].len);

		der_top(&c, b, der_cases[i].len, 0x1000, "test");
		memset(&d, 0, sizeof(d));
		assert_int_equal(der_walk(&c, &d), SBAT_E_SIGNATURE);
		assert_string_equal(d.what, der_cases[i].what);
		assert_int_equal(d.offset, der_cases[i].offset);
		assert_string_equal(d.other_name, "test");
		free(b);
	}
}

/* 45 SEQUENCEs one inside the other: refused at depth 40, without recursing further */
static void
test_der_deep(void **state)
{
	uint8_t b[90];
	der_cursor c;
	sbat_diag d;
	size_t i;

	(void)state;
	for (i = 0; i < 45; i++) {
		b[2 * i] = 0x30;
		b[2 * i + 1] = (uint8_t)(88 - 2 * i);
	}
	der_top(&c, b, sizeof(b), 0, "test");
	assert_int_equal(der_walk(&c, &d), SBAT_E_SIGNATURE);
	assert_string_equal(d.what, "DER elements nested deeper than 40");
	assert_int_equal(d.offset, 2 * 39);
	b[2 * 30] = 0x04; /* an OCTET STRING at depth 30: what it holds is not read */
	der_top(&c, b, sizeof(b), 0, "test");
	assert_int_equal(der_walk(&c, &d), SBAT_OK);
}

/* A signed image's ContentInfo broken: the diagnostic names the file offset and the structure */
static void
test_der_in_image(void **state)
{
	sbat_authenticode *a = NULL;
	uint8_t *u, *buf;
	size_t ulen, len;
	uint64_t ci;
	fx_spec spec;
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	make_spec(&spec, PLAIN);
	buf = build_and_sign(&spec, &u, &ulen, &len);
	free(u);
	ci = fx_le32(buf + fx_opt_offset(buf) + 0x70 + 8 * 4) + 8;
	assert_int_equal(buf[ci], 0x30);
	assert_int_equal(buf[ci + 1], 0x82);
	buf[ci + 2] ^= 0x40; /* the ContentInfo's length now runs past the WIN_CERTIFICATE */
	assert_int_equal(parse_table(buf, len, &a, &d), SBAT_E_SIGNATURE);
	assert_null(a);
	assert_string_equal(d.what, "DER length runs past its enclosing element");
	assert_int_equal(d.offset, ci);
	assert_string_equal(d.other_name, "ContentInfo");
	buf[ci + 2] ^= 0x40;
	buf[ci + 1] = 0x80;
	assert_int_equal(parse_table(buf, len, &a, &d), SBAT_E_SIGNATURE);
	assert_string_equal(d.what, "DER indefinite length (BER 0x80) is not allowed");
	assert_int_equal(d.offset, ci);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_pe32plus),
		cmocka_unit_test(test_hash_pe32),
		cmocka_unit_test(test_hash_sbat_mid),
		cmocka_unit_test(test_hash_trailing_data),
		cmocka_unit_test(test_hash_sections_sorted),
		cmocka_unit_test(test_table_malformed),
		cmocka_unit_test(test_table_entry_kinds),
		cmocka_unit_test(test_table_not_at_end),
		cmocka_unit_test(test_unsigned),
		cmocka_unit_test(test_hash_no_cert_directory),
		cmocka_unit_test(test_signature_sbsign),
		cmocka_unit_test(test_signature_stale),
		cmocka_unit_test(test_signature_two_and_nested),
		cmocka_unit_test(test_der_malformed),
		cmocka_unit_test(test_der_deep),
		cmocka_unit_test(test_der_in_image),
		cmocka_unit_test(test_parse_fd),
	};

	return run_group(tests, setup, teardown);
}
