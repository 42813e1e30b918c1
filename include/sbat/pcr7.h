/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcr7.h - PCR 7 as the firmware builds it from the Secure Boot variables: each event of a log recomputed, and the
 * next boot's value predicted through a change of db, dbx, KEK, PK or shim's MOK lists */
#ifndef SBAT_PCR7_H
#define SBAT_PCR7_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"
#include "eventlog.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What EDK2 (Tcg2Dxe's MeasureSecureBootPolicy, DxeImageVerificationLib's
 * authority measurement) extends PCR 7 with, the model of this module:
 *
 * - EV_EFI_VARIABLE_DRIVER_CONFIG for SecureBoot, PK, KEK (the global
 *   variables' GUID), db and dbx (the image security database's), in that
 *   order; an absent one is measured with no data; then dbt when it exists
 *   (an absent dbt is not measured). The event data, and what is hashed in
 *   every bank, is a UEFI_VARIABLE_DATA: the vendor GUID, UINT64
 *   UnicodeNameLength (characters), UINT64 VariableDataLength, the name in
 *   UTF-16LE without its NUL, the variable's data;
 * - EV_SEPARATOR: four zero bytes;
 * - EV_EFI_VARIABLE_AUTHORITY, once for each distinct db entry that verified
 *   an image the firmware started: a UEFI_VARIABLE_DATA named "db" whose data
 *   is that entry's EFI_SIGNATURE_DATA (owner GUID, then the certificate or
 *   hash).
 *
 * A log's PCR 7 events are taken one by one: a variable event before the
 * separator is made again from the variable as it is now (or will be: see
 * sbat_pcr7_vars_set and _append); the separator from four zero bytes; a db
 * authority from the entry the log names, when db still holds it. Any other
 * event of PCR 7 (shim's authorities and SbatLevel, a variable written during
 * the boot, a debugger's EV_EFI_ACTION, a firmware's own) is one this model
 * cannot make: it is taken from the log as it is, and its `why` says so. What
 * is predicted assumes the next boot starts the same images, verified by the
 * same db entries.
 */

/* The longest variable name the model looks up (characters). */
#define SBAT_PCR7_NAME_MAX 128

/* The variables PCR 7 measures, as they are (read from efivarfs when first needed) or will be: opaque. */
typedef struct sbat_pcr7_vars sbat_pcr7_vars;

/*
 * A new set that reads each variable from efivarfs (NULL: /sys/firmware/efi/efivars,
 * the files NAME-GUID: 4 attribute bytes, then the data) when first asked for it.
 */
