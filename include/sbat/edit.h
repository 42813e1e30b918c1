/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* edit.h - insert or replace the .sbat section of a PE/COFF image */
#ifndef SBAT_EDIT_H
#define SBAT_EDIT_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

#include "error.h"
#include "output.h"
#include "image.h"
#include "uki.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sbat_edit_action {
	SBAT_ACTION_INSERT = 1, /* a new .sbat section header and data at the end */
	SBAT_ACTION_REPLACE,    /* the existing .sbat rewritten inside its raw size */
	SBAT_ACTION_GROW,       /* the existing .sbat is last and was enlarged */
	SBAT_ACTION_RELOCATE,   /* the old .sbat became zeroed ".oldsbat"; a new one was appended */
	SBAT_ACTION_REMOVE,     /* the last-section .sbat was dropped and the image shrunk */
	SBAT_ACTION_RETIRE,     /* a mid-file .sbat was renamed ".oldsbat" and zeroed */
} sbat_edit_action;

/* What a retired mid-file .sbat is renamed to: no reader matches it as ".sbat". */
#define SBAT_RETIRED_SECTION_NAME ".oldsbat"

/*
 * What an edit does to a UKI's .pcrsig when it changes PCR 11 (see uki.h):
 * the signatures in it no longer match the image afterwards.
 */
typedef enum sbat_pcrsig_mode {
	SBAT_PCRSIG_REFUSE = 0, /* refuse the edit (SBAT_E_PCRSIG); the default */
	SBAT_PCRSIG_DROP,       /* edit, and take .pcrsig out (rename and zero it when it is not the last section) */
	SBAT_PCRSIG_KEEP,       /* edit, and keep .pcrsig as it is, stale (the report says so) */
} sbat_pcrsig_mode;

/* What a .pcrsig that is not the last section is renamed to by SBAT_PCRSIG_DROP. */
#define SBAT_RETIRED_PCRSIG_NAME ".oldpsig"

/*
 * The options of an edit. `size` must be sizeof(sbat_edit_opts) as the
 * caller was compiled: start from SBAT_EDIT_OPTS_INIT (or call
 * sbat_edit_opts_init), then set the fields. A size the library does not
 * know is refused (SBAT_E_ABI), so a structure that grows in a later version
 * is never read past its caller's end; the size of 0.2's structure (up to
 * dry_run) is still taken, its callers getting the defaults of the later
 * fields. NULL options mean the defaults (all 0).
 */
typedef struct sbat_edit_opts {
	size_t size;         /* sizeof(sbat_edit_opts): SBAT_EDIT_OPTS_INIT sets it */
	int strip_signature; /* drop a certificate table instead of refusing */
	int relocate;        /* a mid-file .sbat too small for the data is retired and a new one appended */
	int remove;          /* remove .sbat instead of writing one (payload must be NULL/0) */
	int write_unchanged; /* sbat_edit_fd: write the output even when it equals the input */
	int dry_run;         /* sbat_edit_fd: write only the headers and new data, leave the copied
	                            data a hole, and verify what was written (temporary space stays
	                            small); the output is then only fit to be discarded */
	/* since 0.3 */
	int pcrsig;   /* sbat_pcrsig_mode: a UKI whose .pcrsig the edit makes stale */
	int reserved; /* 0 */
} sbat_edit_opts;

/* Options with every field 0 (the defaults) and the size set. */
#define SBAT_EDIT_OPTS_INIT                                                                                            \
	{                                                                                                              \
		sizeof(sbat_edit_opts), 0, 0, 0, 0, 0, 0, 0                                                            \
	}

/*
 * The same for options that already exist: zeroes *opts and sets its size.
 * A program built against 0.2's headers keeps calling the 0.2 version
 * (sbat_edit_opts_init@LIBSBAT_0), which writes only 0.2's structure.
 */
SBAT_API void sbat_edit_opts_init(sbat_edit_opts *opts);

/*
 * What an edit did, for --verbose and for tests. The caller allocates it
 * (uninitialized is fine); the library fills it. Its size is fixed for the
 * life of the LIBSBAT_0 interface: fields added later take the reserved
 * space at its end, and `version` says which are filled
 * (SBAT_EDIT_REPORT_VERSION of the library that filled it; 1: the fields
 * below).
 */
#define SBAT_EDIT_REPORT_VERSION 2u

/* sbat_edit_report.uki (version 2): what the edit means for a UKI and its TPM measurements */
enum {
	SBAT_EDIT_UKI = 1u << 0,            /* the image is a UKI (see uki.h) */
	SBAT_EDIT_PCR11_CHANGED = 1u << 1,  /* the edit changes what its stub measures into PCR 11 */
	SBAT_EDIT_HAS_PCRSIG = 1u << 2,     /* it carries .pcrsig (signed PCR 11 values) */
	SBAT_EDIT_HAS_PCRPKEY = 1u << 3,    /* it carries .pcrpkey (the key those are signed with) */
	SBAT_EDIT_PCRSIG_KEPT = 1u << 4,    /* SBAT_PCRSIG_KEEP: .pcrsig kept, no longer matching */
	SBAT_EDIT_PCRSIG_REMOVED = 1u << 5, /* SBAT_PCRSIG_DROP: .pcrsig (the last section) taken out */
	SBAT_EDIT_PCRSIG_RETIRED = 1u << 6, /* SBAT_PCRSIG_DROP: .pcrsig renamed SBAT_RETIRED_PCRSIG_NAME and zeroed */
	SBAT_EDIT_SBAT_REVIVED = 1u << 7,   /* a multi-profile UKI's zeroed SBAT_RETIRED_SECTION_NAME before its
	                                       first .profile is .sbat again and holds the data (action REPLACE):
	                                       every profile measures it */
};

