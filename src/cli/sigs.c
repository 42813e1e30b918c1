/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigs.c - --print's account of an image's Authenticode signatures, as text and as JSON */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/error.h"
#include "sbat/image.h"

#include "json.h"
#include "messages.h"
#include "sigs.h"

/*
 * A signature's certificates in the order they are listed in: its chain
 * (sbat_authenticode_chain), then the others in the SignedData's order;
 * *ret_in_chain[k] says whether the k-th is on the chain. NULL (and
 * nothing to free) when it has none or memory ran out.
 */
static size_t *
ordered(const sbat_authenticode_sig *s, int **ret_in_chain)
{
	int *chain = s->n_certs ? calloc(s->n_certs, sizeof(*chain)) : NULL;
	size_t *order = chain ? calloc(s->n_certs, sizeof(*order)) : NULL;
	int *in_chain = order ? calloc(s->n_certs, sizeof(*in_chain)) : NULL;
	size_t n, k, j;

	*ret_in_chain = in_chain;
	if (!in_chain) {
		free(chain);
		free(order);
		return NULL;
	}
	n = sbat_authenticode_chain(s, chain);
	for (k = 0; k < n; k++) {
		order[k] = (size_t)chain[k];
		in_chain[k] = 1;
	}
	for (j = 0; j < s->n_certs; j++) {
		size_t i;

		for (i = 0; i < n && (size_t)chain[i] != j; i++)
			;
		if (i == n)
			order[k++] = j;
	}
	free(chain);
	return order;
}

/* "sbat-add: FILE: cannot read the signatures: STRUCTURE: WHAT (at offset 0x...)" */
static void
report_unreadable(const char *file, const sbat_diag *d)
{
	fprintf(stderr, "%s: %s: cannot read the signatures: ", cli_progname, cli_quote(file));
	/* the structure, unless the check's text names it already */
	if (d->other_name[0] && !(d->what && strstr(d->what, d->other_name)))
		fprintf(stderr, "%s: ", d->other_name);
	cli_diag_text(stderr, d);
	fputc('\n', stderr);
}

/* "signature 1 (nested in signature 0, certificate table entry 0 at 0x...): SHA-256 digest, covers this image" */
static void
text_sig_head(const char *file, size_t i, const sbat_authenticode_sig *s)
{
	fprintf(stderr, "%s: signature %zu (", file, i);
	if (s->nested_in >= 0)
		fprintf(stderr, "nested in signature %d, ", s->nested_in);
	fprintf(stderr, "certificate table entry %u at 0x%" PRIx64 "): %s digest", s->entry, s->entry_offset,
	        sbat_authenticode_digest_name(s->image_digest_alg));
	if (s->covers_image == 1) {
		fputs(", covers this image\n", stderr);
		return;
	}
	if (s->covers_image == 0)
		fputs(", the signature no longer covers this image: it signs ", stderr);
	else
		fputs(", an algorithm the image is not hashed with: it signs ", stderr);
	cli_hex(stderr, s->image_digest, s->image_digest_len);
	fputc('\n', stderr);
}

static void
text_sig(const char *file, size_t i, const sbat_authenticode_sig *s)
{
	int *in_chain;
	size_t *order = ordered(s, &in_chain);
	size_t k;

	text_sig_head(file, i, s);
	fprintf(stderr, "%s:   signer: issuer \"%s\", serial ", file, s->signer_issuer);
	cli_hex(stderr, s->signer_serial, s->signer_serial_len);
	fprintf(stderr, s->signer_cert >= 0 ? ", certificate %d\n" : ", its certificate is not included\n",
	        s->signer_cert);
	for (k = 0; k < s->n_certs; k++) {
		size_t j = order ? order[k] : k;
		const sbat_authenticode_cert *c = &s->certs[j];
		const char *role = !order || !in_chain[k] ? "not on the signer's chain" : k ? "issuer" : "signer";

		fprintf(stderr, "%s:   certificate %zu (%s): subject \"%s\", issuer \"%s\", TBS SHA-256 ", file, j,
		        role, c->subject, c->issuer);
		cli_hex(stderr, c->tbs_sha256, sizeof(c->tbs_sha256));
		fputc('\n', stderr);
	}
	free(order);
	free(in_chain);
}

