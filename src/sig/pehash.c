/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pehash.c - the Authenticode SHA-256 (and SHA-1) of an image, as EDK2's HashPeImage and shim 16.1's generate_hash compute it */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbat/authenticode.h"

#include "pe/image_internal.h"
#include "sig/pehash.h"
#include "util/ckd.h"
#include "util/diag.h"
#include "util/sha1.h"
#include "util/sha256.h"

#define SCRATCH_SIZE (256u * 1024u)

/* The digests being computed: SHA-256 always, SHA-1 when asked (shim computes both). */
typedef struct hctx {
	struct sha256_ctx s256;
	struct sha1_ctx s1;
	int sha1;
} hctx;

static void
hupdate(hctx *ctx, const void *data, size_t len)
{
	sha256_update(&ctx->s256, data, len);
	if (ctx->sha1)
		sha1_update(&ctx->s1, data, len);
}

/* Where the bytes come from: img's buffer, or (fd >= 0) the file it maps, through scratch. */
typedef struct pehash_src {
	const sbat_image *img;
	int fd;
	uint8_t *scratch;
} pehash_src;

/* Hash [off, off+n) of the image, a range already checked against its length. */
static sbat_err
feed(hctx *ctx, const pehash_src *src, uint64_t off, uint64_t n, sbat_diag *d)
{
	if (src->fd < 0) {
		hupdate(ctx, src->img->buf + off, (size_t)n);
		return SBAT_OK;
	}
	while (n) {
		size_t want = n < SCRATCH_SIZE ? (size_t)n : SCRATCH_SIZE;
		ssize_t got = pread(src->fd, src->scratch, want, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return diag_fail_errno(d, SBAT_E_IO, "cannot read the image to hash it", errno);
		if (got == 0)
			return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "the file ended while it was hashed", off);
		hupdate(ctx, src->scratch, (size_t)got);
		off += (uint64_t)got;
		n -= (uint64_t)got;
	}
	return SBAT_OK;
}

/* The sections in the order of PointerToRawData; equal keys keep table order (an insertion sort, as both readers). */
static void
sort_by_raw_pointer(const sbat_pe *pe, unsigned order[SBAT_PE_MAX_SECTIONS])
{
	unsigned i, pos;

	for (i = 0; i < pe->number_of_sections; i++) {
		pos = i;
		while (pos > 0 &&
		       pe->sections[i].pointer_to_raw_data < pe->sections[order[pos - 1]].pointer_to_raw_data) {
			order[pos] = order[pos - 1];
			pos--;
		}
		order[pos] = i;
	}
}

/* Hash buf[from..to); fails when the range is reversed or leaves the file. */
static sbat_err
hash_range(hctx *ctx, const pehash_src *src, uint64_t from, uint64_t to, const char *what, sbat_diag *d)
{
	if (to < from || to > src->img->len)
		return diag_fail_at(d, SBAT_E_PE_FIELD, what, from);
	return feed(ctx, src, from, to - from, d);
}

/* The headers, less CheckSum and the Certificate Table entry (when the directory has one). */
static sbat_err
hash_headers(hctx *ctx, const pehash_src *src, sbat_diag *d)
{
	const sbat_pe *pe = &src->img->pe;
	uint64_t after_checksum = pe->off_checksum + 4;
	uint64_t headers = pe->size_of_headers;
	sbat_err err;

	err = hash_range(ctx, src, 0, pe->off_checksum, "headers end before CheckSum", d);
	if (err != SBAT_OK)
		return err;
	if (pe->off_cert_dir == 0)
		return hash_range(ctx, src, after_checksum, headers, "SizeOfHeaders ends before CheckSum's end", d);
	err = hash_range(ctx, src, after_checksum, pe->off_cert_dir, "Certificate Table entry before CheckSum", d);
	if (err != SBAT_OK)
		return err;
	return hash_range(ctx, src, pe->off_cert_dir + 8, headers,
	                  "SizeOfHeaders ends inside the Certificate Table entry (data directory 4)", d);
}

/* Each section's raw data by PointerToRawData; *ret_sum is SizeOfHeaders plus every SizeOfRawData. */
static sbat_err
hash_sections(hctx *ctx, const pehash_src *src, uint64_t *ret_sum, sbat_diag *d)
{
	const sbat_image *img = src->img;
	const sbat_pe *pe = &img->pe;
	unsigned order[SBAT_PE_MAX_SECTIONS];
	uint64_t sum = pe->size_of_headers, end;
	unsigned i;
	sbat_err err;

	sort_by_raw_pointer(pe, order);
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[order[i]];

		if (s->size_of_raw_data == 0)
			continue;
		if (ckd_add_u64(&end, s->pointer_to_raw_data, s->size_of_raw_data) || end > img->len)
			return diag_fail_other(d, SBAT_E_PE_SECTION, "section raw data past end of file",
			                       s->header_offset, (int)order[i], s->name);
		err = feed(ctx, src, s->pointer_to_raw_data, s->size_of_raw_data, d);
		if (err != SBAT_OK)
			return err;
		if (ckd_add_u64(&sum, sum, s->size_of_raw_data))
			return diag_fail_at(d, SBAT_E_PE_OVERFLOW, "sum of section sizes overflows", s->header_offset);
	}
	*ret_sum = sum;
	return SBAT_OK;
}

