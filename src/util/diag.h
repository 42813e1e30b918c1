/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* diag.h - the one way library code reports a failure */
#ifndef SBAT_UTIL_DIAG_H
#define SBAT_UTIL_DIAG_H

/*
 * The failure convention of the library, one rule for every folder:
 *  - A function that can fail returns sbat_err (SBAT_OK is 0) and fills the
 *    caller's sbat_diag through the helpers below: `return diag_fail(...)`.
 *    The public API is sbat_err plus sbat_diag; nothing prints.
 *  - 0 / -1 with errno only in the syscall layer (file/io_table.h), whose
 *    callers turn errno into sbat_err with diag_fail_errno.
 *  - A predicate that cannot fail answers a question with int or bool and
 *    says so in its comment ("1 if ..."); it never reports a failure.
 *  - Checked arithmetic (util/ckd.h) has C23 ckd_* polarity: true means the
 *    result overflowed.
 */

#include <stddef.h>
#include <string.h>

#include "sbat/error.h"

/* Fill *d (when given) and return code, so a check reads `return fail(...)`. */
static inline sbat_err
diag_fail_at(sbat_diag *d, sbat_err code, const char *what, uint64_t offset)
{
	if (d) {
		d->version = SBAT_DIAG_VERSION;
		d->code = code;
		d->what = what;
		d->offset = offset;
		d->has_offset = 1;
		d->line = 0;
		d->field = 0;
		d->sys_errno = 0;
		d->size_needed = 0;
		d->size_available = 0;
		d->other_index = -1;
		d->other_name[0] = '\0';
		d->existing_generation = 0;
		d->new_generation = 0;
		memset(d->reserved, 0, sizeof(d->reserved));
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

/* A place too small for the data: both sizes go to the caller. */
static inline sbat_err
diag_fail_size(sbat_diag *d, sbat_err code, const char *what, uint64_t offset, uint64_t needed, uint64_t available)
{
	if (d) {
		diag_fail_at(d, code, what, offset);
		d->size_needed = needed;
		d->size_available = available;
	}
	return code;
}

/* A check between two parts of the image: name the second (a section, or "headers"). */
static inline sbat_err
diag_fail_other(sbat_diag *d, sbat_err code, const char *what, uint64_t offset, int other_index, const char *other_name)
{
	if (d) {
		size_t n = strlen(other_name);

		diag_fail_at(d, code, what, offset);
		d->other_index = other_index;
		if (n > sizeof(d->other_name) - 1)
			n = sizeof(d->other_name) - 1;
		memcpy(d->other_name, other_name, n);
		d->other_name[n] = '\0';
	}
	return code;
}

#endif
