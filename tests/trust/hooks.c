/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * hooks.c - an LD_PRELOAD library for the trust tests: it lets a test act on
 * a running sbat-add at a chosen system call, the way a hostile user, a
 * concurrent job or an old file system would.
 *
 *   SBAT_TEST_NO_TMPFILE=1    open()/openat() with O_TMPFILE fail (EOPNOTSUPP),
 *                             as on vfat
 *   SBAT_TEST_COARSE_TIME=s   fstat()/fstatat() report time stamps in whole
 *                             seconds (the nanoseconds cut), on the file
 *                             system as it is: ext4 with 128-byte inodes
 *   SBAT_TEST_COARSE_TIME=1   fstat()/fstatat() report every time stamp as
 *                             the same second, and fstatfs() FAT as the file
 *                             system, as on FAT, whose clock tick is longer
 *                             than the run (ext4 -I 128 too when the file was
 *                             changed in the current second; a time stamp
 *                             from long ago that a write keeps is FAT's only)
 *   SBAT_TEST_AT=CALL         fsync, sync_file_range, copy_file_range, pread, pwrite, ftruncate, read or
 *                             fstat: where the action runs, once, before the
 *                             first such call; tmpfile: before the first open
 *                             with O_TMPFILE; renamed: once, just after the
 *                             first renameat that succeeded
 *   SBAT_TEST_AFTER=CALL      only a SBAT_TEST_AT call made after the first
 *                             CALL (one of the names above) counts: with
 *                             AFTER=fsync, AT=pread is the first read after
 *                             the output was flushed
 *   SBAT_TEST_DO=ACTION       kill:SIGNUM        send ourselves SIGNUM
 *                             swap:DIR:ELSEWHERE rename DIR to DIR.old and put a
 *                                                symbolic link to ELSEWHERE at DIR
 *                                                (DIR may be a file too)
 *                             poke:FILE          overwrite one byte of FILE in place
 *                             write:FILE:OFF:TEXT overwrite FILE in place at byte OFF
 *                                                with TEXT (same size, as cp and
 *                                                grub-install rewrite)
 *                             sleep:MS           wait MS milliseconds
 *                             mapwrite:OFF:TEXT  write TEXT at byte OFF of the file
 *                                                SBAT_TEST_MAP maps (see there)
 *   SBAT_TEST_AT2, SBAT_TEST_DO2  a second action, as SBAT_TEST_AT and
 *                             SBAT_TEST_DO but without SBAT_TEST_AFTER
 *   SBAT_TEST_NO_UMASK=1      umask() is not to be called: a call ends the
 *                             process (exit 98), since it changes what the
 *                             caller's other threads create meanwhile
 *   SBAT_TEST_NO_PROC=1       opening /proc/self/status fails (ENOENT), as
 *                             where /proc is not mounted
 *   SBAT_TEST_LOG=FILE        append a line to FILE for each rename that
 *                             succeeded: "renameat", or "renameat2 exchange"
 *                             for a renameat2 with RENAME_EXCHANGE
 *   SBAT_TEST_MAP=FILE        at load, map FILE shared and writable and dirty
 *                             every page of it, then put its modification time
 *                             back: a process that keeps the file mapped and
 *                             dirty, whose later writes move no time stamp
 */
/* each of open/open64 and openat/openat64 is hooked under its own name */
#undef _FILE_OFFSET_BITS
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

static int done, after_seen;
static volatile unsigned char *mapped; /* SBAT_TEST_MAP's file */
static size_t mapped_len;

/* SBAT_TEST_MAP: the file mapped and every page dirtied before main, its times put back. */
__attribute__((constructor)) static void
map_early(void)
{
	const char *path = getenv("SBAT_TEST_MAP");
	struct timespec times[2];
	struct stat st;
	size_t i;
	void *p;
	int fd;

	if (!path || !*path)
		return;
	fd = open(path, O_RDWR);
	if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
		fprintf(stderr, "hooks: cannot map %s: %s\n", path, strerror(errno));
		_exit(99);
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "hooks: cannot map %s: %s\n", path, strerror(errno));
		_exit(99);
	}
	mapped = p;
	mapped_len = (size_t)st.st_size;
	for (i = 0; i < mapped_len; i += 4096)
		mapped[i] = mapped[i];
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	if (futimens(fd, times) != 0)
		fprintf(stderr, "hooks: futimens failed: %s\n", strerror(errno));
	close(fd);
}

