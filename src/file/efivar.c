/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* efivar.c - UEFI variables read from efivarfs (or a copy of it), never through a link */
#include <errno.h>
#include <stdlib.h>

#include "sbat/efivar.h"
#include "sbat/input.h"

#include "file/input.h"
#include "util/diag.h"

/* The 4 attribute bytes every efivarfs file starts with. */
#define ATTRIBUTES_SIZE 4

sbat_err
sbat_efivar_read(const char *dir, const char *name, size_t max_size, uint8_t **ret_buf, size_t *ret_len, sbat_diag *d)
{
	sbat_diag local;
	sbat_err e;

	*ret_buf = NULL;
	*ret_len = 0;
	if (!dir || !name)
		return diag_fail(d, SBAT_E_IO, "no variable directory or name");
	e = input_read_beneath(dir, name, max_size ? max_size : SBAT_EFIVAR_MAX_SIZE, ret_buf, ret_len, &local);
	if (e == SBAT_E_IO && local.sys_errno == ENOENT) {
		*ret_buf = NULL;
		return SBAT_OK;
	}
	if (e != SBAT_OK) {
		*ret_buf = NULL;
		if (d)
			*d = local;
		return e;
	}
	if (*ret_len < ATTRIBUTES_SIZE) {
		free(*ret_buf);
		*ret_buf = NULL;
		return diag_fail_size(d, SBAT_E_EFIVAR, "variable shorter than its 4 attribute bytes", 0,
		                      ATTRIBUTES_SIZE, *ret_len);
	}
	return SBAT_OK;
}

sbat_err
sbat_efivar_read_byte(const char *dir, const char *name, int exact, int *ret_value, sbat_diag *d)
{
	uint8_t *buf;
	size_t len;
	sbat_err e = sbat_efivar_read(dir, name, 0, &buf, &len, d);

	*ret_value = -1;
	if (e != SBAT_OK || !buf)
		return e;
	if (len == ATTRIBUTES_SIZE || (exact && len != ATTRIBUTES_SIZE + 1))
		e = diag_fail_size(d, SBAT_E_EFIVAR, "expected 1 data byte", ATTRIBUTES_SIZE, 1, len - ATTRIBUTES_SIZE);
	else
		*ret_value = buf[ATTRIBUTES_SIZE];
	free(buf);
	return e;
}
