/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-pcrnext.c - sbat_pcrnext: PCR 4, 7 and 14 of the next boot along a path, on the real OVMF logs: nothing
 * changed gives today's values in every bank, the firmware's authority made from a stage's verdict is the log's,
 * a dbx update changes PCR 7 as sbat_pcr7 says, another image or another authority changes what they measure */
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

#include "sbat/bootreport.h"
#include "sbat/efivar.h"
#include "sbat/eventlog.h"
#include "sbat/pcr7.h"
#include "sbat/pcrnext.h"
#include "sbat/sigdb.h"
#include "sbat/sigverify.h"

#include "util/sha256.h"
#include "fixture.h"
#include "sig/pehash.h"

#define ENTRY "Boot0004 UKI"

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

static sbat_pcr7_vars *
vars_of(const char *name)
{
	char dir[4096];
	sbat_pcr7_vars *vars;
	sbat_diag d;

	snprintf(dir, sizeof(dir), "%s/eventlog/%s/efivars", getenv("FIXTURES_SRC"), name);
	assert_int_equal(sbat_pcr7_vars_new(dir, &vars, &d), SBAT_OK);
	return vars;
}

/* The first EFI_SIGNATURE_DATA of the fixture's db (owner, certificate), as the walk's verdict names it. */
static size_t
db_first_entry(const char *name, uint8_t *out, size_t size)
{
	char dir[4096];
	uint8_t *p;
	size_t len, sig_size;
	sbat_diag d;

	snprintf(dir, sizeof(dir), "%s/eventlog/%s/efivars", getenv("FIXTURES_SRC"), name);
	assert_int_equal(sbat_efivar_read(dir, "db-" SBAT_SIGDB_GUID_SECURITY_DB, 0, &p, &len, &d), SBAT_OK);
	assert_true(len > 4 + 28);
	sig_size = (size_t)p[4 + 24] | (size_t)p[4 + 25] << 8;
	assert_true(sig_size <= size && 4 + 28 + sig_size <= len);
	memcpy(out, p + 4 + 28, sig_size);
	free(p);
	return sig_size;
}

/* The log's SHA-256 digest of its EV_EFI_BOOT_SERVICES_APPLICATION number nth (0: the UKI the firmware started). */
static void
app_sha256_nth(const sbat_eventlog *log, size_t nth, uint8_t out[32])
{
	size_t i, j;

	for (i = 1; i < sbat_eventlog_event_count(log); i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, i);

		if (e->pcr != 4 || e->type != 0x80000003u || nth-- > 0)
			continue;
		for (j = 0; j < e->n_digests; j++)
			if (e->digests[j].alg == SBAT_EVENTLOG_ALG_SHA256) {
				memcpy(out, e->digests[j].digest, 32);
				return;
			}
	}
	fail_msg("no application event");
}

static void
app_sha256(const sbat_eventlog *log, uint8_t out[32])
{
	app_sha256_nth(log, 0, out);
}

/* A report of one path: the firmware starts a UKI its db entry auth[0..len) verifies, of SHA-256 hash. */
static sbat_boot_report *
uki_path(const uint8_t *auth, size_t len, const uint8_t hash[32])
{
	sbat_boot_report *r;
	sbat_boot_stage st;
	sbat_diag d;

	assert_int_equal(sbat_boot_report_new(&r, &d), SBAT_OK);
	sbat_boot_stage_init(&st);
	st.entry = ENTRY;
	st.is_default = 1;
	st.stage = 0;
	st.verdict = SBAT_VERDICT_BOOTS;
	assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_OK);
	st.stage = 1;
	st.file = "\\EFI\\Linux\\uki.efi";
	st.reason = SBAT_BOOT_NOT_SHIM;
	st.signature_judged = 1;
	st.signature_verdict = SBAT_VERDICT_BOOTS;
	st.signature_rule = SBAT_SIGVERIFY_FIRMWARE;
	st.signature_db = SBAT_SIGVERIFY_DB;
	st.signature_authority = auth;
	st.signature_authority_len = len;
	st.image_sha256_known = hash != NULL;
	if (hash)
		memcpy(st.image_sha256, hash, 32);
	assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_OK);
	return r;
}

