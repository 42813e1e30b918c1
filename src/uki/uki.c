/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* uki.c - is this a UKI, which stub, and which sections that stub measures into PCR 11 */
#include <stdlib.h>
#include <string.h>

#include "sbat/uki.h"

#include "util/diag.h"
#include "pe/image_internal.h"
#include "uki/hwids.h"
#include "uki/uki_model.h"

static const char *const kind_names[UKI_KIND_MAX] = {
	[UKI_LINUX] = ".linux",     [UKI_OSREL] = ".osrel",   [UKI_CMDLINE] = ".cmdline", [UKI_INITRD] = ".initrd",
	[UKI_UCODE] = ".ucode",     [UKI_SPLASH] = ".splash", [UKI_DTB] = ".dtb",         [UKI_UNAME] = ".uname",
	[UKI_SBAT] = ".sbat",       [UKI_PCRSIG] = ".pcrsig", [UKI_PCRPKEY] = ".pcrpkey", [UKI_PROFILE] = ".profile",
	[UKI_DTBAUTO] = ".dtbauto", [UKI_HWIDS] = ".hwids",   [UKI_EFIFW] = ".efifw",
};

const char *
uki_kind_name(unsigned kind)
{
	return kind < UKI_KIND_MAX ? kind_names[kind] : NULL;
}

#define BIT(k) (1u << (k))

/*
 * systemd-stub by release: one row per release that changed which sections
 * the stub looks for or how (systemd's UnifiedSection list and its pe.c,
 * tag by tag); each row adds to the ones before it. A new release that
 * changes them is one row here.
 */
#define NAMES_EXACT 1u   /* the 8-byte name equals the kind's; before: the name starts with it */
#define FIRST_WINS 2u    /* the first match in the table counts; before: the last one */
#define WITH_PROFILES 4u /* .profile sections split the table into profiles */

static const struct stub_release {
	unsigned major;
	uint32_t adds;  /* the uki_kind bits it looks for that the release before did not */
	unsigned flags; /* NAMES_EXACT, ... from this release on */
} stub_releases[] = {
	/* 252 and 253: .pcrsig found but not measured */
	{ 252,
	  BIT(UKI_LINUX) | BIT(UKI_OSREL) | BIT(UKI_CMDLINE) | BIT(UKI_INITRD) | BIT(UKI_SPLASH) | BIT(UKI_DTB) |
	      BIT(UKI_PCRSIG) | BIT(UKI_PCRPKEY),
	  0 },
	{ 254, BIT(UKI_UNAME) | BIT(UKI_SBAT), 0 },
	{ 256, BIT(UKI_UCODE), NAMES_EXACT | FIRST_WINS },
	{ 257, BIT(UKI_PROFILE) | BIT(UKI_DTBAUTO) | BIT(UKI_HWIDS), WITH_PROFILES },
	{ 258, BIT(UKI_EFIFW), 0 },
};

uki_rules
uki_rules_for(unsigned major)
{
	unsigned flags = 0;
	uki_rules r;
	size_t i;

	r.known = 0;
	if (major == 0)
		major = UINT32_MAX; /* unknown: the newest rules */
	for (i = 0; i < sizeof(stub_releases) / sizeof(stub_releases[0]); i++) {
		if (i > 0 && major < stub_releases[i].major)
			break; /* the oldest row applies to any release */
		r.known |= stub_releases[i].adds;
		flags |= stub_releases[i].flags;
	}
	r.exact_names = (flags & NAMES_EXACT) != 0;
	r.first_wins = (flags & FIRST_WINS) != 0;
	r.profiles = (flags & WITH_PROFILES) != 0;
	return r;
}

/* 1 if the 8-byte name field equals name (up to a NUL, as the stub compares since 256). */
static int
name_equal(const uint8_t field[8], const char *name)
{
	size_t i;

	for (i = 0; i < 8; i++) {
		if (field[i] != (uint8_t)name[i])
			return 0;
		if (name[i] == '\0')
			return 1;
	}
	return 1;
}

/* 1 if the name field starts with name (the stub's comparison before 256). */
static int
name_prefix(const uint8_t field[8], const char *name)
{
	size_t n = strlen(name);

	return n <= 8 && memcmp(field, name, n) == 0;
}

static int
matches(const uki_rules *r, const uint8_t field[8], unsigned kind)
{
	return r->exact_names ? name_equal(field, kind_names[kind]) : name_prefix(field, kind_names[kind]);
}

