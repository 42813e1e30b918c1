/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint_uki.c - a UKI's rules: its signed PCR 11 policy, its profiles, and its .sbat as ukify makes it */
#include <stdlib.h>
#include <string.h>

#include "sbat/csv.h"
#include "sbat/uki.h"

#include "pe/layout.h"
#include "uki/lint_uki.h"
#include "uki/uki_model.h"

typedef struct ulint {
	sbat_uki *uki;
	const sbat_pe *pe;
	uki_report_fn fn;
	void *ctx;
} ulint;

static void
say(ulint *l, sbat_lint_severity severity, const char *rule, const char *what, int section, uint64_t offset)
{
	/* the .sbat rules concern whoever reads .sbat; the others the TPM unlock */
	unsigned who = strncmp(rule, "uki-sbat-", 9) == 0 ? SBAT_LOADER_SHIM : SBAT_LOADER_TPM;

	l->fn(l->ctx, severity, rule, what, section, offset, who);
}

/* Section i's loaded bytes in the input (min(raw, VirtualSize)), or NULL. */
static const uint8_t *
bytes_of(const sbat_uki *uki, int i, size_t *ret_len)
{
	const uki_sec *s = &uki->sec[i];
	uint64_t n = s->raw_size < s->virtual_size ? s->raw_size : s->virtual_size;

	if (s->raw_offset > uki->len || n > uki->len - s->raw_offset)
		return NULL;
	*ret_len = (size_t)n;
	return uki->buf + s->raw_offset;
}

/* 1 if .pcrsig signs a value of profile p on some machine: whatever .dtbauto and .efifw it selects. */
static int
signs_this_image(const sbat_uki *uki, unsigned p, const uki_pcrsig *sig)
{
	unsigned a;

	for (a = 0; a < uki_alt_count(uki, p); a++)
		if (coverage_alt_signed(uki, p, a, sig))
			return 1;
	return 0;
}

/* 1 if sig has an entry of the SHA-256 bank for PCR 11 alone. */
static int
has_pcr11_entry(const uki_pcrsig *sig)
{
	unsigned i;

	for (i = 0; i < sig->n; i++)
		if (strcmp(sig->e[i].bank, "sha256") == 0 && sig->e[i].pcr_mask == 1u << 11)
			return 1;
	return 0;
}

/*
 * The alternatives of profile p in which the machine selects a section and
 * that sig does not sign: one warning per section that decides them (the
 * .efifw, else the .dtbauto), at the .hwids entry that selects it.
 */
static void
lint_uncovered(ulint *l, unsigned p, const uki_pcrsig *sig)
{
	const uki_sel *sel = &l->uki->sel[p];
	uint8_t told[SBAT_PE_MAX_SECTIONS + 1];
	unsigned a, j;
	int c, s;

	memset(told, 0, sizeof(told));
	for (a = 0; a < uki_alt_count(l->uki, p); a++) {
		for (j = UKI_MACHINE_KINDS, c = -1; c < 0 && j-- > 0;)
			c = uki_alt_candidate(l->uki, p, a, j);
		if (c < 0 || told[s = sel->cand[j][c]] || coverage_alt_signed(l->uki, p, a, sig))
			continue;
		told[s] = 1;
		say(l, SBAT_LINT_WARNING, "uki-pcrsig-uncovered",
		    sel->cand_hwid_offset[j][c] != l->uki->sec[s].header_offset ?
		        "on a machine whose hardware IDs match the .hwids entry at this offset, systemd-stub measures "
		        "this section into PCR 11 and .pcrsig signs no value of that boot (ukify signs none with an "
		        ".efifw): secrets sealed to the signed policy do not unlock there" :
		        "on a machine whose firmware's device tree has this .dtbauto's compatible, systemd-stub "
		        "measures it into PCR 11 and .pcrsig signs no value of that boot: secrets sealed to the "
		        "signed policy do not unlock there",
		    s, sel->cand_hwid_offset[j][c]);
	}
}

