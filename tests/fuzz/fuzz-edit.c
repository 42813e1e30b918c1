/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-edit.c - libFuzzer harness: sbat_edit on arbitrary images, with invariants checked on every success */

/*
 * Input: one operation byte, then a PE/COFF image (at most FUZZ_MAX_INPUT
 * bytes in all; larger inputs are ignored).
 *
 * Operation byte:
 *   bits 0-2  what to do
 *             0  put a fixed, short .sbat (insert, replace, grow or relocate)
 *             1  put a long .sbat (more than 512 bytes: grows or relocates
 *                the .sbat of most images)
 *             2  remove .sbat
 *             3  re-put the image's own .sbat, parsed and formatted
 *             4  merge the image's own .sbat with the fixed one (ukify style)
 *             5  the same merge with force
 *             6  put the smallest valid .sbat (the header row alone)
 *             7  put a .sbat of exactly 512 bytes (fills a FileAlignment unit,
 *                so no NUL follows it in the section)
 *   bit 3     sbat_edit_opts.strip_signature
 *   bit 4     sbat_edit_opts.relocate
 *   bits 5-7  unused
 *
 * Exercised: pe_parse, pe_sbat_data, sbat_csv_parse/format/merge
 * (ops 3-5), sbat_judge_image (shim's judgement of every image that
 * parses: the verdict must agree with its reason and rows), and sbat_edit
 * with its planner, emitter and verifier. When the
 * image does not parse, sbat_edit must fail with the same code. When
 * sbat_edit succeeds, these must hold, or the harness aborts:
 *  - the input buffer is unchanged;
 *  - the output is report.output_size bytes and parses again;
 *  - put: exactly one .sbat, reading back (pe_sbat_data) byte for byte
 *    as the payload, and the same edit of the output succeeds, reports
 *    `unchanged` and gives the same bytes;
 *  - remove: no .sbat left, and removing again fails with SBAT_E_NO_SBAT;
 *  - report.unchanged only when the output equals the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sbat.h"

#include "../fixtures/edit_buf.h"
#include "pe/model.h"

#define FUZZ_MAX_INPUT (4u * 1024u * 1024u)

#define OP_MASK 0x07u
#define OP_STRIP 0x08u
#define OP_RELOCATE 0x10u

enum {
	OP_PUT = 0,
	OP_PUT_LONG,
	OP_REMOVE,
	OP_REFORMAT,
	OP_MERGE,
	OP_MERGE_FORCE,
	OP_PUT_MIN,
	OP_PUT_FULL,
};

#define HEADER_ROW SBAT_CSV_HEADER_ROW "\n"

static const char csv_short[] = HEADER_ROW "fuzz,1,Fuzz Test,fuzz,1.0,https://example.invalid/fuzz\n";

static const char csv_long[] = HEADER_ROW
    "fuzz,1,Fuzz Test,fuzz,1.0,https://example.invalid/fuzz\n"
    "grub,4,Free Software Foundation,grub,2.12,https://www.gnu.org/software/grub/\n"
    "grub.debian,5,Debian,grub2,2.12-1,https://tracker.debian.org/pkg/grub2\n"
    "shim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n"
    "systemd-boot,1,The systemd Developers,systemd,256,https://systemd.io/\n"
    "linux,1,The Linux Developers,linux,6.12,https://linux.org\n"
    "linux.debian,1,Debian,linux,6.12.9-1,https://tracker.debian.org/pkg/linux\n";

static const char csv_min[] = HEADER_ROW;

#define FULL_SIZE 512u
#define FULL_ROW_START "fuzz,1,Fuzz Test,fuzz,1.0,https://example.invalid/"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant failed: say which, then die so the fuzzer keeps the input. */
static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-edit: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

/* csv_full: a valid .sbat of exactly FULL_SIZE bytes (its last row padded). */
static const uint8_t *
full_payload(void)
{
	static uint8_t buf[FULL_SIZE];
	static int done;
	size_t n;

	if (!done) {
		n = strlen(HEADER_ROW);
		memcpy(buf, HEADER_ROW, n);
		memcpy(buf + n, FULL_ROW_START, strlen(FULL_ROW_START));
		n += strlen(FULL_ROW_START);
		memset(buf + n, 'a', FULL_SIZE - 1 - n);
		buf[FULL_SIZE - 1] = '\n';
		done = 1;
	}
	return buf;
}

