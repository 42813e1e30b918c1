/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* shimrelease.h - shim by release: which release an image is, and the rules each modelled release changed, as data */
#ifndef SBAT_BOOT_SHIMRELEASE_H
#define SBAT_BOOT_SHIMRELEASE_H

#include <stddef.h>
#include <stdint.h>

/* Rules a shim release brought (shimrelease.features). */
#define SHIMRELEASE_LOADER_PROTOCOL 1u /* its image loader protocol, and LoadImage hooked (loader-proto.c) */

/* One shim release whose rules differ from the release before it. */
typedef struct shimrelease {
	unsigned major, minor;   /* the first release with these rules */
	const char *revocations; /* the file next to shim that it reads SBAT revocations from */
	unsigned features;       /* SHIMRELEASE_* */
} shimrelease;

/*
 * The revocations file shim 15.8 read (shim.c, load_revocations_file), and
 * fwupd still writes; no modelled release reads it.
 */
#define SHIMRELEASE_OLD_REVOCATIONS "revocations.efi"

/* The rows, oldest first; *n of them. */
const shimrelease *shimrelease_rows(size_t *n);

/*
 * The row whose rules release major.minor follows; the newest for 0.0 (no
 * version known); NULL for a release older than every row (not modelled).
 */
const shimrelease *shimrelease_for(unsigned major, unsigned minor);

/*
 * The release shim's image buf[0..len) names in its version string
 * ("UEFI SHIM\n$Version: 16.1 $", which shim's build puts in .data.ident):
 * 1 with *major and *minor set, 0 when it names none.
 */
int shimrelease_version(const uint8_t *buf, size_t len, unsigned *major, unsigned *minor);

#endif
