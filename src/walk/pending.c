/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pending.c - the pending updates of db, dbx, KEK, PK, MokList and MokListX, each applied only when the firmware
 * would take it */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/efivar.h"
#include "sbat/error.h"
#include "sbat/input.h"
#include "sbat/sigdb.h"
#include "sbat/walk.h"

#include "sig/authvar.h"
#include "util/diag.h"
#include "walk/pending.h"
#include "walk/walk.h"

#define DIR_MAX_FILES 1024 /* updates read from one directory */
#define DIR_DEPTH 2        /* the directory, and its subdirectories (Microsoft's KEK/<vendor>/) */

/* The machine's keys, and whether it is in setup mode (no PK: the firmware checks no update). */
typedef struct keys {
	sbat_sigdb *pk, *kek;
	int setup;
} keys;

/* A file of a directory given in place of an update. */
typedef struct candidates {
	char **paths;
	size_t n;
} candidates;

/* PK and KEK from efivarfs, and the setup mode; -1 after an error note. */
static int
load_keys(walk *w, keys *k)
{
	sbat_sigdb_var pk_state = SBAT_SIGDB_VAR_MISSING, kek_state;
	char where[WALK_PATH_MAX + 64];
	int setup = -1;
	sbat_diag d;

	if (sbat_sigdb_new(&k->pk, &d) != SBAT_OK || sbat_sigdb_new(&k->kek, &d) != SBAT_OK)
		return -1;
	if (sbat_sigdb_load_efivar(k->pk, w->efivarfs, "PK", SBAT_SIGDB_GUID_GLOBAL, &pk_state, &d) != SBAT_OK ||
	    sbat_sigdb_load_efivar(k->kek, w->efivarfs, "KEK", SBAT_SIGDB_GUID_GLOBAL, &kek_state, &d) != SBAT_OK) {
		snprintf(where, sizeof(where), "%s/%s-%s", w->efivarfs, d.other_name[0] ? d.other_name : "PK",
		         SBAT_SIGDB_GUID_GLOBAL);
		walk_error(w, where, &d);
		return -1;
	}
	if (sbat_efivar_read_byte(w->efivarfs, "SetupMode-" SBAT_EFIVAR_GLOBAL_GUID, 1, &setup, &d) != SBAT_OK)
		setup = -1;
	k->setup = setup >= 0 ? setup == 1 : pk_state != SBAT_SIGDB_VAR_LOADED;
	return 0;
}

/* How the firmware takes the write, as the report says it. */
static sbat_boot_pending
pending_check(const authvar_check *c, const keys *k)
{
	static const sbat_boot_pending refused[] = {
		[AUTHVAR_BAD_TIME] = SBAT_BOOT_PENDING_BAD_TIME,
		[AUTHVAR_NOT_SHA256] = SBAT_BOOT_PENDING_NOT_SHA256,
		[AUTHVAR_TOO_BIG] = SBAT_BOOT_PENDING_TOO_BIG,
		[AUTHVAR_NO_SIGNER] = SBAT_BOOT_PENDING_NO_SIGNER,
		[AUTHVAR_BAD_SIGNATURE] = SBAT_BOOT_PENDING_BAD_SIGNATURE,
		[AUTHVAR_NOT_SIGNED_BY_KEY] = SBAT_BOOT_PENDING_NOT_SIGNED,
		[AUTHVAR_CHAIN_BAD_SIGNATURE] = SBAT_BOOT_PENDING_CHAIN_BAD_SIGNATURE,
		[AUTHVAR_CHAIN_NOT_CA] = SBAT_BOOT_PENDING_CHAIN_NOT_CA,
		[AUTHVAR_UNKNOWN_TYPE] = SBAT_BOOT_PENDING_UNKNOWN_TYPE,
		[AUTHVAR_BAD_CERT] = SBAT_BOOT_PENDING_BAD_CERT,
		[AUTHVAR_SEVERAL_SIGNERS] = SBAT_BOOT_PENDING_SEVERAL_SIGNERS,
		[AUTHVAR_PK_SEVERAL] = SBAT_BOOT_PENDING_PK_SEVERAL,
	};

	if (c->result == AUTHVAR_PK_SEVERAL)
		return SBAT_BOOT_PENDING_PK_SEVERAL;
	if (c->result == AUTHVAR_NOT_AUTHENTICATED)
		return SBAT_BOOT_PENDING_PLAIN;
	if (k->setup)
		return SBAT_BOOT_PENDING_SETUP_MODE;
	if (c->result == AUTHVAR_ACCEPTED)
		return c->by_pk ? SBAT_BOOT_PENDING_BY_PK : SBAT_BOOT_PENDING_BY_KEK;
	return refused[c->result];
}