SBAT_API sbat_err sbat_pcr7_vars_new(const char *efivarfs, sbat_pcr7_vars **ret, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_pcr7_vars_free(sbat_pcr7_vars *vars);

/*
 * Variable name of vendor guid (lowercase text, as efivarfs names it) holds
 * data[0..len) (copied), or, data NULL, does not exist.
 */
SBAT_API sbat_err sbat_pcr7_vars_set(sbat_pcr7_vars *vars, const char *name, const char *guid, const uint8_t *data,
                                     size_t len, sbat_diag *reterr);

/*
 * Append update[0..len) to the variable as the firmware's append write does
 * (EDK2's AuthVariableLib): an EFI_VARIABLE_AUTHENTICATION_2 at its start is
 * skipped, NOT verified; each EFI_SIGNATURE_DATA of its signature lists that
 * a list of the variable's current data of the same SignatureType and
 * SignatureSize holds is dropped, a list left empty goes, and what remains
 * is added after the current data. *ret_added (may be NULL) is the number of
 * entries added. A malformed list in either is SBAT_E_EFIVAR (sigdb.h's
 * diagnostic; nothing is changed).
 */
SBAT_API sbat_err sbat_pcr7_vars_append(sbat_pcr7_vars *vars, const char *name, const char *guid, const uint8_t *update,
                                        size_t len, size_t *ret_added, sbat_diag *reterr);

/*
 * Apply update[0..len), an update of variable name as the one who writes it does:
 * "db", "dbx", "KEK": sbat_pcr7_vars_append (the firmware's append write);
 * "PK": PK replaced by the signature list after the update's
 * EFI_VARIABLE_AUTHENTICATION_2 (EDK2's PK write replaces; not verified),
 * and an empty one deletes PK: SecureBoot is then not known (the next boot
 * is in setup mode); "MokList", "MokListX": the signature lists appended as
 * given (shim 16.1's MokManager, write_db), seen where shim measures them,
 * its runtime mirror MokListRT (MokListXRT) of the next boot: today's
 * mirror with the lists after it, or the lists alone in place of shim's
 * placeholder (one SHA-256 of zeros); an absent mirror stays absent.
 * *ret_added (may be NULL) is the entries added (PK: its entries). Another
 * name, or a malformed list, is SBAT_E_EFIVAR.
 */
SBAT_API sbat_err sbat_pcr7_vars_update(sbat_pcr7_vars *vars, const char *name, const uint8_t *update, size_t len,
                                        size_t *ret_added, sbat_diag *reterr);

/* What made an event of the model. */
typedef enum sbat_pcr7_kind {
	SBAT_PCR7_VARIABLE = 0, /* a variable's contents (EV_EFI_VARIABLE_DRIVER_CONFIG) */
	SBAT_PCR7_SEPARATOR,    /* EV_SEPARATOR, four zero bytes */
	SBAT_PCR7_AUTHORITY,    /* a db entry that verified an image (EV_EFI_VARIABLE_AUTHORITY) */
	SBAT_PCR7_FROM_LOG,     /* an event this model cannot make, taken from the log as it is */
	SBAT__PCR7_KIND_MAX
} sbat_pcr7_kind;

/* What the model's event is beside the log's. */
typedef enum sbat_pcr7_state {
	SBAT_PCR7_REPRODUCED = 0, /* made, and the log's digest in every bank */
	SBAT_PCR7_DIFFERS,        /* made, and not the log's digest (the variable is not what was measured) */
	SBAT_PCR7_COPIED,         /* taken from the log */
	SBAT_PCR7_ADDED,          /* not in the log, made: the next boot measures it (dbt now exists) */
	SBAT_PCR7_DROPPED,        /* in the log, not measured at the next boot (dbt no longer exists) */
	SBAT_PCR7_UNKNOWN,        /* cannot be made (why): PCR 7 cannot be predicted */
	SBAT__PCR7_STATE_MAX
} sbat_pcr7_state;

/* One event of the next boot's PCR 7 (a record: it belongs to the sbat_pcr7 it was read from). */
typedef struct sbat_pcr7_event {
	size_t log_index; /* the log's event it stands for (sbat_eventlog_event.index); 0 for an added one */
	uint32_t type;
	sbat_pcr7_kind kind;
	sbat_pcr7_state state;
	char name[SBAT_PCR7_NAME_MAX + 1]; /* the variable named by its UEFI_VARIABLE_DATA, "" for none */
	char guid[37];                     /* its vendor, lowercase text; "" for none */
	const char *why;                   /* for COPIED, DIFFERS, DROPPED and UNKNOWN: why (static); else NULL */
	const uint8_t *data;               /* the event data made (or the log's) */
	size_t data_len;
	/* the digest in each of the log's banks (sbat_pcr7_bank_at's order), its digest_size bytes */
	uint8_t digest[SBAT_EVENTLOG_MAX_ALGS][SBAT_EVENTLOG_MAX_DIGEST];
	uint32_t has_digest;   /* bit i: digest[i] holds one (a copied event may lack a bank's) */
	uint32_t banks_differ; /* bit i: digest[i] is not the log's */
} sbat_pcr7_event;

/* PCR 7 in one bank of the log (a record: it belongs to the sbat_pcr7 it was read from). */
typedef struct sbat_pcr7_bank {
	uint16_t alg;       /* TPM_ALG_ID */
	const char *name;   /* "sha256"; NULL for an algorithm the library does not name */
	size_t digest_size; /* bytes */
	int today_known;    /* 1: today holds the log's replay of PCR 7 */
	uint8_t today[SBAT_EVENTLOG_MAX_DIGEST];
	int predicted;   /* 1: value holds PCR 7 after the model's events; 0: unknown, and why says why */
	const char *why; /* static */
	uint8_t value[SBAT_EVENTLOG_MAX_DIGEST];
} sbat_pcr7_bank;

/* The model of a log's PCR 7 with a set of variables: opaque, freed by sbat_pcr7_free. */
typedef struct sbat_pcr7 sbat_pcr7;

/*
 * Make the next boot's PCR 7 events from log's and the variables of vars
 * (read as needed; an unreadable one, or a db that does not parse, makes the
 * events that need it UNKNOWN), and replay them per bank. An event the
 * model makes is REPRODUCED when the variables are those the log measured.
 * Fails on memory (SBAT_E_NOMEM) only.
 */
SBAT_API sbat_err sbat_pcr7_build(const sbat_eventlog *log, sbat_pcr7_vars *vars, sbat_pcr7 **ret, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_pcr7_free(sbat_pcr7 *model);

/* The events, in order (the dropped among them), and the banks (the log's, in its order). */
SBAT_API size_t sbat_pcr7_event_count(const sbat_pcr7 *model);
SBAT_API const sbat_pcr7_event *sbat_pcr7_event_at(const sbat_pcr7 *model, size_t i);
SBAT_API size_t sbat_pcr7_bank_count(const sbat_pcr7 *model);
SBAT_API const sbat_pcr7_bank *sbat_pcr7_bank_at(const sbat_pcr7 *model, size_t i);

/* "variable", "separator", "authority", "from the log". */
SBAT_API const char *sbat_pcr7_kind_name(sbat_pcr7_kind kind);

/* "reproduced", "differs", "copied", "added", "dropped", "unknown". */
SBAT_API const char *sbat_pcr7_state_name(sbat_pcr7_state state);

#ifdef __cplusplus
}
#endif

#endif
