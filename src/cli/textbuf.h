/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* textbuf.h - a line built piece by piece in a buffer of fixed size */
#ifndef SBAT_CLI_TEXTBUF_H
#define SBAT_CLI_TEXTBUF_H

#include <stddef.h>

/* The text so far in buf[0..size), always NUL-terminated; what does not fit is cut. */
typedef struct cli_textbuf {
	char *buf;
	size_t size;
} cli_textbuf;

/* An empty text in buf[0..size) (size > 0). */
void cli_textbuf_init(cli_textbuf *t, char *buf, size_t size);

/* Append formatted text. */
#if defined(__GNUC__)
__attribute__((format(__printf__, 2, 3)))
#endif
void
cli_textbuf_put(cli_textbuf *t, const char *fmt, ...);

#endif
