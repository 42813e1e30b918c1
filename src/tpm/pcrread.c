/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* pcrread.c - the TPM's PCRs as Linux shows them (pcr-BANK/N, hex), held against the log's replay */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/eventlog.h"
#include "sbat/input.h"

#include "tpm/eventlog_model.h"
#include "util/diag.h"

/* The value of hex digit c, or -1. */
static int
hex_digit(uint8_t c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* buf[0..len): size bytes in hex, then at most a newline. 1 and out filled, or 0. */
static int
parse_value(const uint8_t *buf, size_t len, size_t size, uint8_t *out)
{
	size_t i;

	if (len == 2 * size + 1 && buf[2 * size] == '\n')
		len--;
	if (len != 2 * size)
		return 0;
	for (i = 0; i < size; i++) {
		int hi = hex_digit(buf[2 * i]), lo = hex_digit(buf[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return 0;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 1;
}

/* PCR n of bank b from dir: read into b->tpm (b->tpm_read set), left out when it cannot be read. */
static sbat_err
read_pcr(const char *dir, sbat_eventlog_bank *b, unsigned n, sbat_diag *d)
{
	char path[4096];
	uint8_t *buf;
	size_t len;
	int ok;

	if ((size_t)snprintf(path, sizeof(path), "%s/pcr-%s/%u", dir, b->name, n) >= sizeof(path))
		return diag_fail(d, SBAT_E_IO, "the TPM's directory name is too long");
	if (sbat_file_read(path, 4096, &buf, &len, NULL) != SBAT_OK)
		return SBAT_OK;
	ok = parse_value(buf, len, b->digest_size, b->tpm[n]);
	free(buf);
	if (!ok) {
		diag_fail_other(d, SBAT_E_IO, "not a PCR value (the bank's digest in hex)", 0, -1, path);
		if (d)
			d->has_offset = 0; /* the file is named, the value is wrong as a whole */
		return SBAT_E_IO;
	}
	b->tpm_read |= 1u << n;
	if ((b->extended & (1u << n)) && memcmp(b->tpm[n], b->value[n], b->digest_size) != 0)
		b->tpm_differs |= 1u << n;
	return SBAT_OK;
}

SBAT_API sbat_err
sbat_eventlog_compare_tpm(sbat_eventlog *log, const char *tpm_dir, sbat_eventlog_tpm *ret_state, sbat_diag *reterr)
{
	int read = 0, differs = 0;
	size_t i;
	unsigned n;

	*ret_state = SBAT_EVENTLOG_TPM_NOT_READ;
	if (!log)
		return diag_fail(reterr, SBAT_E_IO, "no event log given");
	for (i = 0; i < log->n_banks; i++) {
		sbat_eventlog_bank *b = &log->banks[i];

		b->tpm_read = 0;
		b->tpm_differs = 0;
		memset(b->tpm, 0, sizeof(b->tpm));
		if (!b->replayed || !b->name)
			continue;
		for (n = 0; n < SBAT_EVENTLOG_PCRS; n++)
			if (read_pcr(tpm_dir ? tpm_dir : SBAT_EVENTLOG_TPM_DIR, b, n, reterr) != SBAT_OK)
				return SBAT_E_IO;
		read |= b->tpm_read != 0;
		differs |= b->tpm_differs != 0;
	}
	*ret_state = differs ? SBAT_EVENTLOG_TPM_DIFFERS :
	             read    ? SBAT_EVENTLOG_TPM_MATCHES :
	                       SBAT_EVENTLOG_TPM_NOT_READ;
	return SBAT_OK;
}

SBAT_API const char *
sbat_eventlog_tpm_name(sbat_eventlog_tpm state)
{
	static const char *const names[SBAT__EVENTLOG_TPM_MAX] = {
		[SBAT_EVENTLOG_TPM_NOT_READ] = "not read",
		[SBAT_EVENTLOG_TPM_MATCHES] = "matches",
		[SBAT_EVENTLOG_TPM_DIFFERS] = "differs",
	};

	return (unsigned)state < SBAT__EVENTLOG_TPM_MAX ? names[state] : NULL;
}
