/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bootmgr.c - a Windows boot manager judged as its own check of dbx's SVN entries judges it */
#include <string.h>
#include <strings.h>

#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/sigdb.h"

#include "pe/image_internal.h"
#include "pe/rsrc.h"
#include "walk/bootmgr.h"
#include "walk/signatures.h"
#include "walk/walk.h"

/* 1 when the last component of path (backslashes or slashes between them) is bootmgfw.efi, in any case. */
static int
named_bootmgfw(const char *path)
{
	const char *base = path, *p;

	if (!path)
		return 0;
	for (p = path; *p; p++)
		if (*p == '\\' || *p == '/')
			base = p + 1;
	return strcasecmp(base, "bootmgfw.efi") == 0;
}

/* st decided by the boot manager's check: verdict v. */
static void
decided(sbat_boot_stage *st, sbat_verdict v)
{
	st->verdict = v;
	st->gate = SBAT_BOOT_GATE_BOOTMGR_SVN;
	st->reason = SBAT_BOOT_BOOTMGR_SVN;
}

void
bootmgr_svn_gate(walk *w, const image *im, sbat_boot_stage *st)
{
	const sbat_sigdb *dbx = signatures_dbx_enforced(w);
	sbat_sigdb_svn floor;
	rsrc_svn svn;
	sbat_diag d;
	sbat_err err;

	if (!dbx || !im->img || !sbat_sigdb_svn_floor(dbx, SBAT_SVN_APP_BOOTMGR, &floor))
		return;
	memset(&d, 0, sizeof(d));
	err = rsrc_bootmgr_svn(&im->img->pe, im->buf, im->len, &svn, &d);
	if (!named_bootmgfw(st->file ? st->file : st->host) && (err != SBAT_OK || !svn.found))
		return; /* not known to be a Windows boot manager */
	st->svn_judged = 1;
	st->svn_floor_major = floor.major;
	st->svn_floor_minor = floor.minor;
	if (err != SBAT_OK || !svn.found) {
		st->svn_diag = d; /* code SBAT_OK: no such resource */
		if (st->verdict == SBAT_VERDICT_NOT_GOVERNED)
			decided(st, SBAT_VERDICT_UNKNOWN);
		return;
	}
	st->svn_read = 1;
	st->svn_major = svn.major;
	st->svn_minor = svn.minor;
	if ((svn.major < floor.major || (svn.major == floor.major && svn.minor < floor.minor)) &&
	    st->verdict != SBAT_VERDICT_REFUSED)
		decided(st, SBAT_VERDICT_REFUSED);
}
