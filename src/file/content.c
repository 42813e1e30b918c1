/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* content.c - a sum of a file's bytes, to see a change that the time stamps cannot */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file/content.h"

#define SUM_K 0x9e3779b97f4a7c15ull
#define SUM_CHUNK (1u << 20)

/*
 * Four independent lanes, each (h ^ word) * odd constant per 8 bytes: both
 * steps are bijective, so a lane's result changes with any one word. The
 * lanes keep the multiplier busy; the length and the tail go in last.
 */
typedef struct sum_state {
	uint64_t h[4];
	uint64_t len;
} sum_state;

static void
sum_init(sum_state *s)
{
	s->h[0] = 0x243f6a8885a308d3ull;
	s->h[1] = 0x13198a2e03707344ull;
	s->h[2] = 0xa4093822299f31d0ull;
	s->h[3] = 0x082efa98ec4e6c89ull;
	s->len = 0;
}

/* len a multiple of 32, except for the last call */
static void
sum_add(sum_state *s, const uint8_t *p, size_t len)
{
	uint64_t w[4], h0 = s->h[0], h1 = s->h[1], h2 = s->h[2], h3 = s->h[3];
	size_t i;

	s->len += len;
	for (; len >= 32; p += 32, len -= 32) {
		memcpy(w, p, 32);
		h0 = (h0 ^ w[0]) * SUM_K;
		h1 = (h1 ^ w[1]) * SUM_K;
		h2 = (h2 ^ w[2]) * SUM_K;
		h3 = (h3 ^ w[3]) * SUM_K;
	}
	for (i = 0; i < len; i++)
		h0 = (h0 ^ p[i]) * SUM_K;
	s->h[0] = h0;
	s->h[1] = h1;
	s->h[2] = h2;
	s->h[3] = h3;
}

static uint64_t
sum_end(const sum_state *s)
{
	uint64_t h = s->len * SUM_K;
	int i;

	for (i = 0; i < 4; i++) {
		h = (h ^ s->h[i]) * SUM_K;
		h ^= h >> 29;
	}
	return h;
}

/* Fill buf with len bytes at offset; a file that ends first is EIO. 0, or -1 with errno. */
static int
read_full(int fd, uint8_t *buf, size_t len, uint64_t offset)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, (off_t)(offset + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			return errno = EIO, -1;
		got += (size_t)n;
	}
	return 0;
}

int
sbat_content_sum_fd(int fd, size_t len, uint64_t *ret)
{
	sum_state s;
	uint8_t *buf;
	size_t done = 0;

	buf = malloc(SUM_CHUNK);
	if (!buf)
		return errno = ENOMEM, -1;
	sum_init(&s);
	while (done < len) {
		/* whole chunks (multiples of 32) until the last: the same sum as one call over all */
		size_t want = len - done < SUM_CHUNK ? len - done : SUM_CHUNK;

		if (read_full(fd, buf, want, done) != 0) {
			int err = errno;

			free(buf);
			return errno = err, -1;
		}
		sum_add(&s, buf, want);
		done += want;
	}
	free(buf);
	*ret = sum_end(&s);
	return 0;
}
