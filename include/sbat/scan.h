/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* scan.h - every PE image below a directory, found without following links or blocking on special files */
#ifndef SBAT_SCAN_H
#define SBAT_SCAN_H

#include <stddef.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the caller made of a candidate. */
typedef enum sbat_scan_result {
	SBAT_SCAN_JUDGED = 0, /* it was a PE image */
	SBAT_SCAN_NOT_PE,     /* it was not, after all: counted with the other files */
} sbat_scan_result;

/*
 * A regular file that starts with "MZ": path, and a descriptor the scan
 * opened (without following a symbolic link, without blocking on a FIFO)
 * and read "MZ" from. Judge that descriptor, never the path again; the
 * scan closes it afterwards.
 */
typedef sbat_scan_result (*sbat_scan_candidate_fn)(void *ctx, const char *path, int fd);

/* A file or directory that could not be read; the scan goes on. */
typedef void (*sbat_scan_unreadable_fn)(void *ctx, const char *path, const sbat_diag *d);

/* What a scan counted. Fixed for the life of the soname. */
typedef struct sbat_scan_counts {
	size_t n_dirs;     /* directories scanned */
	size_t n_not_pe;   /* files that are not PE images (special files included) */
	size_t n_symlinks; /* symbolic links, never followed */
} sbat_scan_counts;

/* A scan: opaque, made by sbat_scan_new, freed by sbat_scan_free. */
typedef struct sbat_scan sbat_scan;

/* Deepest directory nesting a scan enters; deeper ones are reported unreadable. */
#define SBAT_SCAN_MAX_DEPTH 32

/* A new scan calling on_candidate and on_unreadable (neither NULL) with ctx. */
SBAT_API sbat_err sbat_scan_new(sbat_scan_candidate_fn on_candidate, sbat_scan_unreadable_fn on_unreadable, void *ctx,
                                sbat_scan **ret, sbat_diag *reterr);

/*
 * Scan dir recursively, entries in byte order of their names: each regular
 * file starting with "MZ" goes to on_candidate, the rest is counted.
 * Symbolic links inside are counted and never followed (dir itself may be
 * one), and a directory already scanned by this scan (an earlier argument,
 * a bind mount) is not scanned again. What cannot be read goes to
 * on_unreadable. Returns SBAT_OK, or SBAT_E_NOMEM (reported to
 * on_unreadable too) when the scan had to stop.
 */
SBAT_API sbat_err sbat_scan_dir(sbat_scan *s, const char *dir);

/* What the scan counted so far. */
SBAT_API sbat_scan_counts sbat_scan_get_counts(const sbat_scan *s);

/* Forget the directories scanned and the counts, to scan the same ones again. */
SBAT_API void sbat_scan_reset(sbat_scan *s);

/* NULL-safe. */
SBAT_API void sbat_scan_free(sbat_scan *s);

#ifdef __cplusplus
}
#endif

#endif
