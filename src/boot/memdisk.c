/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* memdisk.c - a file looked up in GRUB's memdisk, read as its tar (fs/tar.c) or fat (fs/fat.c) file system would */
#include <stdlib.h>
#include <string.h>

#include "boot/memdisk.h"
#include "util/bview.h"
#include "util/ckd.h"
#include "util/diag.h"

#define TAR_BLOCK 512u
#define NAME_MAX_LEN 1024u      /* a tar member's name, a path looked up */
#define DIR_MAX (1024u * 1024u) /* the bytes of one FAT directory */
#define FAT_DIRENT 32u

/* ------------------------------------------------ results */

/* The bytes disk[at..at+n) as the file found, copied for the caller. */
static sbat_err
found_file(const uint8_t *src, size_t n, size_t max, enum memdisk_found *found, uint8_t **ret, size_t *ret_len,
           sbat_diag *d)
{
	*found = MEMDISK_FILE;
	if (!ret)
		return SBAT_OK;
	if (n > max)
		return diag_fail(d, SBAT_E_TOO_BIG, "a file of GRUB's memdisk is larger than sbat-add reads");
	*ret = malloc(n ? n : 1);
	if (!*ret)
		return diag_fail(d, SBAT_E_NOMEM, "no memory for a file of GRUB's memdisk");
	if (n)
		memcpy(*ret, src, n);
	*ret_len = n;
	return SBAT_OK;
}

/* ------------------------------------------------ tar */

/* An octal field as tar writes it (leading blanks, then digits to a NUL or blank); -1 when it is not one. */
static int
octal(const uint8_t *p, size_t n, uint64_t *out)
{
	size_t i = 0;
	uint64_t v = 0;

	while (i < n && p[i] == ' ')
		i++;
	for (; i < n && p[i] >= '0' && p[i] <= '7'; i++)
		v = v << 3 | (uint64_t)(p[i] - '0');
	if (i < n && p[i] != '\0' && p[i] != ' ')
		return -1;
	*out = v;
	return 0;
}

/* The member name of header h: a GNU long name before it, or ustar's prefix "/" name; leading "./" and '/' cut. */
static const char *
tar_name(const uint8_t *h, const char *longname, char *buf)
{
	size_t np = strnlen((const char *)h + 345, 155), nn = strnlen((const char *)h, 100);
	const char *s = buf;

	if (longname[0]) {
		s = longname;
	} else {
		memcpy(buf, h + 345, np);
		buf[np] = np ? '/' : '\0';
		memcpy(buf + np + (np != 0), h, nn);
		buf[np + (np != 0) + nn] = '\0';
	}
	for (;;) {
		if (s[0] == '/')
			s++;
		else if (s[0] == '.' && s[1] == '/')
			s += 2;
		else
			return s;
	}
}

/* What member `name` (typeflag type) says of want: the file, a directory it is or lies in, or nothing. */
static enum memdisk_found
tar_match(const char *name, uint8_t type, const char *want)
{
	size_t n = strlen(want), k = strlen(name);

	while (k && name[k - 1] == '/')
		k--;
	if (k == n && strncmp(name, want, n) == 0)
		return type == '5'                                  ? MEMDISK_DIR :
		       (type == '0' || type == '\0' || type == '7') ? MEMDISK_FILE :
		                                                      MEMDISK_MISSING;
	if (k > n && strncmp(name, want, n) == 0 && name[n] == '/')
		return MEMDISK_DIR;
	return MEMDISK_MISSING;
}

