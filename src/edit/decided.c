/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* decided.c - does the file still hold the bytes the edit decided from? */
#include <errno.h>
#include <stdlib.h>

#include "edit/decided.h"
#include "file/io_table.h"

#define CHUNK (64u * 1024u)

/* The offset of the first byte of range r that fd no longer holds, or UINT64_MAX; -1 with errno on a read error. */
static int
first_difference(const sbat_image_range *r, const sbat_io *io, int fd, uint8_t *buf, uint64_t *ret)
{
	size_t at = 0;

	*ret = UINT64_MAX;
	while (at < r->len) {
		size_t n = r->len - at < CHUNK ? r->len - at : CHUNK, i;
		int rc = io_pread_all(io, fd, buf, n, r->offset + at);

		if (rc == SBAT_IO_SHRANK) {
			*ret = r->offset + at;
			return 0;
		}
		if (rc != 0)
			return -1;
		for (i = 0; i < n; i++)
			if (buf[i] != r->bytes[at + i]) {
				*ret = r->offset + at + i;
				return 0;
			}
		at += n;
	}
	return 0;
}

sbat_err
decided_check(const sbat_image *img, const sbat_io *io, int fd, sbat_diag *d)
{
	uint8_t *buf = malloc(CHUNK);
	uint64_t at = UINT64_MAX;
	unsigned i;
	int rc = 0;

	if (!buf)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	for (i = 0; i < img->n_decided && rc == 0 && at == UINT64_MAX; i++)
		rc = first_difference(&img->decided_range[i], io, fd, buf, &at);
	free(buf);
	if (rc != 0)
		return diag_fail_errno(d, SBAT_E_IO, "cannot read the file again to compare it", errno);
	if (at != UINT64_MAX)
		return diag_fail_at(d, SBAT_E_CHANGED,
		                    "the file was modified after it was read, nothing was written: "
		                    "the edit would have undone the change",
		                    at);
	return SBAT_OK;
}
