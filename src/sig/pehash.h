/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pehash.h - the Authenticode SHA-256 of an image, from its buffer or from the file it maps */
#ifndef SBAT_SIG_PEHASH_H
#define SBAT_SIG_PEHASH_H

#include <stdint.h>

#include "sbat/authenticode.h"

/*
 * sbat_authenticode_hash of img (not NULL, rule known). fd >= 0: the file
 * img's buffer maps, read through a 256 KiB buffer instead of the mapping,
 * so that a large image does not stay resident; -1: the buffer.
 */
sbat_err pehash_compute(const sbat_image *img, sbat_authenticode_rule rule, int fd,
                        uint8_t ret_digest[SBAT_AUTHENTICODE_SHA256_SIZE], sbat_diag *d);

#endif
