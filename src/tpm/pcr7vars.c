/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcr7vars.c - the variables PCR 7 measures: read from efivarfs when first needed, set, or appended to as the
 * firmware's append write does */
#include <stdlib.h>
#include <string.h>

#include "sbat/efivar.h"
#include "sbat/pcr7.h"
#include "sbat/sigdb.h"

#include "sigdb/esl.h"
#include "tpm/pcr7vars.h"
#include "util/diag.h"
#include "util/le.h"

/* efivarfs' attribute bytes, and EFI_SIGNATURE_LIST's header (SignatureType, ListSize, HeaderSize, SignatureSize). */
#define ATTRIBUTES_SIZE 4
#define LIST_HEADER 28
#define OWNER_SIZE 16

typedef struct var {
	char name[SBAT_PCR7_NAME_MAX + 1];
	char guid[37];
	int present;
	const char *unknown; /* not known after an update (why), or NULL */
	uint8_t *data;
	size_t len;
} var;

struct sbat_pcr7_vars {
	char *dir;
	var *v;
	size_t n, cap;
};

SBAT_API sbat_err
sbat_pcr7_vars_new(const char *efivarfs, sbat_pcr7_vars **ret, sbat_diag *reterr)
{
	sbat_pcr7_vars *s = calloc(1, sizeof(*s));

	*ret = NULL;
	if (!s || !(s->dir = strdup(efivarfs ? efivarfs : SBAT_EFIVAR_DIR))) {
		free(s);
		return diag_fail(reterr, SBAT_E_NOMEM, "out of memory for the variables");
	}
	*ret = s;
	return SBAT_OK;
}

SBAT_API void
sbat_pcr7_vars_free(sbat_pcr7_vars *vars)
{
	size_t i;

	if (!vars)
		return;
	for (i = 0; i < vars->n; i++)
		free(vars->v[i].data);
	free(vars->v);
	free(vars->dir);
	free(vars);
}

static var *
find(sbat_pcr7_vars *s, const char *name, const char *guid)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i].name, name) == 0 && strcmp(s->v[i].guid, guid) == 0)
			return &s->v[i];
	return NULL;
}

/* A new entry for name-guid into *ret, absent, with no data. */
static sbat_err
add(sbat_pcr7_vars *s, const char *name, const char *guid, var **ret, sbat_diag *d)
{
	var *v;

	*ret = NULL;
	if (strlen(name) > SBAT_PCR7_NAME_MAX || strlen(guid) != 36 || strchr(name, '/') || !*name)
		return diag_fail(d, SBAT_E_EFIVAR, "not a variable name and vendor GUID");
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		var *grown = realloc(s->v, cap * sizeof(*grown));

		if (!grown)
			return diag_fail(d, SBAT_E_NOMEM, "out of memory for the variables");
		s->v = grown;
		s->cap = cap;
	}
	v = &s->v[s->n++];
	memset(v, 0, sizeof(*v));
	strcpy(v->name, name);
	strcpy(v->guid, guid);
	*ret = v;
	return SBAT_OK;
}

/* The entry of name-guid, read from efivarfs when it is not in the set yet. */
static sbat_err
lookup(sbat_pcr7_vars *s, const char *name, const char *guid, var **ret, sbat_diag *d)
{
	char file[SBAT_PCR7_NAME_MAX + 40];
	uint8_t *buf;
	size_t len;
	sbat_err e;
	var *v = find(s, name, guid);

	*ret = v;
	if (v)
		return SBAT_OK;
	if ((e = add(s, name, guid, &v, d)) != SBAT_OK)
		return e;
	strcpy(file, name);
	strcat(file, "-");
	strcat(file, guid);
	e = sbat_efivar_read(s->dir, file, 0, &buf, &len, d);
	if (e != SBAT_OK) {
		s->n--;
		return e;
	}
	if (buf) {
		v->present = 1;
		v->len = len - ATTRIBUTES_SIZE;
		memmove(buf, buf + ATTRIBUTES_SIZE, v->len);
		v->data = buf;
	}
	*ret = v;
	return SBAT_OK;
}

const char *
pcr7vars_unknown(const sbat_pcr7_vars *vars, const char *name, const char *guid)
{
	size_t i;

	for (i = 0; i < vars->n; i++)
		if (!strcmp(vars->v[i].name, name) && !strcmp(vars->v[i].guid, guid))
			return vars->v[i].unknown;
	return NULL;
}

sbat_err
pcr7vars_get(sbat_pcr7_vars *vars, const char *name, const char *guid, const uint8_t **ret_data, size_t *ret_len,
             int *ret_present, sbat_diag *reterr)
{
	var *v;
	sbat_err e = lookup(vars, name, guid, &v, reterr);

	*ret_data = NULL;
	*ret_len = 0;
	*ret_present = 0;
	if (e != SBAT_OK)
		return e;
	if (v->unknown)
		return diag_fail(reterr, SBAT_E_EFIVAR, v->unknown);
	*ret_data = v->data;
	*ret_len = v->len;
	*ret_present = v->present;
	return SBAT_OK;
}

