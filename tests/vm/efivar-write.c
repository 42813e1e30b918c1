/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * efivar-write.c - SetVariable through efivarfs, for the VM guest
 * (guest/updates.sh): an authenticated append write of an update file, as
 * a firmware update tool makes it.
 *
 *   efivar-write EFIVARFS_FILE UPDATE [ATTRIBUTES]
 *
 * Writes, in one write(), the attributes NON_VOLATILE | BOOTSERVICE_ACCESS |
 * RUNTIME_ACCESS | TIME_BASED_AUTHENTICATED_WRITE_ACCESS | APPEND_WRITE
 * (0x67, little-endian) followed by UPDATE (an EFI_VARIABLE_AUTHENTICATION_2
 * and its signature lists) to EFIVARFS_FILE, after clearing the immutable
 * flag efivarfs sets on variables such as db and dbx; ATTRIBUTES (hex) other
 * attributes, for a plain variable (7: NON_VOLATILE | BOOTSERVICE_ACCESS |
 * RUNTIME_ACCESS, as mokutil sets SbatPolicy). Prints "ok" and exits
 * 0 when the kernel reports the firmware took the write, else "failed:
 * ERRNO (text)" and exits 1; 2 when the update cannot be read.
 *
 * Not part of the meson build; test-updates.sh compiles it statically.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define ATTRIBUTES 0x67u
#define MAX_UPDATE (1u << 20)

static unsigned char *
read_update(const char *path, size_t *ret_len)
{
	unsigned char *buf = malloc(4 + MAX_UPDATE);
	size_t len = 0;
	ssize_t got;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((got = read(fd, buf + 4 + len, MAX_UPDATE - len)) > 0)
		len += (size_t)got;
	close(fd);
	if (got < 0 || len == MAX_UPDATE) {
		free(buf);
		return NULL;
	}
	*ret_len = len;
	return buf;
}

/* Clear the immutable flag of an existing variable (chattr -i); errors are left to the open for writing. */
static void
make_mutable(const char *path)
{
	int flags, fd = open(path, O_RDONLY);

	if (fd < 0)
		return;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_IMMUTABLE_FL)) {
		flags &= ~FS_IMMUTABLE_FL;
		if (ioctl(fd, FS_IOC_SETFLAGS, &flags) != 0)
			printf("note: cannot clear the immutable flag: %s\n", strerror(errno));
	}
	close(fd);
}

int
main(int argc, char **argv)
{
	unsigned char *buf;
	size_t len;
	ssize_t put;
	unsigned long attributes = argc == 4 ? strtoul(argv[3], NULL, 16) : ATTRIBUTES;
	int fd, err;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: efivar-write EFIVARFS_FILE UPDATE [ATTRIBUTES]\n");
		return 2;
	}
	if (!(buf = read_update(argv[2], &len))) {
		printf("failed: cannot read %s\n", argv[2]);
		return 2;
	}
	buf[0] = (unsigned char)(attributes & 0xff);
	buf[1] = (unsigned char)(attributes >> 8 & 0xff);
	buf[2] = buf[3] = 0;
	make_mutable(argv[1]);
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0) {
		printf("failed: %d (%s): open\n", errno, strerror(errno));
		free(buf);
		return 1;
	}
	put = write(fd, buf, 4 + len);
	err = errno;
	close(fd);
	free(buf);
	if (put != (ssize_t)(4 + len)) {
		printf("failed: %d (%s)\n", put < 0 ? err : 0, put < 0 ? strerror(err) : "short write");
		return 1;
	}
	printf("ok\n");
	return 0;
}
