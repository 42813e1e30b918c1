/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-bootreport.c - sbat_boot_report: stages kept as data, and an unknown stage never counted as a yes */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdlib.h>
#include <string.h>

#include "sbat/bootreport.h"

/* One stage to add, and what the outcome is after it. */
typedef struct rcase {
	const char *entry;
	int is_default, off_default, stage;
	sbat_verdict verdict;
	int default_unknown, other_unknown; /* the outcome after the stage */
} rcase;

static const rcase cases[] = {
	{ "Boot0001 debian", 1, 0, 1, SBAT_VERDICT_BOOTS, 0, 0 },
	{ "Boot0001 debian", 1, 0, 3, SBAT_VERDICT_SKIPPED, 0, 0 },
	/* a menu entry that is not the one started by default: another path's unknown */
	{ "Boot0001 debian", 1, 1, 3, SBAT_VERDICT_UNKNOWN, 0, 1 },
	{ "Boot0002 other", 0, 0, 2, SBAT_VERDICT_REFUSED, 0, 1 },
	/* the default path's own stage */
	{ "Boot0001 debian", 1, 0, 2, SBAT_VERDICT_UNKNOWN, 1, 1 },
	{ "Boot0003 pxe", 0, 0, 0, SBAT_VERDICT_INACTIVE, 1, 1 },
};

static void
test_outcome_table(void **state)
{
	sbat_boot_report *r = NULL;
	sbat_diag d;
	size_t i;

	(void)state;
	assert_int_equal(sbat_boot_report_new(&r, &d), SBAT_OK);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sbat_boot_stage st;
		sbat_boot_outcome o;

		sbat_boot_stage_init(&st);
		st.entry = cases[i].entry;
		st.is_default = cases[i].is_default;
		st.off_default = cases[i].off_default;
		st.stage = cases[i].stage;
		st.verdict = cases[i].verdict;
		assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_OK);
		o = sbat_boot_report_outcome(r);
		print_message("# stage %zu (%s): default_unknown %d other_unknown %d\n", i,
		              sbat_judge_verdict_name(cases[i].verdict), o.default_unknown, o.other_unknown);
		assert_int_equal(o.n_stages, i + 1);
		assert_int_equal(o.default_unknown, cases[i].default_unknown);
		assert_int_equal(o.other_unknown, cases[i].other_unknown);
	}
	assert_int_equal(sbat_boot_report_count(r), sizeof(cases) / sizeof(cases[0]));
	assert_null(sbat_boot_report_stage(r, sizeof(cases) / sizeof(cases[0])));
	sbat_boot_report_free(r);
}

static void
test_strings_are_copied(void **state)
{
	sbat_boot_report *r = NULL;
	sbat_boot_stage st;
	const sbat_boot_stage *got;
	sbat_diag d;
	char file[32], cfg[32];

	(void)state;
	assert_int_equal(sbat_boot_report_new(&r, &d), SBAT_OK);
	strcpy(file, "\\EFI\\debian\\grubx64.efi");
	strcpy(cfg, "/EFI/debian/grub.cfg:12");
	sbat_boot_stage_init(&st);
	st.entry = "Boot0001 debian";
	st.stage = 3;
	st.file = file;
	st.verdict = SBAT_VERDICT_REFUSED;
	st.gate = SBAT_BOOT_GATE_SBAT;
	st.judge_reason = SBAT_JUDGE_REVOKED;
	st.revoked = "grub,3";
	st.config = cfg;
	st.rule = SBAT_BOOT_RULE_SHIM_LOCK;
	assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_OK);
	memset(file, 'x', sizeof(file) - 1);
	memset(cfg, 'x', sizeof(cfg) - 1);
	got = sbat_boot_report_stage(r, 0);
	assert_non_null(got);
	assert_string_equal(got->file, "\\EFI\\debian\\grubx64.efi");
	assert_string_equal(got->config, "/EFI/debian/grub.cfg:12");
	assert_int_equal(got->rule, SBAT_BOOT_RULE_SHIM_LOCK);
	assert_null(got->menu_entry);
	assert_int_equal(got->verdict, SBAT_VERDICT_REFUSED);
	assert_int_equal(got->gate, SBAT_BOOT_GATE_SBAT);
	assert_int_equal(got->judge_reason, SBAT_JUDGE_REVOKED);
	assert_string_equal(got->revoked, "grub,3");
	sbat_boot_report_free(r);
}

/* A note's strings are the report's own, the chain of GRUB's configurations too. */
static void
test_note_strings_are_copied(void **state)
{
	sbat_boot_report *r = NULL;
	sbat_boot_note n;
	const sbat_boot_note *got;
	sbat_diag d;
	char name[32], host[32], conf[32];

	(void)state;
	assert_int_equal(sbat_boot_report_new(&r, &d), SBAT_OK);
	strcpy(name, "(memdisk)/grub.cfg");
	strcpy(host, "/boot/grub/grub.cfg");
	strcpy(conf, "/efi/loader/loader.conf");
	sbat_boot_note_init(&n);
	n.kind = SBAT_BOOT_NOTE_VERBOSE;
	n.what = SBAT_BOOT_NOTE_MENU_FILES;
	n.loader = SBAT_BOOT_LOADER_GRUB;
	n.n_chain = 3;
	n.chain[0] = NULL;
	n.chain[1] = name;
	n.chain[2] = "(hd0,gpt2)/boot/grub/grub.cfg";
	n.chain_host[2] = host;
	n.conf_file = conf;
	assert_int_equal(sbat_boot_report_add_note(r, &n, &d), SBAT_OK);
	memset(name, 'x', sizeof(name) - 1);
	memset(host, 'x', sizeof(host) - 1);
	memset(conf, 'x', sizeof(conf) - 1);
	got = sbat_boot_report_note_at(r, 0);
	assert_non_null(got);
	assert_int_equal(got->what, SBAT_BOOT_NOTE_MENU_FILES);
	assert_int_equal(got->n_chain, 3);
	assert_null(got->chain[0]);
	assert_null(got->chain_host[0]);
	assert_string_equal(got->chain[1], "(memdisk)/grub.cfg");
	assert_ptr_not_equal(got->chain[2], n.chain[2]);
	assert_string_equal(got->chain[2], "(hd0,gpt2)/boot/grub/grub.cfg");
	assert_string_equal(got->chain_host[2], "/boot/grub/grub.cfg");
	assert_string_equal(got->conf_file, "/efi/loader/loader.conf");
	assert_null(got->xbootldr);
	sbat_boot_report_free(r);
}