/* The SVN entries among target's entries from `from` on into n (svns, svn). */
static void
count_svns(const sbat_sigdb *target, size_t from, sbat_boot_note *n)
{
	const sbat_sigdb_entry *e;

	for (; (e = sbat_sigdb_get(target, from)) != NULL; from++)
		if (sbat_sigdb_svn_read(e, n->svns < SBAT_BOOT_NOTE_SVN_MAX ? &n->svn[n->svns] : NULL))
			n->svns++;
}

/* A PENDING note of p: how the firmware takes it, and the entries it added to target (from `from` on). */
static void
pending_note(walk *w, const sbat_walk_pending *p, sbat_boot_pending check, const char *key, const sbat_sigdb *target,
             size_t from)
{
	sbat_boot_note n;
	size_t count = sbat_sigdb_count(target) - from;

	sbat_boot_note_init(&n);
	count_svns(target, from, &n);
	n.kind = SBAT_BOOT_NOTE_ASSUMED;
	n.what = SBAT_BOOT_NOTE_PENDING;
	n.pending = p->file;
	n.variable = p->var;
	n.count = count;
	n.check = check;
	n.key = key && key[0] ? key : NULL;
	walk_add_note(w, &n);
}

/* 1 when the firmware takes it (or it carries no authentication to check); in setup mode, any but a PK of several
 * signatures (CheckSignatureListFormat applies there too). */
static int
takes(const authvar_check *c, const keys *k)
{
	return c->result != AUTHVAR_PK_SEVERAL &&
	       (c->result == AUTHVAR_ACCEPTED || c->result == AUTHVAR_NOT_AUTHENTICATED || k->setup);
}

/* Read file and check it as an update of var: 0 with *ret_buf, -1 with *d filled. */
static int
check_file(const char *file, const char *var, const keys *k, uint8_t **ret_buf, size_t *ret_len, authvar_check *c,
           sbat_diag *d)
{
	if (sbat_file_read(file, SBAT_SIGDB_MAX_FILE, ret_buf, ret_len, d) != SBAT_OK)
		return -1;
	if (authvar_check_update(*ret_buf, *ret_len, var, k->pk, k->kek, c, d) == SBAT_OK) {
		if (strcmp(var, "PK") == 0 && c->entries > 1)
			c->result = AUTHVAR_PK_SEVERAL;
		return 0;
	}
	free(*ret_buf);
	*ret_buf = NULL;
	return -1;
}

/* Append the lists of buf (after its header) to target: the number of new entries, or -1 after an error note. */
static long
append(walk *w, sbat_sigdb *target, const char *file, const uint8_t *buf, size_t len, const authvar_check *c)
{
	size_t before = sbat_sigdb_count(target);
	sbat_diag d;

	if (sbat_sigdb_append(target, buf + c->payload_offset, len - c->payload_offset, file, &d) != SBAT_OK) {
		walk_error(w, file, &d);
		return -1;
	}
	return (long)(sbat_sigdb_count(target) - before);
}

/*
 * The update's lists into *target, the write the firmware takes: appended, or for PK in place of PK's (EDK2's PK
 * write is no append; an empty payload deletes PK, and the machine is in setup mode after it: later updates are
 * taken unchecked). *target and *before (its entries before) then name the new PK. The entries added, or -1 after
 * an error note.
 */
static long
store(walk *w, keys *k, const char *var, sbat_sigdb **target, size_t *before, const char *file, const uint8_t *buf,
      size_t len, const authvar_check *c)
{
	sbat_sigdb *fresh;
	sbat_diag d;

	if (strcmp(var, "PK") != 0)
		return append(w, *target, file, buf, len, c);
	if (sbat_sigdb_new(&fresh, &d) != SBAT_OK) {
		walk_error(w, file, &d);
		return -1;
	}
	if (len > c->payload_offset && append(w, fresh, file, buf, len, c) < 0) {
		sbat_sigdb_free(fresh);
		return -1;
	}
	sbat_sigdb_free(k->pk);
	k->pk = *target = fresh;
	k->setup = sbat_sigdb_count(fresh) == 0;
	*before = 0;
	return (long)sbat_sigdb_count(fresh);
}

