/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigs.h - --print's account of an image's Authenticode signatures, as text and as JSON */
#ifndef SBAT_CLI_SIGS_H
#define SBAT_CLI_SIGS_H

#include <stdio.h>

#include "sbat/image.h"

/*
 * --print: a signed image's Authenticode SHA-256 and, per signature, its
 * digest, whether it still covers the image, its signer and its
 * certificates (the chain from the signer up first), on standard error,
 * each line after "FILE: " as --verbose describes an image; standard
 * output keeps the .sbat CSV alone. An image without a certificate table
 * gets nothing. A table that cannot be read gets one line naming the
 * structure and its offset; the exit status of --print does not change.
 * fd: the file img maps, hashed through a small buffer (-1: the mapping).
 */
void cli_print_signatures(const char *file, const sbat_image *img, int fd);

/*
 * --print --json: the keys "authenticode_sha256" and "signatures" (an
 * array, empty for an unsigned image; null and "signatures_error" when
 * the table cannot be read), each line ending ",\n". a: what
 * sbat_walk_image_digests read; NULL when it failed, as d says.
 */
void cli_print_signatures_json(FILE *out, const sbat_image *img, const sbat_authenticode *a, const sbat_diag *d);

#endif
