/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* vendor_cert.c - the keys built into shim: its .vendor_cert section's certificate, vendor db and vendor dbx */
#include <stddef.h>
#include <stdint.h>

#include "sbat/image.h"
#include "sbat/sigdb.h"
#include "sbat/sigverify.h"

#include "pe/image_internal.h"
#include "util/bview.h"
#include "util/ckd.h"
#include "util/diag.h"

#define CERT_TABLE_SIZE 16 /* four 32-bit words: the two sizes, then the two offsets */

static sbat_err
table_fail(sbat_diag *d, const char *what, uint64_t offset)
{
	return diag_fail_other(d, SBAT_E_SIGNATURE, what, offset, -1, ".vendor_cert");
}

/* One part of the table: `size` bytes at `rel` from the table's start, inside the section's `len` bytes. */
static sbat_err
part(bview *v, uint64_t base, uint32_t size, uint32_t rel, uint64_t len, const uint8_t **ret, sbat_diag *d)
{
	uint64_t end;

	*ret = NULL;
	if (size == 0)
		return SBAT_OK;
	if (ckd_add_u64(&end, rel, size) || end > len)
		return table_fail(d, "a part of shim's vendor key table runs past its .vendor_cert section", base);
	*ret = bv_ptr(v, base + rel, size);
	return *ret ? SBAT_OK : table_fail(d, "shim's .vendor_cert section runs past the end of the file", base);
}

/* 1 when b[0..n) is one DER certificate as shim's verify_x509 takes one: 0x30 0x82 and a two-byte length. */
static int
is_certificate(const uint8_t *b, size_t n)
{
	return n >= 4 && b[0] == 0x30 && b[1] == 0x82 && ((size_t)b[2] << 8 | b[3]) == n - 4;
}

static sbat_err
new_db(const uint8_t *b, size_t n, const char *name, sbat_sigdb **ret, sbat_diag *d)
{
	sbat_err err = sbat_sigdb_new(ret, d);

	if (err == SBAT_OK)
		err = sbat_sigdb_append(*ret, b, n, name, d);
	return err;
}

static sbat_err
read_parts(const sbat_image *shim, const sbat_section_info *s, sbat_sigverify_opts *o, sbat_sigdb **ret_db,
           sbat_sigdb **ret_dbx, sbat_diag *d)
{
	uint64_t base = s->pointer_to_raw_data, len = s->size_of_raw_data;
	uint32_t auth_size, deauth_size;
	const uint8_t *auth, *deauth;
	sbat_err err;
	bview v;

	if (s->virtual_size && s->virtual_size < len)
		len = s->virtual_size;
	bv_init(&v, shim->buf, shim->len);
	if (len < CERT_TABLE_SIZE || !bv_has(&v, base, len))
		return table_fail(d, "shim's .vendor_cert section is shorter than its key table or past the file",
		                  base);
	auth_size = bv_le32(&v, base);
	deauth_size = bv_le32(&v, base + 4);
	err = part(&v, base, auth_size, bv_le32(&v, base + 8), len, &auth, d);
	if (err == SBAT_OK)
		err = part(&v, base, deauth_size, bv_le32(&v, base + 12), len, &deauth, d);
	if (err == SBAT_OK && auth && is_certificate(auth, auth_size)) {
		o->vendor_cert = auth;
		o->vendor_cert_len = auth_size;
	} else if (err == SBAT_OK && auth) {
		err = new_db(auth, auth_size, "vendor_db", ret_db, d);
		o->vendor_db = *ret_db;
	}
	if (err == SBAT_OK && deauth) {
		err = new_db(deauth, deauth_size, "vendor_dbx", ret_dbx, d);
		o->vendor_dbx = *ret_dbx;
	}
	return err;
}

sbat_err
sbat_sigverify_read_vendor(const sbat_image *shim, sbat_sigverify_opts *o, sbat_sigdb **ret_vendor_db,
                           sbat_sigdb **ret_vendor_dbx, sbat_diag *reterr)
{
	int index;
	sbat_err err;

	if (ret_vendor_db)
		*ret_vendor_db = NULL;
	if (ret_vendor_dbx)
		*ret_vendor_dbx = NULL;
	if (!shim || !o || !ret_vendor_db || !ret_vendor_dbx)
		return diag_fail(reterr, SBAT_E_ABI, "sbat_sigverify_read_vendor: a NULL argument");
	if (o->size != sizeof(*o))
		return diag_fail(reterr, SBAT_E_ABI, "sbat_sigverify_opts: a size this library does not know");
	index = sbat_image_find_section(shim, ".vendor_cert");
	if (index < 0)
		return SBAT_OK;
	err = read_parts(shim, sbat_image_section(shim, (unsigned)index), o, ret_vendor_db, ret_vendor_dbx, reterr);
	if (err != SBAT_OK) {
		sbat_sigdb_free(*ret_vendor_db);
		sbat_sigdb_free(*ret_vendor_dbx);
		*ret_vendor_db = *ret_vendor_dbx = NULL;
		o->vendor_cert = NULL;
		o->vendor_cert_len = 0;
		o->vendor_db = o->vendor_dbx = NULL;
	}
	return err;
}
