/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* error.c - text for result codes */
#include "sbat/error.h"

static const char *const messages[] = {
	[SBAT_OK] = "success",
	[SBAT_E_IO] = "input/output error",
	[SBAT_E_NOMEM] = "out of memory",
	[SBAT_E_TOO_BIG] = "input too large",
	[SBAT_E_NOT_REGULAR] = "not a regular file",
	[SBAT_E_CHANGED] = "file changed while being edited",
	[SBAT_E_LOCKED] = "file is locked by another process",
	[SBAT_E_PE_TRUNCATED] = "truncated PE/COFF image",
	[SBAT_E_PE_MAGIC] = "not a PE/COFF image",
	[SBAT_E_PE_FIELD] = "invalid PE/COFF header field",
	[SBAT_E_PE_SECTION] = "invalid PE/COFF section",
	[SBAT_E_PE_OVERFLOW] = "PE/COFF size or address overflow",
	[SBAT_E_SIGNED] = "image is signed",
	[SBAT_E_NO_HEADER_ROOM] = "no room for another section header",
	[SBAT_E_SBAT_DUPLICATE] = "image has more than one .sbat section",
	[SBAT_E_SBAT_NO_ROOM] = "existing .sbat section is too small",
	[SBAT_E_NO_SBAT] = "image has no .sbat section",
	[SBAT_E_LAYOUT] = "output failed layout validation",
	[SBAT_E_CSV] = "invalid SBAT CSV",
	[SBAT_E_LEVEL] = "invalid SbatLevel policy",
	[SBAT_E_NO_SBATLEVEL] = "image has no .sbatlevel section",
	[SBAT_E_ABI] = "a structure passed to the library has a size it does not know",
	[SBAT_E_EFIVAR] = "malformed UEFI boot variable",
	[SBAT_E_PCRSIG] = "the edit would make the UKI's signed PCR 11 policy stale",
	[SBAT_E_UKI] = "malformed UKI section",
	[SBAT_E_BOOTCFG] = "malformed boot loader configuration",
	[SBAT_E_SIGNATURE] = "malformed Authenticode signature",
	[SBAT_E_SIGNATURE_STALE] = "the signature no longer covers this image",
	[SBAT_E_EVENTLOG] = "malformed TCG event log",
	[SBAT_E_LUKS] = "malformed LUKS2 header",
};

/* Adding a code without its message breaks the build here. */
typedef char messages_cover_every_code[(sizeof(messages) / sizeof(messages[0]) == SBAT__ERR_MAX) ? 1 : -1];

const char *
sbat_strerror(sbat_err code)
{
	if ((unsigned)code >= SBAT__ERR_MAX || !messages[code])
		return "unknown error";
	return messages[code];
}
