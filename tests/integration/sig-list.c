/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sig-list.c - the signatures of an image as libsbat reads them, one line each, for the integration tests */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sbat.h"

/*
 * Usage: sig-list FILE. Prints
 *   sig <TAB> index <TAB> entry <TAB> nested_in <TAB> covers_image <TAB> digest algorithm <TAB> signer's issuer
 *       <TAB> signature_verifies <TAB> the firmware's verdict with db holding the top of its chain (- for a nested one)
 *   cert <TAB> index <TAB> subject <TAB> issuer          (each certificate of that signature)
 * Exits 0, or 1 with "error <TAB> what <TAB> offset <TAB> structure" when the file or its table is malformed.
 */
/*
 * The firmware's verdict on img with db holding only the certificate that
 * ends signature i's chain: "cert-allowed" when the SignerInfo and every
 * link of the chain verify; "-" without a chain.
 */
static const char *
chain_verdict(const sbat_image *img, const sbat_authenticode_sig *s)
{
	static const uint8_t guid_x509[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
		                               0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	const sbat_authenticode_cert *top;
	const char *name = "error";
	sbat_sigverify *v = NULL;
	sbat_sigdb *db = NULL;
	uint8_t *esl;
	int chain[64];
	size_t n, total;
	uint32_t w;
	sbat_diag d;

	n = s->n_certs <= 64 ? sbat_authenticode_chain(s, chain) : 0;
	if (n == 0)
		return "-";
	top = &s->certs[chain[n - 1]];
	total = 28 + 16 + top->der_len;
	esl = calloc(1, total);
	if (!esl || sbat_sigdb_new(&db, &d) != SBAT_OK) {
		free(esl);
		return name;
	}
	memcpy(esl, guid_x509, 16);
	w = (uint32_t)total;
	memcpy(esl + 16, &w, 4);
	w = (uint32_t)(16 + top->der_len);
	memcpy(esl + 24, &w, 4);
	memcpy(esl + 44, top->der, top->der_len);
	o.db = db;
	if (sbat_sigdb_append(db, esl, total, "chain", &d) == SBAT_OK &&
	    sbat_sigverify_image(img, &o, &v, &d) == SBAT_OK)
		name = sbat_sigverify_reason_name(v->reason);
	sbat_sigverify_free(v);
	sbat_sigdb_free(db);
	free(esl);
	return name;
}

int
main(int argc, char **argv)
{
	sbat_mapped_file *m = NULL;
	sbat_authenticode *a = NULL;
	sbat_image *img = NULL;
	sbat_diag d = { 0 };
	size_t i, j;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	if (sbat_file_map(argv[1], (size_t)1 << 30, &m, &d) != SBAT_OK ||
	    sbat_image_parse(sbat_mapped_file_data(m), sbat_mapped_file_size(m), &img, &d) != SBAT_OK ||
	    sbat_authenticode_parse(img, &a, &d) != SBAT_OK) {
		printf("error\t%s\t0x%llx\t%s\n", d.what ? d.what : "?", (unsigned long long)d.offset, d.other_name);
		return 1;
	}
	for (i = 0; i < a->n_sigs; i++) {
		const sbat_authenticode_sig *s = &a->sigs[i];

		printf("sig\t%zu\t%u\t%d\t%d\t%s\t%s\t%d\t%s\n", i, s->entry, s->nested_in, s->covers_image,
		       sbat_authenticode_digest_name(s->image_digest_alg), s->signer_issuer, s->signature_verifies,
		       s->nested_in < 0 ? chain_verdict(img, s) : "-");
		for (j = 0; j < s->n_certs; j++)
			printf("cert\t%zu\t%s\t%s\n", i, s->certs[j].subject, s->certs[j].issuer);
	}
	sbat_authenticode_free(a);
	sbat_image_free(img);
	sbat_file_unmap(m);
	return 0;
}
