/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* rsrc.c - one named resource of an image's resource directory, read through a checked view */
#include <string.h>

#include "pe/rsrc.h"

#include "util/bview.h"
#include "util/diag.h"
#include "util/le.h"
#include "pe/layout.h"

/* The resource directory: its view (offsets from its start) and its file offset. */
typedef struct rsrc_tree {
	bview v;
	uint64_t base;
} rsrc_tree;

/* One directory of the tree: its entries' offset in the tree, how many are named, how many in all. */
typedef struct rsrc_dir {
	uint64_t entries;
	unsigned named, total;
} rsrc_dir;

/*
 * The directory at off (an offset in the tree), its entries checked to lie
 * in it; from: the file offset of the field that names it.
 */
static sbat_err
read_dir(rsrc_tree *t, uint64_t off, uint64_t from, rsrc_dir *ret, sbat_diag *d)
{
	if (!bv_has(&t->v, off, RSRC_DIR_SIZE))
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED,
		                    "resource directory table past the end of the resource directory", from);
	ret->named = bv_le16(&t->v, off + RSRC_DIR_NAMED);
	ret->total = ret->named + bv_le16(&t->v, off + RSRC_DIR_IDS);
	ret->entries = off + RSRC_DIR_SIZE;
	if (ret->total > RSRC_MAX_ENTRIES)
		return diag_fail_at(d, SBAT_E_PE_FIELD,
		                    "resource directory table has more than 4096 entries (NumberOfNamedEntries + "
		                    "NumberOfIdEntries)",
		                    t->base + off + RSRC_DIR_NAMED);
	if (!bv_has(&t->v, ret->entries, (uint64_t)ret->total * RSRC_ENTRY_SIZE))
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED,
		                    "resource directory entries past the end of the resource directory "
		                    "(NumberOfNamedEntries + NumberOfIdEntries)",
		                    t->base + off + RSRC_DIR_NAMED);
	return SBAT_OK;
}

/* Entry i's OffsetToData, which must name a subdirectory: its offset in the tree into *ret. */
static sbat_err
subdir_of(rsrc_tree *t, const rsrc_dir *dir, unsigned i, uint64_t *ret, sbat_diag *d)
{
	uint64_t field = dir->entries + (uint64_t)i * RSRC_ENTRY_SIZE + 4;
	uint32_t to = bv_le32(&t->v, field);

	if (!(to & RSRC_HIGH_BIT))
		return diag_fail_at(d, SBAT_E_PE_FIELD,
		                    "resource type entry names data, not a directory (OffsetToData)", t->base + field);
	*ret = to & ~RSRC_HIGH_BIT;
	return SBAT_OK;
}

/* 1 when named entry i's name string is `name`, 0 when it is another; a name past the tree fails. */
static sbat_err
name_is(rsrc_tree *t, const rsrc_dir *dir, unsigned i, const char *name, int *ret, sbat_diag *d)
{
	uint64_t field = dir->entries + (uint64_t)i * RSRC_ENTRY_SIZE;
	uint32_t at = bv_le32(&t->v, field);
	size_t n = strlen(name), k;
	uint16_t units;

	if (!(at & RSRC_HIGH_BIT))
		return diag_fail_at(d, SBAT_E_PE_FIELD, "named resource entry has no name string (Name)",
		                    t->base + field);
	at &= ~RSRC_HIGH_BIT;
	units = bv_le16(&t->v, at);
	if (t->v.bad || !bv_has(&t->v, (uint64_t)at + 2, (uint64_t)units * 2))
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED,
		                    "resource name string past the end of the resource directory", t->base + field);
	*ret = units == n;
	for (k = 0; *ret && k < n; k++)
		*ret = bv_le16(&t->v, (uint64_t)at + 2 + 2 * k) == (uint8_t)name[k];
	return SBAT_OK;
}

/*
 * The data entry the named entry's OffsetToData (at field) leads to: the
 * entry itself, or the first entry of its language directory, which must
 * name data (the tree is read three levels deep, no further).
 */
static sbat_err
data_entry_of(rsrc_tree *t, uint64_t field, uint64_t *ret, sbat_diag *d)
{
	uint32_t to = bv_le32(&t->v, field);
	rsrc_dir lang;
	sbat_err err;

	if (to & RSRC_HIGH_BIT) {
		if ((err = read_dir(t, to & ~RSRC_HIGH_BIT, t->base + field, &lang, d)) != SBAT_OK)
			return err;
		if (lang.total == 0)
			return diag_fail_at(d, SBAT_E_PE_FIELD, "resource has no language entry", t->base + field);
		field = lang.entries + 4;
		to = bv_le32(&t->v, field);
		if (to & RSRC_HIGH_BIT)
			return diag_fail_at(d, SBAT_E_PE_FIELD,
			                    "resource language entry names a directory, not data (OffsetToData)",
			                    t->base + field);
	}
	if (!bv_has(&t->v, to, RSRC_DATA_ENTRY_SIZE))
		return diag_fail_at(d, SBAT_E_PE_TRUNCATED,
		                    "resource data entry past the end of the resource directory", t->base + field);
	*ret = to;
	return SBAT_OK;
}

