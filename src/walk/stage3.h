/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* stage3.h - the menu of the loader shim starts: what systemd-boot and GRUB start next, from their files */
#ifndef SBAT_WALK_STAGE3_H
#define SBAT_WALK_STAGE3_H

#include <stddef.h>

#include "walk/walk.h"

/*
 * Stage 3: what the loader that shim started (stage 2, loader_path on esp,
 * already opened as *loader) starts next, when it is systemd-boot or GRUB.
 * Returns SBAT_VERDICT_REFUSED when the default entry's file is refused (or any,
 * when the default entry cannot be known).
 */
sbat_verdict stage3_follow(walk *w, const char *label, int is_default, const sbat_next_state *next, const char *esp,
                           const char *loader_path, const image *loader);

#endif
