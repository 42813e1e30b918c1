/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* kv.h - systemd-boot's files as it reads them: key-value lines (loader.conf, entries, os-release) and version order */
#ifndef SBAT_KV_H
#define SBAT_KV_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Configuration files larger than this are refused (SBAT_E_TOO_BIG): loader files are a few KiB. */
#define SBAT_BOOTCFG_MAX_SIZE (1024u * 1024u)

/* Where sbat_kv_next goes on; zero it before the first call. */
typedef struct sbat_kv_cursor {
	size_t pos;    /* the next byte to read */
	unsigned line; /* lines read so far */
	int done;      /* the end, or a NUL byte, was reached */
} sbat_kv_cursor;

/* One "key value" line; key and value point into the buffer and are not NUL-terminated. */
typedef struct sbat_kv_line {
	const char *key; /* NULL at the end of the file */
	size_t key_len;
	const char *value;
	size_t value_len;
	unsigned line; /* 1-based */
	size_t offset; /* of the line's first byte in the buffer */
} sbat_kv_line;

/*
 * The next key and value of buf[0..len), read as systemd-boot 252 to 257
 * read loader.conf and Type #1 entries (sep " \t") and the os-release text
 * of a UKI's .osrel (sep "="), line_get_key_value in its boot.c: a line
 * ends at LF or CR; blanks (space, tab) around it are dropped; empty lines
 * and lines starting with '#' are skipped; the key runs up to the first
 * separator, the value starts after the separators that follow it; a value
 * that starts with '"' on a line that ends with '"' loses both quotes.
 *
 * Returns SBAT_OK and ret->key NULL at the end. A line that systemd-boot
 * ignores or where it stops (a key without a value, a NUL byte, after which
 * systemd-boot reads nothing more) returns SBAT_E_BOOTCFG with reterr->line
 * and reterr->offset; the cursor is already past it, so the caller can
 * report it and call again.
 */
SBAT_API sbat_err sbat_kv_next(const uint8_t *buf, size_t len, const char *sep, sbat_kv_cursor *cur, sbat_kv_line *ret,
                               sbat_diag *reterr);

/*
 * Compare two version strings as systemd's strverscmp_improved does (the
 * order systemd-boot sorts entries by): < 0 when a is older than b, 0 when
 * equivalent, > 0 when newer. Segments of digits compare as numbers, of
 * letters as text; '~' marks a pre-release (older), '-' a release, '^' a
 * patched release, '.' a point release; other characters separate
 * segments. NULL counts as "".
 */
SBAT_API int sbat_kv_version_compare(const char *a, const char *b);

#ifdef __cplusplus
}
#endif

#endif