/*
 * Select among sections [lo, hi) the one the stub takes for each known
 * kind, overriding what *sel holds for every kind found there. The kinds
 * the machine selects are left out (see add_candidates).
 */
static void
select_range(const sbat_uki *uki, unsigned lo, unsigned hi, uki_sel *sel)
{
	unsigned k, i;

	for (k = 0; k < UKI_KIND_MAX; k++) {
		if (!(uki->rules.known & BIT(k)) || k == UKI_DTBAUTO || k == UKI_EFIFW)
			continue;
		for (i = lo; i < hi; i++) {
			if (!matches(&uki->rules, uki->sec[i].name, k))
				continue;
			sel->sec[k] = (int16_t)i;
			if (uki->rules.first_wins)
				break;
		}
	}
}

/* The name the stub matches section i by as machine kind j (a device tree's compatible, a firmware id), or NULL. */
static const char *
blob_key(const sbat_uki *uki, unsigned i, unsigned j)
{
	size_t n;
	const uint8_t *p = uki_loaded_bytes(uki, i, &n);

	if (!p || uki->sec[i].virtual_size == 0)
		return NULL;
	return j == 0 ? hwids_dtb_compatible(p, n) : hwids_efifw_id(p, n);
}

/* The entries of the first .hwids of [lo, hi) (0: none the stub can use), and their base offset in the file. */
static unsigned
range_hwids(const sbat_uki *uki, unsigned lo, unsigned hi, hwids_entry *e, uint64_t *ret_base)
{
	unsigned i;
	size_t n;
	const uint8_t *p;

	for (i = lo; i < hi; i++) {
		if (!name_equal(uki->sec[i].name, ".hwids"))
			continue;
		*ret_base = uki->sec[i].raw_offset;
		p = uki_loaded_bytes(uki, i, &n);
		return p ? hwids_parse(p, n, e, HWIDS_MAX) : 0;
	}
	return 0;
}

/* The first entry of e[0..n) the machine can match that names key for machine kind j, or -1. */
static int
entry_for(const hwids_entry *e, unsigned n, unsigned j, const char *key)
{
	unsigned k, type = j == 0 ? HWIDS_DEVICETREE : HWIDS_UEFI_FW;

	for (k = 0; k < n; k++)
		if (e[k].type == type && e[k].key && strcmp(e[k].key, key) == 0 && hwids_reachable(e, k))
			return (int)k;
	return -1;
}

/* 1 if a section of [lo, i) is a candidate of kind j with the same key: the stub always takes that one first. */
static int
shadowed(const sbat_uki *uki, const uki_sel *sel, unsigned j, unsigned lo, unsigned i, const char *key)
{
	unsigned c;

	for (c = 0; c < sel->n_cand[j]; c++) {
		unsigned s = (unsigned)sel->cand[j][c];

		if (s >= lo && s < i && strcmp(blob_key(uki, s, j), key) == 0)
			return 1;
	}
	return 0;
}

/*
 * Add the sections of [lo, hi) the machine can select to sel's candidates,
 * in table order (the stub takes the first that matches): a .dtbauto that
 * is a device tree with a compatible no section before it in the range
 * has (any, through the firmware's device tree; a device-tree entry of
 * the range's .hwids may name it), an .efifw whose firmware id no section
 * before it has and a firmware entry of the range's .hwids names.
 */
static void
add_candidates(const sbat_uki *uki, unsigned lo, unsigned hi, uki_sel *sel)
{
	hwids_entry e[HWIDS_MAX];
	uint64_t base = 0;
	unsigned n = range_hwids(uki, lo, hi, e, &base), j, i;

	for (j = 0; j < UKI_MACHINE_KINDS; j++) {
		if (!(uki->rules.known & BIT(uki_machine_kind(j))))
			continue;
		for (i = lo; i < hi && sel->n_cand[j] < SBAT_PE_MAX_SECTIONS + 1; i++) {
			const char *key = name_equal(uki->sec[i].name, kind_names[uki_machine_kind(j)]) ?
			                      blob_key(uki, i, j) :
			                      NULL;
			int k = key ? entry_for(e, n, j, key) : -1;

			if (!key || shadowed(uki, sel, j, lo, i, key) || (j == 1 && k < 0))
				continue;
			sel->cand_hwid[j][sel->n_cand[j]] = k >= 0 ? e[k].name : NULL;
			sel->cand_hwid_offset[j][sel->n_cand[j]] = k >= 0 ? base + e[k].at : uki->sec[i].header_offset;
			sel->cand[j][sel->n_cand[j]++] = (int16_t)i;
		}
	}
}