/* Make v hold data[0..len) (present), or nothing (data NULL); its old data is freed. */
static sbat_err
assign(var *v, const uint8_t *data, size_t len, sbat_diag *d)
{
	uint8_t *copy = NULL;

	if (data && !(copy = malloc(len ? len : 1)))
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for a variable");
	if (data && len)
		memcpy(copy, data, len);
	free(v->data);
	v->data = copy;
	v->len = data ? len : 0;
	v->present = data != NULL;
	v->unknown = NULL;
	return SBAT_OK;
}

SBAT_API sbat_err
sbat_pcr7_vars_set(sbat_pcr7_vars *vars, const char *name, const char *guid, const uint8_t *data, size_t len,
                   sbat_diag *reterr)
{
	var *v = find(vars, name, guid);
	sbat_err e = v ? SBAT_OK : add(vars, name, guid, &v, reterr);

	return e == SBAT_OK ? assign(v, data, len, reterr) : e;
}

/* The current entries an appended one is held against. */
typedef struct held {
	size_t n, cap;
	esl_entry *all;
} held;

static sbat_err
hold(void *ctx, const esl_entry *e, sbat_diag *d)
{
	held *h = ctx;

	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		esl_entry *grown = realloc(h->all, cap * sizeof(*grown));

		if (!grown)
			return diag_fail(d, SBAT_E_NOMEM, "out of memory for the signature lists");
		h->all = grown;
		h->cap = cap;
	}
	h->all[h->n++] = *e;
	return SBAT_OK;
}

/* 1 if the current data holds an EFI_SIGNATURE_DATA of type (16 bytes) equal to sig[0..size) (owner included). */
static int
held_has(const held *h, const uint8_t *type, const uint8_t *sig, size_t size)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (h->all[i].data_len + OWNER_SIZE == size && memcmp(h->all[i].type_guid, type, 16) == 0 &&
		    memcmp(h->all[i].owner, sig, size) == 0)
			return 1;
	return 0;
}

/*
 * The lists of upd[0..len) (checked by esl_walk) without the entries h holds, written at out (room for len
 * bytes); *ret_len the bytes written, *ret_added the entries.
 */
static void
filter_lists(const held *h, const uint8_t *upd, size_t len, uint8_t *out, size_t *ret_len, size_t *ret_added)
{
	size_t off = 0, used = 0, added = 0;

	while (off + LIST_HEADER <= len) {
		uint32_t list = le32_get(upd + off + 16), header = le32_get(upd + off + 20),
		         sig = le32_get(upd + off + 24);
		size_t at = used, pos, kept = 0;

		memcpy(out + used, upd + off, LIST_HEADER + header);
		used += LIST_HEADER + header;
		for (pos = off + LIST_HEADER + header; pos + sig <= off + list; pos += sig) {
			if (held_has(h, upd + off, upd + pos, sig))
				continue;
			memcpy(out + used, upd + pos, sig);
			used += sig;
			kept++;
		}
		if (kept)
			le32_put(out + at + 16, (uint32_t)(used - at));
		else
			used = at;
		added += kept;
		off += list;
	}
	*ret_len = used;
	*ret_added = added;
}

SBAT_API sbat_err
sbat_pcr7_vars_append(sbat_pcr7_vars *vars, const char *name, const char *guid, const uint8_t *update, size_t len,
                      size_t *ret_added, sbat_diag *reterr)
{
	held h = { 0 };
	var *v;
	size_t skip, kept_len, added = 0;
	uint8_t *out = NULL;
	sbat_err e = lookup(vars, name, guid, &v, reterr);

	if (ret_added)
		*ret_added = 0;
	if (e == SBAT_OK)
		e = esl_auth2_skip(update, len, name, &skip, reterr);
	if (e == SBAT_OK)
		e = esl_walk(update + skip, len - skip, skip, name, NULL, NULL, reterr);
	if (e == SBAT_OK && v->present)
		e = esl_walk(v->data, v->len, ATTRIBUTES_SIZE, name, hold, &h, reterr);
	if (e == SBAT_OK && !(out = malloc(v->len + (len - skip) + 1)))
		e = diag_fail(reterr, SBAT_E_NOMEM, "out of memory for a variable");
	if (e == SBAT_OK) {
		if (v->len)
			memcpy(out, v->data, v->len);
		filter_lists(&h, update + skip, len - skip, out + v->len, &kept_len, &added);
		free(v->data);
		v->data = out;
		v->len += kept_len;
		v->present = v->present || kept_len > 0;
		if (ret_added)
			*ret_added = added;
	}
	free(h.all);
	return e;
}

