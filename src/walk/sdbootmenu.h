/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sdbootmenu.h - systemd-boot's menu: its entries, its default and the files they start */
#ifndef SBAT_WALK_SDBOOTMENU_H
#define SBAT_WALK_SDBOOTMENU_H

#include "walk/menu.h"
#include "walk/walk.h"

/* systemd-boot: recognised by its .sdmagic LoaderInfo (or .osrel ID). */
int sdbootmenu_is_sdboot(const image *im);
void sdbootmenu_read(walk *w, const char *esp, const char *loader_path, const image *loader, menu_list *m);

#endif
