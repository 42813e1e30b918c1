/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* uki_model.h - a UKI inside the library: its sections as the stub sees them, which it measures, and how */
#ifndef SBAT_UKI_UKI_MODEL_H
#define SBAT_UKI_UKI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"
#include "sbat/uki.h"
#include "pe/model.h"
#include "util/hashpass.h"

/*
 * The sections systemd-stub knows, in the order it measures them (the
 * order of its UnifiedSection list, which later releases only extend).
 * Each release knows a subset (see uki_rules_for).
 */
typedef enum uki_kind {
	UKI_LINUX,
	UKI_OSREL,
	UKI_CMDLINE,
	UKI_INITRD,
	UKI_UCODE,
	UKI_SPLASH,
	UKI_DTB,
	UKI_UNAME,
	UKI_SBAT,
	UKI_PCRSIG, /* known, never measured: it signs the result */
	UKI_PCRPKEY,
	UKI_PROFILE,
	UKI_DTBAUTO, /* measured only when the machine selects it (see uki_sel) */
	UKI_HWIDS,
	UKI_EFIFW, /* measured only when the machine selects it */
	UKI_KIND_MAX
} uki_kind;

/* ".linux", ... for a kind. */
const char *uki_kind_name(unsigned kind);

/* How a stub release finds and measures its sections. */
typedef struct uki_rules {
	uint32_t known;  /* bit per uki_kind the stub looks for */
	int exact_names; /* 256+: the 8-byte name equals the kind's; before: the name starts with it */
	int first_wins;  /* 256+: the first match in the table counts; before: the last one */
	int profiles;    /* 257+: .profile sections split the table into profiles */
} uki_rules;

/* The rules of stub release `major` (0: unknown, the newest rules). */
uki_rules uki_rules_for(unsigned major);

/* A larger gap between raw data and VirtualSize is not predicted: no real UKI section has one. */
#define UKI_ZERO_TAIL_MAX (16u * 1024u * 1024u)

/*
 * One section of the image as the stub will see it: its header, and where
 * its bytes come from: the input file at raw_offset, or (new data an edit
 * writes) mem[0..mem_len) then zeros up to raw_size.
 */
typedef struct uki_sec {
	uint8_t name[8];
	uint32_t virtual_size, virtual_address, raw_size;
	uint64_t raw_offset;
	uint64_t header_offset; /* in the input (for messages) */
	const uint8_t *mem;
	size_t mem_len;
	int origin; /* the input section these bytes are, -1 for new data */
} uki_sec;

/*
 * The kinds the machine selects, not the image (systemd 262 pe.c
 * pe_locate_sections): the stub takes the first .dtbauto whose device
 * tree's first compatible string is that of the firmware's device tree,
 * or, without one, of the device-tree entry of .hwids that matches the
 * machine's hardware IDs; and the first .efifw whose firmware id is that
 * of the firmware entry of .hwids that matches them (each type of entry
 * matched on its own). .hwids is the first of the range searched: the
 * base's, or for a profile's own sections the profile's. None when
 * nothing matches. The machine-selected kind j is uki_machine_kind(j).
 */
#define UKI_MACHINE_KINDS 2u
#define uki_machine_kind(j) ((j) == 0 ? UKI_DTBAUTO : UKI_EFIFW)

/*
 * The sections selected for one profile: for each kind a section index or
 * -1 (always -1 for the machine's kinds); the candidates of each machine
 * kind, the profile's own before the base's: only those the stub can
 * select (see select_candidates in uki.c). Its PCR 11 values are one per
 * alternative: alternative a selects candidate (a % (n_cand[0] + 1)) - 1 of
 * .dtbauto and (a / (n_cand[0] + 1)) - 1 of .efifw (-1: none), so
 * alternative 0 is the boot in which the machine selects nothing.
 */
typedef struct uki_sel {
	int16_t sec[UKI_KIND_MAX];
	uint8_t n_cand[UKI_MACHINE_KINDS];
	int16_t cand[UKI_MACHINE_KINDS][SBAT_PE_MAX_SECTIONS + 1];
	/* the name of the .hwids entry through which the machine selects a candidate (NULL: none or unnamed) */
	const char *cand_hwid[UKI_MACHINE_KINDS][SBAT_PE_MAX_SECTIONS + 1];
	/* that entry's offset in the file; the candidate's section header when no entry selects it */
	uint64_t cand_hwid_offset[UKI_MACHINE_KINDS][SBAT_PE_MAX_SECTIONS + 1];
	unsigned alt0; /* its first alternative's index in uki->pcr */
} uki_sel;

