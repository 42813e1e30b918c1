/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-eventlog.c - sbat_eventlog: real logs replayed to the TPM's values, every malformed log refused with its offset */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/eventlog.h"

#include "util/sha256.h"

static char root[1024];

/* ------------------------------------------------------------ real logs */

/* The "BANK N HEX" lines the guest printed, for bank name: PCR N's value into out[N]; a bit per line read. */
static uint32_t
read_pcrs(const char *file, const char *name, uint8_t out[SBAT_EVENTLOG_PCRS][SBAT_EVENTLOG_MAX_DIGEST])
{
	FILE *f = fopen(file, "r");
	char bank[32], hex[2 * SBAT_EVENTLOG_MAX_DIGEST + 2];
	unsigned n;
	uint32_t got = 0;
	size_t i;

	assert_non_null(f);
	while (fscanf(f, "%31s %u %129s", bank, &n, hex) == 3) {
		if (strcmp(bank, name) != 0 || n >= SBAT_EVENTLOG_PCRS)
			continue;
		for (i = 0; 2 * i + 1 < strlen(hex); i++) {
			unsigned v;

			assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
			out[n][i] = (uint8_t)v;
		}
		got |= 1u << n;
	}
	fclose(f);
	return got;
}

/* The TPM directory sbat_eventlog_compare_tpm reads, pcr-BANK/N, made from the guest's lines. */
static void
make_tpm_dir(const char *pcrs, const char *dir)
{
	char cmd[16384];

	snprintf(cmd, sizeof(cmd),
	         "rm -rf '%s' && mkdir -p '%s' && while read -r b n h; do mkdir -p '%s'/pcr-$b && "
	         "echo $h | tr a-f A-F >'%s'/pcr-$b/$n; done <'%s'",
	         dir, dir, dir, dir, pcrs);
	assert_int_equal(system(cmd), 0);
}

/* The log of fixture name replays, in every bank, to the PCR values the TPM showed in that boot. */
static void
replay_fixture(const char *name, unsigned *ret_pcr7_events)
{
	char log_path[4096], pcrs[4096], dir[2048];
	uint8_t tpm[SBAT_EVENTLOG_PCRS][SBAT_EVENTLOG_MAX_DIGEST];
	sbat_eventlog *log;
	sbat_eventlog_tpm state;
	sbat_diag d;
	size_t i, compared = 0;
	unsigned n;

	snprintf(log_path, sizeof(log_path), "%s/eventlog/%s/binary_bios_measurements", getenv("FIXTURES_SRC"), name);
	snprintf(pcrs, sizeof(pcrs), "%s/eventlog/%s/pcrs", getenv("FIXTURES_SRC"), name);
	assert_int_equal(sbat_eventlog_read(log_path, &log, &d), SBAT_OK);
	assert_int_equal(sbat_eventlog_bank_count(log), 4);
	for (i = 0; i < sbat_eventlog_bank_count(log); i++) {
		const sbat_eventlog_bank *b = sbat_eventlog_bank_at(log, i);

		assert_non_null(b->name);
		assert_int_equal(b->replayed, 1);
		/* PCRs 0 to 7 (firmware, PCR 4 boot applications, PCR 7 Secure Boot) and 11 (the UKI) */
		assert_int_equal(b->extended & 0x8ff, 0x8ff);
		memset(tpm, 0, sizeof(tpm));
		assert_int_equal(read_pcrs(pcrs, b->name, tpm), 0xffffff);
		for (n = 0; n < SBAT_EVENTLOG_PCRS; n++)
			if (b->extended & (1u << n)) {
				assert_memory_equal(b->value[n], tpm[n], b->digest_size);
				compared++;
			}
	}
	assert_true(compared >= 4 * 9);
	for (i = 0, n = 0; i < sbat_eventlog_event_count(log); i++)
		n += sbat_eventlog_event_at(log, i)->pcr == 7 &&
		     sbat_eventlog_event_at(log, i)->type != SBAT_EV_NO_ACTION;
	*ret_pcr7_events = n;

	/* the same through the TPM's files: they match; one PCR changed, and the log differs there */
	snprintf(dir, sizeof(dir), "%s/tpm-%s", root, name);
	make_tpm_dir(pcrs, dir);
	assert_int_equal(sbat_eventlog_compare_tpm(log, dir, &state, &d), SBAT_OK);
	assert_int_equal(state, SBAT_EVENTLOG_TPM_MATCHES);
	assert_int_equal(sbat_eventlog_bank_at(log, 1)->tpm_read, 0xffffff);
	assert_int_equal(sbat_eventlog_bank_at(log, 1)->tpm_differs, 0);
	snprintf(log_path, sizeof(log_path), "%s/pcr-sha256/7", dir);
	{
		FILE *f = fopen(log_path, "w");

		assert_non_null(f);
		fputs("00000000000000000000000000000000000000000000000000000000000000ff\n", f);
		fclose(f);
	}
	assert_int_equal(sbat_eventlog_compare_tpm(log, dir, &state, &d), SBAT_OK);
	assert_int_equal(state, SBAT_EVENTLOG_TPM_DIFFERS);
	assert_int_equal(sbat_eventlog_bank_at(log, 1)->tpm_differs, 1u << 7);
	assert_int_equal(sbat_eventlog_bank_at(log, 0)->tpm_differs, 0);
	/* a value that is not the bank's digest in hex */
	snprintf(log_path, sizeof(log_path), "%s/pcr-sha256/4", dir);
	{
		FILE *f = fopen(log_path, "w");

		assert_non_null(f);
		fputs("00ff\n", f);
		fclose(f);
	}
	assert_int_equal(sbat_eventlog_compare_tpm(log, dir, &state, &d), SBAT_E_IO);
	assert_string_equal(d.what, "not a PCR value (the bank's digest in hex)");
	/* no TPM */
	snprintf(dir, sizeof(dir), "%s/no-tpm", root);
	assert_int_equal(sbat_eventlog_compare_tpm(log, dir, &state, &d), SBAT_OK);
	assert_int_equal(state, SBAT_EVENTLOG_TPM_NOT_READ);
	sbat_eventlog_free(log);
}

