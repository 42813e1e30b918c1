/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * tpm-seal.c - a secret sealed to PCR 7 by the TPM, and unsealed, for the VM
 * guest (guest/updates.sh): what systemd-cryptenroll and systemd-cryptsetup do
 * with a systemd-tpm2 token bound to PCR 7 of the sha256 bank, without a
 * TSS. TPM 2.0 commands (TCG TPM 2.0 Library, Part 3) marshalled by hand over
 * /dev/tpmrm0 (or /dev/tpm0, or the path in TPM_SEAL_DEVICE: a character
 * device, or the unix socket of `swtpm socket --server type=unixio`).
 *
 *   tpm-seal seal SECRET OUT [PCRDIGEST]
 *       a storage key (CreatePrimary under the owner hierarchy: ECC P-256,
 *       AES-128-CFB, empty auth); a trial session's PolicyPCR(sha256, PCR 7)
 *       of the TPM's values, or of PCRDIGEST (64 hex digits: SHA-256 of the
 *       PCR 7 value to seal to), and its PolicyGetDigest; then Create: a
 *       keyedhash sealed data object holding SECRET (at most 128 bytes) with
 *       that authPolicy, userWithAuth clear. Prints "policy HEX" (the
 *       tpm2-policy-hash of a systemd-tpm2 token) and writes OUT: the object's
 *       TPM2B_PRIVATE then its TPM2B_PUBLIC, as the TPM returned them.
 *   tpm-seal unseal BLOB
 *       the storage key again, Load of BLOB, a policy session's
 *       PolicyPCR(sha256, PCR 7) of the TPM's values, Unseal. Prints
 *       "unsealed SECRET", or "failed: 0xRC (NAME)" (TPM_RC_POLICY_FAIL when
 *       PCR 7 is not the value sealed to).
 *
 * Exit 0 on success, 1 when the TPM answers with an error, 2 on a usage,
 * file or transport error. Every response is checked: its tag, its size
 * against the bytes read, each field against the bytes left.
 *
 * Not part of the meson build; test-updates.sh compiles it statically.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define ST_NO_SESSIONS 0x8001u
#define ST_SESSIONS 0x8002u
#define CC_CREATE_PRIMARY 0x131u
#define CC_CREATE 0x153u
#define CC_LOAD 0x157u
#define CC_UNSEAL 0x15Eu
#define CC_FLUSH_CONTEXT 0x165u
#define CC_START_AUTH_SESSION 0x176u
#define CC_POLICY_PCR 0x17Fu
#define CC_POLICY_GET_DIGEST 0x189u
#define RH_OWNER 0x40000001u
#define RH_NULL 0x40000007u
#define RS_PW 0x40000009u
#define ALG_AES 0x0006u
#define ALG_KEYEDHASH 0x0008u
#define ALG_SHA256 0x000Bu
#define ALG_NULL 0x0010u
#define ALG_ECC 0x0023u
#define ALG_CFB 0x0043u
#define ECC_NIST_P256 0x0003u
#define SE_POLICY 0x01u
#define SE_TRIAL 0x03u
/* TPMA_OBJECT: fixedTPM | fixedParent | sensitiveDataOrigin | userWithAuth | noDA | restricted | decrypt */
#define STORAGE_KEY_ATTRS 0x00030472u
/* fixedTPM | fixedParent | noDA: a sealed data object, usable only through its policy */
#define SEALED_ATTRS 0x00000412u
#define MAX_SECRET 128
#define MAX_MSG 4096

struct msg {
	uint8_t b[MAX_MSG];
	size_t n;
	int over; /* a field did not fit (a command) or was not there (a response) */
};

static int tpm = -1;

static void
put(struct msg *m, const void *data, size_t len)
{
	if (len > sizeof(m->b) - m->n) {
		m->over = 1;
		return;
	}
	memcpy(m->b + m->n, data, len);
	m->n += len;
}

