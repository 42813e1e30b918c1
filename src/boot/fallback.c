/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fallback.c - the boot entry shim's fallback makes from a BOOT CSV, as shim's fallback.c reads it */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbat/fallback.h"
#include "sbat/input.h"
#include "sbat/partition.h"

#include "file/input.h"
#include "util/strtable.h"

/* shim's EFI_ARCH for a PE machine type: the part of fb*.efi and BOOT*.CSV names that varies. */
static const char *
efi_arch(uint16_t machine)
{
	switch (machine) {
	case 0x014c: return "ia32";
	case 0xaa64: return "aa64";
	case 0x01c2: return "arm";
	case 0x5064: return "riscv64";
	default: return "x64";
	}
}

void
sbat_fallback_path(uint16_t machine, char *out, size_t out_size)
{
	if (out_size)
		snprintf(out, out_size, "\\EFI\\BOOT\\fb%s.efi", efi_arch(machine));
}

/* CHAR16 at b[i]. */
static unsigned
c16(const uint8_t *b, size_t i)
{
	return (unsigned)b[2 * i] | (unsigned)b[2 * i + 1] << 8;
}

/* ASCII of CHAR16 b[from..to) into out; 0 for a character that is not printable ASCII. */
static int
ascii(const uint8_t *b, size_t from, size_t to, char *out, size_t size)
{
	size_t i, n = 0;

	for (i = from; i < to; i++) {
		unsigned c = c16(b, i);

		if (c < 0x20 || c > 0x7e || n + 1 >= size)
			return 0;
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return 1;
}

/* The end of the field that starts at i: the next ',' or end. */
static size_t
field_end(const uint8_t *b, size_t i, size_t end)
{
	while (i < end && c16(b, i) != ',')
		i++;
	return i;
}

/* The first stanza of a CSV (try_boot_csv, populate_stanza): file and arguments; 0 when it has none. */
static int
first_stanza(const uint8_t *b, size_t n, char *file, size_t fsize, char *arg, size_t asize)
{
	size_t i = 0, end, c0, c1, c2;

	if (n && c16(b, 0) == 0xfeff)
		i = 1;
	while (i < n && (c16(b, i) == '\r' || c16(b, i) == '\n'))
		i++;
	for (end = i; end < n && c16(b, end) && c16(b, end) != '\r' && c16(b, end) != '\n'; end++)
		;
	c0 = field_end(b, i, end);
	c1 = c0 < end ? field_end(b, c0 + 1, end) : end;
	c2 = c1 < end ? field_end(b, c1 + 1, end) : end;
	if (end == i || c0 == i || c0 >= end || c1 == c0 + 1)
		return 0; /* populate_stanza refuses an empty file or label */
	return ascii(b, i, c0, file, fsize) && ascii(b, c1 < end ? c1 + 1 : end, c2, arg, asize);
}

/* The CSV of directory name in \EFI, if it has one, into e->csv (relative to esp); 1 found, 0 none, -1 unreadable. */
static int
find_csv(const char *esp, const char *name, uint16_t machine, sbat_fallback_entry *e)
{
	char rel[SBAT_FALLBACK_PATH_MAX], csv[32];
	const char *const names[] = { csv, "boot.csv" };
	size_t i;

	snprintf(csv, sizeof(csv), "boot%s.csv", efi_arch(machine));
	for (i = 0; i < 2; i++) {
		char *host = NULL;
		sbat_partition_miss m;

		if (snprintf(rel, sizeof(rel), "\\EFI\\%s\\%s", name, names[i]) >= (int)sizeof(rel))
			return -1;
		m = sbat_partition_resolve(esp, rel, 0, &host);
		if (m == SBAT_PARTITION_MISSING)
			continue;
		if (m != SBAT_PARTITION_FOUND || strlen(host) <= strlen(esp))
			return free(host), -1;
		snprintf(e->csv, sizeof(e->csv), "%s", host + strlen(esp));
		free(host);
		return 1;
	}
	return 0;
}

/* The first stanza of directory name's CSV into e; 1 when read, 0 when it has no CSV, -1 when unreadable. */
static int
dir_entry(const char *esp, const char *name, uint16_t machine, sbat_fallback_entry *e)
{
	char file[512], arg[512];
	uint8_t *buf = NULL;
	size_t len = 0, i;
	sbat_diag d;
	int r = find_csv(esp, name, machine, e), ok;

	if (r <= 0)
		return r;
	/* the name found, beneath the ESP, not through a link */
	ok = input_read_beneath(esp, e->csv, SBAT_FALLBACK_CSV_MAX, &buf, &len, &d) == SBAT_OK &&
	     first_stanza(buf, len / 2, file, sizeof(file), arg, sizeof(arg)) &&
	     snprintf(e->path, sizeof(e->path), "\\EFI\\%s\\%s", name, file) < (int)sizeof(e->path);
	free(buf);
	if (!ok)
		return -1;
	for (i = 0; e->csv[i]; i++)
		if (e->csv[i] == '/')
			e->csv[i] = '\\';
	for (i = 0; arg[i] && 2 * i + 3 < sizeof(e->args); i++) {
		e->args[2 * i] = (uint8_t)arg[i];
		e->args[2 * i + 1] = 0;
	}
	e->args[2 * i] = e->args[2 * i + 1] = 0;
	/* add_boot_option: the arguments with their NUL, or nothing at all */
	e->args_len = i ? 2 * i + 2 : 0;
	return 1;
}

sbat_fallback_result
sbat_fallback_find(const char *esp, uint16_t machine, sbat_fallback_entry *ret)
{
	char *efi = NULL, **names = NULL;
	size_t n = 0, i, found = 0;
	sbat_fallback_entry *e = calloc(1, sizeof(*e));
	sbat_fallback_result res = SBAT_FALLBACK_NO_CSV;
	sbat_diag d;

	if (!e)
		return SBAT_FALLBACK_UNREADABLE;
	/* the directories of \EFI, never through a link (a plain file there is passed over) */
	if (sbat_partition_resolve(esp, "\\EFI", SBAT_PARTITION_DIR, &efi) == SBAT_PARTITION_FOUND &&
	    sbat_partition_list(efi, SBAT_PARTITION_LIST_DIRS, 65536, &names, &n, &d) != SBAT_OK)
		res = SBAT_FALLBACK_UNREADABLE;
	for (i = 0; i < n && res == SBAT_FALLBACK_NO_CSV; i++) {
		int r;

		if (names[i][0] == '.' || strcasecmp(names[i], "BOOT") == 0)
			continue;
		r = dir_entry(esp, names[i], machine, found ? e : ret);
		if (r < 0)
			res = SBAT_FALLBACK_UNREADABLE;
		else if (r > 0 && found++)
			res = SBAT_FALLBACK_SEVERAL;
	}
	if (res == SBAT_FALLBACK_NO_CSV && found == 1)
		res = SBAT_FALLBACK_ENTRY;
	sbat_partition_names_free(names, n);
	free(efi);
	free(e);
	return res;
}

const char *
sbat_fallback_result_name(sbat_fallback_result r)
{
	static const char *const names[] = {
		[SBAT_FALLBACK_ENTRY] = "entry",
		[SBAT_FALLBACK_NO_CSV] = "no-csv",
		[SBAT_FALLBACK_UNREADABLE] = "unreadable",
		[SBAT_FALLBACK_SEVERAL] = "several",
	};

	return STRTABLE_NAME(names, r, "unknown");
}
