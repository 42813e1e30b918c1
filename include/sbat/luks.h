/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luks.h - a LUKS2 header's systemd-tpm2 tokens, and whether the TPM will unseal them with given PCR values */
#ifndef SBAT_LUKS_H
#define SBAT_LUKS_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The LUKS2 on-disk format (cryptsetup's LUKS2 specification): a 4096-byte
 * binary header at 0 (magic "LUKS\xba\xbe", version 2, hdr_size, seqid,
 * label, checksum_alg, salt, uuid, subsystem, hdr_offset, checksum; all
 * numbers big-endian) followed by the JSON area, hdr_size bytes in all; a
 * second copy (magic "SKUL\xba\xbe") at hdr_size. hdr_size is 16 KiB to
 * 4 MiB, a power of two. Each copy's checksum is checked as cryptsetup
 * does: checksum_alg (sha1, sha256, sha384, sha512) over its hdr_size
 * bytes with the checksum field zeroed. The copy used is the valid one
 * with the higher seqid (the primary when equal); with a damaged primary,
 * the secondary is looked for at each offset it may have.
 *
 * The JSON area is read by a bounded reader: at most
 * SBAT_LUKS_JSON_MAX_DEPTH levels of nesting, SBAT_LUKS_JSON_MAX_NODES
 * values and SBAT_LUKS_JSON_MAX_STRING bytes a string; the JSON text must
 * end in NUL bytes within the area. A malformed header fails as a whole with
 * SBAT_E_LUKS: `what` names the check, `offset` the byte of the device or
 * file where it fired.
 *
 * Of the tokens, those of type "systemd-tpm2" are read as
 * systemd-cryptenroll writes them: tpm2-pcrs (the PCRs whose values the
 * policy holds), tpm2-pcr-bank ("sha1", "sha256", "sha384", "sha512";
 * absent: sha256, as systemd chose before it wrote the field),
 * tpm2-policy-hash (hex, or an array of hex strings), tpm2-pin,
 * tpm2_pcrlock, tpm2_pubkey and tpm2_pubkey_pcrs (a signed policy).
 */

/* A file or device whose first bytes are not a LUKS2 header is SBAT_E_LUKS, "not a LUKS2 header". */

/* Bounds of the JSON reader. */
#define SBAT_LUKS_JSON_MAX_DEPTH 32
#define SBAT_LUKS_JSON_MAX_NODES 65536
#define SBAT_LUKS_JSON_MAX_STRING 65536

/* LUKS2 holds tokens 0 to 31. */
#define SBAT_LUKS_MAX_TOKENS 32
/* The most policy hashes one token may list; the PCRs of a TPM; the largest PCR value. */
#define SBAT_LUKS_MAX_POLICY_HASHES 8
#define SBAT_LUKS_PCRS 24
#define SBAT_LUKS_MAX_DIGEST 64

/* A parsed header: opaque, freed by sbat_luks_free. */
typedef struct sbat_luks sbat_luks;

/* The header as read (a record: it belongs to the sbat_luks it was read from). */
typedef struct sbat_luks_header {
	uint64_t hdr_size;     /* of the copy used */
	uint64_t seqid;        /* of the copy used */
	uint64_t copy_offset;  /* 0: the primary copy; else the secondary's offset */
	int other_valid;       /* 1: the other copy is valid too */
	const char *other_why; /* when it is not: why (static) */
	char label[49];
	char subsystem[49];
	char uuid[41];
	char checksum_alg[33];
	size_t n_tokens; /* tokens of every type */
} sbat_luks_header;

/* One systemd-tpm2 token (a record: it belongs to the sbat_luks it was read from). */
typedef struct sbat_luks_tpm2 {
	unsigned token;  /* its number in the header's "tokens" */
	uint64_t offset; /* of its JSON object in the file or device */
	uint32_t pcrs;   /* bit N: tpm2-pcrs holds PCR N */
	uint16_t bank;   /* TPM_ALG_ID of tpm2-pcr-bank */
	int bank_given;  /* 0: the token has no tpm2-pcr-bank (sha256 assumed) */
	size_t n_policy_hashes;
	size_t policy_hash_size[SBAT_LUKS_MAX_POLICY_HASHES];
	uint8_t policy_hash[SBAT_LUKS_MAX_POLICY_HASHES][SBAT_LUKS_MAX_DIGEST];
	int pin;              /* tpm2-pin: the policy holds PolicyAuthValue */
	int pcrlock;          /* tpm2_pcrlock: the policy is systemd-pcrlock's, in an NV index */
	int pubkey;           /* tpm2_pubkey: a signed policy (PolicyAuthorize) */
	uint32_t pubkey_pcrs; /* tpm2_pubkey_pcrs: the PCRs the signed policy covers */
	size_t n_keyslots;    /* the keyslots the token unlocks */
} sbat_luks_tpm2;

/* Parse buf[0..len) (the start of a device or image: both copies) into a new *ret; NULL on failure. */
SBAT_API sbat_err sbat_luks_parse(const uint8_t *buf, size_t len, sbat_luks **ret, sbat_diag *reterr);

/*
 * Read the header of the block device or file at path (what both copies
 * need, at most 8 MiB) and parse it. A read that fails is SBAT_E_IO.
 */
SBAT_API sbat_err sbat_luks_read(const char *path, sbat_luks **ret, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_luks_free(sbat_luks *luks);

SBAT_API const sbat_luks_header *sbat_luks_header_get(const sbat_luks *luks);

/* The systemd-tpm2 tokens, by token number. */
SBAT_API size_t sbat_luks_tpm2_count(const sbat_luks *luks);
SBAT_API const sbat_luks_tpm2 *sbat_luks_tpm2_at(const sbat_luks *luks, size_t i);

/* PCR values of one bank, filled by the caller (a row, fixed for the life of the soname). */
typedef struct sbat_luks_pcrs {
	uint16_t bank;  /* TPM_ALG_ID */
	uint32_t known; /* bit N: value[N] holds PCR N (the bank's digest size) */
	uint8_t value[SBAT_LUKS_PCRS][SBAT_LUKS_MAX_DIGEST];
} sbat_luks_pcrs;

typedef enum sbat_luks_verdict {
	SBAT_LUKS_UNLOCKS = 0,     /* the policy these values make is the token's */
	SBAT_LUKS_WILL_NOT_UNLOCK, /* it is not */
	SBAT_LUKS_CANNOT_TELL,     /* see sbat_luks_why */
	SBAT__LUKS_VERDICT_MAX
} sbat_luks_verdict;

typedef enum sbat_luks_why {
	SBAT_LUKS_WHY_NONE = 0,
	SBAT_LUKS_WHY_SIGNED,      /* a signed policy (tpm2_pubkey): it depends on a signature this library has not */
	SBAT_LUKS_WHY_PCRLOCK,     /* a systemd-pcrlock policy, kept in the TPM's NV index */
	SBAT_LUKS_WHY_PCR_UNKNOWN, /* a PCR the policy holds has no value (unknown: the mask) */
	SBAT_LUKS_WHY_POLICY_HASH, /* no policy hash, or none of SHA-256's size */
	SBAT__LUKS_WHY_MAX
} sbat_luks_why;

/* What sbat_luks_judge says (a row, fixed for the life of the soname; the caller allocates it). */
typedef struct sbat_luks_judgement {
	sbat_luks_verdict verdict;
	sbat_luks_why why;
	uint32_t unknown; /* SBAT_LUKS_WHY_PCR_UNKNOWN: the PCRs with no value (all of the token's: another bank) */
	int computed;     /* 1: digest holds the policy the values make */
	uint8_t digest[32];
} sbat_luks_judgement;

/*
 * Make the policy digest a systemd-tpm2 token's unsealing session reaches
 * with the PCR values of pcrs, as systemd builds it: 32 zero bytes, then,
 * when the token holds PCRs, TPM2_PolicyPCR (the digest becomes SHA-256 of
 * itself, TPM_CC_PolicyPCR, the TPML_PCR_SELECTION of the token's bank and
 * PCRs, and SHA-256 of the PCR values in index order), then, with a PIN,
 * TPM2_PolicyAuthValue (SHA-256 of itself and TPM_CC_PolicyAuthValue); and
 * hold it against the token's tpm2-policy-hash (any of them).
 */
SBAT_API void sbat_luks_judge(const sbat_luks_tpm2 *token, const sbat_luks_pcrs *pcrs, sbat_luks_judgement *ret);

/* "will unlock", "will not unlock", "cannot tell". */
SBAT_API const char *sbat_luks_verdict_name(sbat_luks_verdict verdict);

/* "", "a signed policy (tpm2_pubkey)", "a systemd-pcrlock policy", "a PCR value is unknown", ... */
SBAT_API const char *sbat_luks_why_name(sbat_luks_why why);

/* "sha1", "sha256", "sha384", "sha512", or NULL. */
SBAT_API const char *sbat_luks_bank_name(uint16_t bank);

/* The size of a bank's digests: 20, 32, 48, 64; 0 for another. */
SBAT_API size_t sbat_luks_bank_size(uint16_t bank);

#ifdef __cplusplus
}
#endif

#endif