typedef struct sbat_edit_report {
	unsigned version; /* set by the library: SBAT_EDIT_REPORT_VERSION */
	sbat_edit_action action;
	unsigned section_index;
	uint32_t virtual_address;
	uint32_t virtual_size;
	uint32_t pointer_to_raw_data;
	uint32_t size_of_raw_data;
	uint32_t characteristics;
	uint32_t old_size_of_image, new_size_of_image;
	uint32_t old_size_of_headers, new_size_of_headers;
	uint32_t old_checksum, new_checksum;
	uint64_t overlay_offset, overlay_size; /* trailing data kept after the sections */
	uint64_t overlay_new_offset;
	uint32_t stripped_cert_size; /* bytes of certificate table removed */
	uint64_t data_shift;         /* section data moved this far to make header room */
	int retired_index;           /* section renamed SBAT_RETIRED_SECTION_NAME, or -1 */
	uint64_t output_size;
	int unchanged; /* output is byte-identical to the input */
	/* version 2 */
	uint32_t uki;         /* SBAT_EDIT_UKI_* and SBAT_EDIT_PCR* bits */
	int32_t pcrsig_index; /* the (first) .pcrsig section, -1 if none */
	uint64_t reserved[7]; /* zeroed by the library; later versions' fields */
} sbat_edit_report;

/*
 * Put `payload` (canonical SBAT CSV, see sbat_csv_format) into the image
 * `img` (see sbat_image_parse) as its one .sbat section and return the new
 * image in *ret_out (malloc'ed, owned by the caller). The image's buffer is
 * never modified. The output is re-parsed and checked against the loaders'
 * layout rules before it is returned. ret_report may be NULL.
 *
 * Where the new section header does not fit, a plain EFI application's
 * SizeOfHeaders grows by whole FileAlignment units and all section data
 * moves down (every file offset that points into it is fixed); kernel
 * images never move (their loaders depend on file offsets).
 * With opts->remove, payload must be NULL and the .sbat is taken out.
 */
SBAT_API sbat_err sbat_edit(const sbat_image *img, const uint8_t *payload, size_t payload_len,
                            const sbat_edit_opts *opts, uint8_t **ret_out, size_t *ret_out_len,
                            sbat_edit_report *ret_report, sbat_diag *reterr);

/*
 * The same edit, written to `out` (see sbat_output_open_replace) instead of
 * memory, in one pass: copied ranges go file to file from in_fd, the file
 * img's buffer maps (copy_file_range, else pread), so neither image is held
 * in memory; the buffer (typically from sbat_file_map) is read only where
 * the edit looks. When a CheckSum is due, every byte passes through a small
 * buffer instead and is summed as it is written. The written file is
 * verified through a mapping: it parses, meets the loaders' rules, and every
 * input byte the edit did not mean to change is there unchanged. When
 * in_fd's size, times or identity changed during the edit, SBAT_E_CHANGED;
 * where its time stamps cannot show every write (coarse or remote file
 * systems, times without nanoseconds, a file written in the last 50 ms),
 * also when its content changed (the copied bytes then pass through the
 * small buffer to be fingerprinted). SBAT_E_CHANGED too when the bytes img
 * was parsed from and the edit decided by (headers, .sbat, .pcrsig) are no
 * longer in in_fd once the output is written. When the result would equal the input, report.unchanged is set and,
 * unless opts->write_unchanged, nothing is written (the caller then aborts
 * `out`). On failure the caller aborts `out`.
 */
SBAT_API sbat_err sbat_edit_fd(const sbat_image *img, int in_fd, const uint8_t *payload, size_t payload_len,
                               const sbat_edit_opts *opts, sbat_output *out, sbat_edit_report *ret_report,
                               sbat_diag *reterr);

SBAT_API const char *sbat_edit_action_name(sbat_edit_action action);

/*
 * The image as this edit would make it, seen as a UKI (see uki.h): plans
 * the edit as sbat_edit does, writes nothing, and returns in *ret the UKI
 * the output would be (NULL when it is not one). Its sections are the
 * input's except the new .sbat (a copy of payload is kept); hash them with
 * sbat_uki_predict and the input file's descriptor. A refused edit returns
 * the refusal.
 */
SBAT_API sbat_err sbat_edit_predict_uki(const sbat_image *img, const uint8_t *payload, size_t payload_len,
                                        const sbat_edit_opts *opts, sbat_uki **ret, sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
