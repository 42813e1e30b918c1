/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* authvar.h - an authenticated update of db, dbx or KEK, checked as the firmware checks the write */
#ifndef SBAT_SIG_AUTHVAR_H
#define SBAT_SIG_AUTHVAR_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"
#include "sbat/error.h"
#include "sbat/sigdb.h"

/*
 * The attributes of the write an update tool makes (UEFI 2.10 8.2.2):
 * NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS |
 * TIME_BASED_AUTHENTICATED_WRITE_ACCESS | APPEND_WRITE. They are part of
 * what the signature covers.
 */
#define AUTHVAR_ATTRIBUTES 0x67u

/*
 * The attributes of a PK write: the same without APPEND_WRITE. A PK write
 * replaces the variable (efi-updatevar, sign-efi-sig-list without -a), and
 * an empty payload deletes it.
 */
#define AUTHVAR_PK_ATTRIBUTES 0x27u

/* What the firmware makes of the write. */
typedef enum authvar_result {
	AUTHVAR_ACCEPTED = 0,      /* it verifies under `key`, a certificate of PK or KEK */
	AUTHVAR_NOT_AUTHENTICATED, /* no EFI_VARIABLE_AUTHENTICATION_2: signature lists alone */
	AUTHVAR_BAD_TIME,          /* its EFI_TIME's Pad1, Nanosecond, TimeZone, Daylight or Pad2 is not zero */
	AUTHVAR_NOT_SHA256,        /* the SignedData has no two-byte length and SHA-256 OID at bytes 1 and 13 */
	AUTHVAR_TOO_BIG,           /* a bare SignedData over 65520 bytes, which EDK2 wraps with 16-bit lengths */
	AUTHVAR_NO_SIGNER,         /* the signer's certificate is not in the SignedData */
	AUTHVAR_BAD_SIGNATURE,     /* the signer's signature does not verify over name, GUID, attributes, time, data */
	AUTHVAR_NOT_SIGNED_BY_KEY, /* its signer reaches no certificate of PK (nor, for db and dbx, of KEK) */
	AUTHVAR_CHAIN_BAD_SIGNATURE, /* it meets `key`, and a certificate's signature on the way does not verify */
	AUTHVAR_CHAIN_NOT_CA,        /* it meets `key` through an issuer that is not a CA */
	AUTHVAR_UNKNOWN_TYPE,        /* it verifies; a list's type is one the firmware does not know */
	AUTHVAR_BAD_CERT, /* it verifies; an EFI_CERT_X509 list's first entry is no certificate with an RSA key */
	AUTHVAR_SEVERAL_SIGNERS, /* more than one SignerInfo: not checked */
	AUTHVAR_PK_SEVERAL,      /* PK: its lists hold more than one signature (CheckSignatureListFormat) */
} authvar_result;

typedef struct authvar_check {
	authvar_result result;
	char signer[SBAT_AUTHENTICODE_NAME_MAX]; /* the signer certificate's subject; "" when it is not there */
	char key[SBAT_AUTHENTICODE_NAME_MAX];    /* the machine's certificate it reaches (or meets) */
	int by_pk;                               /* that certificate is PK's */
	size_t payload_offset;                   /* the signature lists start at buf + payload_offset */
	size_t entries;                          /* the signatures of its lists */
} authvar_check;

/*
 * Check buf[0..len), an update of `var` ("db", "dbx", "KEK" or "PK"), as EDK2's
 * AuthVariableLib checks SetVariable(var, AUTHVAR_ATTRIBUTES) in user
 * mode (ProcessVarWithPk, then ProcessVarWithKek for db and dbx;
 * VerifyTimeBasedPayload; Pkcs7Verify):
 *  - the EFI_TIME's Pad1, Nanosecond, TimeZone, Daylight and Pad2 are
 *    zero; the SignedData's bytes 1 and 13 are a two-byte length and the
 *    SHA-256 OID (EDK2 reads the digest algorithm there); a SignedData
 *    without its ContentInfo (EDK2's WrapPkcs7Data adds one with 16-bit
 *    lengths) fits that;
 *  - the signed data is the name (UTF-16, no NUL), the vendor GUID, the
 *    attributes, the EFI_TIME and the lists; the SignerInfo verifies over
 *    it (detached content);
 *  - PK (a PK update signed over AUTHVAR_PK_ATTRIBUTES, ProcessVarWithPk's
 *    AuthVarTypePk): the signer's certificate is PK's first entry, byte
 *    for byte (no chain); else, for db and dbx, each EFI_CERT_X509 entry of KEK in
 *    turn, reached as OpenSSL's X509_verify_cert with a partial chain
 *    reaches a trusted certificate (chain.h);
 *  - the lists then pass CheckSignatureListFormat: a known type each, and
 *    the first entry of an EFI_CERT_X509 list a certificate with an RSA
 *    key; a PK update holds at most one signature (PK_SEVERAL).
 * pk and kek may be NULL (empty). A buffer without an authentication
 * descriptor is NOT_AUTHENTICATED (payload_offset 0). A descriptor, DER
 * or list that does not read fails (SBAT_E_EFIVAR, SBAT_E_SIGNATURE) with
 * the offset in buf; a var other than the four, SBAT_E_EFIVAR.
 */
sbat_err authvar_check_update(const uint8_t *buf, size_t len, const char *var, const sbat_sigdb *pk,
                              const sbat_sigdb *kek, authvar_check *ret, sbat_diag *d);

#endif