/* OVMF with swtpm, no Secure Boot: captured in the VM suite (tests/vm/test-tpm.sh) */
static void
test_eventlog_ovmf(void **state)
{
	unsigned pcr7;

	(void)state;
	replay_fixture("ovmf", &pcr7);
	/* SecureBoot, PK, KEK, db, dbx, the separator */
	assert_int_equal(pcr7, 6);
}

/* the same with Secure Boot (Debian's snakeoil PK, KEK and db; the UKI signed by it) */
static void
test_eventlog_ovmf_secure_boot(void **state)
{
	unsigned pcr7;

	(void)state;
	replay_fixture("ovmf-sb", &pcr7);
	/* the policy, the separator, and the db entry that verified the UKI */
	assert_int_equal(pcr7, 7);
}

/* ------------------------------------------------------------ logs made here */

typedef struct logbuf {
	uint8_t b[4096];
	size_t n;
} logbuf;

static void
put(logbuf *l, const void *p, size_t n)
{
	assert_true(l->n + n <= sizeof(l->b));
	memcpy(l->b + l->n, p, n);
	l->n += n;
}

static void
put32(logbuf *l, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put(l, b, 4);
}

static void
put16(logbuf *l, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	put(l, b, 2);
}

/* The Spec ID event listing n algorithms (algs, sizes), with vendor bytes of vendor info. */
static void
spec_id(logbuf *l, uint32_t n, const uint16_t *algs, const uint16_t *sizes, uint8_t vendor)
{
	static const uint8_t zero[20];
	uint32_t i;

	put32(l, 0);
	put32(l, SBAT_EV_NO_ACTION);
	put(l, zero, 20);
	put32(l, 28 + 4 * n + 1 + vendor);
	put(l, "Spec ID Event03", 16);
	put32(l, 0);
	put(l, "\x00\x02\x00\x02", 4);
	put32(l, n);
	for (i = 0; i < n; i++) {
		put16(l, algs[i]);
		put16(l, sizes[i]);
	}
	put(l, &vendor, 1);
	for (i = 0; i < vendor; i++)
		put(l, "v", 1);
}

static const uint16_t ALGS[2] = { SBAT_EVENTLOG_ALG_SHA1, SBAT_EVENTLOG_ALG_SHA256 };
static const uint16_t SIZES[2] = { 20, 32 };

/* An event with both digests, each all fill bytes, and size data bytes; returns its offset. */
static size_t
event(logbuf *l, uint32_t pcr, uint32_t type, uint8_t fill, const void *data, uint32_t size)
{
	uint8_t d[32];
	size_t off = l->n;

	memset(d, fill, sizeof(d));
	put32(l, pcr);
	put32(l, type);
	put32(l, 2);
	put16(l, ALGS[0]);
	put(l, d, 20);
	put16(l, ALGS[1]);
	put(l, d, 32);
	put32(l, size);
	put(l, data, size);
	return off;
}