static sbat_pcrnext *
predict(const sbat_eventlog *log, sbat_pcr7_vars *vars, const sbat_boot_report *r)
{
	sbat_pcrnext *p;
	sbat_diag d;

	assert_int_equal(sbat_pcrnext_predict(log, vars, r, ENTRY, &p, &d), SBAT_OK);
	return p;
}

/* Every value of pcr is predicted and today's, in every bank. */
static void
assert_today(const sbat_pcrnext *p, uint32_t pcr, size_t n_banks)
{
	size_t i, n = 0;

	for (i = 0; i < sbat_pcrnext_value_count(p); i++) {
		const sbat_pcrnext_value *v = sbat_pcrnext_value_at(p, i);

		if (v->pcr != pcr)
			continue;
		n++;
		assert_true(v->today_known);
		if (!v->predicted)
			fail_msg("PCR %u %s unknown: %s", (unsigned)pcr, v->name, v->why);
		assert_memory_equal(v->value, v->today, v->digest_size);
	}
	assert_int_equal(n, n_banks);
}

/* Nothing changes: PCR 7, 4 and 14 are today's in all four banks, and the authority is made from the walk. */
static void
test_pcrnext_unchanged(void **state)
{
	sbat_eventlog *log = read_log("ovmf-sb");
	sbat_pcr7_vars *vars = vars_of("ovmf-sb");
	uint8_t auth[4096], hash[32];
	size_t len = db_first_entry("ovmf-sb", auth, sizeof(auth)), i, n_auth = 0;
	sbat_boot_report *r;
	sbat_pcrnext *p;

	(void)state;
	app_sha256(log, hash);
	r = uki_path(auth, len, hash);
	p = predict(log, vars, r);
	assert_today(p, 7, 4);
	assert_today(p, 4, 4);
	assert_today(p, 14, 4);
	for (i = 0; i < sbat_pcrnext_event_count(p); i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, x->log_index);

		if (x->pcr != 7 || x->type != SBAT_EV_EFI_VARIABLE_AUTHORITY)
			continue;
		n_auth++;
		/* made from the stage's verdict, and the log's event bit for bit */
		assert_int_equal(x->state, SBAT_PCR7_REPRODUCED);
		assert_int_equal(x->data_len, e->data_len);
		assert_memory_equal(x->data, e->data, e->data_len);
	}
	assert_int_equal(n_auth, 1);
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/* OVMF without Secure Boot: no authority, PCR 4 and 7 today's. */
static void
test_pcrnext_unchanged_no_secure_boot(void **state)
{
	sbat_eventlog *log = read_log("ovmf");
	sbat_pcr7_vars *vars = vars_of("ovmf");
	uint8_t hash[32];
	sbat_boot_report *r;
	sbat_boot_stage st;
	sbat_pcrnext *p;
	sbat_diag d;

	(void)state;
	app_sha256(log, hash);
	r = uki_path(NULL, 0, hash);
	/* without Secure Boot the stub's LoadImage of its kernel is measured too: the path's second image */
	sbat_boot_stage_init(&st);
	st.entry = ENTRY;
	st.stage = 2;
	st.reason = SBAT_BOOT_UKI_KERNEL;
	st.image_sha256_known = 1;
	app_sha256_nth(log, 1, st.image_sha256);
	assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_OK);
	p = predict(log, vars, r);
	assert_today(p, 7, 4);
	assert_today(p, 4, 4);
	assert_today(p, 14, 4);
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/* A dbx update: PCR 7 is what sbat_pcr7 predicts, in every bank; PCR 4 and 14 stay. */
static void
test_pcrnext_dbx_update(void **state)
{
	/* one EFI_SIGNATURE_LIST of one SHA-256 entry, owner 0x55.., hash 0x77.. */
	static const uint8_t type[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
		                          0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };
	sbat_eventlog *log = read_log("ovmf-sb");
	sbat_pcr7_vars *vars = vars_of("ovmf-sb");
	uint8_t auth[4096], hash[32], list[28 + 48];
	size_t len = db_first_entry("ovmf-sb", auth, sizeof(auth)), i, added;
	sbat_boot_report *r;
	sbat_pcrnext *p;
	sbat_pcr7 *m;
	sbat_diag d;

	(void)state;
	memcpy(list, type, 16);
	memset(list + 16, 0, 12);
	list[16] = sizeof(list);
	list[24] = 48;
	memset(list + 28, 0x55, 16);
	memset(list + 44, 0x77, 32);
	assert_int_equal(
	    sbat_pcr7_vars_append(vars, "dbx", SBAT_SIGDB_GUID_SECURITY_DB, list, sizeof(list), &added, &d), SBAT_OK);
	assert_int_equal(added, 1);
	app_sha256(log, hash);
	r = uki_path(auth, len, hash);
	p = predict(log, vars, r);
	assert_int_equal(sbat_pcr7_build(log, vars, &m, &d), SBAT_OK);
	for (i = 0; i < sbat_pcr7_bank_count(m); i++) {
		const sbat_pcr7_bank *k = sbat_pcr7_bank_at(m, i);
		const sbat_pcrnext_value *v = sbat_pcrnext_value_find(p, 7, k->alg);

		assert_non_null(v);
		assert_true(k->predicted && v->predicted);
		assert_memory_equal(v->value, k->value, k->digest_size);
		assert_memory_not_equal(v->value, v->today, v->digest_size);
	}
	assert_today(p, 4, 4);
	assert_today(p, 14, 4);
	/* the one event that changes says which variable */
	for (i = 0, added = 0; i < sbat_pcrnext_event_count(p); i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);

		if (x->state == SBAT_PCR7_REPRODUCED || x->state == SBAT_PCR7_COPIED) {
			assert_int_equal(x->cause, SBAT_PCRNEXT_CAUSE_NONE);
			continue;
		}
		added++;
		assert_int_equal(x->cause, SBAT_PCRNEXT_CAUSE_VARIABLE);
		assert_string_equal(x->cause_name, "dbx");
		assert_string_equal(sbat_pcrnext_cause_name(x->cause), "variable");
	}
	assert_int_equal(added, 1);
	sbat_pcr7_free(m);
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/*
 * The image is verified next time by another entry, and is another image: the log's authority is kept as one
 * the walk does not account for, the walk's is added, PCR 7 changes; PCR 4's SHA-256 is the new hash's and its
 * other banks are unknown.
 */