static sbat_err
tar_lookup(const uint8_t *disk, size_t len, const char *want, size_t max, enum memdisk_found *found, uint8_t **ret,
           size_t *ret_len, sbat_diag *d)
{
	char longname[NAME_MAX_LEN] = "", buf[260];
	uint64_t at = 0, size, next;

	while (len - at >= TAR_BLOCK && disk[at] != '\0') {
		const uint8_t *h = disk + at;
		enum memdisk_found m;

		if (memcmp(h + 257, "ustar", 5) != 0)
			return diag_fail_at(d, SBAT_E_BOOTCFG, "a tar header of GRUB's memdisk without the ustar magic",
			                    at);
		if (octal(h + 124, 12, &size) != 0)
			return diag_fail_at(d, SBAT_E_BOOTCFG, "a tar header's size is not an octal number", at + 124);
		if (size > len - at - TAR_BLOCK)
			return diag_fail_at(d, SBAT_E_BOOTCFG, "a tar member runs past the end of GRUB's memdisk", at);
		if (h[156] == 'L') {
			if (size >= sizeof(longname))
				return diag_fail_at(d, SBAT_E_BOOTCFG, "a tar long name of over 1023 bytes", at);
			memcpy(longname, h + TAR_BLOCK, size);
			longname[size] = '\0';
		} else {
			m = tar_match(tar_name(h, longname, buf), h[156], want);
			longname[0] = '\0';
			if (m == MEMDISK_FILE)
				return found_file(h + TAR_BLOCK, size, max, found, ret, ret_len, d);
			if (m == MEMDISK_DIR)
				*found = MEMDISK_DIR;
		}
		if (ckd_align_u64(&next, size, TAR_BLOCK) || next > len - at - TAR_BLOCK)
			break;
		at += TAR_BLOCK + next;
	}
	return SBAT_OK;
}

/* ------------------------------------------------ FAT */

typedef struct fat {
	bview v;
	uint64_t fat_off, root_off, data_off, cluster_size;
	uint32_t root_entries, clusters, root_cluster;
	int bits;
} fat;

/* The boot sector's BIOS parameter block; -1 when it is not a FAT file system's. */
static int
fat_open(fat *f)
{
	bview *v = &f->v;
	uint32_t bps = bv_le16(v, 11), spc = v->len > 13 ? v->p[13] : 0, res = bv_le16(v, 14);
	uint32_t nfat = v->len > 16 ? v->p[16] : 0, tot = bv_le16(v, 19), fatsz = bv_le16(v, 22);
	uint64_t root_sectors, data_sector;

	f->root_entries = bv_le16(v, 17);
	tot = tot ? tot : bv_le32(v, 32);
	fatsz = fatsz ? fatsz : bv_le32(v, 36);
	if (v->bad || bps < 512 || bps > 4096 || !ckd_is_pow2(bps) || !ckd_is_pow2(spc) || !res || !nfat || !fatsz)
		return -1;
	root_sectors = ((uint64_t)f->root_entries * FAT_DIRENT + bps - 1) / bps;
	data_sector = res + (uint64_t)nfat * fatsz + root_sectors;
	if (tot <= data_sector)
		return -1;
	f->clusters = (uint32_t)((tot - data_sector) / spc);
	f->bits = f->clusters < 4085 ? 12 : f->clusters < 65525 ? 16 : 32;
	f->root_cluster = f->bits == 32 ? bv_le32(v, 44) : 0;
	f->fat_off = (uint64_t)res * bps;
	f->root_off = (res + (uint64_t)nfat * fatsz) * bps;
	f->data_off = data_sector * bps;
	f->cluster_size = (uint64_t)spc * bps;
	return v->bad || (f->bits == 32) != (f->root_entries == 0) ? -1 : 0;
}

/* The cluster after c in its chain; 0 at the end of the chain or when the FAT does not read. */
static uint32_t
fat_next(fat *f, uint32_t c)
{
	uint32_t e;

	if (f->bits == 12) {
		e = bv_le16(&f->v, f->fat_off + c + c / 2);
		e = c & 1 ? e >> 4 : e & 0xfff;
		return e >= 0xff8 ? 0 : e;
	}
	if (f->bits == 16) {
		e = bv_le16(&f->v, f->fat_off + 2 * (uint64_t)c);
		return e >= 0xfff8 ? 0 : e;
	}
	e = bv_le32(&f->v, f->fat_off + 4 * (uint64_t)c) & 0x0fffffffu;
	return e >= 0x0ffffff8u ? 0 : e;
}

