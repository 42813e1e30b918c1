/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* decided.h - does the file still hold the bytes the edit decided from? */
#ifndef SBAT_EDIT_DECIDED_H
#define SBAT_EDIT_DECIDED_H

#include "sbat/output.h"

#include "pe/image_internal.h"
#include "util/diag.h"

/*
 * Read again, from fd, the bytes the parse of img saw and the edit decided
 * from (its headers, its .sbat, its .pcrsig: see image_internal.h), and fail
 * with SBAT_E_CHANGED, naming the first offset that differs, unless they are
 * the same. Called once everything is written: a write made after the parse
 * and before the input's time stamps or fingerprint were first taken would
 * otherwise be undone by rows merged or sections placed from the old bytes.
 */
sbat_err decided_check(const sbat_image *img, const sbat_io *io, int fd, sbat_diag *d);

#endif
