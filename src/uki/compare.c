/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* compare.c - does an edit change what the stub measures into PCR 11? */
#include <string.h>

#include "uki/uki_model.h"

/* Section i's loaded bytes (min(raw, VirtualSize), as far as they exist), or NULL when out of the buffer. */
static const uint8_t *
loaded(const sbat_uki *uki, unsigned i, uint64_t *ret_len)
{
	const uki_sec *s = &uki->sec[i];
	uint64_t n = s->raw_size < s->virtual_size ? s->raw_size : s->virtual_size;

	if (s->mem) {
		*ret_len = n < s->mem_len ? n : s->mem_len;
		return s->mem;
	}
	if (s->raw_offset > uki->len || n > uki->len - s->raw_offset)
		return NULL;
	*ret_len = n;
	return uki->buf + s->raw_offset;
}

static int
all_zero(const uint8_t *p, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/*
 * 1 if section a of `x` and section b of `y` measure the same bytes: the
 * same VirtualSize, and loaded bytes that agree where both have some and
 * are zero where only one has (the loader zero-fills past the raw data).
 */
static int
same_bytes(const sbat_uki *x, unsigned a, const sbat_uki *y, unsigned b)
{
	uint64_t na, nb, common;
	const uint8_t *pa, *pb;

	if (x->sec[a].virtual_size != y->sec[b].virtual_size)
		return 0;
	pa = loaded(x, a, &na);
	pb = loaded(y, b, &nb);
	if (!pa || !pb)
		return 0;
	common = na < nb ? na : nb;
	if (memcmp(pa, pb, (size_t)common) != 0)
		return 0;
	return na > nb ? all_zero(pa + common, na - common) : all_zero(pb + common, nb - common);
}

/* 1 if section a of `before` and b of `after` are the same input section, unchanged. */
static int
same_section(const sbat_uki *before, unsigned a, const sbat_uki *after, unsigned b)
{
	const uki_sec *s = &before->sec[a], *t = &after->sec[b];

	return !t->mem && t->origin == (int)a && !s->mem && t->raw_offset == s->raw_offset &&
	       t->raw_size == s->raw_size && t->virtual_size == s->virtual_size;
}

/* 1 if section a of `before` and b of `after` (-1: none) measure alike: both none, or the same bytes. */
static int
same_measured(const sbat_uki *before, int a, const sbat_uki *after, int b)
{
	if (a < 0 || b < 0)
		return a < 0 && b < 0;
	return same_section(before, (unsigned)a, after, (unsigned)b) ||
	       same_bytes(before, (unsigned)a, after, (unsigned)b);
}

static int
differs(const sbat_uki *after, unsigned k, int a, int b, unsigned *ret_kind, int *ret_before_sec)
{
	*ret_kind = k;
	*ret_before_sec = a >= 0 ? a : b >= 0 ? after->sec[b].origin : -1;
	return 1;
}

/* Profile p's candidates of the machine's kinds: the same number, each measuring alike. */
static int
candidates_change(const sbat_uki *before, const sbat_uki *after, unsigned p, unsigned *ret_kind, int *ret_before_sec)
{
	const uki_sel *x = &before->sel[p], *y = &after->sel[p];
	unsigned j, c;

	for (j = 0; j < UKI_MACHINE_KINDS; j++) {
		for (c = 0; c < x->n_cand[j] || c < y->n_cand[j]; c++) {
			int a = c < x->n_cand[j] ? x->cand[j][c] : -1, b = c < y->n_cand[j] ? y->cand[j][c] : -1;

			if (!same_measured(before, a, after, b))
				return differs(after, uki_machine_kind(j), a, b, ret_kind, ret_before_sec);
		}
	}
	return 0;
}

int
compare_pcr11_changes(const sbat_uki *before, const sbat_uki *after, unsigned *ret_kind, int *ret_before_sec)
{
	unsigned p, k, n = before->n_profiles ? before->n_profiles : 1;

	*ret_kind = UKI_SBAT;
	*ret_before_sec = -1;
	if (before->n_profiles != after->n_profiles || before->major != after->major)
		return 1;
	for (p = 0; p < n; p++) {
		for (k = 0; k < UKI_KIND_MAX; k++) {
			int a = uki_measured_as(before, p, k), b = uki_measured_as(after, p, k);

			if (!same_measured(before, a, after, b))
				return differs(after, k, a, b, ret_kind, ret_before_sec);
		}
		if (candidates_change(before, after, p, ret_kind, ret_before_sec))
			return 1;
	}
	return 0;
}