static void
test_pcrnext_other_authority_and_image(void **state)
{
	sbat_eventlog *log = read_log("ovmf-sb");
	sbat_pcr7_vars *vars = vars_of("ovmf-sb");
	uint8_t auth[64], hash[32];
	sbat_boot_report *r;
	sbat_pcrnext *p;
	const sbat_pcrnext_value *v;
	size_t i, added = 0;

	(void)state;
	memset(auth, 0x42, sizeof(auth));
	memset(hash, 0x24, sizeof(hash));
	r = uki_path(auth, sizeof(auth), hash);
	p = predict(log, vars, r);
	for (i = 0; i < sbat_pcrnext_event_count(p); i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);

		if (x->pcr == 7 && x->state == SBAT_PCR7_ADDED) {
			added++;
			assert_int_equal(x->cause, SBAT_PCRNEXT_CAUSE_AUTHORITY);
			assert_string_equal(x->cause_name, "db");
			assert_string_equal(x->cause_file, "\\EFI\\Linux\\uki.efi");
			assert_int_equal(x->data_len, 32 + 4 + sizeof(auth));
			assert_memory_equal(x->data + 36, auth, sizeof(auth));
		}
	}
	assert_int_equal(added, 1);
	v = sbat_pcrnext_value_find(p, 7, SBAT_EVENTLOG_ALG_SHA256);
	assert_true(v->predicted);
	assert_memory_not_equal(v->value, v->today, 32);
	v = sbat_pcrnext_value_find(p, 4, SBAT_EVENTLOG_ALG_SHA256);
	assert_true(v->predicted);
	assert_memory_not_equal(v->value, v->today, 32);
	v = sbat_pcrnext_value_find(p, 4, SBAT_EVENTLOG_ALG_SHA1);
	assert_false(v->predicted);
	assert_non_null(v->why);
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/* A path with shim while the log's boot ran none: PCR 7 and 14 unknown, never guessed. */
static void
test_pcrnext_shim_unknown(void **state)
{
	sbat_eventlog *log = read_log("ovmf-sb");
	sbat_pcr7_vars *vars = vars_of("ovmf-sb");
	sbat_boot_report *r;
	sbat_boot_stage st;
	sbat_pcrnext *p;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_boot_report_new(&r, &d), SBAT_OK);
	sbat_boot_stage_init(&st);
	st.entry = ENTRY;
	st.stage = 1;
	st.reason = SBAT_BOOT_SHIM_GOES_ON;
	st.shim_level = "2024010900";
	assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_OK);
	p = predict(log, vars, r);
	assert_false(sbat_pcrnext_value_find(p, 7, SBAT_EVENTLOG_ALG_SHA256)->predicted);
	assert_non_null(strstr(sbat_pcrnext_value_find(p, 7, SBAT_EVENTLOG_ALG_SHA256)->why, "no shim"));
	assert_false(sbat_pcrnext_value_find(p, 14, SBAT_EVENTLOG_ALG_SHA256)->predicted);
	assert_null(sbat_pcrnext_value_find(p, 5, SBAT_EVENTLOG_ALG_SHA256));
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/* ------------------------------------------------------------ shim's SbatLevel (a log of shim 16.1 -> GRUB) */

