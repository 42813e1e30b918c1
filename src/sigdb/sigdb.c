/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigdb.c - a set of signature list entries: appended with duplicates left out, listed and searched */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/error.h"
#include "sbat/sigdb.h"

#include "sigdb/esl.h"
#include "sigdb/sigdb.h"
#include "util/diag.h"

/* One appended buffer: its copy, its name and the entries taken from it (which point into the copy). */
typedef struct sigdb_source {
	char *name;
	uint8_t *data;
	sbat_sigdb_entry *entries;
	size_t n, cap;
	struct sigdb_source *next;
} sigdb_source;

struct sbat_sigdb {
	sigdb_source *sources;    /* newest first */
	sbat_sigdb_entry **index; /* every entry, in the order added */
	uint32_t *hashes;         /* index[i]'s hash, to find duplicates */
	size_t n, cap;
};

SBAT_API sbat_err
sbat_sigdb_new(sbat_sigdb **ret, sbat_diag *reterr)
{
	*ret = calloc(1, sizeof(**ret));
	if (!*ret)
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory for a signature database");
	return SBAT_OK;
}

static void
source_free(sigdb_source *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->data);
	free(s->entries);
	free(s);
}

SBAT_API void
sbat_sigdb_free(sbat_sigdb *db)
{
	sigdb_source *s, *next;

	if (!db)
		return;
	for (s = db->sources; s; s = next) {
		next = s->next;
		source_free(s);
	}
	free(db->index);
	free(db->hashes);
	free(db);
}

/* FNV-1a of what makes two entries equal: type, owner, data. */
static uint32_t
entry_hash(const esl_entry *e)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < 16; i++)
		h = (h ^ e->type_guid[i]) * 16777619u;
	for (i = 0; i < 16; i++)
		h = (h ^ e->owner[i]) * 16777619u;
	for (i = 0; i < e->data_len; i++)
		h = (h ^ e->data[i]) * 16777619u;
	return h;
}

/* 1 if the database holds an entry equal to e (hash h). */
static int
holds(const sbat_sigdb *db, const esl_entry *e, uint32_t h)
{
	size_t i;

	for (i = 0; i < db->n; i++) {
		const sbat_sigdb_entry *x = db->index[i];

		if (db->hashes[i] == h && x->data_len == e->data_len && memcmp(x->type_guid, e->type_guid, 16) == 0 &&
		    memcmp(x->owner, e->owner, 16) == 0 && memcmp(x->data, e->data, e->data_len) == 0)
			return 1;
	}
	return 0;
}

/* What an append's walk fills. */
typedef struct add_ctx {
	sbat_sigdb *db;
	sigdb_source *src;
} add_ctx;

static sbat_err
count_entry(void *ctx, const esl_entry *e, sbat_diag *reterr)
{
	(void)e;
	(void)reterr;
	(*(size_t *)ctx)++;
	return SBAT_OK;
}

/* Take e into the source and the index, unless the database holds it (room was made before). */
static sbat_err
add_entry(void *ctx, const esl_entry *e, sbat_diag *reterr)
{
	add_ctx *a = ctx;
	uint32_t h = entry_hash(e);
	sbat_sigdb_entry *x;

	(void)reterr;
	if (holds(a->db, e, h) || a->src->n >= a->src->cap)
		return SBAT_OK;
	x = &a->src->entries[a->src->n++];
	x->type = e->type;
	memcpy(x->type_guid, e->type_guid, 16);
	memcpy(x->owner, e->owner, 16);
	x->data = e->data;
	x->data_len = e->data_len;
	x->source = a->src->name;
	x->list = e->list;
	x->offset = e->offset;
	a->db->index[a->db->n] = x;
	a->db->hashes[a->db->n] = h;
	a->db->n++;
	return SBAT_OK;
}

/* Room in the index for n more entries. */
static sbat_err
reserve(sbat_sigdb *db, size_t n, sbat_diag *reterr)
{
	size_t cap = db->cap ? db->cap : 64;
	sbat_sigdb_entry **index;
	uint32_t *hashes;

	if (n > SIZE_MAX / sizeof(*index) - db->n)
		return diag_fail(reterr, SBAT_E_NOMEM, "too many signature list entries");
	while (cap < db->n + n)
		cap = cap > SIZE_MAX / 2 / sizeof(*index) ? db->n + n : cap * 2;
	if (cap == db->cap)
		return SBAT_OK;
	index = realloc(db->index, cap * sizeof(*index));
	if (index)
		db->index = index;
	hashes = index ? realloc(db->hashes, cap * sizeof(*hashes)) : NULL;
	if (hashes)
		db->hashes = hashes;
	if (!index || !hashes)
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory for signature list entries");
	db->cap = cap;
	return SBAT_OK;
}

