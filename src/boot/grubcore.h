/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* grubcore.h - what grub-mkimage puts beside GRUB's modules in its core image: $prefix, a configuration, a memdisk */
#ifndef SBAT_BOOT_GRUBCORE_H
#define SBAT_BOOT_GRUBCORE_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"

/* The longest prefix object read (GRUB's own limit is the image's size). */
#define GRUBCORE_PREFIX_MAX 1024

/* The objects of a core image that decide what GRUB reads first (kern/main.c, disk/memdisk.c). */
typedef struct grubcore {
	size_t n_objects;
	int has_prefix;
	char prefix
	    [GRUBCORE_PREFIX_MAX]; /* the last prefix object, as GRUB takes it ("/EFI/debian", "(memdisk)/boot/grub") */
	const uint8_t *config;     /* the first configuration object, up to its first NUL; NULL: none */
	size_t config_len;
	const uint8_t *memdisk; /* the first memdisk object; NULL: none */
	size_t memdisk_len;
	uint64_t memdisk_offset; /* where it starts in the section */
	/*
	 * a module (normal.mod) names "fw_path" beside "%s/grub.cfg": normal
	 * mode reads $fw_path/grub.cfg, in the directory GRUB was started
	 * from, before $prefix/grub.cfg (the "Try $prefix if $fw_path doesn't
	 * work" change Fedora's and Debian's 2.12 and later carry)
	 */
	int fw_path_first;
} grubcore;

/*
 * Read the objects of GRUB's "mods" section mods[0..len): a struct
 * grub_module_info (64-bit for the 64-bit machines, is64, else 32-bit)
 * whose magic is "mimg", then grub_module_header objects, each aligned to
 * the size of an address, as FOR_MODULES walks them. The views point into
 * mods. SBAT_E_BOOTCFG, with the offset, when the magic or an object does
 * not lie inside the section.
 */
sbat_err grubcore_read(const uint8_t *mods, size_t len, int is64, grubcore *ret, sbat_diag *reterr);

#endif
