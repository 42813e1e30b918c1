/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-sigdb.c - libFuzzer harness: EFI signature lists and authenticated variable updates */

/*
 * Input: raw bytes as a signature database's data (db, dbx, MokListRT)
 * or a signed update file, given to sbat_sigdb_append and to
 * sbat_sigdb_append_update of new databases (inputs over FUZZ_MAX_INPUT
 * bytes are ignored).
 *
 * These must hold, or the harness aborts:
 *  - no call modifies its input;
 *  - failures return SBAT_E_EFIVAR (or SBAT_E_NOMEM) with an offset inside
 *    the input (or at its end), and leave the database empty;
 *  - each entry lies inside the input at its offset, holds what the input
 *    holds there, is of the size its known type has, and is found by its
 *    type's lookup;
 *  - appending the same input again adds nothing (duplicates), and the
 *    update reading of plain lists finds the same entries.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sigdb.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-sigdb: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

static void
check_failure(sbat_err err, const sbat_diag *d, size_t size, const sbat_sigdb *db)
{
	if (err == SBAT_E_NOMEM)
		return;
	if (err != SBAT_E_EFIVAR || d->code != SBAT_E_EFIVAR || !d->what)
		fail("a failure that is not SBAT_E_EFIVAR with a reason");
	if (!d->has_offset || d->offset > size)
		fail("a failure without an offset inside the input");
	if (sbat_sigdb_count(db) != 0)
		fail("a malformed input left entries behind");
}

/* The data size of each known type (after the 16-byte owner); 0: any. */
static size_t
type_size(sbat_sig_type t)
{
	static const size_t sizes[SBAT__SIG_MAX] = {
		[SBAT_SIG_SHA256] = 32,      [SBAT_SIG_RSA2048] = 256,      [SBAT_SIG_RSA2048_SHA256] = 256,
		[SBAT_SIG_SHA1] = 20,        [SBAT_SIG_RSA2048_SHA1] = 256, [SBAT_SIG_SHA224] = 28,
		[SBAT_SIG_SHA384] = 48,      [SBAT_SIG_SHA512] = 64,        [SBAT_SIG_X509_SHA256] = 48,
		[SBAT_SIG_X509_SHA384] = 64, [SBAT_SIG_X509_SHA512] = 80,
	};

	return (int)t >= 0 && t < SBAT__SIG_MAX ? sizes[t] : 0;
}

static void
check_entry(const sbat_sigdb *db, const sbat_sigdb_entry *e, const uint8_t *in, size_t size)
{
	const sbat_sigdb_entry *f = NULL;

	if (e->offset > size || 16 + e->data_len > size - e->offset)
		fail("an entry outside the input");
	if (memcmp(in + e->offset, e->owner, 16) != 0 || memcmp(in + e->offset + 16, e->data, e->data_len) != 0)
		fail("an entry that is not what the input holds at its offset");
	if (type_size(e->type) && e->data_len != type_size(e->type))
		fail("an entry of a known type without its size");
	if (e->type == SBAT_SIG_X509 && e->data_len == 0)
		fail("an X.509 entry without a certificate");
	if (e->type == SBAT_SIG_SHA256)
		f = sbat_sigdb_find(db, SBAT_SIG_SHA256, e->data, 32);
	else if (e->type == SBAT_SIG_X509)
		f = sbat_sigdb_find(db, SBAT_SIG_X509, e->data, e->data_len);
	else if (e->type == SBAT_SIG_X509_SHA256)
		f = sbat_sigdb_find(db, SBAT_SIG_X509_SHA256, e->data, 32);
	else
		return;
	if (!f || f->type != e->type || memcmp(f->data, e->data, e->type == SBAT_SIG_X509_SHA256 ? 32 : e->data_len))
		fail("an entry its lookup does not find");
}

/* Append in as plain lists (update 0) or as an update; returns the database, or NULL when it failed. */
static sbat_sigdb *
load(const uint8_t *in, size_t size, int update)
{
	sbat_sigdb *db = NULL;
	sbat_diag d;
	sbat_err err;
	size_t i, n;
	const sbat_sigdb_entry *e;

	if (sbat_sigdb_new(&db, &d) != SBAT_OK)
		return NULL;
	err = update ? sbat_sigdb_append_update(db, in, size, "fuzz", &d) : sbat_sigdb_append(db, in, size, "fuzz", &d);
	if (err != SBAT_OK) {
		check_failure(err, &d, size, db);
		sbat_sigdb_free(db);
		return NULL;
	}
	n = sbat_sigdb_count(db);
	if (n > size / 16)
		fail("more entries than the input can hold");
	for (i = 0; (e = sbat_sigdb_get(db, i)) != NULL; i++)
		check_entry(db, e, in, size);
	if (i != n)
		fail("sbat_sigdb_get does not reach sbat_sigdb_count");
	err = update ? sbat_sigdb_append_update(db, in, size, "again", &d) :
	               sbat_sigdb_append(db, in, size, "again", &d);
	if (err != SBAT_OK || sbat_sigdb_count(db) != n)
		fail("the same input appended again changed the database");
	return db;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sbat_sigdb *plain, *update;
	uint8_t *in;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	in = malloc(size ? size : 1);
	if (!in)
		return 0;
	in[0] = 0;
	if (size)
		memcpy(in, data, size);
	plain = load(in, size, 0);
	update = load(in, size, 1);
	/* plain lists never look like an update's header (its SignatureHeaderSize would be 0x0EF10200) */
	if (plain && (!update || sbat_sigdb_count(plain) != sbat_sigdb_count(update)))
		fail("plain lists read differently as an update");
	sbat_sigdb_free(plain);
	sbat_sigdb_free(update);
	if (size && memcmp(in, data, size) != 0)
		fail("a parser modified its input");
	free(in);
	return 0;
}
