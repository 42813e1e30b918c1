/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-boot.c - unit tests for the next-boot SbatLevel prediction, one rule of shim 16.x per test */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdlib.h>
#include <string.h>

#include "sbat/boot.h"
#include "sbat/loadoption.h"
#include "sbat/csv.h"

#include "boot/loadopt.h"

#define ORIGINAL "sbat,1,2021030218\n"
#define LEVEL_2024 "sbat,1,2024010900\nshim,4\ngrub,3\ngrub.debian,4\n"
#define AUTOMATIC "sbat,1,2025021800\nshim,4\ngrub,5\n"
#define LATEST "sbat,1,2025051000\nshim,4\ngrub,5\ngrub.proxmox,2\n"
#define SHIM_SBAT                                                                                                      \
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\nshim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n"

static sbat_csv *shim_csv;

static int
setup(void **state)
{
	sbat_diag d;

	(void)state;
	return sbat_csv_parse((const uint8_t *)SHIM_SBAT, strlen(SHIM_SBAT), &shim_csv, &d) == SBAT_OK ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	sbat_csv_free(shim_csv);
	return 0;
}

static sbat_next_inputs
inputs(int secure_boot, int policy, const char *current)
{
	sbat_next_inputs in;

	memset(&in, 0, sizeof(in));
	in.secure_boot = secure_boot;
	in.policy = policy;
	in.current = (const uint8_t *)current;
	in.current_len = current ? strlen(current) : 0;
	in.automatic = AUTOMATIC;
	in.latest = LATEST;
	in.shim_sbat = shim_csv;
	return in;
}

static sbat_next_boot
predict(const sbat_next_inputs *in)
{
	sbat_next_boot b;
	sbat_diag d;

	assert_int_equal(sbat_next_boot_predict(in, &b, &d), SBAT_OK);
	return b;
}

static void
assert_text(const uint8_t *p, size_t n, const char *want)
{
	assert_non_null(p);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(p, want, n);
}

/* No SbatPolicy, Secure Boot on: automatic, replacing an older level. */
static void
test_default_secure_boot_automatic(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, LEVEL_2024);
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.choice, SBAT_NEXT_CHOSE_DEFAULT);
	assert_int_equal(b.builtin.payload, SBAT_NEXT_PAYLOAD_AUTOMATIC);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_REPLACED);
	assert_text(b.stored, b.stored_len, AUTOMATIC);
	assert_text(b.enforced, b.enforced_len, AUTOMATIC);
	assert_int_equal(b.shim_stops, 0);
	assert_int_equal(b.revocations.rule, SBAT_NEXT_NOT_RUN);
}

/* No SbatPolicy, Secure Boot off: back to the original level, and nothing is enforced. */
static void
test_default_insecure_resets(void **state)
{
	sbat_next_inputs in = inputs(0, SBAT_POLICY_ABSENT, LATEST);
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.payload, SBAT_NEXT_PAYLOAD_ORIGINAL);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_RESET);
	assert_text(b.stored, b.stored_len, ORIGINAL);
	assert_null(b.enforced);
}

static void
test_policy_latest(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_LATEST, AUTOMATIC);
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.choice, SBAT_NEXT_CHOSE_LATEST);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_REPLACED);
	assert_text(b.stored, b.stored_len, LATEST);
}

/* latest is also applied with Secure Boot off: only an absent or reset policy resets. */
static void
test_policy_latest_insecure(void **state)
{
	sbat_next_inputs in = inputs(0, SBAT_POLICY_LATEST, ORIGINAL);
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.payload, SBAT_NEXT_PAYLOAD_LATEST);
	assert_text(b.stored, b.stored_len, LATEST);
	assert_null(b.enforced);
}

/* Never downgrade: a stored level with a newer datestamp is kept. */
static void
test_policy_automatic_keeps_newer(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_AUTOMATIC, LATEST);
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.choice, SBAT_NEXT_CHOSE_AUTOMATIC);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_KEPT_DATESTAMP);
	assert_text(b.stored, b.stored_len, LATEST);
}

