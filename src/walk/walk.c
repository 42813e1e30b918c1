/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* walk.c - the report's lines and notes, files on a partition, and images, as every stage of the walk uses them */
#include <stdlib.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/input.h"
#include "sbat/judge.h"
#include "sbat/level.h"
#include "sbat/partition.h"

#include "walk/walk.h"

void
walk_stage(sbat_boot_stage *st, const char *label, int is_default, int stage, const char *file)
{
	sbat_boot_stage_init(st);
	st->entry = label;
	st->is_default = is_default;
	st->stage = stage;
	st->file = file;
}

void
walk_add(walk *w, sbat_boot_stage *st)
{
	sbat_diag d;

	st->off_default = w->other_entry;
	if (sbat_boot_report_add(w->report, st, &d) != SBAT_OK)
		w->report_failed = 1;
}

void
walk_add_note(walk *w, const sbat_boot_note *n)
{
	sbat_diag d;

	if (sbat_boot_report_add_note(w->report, n, &d) != SBAT_OK)
		w->report_failed = 1;
}

void
walk_fact(walk *w, sbat_boot_note_kind kind, const char *file, sbat_boot_note_what what)
{
	sbat_boot_note n;

	sbat_boot_note_init(&n);
	n.kind = kind;
	n.file = file;
	n.what = what;
	walk_add_note(w, &n);
}

void
walk_config_note(walk *w, const char *file, unsigned line, sbat_boot_note_what what, const char *parser)
{
	sbat_boot_note n;

	sbat_boot_note_init(&n);
	n.kind = SBAT_BOOT_NOTE_CONFIG;
	n.file = file;
	n.line = line;
	n.what = what;
	n.diag.what = parser;
	walk_add_note(w, &n);
}

void
walk_error(walk *w, const char *file, const sbat_diag *d)
{
	sbat_boot_note n;

	sbat_boot_note_init(&n);
	n.kind = SBAT_BOOT_NOTE_ERROR;
	n.file = file;
	n.diag = *d;
	walk_add_note(w, &n);
}

void
walk_error_count(walk *w, const char *file, sbat_boot_note_what what, size_t count)
{
	sbat_boot_note n;

	sbat_boot_note_init(&n);
	n.kind = SBAT_BOOT_NOTE_ERROR;
	n.file = file;
	n.what = what;
	n.count = count;
	walk_add_note(w, &n);
}

char *
walk_lookup(const char *root, const char *p, int flags, sbat_partition_miss *miss)
{
	unsigned f = ((flags & WALK_RESOLVE_DIR) ? SBAT_PARTITION_DIR : 0) |
	             ((flags & WALK_RESOLVE_EXACT) ? SBAT_PARTITION_EXACT : 0);
	char *out = NULL;

	*miss = sbat_partition_resolve(root, p, f, &out);
	return out;
}

int
walk_image_open(const char *root, const char *path, image *im)
{
	size_t n = root ? strlen(root) : 0;
	sbat_err r;

	memset(im, 0, sizeof(*im));
	while (n > 1 && root[n - 1] == '/')
		n--;
	if (root && strncmp(path, root, n) == 0 && path[n] == '/') {
		for (path += n; *path == '/'; path++)
			;
		r = sbat_file_map_beneath(root, path, SBAT_FILE_MAX_SIZE, &im->map, &im->d);
	} else {
		r = sbat_file_map(path, SBAT_FILE_MAX_SIZE, &im->map, &im->d);
	}
	if (r != SBAT_OK)
		return -1;
	im->buf = sbat_mapped_file_data(im->map);
	im->len = sbat_mapped_file_size(im->map);
	if (sbat_image_parse(im->buf, im->len, &im->img, &im->d) != SBAT_OK)
		return -1;
	im->machine = sbat_image_get_info(im->img)->machine;
	im->is_shim = sbat_image_find_section(im->img, SBAT_LEVEL_SECTION_NAME) >= 0 ||
	              sbat_image_find_section(im->img, ".sbatlev") >= 0;
	if (sbat_judge_image(im->img, NULL, SBAT_JUDGE_SHIM_NOT_ENFORCING, SBAT_JUDGE_STARTED_BY_SHIM, &im->read,
	                     &im->d) != SBAT_OK)
		return -1;
	return 0;
}

void
walk_image_close(image *im)
{
	sbat_judgement_free(im->read);
	sbat_image_free(im->img);
	sbat_file_unmap(im->map);
}

sbat_judge_shim
walk_shim_state(const walk *w, sbat_judge_shim next)
{
	return next == SBAT_JUDGE_SHIM_ENFORCES && w->insecure ? SBAT_JUDGE_SHIM_INSECURE : next;
}

void
walk_decide(sbat_boot_stage *st, sbat_verdict v, sbat_boot_gate gate, sbat_judge_shim shim)
{
	int sig = st->signature_judged ? (int)st->signature_verdict : SBAT_BOOT_NOT_JUDGED;

	st->verdict = sbat_boot_report_decide(v, gate, shim, sig, &st->gate);
}

/* bytes needle[0..n) anywhere in buf[0..len) */
int
walk_holds(const uint8_t *buf, size_t len, const void *needle, size_t n)
{
	size_t i;

	for (i = 0; buf && n && i + n <= len; i++)
		if (buf[i] == *(const uint8_t *)needle && memcmp(buf + i, needle, n) == 0)
			return 1;
	return 0;
}

const uint8_t *
walk_section_bytes(const image *im, const char *name, size_t *len)
{
	int index = im->img ? sbat_image_find_section(im->img, name) : -1;
	const sbat_section_info *s = index >= 0 ? sbat_image_section(im->img, (unsigned)index) : NULL;
	size_t n;

	if (!s || s->pointer_to_raw_data >= im->len)
		return NULL;
	n = s->size_of_raw_data < s->virtual_size ? s->size_of_raw_data : s->virtual_size;
	if (n > im->len - s->pointer_to_raw_data)
		n = im->len - s->pointer_to_raw_data;
	*len = n;
	return im->buf + s->pointer_to_raw_data;
}

int
walk_section_has(const image *im, const char *name, const char *needle, size_t needle_len)
{
	size_t len = 0;
	const uint8_t *p = walk_section_bytes(im, name, &len);

	return walk_holds(p, len, needle, needle_len);
}
