/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* nextstate.c - read what shim reads at boot and predict the SbatLevel of the next two boots */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sbat/boot.h"
#include "sbat/efivar.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/input.h"
#include "sbat/judge.h"
#include "sbat/level.h"
#include "sbat/nextstate.h"
#include "sbat/partition.h"

#include "boot/shimrelease.h"
#include "file/input.h"
#include "util/diag.h"

/* A variable larger than this is not one shim or the firmware sets. */
#define VAR_MAX_SIZE (SBAT_EFIVAR_ATTRIBUTES_SIZE + SBAT_LEVEL_MAX_SIZE)

/* The public state and what it points to, owned here. */
typedef struct state {
	sbat_next_state pub; /* first: a sbat_next_state * is a state * */
	char *efivarfs, *shim, *revocations, *ignored, *failed;
	char *automatic, *latest, *rev_automatic, *rev_latest;
	uint8_t *current_buf, *shim_buf, *rev_buf;
	sbat_judgement *shim_sbat, *rev_sbat;
} state;

static char *
join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);

	if (p) {
		memcpy(p, dir, a);
		p[a] = '/';
		memcpy(p + a + 1, name, b + 1);
	}
	return p;
}

/* Keep what an error is about; the error itself is returned. */
static sbat_err
failed(state *s, const char *dir, const char *name, sbat_err r)
{
	free(s->failed);
	s->failed = dir ? join(dir, name) : strdup(name);
	return r;
}

/* A one-byte variable (SecureBoot, SetupMode, SbatPolicy): its first data byte, or -1 when absent. */
static sbat_err
read_byte_var(state *s, const char *name, int exact, int *ret, sbat_diag *d)
{
	sbat_err r = sbat_efivar_read_byte(s->efivarfs, name, exact, ret, d);

	if (r != SBAT_OK)
		return failed(s, d->code == SBAT_E_EFIVAR ? NULL : s->efivarfs, name, r);
	return SBAT_OK;
}

/* A parsed level as text: the header, then one "name,generation" row each (what shim's comparison reads). */
static char *
level_text(const sbat_level *l)
{
	size_t i, n = 32, at;
	char *s;

	for (i = 1; i < l->n_entries; i++)
		n += strlen(l->entries[i].component_name) + 8;
	s = malloc(n);
	if (!s)
		return NULL;
	at = (size_t)snprintf(s, n, "sbat,1,%s\n", l->datestamp);
	for (i = 1; i < l->n_entries && at < n; i++)
		at += (size_t)snprintf(s + at, n - at, "%s,%u\n", l->entries[i].component_name,
		                       (unsigned)l->entries[i].generation);
	return s;
}

/*
 * The .sbat of an image as shim reads it (sbat_judge_image): *ret is the
 * judgement, whose csv is NULL when shim reads none. A .sbat shim refuses
 * is an error when strict, and no rows otherwise (shim then refuses the
 * image as it refuses one without a .sbat).
 */
static sbat_err
image_sbat(const sbat_image *img, int strict, sbat_judgement **ret, sbat_diag *d)
{
	sbat_err r = sbat_judge_image(img, NULL, SBAT_JUDGE_SHIM_NOT_ENFORCING, SBAT_JUDGE_STARTED_BY_SHIM, ret, d);

	if (r != SBAT_OK || !strict || (*ret)->csv || (*ret)->sbat_error.code == SBAT_OK)
		return r;
	*d = (*ret)->sbat_error;
	sbat_judgement_free(*ret);
	*ret = NULL;
	return d->code;
}

/* The release shim names, and the rules of the row it follows (the oldest when it is older than all). */
static void
release_rules(state *s, const uint8_t *buf, size_t len)
{
	sbat_next_state *p = &s->pub;
	const shimrelease *row, *rows;
	size_t n;

	if (!shimrelease_version(buf, len, &p->shim_major, &p->shim_minor))
		p->shim_major = p->shim_minor = 0;
	rows = shimrelease_rows(&n);
	row = shimrelease_for(p->shim_major, p->shim_minor);
	p->rules_assumed = !row;
	row = row ? row : &rows[0];
	p->rules_major = row->major;
	p->rules_minor = row->minor;
	p->revocations_name = row->revocations;
}