/* The same datestamp is kept too (not older). */
static void
test_same_datestamp_kept(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, "sbat,1,2025021800\n");
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.rule, SBAT_NEXT_KEPT_DATESTAMP);
	assert_text(b.stored, b.stored_len, "sbat,1,2025021800\n");
}

/* A longer version field wins before the datestamp is looked at. */
static void
test_newer_version_kept(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, "sbat,10,2021030218\n");
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.rule, SBAT_NEXT_KEPT_VERSION);
}

/* As long and greater: kept; as long and smaller, with an older datestamp: replaced. */
static void
test_version_compare(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, "sbat,2,2021030218\n");
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.rule, SBAT_NEXT_KEPT_VERSION);
	in = inputs(1, SBAT_POLICY_ABSENT, "sbat,0,2021030218\n");
	b = predict(&in);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_REPLACED);
}

/* A stored value that is no SbatLevel is replaced, whatever its datestamp. */
static void
test_corrupt_replaced(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, "sbat,1,20990101\n");
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.rule, SBAT_NEXT_REPLACED_CORRUPT);
	assert_text(b.stored, b.stored_len, AUTOMATIC);
	in = inputs(1, SBAT_POLICY_ABSENT, "SBAT,1,2099010100\n");
	b = predict(&in);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_REPLACED_CORRUPT);
}

/* No SbatLevel yet: written. */
static void
test_absent_written(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, NULL);
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.rule, SBAT_NEXT_WRITTEN_ABSENT);
	assert_text(b.stored, b.stored_len, AUTOMATIC);
}

/* reset is refused with Secure Boot on (automatic instead) ... */
static void
test_reset_refused_secure(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_RESET, LEVEL_2024);
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.choice, SBAT_NEXT_CHOSE_RESET_REFUSED);
	assert_int_equal(b.builtin.payload, SBAT_NEXT_PAYLOAD_AUTOMATIC);
	assert_text(b.stored, b.stored_len, AUTOMATIC);
}

/* ... and done with it off, over a newer level (no preserve rule). */
static void
test_reset_insecure(void **state)
{
	sbat_next_inputs in = inputs(0, SBAT_POLICY_RESET, LATEST);
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.choice, SBAT_NEXT_CHOSE_RESET);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_RESET);
	assert_text(b.stored, b.stored_len, ORIGINAL);
}

/* Another value: as absent. */
static void
test_invalid_policy(void **state)
{
	sbat_next_inputs in = inputs(1, 7, LEVEL_2024);
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.choice, SBAT_NEXT_CHOSE_INVALID);
	assert_int_equal(b.builtin.payload, SBAT_NEXT_PAYLOAD_AUTOMATIC);
	in = inputs(0, 0, LEVEL_2024);
	b = predict(&in);
	assert_int_equal(b.builtin.payload, SBAT_NEXT_PAYLOAD_ORIGINAL);
}

/* A candidate that revokes shim itself is not written, and with Secure Boot on shim stops. */
static void
test_self_revocation_refused(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_LATEST, LEVEL_2024);
	sbat_next_boot b;

	(void)state;
	in.latest = "sbat,1,2026010100\nshim,5\n";
	b = predict(&in);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_REFUSED_SELF);
	assert_string_equal(b.builtin.self_component, "shim");
	assert_int_equal(b.builtin.self_generation, 4);
	assert_int_equal(b.builtin.self_minimum, 5);
	assert_text(b.stored, b.stored_len, LEVEL_2024);
	assert_int_equal(b.shim_stops, 1);
	assert_null(b.enforced);
	/* with Secure Boot off shim goes on; the level stays */
	in.secure_boot = 0;
	b = predict(&in);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_REFUSED_SELF);
	assert_int_equal(b.shim_stops, 0);
	assert_text(b.stored, b.stored_len, LEVEL_2024);
}

/* A kept level that revokes shim: the self-check after the variable is set stops it. */
static void
test_kept_level_revokes_shim(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, "sbat,1,2099010100\nshim,9\n");
	sbat_next_boot b = predict(&in);

	(void)state;
	assert_int_equal(b.builtin.rule, SBAT_NEXT_KEPT_DATESTAMP);
	assert_int_equal(b.shim_stops, 1);
}

