/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-sigverify.c - EDK2's and shim's signature rules over images signed by sbsign with made-up CAs */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/image.h"
#include "sbat/sigdb.h"
#include "sbat/sigverify.h"
#include "fixture.h"

/*
 * The certificates: two CAs as the 2011 and 2023 UEFI CAs, each with a
 * signer; an unrelated CA; a vendor CA with its signer, as a distribution
 * builds into shim. The 2011 signature carries its CA certificate
 * (sbsign --addcert), the 2023 one only its signer's, as Microsoft's do.
 */
enum cert { CA1, CA2, CA3, CA4, CA5, CA6, I6, I7, L7, N_CERTS };
static const char *const cert_names[N_CERTS] = { "ca1", "ca2", "ca3", "ca4", "ca5", "ca6", "i6", "i7", "l7" };

/*
 * The images: dual-signed (the 2011 signature first), signed by the
 * vendor's signer, unsigned, signed by the signer of a CA whose
 * extendedKeyUsage is module signing only (CA5, as a DKMS key).
 */
enum image {
	DUAL,
	VENDOR,
	UNSIGNED,
	MODSIGN,
	SHA1SIGNED,
	CHAIN3,
	NOT_CA,
	SIGNED2023,
	SHA384SIGNED,
	SHA512SIGNED,
	N_IMAGES
};

/*
 * CHAIN3: signed by a leaf (l6) of an intermediate CA (i6, CA:TRUE, carried
 * by the signature) of a root (CA6) the signature does not carry; NOT_CA:
 * the same with an intermediate (I7) whose basicConstraints say CA:FALSE.
 * SIGNED2023: signed by the 2023 signer alone.
 */

/*
 * SHA1SIGNED: the unsigned image signed by the vendor's signer with
 * osslsigncode -h sha1; its digest is the image's Authenticode SHA-1, as
 * another program computes it. Its cases are decided by EFI_CERT_SHA1
 * entries (hash_sha1).
 */
static uint8_t sha1_of_sha1signed[20];

/*
 * SHA384SIGNED, SHA512SIGNED: the same with osslsigncode -h sha384 and
 * -h sha512; their digests are the images' Authenticode SHA-384 and
 * SHA-512, which are the unsigned image's too (its size is a multiple of
 * 8, so nothing was padded). The TBS hashes of the 2023 signer and the
 * 2011 CA by SHA-384 and SHA-512, computed by openssl, make
 * EFI_CERT_X509_SHA384 and _SHA512 entries.
 */
static uint8_t sha384_of_image[48], sha512_of_image[64];
static uint8_t tbs384_l2[48], tbs512_ca1[64];

static char dir[64];
static int have_tools;
static uint8_t *certs[N_CERTS];
static size_t cert_len[N_CERTS];
static uint8_t *images[N_IMAGES];
static size_t image_len[N_IMAGES];

static int
run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static uint8_t *
slurp_path(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && (b = malloc((size_t)n))) {
		rewind(f);
		if (fread(b, 1, (size_t)n, f) != (size_t)n) {
			free(b);
			b = NULL;
		}
		*ret_len = (size_t)n;
	}
	fclose(f);
	return b;
}

static uint8_t *
slurp(const char *name, size_t *ret_len)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return slurp_path(path, ret_len);
}

/* A self-signed CA NAME with subject CN, and when leaf is given, a signer LEAF it issued. */
static int
make_ca(const char *name, const char *cn, const char *ext, const char *leaf, const char *leaf_cn)
{
	if (run("cd %s && openssl req -x509 -newkey rsa:2048 -nodes -days 30 -keyout %s.key -out %s.pem "
	        "-subj '/CN=%s/O=Example' %s >/dev/null 2>&1 && openssl x509 -in %s.pem -outform DER -out %s.der",
	        dir, name, name, cn, ext, name, name) != 0)
		return -1;
	if (!leaf)
		return 0;
	return run("cd %s && openssl req -newkey rsa:2048 -nodes -keyout %s.key -out %s.csr -subj '/CN=%s/O=Example' "
	           ">/dev/null 2>&1 && openssl x509 -req -in %s.csr -CA %s.pem -CAkey %s.key -CAcreateserial -days 30 "
	           "-out %s.pem >/dev/null 2>&1",
	           dir, leaf, leaf, leaf_cn, leaf, name, name, leaf);
}

/* A certificate NAME with subject CN issued by ISSUER, with the extensions EXT (NULL: none, a v1 certificate). */
static int
make_issued(const char *name, const char *cn, const char *issuer, const char *ext)
{
	if (run("cd %s && openssl req -newkey rsa:2048 -nodes -keyout %s.key -out %s.csr -subj '/CN=%s/O=Example' "
	        ">/dev/null 2>&1 && printf '%%s\\n' '%s' >%s.ext",
	        dir, name, name, cn, ext ? ext : "", name) != 0)
		return -1;
	return run("cd %s && openssl x509 -req -in %s.csr -CA %s.pem -CAkey %s.key -CAcreateserial -days 30 %s%s%s "
	           "-out %s.pem >/dev/null 2>&1 && openssl x509 -in %s.pem -outform DER -out %s.der",
	           dir, name, issuer, issuer, ext ? "-extfile " : "", ext ? name : "", ext ? ".ext" : "", name, name,
	           name);
}

static int
sign(const char *leaf, const char *extra, const char *out)
{
	return run("cd %s && sbsign --key %s.key --cert %s.pem %s --output %s u.efi >/dev/null 2>&1", dir, leaf, leaf,
	           extra, out);
}

/* s1 with s2's certificate table appended: two WIN_CERTIFICATEs, as Debian's shim 16.1 carries them. */
static uint8_t *
append_table(const uint8_t *s1, size_t len1, const uint8_t *s2, size_t len2, size_t *ret_len)
{
	size_t dir4 = fx_opt_offset(s1) + 144; /* PE32+: data directory 4, the certificate table */
	uint32_t off1, size1, off2, size2;
	uint8_t *out;

	memcpy(&off1, s1 + dir4, 4);
	memcpy(&size1, s1 + dir4 + 4, 4);
	memcpy(&off2, s2 + dir4, 4);
	memcpy(&size2, s2 + dir4 + 4, 4);
	if (off1 + size1 != len1 || off2 + size2 != len2 || size1 % 8 || size2 % 8)
		return NULL;
	out = malloc(len1 + size2);
	memcpy(out, s1, len1);
	memcpy(out + len1, s2 + off2, size2);
	size1 += size2;
	memcpy(out + dir4 + 4, &size1, 4);
	*ret_len = len1 + size2;
	return out;
}

/* The digest (alg, n bytes) osslsigncode signed into out: the image's Authenticode hash, computed by another program. */
static int
signed_digest(const uint8_t *buf, size_t len, sbat_digest_alg alg, uint8_t *out, size_t n)
{
	sbat_authenticode *a = NULL;
	sbat_image *img = NULL;
	sbat_diag d;
	int ok;

	ok = sbat_image_parse(buf, len, &img, &d) == SBAT_OK && sbat_authenticode_parse(img, &a, &d) == SBAT_OK &&
	     a->n_sigs == 1 && a->sigs[0].image_digest_alg == alg && a->sigs[0].image_digest_len == n;
	if (ok)
		memcpy(out, a->sigs[0].image_digest, n);
	sbat_authenticode_free(a);
	sbat_image_free(img);
	return ok ? 0 : -1;
}

/* The TBSCertificate of NAME.der hashed by openssl dgst -ALG into out (n bytes). */
static int
openssl_tbs(const char *name, const char *alg, uint8_t *out, size_t n)
{
	uint8_t *b;
	size_t len = 0;
	char file[32];

	snprintf(file, sizeof(file), "%s.tbs.%s", name, alg);
	if (run("cd %s && openssl asn1parse -inform DER -in %s.der -strparse 4 -noout -out %s.tbs >/dev/null 2>&1 && "
	        "openssl dgst -%s -binary %s.tbs >%s",
	        dir, name, name, alg, name, file) != 0)
		return -1;
	b = slurp(file, &len);
	if (!b || len != n) {
		free(b);
		return -1;
	}
	memcpy(out, b, n);
	free(b);
	return 0;
}

/* osslsigncode -h ALG over the unsigned image by the vendor's signer into OUT, then read as images[which]. */
static int
sign_other(const char *alg, const char *out, enum image which)
{
	if (run("cd %s && command -v osslsigncode >/dev/null && osslsigncode sign -h %s -certs l4.pem -key l4.key "
	        "-in u.efi -out %s >/dev/null 2>&1",
	        dir, alg, out) == 0)
		images[which] = slurp(out, &image_len[which]);
	return 0;
}

/* The images osslsigncode signs, and the digests they carry. */
static int
make_other_digests(void)
{
	sign_other("sha1", "s6.efi", SHA1SIGNED);
	sign_other("sha384", "s9.efi", SHA384SIGNED);
	sign_other("sha512", "s10.efi", SHA512SIGNED);
	if (images[SHA1SIGNED] &&
	    signed_digest(images[SHA1SIGNED], image_len[SHA1SIGNED], SBAT_DIGEST_SHA1, sha1_of_sha1signed, 20) != 0)
		return -1;
	if (images[SHA384SIGNED] &&
	    signed_digest(images[SHA384SIGNED], image_len[SHA384SIGNED], SBAT_DIGEST_SHA384, sha384_of_image, 48) != 0)
		return -1;
	if (images[SHA512SIGNED] &&
	    signed_digest(images[SHA512SIGNED], image_len[SHA512SIGNED], SBAT_DIGEST_SHA512, sha512_of_image, 64) != 0)
		return -1;
	if (run("cd %s && openssl x509 -in l2.pem -outform DER -out l2.der", dir) != 0)
		return -1;
	return openssl_tbs("l2", "sha384", tbs384_l2, 48) || openssl_tbs("ca1", "sha512", tbs512_ca1, 64) ? -1 : 0;
}