#define SHIM_ENTRY "Boot0001 shim"

/* The log's event of shim's SbatLevel: its index; its level (the UEFI_VARIABLE_DATA's data) into level. */
static size_t
sbat_level_event(const sbat_eventlog *log, char *level, size_t size)
{
	static const uint8_t name[] = { 'S', 0, 'b', 0, 'a', 0, 't', 0, 'L', 0, 'e', 0, 'v', 0, 'e', 0, 'l', 0 };
	size_t i;

	for (i = 1; i < sbat_eventlog_event_count(log); i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, i);

		if (e->pcr != 7 || e->type != SBAT_EV_EFI_VARIABLE_AUTHORITY || e->data_len < 32 + sizeof(name) ||
		    e->data[16] != 9 || memcmp(e->data + 32, name, sizeof(name)) != 0)
			continue;
		assert_true(e->data_len - 32 - sizeof(name) < size);
		memcpy(level, e->data + 32 + sizeof(name), e->data_len - 32 - sizeof(name));
		level[e->data_len - 32 - sizeof(name)] = '\0';
		return i;
	}
	fail_msg("no SbatLevel event");
	return 0;
}

/* A path of shim (going on, storing stored) and the loader it starts; the authorities are left to the log. */
static sbat_boot_report *
shim_path(const char *stored)
{
	sbat_boot_report *r;
	sbat_boot_stage st;
	sbat_diag d;

	assert_int_equal(sbat_boot_report_new(&r, &d), SBAT_OK);
	sbat_boot_stage_init(&st);
	st.entry = SHIM_ENTRY;
	st.is_default = 1;
	st.verdict = SBAT_VERDICT_BOOTS;
	assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_OK);
	st.stage = 1;
	st.file = "\\EFI\\BOOT\\BOOTX64.EFI";
	st.reason = SBAT_BOOT_SHIM_GOES_ON;
	st.shim_enforces = 1;
	st.shim_level = "2025021800";
	st.shim_stored = stored;
	assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_OK);
	return r;
}

/* The log's PCR 7 replayed in SHA-256, the SbatLevel event at index at measuring data[0..len) instead. */
static void
pcr7_sha256_with(const sbat_eventlog *log, size_t at, const uint8_t *data, size_t len, uint8_t out[32])
{
	uint8_t buf[64];
	size_t i, j;

	memset(out, 0, 32);
	for (i = 1; i < sbat_eventlog_event_count(log); i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, i);

		if (e->pcr != 7 || e->type == SBAT_EV_NO_ACTION)
			continue;
		memcpy(buf, out, 32);
		if (i == at) {
			sha256(data, len, buf + 32);
		} else {
			for (j = 0; j < e->n_digests && e->digests[j].alg != SBAT_EVENTLOG_ALG_SHA256; j++)
				;
			assert_true(j < e->n_digests);
			memcpy(buf + 32, e->digests[j].digest, 32);
		}
		sha256(buf, sizeof(buf), out);
	}
}