/* revocations_sbat.efi: applied in the same boot, checked images see it at once. */
static void
test_revocations_same_boot(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, LEVEL_2024);
	sbat_next_boot b;

	(void)state;
	in.automatic = LEVEL_2024;
	in.rev_automatic = AUTOMATIC;
	in.rev_latest = LATEST;
	in.rev_sbat = shim_csv;
	b = predict(&in);
	assert_int_equal(b.builtin.rule, SBAT_NEXT_KEPT_DATESTAMP);
	assert_int_equal(b.revocations.rule, SBAT_NEXT_REPLACED);
	assert_text(b.enforced, b.enforced_len, AUTOMATIC);
	assert_text(b.stored, b.stored_len, AUTOMATIC);
}

/* It is not read with Secure Boot off. */
static void
test_revocations_insecure_ignored(void **state)
{
	sbat_next_inputs in = inputs(0, SBAT_POLICY_LATEST, LEVEL_2024);
	sbat_next_boot b;

	(void)state;
	in.rev_automatic = "sbat,1,2030010100\n";
	in.rev_latest = "sbat,1,2030010100\n";
	in.rev_sbat = shim_csv;
	b = predict(&in);
	assert_int_equal(b.revocations.rule, SBAT_NEXT_NOT_RUN);
	assert_text(b.stored, b.stored_len, LATEST);
}

/* Without a .sbat of its own the file is refused as any image shim loads itself. */
static void
test_revocations_without_sbat_refused(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, LEVEL_2024);
	sbat_next_boot b;

	(void)state;
	in.rev_automatic = "sbat,1,2030010100\n";
	in.rev_latest = "sbat,1,2030010100\n";
	b = predict(&in);
	assert_int_equal(b.revocations.rule, SBAT_NEXT_REVOCATIONS_REFUSED);
	assert_text(b.stored, b.stored_len, AUTOMATIC);
}

/* A self-revoking revocations payload is not written, but shim's list already holds it for this boot. */
static void
test_revocations_self_revoking(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, LEVEL_2024);
	sbat_next_boot b;

	(void)state;
	in.rev_automatic = "sbat,1,2030010100\nshim,5\n";
	in.rev_latest = in.rev_automatic;
	in.rev_sbat = shim_csv;
	b = predict(&in);
	assert_int_equal(b.revocations.rule, SBAT_NEXT_REFUSED_SELF);
	assert_text(b.stored, b.stored_len, AUTOMATIC);
	assert_text(b.enforced, b.enforced_len, "sbat,1,2030010100\nshim,5\n");
	assert_int_equal(b.shim_stops, 0);
}

/* The policy applies to both steps: latest from the revocations file too. */
static void
test_revocations_policy_latest(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_LATEST, ORIGINAL);
	sbat_next_boot b;

	(void)state;
	in.automatic = ORIGINAL;
	in.latest = ORIGINAL;
	in.rev_automatic = AUTOMATIC;
	in.rev_latest = LATEST;
	in.rev_sbat = shim_csv;
	b = predict(&in);
	assert_int_equal(b.revocations.payload, SBAT_NEXT_PAYLOAD_LATEST);
	assert_text(b.stored, b.stored_len, LATEST);
}

static void
test_missing_payloads(void **state)
{
	sbat_next_inputs in = inputs(1, SBAT_POLICY_ABSENT, NULL);
	sbat_next_boot b;
	sbat_diag d;

	(void)state;
	in.latest = NULL;
	assert_int_equal(sbat_next_boot_predict(&in, &b, &d), SBAT_E_LEVEL);
	assert_int_equal(sbat_next_boot_predict(NULL, &b, &d), SBAT_E_LEVEL);
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(sbat_next_rule_name(SBAT_NEXT_KEPT_DATESTAMP), "kept-datestamp");
	assert_string_equal(sbat_next_rule_name((sbat_next_rule)99), "?");
	assert_string_equal(sbat_next_choice_name(SBAT_NEXT_CHOSE_RESET_REFUSED), "reset-refused");
	assert_string_equal(sbat_next_payload_name(SBAT_NEXT_PAYLOAD_ORIGINAL), "original");
}

/* ------------------------------------------------ load options */

