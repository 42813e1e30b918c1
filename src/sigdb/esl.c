/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* esl.c - EFI_SIGNATURE_LISTs walked with every size checked, and the authentication header of an update */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sbat/error.h"
#include "sbat/sigdb.h"

#include "sigdb/esl.h"
#include "util/bview.h"
#include "util/ckd.h"
#include "util/diag.h"

/* EFI_SIGNATURE_LIST's header: SignatureType, SignatureListSize, SignatureHeaderSize, SignatureSize. */
#define ESL_HEADER 28u
#define ESL_OWNER 16u
/* EFI_TIME, then WIN_CERTIFICATE's dwLength, wRevision, wCertificateType and the CertType GUID. */
#define AUTH2_TIME 16u
#define AUTH2_CERT_HEADER 24u
#define WIN_CERT_REVISION 0x0200u
#define WIN_CERT_TYPE_EFI_GUID 0x0EF1u
/* a known type whose data size varies (X.509 certificates) */
#define ANY_SIZE 0xffffffffu

/* The known types (UEFI 2.10, 32.4.1): GUID as stored, and their data size (after the owner). */
static const struct {
	const char *name;
	uint8_t guid[16];
	uint32_t data_size;
} types[SBAT__SIG_MAX] = {
	[SBAT_SIG_UNKNOWN] = { "unknown", { 0 }, 0 },
	[SBAT_SIG_SHA256] = { "EFI_CERT_SHA256_GUID",
	                      { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40, 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93,
	                        0x43, 0x28 },
	                      32 },
	[SBAT_SIG_RSA2048] = { "EFI_CERT_RSA2048_GUID",
	                       { 0xe8, 0x66, 0x57, 0x3c, 0x9c, 0x26, 0x34, 0x4e, 0xaa, 0x14, 0xed, 0x77, 0x6e, 0x85,
	                         0xb3, 0xb6 },
	                       256 },
	[SBAT_SIG_RSA2048_SHA256] = { "EFI_CERT_RSA2048_SHA256_GUID",
	                              { 0x90, 0x61, 0xb3, 0xe2, 0x9b, 0x87, 0x3d, 0x4a, 0xad, 0x8d, 0xf2, 0xe7, 0xbb,
	                                0xa3, 0x27, 0x84 },
	                              256 },
	[SBAT_SIG_SHA1] = { "EFI_CERT_SHA1_GUID",
	                    { 0x12, 0xa5, 0x6c, 0x82, 0x10, 0xcf, 0xc9, 0x4a, 0xb1, 0x87, 0xbe, 0x01, 0x49, 0x66, 0x31,
	                      0xbd },
	                    20 },
	[SBAT_SIG_RSA2048_SHA1] = { "EFI_CERT_RSA2048_SHA1_GUID",
	                            { 0x4f, 0x44, 0xf8, 0x67, 0x43, 0x87, 0xf1, 0x48, 0xa3, 0x28, 0x1e, 0xaa, 0xb8,
	                              0x73, 0x60, 0x80 },
	                            256 },
	[SBAT_SIG_X509] = { "EFI_CERT_X509_GUID",
	                    { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a, 0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0,
	                      0x72 },
	                    ANY_SIZE },
	[SBAT_SIG_SHA224] = { "EFI_CERT_SHA224_GUID",
	                      { 0x33, 0x52, 0x6e, 0x0b, 0x5c, 0xa6, 0xc9, 0x44, 0x94, 0x07, 0xd9, 0xab, 0x83, 0xbf,
	                        0xc8, 0xbd },
	                      28 },
	[SBAT_SIG_SHA384] = { "EFI_CERT_SHA384_GUID",
	                      { 0x07, 0x53, 0x3e, 0xff, 0xd0, 0x9f, 0xc9, 0x48, 0x85, 0xf1, 0x8a, 0xd5, 0x6c, 0x70,
	                        0x1e, 0x01 },
	                      48 },
	[SBAT_SIG_SHA512] = { "EFI_CERT_SHA512_GUID",
	                      { 0xae, 0x0f, 0x3e, 0x09, 0xc4, 0xa6, 0x50, 0x4f, 0x9f, 0x1b, 0xd4, 0x1e, 0x2b, 0x89,
	                        0xc1, 0x9a },
	                      64 },
	[SBAT_SIG_X509_SHA256] = { "EFI_CERT_X509_SHA256_GUID",
	                           { 0x92, 0xa4, 0xd2, 0x3b, 0xc0, 0x96, 0x79, 0x40, 0xb4, 0x20, 0xfc, 0xf9, 0x8e, 0xf1,
	                             0x03, 0xed },
	                           48 },
	[SBAT_SIG_X509_SHA384] = { "EFI_CERT_X509_SHA384_GUID",
	                           { 0x6e, 0x87, 0x76, 0x70, 0xc2, 0x80, 0xe6, 0x4e, 0xaa, 0xd2, 0x28, 0xb3, 0x49, 0xa6,
	                             0x86, 0x5b },
	                           64 },
	[SBAT_SIG_X509_SHA512] = { "EFI_CERT_X509_SHA512_GUID",
	                           { 0x63, 0xbf, 0x6d, 0x44, 0x02, 0x25, 0xda, 0x4c, 0xbc, 0xfa, 0x24, 0x65, 0xd2, 0xb0,
	                             0xfe, 0x9d },
	                           80 },
};