static sbat_err
load_shim(state *s, sbat_diag *d)
{
	sbat_image *img = NULL;
	sbat_level *a = NULL, *l = NULL;
	size_t len;
	sbat_err r;

	r = sbat_file_read(s->shim, SBAT_FILE_MAX_SIZE, &s->shim_buf, &len, d);
	s->pub.shim_len = r ? 0 : len;
	if (!r)
		release_rules(s, s->shim_buf, len);
	if (!r)
		r = sbat_image_parse(s->shim_buf, len, &img, d);
	if (!r)
		r = sbat_level_from_shim(img, SBAT_LEVEL_AUTOMATIC, &a, d);
	if (!r)
		r = sbat_level_from_shim(img, SBAT_LEVEL_LATEST, &l, d);
	if (!r)
		r = image_sbat(img, 1, &s->shim_sbat, d);
	if (!r) {
		s->automatic = level_text(a);
		s->latest = level_text(l);
		if (!s->automatic || !s->latest)
			r = diag_fail(d, SBAT_E_NOMEM, "out of memory");
	}
	sbat_level_free(a);
	sbat_level_free(l);
	sbat_image_free(img);
	return r ? failed(s, NULL, s->shim, r) : SBAT_OK;
}

/* The C string section `name` of a revocations file holds, checked as an SbatLevel. */
static sbat_err
revocation_payload(state *s, const sbat_image *img, size_t len, const char *name, char **ret, sbat_diag *d)
{
	const sbat_section_info *sec;
	const uint8_t *p, *nul;
	sbat_level *level = NULL;
	int i = sbat_image_find_section(img, name);

	*ret = NULL;
	if (i < 0)
		return SBAT_OK;
	sec = sbat_image_section(img, (unsigned)i);
	p = s->rev_buf + sec->pointer_to_raw_data;
	nul = sec->pointer_to_raw_data < len ? memchr(p, '\0', len - sec->pointer_to_raw_data) : NULL;
	if (!nul)
		return diag_fail_at(d, SBAT_E_LEVEL,
		                    name[5] == 'a' ? ".sbata is not a NUL-terminated string inside the file" :
		                                     ".sbatl is not a NUL-terminated string inside the file",
		                    sec->pointer_to_raw_data);
	if (sbat_level_parse_shim(p, (size_t)(nul - p), &level, d) != SBAT_OK) {
		d->has_offset = 1; /* the line is counted from the section's start */
		d->offset = sec->pointer_to_raw_data;
		return d->code;
	}
	sbat_level_free(level);
	*ret = strdup((const char *)p);
	return *ret ? SBAT_OK : diag_fail(d, SBAT_E_NOMEM, "out of memory");
}

/* The revocations file `file` as named in dir (any case, as FAT; links included, so one named so is reported). */
static char *
find_revocations(const char *dir, const char *file)
{
	char **names = NULL, *found = NULL;
	size_t n_names = 0, i;
	sbat_diag d;

	if (sbat_partition_list(dir, SBAT_PARTITION_LIST_ANY, 65536, &names, &n_names, &d) == SBAT_OK)
		for (i = 0; i < n_names && !found; i++)
			if (strcasecmp(names[i], file) == 0)
				found = strdup(names[i]);
	sbat_partition_names_free(names, n_names);
	return found;
}

/* The old revocations file in dir when shim's release does not read it (revocations_ignored); -1: out of memory. */
static int
find_ignored(state *s, const char *dir, int in_cwd)
{
	char *name;

	if (s->pub.rules_assumed || strcasecmp(s->pub.revocations_name, SHIMRELEASE_OLD_REVOCATIONS) == 0 ||
	    !(name = find_revocations(dir, SHIMRELEASE_OLD_REVOCATIONS)))
		return 0;
	s->ignored = in_cwd ? strdup(name) : join(dir, name);
	s->pub.revocations_ignored = s->ignored;
	free(name);
	return s->ignored ? 0 : -1;
}

/* The revocations file of shim's release in its directory, when there is one: read there, not through a link. */
static sbat_err
load_revocations(state *s, sbat_diag *d)
{
	const char *slash = strrchr(s->shim, '/');
	char *dir = slash ? strndup(s->shim, (size_t)(slash - s->shim) + (slash == s->shim)) : strdup(".");
	char *name = dir ? find_revocations(dir, s->pub.revocations_name) : NULL;
	sbat_image *img = NULL;
	size_t len;
	sbat_err r;

	if (!dir || find_ignored(s, dir, !slash) != 0) {
		free(dir);
		free(name);
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	}
	if (!name) {
		free(dir);
		return SBAT_OK;
	}
	s->revocations = slash ? join(dir, name) : strdup(name);
	s->pub.revocations = s->revocations;
	r = s->revocations ? input_read_beneath(dir, name, SBAT_FILE_MAX_SIZE, &s->rev_buf, &len, d) :
	                     diag_fail(d, SBAT_E_NOMEM, "out of memory");
	free(dir);
	free(name);
	if (r == SBAT_OK)
		r = sbat_image_parse(s->rev_buf, len, &img, d);
	if (r == SBAT_OK)
		r = image_sbat(img, 0, &s->rev_sbat, d);
	if (r == SBAT_OK)
		r = revocation_payload(s, img, len, ".sbata", &s->rev_automatic, d);
	if (r == SBAT_OK)
		r = revocation_payload(s, img, len, ".sbatl", &s->rev_latest, d);
	sbat_image_free(img);
	return r ? failed(s, NULL, s->revocations ? s->revocations : s->pub.revocations_name, r) : SBAT_OK;
}