/* A Boot#### as efivarfs shows it, built piece by piece into b; returns its length. */
typedef struct opt_buf {
	uint8_t b[1024];
	size_t n;
} opt_buf;

static void
put(opt_buf *o, const void *p, size_t n)
{
	assert_true(o->n + n <= sizeof(o->b));
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void
put16(opt_buf *o, unsigned v)
{
	uint8_t x[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	put(o, x, 2);
}

static void
put32(opt_buf *o, uint32_t v)
{
	put16(o, v & 0xffff);
	put16(o, v >> 16);
}

static void
put_ucs2(opt_buf *o, const char *s)
{
	for (; *s; s++)
		put16(o, (uint8_t)*s);
	put16(o, 0);
}

/* The ESP of a GPT disk: partition 1, GUID c12a7328-f81f-11d2-ba4b-00a0c93ec93b as stored (mixed endian). */
static const uint8_t esp_guid[16] = { 0x28, 0x73, 0x2a, 0xc1, 0x1f, 0xf8, 0xd2, 0x11,
	                              0xba, 0x4b, 0x00, 0xa0, 0xc9, 0x3e, 0xc9, 0x3b };

static void
put_hd(opt_buf *o)
{
	put16(o, 0x0104);
	put16(o, 42);
	put32(o, 1);
	put32(o, 2048);
	put32(o, 0);
	put32(o, 1048576);
	put32(o, 0);
	put(o, esp_guid, 16);
	put(o, "\x02\x02", 2);
}

static void
put_file(opt_buf *o, const char *path)
{
	put16(o, 0x0404);
	put16(o, (unsigned)(4 + 2 * (strlen(path) + 1)));
	put_ucs2(o, path);
}

static void
put_end(opt_buf *o)
{
	put(o, "\x7f\xff\x04\x00", 4);
}

/* attributes, header, description; the caller adds the device path, then patches its length with finish(). */
static size_t
start_option(opt_buf *o, uint32_t attr, const char *desc)
{
	memset(o, 0, sizeof(*o));
	put32(o, 7);
	put32(o, attr);
	put16(o, 0); /* FilePathListLength, set by finish */
	put_ucs2(o, desc);
	return o->n;
}

static void
finish(opt_buf *o, size_t list_start, size_t list_end)
{
	size_t n = list_end - list_start;

	o->b[8] = (uint8_t)n;
	o->b[9] = (uint8_t)(n >> 8);
}

static sbat_load_option
parse_option_ok(const opt_buf *o)
{
	sbat_load_option lo;
	sbat_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_load_option_parse(o->b, o->n, &lo, &d), SBAT_OK);
	return lo;
}

static void
assert_option_fails(const opt_buf *o, const char *what, uint64_t offset)
{
	sbat_load_option lo;
	sbat_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_load_option_parse(o->b, o->n, &lo, &d), SBAT_E_EFIVAR);
	assert_int_equal(d.code, SBAT_E_EFIVAR);
	assert_string_equal(d.what, what);
	assert_int_equal(d.has_offset, 1);
	assert_int_equal(d.offset, offset);
}

/* A short-form shim entry as efibootmgr writes it: HD(), File(), end, then optional data. */
static void
test_load_option_shim_entry(void **state)
{
	opt_buf o;
	size_t s = start_option(&o, SBAT_LOAD_OPTION_ACTIVE, "debian");
	sbat_load_option lo;
	char path[64];
	sbat_diag d;

	(void)state;
	put_hd(&o);
	put_file(&o, "\\EFI\\debian\\shimx64.efi");
	put_end(&o);
	finish(&o, s, o.n);
	put_ucs2(&o, "\\EFI\\debian\\grubx64.efi");
	lo = parse_option_ok(&o);
	assert_int_equal(lo.attributes, SBAT_LOAD_OPTION_ACTIVE);
	assert_string_equal(lo.description, "debian");
	assert_int_equal(lo.has_hd, 1);
	assert_int_equal(lo.partition_number, 1);
	assert_int_equal(lo.signature_type, 2);
	assert_string_equal(lo.partition_guid, "c12a7328-f81f-11d2-ba4b-00a0c93ec93b");
	assert_int_equal(lo.has_file, 1);
	assert_string_equal(lo.file_path, "\\EFI\\debian\\shimx64.efi");
	assert_int_equal(lo.n_nodes, 2);
	assert_int_equal(lo.has_other_media, 0);
	assert_int_equal(lo.optional_len, 2 * (strlen("\\EFI\\debian\\grubx64.efi") + 1));
	assert_int_equal(sbat_ucs2_to_utf8(o.b + lo.optional_offset, lo.optional_len, path, sizeof(path), &d), SBAT_OK);
	assert_string_equal(path, "\\EFI\\debian\\grubx64.efi");
}