/* EFI_CERT_TYPE_PKCS7_GUID, as stored */
static const uint8_t pkcs7_guid[16] = { 0x9d, 0xd2, 0xaf, 0x4a, 0xdf, 0x68, 0xee, 0x49,
	                                0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7 };

sbat_sig_type
esl_type_of(const uint8_t *guid)
{
	int t;

	for (t = SBAT_SIG_UNKNOWN + 1; t < SBAT__SIG_MAX; t++)
		if (memcmp(types[t].guid, guid, 16) == 0)
			return (sbat_sig_type)t;
	return SBAT_SIG_UNKNOWN;
}

const char *
esl_type_name(sbat_sig_type type)
{
	if ((int)type <= SBAT_SIG_UNKNOWN || type >= SBAT__SIG_MAX)
		return types[SBAT_SIG_UNKNOWN].name;
	return types[type].name;
}

/* A malformed update header: no list or entry. */
static sbat_err
bad_auth(sbat_diag *d, const char *what, uint64_t offset, const char *source)
{
	return diag_fail_other(d, SBAT_E_EFIVAR, what, offset, -1, source ? source : "");
}

/* A malformed list: list 0-based, entry 1-based (0: the list's header); the diagnostic's line and field. */
static sbat_err
bad(sbat_diag *d, const char *what, uint64_t offset, const char *source, size_t list, size_t entry)
{
	bad_auth(d, what, offset, source);
	if (d) {
		d->line = list < UINT32_MAX - 1 ? (unsigned)(list + 1) : UINT32_MAX;
		d->field = entry < UINT32_MAX ? (unsigned)entry : UINT32_MAX;
	}
	return SBAT_E_EFIVAR;
}

/* One list's sizes, read from its header. */
typedef struct esl_sizes {
	uint32_t list, header, sig;
} esl_sizes;

/* Check the header of the list at off (list number n); *s its sizes. */
static sbat_err
check_header(bview *v, size_t off, uint64_t base, const char *source, size_t n, esl_sizes *s, sbat_diag *reterr)
{
	size_t rem = v->len - off;
	uint64_t at = base + off;

	if (rem < ESL_HEADER)
		return bad(reterr, "EFI_SIGNATURE_LIST header truncated (28 bytes needed)", at, source, n, 0);
	s->list = bv_le32(v, off + 16);
	s->header = bv_le32(v, off + 20);
	s->sig = bv_le32(v, off + 24);
	if (s->list == 0)
		return bad(reterr, "EFI_SIGNATURE_LIST SignatureListSize is 0", at + 16, source, n, 0);
	if (s->list < ESL_HEADER)
		return bad(reterr, "EFI_SIGNATURE_LIST SignatureListSize is below its 28-byte header", at + 16, source,
		           n, 0);
	if (s->list > rem)
		return bad(reterr, "EFI_SIGNATURE_LIST SignatureListSize runs past the end of the data", at + 16,
		           source, n, 0);
	if (s->sig == 0)
		return bad(reterr, "EFI_SIGNATURE_LIST SignatureSize is 0", at + 24, source, n, 0);
	if (s->sig < ESL_OWNER)
		return bad(reterr, "EFI_SIGNATURE_LIST SignatureSize is below the 16-byte SignatureOwner", at + 24,
		           source, n, 0);
	if (s->header > s->list - ESL_HEADER)
		return bad(reterr, "EFI_SIGNATURE_LIST SignatureHeaderSize runs past SignatureListSize", at + 20,
		           source, n, 0);
	return SBAT_OK;
}

