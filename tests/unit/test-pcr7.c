/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-pcr7.c - sbat_pcr7: every PCR 7 event of real logs made again from the variables they measured, and the
 * next boot's PCR 7 after a dbx or db change, held against values computed here by hand */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/efivar.h"
#include "sbat/eventlog.h"
#include "sbat/pcr7.h"
#include "sbat/sigdb.h"

#include "util/sha256.h"

static char root[1024];

static sbat_eventlog *
read_log(const char *name)
{
	char path[4096];
	sbat_eventlog *log;
	sbat_diag d;

	snprintf(path, sizeof(path), "%s/eventlog/%s/binary_bios_measurements", getenv("FIXTURES_SRC"), name);
	assert_int_equal(sbat_eventlog_read(path, &log, &d), SBAT_OK);
	return log;
}

/* A copy of fixture name's efivars/ under root, to change; its path into dir. */
static void
copy_efivars(const char *name, char *dir, size_t size)
{
	char cmd[16384];

	snprintf(dir, size, "%s/%s-efivars", root, name);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -r '%s/eventlog/%s/efivars' '%s'", dir, getenv("FIXTURES_SRC"),
	         name, dir);
	assert_int_equal(system(cmd), 0);
}

static sbat_pcr7 *
build(const sbat_eventlog *log, const char *efivars)
{
	sbat_pcr7_vars *vars;
	sbat_pcr7 *m;
	sbat_diag d;

	assert_int_equal(sbat_pcr7_vars_new(efivars, &vars, &d), SBAT_OK);
	assert_int_equal(sbat_pcr7_build(log, vars, &m, &d), SBAT_OK);
	sbat_pcr7_vars_free(vars);
	return m;
}

/* The TPM's PCR 7 of bank name in fixture fixture, from its pcrs file ("BANK N HEX" lines), into out. */
static size_t
tpm_pcr7(const char *fixture, const char *name, uint8_t *out)
{
	char path[4096], bank[32], hex[2 * SBAT_EVENTLOG_MAX_DIGEST + 2];
	unsigned n, v;
	size_t i = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/eventlog/%s/pcrs", getenv("FIXTURES_SRC"), fixture);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fscanf(f, "%31s %u %129s", bank, &n, hex) == 3) {
		if (strcmp(bank, name) != 0 || n != 7)
			continue;
		for (i = 0; 2 * i + 1 < strlen(hex); i++) {
			assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
			out[i] = (uint8_t)v;
		}
		break;
	}
	fclose(f);
	assert_true(i > 0);
	return i;
}

/* Every PCR 7 event of fixture name is made again, bit for bit in every bank; PCR 7 replays to the TPM's. */
static void
reproduce_fixture(const char *name, size_t want_events, size_t want_authorities)
{
	char dir[4096];
	sbat_eventlog *log = read_log(name);
	sbat_pcr7 *m;
	uint8_t tpm[SBAT_EVENTLOG_MAX_DIGEST];
	size_t i, authorities = 0;

	snprintf(dir, sizeof(dir), "%s/eventlog/%s/efivars", getenv("FIXTURES_SRC"), name);
	m = build(log, dir);
	assert_int_equal(sbat_pcr7_event_count(m), want_events);
	for (i = 0; i < sbat_pcr7_event_count(m); i++) {
		const sbat_pcr7_event *x = sbat_pcr7_event_at(m, i);
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, x->log_index);

		assert_int_equal(x->state, SBAT_PCR7_REPRODUCED);
		assert_int_equal(x->has_digest, 0xf);
		assert_int_equal(x->banks_differ, 0);
		assert_int_equal(e->pcr, 7);
		/* the event data made is the log's, byte for byte */
		assert_int_equal(x->data_len, e->data_len);
		assert_memory_equal(x->data, e->data, e->data_len);
		authorities += x->kind == SBAT_PCR7_AUTHORITY;
	}
	assert_int_equal(authorities, want_authorities);
	assert_int_equal(sbat_pcr7_event_at(m, 0)->kind, SBAT_PCR7_VARIABLE);
	assert_string_equal(sbat_pcr7_event_at(m, 0)->name, "SecureBoot");
	assert_string_equal(sbat_pcr7_event_at(m, 4)->name, "dbx");
	assert_string_equal(sbat_pcr7_event_at(m, 4)->guid, SBAT_SIGDB_GUID_SECURITY_DB);
	assert_int_equal(sbat_pcr7_event_at(m, 5)->kind, SBAT_PCR7_SEPARATOR);
	assert_int_equal(sbat_pcr7_bank_count(m), 4);
	for (i = 0; i < 4; i++) {
		const sbat_pcr7_bank *k = sbat_pcr7_bank_at(m, i);

		assert_int_equal(k->predicted, 1);
		assert_int_equal(k->today_known, 1);
		assert_int_equal(tpm_pcr7(name, k->name, tpm), k->digest_size);
		assert_memory_equal(k->value, tpm, k->digest_size);
		assert_memory_equal(k->today, tpm, k->digest_size);
	}
	sbat_pcr7_free(m);
	sbat_eventlog_free(log);
}

