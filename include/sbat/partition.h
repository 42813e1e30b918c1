/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* partition.h - files on a mounted partition named as the firmware names them, and where partitions are mounted */
#ifndef SBAT_PARTITION_H
#define SBAT_PARTITION_H

#include <stddef.h>

#include "api.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sbat_partition_resolve flags */
#define SBAT_PARTITION_DIR 1u   /* the last component is a directory */
#define SBAT_PARTITION_EXACT 2u /* names match case-sensitively (not FAT) */

/* The longest path sbat_partition_resolve returns, its NUL included. */
#define SBAT_PARTITION_PATH_MAX 4096

/* What sbat_partition_resolve found. */
typedef enum sbat_partition_miss {
	SBAT_PARTITION_FOUND = 0,
	SBAT_PARTITION_MISSING,        /* a component is not in its directory */
	SBAT_PARTITION_DOT,            /* a "." or ".." component */
	SBAT_PARTITION_SYMLINK,        /* a component is a symbolic link (FAT has none: it is the mounting machine's) */
	SBAT_PARTITION_NOT_REGULAR,    /* the file is not a regular file */
	SBAT_PARTITION_NOT_DIRECTORY,  /* the directory asked for is not one */
	SBAT_PARTITION_PARENT_NOT_DIR, /* a component before the last is not a directory */
	SBAT_PARTITION_UNREADABLE,     /* a directory on the way cannot be read */
	SBAT_PARTITION_NO_MEMORY,      /* an allocation failed */
	SBAT_PARTITION_TOO_LONG,       /* the path found is longer than SBAT_PARTITION_PATH_MAX */
	/* how EDK2's FAT driver fails to open a path (sbat_partition_resolve_uefi) */
	SBAT_PARTITION_EMPTY_NODE,    /* a File() node with an empty path */
	SBAT_PARTITION_SLASH,         /* a name with a '/': EDK2 splits only at '\' and refuses '/' in a name */
	SBAT_PARTITION_BAD_CHAR,      /* a name with a control character or one of " * : < > ? | */
	SBAT_PARTITION_EMPTY_NAME,    /* nothing is left of a name once blanks and trailing dots are cut ("...") */
	SBAT_PARTITION_NAME_TOO_LONG, /* a name of more than 255 characters */
	SBAT_PARTITION_PATH_TOO_LONG, /* a full path of more than 260 characters, as EDK2 counts it */
	SBAT_PARTITION_ABOVE_ROOT,    /* ".." in the root directory */
	SBAT_PARTITION_IS_DIRECTORY,  /* the path opens a directory, which the boot manager does not read */
} sbat_partition_miss;

/*
 * The file (or directory, with SBAT_PARTITION_DIR) that path names below
 * root, the directory a partition is mounted on: components split at '\'
 * or '/', each matched in its directory case-insensitively as FAT matches
 * names (unless SBAT_PARTITION_EXACT); "." and ".." and symbolic links
 * refused. An empty path is root itself (with SBAT_PARTITION_DIR). On
 * SBAT_PARTITION_FOUND *ret_path is a malloc'ed path on this machine;
 * otherwise it is NULL and the value says why.
 */
SBAT_API sbat_partition_miss sbat_partition_resolve(const char *root, const char *path, unsigned flags,
                                                    char **ret_path);

/*
 * The file the device path's File() nodes name on the partition mounted
 * on root, opened as EDK2 opens it (FatPkg EnhancedFatDxe, through
 * MdePkg DxeServicesLib GetFileBufferByFilePath): nodes holds n_nodes
 * NUL-terminated paths one after another, as sbat_load_option_file_nodes
 * gives them, each opened from the one before it, a path starting with
 * '\' from the root. In a path: names split at '\' only, runs of '\'
 * count as one, but a second '\' right after the leading one ends the
 * path there; "." is skipped, ".." goes up (refused in the root); leading blanks and
 * trailing blanks and dots are cut from a name, which must then be 1 to
 * 255 characters without '/', control characters or " * : < > ? |; a
 * trailing '\' asks for a directory; the path at most 260 characters as
 * the driver counts them. Names match as EDK2's English collation does
 * (ASCII and Latin-1 letters in any case), or as a short name the mounted
 * file system itself resolves (one with '~'). The file found must be a
 * regular file: a directory is SBAT_PARTITION_IS_DIRECTORY. Symbolic links
 * are refused. Returns and fills *ret_path as sbat_partition_resolve.
 */
SBAT_API sbat_partition_miss sbat_partition_resolve_uefi(const char *root, const char *nodes, size_t n_nodes,
                                                         char **ret_path);

/* sbat_partition_list kinds */
#define SBAT_PARTITION_LIST_FILES 1u  /* regular files */
#define SBAT_PARTITION_LIST_DIRS 2u   /* directories */
#define SBAT_PARTITION_LIST_ANY 0xffu /* every name: links, devices and FIFOs too */

/*
 * The names in directory dir (a path on this machine) of the kinds asked
 * for, "." and ".." left out, sorted in byte order; a symbolic link is one
 * only for SBAT_PARTITION_LIST_ANY (never followed to see what it names).
 * *ret_names is a malloc'ed array of malloc'ed names, freed by
 * sbat_partition_names_free. SBAT_E_IO when dir cannot be read,
 * SBAT_E_TOO_BIG past max names (none returned).
 */
SBAT_API sbat_err sbat_partition_list(const char *dir, unsigned kinds, size_t max, char ***ret_names, size_t *ret_n,
                                      sbat_diag *reterr);

/* Free what sbat_partition_list returned. NULL-safe. */
SBAT_API void sbat_partition_names_free(char **names, size_t n);

/* A short name of m for JSON: "found", "missing", "symlink", ... */
SBAT_API const char *sbat_partition_miss_name(sbat_partition_miss m);

/*
 * Where the partition whose GPT partition GUID is guid (lower or upper
 * case) is mounted: the device /dev/disk/by-partuuid/GUID names, found as
 * a mount source in /proc/self/mountinfo: *ret_mount, malloc'ed, or NULL
 * when no such partition is mounted here. SBAT_E_IO when the mount table
 * does not read, SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_partition_mount_of_partuuid(const char *guid, char **ret_mount, sbat_diag *reterr);

/*
 * Where the file system with this UUID (/dev/disk/by-uuid) is mounted, and
 * which of its directories is mounted there (the mountinfo "root" field,
 * "/" for all of it), both copied (cut to fit); both "" when it is not
 * mounted here. SBAT_E_IO when the mount table does not read, SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_partition_mount_of_uuid(const char *uuid, char *ret_mount, size_t mount_size, char *ret_root,
                                               size_t root_size, sbat_diag *reterr);

/*
 * The GPT partition GUID (lower case) of the block device dir is on, from
 * /dev/disk/by-partuuid, into ret_guid; "" when it is not known (no such
 * links, not a partition, or a copy of a partition's files). SBAT_E_IO
 * when dir cannot be read.
 */
SBAT_API sbat_err sbat_partition_guid_of(const char *dir, char *ret_guid, size_t guid_size, sbat_diag *reterr);

/*
 * *ret_is_fat: 1 when a FAT (vfat) file system is mounted on mount_point,
 * per /proc/self/mountinfo, else 0. SBAT_E_IO when the mount table does
 * not read, SBAT_E_NOMEM.
 */
SBAT_API sbat_err sbat_partition_is_fat_mount(const char *mount_point, int *ret_is_fat, sbat_diag *reterr);

#ifdef __cplusplus
}
#endif

#endif
