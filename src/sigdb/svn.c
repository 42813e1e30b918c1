/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* svn.c - Microsoft's SVN entries in dbx: a Windows boot application's Secure Version Number floor */
#include <string.h>

#include "sbat/api.h"
#include "sbat/sigdb.h"

#include "util/le.h"

#define SVN_DATA_SIZE 32

/* The SignatureOwner of every SVN entry, as stored (SBAT_SIGDB_GUID_SVN_OWNER). */
static const uint8_t svn_owner[16] = { 0x6c, 0x2b, 0x13, 0x9d, 0xd5, 0x59, 0x88, 0x43,
	                               0xab, 0x1c, 0x18, 0x5c, 0xfc, 0xb2, 0xeb, 0x92 };

/* Each application's GUID as stored, by sbat_svn_app. */
static const struct {
	sbat_svn_app app;
	const char *name;
	uint8_t guid[16];
} apps[] = {
	{ SBAT_SVN_APP_BOOTMGR,
	  "bootmgr",
	  { 0x61, 0x2b, 0x13, 0x9d, 0xd5, 0x59, 0x88, 0x43, 0xab, 0x1c, 0x18, 0x5c, 0x3c, 0xb2, 0xeb, 0x92 } },
	{ SBAT_SVN_APP_CDBOOT,
	  "cdboot",
	  { 0x9d, 0x2e, 0xf8, 0xe8, 0x27, 0xe1, 0x58, 0x41, 0xa4, 0x88, 0x4c, 0x18, 0xab, 0xe2, 0xf2, 0x84 } },
	{ SBAT_SVN_APP_WDSMGFW,
	  "wdsmgfw",
	  { 0xc2, 0xca, 0x99, 0xc9, 0xfe, 0x7f, 0x6f, 0x49, 0x81, 0x27, 0x9e, 0x2a, 0x8a, 0x53, 0x59, 0x76 } },
};

SBAT_API int
sbat_sigdb_svn_read(const sbat_sigdb_entry *e, sbat_sigdb_svn *ret)
{
	sbat_sigdb_svn s;
	size_t i;

	if (!e || e->type != SBAT_SIG_SHA256 || e->data_len != SVN_DATA_SIZE || memcmp(e->owner, svn_owner, 16) != 0)
		return 0;
	memset(&s, 0, sizeof(s));
	s.version = e->data[0];
	memcpy(s.app_guid, e->data + 1, 16);
	s.minor = le16_get(e->data + 17);
	s.major = le16_get(e->data + 19);
	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++)
		if (memcmp(s.app_guid, apps[i].guid, 16) == 0)
			s.app = apps[i].app;
	if (ret)
		*ret = s;
	return 1;
}

SBAT_API int
sbat_sigdb_svn_floor(const sbat_sigdb *db, sbat_svn_app app, sbat_sigdb_svn *ret)
{
	const sbat_sigdb_entry *e;
	sbat_sigdb_svn s, best;
	int found = 0;
	size_t i;

	memset(&best, 0, sizeof(best));
	for (i = 0; db && (e = sbat_sigdb_get(db, i)) != NULL; i++) {
		if (!sbat_sigdb_svn_read(e, &s) || s.app != app || app == SBAT_SVN_APP_UNKNOWN)
			continue;
		if (!found || s.major > best.major || (s.major == best.major && s.minor > best.minor))
			best = s;
		found = 1;
	}
	if (found && ret)
		*ret = best;
	return found;
}

SBAT_API const char *
sbat_sigdb_svn_app_name(sbat_svn_app app)
{
	size_t i;

	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++)
		if (apps[i].app == app)
			return apps[i].name;
	return "unknown";
}
