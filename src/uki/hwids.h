/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* hwids.h - what systemd-stub reads to pick a .dtbauto or an .efifw: the .hwids table and the blobs' names */
#ifndef SBAT_UKI_HWIDS_H
#define SBAT_UKI_HWIDS_H

#include <stddef.h>
#include <stdint.h>

#define HWIDS_DEVICETREE 1u /* an entry naming a device tree's compatible */
#define HWIDS_UEFI_FW 2u    /* an entry naming a firmware id */
#define HWIDS_ENTRY_SIZE 28u
#define HWIDS_MAX 256u /* entries read; the stub has no limit, real tables have a few dozen */

/* One entry of a .hwids table; name and key point into the table (NULL: none). */
typedef struct hwids_entry {
	unsigned type;       /* HWIDS_DEVICETREE or HWIDS_UEFI_FW */
	const uint8_t *chid; /* 16 bytes */
	const char *name, *key;
	size_t at; /* the entry's offset in the table */
} hwids_entry;

/*
 * The entries of the .hwids table p[0..n), as systemd-stub's chid_match
 * counts and checks them: 0 when it finds none, or refuses the table (an
 * entry of another type, an offset past the end, a string without its
 * NUL), so that no entry of either type is ever matched. At most max.
 */
unsigned hwids_parse(const uint8_t *p, size_t n, hwids_entry *out, unsigned max);

/*
 * 1 if entry i of e[0..n) can be the machine's match for its type: the
 * stub takes the first entry of that type whose CHID is the machine's, so
 * an entry after another of its type and CHID is never taken.
 */
int hwids_reachable(const hwids_entry *e, unsigned i);

/* The first "compatible" string of the device tree p[0..n) as the stub finds it, or NULL. */
const char *hwids_dtb_compatible(const uint8_t *p, size_t n);

/* The firmware id of the .efifw blob p[0..n) as the stub checks it, or NULL. */
const char *hwids_efifw_id(const uint8_t *p, size_t n);

#endif