/* Check the sizes against each other and the type; *ret_n the number of entries. */
static sbat_err
check_sizes(const esl_sizes *s, sbat_sig_type t, uint64_t at, const char *source, size_t n, size_t *ret_n,
            sbat_diag *reterr)
{
	uint32_t body = s->list - ESL_HEADER - s->header;
	uint32_t count = body / s->sig;

	if (body % s->sig != 0)
		return bad(reterr, "EFI_SIGNATURE_LIST entries do not fill SignatureListSize: the last one is cut",
		           at + ESL_HEADER + s->header + (uint64_t)count * s->sig, source, n, (size_t)count + 1);
	if (t != SBAT_SIG_UNKNOWN && s->header != 0)
		return bad(reterr, "EFI_SIGNATURE_LIST SignatureHeaderSize is not 0 for a known SignatureType", at + 20,
		           source, n, 0);
	if (t != SBAT_SIG_UNKNOWN && types[t].data_size != ANY_SIZE && s->sig != ESL_OWNER + types[t].data_size)
		return bad(reterr, "EFI_SIGNATURE_LIST SignatureSize is not its SignatureType's size", at + 24, source,
		           n, 0);
	if (t == SBAT_SIG_X509 && s->sig == ESL_OWNER && count > 0)
		return bad(reterr, "EFI_SIGNATURE_LIST of X.509 certificates with SignatureSize 16: no certificate",
		           at + 24, source, n, 0);
	*ret_n = count;
	return SBAT_OK;
}

/* Hand the n entries of the list at off to fn. */
static sbat_err
walk_entries(bview *v, size_t off, uint64_t base, const esl_sizes *s, size_t list, size_t count, esl_entry_fn fn,
             void *ctx, sbat_diag *reterr)
{
	esl_entry e;
	size_t i, pos = off + ESL_HEADER + s->header;
	sbat_err err;

	e.type_guid = bv_ptr(v, off, 16);
	e.type = esl_type_of(e.type_guid);
	e.list = list;
	e.data_len = s->sig - ESL_OWNER;
	for (i = 0; i < count; i++, pos += s->sig) {
		e.owner = bv_ptr(v, pos, s->sig);
		if (!e.owner)
			return diag_fail_at(reterr, SBAT_E_EFIVAR, "EFI_SIGNATURE_LIST entry outside its list",
			                    base + pos);
		e.data = e.owner + ESL_OWNER;
		e.offset = base + pos;
		err = fn(ctx, &e, reterr);
		if (err != SBAT_OK)
			return err;
	}
	return SBAT_OK;
}

sbat_err
esl_walk(const uint8_t *buf, size_t len, uint64_t base, const char *source, esl_entry_fn fn, void *ctx,
         sbat_diag *reterr)
{
	bview v;
	size_t off = 0, n = 0, count;
	esl_sizes s;
	sbat_err err;

	bv_init(&v, buf, len);
	while (off < len) {
		err = check_header(&v, off, base, source, n, &s, reterr);
		if (err == SBAT_OK)
			err = check_sizes(&s, esl_type_of(bv_ptr(&v, off, 16)), base + off, source, n, &count, reterr);
		if (err == SBAT_OK && fn)
			err = walk_entries(&v, off, base, &s, n, count, fn, ctx, reterr);
		if (err != SBAT_OK)
			return err;
		off += s.list;
		n++;
	}
	return SBAT_OK;
}

sbat_err
esl_auth2_skip(const uint8_t *buf, size_t len, const char *source, size_t *ret_skip, sbat_diag *reterr)
{
	bview v;
	uint32_t dw;
	uint64_t end;

	*ret_skip = 0;
	bv_init(&v, buf, len);
	if (len < AUTH2_TIME + 8 || bv_le16(&v, AUTH2_TIME + 4) != WIN_CERT_REVISION ||
	    bv_le16(&v, AUTH2_TIME + 6) != WIN_CERT_TYPE_EFI_GUID)
		return SBAT_OK;
	if (len < AUTH2_TIME + AUTH2_CERT_HEADER)
		return bad_auth(reterr, "EFI_VARIABLE_AUTHENTICATION_2 truncated (40 bytes needed)", 0, source);
	dw = bv_le32(&v, AUTH2_TIME);
	if (dw < AUTH2_CERT_HEADER)
		return bad_auth(reterr, "EFI_VARIABLE_AUTHENTICATION_2 dwLength is below its 24-byte header",
		                AUTH2_TIME, source);
	if (ckd_add_u64(&end, AUTH2_TIME, dw) || end > len)
		return bad_auth(reterr, "EFI_VARIABLE_AUTHENTICATION_2 dwLength runs past the end of the data",
		                AUTH2_TIME, source);
	if (memcmp(bv_ptr(&v, AUTH2_TIME + 8, 16), pkcs7_guid, 16) != 0)
		return bad_auth(reterr, "EFI_VARIABLE_AUTHENTICATION_2 CertType is not EFI_CERT_TYPE_PKCS7_GUID",
		                AUTH2_TIME + 8, source);
	*ret_skip = (size_t)end;
	return SBAT_OK;
}
