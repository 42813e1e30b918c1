/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * test-sigloaders.c - where EDK2's DxeImageVerificationLib and shim 16.1
 * are definite about a signature's shape: a PKCS#7 over 64 KiB, a second
 * SignerInfo, names that differ in encoding only, the certificate table's
 * entries (their type, revision, padding) and a dbx time of nanoseconds.
 * Images are signed by sbsign (and osslsigncode) with certificates openssl
 * makes; the table is reshaped by sigtable.py.
 */
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

static char dir[64];
static char script[512];
static int have_tools;

static int
run(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static uint8_t *
slurp(const char *name, size_t *ret_len)
{
	char path[128];
	uint8_t *b = NULL;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
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

/*
 * The keys and certificates (openssl), the images (sbsign), then the
 * reshaped tables (sigtable.py). ca issues l1 and l2; cb issues lb. cnu and
 * cnp are one key under one name, "CN=Test Name CA, O=Example" in
 * UTF8String and "CN=TEST  name ca, O=EXAMPLE" in PrintableString; ln is
 * issued by cnu. ck has no subjectKeyIdentifier; lk, issued by ca, no
 * authorityKeyIdentifier.
 */
static const char *const setup_sh =
    "set -e; cd %s; S=%s\n"
    "ca() { openssl req -x509 -newkey rsa:2048 -nodes -days 30 -keyout $1.key -out $1.pem -subj \"$2\" $3; }\n"
    "leaf() { openssl req -newkey rsa:2048 -nodes -keyout $1.key -out $1.csr -subj \"$2\"\n"
    "  printf '%%s\\n' \"${4:-basicConstraints=CA:FALSE}\" >$1.ext\n"
    "  openssl x509 -req -in $1.csr -CA $3.pem -CAkey $3.key -CAcreateserial -days 30 -extfile $1.ext -out $1.pem; }\n"
    "der() { for c; do openssl x509 -in $c.pem -outform DER -out $c.der; done; }\n"
    "sign() { sbsign --key $1.key --cert $1.pem $3 --output $2 u.efi; }\n"
    "ca ca '/CN=Loader Test CA/O=Example'; ca cb '/CN=Other Test CA/O=Example'\n"
    "openssl genrsa -out pad.key 4096\n"
    "leaf l1 '/CN=Signer One/O=Example' ca; leaf l2 '/CN=Signer Two/O=Example' ca\n"
    "leaf lb '/CN=Signer Other/O=Example' cb\n"
    "ca cnu '/CN=Test Name CA/O=Example'\n"
    "printf '[req]\\ndistinguished_name=dn\\nstring_mask=default\\nx509_extensions=v3\\n[dn]\\n[v3]\\n"
    "basicConstraints=critical,CA:TRUE\\nsubjectKeyIdentifier=hash\\n' >p.cnf\n"
    "openssl req -x509 -config p.cnf -key cnu.key -days 30 -out cnp.pem -subj '/CN=TEST  name ca/O=EXAMPLE'\n"
    "openssl asn1parse -in cnp.pem | grep -q PRINTABLESTRING; openssl asn1parse -in cnu.pem | grep -q UTF8STRING\n"
    "leaf ln '/CN=Name Signer/O=Example' cnu\n"
    "openssl verify -partial_chain -CAfile cnp.pem ln.pem\n"
    "printf '[req]\\ndistinguished_name=dn\\nstring_mask=utf8only\\nx509_extensions=v3\\n[dn]\\n[v3]\\n"
    "basicConstraints=critical,CA:TRUE\\n' >k.cnf\n"
    "openssl req -x509 -config k.cnf -key ca.key -days 30 -out ck.pem -subj '/CN=Loader Test CA/O=Example'\n"
    "leaf lk '/CN=Signer No Id/O=Example' ca 'authorityKeyIdentifier=none'\n"
    "openssl verify -partial_chain -CAfile ck.pem l1.pem; openssl verify -partial_chain -CAfile ca.pem lk.pem\n"
    "der ca cb cnu cnp ck l1\n"
    "sign l1 s1.efi; sign l2 s2.efi; sign lb sb.efi; sign ln sn.efi; sign lk sk.efi\n"
    "pad() { for i in $(seq $1 $2); do openssl req -x509 -config k.cnf -key pad.key -days 30 -subj \"/CN=Pad $i\"; done; }\n"
    "pad 10 49 >pad60.pem; cp pad60.pem pad90.pem; pad 50 64 >>pad90.pem\n"
    "sign l1 big.efi '--addcert pad90.pem'; sign l1 mid.efi '--addcert pad60.pem'\n"
    "python3 $S signers s1.efi s2.efi two.efi; python3 $S signers s1.efi sb.efi twoca.efi\n"
    "python3 $S flip-last two.efi twobad.efi\n"
    "for k in revision extra guid unpadded; do python3 $S $k s1.efi $k.efi; done\n"
    "for k in trail8 zero16 empty guidshort past; do python3 $S $k s1.efi $k.efi; done\n"
    "O256=608648016503040201; O224=608648016503040204; O384=608648016503040202; OX=608648016503040299\n"
    "python3 $S mdalg $O224 s1.efi md224.efi; python3 $S mdalg $OX s1.efi mdx.efi\n"
    "python3 $S mdfirst $O384 s1.efi md384first.efi; python3 $S spcalg $O224 s1.efi spc224.efi\n"
    "osslsigncode sign -certs l1.pem -key l1.key -h sha384 -in u.efi -out o384.efi >/dev/null\n"
    "python3 $S mdalg $O256 o384.efi o384md256.efi\n";

static int
setup(void **state)
{
	const char *src = getenv("FIXTURES_SRC");
	uint8_t *buf;
	size_t len;
	fx_spec spec;
	char path[128];

	(void)state;
	strcpy(dir, "/tmp/test-sigloaders.XXXXXX");
	if (!mkdtemp(dir) || !src)
		return -1;
	snprintf(script, sizeof(script), "%s/../unit/sigtable.py", src);
	fx_spec_init(&spec, FX_PLAIN);
	if (fx_build(&spec, &buf, &len) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/u.efi", dir);
	if (fx_write_file(path, buf, len) != 0)
		return -1;
	free(buf);
	have_tools = run("command -v openssl && command -v sbsign && command -v osslsigncode && command -v python3") ==
	             0;
	if (have_tools && run(setup_sh, dir, script) != 0)
		return -1;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	return run("rm -rf %s", dir) == 0 ? 0 : -1;
}

static const uint8_t guid_x509[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
	                               0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
static const uint8_t guid_x509_sha256[16] = { 0x92, 0xa4, 0xd2, 0x3b, 0xc0, 0x96, 0x79, 0x40,
	                                      0xb4, 0x20, 0xfc, 0xf9, 0x8e, 0xf1, 0x03, 0xed };

static void
add_entry(sbat_sigdb *db, const uint8_t guid[16], const uint8_t *data, size_t len)
{
	size_t total = 28 + 16 + len;
	uint8_t *b = calloc(1, total);
	uint32_t v;
	sbat_diag d;

	assert_non_null(b);
	memcpy(b, guid, 16);
	v = (uint32_t)total;
	memcpy(b + 16, &v, 4);
	v = (uint32_t)(16 + len);
	memcpy(b + 24, &v, 4);
	memset(b + 28, 0x5a, 16);
	memcpy(b + 44, data, len);
	assert_int_equal(sbat_sigdb_append(db, b, total, "test", &d), SBAT_OK);
	free(b);
}

/* A database of the certificates named (by file, "a b"), one EFI_CERT_X509 list each; NULL for "". */
static sbat_sigdb *
certs_db(const char *names)
{
	char name[32];
	sbat_sigdb *db = NULL;
	const char *p = names;
	uint8_t *der;
	size_t len, n;
	sbat_diag d;

	if (!*names)
		return NULL;
	assert_int_equal(sbat_sigdb_new(&db, &d), SBAT_OK);
	while (*p) {
		n = strcspn(p, " ");
		snprintf(name, sizeof(name), "%.*s.der", (int)n, p);
		der = slurp(name, &len);
		assert_non_null(der);
		add_entry(db, guid_x509, der, len);
		free(der);
		p += n + (p[n] == ' ');
	}
	return db;
}

/* The verdict on image `file` by `rule`, db and dbx as named; reason by its name. */
static void
expect(const char *file, sbat_sigverify_rule rule, const char *db, const char *dbx, sbat_verdict want,
       const char *reason)
{
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	sbat_sigverify *v = NULL;
	sbat_image *img = NULL;
	uint8_t *buf;
	size_t len;
	sbat_diag d;

	print_message("# %s by %s, db \"%s\", dbx \"%s\": %s, %s\n", file,
	              rule == SBAT_SIGVERIFY_SHIM ? "shim" : "EDK2", db, dbx, sbat_judge_verdict_name(want), reason);
	buf = slurp(file, &len);
	assert_non_null(buf);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	o.rule = rule;
	o.db = certs_db(db);
	o.dbx = certs_db(dbx);
	memset(&d, 0, sizeof(d));
	if (sbat_sigverify_image(img, &o, &v, &d) != SBAT_OK)
		fail_msg("no verdict: %s", d.what ? d.what : "?");
	assert_string_equal(sbat_judge_verdict_name(v->verdict), sbat_judge_verdict_name(want));
	assert_string_equal(sbat_sigverify_reason_name(v->reason), reason);
	sbat_sigverify_free(v);
	sbat_sigdb_free((sbat_sigdb *)o.db);
	sbat_sigdb_free((sbat_sigdb *)o.dbx);
	sbat_image_free(img);
	free(buf);
}

#define FW SBAT_SIGVERIFY_FIRMWARE
#define SHIM SBAT_SIGVERIFY_SHIM
#define BOOTS SBAT_VERDICT_BOOTS
#define REFUSED SBAT_VERDICT_REFUSED

/* The size of the ContentInfo of file's first entry, as its DER says. */
static size_t
content_info_len(const char *file)
{
	size_t len, n;
	uint8_t *buf = slurp(file, &len);
	uint32_t off;
	const uint8_t *p;

	assert_non_null(buf);
	memcpy(&off, buf + fx_opt_offset(buf) + 144, 4);
	p = buf + off + 8;
	assert_int_equal(p[0], 0x30);
	n = p[1] == 0x82 ? 4 + ((size_t)p[2] << 8 | p[3]) : 5 + ((size_t)p[2] << 16 | (size_t)p[3] << 8 | p[4]);
	free(buf);
	return n;
}

/*
 * Both loaders' Pkcs7Verify re-wrap a ContentInfo whose bytes 4 to 16 are
 * not "06 09 <signedData> A0 82" (WrapPkcs7Data), with 16-bit lengths: one
 * of more than 65539 bytes (a length in three bytes) never verifies for
 * shim, and EDK2's HashPeImageByType finds no digest OID at offset 32 of it
 * and passes it over.
 */
static void
test_large(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	assert_true(content_info_len("mid.efi") <= 65539);
	assert_true(content_info_len("big.efi") > 65539);
	expect("mid.efi", FW, "ca", "", BOOTS, "cert-allowed");
	expect("mid.efi", SHIM, "ca", "", BOOTS, "cert-allowed");
	/* its three-byte lengths move digestAlgorithms past offset 32: EDK2's HashPeImageByType passes it over */
	expect("big.efi", FW, "ca", "", REFUSED, "not-allowed");
	expect("big.efi", SHIM, "ca", "", REFUSED, "bad-signature");
	expect("big.efi", FW, "ca", "cnu", REFUSED, "not-allowed");
}

/* PKCS7_verify: every SignerInfo's certificate chains to the one trusted certificate, and each verifies. */
static void
test_signers(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	expect("two.efi", FW, "ca", "", BOOTS, "cert-allowed");
	expect("two.efi", SHIM, "ca", "", BOOTS, "cert-allowed");
	expect("twoca.efi", FW, "ca", "", REFUSED, "not-allowed");
	expect("twoca.efi", SHIM, "ca", "", REFUSED, "not-allowed");
	expect("twoca.efi", FW, "ca cb", "", REFUSED, "not-allowed"); /* one certificate per Pkcs7Verify */
	expect("twoca.efi", FW, "ca", "cb", REFUSED, "not-allowed");  /* nor does dbx forbid through one signer */
	expect("twobad.efi", FW, "ca", "", REFUSED, "bad-signature");
	expect("twobad.efi", SHIM, "ca", "", REFUSED, "bad-signature");
}

/* X509_NAME_cmp compares canonical names; X509_check_akid passes a side without key identifier. */
static void
test_names(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	expect("sn.efi", FW, "cnp", "", BOOTS, "cert-allowed");
	expect("sn.efi", SHIM, "cnp", "", BOOTS, "cert-allowed");
	expect("sn.efi", FW, "cnu", "cnp", REFUSED, "cert-forbidden");
	expect("s1.efi", FW, "ck", "", BOOTS, "cert-allowed"); /* the CA without subjectKeyIdentifier */
	expect("sk.efi", FW, "ca", "", BOOTS, "cert-allowed"); /* the signer without authorityKeyIdentifier */
	expect("sk.efi", SHIM, "ca", "", BOOTS, "cert-allowed");
}

/*
 * The certificate table as each loader walks it: EDK2 and shim 16.1 pass
 * over an entry of another type and read no wRevision; EDK2 reads a
 * WIN_CERT_TYPE_EFI_GUID entry of EFI_CERT_TYPE_PKCS7_GUID, shim does not;
 * EDK2 refuses a table whose last entry is not padded to 8 bytes (its walk
 * stops short of the table's end), shim does not.
 */
static void
test_table(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	expect("extra.efi", FW, "ca", "", BOOTS, "cert-allowed");
	expect("extra.efi", SHIM, "ca", "", BOOTS, "cert-allowed");
	expect("revision.efi", FW, "ca", "", BOOTS, "cert-allowed");
	expect("revision.efi", SHIM, "ca", "", BOOTS, "cert-allowed");
	expect("guid.efi", FW, "ca", "", BOOTS, "cert-allowed");
	expect("guid.efi", FW, "ca", "ca", REFUSED, "cert-forbidden");
	expect("guid.efi", SHIM, "ca", "", REFUSED, "not-allowed");
	expect("unpadded.efi", FW, "ca", "", REFUSED, "table-unpadded");
	expect("unpadded.efi", SHIM, "ca", "", BOOTS, "cert-allowed");
}

/*
 * Which digest each loader hashes the image by. EDK2's HashPeImageByType
 * reads the OID at offset 32 of the entry, the SignedData's first
 * digestAlgorithms entry, and passes over a signature where it finds no
 * algorithm it hashes with (SHA-224, an unknown OID); its
 * AuthenticodeVerify compares the last bytes of the SpcIndirectDataContent
 * with the image's hash by that algorithm, whatever its DigestInfo names.
 * shim compares them with the SHA-256. Both loaders' PKCS7_verify finds
 * no digest for a SignerInfo whose algorithm digestAlgorithms does not
 * name: the signature does not verify.
 */
static void
test_digest(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	expect("md224.efi", FW, "ca", "", REFUSED, "not-allowed");
	expect("md224.efi", SHIM, "ca", "", REFUSED, "bad-signature");
	expect("mdx.efi", FW, "ca", "", REFUSED, "not-allowed");
	expect("mdx.efi", FW, "ca", "ca", REFUSED, "not-allowed");
	expect("mdx.efi", SHIM, "ca", "", REFUSED, "bad-signature");
	/* digestAlgorithms SHA-384 then SHA-256: EDK2 hashes by SHA-384, which the SHA-256 digest is not */
	expect("md384first.efi", FW, "ca", "", REFUSED, "not-allowed");
	expect("md384first.efi", SHIM, "ca", "", BOOTS, "cert-allowed");
	/* a DigestInfo naming SHA-224 over the SHA-256: EDK2 compares the SHA-256; the signed content changed */
	expect("spc224.efi", FW, "ca", "", REFUSED, "bad-signature");
	expect("spc224.efi", SHIM, "ca", "", REFUSED, "not-allowed");
	/* osslsigncode's SHA-384 signature, digestAlgorithms made SHA-256: EDK2 compares a SHA-256 */
	expect("o384.efi", FW, "ca", "", BOOTS, "cert-allowed");
	expect("o384md256.efi", FW, "ca", "", REFUSED, "not-allowed");
	expect("o384md256.efi", SHIM, "ca", "", REFUSED, "not-allowed");
}

/*
 * Where each loader's walk of the certificate table gives up, after the
 * signature: EDK2 breaks out at a trailing area of 8 bytes or less, at a
 * dwLength past the table, at a PKCS_SIGNED_DATA entry of dwLength 8 or
 * less and at an EFI_GUID one of 24 or less, and then refuses the image;
 * shim returns an error at an entry whose 12-byte WIN_CERTIFICATE_EFI_PKCS
 * runs past the file (the table ends it), that runs past the table or
 * whose dwLength is under 8, and reads an entry of its header alone or of
 * another type as no signature.
 */
static void
test_table_walk(void **state)
{
	(void)state;
	if (!have_tools)
		skip();
	expect("trail8.efi", FW, "ca", "", REFUSED, "table-corrupt");
	expect("trail8.efi", FW, "ca", "ca", REFUSED, "cert-forbidden");
	expect("trail8.efi", SHIM, "ca", "", REFUSED, "table-corrupt");
	expect("zero16.efi", FW, "ca", "", REFUSED, "table-corrupt");
	expect("zero16.efi", SHIM, "ca", "", REFUSED, "table-corrupt");
	expect("empty.efi", FW, "ca", "", REFUSED, "table-corrupt");
	expect("empty.efi", SHIM, "ca", "", BOOTS, "cert-allowed");
	expect("guidshort.efi", FW, "ca", "", REFUSED, "table-corrupt");
	expect("guidshort.efi", SHIM, "ca", "", BOOTS, "cert-allowed");
	expect("past.efi", FW, "ca", "", REFUSED, "table-corrupt");
	expect("past.efi", SHIM, "ca", "", REFUSED, "table-corrupt");
}

/* EDK2's IsTimeZero reads Year to Second: a revocation time of nanoseconds alone revokes always. */
static void
test_nanosecond(void **state)
{
	sbat_sigverify_opts o = SBAT_SIGVERIFY_OPTS_INIT;
	const sbat_authenticode_sig *s;
	sbat_sigverify *v = NULL;
	sbat_sigdb *dbx = NULL;
	sbat_image *img = NULL;
	uint8_t entry[48] = { 0 };
	uint8_t *buf;
	size_t len;
	sbat_diag d;

	(void)state;
	if (!have_tools)
		skip();
	buf = slurp("s1.efi", &len);
	assert_non_null(buf);
	assert_int_equal(sbat_image_parse(buf, len, &img, &d), SBAT_OK);
	o.db = certs_db("ca");
	o.dbt = certs_db("cb"); /* a timestamp authority: a time other than zero could let it pass */
	assert_int_equal(sbat_sigverify_image(img, &o, &v, &d), SBAT_OK);
	s = &v->signatures->sigs[0];
	memcpy(entry, s->certs[s->signer_cert].tbs_sha256, 32);
	sbat_sigverify_free(v);
	entry[32 + 8] = 1; /* EFI_TIME's Nanosecond, after Year (2), Month, Day, Hour, Minute, Second, Pad1 */
	assert_int_equal(sbat_sigdb_new(&dbx, &d), SBAT_OK);
	add_entry(dbx, guid_x509_sha256, entry, sizeof(entry));
	o.dbx = dbx;
	assert_int_equal(sbat_sigverify_image(img, &o, &v, &d), SBAT_OK);
	assert_string_equal(sbat_judge_verdict_name(v->verdict), "refused");
	assert_string_equal(sbat_sigverify_reason_name(v->reason), "cert-hash-forbidden");
	sbat_sigverify_free(v);
	entry[32 + 6] = 1; /* a Second too: from a time on, which a timestamp could pass */
	sbat_sigdb_free(dbx);
	assert_int_equal(sbat_sigdb_new(&dbx, &d), SBAT_OK);
	add_entry(dbx, guid_x509_sha256, entry, sizeof(entry));
	o.dbx = dbx;
	assert_int_equal(sbat_sigverify_image(img, &o, &v, &d), SBAT_OK);
	assert_string_equal(sbat_sigverify_reason_name(v->reason), "timestamp-not-checked");
	sbat_sigverify_free(v);
	sbat_sigdb_free(dbx);
	sbat_sigdb_free((sbat_sigdb *)o.db);
	sbat_sigdb_free((sbat_sigdb *)o.dbt);
	sbat_image_free(img);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_large),      cmocka_unit_test(test_signers),    cmocka_unit_test(test_names),
		cmocka_unit_test(test_table),      cmocka_unit_test(test_nanosecond), cmocka_unit_test(test_digest),
		cmocka_unit_test(test_table_walk),
	};

	return run_group(tests, setup, teardown);
}