/* size bytes of the chain from cluster first (size 0: the whole chain, up to DIR_MAX) into a malloc'ed *ret. */
static sbat_err
fat_chain(fat *f, uint32_t first, uint64_t size, uint8_t **ret, size_t *ret_len, sbat_diag *d)
{
	uint64_t want = size ? size : DIR_MAX, got = 0, steps = 0;
	uint8_t *buf = malloc(want ? want : 1);
	uint32_t c = first;

	if (!buf)
		return diag_fail(d, SBAT_E_NOMEM, "no memory for a file of GRUB's memdisk");
	while (got < want && c) {
		uint64_t n = want - got < f->cluster_size ? want - got : f->cluster_size;
		const uint8_t *p = c >= 2 && c - 2 < f->clusters && steps++ <= f->clusters ?
		                       bv_ptr(&f->v, f->data_off + (uint64_t)(c - 2) * f->cluster_size, n) :
		                       NULL;

		if (!p) {
			free(buf);
			return diag_fail_at(d, SBAT_E_BOOTCFG,
			                    "a cluster chain of GRUB's memdisk leaves the disk or loops",
			                    f->v.bad ? f->v.bad_offset : f->fat_off);
		}
		memcpy(buf + got, p, n);
		got += n;
		c = fat_next(f, c);
	}
	if (size && got < size) {
		free(buf);
		return diag_fail_at(d, SBAT_E_BOOTCFG, "a file of GRUB's memdisk is longer than its cluster chain", 0);
	}
	*ret = buf;
	*ret_len = got;
	return SBAT_OK;
}