/* shim's placeholder mirror when its list and its built-in keys are empty: one SHA-256 list, owner shim's, of 32
 * zero bytes (mirror_one_mok_variable's null_sha256). */
static int
placeholder(const var *v)
{
	static const uint8_t head[28] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40, 0xac, 0xa9,
		                          0x41, 0xf9, 0x36, 0x93, 0x43, 0x28, 76,   0,    0,    0,
		                          0,    0,    0,    0,    48,   0,    0,    0 };
	static const uint8_t owner[16] = { 0x50, 0xab, 0x5d, 0x60, 0x46, 0xe0, 0x00, 0x43,
		                           0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 };
	size_t i;

	if (v->len != 76 || memcmp(v->data, head, 28) || memcmp(v->data + 28, owner, 16))
		return 0;
	for (i = 44; i < 76; i++)
		if (v->data[i])
			return 0;
	return 1;
}

static sbat_err
count_entry(void *ctx, const esl_entry *e, sbat_diag *d)
{
	(void)e;
	(void)d;
	++*(size_t *)ctx;
	return SBAT_OK;
}

/*
 * MokManager's write of list[0..len) to MokList (MokListX): its old data and the lists, as given (write_db); the
 * next boot's shim mirrors its built-in keys, then the variable, into MokListRT (MokListXRT): today's mirror with
 * the lists after it, or the lists alone in place of shim's placeholder. An absent mirror stays absent (what shim
 * adds is not known).
 */
static sbat_err
mok_enroll(sbat_pcr7_vars *vars, const char *rt, const uint8_t *list, size_t len, sbat_diag *d)
{
	var *v;
	uint8_t *out;
	sbat_err e = lookup(vars, rt, SBAT_EFIVAR_SHIM_GUID, &v, d);

	if (e != SBAT_OK || !v->present || !len)
		return e;
	if (placeholder(v))
		v->len = 0;
	if (!(out = malloc(v->len + len)))
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for a variable");
	if (v->len)
		memcpy(out, v->data, v->len);
	memcpy(out + v->len, list, len);
	free(v->data);
	v->data = out;
	v->len += len;
	return SBAT_OK;
}

/*
 * A PK write: PK holds the payload after the EFI_VARIABLE_AUTHENTICATION_2, replaced (EDK2 takes no append of
 * PK); an empty payload deletes it, and the machine is then in setup mode: SecureBoot of the next boot, and what
 * the firmware verifies, are not modelled.
 */
static sbat_err
pk_write(sbat_pcr7_vars *vars, const uint8_t *update, size_t len, size_t skip, sbat_diag *d)
{
	var *v;
	sbat_err e = sbat_pcr7_vars_set(vars, "PK", SBAT_EFIVAR_GLOBAL_GUID, len > skip ? update + skip : NULL,
	                                len - skip, d);

	if (e != SBAT_OK || len > skip)
		return e;
	if ((e = lookup(vars, "SecureBoot", SBAT_EFIVAR_GLOBAL_GUID, &v, d)) == SBAT_OK)
		v->unknown = "PK is deleted: the machine is in setup mode at the next boot, which is not modelled";
	return e;
}

SBAT_API sbat_err
sbat_pcr7_vars_update(sbat_pcr7_vars *vars, const char *name, const uint8_t *update, size_t len, size_t *ret_added,
                      sbat_diag *reterr)
{
	int mok = !strcmp(name, "MokList") || !strcmp(name, "MokListX"), pk = !strcmp(name, "PK");
	size_t skip = 0, entries = 0;
	sbat_err e = SBAT_OK;

	if (ret_added)
		*ret_added = 0;
	if (!strcmp(name, "db") || !strcmp(name, "dbx"))
		return sbat_pcr7_vars_append(vars, name, SBAT_SIGDB_GUID_SECURITY_DB, update, len, ret_added, reterr);
	if (!strcmp(name, "KEK"))
		return sbat_pcr7_vars_append(vars, name, SBAT_EFIVAR_GLOBAL_GUID, update, len, ret_added, reterr);
	if (!mok && !pk)
		return diag_fail(reterr, SBAT_E_EFIVAR,
		                 "an update of a variable other than db, dbx, KEK, PK, MokList or "
		                 "MokListX");
	if (pk)
		e = esl_auth2_skip(update, len, name, &skip, reterr);
	if (e == SBAT_OK)
		e = esl_walk(update + skip, len - skip, skip, name, count_entry, &entries, reterr);
	if (e == SBAT_OK)
		e = pk ? pk_write(vars, update, len, skip, reterr) :
		         mok_enroll(vars, strcmp(name, "MokList") ? "MokListXRT" : "MokListRT", update, len, reterr);
	if (e == SBAT_OK && ret_added)
		*ret_added = entries;
	return e;
}
