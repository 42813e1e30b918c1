/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_miss.c - why a lookup of a file on a partition found nothing, in words */
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/partition.h"

#include "render_miss.h"
#include "strtable.h"

static const char *const partition_why_table[] = {
	[SBAT_PARTITION_MISSING] = "missing",
	[SBAT_PARTITION_DOT] = "has a . or .. component",
	[SBAT_PARTITION_SYMLINK] = "is a symbolic link",
	[SBAT_PARTITION_NOT_REGULAR] = "is not a regular file",
	[SBAT_PARTITION_NOT_DIRECTORY] = "is not a directory",
	[SBAT_PARTITION_PARENT_NOT_DIR] = "has a component that is not a directory",
	[SBAT_PARTITION_UNREADABLE] = "its directory cannot be read",
	[SBAT_PARTITION_NO_MEMORY] = "cannot be looked up: out of memory",
	[SBAT_PARTITION_TOO_LONG] = "has too long a path",
};
CLI_STRTABLE_LOOKUP(partition_why, sbat_partition_miss)

/* How EDK2's FAT driver, or its boot manager, opens no file at a File() path. */
static const char *const uefi_miss_table[] = {
	[SBAT_PARTITION_NOT_DIRECTORY] = "ends in \\, which asks for a directory, but names a file",
	[SBAT_PARTITION_IS_DIRECTORY] = "opens a directory, which the firmware does not load",
	[SBAT_PARTITION_EMPTY_NODE] = "the path has an empty File() node, which EDK2's FAT driver refuses",
	[SBAT_PARTITION_SLASH] =
	    "the path has a / in a name: EDK2's FAT driver splits paths at \\ only and refuses a / in a name",
	[SBAT_PARTITION_BAD_CHAR] = "the path has a name with a character EDK2's FAT driver refuses (\" * : < > ? | "
	                            "or a control character)",
	[SBAT_PARTITION_EMPTY_NAME] = "the path has a name of blanks and dots only, which EDK2's FAT driver refuses",
	[SBAT_PARTITION_NAME_TOO_LONG] = "the path has a name longer than the 255 characters EDK2's FAT driver takes",
	[SBAT_PARTITION_PATH_TOO_LONG] = "the path is longer than the 260 characters EDK2's FAT driver takes",
	[SBAT_PARTITION_ABOVE_ROOT] = "the path goes above the root with .., which EDK2's FAT driver refuses",
};
CLI_STRTABLE_LOOKUP(uefi_miss, sbat_partition_miss)

const char *
cli_render_partition_why(int miss)
{
	const char *why = miss >= 0 ? partition_why_to_string((sbat_partition_miss)miss) : NULL;

	return why ? why : "missing";
}

const char *
cli_render_partition_is(int miss)
{
	const char *why = cli_render_partition_why(miss);

	return strcmp(why, "missing") == 0 ? "is missing" : why;
}

const char *
cli_render_miss(sbat_boot_lookup lookup, int miss, int opens_root)
{
	const char *why = miss >= 0 ? uefi_miss_to_string((sbat_partition_miss)miss) : NULL;

	if (opens_root)
		return "the path opens the root directory: EDK2's FAT driver ends a path at an empty name right after "
		       "its leading \\";
	if (lookup == SBAT_BOOT_LOOKUP_UEFI && why)
		return why;
	return cli_render_partition_why(miss);
}