static void
test_stage_without_init_is_refused(void **state)
{
	sbat_boot_report *r = NULL;
	sbat_boot_stage st;
	sbat_diag d;

	(void)state;
	assert_int_equal(sbat_boot_report_new(&r, &d), SBAT_OK);
	memset(&st, 0, sizeof(st));
	assert_int_equal(sbat_boot_report_add(r, &st, &d), SBAT_E_ABI);
	assert_int_equal(sbat_boot_report_count(r), 0);
	sbat_boot_report_free(r);
	sbat_boot_report_free(NULL);
	assert_int_equal(sbat_boot_report_count(NULL), 0);
	assert_string_equal(sbat_judge_verdict_name(SBAT_VERDICT_SKIPPED), "skipped");
	assert_string_equal(sbat_judge_verdict_name(SBAT_VERDICT_INACTIVE), "inactive");
}

/* The one stage decision: shim's state over its SBAT check, a refused or unknown signature over both. */
static void
test_stage_decide(void **state)
{
	static const struct {
		sbat_verdict sbat;
		sbat_boot_gate gate;
		sbat_judge_shim shim;
		int signature;
		sbat_verdict verdict;
		sbat_boot_gate decided;
	} decide_cases[] = {
		{ SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SBAT, SBAT_JUDGE_SHIM_ENFORCES, SBAT_BOOT_NOT_JUDGED,
		  SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SBAT },
		{ SBAT_VERDICT_REFUSED, SBAT_BOOT_GATE_SBAT, SBAT_JUDGE_SHIM_NOT_ENFORCING, SBAT_BOOT_NOT_JUDGED,
		  SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SHIM },
		{ SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SBAT, SBAT_JUDGE_SHIM_STOPS, SBAT_BOOT_NOT_JUDGED,
		  SBAT_VERDICT_REFUSED, SBAT_BOOT_GATE_SHIM },
		{ SBAT_VERDICT_REFUSED, SBAT_BOOT_GATE_SBAT, SBAT_JUDGE_SHIM_INSECURE, SBAT_BOOT_NOT_JUDGED,
		  SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SHIM },
		{ SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SBAT, SBAT_JUDGE_SHIM_UNKNOWN, SBAT_BOOT_NOT_JUDGED,
		  SBAT_VERDICT_UNKNOWN, SBAT_BOOT_GATE_SHIM },
		/* shim's state matters only to an SBAT check */
		{ SBAT_VERDICT_UNKNOWN, SBAT_BOOT_GATE_NONE, SBAT_JUDGE_SHIM_NOT_ENFORCING, SBAT_BOOT_NOT_JUDGED,
		  SBAT_VERDICT_UNKNOWN, SBAT_BOOT_GATE_NONE },
		{ SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SBAT, SBAT_JUDGE_SHIM_ENFORCES, SBAT_VERDICT_BOOTS,
		  SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SBAT },
		{ SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SBAT, SBAT_JUDGE_SHIM_ENFORCES, SBAT_VERDICT_REFUSED,
		  SBAT_VERDICT_REFUSED, SBAT_BOOT_GATE_SIGNATURE },
		{ SBAT_VERDICT_NOT_GOVERNED, SBAT_BOOT_GATE_NONE, SBAT_JUDGE_SHIM_ENFORCES, SBAT_VERDICT_UNKNOWN,
		  SBAT_VERDICT_UNKNOWN, SBAT_BOOT_GATE_SIGNATURE },
		/* a refusal by SBAT stays one when the signature is not known */
		{ SBAT_VERDICT_REFUSED, SBAT_BOOT_GATE_SBAT, SBAT_JUDGE_SHIM_ENFORCES, SBAT_VERDICT_UNKNOWN,
		  SBAT_VERDICT_REFUSED, SBAT_BOOT_GATE_SBAT },
		{ SBAT_VERDICT_BOOTS, SBAT_BOOT_GATE_SHIM, SBAT_JUDGE_SHIM_ENFORCES, SBAT_VERDICT_UNKNOWN,
		  SBAT_VERDICT_UNKNOWN, SBAT_BOOT_GATE_SIGNATURE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(decide_cases) / sizeof(decide_cases[0]); i++) {
		sbat_boot_gate gate = SBAT_BOOT_GATE_MENU;
		sbat_verdict v = sbat_boot_report_decide(decide_cases[i].sbat, decide_cases[i].gate,
		                                         decide_cases[i].shim, decide_cases[i].signature, &gate);

		print_message("# case %zu: %s by gate %d\n", i, sbat_judge_verdict_name(v), (int)gate);
		assert_int_equal(v, decide_cases[i].verdict);
		assert_int_equal(gate, decide_cases[i].decided);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_outcome_table),
		cmocka_unit_test(test_strings_are_copied),
		cmocka_unit_test(test_note_strings_are_copied),
		cmocka_unit_test(test_stage_without_init_is_refused),
		cmocka_unit_test(test_stage_decide),
	};

	return run_group(tests, NULL, NULL);
}
