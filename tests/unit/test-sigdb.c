/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-sigdb.c - sbat_sigdb: EFI signature lists checked, appended without duplicates, loaded from efivarfs */
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
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/sigdb.h"

/* GUIDs as stored */
static const uint8_t SHA256_GUID[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
	                                 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };
static const uint8_t X509_GUID[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
	                               0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
static const uint8_t X509_SHA256_GUID[16] = { 0x92, 0xa4, 0xd2, 0x3b, 0xc0, 0x96, 0x79, 0x40,
	                                      0xb4, 0x20, 0xfc, 0xf9, 0x8e, 0xf1, 0x03, 0xed };
static const uint8_t SHA1_GUID[16] = { 0x12, 0xa5, 0x6c, 0x82, 0x10, 0xcf, 0xc9, 0x4a,
	                               0xb1, 0x87, 0xbe, 0x01, 0x49, 0x66, 0x31, 0xbd };
static const uint8_t OTHER_GUID[16] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	                                0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 };
/* 605dab50-e046-4300-abb6-3dd810dd8b23 (shim), as stored */
static const uint8_t OWNER[16] = { 0x50, 0xab, 0x5d, 0x60, 0x46, 0xe0, 0x00, 0x43,
	                           0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 };
static const uint8_t PKCS7_GUID[16] = { 0x9d, 0xd2, 0xaf, 0x4a, 0xdf, 0x68, 0xee, 0x49,
	                                0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7 };

#define DB_FILE "db-" SBAT_SIGDB_GUID_SECURITY_DB

static char root[4096];

/* A growing byte buffer for lists made here. */
typedef struct bytes {
	uint8_t b[8192];
	size_t n;
} bytes;

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Append a well-formed list of n entries, data bytes fill, fill+1, ...; returns its offset. */
static size_t
add_list(bytes *b, const uint8_t type[16], uint32_t hsz, uint32_t ssz, size_t n, uint8_t fill)
{
	size_t off = b->n, i, size = 28 + hsz + n * ssz;

	assert_true(off + size <= sizeof(b->b));
	memcpy(b->b + off, type, 16);
	put32(b->b + off + 16, (uint32_t)size);
	put32(b->b + off + 20, hsz);
	put32(b->b + off + 24, ssz);
	memset(b->b + off + 28, 0xee, hsz);
	for (i = 0; i < n; i++) {
		uint8_t *e = b->b + off + 28 + hsz + i * ssz;

		memcpy(e, OWNER, 16);
		memset(e + 16, (uint8_t)(fill + i), ssz - 16);
	}
	b->n += size;
	return off;
}

/* An EFI_VARIABLE_AUTHENTICATION_2 of dwLength 24 + sig_len at the start of b. */
static void
add_auth2(bytes *b, uint32_t sig_len)
{
	memset(b->b, 0, 16);
	b->b[0] = 0xe9; /* 2025 */
	b->b[1] = 0x07;
	put32(b->b + 16, 24 + sig_len);
	b->b[20] = 0x00;
	b->b[21] = 0x02;
	b->b[22] = 0xf1;
	b->b[23] = 0x0e;
	memcpy(b->b + 24, PKCS7_GUID, 16);
	memset(b->b + 40, 0x30, sig_len);
	b->n = 40 + sig_len;
}

