/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-plan.c - the planner and the emitter on their own: planned size equals emitted size, memory equals file */
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

#include "sbat/sbat.h"

#include "edit/emit.h"
#include "edit/plan_uki.h"
#include "fixture.h"
#include "pe/model.h"
#include "edit/verify.h"

/* Not the fixtures' own .sbat (FX_SBAT_CSV), so that every edit changes something. */
static const char payload[] = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
                              "fxtest,2,Fixture Test Project,fxtest,0.2,https://example.invalid/fxtest\n";
#define PAYLOAD ((const uint8_t *)payload)
#define PAYLOAD_LEN (sizeof(payload) - 1)

/* The images and edits every check runs on. */
enum edit { INSERT, REPLACE, GROW, RELOCATE, REMOVE, RETIRE };

typedef struct scenario {
	const char *name;
	int kind;
	enum edit edit;
} scenario;

static const scenario scenarios[] = {
	{ "plain insert", FX_PLAIN, INSERT },
	{ "bzImage (old) insert", FX_BZIMAGE_OLD, INSERT },
	{ "bzImage (new) insert", FX_BZIMAGE_NEW, INSERT },
	{ "arm64 insert", FX_ARM64, INSERT },
	{ "zboot insert", FX_ZBOOT, INSERT },
	{ "plain replace", FX_PLAIN, REPLACE },
	{ "plain grow", FX_PLAIN, GROW },
	{ "plain relocate", FX_PLAIN, RELOCATE },
	{ "plain remove", FX_PLAIN, REMOVE },
	{ "plain retire", FX_PLAIN, RETIRE },
};

/* A long CSV: more than the 0x200 bytes of a fixture's .sbat. */
static const uint8_t *
long_payload(size_t *ret_len)
{
	static char buf[2048];
	size_t n = 0;
	int i;

	n += (size_t)snprintf(buf, sizeof(buf), "%s",
	                      "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n");
	for (i = 0; i < 12; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "c%d,1,Vendor,p,1,https://example.invalid/%d\n", i, i);
	*ret_len = n;
	return (const uint8_t *)buf;
}

/* The input image of a scenario, and the payload and options of its edit. */
static void
build_scenario(const scenario *sc, uint8_t **buf, size_t *len, const uint8_t **pl, size_t *pl_len, sbat_edit_opts *o)
{
	fx_spec spec;
	fx_section s;

	fx_spec_init(&spec, sc->kind);
	spec.set_checksum = sc->kind == FX_PLAIN;
	spec.overlay_len = sc->kind == FX_PLAIN ? 33 : 0;
	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.raw_size = 0x200;
	s.content = FX_SBAT_CSV;
	/* the .sbat is last for replace, grow and remove; in the middle for relocate and retire */
	if (sc->edit != INSERT)
		assert_int_equal(
		    fx_spec_insert_section(&spec, sc->edit == RELOCATE || sc->edit == RETIRE ? 2 : spec.n_sections, &s),
		    0);
	if (sc->edit != INSERT && (sc->edit == GROW || sc->edit == RELOCATE))
		spec.overlay_len = 0;
	assert_int_equal(fx_build(&spec, buf, len), 0);
	memset(o, 0, sizeof(*o));
	o->remove = sc->edit == REMOVE || sc->edit == RETIRE;
	o->relocate = sc->edit == RELOCATE;
	*pl = o->remove ? NULL : PAYLOAD;
	*pl_len = o->remove ? 0 : PAYLOAD_LEN;
	if (sc->edit == GROW || sc->edit == RELOCATE)
		*pl = long_payload(pl_len);
}

static const sbat_edit_action expected_action[] = {
	[INSERT] = SBAT_ACTION_INSERT,     [REPLACE] = SBAT_ACTION_REPLACE, [GROW] = SBAT_ACTION_GROW,
	[RELOCATE] = SBAT_ACTION_RELOCATE, [REMOVE] = SBAT_ACTION_REMOVE,   [RETIRE] = SBAT_ACTION_RETIRE,
};

/* Extents add up to the planned size, copies stay inside the input, patches inside the output. */
static void
check_plan_shape(const scenario *sc, const plan *p, size_t in_len, size_t pl_len)
{
	uint64_t total = 0;
	unsigned i;

	if (p->report.action != expected_action[sc->edit])
		fail_msg("%s: planned %s", sc->name, sbat_edit_action_name(p->report.action));
	assert_true(p->n_extents > 0 && p->n_extents <= PLAN_MAX_EXTENTS);
	for (i = 0; i < p->n_extents; i++) {
		const extent *e = &p->extents[i];

		assert_true(e->len > 0);
		if (e->kind == EXTENT_COPY)
			assert_true(e->src <= in_len && e->len <= in_len - e->src);
		if (e->kind == EXTENT_PAYLOAD)
			assert_int_equal(e->len, pl_len);
		total += e->len;
	}
	assert_int_equal(total, p->output_size);
	assert_int_equal(p->report.output_size, p->output_size);
	for (i = 0; i < p->n_patches; i++)
		assert_true(p->patches[i].offset + p->patches[i].len <= p->output_size);
	assert_false(p->overflow);
}

