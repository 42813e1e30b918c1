/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* timestamps.c - can a file's time stamps show every write made to it from now on? */
#include <stdint.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>

#include "file/timestamps.h"

/* statfs f_type values (linux/magic.h and the file systems' own sources) */
static const uint32_t hiding_types[] = {
	0x4d44u,     /* FAT (msdos, vfat): 2 s modification times */
	0x2011bab0u, /* exFAT: 10 ms */
	0x4244u,     /* HFS: 1 s */
	0x482bu,     /* HFS+: 1 s */
	0x6969u,     /* NFS */
	0x517bu,     /* SMB (smbfs) */
	0xfe534d42u, /* SMB2 (cifs) */
	0xff534d42u, /* CIFS */
	0x00c36400u, /* Ceph */
	0x01021997u, /* 9P */
	0x5346414fu, /* AFS (OpenAFS) */
	0x6b414653u, /* AFS (kAFS) */
	0x65735546u, /* FUSE: the times are what the server says */
	0x01161970u, /* GFS2 */
	0x7461636fu, /* OCFS2 */
	0x0bd00bd0u, /* Lustre */
	0x19830326u, /* FhGFS/BeeGFS */
};

/*
 * A modification time within this much of the current time is racy. The
 * kernel's time stamp clock advances by one tick (at most 10 ms at HZ=100);
 * twice that and some slack covers a tick that was just about to end.
 */
#define RACY_NS (50 * 1000000LL)

/*
 * ext2, ext3 and ext4 (one statfs type): the kernel alone sets a file's
 * change time (no system call sets it to a chosen value), and with 128-byte
 * inodes it keeps whole seconds.
 */
#define EXT_TYPE 0xef53u

static int
hiding_type(uint32_t type)
{
	unsigned i;

	for (i = 0; i < sizeof(hiding_types) / sizeof(hiding_types[0]); i++)
		if (type == hiding_types[i])
			return 1;
	return 0;
}

/* 1 when mtime is within RACY_NS before `before` (read before the fstat), or later. */
static int
racy(const struct stat *st, const struct timespec *before)
{
	long long s, d;

	/* seconds first: a time stamp far off either way must not overflow */
	if (st->st_mtim.tv_sec < before->tv_sec - 1)
		return 0;
	if (st->st_mtim.tv_sec > before->tv_sec + 1)
		return 1;
	s = (long long)before->tv_sec - (long long)st->st_mtim.tv_sec;
	d = s * 1000000000LL + ((long long)before->tv_nsec - (long long)st->st_mtim.tv_nsec);
	return d < RACY_NS;
}

/*
 * 1 when the change time lies in a whole second that ended at least RACY_NS
 * before `before`: a write from then on gets a change time of a later
 * second, even where times are kept in whole seconds.
 */
static int
second_passed(const struct stat *st, const struct timespec *before)
{
	long long d;

	if (st->st_ctim.tv_sec < before->tv_sec - 2)
		return 1;
	if (st->st_ctim.tv_sec >= before->tv_sec)
		return 0;
	d = ((long long)before->tv_sec - (long long)st->st_ctim.tv_sec - 1) * 1000000000LL + before->tv_nsec;
	return d >= RACY_NS;
}

int
timestamps_can_hide(const struct stat *st, int type_known, uint32_t type, const struct timespec *before)
{
	if (!type_known || hiding_type(type) || racy(st, before))
		return 1;
	if (st->st_mtim.tv_nsec != 0 || st->st_ctim.tv_nsec != 0)
		return 0;
	/* whole seconds: only a change time the kernel keeps, and whose second is over, shows every write */
	return type != EXT_TYPE || !second_passed(st, before);
}

int
timestamps_fstat(int fd, struct stat *st, int *ret_can_hide)
{
	struct timespec before;
	struct statfs sf;
	int clock_ok = clock_gettime(CLOCK_REALTIME, &before) == 0, type_known;

	if (fstat(fd, st) != 0)
		return -1;
	type_known = fstatfs(fd, &sf) == 0;
	*ret_can_hide = !clock_ok || timestamps_can_hide(st, type_known, type_known ? (uint32_t)sf.f_type : 0, &before);
	return 0;
}
