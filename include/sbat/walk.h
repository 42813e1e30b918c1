/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* walk.h - will it boot: every boot path the firmware will take next, followed stage by stage and judged */
#ifndef SBAT_WALK_H
#define SBAT_WALK_H

#include <stddef.h>

#include "api.h"
#include "authenticode.h"
#include "bootreport.h"
#include "error.h"
#include "image.h"
#include "uki.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An update not yet applied: FILE appended to VAR before judging, as an authenticated append write would. */
typedef struct sbat_walk_pending {
	const char *var;  /* "db", "dbx", "KEK" or "MokListX" */
	const char *file; /* signature lists, an authenticated update, or a directory of updates */
} sbat_walk_pending;

/*
 * What sbat_walk_next_boot reads. Fields are added at the end only, and a
 * caller never uses sizeof on it: sbat_walk_opts_init zeroes one and
 * stamps its size.
 */
typedef struct sbat_walk_opts {
	size_t size;          /* set by sbat_walk_opts_init */
	const char *efivarfs; /* the UEFI variables; NULL: SBAT_EFIVAR_DIR */
	const char *esp;      /* the ESP's mount point; NULL: each option's own partition, where it is mounted */
	const char *xbootldr; /* systemd-boot's XBOOTLDR; NULL: /boot when it is a FAT file system of its own
	                         (and esp is NULL) */
	const char *boot;     /* the directory GRUB's /boot is; NULL: found by its file-system UUID */
	const char *shim;     /* judge this shim wherever a shim starts (the one about to be installed); NULL:
	                         each path's own */
	/*
	 * What put a level's row there, for a refusal's detail ("since
	 * SbatLevel ...: ..."): 0 with out filled, -1 when not known. NULL: none.
	 */
	int (*explain)(const char *component, unsigned generation, char *out, size_t size, void *ctx);
	void *explain_ctx;
	/*
	 * 0, the default: each image's signatures are judged too, the
	 * firmware's rule (EDK2) for what it starts, shim's for what shim
	 * starts and checks, by db, dbx, MokListRT and MokListXRT from efivarfs
	 * and shim's built-in keys (<sbat/sigverify.h>). A refused signature
	 * refuses the stage; db or dbx that does not read makes it unknown,
	 * never a boot (with Secure Boot off nothing checks a signature, and a
	 * missing db changes nothing). 1: SBAT alone, each verdict shim's SBAT
	 * check's, and a note says the signatures were not judged.
	 *
	 * Signatures are the default, so that a caller that zeroes the
	 * options (sbat_walk_opts_init) gets the firmware's whole answer: a
	 * stage said to boot is one the firmware and shim accept. A caller
	 * that wants less asks for it; one that forgets gets "unknown" where
	 * it could not be known, not a "boots" the firmware contradicts.
	 */
	int no_signatures;
	/*
	 * Updates to judge as if applied (a DBX update file, say), in order;
	 * with any, signatures are judged whatever no_signatures says. An
	 * authenticated update of db, dbx or KEK is applied only when the
	 * firmware would take the write, checked by PK and KEK from efivarfs
	 * as EDK2's AuthVariableLib checks it (an earlier KEK update counted);
	 * a directory: the first of its updates (and its subdirectories') the
	 * firmware takes. A note says which, and why one is not applied. A
	 * file that does not read, or a variable not named above, stops the
	 * walk (outcome.failed, a note says why).
	 */
	const sbat_walk_pending *pending;
	size_t n_pending;
} sbat_walk_opts;

/* Zero *o and set its size. */
SBAT_API void sbat_walk_opts_init(sbat_walk_opts *o);

/*
 * Follow every path the firmware takes when the machine next starts, as
 * EDK2's boot manager and shim 16.x do: BootNext, then BootOrder's options
 * (BootCurrent marked), then, with an ESP, the removable-media path. Each
 * stage (the option, what the firmware starts, what shim starts, what
 * systemd-boot or GRUB starts from its menu) is one stage of the report,
 * judged by shim's rules with the SbatLevel of the next boot; what could
 * not be followed is UNKNOWN, never BOOTS. Files are opened beneath their
 * partition without following symbolic links, and images are mapped
 * (sbat_file_map_beneath): one that another program cuts short while it is
 * judged raises SIGBUS, which a caller may catch. Notes say what was assumed,
 * which lines of the loaders' files were ignored and what did not read.
 * A machine without UEFI variables, or whose BootOrder does not read,
 * gives SBAT_OK and says so in sbat_boot_report_outcome (no_variables,
 * failed). SBAT_E_ABI, SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_walk_next_boot(const sbat_walk_opts *o, sbat_boot_report **ret, sbat_diag *reterr);

/*
 * The pending updates of o (o->pending, o->efivarfs) checked and applied in
 * order as sbat_walk_next_boot does (an earlier KEK update counts for the
 * later ones), without following any boot path: *ret holds one PENDING
 * note each, whose `check` says how the firmware takes the write (the file,
 * or a directory's `picked`, is appended when it is PLAIN, BY_KEK, BY_PK or
 * SETUP_MODE) and `count` the entries it adds to the machine's db or dbx;
 * a file that does not read gives an ERROR note naming it, and the updates
 * after it are not checked. For a caller that predicts what the writes
 * change (PCR 7). SBAT_E_ABI, SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_walk_pending_check(const sbat_walk_opts *o, sbat_boot_report **ret, sbat_diag *reterr);

/*
 * What a stage measures of one image, from one read of it (fd >= 0: the
 * file img maps, read through a 256 KiB buffer; -1: img's buffer): its
 * signatures as sbat_authenticode_parse_fd reads them, and, when uki (of
 * img, from sbat_uki_inspect) is not NULL, the PCR 11 prediction of
 * sbat_uki_predict. Each block is read once and the Authenticode hash and
 * the measured section that cover it are hashed side by side. The two
 * parts fail apart: the signatures' failure is returned (reterr, *ret
 * NULL); the prediction's is said in uki_diag (NULL allowed; its code is
 * SBAT_OK when the prediction is made) and leaves uki without one.
 */
SBAT_API sbat_err sbat_walk_image_digests(const sbat_image *img, int fd, sbat_uki *uki, sbat_authenticode **ret,
                                          sbat_diag *uki_diag, sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
