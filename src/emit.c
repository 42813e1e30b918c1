/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* emit.c - write a planned image: extents end to end, then patches, then the checksum */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

#include "diag.h"
#include "le.h"

sbat_err
plan_emit(plan *p, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
          uint8_t **ret_out, sbat_diag *d)
{
	uint8_t *out;
	uint64_t pos = 0;
	unsigned i;

	if (p->output_size == 0 || p->output_size > SIZE_MAX)
		return diag_fail(d, SBAT_E_LAYOUT, "planned output size is not representable");
	out = malloc((size_t)p->output_size);
	if (!out)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory for the output image");

	for (i = 0; i < p->n_extents; i++) {
		const extent *e = &p->extents[i];

		if (e->len > p->output_size - pos)
			goto bad_layout;
		switch (e->kind) {
		case EXTENT_COPY:
			if (e->src > in_len || e->len > in_len - e->src)
				goto bad_layout;
			memcpy(out + pos, in + e->src, (size_t)e->len);
			break;
		case EXTENT_PAYLOAD:
			if (e->len != payload_len)
				goto bad_layout;
			memcpy(out + pos, payload, payload_len);
			break;
		case EXTENT_ZERO:
			memset(out + pos, 0, (size_t)e->len);
			break;
		}
		pos += e->len;
	}
	/* the planned size must equal what was laid out, byte for byte */
	if (pos != p->output_size)
		goto bad_layout;

	for (i = 0; i < p->n_patches; i++) {
		const patch *q = &p->patches[i];

		if (q->offset > p->output_size || q->len > p->output_size - q->offset ||
		    (!q->zero && q->len > sizeof(q->bytes)))
			goto bad_layout;
		if (q->zero)
			memset(out + q->offset, 0, (size_t)q->len);
		else
			memcpy(out + q->offset, q->bytes, (size_t)q->len);
	}
	if (p->update_checksum) {
		if (p->checksum_offset > p->output_size || 4 > p->output_size - p->checksum_offset)
			goto bad_layout;
		p->report.new_checksum = sbat_pe_checksum(out, (size_t)p->output_size, p->checksum_offset);
		le32_put(out + p->checksum_offset, p->report.new_checksum);
	} else {
		p->report.new_checksum = p->report.old_checksum;
	}
	p->report.unchanged = p->output_size == in_len && memcmp(out, in, in_len) == 0;
	*ret_out = out;
	return SBAT_OK;

bad_layout:
	free(out);
	return diag_fail(d, SBAT_E_LAYOUT, "internal error: planned extents do not add up");
}
