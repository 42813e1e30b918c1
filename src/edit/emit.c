/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* emit.c - write a planned image in one pass: extents, patches and the checksum */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edit/emit.h"

#include "pe/checksum.h"
#include "util/diag.h"
#include "file/io_table.h"
#include "util/le.h"

/* Bytes handled per step when data passes through memory. */
#define EMIT_CHUNK (256u * 1024u)

/*
 * Written bytes are handed to the device in steps of this size while the
 * rest is still being written (a durable output is fsynced at the end):
 * through memory with a CheckSum, the device then works while the data is
 * read, summed and written, instead of after it (ext4, 100 MiB: 6% less time).
 */
#define WRITEBACK_STEP (8u * 1024u * 1024u)

typedef struct emitter {
	plan *p;
	const uint8_t *in;
	const uint8_t *payload;
	const sink *out;
	uint8_t *buf;
	csum sum;
	uint64_t unflushed; /* output bytes from here to `written` are not yet handed to the device */
	uint64_t written;   /* the end of the last write */
	sbat_diag *d;
} emitter;

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
	if (!em->out->writeback)
		return SBAT_OK;
	if (pos != em->written) /* not after the last write (a patch): start again here */
		em->unflushed = pos;
	em->written = pos + n;
	if (em->written - em->unflushed >= WRITEBACK_STEP) {
		io_start_writeback(em->out->fd, em->unflushed, em->written - em->unflushed);
		em->unflushed = em->written;
	}
	return SBAT_OK;
}

static sbat_err
pread_all(const emitter *em, int fd, uint8_t *buf, size_t n, uint64_t offset, const char *what)
{
	int rc = io_pread_all(em->out->io, fd, buf, n, offset);

	if (rc == SBAT_IO_SHRANK)
		return diag_fail(em->d, SBAT_E_CHANGED, "the input shrank while being read");
	if (rc != 0)
		return diag_fail_errno(em->d, SBAT_E_IO, what, errno);
	return SBAT_OK;
}

/* Fill buf with n bytes of extent e starting `off` into it. */
static sbat_err
fill(emitter *em, const extent *e, uint64_t off, size_t n)
{
	sbat_err err;

	switch (e->kind) {
	case EXTENT_COPY:
		if (em->out->in_fd < 0) {
			memcpy(em->buf, em->in + e->src + off, n);
			break;
		}
		err = pread_all(em, em->out->in_fd, em->buf, n, e->src + off, "cannot read the input");
		if (err)
			return err;
		if (em->out->fp)
			content_fp_add(em->out->fp, e->src + off, em->buf, n);
		break;
	case EXTENT_PAYLOAD: memcpy(em->buf, em->payload + off, n); break;
	case EXTENT_ZERO: memset(em->buf, 0, n); break;
	}
	return SBAT_OK;
}

/*
 * Bytes [from, to) of an extent through memory, a chunk at a time: fill,
 * patch, sum (when a CheckSum is due) and, if `write`, write, so the sum
 * covers exactly the bytes written. Without `write` it only sums: the
 * range a dry run leaves unwritten.
 */