/* A path split over two File() nodes is joined with one backslash. */
static void
test_load_option_split_path(void **state)
{
	opt_buf o;
	size_t s = start_option(&o, 0, "x");
	sbat_load_option lo;
	char nodes[64];
	unsigned n;
	sbat_diag d;

	(void)state;
	put_hd(&o);
	put_file(&o, "\\EFI\\BOOT");
	put_file(&o, "BOOTX64.EFI");
	put_end(&o);
	finish(&o, s, o.n);
	lo = parse_option_ok(&o);
	assert_string_equal(lo.file_path, "\\EFI\\BOOT\\BOOTX64.EFI");
	assert_int_equal(lo.attributes & SBAT_LOAD_OPTION_ACTIVE, 0);
	/* and node by node, as the firmware opens them */
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_load_option_file_nodes(o.b, o.n, nodes, sizeof(nodes), &n, &d), SBAT_OK);
	assert_int_equal(n, 2);
	assert_string_equal(nodes, "\\EFI\\BOOT");
	assert_string_equal(nodes + strlen(nodes) + 1, "BOOTX64.EFI");
	/* too small a buffer for them */
	assert_int_equal(sbat_load_option_file_nodes(o.b, o.n, nodes, 12, &n, &d), SBAT_E_EFIVAR);
}

/* File() nodes one by one, as stored: an empty one is kept (EDK2's FAT driver refuses it), a / too. */
static void
test_load_option_file_nodes(void **state)
{
	opt_buf o;
	size_t s = start_option(&o, 1, "x");
	char nodes[64];
	unsigned n = 99;
	sbat_diag d;

	(void)state;
	put_file(&o, "\\EFI");
	put_file(&o, "");
	put_file(&o, "/a/b.efi");
	put_end(&o);
	finish(&o, s, o.n);
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_load_option_file_nodes(o.b, o.n, nodes, sizeof(nodes), &n, &d), SBAT_OK);
	assert_int_equal(n, 3);
	assert_string_equal(nodes, "\\EFI");
	assert_string_equal(nodes + 5, "");
	assert_string_equal(nodes + 6, "/a/b.efi");
	/* a malformed option gives none */
	o.n = 8;
	assert_int_equal(sbat_load_option_file_nodes(o.b, o.n, nodes, sizeof(nodes), &n, &d), SBAT_E_EFIVAR);
	assert_int_equal(n, 0);
}

/* A firmware application in a firmware volume (UEFI shell, setup): other media, no file on a disk. */
static void
test_load_option_firmware_volume(void **state)
{
	opt_buf o;
	size_t s = start_option(&o, 1, "UEFI Shell");
	sbat_load_option lo;
	uint8_t fv[20] = { 0x04, 0x07, 20, 0 };

	(void)state;
	put(&o, fv, sizeof(fv));
	put_end(&o);
	finish(&o, s, o.n);
	lo = parse_option_ok(&o);
	assert_int_equal(lo.has_other_media, 1);
	assert_int_equal(lo.has_hd, 0);
	assert_int_equal(lo.has_file, 0);
	assert_int_equal(lo.optional_len, 0);
	/* a volume alone names no file of it */
	assert_int_equal(loadopt_in_firmware(o.b, o.n), 0);
}

