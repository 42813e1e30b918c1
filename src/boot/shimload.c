/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* shimload.c - the second stage shim 16.x starts, from its load options as shim's load-options.c reads them */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sbat/boot.h"
#include "sbat/shim.h"
#include "util/diag.h"
#include "util/strtable.h"

/* The GUID EDK2's boot manager appends to the options it makes (shim's BDS_GUID), as stored. */
static const uint8_t bds_guid[16] = { 0x4e, 0xac, 0x08, 0x81, 0x11, 0x9f, 0x59, 0x4d,
	                              0x85, 0x0e, 0xe2, 0x1a, 0x52, 0x2c, 0x59, 0xb2 };

/* A view of the options as shim narrows it, in bytes from the start of the caller's buffer. */
typedef struct span {
	size_t off, len;
} span;

static unsigned
char16_at(const uint8_t *b, size_t off)
{
	return (unsigned)b[off] | (unsigned)b[off + 1] << 8;
}

/*
 * The device path list of an EFI_LOAD_OPTION at b[off..off+limit), which
 * must end where FilePathListLength says (get_load_option_optional_data).
 * Unlike shim, a node that runs past the list is refused rather than read.
 */
static int
device_paths_end_at(const uint8_t *b, size_t off, size_t limit, size_t list_len)
{
	size_t i = 0;

	while (i <= limit && limit - i >= 4) {
		unsigned type = b[off + i], sub = b[off + i + 1];
		size_t n = (size_t)b[off + i + 2] | (size_t)b[off + i + 3] << 8;

		if (n < 4 || n > limit)
			return 0;
		if (type == 0x7f && sub == 0xff) {
			if (n != 4)
				return 0;
			i += n;
			break;
		}
		i += n;
	}
	return i == list_len;
}

/*
 * 1 when s is a whole EFI_LOAD_OPTION (shim's get_load_option_optional_data):
 * then *od is its optional data.
 */
static int
nested_load_option(const uint8_t *b, span s, span *od)
{
	size_t list_len, limit, i;
	const uint8_t *cur = b + s.off + 6;

	if (s.len < 12)
		return 0;
	list_len = (size_t)b[s.off + 4] | (size_t)b[s.off + 5] << 8;
	if (list_len > s.len - 10)
		return 0;
	limit = s.len - 6 - list_len;
	/* the description: UCS-2 up to a NUL character */
	for (i = 0; i < limit; i++) {
		if (i % 2 != 0) {
			if (cur[i] != 0)
				return 0;
		} else if (cur[i] == 0) {
			i++;
			if (i >= limit || cur[i] != 0)
				return 0;
			break;
		}
	}
	i++;
	if (i > limit)
		return 0;
	if (i == limit) {
		od->off = s.off + s.len;
		od->len = 0;
		return 1;
	}
	if (!device_paths_end_at(b, s.off + 6 + i, limit - i + list_len, list_len))
		return 0;
	od->off = s.off + 6 + i + list_len;
	od->len = limit - i;
	return 1;
}

/*
 * shim's split_load_options: skip spaces, then the first word ends at a
 * space or NUL character. 0 when nothing ends it; else *word is the word
 * and *rest what follows its end.
 */
static int
first_word(const uint8_t *b, span s, span *word, span *rest)
{
	size_t n = s.len / 2, i = 0, start;

	while (i < n && char16_at(b, s.off + 2 * i) == ' ')
		i++;
	start = i;
	for (; i < n; i++) {
		unsigned c = char16_at(b, s.off + 2 * i);

		if (c == ' ' || c == 0) {
			word->off = s.off + 2 * start;
			word->len = 2 * (i - start);
			rest->off = s.off + 2 * (i + 1);
			rest->len = s.len - 2 * (i + 1);
			return 1;
		}
	}
	return 0;
}

/* shim's directory: its path with '/' as '\', repeated backslashes as one, cut after the last backslash. */
static size_t
shim_directory(const char *shim_path, char *out, size_t size)
{
	size_t i, n = 0, last = 0;
	int have_last = 0;

	for (i = 0; shim_path[i] && n + 1 < size; i++) {
		char c = shim_path[i] == '/' ? '\\' : shim_path[i];

		if (c == '\\' && n > 0 && out[n - 1] == '\\')
			continue;
		out[n++] = c;
		if (c == '\\') {
			last = n;
			have_last = 1;
		}
	}
	n = have_last ? last : 0;
	out[n] = '\0';
	return n;
}

/* shim's generate_path_from_image_path: the word as it is under \EFI\, else its last component next to shim. */
static sbat_err
stage2_join(const char *shim_path, const char *word, sbat_shim_stage2 *r, sbat_diag *d)
{
	const char *last = strrchr(word, '\\');
	char dir[SBAT_SHIM_STAGE2_PATH_MAX];
	size_t dir_len = shim_directory(shim_path, dir, sizeof(dir));
	int n;

	r->absolute = strlen(word) >= 2 && strncmp(word, "\\EFI\\", 5) == 0;
	if (r->absolute)
		n = snprintf(r->path, sizeof(r->path), "%s", word);
	else if (strncasecmp(dir, last ? last + 1 : word, dir_len) == 0)
		n = snprintf(r->path, sizeof(r->path), "%s", last ? last + 1 : word);
	else
		n = snprintf(r->path, sizeof(r->path), "%s%s", dir, last ? last + 1 : word);
	if (n < 0 || (size_t)n >= sizeof(r->path))
		return diag_fail(d, SBAT_E_EFIVAR, "second stage path too long");
	return SBAT_OK;
}