/* Parsing l fails with SBAT_E_EVENTLOG, what, at offset, in event number ev. */
static void
refused(const logbuf *l, const char *what, uint64_t offset, unsigned ev)
{
	uint8_t *copy = dup_exact(l->b, l->n);
	sbat_eventlog *log = (sbat_eventlog *)1;
	sbat_diag d;

	assert_int_equal(sbat_eventlog_parse(copy, l->n, &log, &d), SBAT_E_EVENTLOG);
	assert_null(log);
	assert_int_equal(d.code, SBAT_E_EVENTLOG);
	assert_string_equal(d.what, what);
	assert_int_equal(d.has_offset, 1);
	assert_int_equal(d.offset, offset);
	assert_int_equal(d.line, ev);
	free(copy);
}

static void
test_eventlog_spec_id_malformed(void **state)
{
	static const uint16_t dup[2] = { SBAT_EVENTLOG_ALG_SHA256, SBAT_EVENTLOG_ALG_SHA256 };
	static const uint16_t dup_sizes[2] = { 32, 32 };
	static const uint16_t wrong[2] = { 20, 20 };
	static const uint16_t huge[2] = { 20, 65 };
	logbuf l = { { 0 }, 0 };

	(void)state;
	refused(&l, "the log is shorter than the header of its first event", 0, 0);
	spec_id(&l, 2, ALGS, SIZES, 0);
	l.n = 31; /* truncated header */
	refused(&l, "the log is shorter than the header of its first event", 0, 0);
	l.n = 40; /* EventSize says 37 */
	refused(&l, "the Spec ID event's EventSize runs past the end of the log", 28, 0);
	l.n = 0;
	spec_id(&l, 2, ALGS, SIZES, 0);
	l.b[4] = 4; /* EV_SEPARATOR: an old SHA-1 log, or none */
	refused(&l, "not a crypto-agile log: the first event is not PCR 0's EV_NO_ACTION", 0, 0);
	l.b[4] = 3;
	memcpy(l.b + 32, "Spec ID Event02", 16);
	refused(&l, "not a crypto-agile log: the first event is not a \"Spec ID Event03\"", 32, 0);
	l.n = 0;
	spec_id(&l, 0, ALGS, SIZES, 0);
	refused(&l, "the Spec ID event lists no algorithm", 56, 0);
	l.n = 0;
	spec_id(&l, 2, ALGS, SIZES, 0);
	l.b[56] = 0xff, l.b[57] = 0xff, l.b[58] = 0xff, l.b[59] = 0xff; /* a huge count */
	refused(&l, "the Spec ID event lists more than 16 algorithms", 56, 0);
	l.b[56] = 3, l.b[57] = 0, l.b[58] = 0, l.b[59] = 0; /* one more than its EventSize holds */
	refused(&l, "the Spec ID event's algorithm list runs past its EventSize", 56, 0);
	l.n = 0;
	spec_id(&l, 2, ALGS, wrong, 0);
	refused(&l, "a digest size of the Spec ID event is not its algorithm's", 66, 0);
	l.n = 0;
	spec_id(&l, 2, ALGS, huge, 0);
	refused(&l, "a digest size of the Spec ID event is 0 or over 64 bytes", 66, 0);
	l.n = 0;
	spec_id(&l, 2, dup, dup_sizes, 0);
	refused(&l, "the Spec ID event lists an algorithm twice", 64, 0);
	l.n = 0;
	spec_id(&l, 2, ALGS, SIZES, 3);
	l.b[68] = 4; /* vendor info one byte longer than the event */
	refused(&l, "the Spec ID event's vendor information runs past its EventSize", 68, 0);
}

