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
#include "sig/pkcs7.h"
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

/* How the loaders take one entry of the table: where each gives up, whether one reads a signature in it. */
typedef struct entry_take {
	const char *fw_stop;   /* EDK2's walk breaks at it: why */
	const char *shim_stop; /* shim's returns EFI_INVALID_PARAMETER at it: why */
	int unpadded;          /* fw_stop: the last entry, not padded to 8 bytes (shim reads it) */
	int has_sig;           /* it holds a signature a loader reads (entry_signature) */
	uint64_t next;         /* the next entry's offset, when a loader walks on */
} entry_take;

/* EDK2's checks of an entry whose dwLength fits in the `left` bytes of the table (DxeImageVerificationHandler). */
static const char *
fw_entry_stop(const sbat_authenticode_sig *s, uint64_t left, uint64_t padded, int *ret_unpadded)
{
	*ret_unpadded = padded > left;
	if (*ret_unpadded)
		return "WIN_CERTIFICATE not padded to 8 bytes at the end of the table";
	if (s->cert_type == WIN_CERT_TYPE_PKCS_SIGNED_DATA && s->entry_length <= WIN_CERT_HEADER_SIZE)
		return "WIN_CERTIFICATE dwLength leaves no room for a signature";
	if (s->cert_type == WIN_CERT_TYPE_EFI_GUID && s->entry_length <= WIN_CERT_GUID_HEADER_SIZE)
		return "WIN_CERTIFICATE (EFI_GUID) dwLength leaves no room for its CertType and a signature";
	if (s->entry_length < WIN_CERT_HEADER_SIZE)
		return "WIN_CERTIFICATE dwLength smaller than its 8-byte header";
	return NULL;
}

/*
 * The entry at `off` of the table [off, end) (file offsets) as both
 * loaders walk it into *t: EDK2 (DxeImageVerificationHandler) breaks out
 * at a trailing area of 8 bytes or less, a dwLength past the table or
 * whose padding to 8 bytes is not there, or too small for its type;
 * shim 16.1 (verify_buffer_authenticode) returns an error at an entry
 * whose 12-byte WIN_CERTIFICATE_EFI_PKCS runs past the file, or whose
 * dwLength runs past the table or is under 8. wRevision is read by
 * neither.
 */
static void
read_entry(bview *v, uint64_t off, uint64_t end, sbat_authenticode_sig *s, entry_take *t)
{
	uint64_t left = end - off, padded;

	memset(t, 0, sizeof(*t));
	s->entry_offset = off;
	if (off + 12 > v->len)
		t->shim_stop = "WIN_CERTIFICATE truncated: the file ends less than 12 bytes after its start";
	if (left <= WIN_CERT_HEADER_SIZE) {
		t->fw_stop = "WIN_CERTIFICATE truncated: the table ends inside its 8-byte header";
		t->shim_stop = t->shim_stop ? t->shim_stop : t->fw_stop;
		return;
	}
	s->entry_length = bv_le32(v, off);
	s->revision = bv_le16(v, off + 4);
	s->cert_type = bv_le16(v, off + 6);
	if (s->entry_length > left) {
		t->fw_stop = t->shim_stop = "WIN_CERTIFICATE dwLength (padded to 8) runs past the certificate table";
		return;
	}
	if (s->entry_length < WIN_CERT_HEADER_SIZE && !t->shim_stop)
		t->shim_stop = "WIN_CERTIFICATE dwLength smaller than its 8-byte header";
	padded = ((uint64_t)s->entry_length + 7) & ~(uint64_t)7;
	t->fw_stop = fw_entry_stop(s, left, padded, &t->unpadded);
	s->nested_in = -1;
	s->signer_cert = -1;
	s->covers_image = -1;
	t->has_sig = s->entry_length > WIN_CERT_HEADER_SIZE && entry_signature(v, off, s);
	t->next = off + (padded > left ? left : padded);
}

/* Where a loader gives up at entry n (at off): kept, the first one only. */
static void
note_stop(table_stop *st, const char *what, uint64_t off, unsigned n)
{
	if (what && !st->what) {
		st->what = what;
		st->offset = off;
		st->entry = n;
	}
}

/*
 * The table's entries, with `set` read and kept. Strict (the public
 * parse): an entry either loader gives up at, but an unpadded last one,
 * fails. Else each loader's stop is kept in set, and the walk goes on as
 * far as one of them reads.
 */