/* FvFile() after the volume: a file of the firmware's own (its shell); a File() on a disk is not. */
static void
test_load_option_in_firmware(void **state)
{
	opt_buf o;
	size_t s = start_option(&o, 1, "EFI Internal Shell");
	uint8_t fv[20] = { 0x04, 0x07, 20, 0 }, file[20] = { 0x04, 0x06, 20, 0, 0x83, 0xa5, 0x04, 0x7c };

	(void)state;
	put(&o, fv, sizeof(fv));
	put(&o, file, sizeof(file));
	put_end(&o);
	finish(&o, s, o.n);
	assert_int_equal(loadopt_in_firmware(o.b, o.n), 1);
	/* malformed: not one */
	assert_int_equal(loadopt_in_firmware(o.b, 8), 0);

	s = start_option(&o, 1, "debian");
	put_hd(&o);
	put_file(&o, "\\EFI\\debian\\shimx64.efi");
	put_end(&o);
	finish(&o, s, o.n);
	assert_int_equal(loadopt_in_firmware(o.b, o.n), 0);
}

static void
test_load_option_malformed(void **state)
{
	opt_buf o;
	size_t s;

	(void)state;
	/* shorter than the attribute bytes, and than the header */
	memset(&o, 0, sizeof(o));
	o.n = 3;
	assert_option_fails(&o, "variable shorter than its 4 attribute bytes", 0);
	o.n = 8;
	assert_option_fails(&o, "load option shorter than its 6-byte header", 4);
	/* no NUL after the description */
	start_option(&o, 1, "");
	o.n -= 2;
	put16(&o, 'a');
	assert_option_fails(&o, "description is not NUL-terminated", 10);
	/* FilePathListLength past the end */
	s = start_option(&o, 1, "d");
	put_end(&o);
	finish(&o, s, o.n + 2);
	assert_option_fails(&o, "FilePathListLength runs past the end of the variable", 8);
	/* zero list */
	s = start_option(&o, 1, "d");
	finish(&o, s, s);
	assert_option_fails(&o, "load option without a device path", 8);
	/* a node of length 0: would loop for ever */
	s = start_option(&o, 1, "d");
	put(&o, "\x04\x04\x00\x00", 4);
	put_end(&o);
	finish(&o, s, o.n);
	assert_option_fails(&o, "device path node shorter than its 4-byte header", s + 2);
	/* a node longer than the list */
	s = start_option(&o, 1, "d");
	put(&o, "\x04\x04\x40\x00", 4);
	put_end(&o);
	finish(&o, s, o.n);
	assert_option_fails(&o, "device path node runs past the file path list", s + 2);
	/* no end node */
	s = start_option(&o, 1, "d");
	put_file(&o, "\\a");
	finish(&o, s, o.n);
	assert_option_fails(&o, "device path without an end node", o.n);
	/* HD node of the wrong length */
	s = start_option(&o, 1, "d");
	put(&o, "\x04\x01\x08\x00\x01\x00\x00\x00", 8);
	put_end(&o);
	finish(&o, s, o.n);
	assert_option_fails(&o, "hard drive device path node is not 42 bytes long", s + 2);
	/* File node of odd length */
	s = start_option(&o, 1, "d");
	put(&o, "\x04\x04\x07\x00\x41\x00\x00", 7);
	put_end(&o);
	finish(&o, s, o.n);
	assert_option_fails(&o, "CHAR16 text of odd length", s + 6);
	/* a control character in the description */
	start_option(&o, 1, "a\tb");
	assert_option_fails(&o, "control character in CHAR16 text", 12);
}

/* Every prefix of a valid option fails cleanly or parses; never reads past the buffer (run under ASan). */
static void
test_load_option_every_truncation(void **state)
{
	opt_buf o;
	size_t s = start_option(&o, 1, "debian"), n, full;
	sbat_load_option lo;
	sbat_diag d;

	(void)state;
	put_hd(&o);
	put_file(&o, "\\EFI\\debian\\shimx64.efi");
	put_end(&o);
	finish(&o, s, o.n);
	full = o.n;
	for (n = 0; n < full; n++) {
		uint8_t *copy = malloc(n ? n : 1);

		assert_non_null(copy);
		memcpy(copy, o.b, n);
		assert_int_equal(sbat_load_option_parse(copy, n, &lo, &d), SBAT_E_EFIVAR);
		free(copy);
	}
}

