/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint.h - every rule a PE/COFF image breaks that a boot loader, a signing tool or a release review cares about */
#ifndef SBAT_LINT_H
#define SBAT_LINT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "csv.h"
#include "error.h"
#include "image.h"
#include "level.h"

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
	/* the review bodies the profiles follow (sbat_lint_profiles only) */
	SBAT_LOADER_UEFI_CA = 1u << 7,     /* the Microsoft UEFI CA, which signs shim */
	SBAT_LOADER_SHIM_REVIEW = 1u << 8, /* the reviewers of a shim-review submission */
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

/*
 * Profiles: the checks a release goes through before it is signed, each a
 * documented set of rules on top of the loader rules above (a bit set).
 */
enum {
	SBAT_PROFILE_SHIM_REVIEW = 1u << 0, /* "shim-review": the .sbat rows, their history, the published levels */
	SBAT_PROFILE_UEFI_CA = 1u << 1,     /* "uefi-ca": the UEFI CA's memory rules and shim's NX policy */
};

/* One rule of a profile, as the documentation lists it. */
typedef struct sbat_lint_rule {
	const char *rule;            /* the name its findings carry, e.g. "uefi-ca-nx-compat" */
	unsigned profile;            /* the one SBAT_PROFILE_* bit it belongs to */
	sbat_lint_severity severity; /* the severity of every finding of it */
	unsigned loaders;            /* SBAT_LOADER_* bits of its findings */
	const char *summary;         /* what it checks, one sentence */
	const char *source;          /* the published text or code it follows */
} sbat_lint_rule;

/* The rules of every profile, in the order of the documentation; NULL past the last. */
SBAT_API const sbat_lint_rule *sbat_lint_profile_rule(size_t index);

/* "shim-review" or "uefi-ca" to its SBAT_PROFILE_* bit (0 when unknown), and back (NULL when unknown). */
SBAT_API unsigned sbat_lint_profile_by_name(const char *name);
SBAT_API const char *sbat_lint_profile_name(unsigned profile);

/*
 * What sbat_lint_profiles checks besides the image. Like sbat_edit_opts,
 * the struct may grow: set it up with SBAT_LINT_OPTS_INIT or
 * sbat_lint_opts_init, which set `size`; the library reads no field past
 * it. NULL options mean the loader rules only, as sbat_lint.
 */
typedef struct sbat_lint_opts {
	size_t size;                     /* sizeof(sbat_lint_opts) */
	unsigned profiles;               /* SBAT_PROFILE_* bits */
	const sbat_csv *previous;        /* shim-review: the rows of the release before, or NULL */
	const sbat_level *const *levels; /* shim-review: policies no row may be revoked by */
	size_t n_levels;
} sbat_lint_opts;

#define SBAT_LINT_OPTS_INIT                                                                                            \
	{                                                                                                              \
		sizeof(sbat_lint_opts), 0, NULL, NULL, 0                                                               \
	}

/* Zeroes *opts and sets its size. */
SBAT_API void sbat_lint_opts_init(sbat_lint_opts *opts);

/*
 * What a finding of a profile rule is about, beyond its place in the
 * image. The library fills it and sets `size` to the size it knows, so a
 * caller built against a later header reads a field only when `size`
 * covers it. Every pointer is valid during the callback only.
 */
typedef struct sbat_lint_subject {
	size_t size;                       /* sizeof(sbat_lint_subject) of the library */
	unsigned profile;                  /* the rule's SBAT_PROFILE_* bit; 0 for a loader rule */
	const sbat_csv_entry *row;         /* the image's .sbat row at fault, or NULL */
	const sbat_csv_entry *previous;    /* the same component's row in opts->previous, or NULL */
	const sbat_level *level;           /* the policy that revokes `row`, or NULL */
	const sbat_level_entry *level_row; /* the row of that policy that does */
	size_t level_index;                /* its index in opts->levels */
	const char *name;                  /* the conventional component name a look-alike resembles, or NULL */
} sbat_lint_subject;

/* Called once per finding with its subject; a non-zero return stops the lint. */
typedef int (*sbat_lint_subject_fn)(void *ctx, const sbat_lint_finding *finding, const sbat_lint_subject *subject);

/*
 * sbat_lint's loader rules, then the rules of every profile in
 * opts->profiles (see sbat_lint_profile_rule). The shim-review rules read
 * the .sbat rows as shim does (sbat_csv_parse_shim); an image whose rows
 * shim cannot read gets only the loader rules' sbat-unparsable for them.
 * opts->previous and opts->levels are used by shim-review only: a row's
 * component compared with the release before (by the exact component
 * name), and every row checked against each level as shim checks it
 * (sbat_level_check); a row that several levels revoke is told once, with
 * the first of them. Returns SBAT_OK and the counts, or SBAT_E_LEVEL when
 * levels is NULL while n_levels is not 0, or one of them is NULL or empty
 * (nothing is reported then).
 */
SBAT_API sbat_err sbat_lint_profiles(const sbat_image *img, const sbat_lint_opts *opts, sbat_lint_subject_fn fn,
                                     void *ctx, sbat_lint_counts *ret_counts);

#ifdef __cplusplus
}
#endif

#endif