/*
 * The payload for a put operation: static (*ret_owned NULL) or built from
 * the image's own .sbat (malloc'ed, in *ret_owned). 0 when there is none.
 */
static int
make_payload(unsigned op, const sbat_pe *pe, const uint8_t *img, size_t img_len, const uint8_t **ret, size_t *ret_len,
             uint8_t **ret_owned)
{
	const uint8_t *own;
	size_t own_len;
	sbat_csv *base = NULL, *add = NULL;
	sbat_err err;

	*ret_owned = NULL;
	switch (op) {
	case OP_PUT:
		*ret = (const uint8_t *)csv_short;
		*ret_len = sizeof(csv_short) - 1;
		return 1;
	case OP_PUT_LONG:
		*ret = (const uint8_t *)csv_long;
		*ret_len = sizeof(csv_long) - 1;
		return 1;
	case OP_PUT_MIN:
		*ret = (const uint8_t *)csv_min;
		*ret_len = sizeof(csv_min) - 1;
		return 1;
	case OP_PUT_FULL:
		*ret = full_payload();
		*ret_len = FULL_SIZE;
		return 1;
	default: break;
	}

	/* the image's own .sbat, as a merge would read it */
	if (pe_sbat_data(pe, img, img_len, &own, &own_len, NULL) != SBAT_OK)
		return 0;
	if (sbat_csv_parse(own, own_len, &base, NULL) != SBAT_OK)
		return 0;
	if (op == OP_REFORMAT) {
		err = sbat_csv_format(base, ret_owned, ret_len, NULL);
	} else {
		err = sbat_csv_parse((const uint8_t *)csv_short, sizeof(csv_short) - 1, &add, NULL);
		if (err != SBAT_OK)
			fail("the fixed CSV does not parse");
		err = sbat_csv_merge(base, add, op == OP_MERGE_FORCE, ret_owned, ret_len, NULL);
		sbat_csv_free(add);
	}
	sbat_csv_free(base);
	if (err != SBAT_OK)
		return 0;
	*ret = *ret_owned;
	return 1;
}

/* Invariants of a successful edit of img into out. */
static void
check_output(const uint8_t *img, size_t img_len, const uint8_t *payload, size_t payload_len, const sbat_edit_opts *opts,
             const uint8_t *out, size_t out_len, const sbat_edit_report *report)
{
	static sbat_pe pe;
	const uint8_t *data;
	uint8_t *again = NULL;
	size_t data_len, again_len = 0;
	sbat_edit_report report2;
	sbat_err err;

	if (report->output_size != out_len)
		fail("output length differs from report.output_size");
	if (report->unchanged && (out_len != img_len || memcmp(out, img, img_len) != 0))
		fail("report.unchanged set but the output differs from the input");
	if (pe_parse(out, out_len, &pe, NULL) != SBAT_OK)
		fail("output does not parse");

	if (opts->remove) {
		if (report->action != SBAT_ACTION_REMOVE && report->action != SBAT_ACTION_RETIRE)
			fail("remove reported another action");
		if (pe.sbat_count != 0)
			fail("output of remove still has a .sbat");
		if (pe_sbat_data(&pe, out, out_len, &data, &data_len, NULL) != SBAT_E_NO_SBAT)
			fail("output of remove still yields .sbat data");
		err = edit_buf(out, out_len, NULL, 0, opts, &again, &again_len, NULL, NULL);
		free(again);
		if (err != SBAT_E_NO_SBAT)
			fail("removing .sbat twice did not fail with SBAT_E_NO_SBAT");
		return;
	}

	if (report->action != SBAT_ACTION_INSERT && report->action != SBAT_ACTION_REPLACE &&
	    report->action != SBAT_ACTION_GROW && report->action != SBAT_ACTION_RELOCATE)
		fail("put reported a remove action");
	if (report->action == SBAT_ACTION_RELOCATE && !opts->relocate)
		fail("relocated without opts.relocate");
	if (pe.sbat_count != 1)
		fail("output does not have exactly one .sbat");
	if (pe_sbat_data(&pe, out, out_len, &data, &data_len, NULL) != SBAT_OK)
		fail("output .sbat cannot be read");
	if (data_len != payload_len || memcmp(data, payload, payload_len) != 0)
		fail("output .sbat does not read back as the payload");

	/* idempotence: the same edit again changes nothing */
	memset(&report2, 0, sizeof(report2));
	err = edit_buf(out, out_len, payload, payload_len, opts, &again, &again_len, &report2, NULL);
	if (err != SBAT_OK)
		fail("the same edit of the output failed");
	if (!report2.unchanged)
		fail("the same edit of the output is not reported unchanged");
	if (again_len != out_len || memcmp(again, out, out_len) != 0)
		fail("the same edit of the output changed bytes");
	free(again);
}

