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
 * why gets the line's text from the verdict word on; j what decided.
 */
enum stage_verdict verdict_judge_image(const walk *w, const sbat_next_state *n, const image *im, int in_protocol,
                                       char *why, size_t why_size, judged *j);

#endif
