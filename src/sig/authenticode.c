/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* authenticode.c - an image's certificate table: each WIN_CERTIFICATE, its signatures, their digests */
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/error.h"
#include "sbat/image.h"

#include "pe/image_internal.h"
#include "sig/authenticode_internal.h"
#include "sig/pehash.h"
#include "sig/sigset.h"
#include "util/bview.h"
#include "util/ckd.h"
#include "util/diag.h"
#include "util/strtable.h"

#define WIN_CERT_HEADER_SIZE 8
#define WIN_CERT_REVISION_2_0 0x0200
#define WIN_CERT_TYPE_PKCS_SIGNED_DATA 0x0002
#define WIN_CERT_TYPE_EFI_GUID 0x0EF1
#define WIN_CERT_GUID_HEADER_SIZE 24 /* WIN_CERTIFICATE_UEFI_GUID: the header, then CertType */
#define MAX_ENTRIES 64               /* a real image has one or two */

/* EFI_CERT_TYPE_PKCS7_GUID {4aafd29d-68df-49ee-8aa9-347d375665a7} as stored */
static const uint8_t cert_type_pkcs7_guid[16] = { 0x9d, 0xd2, 0xaf, 0x4a, 0xdf, 0x68, 0xee, 0x49,
	                                          0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7 };

static const char *const digest_names[] = {
	[SBAT_DIGEST_UNKNOWN] = "unknown", [SBAT_DIGEST_SHA1] = "SHA-1",     [SBAT_DIGEST_SHA256] = "SHA-256",
	[SBAT_DIGEST_SHA384] = "SHA-384",  [SBAT_DIGEST_SHA512] = "SHA-512",
};

const char *
sbat_authenticode_digest_name(sbat_digest_alg alg)
{
	return STRTABLE_NAME(digest_names, alg, "unknown");
}

static sbat_err
entry_fail(sbat_diag *d, const char *what, uint64_t offset)
{
	return diag_fail_other(d, SBAT_E_SIGNATURE, what, offset, -1, "WIN_CERTIFICATE");
}

/* Where the signature of an entry lies, by its type: 1 when it holds one a loader reads, 0 when it is passed over. */
static int
entry_signature(bview *v, uint64_t off, sbat_authenticode_sig *s)
{
	const uint8_t *guid;

	if (s->cert_type == WIN_CERT_TYPE_PKCS_SIGNED_DATA) {
		s->offset = off + WIN_CERT_HEADER_SIZE;
		s->len = s->entry_length - WIN_CERT_HEADER_SIZE;
		return 1;
	}
	/* EDK2 reads a WIN_CERTIFICATE_UEFI_GUID of EFI_CERT_TYPE_PKCS7_GUID as one (shim does not) */
	if (s->cert_type != WIN_CERT_TYPE_EFI_GUID || s->entry_length <= WIN_CERT_GUID_HEADER_SIZE)
		return 0;
	guid = bv_ptr(v, off + WIN_CERT_HEADER_SIZE, sizeof(cert_type_pkcs7_guid));
	if (!guid || memcmp(guid, cert_type_pkcs7_guid, sizeof(cert_type_pkcs7_guid)) != 0)
		return 0;
	s->offset = off + WIN_CERT_GUID_HEADER_SIZE;
	s->len = s->entry_length - WIN_CERT_GUID_HEADER_SIZE;
	return 1;
}

/*
 * The entry at `off` of the table [off, end) (file offsets): its header read
 * and checked as EDK2 walks the table, each entry padded to 8 bytes; the
 * last one may end the table unpadded (*ret_unpadded: EDK2 refuses the
 * image, shim reads it). wRevision is read by neither loader. *ret_next is
 * the next entry's offset; *ret_sig is 1 when the entry holds a signature
 * (entry_signature), 0 for one both loaders pass over.
 */
