/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcrnext.h - PCR 4, 7 and 14 of the next boot along one boot path the walk followed: the log's events made again
 * from what the walk found, per bank, or "unknown" and why */
#ifndef SBAT_PCRNEXT_H
#define SBAT_PCRNEXT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "bootreport.h"
#include "error.h"
#include "eventlog.h"
#include "pcr7.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The next boot's events of PCR 4, 7 and 14 along one path of a walk's
 * report (sbat_walk_next_boot), from the current log, replayed per bank:
 *
 * PCR 7: sbat_pcr7_build's events up to the separator (the variables as
 * vars holds them: the caller appends the updates the firmware would
 * take); then the log's events in order, where
 * - the firmware's db authority (EV_EFI_VARIABLE_AUTHORITY "db" before
 *   shim's first event) is made from the walk: one per distinct
 *   signature_authority of a stage the firmware's rule accepted
 *   (bootreport.h), deduplicated on the data as EDK2's
 *   DxeImageVerificationLib does; an authority of the walk the log lacks is
 *   added after the log's, one of the log the walk does not account for (an
 *   option ROM's, a driver's) is copied;
 * - shim's authorities ("db", "MokListRT", "vendor_db" and "Shim" for its
 *   built-in certificate, shim's own deduplication on name and data) are
 *   made from the stages shim's rule accepted the same way;
 * - shim's "SbatLevel" (measured every boot, in the log's place) is made
 *   from the variable as the path's shim leaves it in the next boot (stage
 *   shim_stored: its own level, revocations_sbat.efi's, SbatPolicy's);
 *   not known, it makes PCR 7 unknown;
 * - any other event (MokSBState, a variable written during the boot) is
 *   copied from the log, and its `why` says so.
 *
 * PCR 4: the log's EV_EFI_BOOT_SERVICES_APPLICATION events, one for each
 * image of the path in load order (stages with image_sha256_known); an
 * image whose Authenticode SHA-256 is the log's keeps the log's digests,
 * another has its Authenticode hash in every bank, SHA-1, SHA-384 and
 * SHA-512 computed from the file the walk opened (the stage's host; a file
 * that no longer reads, or no longer has that SHA-256, leaves those banks
 * unknown); the
 * firmware's EV_EFI_ACTION and separator events are copied. When the log
 * measured another number of applications than the path has images, PCR 4
 * is unknown.
 *
 * PCR 14: shim's EV_IPL events "MokList", "MokListX", "MokSBState",
 * "MokListTrusted" and "MokPolicy", each the digest of the runtime mirror
 * shim made of it (MokListRT, MokListXRT, ...: the data it measured), read
 * from vars' efivarfs; a path without shim measures nothing there.
 */

/*
 * What makes an event of the next boot other than the log's (DIFFERS,
 * ADDED, DROPPED) or not known (UNKNOWN): which variable, authority, image
 * or MOK variable. The caller words it.
 */
typedef enum sbat_pcrnext_cause {
	SBAT_PCRNEXT_CAUSE_NONE = 0,
	SBAT_PCRNEXT_CAUSE_VARIABLE,     /* a variable of PCR 7's policy (cause_name: "dbx") is not what the log's boot
	                                    measured: a pending update appended, or a write since */
	SBAT_PCRNEXT_CAUSE_AUTHORITY,    /* a signature check of the path measures another authority: cause_name the
	                                    database ("db", "MokListRT", "vendor_db", "Shim"), cause_file the image */
	SBAT_PCRNEXT_CAUSE_IMAGE,        /* PCR 4: the path starts another image (cause_file) than the log's boot */
	SBAT_PCRNEXT_CAUSE_MOK,          /* PCR 14: a MOK variable shim measures (cause_name: "MokList") */
	SBAT_PCRNEXT_CAUSE_SBAT_LEVEL,   /* shim's SbatLevel event */
	SBAT_PCRNEXT_CAUSE_NO_SHIM,      /* shim measured it in the log's boot, and the path starts no shim, or the
	                                    reverse */
	SBAT_PCRNEXT_CAUSE_NOT_MODELLED, /* the log's boot does not tell (another number of images, an authority
	                                    beyond what is kept) */
	SBAT__PCRNEXT_CAUSE_MAX
} sbat_pcrnext_cause;

