/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* nextstate.h - what one shim reads at boot (its UEFI variables, .sbatlevel, revocations_sbat.efi) and the SbatLevel it judges by */
#ifndef SBAT_NEXTSTATE_H
#define SBAT_NEXTSTATE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "boot.h"
#include "error.h"
#include "judge.h"
#include "level.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a boot treats the images after shim. */
typedef enum sbat_next_mode {
	SBAT_NEXT_MODE_ENFORCED,     /* Secure Boot on: every image shim checks is judged by the level */
	SBAT_NEXT_MODE_NOT_ENFORCED, /* Secure Boot off: shim checks no SBAT */
	SBAT_NEXT_MODE_SHIM_STOPS,   /* shim refuses to go on (a level that revokes it, or one it cannot parse) */
} sbat_next_mode;

/*
 * Everything one shim reads in the next boot and in the one after (when
 * SbatPolicy is gone), and what it comes to. Library-allocated and read
 * only: fields are added at the end, and a caller never allocates one.
 */
typedef struct sbat_next_state {
	const char *efivarfs;    /* the directory the variables were read from */
	const char *shim;        /* the shim binary */
	const char *revocations; /* the revocations file next to it (revocations_name), or NULL */
	int secure_boot_var;     /* the SecureBoot byte; -1: absent, and nothing below is filled */
	int setup_mode_var;      /* the SetupMode byte, -1 when absent */
	const char *automatic;   /* shim's .sbatlevel payloads, as "sbat,1,DATE" and one "name,gen" line a row */
	const char *latest;
	const char *rev_automatic; /* revocations_sbat.efi's .sbata and .sbatl, NULL when absent */
	const char *rev_latest;
	const uint8_t *shim_buf; /* the shim's bytes */
	size_t shim_len;
	const sbat_judgement *shim_sbat; /* its .sbat as shim reads it */
	sbat_next_inputs in[2];          /* the next boot, and the one after */
	sbat_next_boot boot[2];
	sbat_next_mode mode[2];
	sbat_level *level[2]; /* what images are judged by in each boot (the stored level when not enforced) */
	int differ;           /* the boot after next judges differently */
	/*
	 * shim's release, from the version string in its image ("$Version:
	 * 16.1 $"; 0, 0: none), and the rules applied: those of the modelled
	 * release it follows (rules_major, rules_minor: the first release with
	 * them; the newest for a shim that names none); rules_assumed when it
	 * is older than every release modelled, whose oldest rules are applied.
	 */
	unsigned shim_major, shim_minor;
	unsigned rules_major, rules_minor;
	int rules_assumed;
	const char *revocations_name; /* the file those rules read revocations from, in shim's directory (any case) */
	/*
	 * A revocations file in shim's directory that its release does not
	 * read, so that the SBAT update it carries is not applied: the
	 * revocations.efi fwupd writes, which shim 15.8 read and 16.0 and later
	 * do not (they read revocations_sbat.efi). NULL when there is none, or
	 * when shim's release is older than the rules modelled (rules_assumed).
	 */
	const char *revocations_ignored;
} sbat_next_state;

/*
 * Read SecureBoot, SetupMode, SbatPolicy and SbatLevelRT from efivarfs
 * (NULL: SBAT_EFIVAR_DIR), the shim binary and the revocations file of its
 * release (revocations_sbat.efi from 16.0 on) in its directory (never
 * through a symbolic link), and predict both boots.
 * On failure *ret is NULL and ret_failed (failed_size bytes; NULL: not
 * wanted) names the file or variable the error is about. Without a
 * SecureBoot variable the result is SBAT_OK with secure_boot_var -1:
 * whether shim checks SBAT is not known.
 */
SBAT_API sbat_err sbat_next_state_load(const char *efivarfs, const char *shim, sbat_next_state **ret, char *ret_failed,
                                       size_t failed_size, sbat_diag *reterr);

/* How shim judges images in the next boot (SBAT_JUDGE_SHIM_UNKNOWN without a SecureBoot variable). */
SBAT_API sbat_judge_shim sbat_next_state_judge_shim(const sbat_next_state *s);

/* NULL-safe. */
SBAT_API void sbat_next_state_free(sbat_next_state *s);

#ifdef __cplusplus
}
#endif

#endif