/* shim's judgement of an image that parses: it never fails but for memory, and agrees with itself. */
static void
check_judge(const uint8_t *img, size_t img_len)
{
	static const char level_text[] = "sbat,1,2025021800\nshim,4\ngrub,5\n";
	static sbat_level *level;
	sbat_image *image = NULL;
	sbat_judgement *j = NULL;

	if (!level && sbat_level_parse((const uint8_t *)level_text, sizeof(level_text) - 1, &level, NULL) != SBAT_OK)
		fail("the fixed level does not parse");
	if (sbat_image_parse(img, img_len, &image, NULL) != SBAT_OK)
		fail("sbat_image_parse refuses what pe_parse takes");
	if (sbat_judge_image(image, level, SBAT_JUDGE_SHIM_ENFORCES, SBAT_JUDGE_STARTED_BY_SHIM, &j, NULL) != SBAT_OK)
		fail("sbat_judge_image failed on a parsed image");
	if ((j->reason == SBAT_JUDGE_REVOKED) != (j->n_revoked > 0) ||
	    (j->verdict == SBAT_VERDICT_BOOTS) !=
	        (j->reason == SBAT_JUDGE_NOT_REVOKED || j->reason == SBAT_JUDGE_NO_ROWS) ||
	    (j->reason == SBAT_JUDGE_MISSING && j->csv) || (j->csv && j->sbat_index < 0))
		fail("the judgement contradicts itself");
	sbat_judgement_free(j);
	sbat_image_free(image);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static sbat_pe pe;
	sbat_edit_opts opts;
	sbat_edit_report report;
	const uint8_t *payload = NULL;
	uint8_t *img, *owned = NULL, *out = NULL;
	size_t img_len, payload_len = 0, out_len = 0;
	unsigned op;
	sbat_err parsed, err;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	op = data[0] & OP_MASK;
	sbat_edit_opts_init(&opts);
	opts.strip_signature = (data[0] & OP_STRIP) != 0;
	opts.relocate = (data[0] & OP_RELOCATE) != 0;
	opts.remove = op == OP_REMOVE;

	/* a copy of exactly the image's size: the sanitizers see any read past it */
	img_len = size - 1;
	img = malloc(img_len ? img_len : 1);
	if (!img)
		return 0;
	memcpy(img, data + 1, img_len);

	parsed = pe_parse(img, img_len, &pe, NULL);
	if (parsed != SBAT_OK) {
		/* whatever the operation, an image that does not parse is not edited */
		err = edit_buf(img, img_len, (const uint8_t *)csv_short, sizeof(csv_short) - 1, &opts, &out, &out_len,
		               NULL, NULL);
		if (err == SBAT_OK)
			fail("sbat_edit accepted an image pe_parse refuses");
		if (err != parsed)
			fail("sbat_edit and pe_parse refuse an image with different codes");
		goto done;
	}

	check_judge(img, img_len);
	if (!opts.remove && !make_payload(op, &pe, img, img_len, &payload, &payload_len, &owned))
		goto done;

	memset(&report, 0, sizeof(report));
	err = edit_buf(img, img_len, payload, payload_len, &opts, &out, &out_len, &report, NULL);
	if (memcmp(img, data + 1, img_len) != 0)
		fail("sbat_edit modified its input");
	if (err == SBAT_OK)
		check_output(img, img_len, payload, payload_len, &opts, out, out_len, &report);
	else if (err >= SBAT__ERR_MAX)
		fail("sbat_edit returned an unknown error code");

done:
	free(out);
	free(owned);
	free(img);
	return 0;
}