static void do_action(const char *what);

static void
act(const char *call)
{
	const char *at = getenv("SBAT_TEST_AT"), *what = getenv("SBAT_TEST_DO"), *after = getenv("SBAT_TEST_AFTER");
	const char *at2 = getenv("SBAT_TEST_AT2"), *what2 = getenv("SBAT_TEST_DO2");
	static int done2;

	if (!done2 && at2 && what2 && strcmp(at2, call) == 0) {
		done2 = 1;
		do_action(what2);
	}
	if (after && *after && !after_seen) {
		after_seen = strcmp(after, call) == 0;
		return;
	}
	if (done || !at || !what || strcmp(at, call) != 0)
		return;
	done = 1;
	do_action(what);
}

static void
do_action(const char *what)
{
	char buf[4096], *arg, *arg2;

	snprintf(buf, sizeof(buf), "%s", what);
	arg = strchr(buf, ':');
	if (!arg)
		return;
	*arg++ = '\0';
	if (strcmp(buf, "kill") == 0) {
		raise(atoi(arg));
	} else if (strcmp(buf, "swap") == 0 && (arg2 = strchr(arg, ':')) != NULL) {
		char old[4200];

		*arg2++ = '\0';
		snprintf(old, sizeof(old), "%s.old", arg);
		if (rename(arg, old) != 0 || symlink(arg2, arg) != 0)
			fprintf(stderr, "hooks: swap failed: %s\n", strerror(errno));
	} else if (strcmp(buf, "poke") == 0) {
		int fd = open(arg, O_WRONLY);
		char c = 0x5a;

		if (fd < 0 || pwrite(fd, &c, 1, 0x100) != 1)
			fprintf(stderr, "hooks: poke failed: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
	} else if (strcmp(buf, "write") == 0 && (arg2 = strchr(arg, ':')) != NULL) {
		char *text = strchr(arg2 + 1, ':');
		int fd;

		*arg2++ = '\0';
		fd = open(arg, O_WRONLY);
		if (!text || fd < 0 || pwrite(fd, text + 1, strlen(text + 1), atol(arg2)) != (ssize_t)strlen(text + 1))
			fprintf(stderr, "hooks: write failed: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
	} else if (strcmp(buf, "mapwrite") == 0 && (arg2 = strchr(arg, ':')) != NULL) {
		size_t off = (size_t)atol(arg), n = strlen(arg2 + 1);

		if (!mapped || off > mapped_len || n > mapped_len - off)
			fprintf(stderr, "hooks: mapwrite outside the mapped file\n");
		else
			memcpy((unsigned char *)mapped + off, arg2 + 1, n);
	} else if (strcmp(buf, "sleep") == 0) {
		struct timespec ts = { atoi(arg) / 1000, (long)(atoi(arg) % 1000) * 1000000L };

		nanosleep(&ts, NULL);
	}
}

/* SBAT_TEST_NO_PROC: 1 (errno ENOENT) for /proc/self/status. */
static int
refuse_proc(const char *path)
{
	const char *no = getenv("SBAT_TEST_NO_PROC");

	if (no && *no == '1' && strcmp(path, "/proc/self/status") == 0) {
		errno = ENOENT;
		return 1;
	}
	return 0;
}

static int
refuse_tmpfile(int flags)
{
	const char *no = getenv("SBAT_TEST_NO_TMPFILE");

	if ((flags & O_TMPFILE) == O_TMPFILE)
		act("tmpfile");
	if (no && *no == '1' && (flags & O_TMPFILE) == O_TMPFILE) {
		errno = EOPNOTSUPP;
		return 1;
	}
	return 0;
}

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*fsync_fn)(int);
typedef ssize_t (*copy_fn)(int, loff_t *, int, loff_t *, size_t, unsigned);
typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);
typedef ssize_t (*pread64_fn)(int, void *, size_t, off64_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*pwrite64_fn)(int, const void *, size_t, off64_t);

