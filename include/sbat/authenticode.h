/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* authenticode.h - an image's Authenticode hash, and what its certificate table holds */
#ifndef SBAT_AUTHENTICODE_H
#define SBAT_AUTHENTICODE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What this reads, and what it does not check:
 *
 * The hash is the one firmware and shim compare with a signature's
 * SpcIndirectDataContent digest. The certificate table is walked entry by
 * entry (WIN_CERTIFICATE), each PKCS#7 SignedData is read with a checked DER
 * reader, and signatures nested in a SignerInfo's unauthenticated attributes
 * (OID 1.3.6.1.4.1.311.2.4.1) are listed after the one holding them.
 *
 * Each signature's SignerInfo is verified against its signer's certificate
 * (`signature_verifies`), and each certificate's signature can be checked
 * with its issuer's key: the RSA of RFC 8017, PKCS#1 v1.5 and RSASSA-PSS.
 * Whether a certificate is trusted, expired or revoked is the signature
 * rules' business (sigverify.h); this reads what the signature claims, and
 * whether the digest it claims is this image's hash.
 */

#define SBAT_AUTHENTICODE_SHA256_SIZE 32
#define SBAT_AUTHENTICODE_DIGEST_MAX 64 /* the largest digest a signature may name (SHA-512) */
#define SBAT_AUTHENTICODE_NAME_MAX 256  /* a readable subject or issuer, NUL included */

/* Which reader's rules the hash follows; they differ only at the end of the file. */
typedef enum sbat_authenticode_rule {
	/*
	 * EDK2's DxeImageVerificationLib (HashPeImage), as sbsign and pesign
	 * hash: the bytes after the last section's data up to the file's end
	 * less the certificate table's size, as they are.
	 */
	SBAT_AUTHENTICODE_EDK2 = 0,
	/*
	 * shim 16.1 (pe.c generate_hash): as EDK2, but a certificate table
	 * that does not end the file is refused, and an image without one has
	 * its trailing bytes padded with zeros to a multiple of 8, as sbsign
	 * and pesign pad an image before they sign it.
	 */
	SBAT_AUTHENTICODE_SHIM,
} sbat_authenticode_rule;

/*
 * The Authenticode SHA-256 of img by `rule`: the headers up to CheckSum,
 * the headers after it up to the Certificate Table entry of the data
 * directory, the rest of the headers (SizeOfHeaders), every section's raw
 * data in the order of PointerToRawData, then the bytes after them, as the
 * rule says. Fails (SBAT_E_PE_*) when a size does not fit in the file.
 */
SBAT_API sbat_err sbat_authenticode_hash(const sbat_image *img, sbat_authenticode_rule rule,
                                         uint8_t ret_digest[SBAT_AUTHENTICODE_SHA256_SIZE], sbat_diag *reterr);

/* The digest algorithms a signature names. */
typedef enum sbat_digest_alg {
	SBAT_DIGEST_UNKNOWN = 0, /* an OID this library does not know */
	SBAT_DIGEST_SHA1,
	SBAT_DIGEST_SHA256,
	SBAT_DIGEST_SHA384,
	SBAT_DIGEST_SHA512,
} sbat_digest_alg;

/* "SHA-256" and so on; "unknown" for SBAT_DIGEST_UNKNOWN or a value past the list. */
SBAT_API const char *sbat_authenticode_digest_name(sbat_digest_alg alg);

/*
 * One X.509 certificate of a SignedData. The pointers point into the
 * image's buffer; offsets are file offsets. Library-allocated (in an
 * sbat_authenticode); the caller never allocates one nor uses sizeof.
 */
