/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-loadopt.c - libFuzzer harness: Boot#### load options, BootOrder arrays and CHAR16 text */

/*
 * Input: raw bytes as an efivarfs file holds them (4 attribute bytes, then
 * the data), given to sbat_load_option_parse, sbat_boot_order_parse and
 * sbat_ucs2_to_utf8, and as a load option's optional data to
 * sbat_shim_stage2_path (inputs over FUZZ_MAX_INPUT bytes are ignored).
 *
 * These must hold, or the harness aborts:
 *  - no call modifies its input;
 *  - failures return SBAT_E_EFIVAR with an offset inside the input (or at
 *    its end);
 *  - shim's second stage is a NUL-terminated path within its array;
 *  - a parsed option's optional data lies inside the input, and its texts
 *    are NUL-terminated within their arrays.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/boot.h"
#include "sbat/loadoption.h"
#include "sbat/shim.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-loadopt: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

static void
check_failure(sbat_err err, const sbat_diag *d, size_t size)
{
	if (err != SBAT_E_EFIVAR || d->code != SBAT_E_EFIVAR || !d->what)
		fail("a failure that is not SBAT_E_EFIVAR with a reason");
	if (d->has_offset && d->offset > size)
		fail("a failure offset past the end of the input");
}

/* The input as shim's load options. */
static void
check_stage2(const uint8_t *in, size_t size)
{
	sbat_shim_stage2 s2;
	sbat_diag d;
	sbat_err err = sbat_shim_stage2_path(in, size, "\\EFI\\debian\\shimx64.efi", "grubx64.efi", &s2, &d);

	if (err != SBAT_OK)
		check_failure(err, &d, size);
	else if (!memchr(s2.path, '\0', sizeof(s2.path)) || !memchr(s2.word, '\0', sizeof(s2.word)) || !s2.path[0])
		fail("a second stage path without its NUL, or empty");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sbat_load_option lo;
	uint16_t order[64];
	char text[256];
	size_t n;
	sbat_diag d;
	sbat_err err;
	uint8_t *in;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	in = malloc(size ? size : 1);
	if (!in)
		return 0;
	if (size)
		memcpy(in, data, size);

	err = sbat_load_option_parse(in, size, &lo, &d);
	if (err != SBAT_OK) {
		check_failure(err, &d, size);
	} else {
		if (lo.optional_offset > size || lo.optional_len > size - lo.optional_offset)
			fail("optional data outside the input");
		if (!memchr(lo.description, '\0', sizeof(lo.description)) ||
		    !memchr(lo.file_path, '\0', sizeof(lo.file_path)) ||
		    !memchr(lo.partition_guid, '\0', sizeof(lo.partition_guid)))
			fail("a text without its NUL");
		err = sbat_ucs2_to_utf8(in + lo.optional_offset, lo.optional_len, text, sizeof(text), &d);
		if (err != SBAT_OK)
			check_failure(err, &d, lo.optional_len);
	}
	err = sbat_boot_order_parse(in, size, order, sizeof(order) / sizeof(order[0]), &n, &d);
	if (err != SBAT_OK)
		check_failure(err, &d, size);
	else if (n == 0 || n > sizeof(order) / sizeof(order[0]))
		fail("a BootOrder count out of range");
	err = sbat_ucs2_to_utf8(in, size, text, sizeof(text), &d);
	if (err != SBAT_OK)
		check_failure(err, &d, size);
	else if (!memchr(text, '\0', sizeof(text)))
		fail("a converted text without its NUL");
	check_stage2(in, size);
	if (size && memcmp(in, data, size) != 0)
		fail("a parser modified its input");
	free(in);
	return 0;
}