/* OVMF without Secure Boot: SecureBoot 0, and PK, KEK, db, dbx absent, each measured with no data */
static void
test_pcr7_ovmf(void **state)
{
	(void)state;
	reproduce_fixture("ovmf", 6, 0);
}

/* With Secure Boot: the five variables, the separator and the db certificate that verified the UKI */
static void
test_pcr7_ovmf_secure_boot(void **state)
{
	(void)state;
	reproduce_fixture("ovmf-sb", 7, 1);
}

/* The variables of another boot: the events are made, and differ from the log's where the variables do. */
static void
test_pcr7_other_variables(void **state)
{
	char dir[4096];
	sbat_eventlog *log = read_log("ovmf");
	sbat_pcr7 *m;
	size_t i;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/eventlog/ovmf-sb/efivars", getenv("FIXTURES_SRC"));
	m = build(log, dir);
	for (i = 0; i < 6; i++) {
		const sbat_pcr7_event *x = sbat_pcr7_event_at(m, i);

		assert_int_equal(x->state, i == 5 ? SBAT_PCR7_REPRODUCED : SBAT_PCR7_DIFFERS);
		assert_int_equal(x->banks_differ, i == 5 ? 0 : 0xf);
	}
	assert_non_null(sbat_pcr7_event_at(m, 0)->why);
	for (i = 0; i < 4; i++) {
		const sbat_pcr7_bank *k = sbat_pcr7_bank_at(m, i);

		assert_int_equal(k->predicted, 1);
		assert_memory_not_equal(k->value, k->today, k->digest_size);
	}
	sbat_pcr7_free(m);
	sbat_eventlog_free(log);
}

/* One EFI_SIGNATURE_LIST of SHA-256 entries: owner o, hash bytes h[i] (each all h[i]), n of them, into out. */
static size_t
sha256_list(uint8_t *out, uint8_t o, const uint8_t *h, size_t n)
{
	/* EFI_CERT_SHA256_GUID c1c41626-504c-4092-aca9-41f936934328, as stored */
	static const uint8_t type[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
		                          0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };
	size_t i, len = 28 + 48 * n;

	memcpy(out, type, 16);
	out[16] = (uint8_t)len;
	out[17] = (uint8_t)(len >> 8);
	memset(out + 18, 0, 10);
	out[24] = 48;
	for (i = 0; i < n; i++) {
		memset(out + 28 + 48 * i, o, 16);
		memset(out + 28 + 48 * i + 16, h[i], 32);
	}
	return len;
}

/* A variable's data in an efivarfs copy (attributes skipped) into buf; its length. */
static size_t
var_data(const char *dir, const char *file, uint8_t *buf, size_t size)
{
	uint8_t *p;
	size_t len;
	sbat_diag d;

	assert_int_equal(sbat_efivar_read(dir, file, 0, &p, &len, &d), SBAT_OK);
	assert_non_null(p);
	assert_true(len - 4 <= size);
	memcpy(buf, p + 4, len - 4);
	free(p);
	return len - 4;
}

/* The SHA-256 of UEFI_VARIABLE_DATA {security db GUID, "dbx", data}, made here by hand. */
static void
dbx_event_sha256(const uint8_t *data, size_t len, uint8_t out[32])
{
	static const uint8_t head[16 + 16 + 6] = {
		0xcb, 0xb2, 0x19, 0xd7, 0x3a, 0x3d, 0x96, 0x45, 0xa3, 0xbc, 0xda, 0xd0, 0x0e,
		0x67, 0x65, 0x6f, 3,    0,    0,    0,    0,    0,    0,    0,    0,    0,
		0,    0,    0,    0,    0,    0,    'd',  0,    'b',  0,    'x',  0,
	};
	uint8_t h[sizeof(head)];
	struct sha256_ctx c;

	memcpy(h, head, sizeof(h));
	h[24] = (uint8_t)len;
	h[25] = (uint8_t)(len >> 8);
	sha256_init(&c);
	sha256_update(&c, h, sizeof(h));
	sha256_update(&c, data, len);
	sha256_final(&c, out);
}