typedef struct sbat_authenticode_cert {
	const uint8_t *der; /* the whole Certificate */
	size_t der_len;
	uint64_t offset;
	/* "CN=..., O=..., OU=..., C=..." from those attributes, in the Name's order; cut to fit */
	char subject[SBAT_AUTHENTICODE_NAME_MAX];
	char issuer[SBAT_AUTHENTICODE_NAME_MAX];
	const uint8_t *subject_der; /* the Name, tag and length included: compare these */
	size_t subject_der_len;
	const uint8_t *issuer_der;
	size_t issuer_der_len;
	const uint8_t *serial; /* the INTEGER's content bytes, as encoded */
	size_t serial_len;
	uint8_t tbs_sha256[SBAT_AUTHENTICODE_SHA256_SIZE]; /* SHA-256 of the TBSCertificate, tag and length included */
	const uint8_t *subject_key_id;                     /* subjectKeyIdentifier's key, NULL when absent */
	size_t subject_key_id_len;
	const uint8_t *authority_key_id; /* authorityKeyIdentifier's keyIdentifier, NULL when absent */
	size_t authority_key_id_len;
	/* 1: its extendedKeyUsage names module signing only (1.3.6.1.4.1.2312.16.1.2): shim does not trust it for images */
	int module_signing_eku;
	/*
	 * Its RSA public key (subjectPublicKeyInfo rsaEncryption or
	 * RSASSA-PSS): the modulus and exponent INTEGERs' content bytes, as
	 * encoded. NULL when the key is of another kind, does not read, or
	 * is negative: no signature verifies under it.
	 */
	const uint8_t *key_n;
	size_t key_n_len;
	const uint8_t *key_e;
	size_t key_e_len;
	/*
	 * How its issuer signed it: signatureAlgorithm's digest, SHA-1 to
	 * SHA-512 with RSA PKCS#1 v1.5 or RSASSA-PSS; SBAT_DIGEST_UNKNOWN for
	 * another algorithm, or one that is not the TBSCertificate's
	 * `signature` field byte for byte (X509_verify refuses both).
	 */
	sbat_digest_alg sig_digest;
	int sig_pss;                  /* 1: RSASSA-PSS, with the two fields below */
	sbat_digest_alg sig_pss_mgf1; /* MGF1's digest */
	size_t sig_pss_salt_len;      /* the salt's length */
	const uint8_t *signature;     /* signatureValue, its unused-bits byte left out */
	size_t signature_len;
	uint8_t tbs_digest[SBAT_AUTHENTICODE_DIGEST_MAX]; /* the TBSCertificate's hash by sig_digest */
	int version;                                      /* 0 for v1, 2 for v3 */
	int basic_ca;                                     /* basicConstraints: -1 absent, 0 CA:FALSE, 1 CA:TRUE */
	int key_usage; /* keyUsage's first two bytes of bits (keyCertSign: 0x0400), -1 absent */
	               /* fields may be added at the end */
} sbat_authenticode_cert;

/*
 * One signature: a WIN_CERTIFICATE's SignedData, or one nested in another's
 * SignerInfo. Library-allocated; fields may be added at the end.
 */
typedef struct sbat_authenticode_sig {
	unsigned entry;        /* the WIN_CERTIFICATE (0-based, table order) it is in */
	int nested_in;         /* -1: the entry's own; else the index of the signature holding it */
	uint64_t entry_offset; /* the WIN_CERTIFICATE's file offset */
	uint32_t entry_length; /* its dwLength */
	uint16_t revision;     /* wRevision: 0x0200 (read by no loader) */
	uint16_t cert_type;    /* wCertificateType: 0x0002, PKCS_SIGNED_DATA; 0x0EF1, EFI_GUID of PKCS#7 */
	uint64_t offset;       /* the ContentInfo (DER) in the file */
	size_t len;
	size_t n_certs;
	const sbat_authenticode_cert *certs;
	/* the (first) SignerInfo: whose certificate signed */
	char signer_issuer[SBAT_AUTHENTICODE_NAME_MAX];
	const uint8_t *signer_issuer_der;
	size_t signer_issuer_der_len;
	const uint8_t *signer_serial;
	size_t signer_serial_len;
	int signer_cert;            /* index in certs of the certificate of that issuer and serial, -1 when none */
	sbat_digest_alg digest_alg; /* SignerInfo's digestAlgorithm */
	/* SpcIndirectDataContent: the image digest the signature claims */
	sbat_digest_alg image_digest_alg;
	uint8_t image_digest[SBAT_AUTHENTICODE_DIGEST_MAX];
	size_t image_digest_len;
	/*
	 * 1: image_digest is the image's hash (EDK2's rule) by
	 * image_digest_alg, SHA-1, SHA-256, SHA-384 or SHA-512, as EDK2 hashes
	 * the image by the algorithm a signature names; 0: it is not; -1:
	 * another algorithm, not compared. (Before 0.4 only SHA-256 was
	 * compared.)
	 */
	int covers_image;
	/* the SignerInfo's authenticatedAttributes ([0], tag and length included), NULL when it has none */
	const uint8_t *signed_attrs;
	size_t signed_attrs_len;
	const uint8_t *message_digest; /* the messageDigest attribute's OCTET STRING value, NULL when absent */
	size_t message_digest_len;
	const uint8_t *signature; /* the SignerInfo's encryptedDigest */
	size_t signature_len;
	/*
	 * 1: the SignerInfo verifies, as OpenSSL's PKCS7_signatureVerify
	 * checks it for EDK2 and shim: messageDigest is the digestAlgorithm
	 * hash of the SpcIndirectDataContent's content octets, and the
	 * signature is RSA PKCS#1 v1.5 over the same hash of the attributes
	 * (re-tagged as a SET), by the signer certificate's key, and so does
	 * every other SignerInfo whose certificate is there; 0: it does not
	 * verify, or the loaders cannot read it (a ContentInfo of more than
	 * 65539 bytes); -1: the signer's certificate is not there.
	 */
	int signature_verifies;
	/* fields may be added at the end */
} sbat_authenticode_sig;

