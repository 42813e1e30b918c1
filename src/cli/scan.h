/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* scan.h - the directory scan of --check-level: every PE image below a directory */
#ifndef SBAT_CLI_SCAN_H
#define SBAT_CLI_SCAN_H

#include <stddef.h>
#include "sbat/sbat.h"

/*
 * A regular file that a directory scan found and that starts with "MZ":
 * the callback judges it and says whether it was a PE image after all. It
 * gets the descriptor the scan opened (without following a symbolic link)
 * and read "MZ" from, and judges that file, never the path again; the scan
 * closes it afterwards.
 */
enum cli_scan_result { CLI_SCAN_JUDGED, CLI_SCAN_NOT_PE };

/* What a directory scan reports to, and what it counted. */
typedef struct cli_scan {
	enum cli_scan_result (*on_candidate)(void *ctx, const char *path, int fd);
	/* a file or directory that could not be read; the scan goes on */
	void (*on_unreadable)(void *ctx, const char *path, const sbat_diag *d);
	void *ctx;
	size_t n_dirs;              /* directories scanned */
	size_t n_not_pe;            /* files that are not PE images (special files included) */
	size_t n_symlinks;          /* symbolic links, never followed */
	struct cli_scan_seen *seen; /* directories already scanned, so none is scanned twice */
	size_t n_seen, cap_seen;
} cli_scan;

/* Deepest directory nesting a scan enters; deeper ones are reported unreadable. */
#define CLI_SCAN_MAX_DEPTH 32

/*
 * Scan the directory `dir` recursively, entries in byte order of their
 * names: each regular file starting with "MZ" goes to on_candidate, the
 * rest is counted. Symbolic links are counted and never followed, and a
 * directory already scanned (by an earlier argument, or a bind mount) is
 * not scanned again. Returns 0, or -1 when memory ran out (reported).
 */
int cli_scan_dir(cli_scan *s, const char *dir);
void cli_scan_free(cli_scan *s);

#endif
