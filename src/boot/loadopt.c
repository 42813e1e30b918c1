/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* loadopt.c - BootOrder and Boot#### (EFI_LOAD_OPTION, device paths) from efivarfs, bounded and checked */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sbat/boot.h"
#include "sbat/loadoption.h"

#include "boot/loadopt.h"
#include "util/bview.h"
#include "util/diag.h"

#define ATTR SBAT_EFIVAR_ATTRIBUTES_SIZE

/* Device path node types and subtypes (UEFI spec, "Device Path Protocol"). */
#define DP_MESSAGING 0x03
#define DP_MEDIA 0x04
#define DP_END 0x7f
#define DP_MEDIA_HD 0x01
#define DP_MEDIA_CDROM 0x02
#define DP_MEDIA_FILE 0x04
#define DP_MEDIA_FV_FILE 0x06
#define DP_MSG_MAC 11
#define DP_MSG_IPV4 12
#define DP_MSG_IPV6 13
#define DP_MSG_URI 24
#define DP_HD_LENGTH 42
#define DP_NODE_HEADER 4

/* Append the UTF-8 form of code point c to out at *pos; 0 when it does not fit. */
static int
put_utf8(char *out, size_t size, size_t *pos, uint32_t c)
{
	uint8_t b[3];
	size_t n, i;

	if (c < 0x80) {
		b[0] = (uint8_t)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (uint8_t)(0xc0 | (c >> 6));
		b[1] = (uint8_t)(0x80 | (c & 0x3f));
		n = 2;
	} else {
		b[0] = (uint8_t)(0xe0 | (c >> 12));
		b[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (uint8_t)(0x80 | (c & 0x3f));
		n = 3;
	}
	if (size - *pos <= n)
		return 0;
	for (i = 0; i < n; i++)
		out[(*pos)++] = (char)b[i];
	out[*pos] = '\0';
	return 1;
}

/*
 * CHAR16 text at buf[start..end) into out after what it holds (at *pos),
 * up to a NUL (*ret_end is where the scan stopped: past the NUL, or end).
 * base is added to offsets in the diagnostics.
 */
static sbat_err
ucs2_append(const uint8_t *buf, size_t start, size_t end, char *out, size_t size, size_t *pos, size_t *ret_end,
            uint64_t base, sbat_diag *d)
{
	size_t i;

	if ((end - start) % 2)
		return diag_fail_at(d, SBAT_E_EFIVAR, "CHAR16 text of odd length", base + end - 1);
	for (i = start; i + 1 < end; i += 2) {
		uint32_t c = (uint32_t)buf[i] | (uint32_t)buf[i + 1] << 8;

		if (c == 0) {
			i += 2;
			break;
		}
		if (c >= 0xd800 && c <= 0xdfff) {
			uint32_t lo = i + 3 < end ? ((uint32_t)buf[i + 2] | (uint32_t)buf[i + 3] << 8) : 0;

			if (c >= 0xdc00 || lo < 0xdc00 || lo > 0xdfff)
				return diag_fail_at(d, SBAT_E_EFIVAR, "CHAR16 text with a lone surrogate", base + i);
			/* outside the BMP: not a path or name a boot manager writes; keep a marker */
			c = '?';
			i += 2;
		}
		if (c < 0x20 || c == 0x7f)
			return diag_fail_at(d, SBAT_E_EFIVAR, "control character in CHAR16 text", base + i);
		if (!put_utf8(out, size, pos, c))
			return diag_fail_at(d, SBAT_E_EFIVAR, "CHAR16 text too long", base + i);
	}
	if (ret_end)
		*ret_end = i > end ? end : i;
	return SBAT_OK;
}

sbat_err
sbat_ucs2_to_utf8(const uint8_t *buf, size_t len, char *out, size_t out_size, sbat_diag *reterr)
{
	size_t pos = 0;

	if (!out || out_size == 0)
		return diag_fail(reterr, SBAT_E_EFIVAR, "no room for the text");
	out[0] = '\0';
	if (!buf)
		len = 0;
	return ucs2_append(buf, 0, len, out, out_size, &pos, NULL, 0, reterr);
}

sbat_err
sbat_boot_order_parse(const uint8_t *buf, size_t len, uint16_t *out, size_t max, size_t *ret_n, sbat_diag *reterr)
{
	size_t i, n;
	bview v;

	if (!buf || len < ATTR)
		return diag_fail_at(reterr, SBAT_E_EFIVAR, "variable shorter than its 4 attribute bytes", 0);
	if ((len - ATTR) % 2)
		return diag_fail_at(reterr, SBAT_E_EFIVAR, "odd length for an array of UINT16", len - 1);
	n = (len - ATTR) / 2;
	if (n == 0)
		return diag_fail_at(reterr, SBAT_E_EFIVAR, "no boot option number", ATTR);
	if (n > max || !out)
		return diag_fail_at(reterr, SBAT_E_EFIVAR, "more boot option numbers than expected", ATTR + 2 * max);
	bv_init(&v, buf, len);
	for (i = 0; i < n; i++)
		out[i] = bv_le16(&v, ATTR + 2 * i);
	if (ret_n)
		*ret_n = n;
	return SBAT_OK;
}

/* The 16 signature bytes of an HD node as a GUID in text (the first three fields little-endian). */
static void
guid_text(const uint8_t *g, char *out)
{
	sprintf(out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", g[3], g[2], g[1], g[0],
	        g[5], g[4], g[7], g[6], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
}

static sbat_err
parse_hd(const uint8_t *buf, size_t off, size_t n, sbat_load_option *o, sbat_diag *d)
{
	bview v;

	if (n != DP_HD_LENGTH)
		return diag_fail_at(d, SBAT_E_EFIVAR, "hard drive device path node is not 42 bytes long", off + 2);
	if (o->has_hd)
		return diag_fail_at(d, SBAT_E_EFIVAR, "second hard drive node in one device path", off);
	bv_init(&v, buf, off + n);
	o->has_hd = 1;
	o->partition_number = bv_le32(&v, off + 4);
	o->partition_format = buf[off + 40];
	o->signature_type = buf[off + 41];
	if (o->signature_type == 2)
		guid_text(buf + off + 24, o->partition_guid);
	return SBAT_OK;
}

/* Where the File() nodes are kept one by one (sbat_load_option_file_nodes), when they are asked for. */
typedef struct node_sink {
	char *out;
	size_t size, pos;
	unsigned n;
} node_sink;

/* The File() node at buf[off..off+n) after those before it in sink. */
static sbat_err
keep_node(const uint8_t *buf, size_t off, size_t n, node_sink *sink, sbat_diag *d)
{
	size_t stop;
	sbat_err r;

	if (sink->pos >= sink->size)
		return diag_fail_at(d, SBAT_E_EFIVAR, "file path too long", off);
	sink->out[sink->pos] = '\0';
	r = ucs2_append(buf, off + DP_NODE_HEADER, off + n, sink->out, sink->size, &sink->pos, &stop, 0, d);
	if (r != SBAT_OK)
		return r;
	sink->pos++;
	sink->n++;
	return SBAT_OK;
}

static sbat_err
parse_file(const uint8_t *buf, size_t off, size_t n, sbat_load_option *o, node_sink *sink, sbat_diag *d)
{
	size_t pos = strlen(o->file_path), stop;
	sbat_err r;

	/* a path split over several nodes: join them with one backslash */
	if (pos > 0 && o->file_path[pos - 1] != '\\' && n > DP_NODE_HEADER + 1 &&
	    !(buf[off + DP_NODE_HEADER] == '\\' && buf[off + DP_NODE_HEADER + 1] == 0)) {
		if (!put_utf8(o->file_path, sizeof(o->file_path), &pos, '\\'))
			return diag_fail_at(d, SBAT_E_EFIVAR, "file path too long", off);
	}
	r = ucs2_append(buf, off + DP_NODE_HEADER, off + n, o->file_path, sizeof(o->file_path), &pos, &stop, 0, d);
	if (r != SBAT_OK)
		return r;
	o->has_file = 1;
	return sink ? keep_node(buf, off, n, sink, d) : SBAT_OK;
}

/* The device path list buf[start..end): nodes up to the first end node. */
static sbat_err
parse_device_path(const uint8_t *buf, size_t start, size_t end, sbat_load_option *o, node_sink *sink, sbat_diag *d)
{
	size_t off = start;
	bview v;
	sbat_err r;

	bv_init(&v, buf, end);
	for (;;) {
		uint8_t type, sub;
		size_t n;

		if (end - off < DP_NODE_HEADER)
			return diag_fail_at(d, SBAT_E_EFIVAR, "device path without an end node", off);
		type = buf[off];
		sub = buf[off + 1];
		n = bv_le16(&v, off + 2);
		if (n < DP_NODE_HEADER)
			return diag_fail_at(d, SBAT_E_EFIVAR, "device path node shorter than its 4-byte header",
			                    off + 2);
		if (n > end - off)
			return diag_fail_at(d, SBAT_E_EFIVAR, "device path node runs past the file path list", off + 2);
		if (type == DP_END)
			return SBAT_OK;
		o->n_nodes++;
		r = SBAT_OK;
		if (type == DP_MEDIA && sub == DP_MEDIA_HD)
			r = parse_hd(buf, off, n, o, d);
		else if (type == DP_MEDIA && sub == DP_MEDIA_FILE)
			r = parse_file(buf, off, n, o, sink, d);
		else if (type == DP_MEDIA && sub != DP_MEDIA_CDROM)
			o->has_other_media = 1; /* a firmware volume file, a RAM disk, a vendor node ... */
		else if (type == DP_MESSAGING &&
		         (sub == DP_MSG_MAC || sub == DP_MSG_IPV4 || sub == DP_MSG_IPV6 || sub == DP_MSG_URI))
			o->has_other_media = 1; /* network boot */
		if (r != SBAT_OK)
			return r;
		off += n;
	}
}

static sbat_err
parse_option(const uint8_t *buf, size_t len, sbat_load_option *ret, node_sink *sink, sbat_diag *reterr)
{
	size_t desc_end, list_end, pos = 0;
	uint16_t list_len;
	bview v;
	sbat_err r;

	if (!ret)
		return diag_fail(reterr, SBAT_E_EFIVAR, "no load option to fill");
	memset(ret, 0, sizeof(*ret));
	if (!buf || len < ATTR)
		return diag_fail_at(reterr, SBAT_E_EFIVAR, "variable shorter than its 4 attribute bytes", 0);
	if (len - ATTR < 6)
		return diag_fail_at(reterr, SBAT_E_EFIVAR, "load option shorter than its 6-byte header", ATTR);
	bv_init(&v, buf, len);
	ret->attributes = bv_le32(&v, ATTR);
	list_len = bv_le16(&v, ATTR + 4);
	/* the description: CHAR16 up to a NUL, which must come before the end */
	r = ucs2_append(buf, ATTR + 6, ATTR + 6 + ((len - ATTR - 6) & ~(size_t)1), ret->description,
	                sizeof(ret->description), &pos, &desc_end, 0, reterr);
	if (r != SBAT_OK)
		return r;
	if (desc_end < ATTR + 8 || buf[desc_end - 1] != 0 || buf[desc_end - 2] != 0)
		return diag_fail_at(reterr, SBAT_E_EFIVAR, "description is not NUL-terminated", ATTR + 6);
	if (list_len > len - desc_end)
		return diag_fail_at(reterr, SBAT_E_EFIVAR, "FilePathListLength runs past the end of the variable",
		                    ATTR + 4);
	if (list_len == 0)
		return diag_fail_at(reterr, SBAT_E_EFIVAR, "load option without a device path", ATTR + 4);
	list_end = desc_end + list_len;
	r = parse_device_path(buf, desc_end, list_end, ret, sink, reterr);
	if (r != SBAT_OK)
		return r;
	ret->optional_offset = list_end;
	ret->optional_len = len - list_end;
	return SBAT_OK;
}

sbat_err
sbat_load_option_parse(const uint8_t *buf, size_t len, sbat_load_option *ret, sbat_diag *reterr)
{
	return parse_option(buf, len, ret, NULL, reterr);
}

sbat_err
sbat_load_option_file_nodes(const uint8_t *buf, size_t len, char *out, size_t out_size, unsigned *ret_n,
                            sbat_diag *reterr)
{
	sbat_load_option o;
	node_sink sink = { out, out_size, 0, 0 };
	sbat_err r;

	if (!out || !ret_n)
		return diag_fail(reterr, SBAT_E_EFIVAR, "no room for the file path");
	*ret_n = 0;
	r = parse_option(buf, len, &o, &sink, reterr);
	if (r == SBAT_OK)
		*ret_n = sink.n;
	return r;
}

int
loadopt_in_firmware(const uint8_t *buf, size_t len)
{
	sbat_load_option o;
	size_t off;
	bview v;

	if (sbat_load_option_parse(buf, len, &o, NULL) != SBAT_OK)
		return 0;
	bv_init(&v, buf, len);
	/* the list ends where the optional data starts; the parse checked each node's length up to the end node */
	for (off = o.optional_offset - bv_le16(&v, ATTR + 4); buf[off] != DP_END; off += bv_le16(&v, off + 2))
		if (buf[off] == DP_MEDIA && buf[off + 1] == DP_MEDIA_FV_FILE)
			return 1;
	return 0;
}
