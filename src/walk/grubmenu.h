/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* grubmenu.h - GRUB's menu: grub.cfg next to it on the ESP, the one it names on /boot, its kernels and its default */
#ifndef SBAT_WALK_GRUBMENU_H
#define SBAT_WALK_GRUBMENU_H

#include "walk/menu.h"
#include "walk/walk.h"

/*
 * GRUB: recognised by its module section "mods" or a grub row in its .sbat;
 * its menu starts from what its mods section carries (loader, opened).
 */
int grubmenu_is_grub(const image *im);
void grubmenu_read(walk *w, const char *esp, const char *loader_path, const image *loader, menu_list *m);

#endif