static sbat_err
load_variables(state *s, sbat_next_inputs *in, sbat_diag *d)
{
	sbat_next_state *p = &s->pub;
	size_t len = 0;
	int policy = -1;
	sbat_err r;

	r = read_byte_var(s, "SecureBoot-" SBAT_EFIVAR_GLOBAL_GUID, 1, &p->secure_boot_var, d);
	if (r == SBAT_OK)
		r = read_byte_var(s, "SetupMode-" SBAT_EFIVAR_GLOBAL_GUID, 1, &p->setup_mode_var, d);
	/* shim reads the first byte of SbatPolicy, whatever its size */
	if (r == SBAT_OK)
		r = read_byte_var(s, SBAT_POLICY_EFIVAR_NAME, 0, &policy, d);
	if (r == SBAT_OK && (r = sbat_efivar_read(s->efivarfs, SBAT_LEVEL_EFIVAR_NAME, VAR_MAX_SIZE, &s->current_buf,
	                                          &len, d)) != SBAT_OK)
		return failed(s, s->efivarfs, SBAT_LEVEL_EFIVAR_NAME, r);
	if (r != SBAT_OK)
		return r;
	in->secure_boot = p->secure_boot_var == 1 && p->setup_mode_var != 1;
	in->policy = policy < 0 ? SBAT_POLICY_ABSENT : policy;
	if (s->current_buf) {
		in->current = s->current_buf + SBAT_EFIVAR_ATTRIBUTES_SIZE;
		in->current_len = len - SBAT_EFIVAR_ATTRIBUTES_SIZE;
	}
	return SBAT_OK;
}

/* The level images are judged by in boot b, parsed. */
static sbat_err
judged_level(state *s, int b, sbat_diag *d)
{
	sbat_next_state *p = &s->pub;
	const sbat_next_boot *boot = &p->boot[b];
	const uint8_t *text = boot->enforced;
	size_t len = boot->enforced_len;

	p->mode[b] = SBAT_NEXT_MODE_ENFORCED;
	if (!p->in[b].secure_boot)
		p->mode[b] = SBAT_NEXT_MODE_NOT_ENFORCED;
	else if (boot->shim_stops)
		p->mode[b] = SBAT_NEXT_MODE_SHIM_STOPS;
	if (p->mode[b] != SBAT_NEXT_MODE_ENFORCED) {
		text = boot->stored;
		len = boot->stored_len;
	}
	if (!text) {
		text = (const uint8_t *)SBAT_LEVEL_ORIGINAL;
		len = strlen(SBAT_LEVEL_ORIGINAL);
	}
	if (sbat_level_parse_shim(text, len, &p->level[b], d) == SBAT_OK)
		return SBAT_OK;
	/* a stored level shim cannot parse stops it (efi_main: import of SBAT data): no rows, nothing judged by it */
	if (p->mode[b] == SBAT_NEXT_MODE_SHIM_STOPS &&
	    sbat_level_parse_shim((const uint8_t *)"\n", 1, &p->level[b], d) == SBAT_OK)
		return SBAT_OK;
	return failed(s, NULL, b ? "SbatLevel after the boot after next" : "SbatLevel after the next boot", d->code);
}

static int
same_text(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	if (!a || !b)
		return a == b;
	return alen == blen && memcmp(a, b, alen) == 0;
}

/* Both boots, from the inputs read: the second starts from what the first stored, without SbatPolicy. */
static sbat_err
predict(state *s, sbat_diag *d)
{
	sbat_next_state *p = &s->pub;
	sbat_err r = SBAT_OK;
	int b;

	for (b = 0; b < 2 && r == SBAT_OK; b++) {
		if (b == 1) {
			p->in[1] = p->in[0];
			p->in[1].policy = SBAT_POLICY_ABSENT;
			p->in[1].current = p->boot[0].stored;
			p->in[1].current_len = p->boot[0].stored_len;
		}
		if ((r = sbat_next_boot_predict(&p->in[b], &p->boot[b], d)) != SBAT_OK)
			return failed(s, NULL, s->shim, r);
		r = judged_level(s, b, d);
	}
	if (r == SBAT_OK)
		p->differ = p->mode[0] != p->mode[1] ||
		            !same_text(p->boot[0].enforced, p->boot[0].enforced_len, p->boot[1].enforced,
		                       p->boot[1].enforced_len) ||
		            (p->mode[0] != SBAT_NEXT_MODE_ENFORCED &&
		             !same_text(p->boot[0].stored, p->boot[0].stored_len, p->boot[1].stored,
		                        p->boot[1].stored_len));
	return r;
}