static void
test_eventlog_event_malformed(void **state)
{
	logbuf l = { { 0 }, 0 };
	size_t base, off;

	(void)state;
	spec_id(&l, 2, ALGS, SIZES, 0);
	base = l.n;
	off = event(&l, 7, SBAT_EV_SEPARATOR, 0x11, "\0\0\0\0", 4);
	off = event(&l, 4, SBAT_EV_SEPARATOR, 0x22, "\0\0\0\0", 4);
	assert_int_equal(off, base + 76);
	l.n = off + 11; /* truncated header of the second event */
	refused(&l, "an event's header runs past the end of the log", off, 2);
	l.n = off + 76;
	l.b[off + 8] = 3; /* three digests, two algorithms */
	refused(&l, "an event's digest count is larger than the Spec ID event's algorithms", off + 8, 2);
	memset(l.b + off + 8, 0xff, 4); /* a huge count */
	refused(&l, "an event's digest count is larger than the Spec ID event's algorithms", off + 8, 2);
	l.b[off + 8] = 2, l.b[off + 9] = 0, l.b[off + 10] = 0, l.b[off + 11] = 0;
	l.b[off + 34] = SBAT_EVENTLOG_ALG_SHA1; /* the second digest SHA-1 again */
	refused(&l, "two digests of one algorithm in an event", off + 34, 2);
	l.b[off + 34] = 0x0c; /* SHA-384, which the Spec ID event does not list */
	refused(&l, "a digest of an algorithm the Spec ID event does not list", off + 34, 2);
	l.b[off + 34] = SBAT_EVENTLOG_ALG_SHA256;
	l.n = off + 50; /* inside the SHA-256 digest */
	refused(&l, "a digest runs past the end of the log", off + 36, 2);
	l.n = off + 69; /* inside EventSize */
	refused(&l, "an event's EventSize runs past the end of the log", off + 68, 2);
	l.n = off + 76;
	l.b[off + 68] = 5; /* a lying EventSize: one more than there is */
	refused(&l, "an event's EventSize is larger than the rest of the log", off + 68, 2);
	memset(l.b + off + 68, 0xff, 4);
	refused(&l, "an event's EventSize is larger than the rest of the log", off + 68, 2);
	l.b[off + 68] = 4, l.b[off + 69] = 0, l.b[off + 70] = 0, l.b[off + 71] = 0;
	l.b[off] = 24;
	refused(&l, "an event extends a PCR over 23", off, 2);
	l.b[off] = 4;
}

/* What the replay makes: H(PCR || digest) from the reset value, the locality, trailing zeros, other algorithms. */
static void
test_eventlog_replay(void **state)
{
	static const uint16_t algs3[3] = { SBAT_EVENTLOG_ALG_SHA1, 0x0099, SBAT_EVENTLOG_ALG_SHA256 };
	static const uint16_t sizes3[3] = { 20, 24, 32 };
	uint8_t want[32], in[64], d[32];
	logbuf l = { { 0 }, 0 };
	sbat_eventlog *log;
	sbat_diag diag;
	const sbat_eventlog_bank *b;
	const sbat_eventlog_event *e;

	(void)state;
	spec_id(&l, 2, ALGS, SIZES, 2);
	event(&l, 0, SBAT_EV_NO_ACTION, 0x00, "StartupLocality\0\3", 17);
	event(&l, 0, 0x80000008u, 0x5a, "blob", 4);
	event(&l, 7, SBAT_EV_NO_ACTION, 0x77, "not extended", 12);
	memset(l.b + l.n, 0, 100); /* the rest of a log area */
	l.n += 100;
	assert_int_equal(sbat_eventlog_parse(l.b, l.n, &log, &diag), SBAT_OK);
	assert_int_equal(sbat_eventlog_event_count(log), 4);
	e = sbat_eventlog_event_at(log, 2);
	assert_int_equal(e->pcr, 0);
	assert_int_equal(e->n_digests, 2);
	assert_int_equal(e->data_len, 4);
	assert_memory_equal(e->data, "blob", 4);
	assert_string_equal(sbat_eventlog_type_name(e->type), "EV_EFI_PLATFORM_FIRMWARE_BLOB");
	assert_null(sbat_eventlog_event_at(log, 4));
	b = sbat_eventlog_bank_at(log, 1);
	assert_string_equal(b->name, "sha256");
	assert_int_equal(b->extended, 1);
	memset(in, 0, 32);
	in[31] = 3; /* locality 3 */
	memset(in + 32, 0x5a, 32);
	sha256(in, 64, want);
	assert_memory_equal(b->value[0], want, 32);
	memset(d, 0xff, sizeof(d));
	assert_memory_equal(b->value[17], d, 32);
	sbat_eventlog_free(log);

	/* an algorithm the library does not know: skipped by its declared size, its bank not replayed */
	l.n = 0;
	spec_id(&l, 3, algs3, sizes3, 0);
	put32(&l, 4);
	put32(&l, SBAT_EV_SEPARATOR);
	put32(&l, 3);
	memset(in, 0x33, sizeof(in));
	put16(&l, algs3[0]);
	put(&l, in, 20);
	put16(&l, algs3[1]);
	put(&l, in, 24);
	put16(&l, algs3[2]);
	put(&l, in, 32);
	put32(&l, 4);
	put(&l, "\0\0\0\0", 4);
	assert_int_equal(sbat_eventlog_parse(l.b, l.n, &log, &diag), SBAT_OK);
	assert_int_equal(sbat_eventlog_bank_count(log), 3);
	assert_null(sbat_eventlog_bank_at(log, 1)->name);
	assert_int_equal(sbat_eventlog_bank_at(log, 1)->replayed, 0);
	b = sbat_eventlog_bank_at(log, 2);
	assert_int_equal(b->replayed, 1);
	memset(in, 0, 32);
	memset(in + 32, 0x33, 32);
	sha256(in, 64, want);
	assert_memory_equal(b->value[4], want, 32);
	sbat_eventlog_free(log);
}