static void
sel_clear(uki_sel *sel)
{
	unsigned k;

	memset(sel, 0, sizeof(*sel));
	for (k = 0; k < UKI_KIND_MAX; k++)
		sel->sec[k] = -1;
}

/*
 * Profile p's candidates: its own range's (which the stub tries first, as
 * they override the base's), then the base's. A base section with the key
 * of one of the profile's stays a candidate: the profile's may match
 * through neither the firmware's device tree nor a .hwids of its own.
 */
static void
select_candidates(sbat_uki *uki, uki_sel *sel, unsigned base_end, unsigned lo, unsigned hi)
{
	if (lo < hi)
		add_candidates(uki, lo, hi, sel);
	add_candidates(uki, 0, base_end, sel);
	sel->alt0 = uki->n_alt;
	uki->n_alt += uki_alt_count(uki, (unsigned)(sel - uki->sel));
}

/* The table indexes of the .profile sections: the start of each profile's range. */
static unsigned
profile_starts(const sbat_uki *uki, unsigned *starts)
{
	unsigned i, n = 0;

	for (i = 0; i < uki->n; i++)
		if (name_equal(uki->sec[i].name, ".profile"))
			starts[n++] = i;
	return n;
}

/*
 * Every profile's selection (257+): the base sections (before the first
 * .profile), overridden by those of the profile's own range (its .profile
 * up to the next one). Profile 0 is implied when there is no .profile.
 */
static int
select_profiles(sbat_uki *uki)
{
	unsigned starts[SBAT_PE_MAX_SECTIONS + 1], n = 0, p, base_end;

	if (uki->rules.profiles)
		n = profile_starts(uki, starts);
	uki->n_profiles = n;
	uki->n_alt = 0;
	uki->sel = calloc(n ? n : 1, sizeof(*uki->sel));
	if (!uki->sel)
		return -1;
	base_end = n ? starts[0] : uki->n;
	for (p = 0; p < (n ? n : 1); p++) {
		unsigned lo = n ? starts[p] : 0, hi = n ? (p + 1 < n ? starts[p + 1] : uki->n) : 0;

		sel_clear(&uki->sel[p]);
		select_range(uki, 0, base_end, &uki->sel[p]);
		if (n)
			select_range(uki, lo, hi, &uki->sel[p]);
		select_candidates(uki, &uki->sel[p], base_end, lo, hi);
	}
	uki->pcr = calloc(uki->n_alt, sizeof(*uki->pcr));
	return uki->pcr ? 0 : -1;
}

const uint8_t *
uki_loaded_bytes(const sbat_uki *uki, unsigned i, size_t *ret_len)
{
	const uki_sec *s = &uki->sec[i];
	uint64_t n = s->raw_size < s->virtual_size ? s->raw_size : s->virtual_size;

	if (s->mem) {
		*ret_len = n < s->mem_len ? (size_t)n : s->mem_len;
		return s->mem;
	}
	if (s->raw_offset > uki->len || n > uki->len - s->raw_offset) {
		*ret_len = 0;
		return NULL;
	}
	*ret_len = (size_t)n;
	return uki->buf + s->raw_offset;
}

/* The version in ".sdmagic": "#### LoaderInfo: systemd-stub VERSION ####". 1 if it is systemd-stub's. */
static int
read_stub_version(sbat_uki *uki, unsigned i)
{
	static const char magic[] = "#### LoaderInfo: systemd-stub ";
	size_t n, m = sizeof(magic) - 1, v = 0;
	const uint8_t *p = uki_loaded_bytes(uki, i, &n), *at;

	if (!p || n < m || memcmp(p, magic, m) != 0)
		return 0;
	for (at = p + m; at < p + n && v < sizeof(uki->version) - 1 && *at > 0x20 && *at < 0x7f; at++)
		uki->version[v++] = (char)*at;
	uki->version[v] = '\0';
	/* the version ends at " ####"; anything else is not read as one */
	uki->has_version = v > 0 && (size_t)(p + n - at) >= 5 && memcmp(at, " ####", 5) == 0;
	if (!uki->has_version)
		return 1;
	at = (const uint8_t *)uki->version + (uki->version[0] == 'v');
	for (uki->major = 0; *at >= '0' && *at <= '9' && uki->major < 100000; at++)
		uki->major = uki->major * 10 + (unsigned)(*at - '0');
	return 1;
}