static uint8_t *
read_fixture(const char *name, size_t *ret_len)
{
	const char *src = getenv("FIXTURES_SRC");
	char p[4096];
	uint8_t *buf;
	FILE *f;
	long n;

	if (!src)
		return NULL;
	snprintf(p, sizeof(p), "%s/sigdb/%s", src, name);
	f = fopen(p, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*ret_len = (size_t)n;
	return buf;
}

/* Write an efivarfs file root/name: attributes 0x27 (NV, BS, RT, time-based authenticated), then data. */
static void
put_var(const char *name, const uint8_t *data, size_t len)
{
	static const uint8_t attrs[4] = { 0x27, 0, 0, 0 };
	char p[8192];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, name);
	f = fopen(p, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(attrs, 1, 4, f), 4);
	if (len)
		assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void
put_raw(const char *name, const uint8_t *data, size_t len)
{
	char p[8192];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, name);
	f = fopen(p, "wb");
	assert_non_null(f);
	if (len)
		assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static sbat_sigdb *
new_db(void)
{
	sbat_sigdb *db = NULL;

	assert_int_equal(sbat_sigdb_new(&db, NULL), SBAT_OK);
	assert_non_null(db);
	return db;
}

/* Microsoft's arm64 dbx update: the authentication header skipped, 26 SHA-256 entries. */
static void
test_sigdb_dbx_update_fixture(void **state)
{
	static const uint8_t first[32] = { 0x07, 0x5e, 0xea, 0x06, 0x05, 0x89, 0x54, 0x8b, 0xa0, 0x60, 0xb2,
		                           0xfe, 0xed, 0x10, 0xda, 0x3c, 0x20, 0xc7, 0xfe, 0x9b, 0x17, 0xcd,
		                           0x02, 0x6b, 0x94, 0xe8, 0xa6, 0x83, 0xb8, 0x11, 0x52, 0x38 };
	uint8_t other[32] = { 0 };
	size_t len;
	uint8_t *buf = read_fixture("dbx-update-arm64.bin", &len);
	sbat_sigdb *db;
	const sbat_sigdb_entry *e;
	sbat_diag d;
	char guid[37];

	(void)state;
	if (!buf)
		skip();
	db = new_db();
	assert_int_equal(sbat_sigdb_append_update(db, buf, len, "DBXUpdate.bin", &d), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 26);
	e = sbat_sigdb_get(db, 0);
	assert_non_null(e);
	assert_int_equal(e->type, SBAT_SIG_SHA256);
	assert_int_equal(e->data_len, 32);
	assert_int_equal(e->offset, 3337 + 28);
	assert_int_equal(e->list, 0);
	assert_string_equal(e->source, "DBXUpdate.bin");
	sbat_sigdb_guid_format(e->owner, guid);
	assert_string_equal(guid, "77fa9abd-0359-4d32-bd60-28f4e78f784b");
	assert_ptr_equal(sbat_sigdb_find(db, SBAT_SIG_SHA256, first, 32), e);
	assert_null(sbat_sigdb_find(db, SBAT_SIG_SHA256, other, 32));
	assert_null(sbat_sigdb_get(db, 26));
	/* the same file again: every entry is there already */
	assert_int_equal(sbat_sigdb_append_update(db, buf, len, "again", &d), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 26);
	/* taken as plain lists, its authentication header is no list */
	assert_int_equal(sbat_sigdb_append(db, buf, len, "DBXUpdate.bin", &d), SBAT_E_EFIVAR);
	assert_string_equal(d.what, "EFI_SIGNATURE_LIST SignatureHeaderSize runs past SignatureListSize");
	assert_int_equal(d.offset, 20);
	assert_int_equal(d.line, 1);
	assert_string_equal(d.other_name, "DBXUpdate.bin");
	sbat_sigdb_free(db);
	free(buf);
}

/* The two 2023 CAs as a db holds them, then the db update that adds the Windows one: nothing new. */
static void
test_sigdb_x509_fixture(void **state)
{
	size_t esl_len, upd_len, win_len, ms_len;
	uint8_t *esl = read_fixture("uefi-ca-2023.esl", &esl_len);
	uint8_t *upd = read_fixture("db-update-2024.bin", &upd_len);
	uint8_t *win = read_fixture("windows-uefi-ca-2023.der", &win_len);
	uint8_t *ms = read_fixture("microsoft-uefi-ca-2023.der", &ms_len);
	sbat_sigdb *db;
	const sbat_sigdb_entry *e;

	(void)state;
	if (!esl)
		skip();
	db = new_db();
	assert_int_equal(sbat_sigdb_append(db, esl, esl_len, "db", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 2);
	e = sbat_sigdb_find(db, SBAT_SIG_X509, win, win_len);
	assert_non_null(e);
	assert_int_equal(e->list, 1);
	assert_int_equal(e->offset, 1492 + 28);
	assert_string_equal(sbat_sigdb_type_name(e->type), "EFI_CERT_X509_GUID");
	assert_non_null(sbat_sigdb_find(db, SBAT_SIG_X509, ms, ms_len));
	/* a prefix of a certificate is not the certificate */
	assert_null(sbat_sigdb_find(db, SBAT_SIG_X509, ms, ms_len - 1));
	assert_int_equal(sbat_sigdb_append_update(db, upd, upd_len, "DBUpdate2024.bin", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 2);
	sbat_sigdb_free(db);

	/* alone, the update adds its certificate, at its offset in the file */
	db = new_db();
	assert_int_equal(sbat_sigdb_append_update(db, upd, upd_len, "DBUpdate2024.bin", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 1);
	e = sbat_sigdb_find(db, SBAT_SIG_X509, win, win_len);
	assert_non_null(e);
	assert_int_equal(e->offset, 3334 + 28);
	assert_null(sbat_sigdb_find(db, SBAT_SIG_X509, ms, ms_len));
	sbat_sigdb_free(db);
	free(esl);
	free(upd);
	free(win);
	free(ms);
}

/* A malformed buffer: how it is made from a good one, and the diagnostic it must get. */
typedef struct bad_case {
	const char *name;
	void (*make)(bytes *b);
	int update; /* given to sbat_sigdb_append_update */
	const char *what;
	uint64_t offset;
	unsigned line, field;
} bad_case;

static void
mk_truncated(bytes *b)
{
	add_list(b, SHA256_GUID, 0, 48, 1, 1);
	b->n = 27;
}
static void
mk_list_zero(bytes *b)
{
	add_list(b, SHA256_GUID, 0, 48, 1, 1);
	put32(b->b + 16, 0);
}
static void
mk_list_small(bytes *b)
{
	add_list(b, SHA256_GUID, 0, 48, 1, 1);
	put32(b->b + 16, 20);
}
static void
mk_list_past(bytes *b)
{
	add_list(b, SHA256_GUID, 0, 48, 2, 1);
	put32(b->b + 16, 28 + 3 * 48);
}
static void
mk_sig_zero(bytes *b)
{
	add_list(b, SHA256_GUID, 0, 48, 1, 1);
	put32(b->b + 24, 0);
}
static void
mk_sig_small(bytes *b)
{
	add_list(b, OTHER_GUID, 0, 16, 2, 1);
	put32(b->b + 24, 15);
}
static void
mk_header_past(bytes *b)
{
	add_list(b, OTHER_GUID, 0, 20, 1, 1);
	put32(b->b + 20, 21);
}
static void
mk_cut(bytes *b)
{
	add_list(b, SHA256_GUID, 0, 48, 2, 1);
	put32(b->b + 16, 28 + 48 + 10);
	b->n = 28 + 48 + 10;
}
static void
mk_wrong_size(bytes *b)
{
	add_list(b, SHA256_GUID, 0, 40, 2, 1);
}
static void
mk_known_header(bytes *b)
{
	add_list(b, SHA256_GUID, 4, 48, 1, 1);
}
static void
mk_x509_empty(bytes *b)
{
	add_list(b, X509_GUID, 0, 16, 1, 1);
}
static void
mk_second_bad(bytes *b)
{
	add_list(b, SHA256_GUID, 0, 48, 2, 1);
	add_list(b, SHA1_GUID, 0, 36, 1, 9);
	b->n -= 8;
	put32(b->b + 124 + 16, 28 + 36 - 8);
}
static void
mk_auth_short_dw(bytes *b)
{
	add_auth2(b, 0);
	put32(b->b + 16, 23);
}
static void
mk_auth_past(bytes *b)
{
	add_auth2(b, 100);
	put32(b->b + 16, 24 + 101);
}
static void
mk_auth_type(bytes *b)
{
	add_auth2(b, 8);
	b->b[24] ^= 1;
}
static void
mk_auth_truncated(bytes *b)
{
	add_auth2(b, 0);
	b->n = 30;
}
static void
mk_auth_then_bad(bytes *b)
{
	add_auth2(b, 8);
	add_list(b, SHA256_GUID, 0, 48, 1, 1);
	put32(b->b + 48 + 24, 24);
}

static const bad_case bad_cases[] = {
	{ "header truncated", mk_truncated, 0, "EFI_SIGNATURE_LIST header truncated (28 bytes needed)", 0, 1, 0 },
	{ "SignatureListSize 0", mk_list_zero, 0, "EFI_SIGNATURE_LIST SignatureListSize is 0", 16, 1, 0 },
	{ "SignatureListSize 20", mk_list_small, 0, "EFI_SIGNATURE_LIST SignatureListSize is below its 28-byte header",
	  16, 1, 0 },
	{ "list past the end", mk_list_past, 0, "EFI_SIGNATURE_LIST SignatureListSize runs past the end of the data",
	  16, 1, 0 },
	{ "SignatureSize 0", mk_sig_zero, 0, "EFI_SIGNATURE_LIST SignatureSize is 0", 24, 1, 0 },
	{ "SignatureSize 15", mk_sig_small, 0, "EFI_SIGNATURE_LIST SignatureSize is below the 16-byte SignatureOwner",
	  24, 1, 0 },
	{ "header past the list", mk_header_past, 0,
	  "EFI_SIGNATURE_LIST SignatureHeaderSize runs past SignatureListSize", 20, 1, 0 },
	{ "last entry cut", mk_cut, 0, "EFI_SIGNATURE_LIST entries do not fill SignatureListSize: the last one is cut",
	  28 + 48, 1, 2 },
	{ "SHA-256 of 24 bytes", mk_wrong_size, 0, "EFI_SIGNATURE_LIST SignatureSize is not its SignatureType's size",
	  24, 1, 0 },
	{ "known type with a header", mk_known_header, 0,
	  "EFI_SIGNATURE_LIST SignatureHeaderSize is not 0 for a known SignatureType", 20, 1, 0 },
	{ "X.509 without certificate", mk_x509_empty, 0,
	  "EFI_SIGNATURE_LIST of X.509 certificates with SignatureSize 16: no certificate", 24, 1, 0 },
	{ "second list cut", mk_second_bad, 0,
	  "EFI_SIGNATURE_LIST entries do not fill SignatureListSize: the last one is cut", 124 + 28, 2, 1 },
	{ "dwLength 23", mk_auth_short_dw, 1, "EFI_VARIABLE_AUTHENTICATION_2 dwLength is below its 24-byte header", 16,
	  0, 0 },
	{ "dwLength past the end", mk_auth_past, 1,
	  "EFI_VARIABLE_AUTHENTICATION_2 dwLength runs past the end of the data", 16, 0, 0 },
	{ "CertType not PKCS7", mk_auth_type, 1,
	  "EFI_VARIABLE_AUTHENTICATION_2 CertType is not EFI_CERT_TYPE_PKCS7_GUID", 24, 0, 0 },
	{ "authentication truncated", mk_auth_truncated, 1, "EFI_VARIABLE_AUTHENTICATION_2 truncated (40 bytes needed)",
	  0, 0, 0 },
	{ "list after the header", mk_auth_then_bad, 1,
	  "EFI_SIGNATURE_LIST SignatureSize is not its SignatureType's size", 48 + 24, 1, 0 },
};

static void
test_sigdb_malformed(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const bad_case *c = &bad_cases[i];
		sbat_sigdb *db = new_db();
		bytes *b = calloc(1, sizeof(*b));
		uint8_t *exact;
		sbat_diag d;
		sbat_err err;

		assert_non_null(b);
		print_message("case: %s\n", c->name);
		c->make(b);
		exact = dup_exact(b->b, b->n);
		err = c->update ? sbat_sigdb_append_update(db, exact, b->n, "var", &d) :
		                  sbat_sigdb_append(db, exact, b->n, "var", &d);
		assert_int_equal(err, SBAT_E_EFIVAR);
		assert_int_equal(d.code, SBAT_E_EFIVAR);
		assert_string_equal(d.what, c->what);
		assert_int_equal(d.has_offset, 1);
		assert_int_equal(d.offset, c->offset);
		assert_int_equal(d.line, c->line);
		assert_int_equal(d.field, c->field);
		assert_string_equal(d.other_name, "var");
		assert_int_equal(d.other_index, -1);
		/* nothing of a malformed buffer is kept, not even its good lists */
		assert_int_equal(sbat_sigdb_count(db), 0);
		sbat_sigdb_free(db);
		free(exact);
		free(b);
	}
}

/* An unknown type is kept with its own sizes and header; the known ones are named. */
static void
test_sigdb_types(void **state)
{
	static const struct {
		sbat_sig_type t;
		const char *name;
	} names[] = {
		{ SBAT_SIG_SHA256, "EFI_CERT_SHA256_GUID" },
		{ SBAT_SIG_RSA2048_SHA1, "EFI_CERT_RSA2048_SHA1_GUID" },
		{ SBAT_SIG_X509_SHA512, "EFI_CERT_X509_SHA512_GUID" },
		{ SBAT_SIG_UNKNOWN, "unknown" },
		{ SBAT__SIG_MAX, "unknown" },
	};
	bytes b = { { 0 }, 0 };
	sbat_sigdb *db = new_db();
	const sbat_sigdb_entry *e;
	char guid[37];
	size_t i;

	(void)state;
	add_list(&b, OTHER_GUID, 8, 20, 2, 0x40);
	add_list(&b, SHA1_GUID, 0, 36, 1, 0x50);
	assert_int_equal(sbat_sigdb_append(db, b.b, b.n, "KEK", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 3);
	e = sbat_sigdb_get(db, 1);
	assert_int_equal(e->type, SBAT_SIG_UNKNOWN);
	assert_int_equal(e->data_len, 4);
	assert_int_equal(e->data[0], 0x41);
	assert_int_equal(e->offset, 28 + 8 + 20);
	sbat_sigdb_guid_format(e->type_guid, guid);
	assert_string_equal(guid, "04030201-0605-0807-090a-0b0c0d0e0f10");
	e = sbat_sigdb_get(db, 2);
	assert_int_equal(e->type, SBAT_SIG_SHA1);
	assert_int_equal(e->list, 1);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_string_equal(sbat_sigdb_type_name(names[i].t), names[i].name);
	/* an empty buffer, and a list without entries, add nothing */
	assert_int_equal(sbat_sigdb_append(db, b.b, 0, "empty", NULL), SBAT_OK);
	b.n = 0;
	add_list(&b, SHA256_GUID, 0, 48, 0, 0);
	assert_int_equal(sbat_sigdb_append(db, b.b, b.n, "none", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 3);
	sbat_sigdb_free(db);
}

/* A revoked certificate's TBS hash, then the EFI_TIME of its revocation. */
static void
test_sigdb_x509_tbs(void **state)
{
	bytes b = { { 0 }, 0 };
	uint8_t hash[32];
	sbat_sigdb *db = new_db();
	const sbat_sigdb_entry *e;

	(void)state;
	add_list(&b, X509_SHA256_GUID, 0, 16 + 48, 2, 0x70);
	assert_int_equal(sbat_sigdb_append(db, b.b, b.n, "dbx", NULL), SBAT_OK);
	memset(hash, 0x71, sizeof(hash));
	e = sbat_sigdb_find(db, SBAT_SIG_X509_SHA256, hash, 32);
	assert_non_null(e);
	assert_int_equal(e->data_len, 48);
	assert_int_equal(e->offset, 28 + 64);
	/* a SHA-256 entry of the same bytes is another type */
	assert_null(sbat_sigdb_find(db, SBAT_SIG_SHA256, hash, 32));
	memset(hash, 0x72, sizeof(hash));
	assert_null(sbat_sigdb_find(db, SBAT_SIG_X509_SHA256, hash, 32));
	sbat_sigdb_free(db);
}

/* Equal type, owner and data: added once, within a buffer and across; another owner is another entry. */
static void
test_sigdb_duplicates(void **state)
{
	bytes b = { { 0 }, 0 };
	sbat_sigdb *db = new_db();
	size_t off;

	(void)state;
	add_list(&b, SHA256_GUID, 0, 48, 2, 1);
	off = add_list(&b, SHA256_GUID, 0, 48, 1, 1);
	assert_int_equal(sbat_sigdb_append(db, b.b, b.n, "db", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 2);
	assert_int_equal(sbat_sigdb_append(db, b.b, b.n, "db", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 2);
	b.b[off + 28] ^= 0xff; /* the last entry's owner */
	assert_int_equal(sbat_sigdb_append(db, b.b, b.n, "db", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 3);
	assert_int_equal(sbat_sigdb_get(db, 2)->offset, off + 28);
	sbat_sigdb_free(db);
}

/* What efivarfs holds: attribute bytes first, missing distinct from empty, links and directories refused. */
static void
test_sigdb_efivar(void **state)
{
	bytes b = { { 0 }, 0 };
	sbat_sigdb *db = new_db();
	sbat_sigdb_var st;
	sbat_diag d;
	char p[8192], q[8192];

	(void)state;
	add_list(&b, SHA256_GUID, 0, 48, 3, 1);
	put_var(DB_FILE, b.b, b.n);
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "db", SBAT_SIGDB_GUID_SECURITY_DB, &st, &d), SBAT_OK);
	assert_int_equal(st, SBAT_SIGDB_VAR_LOADED);
	assert_int_equal(sbat_sigdb_count(db), 3);
	assert_int_equal(sbat_sigdb_get(db, 0)->offset, 4 + 28);
	assert_string_equal(sbat_sigdb_get(db, 0)->source, "db");

	st = SBAT_SIGDB_VAR_LOADED;
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "dbx", SBAT_SIGDB_GUID_SECURITY_DB, &st, &d), SBAT_OK);
	assert_int_equal(st, SBAT_SIGDB_VAR_MISSING);
	put_var("KEK-" SBAT_SIGDB_GUID_GLOBAL, NULL, 0);
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "KEK", SBAT_SIGDB_GUID_GLOBAL, &st, &d), SBAT_OK);
	assert_int_equal(st, SBAT_SIGDB_VAR_EMPTY);
	put_raw("PK-" SBAT_SIGDB_GUID_GLOBAL, NULL, 0);
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "PK", SBAT_SIGDB_GUID_GLOBAL, &st, &d), SBAT_OK);
	assert_int_equal(st, SBAT_SIGDB_VAR_EMPTY);
	put_raw("PK-" SBAT_SIGDB_GUID_GLOBAL, (const uint8_t *)"\x27\x00", 2);
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "PK", SBAT_SIGDB_GUID_GLOBAL, &st, &d), SBAT_E_EFIVAR);
	assert_string_equal(d.what, "efivarfs file shorter than its 4 attribute bytes");

	/* a malformed variable: the offset counts the attribute bytes */
	put32(b.b + 24, 24);
	put_var("dbx-" SBAT_SIGDB_GUID_SECURITY_DB, b.b, b.n);
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "dbx", SBAT_SIGDB_GUID_SECURITY_DB, &st, &d), SBAT_E_EFIVAR);
	assert_int_equal(d.offset, 4 + 24);
	assert_string_equal(d.other_name, "dbx");

	/* a link to a good variable is not followed; a directory is no variable */
	snprintf(p, sizeof(p), "%s/%s", root, "db-" SBAT_SIGDB_GUID_GLOBAL);
	assert_int_equal(symlink(DB_FILE, p), 0);
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "db", SBAT_SIGDB_GUID_GLOBAL, &st, &d), SBAT_E_NOT_REGULAR);
	assert_int_equal(st, SBAT_SIGDB_VAR_MISSING);
	snprintf(q, sizeof(q), "%s/%s", root, "KEK-" SBAT_SIGDB_GUID_SECURITY_DB);
	assert_int_equal(mkdir(q, 0700), 0);
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "KEK", SBAT_SIGDB_GUID_SECURITY_DB, &st, &d),
	                 SBAT_E_NOT_REGULAR);

	/* names that are not one file, GUIDs not as efivarfs writes them */
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "../db", SBAT_SIGDB_GUID_SECURITY_DB, &st, &d), SBAT_E_IO);
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "db", "D719B2CB-3D3A-4596-A3BC-DAD00E67656F", &st, &d),
	                 SBAT_E_IO);
	assert_int_equal(sbat_sigdb_count(db), 3);
	sbat_sigdb_free(db);
}