/* The .pcrsig profile p boots with: parses, signs PCR 11, signs this image's values, and every boot's that selects. */
static void
lint_pcrsig(ulint *l, unsigned p, int predicted)
{
	const sbat_uki *uki = l->uki;
	int s = uki->sel[p].sec[UKI_PCRSIG];
	uki_pcrsig *sig;
	sbat_diag d;
	size_t n;
	const uint8_t *data;

	if (s < 0 || (p > 0 && s == uki->sel[p - 1].sec[UKI_PCRSIG]))
		return;
	data = bytes_of(uki, s, &n);
	sig = malloc(sizeof(*sig));
	if (!data || !sig) {
		free(sig);
		return;
	}
	if (pcrsig_json_parse(data, n, sig, &d) != SBAT_OK)
		say(l, SBAT_LINT_WARNING, "uki-pcrsig-malformed",
		    ".pcrsig is not the JSON systemd-measure writes; systemd cannot read the signed PCR 11 policy", s,
		    uki->sec[s].raw_offset + d.offset);
	else if (!has_pcr11_entry(sig))
		say(l, SBAT_LINT_WARNING, "uki-pcrsig-no-pcr11", ".pcrsig holds no SHA-256 signature for PCR 11", s,
		    uki->sec[s].raw_offset);
	else if (predicted && !signs_this_image(uki, p, sig))
		say(l, SBAT_LINT_WARNING, "uki-pcrsig-stale",
		    ".pcrsig signs no PCR 11 value this image produces (stub or a default boot phase, with any "
		    ".dtbauto or .efifw the machine may select): the signed policy no longer matches and "
		    "TPM-sealed secrets bound to it will not unlock",
		    s, uki->sec[s].raw_offset);
	else if (predicted)
		lint_uncovered(l, p, sig);
	free(sig);
}

/* A .profile is os-release style: KEY=VALUE lines; NULs only as padding at the end. */
static void
lint_profile(ulint *l, unsigned i)
{
	size_t n, pos = 0;
	const uint8_t *p = bytes_of(l->uki, (int)i, &n);

	if (!p)
		return;
	while (n > 0 && p[n - 1] == '\0')
		n--;
	while (pos < n) {
		size_t end = pos, k = pos;

		while (end < n && p[end] != '\n')
			end++;
		while (k < end && ((p[k] >= 'A' && p[k] <= 'Z') || (p[k] >= '0' && p[k] <= '9') || p[k] == '_'))
			k++;
		if (end > pos && p[pos] != '#' &&
		    (k == pos || k == end || p[k] != '=' || memchr(p + pos, 0, end - pos))) {
			say(l, SBAT_LINT_WARNING, "uki-profile-malformed",
			    "a .profile line is not KEY=VALUE (the stub and the boot menu read ID= and TITLE= from it)",
			    (int)i, l->uki->sec[i].raw_offset + pos);
			return;
		}
		pos = end + 1;
	}
}

static void
lint_signature(ulint *l)
{
	const sbat_uki *uki = l->uki;
	unsigned p, i;
	int predicted, has_sig = 0, has_key = 0;
	sbat_diag d;

	for (i = 0; i < uki->n; i++) {
		has_sig |= memcmp(uki->sec[i].name, ".pcrsig", 8) == 0;
		has_key |= memcmp(uki->sec[i].name, ".pcrpkey", 8) == 0;
		if (memcmp(uki->sec[i].name, ".profile", 8) == 0)
			lint_profile(l, i);
	}
	if (!has_sig)
		return;
	if (!has_key)
		say(l, SBAT_LINT_WARNING, "uki-pcrsig-without-pcrpkey",
		    ".pcrsig without .pcrpkey: the stub passes no public key to check the signed PCR 11 policy with",
		    -1, l->pe->section_table_offset);
	predicted = sbat_uki_predict(l->uki, -1, &d) == SBAT_OK;
	if (!predicted)
		say(l, SBAT_LINT_WARNING, "uki-pcr11-unpredictable", d.what, -1, d.offset);
	for (p = 0; p < (uki->n_profiles ? uki->n_profiles : 1); p++)
		lint_pcrsig(l, p, predicted);
}

/* The order ukify merges .sbat rows in: the stub's, then the kernel's, then the UKI's own. */
enum row_class { ROW_STUB, ROW_KERNEL, ROW_OWN };

/* The component names of the kernel's own .sbat (in .linux), newline-separated, into names. */
static void
kernel_components(const sbat_uki *uki, char *names, size_t size)
{
	sbat_pe *inner = malloc(sizeof(*inner));
	const uint8_t *p, *text;
	size_t n, tn, out = 0, i = 0;
	int s = uki->sel[0].sec[UKI_LINUX];

	names[0] = '\0';
	if (!inner || s < 0 || !(p = bytes_of(uki, s, &n)) || pe_parse(p, n, inner, NULL) != SBAT_OK ||
	    pe_sbat_data(inner, p, n, &text, &tn, NULL) != SBAT_OK) {
		free(inner);
		return;
	}
	while (i < tn && out + 2 < size) {
		size_t start = i;

		while (i < tn && text[i] != '\n')
			i++;
		while (start < i && text[start] != ',' && out + 2 < size)
			names[out++] = (char)text[start++];
		names[out++] = '\n';
		i++;
	}
	names[out] = '\0';
	free(inner);
}

