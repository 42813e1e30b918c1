/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* imagedigests.c - an image's Authenticode hash and a UKI's PCR 11 section digests from one read of the file */
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/uki.h"
#include "sbat/walk.h"

#include "pe/image_internal.h"
#include "sig/authenticode_internal.h"
#include "sig/pehash.h"
#include "uki/uki_model.h"
#include "util/diag.h"
#include "util/hashpass.h"

/* What one pass hashes: st[0] the Authenticode hash (by plan), st[1 + i] section i of the UKI. */
typedef struct digests {
	hashpass_stream *st;
	measure_pieces *seg;
	pehash_plan plan;
} digests;

/* The streams of the pass; *auth_err and *uki_err (with their diagnostics) say which part cannot be hashed. */
static void
prepare(digests *g, const sbat_image *img, int fd, const sbat_uki *uki, sbat_err *auth_err, sbat_diag *auth_diag,
        sbat_err *uki_err, sbat_diag *uki_diag)
{
	*auth_err = pehash_plan_build(img, SBAT_AUTHENTICODE_EDK2, &g->plan, auth_diag);
	g->st[0].seg = g->plan.seg;
	g->st[0].n_seg = *auth_err ? 0 : g->plan.n;
	*uki_err = SBAT_OK;
	if (uki)
		*uki_err = measure_streams(uki, fd, g->st + 1, g->seg, uki_diag);
	if (uki && *uki_err)
		memset(g->st + 1, 0, uki->n * sizeof(*g->st));
}

/* The pass; the failures of its two parts in *auth_err and *uki_err, said in auth_diag and uki_diag. */
static void
run(const sbat_image *img, int fd, sbat_uki *uki, uint8_t hash[SBAT_AUTHENTICODE_SHA256_SIZE], sbat_err *auth_err,
    sbat_diag *auth_diag, sbat_err *uki_err, sbat_diag *uki_diag)
{
	unsigned n = uki ? uki->n : 0;
	digests g;
	sbat_err err;

	g.st = calloc(n + 1, sizeof(*g.st));
	g.seg = calloc(n + 1, sizeof(*g.seg));
	if (!g.st || !g.seg) {
		*auth_err = *uki_err = diag_fail(auth_diag, SBAT_E_NOMEM, "out of memory");
		*uki_diag = *auth_diag;
	} else {
		prepare(&g, img, fd, uki, auth_err, auth_diag, uki_err, uki_diag);
	}
	if (g.st && g.seg && (!*auth_err || !*uki_err)) {
		err = hashpass_run(g.st, n + 1, fd, img->buf, img->len, *auth_err ? uki_diag : auth_diag);
		if (err && !*auth_err && !*uki_err)
			*uki_diag = *auth_diag;
		*auth_err = *auth_err ? *auth_err : err;
		*uki_err = *uki_err ? *uki_err : err;
	}
	if (!*uki_err && uki)
		*uki_err = measure_finish(uki, g.st + 1, uki_diag);
	if (!*auth_err)
		sha256_final(&g.st[0].ctx, hash);
	free(g.st);
	free(g.seg);
}

sbat_err
sbat_walk_image_digests(const sbat_image *img, int fd, sbat_uki *uki, sbat_authenticode **ret, sbat_diag *uki_diag,
                        sbat_diag *reterr)
{
	uint8_t hash[SBAT_AUTHENTICODE_SHA256_SIZE];
	sbat_diag ad, ud;
	sbat_err auth_err, uki_err;

	if (ret)
		*ret = NULL;
	if (!img || !ret || (uki && (uki->buf != img->buf || uki->len != img->len)))
		return diag_fail(reterr, SBAT_E_ABI,
		                 "sbat_walk_image_digests: no image, no result pointer, or a UKI of another image");
	memset(&ad, 0, sizeof(ad));
	memset(&ud, 0, sizeof(ud));
	run(img, fd, uki, hash, &auth_err, &ad, &uki_err, &ud);
	if (uki_diag && uki)
		*uki_diag = ud;
	if (auth_err && reterr)
		*reterr = ad;
	return auth_err ? auth_err : authenticode_parse_hashed(img, fd, hash, ret, reterr);
}
