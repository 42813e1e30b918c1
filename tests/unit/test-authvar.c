/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-authvar.c - Microsoft's published db, dbx and KEK updates checked as the firmware checks the write:
 * each against the key it was made for, against another, and damaged in each part the signature covers */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sigdb.h"

#include "sig/authvar.h"

/* EFI_CERT_X509_GUID as stored */
static const uint8_t x509_guid[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
	                               0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };

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
	snprintf(p, sizeof(p), "%s/secureboot-updates/%s", src, name);
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

static void
put32(uint8_t *p, size_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* A database holding the certificate fixture `name` as one EFI_CERT_X509 list (NULL: empty). */
static sbat_sigdb *
cert_db(const char *name)
{
	sbat_sigdb *db;
	uint8_t *der, *esl;
	size_t len;

	assert_int_equal(sbat_sigdb_new(&db, NULL), SBAT_OK);
	if (!name)
		return db;
	der = read_fixture(name, &len);
	esl = calloc(1, 28 + 16 + len);
	assert_non_null(esl);
	memcpy(esl, x509_guid, 16);
	put32(esl + 16, 28 + 16 + len);
	put32(esl + 24, 16 + len);
	memcpy(esl + 28 + 16, der, len);
	assert_int_equal(sbat_sigdb_append(db, esl, 28 + 16 + len, name, NULL), SBAT_OK);
	free(esl);
	free(der);
	return db;
}

static authvar_check
check(const char *file, const char *var, const char *pk_cert, const char *kek_cert)
{
	sbat_sigdb *pk = cert_db(pk_cert), *kek = cert_db(kek_cert);
	size_t len;
	uint8_t *buf = read_fixture(file, &len);
	authvar_check c;
	sbat_diag d;

	assert_int_equal(authvar_check_update(buf, len, var, pk, kek, &c, &d), SBAT_OK);
	free(buf);
	sbat_sigdb_free(pk);
	sbat_sigdb_free(kek);
	return c;
}

#define KEK_CA_2011 "MicCorKEKCA2011_2011-06-24.der"

/* The dbx and db updates verify against the Microsoft Corporation KEK CA 2011, and only as the variable they are. */
static void
test_authvar_db_updates(void **state)
{
	static const struct {
		const char *file, *var;
	} ok[] = { { "DBXUpdate.bin", "dbx" },
		   { "DBXUpdate2024.bin", "dbx" },
		   { "DBXUpdateSVN.bin", "dbx" },
		   { "DBUpdate3P2023.bin", "db" } };
	authvar_check c;
	size_t i;

	(void)state;
	if (!getenv("FIXTURES_SRC"))
		skip();
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		c = check(ok[i].file, ok[i].var, NULL, KEK_CA_2011);
		assert_int_equal(c.result, AUTHVAR_ACCEPTED);
		assert_int_equal(c.by_pk, 0);
		assert_string_equal(c.key, "C=US, O=Microsoft Corporation, CN=Microsoft Corporation KEK CA 2011");
		assert_string_equal(c.signer,
		                    "C=US, O=Microsoft Corporation, CN=Microsoft Windows UEFI Key Exchange Key");
		/* signed as that variable: as another, the signed data differs */
		c = check(ok[i].file, strcmp(ok[i].var, "db") == 0 ? "dbx" : "db", NULL, KEK_CA_2011);
		assert_int_equal(c.result, AUTHVAR_BAD_SIGNATURE);
		/* a machine whose KEK lacks Microsoft's CA refuses it */
		c = check(ok[i].file, ok[i].var, NULL, "pk/WindowsOEMDevicesPK.der");
		assert_int_equal(c.result, AUTHVAR_NOT_SIGNED_BY_KEY);
		c = check(ok[i].file, ok[i].var, NULL, NULL);
		assert_int_equal(c.result, AUTHVAR_NOT_SIGNED_BY_KEY);
	}
	c = check("DBXUpdate.bin", "dbx", NULL, KEK_CA_2011);
	assert_int_equal(c.payload_offset, 16 + 3321);
}

