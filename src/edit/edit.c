/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* edit.c - parse, plan, emit and verify: the entry points that change .sbat */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/edit.h"

#include "util/diag.h"
#include "pe/image_internal.h"
#include "file/identity.h"
#include "file/io_table.h"
#include "file/content.h"
#include "file/timestamps.h"
#include "edit/decided.h"
#include "edit/edit_opts.h"
#include "edit/emit.h"
#include "edit/plan_uki.h"
#include "edit/verify.h"
#include "util/strtable.h"

/*
 * Through a file, copied ranges are compared at their ends and around the
 * patches, 64 KiB each: reading a whole large image back through a mapping
 * would cost its size in memory and time; the ranges in between are one
 * kernel copy each.
 */
#define VERIFY_WINDOW (64u * 1024u)

/*
 * The content check, on in every real build. bench/bench.sh also builds the
 * tool with SBAT_BENCH_WITHOUT_CONTENT_CHECK defined, to time what it costs.
 */
#ifdef SBAT_BENCH_WITHOUT_CONTENT_CHECK
#define CONTENT_CHECK 0
#else
#define CONTENT_CHECK 1
#endif

/* A plan is a few KiB: on the heap, not the stack. */
typedef struct work {
	const sbat_pe *pe; /* the input as the plan sees it (without a .pcrsig it drops) */
	plan p;
} work;

static void
work_free(work *w)
{
	if (w) {
		plan_release(&w->p);
		free(w);
	}
}

static sbat_err
prepare(work **ret, const sbat_image *img, const uint8_t *payload, size_t payload_len, const sbat_edit_opts *opts,
        sbat_diag *d)
{
	work *w = calloc(1, sizeof(*w));
	sbat_err err;

	if (!w)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	err = plan_build(&img->pe, img->buf, img->len, payload, payload_len, opts, &w->p, d);
	if (err) {
		work_free(w);
		return err;
	}
	w->pe = plan_input(&w->p, &img->pe);
	*ret = w;
	return SBAT_OK;
}

sbat_err
sbat_edit(const sbat_image *img, const uint8_t *payload, size_t payload_len, const sbat_edit_opts *opts,
          uint8_t **ret_out, size_t *ret_out_len, sbat_edit_report *ret_report, sbat_diag *d)
{
	const uint8_t *in = img->buf;
	size_t in_len = img->len;
	sbat_edit_opts o;
	work *w;
	sink s;
	sbat_err err;

	err = edit_normalize_opts(opts, &o, d);
	if (err)
		return err;
	err = prepare(&w, img, payload, payload_len, &o, d);
	if (err)
		return err;
	s.mem = malloc((size_t)w->p.output_size);
	s.fd = -1;
	s.io = NULL;
	s.in_fd = -1;
	s.sparse_from = UINT64_MAX;
	s.writeback = 0;
	if (!s.mem)
		err = diag_fail(d, SBAT_E_NOMEM, "out of memory for the output image");
	if (!err)
		err = emit_plan(&w->p, in, in_len, payload, payload_len, &s, d);
	if (!err)
		err = verify_output(&w->p, w->pe, in, s.mem, (size_t)w->p.output_size, payload, payload_len, d);
	if (!err)
		err = verify_kept(&w->p, w->pe, in, s.mem, UINT64_MAX, 0, 0, d);
	if (err) {
		free(s.mem);
		work_free(w);
		return err;
	}
	w->p.report.unchanged = plan_is_identity(&w->p, in, in_len, payload) &&
	                        w->p.report.new_checksum == w->p.report.old_checksum;
	*ret_out = s.mem;
	*ret_out_len = (size_t)w->p.output_size;
	if (ret_report)
		*ret_report = w->p.report;
	work_free(w);
	return SBAT_OK;
}

/*
 * Check the written file through a mapping (a dry run wrote only up to
 * sparse_from); in_file when the input is a file, as verify_kept has it.
 */
