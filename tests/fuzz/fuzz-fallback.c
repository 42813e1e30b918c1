/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-fallback.c - libFuzzer harness: shim fallback's BOOT CSV read from an ESP by sbat_fallback_find */

/*
 * Input: byte 0 chooses the machine (bits 0-1: x64, aa64, ia32, riscv64),
 * the CSV's name (bit 2: BOOT.CSV, else BOOT{ARCH}.CSV, both in mixed
 * case) and whether a second vendor directory holds a valid CSV too
 * (bit 3); the rest (up to SBAT_FALLBACK_CSV_MAX bytes) is the CSV, written
 * as \EFI\Vendor\<name> into an ESP tree made once. \EFI\BOOT holds a
 * CSV that must never be read.
 *
 * These must hold, or the harness aborts:
 *  - the result is one of sbat_fallback_result; the CSV exists, so never
 *    no-csv; one directory never gives several, two valid ones never an
 *    entry;
 *  - an entry is \EFI\Vendor\FILE with FILE printable ASCII found as
 *    UCS-2 in the input, its CSV the file written; its arguments, if any,
 *    are CHAR16 ending in one NUL, found in the input as well;
 *  - a plain CSV alone ((a BOM,) line ends, then "file,label[,arguments]"
 *    of printable ASCII, short fields) gives \EFI\Vendor\file with those
 *    arguments;
 *  - the same ESP read again gives the same answer.
 */
#include "fuzz-tree.h"

#include "sbat/fallback.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-fallback: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

static const uint16_t machines[] = { 0x8664, 0xaa64, 0x014c, 0x5064 };
static const char *const arch_csv[] = { "BootX64.Csv", "bootAA64.CSV", "BOOTIA32.csv", "BootRiscv64.CSV" };
static const char other_csv[] = "s\0h\0i\0m\0x\0\066\0\064\0.\0e\0f\0i\0,\0O\0t\0h\0e\0r\0\n\0";

static void
make_tree(void)
{
	static const char boot_csv[] = "b\0a\0d\0.\0e\0f\0i\0,\0B\0a\0d\0\n\0";

	if (!fuzz_tree_init())
		return;
	fuzz_tree_dir("EFI");
	fuzz_tree_dir("EFI/BOOT");
	fuzz_tree_file("EFI/BOOT/BOOTX64.CSV", boot_csv, sizeof(boot_csv) - 1);
	fuzz_tree_file("EFI/BOOT/BOOT.CSV", boot_csv, sizeof(boot_csv) - 1);
	fuzz_tree_dir("EFI/Vendor");
	fuzz_tree_dir("EFI/Other");
}

/* 1 when the ASCII text s, as CHAR16, is in in[0..size). */
static int
ucs2_in(const uint8_t *in, size_t size, const char *s)
{
	size_t n = strlen(s), i, j;

	for (i = 0; n && 2 * n <= size && i <= size - 2 * n; i++) {
		for (j = 0; j < n && in[i + 2 * j] == (uint8_t)s[j] && in[i + 2 * j + 1] == 0; j++)
			;
		if (j == n)
			return 1;
	}
	return n == 0;
}

/*
 * What shim's fallback reads from a plain CSV: (a BOM,) line ends, then
 * "file,label[,arguments[,...]]" of printable ASCII as CHAR16, file and
 * label not empty. 1 with file and arguments copied when in[0..size) is
 * such a CSV with short fields; 0 when it is anything else.
 */
static int
plain_csv(const uint8_t *in, size_t size, char *file, char *args, size_t max)
{
	char field[3][64];
	size_t i = 0, f = 0, k = 0;

	memset(field, 0, sizeof(field));
	if (size % 2 || size > 2048)
		return 0;
	if (size >= 2 && in[0] == 0xff && in[1] == 0xfe)
		i = 2;
	for (; i < size && !in[i + 1] && (in[i] == '\r' || in[i] == '\n'); i += 2)
		;
	for (; i < size && !(!in[i + 1] && (in[i] == '\r' || in[i] == '\n')); i += 2) {
		if (in[i + 1] || in[i] < 0x20 || in[i] > 0x7e)
			return 0;
		if (in[i] == ',') {
			f++, k = 0;
		} else if (f < 3 && k + 1 < max && k + 1 < sizeof(field[0])) {
			field[f][k++] = (char)in[i];
		} else if (f < 3) {
			return 0;
		}
	}
	if (!field[0][0] || !field[1][0])
		return 0;
	memcpy(file, field[0], sizeof(field[0]));
	memcpy(args, field[2], sizeof(field[2]));
	return 1;
}

