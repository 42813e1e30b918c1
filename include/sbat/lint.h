/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint.h - every rule a PE/COFF image breaks that a boot loader or a signing tool cares about */
#ifndef SBAT_LINT_H
#define SBAT_LINT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sbat_lint_severity {
	SBAT_LINT_NOTE = 0, /* worth knowing; nothing refuses it */
	SBAT_LINT_WARNING,  /* legal, but some loader or tool version trips on it */
	SBAT_LINT_ERROR,    /* a loader refuses the image */
} sbat_lint_severity;

/* Who cares about a finding (a bit set). */
enum {
	SBAT_LOADER_SHIM = 1u << 0,         /* shim: its own loader and its SBAT check */
	SBAT_LOADER_EDK2 = 1u << 1,         /* EDK2/OVMF's PE loader (LoadImage) */
	SBAT_LOADER_GRUB_LINUX = 1u << 2,   /* GRUB's linux command on an x86 bzImage */
	SBAT_LOADER_STRICT = 1u << 3,       /* strict PE loaders (OpenCore, PeCoffLib2) */
	SBAT_LOADER_SYSTEMD_STUB = 1u << 4, /* systemd-stub loading an inner kernel itself */
	SBAT_LOADER_SIGNING = 1u << 5,      /* sbsign, pesign: Authenticode hashing and signing */
	SBAT_LOADER_TPM = 1u << 6,          /* TPM2 unlocking with a signed PCR 11 policy (systemd-cryptsetup) */
};

typedef struct sbat_lint_finding {
	sbat_lint_severity severity;
	const char *rule; /* a short stable name, e.g. "section-in-headers" */
	const char *what; /* one sentence, static */
	int section;      /* section index, or -1 */
	uint64_t offset;  /* file offset of the field at fault */
	unsigned loaders; /* SBAT_LOADER_* bits */
} sbat_lint_finding;

/* Called once per finding, in image order; a non-zero return stops the lint. */
typedef int (*sbat_lint_fn)(void *ctx, const sbat_lint_finding *finding);

typedef struct sbat_lint_counts {
	unsigned errors, warnings, notes;
} sbat_lint_counts;

/*
 * Check the image as it is against the rules of shim, EDK2, GRUB's linux
 * command, strict PE loaders, systemd-stub and the signing tools, and hand
 * each finding to fn (which may be NULL to only count). Returns SBAT_OK
 * and the counts; an image that does not parse is not linted (see
 * sbat_image_parse, whose diagnostic is then the one finding that matters).
 */
SBAT_API sbat_err sbat_lint(const sbat_image *img, sbat_lint_fn fn, void *ctx, sbat_lint_counts *ret_counts);

/* "shim", "edk2", ... for bit `loader` (one bit), NULL for no known bit. */
SBAT_API const char *sbat_lint_loader_name(unsigned loader);
SBAT_API const char *sbat_lint_severity_name(sbat_lint_severity severity);

#ifdef __cplusplus
}
#endif

#endif
