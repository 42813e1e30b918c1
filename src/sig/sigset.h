/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigset.h - the signatures of one image as they are read: a growing list the caller frees once */
#ifndef SBAT_SIG_SIGSET_H
#define SBAT_SIG_SIGSET_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"

#include "sig/pehash.h"
#include "sig/pkcs7.h"

/* Where a loader's walk of the certificate table gives up: `what` NULL when it does not. */
typedef struct table_stop {
	const char *what; /* static: why */
	uint64_t offset;  /* the entry's file offset */
	unsigned entry;   /* its index: the entries before it are read */
} table_stop;

/* What sbat_authenticode_parse hands out is `a`, the first member: a pointer to it is one to the set. */
typedef struct sigset {
	sbat_authenticode a;
	size_t cap;
	pkcs7_signers *signers; /* one per signature: its SignerInfos */
	/*
	 * The table's last entry ends the table without its padding to 8
	 * bytes: EDK2's walk of the table stops before it and refuses the
	 * image; shim's reads it.
	 */
	int unpadded_end;
	/*
	 * Where each loader's walk of the table gives up (table_stop): EDK2's
	 * breaks out of its loop and refuses the image, shim's returns
	 * EFI_INVALID_PARAMETER.
	 */
	table_stop fw_stop;
	table_stop shim_stop;
	pehash_digests dg; /* the image's hashes by EDK2's rule: a.image_hash, and those its signatures name */
} sigset;

/* The SignerInfos of signature i of a (what sbat_authenticode_parse gave). */
const pkcs7_signers *sigset_signers(const sbat_authenticode *a, size_t i);

/* Where EDK2's (shim 0) or shim's (shim 1) walk of a's table gives up, or NULL. */
const table_stop *sigset_table_stop(const sbat_authenticode *a, int shim);

/* 1 when a's table ends in an entry not padded to 8 bytes (EDK2 refuses it). */
int sigset_unpadded_end(const sbat_authenticode *a);

/*
 * Read the SignedData of `tmpl` (its offset and len: a ContentInfo in buf,
 * at file offsets) into a new signature after the others, then the
 * signatures nested in it. tmpl's entry fields are copied.
 */
sbat_err sigset_add_signed_data(sigset *set, const uint8_t *buf, const sbat_authenticode_sig *tmpl, sbat_diag *d);

/* Free the set, its signatures and their certificates. */
void sigset_free(sigset *set);

#endif
