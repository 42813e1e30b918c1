/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* grubcore.c - the objects of GRUB's core image (include/grub/kernel.h), read from its "mods" section */
#include <string.h>

#include "boot/grubcore.h"
#include "util/bview.h"
#include "util/ckd.h"
#include "util/diag.h"

#define MODULE_MAGIC 0x676d696du /* "mimg" */
#define HEADER_SIZE 8u           /* struct grub_module_header: type, size (header included) */
/* the object types GRUB has numbered alike since 2.00 */
#define OBJ_ELF 0u
#define OBJ_MEMDISK 1u
#define OBJ_CONFIG 2u
#define OBJ_PREFIX 3u

/* struct grub_module_info32/64: where the objects start and where they end, both from the section's start. */
static sbat_err
module_info(bview *v, int is64, uint64_t *ret_first, uint64_t *ret_end, sbat_diag *d)
{
	if (bv_le32(v, 0) != MODULE_MAGIC || v->bad)
		return diag_fail_at(d, SBAT_E_BOOTCFG, "GRUB's mods section does not start with the magic \"mimg\"", 0);
	if (is64) {
		*ret_first = (uint64_t)bv_le32(v, 8) | (uint64_t)bv_le32(v, 12) << 32;
		*ret_end = (uint64_t)bv_le32(v, 16) | (uint64_t)bv_le32(v, 20) << 32;
	} else {
		*ret_first = bv_le32(v, 4);
		*ret_end = bv_le32(v, 8);
	}
	if (v->bad)
		return diag_fail_at(d, SBAT_E_BOOTCFG, "GRUB's module info is cut short", v->bad_offset);
	if (*ret_end > v->len)
		return diag_fail_at(d, SBAT_E_BOOTCFG, "GRUB's module info says its objects end past the section",
		                    is64 ? 16 : 8);
	return SBAT_OK;
}

/* The prefix object: a NUL-terminated string, as kern/main.c reads it. */
static sbat_err
take_prefix(grubcore *c, const uint8_t *p, size_t n, uint64_t at, sbat_diag *d)
{
	const uint8_t *nul = memchr(p, '\0', n);

	if (!nul)
		return diag_fail_at(d, SBAT_E_BOOTCFG, "GRUB's prefix object has no terminating NUL", at);
	if ((size_t)(nul - p) >= sizeof(c->prefix))
		return diag_fail_at(d, SBAT_E_BOOTCFG, "GRUB's prefix object is longer than 1023 bytes", at);
	memcpy(c->prefix, p, (size_t)(nul - p) + 1);
	c->has_prefix = 1;
	return SBAT_OK;
}

/* 1 when needle (n bytes) is in p[0..len). */
static int
holds(const uint8_t *p, size_t len, const char *needle, size_t n)
{
	const uint8_t *at = p, *end = p + len;

	while ((size_t)(end - at) >= n && (at = memchr(at, needle[0], (size_t)(end - at) - n + 1)) != NULL) {
		if (memcmp(at, needle, n) == 0)
			return 1;
		at++;
	}
	return 0;
}

/* One object of type type, its content p[0..n) at offset at. */
static sbat_err
take_object(grubcore *c, uint32_t type, const uint8_t *p, size_t n, uint64_t at, sbat_diag *d)
{
	const uint8_t *nul;

	if (type == OBJ_PREFIX)
		return take_prefix(c, p, n, at, d);
	if (type == OBJ_ELF && !c->fw_path_first)
		c->fw_path_first = holds(p, n, "fw_path", 8) && holds(p, n, "%s/grub.cfg", 12);
	if (type == OBJ_CONFIG && !c->config) {
		nul = memchr(p, '\0', n);
		c->config = p;
		c->config_len = nul ? (size_t)(nul - p) : n;
	} else if (type == OBJ_MEMDISK && !c->memdisk) {
		c->memdisk = p;
		c->memdisk_len = n;
		c->memdisk_offset = at;
	}
	return SBAT_OK;
}

sbat_err
grubcore_read(const uint8_t *mods, size_t len, int is64, grubcore *ret, sbat_diag *reterr)
{
	uint64_t at, end, next, align = is64 ? 8 : 4;
	bview v;
	sbat_err err;

	memset(ret, 0, sizeof(*ret));
	bv_init(&v, mods, len);
	if ((err = module_info(&v, is64, &at, &end, reterr)) != SBAT_OK)
		return err;
	while (at < end) {
		uint32_t type = bv_le32(&v, at), size = bv_le32(&v, at + 4);

		if (v.bad || at + HEADER_SIZE > end)
			return diag_fail_at(reterr, SBAT_E_BOOTCFG, "a GRUB object header is cut short", at);
		if (size < HEADER_SIZE || size > end - at)
			return diag_fail_at(reterr, SBAT_E_BOOTCFG, "a GRUB object's size does not fit its section",
			                    at + 4);
		err = take_object(ret, type, mods + at + HEADER_SIZE, size - HEADER_SIZE, at, reterr);
		if (err != SBAT_OK)
			return err;
		ret->n_objects++;
		if (ckd_align_u64(&next, size, align) || ckd_add_u64(&at, at, next))
			break;
	}
	return SBAT_OK;
}
