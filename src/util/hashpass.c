/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* hashpass.c - SHA-256 streams over pieces of one file, computed in one read of it (with SHA-1, SHA-384 or SHA-512 beside) */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/ckd.h"
#include "util/diag.h"
#include "util/hashpass.h"

/* The other digests of s, fed what its SHA-256 is fed. */
static void
feed_side(hashpass_stream *s, const uint8_t *p, size_t n)
{
	if (s->sha1)
		sha1_update(s->sha1, p, n);
	if (s->sha384 && s->sha512)
		sha512_update2(s->sha384, s->sha512, p, n);
	else if (s->sha384)
		sha512_update(s->sha384, p, n);
	else if (s->sha512)
		sha512_update(s->sha512, p, n);
}

static void
feed1(hashpass_stream *s, const uint8_t *p, size_t n)
{
	sha256_update(&s->ctx, p, n);
	feed_side(s, p, n);
}

static void
feed2(hashpass_stream *a, const uint8_t *pa, size_t na, hashpass_stream *b, const uint8_t *pb, size_t nb)
{
	sha256_update2(&a->ctx, pa, na, &b->ctx, pb, nb);
	feed_side(a, pa, na);
	feed_side(b, pb, nb);
}

/* Hash the pieces of s that need no read, up to its next file piece; 1 when it has one. */
static int
to_next_file_piece(hashpass_stream *s)
{
	static const uint8_t zero[4096];

	for (; s->cur < s->n_seg; s->cur++, s->done = 0) {
		const hashpass_seg *g = &s->seg[s->cur];
		uint64_t left = g->len - s->done;

		if (g->kind == HASHPASS_FILE && left)
			return 1;
		if (g->kind == HASHPASS_MEM)
			feed1(s, g->mem + s->done, (size_t)left);
		for (; g->kind == HASHPASS_ZEROS && left; left -= left < sizeof(zero) ? left : sizeof(zero))
			feed1(s, zero, left < sizeof(zero) ? (size_t)left : sizeof(zero));
	}
	return 0;
}

/* The file offset of the next byte s needs (it is at a file piece). */
static uint64_t
next_byte(const hashpass_stream *s)
{
	return s->seg[s->cur].off + s->done;
}

/* The block that starts at pos: up to the furthest piece end, within HASHPASS_CHUNK, of the streams it serves. */
static uint64_t
block_end(const hashpass_stream *s, size_t n, uint64_t pos)
{
	uint64_t lim = pos + (UINT64_MAX - pos < HASHPASS_CHUNK ? UINT64_MAX - pos : HASHPASS_CHUNK), end = pos;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t at, piece_end;

		if (s[i].cur >= s[i].n_seg || (at = next_byte(&s[i])) < pos || at >= lim)
			continue;
		piece_end = s[i].seg[s[i].cur].off + s[i].seg[s[i].cur].len;
		if (piece_end > lim)
			piece_end = lim;
		if (piece_end > end)
			end = piece_end;
	}
	return end;
}

/* Feed each stream whose next byte is in the block [pos, end) at p what it needs of it, two at a time. */
static void
feed_block(hashpass_stream *s, size_t n, uint64_t pos, uint64_t end, const uint8_t *p)
{
	hashpass_stream *pending = NULL;
	const uint8_t *pending_p = NULL;
	size_t pending_n = 0, i;

	for (i = 0; i < n; i++) {
		hashpass_stream *t = &s[i];
		uint64_t at, stop;

		if (t->cur >= t->n_seg || (at = next_byte(t)) < pos || at >= end)
			continue;
		stop = t->seg[t->cur].off + t->seg[t->cur].len;
		stop = stop < end ? stop : end;
		t->done += stop - at;
		if (!pending) {
			pending = t;
			pending_p = p + (at - pos);
			pending_n = (size_t)(stop - at);
			continue;
		}
		feed2(pending, pending_p, pending_n, t, p + (at - pos), (size_t)(stop - at));
		pending = NULL;
	}
	if (pending)
		feed1(pending, pending_p, pending_n);
}

/* Read [pos, pos + n) of fd into buf. */
static sbat_err
read_block(int fd, uint8_t *buf, uint64_t pos, size_t n, sbat_diag *d)
{
	size_t have = 0;

	while (have < n) {
		ssize_t got = pread(fd, buf + have, n - have, (off_t)(pos + have));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return diag_fail_errno(d, SBAT_E_IO, "cannot read the image to hash it", errno);
		if (got == 0)
			return diag_fail_at(d, SBAT_E_PE_TRUNCATED, "the file ended while it was hashed", pos + have);
		have += (size_t)got;
	}
	return SBAT_OK;
}

/* Start every stream; fails when a file piece's end overflows or (fd < 0) passes buf_len. */
static sbat_err
start(hashpass_stream *s, size_t n, int fd, uint64_t buf_len, sbat_diag *d)
{
	uint64_t end;
	size_t i, j;

	for (i = 0; i < n; i++) {
		sha256_init(&s[i].ctx);
		s[i].cur = 0;
		s[i].done = 0;
		for (j = 0; j < s[i].n_seg; j++) {
			const hashpass_seg *g = &s[i].seg[j];

			if (g->kind == HASHPASS_FILE &&
			    (ckd_add_u64(&end, g->off, g->len) || (fd < 0 && end > buf_len)))
				return diag_fail_at(d, SBAT_E_PE_TRUNCATED,
				                    "the bytes to hash run past the end of the file", g->off);
		}
	}
	return SBAT_OK;
}

sbat_err
hashpass_run(hashpass_stream *s, size_t n, int fd, const uint8_t *buf, uint64_t buf_len, sbat_diag *d)
{
	uint8_t *scratch = NULL;
	sbat_err err = start(s, n, fd, buf_len, d);

	if (!err && fd >= 0 && !(scratch = malloc(HASHPASS_CHUNK)))
		err = diag_fail(d, SBAT_E_NOMEM, "out of memory for reading the image");
	while (!err) {
		uint64_t pos = UINT64_MAX, end;
		size_t i;

		for (i = 0; i < n; i++)
			if (to_next_file_piece(&s[i]) && next_byte(&s[i]) < pos)
				pos = next_byte(&s[i]);
		if (pos == UINT64_MAX)
			break;
		end = block_end(s, n, pos);
		if (fd >= 0)
			err = read_block(fd, scratch, pos, (size_t)(end - pos), d);
		if (!err)
			feed_block(s, n, pos, end, fd >= 0 ? scratch : buf + pos);
	}
	free(scratch);
	return err;
}