/* The path's shim stores the level the log measured: shim's SbatLevel event is made, the log's bit for bit. */
static void
test_pcrnext_sbat_level_kept(void **state)
{
	sbat_eventlog *log = read_log("ovmf-shim");
	sbat_pcr7_vars *vars = vars_of("ovmf-shim");
	char level[512];
	size_t at = sbat_level_event(log, level, sizeof(level)), i, n = 0;
	sbat_boot_report *r = shim_path(level);
	sbat_pcrnext *p;
	sbat_diag d;

	(void)state;
	assert_int_equal(strncmp(level, "sbat,1,2025021800\n", 18), 0);
	assert_int_equal(sbat_pcrnext_predict(log, vars, r, SHIM_ENTRY, &p, &d), SBAT_OK);
	assert_today(p, 7, 4);
	assert_today(p, 14, 4); /* shim's MOK events, from the mirrors the fixture holds */
	for (i = 0; i < sbat_pcrnext_event_count(p); i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);

		if (x->log_index != at)
			continue;
		n++;
		assert_int_equal(x->state, SBAT_PCR7_REPRODUCED);
		assert_int_equal(x->data_len, sbat_eventlog_event_at(log, at)->data_len);
		assert_memory_equal(x->data, sbat_eventlog_event_at(log, at)->data, x->data_len);
	}
	assert_int_equal(n, 1);
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/*
 * SbatPolicy latest: shim 16.1 stores its latest level, and measures it (UEFI_VARIABLE_DATA of shim's GUID,
 * "SbatLevel", the variable's bytes) in the log's place: PCR 7 is the log's with that one digest changed, in
 * SHA-256 made here from the bytes, and changes in every bank.
 */
static void
test_pcrnext_sbat_level_latest(void **state)
{
	static const char latest[] = "sbat,1,2025051000\nshim,4\ngrub,5\ngrub.proxmox,2\n";
	static const uint8_t guid[16] = { 0x50, 0xab, 0x5d, 0x60, 0x46, 0xe0, 0x00, 0x43,
		                          0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 };
	sbat_eventlog *log = read_log("ovmf-shim");
	sbat_pcr7_vars *vars = vars_of("ovmf-shim");
	char level[512];
	size_t at = sbat_level_event(log, level, sizeof(level)), i, len = 32 + 18 + strlen(latest);
	sbat_boot_report *r = shim_path(latest);
	uint8_t data[512], want[32];
	const sbat_pcrnext_value *v;
	sbat_pcrnext *p;
	sbat_diag d;

	(void)state;
	memset(data, 0, 32);
	memcpy(data, guid, 16);
	data[16] = 9;
	data[24] = (uint8_t)strlen(latest);
	for (i = 0; i < 9; i++)
		data[32 + 2 * i] = (uint8_t) "SbatLevel"[i];
	memcpy(data + 50, latest, strlen(latest));
	pcr7_sha256_with(log, at, data, len, want);
	assert_int_equal(sbat_pcrnext_predict(log, vars, r, SHIM_ENTRY, &p, &d), SBAT_OK);
	for (i = 0; i < sbat_pcrnext_event_count(p); i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);

		if (x->log_index == at) {
			assert_int_equal(x->state, SBAT_PCR7_DIFFERS);
			assert_int_equal(x->data_len, len);
			assert_memory_equal(x->data, data, len);
		}
	}
	for (i = 0; i < sbat_pcrnext_value_count(p); i++) {
		v = sbat_pcrnext_value_at(p, i);
		if (v->pcr != 7)
			continue;
		if (!v->predicted)
			fail_msg("PCR 7 %s unknown: %s", v->name, v->why);
		assert_memory_not_equal(v->value, v->today, v->digest_size);
	}
	v = sbat_pcrnext_value_find(p, 7, SBAT_EVENTLOG_ALG_SHA256);
	assert_memory_equal(v->value, want, 32);
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/* The level shim stores is not known (one with a NUL byte): PCR 7 unknown, and why says so. */
static void
test_pcrnext_sbat_level_unknown(void **state)
{
	sbat_eventlog *log = read_log("ovmf-shim");
	sbat_pcr7_vars *vars = vars_of("ovmf-shim");
	sbat_boot_report *r = shim_path(NULL);
	const sbat_pcrnext_value *v;
	sbat_pcrnext *p;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_pcrnext_predict(log, vars, r, SHIM_ENTRY, &p, &d), SBAT_OK);
	v = sbat_pcrnext_value_find(p, 7, SBAT_EVENTLOG_ALG_SHA256);
	assert_false(v->predicted);
	assert_non_null(strstr(v->why, "SbatLevel"));
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/*
 * Another image, on this machine: its Authenticode SHA-1, SHA-384 and SHA-512 are computed from the file the walk
 * opened (the stage's host), so PCR 4 is predicted in every bank: the application event holds the image's hash in
 * each, and no bank is unknown.
 */