/* The word of s as UTF-8 in r->word; offsets in diagnostics are into the caller's buffer. */
static sbat_err
word_text(const uint8_t *b, span w, sbat_shim_stage2 *r, sbat_diag *d)
{
	sbat_err e = sbat_ucs2_to_utf8(b + w.off, w.len, r->word, sizeof(r->word), d);

	if (e != SBAT_OK && d && d->has_offset)
		d->offset += w.off;
	return e;
}

/* 1 when the word names shim itself (shim's is_our_path): the path it gives starts with shim's. */
static int
is_own_path(const uint8_t *b, span w, const char *shim_path)
{
	sbat_shim_stage2 tmp;

	memset(&tmp, 0, sizeof(tmp));
	if (word_text(b, w, &tmp, NULL) != SBAT_OK || stage2_join(shim_path, tmp.word, &tmp, NULL) != SBAT_OK)
		return 0;
	return strncasecmp(shim_path, tmp.path, strlen(shim_path)) == 0;
}

/* The options as shim narrows them before it reads the word: 0 when it stops early with DEFAULT_LOADER. */
static int
narrow_options(const uint8_t *b, size_t len, const char *shim_path, sbat_shim_stage2 *r, span *s)
{
	span word, rest;

	s->off = 0;
	s->len = len;
	if (len % 2 != 0) {
		r->from = SBAT_SHIM_STAGE2_ODD_SIZE;
		return 0;
	}
	if (len > 16 && memcmp(b + len - 16, bds_guid, 16) == 0) {
		s->len -= 16;
		r->bds_tag_removed = 1;
	}
	if (len == 0 || char16_at(b, 0) == 0) {
		r->from = SBAT_SHIM_STAGE2_NO_OPTIONS;
		return 0;
	}
	if (nested_load_option(b, *s, &rest)) {
		*s = rest;
		r->nested_load_option = 1;
	} else if (first_word(b, *s, &word, &rest) && is_own_path(b, word, shim_path)) {
		*s = rest;
		r->own_path_skipped = 1;
	}
	if (s->len >= 8 && memcmp(b + s->off, "WINDOWS", 8) == 0) {
		r->from = SBAT_SHIM_STAGE2_WINDOWS;
		return 0;
	}
	return 1;
}

sbat_err
sbat_shim_stage2_path(const uint8_t *options, size_t len, const char *shim_path, const char *default_loader,
                      sbat_shim_stage2 *ret, sbat_diag *reterr)
{
	span s, word, rest;
	sbat_err e;

	if (!ret || !shim_path || !default_loader)
		return diag_fail(reterr, SBAT_E_EFIVAR, "no shim path, default loader or result");
	memset(ret, 0, sizeof(*ret));
	if (!options)
		len = 0;
	if (narrow_options(options, len, shim_path, ret, &s)) {
		if (!first_word(options, s, &word, &rest))
			ret->from = SBAT_SHIM_STAGE2_NO_WORD;
		else if (word.len == 0)
			ret->from = SBAT_SHIM_STAGE2_EMPTY_WORD;
		else {
			ret->from = SBAT_SHIM_STAGE2_OPTION;
			e = word_text(options, word, ret, reterr);
			if (e != SBAT_OK)
				return e;
			return stage2_join(shim_path, ret->word, ret, reterr);
		}
	}
	/* DEFAULT_LOADER is "\" and the file name: not under \EFI\, so next to shim */
	return stage2_join(shim_path, default_loader, ret, reterr);
}

const char *
sbat_shim_default_loader(uint16_t machine)
{
	switch (machine) {
	case 0x014c: return "grubia32.efi";
	case 0xaa64: return "grubaa64.efi";
	case 0x01c2: return "grubarm.efi";
	case 0x5064: return "grubriscv64.efi";
	default: return "grubx64.efi";
	}
}

const char *
sbat_shim_stage2_from_name(sbat_shim_stage2_from from)
{
	static const char *const names[] = {
		[SBAT_SHIM_STAGE2_OPTION] = "option",     [SBAT_SHIM_STAGE2_NO_OPTIONS] = "no-options",
		[SBAT_SHIM_STAGE2_ODD_SIZE] = "odd-size", [SBAT_SHIM_STAGE2_WINDOWS] = "windows",
		[SBAT_SHIM_STAGE2_NO_WORD] = "no-word",   [SBAT_SHIM_STAGE2_EMPTY_WORD] = "empty-word",
	};

	return STRTABLE_NAME(names, from, "unknown");
}
