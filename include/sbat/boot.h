/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* boot.h - what shim 16.x will do at the next boot: the SbatLevel it stores and the one it checks images against */
#ifndef SBAT_BOOT_H
#define SBAT_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "csv.h"
#include "error.h"
#include "level.h"
#include "loadoption.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The level shim writes on a reset, and the floor of every valid SbatLevel. */
#define SBAT_LEVEL_ORIGINAL "sbat,1,2021030218\n"

/* The SbatPolicy variable (shim's GUID, one byte): what the OS asks shim to do at the next boot. */
#define SBAT_POLICY_EFIVAR_NAME "SbatPolicy-" SBAT_LEVEL_EFIVAR_GUID
#define SBAT_POLICY_ABSENT (-1)
#define SBAT_POLICY_LATEST 1
#define SBAT_POLICY_AUTOMATIC 2
#define SBAT_POLICY_RESET 3

/* The payload shim picks: the built-in (or revocations file's) automatic or latest one, or the original level. */
#define SBAT_NEXT_PAYLOAD_AUTOMATIC SBAT_LEVEL_AUTOMATIC
#define SBAT_NEXT_PAYLOAD_LATEST SBAT_LEVEL_LATEST
#define SBAT_NEXT_PAYLOAD_ORIGINAL 2

/* Why that payload (set_sbat_uefi_variable's choice). */
typedef enum sbat_next_choice {
	SBAT_NEXT_CHOSE_DEFAULT,       /* no SbatPolicy: automatic with Secure Boot on, reset with it off */
	SBAT_NEXT_CHOSE_LATEST,        /* SbatPolicy 1 */
	SBAT_NEXT_CHOSE_AUTOMATIC,     /* SbatPolicy 2 */
	SBAT_NEXT_CHOSE_RESET,         /* SbatPolicy 3 with Secure Boot off */
	SBAT_NEXT_CHOSE_RESET_REFUSED, /* SbatPolicy 3 with Secure Boot on: automatic instead */
	SBAT_NEXT_CHOSE_INVALID,       /* another SbatPolicy value: as if absent */
} sbat_next_choice;

/* What happened to the stored SbatLevel (the rule that decided). */
typedef enum sbat_next_rule {
	SBAT_NEXT_NOT_RUN,             /* the step does not happen (no revocations file, or Secure Boot off) */
	SBAT_NEXT_WRITTEN_ABSENT,      /* no SbatLevel yet: the candidate is written, unchecked */
	SBAT_NEXT_KEPT_VERSION,        /* the current version field is newer: kept */
	SBAT_NEXT_KEPT_DATESTAMP,      /* the current datestamp is not older: kept */
	SBAT_NEXT_REPLACED,            /* the candidate is newer: written */
	SBAT_NEXT_REPLACED_CORRUPT,    /* the current value is no SbatLevel (short, or not "sbat,"): written */
	SBAT_NEXT_RESET,               /* a reset: the original level is written, whatever is there */
	SBAT_NEXT_REFUSED_SELF,        /* the candidate revokes shim's own .sbat: not written */
	SBAT_NEXT_REFUSED_PARSE,       /* the candidate does not parse: not written */
	SBAT_NEXT_REVOCATIONS_REFUSED, /* revocations_sbat.efi fails shim's SBAT check: its payloads are not read */
} sbat_next_rule;

/* The inputs of one boot, as shim reads them. */
typedef struct sbat_next_inputs {
	int secure_boot;        /* shim's secure_mode(): SecureBoot is 1 and SetupMode is not 1 */
	int policy;             /* the first byte of SbatPolicy, or SBAT_POLICY_ABSENT */
	const uint8_t *current; /* the stored SbatLevel (as SbatLevelRT shows it), NULL when there is none */
	size_t current_len;
	const char *automatic; /* the shim's .sbatlevel payloads, NUL-terminated */
	const char *latest;
	const sbat_csv *shim_sbat; /* the shim's own .sbat; NULL when it has none */
	/* a revocations_sbat.efi next to the shim (.sbata and .sbatl); NULL when there is none */
	const char *rev_automatic;
	const char *rev_latest;
	const sbat_csv *rev_sbat; /* that file's own .sbat; NULL when it has none */
} sbat_next_inputs;

