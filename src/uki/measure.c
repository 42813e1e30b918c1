/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* measure.c - PCR 11 as systemd-stub and the boot phases extend it, and the TPM2 policy that signs it */
#include <stdlib.h>
#include <string.h>

#include "sbat/uki.h"

#include "util/diag.h"
#include "util/sha256.h"
#include "pe/layout.h"
#include "uki/uki_model.h"
#include "util/strtable.h"

static const char *const phase_names[SBAT_UKI_PHASES] = {
	"stub",
	"enter-initrd",
	"enter-initrd:leave-initrd",
	"enter-initrd:leave-initrd:sysinit",
	"enter-initrd:leave-initrd:sysinit:ready",
};

/* The word systemd measures when each phase begins (systemd-pcrphase, systemd-pcrextend). */
static const char *const phase_words[SBAT_UKI_PHASES] = { NULL, "enter-initrd", "leave-initrd", "sysinit", "ready" };

const char *
sbat_uki_phase_name(unsigned phase)
{
	return STRTABLE_NAME(phase_names, phase, NULL);
}

/* PCR extend in the SHA-256 bank: pcr = H(pcr || digest). */
static void
extend(uint8_t pcr[SHA256_DIGEST_SIZE], const uint8_t digest[SHA256_DIGEST_SIZE])
{
	struct sha256_ctx c;

	sha256_init(&c);
	sha256_update(&c, pcr, SHA256_DIGEST_SIZE);
	sha256_update(&c, digest, SHA256_DIGEST_SIZE);
	sha256_final(&c, pcr);
}

/* An event: the digest of the data is extended. */
static void
extend_data(uint8_t pcr[SHA256_DIGEST_SIZE], const void *data, size_t n)
{
	uint8_t digest[SHA256_DIGEST_SIZE];

	sha256(data, n, digest);
	extend(pcr, digest);
}

void
sbat_uki_policy_digest(const uint8_t pcr11[SBAT_UKI_DIGEST_SIZE], uint8_t out[SBAT_UKI_DIGEST_SIZE])
{
	/*
	 * TPM 2.0 Part 3, TPM2_PolicyPCR: policyDigest' = H(policyDigest ||
	 * TPM_CC_PolicyPCR || TPML_PCR_SELECTION || H(PCR values)), here from
	 * an empty digest, for one selection (count 1) of PCR 11 (a 3-byte
	 * bitmap, bit 11 set) in the SHA-256 bank (TPM_ALG_SHA256, 0x000b).
	 */
	static const uint8_t cc_and_selection[] = { 0x00, 0x00, 0x01, 0x7f, 0x00, 0x00, 0x00,
		                                    0x01, 0x00, 0x0b, 0x03, 0x00, 0x08, 0x00 };
	static const uint8_t empty[SHA256_DIGEST_SIZE];
	uint8_t values[SHA256_DIGEST_SIZE];
	struct sha256_ctx c;

	sha256(pcr11, SBAT_UKI_DIGEST_SIZE, values);
	sha256_init(&c);
	sha256_update(&c, empty, sizeof(empty));
	sha256_update(&c, cc_and_selection, sizeof(cc_and_selection));
	sha256_update(&c, values, sizeof(values));
	sha256_final(&c, out);
}

/* The pieces of measured section i into seg; *ret_n of them. */
static sbat_err
section_pieces(const sbat_uki *uki, unsigned i, int fd, hashpass_seg seg[MEASURE_MAX_PIECES], size_t *ret_n,
               sbat_diag *d)
{
	const uki_sec *s = &uki->sec[i];
	uint64_t loaded = s->raw_size < s->virtual_size ? s->raw_size : s->virtual_size;
	uint64_t have;
	size_t n = 0;

	/* what no loader maps, or a hostile gap of zeros, is not hashed */
	if ((uint64_t)s->virtual_address + s->virtual_size > uki->size_of_image)
		return diag_fail_at(d, SBAT_E_UKI, "a measured section runs past SizeOfImage: no loader maps it",
		                    s->header_offset + SH_VIRTUAL_SIZE);
	if (s->virtual_size - loaded > UKI_ZERO_TAIL_MAX)
		return diag_fail_at(d, SBAT_E_UKI,
		                    "a measured section's VirtualSize exceeds its raw data by more than 16 MiB",
		                    s->header_offset + SH_VIRTUAL_SIZE);
	if (s->mem) {
		have = loaded < s->mem_len ? loaded : s->mem_len;
		seg[n++] = (hashpass_seg){ HASHPASS_MEM, 0, have, s->mem };
		seg[n++] = (hashpass_seg){ HASHPASS_ZEROS, 0, loaded - have, NULL };
	} else {
		if (fd < 0 && (s->raw_offset > uki->len || loaded > uki->len - s->raw_offset))
			return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "section data runs past the end of the file",
			                    s->raw_offset);
		seg[n++] = (hashpass_seg){ HASHPASS_FILE, s->raw_offset, loaded, NULL };
	}
	seg[n++] = (hashpass_seg){ HASHPASS_ZEROS, 0, s->virtual_size - loaded, NULL };
	*ret_n = n;
	return SBAT_OK;
}