static void
test_pcrnext_other_image_every_bank(void **state)
{
	sbat_eventlog *log = read_log("ovmf-sb");
	sbat_pcr7_vars *vars = vars_of("ovmf-sb");
	char path[] = "/tmp/sbat-pcrnext-XXXXXX";
	uint8_t *buf;
	size_t blen, i, k, n_app = 0;
	pehash_digests dg;
	sbat_image *img;
	sbat_boot_report *r;
	sbat_boot_stage st;
	sbat_pcrnext *p;
	sbat_diag d;
	fx_spec spec;
	int fd;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &buf, &blen), 0);
	assert_true((fd = mkstemp(path)) >= 0);
	close(fd);
	assert_int_equal(fx_write_file(path, buf, blen), 0);
	assert_int_equal(sbat_image_parse(buf, blen, &img, &d), SBAT_OK);
	dg.algs = PEHASH_ALG(SBAT_DIGEST_SHA1) | PEHASH_ALG(SBAT_DIGEST_SHA384) | PEHASH_ALG(SBAT_DIGEST_SHA512);
	assert_int_equal(pehash_compute_all(img, SBAT_AUTHENTICODE_EDK2, -1, &dg, &d), SBAT_OK);
	/* a stage as the walk leaves it: the file it opened, its hash */
	assert_int_equal(sbat_boot_report_new(&r, &d), SBAT_OK);
	sbat_boot_stage_init(&st);
	st.entry = ENTRY;
	st.is_default = 1;
	st.stage = 1;
	st.file = "\\EFI\\Linux\\uki.efi";
	st.host = path;
	st.reason = SBAT_BOOT_NOT_SHIM;
	st.image_sha256_known = 1;
	memcpy(st.image_sha256, dg.sha256, 32);
	assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_OK);
	p = predict(log, vars, r);
	for (i = 0; i < sbat_pcrnext_event_count(p); i++) {
		const sbat_pcrnext_event *x = sbat_pcrnext_event_at(p, i);

		if (x->pcr != 4 || x->type != 0x80000003u)
			continue;
		n_app++;
		assert_int_equal(x->state, SBAT_PCR7_DIFFERS);
		assert_int_equal(x->cause, SBAT_PCRNEXT_CAUSE_IMAGE);
		assert_string_equal(x->cause_file, "\\EFI\\Linux\\uki.efi");
		for (k = 0; k < sbat_eventlog_bank_count(log); k++) {
			uint16_t alg = sbat_eventlog_bank_at(log, k)->alg;
			sbat_digest_alg a = alg == SBAT_EVENTLOG_ALG_SHA1   ? SBAT_DIGEST_SHA1 :
			                    alg == SBAT_EVENTLOG_ALG_SHA256 ? SBAT_DIGEST_SHA256 :
			                    alg == SBAT_EVENTLOG_ALG_SHA384 ? SBAT_DIGEST_SHA384 :
			                                                      SBAT_DIGEST_SHA512;
			size_t dlen;
			const uint8_t *want = pehash_digest(&dg, a, &dlen);

			assert_true(x->has_digest & (1u << k));
			assert_memory_equal(x->digest[k], want, dlen);
		}
	}
	assert_int_equal(n_app, 1);
	for (i = 0; i < sbat_pcrnext_value_count(p); i++) {
		const sbat_pcrnext_value *v = sbat_pcrnext_value_at(p, i);

		if (v->pcr == 4) {
			if (!v->predicted)
				fail_msg("PCR 4 %s unknown: %s", v->name, v->why);
			assert_memory_not_equal(v->value, v->today, v->digest_size);
		}
	}
	unlink(path);
	free(buf);
	sbat_image_free(img);
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

/* The log's PCR pcr replayed in SHA-256, the event at index at hashing data[0..len) instead. */
static void
pcr_sha256_with(const sbat_eventlog *log, uint32_t pcr, size_t at, const uint8_t *data, size_t len, uint8_t out[32])
{
	uint8_t buf[64];
	size_t i, j;

	memset(out, 0, 32);
	for (i = 1; i < sbat_eventlog_event_count(log); i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, i);

		if (e->pcr != pcr || e->type == SBAT_EV_NO_ACTION)
			continue;
		memcpy(buf, out, 32);
		if (i == at) {
			sha256(data, len, buf + 32);
		} else {
			for (j = 0; j < e->n_digests && e->digests[j].alg != SBAT_EVENTLOG_ALG_SHA256; j++)
				;
			assert_true(j < e->n_digests);
			memcpy(buf + 32, e->digests[j].digest, 32);
		}
		sha256(buf, sizeof(buf), out);
	}
}

