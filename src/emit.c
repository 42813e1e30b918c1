/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* emit.c - write a planned image in one pass: extents, patches and the checksum */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"

#include "checksum.h"
#include "diag.h"
#include "io.h"
#include "le.h"

/* Bytes handled per step when data passes through memory. */
#define EMIT_CHUNK (256u * 1024u)

typedef struct emitter {
	plan *p;
	const uint8_t *in;
	const uint8_t *payload;
	const sink *out;
	uint8_t *buf;
	csum sum;
	sbat_diag *d;
} emitter;

int
plan_is_identity(const plan *p, const uint8_t *in, size_t in_len, const uint8_t *payload)
{
	uint64_t pos = 0;
	unsigned i;

	if (p->output_size != in_len)
		return 0;
	for (i = 0; i < p->n_extents; i++) {
		const extent *e = &p->extents[i];

		if (e->kind == EXTENT_COPY && e->src != pos)
			return 0;
		if (e->kind == EXTENT_PAYLOAD && memcmp(in + pos, payload, (size_t)e->len) != 0)
			return 0;
		if (e->kind == EXTENT_ZERO && !plan_all_bytes(in + pos, e->len, 0))
			return 0;
		pos += e->len;
	}
	for (i = 0; i < p->n_patches; i++) {
		const patch *q = &p->patches[i];

		if (q->zero ? !plan_all_bytes(in + q->offset, q->len, 0) : memcmp(in + q->offset, q->bytes, (size_t)q->len) != 0)
			return 0;
	}
	return 1;
}

/* Patches that overlap [pos, pos+n) of the output, written into buf. */
static void
apply_patches(const plan *p, uint8_t *buf, uint64_t pos, uint64_t n)
{
	unsigned i;

	for (i = 0; i < p->n_patches; i++) {
		const patch *q = &p->patches[i];
		uint64_t a = q->offset > pos ? q->offset : pos;
		uint64_t b = q->offset + q->len < pos + n ? q->offset + q->len : pos + n;

		if (a >= b)
			continue;
		if (q->zero)
			memset(buf + (a - pos), 0, (size_t)(b - a));
		else
			memcpy(buf + (a - pos), q->bytes + (a - q->offset), (size_t)(b - a));
	}
}

static sbat_err
put(emitter *em, uint64_t pos, const uint8_t *bytes, size_t n)
{
	if (em->out->mem) {
		memcpy(em->out->mem + pos, bytes, n);
		return SBAT_OK;
	}
	if (io_pwrite_all(em->out->io, em->out->fd, bytes, n, pos) != 0)
		return diag_fail_errno(em->d, SBAT_E_IO, "cannot write the output", errno);
	return SBAT_OK;
}

/* Fill buf with n output bytes of extent e starting `off` into it. */
static sbat_err
fill(emitter *em, const extent *e, uint64_t off, size_t n)
{
	switch (e->kind) {
	case EXTENT_COPY:
		if (em->out->in_fd >= 0) {
			size_t got = 0;

			while (got < n) {
				ssize_t r = pread(em->out->in_fd, em->buf + got, n - got,
				                  (off_t)(e->src + off + got));

				if (r < 0 && errno == EINTR)
					continue;
				if (r <= 0)
					return diag_fail_errno(em->d, SBAT_E_IO, "cannot read the input",
					                       r < 0 ? errno : EIO);
				got += (size_t)r;
			}
		} else {
			memcpy(em->buf, em->in + e->src + off, n);
		}
		break;
	case EXTENT_PAYLOAD:
		memcpy(em->buf, em->payload + off, n);
		break;
	case EXTENT_ZERO:
		memset(em->buf, 0, n);
		break;
	}
	return SBAT_OK;
}

/*
 * Bytes [from, to) of an extent through memory, a chunk at a time: fill,
 * patch, sum (when a CheckSum is due) and, if `write`, write. Without
 * `write` it only sums a range the kernel has already copied.
 */
static sbat_err
emit_buffered(emitter *em, const extent *e, uint64_t pos, uint64_t from, uint64_t to, int write)
{
	uint64_t off;
	sbat_err err;

	for (off = from; off < to; ) {
		size_t n = to - off > EMIT_CHUNK ? EMIT_CHUNK : (size_t)(to - off);

		err = fill(em, e, off, n);
		if (err)
			return err;
		apply_patches(em->p, em->buf, pos + off, n);
		if (em->p->update_checksum)
			csum_add(&em->sum, pos + off, em->buf, n);
		if (write) {
			err = put(em, pos + off, em->buf, n);
			if (err)
				return err;
		}
		off += n;
	}
	return SBAT_OK;
}