/* A variable over 1 MiB is refused before it is parsed. */
static void
test_sigdb_too_big(void **state)
{
	sbat_sigdb *db = new_db();
	sbat_sigdb_var st;
	sbat_diag d;
	char p[8192];
	int fd;

	(void)state;
	snprintf(p, sizeof(p), "%s/%s", root, "big-" SBAT_SIGDB_GUID_GLOBAL);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, SBAT_SIGDB_MAX_FILE + 1), 0);
	close(fd);
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "big", SBAT_SIGDB_GUID_GLOBAL, &st, &d), SBAT_E_TOO_BIG);
	assert_string_equal(d.other_name, "big");
	sbat_sigdb_free(db);
}

/* shim's MokListRT in pieces: MokListRT, MokListRT1, MokListRT2, read up to the first missing. */
static void
test_sigdb_moklist_pieces(void **state)
{
	static const char *const pieces[] = { "MokListRT", "MokListRT1", "MokListRT2", "MokListRT4" };
	sbat_sigdb *db = new_db();
	sbat_sigdb_var st;
	sbat_diag d;
	bytes b = { { 0 }, 0 };
	char name[256];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		b.n = 0;
		add_list(&b, SHA256_GUID, 0, 48, 2, (uint8_t)(0x10 * (i + 1)));
		snprintf(name, sizeof(name), "%s-%s", pieces[i], SBAT_SIGDB_GUID_SHIM);
		put_var(name, b.b, b.n);
	}
	b.n = 0;
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "MokListRT", SBAT_SIGDB_GUID_SHIM, &st, NULL), SBAT_OK);
	assert_int_equal(st, SBAT_SIGDB_VAR_LOADED);
	/* MokListRT4 comes after the missing MokListRT3: not read */
	assert_int_equal(sbat_sigdb_count(db), 6);
	assert_string_equal(sbat_sigdb_get(db, 0)->source, "MokListRT");
	assert_string_equal(sbat_sigdb_get(db, 2)->source, "MokListRT1");
	assert_string_equal(sbat_sigdb_get(db, 5)->source, "MokListRT2");
	assert_int_equal(sbat_sigdb_get(db, 5)->offset, 4 + 28 + 48);
	sbat_sigdb_free(db);

	/* only shim's lists come in pieces: MokListRT1 alone, or under another GUID, is itself */
	db = new_db();
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "MokListRT1", SBAT_SIGDB_GUID_SHIM, &st, NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 2);
	sbat_sigdb_free(db);

	/* a malformed piece: named, the pieces before it kept, the variable not known */
	add_list(&b, SHA256_GUID, 0, 48, 1, 0x60);
	put_var("MokListXRT-" SBAT_SIGDB_GUID_SHIM, b.b, b.n);
	put_var("MokListXRT1-" SBAT_SIGDB_GUID_SHIM, b.b, 27);
	db = new_db();
	assert_int_equal(sbat_sigdb_load_efivar(db, root, "MokListXRT", SBAT_SIGDB_GUID_SHIM, &st, &d), SBAT_E_EFIVAR);
	assert_int_equal(st, SBAT_SIGDB_VAR_MISSING);
	assert_string_equal(d.other_name, "MokListXRT1");
	assert_int_equal(d.offset, 4);
	assert_int_equal(sbat_sigdb_count(db), 1);
	sbat_sigdb_free(db);
}

