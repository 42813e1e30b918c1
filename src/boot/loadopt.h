/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* loadopt.h - what the walk asks of a load option beyond sbat_load_option */
#ifndef SBAT_BOOT_LOADOPT_H
#define SBAT_BOOT_LOADOPT_H

#include <stddef.h>
#include <stdint.h>

/*
 * 1 when the first device path of the Boot#### variable buf[0..len) (as
 * sbat_load_option_parse takes it) names a file in a firmware volume (a
 * PIWG firmware file node: the firmware's own shell or another built-in
 * application), else 0 (a variable that does not parse too).
 */
int loadopt_in_firmware(const uint8_t *buf, size_t len);

#endif
