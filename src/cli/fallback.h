/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fallback.h - the boot entry shim's fallback (fb*.efi) makes from a vendor directory's BOOT CSV and starts */
#ifndef SBAT_CLI_FALLBACK_H
#define SBAT_CLI_FALLBACK_H

#include <stddef.h>
#include <stdint.h>

/*
 * The entry fallback.c makes first, for the ESP at esp and a fallback of PE
 * machine type machine: in each directory of \EFI but BOOT, BOOT{ARCH}.CSV,
 * else BOOT.CSV (any case); its first line "file,label[,arguments]" gives
 * \EFI\DIR\file, started with the arguments as its load options (CHAR16,
 * with their NUL, in args). Without a TPM fallback starts it at once; with
 * one it resets, and the firmware starts it first. Returns 0 with path and
 * args; -1 with why when no directory or more than one holds a CSV (which
 * fallback reads first is the order of the directory on disk).
 */
/* shim's FALLBACK for a PE machine type: \EFI\BOOT\fbx64.efi, fbaa64.efi, ... */
void cli_fallback_path(uint16_t machine, char *out, size_t size);

int cli_fallback_entry(const char *esp, uint16_t machine, char *path, size_t path_size, uint8_t *args, size_t args_size,
                       size_t *args_len, char *why, size_t why_size);

#endif