static sbat_err
verify_file(const work *w, const uint8_t *in, int fd, const uint8_t *payload, size_t payload_len, uint64_t sparse_from,
            int in_file, sbat_diag *d)
{
	size_t len = (size_t)w->p.output_size;
	void *map;
	sbat_err err;

	if (ftruncate(fd, (off_t)len) != 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot size the output", errno);
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return diag_fail_errno(d, SBAT_E_IO, "cannot map the output to verify it", errno);
	err = verify_output(&w->p, w->pe, in, map, len, payload, payload_len, d);
	if (!err)
		err = verify_kept(&w->p, w->pe, in, map, sparse_from, VERIFY_WINDOW, in_file, d);
	munmap(map, len);
	return err;
}

/*
 * 1 if the file fd is still the one read: same identity, size and times, and
 * when the times cannot tell (a clock tick longer than the run) and a
 * mismatch needs explaining, the same content sum.
 */
static int
input_unchanged(const sbat_io *io, int fd, const struct stat *st, int mismatch, size_t len, uint64_t sum)
{
	struct stat now;
	uint64_t again;

	if (fstat(fd, &now) != 0 || !sbat_file_unchanged(&now, st))
		return 0;
	return !mismatch || content_sum_fd(io, fd, len, &again) != 0 || again == sum;
}

/*
 * The input's content must not change between the read and the rename,
 * whatever its time stamps can tell: the sum of what was read is checked by
 * commit, just before the rename, when the output replaces the input; else
 * (a new file, a dry run) here, after the output was written.
 */
static sbat_err
check_content_later(int in_fd, uint64_t len, uint64_t sum, sbat_output *out, sbat_diag *d)
{
	uint64_t now;

	if (output_expect_source(out, (size_t)len, sum))
		return SBAT_OK;
	if (content_sum_fd(sbat_output_io(out), in_fd, (size_t)len, &now) != 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot read the file again to compare it", errno);
	if (now != sum)
		return diag_fail(d, SBAT_E_CHANGED, "the file was modified while being edited; nothing was written");
	return SBAT_OK;
}

/*
 * The input's copied ranges, in input order, into r (at most
 * PLAN_MAX_EXTENTS). 1 when they are disjoint, as every plan makes them.
 */
static int
copied_ranges(const plan *p, extent *r, unsigned *n)
{
	unsigned i, k;

	*n = 0;
	for (i = 0; i < p->n_extents; i++) {
		extent e = p->extents[i];

		if (e.kind != EXTENT_COPY || e.len == 0)
			continue;
		for (k = *n; k > 0 && r[k - 1].src > e.src; k--)
			r[k] = r[k - 1];
		r[k] = e;
		(*n)++;
	}
	for (i = 1; i < *n; i++)
		if (r[i - 1].src + r[i - 1].len > r[i].src)
			return 0;
	return 1;
}

/*
 * Start the input's fingerprint with the bytes emit will not read. Where emit
 * reads every copied byte anyway, it takes them on the way (*fused = 1) and
 * only the bytes no extent copies are read here; else the whole file is read
 * here, before emit: for a dry run (which reads only what it writes) and
 * where copied ranges go file to file (io_copy_preferred, unless a
 * CheckSum makes them pass through memory all the same).
 */
static sbat_err
start_fingerprint(const plan *p, const sbat_io *io, int in_fd, size_t in_len, int fuse, sbat_content_fp *fp, int *fused,
                  sbat_diag *d)
{
	extent r[PLAN_MAX_EXTENTS];
	uint64_t at = 0;
	unsigned n = 0, i;
	int rc = 0;

	content_fp_init(fp);
	*fused = fuse && copied_ranges(p, r, &n);
	if (!*fused)
		n = 0; /* emit reads nothing for it: every byte is read here */
	for (i = 0; i <= n && rc == 0; i++) {
		uint64_t end = i < n ? r[i].src : in_len;

		if (end > at)
			rc = content_fp_read(fp, io, in_fd, at, end);
		if (i < n)
			at = r[i].src + r[i].len;
	}
	if (rc == SBAT_IO_SHRANK)
		return diag_fail(d, SBAT_E_CHANGED, "the input shrank while being read");
	if (rc != 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot read the input", errno);
	return SBAT_OK;
}

/*
 * Write the plan to the output and check what was written. When the input is
 * a file (in_fd >= 0), it must still be as it was read (before, and the
 * fingerprint of its content).
 */
static sbat_err
write_and_verify(work *w, const sbat_image *img, int in_fd, const struct stat *before, int times_can_hide,
                 const uint8_t *payload, size_t payload_len, int dry_run, sbat_output *out, sbat_diag *d)
{
	const uint8_t *in = img->buf;
	size_t in_len = img->len;
	sbat_content_fp fp;
	uint64_t sum = 0;
	int fused = 0, check = in_fd >= 0 && CONTENT_CHECK && times_can_hide;
	sink s;
	sbat_err err = SBAT_OK;

	s.mem = NULL;
	s.fd = sbat_output_fd(out);
	s.io = sbat_output_io(out);
	s.in_fd = in_fd;
	s.sparse_from = dry_run ? w->p.verify_prefix : UINT64_MAX;
	s.writeback = !dry_run && output_syncs(out);
	if (check)
		err = start_fingerprint(&w->p, s.io, in_fd, in_len,
		                        !dry_run && (w->p.update_checksum || !io_copy_preferred(s.io, s.fd)), &fp,
		                        &fused, d);
	s.fp = fused ? &fp : NULL;
	if (!err)
		err = emit_plan(&w->p, in, in_len, payload, payload_len, &s, d);
	if (!err && check && content_fp_final(&fp, in_len, &sum) != 0)
		err = diag_fail(d, SBAT_E_LAYOUT, "internal error: the input's fingerprint does not cover it once");
	if (err)
		return err;
	err = verify_file(w, in, s.fd, payload, payload_len, s.sparse_from, in_fd >= 0, d);
	/*
	 * Bytes copied from a file that changed meanwhile may mix two
	 * versions; the change also explains any mismatch verification saw.
	 * Without a fingerprint the time stamps show every change, and there
	 * is no sum for the content to be compared with.
	 */
	if (in_fd >= 0 && !input_unchanged(s.io, in_fd, before, err != SBAT_OK && check, in_len, sum))
		err = diag_fail(d, SBAT_E_CHANGED, "the file was modified while being edited; nothing was written");
	if (!err && in_fd >= 0)
		err = decided_check(img, s.io, in_fd, d);
	if (!err && check)
		err = check_content_later(in_fd, in_len, sum, out, d);
	return err;
}

sbat_err
sbat_edit_fd(const sbat_image *img, int in_fd, const uint8_t *payload, size_t payload_len, const sbat_edit_opts *opts,
             sbat_output *out, sbat_edit_report *ret_report, sbat_diag *d)
{
	const uint8_t *in = img->buf;
	size_t in_len = img->len;
	work *w;
	struct stat before;
	int identity, dry_run, times_can_hide = 1;
	sbat_edit_opts o;
	sbat_err err;

	err = edit_normalize_opts(opts, &o, d);
	if (err)
		return err;
	opts = &o;
	dry_run = opts->dry_run;
	if (in_fd >= 0 && timestamps_fstat(in_fd, &before, &times_can_hide) != 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot stat the input", errno);
	if (in_fd >= 0 && (uint64_t)before.st_size != in_len)
		return diag_fail(d, SBAT_E_CHANGED, "the file changed size since it was read");
	err = prepare(&w, img, payload, payload_len, opts, d);
	if (err)
		return err;
	/* nothing would change and there is no checksum to recompute: write nothing */
	identity = plan_is_identity(&w->p, in, in_len, payload);
	if (identity && !w->p.update_checksum && !opts->write_unchanged) {
		w->p.report.unchanged = 1;
		w->p.report.new_checksum = w->p.report.old_checksum;
		goto done;
	}
	err = write_and_verify(w, img, in_fd, &before, times_can_hide, payload, payload_len, dry_run, out, d);
	if (err) {
		work_free(w);
		return err;
	}
	w->p.report.unchanged = identity && w->p.report.new_checksum == w->p.report.old_checksum;
done:
	if (ret_report)
		*ret_report = w->p.report;
	work_free(w);
	return SBAT_OK;
}

const char *
sbat_edit_action_name(sbat_edit_action action)
{
	static const char *const names[] = {
		[SBAT_ACTION_INSERT] = "insert",     [SBAT_ACTION_REPLACE] = "replace", [SBAT_ACTION_GROW] = "grow",
		[SBAT_ACTION_RELOCATE] = "relocate", [SBAT_ACTION_REMOVE] = "remove",   [SBAT_ACTION_RETIRE] = "retire",
	};

	return STRTABLE_NAME(names, action, "unknown");
}