/* A SHA-256 signature list of one entry (owner 0x77.., hash h..): 76 bytes into out. */
static void
one_hash_list(uint8_t out[76], uint8_t h)
{
	static const uint8_t sha256_type[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
		                                 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };

	memset(out, 0, 76);
	memcpy(out, sha256_type, 16);
	out[16] = 76;
	out[24] = 48;
	memset(out + 28, 0x77, 16);
	memset(out + 44, h, 32);
}

/*
 * A MokList enrolled as MokManager enrolls it: shim measures MokList's mirror, MokListRT (its built-in certificate,
 * then MokList), into PCR 14 as the EV_IPL "MokList"; the next boot's is today's mirror with the list after it, so
 * PCR 14 is the log's with that one digest made from those bytes, and changes.
 */
static void
mok_pending(const char *var, const char *rt_file)
{
	sbat_eventlog *log = read_log("ovmf-shim");
	sbat_pcr7_vars *vars = vars_of("ovmf-shim");
	char level[512], dir[4096];
	size_t at_level = sbat_level_event(log, level, sizeof(level)), i, len, added = 0, at = 0;
	sbat_boot_report *r = shim_path(level);
	uint8_t list[76], *rt, *want_data, want[32];
	const sbat_pcrnext_value *v;
	sbat_pcrnext *p;
	sbat_diag d;

	(void)at_level;
	snprintf(dir, sizeof(dir), "%s/eventlog/ovmf-shim/efivars", getenv("FIXTURES_SRC"));
	assert_int_equal(sbat_efivar_read(dir, rt_file, 0, &rt, &len, &d), SBAT_OK);
	assert_non_null(rt);
	for (i = 1; i < sbat_eventlog_event_count(log); i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, i);

		if (e->pcr == 14 && e->data_len == strlen(var) + 1 && !memcmp(e->data, var, strlen(var) + 1))
			at = i;
	}
	assert_true(at > 0);
	one_hash_list(list, 0x42);
	assert_non_null(want_data = malloc(len - 4 + sizeof(list)));
	memcpy(want_data, rt + 4, len - 4);
	memcpy(want_data + len - 4, list, sizeof(list));
	pcr_sha256_with(log, 14, at, want_data, len - 4 + sizeof(list), want);
	assert_int_equal(sbat_pcr7_vars_update(vars, var, list, sizeof(list), &added, &d), SBAT_OK);
	assert_int_equal(added, 1);
	assert_int_equal(sbat_pcrnext_predict(log, vars, r, SHIM_ENTRY, &p, &d), SBAT_OK);
	assert_today(p, 7, 4);
	for (i = 0; i < sbat_pcrnext_value_count(p); i++) {
		v = sbat_pcrnext_value_at(p, i);
		if (v->pcr != 14)
			continue;
		if (!v->predicted)
			fail_msg("PCR 14 %s unknown: %s", v->name, v->why);
		assert_memory_not_equal(v->value, v->today, v->digest_size);
	}
	v = sbat_pcrnext_value_find(p, 14, SBAT_EVENTLOG_ALG_SHA256);
	assert_memory_equal(v->value, want, 32);
	free(rt);
	free(want_data);
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

static void
test_pcrnext_moklist_pending(void **state)
{
	(void)state;
	mok_pending("MokList", "MokListRT-" SBAT_EFIVAR_SHIM_GUID);
}

/* MokListX likewise: its event is made from MokListXRT (shim's vendor dbx, then MokListX) with the list after it. */
static void
test_pcrnext_moklistx_pending(void **state)
{
	(void)state;
	mok_pending("MokListX", "MokListXRT-" SBAT_EFIVAR_SHIM_GUID);
}

/*
 * A PK write replaces PK (the lists after its EFI_VARIABLE_AUTHENTICATION_2): PCR 7's PK event is made from the new
 * list, the log's others kept; one with no list deletes PK, and PCR 7 is then not known (setup mode).
 */
