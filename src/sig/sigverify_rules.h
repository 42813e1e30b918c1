/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sigverify_rules.h - EDK2's and shim's rules over one image's signatures and the databases */
#ifndef SBAT_SIG_SIGVERIFY_RULES_H
#define SBAT_SIG_SIGVERIFY_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/authenticode.h"
#include "sbat/sigverify.h"

#include "sig/chain.h"

/* A verdict being made: what sbat_sigverify_image hands out is `v`, the first member. */
typedef struct sigverify_run {
	sbat_sigverify v;
	sbat_sigverify_opts o;
	sbat_authenticode *a;
	sbat_sigverify_sig *sigs;                     /* one per a->sigs */
	char (*subjects)[SBAT_AUTHENTICODE_NAME_MAX]; /* the certificate each signature met */
	int *chains;                                  /* every chain, one after the other */
	uint8_t *links;                               /* for each chain: its links that verify (chain_links) */
	chain_match *failed;   /* for each signature: the first database certificate it met and did not reach */
	int not_computed;      /* signatures with a digest other than SHA-256 */
	int have_sha1;         /* sha1 is the image's Authenticode SHA-1 (shim's rule) */
	int root_time_unknown; /* a db root's revocation in dbx hangs on a timestamp */
	uint8_t sha1[20];
} sigverify_run;

/*
 * The chain of signature i into out (chain_build), or none (0) when a
 * loader finds no signer in it: a SignerInfo's certificate is not there
 * (PKCS7_get0_signers fails), or its Pkcs7Verify cannot read it
 * (pkcs7_signers.unwrappable).
 */
size_t sigverify_chain(const sigverify_run *r, size_t i, int *out);

/* 1 when db (NULL: none) holds an entry of type. */
int sigverify_has_type(const sbat_sigdb *db, sbat_sig_type type);

/* Judge by EDK2's rule (opts.mode is ENFORCING): fills r->v and r->sigs. */
void sigverify_firmware(sigverify_run *r);

/* Judge by shim 16.1's rule (opts.mode is ENFORCING). */
void sigverify_shim(sigverify_run *r);

#endif
