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

void
menu_reason_set(menu_reason *r, sbat_boot_menu_why why)
{
	memset(r, 0, sizeof(*r));
	r->why = why;
}

void
menu_reason_put(const menu_reason *r, sbat_boot_stage *st)
{
	st->menu_why = r->why;
	st->menu_path = r->path[0] ? r->path : NULL;
	st->menu_file = r->file[0] ? r->file : NULL;
	st->menu_word = r->word[0] ? r->word : NULL;
	st->menu_text = r->text[0] ? r->text : NULL;
	st->menu_arch = r->arch[0] ? r->arch : NULL;
	st->menu_line = r->line;
	st->miss = r->miss;
	st->diag = r->diag;
	st->sdboot_out = r->sdboot_out;
	st->sdboot_rules = r->sdboot_rules;
	st->over = r->over;
	st->limit = r->limit;
}

void
menu_default_put(const menu_list *m, int *sdboot_by, sbat_boot_grub_by *grub_by, const char **value,
                 const char **setting, unsigned *line, int *flags)
{
	*sdboot_by = m->sdboot_by;
	*grub_by = m->grub_by;
	*value = m->default_value;
	*setting = m->default_setting;
	*line = m->default_line;
	*flags = m->default_flags;
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
