/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luks2.c - the LUKS2 binary header, both copies checked as cryptsetup checks them, and its JSON area */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sbat/luks.h"

#include "luks/luks_model.h"
#include "luks/luksjson.h"
#include "util/diag.h"
#include "util/sha1.h"
#include "util/sha256.h"
#include "util/sha512.h"

/* The binary header (cryptsetup's struct luks2_hdr_disk), big-endian. */
#define BIN_SIZE 4096
#define OFF_VERSION 6
#define OFF_HDR_SIZE 8
#define OFF_SEQID 16
#define OFF_LABEL 24
#define OFF_CSUM_ALG 72
#define OFF_UUID 168
#define OFF_SUBSYSTEM 208
#define OFF_HDR_OFFSET 256
#define OFF_CSUM 448
#define CSUM_SIZE 64

/* Where a secondary copy may be, hdr_size being a power of two from 16 KiB to 4 MiB. */
static const uint64_t secondary_offsets[] = { 0x4000,  0x8000,   0x10000,  0x20000, 0x40000,
	                                      0x80000, 0x100000, 0x200000, 0x400000 };

#define READ_MAX (2u * 0x400000u)

static const uint8_t magic_primary[6] = { 'L', 'U', 'K', 'S', 0xba, 0xbe };
static const uint8_t magic_secondary[6] = { 'S', 'K', 'U', 'L', 0xba, 0xbe };

typedef struct copy {
	uint64_t off, hdr_size, seqid;
} copy;

static uint64_t
be64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static int
valid_hdr_size(uint64_t size)
{
	size_t i;

	for (i = 0; i < sizeof(secondary_offsets) / sizeof(secondary_offsets[0]); i++)
		if (size == secondary_offsets[i])
			return 1;
	return 0;
}

/* The checksum of the copy at h (hdr_size bytes), its field zeroed, with alg: its size, or 0 for an unknown alg. */
static size_t
checksum(const char *alg, const uint8_t *h, uint64_t hdr_size, uint8_t out[CSUM_SIZE])
{
	static const uint8_t zero[CSUM_SIZE];
	size_t rest = (size_t)hdr_size - OFF_CSUM - CSUM_SIZE;

	if (strcmp(alg, "sha256") == 0) {
		struct sha256_ctx c;

		sha256_init(&c);
		sha256_update(&c, h, OFF_CSUM);
		sha256_update(&c, zero, CSUM_SIZE);
		sha256_update(&c, h + OFF_CSUM + CSUM_SIZE, rest);
		sha256_final(&c, out);
		return SHA256_DIGEST_SIZE;
	}
	if (strcmp(alg, "sha1") == 0) {
		struct sha1_ctx c;

		sha1_init(&c);
		sha1_update(&c, h, OFF_CSUM);
		sha1_update(&c, zero, CSUM_SIZE);
		sha1_update(&c, h + OFF_CSUM + CSUM_SIZE, rest);
		sha1_final(&c, out);
		return SHA1_DIGEST_SIZE;
	}
	if (strcmp(alg, "sha512") == 0 || strcmp(alg, "sha384") == 0) {
		struct sha512_ctx c;
		int is512 = alg[3] == '5';

		if (is512)
			sha512_init(&c);
		else
			sha512_init_384(&c);
		sha512_update(&c, h, OFF_CSUM);
		sha512_update(&c, zero, CSUM_SIZE);
		sha512_update(&c, h + OFF_CSUM + CSUM_SIZE, rest);
		sha512_final(&c, out);
		return is512 ? SHA512_DIGEST_SIZE : SHA384_DIGEST_SIZE;
	}
	return 0;
}

/* The fixed text field at p (size bytes) into out (size + 1): 1, or 0 when it has no NUL. */
static int
text_field(const uint8_t *p, size_t size, char *out)
{
	if (!memchr(p, '\0', size))
		return 0;
	memcpy(out, p, size);
	out[size] = '\0';
	return 1;
}

