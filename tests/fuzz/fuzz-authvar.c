/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-authvar.c - libFuzzer harness: authenticated updates of db, dbx and KEK checked as the firmware checks them */

/*
 * Input: byte 0 picks the variable written (bits 0-1: db, dbx, KEK, or a
 * name the check refuses) and whose certificates the key lists are (bit 2:
 * the PK's, else the KEK's); bytes 1-2 are the big-endian length of the
 * key lists (EFI_SIGNATURE_LISTs, cut at the input's end) and the update
 * file follows them. Key lists that do not read leave that database empty.
 * Inputs over FUZZ_MAX_INPUT bytes are ignored.
 *
 * These must hold, or the harness aborts:
 *  - the result is SBAT_OK, or SBAT_E_EFIVAR, SBAT_E_SIGNATURE or
 *    SBAT_E_NOMEM with the check named and an offset inside the update
 *    (or at its end);
 *  - a result is one of authvar_result's; the signature lists start inside
 *    the update, at 0 when it carries no authentication;
 *  - the signer's and the key's names are strings of their buffers; an
 *    update taken names the key it verifies under, by_pk only when the
 *    key lists are the PK's, and none is taken with no key, nor a KEK
 *    update under a KEK certificate;
 *  - the lists of an update taken read as a signature database;
 *  - the same input gives the same answer, and is not modified.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/sigdb.h"

#include "sig/authvar.h"

#define FUZZ_MAX_INPUT (128u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-authvar: invariant violated: %s\n", what);
	fflush(stderr);
	abort();
}

/* A database of buf's lists, empty when they do not read. */
static sbat_sigdb *
keys_of(const uint8_t *buf, size_t len)
{
	sbat_sigdb *db = NULL;

	if (sbat_sigdb_new(&db, NULL) != SBAT_OK)
		return NULL;
	if (len && sbat_sigdb_append(db, buf, len, "keys", NULL) != SBAT_OK) {
		sbat_sigdb_free(db);
		if (sbat_sigdb_new(&db, NULL) != SBAT_OK)
			return NULL;
	}
	return db;
}

static int
terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* The invariants of a check that returned SBAT_OK. */
static void
check_ok(const authvar_check *c, const uint8_t *upd, size_t len, const char *var, int pk_keys, size_t n_keys)
{
	sbat_sigdb *db = NULL;

	if ((unsigned)c->result > AUTHVAR_SEVERAL_SIGNERS)
		fail("a result out of range");
	if (c->payload_offset > len)
		fail("the lists start past the update's end");
	if (c->result == AUTHVAR_NOT_AUTHENTICATED && c->payload_offset != 0)
		fail("plain lists that do not start at 0");
	if (!terminated(c->signer, sizeof(c->signer)) || !terminated(c->key, sizeof(c->key)))
		fail("a name without its NUL");
	if (c->result != AUTHVAR_ACCEPTED)
		return;
	if (n_keys == 0)
		fail("an update taken with no key");
	if (!c->key[0])
		fail("an update taken names no key");
	if (c->by_pk != pk_keys)
		fail("by_pk says another database than the key lists");
	if (strcmp(var, "KEK") == 0 && !c->by_pk)
		fail("a KEK update taken under a KEK certificate");
	if (sbat_sigdb_new(&db, NULL) != SBAT_OK)
		return;
	if (sbat_sigdb_append(db, upd + c->payload_offset, len - c->payload_offset, "update", NULL) != SBAT_OK)
		fail("the lists of an update taken do not read");
	sbat_sigdb_free(db);
}

/* Check the update against the keys twice: the same answer each time. */
static void
run(const uint8_t *upd, size_t len, const char *var, sbat_sigdb *pk, sbat_sigdb *kek, int pk_keys, size_t n_keys)
{
	authvar_check c, again;
	sbat_diag d, d2;
	sbat_err r, r2;

	memset(&c, 0, sizeof(c));
	memset(&again, 0, sizeof(again));
	r = authvar_check_update(upd, len, var, pk, kek, &c, &d);
	r2 = authvar_check_update(upd, len, var, pk, kek, &again, &d2);
	if (r != r2)
		fail("the same input gives another error");
	if (r != SBAT_OK) {
		if (r != SBAT_E_EFIVAR && r != SBAT_E_SIGNATURE && r != SBAT_E_NOMEM)
			fail("an unexpected error code");
		if (!d.what || !d.what[0])
			fail("a failure that names no check");
		if (r != SBAT_E_NOMEM && d.offset > len)
			fail("a failure's offset past the update's end");
		return;
	}
	if (c.result != again.result || c.payload_offset != again.payload_offset || c.by_pk != again.by_pk ||
	    strcmp(c.key, again.key) != 0 || strcmp(c.signer, again.signer) != 0)
		fail("the same input gives another answer");
	check_ok(&c, upd, len, var, pk_keys, n_keys);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const vars[] = { "db", "dbx", "KEK", "MokListX" };
	sbat_sigdb *keys, *empty = NULL;
	uint8_t *copy;
	size_t klen;
	int pk_keys;

	if (size < 3 || size > FUZZ_MAX_INPUT)
		return 0;
	klen = (size_t)data[1] << 8 | data[2];
	if (klen > size - 3)
		klen = size - 3;
	pk_keys = (data[0] & 4) != 0;
	copy = malloc(size);
	keys = keys_of(data + 3, klen);
	if (!copy || !keys || sbat_sigdb_new(&empty, NULL) != SBAT_OK) {
		free(copy);
		sbat_sigdb_free(keys);
		return 0;
	}
	memcpy(copy, data, size);
	run(data + 3 + klen, size - 3 - klen, vars[data[0] & 3], pk_keys ? keys : empty, pk_keys ? empty : keys,
	    pk_keys, sbat_sigdb_count(keys));
	if (memcmp(copy, data, size) != 0)
		fail("the input was modified");
	free(copy);
	sbat_sigdb_free(keys);
	sbat_sigdb_free(empty);
	return 0;
}
