/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* error.h - result codes and diagnostics returned by every sbat-add library call */
#ifndef SBAT_ERROR_H
#define SBAT_ERROR_H

#include <stdint.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Library calls never print. A failure returns one of these codes and, when
 * the caller passed a diagnostic, fills it with the check that fired.
 */
typedef enum sbat_err {
	SBAT_OK = 0,

	/* input/output */
	SBAT_E_IO,          /* a system call failed; see sbat_diag.sys_errno */
	SBAT_E_NOMEM,       /* an allocation failed */
	SBAT_E_TOO_BIG,     /* input over a documented size limit */
	SBAT_E_NOT_REGULAR, /* not a regular file (directory, device, symlink in place) */
	SBAT_E_CHANGED,     /* the file changed (content, or what its name refers to) during the edit */
	SBAT_E_LOCKED,      /* another process holds the file's lock and did not release it in time */

	/* PE/COFF structure */
	SBAT_E_PE_TRUNCATED, /* a header or table runs past the end of the file */
	SBAT_E_PE_MAGIC,     /* a magic number or signature is wrong */
	SBAT_E_PE_FIELD,     /* a header field holds an impossible value */
	SBAT_E_PE_SECTION,   /* a section header is inconsistent or out of bounds */
	SBAT_E_PE_OVERFLOW,  /* a size or address computation would overflow */

	/* editing */
	SBAT_E_SIGNED,         /* the image carries a certificate table */
	SBAT_E_NO_HEADER_ROOM, /* no room for another section header */
	SBAT_E_SBAT_DUPLICATE, /* more than one .sbat section */
	SBAT_E_SBAT_NO_ROOM,   /* the existing .sbat cannot hold the new data */
	SBAT_E_NO_SBAT,        /* the image has no .sbat section */
	SBAT_E_LAYOUT,         /* the planned output failed its own validation */

	/* SBAT CSV */
	SBAT_E_CSV, /* the CSV breaks a rule shim or the format imposes */

	/* SbatLevel (revocation policy) */
	SBAT_E_LEVEL,        /* an SbatLevel payload or its .sbatlevel header is malformed */
	SBAT_E_NO_SBATLEVEL, /* the image has no .sbatlevel section */
	/* the interface */
	SBAT_E_ABI, /* a structure's size field is not one this library knows */

	/* UEFI variables */
	SBAT_E_EFIVAR, /* a boot variable (BootOrder, Boot####, ...), device path or signature list is malformed */

	/* unified kernel images and the TPM */
	SBAT_E_PCRSIG, /* the edit changes PCR 11 of a UKI whose .pcrsig signs it: the policy would go stale */
	SBAT_E_UKI,    /* a UKI section (.pcrsig JSON, a measured section's sizes) is malformed */
	/* boot loader configuration */
	SBAT_E_BOOTCFG, /* a loader entry, loader.conf or grub.cfg line the loader ignores or cannot read */
	/* Authenticode */
	SBAT_E_SIGNATURE,       /* the certificate table, a WIN_CERTIFICATE or its PKCS#7 DER is malformed */
	SBAT_E_SIGNATURE_STALE, /* a signature's digest is not the image's hash: it no longer covers the image */
	/* the TPM */
	SBAT_E_EVENTLOG, /* the TCG event log is malformed */
	/* disk encryption */
	SBAT_E_LUKS, /* a LUKS2 header, its JSON area or a systemd-tpm2 token is malformed */

	SBAT__ERR_MAX
} sbat_err;

/*
 * What failed, for a one-line message. `what` is a static string naming the
 * check (never freed). `offset` is a file offset for image errors (when
 * has_offset is set); for CSV errors `line` and `field` are 1-based (0 when
 * not applicable).
 *
 * The caller allocates it (uninitialized is fine); the library fills it on
 * failure. Its size is fixed for the life of the LIBSBAT_0 interface: fields
 * added later take the reserved space at its end, and `version` says which
 * are filled (SBAT_DIAG_VERSION of the library that filled it; 1: the
 * fields below).
 */
#define SBAT_DIAG_VERSION 1u

typedef struct sbat_diag {
	unsigned version; /* set by the library: SBAT_DIAG_VERSION */
	sbat_err code;
	const char *what;
	uint64_t offset;
	int has_offset;
	unsigned line;
	unsigned field;
	int sys_errno;
	/* SBAT_E_SBAT_NO_ROOM: bytes the new .sbat needs and bytes its place holds (else 0) */
	uint64_t size_needed;
	uint64_t size_available;
	/*
	 * A check between two parts: for an image, the other part's section
	 * index (-1: none or the headers) and name; for a CSV merge conflict,
	 * the component (other_index -1) and its generation on both sides.
	 */
	int other_index;
	char other_name[64];
	unsigned existing_generation;
	unsigned new_generation;
	uint64_t reserved[8]; /* zeroed by the library; later versions' fields */
} sbat_diag;

/* A short, static, human-readable description of a code. */
SBAT_API const char *sbat_strerror(sbat_err code);

#ifdef __cplusplus
}
#endif

#endif
