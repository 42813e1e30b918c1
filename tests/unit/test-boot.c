/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-boot.c - unit tests for the next-boot SbatLevel prediction, one rule of shim 16.x per test */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "sbat/boot.h"
#include "sbat/csv.h"

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
	assert_string_equal(b.builtin.self.entry->component_name, "shim");
	assert_int_equal(b.builtin.self.level->generation, 5);
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
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