struct sbat_uki {
	const uint8_t *buf; /* the input image's bytes */
	size_t len;
	uint32_t size_of_image;
	unsigned n;
	uki_sec sec[SBAT_PE_MAX_SECTIONS + 1];
	char version[64];
	int has_version;
	unsigned major;
	uki_rules rules;
	unsigned n_profiles; /* 0: no profiles (or a stub without them) */
	uki_sel *sel;        /* max(1, n_profiles) selections; [0] is the default boot */
	uint8_t (*pcr)[SBAT_UKI_PHASES][SBAT_UKI_DIGEST_SIZE]; /* per alternative, see uki_sel */
	unsigned n_alt;                                        /* of all profiles */
	int predicted;
	uint8_t *owned; /* new data an edit writes, owned by this object */
};

/*
 * Fill uki->sec from a parsed image (its own bytes), then find the stub
 * and select. 1 if it is a UKI, 0 if not, -1 out of memory.
 */
int uki_from_pe(sbat_uki *uki, const sbat_pe *pe, const uint8_t *buf, size_t len);

/* With uki->sec filled: read the stub version, the rules, the profiles, the selections. 1 UKI, 0 not, -1 ENOMEM. */
int uki_analyse(sbat_uki *uki);

/* Release what uki_analyse allocated (not the object). */
void uki_clear(sbat_uki *uki);

/* The section profile p (0-based; 0 without profiles) measures as kind k, or -1. */
int uki_measured_as(const sbat_uki *uki, unsigned p, unsigned k);

/* 1 if section s of uki may be measured (selected or a candidate for some profile, known and measured by the stub). */
int uki_section_measured(const sbat_uki *uki, unsigned s);

/* The number of PCR 11 alternatives of profile p: 1 when the image alone decides. */
unsigned uki_alt_count(const sbat_uki *uki, unsigned p);

/* The section alternative a of profile p selects as machine kind j, or -1. */
int uki_alt_section(const sbat_uki *uki, unsigned p, unsigned a, unsigned j);

/* Its candidate index (into sel->cand[j]), or -1 when it selects none. */
int uki_alt_candidate(const sbat_uki *uki, unsigned p, unsigned a, unsigned j);

/* Section i's bytes as far as they are in the file (or in new data) and loaded: min(raw, VirtualSize). */
const uint8_t *uki_loaded_bytes(const sbat_uki *uki, unsigned i, size_t *ret_len);

/*
 * Whether PCR 11 differs between two views of one image (before and after
 * an edit): 1 when the measured sequence of some profile differs (another
 * section, another kind, other bytes), 0 when every one is equal. Compares
 * the bytes only where a section is not the same input section on both
 * sides. *ret_kind is the first kind that differs, *ret_before_sec its
 * section in `before` (-1: it is new).
 */
int compare_pcr11_changes(const sbat_uki *before, const sbat_uki *after, unsigned *ret_kind, int *ret_before_sec);

/* A section's pieces as the stub hashes them: its loaded raw data (in memory, or the file and zeros for what
 * an edit holds shorter), then zeros up to VirtualSize. */
#define MEASURE_MAX_PIECES 3
typedef hashpass_seg measure_pieces[MEASURE_MAX_PIECES];

/*
 * The streams that predict PCR 11: st[i] (uki->n of them, pieces in
 * seg[i]) hashes section i, empty for a section not measured. fd >= 0: the
 * data is read from that file, else from the image's buffer. Fails when a
 * measured section is not what a loader maps.
 */
sbat_err measure_streams(const sbat_uki *uki, int fd, hashpass_stream *st, measure_pieces *seg, sbat_diag *d);
/* The PCR 11 values of every profile and phase, from the streams measure_streams set and hashpass_run hashed. */
sbat_err measure_finish(sbat_uki *uki, hashpass_stream *st, sbat_diag *d);

/* The JSON of a .pcrsig section, read as far as it goes; see pcrsig_json.c. */
#define UKI_PCRSIG_MAX_ENTRIES 64
typedef struct uki_pcrsig_entry {
	char bank[8];      /* "sha256", "sha1", ... */
	uint32_t pcr_mask; /* bit per PCR listed in "pcrs" */
	uint8_t pol[64];   /* the policy digest */
	size_t pol_len;
	int has_sig, has_pkfp;
	uint64_t offset; /* where the entry starts, relative to the section data */
} uki_pcrsig_entry;

typedef struct uki_pcrsig {
	unsigned n;
	uki_pcrsig_entry e[UKI_PCRSIG_MAX_ENTRIES];
	unsigned dropped; /* entries past the maximum */
} uki_pcrsig;

/*
 * Parse the .pcrsig JSON in p[0..n) (trailing NULs allowed). SBAT_OK, or
 * SBAT_E_UKI with d->what naming the defect and d->offset its place
 * relative to p.
 */
sbat_err pcrsig_json_parse(const uint8_t *p, size_t n, uki_pcrsig *ret, sbat_diag *d);

/* 1 if a SHA-256 entry of sig for PCR 11 alone signs a value (any phase) of alternative a of profile p (predicted). */
int coverage_alt_signed(const sbat_uki *uki, unsigned p, unsigned a, const uki_pcrsig *sig);

#endif