/* A source holding a copy of buf and room for n entries. */
static sbat_err
source_new(const uint8_t *buf, size_t len, const char *name, size_t n, sigdb_source **ret, sbat_diag *reterr)
{
	sigdb_source *s = calloc(1, sizeof(*s));
	size_t name_len = strlen(name);

	*ret = NULL;
	if (s) {
		s->name = malloc(name_len + 1);
		s->data = malloc(len);
		s->entries = calloc(n, sizeof(*s->entries));
		s->cap = n;
	}
	if (!s || !s->name || !s->data || !s->entries) {
		source_free(s);
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory for a signature list");
	}
	memcpy(s->name, name, name_len + 1);
	memcpy(s->data, buf, len);
	*ret = s;
	return SBAT_OK;
}

sbat_err
sigdb_append_at(sbat_sigdb *db, const uint8_t *buf, size_t len, uint64_t base, const char *source, sbat_diag *reterr)
{
	size_t n = 0;
	add_ctx a;
	sbat_err err;

	if (!source)
		source = "";
	err = esl_walk(buf, len, base, source, count_entry, &n, reterr);
	if (err != SBAT_OK || n == 0)
		return err;
	err = reserve(db, n, reterr);
	if (err == SBAT_OK)
		err = source_new(buf, len, source, n, &a.src, reterr);
	if (err != SBAT_OK)
		return err;
	a.db = db;
	/* checked above: this walk of the copy only adds */
	err = esl_walk(a.src->data, len, base, source, add_entry, &a, reterr);
	if (err != SBAT_OK || a.src->n == 0) {
		source_free(a.src);
		return err;
	}
	a.src->next = db->sources;
	db->sources = a.src;
	return SBAT_OK;
}

SBAT_API sbat_err
sbat_sigdb_append(sbat_sigdb *db, const uint8_t *buf, size_t len, const char *source, sbat_diag *reterr)
{
	return sigdb_append_at(db, buf, len, 0, source, reterr);
}

SBAT_API sbat_err
sbat_sigdb_append_update(sbat_sigdb *db, const uint8_t *buf, size_t len, const char *source, sbat_diag *reterr)
{
	size_t skip;
	sbat_err err = esl_auth2_skip(buf, len, source ? source : "", &skip, reterr);

	if (err != SBAT_OK)
		return err;
	return sigdb_append_at(db, buf + skip, len - skip, skip, source, reterr);
}

SBAT_API size_t
sbat_sigdb_count(const sbat_sigdb *db)
{
	return db ? db->n : 0;
}

SBAT_API const sbat_sigdb_entry *
sbat_sigdb_get(const sbat_sigdb *db, size_t i)
{
	return db && i < db->n ? db->index[i] : NULL;
}

/* 1 when type t names a certificate by its TBS hash, an EFI_TIME of revocation after it. */
static int
is_tbs_hash(sbat_sig_type t)
{
	return t == SBAT_SIG_X509_SHA256 || t == SBAT_SIG_X509_SHA384 || t == SBAT_SIG_X509_SHA512;
}

SBAT_API const sbat_sigdb_entry *
sbat_sigdb_find(const sbat_sigdb *db, sbat_sig_type type, const uint8_t *data, size_t len)
{
	/* a TBS hash entry holds the hash, then the 16-byte EFI_TIME, which is not compared */
	size_t want = is_tbs_hash(type) ? len + 16 : len;
	size_t i;

	if (!db || !data || !len || type == SBAT_SIG_UNKNOWN)
		return NULL;
	for (i = 0; i < db->n; i++) {
		const sbat_sigdb_entry *e = db->index[i];

		if (e->type == type && e->data_len == want && memcmp(e->data, data, len) == 0)
			return e;
	}
	return NULL;
}

SBAT_API const char *
sbat_sigdb_type_name(sbat_sig_type type)
{
	return esl_type_name(type);
}

SBAT_API void
sbat_sigdb_guid_format(const uint8_t guid[16], char out[37])
{
	/* Data1, Data2, Data3 little-endian, then Data4 as stored */
	static const uint8_t order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[o++] = '-';
		out[o++] = hex[guid[order[i]] >> 4];
		out[o++] = hex[guid[order[i]] & 15];
	}
	out[o] = '\0';
}
