/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* grubcfg.h - grub.cfg read with what GRUB knows when it runs its first file: its devices, its files, $cmdpath */
#ifndef SBAT_BOOT_GRUBCFG_H
#define SBAT_BOOT_GRUBCFG_H

#include "sbat/grubcfg.h"

/* The device that GRUB's (memdisk) stands for in a sbat_grub_file (no file-system UUID is written like it). */
#define GRUBCFG_MEMDISK "memdisk:"

/* What a file test finds (grubcfg_opts.exists). */
enum grubcfg_kind {
	GRUBCFG_UNKNOWN = -1, /* cannot be known here */
	GRUBCFG_NOTHING = 0,
	GRUBCFG_FILE = 1,
	GRUBCFG_DIR = 2,
};

typedef struct grubcfg_opts {
	const char *root_device; /* as sbat_grub_cfg_parse's; NULL: unknown */
	const char *prefix_path; /* $prefix on root_device; NULL: unset */
	const char *cmd_device;  /* $cmdpath, the directory GRUB was started from: its device and path; NULL: unset */
	const char *cmd_path;
	int memdisk; /* GRUB has a memdisk: (memdisk) names device GRUBCFG_MEMDISK */
	/* what is at path on device, for [ -e/-f/-d/-s FILE ]; NULL: never known */
	enum grubcfg_kind (*exists)(void *ctx, const char *device, const char *path);
	void *ctx;
} grubcfg_opts;

/*
 * sbat_grub_cfg_parse with what o gives besides: the conditions of if and
 * elif that test files ([ -e FILE ], with !, -a, -o, -z, -n) are known
 * when exists answers, `normal FILE` hands over as configfile does, and a
 * configfile, source or normal inside an if or a loop that cannot be known
 * names no file (its why says so).
 */
sbat_err grubcfg_parse(const uint8_t *buf, size_t len, const grubcfg_opts *o, sbat_grub_cfg **ret, sbat_diag *reterr);

#endif
