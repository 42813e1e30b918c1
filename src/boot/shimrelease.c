/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * shimrelease.c - shim by release. A release that changes a rule this
 * library models gets one row here, with what it reads and a feature bit
 * for each rule it adds; the code tests the row, never a release number.
 * From shim's source of each tag (rhboot/shim): 16.0 brought the image
 * loader protocol (loader-proto.c) and reads revocations_sbat.efi
 * (shim.c, load_revocations_file). Releases before 16.0 are not modelled.
 */
#include <string.h>

#include "boot/shimrelease.h"

static const shimrelease rows[] = {
	{ 16, 0, "revocations_sbat.efi", SHIMRELEASE_LOADER_PROTOCOL },
};

const shimrelease *
shimrelease_rows(size_t *n)
{
	*n = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

const shimrelease *
shimrelease_for(unsigned major, unsigned minor)
{
	size_t i = sizeof(rows) / sizeof(rows[0]);

	if (major == 0 && minor == 0)
		return &rows[i - 1];
	while (i-- > 0)
		if (major > rows[i].major || (major == rows[i].major && minor >= rows[i].minor))
			return &rows[i];
	return NULL;
}

/* The number at *p (at most 4 digits); -1 when there is none. */
static long
number(const uint8_t **p, const uint8_t *end)
{
	long n = 0;
	int digits = 0;

	for (; *p < end && **p >= '0' && **p <= '9' && digits < 5; (*p)++, digits++)
		n = n * 10 + (**p - '0');
	return digits == 0 || digits == 5 ? -1 : n;
}

int
shimrelease_version(const uint8_t *buf, size_t len, unsigned *major, unsigned *minor)
{
	static const char tag[] = "UEFI SHIM\n$Version: ";
	const size_t n = sizeof(tag) - 1;
	size_t i;

	for (i = 0; buf && len >= n && i <= len - n; i++) {
		const uint8_t *p = buf + i + n, *end = buf + len;
		long a, b;

		if (buf[i] != 'U' || memcmp(buf + i, tag, n) != 0)
			continue;
		if ((a = number(&p, end)) < 0 || p >= end || *p++ != '.' || (b = number(&p, end)) < 0)
			return 0;
		*major = (unsigned)a;
		*minor = (unsigned)b;
		return 1;
	}
	return 0;
}
