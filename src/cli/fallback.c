/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fallback.c - the boot entry shim's fallback makes from a BOOT CSV, as shim's fallback.c reads it */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbat/sbat.h"
#include "boot_stage.h"
#include "fallback.h"

/* Largest BOOT CSV read. */
#define CSV_MAX (64u * 1024u)

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
cli_fallback_path(uint16_t machine, char *out, size_t size)
{
	snprintf(out, size, "\\EFI\\BOOT\\fb%s.efi", efi_arch(machine));
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
	for (c0 = i; c0 < end && c16(b, c0) != ','; c0++)
		;
	for (c1 = c0 + 1; c1 < end && c16(b, c1) != ','; c1++)
		;
	for (c2 = c1 + 1; c2 < end && c16(b, c2) != ','; c2++)
		;
	if (end == i || c0 == i || c0 >= end || c1 == c0 + 1)
		return 0; /* populate_stanza refuses an empty file or label */
	if (c2 > end)
		c2 = end;
	return ascii(b, i, c0, file, fsize) && ascii(b, c1 + 1 < end ? c1 + 1 : end, c2, arg, asize);
}

/* The CSV of \EFI\name, if it has one: its first stanza into file and arg; 1 when read, 0 none, -1 unreadable. */
static int
dir_csv(const char *esp, const char *name, uint16_t machine, char *file, size_t fsize, char *arg, size_t asize)
{
	char rel[600], csv[32];
	const char *why;
	char *dir, *host;
	uint8_t *buf = NULL;
	size_t len = 0;
	sbat_diag d;
	int ok;

	/* directories only, found as FAT finds files (any case), never through a link */
	snprintf(rel, sizeof(rel), "\\EFI\\%s", name);
	dir = cli_resolve(esp, rel, CLI_RESOLVE_DIR, &why);
	if (!dir)
		return 0;
	snprintf(csv, sizeof(csv), "boot%s.csv", efi_arch(machine));
	host = cli_resolve(dir, csv, 0, &why);
	if (!host && strcmp(why, "missing") == 0)
		host = cli_resolve(dir, "boot.csv", 0, &why);
	free(dir);
	if (!host)
		return strcmp(why, "missing") == 0 ? 0 : -1;
	ok = sbat_file_read(host, CSV_MAX, &buf, &len, &d) == SBAT_OK &&
	     first_stanza(buf, len / 2, file, fsize, arg, asize);
	free(buf);
	free(host);
	return ok ? 1 : -1;
}

int
cli_fallback_entry(const char *esp, uint16_t machine, char *path, size_t path_size, uint8_t *args, size_t args_size,
                   size_t *args_len, char *why, size_t why_size)
{
	const char *reason;
	char *efi = cli_resolve(esp, "\\EFI", CLI_RESOLVE_DIR, &reason), file[512], arg[512], **names = NULL;
	size_t n = 0, i;
	sbat_diag d;
	int found = 0, r;

	/* the directories of \EFI, never through a link (a plain file there is passed over) */
	if (efi && sbat_partition_list(efi, SBAT_PARTITION_LIST_DIRS, 65536, &names, &n, &d) != SBAT_OK)
		found = -1;
	for (i = 0; i < n && found >= 0; i++) {
		if (names[i][0] == '.' || strcasecmp(names[i], "BOOT") == 0 ||
		    (r = dir_csv(esp, names[i], machine, file, sizeof(file), arg, sizeof(arg))) == 0)
			continue;
		if (r < 0 || (!found && snprintf(path, path_size, "\\EFI\\%s\\%s", names[i], file) >= (int)path_size)) {
			found = -1;
			break;
		}
		if (found++)
			break;
	}
	sbat_partition_names_free(names, n);
	free(efi);
	if (found != 1) {
		snprintf(why, why_size, "%s",
		         found == 0 ?
		             "fallback finds no BOOT CSV in \\EFI's directories, so it makes no entry and resets" :
		         found < 0 ? "a BOOT CSV that cannot be read, or whose first line names no file and label" :
		                     "more than one directory of \\EFI holds a BOOT CSV; which fallback reads first is "
		                     "the order of the directory on disk");
		return -1;
	}
	for (i = 0; arg[i] && 2 * i + 3 < args_size; i++) {
		args[2 * i] = (uint8_t)arg[i];
		args[2 * i + 1] = 0;
	}
	args[2 * i] = args[2 * i + 1] = 0;
	/* add_boot_option: the arguments with their NUL, or nothing at all */
	*args_len = i ? 2 * i + 2 : 0;
	return 0;
}