/* The next definition of a libc function (dlsym returns an object pointer: convert through a union). */
#define NEXT(type, name)                                                                                               \
	(((union {                                                                                                     \
		 void *p;                                                                                              \
		 type f;                                                                                               \
	 }){ dlsym(RTLD_NEXT, name) })                                                                                 \
	     .f)

/* The mode argument is there only with O_CREAT or O_TMPFILE. */
#define MODE_ARG(flags, mode)                                                                                          \
	do {                                                                                                           \
		if ((flags) & (O_CREAT | O_TMPFILE)) {                                                                 \
			va_list ap;                                                                                    \
			va_start(ap, flags);                                                                           \
			mode = (mode_t)va_arg(ap, int);                                                                \
			va_end(ap);                                                                                    \
		}                                                                                                      \
	} while (0)

int
open(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	if (refuse_tmpfile(flags) || refuse_proc(path))
		return -1;
	return NEXT(open_fn, "open")(path, flags, mode);
}

int
open64(const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	if (refuse_tmpfile(flags) || refuse_proc(path))
		return -1;
	return NEXT(open_fn, "open64")(path, flags, mode);
}

int
openat(int dir, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	if (refuse_tmpfile(flags) || refuse_proc(path))
		return -1;
	return NEXT(openat_fn, "openat")(dir, path, flags, mode);
}

int
openat64(int dir, const char *path, int flags, ...)
{
	mode_t mode = 0;

	MODE_ARG(flags, mode);
	if (refuse_tmpfile(flags) || refuse_proc(path))
		return -1;
	return NEXT(openat_fn, "openat64")(dir, path, flags, mode);
}

typedef mode_t (*umask_fn)(mode_t);

mode_t
umask(mode_t mask)
{
	const char *no = getenv("SBAT_TEST_NO_UMASK");

	if (no && *no == '1') {
		fprintf(stderr, "hooks: umask(%03o) was called\n", (unsigned)mask);
		_exit(98);
	}
	return NEXT(umask_fn, "umask")(mask);
}

int
fsync(int fd)
{
	act("fsync");
	return NEXT(fsync_fn, "fsync")(fd);
}

typedef int (*sync_range_fn)(int, off64_t, off64_t, unsigned);

int
sync_file_range(int fd, off64_t off, off64_t len, unsigned flags)
{
	act("sync_file_range");
	return NEXT(sync_range_fn, "sync_file_range")(fd, off, len, flags);
}

ssize_t
copy_file_range(int in, loff_t *in_off, int out, loff_t *out_off, size_t len, unsigned flags)
{
	act("copy_file_range");
	return NEXT(copy_fn, "copy_file_range")(in, in_off, out, out_off, len, flags);
}

ssize_t
pread(int fd, void *buf, size_t len, off_t offset)
{
	act("pread");
	return NEXT(pread_fn, "pread")(fd, buf, len, offset);
}

ssize_t
pread64(int fd, void *buf, size_t len, off64_t offset)
{
	act("pread");
	return NEXT(pread64_fn, "pread64")(fd, buf, len, offset);
}

ssize_t
pwrite(int fd, const void *buf, size_t len, off_t offset)
{
	act("pwrite");
	return NEXT(pwrite_fn, "pwrite")(fd, buf, len, offset);
}

ssize_t
pwrite64(int fd, const void *buf, size_t len, off64_t offset)
{
	act("pwrite");
	return NEXT(pwrite64_fn, "pwrite64")(fd, buf, len, offset);
}

