/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-csv.c - libFuzzer harness: the SBAT CSV parser and its canonical form */

/*
 * Input: raw bytes given to sbat_csv_parse as they are (the contents of a
 * .sbat or of a CSV file; inputs over FUZZ_MAX_INPUT bytes are ignored).
 *
 * Exercised: sbat_csv_parse, sbat_csv_format and sbat_csv_merge, and the
 * same bytes as an SbatLevel: sbat_level_parse and sbat_level_parse_shim.
 * A level the strict parser accepts, shim's reader accepts with the same
 * rows (names and generations). When the input parses as CSV, these must
 * hold, or the harness aborts:
 *  - the input buffer is unchanged;
 *  - it formats, the formatted bytes parse again into as many rows with the
 *    same texts, and formatting those gives identical bytes;
 *  - merging it with itself succeeds and equals its formatted form.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/csv.h"
#include "sbat/level.h"

#define FUZZ_MAX_INPUT (4u * 1024u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant failed: say which, then die so the fuzzer keeps the input. */
static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-csv: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

/* The input as an SbatLevel: every level the strict parser accepts is read alike by shim's reader. */
static void
check_level(const uint8_t *in, size_t size)
{
	sbat_level *strict = NULL, *shim = NULL;
	size_t i;

	if (sbat_level_parse(in, size, &strict, NULL) != SBAT_OK) {
		if (sbat_level_parse_shim(in, size, &shim, NULL) == SBAT_OK)
			sbat_level_free(shim);
		return;
	}
	if (sbat_level_parse_shim(in, size, &shim, NULL) != SBAT_OK)
		fail("a level sbat_level_parse accepts is refused by sbat_level_parse_shim");
	if (shim->n_entries != strict->n_entries || strcmp(shim->datestamp, strict->datestamp) != 0)
		fail("sbat_level_parse_shim reads another number of rows or datestamp");
	for (i = 0; i < strict->n_entries; i++)
		if (strcmp(shim->entries[i].component_name, strict->entries[i].component_name) != 0 ||
		    shim->entries[i].generation != strict->entries[i].generation)
			fail("sbat_level_parse_shim reads another row");
	sbat_level_free(strict);
	sbat_level_free(shim);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sbat_csv *csv = NULL, *csv2 = NULL;
	uint8_t *in, *fmt = NULL, *fmt2 = NULL, *merged = NULL;
	size_t fmt_len = 0, fmt2_len = 0, merged_len = 0, i;
	sbat_err err;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	/* a copy of exactly the input's size: the sanitizers see any read past it */
	in = calloc(size ? size : 1, 1);
	if (!in)
		return 0;
	if (size)
		memcpy(in, data, size);
	check_level(in, size);

	err = sbat_csv_parse(in, size, &csv, NULL);
	if (size && memcmp(in, data, size) != 0)
		fail("sbat_csv_parse modified its input");
	if (err != SBAT_OK) {
		if (err != SBAT_E_CSV && err != SBAT_E_TOO_BIG && err != SBAT_E_NOMEM)
			fail("sbat_csv_parse returned an undocumented error code");
		free(in);
		return 0;
	}
	if (csv->n_entries == 0 || strcmp(csv->entries[0].component_name, "sbat") != 0 ||
	    csv->entries[0].generation != 1)
		fail("parsed CSV does not start with the sbat,1 header row");

	if (sbat_csv_format(csv, &fmt, &fmt_len, NULL) != SBAT_OK)
		fail("a CSV that parses does not format");
	if (sbat_csv_parse(fmt, fmt_len, &csv2, NULL) != SBAT_OK)
		fail("formatted CSV does not parse");
	if (csv2->n_entries != csv->n_entries)
		fail("formatted CSV has another number of rows");
	for (i = 0; i < csv->n_entries; i++)
		if (strcmp(csv->entries[i].text, csv2->entries[i].text) != 0 ||
		    csv->entries[i].generation != csv2->entries[i].generation)
			fail("formatted CSV has another row");
	if (sbat_csv_format(csv2, &fmt2, &fmt2_len, NULL) != SBAT_OK)
		fail("formatted CSV does not format again");
	if (fmt2_len != fmt_len || memcmp(fmt, fmt2, fmt_len) != 0)
		fail("formatting is not stable");

	if (sbat_csv_merge(csv, csv, 0, &merged, &merged_len, NULL) != SBAT_OK)
		fail("merging a CSV with itself failed");
	if (merged_len != fmt_len || memcmp(merged, fmt, fmt_len) != 0)
		fail("merging a CSV with itself differs from its formatted form");

	free(merged);
	free(fmt2);
	free(fmt);
	sbat_csv_free(csv2);
	sbat_csv_free(csv);
	free(in);
	return 0;
}