/* The tree's view: data directory 2, wholly in the headers or one section's file data. */
static sbat_err
open_tree(const sbat_pe *pe, const uint8_t *buf, size_t len, rsrc_tree *t, sbat_diag *d)
{
	bview file;

	bv_init(&file, buf, len);
	if (!pe_rva_to_offset(pe, pe->rsrc_rva, pe->rsrc_size, &t->base) || !bv_has(&file, t->base, pe->rsrc_size))
		return diag_fail_at(d, SBAT_E_PE_FIELD,
		                    "resource directory (data directory 2) does not lie in one section's file data",
		                    pe->off_rsrc_dir);
	bv_init(&t->v, buf + t->base, pe->rsrc_size);
	return SBAT_OK;
}

/* The named entry's index in the type's directory at off (named at from), or dir->named when there is none. */
static sbat_err
find_name(rsrc_tree *t, uint64_t off, uint64_t from, const char *name, rsrc_dir *dir, unsigned *ret, sbat_diag *d)
{
	sbat_err err = read_dir(t, off, from, dir, d);
	unsigned i;
	int is;

	for (i = 0; !err && i < dir->named; i++) {
		if ((err = name_is(t, dir, i, name, &is, d)) == SBAT_OK && is)
			break;
	}
	*ret = i;
	return err;
}

sbat_err
rsrc_find(const sbat_pe *pe, const uint8_t *buf, size_t len, uint32_t type, const char *name, int *ret_found,
          rsrc_data *ret, sbat_diag *d)
{
	rsrc_tree t;
	rsrc_dir root, names;
	uint64_t off = 0, de;
	unsigned i;
	sbat_err err;

	*ret_found = 0;
	memset(ret, 0, sizeof(*ret));
	if (pe->rsrc_rva == 0 || pe->rsrc_size == 0)
		return SBAT_OK;
	if ((err = open_tree(pe, buf, len, &t, d)) != SBAT_OK ||
	    (err = read_dir(&t, 0, pe->off_rsrc_dir, &root, d)) != SBAT_OK)
		return err;
	/* the type: an ID entry, after the named ones */
	for (i = root.named; i < root.total; i++)
		if (bv_le32(&t.v, root.entries + (uint64_t)i * RSRC_ENTRY_SIZE) == type)
			break;
	if (i == root.total)
		return SBAT_OK;
	if ((err = subdir_of(&t, &root, i, &off, d)) != SBAT_OK ||
	    (err = find_name(&t, off, t.base + root.entries + (uint64_t)i * RSRC_ENTRY_SIZE + 4, name, &names, &i,
	                     d)) != SBAT_OK ||
	    i == names.named)
		return err;
	if ((err = data_entry_of(&t, names.entries + (uint64_t)i * RSRC_ENTRY_SIZE + 4, &de, d)) != SBAT_OK)
		return err;
	ret->entry_offset = t.base + de;
	ret->size = bv_le32(&t.v, de + 4);
	if (!pe_rva_to_offset(pe, bv_le32(&t.v, de), ret->size, &ret->offset) || ret->offset > len ||
	    ret->size > len - ret->offset)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "resource data does not lie in the file (OffsetToData, Size)",
		                    ret->entry_offset);
	*ret_found = 1;
	return SBAT_OK;
}

sbat_err
rsrc_bootmgr_svn(const sbat_pe *pe, const uint8_t *buf, size_t len, rsrc_svn *ret, sbat_diag *d)
{
	rsrc_data data;
	sbat_err err;
	int found;

	memset(ret, 0, sizeof(*ret));
	if ((err = rsrc_find(pe, buf, len, RT_RCDATA, RSRC_BOOTMGR_SVN_NAME, &found, &data, d)) != SBAT_OK || !found)
		return err;
	if (data.size != 4)
		return diag_fail_at(d, SBAT_E_PE_FIELD, "resource BOOTMGRSECURITYVERSIONNUMBER is not 4 bytes (Size)",
		                    data.entry_offset + 4);
	ret->found = 1;
	ret->offset = data.offset;
	ret->minor = le16_get(buf + data.offset);
	ret->major = le16_get(buf + data.offset + 2);
	return SBAT_OK;
}
