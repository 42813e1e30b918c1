/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* boot_paths.h - --check-level next without IMAGEs: the boot paths of BootNext, BootOrder and removable media */
#ifndef SBAT_CLI_BOOT_PATHS_H
#define SBAT_CLI_BOOT_PATHS_H

#include "options.h"

/*
 * One line per boot path and stage: BootNext, then each BootOrder entry,
 * then (with --esp) the removable-media fallback; the default path marked.
 * Exit status 4 when the default path is refused, 7 when another one is.
 */
int cli_run_boot_paths(const cli_opts *o);

#endif
