/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* level_running.c - the SbatLevel this machine holds: shim's SbatLevelRT in efivarfs */
#include <stdlib.h>
#include <sys/stat.h>

#include "sbat/efivar.h"
#include "sbat/level.h"

sbat_err
sbat_level_running(const char *dir, sbat_level **ret, sbat_level_absence *absent, sbat_diag *reterr)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	struct stat st;
	sbat_err err;

	*ret = NULL;
	*absent = SBAT_LEVEL_PRESENT;
	if (!dir)
		dir = SBAT_EFIVAR_DIR;
	err = sbat_efivar_read(dir, SBAT_LEVEL_EFIVAR_NAME, SBAT_LEVEL_MAX_SIZE, &buf, &len, reterr);
	if (err == SBAT_OK && !buf)
		*absent = stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ? SBAT_LEVEL_NO_EFIVARFS : SBAT_LEVEL_NO_VARIABLE;
	else if (err == SBAT_OK)
		err = sbat_level_from_efivar(buf, len, NULL, ret, reterr);
	free(buf);
	return err;
}
