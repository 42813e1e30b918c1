/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* memdisk.h - a file of GRUB's memdisk: a tar archive (grub-mkstandalone) or a FAT file system (Debian's signed GRUB) */
#ifndef SBAT_BOOT_MEMDISK_H
#define SBAT_BOOT_MEMDISK_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"

/* What a lookup found. */
enum memdisk_found {
	MEMDISK_MISSING = 0,
	MEMDISK_FILE,
	MEMDISK_DIR,
};

/*
 * Look up path ("/boot/grub/grub.cfg"; GRUB's separators '/', no ".."
 * taken) in the memdisk disk[0..len), as GRUB's tar and fat file systems
 * would: tar names as they are (the directories they imply exist), FAT
 * short names without regard to case. *ret_found says what is there; for a
 * file of at most max bytes, *ret (malloc'ed, freed by the caller; ret NULL:
 * not wanted) and *ret_len get its bytes. SBAT_E_BOOTCFG, with the offset,
 * when the memdisk is neither or a structure on the way does not lie
 * inside it; SBAT_E_TOO_BIG for a file over max; SBAT_E_NOMEM.
 */
sbat_err memdisk_lookup(const uint8_t *disk, size_t len, const char *path, size_t max, enum memdisk_found *ret_found,
                        uint8_t **ret, size_t *ret_len, sbat_diag *reterr);

#endif
