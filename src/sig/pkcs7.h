/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pkcs7.h - a PKCS#7 SignedData: an Authenticode one (its certificates, its signer, the digest it claims), or
 * one over detached content (an authenticated variable's) */
#ifndef SBAT_SIG_PKCS7_H
#define SBAT_SIG_PKCS7_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"

#define PKCS7_MAX_NESTED 8  /* signatures nested in one SignerInfo */
#define PKCS7_MAX_CERTS 64  /* certificates in one SignedData */
#define PKCS7_MAX_SIGNERS 8 /* SignerInfos in one SignedData */

/*
 * What the loaders' PKCS7_verify reads of a signature besides its first
 * SignerInfo, and whether their Pkcs7Verify reads it at all.
 */
typedef struct pkcs7_signers {
	size_t n;                    /* SignerInfos */
	int cert[PKCS7_MAX_SIGNERS]; /* each one's certificate in the signature's certs, -1 when not there */
	/*
	 * 1: WrapPkcs7Data does not take its first bytes for a ContentInfo
	 * (pkcs7_is_content_info: one over 65539 bytes has a longer length)
	 * and wraps it again with 16-bit lengths: Pkcs7Verify and
	 * Pkcs7GetSigners of EDK2 and shim fail on it
	 */
	int unwrappable;
	/* the SpcIndirectDataContent's content octets: the loaders' AuthenticodeVerify compares their last bytes */
	const uint8_t *content;
	size_t content_len;
	/*
	 * EDK2's reading of the WIN_CERTIFICATE (filled by the table's walk):
	 * the algorithm HashPeImageByType takes (pkcs7_edk2_digest_alg), and 1
	 * when the last bytes of `content` are the image's hash by it
	 */
	sbat_digest_alg fw_alg;
	int fw_covers;
} pkcs7_signers;

/* A ContentInfo nested in a SignerInfo's unauthenticated attributes (file offset and length). */
typedef struct pkcs7_nested {
	uint64_t offset;
	size_t len;
} pkcs7_nested;

/*
 * Read the ContentInfo at s->offset (s->len bytes, a file offset in buf):
 * fills the certificates (allocated: s->certs, freed with free), the
 * signer and the claimed image digest, sets s->len to the ContentInfo's
 * own length, lists the nested signatures in nested[0..*ret_n) and the
 * SignerInfos in *signers. s->signature_verifies is 1 only when every
 * SignerInfo whose certificate is there verifies (PKCS7_verify). On
 * failure s->certs is NULL.
 */
sbat_err pkcs7_read(const uint8_t *buf, sbat_authenticode_sig *s, pkcs7_nested nested[PKCS7_MAX_NESTED], size_t *ret_n,
                    pkcs7_signers *signers, sbat_diag *d);

/*
 * 1 when p[0..len) starts as EDK2's WrapPkcs7Data recognizes a ContentInfo
 * (bytes 4 to 16: the signedData OID, then [0] with a two-byte length);
 * EDK2 takes anything else for a bare SignedData and wraps it.
 */
int pkcs7_is_content_info(const uint8_t *p, size_t len);

/*
 * The digest algorithm EDK2's HashPeImageByType hashes an image by for
 * the signature p[0..len) (a WIN_CERTIFICATE's data, as its dwLength
 * gives it): the OID at the fixed offset 32, where the DER of a
 * ContentInfo with two-byte lengths holds the SignedData's first
 * digestAlgorithms entry. SBAT_DIGEST_UNKNOWN when EDK2 passes the
 * signature over: byte 1 without the bits 0x82 (a length that is not
 * long form), no OID of SHA-1, SHA-224, SHA-256, SHA-384 or SHA-512 there
 * (SHA-1's 5 bytes compared first), or SHA-224, which HashPeImage does
 * not compute.
 */
sbat_digest_alg pkcs7_edk2_digest_alg(const uint8_t *p, size_t len);

/*
 * Read the PKCS#7 at s->offset (s->len bytes) of buf, a ContentInfo (as
 * pkcs7_is_content_info tells) or a bare SignedData, whose signature is
 * over content[0..content_len) (detached; a content of its own is not
 * read): the certificates and the (first) signer as pkcs7_read fills them,
 * s->signature_verifies for that content. *ret_signers is the number of
 * SignerInfos. On failure s->certs is NULL.
 */
sbat_err pkcs7_read_detached(const uint8_t *buf, sbat_authenticode_sig *s, const uint8_t *content, size_t content_len,
                             size_t *ret_signers, sbat_diag *d);

#endif
