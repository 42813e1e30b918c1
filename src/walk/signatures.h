/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* signatures.h - the signature gate: the firmware's and shim's rules over the databases read once */
#ifndef SBAT_WALK_SIGNATURES_H
#define SBAT_WALK_SIGNATURES_H

#include <stddef.h>
#include <stdint.h>

#include "walk/walk.h"

/*
 * The signature gate (only with sbat_walk_opts.signatures): the databases,
 * read once, and the pending updates; -1 when out of memory, 1 after a note
 * when a pending update does not read.
 */
int signatures_load(walk *w);
void signatures_free(walk *w);

/* shim's keys for the stages after it (shim: its image, or NULL for none), and back to the outer path's. */
void signatures_enter_shim(walk *w, const sbat_image *shim, walk_shim_keys *saved);
void signatures_leave_shim(walk *w, const walk_shim_keys *saved);

/*
 * The signature gate of im, by the firmware's rule (by_shim 0) or shim's,
 * kept for the next line: its verdict, and its words (from after the
 * verdict word) in w->sig_text.
 */
enum stage_verdict signatures_judge(walk *w, const image *im, int by_shim);

/*
 * A stage's SBAT verdict v and its text, with the signature gate of im
 * added: a refused or unknown signature decides (the SBAT words then
 * follow in brackets), an accepted one is added in brackets. Without
 * signatures judged, v and text as they are.
 */
enum stage_verdict signatures_gate(walk *w, const image *im, int by_shim, enum stage_verdict v, char *text,
                                   size_t size);

#endif
