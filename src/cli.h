/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* cli.h - pieces of the sbat-add command shared between its files */
#ifndef SBAT_CLI_H
#define SBAT_CLI_H

#include <stdio.h>

#include "sbat/sbat.h"

/*
 * Describe the image as one JSON object on `out`: headers, sections, the
 * layout around them and the .sbat rows (or why they do not validate).
 */
void cli_print_json(FILE *out, const char *file, const sbat_pe *pe, const uint8_t *data, size_t len);

#endif
