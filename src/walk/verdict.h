/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* verdict.h - an image judged as shim judges it in the next boot */
#ifndef SBAT_WALK_VERDICT_H
#define SBAT_WALK_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "walk/walk.h"

/*
 * Judge im as shim 16.x does (sbat_judge_image) in the next boot:
 * in_protocol 0 (what shim starts itself) requires a .sbat, in_protocol 1
 * (its LoadImage hook, the shim_lock protocol) lets a missing one pass.
 * Returns the verdict; j keeps what decided (the judgement's facts, its
 * rows, the diag of a check that did not run) for verdict_keys.
 */
sbat_verdict verdict_judge_image(const walk *w, const sbat_next_state *n, const image *im, int in_protocol, judged *j);

/* The facts of j into the stage (pointing into j, which outlives the stage's addition). */
void verdict_keys(const judged *j, sbat_boot_stage *st);

#endif
