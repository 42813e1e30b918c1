/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* menu.c - a loader's menu as stage 3 reads it: the files it starts, one item each, and the text of its lines */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "walk/menu.h"

menu_item *
menu_add(menu_list *m)
{
	menu_item *it;

	if (m->n_items == MENU_MAX_ITEMS) {
		m->n_dropped++;
		return NULL;
	}
	if (!m->items) {
		m->items = calloc(MENU_MAX_ITEMS, sizeof(*m->items));
		if (!m->items)
			return NULL;
	}
	it = &m->items[m->n_items++];
	memset(it, 0, sizeof(*it));
	return it;
}

const char *
menu_is(const char *why)
{
	return strcmp(why, "missing") == 0 ? "is missing" : why;
}

void
menu_copy(char *buf, size_t size, const char *text)
{
	size_t n = strlen(text);

	if (n >= size)
		n = size - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
}

void
menu_append(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strnlen(buf, size);
	va_list ap;

	if (n + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
}