int
uki_analyse(sbat_uki *uki)
{
	unsigned i;
	int stub = 0, linux_found = 0;

	for (i = 0; i < uki->n; i++) {
		if (!stub && name_equal(uki->sec[i].name, ".sdmagic"))
			stub = read_stub_version(uki, i);
		if (name_equal(uki->sec[i].name, ".linux"))
			linux_found = 1;
	}
	if (!stub || !linux_found)
		return 0;
	uki->rules = uki_rules_for(uki->major);
	return select_profiles(uki) == 0 ? 1 : -1;
}

void
uki_clear(sbat_uki *uki)
{
	free(uki->sel);
	free(uki->pcr);
	free(uki->owned);
	uki->sel = NULL;
	uki->pcr = NULL;
	uki->owned = NULL;
}

int
uki_from_pe(sbat_uki *uki, const sbat_pe *pe, const uint8_t *buf, size_t len)
{
	unsigned i;

	uki->buf = buf;
	uki->len = len;
	uki->size_of_image = pe->size_of_image;
	uki->n = pe->number_of_sections;
	for (i = 0; i < uki->n; i++) {
		const sbat_pe_section *s = &pe->sections[i];
		uki_sec *u = &uki->sec[i];

		memcpy(u->name, buf + s->header_offset, 8);
		u->virtual_size = s->virtual_size;
		u->virtual_address = s->virtual_address;
		u->raw_size = s->size_of_raw_data;
		u->raw_offset = s->pointer_to_raw_data;
		u->header_offset = s->header_offset;
		u->mem = NULL;
		u->mem_len = 0;
		u->origin = (int)i;
	}
	return uki_analyse(uki);
}

/* The selection of `profile` (-1: the default), or NULL. */
static const uki_sel *
profile_sel(const sbat_uki *uki, int profile)
{
	if (profile < 0)
		return &uki->sel[0];
	if ((unsigned)profile >= (uki->n_profiles ? uki->n_profiles : 1))
		return NULL;
	return &uki->sel[profile];
}

/* The section measured as kind k for this selection, or -1. */
static int
measured_as(const sbat_uki *uki, const uki_sel *sel, unsigned k)
{
	int s = sel->sec[k];

	if (k == UKI_PCRSIG || s < 0 || !(uki->rules.known & BIT(k)))
		return -1;
	return uki->sec[s].virtual_size != 0 ? s : -1;
}

int
uki_measured_as(const sbat_uki *uki, unsigned p, unsigned k)
{
	return p < (uki->n_profiles ? uki->n_profiles : 1) && k < UKI_KIND_MAX ? measured_as(uki, &uki->sel[p], k) : -1;
}

int
uki_section_measured(const sbat_uki *uki, unsigned s)
{
	unsigned p, k, j, c;

	for (p = 0; p < (uki->n_profiles ? uki->n_profiles : 1); p++) {
		for (k = 0; k < UKI_KIND_MAX; k++)
			if (measured_as(uki, &uki->sel[p], k) == (int)s)
				return 1;
		for (j = 0; j < UKI_MACHINE_KINDS; j++)
			for (c = 0; c < uki->sel[p].n_cand[j]; c++)
				if (uki->sel[p].cand[j][c] == (int)s)
					return 1;
	}
	return 0;
}

unsigned
uki_alt_count(const sbat_uki *uki, unsigned p)
{
	const uki_sel *sel = &uki->sel[p];

	return (sel->n_cand[0] + 1u) * (sel->n_cand[1] + 1u);
}

int
uki_alt_candidate(const sbat_uki *uki, unsigned p, unsigned a, unsigned j)
{
	const uki_sel *sel = &uki->sel[p];
	unsigned c = j == 0 ? a % (sel->n_cand[0] + 1u) : a / (sel->n_cand[0] + 1u);

	return j < UKI_MACHINE_KINDS && c > 0 && c <= sel->n_cand[j] ? (int)c - 1 : -1;
}

int
uki_alt_section(const sbat_uki *uki, unsigned p, unsigned a, unsigned j)
{
	int c = uki_alt_candidate(uki, p, a, j);

	return c >= 0 ? uki->sel[p].cand[j][c] : -1;
}