/*
 * dbx after an authenticated update that repeats one entry dbx holds and adds two: the firmware appends the two
 * (the repeated one dropped), the dbx event changes, and PCR 7 is the log's other events with it, by hand.
 */
static void
test_pcr7_dbx_update(void **state)
{
	char dir[4096];
	sbat_eventlog *log = read_log("ovmf-sb");
	uint8_t update[2048], dbx[4096], want[4096], digest[32], pcr[64];
	uint8_t h[3] = { 0x11, 0x22, 0x33 };
	size_t n, update_len, dbx_len, want_len, added, i;
	sbat_pcr7_vars *vars;
	sbat_pcr7 *m;
	sbat_diag d;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/eventlog/ovmf-sb/efivars", getenv("FIXTURES_SRC"));
	dbx_len = var_data(dir, "dbx-" SBAT_SIGDB_GUID_SECURITY_DB, dbx, sizeof(dbx));
	assert_int_equal(dbx_len, 76); /* one list, one SHA-256 entry */
	/* an EFI_VARIABLE_AUTHENTICATION_2: EFI_TIME, then WIN_CERTIFICATE_UEFI_GUID (dwLength 24 + 4 bytes) */
	memset(update, 0, 16 + 28);
	update[16] = 28;
	update[16 + 4] = 0x00;
	update[16 + 5] = 0x02;
	update[16 + 6] = 0xf1;
	update[16 + 7] = 0x0e;
	{
		static const uint8_t pkcs7[16] = { 0x9d, 0xd2, 0xaf, 0x4a, 0xdf, 0x68, 0xee, 0x49,
			                           0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7 };

		memcpy(update + 24, pkcs7, 16);
	}
	n = 16 + 28;
	memcpy(update + n, dbx, dbx_len); /* the entry dbx holds: dropped, and its list with it */
	n += dbx_len;
	update_len = n + sha256_list(update + n, 0x77, h, 3);
	assert_int_equal(sbat_pcr7_vars_new(dir, &vars, &d), SBAT_OK);
	assert_int_equal(
	    sbat_pcr7_vars_append(vars, "dbx", SBAT_SIGDB_GUID_SECURITY_DB, update, update_len, &added, &d), SBAT_OK);
	assert_int_equal(added, 3);
	/* what the firmware's dbx holds then: the old data, then the new list of three */
	memcpy(want, dbx, dbx_len);
	want_len = dbx_len + sha256_list(want + dbx_len, 0x77, h, 3);
	assert_int_equal(sbat_pcr7_build(log, vars, &m, &d), SBAT_OK);
	assert_int_equal(sbat_pcr7_event_count(m), 7);
	assert_int_equal(sbat_pcr7_event_at(m, 4)->state, SBAT_PCR7_DIFFERS);
	assert_int_equal(sbat_pcr7_event_at(m, 4)->data_len, 16 + 16 + 6 + want_len);
	assert_memory_equal(sbat_pcr7_event_at(m, 4)->data + 38, want, want_len);
	for (i = 0; i < 7; i++)
		assert_int_equal(sbat_pcr7_event_at(m, i)->state, i == 4 ? SBAT_PCR7_DIFFERS : SBAT_PCR7_REPRODUCED);
	/* by hand: zero, extended by the log's sha256 digests of PCR 7, the dbx event's replaced */
	dbx_event_sha256(want, want_len, digest);
	memset(pcr, 0, 32);
	for (i = 1, n = 0; i < sbat_eventlog_event_count(log); i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, i);
		struct sha256_ctx c;

		if (e->pcr != 7 || e->type == SBAT_EV_NO_ACTION)
			continue;
		sha256_init(&c);
		sha256_update(&c, pcr, 32);
		sha256_update(&c, n++ == 4 ? digest : e->digests[1].digest, 32);
		sha256_final(&c, pcr);
	}
	assert_int_equal(sbat_pcr7_bank_at(m, 1)->alg, SBAT_EVENTLOG_ALG_SHA256);
	assert_int_equal(sbat_pcr7_bank_at(m, 1)->predicted, 1);
	assert_memory_equal(sbat_pcr7_bank_at(m, 1)->value, pcr, 32);
	assert_memory_not_equal(sbat_pcr7_bank_at(m, 1)->value, sbat_pcr7_bank_at(m, 1)->today, 32);
	sbat_pcr7_free(m);

	/* the same update again adds nothing: PCR 7 as after the first */
	assert_int_equal(
	    sbat_pcr7_vars_append(vars, "dbx", SBAT_SIGDB_GUID_SECURITY_DB, update, update_len, &added, &d), SBAT_OK);
	assert_int_equal(added, 0);
	assert_int_equal(sbat_pcr7_build(log, vars, &m, &d), SBAT_OK);
	assert_memory_equal(sbat_pcr7_bank_at(m, 1)->value, pcr, 32);
	sbat_pcr7_free(m);
	/* a malformed list changes nothing */
	update[16 + 28 + 16] = 0xff;
	assert_int_equal(
	    sbat_pcr7_vars_append(vars, "dbx", SBAT_SIGDB_GUID_SECURITY_DB, update, update_len, &added, &d),
	    SBAT_E_EFIVAR);
	assert_int_equal(d.offset, 16 + 28 + 16);
	assert_int_equal(sbat_pcr7_build(log, vars, &m, &d), SBAT_OK);
	assert_memory_equal(sbat_pcr7_bank_at(m, 1)->value, pcr, 32);
	sbat_pcr7_free(m);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/* db without the certificate that verified the UKI: which entry verifies it is not known, nor PCR 7 */
