/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pehash.c - the Authenticode SHA-256 (and SHA-1, SHA-384, SHA-512) of an image, as EDK2's HashPeImage and shim 16.1's generate_hash compute it */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"

#include "pe/image_internal.h"
#include "sig/pehash.h"
#include "util/ckd.h"
#include "util/diag.h"
#include "util/hashpass.h"

/* Append n bytes at off of the file to the plan, joined to the piece before when they follow it. */
static void
add(pehash_plan *p, uint64_t off, uint64_t n)
{
	hashpass_seg *last = p->n ? &p->seg[p->n - 1] : NULL;

	if (n == 0)
		return;
	if (last && last->kind == HASHPASS_FILE && last->off + last->len == off) {
		last->len += n;
		return;
	}
	p->seg[p->n++] = (hashpass_seg){ HASHPASS_FILE, off, n, NULL };
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

/* Hash [from, to) of the file; fails when the range is reversed or leaves the file. */
static sbat_err
hash_range(pehash_plan *p, const sbat_image *img, uint64_t from, uint64_t to, const char *what, sbat_diag *d)
{
	if (to < from || to > img->len)
		return diag_fail_at(d, SBAT_E_PE_FIELD, what, from);
	add(p, from, to - from);
	return SBAT_OK;
}

/* The headers, less CheckSum and the Certificate Table entry (when the directory has one). */
static sbat_err
hash_headers(pehash_plan *p, const sbat_image *img, sbat_diag *d)
{
	const sbat_pe *pe = &img->pe;
	uint64_t after_checksum = pe->off_checksum + 4;
	uint64_t headers = pe->size_of_headers;
	sbat_err err;

	err = hash_range(p, img, 0, pe->off_checksum, "headers end before CheckSum", d);
	if (err != SBAT_OK)
		return err;
	if (pe->off_cert_dir == 0)
		return hash_range(p, img, after_checksum, headers, "SizeOfHeaders ends before CheckSum's end", d);
	err = hash_range(p, img, after_checksum, pe->off_cert_dir, "Certificate Table entry before CheckSum", d);
	if (err != SBAT_OK)
		return err;
	return hash_range(p, img, pe->off_cert_dir + 8, headers,
	                  "SizeOfHeaders ends inside the Certificate Table entry (data directory 4)", d);
}

/* Each section's raw data by PointerToRawData; *ret_sum is SizeOfHeaders plus every SizeOfRawData. */
static sbat_err
hash_sections(pehash_plan *p, const sbat_image *img, uint64_t *ret_sum, sbat_diag *d)
{
	const sbat_pe *pe = &img->pe;
	unsigned order[SBAT_PE_MAX_SECTIONS];
	uint64_t sum = pe->size_of_headers, end;
	unsigned i;

	sort_by_raw_pointer(pe, order);
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[order[i]];

		if (s->size_of_raw_data == 0)
			continue;
		if (ckd_add_u64(&end, s->pointer_to_raw_data, s->size_of_raw_data) || end > img->len)
			return diag_fail_other(d, SBAT_E_PE_SECTION, "section raw data past end of file",
			                       s->header_offset, (int)order[i], s->name);
		add(p, s->pointer_to_raw_data, s->size_of_raw_data);
		if (ckd_add_u64(&sum, sum, s->size_of_raw_data))
			return diag_fail_at(d, SBAT_E_PE_OVERFLOW, "sum of section sizes overflows", s->header_offset);
	}
	*ret_sum = sum;
	return SBAT_OK;
}

/* EDK2: the bytes from `sum` up to the file's end less the certificate table's size. */
static sbat_err
hash_tail_edk2(pehash_plan *p, const sbat_image *img, uint64_t sum, uint64_t cert_size, sbat_diag *d)
{
	uint64_t need;

	if (img->len <= sum)
		return SBAT_OK;
	if (ckd_add_u64(&need, sum, cert_size) || need > img->len)
		return diag_fail_at(d, SBAT_E_PE_FIELD,
		                    "headers, sections and certificate table are larger than the file", sum);
	return hash_range(p, img, sum, img->len - cert_size, "trailing data", d);
}

