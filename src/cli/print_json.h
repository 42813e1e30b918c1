/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* print_json.h - the machine-readable form of --print */
#ifndef SBAT_CLI_PRINT_JSON_H
#define SBAT_CLI_PRINT_JSON_H

#include <stdio.h>

#include "sbat/image.h"

/*
 * Describe the image as one JSON object on `out`: headers, sections, the
 * layout around them and the .sbat rows (or why they do not validate),
 * and for a UKI its stub and PCR 11 values (fd: the image's file).
 */
void cli_print_json(FILE *out, const char *file, const sbat_image *img, int fd);

#endif