typedef int (*ftruncate_fn)(int, off_t);
typedef int (*ftruncate64_fn)(int, off64_t);

int
ftruncate(int fd, off_t len)
{
	act("ftruncate");
	return NEXT(ftruncate_fn, "ftruncate")(fd, len);
}

int
ftruncate64(int fd, off64_t len)
{
	act("ftruncate");
	return NEXT(ftruncate64_fn, "ftruncate64")(fd, len);
}

/* SBAT_TEST_LOG: one line for a rename that succeeded. */
static void
log_rename(const char *line)
{
	const char *path = getenv("SBAT_TEST_LOG");
	FILE *f = path && *path ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
}

typedef int (*renameat_fn)(int, const char *, int, const char *);

int
renameat(int from_dir, const char *from, int to_dir, const char *to)
{
	int r = NEXT(renameat_fn, "renameat")(from_dir, from, to_dir, to);

	if (r == 0) {
		log_rename("renameat");
		act("renamed");
	}
	return r;
}

typedef int (*renameat2_fn)(int, const char *, int, const char *, unsigned);

int
renameat2(int from_dir, const char *from, int to_dir, const char *to, unsigned flags)
{
	int r = NEXT(renameat2_fn, "renameat2")(from_dir, from, to_dir, to, flags);

	if (r == 0) {
		log_rename(flags & RENAME_EXCHANGE ? "renameat2 exchange" : "renameat2");
		act("renamed");
	}
	return r;
}

typedef ssize_t (*read_fn)(int, void *, size_t);
typedef int (*fstat_fn)(int, struct stat64 *);
typedef int (*fstatat_fn)(int, const char *, struct stat64 *, int);

ssize_t
read(int fd, void *buf, size_t len)
{
	act("read");
	return NEXT(read_fn, "read")(fd, buf, len);
}

/* SBAT_TEST_COARSE_TIME: one tick for the whole run. */
static void
coarsen(struct stat64 *st)
{
	const char *c = getenv("SBAT_TEST_COARSE_TIME");

	if (c && *c == '1') {
		st->st_mtim.tv_sec = st->st_ctim.tv_sec = st->st_atim.tv_sec = 1000000000;
		st->st_mtim.tv_nsec = st->st_ctim.tv_nsec = st->st_atim.tv_nsec = 0;
	}
	if (c && *c == 's')
		st->st_mtim.tv_nsec = st->st_ctim.tv_nsec = st->st_atim.tv_nsec = 0;
}

int
fstat64(int fd, struct stat64 *st)
{
	int r;

	act("fstat");
	r = NEXT(fstat_fn, "fstat64")(fd, st);

	if (r == 0)
		coarsen(st);
	return r;
}

int
fstatat64(int dir, const char *path, struct stat64 *st, int flags)
{
	int r = NEXT(fstatat_fn, "fstatat64")(dir, path, st, flags);

	if (r == 0)
		coarsen(st);
	return r;
}

/* SBAT_TEST_COARSE_TIME: the file system is FAT (MSDOS_SUPER_MAGIC); 1 when it is */
static int
coarse_fs(void)
{
	const char *c = getenv("SBAT_TEST_COARSE_TIME");

	return c && *c == '1';
}

typedef int (*fstatfs_fn)(int, struct statfs *);
typedef int (*fstatfs64_fn)(int, struct statfs64 *);

int
fstatfs(int fd, struct statfs *sf)
{
	int r = NEXT(fstatfs_fn, "fstatfs")(fd, sf);

	if (r == 0 && coarse_fs())
		sf->f_type = 0x4d44;
	return r;
}

int
fstatfs64(int fd, struct statfs64 *sf)
{
	int r = NEXT(fstatfs64_fn, "fstatfs64")(fd, sf);

	if (r == 0 && coarse_fs())
		sf->f_type = 0x4d44;
	return r;
}