static enum row_class
classify(const uint8_t *line, size_t comp_len, const char *kernel)
{
	const char *k = kernel;

	if ((comp_len == 12 || (comp_len > 12 && line[12] == '.')) && memcmp(line, "systemd-stub", 12) == 0)
		return ROW_STUB;
	while (*k) {
		const char *e = strchr(k, '\n');

		if ((size_t)(e - k) == comp_len && memcmp(k, line, comp_len) == 0)
			return ROW_KERNEL;
		k = e + 1;
	}
	return ROW_OWN;
}

/* Rows out of ukify's order, and whitespace that readers trip over. */
static void
lint_sbat_lines(ulint *l, int s, const uint8_t *t, size_t n)
{
	char *kernel = malloc(4096);
	enum row_class last = ROW_STUB;
	size_t pos = 0;
	int order_told = 0, space_told = 0;

	if (!kernel)
		return;
	kernel_components(l->uki, kernel, 4096);
	while (pos < n) {
		size_t end = pos, comp = 0;

		while (end < n && t[end] != '\n')
			end++;
		while (pos + comp < end && t[pos + comp] != ',')
			comp++;
		if (!space_told && (end == pos || memchr(t + pos, '\r', end - pos) || t[pos] == ' ' || t[pos] == '\t' ||
		                    t[end - 1] == ' ' || t[end - 1] == '\t')) {
			say(l, SBAT_LINT_WARNING, "uki-sbat-whitespace",
			    "a .sbat line is empty or has a carriage return or blanks at its ends; parsers of UKI "
			    ".sbat (ukify merging it, systemd, shim) do not all read it alike",
			    s, l->uki->sec[s].raw_offset + pos);
			space_told = 1;
		}
		if (pos > 0 && end > pos && !(comp == 4 && memcmp(t + pos, "sbat", 4) == 0)) {
			enum row_class c = classify(t + pos, comp, kernel);

			if (c < last && !order_told) {
				say(l, SBAT_LINT_WARNING, "uki-sbat-order",
				    ".sbat rows are not in the order ukify writes them (systemd-stub's, then the "
				    "kernel's, then the UKI's own)",
				    s, l->uki->sec[s].raw_offset + pos);
				order_told = 1;
			}
			last = c > last ? c : last;
		}
		pos = end + 1;
	}
	free(kernel);
}

static void
lint_uki_sbat(ulint *l)
{
	const sbat_uki *uki = l->uki;
	int s = uki->sel[0].sec[UKI_SBAT];
	const uki_sec *sec;
	const uint8_t *raw, *nul;
	size_t i, n;

	if (s < 0)
		return;
	sec = &uki->sec[s];
	if (sec->raw_offset > uki->len || sec->raw_size > uki->len - sec->raw_offset)
		return;
	raw = uki->buf + sec->raw_offset;
	n = sec->raw_size;
	nul = memchr(raw, '\0', n);
	if (nul) {
		for (i = (size_t)(nul - raw); i < n && raw[i] == '\0'; i++)
			;
		if (i < n)
			say(l, SBAT_LINT_WARNING, "uki-sbat-nul-inside",
			    ".sbat has text after a NUL byte: shim stops at the first NUL, so the rows after it "
			    "are never checked (a kernel .sbat merged with its padding)",
			    s, sec->raw_offset + (uint64_t)(nul - raw));
		n = (size_t)(nul - raw);
	}
	lint_sbat_lines(l, s, raw, n);
}

/*
 * A stub with profiles (257+) gives the sections after a .profile to that
 * profile: a .sbat there is measured only when that profile boots. Told
 * for the TPM unlock: shim finds the section by name wherever it is.
 */
static void
lint_sbat_in_profile(ulint *l)
{
	const sbat_uki *uki = l->uki;
	int profile = 0;
	unsigned i;

	if (uki->n_profiles == 0)
		return;
	for (i = 0; i < uki->n; i++) {
		if (memcmp(uki->sec[i].name, ".profile", 8) == 0)
			profile = 1;
		else if (profile && memcmp(uki->sec[i].name, SBAT_SECTION_NAME_FIELD, SBAT_SECTION_NAME_SIZE) == 0) {
			l->fn(
			    l->ctx, SBAT_LINT_WARNING, "uki-sbat-in-profile",
			    ".sbat follows a .profile section, so it belongs to that profile alone: systemd-stub 257 "
			    "and later measure it into PCR 11 only when that profile boots (ukify places .sbat before "
			    "the first .profile)",
			    (int)i, uki->sec[i].header_offset, SBAT_LOADER_TPM);
			return;
		}
	}
}

