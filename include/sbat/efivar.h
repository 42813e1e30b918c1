/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* efivar.h - UEFI variables as efivarfs shows them (or a copy of it): NAME-GUID files, attributes first */
#ifndef SBAT_EFIVAR_H
#define SBAT_EFIVAR_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where Linux shows the UEFI variables. */
#define SBAT_EFIVAR_DIR "/sys/firmware/efi/efivars"

/* The UEFI global variables' GUID (SecureBoot, SetupMode, BootOrder, Boot####, PK, KEK). */
#define SBAT_EFIVAR_GLOBAL_GUID "8be4df61-93ca-11d2-aa0d-00e098032b8c"

/* shim's variables' GUID (SbatLevelRT, SbatPolicy, MokListRT, ...). */
#define SBAT_EFIVAR_SHIM_GUID "605dab50-e046-4300-abb6-3dd810dd8b23"

/* A variable larger than this is refused (SBAT_E_TOO_BIG) by sbat_efivar_read given 0 for max_size. */
#define SBAT_EFIVAR_MAX_SIZE (1024u * 1024u)

/*
 * Read variable name ("SecureBoot-8be4df61-...") from dir: its 4 attribute
 * bytes, then its data, into a malloc'ed *ret_buf of *ret_len bytes. The
 * file is opened without following a symbolic link and must be a regular
 * file of at most max_size bytes (0: SBAT_EFIVAR_MAX_SIZE). A variable
 * that does not exist is not an error: SBAT_OK with *ret_buf NULL. One
 * shorter than its attributes is SBAT_E_EFIVAR at offset 0.
 */
SBAT_API sbat_err sbat_efivar_read(const char *dir, const char *name, size_t max_size, uint8_t **ret_buf,
                                   size_t *ret_len, sbat_diag *reterr);

/*
 * A variable of one data byte (SecureBoot, SetupMode, SbatPolicy): that
 * byte in *ret_value, or -1 when the variable does not exist. exact: more
 * than one data byte is an error too (without it, the first is taken).
 * SBAT_E_EFIVAR, at offset 4, when there is no data byte.
 */
SBAT_API sbat_err sbat_efivar_read_byte(const char *dir, const char *name, int exact, int *ret_value,
                                        sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
