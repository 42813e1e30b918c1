/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* edit.c - parse, plan, emit and verify: the entry points that change .sbat */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sbat/edit.h"

#include "diag.h"
#include "io.h"
#include "plan.h"

/* Parsed image and plan are a few KiB each: one heap block, not the stack. */
typedef struct work {
	sbat_pe pe;
	plan p;
} work;

static sbat_err
prepare(work **ret, const uint8_t *in, size_t in_len, size_t payload_len, const sbat_edit_opts *opts,
        sbat_diag *d)
{
	work *w = malloc(sizeof(*w));
	sbat_err err;

	if (!w)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	err = sbat_pe_parse(in, in_len, &w->pe, d);
	if (!err)
		err = plan_build(&w->pe, in, in_len, payload_len, opts, &w->p, d);
	if (err) {
		free(w);
		return err;
	}
	*ret = w;
	return SBAT_OK;
}

sbat_err
sbat_edit(const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
          const sbat_edit_opts *opts, uint8_t **ret_out, size_t *ret_out_len,
          sbat_edit_report *ret_report, sbat_diag *d)
{
	work *w;
	sink s;
	sbat_err err;

	err = prepare(&w, in, in_len, payload_len, opts, d);
	if (err)
		return err;
	s.mem = malloc((size_t)w->p.output_size);
	s.fd = -1;
	s.io = NULL;
	s.in_fd = -1;
	if (!s.mem)
		err = diag_fail(d, SBAT_E_NOMEM, "out of memory for the output image");
	if (!err)
		err = plan_emit(&w->p, in, in_len, payload, payload_len, &s, d);
	if (!err)
		err = plan_verify(&w->p, &w->pe, in, s.mem, (size_t)w->p.output_size, payload, payload_len, d);
	if (err) {
		free(s.mem);
		free(w);
		return err;
	}
	w->p.report.unchanged = plan_is_identity(&w->p, in, in_len, payload) &&
	                        w->p.report.new_checksum == w->p.report.old_checksum;
	*ret_out = s.mem;
	*ret_out_len = (size_t)w->p.output_size;
	if (ret_report)
		*ret_report = w->p.report;
	free(w);
	return SBAT_OK;
}

/* Check the written file through a read-only mapping: only the pages verify reads are touched. */
static sbat_err
verify_file(const work *w, const uint8_t *in, int fd, const uint8_t *payload, size_t payload_len,
            sbat_diag *d)
{
	size_t len = (size_t)w->p.output_size;
	void *map;
	sbat_err err;

	if (ftruncate(fd, (off_t)len) != 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot size the output", errno);
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return diag_fail_errno(d, SBAT_E_IO, "cannot map the output to verify it", errno);
	err = plan_verify(&w->p, &w->pe, in, map, len, payload, payload_len, d);
	munmap(map, len);
	return err;
}

sbat_err
sbat_edit_fd(const uint8_t *in, size_t in_len, int in_fd, const uint8_t *payload, size_t payload_len,
             const sbat_edit_opts *opts, sbat_output *out, sbat_edit_report *ret_report, sbat_diag *d)
{
	work *w;
	sink s;
	int identity;
	sbat_err err;

	err = prepare(&w, in, in_len, payload_len, opts, d);
	if (err)
		return err;
	/* nothing would change and there is no checksum to recompute: write nothing */
	identity = plan_is_identity(&w->p, in, in_len, payload);
	if (identity && !w->p.update_checksum && !(opts && opts->write_unchanged)) {
		w->p.report.unchanged = 1;
		w->p.report.new_checksum = w->p.report.old_checksum;
		goto done;
	}
	s.mem = NULL;
	s.fd = sbat_output_fd(out);
	s.io = sbat_output_io(out);
	s.in_fd = in_fd;
	err = plan_emit(&w->p, in, in_len, payload, payload_len, &s, d);
	if (!err)
		err = verify_file(w, in, s.fd, payload, payload_len, d);
	if (err) {
		free(w);
		return err;
	}
	w->p.report.unchanged = identity && w->p.report.new_checksum == w->p.report.old_checksum;
done:
	if (ret_report)
		*ret_report = w->p.report;
	free(w);
	return SBAT_OK;
}

const char *
sbat_edit_action_name(sbat_edit_action action)
{
	switch (action) {
	case SBAT_ACTION_INSERT: return "insert";
	case SBAT_ACTION_REPLACE: return "replace";
	case SBAT_ACTION_GROW: return "grow";
	case SBAT_ACTION_RELOCATE: return "relocate";
	case SBAT_ACTION_REMOVE: return "remove";
	case SBAT_ACTION_RETIRE: return "retire";
	}
	return "unknown";
}