/* Each KEK update verifies against the PK it was made for (kek_update_map.json), and no other. */
static void
test_authvar_kek_updates(void **state)
{
	static const struct {
		const char *file, *pk, *subject;
	} kek[] = {
		{ "kek/Microsoft/KEKUpdate_Microsoft_PK3d8660c0.bin", "pk/WindowsOEMDevicesPK.der",
		  "C=US, O=Microsoft Corporation, CN=Windows OEM Devices PK" },
		{ "kek/Microsoft/KEKUpdate_Microsoft_PK1.bin", "pk/MicrosoftHyperVFirmwarePK.der",
		  "C=US, O=Microsoft Corporation, CN=Microsoft Hyper-V Firmware PK" },
		{ "kek/AMI/KEKUpdate_AMI_PK1.bin", "pk/AMITestPK1.der", "CN=DO NOT TRUST - AMI Test PK" },
	};
	size_t i, j;
	authvar_check c;

	(void)state;
	if (!getenv("FIXTURES_SRC"))
		skip();
	for (i = 0; i < sizeof(kek) / sizeof(kek[0]); i++) {
		c = check(kek[i].file, "KEK", kek[i].pk, NULL);
		assert_int_equal(c.result, AUTHVAR_ACCEPTED);
		assert_int_equal(c.by_pk, 1);
		assert_string_equal(c.key, kek[i].subject);
		for (j = 0; j < sizeof(kek) / sizeof(kek[0]); j++)
			if (j != i)
				assert_int_equal(check(kek[i].file, "KEK", kek[j].pk, NULL).result,
				                 AUTHVAR_NOT_SIGNED_BY_KEY);
		/* a KEK update is PK's to sign: Microsoft's KEK CA in KEK does not make it pass */
		assert_int_equal(check(kek[i].file, "KEK", NULL, KEK_CA_2011).result, AUTHVAR_NOT_SIGNED_BY_KEY);
	}
	/* signed as KEK: offered as dbx, even to the PK that signed it, the signed data differs */
	assert_int_equal(check("kek/AMI/KEKUpdate_AMI_PK1.bin", "dbx", "pk/AMITestPK1.der", NULL).result,
	                 AUTHVAR_BAD_SIGNATURE);
}

/* One byte changed in the lists, the timestamp, the signature or the header: the firmware refuses the write. */
static void
test_authvar_damaged(void **state)
{
	sbat_sigdb *kek;
	size_t len, i;
	uint8_t *buf;
	authvar_check c;
	sbat_diag d;
	const size_t sig_end = 16 + 3321;
	const struct {
		size_t at;
		authvar_result want;
	} at[] = {
		{ 0, AUTHVAR_BAD_SIGNATURE },                 /* the year */
		{ 6, AUTHVAR_BAD_SIGNATURE },                 /* the second */
		{ 8, AUTHVAR_BAD_TIME },                      /* Nanosecond */
		{ 15, AUTHVAR_BAD_TIME },                     /* Pad2 */
		{ sig_end - 5, AUTHVAR_BAD_SIGNATURE },       /* the RSA signature */
		{ sig_end - 256, AUTHVAR_BAD_SIGNATURE },     /* its first byte */
		{ sig_end + 28 + 20, AUTHVAR_BAD_SIGNATURE }, /* a hash of the list */
		{ 0, AUTHVAR_ACCEPTED },                      /* (the last undone) */
	};

	(void)state;
	if (!getenv("FIXTURES_SRC"))
		skip();
	kek = cert_db(KEK_CA_2011);
	buf = read_fixture("DBXUpdate.bin", &len);
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		if (i + 1 < sizeof(at) / sizeof(at[0]))
			buf[at[i].at] ^= 0x01;
		assert_int_equal(authvar_check_update(buf, len, "dbx", NULL, kek, &c, &d), SBAT_OK);
		assert_int_equal(c.result, at[i].want);
		buf[at[i].at] ^= 0x01;
	}
	/* the SHA-256 OID EDK2 reads at byte 13 of the SignedData */
	buf[16 + 24 + 13 + 8] ^= 0x01;
	assert_int_equal(authvar_check_update(buf, len, "dbx", NULL, kek, &c, &d), SBAT_OK);
	assert_int_equal(c.result, AUTHVAR_NOT_SHA256);
	buf[16 + 24 + 13 + 8] ^= 0x01;
	/* a dwLength that runs past the file: an error naming it, not a verdict */
	buf[16 + 1] = 0x7f;
	assert_int_equal(authvar_check_update(buf, len, "dbx", NULL, kek, &c, &d), SBAT_E_EFIVAR);
	assert_string_equal(d.what, "EFI_VARIABLE_AUTHENTICATION_2 dwLength runs past the end of the data");
	free(buf);
	sbat_sigdb_free(kek);
}