void
cli_print_signatures(const char *file, const sbat_image *img, int fd)
{
	sbat_authenticode *a = NULL;
	sbat_diag d;
	size_t i;

	if (sbat_image_get_info(img)->cert_size == 0)
		return;
	if (sbat_authenticode_parse_fd(img, fd, &a, &d) != SBAT_OK) {
		report_unreadable(file, &d);
		return;
	}
	file = cli_quote(file);
	fprintf(stderr, "%s: Authenticode SHA-256 ", file);
	cli_hex(stderr, a->image_hash, sizeof(a->image_hash));
	fprintf(stderr, ", %zu signature%s in %u certificate table entr%s\n", a->n_sigs, a->n_sigs == 1 ? "" : "s",
	        a->n_entries, a->n_entries == 1 ? "y" : "ies");
	for (i = 0; i < a->n_sigs; i++)
		text_sig(file, i, &a->sigs[i]);
	sbat_authenticode_free(a);
}

static void
json_cert(FILE *out, const sbat_authenticode_cert *c, size_t index, int in_chain)
{
	fprintf(out, "\n        {\"index\": %zu, \"in_chain\": %s, \"subject\": ", index, in_chain ? "true" : "false");
	cli_json_cstr(out, c->subject);
	fputs(", \"issuer\": ", out);
	cli_json_cstr(out, c->issuer);
	fputs(", \"serial\": ", out);
	cli_json_hex(out, c->serial, c->serial_len);
	fputs(", \"tbs_sha256\": ", out);
	cli_json_hex(out, c->tbs_sha256, sizeof(c->tbs_sha256));
	fprintf(out, ", \"offset\": %" PRIu64 "}", c->offset);
}

static void
json_sig(FILE *out, size_t i, const sbat_authenticode_sig *s)
{
	int *in_chain;
	size_t *order = ordered(s, &in_chain);
	size_t k;

	fprintf(out, "    {\"index\": %zu, \"entry\": %u, \"entry_offset\": %" PRIu64 ", \"nested_in\": ", i, s->entry,
	        s->entry_offset);
	fprintf(out, s->nested_in >= 0 ? "%d" : "null", s->nested_in);
	fprintf(out, ", \"offset\": %" PRIu64 ", \"size\": %zu,\n      \"digest_algorithm\": ", s->offset, s->len);
	cli_json_cstr(out, sbat_authenticode_digest_name(s->digest_alg));
	fputs(", \"image_digest_algorithm\": ", out);
	cli_json_cstr(out, sbat_authenticode_digest_name(s->image_digest_alg));
	fputs(", \"image_digest\": ", out);
	cli_json_hex(out, s->image_digest, s->image_digest_len);
	fprintf(out, ", \"covers_image\": %s,\n      \"signer\": {\"issuer\": ",
	        s->covers_image < 0 ? "null" :
	        s->covers_image     ? "true" :
	                              "false");
	cli_json_cstr(out, s->signer_issuer);
	fputs(", \"serial\": ", out);
	cli_json_hex(out, s->signer_serial, s->signer_serial_len);
	fprintf(out, s->signer_cert >= 0 ? ", \"certificate\": %d},\n" : ", \"certificate\": null},\n", s->signer_cert);
	fputs("      \"certificates\": [", out);
	for (k = 0; k < s->n_certs; k++) {
		fputs(k ? "," : "", out);
		json_cert(out, &s->certs[order ? order[k] : k], order ? order[k] : k, order && in_chain[k]);
	}
	fputs(s->n_certs ? "\n      ]}" : "]}", out);
	free(order);
	free(in_chain);
}

void
cli_print_signatures_json(FILE *out, const sbat_image *img, const sbat_authenticode *a, const sbat_diag *dp)
{
	uint8_t digest[SBAT_AUTHENTICODE_SHA256_SIZE];
	sbat_diag d = *dp, hd;
	size_t i;

	if (!a) {
		fputs("  \"authenticode_sha256\": ", out);
		if (sbat_authenticode_hash(img, SBAT_AUTHENTICODE_EDK2, digest, &hd) == SBAT_OK)
			cli_json_hex(out, digest, sizeof(digest));
		else
			fputs("null", out);
		fputs(",\n  \"signatures\": null,\n  \"signatures_error\": {\"what\": ", out);
		cli_json_cstr(out, d.what ? d.what : sbat_strerror(d.code));
		fputs(", \"structure\": ", out);
		if (d.other_name[0])
			cli_json_cstr(out, d.other_name);
		else
			fputs("null", out);
		fprintf(out, ", \"offset\": %" PRIu64 "},\n", d.offset);
		return;
	}
	fputs("  \"authenticode_sha256\": ", out);
	cli_json_hex(out, a->image_hash, sizeof(a->image_hash));
	fputs(",\n  \"signatures\": [", out);
	for (i = 0; i < a->n_sigs; i++) {
		fputs(i ? ",\n" : "\n", out);
		json_sig(out, i, &a->sigs[i]);
	}
	fputs(a->n_sigs ? "\n  ],\n" : "],\n", out);
}