/* Emit into memory and into a file: the same bytes, exactly the planned number of them. */
static uint8_t *
emit_both(const scenario *sc, plan *p, const uint8_t *in, size_t in_len, int in_fd, const uint8_t *pl, size_t pl_len)
{
	sink mem, file;
	uint8_t *a = malloc((size_t)p->output_size), *b = malloc((size_t)p->output_size);
	FILE *tmp = tmpfile();
	uint32_t sum_mem;
	sbat_diag d;

	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(tmp);
	memset(&mem, 0, sizeof(mem));
	mem.mem = a;
	mem.fd = mem.in_fd = -1;
	mem.sparse_from = UINT64_MAX;
	if (emit_plan(p, in, in_len, pl, pl_len, &mem, &d) != SBAT_OK)
		fail_msg("%s: emit to memory: %s", sc->name, d.what);
	sum_mem = p->report.new_checksum;
	memset(&file, 0, sizeof(file));
	file.fd = fileno(tmp);
	file.in_fd = in_fd;
	file.sparse_from = UINT64_MAX;
	if (emit_plan(p, in, in_len, pl, pl_len, &file, &d) != SBAT_OK)
		fail_msg("%s: emit to a file: %s", sc->name, d.what);
	assert_int_equal(p->report.new_checksum, sum_mem);
	/* the file holds exactly the planned bytes: no more were written */
	assert_int_equal(lseek(file.fd, 0, SEEK_END), (off_t)p->output_size);
	assert_int_equal(pread(file.fd, b, (size_t)p->output_size, 0), (ssize_t)p->output_size);
	if (memcmp(a, b, (size_t)p->output_size) != 0)
		fail_msg("%s: memory and file outputs differ", sc->name);
	fclose(tmp);
	free(b);
	return a;
}

static void
test_plan_and_emit_agree(void **state)
{
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(scenarios) / sizeof(scenarios[0]); k++) {
		const scenario *sc = &scenarios[k];
		uint8_t *in, *out;
		size_t len, pl_len;
		const uint8_t *pl;
		sbat_edit_opts o;
		sbat_pe *pe = malloc(sizeof(*pe));
		plan *p = malloc(sizeof(*p));
		FILE *f = tmpfile();
		sbat_diag d;

		assert_non_null(pe);
		assert_non_null(p);
		assert_non_null(f);
		build_scenario(sc, &in, &len, &pl, &pl_len, &o);
		assert_int_equal(fwrite(in, 1, len, f), len);
		fflush(f);
		assert_int_equal(pe_parse(in, len, pe, &d), SBAT_OK);
		if (plan_build(pe, in, len, pl, pl_len, &o, p, &d) != SBAT_OK)
			fail_msg("%s: plan: %s", sc->name, d.what);
		check_plan_shape(sc, p, len, pl_len);
		assert_false(plan_is_identity(p, in, len, pl));
		out = emit_both(sc, p, in, len, fileno(f), pl, pl_len);
		assert_int_equal(verify_output(p, pe, in, out, (size_t)p->output_size, pl, pl_len, &d), SBAT_OK);
		assert_int_equal(verify_kept(p, pe, in, out, UINT64_MAX, 0, 0, &d), SBAT_OK);
		/* planning the same edit on the result: nothing left to change */
		if (!o.remove) {
			assert_int_equal(pe_parse(out, (size_t)p->output_size, pe, &d), SBAT_OK);
			assert_int_equal(plan_build(pe, out, (size_t)pe->file_size, pl, pl_len, &o, p, &d), SBAT_OK);
			assert_true(plan_is_identity(p, out, (size_t)pe->file_size, pl));
		}
		fclose(f);
		free(out);
		free(in);
		free(p);
		free(pe);
	}
}

/* A plan whose extents do not add up, or copy past the input, is never emitted. */
static void
test_emit_refuses_inconsistent_plan(void **state)
{
	const scenario *sc = &scenarios[0];
	uint8_t *in, *out;
	size_t len, pl_len;
	const uint8_t *pl;
	sbat_edit_opts o;
	sbat_pe *pe = malloc(sizeof(*pe));
	plan *p = malloc(sizeof(*p));
	sink mem;
	sbat_diag d;

	(void)state;
	assert_non_null(pe);
	assert_non_null(p);
	build_scenario(sc, &in, &len, &pl, &pl_len, &o);
	assert_int_equal(pe_parse(in, len, pe, &d), SBAT_OK);
	assert_int_equal(plan_build(pe, in, len, pl, pl_len, &o, p, &d), SBAT_OK);
	out = malloc((size_t)p->output_size + 64);
	assert_non_null(out);
	memset(&mem, 0, sizeof(mem));
	mem.mem = out;
	mem.fd = mem.in_fd = -1;
	mem.sparse_from = UINT64_MAX;
	p->output_size += 1;
	assert_int_equal(emit_plan(p, in, len, pl, pl_len, &mem, &d), SBAT_E_LAYOUT);
	p->output_size -= 1;
	/* the last extent copies the trailing data up to the end of the input: one byte more is past it */
	assert_int_equal(p->extents[p->n_extents - 1].kind, EXTENT_COPY);
	assert_int_equal(p->extents[p->n_extents - 1].src + p->extents[p->n_extents - 1].len, len);
	p->extents[p->n_extents - 1].len += 1;
	p->output_size += 1;
	assert_int_equal(emit_plan(p, in, len, pl, pl_len, &mem, &d), SBAT_E_LAYOUT);
	p->extents[p->n_extents - 1].len -= 1;
	p->output_size -= 1;
	assert_int_equal(emit_plan(p, in, len, pl, pl_len + 1, &mem, &d), SBAT_E_LAYOUT);
	assert_int_equal(emit_plan(p, in, len, pl, pl_len, &mem, &d), SBAT_OK);
	free(out);
	free(in);
	free(p);
	free(pe);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_and_emit_agree),
		cmocka_unit_test(test_emit_refuses_inconsistent_plan),
	};

	return run_group(tests, NULL, NULL);
}