/* The i-th measured kind of the selection, or UKI_KIND_MAX. */
static unsigned
nth_measured(const sbat_uki *uki, const uki_sel *sel, unsigned i)
{
	unsigned k;

	for (k = 0; k < UKI_KIND_MAX; k++)
		if (measured_as(uki, sel, k) >= 0 && i-- == 0)
			return k;
	return UKI_KIND_MAX;
}

sbat_err
sbat_uki_inspect(const sbat_image *img, sbat_uki **ret, sbat_diag *d)
{
	sbat_uki *uki = calloc(1, sizeof(*uki));
	int r;

	*ret = NULL;
	if (!uki)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	r = uki_from_pe(uki, &img->pe, img->buf, img->len);
	if (r <= 0) {
		sbat_uki_free(uki);
		return r < 0 ? diag_fail(d, SBAT_E_NOMEM, "out of memory") : SBAT_OK;
	}
	*ret = uki;
	return SBAT_OK;
}

sbat_uki *
sbat_uki_free(sbat_uki *uki)
{
	if (uki) {
		uki_clear(uki);
		free(uki);
	}
	return NULL;
}

const char *
sbat_uki_stub_version(const sbat_uki *uki)
{
	return uki->has_version ? uki->version : NULL;
}

unsigned
sbat_uki_stub_major(const sbat_uki *uki)
{
	return uki->major;
}

unsigned
sbat_uki_profile_count(const sbat_uki *uki)
{
	return uki->n_profiles;
}

unsigned
sbat_uki_measured_count(const sbat_uki *uki, int profile)
{
	const uki_sel *sel = profile_sel(uki, profile);
	unsigned n = 0;

	while (sel && nth_measured(uki, sel, n) != UKI_KIND_MAX)
		n++;
	return n;
}

const char *
sbat_uki_measured_name(const sbat_uki *uki, int profile, unsigned i)
{
	const uki_sel *sel = profile_sel(uki, profile);

	return sel ? uki_kind_name(nth_measured(uki, sel, i)) : NULL;
}

int
sbat_uki_measured_section(const sbat_uki *uki, int profile, unsigned i)
{
	const uki_sel *sel = profile_sel(uki, profile);
	unsigned k = sel ? nth_measured(uki, sel, i) : UKI_KIND_MAX;

	if (k == UKI_KIND_MAX)
		return -1;
	/* in the input's numbering where the section is the input's */
	return uki->sec[sel->sec[k]].origin >= 0 ? uki->sec[sel->sec[k]].origin : sel->sec[k];
}

unsigned
sbat_uki_pcr11_alternatives(const sbat_uki *uki, int profile)
{
	return profile_sel(uki, profile) ? uki_alt_count(uki, profile < 0 ? 0u : (unsigned)profile) : 0;
}

const uint8_t *
sbat_uki_pcr11_alternative(const sbat_uki *uki, int profile, unsigned alt, unsigned phase)
{
	const uki_sel *sel = profile_sel(uki, profile);

	if (!uki->predicted || phase >= SBAT_UKI_PHASES || !sel || alt >= sbat_uki_pcr11_alternatives(uki, profile))
		return NULL;
	return uki->pcr[sel->alt0 + alt][phase];
}

int
sbat_uki_alternative_section(const sbat_uki *uki, int profile, unsigned alt, const char *name)
{
	unsigned j, p = profile < 0 ? 0u : (unsigned)profile;
	int s;

	if (!name || !profile_sel(uki, profile) || alt >= sbat_uki_pcr11_alternatives(uki, profile))
		return -1;
	for (j = 0; j < UKI_MACHINE_KINDS; j++) {
		if (strcmp(name, kind_names[uki_machine_kind(j)]) != 0)
			continue;
		s = uki_alt_section(uki, p, alt, j);
		/* in the input's numbering where the section is the input's */
		return s >= 0 && uki->sec[s].origin >= 0 ? uki->sec[s].origin : s;
	}
	return -1;
}

const uint8_t *
sbat_uki_pcr11(const sbat_uki *uki, int profile, unsigned phase)
{
	/* where the machine decides, there is no single value */
	if (sbat_uki_pcr11_alternatives(uki, profile) != 1)
		return NULL;
	return sbat_uki_pcr11_alternative(uki, profile, 0, phase);
}
