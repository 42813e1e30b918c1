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

static int
hiding_type(int fd)
{
	struct statfs sf;
	unsigned i;

	if (fstatfs(fd, &sf) != 0)
		return 1;
	for (i = 0; i < sizeof(hiding_types) / sizeof(hiding_types[0]); i++)
		if ((uint32_t)sf.f_type == hiding_types[i])
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

int
timestamps_fstat(int fd, struct stat *st, int *ret_can_hide)
{
	struct timespec before;
	int clock_ok = clock_gettime(CLOCK_REALTIME, &before) == 0;

	if (fstat(fd, st) != 0)
		return -1;
	*ret_can_hide = !clock_ok || (st->st_mtim.tv_nsec == 0 && st->st_ctim.tv_nsec == 0) || hiding_type(fd) ||
	                racy(st, &before);
	return 0;
}