/* An image's signatures. Library-allocated; fields may be added at the end. */
typedef struct sbat_authenticode {
	uint8_t image_hash[SBAT_AUTHENTICODE_SHA256_SIZE]; /* sbat_authenticode_hash(img, SBAT_AUTHENTICODE_EDK2) */
	uint64_t table_offset;                             /* the certificate table; 0 and 0 when unsigned */
	uint32_t table_size;
	unsigned n_entries; /* WIN_CERTIFICATEs */
	size_t n_sigs;      /* signatures: each entry's, each followed by those nested in it */
	const sbat_authenticode_sig *sigs;
	/* fields may be added at the end */
} sbat_authenticode;

/*
 * Read img's certificate table. An unsigned image gives n_sigs 0. A
 * malformed table, WIN_CERTIFICATE, DER or PKCS#7 structure fails with
 * SBAT_E_SIGNATURE, *reterr naming the check, the structure (other_name)
 * and the file offset; an image whose hash cannot be computed fails as
 * sbat_authenticode_hash does. The entries fill the table, each padded to
 * 8 bytes but the last, which may end the table unpadded (EDK2 refuses such
 * an image, shim does not: the signature rules say so). An entry is read
 * whatever its wRevision, as PKCS_SIGNED_DATA, or as WIN_CERT_TYPE_EFI_GUID
 * of EFI_CERT_TYPE_PKCS7_GUID (cert_type 0x0EF1, read by EDK2 alone);
 * entries of other types are counted in n_entries and not read. A
 * SignedData's first SignerInfo is the signer read. The result points into img's buffer: free it (with
 * sbat_authenticode_free) before the image. *ret is NULL on failure.
 */
SBAT_API sbat_err sbat_authenticode_parse(const sbat_image *img, sbat_authenticode **ret, sbat_diag *reterr);

/*
 * As sbat_authenticode_parse, but the image hash is computed from fd, the
 * file img's buffer maps, read through a 256 KiB buffer instead of the
 * mapping: a large image then does not stay resident in memory (fd -1:
 * img's buffer, as sbat_authenticode_parse). A read that fails is
 * SBAT_E_IO; a file shorter than the buffer SBAT_E_PE_TRUNCATED.
 */
SBAT_API sbat_err sbat_authenticode_parse_fd(const sbat_image *img, int fd, sbat_authenticode **ret, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_authenticode_free(sbat_authenticode *a);

/*
 * SBAT_OK when every signature's claimed digest is the image's hash by
 * its algorithm (covers_image); else SBAT_E_SIGNATURE_STALE, "the
 * signature no longer covers this image", with other_index the first
 * signature that differs. A signature with a digest algorithm other than
 * SHA-1, SHA-256, SHA-384 or SHA-512 is passed over. An unsigned image
 * passes.
 */
SBAT_API sbat_err sbat_authenticode_check(const sbat_authenticode *a, sbat_diag *reterr);

/*
 * Read der[0..len), one DER certificate (an EFI_CERT_X509 entry of db,
 * say), into *ret as a signature's certificates are read: its names,
 * serial, key identifiers and TBS SHA-256, pointing into der.
 * SBAT_E_SIGNATURE naming the element and offset when it does not read.
 */
/*
 * The certificate chain of signature s into out (room for s->n_certs
 * indexes into s->certs): the signer's certificate, then each one's issuer
 * among s's certificates (by name, and key identifiers where both have
 * them), up to a self-issued one or one whose issuer is not there, as the
 * signature rules build it. Returns its length, 0 when the signer's
 * certificate is not among them.
 */
SBAT_API size_t sbat_authenticode_chain(const sbat_authenticode_sig *s, int *out);

/*
 * One DER certificate der[0..len) read as a signature's certificates are
 * (names, serial, key identifiers, key, how its issuer signed it) into a
 * new *ret (NULL on failure), freed by sbat_authenticode_cert_free; its
 * pointers point into der, which must outlive it. SBAT_E_SIGNATURE with
 * the offset for DER that does not read; SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_authenticode_cert_read(const uint8_t *der, size_t len, sbat_authenticode_cert **ret,
                                              sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_authenticode_cert_free(sbat_authenticode_cert *cert);

#ifdef __cplusplus
}
#endif

#endif