static void
test_pcr7_db_loses_authority(void **state)
{
	char dir[4096];
	uint8_t list[128], h = 0x44;
	sbat_eventlog *log = read_log("ovmf-sb");
	sbat_pcr7_vars *vars;
	sbat_pcr7 *m;
	sbat_diag d;
	size_t i;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/eventlog/ovmf-sb/efivars", getenv("FIXTURES_SRC"));
	assert_int_equal(sbat_pcr7_vars_new(dir, &vars, &d), SBAT_OK);
	assert_int_equal(
	    sbat_pcr7_vars_set(vars, "db", SBAT_SIGDB_GUID_SECURITY_DB, list, sha256_list(list, 0x55, &h, 1), &d),
	    SBAT_OK);
	assert_int_equal(sbat_pcr7_build(log, vars, &m, &d), SBAT_OK);
	assert_int_equal(sbat_pcr7_event_at(m, 3)->state, SBAT_PCR7_DIFFERS);
	assert_int_equal(sbat_pcr7_event_at(m, 6)->kind, SBAT_PCR7_AUTHORITY);
	assert_int_equal(sbat_pcr7_event_at(m, 6)->state, SBAT_PCR7_UNKNOWN);
	for (i = 0; i < 4; i++) {
		assert_int_equal(sbat_pcr7_bank_at(m, i)->predicted, 0);
		assert_ptr_equal(sbat_pcr7_bank_at(m, i)->why, sbat_pcr7_event_at(m, 6)->why);
	}
	sbat_pcr7_free(m);
	/* PK deleted (set absent): measured with no data, as EDK2 does; the authority stands again with db back */
	assert_int_equal(sbat_pcr7_vars_set(vars, "db", SBAT_SIGDB_GUID_SECURITY_DB, NULL, 0, &d), SBAT_OK);
	assert_int_equal(sbat_pcr7_vars_set(vars, "PK", SBAT_EFIVAR_GLOBAL_GUID, NULL, 0, &d), SBAT_OK);
	assert_int_equal(sbat_pcr7_build(log, vars, &m, &d), SBAT_OK);
	assert_int_equal(sbat_pcr7_event_at(m, 1)->data_len, 16 + 16 + 4);
	assert_int_equal(sbat_pcr7_event_at(m, 3)->data_len, 16 + 16 + 4);
	assert_int_equal(sbat_pcr7_event_at(m, 6)->state, SBAT_PCR7_UNKNOWN);
	sbat_pcr7_free(m);
	assert_int_equal(sbat_pcr7_vars_set(vars, "no/such", SBAT_SIGDB_GUID_SECURITY_DB, NULL, 0, &d), SBAT_E_EFIVAR);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/* A dbt that exists now is measured after dbx; an unreadable variable makes PCR 7 unknown */
static void
test_pcr7_dbt_and_unreadable(void **state)
{
	char dir[2048], path[4600];
	uint8_t file[4 + 76], h = 0x66;
	sbat_eventlog *log = read_log("ovmf-sb");
	sbat_pcr7 *m;
	FILE *f;

	(void)state;
	copy_efivars("ovmf-sb", dir, sizeof(dir));
	memset(file, 0, 4);
	sha256_list(file + 4, 0x12, &h, 1);
	snprintf(path, sizeof(path), "%s/dbt-%s", dir, SBAT_SIGDB_GUID_SECURITY_DB);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(file, 1, sizeof(file), f), sizeof(file));
	fclose(f);
	m = build(log, dir);
	assert_int_equal(sbat_pcr7_event_count(m), 8);
	assert_int_equal(sbat_pcr7_event_at(m, 5)->state, SBAT_PCR7_ADDED);
	assert_int_equal(sbat_pcr7_event_at(m, 5)->log_index, 0);
	assert_string_equal(sbat_pcr7_event_at(m, 5)->name, "dbt");
	assert_int_equal(sbat_pcr7_event_at(m, 5)->data_len, 16 + 16 + 6 + 76);
	assert_memory_equal(sbat_pcr7_event_at(m, 5)->data + 38, file + 4, 76);
	assert_int_equal(sbat_pcr7_event_at(m, 6)->kind, SBAT_PCR7_SEPARATOR);
	assert_int_equal(sbat_pcr7_bank_at(m, 1)->predicted, 1);
	assert_memory_not_equal(sbat_pcr7_bank_at(m, 1)->value, sbat_pcr7_bank_at(m, 1)->today, 32);
	sbat_pcr7_free(m);
	/* KEK a directory: cannot be read */
	snprintf(path, sizeof(path), "rm -f '%s/KEK-%s' && mkdir '%s/KEK-%s'", dir, SBAT_EFIVAR_GLOBAL_GUID, dir,
	         SBAT_EFIVAR_GLOBAL_GUID);
	assert_int_equal(system(path), 0);
	m = build(log, dir);
	assert_int_equal(sbat_pcr7_event_at(m, 2)->state, SBAT_PCR7_UNKNOWN);
	assert_string_equal(sbat_pcr7_event_at(m, 2)->why, "the variable cannot be read");
	assert_int_equal(sbat_pcr7_bank_at(m, 0)->predicted, 0);
	assert_string_equal(sbat_pcr7_bank_at(m, 0)->why, "the variable cannot be read");
	sbat_pcr7_free(m);
	sbat_eventlog_free(log);
}

