/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* textbuf.c - a line built piece by piece in a buffer of fixed size */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "textbuf.h"

void
cli_textbuf_init(cli_textbuf *t, char *buf, size_t size)
{
	t->buf = buf;
	t->size = size;
	buf[0] = '\0';
}

void
cli_textbuf_put(cli_textbuf *t, const char *fmt, ...)
{
	size_t n = strnlen(t->buf, t->size);
	va_list ap;

	if (n + 1 >= t->size)
		return;
	va_start(ap, fmt);
	vsnprintf(t->buf + n, t->size - n, fmt, ap);
	va_end(ap);
}
