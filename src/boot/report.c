/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* report.c - the stages of every boot path walked, kept as data with their verdicts */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/bootreport.h"

#include "boot/report.h"
#include "util/diag.h"

/* sbat_boot_stage as 0.3 released it: up to revocations_sig_unread */
#define STAGE_SIZE_0_3 offsetof(sbat_boot_stage, signature_authority)
/* sbat_boot_note as 0.3 released it: up to chain_on_esp */
#define NOTE_SIZE_0_3 offsetof(sbat_boot_note, svns)

struct sbat_boot_report {
	sbat_boot_stage *stages;
	size_t n, cap;
	sbat_boot_note *notes;
	size_t n_notes, cap_notes;
	sbat_boot_outcome outcome;
};

/* Room for one more of n items of size each in *p (capacity *cap); -1 when memory ran out. */
static int
grow(void **p, size_t n, size_t *cap, size_t size)
{
	size_t c = *cap ? 2 * *cap : 16;
	void *q;

	if (n < *cap)
		return 0;
	if (c > SIZE_MAX / size || !(q = realloc(*p, c * size)))
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/*
 * sbat_boot_stage_init and sbat_boot_note_init, twice each: a program
 * built against 0.3's headers calls the @LIBSBAT_0.3 version with 0.3's
 * shorter record, which must be zeroed to 0.3's size and not a byte more;
 * a program built now gets @@LIBSBAT_0.4. sbat_boot_report_add and
 * sbat_boot_report_add_note take either size. Where symbol versions are
 * not to be had, there is the current one alone.
 */
#if defined(__ELF__) && defined(__GNUC__) && defined(SBAT_BUILDING_LIBRARY)
SBAT_API void report_stage_init_0_3(sbat_boot_stage *s);
SBAT_API void report_stage_init_0_4(sbat_boot_stage *s);
SBAT_API void report_note_init_0_3(sbat_boot_note *n);
SBAT_API void report_note_init_0_4(sbat_boot_note *n);
__asm__(".symver report_stage_init_0_3, sbat_boot_stage_init@LIBSBAT_0.3");
__asm__(".symver report_stage_init_0_4, sbat_boot_stage_init@@LIBSBAT_0.4");
__asm__(".symver report_note_init_0_3, sbat_boot_note_init@LIBSBAT_0.3");
__asm__(".symver report_note_init_0_4, sbat_boot_note_init@@LIBSBAT_0.4");
#define REPORT_VERSIONED 1
#else
#define report_stage_init_0_4 sbat_boot_stage_init
#define report_note_init_0_4 sbat_boot_note_init
#define REPORT_VERSIONED 0
#endif

/* A stage of `size` bytes, zeroed, with the fields whose "none" is -1 set. */
static void
report_stage_reset(sbat_boot_stage *s, size_t size)
{
	memset(s, 0, size);
	s->size = size;
	s->judge_reason = -1;
	s->signature_reason = -1;
	s->boot_current = -1;
}

/* A note of `size` bytes, zeroed, sdboot_by -1 (none). */
static void
report_note_reset(sbat_boot_note *n, size_t size)
{
	memset(n, 0, size);
	n->size = size;
	n->sdboot_by = -1;
}

#if REPORT_VERSIONED
void
report_stage_init_0_3(sbat_boot_stage *s)
{
	report_stage_reset(s, STAGE_SIZE_0_3);
}

void
report_note_init_0_3(sbat_boot_note *n)
{
	report_note_reset(n, NOTE_SIZE_0_3);
}
#endif

void
report_stage_init_0_4(sbat_boot_stage *s)
{
	report_stage_reset(s, sizeof(*s));
}

void
report_note_init_0_4(sbat_boot_note *n)
{
	report_note_reset(n, sizeof(*n));
}

sbat_verdict
sbat_boot_report_decide(sbat_verdict sbat, sbat_boot_gate gate, sbat_judge_shim shim, int signature,
                        sbat_boot_gate *ret_gate)
{
	sbat_verdict v = sbat;

	if (gate == SBAT_BOOT_GATE_SBAT && shim != SBAT_JUDGE_SHIM_ENFORCES) {
		/* shim checks no row: its state decides */
		gate = SBAT_BOOT_GATE_SHIM;
		v = shim == SBAT_JUDGE_SHIM_NOT_ENFORCING || shim == SBAT_JUDGE_SHIM_INSECURE ? SBAT_VERDICT_BOOTS :
		    shim == SBAT_JUDGE_SHIM_STOPS                                             ? SBAT_VERDICT_REFUSED :
		                                                                                SBAT_VERDICT_UNKNOWN;
	}
	if (signature == SBAT_VERDICT_REFUSED || (signature == SBAT_VERDICT_UNKNOWN && v != SBAT_VERDICT_REFUSED)) {
		v = (sbat_verdict)signature;
		gate = SBAT_BOOT_GATE_SIGNATURE;
	}
	*ret_gate = gate;
	return v;
}

sbat_err
sbat_boot_report_new(sbat_boot_report **ret, sbat_diag *d)
{
	*ret = calloc(1, sizeof(**ret));
	return *ret ? SBAT_OK : diag_fail(d, SBAT_E_NOMEM, "out of memory");
}

/* The strings of a stage, in one list, to copy and free them alike. */
static const char **
string_field(sbat_boot_stage *s, size_t i)
{
	const char **fields[] = {
		&s->entry,
		&s->file,
		&s->host,
		&s->root,
		&s->partition,
		&s->esp_partition,
		&s->removable,
		&s->default_loader,
		&s->revoked,
		&s->revoked_by,
		&s->level,
		&s->explain,
		&s->signature_subject,
		&s->menu_entry,
		&s->default_value,
		&s->default_setting,
		&s->config,
		&s->menu_path,
		&s->menu_file,
		&s->menu_word,
		&s->menu_text,
		&s->menu_arch,
		&s->missing,
		&s->missing_key,
		&s->shim_level,
		&s->revocations_ignored,
		&s->revocations_file,
		&s->revocations_sig_unread,
		&s->shim_stored,
	};

	return i < sizeof(fields) / sizeof(fields[0]) ? fields[i] : NULL;
}

static void
free_strings(sbat_boot_stage *s)
{
	const char **f;
	size_t i;

	for (i = 0; (f = string_field(s, i)) != NULL; i++) {
		free((char *)*f);
		*f = NULL;
	}
}

/* Copy every string of *s in place; -1 (with none left owned) when memory ran out. */
static int
own_strings(sbat_boot_stage *s)
{
	const char **f;
	size_t i, j;

	for (i = 0; (f = string_field(s, i)) != NULL; i++) {
		if (*f && !(*f = strdup(*f))) {
			for (j = 0; j < i; j++)
				free((char *)*string_field(s, j));
			return -1;
		}
	}
	return 0;
}

sbat_err
sbat_boot_report_add(sbat_boot_report *r, const sbat_boot_stage *s, sbat_diag *d)
{
	sbat_boot_stage copy;

	if (!r || !s || (s->size != sizeof(*s) && s->size != STAGE_SIZE_0_3))
		return diag_fail(d, SBAT_E_ABI, "a boot stage not made by sbat_boot_stage_init");
	if (grow((void **)&r->stages, r->n, &r->cap, sizeof(*r->stages)) != 0)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	/* a 0.3 caller's stage ends before signature_authority: the later fields stay zero */
	memset(&copy, 0, sizeof(copy));
	memcpy(&copy, s, s->size);
	copy.size = sizeof(copy);
	if (own_strings(&copy) != 0)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	/* copy's, not s's: a 0.3 caller's stage has no such fields to read */
	if (copy.signature_authority && copy.signature_authority_len) {
		uint8_t *a = malloc(copy.signature_authority_len);

		if (!a) {
			free_strings(&copy);
			return diag_fail(d, SBAT_E_NOMEM, "out of memory");
		}
		memcpy(a, copy.signature_authority, copy.signature_authority_len);
		copy.signature_authority = a;
	} else {
		copy.signature_authority = NULL;
		copy.signature_authority_len = 0;
	}
	r->stages[r->n++] = copy;
	r->outcome.n_stages = r->n;
	/* an unknown is never a yes: the path it is on does not count as booting */
	if (s->verdict == SBAT_VERDICT_UNKNOWN && s->is_default && !s->off_default)
		r->outcome.default_unknown = 1;
	else if (s->verdict == SBAT_VERDICT_UNKNOWN)
		r->outcome.other_unknown = 1;
	else if (s->verdict == SBAT_VERDICT_REFUSED && s->is_default && !s->off_default)
		r->outcome.default_refused = 1;
	else if (s->verdict == SBAT_VERDICT_REFUSED)
		r->outcome.other_refused = 1;
	return SBAT_OK;
}

/* The strings of a note, in one list, to copy and free them alike: its fields, then the chain's names and files. */
static const char **
note_string(sbat_boot_note *n, size_t i)
{
	const char **fields[] = { &n->path,      &n->file,    &n->default_value, &n->default_setting,
		                  &n->partition, &n->pending, &n->variable,      &n->subjects,
		                  &n->key,       &n->picked,  &n->conf_file,     &n->conf_default,
		                  &n->xbootldr };
	const size_t n_fields = sizeof(fields) / sizeof(fields[0]);

	if (i < n_fields)
		return fields[i];
	i -= n_fields;
	if (i < SBAT_BOOT_NOTE_CHAIN_MAX)
		return &n->chain[i];
	i -= SBAT_BOOT_NOTE_CHAIN_MAX;
	return i < SBAT_BOOT_NOTE_CHAIN_MAX ? &n->chain_host[i] : NULL;
}

static void
note_free_strings(sbat_boot_note *n)
{
	const char **f;
	size_t i;

	for (i = 0; (f = note_string(n, i)) != NULL; i++) {
		free((char *)*f);
		*f = NULL;
	}
}

/* Copy every string of *n in place; -1 (with none left owned) when memory ran out. */
static int
note_own_strings(sbat_boot_note *n)
{
	const char **f;
	size_t i, j;

	for (i = 0; (f = note_string(n, i)) != NULL; i++) {
		if (*f && !(*f = strdup(*f))) {
			for (j = 0; j < i; j++)
				free((char *)*note_string(n, j));
			return -1;
		}
	}
	return 0;
}

sbat_err
sbat_boot_report_add_note(sbat_boot_report *r, const sbat_boot_note *n, sbat_diag *d)
{
	sbat_boot_note copy;

	if (!r || !n || (n->size != sizeof(*n) && n->size != NOTE_SIZE_0_3))
		return diag_fail(d, SBAT_E_ABI, "a boot note not made by sbat_boot_note_init");
	if (grow((void **)&r->notes, r->n_notes, &r->cap_notes, sizeof(*r->notes)) != 0)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	/* a 0.3 caller's note ends before svns: the later fields stay zero */
	memset(&copy, 0, sizeof(copy));
	memcpy(&copy, n, n->size);
	copy.size = sizeof(copy);
	copy.before = r->n;
	if (note_own_strings(&copy) != 0)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	r->notes[r->n_notes++] = copy;
	return SBAT_OK;
}

sbat_err
sbat_boot_report_note(sbat_boot_report *r, sbat_boot_note_kind kind, const char *path, const char *file, unsigned line,
                      const sbat_diag *diag, sbat_diag *d)
{
	sbat_boot_note n;

	sbat_boot_note_init(&n);
	n.kind = kind;
	n.line = line;
	n.path = path;
	n.file = file;
	if (diag)
		n.diag = *diag;
	return sbat_boot_report_add_note(r, &n, d);
}

size_t
sbat_boot_report_note_count(const sbat_boot_report *r)
{
	return r ? r->n_notes : 0;
}

const sbat_boot_note *
sbat_boot_report_note_at(const sbat_boot_report *r, size_t i)
{
	return r && i < r->n_notes ? &r->notes[i] : NULL;
}

void
report_mark_stopped(sbat_boot_report *r, int no_variables, int failed)
{
	r->outcome.no_variables |= no_variables;
	r->outcome.failed |= failed;
}

const char *
sbat_boot_report_reason_name(sbat_boot_reason reason)
{
	static const char *const names[] = {
		"judged",           "not-shim",           "shim-goes-on",
		"shim-inputs",      "shim-stops-revoked", "shim-stops-level",
		"policy-waits",     "not-found",          "unreadable",
		"no-start",         "partition-unknown",  "load-options",
		"fallback",         "loader-unknown",     "menu",
		"over-limit",       "uki-kernel",         "variable",
		"inactive",         "application",        "not-a-file",
		"no-options",       "signature",          "variable-unreadable",
		"variable-missing", "firmware-volume",    "file-only",
		"device",           "default-loader",     "bootmgr-svn",
	};

	return (unsigned)reason < sizeof(names) / sizeof(names[0]) ? names[reason] : "unknown";
}

const char *
sbat_boot_report_note_kind_name(sbat_boot_note_kind kind)
{
	static const char *const names[] = { "assumed", "verbose", "config", "error" };

	return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

size_t
sbat_boot_report_count(const sbat_boot_report *r)
{
	return r ? r->n : 0;
}

const sbat_boot_stage *
sbat_boot_report_stage(const sbat_boot_report *r, size_t i)
{
	return r && i < r->n ? &r->stages[i] : NULL;
}

sbat_boot_outcome
sbat_boot_report_outcome(const sbat_boot_report *r)
{
	sbat_boot_outcome none;

	memset(&none, 0, sizeof(none));
	return r ? r->outcome : none;
}

void
sbat_boot_report_free(sbat_boot_report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++) {
		free_strings(&r->stages[i]);
		free((void *)r->stages[i].signature_authority);
	}
	for (i = 0; i < r->n_notes; i++) {
		note_free_strings(&r->notes[i]);
	}
	free(r->stages);
	free(r->notes);
	free(r);
}