static void
test_pcr7_names(void **state)
{
	(void)state;
	assert_string_equal(sbat_pcr7_kind_name(SBAT_PCR7_FROM_LOG), "from the log");
	assert_string_equal(sbat_pcr7_kind_name(SBAT__PCR7_KIND_MAX), "unknown");
	assert_string_equal(sbat_pcr7_state_name(SBAT_PCR7_REPRODUCED), "reproduced");
	assert_string_equal(sbat_pcr7_state_name(SBAT_PCR7_DROPPED), "dropped");
	assert_string_equal(sbat_pcr7_state_name(SBAT__PCR7_STATE_MAX), "unknown");
	assert_null(sbat_pcr7_event_at(NULL, 0));
	assert_int_equal(sbat_pcr7_bank_count(NULL), 0);
	sbat_pcr7_free(NULL);
	sbat_pcr7_vars_free(NULL);
}

static int
setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(root, sizeof(root), "%s/sbat-pcr7-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(root) ? 0 : -1;
}

static int
teardown(void **state)
{
	char cmd[1100];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcr7_ovmf),
		cmocka_unit_test(test_pcr7_ovmf_secure_boot),
		cmocka_unit_test(test_pcr7_other_variables),
		cmocka_unit_test(test_pcr7_dbx_update),
		cmocka_unit_test(test_pcr7_db_loses_authority),
		cmocka_unit_test(test_pcr7_dbt_and_unreadable),
		cmocka_unit_test(test_pcr7_names),
	};

	return run_group(tests, setup, teardown);
}