static void
put_u(struct msg *m, uint32_t v, size_t bytes)
{
	uint8_t be[4];
	size_t i;

	for (i = 0; i < bytes; i++)
		be[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
	put(m, be, bytes);
}

/* a TPM2B: its size (16 bits), then the bytes */
static void
put_2b(struct msg *m, const void *data, size_t len)
{
	put_u(m, (uint32_t)len, 2);
	put(m, data, len);
}

static void
begin(struct msg *m, uint32_t tag, uint32_t cc)
{
	m->n = 0;
	m->over = 0;
	put_u(m, tag, 2);
	put_u(m, 0, 4); /* the size, set by transact() */
	put_u(m, cc, 4);
}

/* the authorization area of one password session with an empty password */
static void
put_password_auth(struct msg *m)
{
	put_u(m, 4 + 2 + 1 + 2, 4);
	put_u(m, RS_PW, 4);
	put_u(m, 0, 2); /* nonceCaller */
	put_u(m, 0, 1); /* sessionAttributes */
	put_u(m, 0, 2); /* hmac: the empty password */
}

/* a response, read from its start: get*() past its end set over */
struct reader {
	const uint8_t *p;
	size_t n, off;
	int over;
};

static uint32_t
get_u(struct reader *r, size_t bytes)
{
	uint32_t v = 0;
	size_t i;

	if (bytes > r->n - r->off) {
		r->over = 1;
		return 0;
	}
	for (i = 0; i < bytes; i++)
		v = v << 8 | r->p[r->off + i];
	r->off += bytes;
	return v;
}

/* a TPM2B: its bytes (*ret_len of them), or NULL when they are not all there */
static const uint8_t *
get_2b(struct reader *r, size_t *ret_len)
{
	size_t len = get_u(r, 2);
	const uint8_t *at = r->p + r->off;

	if (r->over || len > r->n - r->off) {
		r->over = 1;
		return NULL;
	}
	r->off += len;
	*ret_len = len;
	return at;
}

static int
open_tpm(void)
{
	const char *env = getenv("TPM_SEAL_DEVICE");
	struct sockaddr_un sa;
	struct stat st;

	if (env && stat(env, &st) == 0 && S_ISSOCK(st.st_mode)) {
		memset(&sa, 0, sizeof(sa));
		sa.sun_family = AF_UNIX;
		if (strlen(env) >= sizeof(sa.sun_path))
			return -1;
		strcpy(sa.sun_path, env);
		tpm = socket(AF_UNIX, SOCK_STREAM, 0);
		if (tpm >= 0 && connect(tpm, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
			close(tpm);
			tpm = -1;
		}
		return tpm;
	}
	if (env)
		return tpm = open(env, O_RDWR);
	if ((tpm = open("/dev/tpmrm0", O_RDWR)) < 0)
		tpm = open("/dev/tpm0", O_RDWR);
	return tpm;
}

/* Send cmd, read the response into rsp (whole: a socket may deliver it in parts). Returns the response code
 * (0: success), or -1 when the exchange failed (a message on standard output says why) */
static long
transact(struct msg *cmd, struct msg *rsp, const char *what)
{
	ssize_t got;
	uint32_t size = 0, tag;
	struct reader r;

	if (cmd->over || cmd->n < 10) {
		printf("failed: %s: the command does not fit\n", what);
		return -1;
	}
	cmd->b[2] = (uint8_t)(cmd->n >> 24), cmd->b[3] = (uint8_t)(cmd->n >> 16);
	cmd->b[4] = (uint8_t)(cmd->n >> 8), cmd->b[5] = (uint8_t)cmd->n;
	if (write(tpm, cmd->b, cmd->n) != (ssize_t)cmd->n) {
		printf("failed: %s: write to the TPM: %s\n", what, strerror(errno));
		return -1;
	}
	rsp->n = 0;
	do {
		got = read(tpm, rsp->b + rsp->n, sizeof(rsp->b) - rsp->n);
		if (got > 0)
			rsp->n += (size_t)got;
		if (rsp->n >= 6)
			size = (uint32_t)rsp->b[2] << 24 | (uint32_t)rsp->b[3] << 16 | (uint32_t)rsp->b[4] << 8 |
			       rsp->b[5];
	} while (got > 0 && (rsp->n < 6 || rsp->n < size) && rsp->n < sizeof(rsp->b));
	r = (struct reader){ rsp->b, rsp->n, 0, 0 };
	tag = get_u(&r, 2);
	if (rsp->n < 10 || size != rsp->n || (tag != ST_NO_SESSIONS && tag != ST_SESSIONS)) {
		printf("failed: %s: a response of %zu bytes that says %u (%s)\n", what, rsp->n, (unsigned)size,
		       got < 0 ? strerror(errno) : "the TPM's answer is cut or malformed");
		return -1;
	}
	return (long)((uint32_t)rsp->b[6] << 24 | (uint32_t)rsp->b[7] << 16 | (uint32_t)rsp->b[8] << 8 | rsp->b[9]);
}

/* the name of the response codes this tool expects */
static const char *
rc_name(long rc)
{
	if (rc & 0x80) { /* format 1: the code in the low 6 bits, plus a parameter, handle or session number */
		switch (rc & 0x3f) {
		case 0x1d: return "TPM_RC_POLICY_FAIL";
		case 0x0e: return "TPM_RC_AUTH_FAIL";
		case 0x04: return "TPM_RC_VALUE";
		case 0x15: return "TPM_RC_SIZE";
		}
		return "format-1 error";
	}
	switch (rc) {
	case 0x126: return "TPM_RC_PCR_CHANGED";
	case 0x149: return "TPM_RC_AUTH_UNAVAILABLE";
	case 0x921: return "TPM_RC_LOCKOUT";
	}
	return "error";
}

/* A command's exchange, a message when it fails. Returns 0 on success, 1 for a TPM error, 2 for the transport */
static int
run(struct msg *cmd, struct msg *rsp, const char *what)
{
	long rc = transact(cmd, rsp, what);

	if (rc < 0)
		return 2;
	if (rc) {
		printf("failed: 0x%03lx (%s) from %s\n", rc, rc_name(rc), what);
		return 1;
	}
	return 0;
}

static void
flush(uint32_t handle)
{
	struct msg cmd, rsp;

	if (!handle)
		return;
	begin(&cmd, ST_NO_SESSIONS, CC_FLUSH_CONTEXT);
	put_u(&cmd, handle, 4);
	(void)transact(&cmd, &rsp, "FlushContext");
}

/* CreatePrimary: the owner hierarchy's ECC P-256 storage key, the same for the same seed. 0 when it fails */
static uint32_t
create_primary(void)
{
	struct msg cmd, rsp;
	struct reader r;
	uint32_t handle;

	begin(&cmd, ST_SESSIONS, CC_CREATE_PRIMARY);
	put_u(&cmd, RH_OWNER, 4);
	put_password_auth(&cmd);
	put_u(&cmd, 4, 2); /* TPM2B_SENSITIVE_CREATE: an empty userAuth and data */
	put_u(&cmd, 0, 4);
	put_u(&cmd, 26, 2); /* TPM2B_PUBLIC: the TPMT_PUBLIC's 26 bytes */
	put_u(&cmd, ALG_ECC, 2);
	put_u(&cmd, ALG_SHA256, 2);
	put_u(&cmd, STORAGE_KEY_ATTRS, 4);
	put_u(&cmd, 0, 2); /* authPolicy */
	put_u(&cmd, ALG_AES, 2);
	put_u(&cmd, 128, 2);
	put_u(&cmd, ALG_CFB, 2);
	put_u(&cmd, ALG_NULL, 2); /* scheme */
	put_u(&cmd, ECC_NIST_P256, 2);
	put_u(&cmd, ALG_NULL, 2); /* kdf */
	put_u(&cmd, 0, 4);        /* unique: an empty x and y */
	put_u(&cmd, 0, 2);        /* outsideInfo */
	put_u(&cmd, 0, 4);        /* creationPCR: no PCRs */
	if (run(&cmd, &rsp, "CreatePrimary"))
		return 0;
	r = (struct reader){ rsp.b, rsp.n, 10, 0 };
	handle = get_u(&r, 4);
	if (r.over || !handle)
		printf("failed: CreatePrimary: no handle in its response\n");
	return r.over ? 0 : handle;
}

/* StartAuthSession: an unbound, unsalted session of type (trial or policy), SHA-256. 0 when it fails */
static uint32_t
start_session(uint8_t type)
{
	static const uint8_t nonce[32] = "sbat-add vm tpm-seal nonce 0123";
	struct msg cmd, rsp;
	struct reader r;
	uint32_t handle;

	begin(&cmd, ST_NO_SESSIONS, CC_START_AUTH_SESSION);
	put_u(&cmd, RH_NULL, 4); /* tpmKey */
	put_u(&cmd, RH_NULL, 4); /* bind */
	put_2b(&cmd, nonce, sizeof(nonce));
	put_u(&cmd, 0, 2); /* encryptedSalt */
	put_u(&cmd, type, 1);
	put_u(&cmd, ALG_NULL, 2); /* symmetric: none */
	put_u(&cmd, ALG_SHA256, 2);
	if (run(&cmd, &rsp, "StartAuthSession"))
		return 0;
	r = (struct reader){ rsp.b, rsp.n, 10, 0 };
	handle = get_u(&r, 4);
	(void)get_2b(&r, &(size_t){ 0 }); /* nonceTPM */
	if (r.over || !handle) {
		printf("failed: StartAuthSession: its response is cut\n");
		return 0;
	}
	return handle;
}

/* PolicyPCR(sha256: PCR 7) on session: with pcr_digest (32 bytes), or NULL for the TPM's values */
static int
policy_pcr7(uint32_t session, const uint8_t *pcr_digest)
{
	struct msg cmd, rsp;

	begin(&cmd, ST_NO_SESSIONS, CC_POLICY_PCR);
	put_u(&cmd, session, 4);
	put_2b(&cmd, pcr_digest, pcr_digest ? 32 : 0);
	put_u(&cmd, 1, 4); /* TPML_PCR_SELECTION: one bank */
	put_u(&cmd, ALG_SHA256, 2);
	put_u(&cmd, 3, 1);    /* sizeofSelect */
	put_u(&cmd, 0x80, 1); /* PCR 7 */
	put_u(&cmd, 0, 2);
	return run(&cmd, &rsp, "PolicyPCR");
}

/* PolicyGetDigest of session into digest (32 bytes) */
static int
policy_digest(uint32_t session, uint8_t digest[32])
{
	struct msg cmd, rsp;
	struct reader r;
	const uint8_t *d;
	size_t len = 0;
	int e;

	begin(&cmd, ST_NO_SESSIONS, CC_POLICY_GET_DIGEST);
	put_u(&cmd, session, 4);
	if ((e = run(&cmd, &rsp, "PolicyGetDigest")))
		return e;
	r = (struct reader){ rsp.b, rsp.n, 10, 0 };
	d = get_2b(&r, &len);
	if (!d || len != 32) {
		printf("failed: PolicyGetDigest: a digest of %zu bytes, not 32\n", len);
		return 2;
	}
	memcpy(digest, d, 32);
	return 0;
}

/* Create: the sealed data object of secret under parent with authPolicy policy; its TPM2B_PRIVATE and TPM2B_PUBLIC
 * into blob */
static int
create_sealed(uint32_t parent, const uint8_t policy[32], const char *secret, struct msg *blob)
{
	struct msg cmd, rsp;
	struct reader r;
	const uint8_t *priv, *pub;
	size_t len = strlen(secret), priv_len = 0, pub_len = 0;
	int e;

	begin(&cmd, ST_SESSIONS, CC_CREATE);
	put_u(&cmd, parent, 4);
	put_password_auth(&cmd);
	put_u(&cmd, (uint32_t)(2 + 2 + len), 2);    /* TPM2B_SENSITIVE_CREATE */
	put_u(&cmd, 0, 2);                          /* userAuth */
	put_2b(&cmd, secret, len);                  /* data: the secret */
	put_u(&cmd, 2 + 2 + 4 + 2 + 32 + 2 + 2, 2); /* TPM2B_PUBLIC */
	put_u(&cmd, ALG_KEYEDHASH, 2);
	put_u(&cmd, ALG_SHA256, 2);
	put_u(&cmd, SEALED_ATTRS, 4);
	put_2b(&cmd, policy, 32);
	put_u(&cmd, ALG_NULL, 2); /* TPMS_KEYEDHASH_PARMS: no scheme */
	put_u(&cmd, 0, 2);        /* unique */
	put_u(&cmd, 0, 2);        /* outsideInfo */
	put_u(&cmd, 0, 4);        /* creationPCR */
	if ((e = run(&cmd, &rsp, "Create")))
		return e;
	r = (struct reader){ rsp.b, rsp.n, 10, 0 };
	if (get_u(&r, 4) > rsp.n - 14 || !(priv = get_2b(&r, &priv_len)) || !(pub = get_2b(&r, &pub_len))) {
		printf("failed: Create: its response is cut\n");
		return 2;
	}
	blob->n = 0;
	put_2b(blob, priv, priv_len);
	put_2b(blob, pub, pub_len);
	return blob->over ? 2 : 0;
}

/* Load: blob (a TPM2B_PRIVATE, a TPM2B_PUBLIC) under parent into *ret_handle */
static int
load(uint32_t parent, const struct msg *blob, uint32_t *ret_handle)
{
	struct msg cmd, rsp;
	struct reader r = { blob->b, blob->n, 0, 0 };
	int e;

	(void)get_2b(&r, &(size_t){ 0 });
	(void)get_2b(&r, &(size_t){ 0 });
	if (r.over || r.off != blob->n) {
		printf("failed: the sealed object is not a TPM2B_PRIVATE and a TPM2B_PUBLIC\n");
		return 2;
	}
	begin(&cmd, ST_SESSIONS, CC_LOAD);
	put_u(&cmd, parent, 4);
	put_password_auth(&cmd);
	put(&cmd, blob->b, blob->n);
	if ((e = run(&cmd, &rsp, "Load")))
		return e;
	r = (struct reader){ rsp.b, rsp.n, 10, 0 };
	*ret_handle = get_u(&r, 4);
	if (r.over) {
		printf("failed: Load: no handle in its response\n");
		return 2;
	}
	return 0;
}

/* Unseal item with the policy session: "unsealed SECRET" */
static int
unseal(uint32_t item, uint32_t session)
{
	static const uint8_t nonce[32] = "sbat-add vm tpm-seal unseal 012";
	struct msg cmd, rsp;
	struct reader r;
	const uint8_t *data;
	size_t len = 0;
	int e;

	begin(&cmd, ST_SESSIONS, CC_UNSEAL);
	put_u(&cmd, item, 4);
	put_u(&cmd, 4 + 2 + 32 + 1 + 2, 4);
	put_u(&cmd, session, 4);
	put_2b(&cmd, nonce, sizeof(nonce));
	put_u(&cmd, 0, 1); /* sessionAttributes: the session ends with the command */
	put_u(&cmd, 0, 2); /* hmac: none, neither PolicyAuthValue nor PolicyPassword is in the policy */
	if ((e = run(&cmd, &rsp, "Unseal")))
		return e;
	r = (struct reader){ rsp.b, rsp.n, 10, 0 };
	if (get_u(&r, 4) > rsp.n - 14 || !(data = get_2b(&r, &len)) || len > MAX_SECRET) {
		printf("failed: Unseal: its response is cut\n");
		return 2;
	}
	printf("unsealed %.*s\n", (int)len, (const char *)data);
	return 0;
}

static int
hex_to_bytes(const char *hex, uint8_t *out, size_t len)
{
	size_t i;
	unsigned v;

	if (strlen(hex) != 2 * len)
		return -1;
	for (i = 0; i < len; i++) {
		if (sscanf(hex + 2 * i, "%2x", &v) != 1 || !strchr("0123456789abcdefABCDEF", hex[2 * i]) ||
		    !strchr("0123456789abcdefABCDEF", hex[2 * i + 1]))
			return -1;
		out[i] = (uint8_t)v;
	}
	return 0;
}

static int
file_io(const char *path, struct msg *m, int write_it)
{
	FILE *f = fopen(path, write_it ? "wb" : "rb");
	int ok;

	if (!f) {
		printf("failed: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (write_it)
		ok = fwrite(m->b, 1, m->n, f) == m->n;
	else
		ok = (m->n = fread(m->b, 1, sizeof(m->b), f)) < sizeof(m->b) && !ferror(f);
	ok = fclose(f) == 0 && ok;
	if (!ok)
		printf("failed: %s: cannot %s it\n", path, write_it ? "write" : "read");
	return ok ? 0 : 2;
}

static int
do_seal(const char *secret, const char *out, const char *digest_hex)
{
	uint8_t pcr_digest[32], policy[32];
	uint32_t primary = 0, session;
	struct msg blob;
	int e, i;

	if (strlen(secret) > MAX_SECRET || (digest_hex && hex_to_bytes(digest_hex, pcr_digest, 32))) {
		printf("failed: a secret of at most %d bytes, a PCR digest of 64 hex digits\n", MAX_SECRET);
		return 2;
	}
	if (!(session = start_session(SE_TRIAL)))
		return 1;
	e = policy_pcr7(session, digest_hex ? pcr_digest : NULL);
	if (!e)
		e = policy_digest(session, policy);
	flush(session);
	if (!e && !(primary = create_primary()))
		e = 1;
	if (!e)
		e = create_sealed(primary, policy, secret, &blob);
	flush(primary);
	if (!e)
		e = file_io(out, &blob, 1);
	if (e)
		return e;
	printf("policy ");
	for (i = 0; i < 32; i++)
		printf("%02x", policy[i]);
	printf("\n");
	return 0;
}

static int
do_unseal(const char *in)
{
	uint32_t primary, item = 0, session = 0;
	struct msg blob;
	int e;

	if ((e = file_io(in, &blob, 0)))
		return e;
	if (!(primary = create_primary()))
		return 1;
	e = load(primary, &blob, &item);
	flush(primary);
	if (!e && !(session = start_session(SE_POLICY)))
		e = 1;
	if (!e)
		e = policy_pcr7(session, NULL);
	if (!e)
		e = unseal(item, session);
	flush(session); /* still there when Unseal failed */
	flush(item);
	return e;
}

int
main(int argc, char **argv)
{
	int seal = argc >= 4 && argc <= 5 && strcmp(argv[1], "seal") == 0;

	if (!seal && !(argc == 3 && strcmp(argv[1], "unseal") == 0)) {
		fprintf(stderr, "usage: tpm-seal seal SECRET OUT [PCRDIGEST] | tpm-seal unseal BLOB\n");
		return 2;
	}
	if (open_tpm() < 0) {
		printf("failed: no TPM to open: %s\n", strerror(errno));
		return 2;
	}
	return seal ? do_seal(argv[2], argv[3], argc == 5 ? argv[4] : NULL) : do_unseal(argv[2]);
}
