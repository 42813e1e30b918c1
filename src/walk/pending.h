/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pending.h - the pending updates of db, dbx, KEK, PK, MokList and MokListX, each applied only when the firmware
 * would take it */
#ifndef SBAT_WALK_PENDING_H
#define SBAT_WALK_PENDING_H

#include "sbat/sigdb.h"

#include "walk/walk.h"

/* The databases the updates go to, and whether db and dbx are known once they did. */
typedef struct pending_dbs {
	sbat_sigdb *db, *dbx, *mok, *mokx;
	int db_known, dbx_known;
} pending_dbs;

/*
 * Apply w->o->pending in order. An authenticated update of db, dbx, KEK or
 * PK is checked against PK and KEK from efivarfs as the firmware checks the
 * write (sig/authvar.h), earlier PK and KEK updates counted: appended when
 * the firmware takes it (duplicates dropped; a PK update replaces PK, and
 * one with no signature list deletes it: the machine is in setup mode
 * after it), else not, and a note says which and why. A directory in
 * place of a file: its updates (and those of its subdirectories) are tried
 * in name order, and the first the firmware takes is applied and named.
 * Signature lists without an authentication header, and those of MokList
 * and MokListX (which MokManager enrolls), are appended as given. -1 after
 * an error note when a file, PK or KEK does not read.
 */
int pending_apply(walk *w, pending_dbs *t);

#endif
