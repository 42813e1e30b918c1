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

/* s, or NULL when it is empty. */
static const char *
or_null(const char *s)
{
	return s[0] ? s : NULL;
}

void
menu_files_put(const menu_list *m, sbat_boot_note *n)
{
	const menu_files *f = &m->files;
	size_t i;

	n->what = SBAT_BOOT_NOTE_MENU_FILES;
	n->loader = m->loader;
	n->conf_file = or_null(f->conf_file);
	n->conf_default = f->has_default ? f->conf_default : NULL;
	n->conf_default_line = f->default_line;
	n->listed = f->listed;
	n->left_out = f->left_out;
	n->xbootldr = or_null(f->xbootldr);
	n->n_chain = f->n_chain;
	for (i = 0; i < f->n_chain; i++) {
		n->chain[i] = i == 0 && f->embedded ? NULL : f->chain[i];
		n->chain_host[i] = or_null(f->chain_host[i]);
	}
	n->chain_on_esp = f->on_esp;
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