static void
test_boot_order(void **state)
{
	const uint8_t order[] = { 7, 0, 0, 0, 0x01, 0x00, 0x00, 0x00, 0x80, 0x20 };
	uint16_t out[4];
	size_t n = 0;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_boot_order_parse(order, sizeof(order), out, 4, &n, &d), SBAT_OK);
	assert_int_equal(n, 3);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 0);
	assert_int_equal(out[2], 0x2080);
	assert_int_equal(sbat_boot_order_parse(order, 9, out, 4, &n, &d), SBAT_E_EFIVAR);
	assert_string_equal(d.what, "odd length for an array of UINT16");
	assert_int_equal(d.offset, 8);
	assert_int_equal(sbat_boot_order_parse(order, 4, out, 4, &n, &d), SBAT_E_EFIVAR);
	assert_int_equal(sbat_boot_order_parse(order, 2, out, 4, &n, &d), SBAT_E_EFIVAR);
	/* BootNext holds one number */
	assert_int_equal(sbat_boot_order_parse(order, sizeof(order), out, 1, &n, &d), SBAT_E_EFIVAR);
	assert_string_equal(d.what, "more boot option numbers than expected");
}

static void
test_ucs2(void **state)
{
	const uint8_t text[] = { 'a', 0, 0xe9, 0, 0xac, 0x20, 0x3d, 0xd8, 0x00, 0xde, 0, 0, 'x', 0 };
	const uint8_t lone[] = { 0x3d, 0xd8, 'a', 0 };
	char out[16], tiny[3];
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_ucs2_to_utf8(text, sizeof(text), out, sizeof(out), &d), SBAT_OK);
	assert_string_equal(out, "a\xc3\xa9\xe2\x82\xac?");
	assert_int_equal(sbat_ucs2_to_utf8(lone, sizeof(lone), out, sizeof(out), &d), SBAT_E_EFIVAR);
	assert_string_equal(d.what, "CHAR16 text with a lone surrogate");
	assert_int_equal(sbat_ucs2_to_utf8(text, 3, out, sizeof(out), &d), SBAT_E_EFIVAR);
	assert_int_equal(sbat_ucs2_to_utf8(text, sizeof(text), tiny, sizeof(tiny), &d), SBAT_E_EFIVAR);
	assert_string_equal(d.what, "CHAR16 text too long");
	assert_int_equal(sbat_ucs2_to_utf8(NULL, 0, out, sizeof(out), &d), SBAT_OK);
	assert_string_equal(out, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_secure_boot_automatic),
		cmocka_unit_test(test_default_insecure_resets),
		cmocka_unit_test(test_policy_latest),
		cmocka_unit_test(test_policy_latest_insecure),
		cmocka_unit_test(test_policy_automatic_keeps_newer),
		cmocka_unit_test(test_same_datestamp_kept),
		cmocka_unit_test(test_newer_version_kept),
		cmocka_unit_test(test_version_compare),
		cmocka_unit_test(test_corrupt_replaced),
		cmocka_unit_test(test_absent_written),
		cmocka_unit_test(test_reset_refused_secure),
		cmocka_unit_test(test_reset_insecure),
		cmocka_unit_test(test_invalid_policy),
		cmocka_unit_test(test_self_revocation_refused),
		cmocka_unit_test(test_kept_level_revokes_shim),
		cmocka_unit_test(test_revocations_same_boot),
		cmocka_unit_test(test_revocations_insecure_ignored),
		cmocka_unit_test(test_revocations_without_sbat_refused),
		cmocka_unit_test(test_revocations_self_revoking),
		cmocka_unit_test(test_revocations_policy_latest),
		cmocka_unit_test(test_missing_payloads),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_load_option_shim_entry),
		cmocka_unit_test(test_load_option_split_path),
		cmocka_unit_test(test_load_option_file_nodes),
		cmocka_unit_test(test_load_option_firmware_volume),
		cmocka_unit_test(test_load_option_in_firmware),
		cmocka_unit_test(test_load_option_malformed),
		cmocka_unit_test(test_load_option_every_truncation),
		cmocka_unit_test(test_boot_order),
		cmocka_unit_test(test_ucs2),
	};

	return run_group(tests, setup, teardown);
}
