/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fallback.h - the boot entry shim's fallback (fb*.efi) makes from a vendor directory's BOOT CSV, and starts */
#ifndef SBAT_FALLBACK_H
#define SBAT_FALLBACK_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest \EFI\DIR\file path and argument text a fallback entry holds, NULs included. */
#define SBAT_FALLBACK_PATH_MAX 1024
#define SBAT_FALLBACK_ARGS_MAX 1024

/* Largest BOOT CSV read. */
#define SBAT_FALLBACK_CSV_MAX (64u * 1024u)

/* What fallback does on an ESP. */
typedef enum sbat_fallback_result {
	SBAT_FALLBACK_ENTRY = 0,  /* one vendor directory's BOOT CSV names a file: fallback makes an entry, starts it */
	SBAT_FALLBACK_NO_CSV,     /* no directory of \EFI but BOOT holds one: fallback makes no entry and resets */
	SBAT_FALLBACK_UNREADABLE, /* a BOOT CSV cannot be read, or its first line names no file and label */
	SBAT_FALLBACK_SEVERAL,    /* several directories hold one: which fallback reads first is the order on disk */
} sbat_fallback_result;

/* The entry fallback makes first. Fixed for the life of the soname. */
typedef struct sbat_fallback_entry {
	char path[SBAT_FALLBACK_PATH_MAX];    /* \EFI\DIR\file, DIR as found on the ESP */
	char csv[SBAT_FALLBACK_PATH_MAX];     /* \EFI\DIR\BOOT{ARCH}.CSV or BOOT.CSV, as found */
	uint8_t args[SBAT_FALLBACK_ARGS_MAX]; /* the arguments as load options: CHAR16 with their NUL */
	size_t args_len;                      /* 0: the entry has no load options */
} sbat_fallback_entry;

/*
 * shim's fallback for a PE machine type, as shim names it in \EFI\BOOT:
 * fbx64.efi, fbaa64.efi, fbia32.efi, fbarm.efi, fbriscv64.efi; the
 * whole path "\EFI\BOOT\fb....efi" into out (cut to fit).
 */
SBAT_API void sbat_fallback_path(uint16_t machine, char *out, size_t out_size);

/*
 * The entry fallback (shim's fallback.c) makes first on the ESP mounted on
 * esp, for a fallback of PE machine type machine: in each directory of \EFI
 * but BOOT (names in any case, never through a link), BOOT{ARCH}.CSV, else
 * BOOT.CSV; its first line "file,label[,arguments]" (UCS-2) gives
 * \EFI\DIR\file, started with the arguments as its load options. Without a
 * TPM fallback starts it at once; with one it resets and the firmware
 * starts it first. *ret means something only for SBAT_FALLBACK_ENTRY.
 */
SBAT_API sbat_fallback_result sbat_fallback_find(const char *esp, uint16_t machine, sbat_fallback_entry *ret);

/* A short name: "entry", "no-csv", "unreadable", "several". */
SBAT_API const char *sbat_fallback_result_name(sbat_fallback_result r);

#ifdef __cplusplus
}
#endif

#endif