/* One event of the next boot (a record: it belongs to the sbat_pcrnext it was read from). */
typedef struct sbat_pcrnext_event {
	uint32_t pcr;
	uint32_t type;
	size_t log_index;      /* the log's event it stands for; 0 for one the log lacks */
	sbat_pcr7_state state; /* REPRODUCED (made, the log's digests), DIFFERS (made, changed), COPIED, ADDED,
	                          DROPPED (not measured next time), UNKNOWN (why) */
	const char *why;       /* static; NULL for REPRODUCED and ADDED */
	const uint8_t *data;   /* the event data (the log's, or made) */
	size_t data_len;
	uint8_t digest[SBAT_EVENTLOG_MAX_ALGS][SBAT_EVENTLOG_MAX_DIGEST]; /* per bank, sbat_pcrnext_value's order */
	uint32_t has_digest;                                              /* bit i: digest[i] holds one */
	sbat_pcrnext_cause cause;                /* for DIFFERS, ADDED, DROPPED, UNKNOWN; else NONE */
	char cause_name[SBAT_PCR7_NAME_MAX + 1]; /* VARIABLE, AUTHORITY, MOK: the variable's name; else "" */
	const char *cause_file;                  /* IMAGE, AUTHORITY: the stage's file as the walk names it, or NULL */
} sbat_pcrnext_event;

/* One PCR in one bank (a record: it belongs to the sbat_pcrnext it was read from). */
typedef struct sbat_pcrnext_value {
	uint32_t pcr;       /* 4, 7 or 14 */
	size_t bank;        /* the log's bank (sbat_eventlog_bank_at) */
	uint16_t alg;       /* TPM_ALG_ID */
	const char *name;   /* "sha256"; NULL for an algorithm the library does not name */
	size_t digest_size; /* bytes */
	int today_known;    /* today holds the log's replay */
	uint8_t today[SBAT_EVENTLOG_MAX_DIGEST];
	int predicted;   /* 1: value is the next boot's; 0: unknown, why says why */
	const char *why; /* static */
	uint8_t value[SBAT_EVENTLOG_MAX_DIGEST];
} sbat_pcrnext_value;

/* "variable", "authority", "image", "mok", "sbat-level", "no-shim", "not-modelled"; "" for NONE; NULL past the list. */
SBAT_API const char *sbat_pcrnext_cause_name(sbat_pcrnext_cause cause);

/* The prediction along one path: opaque, freed by sbat_pcrnext_free. */
typedef struct sbat_pcrnext sbat_pcrnext;

/*
 * Predict PCR 4, 7 and 14 along the stages of report whose entry is
 * `entry` (those off the default menu entry left out) from log and vars
 * (read as needed), as above. Fails on memory only (SBAT_E_NOMEM), or
 * SBAT_E_IO without a log, variables or report.
 */
SBAT_API sbat_err sbat_pcrnext_predict(const sbat_eventlog *log, sbat_pcr7_vars *vars, const sbat_boot_report *report,
                                       const char *entry, sbat_pcrnext **ret, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_pcrnext_free(sbat_pcrnext *p);

/* The events, PCR 7's, then 4's, then 14's, each in the order measured (the dropped among them). */
SBAT_API size_t sbat_pcrnext_event_count(const sbat_pcrnext *p);
SBAT_API const sbat_pcrnext_event *sbat_pcrnext_event_at(const sbat_pcrnext *p, size_t i);

/* The values: PCR 7's banks, then 4's, then 14's, each in the log's bank order. */
SBAT_API size_t sbat_pcrnext_value_count(const sbat_pcrnext *p);
SBAT_API const sbat_pcrnext_value *sbat_pcrnext_value_at(const sbat_pcrnext *p, size_t i);

/* The value of pcr in the bank of alg, or NULL: what a LUKS2 token's policy is computed from. */
SBAT_API const sbat_pcrnext_value *sbat_pcrnext_value_find(const sbat_pcrnext *p, uint32_t pcr, uint16_t alg);

#ifdef __cplusplus
}
#endif

#endif