/* Check the copy at off (its magic, version, size, offset and checksum): SBAT_OK and *ret. */
static sbat_err
check_copy(const uint8_t *buf, size_t len, uint64_t off, const uint8_t *magic, copy *ret, sbat_diag *d)
{
	const uint8_t *h = buf + off;
	uint8_t sum[CSUM_SIZE];
	char alg[33];
	size_t n;

	if (off <= len && len - off >= 6 && memcmp(h, magic, 6) != 0)
		return diag_fail_at(d, SBAT_E_LUKS, "not a LUKS2 header (magic)", off);
	if (off > len || len - off < BIN_SIZE)
		return diag_fail_at(d, SBAT_E_LUKS, "the header runs past the end of the data", off);
	if (h[OFF_VERSION] != 0 || h[OFF_VERSION + 1] != 2)
		return diag_fail_at(d, SBAT_E_LUKS, "not a LUKS2 header (version)", off + OFF_VERSION);
	ret->off = off;
	ret->hdr_size = be64(h + OFF_HDR_SIZE);
	ret->seqid = be64(h + OFF_SEQID);
	if (!valid_hdr_size(ret->hdr_size))
		return diag_fail_at(d, SBAT_E_LUKS, "hdr_size is not a power of two from 16 KiB to 4 MiB",
		                    off + OFF_HDR_SIZE);
	if (be64(h + OFF_HDR_OFFSET) != off)
		return diag_fail_at(d, SBAT_E_LUKS, "hdr_offset is not where the header is", off + OFF_HDR_OFFSET);
	if (len - off < ret->hdr_size)
		return diag_fail_at(d, SBAT_E_LUKS, "the JSON area runs past the end of the data", off + BIN_SIZE);
	if (!text_field(h + OFF_CSUM_ALG, 32, alg))
		return diag_fail_at(d, SBAT_E_LUKS, "checksum_alg has no NUL", off + OFF_CSUM_ALG);
	if ((n = checksum(alg, h, ret->hdr_size, sum)) == 0)
		return diag_fail_at(d, SBAT_E_LUKS, "checksum_alg is not sha1, sha256, sha384 or sha512",
		                    off + OFF_CSUM_ALG);
	if (memcmp(sum, h + OFF_CSUM, n) != 0)
		return diag_fail_at(d, SBAT_E_LUKS, "the header's checksum does not match", off + OFF_CSUM);
	return SBAT_OK;
}

/* The secondary copy: after the primary's hdr_size when it is valid, else at the first offset that holds one. */
static sbat_err
find_secondary(const uint8_t *buf, size_t len, const copy *primary, copy *ret, sbat_diag *d)
{
	size_t i;

	if (primary)
		return check_copy(buf, len, primary->hdr_size, magic_secondary, ret, d);
	for (i = 0; i < sizeof(secondary_offsets) / sizeof(secondary_offsets[0]); i++)
		if (check_copy(buf, len, secondary_offsets[i], magic_secondary, ret, NULL) == SBAT_OK)
			return SBAT_OK;
	return diag_fail(d, SBAT_E_LUKS, "no valid secondary copy");
}

/* Choose the copy to read, as cryptsetup does: the valid one with the higher seqid, the primary when equal. */
static sbat_err
choose(const uint8_t *buf, size_t len, copy *ret, sbat_luks_header *h, sbat_diag *d)
{
	copy a = { 0, 0, 0 }, b = { 0, 0, 0 };
	sbat_diag da, db;
	int ok_a = check_copy(buf, len, 0, magic_primary, &a, &da) == SBAT_OK;
	int ok_b = find_secondary(buf, len, ok_a ? &a : NULL, &b, &db) == SBAT_OK;

	if (!ok_a && !ok_b) {
		if (d)
			*d = da;
		return da.code;
	}
	*ret = ok_a && (!ok_b || a.seqid >= b.seqid) ? a : b;
	h->other_valid = ok_a && ok_b;
	h->other_why = ok_a && ok_b ? NULL : ok_a ? db.what : da.what;
	return SBAT_OK;
}

