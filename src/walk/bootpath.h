/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bootpath.h - one boot path followed from its first stage */
#ifndef SBAT_WALK_BOOTPATH_H
#define SBAT_WALK_BOOTPATH_H

#include <stddef.h>
#include <stdint.h>

#include "walk/walk.h"

/* Follow one path: its first stage at uefi_path (or a load option's File() nodes) under esp; the worst verdict. */
sbat_verdict bootpath_follow(walk *w, const char *label, int is_default, const char *esp, const char *uefi_path,
                             const char *nodes, size_t n_nodes, const uint8_t *opt, size_t opt_len);

#endif
