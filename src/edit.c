/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* edit.c - parse, plan, emit and verify: the one entry point for changing .sbat */
#include <stdlib.h>

#include "sbat/edit.h"

#include "diag.h"
#include "plan.h"

sbat_err
sbat_edit(const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
          const sbat_edit_opts *opts, uint8_t **ret_out, size_t *ret_out_len,
          sbat_edit_report *ret_report, sbat_diag *d)
{
	/* both are a few KiB; keep them off the stack */
	sbat_pe *pe = malloc(sizeof(*pe));
	plan *p = malloc(sizeof(*p));
	uint8_t *out = NULL;
	sbat_err err;

	if (!pe || !p) {
		err = diag_fail(d, SBAT_E_NOMEM, "out of memory");
		goto out;
	}
	err = sbat_pe_parse(in, in_len, pe, d);
	if (err)
		goto out;
	err = plan_build(pe, in, in_len, payload_len, opts, p, d);
	if (err)
		goto out;
	err = plan_emit(p, in, in_len, payload, payload_len, &out, d);
	if (err)
		goto out;
	err = plan_verify(p, pe, in, out, (size_t)p->output_size, payload, payload_len, d);
	if (err) {
		free(out);
		goto out;
	}
	*ret_out = out;
	*ret_out_len = (size_t)p->output_size;
	if (ret_report)
		*ret_report = p->report;
out:
	free(pe);
	free(p);
	return err;
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
