/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* judge.h - what shim 16.x does with one image: the judgement every "will it boot" answer rests on */
#ifndef SBAT_JUDGE_H
#define SBAT_JUDGE_H

#include <stddef.h>

#include "api.h"
#include "csv.h"
#include "error.h"
#include "image.h"
#include "level.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one stage of a boot path comes to. */
typedef enum sbat_verdict {
	SBAT_VERDICT_BOOTS = 0,    /* the check that applies passes */
	SBAT_VERDICT_REFUSED,      /* shim refuses it */
	SBAT_VERDICT_NOT_GOVERNED, /* not started through shim: SBAT does not apply */
	SBAT_VERDICT_UNKNOWN,      /* cannot be told from what is known */
	SBAT_VERDICT_SKIPPED,      /* passed over for certain (nothing there to start, left out of a menu) */
	SBAT_VERDICT_INACTIVE,     /* a boot option not marked active: the firmware does not start it */
} sbat_verdict;

/* How shim comes to check the image (verify_sbat_section's in_protocol). */
typedef enum sbat_judge_call {
	SBAT_JUDGE_STARTED_BY_SHIM = 0, /* shim starts it itself (its second stage, fallback, MokManager) */
	SBAT_JUDGE_IN_PROTOCOL,         /* a loader after shim starts it through shim's LoadImage hook or shim_lock */
} sbat_judge_call;

/* What shim does in the boot the image is judged for. */
typedef enum sbat_judge_shim {
	SBAT_JUDGE_SHIM_ENFORCES = 0,  /* Secure Boot on: images are checked against the level */
	SBAT_JUDGE_SHIM_NOT_ENFORCING, /* Secure Boot off or setup mode: shim checks no SBAT */
	SBAT_JUDGE_SHIM_STOPS,         /* shim stops the machine before it starts anything */
	SBAT_JUDGE_SHIM_UNKNOWN,       /* whether Secure Boot is on is not known */
	SBAT_JUDGE_SHIM_INSECURE,      /* Secure Boot on, shim in insecure mode (MokSBState): it checks no SBAT */
} sbat_judge_shim;

/* Why. Values are ABI: new ones go at the end. */
typedef enum sbat_judge_reason {
	SBAT_JUDGE_NOT_REVOKED = 0, /* boots: no row of its .sbat is below the level */
	SBAT_JUDGE_NO_ROWS,         /* boots: shim's parser finds no row in its .sbat, and no row passes */
	SBAT_JUDGE_MISSING_PASSES,  /* boots: shim reads no .sbat, which a check in protocol lets pass */
	SBAT_JUDGE_NOT_ENFORCED,    /* boots: Secure Boot is off */
	SBAT_JUDGE_REVOKED,         /* refused: a row is below the level's generation for it */
	SBAT_JUDGE_MISSING,         /* refused: shim reads no .sbat, which it requires of what it starts itself */
	SBAT_JUDGE_UNPARSABLE,      /* refused: shim's parser refuses the .sbat (a row of fewer than 6 fields, ...) */
	SBAT_JUDGE_MULTIPLE,        /* refused: a .sbat after the one shim took ("multiple SBAT sections") */
	SBAT_JUDGE_RELOCATIONS,     /* refused: a .sbat section header with relocations */
	SBAT_JUDGE_SHIM_STOPPED,    /* refused: shim stops before starting it */
	SBAT_JUDGE_SECURE_BOOT_UNKNOWN, /* unknown: whether shim checks SBAT at all is not known */
	SBAT_JUDGE_INSECURE_MODE,       /* boots: shim runs in insecure mode (MokSBState) */
} sbat_judge_reason;

/*
 * shim's judgement of one image. Allocated by sbat_judge_image, freed by
 * sbat_judgement_free; fields may be added at the end (never allocate
 * one or use its size).
 */
typedef struct sbat_judgement {
	sbat_verdict verdict; /* BOOTS, REFUSED or UNKNOWN */
	sbat_judge_reason reason;
	int sbat_index;   /* the .sbat section shim read (section table index), -1 when none */
	int sbat_skipped; /* a .sbat that shim passes over: SizeOfRawData 0 or below VirtualSize */
	/* its rows as shim's parser reads them; NULL when none was read or they did not parse */
	const sbat_csv *csv;
	/* the revoked rows in csv order (reason REVOKED), pointing into csv and the level */
	size_t n_revoked;
	const sbat_revocation *revoked;
	/* UNPARSABLE: the parser's objection (line, field); MULTIPLE, RELOCATIONS: the section header's offset */
	sbat_diag sbat_error;
} sbat_judgement;

/*
 * Judge img as shim 16.x does (verify.c verify_buffer_sbat, pe.c
 * verify_sbat_section, sbat.c parse_sbat_section and verify_sbat):
 *
 *  - the sections named ".sbat" (8 bytes) in table order: one after the
 *    one taken is refused, as is one with relocations; one whose
 *    SizeOfRawData is 0 or below its VirtualSize is passed over;
 *  - the taken one's SizeOfRawData bytes, up to the first NUL, parsed as
 *    shim parses CSV (sbat_csv_parse_shim): a row of fewer than 6 fields
 *    or with an empty one is refused; no row at all passes;
 *  - no .sbat read: refused when shim starts the image itself, passed in
 *    protocol;
 *  - each row against the first level entry of its component
 *    (sbat_level_check): a generation below the level's is refused;
 *  - a level without entries (sbat_level_parse_shim of line ends only)
 *    passes every image not refused above, one without a .sbat or with
 *    an unparsable one too (NOT_REVOKED): shim's verify_sbat_section
 *    passes everything against an empty list before it reads .sbat.
 *
 * The .sbat is read whatever shim does; the verdict then follows `shim`:
 * not enforcing boots, stopped is refused, unknown is unknown. level may
 * be NULL only when shim is not SBAT_JUDGE_SHIM_ENFORCES. Returns SBAT_OK
 * with *ret set, or SBAT_E_LEVEL (no level to enforce) / SBAT_E_NOMEM with
 * *ret NULL. What shim refuses is a verdict, never an error.
 */
SBAT_API sbat_err sbat_judge_image(const sbat_image *img, const sbat_level *level, sbat_judge_shim shim,
                                   sbat_judge_call call, sbat_judgement **ret, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_judgement_free(sbat_judgement *j);

/* Short words for reports: "boots", "refused", "not-governed", "unknown", "skipped", "inactive"; "not-revoked", ... */
SBAT_API const char *sbat_judge_verdict_name(sbat_verdict verdict);
SBAT_API const char *sbat_judge_reason_name(sbat_judge_reason reason);

#ifdef __cplusplus
}
#endif

#endif
