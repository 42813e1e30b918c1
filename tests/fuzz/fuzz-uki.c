/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-uki.c - libFuzzer harness: UKIs (the stub, PCR 11, .pcrsig, the lint, an edit that may refuse) and .pcrsig JSON */

/*
 * Input: one operation byte, then the data (at most FUZZ_MAX_INPUT bytes in
 * all; larger inputs are ignored), as fuzz-opbyte.h's driver gives them.
 *
 * Operation byte:
 *   bit 7 set   the data is .pcrsig JSON, read by the bounded reader
 *   bit 7 clear the data is a PE/COFF image; bits 0-1 pick what an edit does
 *               to a .pcrsig it makes stale (0 refuse, 1 drop, 2 keep, 3
 *               refuse), bit 2 sets relocate
 *
 * An image is parsed, inspected as a UKI, its PCR 11 predicted from its
 * buffer, linted, and edited (a short .sbat put in). These must hold, or the
 * harness aborts:
 *  - the input is unchanged;
 *  - a failure names a reason; a JSON failure is SBAT_E_UKI with an offset
 *    inside the input, a prediction failure SBAT_E_UKI (or SBAT_E_PE_*);
 *  - a UKI's measured sections are among its sections, and the prediction
 *    of an edit equals that of the edited image;
 *  - an edit refused for .pcrsig is SBAT_E_PCRSIG and only on a UKI with
 *    .pcrsig; after --pcrsig=drop no .pcrsig is left.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-opbyte.h"

#include "sbat/sbat.h"

#include "uki/uki_model.h"

#define FUZZ_MAX_INPUT (1024u * 1024u)

static const char csv[] = "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
                          "fuzz,1,Fuzz Test,fuzz,1.0,https://example.invalid/fuzz\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-uki: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

static void
json(const uint8_t *p, size_t n, unsigned op)
{
	uki_pcrsig *sig = malloc(sizeof(*sig));
	sbat_diag d;
	unsigned i;

	(void)op;
	if (!sig)
		return;
	if (pcrsig_json_parse(p, n, sig, &d) != SBAT_OK) {
		if (d.code != SBAT_E_UKI || !d.what || d.offset > n)
			fail("a .pcrsig failure without SBAT_E_UKI, a reason and an offset in the input");
	} else {
		if (sig->n > UKI_PCRSIG_MAX_ENTRIES)
			fail("more .pcrsig entries than the reader holds");
		for (i = 0; i < sig->n; i++)
			if (sig->e[i].pol_len > sizeof(sig->e[i].pol) || sig->e[i].bank[sizeof(sig->e[i].bank) - 1])
				fail("a .pcrsig entry out of its bounds");
	}
	free(sig);
}

static void
check_measured(const sbat_image *img, const sbat_uki *uki)
{
	unsigned p, i, n = sbat_uki_profile_count(uki);

	for (p = 0; p < (n ? n : 1); p++)
		for (i = 0; i < sbat_uki_measured_count(uki, (int)p); i++)
			if (!sbat_uki_measured_name(uki, (int)p, i) ||
			    !sbat_image_section(img, (unsigned)sbat_uki_measured_section(uki, (int)p, i)))
				fail("a measured section that is not one of the image's");
}

/* 1 if both predict the same values after the stub: as many alternatives, each equal. */
static int
same_values(const sbat_uki *a, const sbat_uki *b)
{
	unsigned i, n = sbat_uki_pcr11_alternatives(a, -1);

	if (n != sbat_uki_pcr11_alternatives(b, -1))
		return 0;
	for (i = 0; i < n; i++)
		if (memcmp(sbat_uki_pcr11_alternative(a, -1, i, 0), sbat_uki_pcr11_alternative(b, -1, i, 0),
		           SBAT_UKI_DIGEST_SIZE) != 0)
			return 0;
	return 1;
}

/* The edit, and what it must mean for .pcrsig; the predicted values must be the edited image's. */
static void
edit(const sbat_image *img, const sbat_uki *uki, unsigned op)
{
	sbat_edit_opts o = SBAT_EDIT_OPTS_INIT;
	sbat_edit_report r;
	sbat_image *out_img = NULL;
	sbat_uki *after = NULL, *out_uki = NULL;
	uint8_t *out = NULL;
	size_t out_len;
	sbat_diag d;
	sbat_err err;

	o.pcrsig = (op & 3u) == 3u ? SBAT_PCRSIG_REFUSE : (int)(op & 3u);
	o.relocate = (op & 4u) != 0;
	err = sbat_edit(img, (const uint8_t *)csv, sizeof(csv) - 1, &o, &out, &out_len, &r, &d);
	if (err == SBAT_E_PCRSIG && (!uki || sbat_image_find_section(img, ".pcrsig") < 0 || o.pcrsig != 0))
		fail("SBAT_E_PCRSIG where no .pcrsig is made stale, or despite --pcrsig");
	if (err)
		return;
	if (sbat_image_parse(out, out_len, &out_img, &d) != SBAT_OK)
		fail("the edited image does not parse");
	if ((r.uki & SBAT_EDIT_PCRSIG_REMOVED) && sbat_image_find_section(out_img, ".pcrsig") >= 0)
		fail("--pcrsig=drop left a .pcrsig");
	if (uki && sbat_edit_predict_uki(img, (const uint8_t *)csv, sizeof(csv) - 1, &o, &after, &d) == SBAT_OK &&
	    after && sbat_uki_inspect(out_img, &out_uki, &d) == SBAT_OK && out_uki &&
	    sbat_uki_predict(after, -1, &d) == SBAT_OK && sbat_uki_predict(out_uki, -1, &d) == SBAT_OK &&
	    !same_values(after, out_uki))
		fail("the predicted PCR 11 of an edit is not the edited image's");
	sbat_uki_free(after);
	sbat_uki_free(out_uki);
	sbat_image_free(out_img);
	free(out);
}

static void
image(const uint8_t *p, size_t n, unsigned op)
{
	sbat_image *img = NULL;
	sbat_uki *uki = NULL;
	sbat_diag d;
	sbat_err err;

	if (sbat_image_parse(p, n, &img, &d) != SBAT_OK)
		return;
	if (sbat_uki_inspect(img, &uki, &d) != SBAT_OK)
		fail("inspecting a parsed image failed");
	if (uki) {
		check_measured(img, uki);
		err = sbat_uki_predict(uki, -1, &d);
		if (err && (!d.what || (err != SBAT_E_UKI && err != SBAT_E_PE_TRUNCATED)))
			fail("a prediction failure without SBAT_E_UKI and a reason");
	}
	sbat_lint(img, NULL, NULL, NULL);
	edit(img, uki, op);
	sbat_uki_free(uki);
	sbat_image_free(img);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_opbyte_run("fuzz-uki", data, size, FUZZ_MAX_INPUT, json, image);
}
