/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_miss.h - why a lookup of a file on a partition found nothing, in words */
#ifndef SBAT_CLI_RENDER_MISS_H
#define SBAT_CLI_RENDER_MISS_H

#include "sbat/bootreport.h"

/* Why sbat_partition_resolve found nothing, as words after the file's name ("missing" for MISSING). */
const char *cli_render_partition_why(int miss);

/* The same after a name in a sentence: "is missing" for MISSING, else as above. */
const char *cli_render_partition_is(int miss);

/* Why a lookup (lookup, miss) found no file to load; opens_root: a File() path that opens the root directory. */
const char *cli_render_miss(sbat_boot_lookup lookup, int miss, int opens_root);

#endif
