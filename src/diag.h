/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* diag.h - the one way library code reports a failure */
#ifndef SBAT_DIAG_H
#define SBAT_DIAG_H

#include <stddef.h>

#include "sbat/error.h"

/* Fill *d (when given) and return code, so a check reads `return fail(...)`. */
static inline sbat_err
diag_fail_at(sbat_diag *d, sbat_err code, const char *what, uint64_t offset)
{
	if (d) {
		d->code = code;
		d->what = what;
		d->offset = offset;
		d->has_offset = 1;
		d->line = 0;
		d->field = 0;
		d->sys_errno = 0;
	}
	return code;
}

static inline sbat_err
diag_fail(sbat_diag *d, sbat_err code, const char *what)
{
	if (d) {
		diag_fail_at(d, code, what, 0);
		d->has_offset = 0;
	}
	return code;
}

static inline sbat_err
diag_fail_errno(sbat_diag *d, sbat_err code, const char *what, int err)
{
	if (d) {
		diag_fail(d, code, what);
		d->sys_errno = err;
	}
	return code;
}

#endif