/* One update file: appended when the firmware takes it; a note either way. -1 after an error note. */
static int
apply_file(walk *w, const sbat_walk_pending *p, sbat_sigdb *target, keys *k)
{
	authvar_check c;
	uint8_t *buf = NULL;
	size_t len;
	long added = 0;
	size_t before = sbat_sigdb_count(target);
	sbat_boot_pending check;
	sbat_diag d;

	if (check_file(p->file, p->var, k, &buf, &len, &c, &d) != 0) {
		walk_error(w, p->file, &d);
		return -1;
	}
	check = pending_check(&c, k);
	if (takes(&c, k))
		added = store(w, k, p->var, &target, &before, p->file, buf, len, &c);
	free(buf);
	if (added < 0)
		return -1;
	pending_note(w, p, check, c.key, target, before);
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files under dir, to DIR_DEPTH levels, into *c (names starting with '.' passed over); -1 when out of memory. */
static int
list_dir(const char *dir, unsigned depth, candidates *c)
{
	DIR *dh = opendir(dir), *sub;
	struct dirent *e;
	char path[WALK_PATH_MAX];
	int r = 0;

	while (r == 0 && dh && (e = readdir(dh)) != NULL && c->n < DIR_MAX_FILES) {
		if (e->d_name[0] == '.' ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path))
			continue;
		if ((sub = opendir(path)) != NULL) {
			closedir(sub);
			if (depth + 1 < DIR_DEPTH)
				r = list_dir(path, depth + 1, c);
			continue;
		}
		c->paths[c->n] = malloc(strlen(path) + 1);
		if (!c->paths[c->n])
			r = -1;
		else
			memcpy(c->paths[c->n++], path, strlen(path) + 1);
	}
	if (dh)
		closedir(dh);
	return r;
}

/* The first update under the directory the firmware takes, or -1; *n_updates: those that read as updates. */
static long
pick(const candidates *c, const char *var, const keys *k, uint8_t **ret_buf, size_t *ret_len, authvar_check *ret,
     size_t *n_updates)
{
	size_t i;
	sbat_diag d;

	*n_updates = 0;
	for (i = 0; i < c->n; i++) {
		if (check_file(c->paths[i], var, k, ret_buf, ret_len, ret, &d) != 0)
			continue;
		if (ret->result != AUTHVAR_NOT_AUTHENTICATED) {
			(*n_updates)++;
			if (ret->result == AUTHVAR_ACCEPTED)
				return (long)i;
		}
		free(*ret_buf);
		*ret_buf = NULL;
	}
	return -1;
}

/* The note of a directory: the update picked and appended (added entries), or why none. */
static void
dir_note(walk *w, const sbat_walk_pending *p, const char *picked, const authvar_check *c, long added, size_t n,
         int setup, const sbat_sigdb *target)
{
	const keys k = { NULL, NULL, setup };

	sbat_boot_note note;

	sbat_boot_note_init(&note);
	if (picked)
		count_svns(target, sbat_sigdb_count(target) - (size_t)added, &note);
	note.kind = SBAT_BOOT_NOTE_ASSUMED;
	note.what = SBAT_BOOT_NOTE_PENDING;
	note.pending = p->file;
	note.variable = p->var;
	note.picked = picked;
	note.candidates = n;
	note.count = picked ? (size_t)added : 0;
	note.check = picked  ? pending_check(c, &k) :
	             k.setup ? SBAT_BOOT_PENDING_DIR_SETUP_MODE :
	                       SBAT_BOOT_PENDING_DIR_NONE;
	note.key = picked ? c->key : NULL;
	walk_add_note(w, &note);
}

/* A directory of updates, one per platform key as Microsoft publishes KEK updates: the one this machine takes. */
static int
apply_dir(walk *w, const sbat_walk_pending *p, sbat_sigdb *target, keys *k)
{
	candidates c = { calloc(DIR_MAX_FILES, sizeof(char *)), 0 };
	authvar_check ac;
	uint8_t *buf = NULL;
	size_t len = 0, n = 0, i, before = 0;
	long at = -1, added = 0;
	int r = c.paths ? list_dir(p->file, 0, &c) : -1, setup = k->setup;

	if (r == 0) {
		qsort(c.paths, c.n, sizeof(*c.paths), by_name);
		if (!setup)
			at = pick(&c, p->var, k, &buf, &len, &ac, &n);
		if (at >= 0 && ac.result == AUTHVAR_PK_SEVERAL)
			at = -1;
		if (at >= 0)
			added = store(w, k, p->var, &target, &before, c.paths[at], buf, len, &ac);
		if (added >= 0)
			dir_note(w, p, at >= 0 ? c.paths[at] : NULL, &ac, added, setup ? c.n : n, setup, target);
		r = added < 0 ? -1 : 0;
	}
	for (i = 0; i < c.n; i++)
		free(c.paths[i]);
	free(c.paths);
	free(buf);
	return r;
}