static sbat_err
read_entry(bview *v, uint64_t off, uint64_t end, sbat_authenticode_sig *s, uint64_t *ret_next, int *ret_sig,
           int *ret_unpadded, sbat_diag *d)
{
	uint64_t left = end - off, padded;

	if (left <= WIN_CERT_HEADER_SIZE)
		return entry_fail(d, "WIN_CERTIFICATE truncated: the table ends inside its 8-byte header", off);
	s->entry_offset = off;
	s->entry_length = bv_le32(v, off);
	s->revision = bv_le16(v, off + 4);
	s->cert_type = bv_le16(v, off + 6);
	if (v->bad)
		return entry_fail(d, "WIN_CERTIFICATE past the end of the file", off);
	if (s->entry_length <= WIN_CERT_HEADER_SIZE)
		return entry_fail(d, "WIN_CERTIFICATE dwLength leaves no room for a signature", off);
	if (ckd_align_u64(&padded, s->entry_length, 8) || s->entry_length > left)
		return entry_fail(d, "WIN_CERTIFICATE dwLength (padded to 8) runs past the certificate table", off);
	*ret_unpadded = padded > left;
	if (*ret_unpadded)
		padded = left;
	s->nested_in = -1;
	s->signer_cert = -1;
	s->covers_image = -1;
	*ret_sig = entry_signature(v, off, s);
	*ret_next = off + padded;
	return SBAT_OK;
}

/* The table's entries, each checked before any is read as PKCS#7: with `set`, read and kept. */
static sbat_err
walk_table(const sbat_image *img, sigset *set, sbat_diag *d)
{
	const sbat_pe *pe = &img->pe;
	uint64_t off = pe->cert_offset, end;
	sbat_authenticode_sig entry;
	int has_sig, unpadded;
	unsigned n = 0;
	bview v;
	sbat_err err;

	if (ckd_add_u64(&end, pe->cert_offset, pe->cert_size) || end > img->len)
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "certificate table past end of file (data directory 4)",
		                    pe->off_cert_dir);
	bv_init(&v, img->buf, img->len);
	while (off < end) {
		if (n == MAX_ENTRIES)
			return entry_fail(d, "more than 64 WIN_CERTIFICATEs", off);
		memset(&entry, 0, sizeof(entry));
		entry.entry = n++;
		err = read_entry(&v, off, end, &entry, &off, &has_sig, &unpadded, d);
		if (err == SBAT_OK && set && has_sig)
			err = sigset_add_signed_data(set, img->buf, &entry, d);
		if (err != SBAT_OK)
			return err;
		if (set)
			set->unpadded_end = unpadded;
	}
	if (set)
		set->a.n_entries = n;
	return SBAT_OK;
}

/* Whether each signature's digest is the image's hash by the algorithm it names. */
static void
compare_digests(sigset *set)
{
	sbat_authenticode_sig *s = (sbat_authenticode_sig *)set->a.sigs;
	const uint8_t *digest;
	size_t i, n;

	for (i = 0; i < set->a.n_sigs; i++) {
		digest = pehash_digest(&set->dg, s[i].image_digest_alg, &n);
		if (!digest)
			s[i].covers_image = -1;
		else
			s[i].covers_image = s[i].image_digest_len == n && memcmp(s[i].image_digest, digest, n) == 0;
	}
}

/* The algorithms other than SHA-256 the signatures of a name, as PEHASH_ALG bits. */
static unsigned
named_algs(const sbat_authenticode *a)
{
	unsigned algs = 0;
	size_t i;

	for (i = 0; i < a->n_sigs; i++)
		if (a->sigs[i].image_digest_alg == SBAT_DIGEST_SHA1 ||
		    a->sigs[i].image_digest_alg == SBAT_DIGEST_SHA384 ||
		    a->sigs[i].image_digest_alg == SBAT_DIGEST_SHA512)
			algs |= PEHASH_ALG(a->sigs[i].image_digest_alg);
	return algs;
}

/*
 * The image's hashes by EDK2's rule into set: SHA-256 (hash, when the
 * caller computed it), and the others its signatures name, or for an
 * unsigned image those of unsigned_algs, all in one read.
 */
