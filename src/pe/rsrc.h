/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* rsrc.h - a bounded reader of an image's resource directory: one named resource, and the Windows boot manager's SVN */
#ifndef SBAT_PE_RSRC_H
#define SBAT_PE_RSRC_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"

#include "pe/model.h"

/* At most this many entries in one directory of the resource tree: far above a real image's. */
#define RSRC_MAX_ENTRIES 4096

/* The resource named by the Windows boot manager's Secure Version Number (an RT_RCDATA). */
#define RSRC_BOOTMGR_SVN_NAME "BOOTMGRSECURITYVERSIONNUMBER"

/* Where a resource's bytes lie. */
typedef struct rsrc_data {
	uint64_t offset;       /* file offset of its bytes */
	uint32_t size;         /* how many (its data entry's Size) */
	uint64_t entry_offset; /* file offset of its data entry */
} rsrc_data;

/*
 * The resource of type `type` (an ID entry of the root directory) named
 * `name` (a named entry of that type's directory, its UTF-16 name equal
 * code unit for code unit to the ASCII name), the data of its first
 * language entry, in buf[0..len), the file pe was parsed from. Only those
 * three levels are read: each directory's entries (at most
 * RSRC_MAX_ENTRIES), each name and the data entry must lie in the
 * resource directory (data directory 2, wholly in one section's file
 * data), and the data in the file. SBAT_OK with *ret_found 0 when the
 * image has no resource directory or no such resource; a malformed one
 * fails (SBAT_E_PE_FIELD, SBAT_E_PE_TRUNCATED) naming the field, with its
 * file offset.
 */
sbat_err rsrc_find(const sbat_pe *pe, const uint8_t *buf, size_t len, uint32_t type, const char *name, int *ret_found,
                   rsrc_data *ret, sbat_diag *reterr);

/* The Windows boot manager's Secure Version Number, as its resource holds it. */
typedef struct rsrc_svn {
	int found; /* the image carries the resource */
	uint16_t major, minor;
	uint64_t offset; /* file offset of its 4 bytes */
} rsrc_svn;

/*
 * The RT_RCDATA resource BOOTMGRSECURITYVERSIONNUMBER of the image (as
 * rsrc_find finds it): exactly 4 bytes, the minor then the major version,
 * each 16 bits little-endian. SBAT_OK with ret->found 0 when the image
 * carries none; a resource of another size fails (SBAT_E_PE_FIELD).
 */
sbat_err rsrc_bootmgr_svn(const sbat_pe *pe, const uint8_t *buf, size_t len, rsrc_svn *ret, sbat_diag *reterr);

#endif
