/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bootmgr.h - a Windows boot manager against dbx's SVN entries for it */
#ifndef SBAT_WALK_BOOTMGR_H
#define SBAT_WALK_BOOTMGR_H

#include "sbat/bootreport.h"

#include "walk/walk.h"

/*
 * The Windows boot manager's own check of dbx when it starts, for the
 * stage-1 image im whose line st has its verdict from the firmware's
 * checks: with signatures judged, Secure Boot on and an SVN entry for the
 * boot manager in dbx, an image named bootmgfw.efi or carrying the
 * resource BOOTMGRSECURITYVERSIONNUMBER gets st's svn_* facts. Its SVN
 * below the floor refuses it, one that cannot be read (of a bootmgfw.efi)
 * makes it unknown, each by reason and gate BOOTMGR_SVN; a refusal
 * already made (the firmware's) stays, as does an unknown signature when
 * the SVN is not read. The firmware itself compares no SVN (EDK2 takes the
 * entries for image hashes that match nothing).
 */
void bootmgr_svn_gate(walk *w, const image *im, sbat_boot_stage *st);

#endif