/* Plain lists are not an authenticated write; a variable other than db, dbx, KEK is not checked. */
static void
test_authvar_plain(void **state)
{
	uint8_t esl[28 + 16 + 32] = { 0 };
	authvar_check c;
	sbat_diag d;
	static const uint8_t sha256_guid[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
		                                 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };

	(void)state;
	memcpy(esl, sha256_guid, 16);
	put32(esl + 16, sizeof(esl));
	put32(esl + 24, 48);
	assert_int_equal(authvar_check_update(esl, sizeof(esl), "dbx", NULL, NULL, &c, &d), SBAT_OK);
	assert_int_equal(c.result, AUTHVAR_NOT_AUTHENTICATED);
	assert_int_equal(c.payload_offset, 0);
	esl[20] = 0xff; /* SignatureListSize past the end */
	assert_int_equal(authvar_check_update(esl, sizeof(esl), "dbx", NULL, NULL, &c, &d), SBAT_E_EFIVAR);
}

/*
 * The firmware's append drops what the variable holds (owner and data): DBXUpdate2024 (a certificate and three
 * SVN entries at 2.0) then DBXUpdateSVN (the same three applications at 9.0 and 3.0: new), then each again.
 */
static void
test_authvar_append(void **state)
{
	sbat_sigdb *dbx, *kek;
	size_t len, len2, n;
	uint8_t *all = NULL, *svn;
	authvar_check c;

	(void)state;
	if (!getenv("FIXTURES_SRC"))
		skip();
	kek = cert_db(KEK_CA_2011);
	assert_int_equal(sbat_sigdb_new(&dbx, NULL), SBAT_OK);
	all = read_fixture("DBXUpdate2024.bin", &len);
	svn = read_fixture("DBXUpdateSVN.bin", &len2);
	assert_int_equal(authvar_check_update(all, len, "dbx", NULL, kek, &c, NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_append(dbx, all + c.payload_offset, len - c.payload_offset, "2024", NULL), SBAT_OK);
	n = sbat_sigdb_count(dbx);
	assert_int_equal(n, 4);
	assert_int_equal(authvar_check_update(svn, len2, "dbx", NULL, kek, &c, NULL), SBAT_OK);
	assert_int_equal(c.result, AUTHVAR_ACCEPTED);
	assert_int_equal(sbat_sigdb_append(dbx, svn + c.payload_offset, len2 - c.payload_offset, "svn", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(dbx), 7);
	assert_int_equal(sbat_sigdb_append(dbx, svn + c.payload_offset, len2 - c.payload_offset, "svn", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_append(dbx, all + 16 + 3321, len - 16 - 3321, "2024", NULL), SBAT_OK);
	assert_int_equal(sbat_sigdb_count(dbx), 7);
	free(all);
	free(svn);
	sbat_sigdb_free(dbx);
	sbat_sigdb_free(kek);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_authvar_db_updates), cmocka_unit_test(test_authvar_kek_updates),
		cmocka_unit_test(test_authvar_damaged),    cmocka_unit_test(test_authvar_plain),
		cmocka_unit_test(test_authvar_append),
	};

	return run_group(tests, NULL, NULL);
}