/* EDK2: the bytes from `sum` up to the file's end less the certificate table's size. */
static sbat_err
hash_tail_edk2(hctx *ctx, const pehash_src *src, uint64_t sum, uint64_t cert_size, sbat_diag *d)
{
	const sbat_image *img = src->img;
	uint64_t need;

	if (img->len <= sum)
		return SBAT_OK;
	if (ckd_add_u64(&need, sum, cert_size) || need > img->len)
		return diag_fail_at(d, SBAT_E_PE_FIELD,
		                    "headers, sections and certificate table are larger than the file", sum);
	return hash_range(ctx, src, sum, img->len - cert_size, "trailing data", d);
}

/* shim 16.1: the certificate table must end the file; without one the trailing bytes are padded to 8. */
static sbat_err
hash_tail_shim(hctx *ctx, const pehash_src *src, uint64_t sum, uint64_t cert_size, sbat_diag *d)
{
	static const uint8_t zeros[8];
	const sbat_image *img = src->img;
	uint64_t padded;
	sbat_err err;

	if (sum > img->len)
		return diag_fail_at(d, SBAT_E_PE_SECTION, "sections' raw sizes add up past the end of the file", sum);
	if (cert_size != 0) {
		if (img->len == sum)
			return SBAT_OK;
		if (img->len - sum < cert_size || img->len - cert_size != img->pe.cert_offset)
			return diag_fail_at(d, SBAT_E_PE_FIELD,
			                    "certificate table does not end the file (shim refuses)",
			                    img->pe.off_cert_dir);
		return hash_range(ctx, src, sum, img->len - cert_size, "trailing data", d);
	}
	if (img->len == sum)
		return SBAT_OK;
	err = feed(ctx, src, sum, img->len - sum, d);
	if (err != SBAT_OK)
		return err;
	if (ckd_align_u64(&padded, img->len, 8))
		return diag_fail_at(d, SBAT_E_PE_OVERFLOW, "file size overflows", 0);
	hupdate(ctx, zeros, (size_t)(padded - img->len));
	return SBAT_OK;
}

sbat_err
pehash_compute2(const sbat_image *img, sbat_authenticode_rule rule, int fd,
                uint8_t ret_digest[SBAT_AUTHENTICODE_SHA256_SIZE], uint8_t *ret_sha1, sbat_diag *d)
{
	pehash_src src = { img, fd, NULL };
	hctx ctx;
	uint64_t sum = 0, cert_size = img->pe.off_cert_dir ? img->pe.cert_size : 0;
	sbat_err err;

	if (fd >= 0 && !(src.scratch = malloc(SCRATCH_SIZE)))
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for reading the image");
	sha256_init(&ctx.s256);
	sha1_init(&ctx.s1);
	ctx.sha1 = ret_sha1 != NULL;
	err = hash_headers(&ctx, &src, d);
	if (err == SBAT_OK)
		err = hash_sections(&ctx, &src, &sum, d);
	if (err == SBAT_OK && rule == SBAT_AUTHENTICODE_SHIM)
		err = hash_tail_shim(&ctx, &src, sum, cert_size, d);
	else if (err == SBAT_OK)
		err = hash_tail_edk2(&ctx, &src, sum, cert_size, d);
	free(src.scratch);
	if (err == SBAT_OK)
		sha256_final(&ctx.s256, ret_digest);
	if (err == SBAT_OK && ret_sha1)
		sha1_final(&ctx.s1, ret_sha1);
	return err;
}

int
pehash_rules_agree(const sbat_image *img)
{
	const sbat_pe *pe = &img->pe;
	uint64_t sum = pe->size_of_headers, cert_size = pe->off_cert_dir ? pe->cert_size : 0;
	unsigned i;

	if (cert_size == 0 || img->len < cert_size || img->len - cert_size != pe->cert_offset)
		return 0;
	for (i = 0; i < pe->number_of_sections; i++)
		if (ckd_add_u64(&sum, sum, pe->sections[i].size_of_raw_data))
			return 0;
	return sum <= img->len - cert_size;
}

sbat_err
pehash_compute(const sbat_image *img, sbat_authenticode_rule rule, int fd,
               uint8_t ret_digest[SBAT_AUTHENTICODE_SHA256_SIZE], sbat_diag *d)
{
	return pehash_compute2(img, rule, fd, ret_digest, NULL, d);
}

sbat_err
sbat_authenticode_hash(const sbat_image *img, sbat_authenticode_rule rule,
                       uint8_t ret_digest[SBAT_AUTHENTICODE_SHA256_SIZE], sbat_diag *reterr)
{
	if (!img || !ret_digest || (rule != SBAT_AUTHENTICODE_EDK2 && rule != SBAT_AUTHENTICODE_SHIM))
		return diag_fail(reterr, SBAT_E_ABI, "sbat_authenticode_hash: no image, no digest, or an unknown rule");
	return pehash_compute(img, rule, -1, ret_digest, reterr);
}