/* The public fields that point to what s owns. */
static void
publish(state *s)
{
	sbat_next_inputs *in = &s->pub.in[0];

	s->pub.automatic = s->automatic;
	s->pub.latest = s->latest;
	s->pub.rev_automatic = s->rev_automatic;
	s->pub.rev_latest = s->rev_latest;
	s->pub.shim_buf = s->shim_buf;
	s->pub.shim_sbat = s->shim_sbat;
	in->automatic = s->automatic;
	in->latest = s->latest;
	in->shim_sbat = s->shim_sbat ? s->shim_sbat->csv : NULL;
	in->rev_automatic = s->rev_automatic;
	in->rev_latest = s->rev_latest;
	in->rev_sbat = s->rev_sbat ? s->rev_sbat->csv : NULL;
}

/* Everything sbat_next_state_load reads, into s; SBAT_OK or the first failure (s->failed names what). */
static sbat_err
load_all(state *s, const char *efivarfs, const char *shim, sbat_diag *d)
{
	sbat_err r;

	s->efivarfs = strdup(efivarfs ? efivarfs : SBAT_EFIVAR_DIR);
	s->shim = strdup(shim);
	s->pub.efivarfs = s->efivarfs;
	s->pub.shim = s->shim;
	s->pub.secure_boot_var = s->pub.setup_mode_var = -1;
	if (!s->efivarfs || !s->shim)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	r = load_variables(s, &s->pub.in[0], d);
	if (r != SBAT_OK || s->pub.secure_boot_var < 0)
		return r; /* without SecureBoot the variables are not this machine's: nothing more is known */
	if ((r = load_shim(s, d)) == SBAT_OK && (r = load_revocations(s, d)) == SBAT_OK) {
		publish(s);
		r = predict(s, d);
	}
	return r;
}

sbat_err
sbat_next_state_load(const char *efivarfs, const char *shim, sbat_next_state **ret, char *ret_failed,
                     size_t failed_size, sbat_diag *reterr)
{
	sbat_diag local, *d = reterr ? reterr : &local;
	state *s;
	sbat_err r;

	*ret = NULL;
	if (ret_failed && failed_size)
		ret_failed[0] = '\0';
	if (!(s = calloc(1, sizeof(*s))))
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	r = load_all(s, efivarfs, shim, d);
	if (r == SBAT_OK) {
		*ret = &s->pub;
		return SBAT_OK;
	}
	if (ret_failed && failed_size)
		snprintf(ret_failed, failed_size, "%s", s->failed ? s->failed : shim);
	sbat_next_state_free(&s->pub);
	return r;
}

sbat_judge_shim
sbat_next_state_judge_shim(const sbat_next_state *s)
{
	if (s->secure_boot_var < 0 || !s->level[0])
		return SBAT_JUDGE_SHIM_UNKNOWN;
	switch (s->mode[0]) {
	case SBAT_NEXT_MODE_ENFORCED: return SBAT_JUDGE_SHIM_ENFORCES;
	case SBAT_NEXT_MODE_NOT_ENFORCED: return SBAT_JUDGE_SHIM_NOT_ENFORCING;
	case SBAT_NEXT_MODE_SHIM_STOPS: return SBAT_JUDGE_SHIM_STOPS;
	}
	return SBAT_JUDGE_SHIM_UNKNOWN;
}

void
sbat_next_state_free(sbat_next_state *pub)
{
	state *s = (state *)pub;
	int b;

	if (!s)
		return;
	for (b = 0; b < 2; b++)
		sbat_level_free(s->pub.level[b]);
	free(s->efivarfs);
	free(s->shim);
	free(s->revocations);
	free(s->ignored);
	free(s->failed);
	free(s->current_buf);
	free(s->automatic);
	free(s->latest);
	free(s->rev_automatic);
	free(s->rev_latest);
	free(s->shim_buf);
	free(s->rev_buf);
	sbat_judgement_free(s->shim_sbat);
	sbat_judgement_free(s->rev_sbat);
	free(s);
}