/* Files of lists (an update, shim's configuration table): read whole, the authentication header skipped. */
static void
test_sigdb_load_file(void **state)
{
	const char *src = getenv("FIXTURES_SRC");
	char dir[4096];
	sbat_sigdb *db;
	sbat_sigdb_var st;
	bytes b = { { 0 }, 0 };

	(void)state;
	if (!src)
		skip();
	snprintf(dir, sizeof(dir), "%s/sigdb", src);
	db = new_db();
	assert_int_equal(sbat_sigdb_load_file(db, dir, "db-update-2024.bin", &st, NULL), SBAT_OK);
	assert_int_equal(st, SBAT_SIGDB_VAR_LOADED);
	assert_int_equal(sbat_sigdb_count(db), 1);
	assert_int_equal(sbat_sigdb_get(db, 0)->offset, 3334 + 28);
	assert_int_equal(sbat_sigdb_load_file(db, dir, "no-such-file", &st, NULL), SBAT_OK);
	assert_int_equal(st, SBAT_SIGDB_VAR_MISSING);
	/* a mok-variables file: plain lists, no attribute bytes */
	add_list(&b, SHA256_GUID, 0, 48, 1, 0x33);
	put_raw("MokListRT", b.b, b.n);
	assert_int_equal(sbat_sigdb_load_file(db, root, "MokListRT", &st, NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(db), 2);
	assert_int_equal(sbat_sigdb_get(db, 1)->offset, 28);
	put_raw("empty", NULL, 0);
	assert_int_equal(sbat_sigdb_load_file(db, root, "empty", &st, NULL), SBAT_OK);
	assert_int_equal(st, SBAT_SIGDB_VAR_EMPTY);
	sbat_sigdb_free(db);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "%s/sbat-sigdb-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	return 0;
}

/* The entries of one of Microsoft's updates (tests/fixtures/secureboot-updates), appended to a new database. */
static sbat_sigdb *
update_db(const char *name)
{
	char rel[256];
	size_t len;
	uint8_t *buf;
	sbat_sigdb *db;

	snprintf(rel, sizeof(rel), "../secureboot-updates/%s", name);
	buf = read_fixture(rel, &len);
	if (!buf)
		return NULL;
	db = new_db();
	assert_int_equal(sbat_sigdb_append_update(db, buf, len, name, NULL), SBAT_OK);
	free(buf);
	return db;
}

/*
 * Microsoft's SVN entries: DBXUpdate2024.bin holds the Windows Production
 * PCA 2011 and the floors of bootmgr, cdboot and wdsmgfw at 2.0;
 * DBXUpdateSVN.bin the same applications at 9.0, 3.0 and 3.0. Appended one
 * after the other, the highest floor of each holds.
 */
static void
test_sigdb_svn(void **state)
{
	static const struct {
		sbat_svn_app app;
		const char *name, *guid;
		uint16_t major;
	} want[] = { { SBAT_SVN_APP_BOOTMGR, "bootmgr", "9d132b61-59d5-4388-ab1c-185c3cb2eb92", 9 },
		     { SBAT_SVN_APP_CDBOOT, "cdboot", "e8f82e9d-e127-4158-a488-4c18abe2f284", 3 },
		     { SBAT_SVN_APP_WDSMGFW, "wdsmgfw", "c999cac2-7ffe-496f-8127-9e2a8a535976", 3 } };
	sbat_sigdb *db2024 = update_db("DBXUpdate2024.bin"), *dbsvn = update_db("DBXUpdateSVN.bin");
	const sbat_sigdb_entry *e;
	sbat_sigdb_svn s;
	char guid[37];
	size_t i;

	(void)state;
	if (!db2024 || !dbsvn)
		skip();
	/* 2024: the certificate is no SVN entry, the three after it are, at 2.0 */
	assert_int_equal(sbat_sigdb_count(db2024), 4);
	assert_int_equal(sbat_sigdb_get(db2024, 0)->type, SBAT_SIG_X509);
	assert_int_equal(sbat_sigdb_svn_read(sbat_sigdb_get(db2024, 0), &s), 0);
	for (i = 0; i < 3; i++) {
		e = sbat_sigdb_get(db2024, i + 1);
		assert_int_equal(e->type, SBAT_SIG_SHA256);
		sbat_sigdb_guid_format(e->owner, guid);
		assert_string_equal(guid, SBAT_SIGDB_GUID_SVN_OWNER);
		assert_int_equal(sbat_sigdb_svn_read(e, &s), 1);
		assert_int_equal(s.version, 1);
		assert_int_equal(s.app, want[i].app);
		assert_string_equal(sbat_sigdb_svn_app_name(s.app), want[i].name);
		sbat_sigdb_guid_format(s.app_guid, guid);
		assert_string_equal(guid, want[i].guid);
		assert_int_equal(s.major, 2);
		assert_int_equal(s.minor, 0);
	}
	/* SVN: 9.0, 3.0, 3.0 */
	assert_int_equal(sbat_sigdb_count(dbsvn), 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(sbat_sigdb_svn_read(sbat_sigdb_get(dbsvn, i), &s), 1);
		assert_int_equal(s.app, want[i].app);
		assert_int_equal(s.major, want[i].major);
		assert_int_equal(s.minor, 0);
	}
	/* both: the highest floor of each application */
	sbat_sigdb_free(dbsvn);
	dbsvn = update_db("DBXUpdateSVN.bin");
	{
		char rel[] = "../secureboot-updates/DBXUpdate2024.bin";
		size_t len;
		uint8_t *buf = read_fixture(rel, &len);

		assert_int_equal(sbat_sigdb_append_update(dbsvn, buf, len, "DBXUpdate2024.bin", NULL), SBAT_OK);
		free(buf);
	}
	assert_int_equal(sbat_sigdb_count(dbsvn), 7);
	for (i = 0; i < 3; i++) {
		assert_int_equal(sbat_sigdb_svn_floor(dbsvn, want[i].app, &s), 1);
		assert_int_equal(s.major, want[i].major);
		assert_int_equal(sbat_sigdb_svn_floor(db2024, want[i].app, &s), 1);
		assert_int_equal(s.major, 2);
	}
	assert_int_equal(sbat_sigdb_svn_floor(dbsvn, SBAT_SVN_APP_UNKNOWN, &s), 0);
	assert_int_equal(sbat_sigdb_svn_floor(NULL, SBAT_SVN_APP_BOOTMGR, &s), 0);
	assert_string_equal(sbat_sigdb_svn_app_name(SBAT_SVN_APP_UNKNOWN), "unknown");
	assert_string_equal(sbat_sigdb_svn_app_name(SBAT__SVN_APP_MAX), "unknown");
	/* an image hash of the same size, by another owner, is none */
	{
		uint8_t data[32] = { 1 };
		sbat_sigdb_entry h;

		memset(&h, 0, sizeof(h));
		h.type = SBAT_SIG_SHA256;
		memcpy(h.owner, OWNER, 16);
		h.data = data;
		h.data_len = 32;
		assert_int_equal(sbat_sigdb_svn_read(&h, &s), 0);
	}
	sbat_sigdb_free(db2024);
	sbat_sigdb_free(dbsvn);
}

static int
teardown(void **state)
{
	char cmd[8300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigdb_dbx_update_fixture),
		cmocka_unit_test(test_sigdb_x509_fixture),
		cmocka_unit_test(test_sigdb_malformed),
		cmocka_unit_test(test_sigdb_types),
		cmocka_unit_test(test_sigdb_x509_tbs),
		cmocka_unit_test(test_sigdb_duplicates),
		cmocka_unit_test(test_sigdb_efivar),
		cmocka_unit_test(test_sigdb_too_big),
		cmocka_unit_test(test_sigdb_moklist_pieces),
		cmocka_unit_test(test_sigdb_load_file),
		cmocka_unit_test(test_sigdb_svn),
	};

	return run_group(tests, setup, teardown);
}
