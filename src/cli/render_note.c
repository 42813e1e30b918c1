/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_note.c - a note of the boot report in words: what it is about, then its facts */
#include <stdio.h>

#include "sbat/bootreport.h"

#include "render_note.h"
#include "render_stage3.h"
#include "textbuf.h"

/* "GRUB default entry: ...": what chose the default entry of a loader's menu. */
static void
default_entry_words(const sbat_boot_note *n, cli_textbuf *t)
{
	cli_default_facts d;

	d.loader = n->loader;
	d.sdboot_by = n->sdboot_by;
	d.grub_by = n->grub_by;
	d.default_value = n->default_value ? n->default_value : "";
	d.default_setting = n->default_setting ? n->default_setting : "";
	d.default_line = n->default_line;
	d.default_flags = n->default_flags;
	cli_textbuf_put(t, "%s default entry: ", n->loader == SBAT_BOOT_LOADER_GRUB ? "GRUB" : "systemd-boot");
	cli_render_stage3_default_words(&d, t);
}

const char *
cli_render_note(const sbat_boot_note *n, char *buf, size_t size)
{
	cli_textbuf t;

	if (n->text || n->what == SBAT_BOOT_NOTE_TEXT)
		return n->text;
	cli_textbuf_init(&t, buf, size);
	switch (n->what) {
	case SBAT_BOOT_NOTE_DEFAULT_ENTRY: default_entry_words(n, &t); break;
	default: break;
	}
	return buf;
}