static sbat_err
emit_buffered(emitter *em, const extent *e, uint64_t pos, uint64_t from, uint64_t to, int write)
{
	uint64_t off;
	sbat_err err;

	if (!write && !em->p->update_checksum && !em->out->fp)
		return SBAT_OK;
	for (off = from; off < to;) {
		size_t n = to - off > EMIT_CHUNK ? EMIT_CHUNK : (size_t)(to - off);

		err = fill(em, e, off, n);
		if (err)
			return err;
		apply_patches(em->p, em->buf, pos + off, n);
		if (em->p->update_checksum)
			checksum_add(&em->sum, pos + off, em->buf, n);
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
 * written afterwards. With a CheckSum due, the bytes the kernel copied are
 * read once more only to be summed (where the kernel shares the data, XFS
 * or btrfs, that costs less than writing them). Falls back to buffered
 * copying where the kernel cannot do it.
 */
static sbat_err
emit_copy(emitter *em, const extent *e, uint64_t pos, int *direct)
{
	uint64_t done = 0;
	sbat_err err;

	if (*direct) {
		int rc = io_copy_range(em->out->io, em->out->in_fd, e->src, em->out->fd, pos, e->len, &done);

		if (rc == SBAT_IO_SHRANK)
			return diag_fail(em->d, SBAT_E_CHANGED, "the input shrank while being read");
		if (rc != 0 && errno != ENOSYS && errno != EXDEV && errno != EINVAL && errno != EOPNOTSUPP &&
		    errno != EBADF && errno != ETXTBSY)
			return diag_fail_errno(em->d, SBAT_E_IO, "cannot copy into the output", errno);
		/* on failure the rest goes through the buffer */
		*direct = rc == 0;
	}
	err = emit_buffered(em, e, pos, 0, done, 0);
	if (!err)
		err = emit_buffered(em, e, pos, done, e->len, 1);
	return err;
}

/* A dry run writes a copy extent only below sparse_from; the rest is only summed. */
static sbat_err
emit_sparse(emitter *em, const extent *e, uint64_t pos)
{
	uint64_t keep = em->out->sparse_from > pos ? em->out->sparse_from - pos : 0;
	sbat_err err;

	if (keep > e->len)
		keep = e->len;
	err = emit_buffered(em, e, pos, 0, keep, 1);
	if (!err)
		err = emit_buffered(em, e, pos, keep, e->len, 0);
	return err;
}

/* Patches over kernel-copied ranges; rewriting the rest is harmless. */
static sbat_err
write_patches(emitter *em)
{
	sbat_err err = SBAT_OK;
	unsigned i;

	for (i = 0; i < em->p->n_patches && !err; i++) {
		const patch *q = &em->p->patches[i];
		uint64_t off;

		for (off = 0; off < q->len && !err; off += EMIT_CHUNK) {
			size_t n = q->len - off > EMIT_CHUNK ? EMIT_CHUNK : (size_t)(q->len - off);

			if (q->zero)
				memset(em->buf, 0, n);
			else
				memcpy(em->buf, q->bytes + off, n);
			err = put(em, q->offset + off, em->buf, n);
		}
	}
	return err;
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
emit_plan(plan *p, const uint8_t *in, size_t in_len, const uint8_t *payload, size_t payload_len, const sink *out,
          sbat_diag *d)
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
	em.unflushed = 0;
	em.written = 0;
	checksum_init(&em.sum, p->checksum_offset);
	em.buf = malloc(EMIT_CHUNK);
	if (!em.buf)
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	/*
	 * Copied ranges go file to file when both ends are files. With a
	 * CheckSum due every byte must pass through memory to be summed: where
	 * the kernel copies the data (ext4) read, sum, write is faster than a
	 * kernel copy and a read back (100 MiB: 34 ms against 41 ms; cp takes
	 * 30 ms), but where it shares them (XFS, btrfs) a clone and a read are
	 * faster than a read and a write. The fingerprint of the input is taken
	 * from the bytes copied, so it always goes read, write.
	 */
	direct = !out->mem && out->in_fd >= 0 && !out->fp &&
	         (!p->update_checksum || io_copy_preferred(out->io, out->fd));

	for (i = 0; i < p->n_extents && !err; i++) {
		const extent *e = &p->extents[i];

		if (e->kind == EXTENT_COPY && pos + e->len > out->sparse_from)
			err = emit_sparse(&em, e, pos);
		else if (e->kind == EXTENT_COPY && direct)
			err = emit_copy(&em, e, pos, &direct);
		else
			err = emit_buffered(&em, e, pos, 0, e->len, 1);
		pos += e->len;
	}
	if (!err && !out->mem)
		err = write_patches(&em);
	if (!err && p->update_checksum) {
		p->report.new_checksum = checksum_final(&em.sum, p->output_size);
		le32_put(field, p->report.new_checksum);
		err = put(&em, p->checksum_offset, field, sizeof(field));
	} else if (!err) {
		p->report.new_checksum = p->report.old_checksum;
	}
	free(em.buf);
	return err;
}