sbat_err
measure_streams(const sbat_uki *uki, int fd, hashpass_stream *st, measure_pieces *seg, sbat_diag *d)
{
	unsigned i;
	sbat_err err;

	memset(st, 0, uki->n * sizeof(*st));
	for (i = 0; i < uki->n; i++) {
		st[i].seg = seg[i];
		if (!uki_section_measured(uki, i))
			continue;
		err = section_pieces(uki, i, fd, seg[i], &st[i].n_seg, d);
		if (err)
			return err;
	}
	return SBAT_OK;
}

/* One alternative of one profile: the stub's events in its order, then the phase words. */
static void
chain(sbat_uki *uki, unsigned p, unsigned a, uint8_t (*digest)[SHA256_DIGEST_SIZE])
{
	uint8_t pcr[SHA256_DIGEST_SIZE];
	uint8_t(*out)[SBAT_UKI_DIGEST_SIZE] = uki->pcr[uki->sel[p].alt0 + a];
	unsigned k, i;

	memset(pcr, 0, sizeof(pcr));
	for (k = 0; k < UKI_KIND_MAX; k++) {
		int s = k == UKI_DTBAUTO ? uki_alt_section(uki, p, a, 0) :
		        k == UKI_EFIFW   ? uki_alt_section(uki, p, a, 1) :
		                           uki_measured_as(uki, p, k);
		const char *name = uki_kind_name(k);

		if (s < 0)
			continue;
		/* the name with its NUL, then the contents */
		extend_data(pcr, name, strlen(name) + 1);
		extend(pcr, digest[s]);
	}
	memcpy(out[0], pcr, sizeof(pcr));
	for (i = 1; i < SBAT_UKI_PHASES; i++) {
		extend_data(pcr, phase_words[i], strlen(phase_words[i]));
		memcpy(out[i], pcr, sizeof(pcr));
	}
}

sbat_err
measure_finish(sbat_uki *uki, hashpass_stream *st, sbat_diag *d)
{
	uint8_t(*digest)[SHA256_DIGEST_SIZE] = calloc(SBAT_PE_MAX_SECTIONS + 1, sizeof(*digest));
	unsigned i, p, a;

	if (!digest)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	for (i = 0; i < uki->n; i++)
		if (uki_section_measured(uki, i))
			sha256_final(&st[i].ctx, digest[i]);
	for (p = 0; p < (uki->n_profiles ? uki->n_profiles : 1); p++)
		for (a = 0; a < uki_alt_count(uki, p); a++)
			chain(uki, p, a, digest);
	uki->predicted = 1;
	free(digest);
	return SBAT_OK;
}

sbat_err
sbat_uki_predict(sbat_uki *uki, int fd, sbat_diag *d)
{
	hashpass_stream *st = calloc(uki->n + 1, sizeof(*st));
	measure_pieces *seg = calloc(uki->n + 1, sizeof(*seg));
	sbat_err err;

	if (!st || !seg)
		err = diag_fail(d, SBAT_E_NOMEM, "out of memory");
	else
		err = measure_streams(uki, fd, st, seg, d);
	if (!err)
		err = hashpass_run(st, uki->n, fd, uki->buf, uki->len, d);
	if (!err)
		err = measure_finish(uki, st, d);
	free(st);
	free(seg);
	return err;
}
