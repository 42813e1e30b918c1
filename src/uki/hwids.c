/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* hwids.c - the .hwids table, a device tree's compatible and an .efifw's firmware id, read as systemd-stub reads them */
#include <string.h>

#include "uki/hwids.h"

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* The string at table offset off (0: none), or NULL; *ok = 0 when the stub refuses it (no NUL before the end). */
static const char *
table_string(const uint8_t *p, size_t n, uint32_t off, int *ok)
{
	if (off >= n) {
		*ok = 0;
		return NULL;
	}
	if (off && !memchr(p + off, 0, n - off))
		*ok = 0;
	return off ? (const char *)(p + off) : NULL;
}

unsigned
hwids_parse(const uint8_t *p, size_t n, hwids_entry *out, unsigned max)
{
	unsigned k = 0;
	int ok = 1;

	/* systemd 262 chid.c chid_match: entries while one more fits strictly inside, up to a zero descriptor */
	while (ok && k < max && ((size_t)k + 1) * HWIDS_ENTRY_SIZE < n) {
		const uint8_t *d = p + (size_t)k * HWIDS_ENTRY_SIZE;
		uint32_t desc = le32(d);
		hwids_entry *e = &out[k];

		if (desc == 0)
			break;
		e->type = desc >> 28;
		if (e->type != HWIDS_DEVICETREE && e->type != HWIDS_UEFI_FW)
			return 0;
		e->chid = d + 4;
		e->name = table_string(p, n, le32(d + 20), &ok);
		e->key = table_string(p, n, le32(d + 24), &ok);
		e->at = (size_t)k * HWIDS_ENTRY_SIZE;
		k++;
	}
	return ok ? k : 0;
}

int
hwids_reachable(const hwids_entry *e, unsigned i)
{
	unsigned j;

	for (j = 0; j < i; j++)
		if (e[j].type == e[i].type && memcmp(e[j].chid, e[i].chid, 16) == 0)
			return 0;
	return 1;
}

/* The value of the property at word w of the structure block if it is "compatible", else NULL; *stop on a defect. */
static const char *
fdt_prop(const uint8_t *st, size_t words, size_t *w, const uint8_t *strings, size_t strings_size, int *stop)
{
	uint32_t len, name;
	size_t len_words;

	if (*w + 3 >= words) {
		*stop = 1;
		return NULL;
	}
	len = be32(st + 4 * ++*w);
	name = be32(st + 4 * ++*w);
	len_words = ((size_t)len + 3) / 4;
	if ((size_t)name + 11 <= strings_size && memcmp(strings + name, "compatible", 11) == 0) {
		const uint8_t *c = st + 4 * ++*w;

		*stop = 1;
		return len == 0 || *w + len_words > words || c[len - 1] != '\0' ? NULL : (const char *)c;
	}
	*w += len_words;
	return NULL;
}

const char *
hwids_dtb_compatible(const uint8_t *p, size_t n)
{
	uint32_t total, st_off, st_size, str_off, str_size;
	size_t w, words;
	int stop = 0;

	/* systemd 262 devicetree.c devicetree_match_by_compatible, devicetree_get_compatible */
	if (n < 40 || be32(p) != 0xd00dfeedu || (total = be32(p + 4)) > n)
		return NULL;
	st_off = be32(p + 8);
	str_off = be32(p + 12);
	str_size = be32(p + 32);
	st_size = be32(p + 36);
	if ((uint64_t)str_off + str_size > total || st_off % 4 || st_size % 4 || (uint64_t)st_off + st_size > str_off)
		return NULL;
	words = st_size / 4;
	for (w = 0; w < words && !stop; w++) {
		uint32_t token = be32(p + st_off + 4 * w);
		const char *c;

		if (token == 1) { /* FDT_BEGIN_NODE: only the root's empty name is read */
			if (++w >= words || be32(p + st_off + 4 * w) != 0)
				return NULL;
		} else if (token == 3) { /* FDT_PROP */
			c = fdt_prop(p + st_off, words, &w, p + str_off, str_size, &stop);
			if (stop)
				return c;
		} else if (token != 4) { /* anything but FDT_NOP ends the search */
			return NULL;
		}
	}
	return NULL;
}

const char *
hwids_efifw_id(const uint8_t *p, size_t n)
{
	uint32_t header_len, id_len;

	/* systemd 262 efi-firmware.c efifw_validate_header */
	if (n < 16 || le32(p) != 0xfeeddeadu || (header_len = le32(p + 4)) < 16)
		return NULL;
	id_len = le32(p + 8);
	if ((uint64_t)header_len + id_len + le32(p + 12) > n || id_len == 0)
		return NULL;
	if (memchr(p + header_len, 0, id_len) != p + header_len + id_len - 1)
		return NULL;
	return (const char *)(p + header_len);
}