static void
fill_header(const uint8_t *buf, const copy *c, sbat_luks_header *h)
{
	const uint8_t *p = buf + c->off;

	h->hdr_size = c->hdr_size;
	h->seqid = c->seqid;
	h->copy_offset = c->off;
	/* text_field fails only without a NUL: the field is then shown cut short */
	if (!text_field(p + OFF_LABEL, 48, h->label))
		h->label[0] = '\0';
	if (!text_field(p + OFF_SUBSYSTEM, 48, h->subsystem))
		h->subsystem[0] = '\0';
	if (!text_field(p + OFF_UUID, 40, h->uuid))
		h->uuid[0] = '\0';
	if (!text_field(p + OFF_CSUM_ALG, 32, h->checksum_alg))
		h->checksum_alg[0] = '\0';
}

SBAT_API sbat_err
sbat_luks_parse(const uint8_t *buf, size_t len, sbat_luks **ret, sbat_diag *reterr)
{
	sbat_luks *l;
	luksjson j;
	copy c = { 0, 0, 0 };
	sbat_err err;

	*ret = NULL;
	if (!(l = calloc(1, sizeof(*l))))
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory reading a LUKS2 header");
	if ((err = choose(buf, len, &c, &l->header, reterr)) != SBAT_OK) {
		free(l);
		return err;
	}
	fill_header(buf, &c, &l->header);
	err = luksjson_parse((const char *)buf + c.off + BIN_SIZE, (size_t)c.hdr_size - BIN_SIZE, c.off + BIN_SIZE, &j,
	                     reterr);
	if (err == SBAT_OK)
		err = luks_tokens_read(l, &j, c.off + BIN_SIZE, reterr);
	luksjson_free(&j);
	if (err != SBAT_OK) {
		sbat_luks_free(l);
		return err;
	}
	*ret = l;
	return SBAT_OK;
}

/* Read up to size bytes at 0 of fd into buf: the count read (less at the end of the data), or -1 with errno. */
static ssize_t
read_start(int fd, uint8_t *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		ssize_t n = pread(fd, buf + got, size - got, (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* How much of the start to read: both copies of a valid primary, else as far as any secondary may reach. */
static size_t
want(const uint8_t *first, size_t n)
{
	uint64_t size;

	if (n < BIN_SIZE || memcmp(first, magic_primary, 6) != 0)
		return READ_MAX;
	size = be64(first + OFF_HDR_SIZE);
	return valid_hdr_size(size) ? (size_t)(2 * size) : READ_MAX;
}

SBAT_API sbat_err
sbat_luks_read(const char *path, sbat_luks **ret, sbat_diag *reterr)
{
	uint8_t *buf = malloc(READ_MAX);
	ssize_t n = -1;
	int fd, err = 0;
	sbat_err r;

	*ret = NULL;
	if (!buf)
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory reading a LUKS2 header");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0 && (n = read_start(fd, buf, BIN_SIZE)) == BIN_SIZE)
		n = read_start(fd, buf, want(buf, (size_t)n));
	if (n < 0)
		err = errno;
	if (fd >= 0)
		close(fd);
	if (fd < 0 || n < 0) {
		free(buf);
		return diag_fail_errno(reterr, SBAT_E_IO, fd < 0 ? "cannot open" : "cannot read", err);
	}
	r = sbat_luks_parse(buf, (size_t)n, ret, reterr);
	free(buf);
	return r;
}

SBAT_API void
sbat_luks_free(sbat_luks *luks)
{
	if (!luks)
		return;
	free(luks->tpm2);
	free(luks);
}

SBAT_API const sbat_luks_header *
sbat_luks_header_get(const sbat_luks *luks)
{
	return luks ? &luks->header : NULL;
}

SBAT_API size_t
sbat_luks_tpm2_count(const sbat_luks *luks)
{
	return luks ? luks->n_tpm2 : 0;
}

SBAT_API const sbat_luks_tpm2 *
sbat_luks_tpm2_at(const sbat_luks *luks, size_t i)
{
	return luks && i < luks->n_tpm2 ? &luks->tpm2[i] : NULL;
}
