/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* eventlog.h - the firmware's TCG event log: read, checked, replayed to PCR values and held against the TPM */
#ifndef SBAT_EVENTLOG_H
#define SBAT_EVENTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The crypto-agile event log of the TCG PC Client Platform Firmware Profile
 * (10.2): a first event in the SHA-1 format (TCG_PCClientPCREvent: PCRIndex,
 * EventType, a 20-byte digest, EventSize, Event) that must be PCR 0's
 * EV_NO_ACTION carrying the TCG_EfiSpecIdEvent ("Spec ID Event03": the
 * algorithms of the log and the size of each one's digests), then
 * TCG_PCR_EVENT2 records (PCRIndex, EventType, TPML_DIGEST_VALUES: a count
 * and that many {hashAlg, digest}, EventSize, Event), all little-endian.
 *
 * Every length is checked against the buffer and every digest's size is
 * the one the Spec ID event declares for its algorithm (an algorithm the
 * library does not know is skipped by that size). A malformed log fails as
 * a whole with SBAT_E_EVENTLOG: `what` names the check, `offset` the byte
 * of the log where the field that failed starts, `line` the event (0: the
 * Spec ID event) and `field` 0. Zero bytes after the last event (a log
 * area read whole) end the log.
 *
 * The replay: each PCR of each bank starts at its reset value (0; PCRs 17
 * to 22 all ones; PCR 0 the locality of the StartupLocality event, PC
 * Client PFP 10.4.5.3, when one comes before PCR 0's first extension) and
 * every event but EV_NO_ACTION extends its PCR: PCR = H(PCR || digest).
 * SHA-1, SHA-256, SHA-384 and SHA-512 banks are replayed.
 */

/* Where Linux shows the firmware's log, and the TPM's PCRs (pcr-BANK/N, hex). */
#define SBAT_EVENTLOG_KERNEL_PATH "/sys/kernel/security/tpm0/binary_bios_measurements"
#define SBAT_EVENTLOG_TPM_DIR "/sys/class/tpm/tpm0"

/* A log larger than this is refused (SBAT_E_TOO_BIG). */
#define SBAT_EVENTLOG_MAX_SIZE (16u * 1024u * 1024u)

/* The PCRs of a PC Client TPM, the largest digest kept, the most algorithms a Spec ID event may list. */
#define SBAT_EVENTLOG_PCRS 24
#define SBAT_EVENTLOG_MAX_DIGEST 64
#define SBAT_EVENTLOG_MAX_ALGS 16

/* TPM_ALG_IDs of the banks (TPM 2.0 Part 2, 6.3). */
#define SBAT_EVENTLOG_ALG_SHA1 0x0004u
#define SBAT_EVENTLOG_ALG_SHA256 0x000bu
#define SBAT_EVENTLOG_ALG_SHA384 0x000cu
#define SBAT_EVENTLOG_ALG_SHA512 0x000du
#define SBAT_EVENTLOG_ALG_SM3_256 0x0012u

/* Event types the library acts on (PC Client PFP 10.4.1); sbat_eventlog_type_name names them all. */
#define SBAT_EV_NO_ACTION 0x00000003u
#define SBAT_EV_SEPARATOR 0x00000004u
#define SBAT_EV_EFI_VARIABLE_DRIVER_CONFIG 0x80000001u
#define SBAT_EV_EFI_VARIABLE_AUTHORITY 0x800000e0u

/* One digest of an event: a row, fixed for the life of the soname; it points into the log. */
typedef struct sbat_eventlog_digest {
	uint16_t alg;          /* TPM_ALG_ID */
	const uint8_t *digest; /* size bytes, as the Spec ID event declares for alg */
	size_t size;
} sbat_eventlog_digest;

/* One event, as logged (a record: it belongs to the log). */
typedef struct sbat_eventlog_event {
	size_t index;    /* 0: the Spec ID event */
	uint64_t offset; /* of its first byte in the log */
	uint32_t pcr;
	uint32_t type;
	const sbat_eventlog_digest *digests; /* in the log's order */
	size_t n_digests;
	const uint8_t *data; /* Event[EventSize] */
	size_t data_len;
} sbat_eventlog_event;

/* One bank: the Spec ID event's algorithm, and what the log replays to (a record: it belongs to the log). */
typedef struct sbat_eventlog_bank {
	uint16_t alg;
	const char *name;   /* "sha256", as in pcr-sha256; NULL for an algorithm the library does not name */
	size_t digest_size; /* as the Spec ID event declares */
	int replayed;       /* 1: value[] holds the replay; 0: the library does not hash alg, or events lack it */
	size_t missing;     /* events extended without a digest of this bank */
	uint32_t extended;  /* bit N: the log extends PCR N */
	uint8_t value[SBAT_EVENTLOG_PCRS][SBAT_EVENTLOG_MAX_DIGEST]; /* PCR N after the log; digest_size bytes */
	/* filled by sbat_eventlog_compare_tpm */
	uint32_t tpm_read;    /* bit N: the TPM's PCR N of this bank was read */
	uint32_t tpm_differs; /* bit N: read, extended by the log, replayed, and not the replayed value */
	uint8_t tpm[SBAT_EVENTLOG_PCRS][SBAT_EVENTLOG_MAX_DIGEST];
} sbat_eventlog_bank;

/* A parsed and replayed log: opaque, freed by sbat_eventlog_free. */
typedef struct sbat_eventlog sbat_eventlog;

/* Parse and replay buf[0..len) (copied) into a new *ret; NULL on failure. */
SBAT_API sbat_err sbat_eventlog_parse(const uint8_t *buf, size_t len, sbat_eventlog **ret, sbat_diag *reterr);

/*
 * Read the log at path (NULL: SBAT_EVENTLOG_KERNEL_PATH; a file the kernel
 * generates, whose size it does not say, is read to its end) and parse it.
 * A log that is not there is SBAT_E_IO with sys_errno ENOENT.
 */
SBAT_API sbat_err sbat_eventlog_read(const char *path, sbat_eventlog **ret, sbat_diag *reterr);

/* NULL-safe. */
SBAT_API void sbat_eventlog_free(sbat_eventlog *log);

/* The events (the Spec ID event first) and the banks (the Spec ID event's algorithms, in its order). */
SBAT_API size_t sbat_eventlog_event_count(const sbat_eventlog *log);
SBAT_API const sbat_eventlog_event *sbat_eventlog_event_at(const sbat_eventlog *log, size_t i);
SBAT_API size_t sbat_eventlog_bank_count(const sbat_eventlog *log);
SBAT_API const sbat_eventlog_bank *sbat_eventlog_bank_at(const sbat_eventlog *log, size_t i);

/* "EV_SEPARATOR", "EV_EFI_VARIABLE_DRIVER_CONFIG", ...; NULL for a type the PC Client PFP does not define. */
SBAT_API const char *sbat_eventlog_type_name(uint32_t type);

/* What the TPM says of the log. */
typedef enum sbat_eventlog_tpm {
	SBAT_EVENTLOG_TPM_NOT_READ = 0, /* no PCR of a replayed bank could be read (no TPM, or not allowed) */
	SBAT_EVENTLOG_TPM_MATCHES,      /* every PCR read that the log extends holds the replayed value */
	SBAT_EVENTLOG_TPM_DIFFERS,      /* at least one does not: the log is not this boot's, or is incomplete */
	SBAT__EVENTLOG_TPM_MAX
} sbat_eventlog_tpm;

/*
 * Read the TPM's PCRs, tpm_dir/pcr-BANK/N (NULL: SBAT_EVENTLOG_TPM_DIR; the
 * hex text Linux shows), of every bank the log replays, into the banks'
 * tpm fields, and say in *ret_state whether they hold what the log
 * replays to. A PCR that cannot be read is left out; one that holds
 * anything but the bank's digest in hex is SBAT_E_IO, "not a PCR value".
 */
SBAT_API sbat_err sbat_eventlog_compare_tpm(sbat_eventlog *log, const char *tpm_dir, sbat_eventlog_tpm *ret_state,
                                            sbat_diag *reterr);

/* "not read", "matches", "differs". */
SBAT_API const char *sbat_eventlog_tpm_name(sbat_eventlog_tpm state);

#ifdef __cplusplus
}
#endif

#endif