/* shim 16.1: the certificate table must end the file; without one the trailing bytes are padded to 8. */
static sbat_err
hash_tail_shim(pehash_plan *p, const sbat_image *img, uint64_t sum, uint64_t cert_size, sbat_diag *d)
{
	uint64_t padded;

	if (sum > img->len)
		return diag_fail_at(d, SBAT_E_PE_SECTION, "sections' raw sizes add up past the end of the file", sum);
	if (cert_size != 0) {
		if (img->len == sum)
			return SBAT_OK;
		if (img->len - sum < cert_size || img->len - cert_size != img->pe.cert_offset)
			return diag_fail_at(d, SBAT_E_PE_FIELD,
			                    "certificate table does not end the file (shim refuses)",
			                    img->pe.off_cert_dir);
		return hash_range(p, img, sum, img->len - cert_size, "trailing data", d);
	}
	if (img->len == sum)
		return SBAT_OK;
	add(p, sum, img->len - sum);
	if (ckd_align_u64(&padded, img->len, 8))
		return diag_fail_at(d, SBAT_E_PE_OVERFLOW, "file size overflows", 0);
	if (padded > img->len)
		p->seg[p->n++] = (hashpass_seg){ HASHPASS_ZEROS, 0, padded - img->len, NULL };
	return SBAT_OK;
}

sbat_err
pehash_plan_build(const sbat_image *img, sbat_authenticode_rule rule, pehash_plan *ret, sbat_diag *d)
{
	uint64_t sum = 0, cert_size = img->pe.off_cert_dir ? img->pe.cert_size : 0;
	sbat_err err;

	ret->n = 0;
	err = hash_headers(ret, img, d);
	if (err == SBAT_OK)
		err = hash_sections(ret, img, &sum, d);
	if (err == SBAT_OK && rule == SBAT_AUTHENTICODE_SHIM)
		err = hash_tail_shim(ret, img, sum, cert_size, d);
	else if (err == SBAT_OK)
		err = hash_tail_edk2(ret, img, sum, cert_size, d);
	return err;
}

sbat_err
pehash_compute_all(const sbat_image *img, sbat_authenticode_rule rule, int fd, pehash_digests *dg, sbat_diag *d)
{
	pehash_plan *plan = malloc(sizeof(*plan));
	struct sha512_ctx s384, s512;
	struct sha1_ctx s1;
	hashpass_stream st;
	sbat_err err;

	if (!plan)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for reading the image");
	err = pehash_plan_build(img, rule, plan, d);
	memset(&st, 0, sizeof(st));
	st.seg = plan->seg;
	st.n_seg = plan->n;
	st.sha1 = dg->algs & PEHASH_ALG(SBAT_DIGEST_SHA1) ? &s1 : NULL;
	st.sha384 = dg->algs & PEHASH_ALG(SBAT_DIGEST_SHA384) ? &s384 : NULL;
	st.sha512 = dg->algs & PEHASH_ALG(SBAT_DIGEST_SHA512) ? &s512 : NULL;
	sha1_init(&s1);
	sha512_init_384(&s384);
	sha512_init(&s512);
	if (err == SBAT_OK)
		err = hashpass_run(&st, 1, fd, img->buf, img->len, d);
	free(plan);
	if (err != SBAT_OK)
		return err;
	sha256_final(&st.ctx, dg->sha256);
	if (st.sha1)
		sha1_final(&s1, dg->sha1);
	if (st.sha384)
		sha512_final(&s384, dg->sha384);
	if (st.sha512)
		sha512_final(&s512, dg->sha512);
	return SBAT_OK;
}

const uint8_t *
pehash_digest(const pehash_digests *dg, sbat_digest_alg alg, size_t *ret_len)
{
	switch (alg) {
	case SBAT_DIGEST_SHA256: *ret_len = sizeof(dg->sha256); return dg->sha256;
	case SBAT_DIGEST_SHA1: *ret_len = sizeof(dg->sha1); break;
	case SBAT_DIGEST_SHA384: *ret_len = sizeof(dg->sha384); break;
	case SBAT_DIGEST_SHA512: *ret_len = sizeof(dg->sha512); break;
	default: *ret_len = 0; return NULL;
	}
	if (!(dg->algs & PEHASH_ALG(alg)))
		return NULL;
	return alg == SBAT_DIGEST_SHA1 ? dg->sha1 : alg == SBAT_DIGEST_SHA384 ? dg->sha384 : dg->sha512;
}

sbat_err
pehash_compute2(const sbat_image *img, sbat_authenticode_rule rule, int fd,
                uint8_t ret_digest[SBAT_AUTHENTICODE_SHA256_SIZE], uint8_t *ret_sha1, sbat_diag *d)
{
	pehash_digests dg;
	sbat_err err;

	dg.algs = ret_sha1 ? PEHASH_ALG(SBAT_DIGEST_SHA1) : 0;
	err = pehash_compute_all(img, rule, fd, &dg, d);
	if (err != SBAT_OK)
		return err;
	memcpy(ret_digest, dg.sha256, sizeof(dg.sha256));
	if (ret_sha1)
		memcpy(ret_sha1, dg.sha1, sizeof(dg.sha1));
	return SBAT_OK;
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