/* An event without a bank's digest leaves that bank unreplayed (and its values zero), not guessed. */
static void
test_eventlog_missing_digest(void **state)
{
	logbuf l = { { 0 }, 0 };
	uint8_t d[32];
	sbat_eventlog *log;
	sbat_diag diag;

	(void)state;
	spec_id(&l, 2, ALGS, SIZES, 0);
	event(&l, 4, SBAT_EV_SEPARATOR, 0x44, "\0\0\0\0", 4);
	memset(d, 0x44, sizeof(d));
	put32(&l, 5);
	put32(&l, SBAT_EV_SEPARATOR);
	put32(&l, 1);
	put16(&l, SBAT_EVENTLOG_ALG_SHA256);
	put(&l, d, 32);
	put32(&l, 0);
	assert_int_equal(sbat_eventlog_parse(l.b, l.n, &log, &diag), SBAT_OK);
	assert_int_equal(sbat_eventlog_bank_at(log, 0)->replayed, 0);
	assert_int_equal(sbat_eventlog_bank_at(log, 0)->missing, 1);
	assert_int_equal(sbat_eventlog_bank_at(log, 1)->replayed, 1);
	assert_int_equal(sbat_eventlog_bank_at(log, 1)->extended, 0x30);
	sbat_eventlog_free(log);
}

static void
test_eventlog_names(void **state)
{
	(void)state;
	assert_string_equal(sbat_eventlog_type_name(SBAT_EV_SEPARATOR), "EV_SEPARATOR");
	assert_string_equal(sbat_eventlog_type_name(SBAT_EV_EFI_VARIABLE_DRIVER_CONFIG),
	                    "EV_EFI_VARIABLE_DRIVER_CONFIG");
	assert_string_equal(sbat_eventlog_type_name(SBAT_EV_EFI_VARIABLE_AUTHORITY), "EV_EFI_VARIABLE_AUTHORITY");
	assert_string_equal(sbat_eventlog_type_name(0x80000010u), "EV_EFI_HCRTM_EVENT");
	assert_string_equal(sbat_eventlog_type_name(0x13), "EV_POST_CODE2");
	assert_null(sbat_eventlog_type_name(0x14));
	assert_null(sbat_eventlog_type_name(0x8000000du));
	assert_null(sbat_eventlog_type_name(0x800000e5u));
	assert_string_equal(sbat_eventlog_tpm_name(SBAT_EVENTLOG_TPM_DIFFERS), "differs");
	assert_null(sbat_eventlog_tpm_name(SBAT__EVENTLOG_TPM_MAX));
	assert_string_equal(sbat_strerror(SBAT_E_EVENTLOG), "malformed TCG event log");
}

/* A file the kernel generates says no size; a missing one is ENOENT. */
static void
test_eventlog_read(void **state)
{
	char path[2048];
	sbat_eventlog *log;
	sbat_diag d;

	(void)state;
	snprintf(path, sizeof(path), "%s/none", root);
	assert_int_equal(sbat_eventlog_read(path, &log, &d), SBAT_E_IO);
	assert_int_equal(d.sys_errno, 2);
	assert_null(log);
	assert_int_equal(sbat_eventlog_read(root, &log, &d), SBAT_E_NOT_REGULAR);
	if (access(SBAT_EVENTLOG_KERNEL_PATH, R_OK) != 0)
		return;
	/* this machine's, when it can be read: it parses (a real log of another firmware) */
	assert_int_equal(sbat_eventlog_read(NULL, &log, &d), SBAT_OK);
	assert_true(sbat_eventlog_event_count(log) > 1);
	sbat_eventlog_free(log);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "%s/sbat-eventlog-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
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
		cmocka_unit_test(test_eventlog_ovmf),
		cmocka_unit_test(test_eventlog_ovmf_secure_boot),
		cmocka_unit_test(test_eventlog_spec_id_malformed),
		cmocka_unit_test(test_eventlog_event_malformed),
		cmocka_unit_test(test_eventlog_replay),
		cmocka_unit_test(test_eventlog_missing_digest),
		cmocka_unit_test(test_eventlog_names),
		cmocka_unit_test(test_eventlog_read),
	};

	return run_group(tests, setup, teardown);
}
