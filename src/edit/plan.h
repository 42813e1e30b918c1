/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* plan.h - the layout of an edited image, computed before a byte is written */
#ifndef SBAT_EDIT_PLAN_H
#define SBAT_EDIT_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/edit.h"
#include "sbat/input.h"
#include "pe/model.h"

#include "pe/layout.h"

/*
 * The output is a sequence of extents laid end to end (copied input ranges,
 * the new payload, zero fill), then header patches written over it at fixed
 * output offsets. Nothing is computed while emitting except the checksum.
 */
typedef enum extent_kind {
	EXTENT_COPY,    /* in[src .. src+len) */
	EXTENT_PAYLOAD, /* the new .sbat bytes */
	EXTENT_ZERO,    /* len zero bytes */
} extent_kind;

typedef struct extent {
	extent_kind kind;
	uint64_t src;
	uint64_t len;
} extent;

typedef struct patch {
	uint64_t offset; /* in the output */
	uint64_t len;
	int zero; /* 1: zero-fill len bytes of an old .sbat's data; 0: write the header
	                     or field bytes[0..len), len <= SH_SIZE */
	uint8_t bytes[SH_SIZE];
} patch;

#define PLAN_MAX_EXTENTS 8
/* header fields, one pointer per section, one per debug entry, and the retire/zero pair */
#define PLAN_MAX_PATCHES (16 + SBAT_PE_MAX_SECTIONS + SBAT_PE_MAX_DEBUG_ENTRIES)

typedef struct plan {
	extent extents[PLAN_MAX_EXTENTS];
	unsigned n_extents;
	patch patches[PLAN_MAX_PATCHES];
	unsigned n_patches;
	uint64_t output_size;
	int update_checksum; /* recompute CheckSum at checksum_offset after patching */
	uint64_t checksum_offset;
	uint64_t section_header_offset; /* where the .sbat header lives in the output (0: none) */
	uint64_t verify_prefix;         /* output bytes [0, this) hold every header verification reads */
	int overflow;                   /* an extent or patch did not fit its table: the plan is refused */
	int keep_signature;             /* signed input without strip_signature: only an identity is allowed */
	patch spill;                    /* where a patch that did not fit is written, then ignored */
	sbat_edit_report report;
	/* a UKI's .pcrsig dropped (SBAT_PCRSIG_DROP), or its .oldsbat made .sbat again */
	sbat_pe
	    *base; /* the input without a removed last .pcrsig, or with the revived slot as .sbat (owned), or NULL */
	uint8_t dropped[SBAT_PE_MAX_SECTIONS]; /* input sections retired besides .sbat: their bytes go */
} plan;

/* 1 if all n bytes at p equal value. */
int plan_all_bytes(const uint8_t *p, uint64_t n, uint8_t value);

/* What a plan owns (base); the plan is not usable afterwards. */
void plan_release(plan *p);

/* The model the plan was made from and verification must use: p->base or pe. */
const sbat_pe *plan_input(const plan *p, const sbat_pe *pe);

/*
 * The plan of the .sbat edit alone (plan_build, plan_uki.h, adds what a
 * UKI's .pcrsig needs). profiles: for a UKI whose stub boots profiles, the
 * index of the first .profile section (the sections before it are the base
 * every profile measures), else -1.
 */
sbat_err plan_core(const sbat_pe *pe, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
                   const sbat_edit_opts *opts, int profiles, plan *ret, sbat_diag *reterr);

/* SBAT_PCRSIG_DROP: re-plan without the last .pcrsig, retire the others (sets base, dropped, the report bits). */
sbat_err plan_drop_pcrsig(const sbat_pe *pe, const uint8_t *in, size_t in_len, const uint8_t *payload,
                          size_t payload_len, const sbat_edit_opts *opts, int profiles, plan *p, sbat_diag *reterr);

/* Where input offset in_off lands in the output, by the copy extents; 0 when it is not copied. */
int plan_map_offset(const plan *p, uint64_t in_off, uint64_t *ret);

/*
 * 1 when the planned output equals the input except perhaps for the
 * CheckSum (which emit computes). Reads only the bytes the plan changes.
 */
int plan_is_identity(const plan *p, const uint8_t *in, size_t in_len, const uint8_t *payload);

#endif
