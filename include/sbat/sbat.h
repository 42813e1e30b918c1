/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sbat.h - the sbat-add library: parse PE/COFF images and edit their .sbat section */
#ifndef SBAT_SBAT_H
#define SBAT_SBAT_H

#include "sbat/version.h"

#include "error.h"
#include "image.h"
#include "csv.h"
#include "edit.h"
#include "input.h"
#include "output.h"
#include "level.h"
#include "lint.h"
#include "boot.h"
#include "uki.h"
#include "kv.h"
#include "grubcfg.h"
#include "loadoption.h"
#include "shim.h"
#include "judge.h"
#include "scan.h"
#include "partition.h"
#include "efivar.h"
#include "bootreport.h"
#include "fallback.h"
#include "sigdb.h"
#include "sdboot.h"
#include "authenticode.h"
#include "nextstate.h"
#include "walk.h"
#include "history.h"
#include "sigverify.h"
#include "eventlog.h"
#include "pcr7.h"
#include "pcrnext.h"
#include "luks.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif
