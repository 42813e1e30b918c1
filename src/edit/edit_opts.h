/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* edit_opts.h - the edit options as the library reads them */
#ifndef SBAT_EDIT_EDIT_OPTS_H
#define SBAT_EDIT_EDIT_OPTS_H

#include "sbat/edit.h"
#include "sbat/error.h"

/*
 * The caller's options as this library's structure (defaults for NULL; an
 * older caller's shorter structure gets the defaults of the later fields).
 * SBAT_E_ABI for a size or a mode it does not know.
 */
sbat_err edit_normalize_opts(const sbat_edit_opts *opts, sbat_edit_opts *ret, sbat_diag *reterr);

#endif