/* One call of set_sbat_uefi_variable. Pointers refer into the inputs or to SBAT_LEVEL_ORIGINAL. */
typedef struct sbat_next_step {
	sbat_next_rule rule;
	sbat_next_choice choice;
	int payload; /* SBAT_NEXT_PAYLOAD_* */
	const char *candidate;
	/* the stored SbatLevel after the step (NULL: none) */
	const uint8_t *stored;
	size_t stored_len;
	/* rule SBAT_NEXT_REFUSED_SELF: the row of shim's own .sbat that is revoked (into shim_sbat; NULL when
	 * shim has no .sbat) with its generation, and the minimum the candidate sets */
	const char *self_component;
	unsigned self_generation;
	unsigned self_minimum;
} sbat_next_step;

/* One boot. */
typedef struct sbat_next_boot {
	sbat_next_step builtin;     /* the payloads in shim's .sbatlevel (set_sbat_uefi_variable_internal) */
	sbat_next_step revocations; /* revocations_sbat.efi (load_unbundled_trust), Secure Boot on only */
	/*
	 * 1 when shim stops the machine (Secure Boot on): the built-in step was
	 * refused, or the level shim then holds revokes shim's own .sbat.
	 */
	int shim_stops;
	/* The level the images shim checks after that are judged by (Secure Boot on); NULL when none. */
	const uint8_t *enforced;
	size_t enforced_len;
	/* The stored SbatLevel at the end of the boot, which SbatLevelRT then shows. */
	const uint8_t *stored;
	size_t stored_len;
} sbat_next_boot;

/*
 * Work out what shim 16.x does with the SbatLevel in one boot, from its
 * sources (sbat.c set_sbat_uefi_variable and preserve_sbat_uefi_variable,
 * shim.c efi_main and load_unbundled_trust):
 *
 *  1. The candidate: SbatPolicy 1 latest, 2 automatic, 3 reset (refused,
 *     automatic used, with Secure Boot on); absent or any other value:
 *     automatic with Secure Boot on, reset with it off.
 *  2. No stored SbatLevel: the candidate is written without further check.
 *     Otherwise, unless resetting, the stored value is kept when it is an
 *     SbatLevel (at least as long as the original, starting "sbat,") whose
 *     version field is newer (longer, or as long and greater) or whose
 *     datestamp (10 characters) is not older. Else the candidate is parsed
 *     and checked against shim's own .sbat; it is written only if it does
 *     not revoke shim.
 *  3. With Secure Boot on, a refused candidate stops shim; so does a stored
 *     level that revokes shim's own .sbat. The stored level is what shim
 *     checks later images against.
 *  4. With Secure Boot on and a revocations_sbat.efi (both payloads) that
 *     passes shim's SBAT check (it is loaded as shim loads an image: a
 *     missing .sbat fails it), the same choice runs again on its payloads,
 *     with the same SbatPolicy (shim reads it once). When the stored value
 *     is not kept, the candidate replaces the in-memory list shim checks
 *     images against at once, in this boot, even when it is then refused
 *     for revoking shim; it is written only when it is not refused.
 *     Its signature is not checked here: the caller vouches for it.
 *
 * The attributes of the stored variable are not known from the OS (it is
 * boot-services only); they are taken to be the ones shim sets.
 * Returns SBAT_E_LEVEL for missing inputs (no automatic or latest payload).
 */
SBAT_API sbat_err sbat_next_boot_predict(const sbat_next_inputs *in, sbat_next_boot *ret, sbat_diag *reterr);

/* Short words for the enums, for reports: "default", "latest", ...; "written-absent", "kept-version", ... */
SBAT_API const char *sbat_next_choice_name(sbat_next_choice choice);
SBAT_API const char *sbat_next_rule_name(sbat_next_rule rule);
SBAT_API const char *sbat_next_payload_name(int payload);

/* ------------------------------------------------ boot variables (load options: <sbat/loadoption.h>) */

/*
 * BootOrder (or BootNext, max 1): buf[0..len) is the 4 attribute bytes and
 * an array of little-endian UINT16. Stores at most max of them in out and
 * their count in *ret_n. SBAT_E_EFIVAR for an odd data length (offset: the
 * stray byte), an empty array, or more than max entries.
 */
SBAT_API sbat_err sbat_boot_order_parse(const uint8_t *buf, size_t len, uint16_t *out, size_t max, size_t *ret_n,
                                        sbat_diag *reterr);

/*
 * A CHAR16 string (optional data of a load option that names a file, as
 * shim reads it) in buf[0..len) to UTF-8 in out[0..out_size), ending at
 * the first NUL or at len. SBAT_E_EFIVAR for an odd length, a lone
 * surrogate or a control character (offset relative to buf), or a text
 * that does not fit.
 */
SBAT_API sbat_err sbat_ucs2_to_utf8(const uint8_t *buf, size_t len, char *out, size_t out_size, sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