static sbat_err
hash_image(const sbat_image *img, int fd, const uint8_t *hash, unsigned unsigned_algs, sigset *set, sbat_diag *d)
{
	const unsigned others = PEHASH_ALG(SBAT_DIGEST_SHA1) | PEHASH_ALG(SBAT_DIGEST_SHA384) |
	                        PEHASH_ALG(SBAT_DIGEST_SHA512);
	sbat_err err = SBAT_OK;

	set->dg.algs = (set->a.n_entries ? named_algs(&set->a) : unsigned_algs) & others;
	if (!hash || set->dg.algs)
		err = pehash_compute_all(img, SBAT_AUTHENTICODE_EDK2, fd, &set->dg, d);
	if (err == SBAT_OK && hash)
		memcpy(set->dg.sha256, hash, sizeof(set->dg.sha256));
	memcpy(set->a.image_hash, set->dg.sha256, sizeof(set->a.image_hash));
	return err;
}

/* sbat_authenticode_parse: the image hashed from fd (-1: from its buffer), or hash when it is not NULL. */
static sbat_err
parse_from(const sbat_image *img, int fd, const uint8_t *hash, unsigned unsigned_algs, sbat_authenticode **ret,
           sbat_diag *reterr)
{
	sigset *set;
	sbat_err err = SBAT_OK;

	if (ret)
		*ret = NULL;
	if (!img || !ret)
		return diag_fail(reterr, SBAT_E_ABI, "sbat_authenticode_parse: no image or no result pointer");
	set = calloc(1, sizeof(*set));
	if (!set)
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory for the signatures");
	if (img->pe.off_cert_dir != 0 && img->pe.cert_size != 0) {
		set->a.table_offset = img->pe.cert_offset;
		set->a.table_size = img->pe.cert_size;
		err = walk_table(img, NULL, reterr);
		if (err == SBAT_OK)
			err = walk_table(img, set, reterr);
	}
	if (err == SBAT_OK)
		err = hash_image(img, fd, hash, unsigned_algs, set, reterr);
	if (err != SBAT_OK) {
		sbat_authenticode_free(&set->a);
		return err;
	}
	compare_digests(set);
	*ret = &set->a;
	return SBAT_OK;
}

sbat_err
sbat_authenticode_parse(const sbat_image *img, sbat_authenticode **ret, sbat_diag *reterr)
{
	return parse_from(img, -1, NULL, 0, ret, reterr);
}

sbat_err
authenticode_parse_hashed(const sbat_image *img, int fd, const uint8_t hash[SBAT_AUTHENTICODE_SHA256_SIZE],
                          sbat_authenticode **ret, sbat_diag *d)
{
	return parse_from(img, fd, hash, 0, ret, d);
}

sbat_err
authenticode_parse_algs(const sbat_image *img, int fd, unsigned unsigned_algs, sbat_authenticode **ret, sbat_diag *d)
{
	return parse_from(img, fd, NULL, unsigned_algs, ret, d);
}

sbat_err
sbat_authenticode_parse_fd(const sbat_image *img, int fd, sbat_authenticode **ret, sbat_diag *reterr)
{
	return parse_from(img, fd, NULL, 0, ret, reterr);
}

const uint8_t *
authenticode_image_digest(const sbat_authenticode *a, sbat_digest_alg alg, size_t *ret_len)
{
	return pehash_digest(&((const sigset *)a)->dg, alg, ret_len);
}

void
sbat_authenticode_free(sbat_authenticode *a)
{
	if (a)
		sigset_free((sigset *)a);
}

sbat_err
sbat_authenticode_check(const sbat_authenticode *a, sbat_diag *reterr)
{
	size_t i;

	if (!a)
		return diag_fail(reterr, SBAT_E_ABI, "sbat_authenticode_check: no signatures");
	for (i = 0; i < a->n_sigs; i++) {
		if (a->sigs[i].covers_image == 0) {
			diag_fail_other(reterr, SBAT_E_SIGNATURE_STALE, "the signature no longer covers this image",
			                a->sigs[i].offset, (int)i, "signature");
			return SBAT_E_SIGNATURE_STALE;
		}
	}
	return SBAT_OK;
}