static void
check_entry(const sbat_fallback_entry *e, const char *csv_rel, const uint8_t *in, size_t size)
{
	static const char prefix[] = "\\EFI\\Vendor\\";
	char args[SBAT_FALLBACK_ARGS_MAX / 2 + 1];
	size_t i, n;

	if (!memchr(e->path, '\0', sizeof(e->path)) || !memchr(e->csv, '\0', sizeof(e->csv)))
		fail("a path without its NUL");
	if (strncmp(e->path, prefix, sizeof(prefix) - 1) != 0 || !e->path[sizeof(prefix) - 1])
		fail("an entry that is not \\EFI\\Vendor\\FILE");
	for (i = 0; csv_rel[i] && (e->csv[i + 1] == csv_rel[i] || (e->csv[i + 1] == '\\' && csv_rel[i] == '/')); i++)
		;
	if (e->csv[0] != '\\' || csv_rel[i] || e->csv[i + 1])
		fail("the CSV read is not the one written");
	for (i = 0; e->path[i]; i++)
		if ((unsigned char)e->path[i] < 0x20 || (unsigned char)e->path[i] > 0x7e)
			fail("an entry path that is not printable ASCII");
	if (!ucs2_in(in, size, e->path + sizeof(prefix) - 1))
		fail("an entry file that is not in the CSV");
	if (e->args_len > sizeof(e->args) || e->args_len % 2 || e->args_len == 2)
		fail("arguments of a length that is not CHAR16 text with its NUL");
	n = e->args_len / 2;
	for (i = 0; i + 1 < n; i++) {
		if (e->args[2 * i + 1] || e->args[2 * i] < 0x20 || e->args[2 * i] > 0x7e)
			fail("an argument character that is not printable ASCII");
		args[i] = (char)e->args[2 * i];
	}
	args[i] = '\0';
	if (n && (e->args[2 * n - 2] || e->args[2 * n - 1]))
		fail("arguments without their NUL");
	if (!ucs2_in(in, size, args))
		fail("arguments that are not in the CSV");
}

/* A plain CSV alone gives its entry, with its file and arguments. */
static void
check_plain(sbat_fallback_result r, const sbat_fallback_entry *e, unsigned op, const uint8_t *in, size_t size)
{
	char file[64], args[64], want[SBAT_FALLBACK_PATH_MAX];
	size_t i;

	if ((op & 8) || !plain_csv(in, size, file, args, sizeof(file)))
		return;
	snprintf(want, sizeof(want), "\\EFI\\Vendor\\%s", file);
	if (r != SBAT_FALLBACK_ENTRY || strcmp(e->path, want) != 0)
		fail("a plain CSV that does not give its file");
	for (i = 0; args[i]; i++)
		if (e->args[2 * i] != (uint8_t)args[i] || e->args[2 * i + 1])
			break;
	if (args[i] || e->args_len != (i ? 2 * i + 2 : 0))
		fail("a plain CSV that does not give its arguments");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sbat_fallback_entry *e, *again;
	sbat_fallback_result r;
	char csv_rel[64], old[64];
	unsigned op, i;

	if (size == 0 || size - 1 > SBAT_FALLBACK_CSV_MAX)
		return 0;
	make_tree();
	op = data[0];
	snprintf(csv_rel, sizeof(csv_rel), "EFI/Vendor/%s", op & 4 ? "Boot.Csv" : arch_csv[op & 3]);
	for (i = 0; i < 4; i++) {
		snprintf(old, sizeof(old), "EFI/Vendor/%s", arch_csv[i]);
		fuzz_tree_unlink(old);
	}
	fuzz_tree_unlink("EFI/Vendor/Boot.Csv");
	fuzz_tree_file(csv_rel, data + 1, size - 1);
	if (op & 8)
		fuzz_tree_file("EFI/Other/BOOT.CSV", other_csv, sizeof(other_csv) - 1);
	else
		fuzz_tree_unlink("EFI/Other/BOOT.CSV");
	e = calloc(2, sizeof(*e));
	if (!e)
		return 0;
	again = e + 1;
	r = sbat_fallback_find(fuzz_tree_root, machines[op & 3], e);
	if (r != SBAT_FALLBACK_ENTRY && r != SBAT_FALLBACK_UNREADABLE && r != SBAT_FALLBACK_SEVERAL)
		fail("a result other than entry, unreadable or several for an ESP with a CSV");
	if ((r == SBAT_FALLBACK_SEVERAL && !(op & 8)) || (r == SBAT_FALLBACK_ENTRY && (op & 8)))
		fail("several CSVs read from one, or one from two");
	if (r == SBAT_FALLBACK_ENTRY)
		check_entry(e, csv_rel, data + 1, size - 1);
	check_plain(r, e, op, data + 1, size - 1);
	if (sbat_fallback_find(fuzz_tree_root, machines[op & 3], again) != r ||
	    (r == SBAT_FALLBACK_ENTRY && memcmp(e, again, sizeof(*e)) != 0))
		fail("the same ESP read twice gives two answers");
	free(e);
	return 0;
}
