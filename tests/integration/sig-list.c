/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sig-list.c - the signatures of an image as libsbat reads them, one line each, for the integration tests */
#include <stdio.h>
#include <stdlib.h>

#include "sbat/sbat.h"

/*
 * Usage: sig-list FILE. Prints
 *   sig <TAB> index <TAB> entry <TAB> nested_in <TAB> covers_image <TAB> digest algorithm <TAB> signer's issuer
 *   cert <TAB> index <TAB> subject <TAB> issuer          (each certificate of that signature)
 * Exits 0, or 1 with "error <TAB> what <TAB> offset <TAB> structure" when the file or its table is malformed.
 */
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

		printf("sig\t%zu\t%u\t%d\t%d\t%s\t%s\n", i, s->entry, s->nested_in, s->covers_image,
		       sbat_authenticode_digest_name(s->image_digest_alg), s->signer_issuer);
		for (j = 0; j < s->n_certs; j++)
			printf("cert\t%zu\t%s\t%s\n", i, s->certs[j].subject, s->certs[j].issuer);
	}
	sbat_authenticode_free(a);
	sbat_image_free(img);
	sbat_file_unmap(m);
	return 0;
}
