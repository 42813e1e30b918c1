/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* uki.h - unified kernel images: the stub, what it measures into TPM PCR 11, and the PCR 11 values */
#ifndef SBAT_UKI_H
#define SBAT_UKI_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A unified kernel image (UKI) is a PE image made of systemd-stub (its
 * `.sdmagic` section reads "#### LoaderInfo: systemd-stub VERSION ####")
 * and a `.linux` section. At boot the stub measures a fixed list of its
 * sections into PCR 11, each as two events: the section name with its NUL,
 * then VirtualSize bytes of its contents as loaded (SizeOfRawData bytes
 * from the file, zeros past them). Which sections count, and how they are
 * found in the section table, depends on the stub's version (see the
 * manual page sbat-add-boot(7)). Later, systemd measures one
 * word per boot phase into PCR 11; a `.pcrsig` section holds signatures
 * over the PCR 11 values of those phases.
 */

/* The PCR 11 values predicted: right after the stub, then after each boot phase word. */
#define SBAT_UKI_PHASES 5u
#define SBAT_UKI_DIGEST_SIZE 32u /* the SHA-256 bank */

/*
 * "stub" for phase 0 (PCR 11 as the stub leaves it), then the four phase
 * paths systemd-measure signs by default: "enter-initrd",
 * "enter-initrd:leave-initrd", "enter-initrd:leave-initrd:sysinit",
 * "enter-initrd:leave-initrd:sysinit:ready". NULL past the last.
 */
SBAT_API const char *sbat_uki_phase_name(unsigned phase);

/* What was found in an image that is a UKI. Opaque: see the accessors. */
typedef struct sbat_uki sbat_uki;

/*
 * Look at img: is it a UKI, which stub, which sections that stub measures
 * (per profile for multi-profile UKIs). Reads only the headers, .sdmagic
 * and the section names; nothing is hashed yet (see sbat_uki_predict).
 * SBAT_OK with *ret NULL when img is not a UKI. The result borrows img's
 * buffer: img must outlive it.
 */
SBAT_API sbat_err sbat_uki_inspect(const sbat_image *img, sbat_uki **ret, sbat_diag *reterr);

/*
 * Compute the PCR 11 values (SHA-256 bank) of every profile, hashing each
 * measured section once. fd is the file img's buffer maps: the sections
 * are read from it through a small buffer (the mapping is not walked, so
 * memory stays small); -1 reads img's buffer instead. A measured section
 * whose VirtualSize runs past SizeOfImage, or exceeds its raw data by more
 * than 16 MiB, cannot be predicted (SBAT_E_PE_SECTION, naming its header).
 */
SBAT_API sbat_err sbat_uki_predict(sbat_uki *uki, int fd, sbat_diag *reterr);

/* NULL-safe; returns NULL. */
SBAT_API sbat_uki *sbat_uki_free(sbat_uki *uki);

/* The stub's version as .sdmagic spells it ("257.9-1"), or NULL when it cannot be read. */
SBAT_API const char *sbat_uki_stub_version(const sbat_uki *uki);
/* Its major version (252, 257, ...), 0 when unknown: the newest known stub's rules then apply. */
SBAT_API unsigned sbat_uki_stub_major(const sbat_uki *uki);

/*
 * The number of profiles (.profile sections) when the stub boots them
 * (systemd 257 and later), else 0: one profile, the default.
 */
SBAT_API unsigned sbat_uki_profile_count(const sbat_uki *uki);

/*
 * The sections measured for `profile` (-1: the default boot, which is
 * profile 0 when there are profiles), in measurement order: how many,
 * the name of the i-th (".linux", ...) and its index in the section table.
 */
SBAT_API unsigned sbat_uki_measured_count(const sbat_uki *uki, int profile);
SBAT_API const char *sbat_uki_measured_name(const sbat_uki *uki, int profile, unsigned i);
SBAT_API int sbat_uki_measured_section(const sbat_uki *uki, int profile, unsigned i);

/*
 * The predicted PCR 11 value (SBAT_UKI_DIGEST_SIZE bytes) of `profile`
 * (-1: the default boot) at `phase` (see sbat_uki_phase_name), or NULL
 * before a successful sbat_uki_predict, and NULL when the value depends on
 * the machine (sbat_uki_pcr11_alternatives is then more than 1).
 */
SBAT_API const uint8_t *sbat_uki_pcr11(const sbat_uki *uki, int profile, unsigned phase);

/*
 * Sections the machine selects: the stub (257 on) measures the first
 * `.dtbauto` whose device tree matches the machine (the firmware's device
 * tree, or the device found through `.hwids`), and (258 on) the first
 * `.efifw` whose firmware id is that of the device found through `.hwids`;
 * none when nothing matches. So a profile has one PCR 11 value per
 * combination the machine can select: each alternative selects none or one
 * `.dtbauto` and none or one `.efifw` (none without `.hwids`).
 * Alternative 0 is the boot in which the machine selects nothing.
 *
 * The number of alternatives of `profile` (-1: the default boot): 1 when
 * the image alone decides PCR 11; 0 for a profile that does not exist.
 */
SBAT_API unsigned sbat_uki_pcr11_alternatives(const sbat_uki *uki, int profile);
/* Alternative `alt`'s value at `phase`, or NULL (before sbat_uki_predict, or out of range). */
SBAT_API const uint8_t *sbat_uki_pcr11_alternative(const sbat_uki *uki, int profile, unsigned alt, unsigned phase);
/*
 * The section that alternative `alt` measures as `name` (".dtbauto" or
 * ".efifw"): its index in the section table, or -1 when it selects none.
 */
SBAT_API int sbat_uki_alternative_section(const sbat_uki *uki, int profile, unsigned alt, const char *name);

/*
 * Whether the .pcrsig that `profile` boots with signs alternative `alt`:
 * 1 when one of its SHA-256 entries for PCR 11 signs the policy of one of
 * the alternative's values (any phase), 0 when none does, -1 when there is
 * nothing to say (before sbat_uki_predict, no .pcrsig, or one that is not
 * systemd-measure's JSON or signs no SHA-256 PCR 11 policy).
 */
SBAT_API int sbat_uki_alternative_signed(const sbat_uki *uki, int profile, unsigned alt);
/*
 * The name of the `.hwids` entry through which a machine selects the
 * section alternative `alt` measures as `name` (".dtbauto": the
 * device-tree entry naming its compatible; ".efifw": the firmware entry
 * naming its firmware id), or NULL: the alternative selects none, or (a
 * `.dtbauto`) only a firmware's own device tree selects it, or the entry
 * has no name. It lives as long as uki.
 */
SBAT_API const char *sbat_uki_alternative_hwid(const sbat_uki *uki, int profile, unsigned alt, const char *name);

/*
 * The TPM2 policy digest that systemd-measure signs for a PCR 11 value of
 * the SHA-256 bank: TPM2_PolicyPCR over PCR 11 of that bank, starting from
 * an empty SHA-256 policy (the "pol" field of a .pcrsig entry).
 */
SBAT_API void sbat_uki_policy_digest(const uint8_t pcr11[SBAT_UKI_DIGEST_SIZE], uint8_t out[SBAT_UKI_DIGEST_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
