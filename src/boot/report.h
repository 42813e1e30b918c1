/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* report.h - what only the walk sets on a report */
#ifndef SBAT_BOOT_REPORT_H
#define SBAT_BOOT_REPORT_H

#include "sbat/bootreport.h"

/* The walk stopped before any path: no UEFI variables, or one it needs does not read. */
void report_mark_stopped(sbat_boot_report *r, int no_variables, int failed);

#endif