/* MokList or MokListX: shim's lists, which MokManager enrolls; appended as given. -1 after an error note. */
static int
apply_mok(walk *w, const sbat_walk_pending *p, sbat_sigdb *target)
{
	uint8_t *buf = NULL;
	size_t len, before = sbat_sigdb_count(target);
	sbat_diag d;

	if (sbat_file_read(p->file, SBAT_SIGDB_MAX_FILE, &buf, &len, &d) != SBAT_OK ||
	    sbat_sigdb_append_update(target, buf, len, p->file, &d) != SBAT_OK) {
		free(buf);
		walk_error(w, p->file, &d);
		return -1;
	}
	free(buf);
	pending_note(w, p, SBAT_BOOT_PENDING_PLAIN, NULL, target, before);
	return 0;
}

/* The database var names: t's, or the machine's KEK; NULL for a name not known. */
static sbat_sigdb *
target_of(pending_dbs *t, const keys *k, const char *var)
{
	if (strcmp(var, "db") == 0)
		return t->db;
	if (strcmp(var, "dbx") == 0)
		return t->dbx;
	if (strcmp(var, "KEK") == 0)
		return k->kek;
	if (strcmp(var, "PK") == 0)
		return k->pk;
	if (strcmp(var, "MokList") == 0)
		return t->mok;
	return strcmp(var, "MokListX") == 0 ? t->mokx : NULL;
}

int
pending_apply(walk *w, pending_dbs *t)
{
	keys k = { NULL, NULL, 0 };
	size_t i;
	int r = w->o->n_pending ? load_keys(w, &k) : 0;

	for (i = 0; r == 0 && i < w->o->n_pending; i++) {
		const sbat_walk_pending *p = &w->o->pending[i];
		sbat_sigdb *target = target_of(t, &k, p->var);
		int is_db = target && target == t->db, is_dbx = target && target == t->dbx;
		DIR *dh;

		if (!target) {
			walk_fact(w, SBAT_BOOT_NOTE_ERROR, p->file, SBAT_BOOT_NOTE_PENDING_VARIABLE);
			r = -1;
		} else if (target == t->mokx || target == t->mok) {
			r = apply_mok(w, p, target);
		} else if ((dh = opendir(p->file)) != NULL) {
			closedir(dh);
			r = apply_dir(w, p, target, &k);
		} else {
			r = apply_file(w, p, target, &k);
		}
		t->db_known |= r == 0 && is_db;
		t->dbx_known |= r == 0 && is_dbx;
	}
	sbat_sigdb_free(k.pk);
	sbat_sigdb_free(k.kek);
	return r;
}

/* A database holding var of efivarfs, or an empty one where it does not read (only counts depend on it). */
static sbat_err
load_target(const char *efivarfs, const char *var, sbat_sigdb **ret, sbat_diag *d)
{
	sbat_diag ignored;
	sbat_err e = sbat_sigdb_new(ret, d);

	if (e != SBAT_OK ||
	    sbat_sigdb_load_efivar(*ret, efivarfs, var, SBAT_SIGDB_GUID_SECURITY_DB, NULL, &ignored) == SBAT_OK)
		return e;
	sbat_sigdb_free(*ret);
	return sbat_sigdb_new(ret, d);
}

SBAT_API sbat_err
sbat_walk_pending_check(const sbat_walk_opts *o, sbat_boot_report **ret, sbat_diag *reterr)
{
	sbat_diag local, *d = reterr ? reterr : &local;
	pending_dbs t = { NULL, NULL, NULL, NULL, 0, 0 };
	walk w;
	sbat_err e;

	*ret = NULL;
	if (!o || o->size != sizeof(*o))
		return diag_fail(d, SBAT_E_ABI, "walk options not made by sbat_walk_opts_init");
	memset(&w, 0, sizeof(w));
	w.o = o;
	w.efivarfs = o->efivarfs ? o->efivarfs : SBAT_EFIVAR_DIR;
	if ((e = load_target(w.efivarfs, "db", &t.db, d)) == SBAT_OK &&
	    (e = load_target(w.efivarfs, "dbx", &t.dbx, d)) == SBAT_OK && (e = sbat_sigdb_new(&t.mokx, d)) == SBAT_OK &&
	    (e = sbat_sigdb_new(&t.mok, d)) == SBAT_OK && (e = sbat_boot_report_new(&w.report, d)) == SBAT_OK) {
		pending_apply(&w, &t);
		if (w.report_failed) {
			e = diag_fail(d, SBAT_E_NOMEM, "out of memory");
			sbat_boot_report_free(w.report);
		} else {
			*ret = w.report;
		}
	}
	sbat_sigdb_free(t.db);
	sbat_sigdb_free(t.dbx);
	sbat_sigdb_free(t.mokx);
	sbat_sigdb_free(t.mok);
	return e;
}