static void
test_pcrnext_pk_pending(void **state)
{
	static const uint8_t global[16] = { 0x61, 0xdf, 0xe4, 0x8b, 0xca, 0x93, 0xd2, 0x11,
		                            0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c };
	static const uint8_t pkcs7[16] = { 0x9d, 0xd2, 0xaf, 0x4a, 0xdf, 0x68, 0xee, 0x49,
		                           0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7 };
	sbat_eventlog *log = read_log("ovmf-sb");
	sbat_pcr7_vars *vars = vars_of("ovmf-sb");
	uint8_t upd[44 + 76], data[32 + 4 + 76], want[32];
	size_t i, at = 0, added = 0;
	sbat_boot_report *r;
	const sbat_pcrnext_value *v;
	sbat_pcrnext *p;
	sbat_diag d;

	(void)state;
	/* EFI_TIME, WIN_CERTIFICATE_UEFI_GUID of 28 bytes (4 bytes of "signature"), the list */
	memset(upd, 0, sizeof(upd));
	upd[16] = 28;
	upd[20] = 0x00;
	upd[21] = 0x02;
	upd[22] = 0xf1;
	upd[23] = 0x0e;
	memcpy(upd + 24, pkcs7, 16);
	one_hash_list(upd + 44, 0x55);
	memset(data, 0, 32);
	memcpy(data, global, 16);
	data[16] = 2;
	data[24] = 76;
	data[32] = 'P';
	data[34] = 'K';
	memcpy(data + 36, upd + 44, 76);
	for (i = 1; i < sbat_eventlog_event_count(log); i++) {
		const sbat_eventlog_event *e = sbat_eventlog_event_at(log, i);

		if (e->pcr == 7 && e->data_len >= 36 && e->data[16] == 2 && !memcmp(e->data + 32, "P\0K\0", 4))
			at = i;
	}
	assert_true(at > 0);
	pcr_sha256_with(log, 7, at, data, sizeof(data), want);
	r = shim_path("x");
	assert_int_equal(sbat_pcr7_vars_update(vars, "PK", upd, sizeof(upd), &added, &d), SBAT_OK);
	assert_int_equal(added, 1);
	{
		sbat_pcr7 *m;
		const sbat_pcr7_bank *b = NULL;

		assert_int_equal(sbat_pcr7_build(log, vars, &m, &d), SBAT_OK);
		for (i = 0; i < sbat_pcr7_bank_count(m); i++)
			if (sbat_pcr7_bank_at(m, i)->alg == SBAT_EVENTLOG_ALG_SHA256)
				b = sbat_pcr7_bank_at(m, i);
		assert_non_null(b);
		if (!b->predicted)
			fail_msg("PCR 7 unknown: %s", b->why);
		assert_memory_equal(b->value, want, 32);
		sbat_pcr7_free(m);
	}
	/* deleted: no list after the header */
	assert_int_equal(sbat_pcr7_vars_update(vars, "PK", upd, 44, &added, &d), SBAT_OK);
	assert_int_equal(added, 0);
	assert_int_equal(sbat_pcrnext_predict(log, vars, r, SHIM_ENTRY, &p, &d), SBAT_OK);
	v = sbat_pcrnext_value_find(p, 7, SBAT_EVENTLOG_ALG_SHA256);
	assert_false(v->predicted);
	sbat_pcrnext_free(p);
	sbat_boot_report_free(r);
	sbat_pcr7_vars_free(vars);
	sbat_eventlog_free(log);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pcrnext_unchanged),
		cmocka_unit_test(test_pcrnext_unchanged_no_secure_boot),
		cmocka_unit_test(test_pcrnext_dbx_update),
		cmocka_unit_test(test_pcrnext_other_authority_and_image),
		cmocka_unit_test(test_pcrnext_shim_unknown),
		cmocka_unit_test(test_pcrnext_sbat_level_kept),
		cmocka_unit_test(test_pcrnext_sbat_level_latest),
		cmocka_unit_test(test_pcrnext_sbat_level_unknown),
		cmocka_unit_test(test_pcrnext_other_image_every_bank),
		cmocka_unit_test(test_pcrnext_moklist_pending),
		cmocka_unit_test(test_pcrnext_moklistx_pending),
		cmocka_unit_test(test_pcrnext_pk_pending),
	};

	return run_group(tests, NULL, NULL);
}