/*
 * A copy extent file to file inside the kernel; patches over it are
 * written afterwards. When a CheckSum is due, the input range is then read
 * back once to sum it, which costs far less than passing every byte through
 * a write. Falls back to buffered copying where the kernel cannot do it.
 */
static sbat_err
emit_copy(emitter *em, const extent *e, uint64_t pos, int *direct)
{
	uint64_t done = 0;

	if (*direct) {
		int ok = io_copy_range(em->out->io, em->out->in_fd, e->src, em->out->fd, pos, e->len, &done) == 0;

		if (!ok && errno != ENOSYS && errno != EXDEV && errno != EINVAL && errno != EOPNOTSUPP &&
		    errno != EBADF && errno != ETXTBSY)
			return diag_fail_errno(em->d, SBAT_E_IO, "cannot copy into the output", errno);
		/* sum what the kernel copied; on failure the rest goes through the buffer */
		if (done && em->p->update_checksum) {
			sbat_err err = emit_buffered(em, e, pos, 0, done, 0);

			if (err)
				return err;
		}
		if (ok)
			return SBAT_OK;
		*direct = 0;
	}
	return emit_buffered(em, e, pos, done, e->len, 1);
}

static sbat_err
check_layout(const plan *p, size_t in_len, size_t payload_len, sbat_diag *d)
{
	uint64_t total = 0;
	unsigned i;

	for (i = 0; i < p->n_extents; i++) {
		const extent *e = &p->extents[i];

		if (e->kind == EXTENT_COPY && (e->src > in_len || e->len > in_len - e->src))
			goto bad;
		if (e->kind == EXTENT_PAYLOAD && e->len != payload_len)
			goto bad;
		total += e->len;
	}
	/* the planned size must equal what the extents lay out, byte for byte */
	if (total != p->output_size || total == 0 || total > SIZE_MAX)
		goto bad;
	for (i = 0; i < p->n_patches; i++) {
		const patch *q = &p->patches[i];

		if (q->offset > total || q->len > total - q->offset || (!q->zero && q->len > sizeof(q->bytes)))
			goto bad;
	}
	if (p->update_checksum && (p->checksum_offset > total || total - p->checksum_offset < 4))
		goto bad;
	return SBAT_OK;
bad:
	return diag_fail(d, SBAT_E_LAYOUT, "internal error: planned extents do not add up");
}

sbat_err
plan_emit(plan *p, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len,
          const sink *out, sbat_diag *d)
{
	emitter em;
	uint64_t pos = 0;
	uint8_t field[4];
	int direct;
	unsigned i;
	sbat_err err;

	err = check_layout(p, in_len, payload_len, d);
	if (err)
		return err;
	em.p = p;
	em.in = in;
	em.payload = payload;
	em.out = out;
	em.d = d;
	csum_init(&em.sum, p->checksum_offset);
	em.buf = malloc(EMIT_CHUNK);
	if (!em.buf)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	/* copied ranges go file to file whenever both ends are files */
	direct = !out->mem && out->in_fd >= 0;

	for (i = 0; i < p->n_extents && !err; i++) {
		const extent *e = &p->extents[i];

		if (e->kind == EXTENT_COPY && direct)
			err = emit_copy(&em, e, pos, &direct);
		else
			err = emit_buffered(&em, e, pos, 0, e->len, 1);
		pos += e->len;
	}
	/* patches over kernel-copied ranges; rewriting the rest is harmless */
	for (i = 0; i < p->n_patches && !err && !out->mem; i++) {
		const patch *q = &p->patches[i];
		uint64_t off;

		for (off = 0; off < q->len && !err; off += EMIT_CHUNK) {
			size_t n = q->len - off > EMIT_CHUNK ? EMIT_CHUNK : (size_t)(q->len - off);

			if (q->zero)
				memset(em.buf, 0, n);
			else
				memcpy(em.buf, q->bytes + off, n);
			err = put(&em, q->offset + off, em.buf, n);
		}
	}
	if (!err && p->update_checksum) {
		p->report.new_checksum = csum_final(&em.sum, p->output_size);
		le32_put(field, p->report.new_checksum);
		err = put(&em, p->checksum_offset, field, sizeof(field));
	} else if (!err) {
		p->report.new_checksum = p->report.old_checksum;
	}
	free(em.buf);
	return err;
}