static sbat_err
walk_table(const sbat_image *img, sigset *set, int strict, sbat_diag *d)
{
	const sbat_pe *pe = &img->pe;
	uint64_t off = pe->cert_offset, end;
	sbat_authenticode_sig entry;
	table_stop fw = { NULL, 0, 0 }, shim = { NULL, 0, 0 };
	entry_take t;
	unsigned n = 0;
	bview v;
	sbat_err err;

	if (ckd_add_u64(&end, pe->cert_offset, pe->cert_size) || end > img->len)
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "certificate table past end of file (data directory 4)",
		                    pe->off_cert_dir);
	bv_init(&v, img->buf, img->len);
	while (off < end && !(fw.what && shim.what)) {
		if (n == MAX_ENTRIES)
			return entry_fail(d, "more than 64 WIN_CERTIFICATEs", off);
		memset(&entry, 0, sizeof(entry));
		entry.entry = n++;
		read_entry(&v, off, end, &entry, &t);
		if (strict && (t.shim_stop || (t.fw_stop && !t.unpadded)))
			return entry_fail(d, t.fw_stop && !t.unpadded ? t.fw_stop : t.shim_stop, off);
		/* a signature no loader reaches is not read: EDK2 stopped before it and shim reads no other type */
		if (t.has_sig && set &&
		    (!fw.what || (!t.shim_stop && entry.cert_type == WIN_CERT_TYPE_PKCS_SIGNED_DATA))) {
			err = sigset_add_signed_data(set, img->buf, &entry, d);
			if (err != SBAT_OK)
				return err;
		}
		note_stop(&fw, t.fw_stop, off, entry.entry);
		note_stop(&shim, t.shim_stop, off, entry.entry);
		if (set && t.unpadded && fw.offset == off)
			set->unpadded_end = 1;
		off = t.next;
	}
	if (set) {
		set->a.n_entries = n;
		set->fw_stop = fw;
		set->shim_stop = shim;
	}
	return SBAT_OK;
}

/* 1 when the last bytes of content[0..len) are digest[0..n): what AuthenticodeVerify compares. */
static int
tail_is(const uint8_t *content, size_t len, const uint8_t *digest, size_t n)
{
	return digest && content && len >= n && memcmp(content + len - n, digest, n) == 0;
}

/*
 * Whether each signature's digest is the image's hash by the algorithm it
 * names; and, as EDK2 compares, whether the SpcIndirectDataContent ends in
 * the image's hash by the algorithm HashPeImageByType took.
 */
static void
compare_digests(sigset *set)
{
	sbat_authenticode_sig *s = (sbat_authenticode_sig *)set->a.sigs;
	pkcs7_signers *g;
	const uint8_t *digest;
	size_t i, n;

	for (i = 0; i < set->a.n_sigs; i++) {
		digest = pehash_digest(&set->dg, s[i].image_digest_alg, &n);
		if (!digest)
			s[i].covers_image = -1;
		else
			s[i].covers_image = s[i].image_digest_len == n && memcmp(s[i].image_digest, digest, n) == 0;
		g = &set->signers[i];
		digest = pehash_digest(&set->dg, g->fw_alg, &n);
		g->fw_covers = g->fw_alg != SBAT_DIGEST_UNKNOWN && tail_is(g->content, g->content_len, digest, n);
	}
}

/* The bit of alg when it is SHA-1, SHA-384 or SHA-512, else 0. */
static unsigned
other_alg(sbat_digest_alg alg)
{
	return alg == SBAT_DIGEST_SHA1 || alg == SBAT_DIGEST_SHA384 || alg == SBAT_DIGEST_SHA512 ? PEHASH_ALG(alg) : 0;
}

/* The algorithms other than SHA-256 the signatures of a name, or EDK2 takes for them, as PEHASH_ALG bits. */
static unsigned
named_algs(const sigset *set)
{
	unsigned algs = 0;
	size_t i;

	for (i = 0; i < set->a.n_sigs; i++)
		algs |= other_alg(set->a.sigs[i].image_digest_alg) | other_alg(set->signers[i].fw_alg);
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

	set->dg.algs = (set->a.n_entries ? named_algs(set) : unsigned_algs) & others;
	if (!hash || set->dg.algs)
		err = pehash_compute_all(img, SBAT_AUTHENTICODE_EDK2, fd, &set->dg, d);
	if (err == SBAT_OK && hash)
		memcpy(set->dg.sha256, hash, sizeof(set->dg.sha256));
	memcpy(set->a.image_hash, set->dg.sha256, sizeof(set->a.image_hash));
	return err;
}

/*
 * sbat_authenticode_parse: the image hashed from fd (-1: from its buffer),
 * or hash when it is not NULL; the table walked strictly or as the loaders
 * walk it (walk_table).
 */
static sbat_err
parse_from(const sbat_image *img, int fd, const uint8_t *hash, unsigned unsigned_algs, int strict,
           sbat_authenticode **ret, sbat_diag *reterr)
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
		err = walk_table(img, NULL, strict, reterr);
		if (err == SBAT_OK)
			err = walk_table(img, set, strict, reterr);
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
	return parse_from(img, -1, NULL, 0, 1, ret, reterr);
}

sbat_err
authenticode_parse_hashed(const sbat_image *img, int fd, const uint8_t hash[SBAT_AUTHENTICODE_SHA256_SIZE],
                          sbat_authenticode **ret, sbat_diag *d)
{
	return parse_from(img, fd, hash, 0, 1, ret, d);
}

sbat_err
authenticode_parse_algs(const sbat_image *img, int fd, unsigned unsigned_algs, sbat_authenticode **ret, sbat_diag *d)
{
	return parse_from(img, fd, NULL, unsigned_algs, 0, ret, d);
}

sbat_err
sbat_authenticode_parse_fd(const sbat_image *img, int fd, sbat_authenticode **ret, sbat_diag *reterr)
{
	return parse_from(img, fd, NULL, 0, 1, ret, reterr);
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
