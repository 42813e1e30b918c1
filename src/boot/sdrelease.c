/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * sdrelease.c - systemd-boot by release. A release that changes how the
 * menu is built gets one row here, with a feature bit (sbat_sdboot_feature)
 * for each rule it adds; the readers (sdmenu.c, sdentry.c) test the bits,
 * never a release number. From systemd's src/boot/boot.c of each tag.
 */
#include "boot/sdrelease.h"

#define CASE_FOLDED SBAT_SDBOOT_CASE_FOLDED
#define R258 (CASE_FOLDED | SBAT_SDBOOT_UKI_KEY | SBAT_SDBOOT_ONE_KIND | SBAT_SDBOOT_SYSFAIL)

static const sdrelease rows[] = {
	{ 252, 0 },                                     /* the oldest modelled */
	{ 257, CASE_FOLDED },                           /* strncaseeq/strcaseeq for arch, "auto-", suffix */
	{ 258, R258 },                                  /* `uki`, one kind per entry, LoaderEntrySysFail */
	{ 259, R258 | SBAT_SDBOOT_ID_WITHOUT_COUNTER }, /* the boot counter leaves the id */
};

const sdrelease *
sdrelease_rows(size_t *n)
{
	*n = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

const sdrelease *
sdrelease_of(unsigned release)
{
	size_t i = sizeof(rows) / sizeof(rows[0]);

	while (i-- > 0)
		if (release >= rows[i].release)
			return &rows[i];
	return NULL;
}