static int
make_images(void)
{
	uint8_t *s1, *s2;
	size_t l1, l2;
	fx_spec spec;
	char path[128];

	fx_spec_init(&spec, FX_PLAIN);
	if (fx_build(&spec, &images[UNSIGNED], &image_len[UNSIGNED]) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/u.efi", dir);
	if (fx_write_file(path, images[UNSIGNED], image_len[UNSIGNED]) != 0)
		return -1;
	if (sign("l1", "--addcert ca1.pem", "s1.efi") || sign("l2", "", "s2.efi") || sign("l4", "", "s4.efi") ||
	    sign("l5", "", "s5.efi"))
		return -1;
	images[MODSIGN] = slurp("s5.efi", &image_len[MODSIGN]);
	if (sign("l6", "--addcert i6.pem", "s7.efi") || sign("l7", "--addcert i7.pem", "s8.efi"))
		return -1;
	images[CHAIN3] = slurp("s7.efi", &image_len[CHAIN3]);
	images[NOT_CA] = slurp("s8.efi", &image_len[NOT_CA]);
	if (make_other_digests() != 0)
		return -1;
	s1 = slurp("s1.efi", &l1);
	s2 = slurp("s2.efi", &l2);
	images[VENDOR] = slurp("s4.efi", &image_len[VENDOR]);
	images[SIGNED2023] = slurp("s2.efi", &image_len[SIGNED2023]);
	if (s1 && s2)
		images[DUAL] = append_table(s1, l1, s2, l2, &image_len[DUAL]);
	free(s1);
	free(s2);
	return images[DUAL] && images[VENDOR] && images[MODSIGN] && images[CHAIN3] && images[NOT_CA] &&
	               images[SIGNED2023] ?
	           0 :
	           -1;
}

static int
setup(void **state)
{
	char name[16];
	int i;

	(void)state;
	strcpy(dir, "/tmp/test-sigverify.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	have_tools = run("command -v openssl >/dev/null && command -v sbsign >/dev/null") == 0 &&
	             /* fixed serials of one length: the two CAs' DER are as long, and fit one X.509 list */
	             make_ca("ca1", "Test UEFI CA 2011", "-set_serial 2011", "l1", "Test Publisher 2011") == 0 &&
	             make_ca("ca2", "Test UEFI CA 2023", "-set_serial 2023", "l2", "Test Publisher 2023") == 0 &&
	             make_ca("ca3", "Unrelated CA", "", NULL, NULL) == 0 &&
	             make_ca("ca4", "Vendor Secure Boot CA", "", "l4", "Vendor Secure Boot Signer") == 0 &&
	             make_ca("ca5", "Module Signing Key", "-addext extendedKeyUsage=1.3.6.1.4.1.2312.16.1.2", "l5",
	                     "Module Signer") == 0 &&
	             make_ca("ca6", "Test Chain Root", "", NULL, NULL) == 0 &&
	             make_issued("i6", "Test Chain Intermediate", "ca6", "basicConstraints=CA:TRUE") == 0 &&
	             make_issued("l6", "Test Chain Leaf", "i6", NULL) == 0 &&
	             make_issued("i7", "Test Not A CA", "ca6", "basicConstraints=CA:FALSE") == 0 &&
	             make_issued("l7", "Test Leaf Of A Non-CA", "i7", NULL) == 0;
	for (i = 0; have_tools && i < N_CERTS; i++) {
		snprintf(name, sizeof(name), "%s.der", cert_names[i]);
		certs[i] = slurp(name, &cert_len[i]);
		have_tools = certs[i] != NULL;
	}
	if (have_tools)
		have_tools = make_images() == 0;
	return 0;
}

static int
teardown(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < N_CERTS; i++)
		free(certs[i]);
	for (i = 0; i < N_IMAGES; i++)
		free(images[i]);
	return run("rm -rf %s", dir) == 0 ? 0 : -1;
}

/* EFI_SIGNATURE_LIST GUIDs as stored */
static const uint8_t guid_x509[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
	                               0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
static const uint8_t guid_sha256[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
	                                 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };
static const uint8_t guid_sha1[16] = { 0x12, 0xa5, 0x6c, 0x82, 0x10, 0xcf, 0xc9, 0x4a,
	                               0xb1, 0x87, 0xbe, 0x01, 0x49, 0x66, 0x31, 0xbd };
static const uint8_t guid_x509_sha256[16] = { 0x92, 0xa4, 0xd2, 0x3b, 0xc0, 0x96, 0x79, 0x40,
	                                      0xb4, 0x20, 0xfc, 0xf9, 0x8e, 0xf1, 0x03, 0xed };
static const uint8_t guid_sha384[16] = { 0x07, 0x53, 0x3e, 0xff, 0xd0, 0x9f, 0xc9, 0x48,
	                                 0x85, 0xf1, 0x8a, 0xd5, 0x6c, 0x70, 0x1e, 0x01 };
static const uint8_t guid_sha512[16] = { 0xae, 0x0f, 0x3e, 0x09, 0xc4, 0xa6, 0x50, 0x4f,
	                                 0x9f, 0x1b, 0xd4, 0x1e, 0x2b, 0x89, 0xc1, 0x9a };
static const uint8_t guid_x509_sha384[16] = { 0x6e, 0x87, 0x76, 0x70, 0xc2, 0x80, 0xe6, 0x4e,
	                                      0xaa, 0xd2, 0x28, 0xb3, 0x49, 0xa6, 0x86, 0x5b };
static const uint8_t guid_x509_sha512[16] = { 0x63, 0xbf, 0x6d, 0x44, 0x02, 0x25, 0xda, 0x4c,
	                                      0xbc, 0xfa, 0x24, 0x65, 0xd2, 0xb0, 0xfe, 0x9d };

/* One signature list of one entry (type, data[0..len)), malloc'ed, its size in *ret_len. */
static uint8_t *
esl(const uint8_t guid[16], const uint8_t *data, size_t len, size_t *ret_len)
{
	size_t sig = 16 + len, total = 28 + sig;
	uint8_t *b = calloc(1, total);
	uint32_t v;

	assert_non_null(b);
	memcpy(b, guid, 16);
	v = (uint32_t)total;
	memcpy(b + 16, &v, 4);
	v = (uint32_t)sig;
	memcpy(b + 24, &v, 4);
	memset(b + 28, 0x5a, 16); /* the owner */
	memcpy(b + 44, data, len);
	*ret_len = total;
	return b;
}

/* One X.509 signature list of two certificates of one length, a then b (as an EFI_SIGNATURE_LIST holds them). */
static void
add_pair(sbat_sigdb *db, int a, int b)
{
	size_t total, len = cert_len[a];
	uint8_t *buf, *two;
	sbat_diag d;

	assert_int_equal(cert_len[b], len);
	buf = esl(guid_x509, certs[a], len, &total);
	two = realloc(buf, total + 16 + len);
	assert_non_null(two);
	memset(two + total, 0x5b, 16);
	memcpy(two + total + 16, certs[b], len);
	total += 16 + len;
	two[16] = (uint8_t)total; /* SignatureListSize, little-endian */
	two[17] = (uint8_t)(total >> 8);
	assert_int_equal(sbat_sigdb_append(db, two, total, "test", &d), SBAT_OK);
	free(two);
}

static void
add_entry(sbat_sigdb *db, const uint8_t guid[16], const uint8_t *data, size_t len)
{
	size_t total;
	uint8_t *b = esl(guid, data, len, &total);
	sbat_diag d;

	assert_int_equal(sbat_sigdb_append(db, b, total, "test", &d), SBAT_OK);
	free(b);
}

/* What a database holds: certificates by bit, the image hash, the TBS hash of a signature's signer. */
#define C(x) (1u << (x))
#define HASH (1u << 16)
#define TBS_SIG1 (1u << 17) /* the 2023 signature's signer certificate's TBS SHA-256 (EFI_CERT_X509_SHA256) */
#define TBS_CA1 (1u << 18)  /* the 2011 CA's, as the 2011 signature carries it */
#define JUNK_CA4 (1u << 19) /* the vendor CA with a byte after its DER */
#define HASH1 (1u << 20)    /* SHA1SIGNED's Authenticode SHA-1 (EFI_CERT_SHA1) */
#define PAIR12 (1u << 21)   /* one X.509 list: the 2011 CA, then the 2023 CA */
#define PAIR21 (1u << 22)   /* one X.509 list: the 2023 CA, then the 2011 CA */
#define HASH384 (1u << 23)  /* the unsigned image's Authenticode SHA-384, as osslsigncode signed it (EFI_CERT_SHA384) */
#define HASH512 (1u << 24)  /* the same by SHA-512 (EFI_CERT_SHA512) */
#define TBS384_SIG1 (1u << 25) /* the 2023 signer's TBS SHA-384 (EFI_CERT_X509_SHA384, time zero) */
#define TBS512_CA1 (1u << 26)  /* the 2011 CA's TBS SHA-512 (EFI_CERT_X509_SHA512, time zero) */

/* The TBS SHA-256 of the certificate whose subject holds cn, in the dual-signed image's signatures. */
static void
tbs_of(const char *cn, uint8_t out[32])
{
	sbat_authenticode *a = NULL;
	sbat_image *img = NULL;
	size_t i, k;
	sbat_diag d;

	assert_int_equal(sbat_image_parse(images[DUAL], image_len[DUAL], &img, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_parse(img, &a, &d), SBAT_OK);
	for (i = 0; i < a->n_sigs; i++)
		for (k = 0; k < a->sigs[i].n_certs; k++)
			if (strstr(a->sigs[i].certs[k].subject, cn))
				memcpy(out, a->sigs[i].certs[k].tbs_sha256, 32);
	sbat_authenticode_free(a);
	sbat_image_free(img);
}

static sbat_sigdb *
make_db(unsigned what, const uint8_t hash[32])
{
	static const uint8_t zero_time[16];
	uint8_t tbs[80];
	sbat_sigdb *db = NULL;
	sbat_diag d;
	int i;

	if (!what)
		return NULL;
	assert_int_equal(sbat_sigdb_new(&db, &d), SBAT_OK);
	for (i = 0; i < N_CERTS; i++)
		if (what & C(i))
			add_entry(db, guid_x509, certs[i], cert_len[i]);
	if (what & PAIR12)
		add_pair(db, CA1, CA2);
	if (what & PAIR21)
		add_pair(db, CA2, CA1);
	if (what & HASH)
		add_entry(db, guid_sha256, hash, 32);
	if (what & HASH1)
		add_entry(db, guid_sha1, sha1_of_sha1signed, 20);
	if (what & HASH384)
		add_entry(db, guid_sha384, sha384_of_image, 48);
	if (what & HASH512)
		add_entry(db, guid_sha512, sha512_of_image, 64);
	if (what & TBS384_SIG1) {
		memcpy(tbs, tbs384_l2, 48);
		memset(tbs + 48, 0, 16);
		add_entry(db, guid_x509_sha384, tbs, 64);
	}
	if (what & TBS512_CA1) {
		memcpy(tbs, tbs512_ca1, 64);
		memset(tbs + 64, 0, 16);
		add_entry(db, guid_x509_sha512, tbs, 80);
	}
	if (what & JUNK_CA4) {
		uint8_t *junk = calloc(1, cert_len[CA4] + 1);

		memcpy(junk, certs[CA4], cert_len[CA4]);
		add_entry(db, guid_x509, junk, cert_len[CA4] + 1);
		free(junk);
	}
	if (what & (TBS_SIG1 | TBS_CA1)) {
		tbs_of(what & TBS_SIG1 ? "Test Publisher 2023" : "Test UEFI CA 2011", tbs);
		memcpy(tbs + 32, zero_time, 16);
		add_entry(db, guid_x509_sha256, tbs, 48);
	}
	return db;
}

typedef struct vcase {
	const char *name;
	sbat_sigverify_rule rule;
	sbat_sigverify_mode mode;
	enum image image;
	unsigned db, dbx, mok, mokx, vendor_dbx;
	int vendor_cert; /* -1: none; else the certificate built into shim */
	int ignore_db;
	/* what is expected */
	sbat_verdict verdict;
	sbat_sigverify_reason reason;
	sbat_sigverify_db by;
	int sig;                             /* the signature that decided; -1 none */
	const char *subject;                 /* held by the deciding certificate's subject; NULL: "" */
	sbat_sigverify_state state0, state1; /* the first two signatures' states (when there are two) */
	sbat_digest_alg hash_alg;            /* a hash decided: its algorithm (SBAT_DIGEST_UNKNOWN: SHA-256) */
} vcase;

#define FW SBAT_SIGVERIFY_FIRMWARE
#define SHIM SBAT_SIGVERIFY_SHIM
#define ON SBAT_SIGVERIFY_ENFORCING
#define BOOTS SBAT_VERDICT_BOOTS
#define REFUSED SBAT_VERDICT_REFUSED
#define S(x) SBAT_SIGVERIFY_SIG_##x
#define R(x) SBAT_SIGVERIFY_##x

static const vcase cases[] = {
	{ "firmware: dual-signed, the 2011 CA in db", FW, ON, DUAL, C(CA1), 0, 0, 0, 0, -1, 0, BOOTS, R(CERT_ALLOWED),
	  R(DB), 0, "CN=Test UEFI CA 2011", S(ALLOWED), S(NOT_ALLOWED), 0 },
	{ "firmware: dual-signed, the 2023 CA in db (above the chain)", FW, ON, DUAL, C(CA2), 0, 0, 0, 0, -1, 0, BOOTS,
	  R(CERT_ALLOWED), R(DB), 1, "CN=Test UEFI CA 2023", S(NOT_ALLOWED), S(ALLOWED), 0 },
	{ "firmware: dual-signed, only an unrelated CA in db", FW, ON, DUAL, C(CA3), 0, 0, 0, 0, -1, 0, REFUSED,
	  R(NOT_ALLOWED), R(DB_NONE), -1, NULL, S(NOT_ALLOWED), S(NOT_ALLOWED), 0 },
	{ "firmware: the 2011 CA in dbx, the 2023 CA in db: one forbidden signature refuses", FW, ON, DUAL, C(CA2),
	  C(CA1), 0, 0, 0, -1, 0, REFUSED, R(CERT_FORBIDDEN), R(DBX), 0, "CN=Test UEFI CA 2011", S(FORBIDDEN),
	  S(NOT_REACHED), 0 },
	{ "firmware: the 2023 CA in dbx after an allowed 2011 signature", FW, ON, DUAL, C(CA1), C(CA2), 0, 0, 0, -1, 0,
	  REFUSED, R(CERT_FORBIDDEN), R(DBX), 1, "CN=Test UEFI CA 2023", S(ALLOWED), S(FORBIDDEN), 0 },
	{ "firmware: the image hash in dbx", FW, ON, DUAL, C(CA1) | C(CA2), HASH, 0, 0, 0, -1, 0, REFUSED,
	  R(HASH_FORBIDDEN), R(DBX), -1, NULL, S(ALLOWED), S(NOT_REACHED), 0 },
	{ "firmware: signed, the image hash in db", FW, ON, DUAL, HASH, 0, 0, 0, 0, -1, 0, BOOTS, R(HASH_ALLOWED),
	  R(DB), -1, NULL, S(NOT_ALLOWED), S(NOT_ALLOWED), 0 },
	{ "firmware: unsigned, the image hash in db", FW, ON, UNSIGNED, HASH, 0, 0, 0, 0, -1, 0, BOOTS, R(HASH_ALLOWED),
	  R(DB), -1, NULL, 0, 0, 0 },
	{ "firmware: unsigned, the image hash in db and dbx", FW, ON, UNSIGNED, HASH, HASH, 0, 0, 0, -1, 0, REFUSED,
	  R(HASH_FORBIDDEN), R(DBX), -1, NULL, 0, 0, 0 },
	{ "firmware: unsigned, nothing", FW, ON, UNSIGNED, C(CA1), 0, 0, 0, 0, -1, 0, REFUSED, R(NOT_ALLOWED),
	  R(DB_NONE), -1, NULL, 0, 0, 0 },
	{ "firmware: the 2023 signer's TBS hash in dbx", FW, ON, DUAL, C(CA1), TBS_SIG1, 0, 0, 0, -1, 0, REFUSED,
	  R(CERT_HASH_FORBIDDEN), R(DBX), 1, "CN=Test Publisher 2023", S(ALLOWED), S(FORBIDDEN), 0 },
	{ "firmware: the db CA's own TBS hash in dbx", FW, ON, DUAL, C(CA1), TBS_CA1, 0, 0, 0, -1, 0, REFUSED,
	  R(NOT_ALLOWED), R(DB_NONE), -1, NULL, S(REVOKED_ROOT), S(NOT_ALLOWED), 0 },
	{ "firmware: Secure Boot off: no check", FW, SBAT_SIGVERIFY_NOT_ENFORCING, DUAL, 0, C(CA1) | HASH, 0, 0, 0, -1,
	  0, BOOTS, R(NOT_ENFORCED), R(DB_NONE), -1, NULL, S(NOT_ALLOWED), S(NOT_ALLOWED), 0 },
	{ "firmware: Secure Boot not known", FW, SBAT_SIGVERIFY_MODE_UNKNOWN, DUAL, C(CA1), 0, 0, 0, 0, -1, 0,
	  SBAT_VERDICT_UNKNOWN, R(SECURE_BOOT_UNKNOWN), R(DB_NONE), -1, NULL, S(NOT_ALLOWED), S(NOT_ALLOWED), 0 },
	{ "shim: the image hash in MokListXRT", SHIM, ON, DUAL, C(CA1) | C(CA2), 0, 0, HASH, 0, -1, 0, REFUSED,
	  R(HASH_FORBIDDEN), R(MOKX), -1, NULL, S(NOT_ALLOWED), S(NOT_ALLOWED), 0 },
	{ "shim: the image hash in the vendor dbx before dbx", SHIM, ON, DUAL, 0, HASH, 0, 0, HASH, -1, 0, REFUSED,
	  R(HASH_FORBIDDEN), R(VENDOR_DBX), -1, NULL, S(NOT_ALLOWED), S(NOT_ALLOWED), 0 },
	{ "shim: signed by its vendor certificate", SHIM, ON, VENDOR, C(CA1), 0, 0, 0, 0, CA4, 0, BOOTS,
	  R(CERT_ALLOWED), R(VENDOR_CERT), 0, "CN=Vendor Secure Boot CA", S(ALLOWED), 0, 0 },
	{ "shim: a MokListRT certificate", SHIM, ON, VENDOR, 0, 0, C(CA4), 0, 0, -1, 0, BOOTS, R(CERT_ALLOWED), R(MOK),
	  0, "CN=Vendor Secure Boot CA", S(ALLOWED), 0, 0 },
	{ "shim: the vendor CA in MokListXRT", SHIM, ON, VENDOR, 0, 0, 0, C(CA4), 0, CA4, 0, REFUSED, R(CERT_FORBIDDEN),
	  R(MOKX), 0, "CN=Vendor Secure Boot CA", S(FORBIDDEN), 0, 0 },
	{ "shim: not signed by anything it trusts", SHIM, ON, VENDOR, C(CA1), 0, 0, 0, 0, CA3, 0, REFUSED,
	  R(NOT_ALLOWED), R(DB_NONE), -1, NULL, S(NOT_ALLOWED), 0, 0 },
	{ "shim: one allowed signature is enough, even with the other in dbx", SHIM, ON, DUAL, C(CA2), C(CA1), 0, 0, 0,
	  -1, 0, BOOTS, R(CERT_ALLOWED), R(DB), 1, "CN=Test UEFI CA 2023", S(FORBIDDEN), S(ALLOWED), 0 },
	{ "shim: MokIgnoreDB: the db that would allow it is named", SHIM, ON, DUAL, C(CA1) | C(CA2), 0, 0, 0, 0, -1, 1,
	  REFUSED, R(DB_IGNORED), R(DB), 0, "CN=Test UEFI CA 2011", S(NOT_ALLOWED), S(NOT_ALLOWED), 0 },
	{ "shim: MokIgnoreDB, the image hash in db", SHIM, ON, DUAL, HASH, 0, 0, 0, 0, -1, 1, REFUSED, R(DB_IGNORED),
	  R(DB), -1, NULL, S(NOT_ALLOWED), S(NOT_ALLOWED), 0 },
	{ "shim: MokIgnoreDB, db holds nothing for it", SHIM, ON, DUAL, C(CA3), 0, 0, 0, 0, -1, 1, REFUSED,
	  R(NOT_ALLOWED), R(DB_NONE), -1, NULL, S(NOT_ALLOWED), S(NOT_ALLOWED), 0 },
	{ "shim: MokIgnoreDB, and MokListRT allows it", SHIM, ON, DUAL, C(CA1), 0, C(CA2), 0, 0, -1, 1, BOOTS,
	  R(CERT_ALLOWED), R(MOK), 1, "CN=Test UEFI CA 2023", S(NOT_ALLOWED), S(ALLOWED), 0 },
	{ "shim: unsigned, the image hash in MokListRT", SHIM, ON, UNSIGNED, 0, 0, HASH, 0, 0, -1, 0, BOOTS,
	  R(HASH_ALLOWED), R(MOK), -1, NULL, 0, 0, 0 },
	{ "shim: a MokListRT certificate for module signing only is not tried (verify_eku)", SHIM, ON, MODSIGN, 0, 0,
	  C(CA5), 0, 0, -1, 0, REFUSED, R(NOT_ALLOWED), R(DB_NONE), -1, NULL, S(NOT_ALLOWED), 0, 0 },
	{ "firmware: the same certificate in db: EDK2 does not look at the key usage", FW, ON, MODSIGN, C(CA5), 0, 0, 0,
	  0, -1, 0, BOOTS, R(CERT_ALLOWED), R(DB), 0, "CN=Module Signing Key", S(ALLOWED), 0, 0 },
	{ "shim: nor does it forbid from MokListXRT; shim's built-in certificate is not filtered", SHIM, ON, MODSIGN, 0,
	  0, 0, C(CA5), 0, CA5, 0, BOOTS, R(CERT_ALLOWED), R(VENDOR_CERT), 0, "CN=Module Signing Key", S(ALLOWED), 0,
	  0 },
	{ "shim: a db certificate with a byte after its DER is not tried (verify_x509)", SHIM, ON, VENDOR, JUNK_CA4, 0,
	  0, 0, 0, -1, 0, REFUSED, R(NOT_ALLOWED), R(DB_NONE), -1, NULL, S(NOT_ALLOWED), 0, 0 },
	{ "shim: the image's SHA-1 in dbx (EFI_CERT_SHA1), though db holds its signer's CA", SHIM, ON, SHA1SIGNED,
	  C(CA4), HASH1, 0, 0, 0, -1, 0, REFUSED, R(HASH_FORBIDDEN), R(DBX), -1, NULL, S(NOT_COMPUTED), 0,
	  SBAT_DIGEST_SHA1 },
	{ "shim: the image's SHA-1 in db", SHIM, ON, SHA1SIGNED, HASH1, 0, 0, 0, 0, -1, 0, BOOTS, R(HASH_ALLOWED),
	  R(DB), -1, NULL, S(NOT_COMPUTED), 0, SBAT_DIGEST_SHA1 },
	{ "shim: the image's SHA-1 in the vendor dbx", SHIM, ON, SHA1SIGNED, HASH1, 0, 0, 0, HASH1, -1, 0, REFUSED,
	  R(HASH_FORBIDDEN), R(VENDOR_DBX), -1, NULL, S(NOT_COMPUTED), 0, SBAT_DIGEST_SHA1 },
	{ "shim: an EFI_CERT_SHA1 entry in MokListXRT is not read", SHIM, ON, SHA1SIGNED, HASH1, 0, 0, HASH1, 0, -1, 0,
	  BOOTS, R(HASH_ALLOWED), R(DB), -1, NULL, S(NOT_COMPUTED), 0, SBAT_DIGEST_SHA1 },
	{ "shim: a TBS hash in dbx is not read", SHIM, ON, DUAL, C(CA2), TBS_SIG1, 0, 0, 0, -1, 0, BOOTS,
	  R(CERT_ALLOWED), R(DB), 1, "CN=Test UEFI CA 2023", S(NOT_ALLOWED), S(ALLOWED), 0 },
	/* EDK2 hashes the image by the signature's algorithm (HashPeImageByType), and an unsigned one by each */
	{ "firmware: a SHA-384 signature, its signer's CA in db", FW, ON, SHA384SIGNED, C(CA4), 0, 0, 0, 0, -1, 0,
	  BOOTS, R(CERT_ALLOWED), R(DB), 0, "CN=Vendor Secure Boot CA", S(ALLOWED), 0, 0 },
	{ "firmware: a SHA-384 signature whose signer's CA dbx forbids", FW, ON, SHA384SIGNED, C(CA4), C(CA4), 0, 0, 0,
	  -1, 0, REFUSED, R(CERT_FORBIDDEN), R(DBX), 0, "CN=Vendor Secure Boot CA", S(FORBIDDEN), 0, 0 },
	{ "firmware: a SHA-512 signature whose signer's CA dbx forbids", FW, ON, SHA512SIGNED, C(CA4), C(CA4), 0, 0, 0,
	  -1, 0, REFUSED, R(CERT_FORBIDDEN), R(DBX), 0, "CN=Vendor Secure Boot CA", S(FORBIDDEN), 0, 0 },
	{ "firmware: a SHA-512 signature, the image's SHA-512 in dbx", FW, ON, SHA512SIGNED, C(CA4), HASH512, 0, 0, 0,
	  -1, 0, REFUSED, R(HASH_FORBIDDEN), R(DBX), -1, NULL, S(ALLOWED), 0, SBAT_DIGEST_SHA512 },
	{ "firmware: a SHA-384 signature, the image's SHA-384 in db", FW, ON, SHA384SIGNED, HASH384, 0, 0, 0, 0, -1, 0,
	  BOOTS, R(HASH_ALLOWED), R(DB), -1, NULL, S(NOT_ALLOWED), 0, SBAT_DIGEST_SHA384 },
	{ "firmware: a SHA-1 signature, its signer's CA in db", FW, ON, SHA1SIGNED, C(CA4), 0, 0, 0, 0, -1, 0, BOOTS,
	  R(CERT_ALLOWED), R(DB), 0, "CN=Vendor Secure Boot CA", S(ALLOWED), 0, 0 },
	{ "firmware: a SHA-256 signature: the image's SHA-384 in dbx is not compared", FW, ON, VENDOR, C(CA4), HASH384,
	  0, 0, 0, -1, 0, BOOTS, R(CERT_ALLOWED), R(DB), 0, "CN=Vendor Secure Boot CA", S(ALLOWED), 0, 0 },
	{ "firmware: unsigned, its SHA-256 in db, its SHA-384 in dbx", FW, ON, UNSIGNED, HASH, HASH384, 0, 0, 0, -1, 0,
	  REFUSED, R(HASH_FORBIDDEN), R(DBX), -1, NULL, 0, 0, SBAT_DIGEST_SHA384 },
	{ "firmware: unsigned, its SHA-256 in db, its SHA-512 in dbx", FW, ON, UNSIGNED, HASH, HASH512, 0, 0, 0, -1, 0,
	  REFUSED, R(HASH_FORBIDDEN), R(DBX), -1, NULL, 0, 0, SBAT_DIGEST_SHA512 },
	{ "firmware: unsigned, its SHA-256 in db, its SHA-1 in dbx", FW, ON, UNSIGNED, HASH, HASH1, 0, 0, 0, -1, 0,
	  REFUSED, R(HASH_FORBIDDEN), R(DBX), -1, NULL, 0, 0, SBAT_DIGEST_SHA1 },
	{ "firmware: unsigned, its SHA-1 in db", FW, ON, UNSIGNED, HASH1, 0, 0, 0, 0, -1, 0, BOOTS, R(HASH_ALLOWED),
	  R(DB), -1, NULL, 0, 0, SBAT_DIGEST_SHA1 },
	{ "firmware: unsigned, its SHA-512 in db", FW, ON, UNSIGNED, HASH512, 0, 0, 0, 0, -1, 0, BOOTS, R(HASH_ALLOWED),
	  R(DB), -1, NULL, 0, 0, SBAT_DIGEST_SHA512 },
	{ "firmware: the 2023 signer's TBS SHA-384 in dbx (EFI_CERT_X509_SHA384)", FW, ON, DUAL, C(CA1), TBS384_SIG1, 0,
	  0, 0, -1, 0, REFUSED, R(CERT_HASH_FORBIDDEN), R(DBX), 1, "CN=Test Publisher 2023", S(ALLOWED), S(FORBIDDEN),
	  0 },
	{ "firmware: the db CA's TBS SHA-512 in dbx (EFI_CERT_X509_SHA512)", FW, ON, DUAL, C(CA1), TBS512_CA1, 0, 0, 0,
	  -1, 0, REFUSED, R(NOT_ALLOWED), R(DB_NONE), -1, NULL, S(REVOKED_ROOT), S(NOT_ALLOWED), 0 },
	/* shim 16.1 hashes SHA-256 and SHA-1 only, and compares a signature's digest with the SHA-256 */
	{ "shim: a SHA-384 signature is not allowed by its signer's CA in db", SHIM, ON, SHA384SIGNED, C(CA4), 0, 0, 0,
	  0, -1, 0, REFUSED, R(NOT_ALLOWED), R(DB_NONE), -1, NULL, S(NOT_COMPUTED), 0, 0 },
	{ "shim: a SHA-384 signature, the image's SHA-384 in dbx: not read", SHIM, ON, SHA384SIGNED, 0,
	  C(CA4) | HASH384, HASH, 0, 0, -1, 0, BOOTS, R(HASH_ALLOWED), R(MOK), -1, NULL, S(NOT_COMPUTED), 0, 0 },
	{ "shim: unsigned, its SHA-512 in dbx: not read", SHIM, ON, UNSIGNED, 0, HASH512, HASH, 0, 0, -1, 0, BOOTS,
	  R(HASH_ALLOWED), R(MOK), -1, NULL, 0, 0, 0 },
	{ "firmware: the 2023 CA second in one X.509 list of db: EDK2 tries every certificate of a list", FW, ON,
	  SIGNED2023, PAIR12, 0, 0, 0, 0, -1, 0, BOOTS, R(CERT_ALLOWED), R(DB), 0, "CN=Test UEFI CA 2023", S(ALLOWED),
	  0, 0 },
	{ "shim: the same db: check_db_cert_in_ram tries only the first certificate of each X.509 list", SHIM, ON,
	  SIGNED2023, PAIR12, 0, 0, 0, 0, -1, 0, REFUSED, R(CERT_NOT_FIRST), R(DB), 0, "CN=Test UEFI CA 2023",
	  S(NOT_ALLOWED), 0, 0 },
	{ "shim: the 2023 CA first in its list", SHIM, ON, SIGNED2023, PAIR21, 0, 0, 0, 0, -1, 0, BOOTS,
	  R(CERT_ALLOWED), R(DB), 0, "CN=Test UEFI CA 2023", S(ALLOWED), 0, 0 },
	{ "shim: the 2023 CA second in one X.509 list of MokListRT is not tried either", SHIM, ON, SIGNED2023, 0, 0,
	  PAIR12, 0, 0, -1, 0, REFUSED, R(CERT_NOT_FIRST), R(MOK), 0, "CN=Test UEFI CA 2023", S(NOT_ALLOWED), 0, 0 },
	{ "shim: second in a list of the db MokIgnoreDB makes shim ignore: neither reason, not allowed", SHIM, ON,
	  SIGNED2023, PAIR12, 0, 0, 0, 0, -1, 1, REFUSED, R(NOT_ALLOWED), R(DB_NONE), -1, NULL, S(NOT_ALLOWED), 0, 0 },
	{ "firmware: the 2023 CA second in one X.509 list of dbx forbids", FW, ON, SIGNED2023, C(CA2), PAIR12, 0, 0, 0,
	  -1, 0, REFUSED, R(CERT_FORBIDDEN), R(DBX), 0, "CN=Test UEFI CA 2023", S(FORBIDDEN), 0, 0 },
	{ "shim: the same dbx: shim sees only the list's first certificate, and db allows", SHIM, ON, SIGNED2023,
	  C(CA2), PAIR12, 0, 0, 0, -1, 0, BOOTS, R(CERT_ALLOWED), R(DB), 0, "CN=Test UEFI CA 2023", S(ALLOWED), 0, 0 },
};

/* The signature list type that holds an image hash by alg. */
static sbat_sig_type
hash_type(sbat_digest_alg alg)
{
	return alg == SBAT_DIGEST_SHA1   ? SBAT_SIG_SHA1 :
	       alg == SBAT_DIGEST_SHA384 ? SBAT_SIG_SHA384 :
	       alg == SBAT_DIGEST_SHA512 ? SBAT_SIG_SHA512 :
	                                   SBAT_SIG_SHA256;
}

static void
check_case(const vcase *c)
{
	sbat_sigdb *dbs[5] = { NULL };
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	uint8_t hash[32];
	sbat_digest_alg want_alg;
	sbat_sigverify *v = NULL;
	sbat_image *img = NULL;
	sbat_diag d;
	int i;

	print_message("# %s\n", c->name);
	if (!images[c->image]) {
		print_message("#   skipped: no osslsigncode\n");
		return;
	}
	assert_int_equal(sbat_image_parse(images[c->image], image_len[c->image], &img, &d), SBAT_OK);
	assert_int_equal(
	    sbat_authenticode_hash(img, c->rule == SHIM ? SBAT_AUTHENTICODE_SHIM : SBAT_AUTHENTICODE_EDK2, hash, &d),
	    SBAT_OK);
	o.rule = c->rule;
	o.mode = c->mode;
	o.db = dbs[0] = make_db(c->db, hash);
	o.dbx = dbs[1] = make_db(c->dbx, hash);
	o.mok = dbs[2] = make_db(c->mok, hash);
	o.mokx = dbs[3] = make_db(c->mokx, hash);
	o.vendor_dbx = dbs[4] = make_db(c->vendor_dbx, hash);
	if (c->vendor_cert >= 0) {
		o.vendor_cert = certs[c->vendor_cert];
		o.vendor_cert_len = cert_len[c->vendor_cert];
	}
	o.ignore_db = c->ignore_db;
	assert_int_equal(sbat_sigverify_image(img, &o, &v, &d), SBAT_OK);
	assert_string_equal(sbat_judge_verdict_name(v->verdict), sbat_judge_verdict_name(c->verdict));
	assert_string_equal(sbat_sigverify_reason_name(v->reason), sbat_sigverify_reason_name(c->reason));
	assert_string_equal(sbat_sigverify_db_name(v->db), sbat_sigverify_db_name(c->by));
	assert_int_equal(v->sig, c->sig);
	assert_memory_equal(v->image_hash, hash, 32);
	if (c->subject)
		assert_non_null(strstr(v->subject, c->subject));
	else
		assert_string_equal(v->subject, "");
	assert_int_equal(v->assumes_valid, 0); /* every signature is verified */
	want_alg = c->hash_alg ? c->hash_alg : SBAT_DIGEST_SHA256;
	if (c->reason == R(HASH_ALLOWED) || c->reason == R(HASH_FORBIDDEN)) /* the entry's type says by which hash */
		assert_string_equal(sbat_sigdb_type_name(v->entry->type), sbat_sigdb_type_name(hash_type(want_alg)));
	else
		want_alg = SBAT_DIGEST_UNKNOWN;
	assert_int_equal(v->hash_sha1, want_alg == SBAT_DIGEST_SHA1);
	assert_int_equal(v->entry == NULL, c->by == R(DB_NONE) || c->by == R(VENDOR_CERT));
	if (v->n_sigs >= 1)
		assert_string_equal(sbat_sigverify_state_name(v->sigs[0].state), sbat_sigverify_state_name(c->state0));
	if (v->n_sigs >= 2)
		assert_string_equal(sbat_sigverify_state_name(v->sigs[1].state), sbat_sigverify_state_name(c->state1));
	sbat_sigverify_free(v);
	for (i = 0; i < 5; i++)
		sbat_sigdb_free(dbs[i]);
	sbat_image_free(img);
}

/* extendedKeyUsage: module signing only is told apart (the CA5 certificate), other certificates say nothing. */
static void
test_key_usage(void **state)
{
	sbat_authenticode_cert *c = NULL;
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	assert_int_equal(sbat_authenticode_cert_read(certs[CA5], cert_len[CA5], &c, &d), SBAT_OK);
	assert_int_equal(c->module_signing_eku, 1);
	sbat_authenticode_cert_free(c);
	assert_int_equal(sbat_authenticode_cert_read(certs[CA4], cert_len[CA4], &c, &d), SBAT_OK);
	assert_int_equal(c->module_signing_eku, 0);
	sbat_authenticode_cert_free(c);
	assert_int_equal(sbat_authenticode_cert_read(certs[CA4], 3, &c, &d), SBAT_E_SIGNATURE);
	assert_null(c);
}

/* dbx holding cn's TBS hash revoked from 2025-01-01 on (an EFI_CERT_X509_SHA256 entry with a time). */
static sbat_sigdb *
dbx_from_2025(const char *cn)
{
	uint8_t entry[48] = { 0 };
	sbat_sigdb *db = NULL;
	sbat_diag d;

	tbs_of(cn, entry);
	entry[32] = 0xe9; /* EFI_TIME: Year 2025 (little-endian), Month 1, Day 1 */
	entry[33] = 0x07;
	entry[34] = 1;
	entry[35] = 1;
	assert_int_equal(sbat_sigdb_new(&db, &d), SBAT_OK);
	add_entry(db, guid_x509_sha256, entry, sizeof(entry));
	return db;
}

/* The firmware's rule on dbx: the dual-signed image, db holding the 2011 CA. */
static sbat_sigverify *
judge_dual(const sbat_sigdb *dbx, const sbat_sigdb *dbt, int dbt_unknown)
{
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	sbat_sigverify *v = NULL;
	sbat_image *img = NULL;
	sbat_sigdb *db = make_db(C(CA1), NULL);
	sbat_diag d;

	o.db = db;
	o.dbx = dbx;
	o.dbt = dbt;
	o.dbt_unknown = dbt_unknown;
	assert_int_equal(sbat_image_parse(images[DUAL], image_len[DUAL], &img, &d), SBAT_OK);
	assert_int_equal(sbat_sigverify_image(img, &o, &v, &d), SBAT_OK);
	sbat_image_free(img);
	sbat_sigdb_free(db);
	return v;
}

/*
 * EDK2's PassTimestampCheck: an EFI_CERT_X509_SHA256 entry with a time
 * revokes for certain when dbt holds no certificate; with one in dbt a
 * signature timestamped before the time would pass: not known.
 */
static void
test_timestamps(void **state)
{
	sbat_sigdb *signer = NULL, *root = NULL, *dbt = NULL;
	sbat_sigverify *v;

	(void)state;
	if (!have_tools)
		skip();
	signer = dbx_from_2025("Test Publisher 2023");
	root = dbx_from_2025("Test UEFI CA 2011");
	dbt = make_db(C(CA3), NULL);

	v = judge_dual(signer, NULL, 0); /* no dbt: revoked */
	assert_int_equal(v->verdict, SBAT_VERDICT_REFUSED);
	assert_int_equal(v->reason, SBAT_SIGVERIFY_CERT_HASH_FORBIDDEN);
	assert_int_equal(v->timestamps_ignored, 0);
	sbat_sigverify_free(v);
	v = judge_dual(signer, dbt, 0); /* an authority in dbt: not known */
	assert_int_equal(v->verdict, SBAT_VERDICT_UNKNOWN);
	assert_string_equal(sbat_sigverify_reason_name(v->reason), "timestamp-not-checked");
	assert_int_equal(v->sig, 1);
	assert_int_equal(v->timestamps_ignored, 1);
	sbat_sigverify_free(v);
	v = judge_dual(signer, NULL, 1); /* dbt does not read: not known */
	assert_int_equal(v->verdict, SBAT_VERDICT_UNKNOWN);
	sbat_sigverify_free(v);

	v = judge_dual(root, NULL, 0); /* db's CA revoked, no dbt: nothing allows it */
	assert_int_equal(v->verdict, SBAT_VERDICT_REFUSED);
	assert_int_equal(v->reason, SBAT_SIGVERIFY_NOT_ALLOWED);
	sbat_sigverify_free(v);
	v = judge_dual(root, dbt, 0); /* with dbt, IsAllowedByDb could pass it */
	assert_int_equal(v->verdict, SBAT_VERDICT_UNKNOWN);
	assert_int_equal(v->reason, SBAT_SIGVERIFY_TIMESTAMP_NOT_CHECKED);
	sbat_sigverify_free(v);

	sbat_sigdb_free(signer);
	sbat_sigdb_free(root);
	sbat_sigdb_free(dbt);
}

static void
test_cases(void **state)
{
	size_t i;

	(void)state;
	if (!have_tools)
		skip();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
}

/* The dual-signed image: two WIN_CERTIFICATEs; the 2011 chain holds its CA, the 2023 one its signer only. */
static void
test_chains(void **state)
{
	sbat_sigverify *v = NULL;
	sbat_image *img = NULL;
	const sbat_authenticode_sig *s;
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	assert_int_equal(sbat_image_parse(images[DUAL], image_len[DUAL], &img, &d), SBAT_OK);
	assert_int_equal(sbat_sigverify_image(img, NULL, &v, &d), SBAT_OK);
	assert_int_equal(v->signatures->n_entries, 2);
	assert_int_equal(v->n_sigs, 2);
	s = &v->signatures->sigs[0];
	assert_int_equal(v->sigs[0].n_chain, 2);
	assert_int_equal(v->sigs[0].chain[0], s->signer_cert);
	assert_non_null(strstr(s->certs[v->sigs[0].chain[1]].subject, "CN=Test UEFI CA 2011"));
	assert_int_equal(v->sigs[1].n_chain, 1);
	assert_non_null(strstr(v->signatures->sigs[1].certs[v->sigs[1].chain[0]].subject, "CN=Test Publisher 2023"));
	/* no database: refused */
	assert_int_equal(v->verdict, SBAT_VERDICT_REFUSED);
	assert_int_equal(v->reason, SBAT_SIGVERIFY_NOT_ALLOWED);
	sbat_sigverify_free(v);
	sbat_image_free(img);
}

static sbat_sigverify *verdict(const sbat_image *img, const sbat_sigverify_opts *o);

/* The verdict v by name (reasons added after 0.2 are compared by their name), then freed. */
static void
expect_named(sbat_sigverify *v, sbat_verdict want, const char *reason, const char *subject)
{
	assert_string_equal(sbat_judge_verdict_name(v->verdict), sbat_judge_verdict_name(want));
	assert_string_equal(sbat_sigverify_reason_name(v->reason), reason);
	assert_non_null(strstr(v->subject, subject));
	sbat_sigverify_free(v);
}

/* The offset in buf[from..from+len) of the first pattern[0..n) plus skip; the test fails when there is none. */
static size_t
find(const uint8_t *buf, size_t from, size_t len, const uint8_t *pattern, size_t n, size_t skip)
{
	size_t i;

	for (i = from; i + n <= from + len; i++)
		if (memcmp(buf + i, pattern, n) == 0)
			return i + skip;
	fail_msg("pattern not found");
	return 0;
}

/* The certificate of s whose subject holds cn. */
static const sbat_authenticode_cert *
cert_named(const sbat_authenticode_sig *s, const char *cn)
{
	size_t k;

	for (k = 0; k < s->n_certs; k++)
		if (strstr(s->certs[k].subject, cn))
			return &s->certs[k];
	fail_msg("no certificate %s", cn);
	return NULL;
}

/* Where a byte class lies in CHAIN3's signature s (offsets in the image). */
enum flip { F_SIGNATURE, F_MESSAGE_DIGEST, F_ATTRIBUTE, F_CONTENT, F_LEAF_TBS, F_LEAF_SIG, F_INTER_TBS, F_INTER_SIG };
static const char *const flip_names[] = { "the SignerInfo's signature value",
	                                  "the messageDigest attribute",
	                                  "another signed attribute (contentType)",
	                                  "the SpcIndirectDataContent beside its image digest",
	                                  "the signer certificate's TBSCertificate (notBefore)",
	                                  "the signer certificate's signatureValue",
	                                  "the intermediate's TBSCertificate (notBefore)",
	                                  "the intermediate's signatureValue" };

static size_t
flip_offset(const uint8_t *buf, const sbat_authenticode_sig *s, enum flip f)
{
	/* messageDigest (1.2.840.113549.1.9.4) SET { OCTET STRING (32) }; contentType (.9.3) SET { OID (10) } */
	static const uint8_t md[] = { 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,
		                      0x01, 0x09, 0x04, 0x31, 0x22, 0x04, 0x20 };
	static const uint8_t ct[] = { 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,
		                      0x01, 0x09, 0x03, 0x31, 0x0c, 0x06, 0x0a };
	/* SpcPeImageData's type, 1.3.6.1.4.1.311.2.1.15 */
	static const uint8_t pe_data[] = { 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x01, 0x0f };
	static const uint8_t utc[] = { 0x17, 0x0d };
	const sbat_authenticode_cert *leaf = cert_named(s, "CN=Test Chain Leaf");
	const sbat_authenticode_cert *inter = cert_named(s, "CN=Test Chain Intermediate");

	switch (f) {
	case F_SIGNATURE: return s->offset + s->len - 10; /* sbsign's SignerInfo ends with its signature */
	case F_MESSAGE_DIGEST: return find(buf, s->offset, s->len, md, sizeof(md), sizeof(md) + 7);
	case F_ATTRIBUTE: return find(buf, s->offset, s->len, ct, sizeof(ct), sizeof(ct) + 9);
	case F_CONTENT: return find(buf, s->offset, s->len, pe_data, sizeof(pe_data), sizeof(pe_data) - 1);
	case F_LEAF_TBS: return find(buf, leaf->offset, leaf->der_len, utc, sizeof(utc), 3);
	case F_LEAF_SIG: return leaf->offset + leaf->der_len - 5;
	case F_INTER_TBS: return find(buf, inter->offset, inter->der_len, utc, sizeof(utc), 3);
	default: return inter->offset + inter->der_len - 5;
	}
}

/* CHAIN3's verdict by rule with its root in db, after one bit at `at` (0: none) was flipped. */
static void
flipped_verdict(size_t at, sbat_sigverify_rule rule, sbat_verdict want, const char *reason)
{
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	uint8_t *buf = malloc(image_len[CHAIN3]);
	sbat_image *img = NULL;
	sbat_sigverify *v;
	sbat_sigdb *db = make_db(C(CA6), NULL);
	sbat_diag d;

	assert_non_null(buf);
	memcpy(buf, images[CHAIN3], image_len[CHAIN3]);
	if (at)
		buf[at] ^= 0x01;
	assert_int_equal(sbat_image_parse(buf, image_len[CHAIN3], &img, &d), SBAT_OK);
	o.rule = rule;
	o.db = db;
	v = verdict(img, &o);
	assert_string_equal(sbat_judge_verdict_name(v->verdict), sbat_judge_verdict_name(want));
	assert_string_equal(sbat_sigverify_reason_name(v->reason), reason);
	if (at) /* the image's hash is not the signature's business: the certificate table is outside it */
		assert_int_equal(v->signatures->sigs[0].covers_image, 1);
	sbat_sigverify_free(v);
	sbat_image_free(img);
	sbat_sigdb_free(db);
	free(buf);
}

/*
 * One flipped bit in each class of bytes of a signature: the signature
 * value, a signed attribute, the messageDigest, the content it covers, a
 * certificate of the chain (its TBS, its signature): the signature does
 * not verify, by the firmware's rule and shim's, where the image as signed
 * boots.
 */
static void
test_flipped(void **state)
{
	sbat_authenticode *a = NULL;
	sbat_image *img = NULL;
	sbat_diag d;
	size_t f, at;

	(void)state;
	if (!have_tools)
		skip();
	flipped_verdict(0, FW, BOOTS, "cert-allowed");
	flipped_verdict(0, SHIM, BOOTS, "cert-allowed");
	assert_int_equal(sbat_image_parse(images[CHAIN3], image_len[CHAIN3], &img, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_parse(img, &a, &d), SBAT_OK);
	for (f = 0; f < sizeof(flip_names) / sizeof(flip_names[0]); f++) {
		print_message("# flipped: %s\n", flip_names[f]);
		at = flip_offset(images[CHAIN3], &a->sigs[0], (enum flip)f);
		flipped_verdict(at, FW, REFUSED, "bad-signature");
		flipped_verdict(at, SHIM, REFUSED, "bad-signature");
	}
	sbat_authenticode_free(a);
	sbat_image_free(img);
}

/* An intermediate whose basicConstraints say CA:FALSE issues no certificate OpenSSL takes (INVALID_CA) */
static void
test_not_ca(void **state)
{
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	sbat_sigdb *root, *inter, *leaf;
	sbat_image *img = NULL;
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	root = make_db(C(CA6), NULL);
	inter = make_db(C(I7), NULL);
	leaf = make_db(C(L7), NULL);
	assert_int_equal(sbat_image_parse(images[NOT_CA], image_len[NOT_CA], &img, &d), SBAT_OK);
	o.db = root;
	expect_named(verdict(img, &o), REFUSED, "issuer-not-ca", "CN=Test Not A CA");
	o.rule = SHIM;
	expect_named(verdict(img, &o), REFUSED, "issuer-not-ca", "CN=Test Not A CA");
	o.db = inter; /* as the trust anchor above the signer: the same */
	expect_named(verdict(img, &o), REFUSED, "issuer-not-ca", "CN=Test Not A CA");
	o.db = leaf; /* the signer itself trusted: no issuer is needed */
	expect_named(verdict(img, &o), BOOTS, "cert-allowed", "CN=Test Leaf Of A Non-CA");
	o.rule = FW;
	o.db = NULL;
	o.dbx = root; /* nor does dbx forbid through it: not a chain OpenSSL builds */
	expect_named(verdict(img, &o), REFUSED, "issuer-not-ca", "CN=Test Not A CA");
	sbat_sigdb_free(root);
	sbat_sigdb_free(inter);
	sbat_sigdb_free(leaf);
	sbat_image_free(img);
}

/* An image edited after signing: its signatures reach nothing, and it is refused though its CA is in db */
static void
test_stale(void **state)
{
	static const uint8_t no_hash[32];
	sbat_sigverify_opts o;
	sbat_sigverify *v = NULL;
	sbat_image *img = NULL;
	sbat_sigdb *db;
	uint8_t *buf;
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	buf = malloc(image_len[DUAL]);
	memcpy(buf, images[DUAL], image_len[DUAL]);
	assert_int_equal(sbat_image_parse(buf, image_len[DUAL], &img, &d), SBAT_OK);
	buf[sbat_image_section(img, 0)->pointer_to_raw_data] ^= 1; /* a byte of a section: the hash covers it */
	img = sbat_image_free(img);
	db = make_db(C(CA1) | C(CA2), no_hash);
	sbat_sigverify_opts_init(&o);
	o.db = db;
	assert_int_equal(sbat_image_parse(buf, image_len[DUAL], &img, &d), SBAT_OK);
	assert_int_equal(sbat_sigverify_image(img, &o, &v, &d), SBAT_OK);
	assert_int_equal(v->verdict, SBAT_VERDICT_REFUSED);
	assert_int_equal(v->reason, SBAT_SIGVERIFY_NOT_ALLOWED);
	assert_int_equal(v->sigs[0].state, SBAT_SIGVERIFY_SIG_STALE);
	assert_int_equal(v->sigs[1].state, SBAT_SIGVERIFY_SIG_STALE);
	sbat_sigverify_free(v);
	sbat_image_free(img);
	sbat_sigdb_free(db);
	free(buf);
}

/*
 * A SHA-1, SHA-384 or SHA-512 signature is compared with the image's hash
 * by its algorithm: it covers the image osslsigncode signed, and no
 * longer covers it when a byte of a section changes (the firmware's rule
 * then finds it stale, and sbat_authenticode_check says so).
 */
static void
test_other_digests_stale(void **state)
{
	static const enum image which[] = { SHA1SIGNED, SHA384SIGNED, SHA512SIGNED };
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	sbat_authenticode *a = NULL;
	sbat_sigverify *v = NULL;
	sbat_image *img = NULL;
	sbat_sigdb *db;
	uint8_t *buf;
	sbat_diag d;
	size_t k;

	(void)state;
	if (!have_tools || !images[SHA384SIGNED])
		skip();
	db = make_db(C(CA4), NULL);
	o.db = db;
	for (k = 0; k < sizeof(which) / sizeof(which[0]); k++) {
		buf = malloc(image_len[which[k]]);
		memcpy(buf, images[which[k]], image_len[which[k]]);
		assert_int_equal(sbat_image_parse(buf, image_len[which[k]], &img, &d), SBAT_OK);
		assert_int_equal(sbat_authenticode_parse(img, &a, &d), SBAT_OK);
		assert_int_equal(a->sigs[0].covers_image, 1);
		assert_int_equal(sbat_authenticode_check(a, &d), SBAT_OK);
		sbat_authenticode_free(a);
		buf[sbat_image_section(img, 0)->pointer_to_raw_data] ^= 1; /* a byte of a section: the hash covers it */
		assert_int_equal(sbat_authenticode_parse(img, &a, &d), SBAT_OK);
		assert_int_equal(a->sigs[0].covers_image, 0);
		assert_int_equal(sbat_authenticode_check(a, &d), SBAT_E_SIGNATURE_STALE);
		sbat_authenticode_free(a);
		assert_int_equal(sbat_sigverify_image(img, &o, &v, &d), SBAT_OK);
		assert_string_equal(sbat_sigverify_reason_name(v->reason), "not-allowed");
		assert_string_equal(sbat_sigverify_state_name(v->sigs[0].state), "stale");
		sbat_sigverify_free(v);
		img = sbat_image_free(img);
		free(buf);
	}
	sbat_sigdb_free(db);
}

/* An options structure of a size the library does not know is refused; names of values past the lists */
static void
test_abi(void **state)
{
	sbat_sigverify_opts o;
	sbat_sigverify *v = (sbat_sigverify *)1;
	sbat_image *img = NULL;
	uint8_t *buf;
	size_t len;
	fx_spec spec;
	sbat_diag d;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &buf, &len), 0);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	sbat_sigverify_opts_init(&o);
	o.size = 8;
	assert_int_equal(sbat_sigverify_image(img, &o, &v, &d), SBAT_E_ABI);
	assert_null(v);
	sbat_sigverify_free(NULL);
	assert_string_equal(sbat_sigverify_reason_name((sbat_sigverify_reason)99), "unknown");
	assert_string_equal(sbat_sigverify_db_name(SBAT_SIGVERIFY_MOKX), "MokListXRT");
	assert_string_equal(sbat_sigverify_state_name((sbat_sigverify_state)-1), "unknown");
	sbat_image_free(img);
	free(buf);
}

/* An image of the corpus (tests/integration/fetch-corpus.sh), parsed; NULL when the corpus is not there. */
static sbat_image *
corpus_image(const char *name, uint8_t **ret_buf)
{
	const char *env = getenv("SBAT_CORPUS_DIR"), *home = getenv("HOME"), *cache = getenv("XDG_CACHE_HOME");
	sbat_image *img = NULL;
	char path[512];
	size_t len;
	sbat_diag d;

	if (env)
		snprintf(path, sizeof(path), "%s/signed/%s", env, name);
	else if (cache)
		snprintf(path, sizeof(path), "%s/sbat-add-corpus/signed/%s", cache, name);
	else
		snprintf(path, sizeof(path), "%s/.cache/sbat-add-corpus/signed/%s", home ? home : "", name);
	*ret_buf = slurp_path(path, &len);
	if (*ret_buf)
		assert_int_equal(sbat_image_parse(*ret_buf, len, &img, &d), SBAT_OK);
	return img;
}

/* A database of the signature list or the certificate tests/fixtures/sigdb/name holds. */
static sbat_sigdb *
fixture_db(const char *name, int is_cert)
{
	const char *src = getenv("FIXTURES_SRC");
	sbat_sigdb *db = NULL;
	char path[512];
	uint8_t *b;
	size_t len;
	sbat_diag d;

	assert_non_null(src);
	snprintf(path, sizeof(path), "%s/sigdb/%s", src, name);
	b = slurp_path(path, &len);
	assert_non_null(b);
	assert_int_equal(sbat_sigdb_new(&db, &d), SBAT_OK);
	if (is_cert)
		add_entry(db, guid_x509, b, len);
	else
		assert_int_equal(sbat_sigdb_append(db, b, len, name, &d), SBAT_OK);
	free(b);
	return db;
}

static sbat_sigverify *
verdict(const sbat_image *img, const sbat_sigverify_opts *o)
{
	sbat_sigverify *v = NULL;
	sbat_diag d;

	assert_int_equal(sbat_sigverify_image(img, o, &v, &d), SBAT_OK);
	return v;
}

/* A database of the one certificate whose subject holds cn, as signature sig of v carries it. */
static sbat_sigdb *
db_of_cert(const sbat_sigverify *v, size_t sig, const char *cn)
{
	const sbat_authenticode_sig *s = &v->signatures->sigs[sig];
	sbat_sigdb *db = NULL;
	sbat_diag d;
	size_t k;

	assert_int_equal(sbat_sigdb_new(&db, &d), SBAT_OK);
	for (k = 0; k < s->n_certs; k++)
		if (strstr(s->certs[k].subject, cn))
			add_entry(db, guid_x509, s->certs[k].der, s->certs[k].der_len);
	assert_int_equal(sbat_sigdb_count(db), 1);
	return db;
}

static void
expect(sbat_sigverify *v, sbat_verdict verdict_, sbat_sigverify_reason reason, int sig, const char *subject)
{
	assert_int_equal(v->verdict, verdict_);
	assert_int_equal(v->reason, reason);
	assert_int_equal(v->sig, sig);
	if (subject)
		assert_non_null(strstr(v->subject, subject));
	sbat_sigverify_free(v);
}

/*
 * Debian's shim 16.1, signed by Microsoft twice (a 2011 and a 2023
 * signature), against db and dbx made of Microsoft's certificates: the
 * 2023 ones of tests/fixtures/sigdb, the 2011 CA as the shim carries it.
 */
static void
test_debian_shim(void **state)
{
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	sbat_sigdb *db2023, *windows, *ca2011, *hash;
	sbat_sigverify *v;
	sbat_image *img;
	uint8_t *buf;
	sbat_diag d;

	(void)state;
	img = corpus_image("shimx64.efi.signed-trixie", &buf);
	if (!img)
		skip();
	db2023 = fixture_db("uefi-ca-2023.esl", 0);
	windows = fixture_db("windows-uefi-ca-2023.der", 1);
	v = verdict(img, &o);
	assert_int_equal(v->signatures->n_entries, 2);
	/* Microsoft's two signatures verify (their SignerInfo; their chains below, by the verdicts) */
	assert_int_equal(v->signatures->sigs[0].signature_verifies, 1);
	assert_int_equal(v->signatures->sigs[1].signature_verifies, 1);
	ca2011 = db_of_cert(v, 0, "CN=Microsoft Corporation UEFI CA 2011");
	assert_int_equal(sbat_sigdb_new(&hash, &d), SBAT_OK);
	add_entry(hash, guid_sha256, v->image_hash, 32);
	expect(v, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_NOT_ALLOWED, -1, NULL);
	o.db = db2023;
	expect(verdict(img, &o), SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_CERT_ALLOWED, 1, "CN=Microsoft UEFI CA 2023");
	o.db = ca2011;
	expect(verdict(img, &o), SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_CERT_ALLOWED, 0,
	       "CN=Microsoft Corporation UEFI CA 2011");
	o.db = windows;
	expect(verdict(img, &o), SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_NOT_ALLOWED, -1, NULL);
	o.db = db2023;
	o.dbx = ca2011;
	v = verdict(img, &o);
	assert_int_equal(v->sigs[1].state, SBAT_SIGVERIFY_SIG_NOT_REACHED);
	expect(v, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_CERT_FORBIDDEN, 0, "CN=Microsoft Corporation UEFI CA 2011");
	o.dbx = hash;
	expect(verdict(img, &o), SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_HASH_FORBIDDEN, -1, NULL);
	o.rule = SBAT_SIGVERIFY_SHIM; /* as shim checks what it starts: one allowed signature is enough */
	o.dbx = ca2011;
	expect(verdict(img, &o), SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_CERT_ALLOWED, 1, "CN=Microsoft UEFI CA 2023");
	sbat_sigdb_free(db2023);
	sbat_sigdb_free(windows);
	sbat_sigdb_free(ca2011);
	sbat_sigdb_free(hash);
	sbat_image_free(img);
	free(buf);
}

/* Debian's GRUB behind Debian's shim: allowed by the vendor certificate in shim's .vendor_cert, refused by MokListXRT */
static void
test_debian_grub(void **state)
{
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	sbat_sigdb *vdb = NULL, *vdbx = NULL, *mokx;
	sbat_image *shim, *grub;
	uint8_t *shim_buf, *grub_buf;
	sbat_sigverify *v;
	sbat_diag d;

	(void)state;
	shim = corpus_image("shimx64.efi.signed-trixie", &shim_buf);
	grub = corpus_image("grubx64.efi.signed-trixie", &grub_buf);
	if (!shim || !grub) {
		sbat_image_free(shim);
		free(shim_buf);
		free(grub_buf);
		skip();
	}
	o.rule = SBAT_SIGVERIFY_SHIM;
	assert_int_equal(sbat_sigverify_read_vendor(shim, &o, &vdb, &vdbx, &d), SBAT_OK);
	assert_non_null(o.vendor_cert);
	v = verdict(grub, &o);
	assert_int_equal(v->db, SBAT_SIGVERIFY_VENDOR_CERT);
	assert_int_equal(sbat_sigdb_new(&mokx, &d), SBAT_OK);
	add_entry(mokx, guid_sha256, v->image_hash, 32);
	expect(v, SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_CERT_ALLOWED, 0, "CN=Debian Secure Boot CA");
	o.mokx = mokx;
	v = verdict(grub, &o);
	assert_int_equal(v->db, SBAT_SIGVERIFY_MOKX);
	expect(v, SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_HASH_FORBIDDEN, -1, NULL);
	/* the firmware does not know Debian's CA */
	o.rule = SBAT_SIGVERIFY_FIRMWARE;
	expect(verdict(grub, &o), SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_NOT_ALLOWED, -1, NULL);
	sbat_sigdb_free(mokx);
	sbat_sigdb_free(vdb);
	sbat_sigdb_free(vdbx);
	sbat_image_free(grub);
	sbat_image_free(shim);
	free(grub_buf);
	free(shim_buf);
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* An image with shim's .vendor_cert section: its key table, then auth and deauth; auth_at 0: after the table. */
static uint8_t *
shim_like(const uint8_t *auth, size_t auth_len, const uint8_t *deauth, size_t deauth_len, uint32_t auth_at,
          size_t *ret_len)
{
	size_t n = 16 + auth_len + deauth_len;
	uint8_t *content = calloc(1, n), *buf;
	fx_section sec;
	fx_spec spec;

	assert_non_null(content);
	put32(content, (uint32_t)auth_len);
	put32(content + 4, (uint32_t)deauth_len);
	put32(content + 8, auth_at ? auth_at : 16);
	put32(content + 12, (uint32_t)(16 + auth_len));
	memcpy(content + 16, auth, auth_len);
	if (deauth_len)
		memcpy(content + 16 + auth_len, deauth, deauth_len);
	fx_spec_init(&spec, FX_PLAIN);
	memset(&sec, 0, sizeof(sec));
	sec.name = "/4";
	sec.raw_size = (uint32_t)((n + 0x1ff) & ~(size_t)0x1ff);
	sec.content = (const char *)content;
	sec.content_len = n;
	assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &sec), 0);
	spec.symtab_in_overlay = 1;
	spec.strtab_name = ".vendor_cert";
	spec.overlay_len = 64;
	assert_int_equal(fx_build(&spec, &buf, ret_len), 0);
	free(content);
	return buf;
}

/* Read shim_buf's vendor keys into a shim rule's options; the image is kept in *ret_shim. */
static sbat_err
read_vendor(uint8_t *shim_buf, size_t shim_len, sbat_image **ret_shim, sbat_sigverify_opts *o, sbat_sigdb **vdb,
            sbat_sigdb **vdbx, sbat_diag *d)
{
	assert_int_equal(sbat_image_parse(shim_buf, shim_len, ret_shim, d), SBAT_OK);
	sbat_sigverify_opts_init(o);
	o->rule = SBAT_SIGVERIFY_SHIM;
	return sbat_sigverify_read_vendor(*ret_shim, o, vdb, vdbx, d);
}

/* shim's vendor certificate, vendor db and vendor dbx, read from a .vendor_cert section, then used */
static void
test_vendor_section(void **state)
{
	sbat_sigdb *vdb = NULL, *vdbx = NULL;
	sbat_image *shim = NULL, *img = NULL;
	sbat_sigverify_opts o;
	uint8_t hash[32], *buf, *dbx;
	size_t len, dbx_len;
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	assert_int_equal(sbat_image_parse(images[VENDOR], image_len[VENDOR], &img, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_hash(img, SBAT_AUTHENTICODE_SHIM, hash, &d), SBAT_OK);
	dbx = esl(guid_sha256, hash, 32, &dbx_len);
	/* a certificate: the signer's CA is shim's vendor certificate */
	buf = shim_like(certs[CA4], cert_len[CA4], NULL, 0, 0, &len);
	assert_int_equal(read_vendor(buf, len, &shim, &o, &vdb, &vdbx, &d), SBAT_OK);
	assert_true(vdb == NULL && vdbx == NULL && o.vendor_cert_len == cert_len[CA4]);
	assert_memory_equal(o.vendor_cert, certs[CA4], cert_len[CA4]);
	expect(verdict(img, &o), SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_CERT_ALLOWED, 0, "CN=Vendor Secure Boot CA");
	shim = sbat_image_free(shim);
	free(buf);
	/* and a vendor dbx holding the image's hash */
	buf = shim_like(certs[CA4], cert_len[CA4], dbx, dbx_len, 0, &len);
	assert_int_equal(read_vendor(buf, len, &shim, &o, &vdb, &vdbx, &d), SBAT_OK);
	assert_true(vdbx != NULL && o.vendor_dbx == vdbx);
	expect(verdict(img, &o), SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_HASH_FORBIDDEN, -1, NULL);
	sbat_sigdb_free(vdbx);
	shim = sbat_image_free(shim);
	free(buf);
	/* a vendor db (signature lists) instead of a certificate */
	buf = shim_like(dbx, dbx_len, NULL, 0, 0, &len);
	assert_int_equal(read_vendor(buf, len, &shim, &o, &vdb, &vdbx, &d), SBAT_OK);
	assert_true(vdb != NULL && o.vendor_db == vdb && o.vendor_cert == NULL);
	expect(verdict(img, &o), SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_HASH_ALLOWED, -1, NULL);
	sbat_sigdb_free(vdb);
	shim = sbat_image_free(shim);
	free(buf);
	/* a part past the section */
	buf = shim_like(certs[CA4], cert_len[CA4], NULL, 0, 0x10000, &len);
	assert_int_equal(read_vendor(buf, len, &shim, &o, &vdb, &vdbx, &d), SBAT_E_SIGNATURE);
	assert_string_equal(d.other_name, ".vendor_cert");
	assert_null(o.vendor_cert);
	shim = sbat_image_free(shim);
	free(buf);
	/* no section: nothing */
	sbat_sigverify_opts_init(&o);
	assert_int_equal(sbat_sigverify_read_vendor(img, &o, &vdb, &vdbx, &d), SBAT_OK);
	assert_null(o.vendor_cert);
	sbat_image_free(img);
	free(dbx);
}

/* shim's loader protocol on a section of a verified image: only the hash denylist applies */
static void
test_parent_verified(void **state)
{
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	sbat_image *img = NULL;
	sbat_sigdb *mokx;
	uint8_t hash[32];
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	assert_int_equal(sbat_image_parse(images[UNSIGNED], image_len[UNSIGNED], &img, &d), SBAT_OK);
	assert_int_equal(sbat_authenticode_hash(img, SBAT_AUTHENTICODE_SHIM, hash, &d), SBAT_OK);
	o.rule = SBAT_SIGVERIFY_SHIM;
	o.parent_verified = 1;
	expect(verdict(img, &o), SBAT_VERDICT_BOOTS, SBAT_SIGVERIFY_PARENT_VERIFIED, -1, NULL);
	mokx = make_db(HASH, hash);
	o.mokx = mokx;
	expect(verdict(img, &o), SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_HASH_FORBIDDEN, -1, NULL);
	o.parent_verified = 0;
	o.mokx = NULL;
	expect(verdict(img, &o), SBAT_VERDICT_REFUSED, SBAT_SIGVERIFY_NOT_ALLOWED, -1, NULL);
	sbat_sigdb_free(mokx);
	sbat_image_free(img);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_key_usage),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_chains),
		cmocka_unit_test(test_stale),
		cmocka_unit_test(test_abi),
		cmocka_unit_test(test_vendor_section),
		cmocka_unit_test(test_parent_verified),
		cmocka_unit_test(test_debian_shim),
		cmocka_unit_test(test_debian_grub),
		cmocka_unit_test(test_flipped),
		cmocka_unit_test(test_not_ca),
		cmocka_unit_test(test_other_digests_stale),
	};

	return run_group(tests, setup, teardown);
}
