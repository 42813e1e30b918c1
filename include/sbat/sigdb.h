/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigdb.h - UEFI signature databases (db, dbx, KEK, PK, shim's MokListRT): read, checked, and searched */
#ifndef SBAT_SIGDB_H
#define SBAT_SIGDB_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A signature database is what the firmware keeps in db, dbx, KEK and PK,
 * and shim in MokList and MokListX: EFI_SIGNATURE_LISTs (UEFI 2.10, 32.4.1)
 * one after the other, each a 28-byte header (SignatureType GUID,
 * SignatureListSize, SignatureHeaderSize, SignatureSize), a header of
 * SignatureHeaderSize bytes, then entries of SignatureSize bytes: the
 * SignatureOwner GUID and the signature data.
 *
 * The library reads them with every size checked and keeps their entries
 * in a set (sbat_sigdb) to search. It verifies nothing: no signature of an
 * authenticated update is checked, no certificate parsed, and nothing is
 * hashed (a lookup takes the hash the caller made).
 *
 * A malformed list fails the whole buffer (nothing of it is added), with
 * SBAT_E_EFIVAR and a diagnostic: `what` names the check, `offset` is the
 * byte offset in the buffer or file as given (an efivarfs file's offsets
 * count its 4 attribute bytes), `line` is the list (1-based), `field` the
 * entry in it (1-based; 0: the list's header), and `other_name` the source
 * (the variable or file name given; other_index -1).
 */

/* The signature types of UEFI 2.10 (32.4.1), and any other. */
typedef enum sbat_sig_type {
	SBAT_SIG_UNKNOWN = 0,    /* a SignatureType this library does not know: kept, listed, never matched */
	SBAT_SIG_SHA256,         /* EFI_CERT_SHA256_GUID: an image's Authenticode SHA-256 (32 bytes) */
	SBAT_SIG_RSA2048,        /* EFI_CERT_RSA2048_GUID: an RSA-2048 modulus (256 bytes) */
	SBAT_SIG_RSA2048_SHA256, /* EFI_CERT_RSA2048_SHA256_GUID: an RSA-2048 signature of a SHA-256 (256 bytes) */
	SBAT_SIG_SHA1,           /* EFI_CERT_SHA1_GUID (20 bytes) */
	SBAT_SIG_RSA2048_SHA1,   /* EFI_CERT_RSA2048_SHA1_GUID (256 bytes) */
	SBAT_SIG_X509,           /* EFI_CERT_X509_GUID: a DER certificate (any size) */
	SBAT_SIG_SHA224,         /* EFI_CERT_SHA224_GUID (28 bytes) */
	SBAT_SIG_SHA384,         /* EFI_CERT_SHA384_GUID (48 bytes) */
	SBAT_SIG_SHA512,         /* EFI_CERT_SHA512_GUID (64 bytes) */
	SBAT_SIG_X509_SHA256,    /* EFI_CERT_X509_SHA256_GUID: a certificate's TBS SHA-256, then an EFI_TIME (48) */
	SBAT_SIG_X509_SHA384,    /* EFI_CERT_X509_SHA384_GUID: the same with SHA-384 (64 bytes) */
	SBAT_SIG_X509_SHA512,    /* EFI_CERT_X509_SHA512_GUID: the same with SHA-512 (80 bytes) */
	SBAT__SIG_MAX
} sbat_sig_type;

/*
 * The GUIDs efivarfs names the variables by (its files are NAME-GUID):
 * db and dbx under the image security database's, KEK and PK under the
 * global variables', MokListRT and MokListXRT under shim's.
 */
#define SBAT_SIGDB_GUID_SECURITY_DB "d719b2cb-3d3a-4596-a3bc-dad00e67656f"
#define SBAT_SIGDB_GUID_GLOBAL "8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define SBAT_SIGDB_GUID_SHIM "605dab50-e046-4300-abb6-3dd810dd8b23"

/* Largest variable or file the loaders below read (bytes). */
#define SBAT_SIGDB_MAX_FILE (1024u * 1024u)

/*
 * One entry. Fixed for the life of the soname. Its pointers are the
 * database's: they stay valid until sbat_sigdb_free (appending more
 * entries does not move them).
 */
typedef struct sbat_sigdb_entry {
	sbat_sig_type type;
	uint8_t type_guid[16]; /* SignatureType, as stored (little-endian fields) */
	uint8_t owner[16];     /* SignatureOwner, as stored */
	const uint8_t *data;   /* the signature data: SignatureSize - 16 bytes */
	size_t data_len;
	const char *source; /* the variable or file name it was read from */
	size_t list;        /* its list in that source, 0-based */
	uint64_t offset;    /* its offset (the owner GUID's) in the source as given */
} sbat_sigdb_entry;

/* A set of entries: opaque, made by sbat_sigdb_new, freed by sbat_sigdb_free. */
typedef struct sbat_sigdb sbat_sigdb;

/* A new empty database. */
SBAT_API sbat_err sbat_sigdb_new(sbat_sigdb **ret, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_sigdb_free(sbat_sigdb *db);

/*
 * Add the entries of buf[0..len), EFI_SIGNATURE_LISTs one after the other
 * (a variable's data, without efivarfs' attribute bytes), naming them by
 * `source`. The buffer is copied. An entry equal to one the database holds
 * (same SignatureType, owner and data) is not added again, as a UEFI
 * append write does not add it; len 0 adds nothing. A known type must have
 * its size (EFI_CERT_SHA256_GUID: SignatureSize 48) and SignatureHeaderSize
 * 0; an unknown type is kept whatever its sizes, if they add up. On a
 * malformed list (see above) nothing of buf is added.
 */
SBAT_API sbat_err sbat_sigdb_append(sbat_sigdb *db, const uint8_t *buf, size_t len, const char *source,
                                    sbat_diag *reterr);

/*
 * The same for an authenticated variable update as Microsoft's DBX and DB
 * updates and the LVFS ship them: an EFI_VARIABLE_AUTHENTICATION_2 (a
 * 16-byte EFI_TIME, then a WIN_CERTIFICATE_UEFI_GUID of type
 * EFI_CERT_TYPE_PKCS7_GUID whose dwLength covers its 24-byte header and
 * the signature) is skipped, NOT verified, and the lists after it appended
 * as by sbat_sigdb_append (diagnostic offsets count from the start of
 * buf). A buffer that does not start with one is taken as plain lists.
 */
SBAT_API sbat_err sbat_sigdb_append_update(sbat_sigdb *db, const uint8_t *buf, size_t len, const char *source,
                                           sbat_diag *reterr);

/* What a load found. */
typedef enum sbat_sigdb_var {
	SBAT_SIGDB_VAR_MISSING = 0, /* no such variable or file: what it holds is not known */
	SBAT_SIGDB_VAR_EMPTY,       /* there, without a list (no data, or an empty file) */
	SBAT_SIGDB_VAR_LOADED,      /* there, and its lists appended */
} sbat_sigdb_var;

/*
 * Read the UEFI variable `name` of vendor `guid` (lowercase text, as
 * efivarfs names it) from dir (/sys/firmware/efi/efivars), the file
 * NAME-GUID: 4 attribute bytes, then the data, appended as by
 * sbat_sigdb_append with source `name`. The file is opened without
 * following a symbolic link (SBAT_E_NOT_REGULAR), must be a regular file
 * (SBAT_E_NOT_REGULAR) of at most SBAT_SIGDB_MAX_FILE bytes
 * (SBAT_E_TOO_BIG). A missing variable is not an error: *ret_state (may be
 * NULL) says SBAT_SIGDB_VAR_MISSING, for the caller to say "not known".
 *
 * MokListRT and MokListXRT under SBAT_SIGDB_GUID_SHIM: shim 16.x mirrors a
 * list too large for one variable into MokListRT, MokListRT1, MokListRT2,
 * ... (each one signature list); the numbered pieces are read too, up to
 * the first missing one, each entry named by its piece. shim's list
 * includes its built-in vendor certificate or vendor db (vendor dbx for
 * MokListXRT), and an empty one is given a single SHA-256 entry of 32 zero
 * bytes (owner shim's GUID); both are kept as read. When a piece fails,
 * the pieces before it stay in the database and *ret_state says
 * SBAT_SIGDB_VAR_MISSING: a caller that must not judge by a part frees
 * the database. shim's own check reads the variable MokListRT alone (the
 * pieces are for the OS): a caller judging as shim does reads that one.
 */
SBAT_API sbat_err sbat_sigdb_load_efivar(sbat_sigdb *db, const char *dir, const char *name, const char *guid,
                                         sbat_sigdb_var *ret_state, sbat_diag *reterr);

/*
 * Read dir/name, a file of signature lists without attribute bytes, as by
 * sbat_sigdb_append_update (an authenticated update file, or plain lists):
 * a DBX update, or a variable shim copies whole into its configuration
 * table, which Linux shows in /sys/firmware/efi/mok-variables (MokListRT
 * there is not split). The same checks and states as
 * sbat_sigdb_load_efivar; `name` is the source.
 */
SBAT_API sbat_err sbat_sigdb_load_file(sbat_sigdb *db, const char *dir, const char *name, sbat_sigdb_var *ret_state,
                                       sbat_diag *reterr);

/* How many entries the database holds. */
SBAT_API size_t sbat_sigdb_count(const sbat_sigdb *db);

/* Entry i (in the order added), or NULL when i is not below sbat_sigdb_count: for (i = 0; (e = get(db, i)); i++). */
SBAT_API const sbat_sigdb_entry *sbat_sigdb_get(const sbat_sigdb *db, size_t i);

/*
 * The first entry of `type` whose signature data is data[0..len): an image
 * hash (SBAT_SIG_SHA256, _SHA1, _SHA384, ...), a DER certificate
 * (SBAT_SIG_X509), or, for SBAT_SIG_X509_SHA256/384/512, a certificate's
 * ToBeSignedHash (the hash of its tbsCertificate; the entry's data is that
 * hash and the 16-byte EFI_TIME of revocation after it, which is not
 * compared). NULL when there is none (or db or data is NULL, or len 0).
 */
SBAT_API const sbat_sigdb_entry *sbat_sigdb_find(const sbat_sigdb *db, sbat_sig_type type, const uint8_t *data,
                                                 size_t len);

/*
 * Microsoft's SVN entries in dbx: EFI_CERT_SHA256_GUID entries whose
 * SignatureOwner is SBAT_SIGDB_GUID_SVN_OWNER hold no image hash but a
 * Secure Version Number floor for one Windows boot application
 * (microsoft/secureboot_objects, PreSignedObjects/DBX/HashesJsonSchema.json):
 * byte 0 the layout's version (1), bytes 1-16 the application's GUID as
 * stored, bytes 17-18 the minor SVN and 19-20 the major (little-endian),
 * then zeros. An image of the application whose SVN is below the floor is
 * revoked; with several entries for one application the highest holds.
 */
#define SBAT_SIGDB_GUID_SVN_OWNER "9d132b6c-59d5-4388-ab1c-185cfcb2eb92"

/* The applications Microsoft's SVN entries name. */
typedef enum sbat_svn_app {
	SBAT_SVN_APP_UNKNOWN = 0, /* another application GUID */
	SBAT_SVN_APP_BOOTMGR,     /* the Windows Boot Manager, bootmgfw.efi (9d132b61-59d5-4388-ab1c-185c3cb2eb92) */
	SBAT_SVN_APP_CDBOOT,      /* cdboot.efi, of Windows install media (e8f82e9d-e127-4158-a488-4c18abe2f284) */
	SBAT_SVN_APP_WDSMGFW,     /* wdsmgfw.efi, the network boot manager (c999cac2-7ffe-496f-8127-9e2a8a535976) */
	SBAT__SVN_APP_MAX
} sbat_svn_app;

/* One SVN entry, read. Fixed for the life of the soname. */
typedef struct sbat_sigdb_svn {
	sbat_svn_app app;
	uint8_t version;      /* byte 0 */
	uint8_t app_guid[16]; /* bytes 1-16, as stored */
	uint16_t major;       /* bytes 19-20 */
	uint16_t minor;       /* bytes 17-18 */
} sbat_sigdb_svn;

/*
 * 1 when e is an SVN entry (SBAT_SIG_SHA256, owner SBAT_SIGDB_GUID_SVN_OWNER,
 * 32 bytes), read into *ret (may be NULL); else 0.
 */
SBAT_API int sbat_sigdb_svn_read(const sbat_sigdb_entry *e, sbat_sigdb_svn *ret);

/*
 * The floor db's SVN entries set for app: 1 with the highest of them in
 * *ret, 0 when db holds none for it (or db is NULL).
 */
SBAT_API int sbat_sigdb_svn_floor(const sbat_sigdb *db, sbat_svn_app app, sbat_sigdb_svn *ret);

/* "bootmgr", "cdboot", "wdsmgfw"; "unknown" for SBAT_SVN_APP_UNKNOWN or a value out of range. */
SBAT_API const char *sbat_sigdb_svn_app_name(sbat_svn_app app);

/* "EFI_CERT_SHA256_GUID" and so on; "unknown" for SBAT_SIG_UNKNOWN or a value out of range. */
SBAT_API const char *sbat_sigdb_type_name(sbat_sig_type type);

/* A GUID as stored (16 bytes) in its text form, lowercase, into out (37 bytes with the NUL). */
SBAT_API void sbat_sigdb_guid_format(const uint8_t guid[16], char out[37]);

#ifdef __cplusplus
}
#endif

#endif