/* Section i's .sbat text up to its first NUL, or NULL. */
static const uint8_t *
sbat_text(const sbat_uki *uki, unsigned i, size_t *ret_len)
{
	const uint8_t *t = bytes_of(uki, (int)i, ret_len), *nul;

	if (t && (nul = memchr(t, '\0', *ret_len)))
		*ret_len = (size_t)(nul - t);
	return t;
}

/* 1 if the rows t[0..n) have one whose component is comp[0..len). */
static int
has_component(const uint8_t *t, size_t n, const uint8_t *comp, size_t len)
{
	size_t pos = 0;

	while (pos < n) {
		const uint8_t *line = t + pos, *end = memchr(line, '\n', n - pos);
		size_t ll = end ? (size_t)(end - line) : n - pos;

		if (ll > len && line[len] == ',' && memcmp(line, comp, len) == 0)
			return 1;
		pos += ll + 1;
	}
	return 0;
}

/* 1 if the rows t[0..n) have every systemd-stub row of base[0..bn) (systemd-stub itself at least). */
static int
has_stub_rows(const uint8_t *t, size_t n, const uint8_t *base, size_t bn)
{
	size_t pos = 0;

	if (!has_component(t, n, (const uint8_t *)"systemd-stub", 12))
		return 0;
	while (pos < bn) {
		const uint8_t *line = base + pos, *end = memchr(line, '\n', bn - pos), *comma;
		size_t ll = end ? (size_t)(end - line) : bn - pos;

		comma = memchr(line, ',', ll);
		if (comma && ll > 13 && memcmp(line, "systemd-stub.", 13) == 0 &&
		    !has_component(t, n, line, (size_t)(comma - line)))
			return 0;
		pos += ll + 1;
	}
	return 1;
}

/*
 * systemd-stub's own rows (systemd-stub, systemd-stub.VENDOR), which ukify
 * merges into the UKI's .sbat: missing from the base .sbat, or from a
 * profile's, which the stub (257+) takes in place of the base's when that
 * profile boots (ukify 262 copies a profile's .sbat when it joins profiles).
 */
static void
lint_stub_rows(ulint *l)
{
	const sbat_uki *uki = l->uki;
	const uint8_t *base = NULL, *t;
	size_t bn = 0, n;
	unsigned i;
	int profile = 0;

	for (i = 0; i < uki->n; i++) {
		if (memcmp(uki->sec[i].name, ".profile", 8) == 0 && uki->n_profiles)
			profile = 1;
		if (memcmp(uki->sec[i].name, SBAT_SECTION_NAME_FIELD, SBAT_SECTION_NAME_SIZE) != 0 ||
		    !(t = sbat_text(uki, i, &n)) || (base && !profile))
			continue;
		if (!base && !profile) {
			base = t;
			bn = n;
		}
		if (!has_stub_rows(t, n, base ? base : t, base ? bn : n))
			say(l, SBAT_LINT_WARNING, "uki-sbat-stub-rows",
			    t == base ? "the UKI's .sbat lacks systemd-stub's own rows (systemd-stub, and its "
			                "vendor's systemd-stub.VENDOR), which ukify merges in: revoking this "
			                "systemd-stub by SBAT does not reach this image" :
			                "a profile's .sbat lacks systemd-stub's own rows that the base .sbat has "
			                "(systemd-stub, systemd-stub.VENDOR): the stub takes it in place of the base "
			                "one when that profile boots (ukify copies a profile's .sbat when it joins "
			                "profiles)",
			    (int)i, uki->sec[i].raw_offset);
	}
}

void
lint_uki(const sbat_pe *pe, const uint8_t *buf, size_t len, uki_report_fn fn, void *ctx)
{
	sbat_uki *uki = calloc(1, sizeof(*uki));
	ulint l;

	if (!uki)
		return;
	if (uki_from_pe(uki, pe, buf, len) == 1) {
		l.uki = uki;
		l.pe = pe;
		l.fn = fn;
		l.ctx = ctx;
		lint_signature(&l);
		lint_uki_sbat(&l);
		lint_sbat_in_profile(&l);
		lint_stub_rows(&l);
	}
	sbat_uki_free(uki);
}
