/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* sbat.h - the sbat-add library: parse PE/COFF images and edit their .sbat section */
#ifndef SBAT_SBAT_H
#define SBAT_SBAT_H

#define SBAT_ADD_VERSION "0.1.0"

#include "error.h"
#include "pe.h"
#include "csv.h"
#include "edit.h"
#include "fileio.h"
#include "level.h"

#endif
