/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigverify.h - will the firmware or shim accept an image's signatures: db, dbx, MokList, shim's vendor keys */
#ifndef SBAT_SIGVERIFY_H
#define SBAT_SIGVERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "authenticode.h"
#include "error.h"
#include "image.h"
#include "judge.h"
#include "sigdb.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The signature gate of a Secure Boot path, judged from the databases the
 * caller loaded (sigdb.h) and the image's certificate table
 * (authenticode.h), by one of two rules:
 *
 * SBAT_SIGVERIFY_FIRMWARE, EDK2's DxeImageVerificationLib
 * (DxeImageVerificationHandler, IsForbiddenByDbx, IsAllowedByDb):
 *  - an unsigned image: its hash by each algorithm EDK2 has (SHA-1,
 *    SHA-256, SHA-384, SHA-512: EFI_CERT_SHA1, _SHA256, _SHA384, _SHA512
 *    entries) in dbx is refused, in db accepted, else refused;
 *  - a signed one: each WIN_CERTIFICATE's signature in table order (a
 *    signature nested in another is not read), the image hashed by the
 *    algorithm HashPeImageByType takes: the OID at offset 32 of the
 *    entry's data, where a ContentInfo with two-byte lengths holds the
 *    SignedData's first digestAlgorithms entry, not the
 *    SpcIndirectDataContent's DigestInfo. A signature it finds no SHA-1,
 *    SHA-256, SHA-384 or SHA-512 for (SHA-224, another OID, a byte 1
 *    without the bits 0x82) is passed over; one whose
 *    SpcIndirectDataContent does not end in the image's hash by that
 *    algorithm (AuthenticodeVerify compares its last bytes) reaches no
 *    certificate. Refused as soon as one is forbidden, whatever the
 *    others: its chain reaches an EFI_CERT_X509 certificate of dbx, its
 *    signer certificate's TBS hash is an EFI_CERT_X509_SHA256, _SHA384 or
 *    _SHA512 entry of dbx, or the image hash by that algorithm is in dbx;
 *    otherwise accepted when a signature's chain reaches an EFI_CERT_X509
 *    certificate of db whose TBS hash dbx does not hold, or the image
 *    hash by its algorithm is in db; else refused. A TBS hash entry
 *    revokes from its time on: a zero time, or a dbt without certificates,
 *    revokes for certain (EDK2's PassTimestampCheck fails); else a
 *    signature timestamped before that time by an authority of dbt passes,
 *    which is not checked here: the verdict is unknown
 *    (TIMESTAMP_NOT_CHECKED) and `timestamps_ignored` says so;
 *  - the table walked as EDK2 walks it: at a trailing area of 8 bytes or
 *    less, a dwLength past the table or without its padding to 8 bytes, a
 *    PKCS_SIGNED_DATA entry's dwLength of 8 or less, an EFI_GUID one's of
 *    24 or less, another's under 8, the walk stops: refused
 *    (TABLE_UNPADDED, TABLE_CORRUPT), unless a signature before it was
 *    forbidden.
 *
 * SBAT_SIGVERIFY_SHIM, shim 16.1 (verify.c verify_buffer_authenticode,
 * check_denylist, check_allowlist, verify_one_signature), the same for
 * what shim starts itself and what it checks for a loader through its
 * protocol:
 *  - the image hash (shim's rule, SBAT_AUTHENTICODE_SHIM; its SHA-256,
 *    and its SHA-1 against the EFI_CERT_SHA1 entries of the vendor dbx,
 *    dbx and db, as check_denylist and check_allowlist read them) in the
 *    vendor dbx, dbx or MokListX: refused; a buffer its loader protocol
 *    takes from a section of an image it verified (parent_verified, a
 *    UKI's): accepted; the hash in db (unless MokIgnoreDB), the vendor db
 *    or MokList: accepted; unsigned: refused;
 *  - then each WIN_CERTIFICATE's signature: forbidden when its chain
 *    reaches an EFI_CERT_X509 certificate of the vendor dbx, dbx or
 *    MokListX (shim reads no EFI_CERT_X509_SHA256 entry); else allowed
 *    when it reaches one of db (unless MokIgnoreDB), the vendor db,
 *    MokList, or the vendor certificate. Of the lists' certificates shim
 *    tries only the first of each EFI_CERT_X509 list
 *    (check_db_cert_in_ram), and only a DER certificate whose length takes
 *    two bytes and fills the entry (verify_x509) and whose
 *    extendedKeyUsage is not module signing only (verify_eku); the vendor
 *    certificate is not filtered.
 *    One allowed signature accepts the image even when another is
 *    forbidden (shim keeps the first success). shim hashes the image by
 *    SHA-256 and SHA-1 alone and compares each signature's digest with
 *    the SHA-256: a signature naming another digest (SHA-1, SHA-384,
 *    SHA-512) reaches nothing, neither allowed nor forbidden
 *    (SIG_NOT_COMPUTED), and EFI_CERT_SHA384 and _SHA512 entries are not
 *    read;
 *  - the table walked as shim walks it, after the hashes: an entry whose
 *    12-byte WIN_CERTIFICATE_EFI_PKCS runs past the file, or whose
 *    dwLength runs past the table or is under 8, makes it return an error:
 *    refused (TABLE_CORRUPT), whatever the signatures before it.
 *
 * A chain is built from the signature's own certificates: the signer's
 * (issuer and serial of its SignerInfo), then the certificate whose
 * subject is the last one's issuer (the key identifiers, where both are
 * present, must agree), up to a self-issued one. A database certificate is
 * reached when it is a certificate of the chain (the same DER) or the
 * issuer of one (its subject and key identifier), as OpenSSL verifies
 * with a partial chain and no time check, as both do. A signature whose
 * digest is not the image's hash reaches nothing.
 *
 * Each signature is verified as OpenSSL's PKCS7_verify and
 * X509_verify_cert verify it for both: its SignerInfo (messageDigest and
 * RSA signature, sbat_authenticode_sig.signature_verifies), each
 * certificate of the chain under the database certificate by its issuer's
 * key and that one by the database certificate's, each issuer a CA
 * (X509_check_ca). One that does not verify reaches nothing, neither db
 * nor dbx: the state SIG_BAD_SIGNATURE (SIG_NOT_CA), and the verdict
 * BAD_SIGNATURE (NOT_CA) when nothing else accepts the image. A
 * SignerInfo whose digestAlgorithm the SignedData's digestAlgorithms do
 * not name does not verify (PKCS7_signatureVerify finds no digest).
 * `assumes_valid` is always 0.
 *
 * NOT CHECKED: a digestAlgorithms entry OpenSSL knows no digest for
 * (PKCS7_dataInit would fail), shim's build certificate, and EDK2's dbt.
 */

/* Which reader's rule. */
typedef enum sbat_sigverify_rule {
	SBAT_SIGVERIFY_FIRMWARE = 0, /* EDK2's image verification, as the firmware starts shim or a loader */
	SBAT_SIGVERIFY_SHIM,         /* shim 16.1: what it starts, and what it verifies for a loader */
} sbat_sigverify_rule;

/* Whether Secure Boot checks anything in the boot judged. */
typedef enum sbat_sigverify_mode {
	SBAT_SIGVERIFY_ENFORCING = 0, /* Secure Boot on, user mode */
	SBAT_SIGVERIFY_NOT_ENFORCING, /* Secure Boot off, or setup mode: nothing is checked */
	SBAT_SIGVERIFY_MODE_UNKNOWN,  /* not known */
} sbat_sigverify_mode;

/* The database an entry came from. Values are ABI: new ones go at the end. */
typedef enum sbat_sigverify_db {
	SBAT_SIGVERIFY_DB_NONE = 0,
	SBAT_SIGVERIFY_DB,          /* db */
	SBAT_SIGVERIFY_DBX,         /* dbx */
	SBAT_SIGVERIFY_MOK,         /* MokListRT */
	SBAT_SIGVERIFY_MOKX,        /* MokListXRT */
	SBAT_SIGVERIFY_VENDOR_DB,   /* shim's built-in vendor db */
	SBAT_SIGVERIFY_VENDOR_DBX,  /* shim's built-in vendor dbx */
	SBAT_SIGVERIFY_VENDOR_CERT, /* shim's built-in vendor certificate */
} sbat_sigverify_db;

/* Why. Values are ABI: new ones go at the end. */
typedef enum sbat_sigverify_reason {
	SBAT_SIGVERIFY_NOT_ENFORCED = 0,    /* boots: Secure Boot off or setup mode */
	SBAT_SIGVERIFY_CERT_ALLOWED,        /* boots: a signature's chain reaches a certificate of `db` */
	SBAT_SIGVERIFY_HASH_ALLOWED,        /* boots: the image hash is an entry of `db` */
	SBAT_SIGVERIFY_HASH_FORBIDDEN,      /* refused: the image hash is an entry of `db` */
	SBAT_SIGVERIFY_CERT_FORBIDDEN,      /* refused: a signature's chain reaches a certificate of `db` */
	SBAT_SIGVERIFY_CERT_HASH_FORBIDDEN, /* refused: the signer certificate's TBS SHA-256 is in dbx (firmware) */
	SBAT_SIGVERIFY_SIGNER_MISSING,      /* refused: dbx is set and a signature lacks its signer's certificate */
	SBAT_SIGVERIFY_NOT_ALLOWED,         /* refused: no signature reaches an allowed certificate, no hash allowed */
	SBAT_SIGVERIFY_SECURE_BOOT_UNKNOWN, /* unknown: whether Secure Boot is on is not known */
	SBAT_SIGVERIFY_DIGEST_NOT_COMPUTED, /* unknown: a signature names a digest not computed (not given since 0.4:
	                                       EDK2 passes such a signature over, shim finds it does not match) */
	SBAT_SIGVERIFY_PARENT_VERIFIED,     /* boots (shim): a part of an image shim verified, its hash not forbidden */
	SBAT_SIGVERIFY_TIMESTAMP_NOT_CHECKED, /* unknown: dbx revokes a certificate from a time, and dbt could
	                                         let a signature timestamped before it pass: not checked */
	SBAT_SIGVERIFY_BAD_SIGNATURE,  /* refused: a signature does not verify (its SignerInfo, or a certificate's
	                                 signature on the way to a trusted one): `sig`, `cert`, `subject` */
	SBAT_SIGVERIFY_NOT_CA,         /* refused: a certificate that issues another on the way is not a CA */
	SBAT_SIGVERIFY_INSECURE_MODE,  /* boots (shim): shim runs in insecure mode (MokSBState): nothing is checked */
	SBAT_SIGVERIFY_NX_REQUIRED,    /* refused (shim): MokPolicy requires NX compatibility, which the image lacks */
	SBAT_SIGVERIFY_TABLE_UNPADDED, /* refused (firmware): the certificate table's last entry is not padded to 8
	                                  bytes, so EDK2's walk of the table stops short of its end */
	SBAT_SIGVERIFY_TABLE_CORRUPT,  /* refused: the loader's walk of the certificate table gives up at an entry
	                                  (`table_problem`): EDK2 stops short of its end, shim returns an error */
	SBAT_SIGVERIFY_DB_IGNORED,     /* refused (shim): only db allows it (`db`, `entry`; `sig` when a signature
	                                  does), and MokIgnoreDB tells shim to ignore db */
	SBAT_SIGVERIFY_CERT_NOT_FIRST, /* refused (shim): a signature chains only to a certificate that is not the
	                                  first of its EFI_CERT_X509 list (`db`, `entry`, `sig`, `subject`), and
	                                  shim tries the first of each list only */
} sbat_sigverify_reason;

/* What became of one signature. Values are ABI: new ones go at the end. */
typedef enum sbat_sigverify_state {
	SBAT_SIGVERIFY_SIG_ALLOWED = 0,   /* its chain reaches an allowed certificate */
	SBAT_SIGVERIFY_SIG_FORBIDDEN,     /* it is forbidden (see `db`, `entry`) */
	SBAT_SIGVERIFY_SIG_NOT_ALLOWED,   /* neither */
	SBAT_SIGVERIFY_SIG_STALE,         /* its digest is not the image's hash: it verifies against nothing */
	SBAT_SIGVERIFY_SIG_NOT_COMPUTED,  /* the rule does not hash with its digest (shim: a DigestInfo of other
	                                     than SHA-256; firmware: HashPeImageByType finds no SHA-1, SHA-256,
	                                     SHA-384 or SHA-512 at its fixed offset, and EDK2 passes it over) */
	SBAT_SIGVERIFY_SIG_NESTED,        /* nested in another signature: neither EDK2 nor shim reads it */
	SBAT_SIGVERIFY_SIG_NOT_REACHED,   /* the firmware stopped at a forbidden signature or hash before it */
	SBAT_SIGVERIFY_SIG_REVOKED_ROOT,  /* firmware: it reaches a db certificate whose TBS SHA-256 is in dbx */
	SBAT_SIGVERIFY_SIG_BAD_SIGNATURE, /* it does not verify: its SignerInfo (its messageDigest or signature), or
	                                     the signature of the certificate `cert` of its chain */
	SBAT_SIGVERIFY_SIG_NOT_CA,        /* its chain meets an allowed or forbidden certificate through an issuer
	                                     (`cert`; -1: the database's) that is not a CA */
} sbat_sigverify_state;

/*
 * One signature of the image, in the order of the sbat_authenticode's
 * sigs (same index). Fixed for the life of the soname.
 */
typedef struct sbat_sigverify_sig {
	sbat_sigverify_state state;
	sbat_sigverify_db db;          /* the database that allowed or forbade it; NONE otherwise */
	const sbat_sigdb_entry *entry; /* that entry; NULL for the vendor certificate or none */
	int cert;                      /* the certificate (index in its certs) matched; -1: the entry is its issuer */
	const int *chain;              /* the chain: indexes in its certs, the signer's first */
	size_t n_chain;                /* 0 when the signer's certificate is not among them */
} sbat_sigverify_sig;

/*
 * The options. The caller allocates them (the stack is fine): set by
 * SBAT_SIGVERIFY_OPTS_INIT or sbat_sigverify_opts_init, then the fields
 * wanted. A database left NULL is an absent one (as the firmware treats a
 * missing variable: nothing in it); a caller that could not read one says
 * "unknown" itself. The databases are borrowed.
 */
typedef struct sbat_sigverify_opts {
	size_t size; /* sizeof, written by the initialisers */
	sbat_sigverify_rule rule;
	sbat_sigverify_mode mode;
	const sbat_sigdb *db;
	const sbat_sigdb *dbx;
	const sbat_sigdb *mok;        /* shim: MokListRT */
	const sbat_sigdb *mokx;       /* shim: MokListXRT */
	const sbat_sigdb *vendor_db;  /* shim: its vendor db, when built with one */
	const sbat_sigdb *vendor_dbx; /* shim: its vendor dbx */
	const uint8_t *vendor_cert;   /* shim: its vendor certificate (DER), when built with one */
	size_t vendor_cert_len;
	int ignore_db;       /* shim: MokIgnoreDB is set, db is not used to allow */
	int parent_verified; /* shim: its loader protocol loads a section of an image it verified: hash denylist only */
	const sbat_sigdb *dbt; /* firmware: dbt, the timestamping authorities; NULL: none */
	int dbt_unknown;       /* firmware: dbt could not be read */
	int fd; /* >= 0: the file img's buffer maps, hashed through a small buffer (its pages stay out); -1: the buffer */
} sbat_sigverify_opts;

#define SBAT_SIGVERIFY_OPTS_INIT                                                                                       \
	{                                                                                                              \
		sizeof(sbat_sigverify_opts), SBAT_SIGVERIFY_FIRMWARE, SBAT_SIGVERIFY_ENFORCING, NULL, NULL, NULL,      \
		    NULL, NULL, NULL, NULL, 0, 0, 0, NULL, 0, -1                                                       \
	}

/* Fill *o with the defaults (firmware, Secure Boot on, no databases). */
SBAT_API void sbat_sigverify_opts_init(sbat_sigverify_opts *o);

/*
 * The verdict. Allocated by sbat_sigverify_image, freed by
 * sbat_sigverify_free; fields may be added at the end (never allocate one
 * or use its size). What decided is data: the reason, the database and
 * its entry, the signature and certificate, and that certificate's
 * subject, for the caller to say "signed by CN=..., which dbx forbids".
 */
typedef struct sbat_sigverify {
	sbat_verdict verdict; /* SBAT_VERDICT_BOOTS, _REFUSED or _UNKNOWN */
	sbat_sigverify_reason reason;
	sbat_sigverify_db db;          /* the database that decided; NONE for NOT_ENFORCED, NOT_ALLOWED, unknown */
	const sbat_sigdb_entry *entry; /* its entry; NULL for the vendor certificate, a missing signer, or none */
	int sig;                       /* the signature that decided (index in signatures->sigs), -1: none, by hash */
	int cert;                      /* the certificate in that signature's certs, -1: the entry is above its chain */
	char subject
	    [SBAT_AUTHENTICODE_NAME_MAX]; /* the deciding certificate's subject (the entry's when above), or "" */
	int assumes_valid;      /* 0: every signature a verdict rests on is verified (before 0.3: 1 when it was not) */
	int timestamps_ignored; /* 1: unknown: an EFI_CERT_X509_SHA256's revocation time would be compared (dbt) */
	uint8_t image_hash[SBAT_AUTHENTICODE_SHA256_SIZE]; /* the SHA-256 the rule compares (HASH_*: `entry`'s
	                                                      type says by which algorithm) */
	const sbat_authenticode *signatures;               /* the image's certificate table, as read */
	size_t n_sigs;                                     /* signatures->n_sigs */
	const sbat_sigverify_sig *sigs;                    /* what became of each */
	/* 1: decided by an EFI_CERT_SHA1 entry, the image's Authenticode SHA-1 (shim reads those in dbx and db) */
	int hash_sha1;
	/* HASH_ALLOWED, HASH_FORBIDDEN: the algorithm of the image hash that decided (SHA-1 to SHA-512); else 0 */
	sbat_digest_alg hash_alg;
	/* TABLE_CORRUPT, TABLE_UNPADDED: where the loader's walk of the certificate table gave up, and why (static) */
	const char *table_problem;
	uint64_t table_problem_offset;
	/* fields may be added at the end */
} sbat_sigverify;

/*
 * Judge img's signatures by opts (NULL: the defaults). Returns SBAT_OK
 * with *ret set whatever the verdict (a refusal is a verdict, never an
 * error); fails, *ret NULL, when the certificate table does not read (as
 * sbat_authenticode_parse), shim's hash cannot be computed (a certificate
 * table that does not end the file), or opts has a size this library
 * does not know (SBAT_E_ABI). The result points into img's buffer and
 * the databases of opts (its entries): free it before them.
 */
SBAT_API sbat_err sbat_sigverify_image(const sbat_image *img, const sbat_sigverify_opts *opts, sbat_sigverify **ret,
                                       sbat_diag *reterr);

/*
 * shim's built-in keys into o, read from its .vendor_cert section as shim
 * 16.1 reads it (cert.S, shim.c): a table of four little-endian 32-bit
 * words, the sizes of the authorized and deauthorized parts, then their
 * offsets from the table's start, each part inside the section. An
 * authorized part that is one DER certificate (0x30 0x82 and the length,
 * as shim's verify_x509 takes one) is the vendor certificate
 * (o->vendor_cert points into shim's buffer); other authorized bytes are a
 * vendor db, read as signature lists into a new database, *ret_vendor_db
 * (o->vendor_db); the deauthorized part the same into *ret_vendor_dbx
 * (o->vendor_dbx). The caller frees both with sbat_sigdb_free, after the
 * verdicts that use o; they are NULL when there is no such part. A shim
 * without the section leaves o as it is. A table that does not fit fails
 * with SBAT_E_SIGNATURE (other_name ".vendor_cert", the section's
 * offset), a malformed list as sbat_sigdb_append does; o's vendor fields
 * are then cleared.
 */
SBAT_API sbat_err sbat_sigverify_read_vendor(const sbat_image *shim, sbat_sigverify_opts *o, sbat_sigdb **ret_vendor_db,
                                             sbat_sigdb **ret_vendor_dbx, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_sigverify_free(sbat_sigverify *v);

/* Short static names for reports: "not-enforced", "cert-allowed", ...; "db", "dbx", "MokListRT", ...; "allowed", ... */
SBAT_API const char *sbat_sigverify_reason_name(sbat_sigverify_reason reason);
SBAT_API const char *sbat_sigverify_db_name(sbat_sigverify_db db);
SBAT_API const char *sbat_sigverify_state_name(sbat_sigverify_state state);

#ifdef __cplusplus
}
#endif

#endif