/* Upper-case ASCII. */
static int
up(int c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* 1 when the 8.3 name of entry e is name[0..n), without regard to case. */
static int
short_is(const uint8_t *e, const char *name, size_t n)
{
	char s[13];
	size_t k = 0, i;

	for (i = 0; i < 8 && e[i] != ' '; i++)
		s[k++] = (char)(i == 0 && e[0] == 0x05 ? 0xe5 : e[i]);
	if (e[8] != ' ')
		s[k++] = '.';
	for (i = 8; i < 11 && e[i] != ' '; i++)
		s[k++] = (char)e[i];
	if (k != n)
		return 0;
	for (i = 0; i < n; i++)
		if (up((unsigned char)s[i]) != up((unsigned char)name[i]))
			return 0;
	return 1;
}

/* A long-name entry e into lfn (13 UCS-2 characters per entry, by its order number); non-ASCII as '\1'. */
static void
long_part(const uint8_t *e, char lfn[256])
{
	static const uint8_t at[13] = { 1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30 };
	unsigned ord = (e[0] & 0x1fu), i;

	if (ord == 0 || ord > 19)
		return;
	for (i = 0; i < 13 && (ord - 1) * 13 + i < 255; i++) {
		unsigned c = e[at[i]] | (unsigned)e[at[i] + 1] << 8;

		lfn[(ord - 1) * 13 + i] = c == 0 || c == 0xffff ? '\0' : c < 0x80 ? (char)c : '\1';
	}
	if (e[0] & 0x40)
		lfn[ord * 13 < 255 ? ord * 13 : 255] = '\0';
}

/* 1 when long name lfn is name[0..n), without regard to case. */
static int
long_is(const char *lfn, const char *name, size_t n)
{
	size_t i;

	if (strlen(lfn) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (up((unsigned char)lfn[i]) != up((unsigned char)name[i]))
			return 0;
	return 1;
}

/* The entry of dir[0..len) named name[0..n); NULL when there is none. */
static const uint8_t *
fat_find(const uint8_t *dir, size_t len, const char *name, size_t n)
{
	char lfn[256] = "";
	size_t i;

	for (i = 0; len - i >= FAT_DIRENT && dir[i] != 0; i += FAT_DIRENT) {
		const uint8_t *e = dir + i;

		if (e[0] == 0xe5) {
			lfn[0] = '\0';
		} else if ((e[11] & 0x3f) == 0x0f) {
			if (e[0] & 0x40)
				memset(lfn, 0, sizeof(lfn));
			long_part(e, lfn);
		} else if (!(e[11] & 0x08) && (short_is(e, name, n) || (lfn[0] && long_is(lfn, name, n)))) {
			return e;
		} else {
			lfn[0] = '\0';
		}
	}
	return NULL;
}

/* The root directory: a region of its own (FAT12/16) or a cluster chain (FAT32). */
static sbat_err
fat_root(fat *f, uint8_t **ret, size_t *ret_len, sbat_diag *d)
{
	const uint8_t *p;

	if (f->bits == 32)
		return fat_chain(f, f->root_cluster, 0, ret, ret_len, d);
	p = bv_ptr(&f->v, f->root_off, (uint64_t)f->root_entries * FAT_DIRENT);
	if (!p)
		return diag_fail_at(d, SBAT_E_BOOTCFG, "the root directory of GRUB's memdisk runs past its end",
		                    f->root_off);
	return found_file(p, (size_t)f->root_entries * FAT_DIRENT, DIR_MAX, &(enum memdisk_found){ 0 }, ret, ret_len,
	                  d);
}

/* The entry e, the last component of the path: a directory, or a file whose bytes are read when wanted. */
static sbat_err
fat_last(fat *f, const uint8_t *e, size_t max, enum memdisk_found *found, uint8_t **ret, size_t *ret_len, sbat_diag *d)
{
	uint32_t first = le16_get(e + 26) | (f->bits == 32 ? (uint32_t)le16_get(e + 20) << 16 : 0);
	uint32_t size = le32_get(e + 28);

	if (e[11] & 0x10) {
		*found = MEMDISK_DIR;
		return SBAT_OK;
	}
	if (!ret || size == 0)
		return found_file(e, 0, max, found, ret, ret_len, d);
	if (size > max)
		return diag_fail(d, SBAT_E_TOO_BIG, "a file of GRUB's memdisk is larger than sbat-add reads");
	*found = MEMDISK_FILE;
	return fat_chain(f, first, size, ret, ret_len, d);
}

static sbat_err
fat_lookup(fat *f, const char *want, size_t max, enum memdisk_found *found, uint8_t **ret, size_t *ret_len,
           sbat_diag *d)
{
	uint8_t *dir = NULL;
	size_t dir_len = 0;
	sbat_err err = fat_root(f, &dir, &dir_len, d);

	while (err == SBAT_OK && *want) {
		size_t n = strcspn(want, "/");
		const uint8_t *e = fat_find(dir, dir_len, want, n);
		uint32_t first;

		want += n + (want[n] == '/');
		if (!e)
			break;
		if (!*want) {
			err = fat_last(f, e, max, found, ret, ret_len, d);
			break;
		}
		if (!(e[11] & 0x10))
			break;
		first = le16_get(e + 26) | (f->bits == 32 ? (uint32_t)le16_get(e + 20) << 16 : 0);
		free(dir);
		dir = NULL;
		err = first ? fat_chain(f, first, 0, &dir, &dir_len, d) : fat_root(f, &dir, &dir_len, d);
	}
	free(dir);
	return err;
}

/* path without its '/' runs and "." components into out ("boot/grub/grub.cfg"); -1 for ".." or a name too long. */
static int
clean_path(const char *path, char out[NAME_MAX_LEN])
{
	size_t k = 0;

	while (*path) {
		size_t n = strcspn(path, "/");

		if (n == 2 && strncmp(path, "..", 2) == 0)
			return -1;
		if (n && !(n == 1 && path[0] == '.')) {
			if (k + n + 2 > NAME_MAX_LEN)
				return -1;
			if (k)
				out[k++] = '/';
			memcpy(out + k, path, n);
			k += n;
		}
		path += n + (path[n] == '/');
	}
	out[k] = '\0';
	return 0;
}

sbat_err
memdisk_lookup(const uint8_t *disk, size_t len, const char *path, size_t max, enum memdisk_found *ret_found,
               uint8_t **ret, size_t *ret_len, sbat_diag *reterr)
{
	char want[NAME_MAX_LEN];
	fat f;

	*ret_found = MEMDISK_MISSING;
	if (ret)
		*ret = NULL;
	if (ret_len)
		*ret_len = 0;
	if (clean_path(path, want) != 0)
		return diag_fail(reterr, SBAT_E_BOOTCFG,
		                 "a path on GRUB's memdisk with \"..\" or too long: not followed");
	if (len >= TAR_BLOCK && memcmp(disk + 257, "ustar", 5) == 0) {
		if (!want[0]) {
			*ret_found = MEMDISK_DIR;
			return SBAT_OK;
		}
		return tar_lookup(disk, len, want, max, ret_found, ret, ret_len, reterr);
	}
	memset(&f, 0, sizeof(f));
	bv_init(&f.v, disk, len);
	if (fat_open(&f) != 0)
		return diag_fail(reterr, SBAT_E_BOOTCFG,
		                 "GRUB's memdisk is neither a tar archive nor a FAT file system");
	if (!want[0]) {
		*ret_found = MEMDISK_DIR;
		return SBAT_OK;
	}
	return fat_lookup(&f, want, max, ret_found, ret, ret_len, reterr);
}
