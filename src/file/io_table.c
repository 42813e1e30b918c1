/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* io_table.c - the streaming system calls, each replaceable for fault-injection tests */
#define _GNU_SOURCE 1 /* copy_file_range */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#ifdef __linux__
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#endif

#include "file/io_table.h"

int
io_pread_all(const sbat_io *io, int fd, void *buf, size_t len, uint64_t offset)
{
	uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = io && io->pread ? io->pread(fd, p, len, (int64_t)offset) : pread(fd, p, len, (off_t)offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			/* the file shrank under us */
			errno = EIO;
			return SBAT_IO_SHRANK;
		}
		p += n;
		len -= (size_t)n;
		offset += (uint64_t)n;
	}
	return 0;
}

int
io_pwrite_all(const sbat_io *io, int fd, const void *buf, size_t len, uint64_t offset)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = io && io->pwrite ? io->pwrite(fd, p, len, (int64_t)offset) :
		                               pwrite(fd, p, len, (off_t)offset);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
		offset += (uint64_t)n;
	}
	return 0;
}

static ssize_t
default_copy_range(int in_fd, int64_t in_offset, int out_fd, int64_t out_offset, size_t len)
{
#if defined(__linux__) && defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 27)
	off_t in_off = (off_t)in_offset, out_off = (off_t)out_offset;

	return copy_file_range(in_fd, &in_off, out_fd, &out_off, len, 0);
#else
	(void)in_fd;
	(void)in_offset;
	(void)out_fd;
	(void)out_offset;
	(void)len;
	errno = ENOSYS;
	return -1;
#endif
}

int
io_copy_range(const sbat_io *io, int in_fd, uint64_t in_off, int out_fd, uint64_t out_off, uint64_t len,
              uint64_t *ret_done)
{
	*ret_done = 0;
	while (len > 0) {
		/* stay well inside ssize_t and the kernel's per-call limit */
		size_t want = len > (1u << 30) ? (1u << 30) : (size_t)len;
		ssize_t n = io && io->copy_range ?
		                io->copy_range(in_fd, (int64_t)in_off, out_fd, (int64_t)out_off, want) :
		                default_copy_range(in_fd, (int64_t)in_off, out_fd, (int64_t)out_off, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			/* the input shrank under us */
			errno = EIO;
			return SBAT_IO_SHRANK;
		}
		in_off += (uint64_t)n;
		out_off += (uint64_t)n;
		len -= (uint64_t)n;
		*ret_done += (uint64_t)n;
	}
	return 0;
}

int
io_copy_preferred(const sbat_io *io, int out_fd)
{
#ifdef __linux__
	/* statfs(2) f_type of the file systems whose copy_file_range shares or offloads the data */
	static const unsigned long sharing[] = {
		0x9123683eul, /* btrfs */
		0x58465342ul, /* XFS */
		0xca451a4eul, /* bcachefs */
		0x7461636ful, /* OCFS2 */
		0x2fc12fc1ul, /* ZFS */
		0x6969ul,     /* NFS */
		0xfe534d42ul, /* SMB2 */
		0xff534d42ul, /* CIFS */
		0x00c36400ul, /* Ceph */
		0x794c7630ul, /* overlayfs: its upper file system's */
	};
	struct statfs st;
	unsigned i;

	if (io && io->copy_range)
		return 1;
	if (fstatfs(out_fd, &st) != 0)
		return 0;
	for (i = 0; i < sizeof(sharing) / sizeof(sharing[0]); i++)
		if ((uint32_t)st.f_type == (uint32_t)sharing[i])
			return 1;
	return 0;
#else
	return io && io->copy_range;
#endif
}

int
io_fsync(const sbat_io *io, int fd)
{
	return io && io->fsync ? io->fsync(fd) : fsync(fd);
}

void
io_start_writeback(int fd, uint64_t off, uint64_t len)
{
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
	/* a hint: where the kernel or the file system refuses it, the fsync writes all the same */
	(void)sync_file_range(fd, (off_t)off, (off_t)len, SYNC_FILE_RANGE_WRITE);
#else
	(void)fd;
	(void)off;
	(void)len;
#endif
}

int
io_renameat(const sbat_io *io, int from_dir, const char *from, int to_dir, const char *to)
{
	return io && io->renameat ? io->renameat(from_dir, from, to_dir, to) : renameat(from_dir, from, to_dir, to);
}

int
io_exchangeat(const sbat_io *io, int dir_a, const char *a, int dir_b, const char *b)
{
	if (io && io->renameat) {
		errno = ENOSYS; /* the caller's table renames: it is used */
		return -1;
	}
#if defined(RENAME_EXCHANGE)
	return renameat2(dir_a, a, dir_b, b, RENAME_EXCHANGE);
#elif defined(SYS_renameat2)
	return (int)syscall(SYS_renameat2, dir_a, a, dir_b, b, 2 /* RENAME_EXCHANGE */);
#else
	(void)dir_a, (void)a, (void)dir_b, (void)b;
	errno = ENOSYS;
	return -1;
#endif
}
