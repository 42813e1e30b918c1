/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-fileio.c - bounded reads and atomic replacement of files */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sbat/input.h"
#include "sbat/output.h"
#include "file/identity.h"
#include "file/input.h"
#include "file/timestamps.h"

#define CONTENT_A "old contents of the image\n"
#define CONTENT_B "new contents, a little longer than the old ones\n"

/* ---------------------------------------------------------------------------------------- */
/* helpers */

static char tmp_root[4096];

static void
path_in(char *out, size_t size, const char *dir, const char *name)
{
	int n = snprintf(out, size, "%s/%s", dir, name);

	assert_true(n > 0 && (size_t)n < size);
}

static void
write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	if (len)
		assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(close(fd), 0);
}

/* Whole contents of a file, malloc'ed (NUL-terminated for convenience). */
static char *
slurp(const char *path, size_t *ret_len)
{
	struct stat st;
	char *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	if (st.st_size)
		assert_int_equal(read(fd, buf, (size_t)st.st_size), (ssize_t)st.st_size);
	buf[st.st_size] = '\0';
	close(fd);
	*ret_len = (size_t)st.st_size;
	return buf;
}

static void
assert_contents(const char *path, const char *want)
{
	size_t len;
	char *got = slurp(path, &len);

	assert_int_equal(len, strlen(want));
	assert_memory_equal(got, want, len);
	free(got);
}

static mode_t
mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

/* Number of entries in dir whose names start with '.' (other than . and ..): temp files. */
static int
count_dot_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (e->d_name[0] == '.') {
			print_message("leftover: %s/%s\n", dir, e->d_name);
			n++;
		}
	}
	closedir(d);
	return n;
}

static int
count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static void
remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;

	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	chmod(path, 0700);
	d = opendir(path);
	if (d) {
		while ((e = readdir(d)) != NULL) {
			char sub[4096];

			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			if (snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name) < (int)sizeof(sub))
				remove_tree(sub);
		}
		closedir(d);
	}
	rmdir(path);
}

/* Each test gets a fresh directory under $TMPDIR (or /tmp). */
static int
setup_dir(void **state)
{
	const char *base = getenv("TMPDIR");
	int n;

	if (!base || !*base)
		base = "/tmp";
	n = snprintf(tmp_root, sizeof(tmp_root), "%s/sbat-fileio-XXXXXX", base);
	if (n <= 0 || (size_t)n >= sizeof(tmp_root) || !mkdtemp(tmp_root))
		return -1;
	*state = tmp_root;
	return 0;
}

static int
teardown_dir(void **state)
{
	remove_tree((const char *)*state);
	return 0;
}

/* mode: for a new file, before the umask; an existing file keeps its own */
static sbat_err
write_atomic(const char *path, mode_t mode, const char *data, sbat_diag *d)
{
	memset(d, 0, sizeof(*d));
	return sbat_file_write_atomic(path, mode, (const uint8_t *)data, strlen(data), d);
}

/* ---------------------------------------------------------------------------------------- */
/* sbat_file_read */

static void
test_read_regular(void **state)
{
	const char *dir = *state;
	char path[4096];
	uint8_t *buf = NULL;
	size_t len = 0;
	sbat_diag d;

	path_in(path, sizeof(path), dir, "image.efi");
	write_file(path, CONTENT_B, strlen(CONTENT_B), 0644);
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_read(path, SBAT_FILE_MAX_SIZE, &buf, &len, &d), SBAT_OK);
	assert_non_null(buf);
	assert_int_equal(len, strlen(CONTENT_B));
	assert_memory_equal(buf, CONTENT_B, len);
	free(buf);

	/* a limit equal to the size is fine */
	buf = NULL;
	assert_int_equal(sbat_file_read(path, strlen(CONTENT_B), &buf, &len, &d), SBAT_OK);
	assert_int_equal(len, strlen(CONTENT_B));
	free(buf);

	/* a larger binary file, read whole */
	{
		size_t n = 300000, i;
		uint8_t *big = malloc(n);

		assert_non_null(big);
		for (i = 0; i < n; i++)
			big[i] = (uint8_t)(i * 7 + (i >> 9));
		write_file(path, big, n, 0644);
		buf = NULL;
		assert_int_equal(sbat_file_read(path, SBAT_FILE_MAX_SIZE, &buf, &len, &d), SBAT_OK);
		assert_int_equal(len, n);
		assert_memory_equal(buf, big, n);
		free(buf);
		free(big);
	}
}

static void
test_read_empty(void **state)
{
	const char *dir = *state;
	char path[4096];
	uint8_t *buf = NULL;
	size_t len = 99;
	sbat_diag d;

	path_in(path, sizeof(path), dir, "empty");
	write_file(path, "", 0, 0644);
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_read(path, SBAT_FILE_MAX_SIZE, &buf, &len, &d), SBAT_OK);
	assert_int_equal(len, 0);
	free(buf);

	/* an empty file is within even a zero limit */
	len = 99;
	buf = NULL;
	assert_int_equal(sbat_file_read(path, 0, &buf, &len, &d), SBAT_OK);
	assert_int_equal(len, 0);
	free(buf);
}

static void
test_read_missing(void **state)
{
	const char *dir = *state;
	char path[4096];
	static uint8_t sentinel;
	uint8_t *buf = &sentinel;
	size_t len = 77;
	sbat_diag d;

	path_in(path, sizeof(path), dir, "no-such-file");
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_read(path, SBAT_FILE_MAX_SIZE, &buf, &len, &d), SBAT_E_IO);
	assert_int_equal(d.code, SBAT_E_IO);
	assert_int_equal(d.sys_errno, ENOENT);
	assert_non_null(d.what);
	assert_ptr_equal(buf, &sentinel);
	assert_int_equal(len, 77);

	/* a missing directory on the way */
	path_in(path, sizeof(path), dir, "no-such-dir/file");
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_read(path, SBAT_FILE_MAX_SIZE, &buf, &len, &d), SBAT_E_IO);
	assert_int_equal(d.sys_errno, ENOENT);

	/* a regular file used as a directory */
	path_in(path, sizeof(path), dir, "plain");
	write_file(path, "x", 1, 0644);
	path_in(path, sizeof(path), dir, "plain/file");
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_read(path, SBAT_FILE_MAX_SIZE, &buf, &len, &d), SBAT_E_IO);
	assert_int_equal(d.sys_errno, ENOTDIR);
	assert_ptr_equal(buf, &sentinel);
}

static void
test_read_directory(void **state)
{
	const char *dir = *state;
	static uint8_t sentinel;
	uint8_t *buf = &sentinel;
	size_t len = 77;
	sbat_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_read(dir, SBAT_FILE_MAX_SIZE, &buf, &len, &d), SBAT_E_NOT_REGULAR);
	assert_int_equal(d.code, SBAT_E_NOT_REGULAR);
	assert_non_null(d.what);
	assert_ptr_equal(buf, &sentinel);
	assert_int_equal(len, 77);
}

static void
test_read_device(void **state)
{
	static uint8_t sentinel;
	uint8_t *buf = &sentinel;
	size_t len = 77;
	sbat_diag d;

	(void)state;
	if (access("/dev/null", R_OK) != 0)
		skip();
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_read("/dev/null", SBAT_FILE_MAX_SIZE, &buf, &len, &d), SBAT_E_NOT_REGULAR);
	assert_ptr_equal(buf, &sentinel);
}

/*
 * A FIFO is documented as refused. Opening one for reading blocks until a
 * writer appears, so the read runs in a child with a deadline.
 */
static void
test_read_fifo(void **state)
{
	const char *dir = *state;
	char path[4096];
	pid_t pid;
	int status = 0, i;
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	path_in(path, sizeof(path), dir, "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint8_t *buf = NULL;
		size_t len = 0;
		sbat_diag d;
		sbat_err r;

		alarm(10); /* never outlive the test */
		memset(&d, 0, sizeof(d));
		r = sbat_file_read(path, SBAT_FILE_MAX_SIZE, &buf, &len, &d);
		_exit(r == SBAT_E_NOT_REGULAR ? 0 : 1);
	}
	/* up to 2 s */
	for (i = 0; i < 100; i++) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		assert_true(w >= 0);
		if (w == pid)
			break;
		nanosleep(&ts, NULL);
	}
	if (i == 100) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		fail_msg("sbat_file_read on a FIFO blocks in open() (no writer) instead of "
		         "returning SBAT_E_NOT_REGULAR");
	}
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void
test_read_too_big(void **state)
{
	const char *dir = *state;
	char path[4096];
	static uint8_t sentinel;
	uint8_t *buf = &sentinel;
	size_t len = 77;
	sbat_diag d;

	path_in(path, sizeof(path), dir, "big");
	write_file(path, CONTENT_A, strlen(CONTENT_A), 0644);
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_read(path, strlen(CONTENT_A) - 1, &buf, &len, &d), SBAT_E_TOO_BIG);
	assert_int_equal(d.code, SBAT_E_TOO_BIG);
	assert_non_null(d.what);
	assert_ptr_equal(buf, &sentinel);
	assert_int_equal(len, 77);

	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_read(path, 0, &buf, &len, &d), SBAT_E_TOO_BIG);
	assert_ptr_equal(buf, &sentinel);
}

static void
test_read_null_diag(void **state)
{
	const char *dir = *state;
	char path[4096];
	uint8_t *buf = NULL;
	size_t len;

	path_in(path, sizeof(path), dir, "missing");
	assert_int_equal(sbat_file_read(path, SBAT_FILE_MAX_SIZE, &buf, &len, NULL), SBAT_E_IO);
	assert_int_equal(sbat_file_read(dir, SBAT_FILE_MAX_SIZE, &buf, &len, NULL), SBAT_E_NOT_REGULAR);
	assert_null(buf);
}

/* ---------------------------------------------------------------------------------------- */
/* sbat_file_write_atomic */

static void
test_write_creates_0644(void **state)
{
	const char *dir = *state;
	char path[4096];
	mode_t old_umask;
	sbat_diag d;

	path_in(path, sizeof(path), dir, "new.efi");
	/* as cp makes a new file: the mode less the umask */
	old_umask = umask(022);
	assert_int_equal(write_atomic(path, 0644, CONTENT_B, &d), SBAT_OK);
	assert_int_equal(mode_of(path), 0644);
	assert_int_equal(unlink(path), 0);
	umask(077);
	assert_int_equal(write_atomic(path, 0644, CONTENT_B, &d), SBAT_OK);
	umask(old_umask);
	assert_contents(path, CONTENT_B);
	assert_int_equal(mode_of(path), 0600);
	assert_int_equal(count_dot_files(dir), 0);
	assert_int_equal(count_entries(dir), 1);
}

static void
test_write_empty_buffer(void **state)
{
	const char *dir = *state;
	char path[4096];
	sbat_diag d;

	path_in(path, sizeof(path), dir, "empty.efi");
	write_file(path, CONTENT_A, strlen(CONTENT_A), 0600);
	memset(&d, 0, sizeof(d));
	assert_int_equal(sbat_file_write_atomic(path, 0644, (const uint8_t *)"", 0, &d), SBAT_OK);
	assert_contents(path, "");
	assert_int_equal(mode_of(path), 0600);
	assert_int_equal(count_dot_files(dir), 0);
}

static void
check_replace_keeps_mode(const char *dir, mode_t mode)
{
	char path[4096];
	struct stat before, after;
	sbat_diag d;

	path_in(path, sizeof(path), dir, "image.efi");
	write_file(path, CONTENT_A, strlen(CONTENT_A), mode);
	assert_int_equal(stat(path, &before), 0);
	assert_int_equal(write_atomic(path, 0644, CONTENT_B, &d), SBAT_OK);
	assert_contents(path, CONTENT_B);
	assert_int_equal(mode_of(path), mode);
	/* replaced by rename, not rewritten in place */
	assert_int_equal(stat(path, &after), 0);
	assert_true(after.st_ino != before.st_ino);
	assert_int_equal(after.st_uid, before.st_uid);
	assert_int_equal(after.st_gid, before.st_gid);
	assert_int_equal(count_dot_files(dir), 0);
	assert_int_equal(unlink(path), 0);
}

static void
test_write_replace_keeps_mode(void **state)
{
	const char *dir = *state;

	check_replace_keeps_mode(dir, 0640);
	check_replace_keeps_mode(dir, 0600);
	check_replace_keeps_mode(dir, 0755);
	check_replace_keeps_mode(dir, 0444);
}

/* A new file: the given permission bits less the umask, never setuid, setgid or sticky. */
static void
test_write_new_file_mode(void **state)
{
	const char *dir = *state;
	char path[4096];
	mode_t old_umask = umask(022);
	sbat_diag d;

	path_in(path, sizeof(path), dir, "output.efi");
	assert_int_equal(write_atomic(path, 04751, CONTENT_B, &d), SBAT_OK);
	assert_contents(path, CONTENT_B);
	assert_int_equal(mode_of(path), 0751);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(write_atomic(path, 07777, CONTENT_B, &d), SBAT_OK);
	assert_int_equal(mode_of(path), 0755);
	umask(old_umask);
	assert_int_equal(count_dot_files(dir), 0);
}

/* An existing file keeps its own mode, whatever mode the call names. */
static void
test_write_existing_keeps_its_mode(void **state)
{
	const char *dir = *state;
	char path[4096];
	sbat_diag d;

	path_in(path, sizeof(path), dir, "output.efi");
	write_file(path, CONTENT_A, strlen(CONTENT_A), 0600);
	assert_int_equal(write_atomic(path, 0755, CONTENT_B, &d), SBAT_OK);
	assert_contents(path, CONTENT_B);
	assert_int_equal(mode_of(path), 0600);
	assert_int_equal(count_dot_files(dir), 0);
}

static void
test_write_symlink_refused(void **state)
{
	const char *dir = *state;
	char link[4096], target[4096], got[4096];
	ssize_t n;
	sbat_diag d;

	path_in(target, sizeof(target), dir, "target.efi");
	path_in(link, sizeof(link), dir, "link.efi");
	write_file(target, CONTENT_A, strlen(CONTENT_A), 0640);
	assert_int_equal(symlink("target.efi", link), 0);

	assert_int_equal(write_atomic(link, 0644, CONTENT_B, &d), SBAT_E_NOT_REGULAR);
	assert_int_equal(d.code, SBAT_E_NOT_REGULAR);
	assert_non_null(d.what);
	/* the link is still a link to the same name, the target untouched */
	n = readlink(link, got, sizeof(got) - 1);
	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got, "target.efi");
	assert_contents(target, CONTENT_A);
	assert_int_equal(mode_of(target), 0640);
	assert_int_equal(count_dot_files(dir), 0);
	assert_int_equal(count_entries(dir), 2);

	/* whatever the mode asked for */
	assert_int_equal(write_atomic(link, 0755, CONTENT_B, &d), SBAT_E_NOT_REGULAR);
	assert_contents(target, CONTENT_A);

	/* a dangling link is not followed and nothing is created */
	path_in(link, sizeof(link), dir, "dangling.efi");
	assert_int_equal(symlink("nowhere.efi", link), 0);
	assert_int_equal(write_atomic(link, 0644, CONTENT_B, &d), SBAT_E_NOT_REGULAR);
	path_in(target, sizeof(target), dir, "nowhere.efi");
	assert_int_not_equal(access(target, F_OK), 0);
	assert_int_equal(count_dot_files(dir), 0);
	assert_int_equal(count_entries(dir), 3);
}

static void
test_write_directory_refused(void **state)
{
	const char *dir = *state;
	char sub[4096];
	sbat_diag d;

	path_in(sub, sizeof(sub), dir, "subdir");
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(write_atomic(sub, 0644, CONTENT_B, &d), SBAT_E_NOT_REGULAR);
	assert_int_equal(d.code, SBAT_E_NOT_REGULAR);
	assert_non_null(d.what);
	assert_int_equal(count_entries(sub), 0);
	assert_int_equal(count_dot_files(dir), 0);
	assert_int_equal(count_entries(dir), 1);

	/* the temporary directory itself, named with a trailing slash */
	{
		char slash[4096];

		path_in(slash, sizeof(slash), dir, "subdir/");
		assert_int_not_equal(write_atomic(slash, 0644, CONTENT_B, &d), SBAT_OK);
		assert_int_equal(count_entries(sub), 0);
		assert_int_equal(count_dot_files(dir), 0);
	}
}

static void
test_write_missing_directory(void **state)
{
	const char *dir = *state;
	char path[4096], sub[4096];
	sbat_diag d;

	path_in(sub, sizeof(sub), dir, "no-such-dir");
	path_in(path, sizeof(path), dir, "no-such-dir/out.efi");
	assert_int_equal(write_atomic(path, 0644, CONTENT_B, &d), SBAT_E_IO);
	assert_int_equal(d.code, SBAT_E_IO);
	assert_int_equal(d.sys_errno, ENOENT);
	assert_non_null(d.what);
	assert_int_not_equal(access(sub, F_OK), 0);
	assert_int_equal(count_entries(dir), 0);
}

static void
test_write_readonly_directory(void **state)
{
	const char *dir = *state;
	char sub[4096], path[4096];
	sbat_diag d;

	if (geteuid() == 0) {
		print_message("skipped: running as root, a 0500 directory does not stop writes\n");
		skip();
	}
	path_in(sub, sizeof(sub), dir, "ro");
	assert_int_equal(mkdir(sub, 0700), 0);
	path_in(path, sizeof(path), sub, "image.efi");
	write_file(path, CONTENT_A, strlen(CONTENT_A), 0644);
	assert_int_equal(chmod(sub, 0500), 0);
	assert_int_equal(write_atomic(path, 0644, CONTENT_B, &d), SBAT_E_IO);
	assert_int_equal(d.sys_errno, EACCES);
	assert_non_null(d.what);
	assert_contents(path, CONTENT_A);
	assert_int_equal(count_dot_files(sub), 0);
	assert_int_equal(count_entries(sub), 1);
	assert_int_equal(chmod(sub, 0700), 0);
}

/* A write that fails half-way (file size limit) leaves no temporary file and the old contents. */
static void
test_write_fails_midway(void **state)
{
	const char *dir = *state;
	char path[4096];
	struct rlimit old, lim;
	void (*old_handler)(int);
	size_t n = 64 * 1024;
	uint8_t *big = malloc(n);
	sbat_diag d;
	sbat_err r;

	assert_non_null(big);
	memset(big, 0xab, n);
	path_in(path, sizeof(path), dir, "image.efi");
	write_file(path, CONTENT_A, strlen(CONTENT_A), 0640);

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 4096;
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < lim.rlim_cur)
		lim.rlim_cur = old.rlim_max;
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	memset(&d, 0, sizeof(d));
	r = sbat_file_write_atomic(path, 0644, big, n, &d);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, old_handler);
	free(big);

	assert_int_equal(r, SBAT_E_IO);
	assert_int_equal(d.sys_errno, EFBIG);
	assert_non_null(d.what);
	assert_contents(path, CONTENT_A);
	assert_int_equal(mode_of(path), 0640);
	assert_int_equal(count_dot_files(dir), 0);
	assert_int_equal(count_entries(dir), 1);
}

/* A bare file name is written in the current directory. */
static void
test_write_relative_name(void **state)
{
	const char *dir = *state;
	char cwd[4096], path[4096];
	sbat_diag d;
	sbat_err r;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	r = write_atomic("bare.efi", 0644, CONTENT_B, &d);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(r, SBAT_OK);
	path_in(path, sizeof(path), dir, "bare.efi");
	assert_contents(path, CONTENT_B);
	assert_int_equal(count_dot_files(dir), 0);
}

/* Root keeps the owner of the file it replaces. */
static void
test_write_keeps_owner(void **state)
{
	const char *dir = *state;
	char path[4096];
	struct stat st;
	sbat_diag d;

	if (geteuid() != 0) {
		print_message("skipped: changing the owner needs root\n");
		skip();
	}
	path_in(path, sizeof(path), dir, "owned.efi");
	write_file(path, CONTENT_A, strlen(CONTENT_A), 0640);
	assert_int_equal(chown(path, 4321, 4322), 0);
	assert_int_equal(write_atomic(path, 0644, CONTENT_B, &d), SBAT_OK);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, 4321);
	assert_int_equal(st.st_gid, 4322);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_contents(path, CONTENT_B);
	assert_int_equal(count_dot_files(dir), 0);
}

/* A file written atomically reads back through sbat_file_read. */
static void
test_write_then_read(void **state)
{
	const char *dir = *state;
	char path[4096];
	uint8_t *buf = NULL;
	size_t len = 0;
	sbat_diag d;

	path_in(path, sizeof(path), dir, "round.efi");
	assert_int_equal(write_atomic(path, 0644, CONTENT_A, &d), SBAT_OK);
	assert_int_equal(sbat_file_read(path, SBAT_FILE_MAX_SIZE, &buf, &len, &d), SBAT_OK);
	assert_int_equal(len, strlen(CONTENT_A));
	assert_memory_equal(buf, CONTENT_A, len);
	free(buf);
}

/* The one identity check: every field it compares, changed alone, makes the file another or a changed one. */
static void
test_identity_fields(void **state)
{
	struct stat a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.st_dev = 3;
	a.st_ino = 42;
	a.st_size = 4096;
	a.st_mtim.tv_sec = 1000;
	a.st_mtim.tv_nsec = 5;
	a.st_ctim.tv_sec = 2000;
	a.st_ctim.tv_nsec = 7;
	b = a;
	assert_true(sbat_same_file(&a, &b));
	assert_true(sbat_file_unchanged(&a, &b));
	b.st_mode = a.st_mode ^ 0111; /* not compared: a chmod is no change of content */
	assert_true(sbat_file_unchanged(&a, &b));

#define CHANGED(field, value, identity)                                                                                \
	do {                                                                                                           \
		b = a;                                                                                                 \
		b.field = (value);                                                                                     \
		assert_int_equal(sbat_same_file(&a, &b), !(identity));                                                 \
		assert_false(sbat_file_unchanged(&a, &b));                                                             \
		assert_false(sbat_file_unchanged(&b, &a));                                                             \
	} while (0)
	CHANGED(st_dev, 4, 1);
	CHANGED(st_ino, 43, 1);
	CHANGED(st_size, 4097, 0);
	CHANGED(st_mtim.tv_sec, 1001, 0);
	CHANGED(st_mtim.tv_nsec, 6, 0);
	CHANGED(st_ctim.tv_sec, 2001, 0);
	CHANGED(st_ctim.tv_nsec, 8, 0);
#undef CHANGED
}

/* sbat_file_map_fd maps the very file open as fd, checks it as sbat_file_map does, and leaves fd open. */
static void
test_map_fd(void **state)
{
	const char *dir = *state;
	sbat_mapped_file *f = NULL;
	char path[4096], other[4096];
	sbat_diag d;
	int fd, dir_fd;

	path_in(path, sizeof(path), dir, "opened.efi");
	path_in(other, sizeof(other), dir, "other.efi");
	write_file(path, CONTENT_A, strlen(CONTENT_A), 0644);
	write_file(other, CONTENT_B, strlen(CONTENT_B), 0644);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	/* the name now refers to another file: the descriptor's file is mapped */
	assert_int_equal(rename(other, path), 0);
	assert_int_equal(sbat_file_map_fd(fd, SBAT_FILE_MAX_SIZE, &f, &d), SBAT_OK);
	assert_int_equal(sbat_mapped_file_size(f), strlen(CONTENT_A));
	assert_memory_equal(sbat_mapped_file_data(f), CONTENT_A, strlen(CONTENT_A));
	assert_int_not_equal(sbat_mapped_file_fd(f), fd);
	sbat_file_unmap(f);
	f = NULL;
	assert_true(fcntl(fd, F_GETFD) >= 0);
	assert_int_equal(sbat_file_map_fd(fd, 4, &f, &d), SBAT_E_TOO_BIG);
	close(fd);
	dir_fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dir_fd >= 0);
	assert_int_equal(sbat_file_map_fd(dir_fd, SBAT_FILE_MAX_SIZE, &f, &d), SBAT_E_NOT_REGULAR);
	close(dir_fd);
	assert_int_equal(sbat_file_map_fd(-1, SBAT_FILE_MAX_SIZE, &f, &d), SBAT_E_IO);
	assert_null(f);
}

/* A file with modification time `mtime`; times_can_hide for it. */
static int
can_hide_with_mtime(const char *dir, const struct timespec *mtime)
{
	char path[600];
	struct timespec t[2];
	struct stat st;
	int fd, hide = -1;

	snprintf(path, sizeof(path), "%s/t.bin", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "data", 4), 4);
	if (mtime) {
		t[0] = t[1] = *mtime;
		assert_int_equal(futimens(fd, t), 0);
	}
	assert_int_equal(timestamps_fstat(fd, &st, &hide), 0);
	close(fd);
	return hide;
}

/*
 * When the time stamps cannot show a write: a file just written (a second
 * write in the same clock tick keeps its time) or dated in the future;
 * not one last written an hour ago, with nanoseconds, on this file system
 * (not FAT or NFS, which the test directory never is).
 */
static void
test_times_can_hide_write(void **state)
{
	const char *dir = *state;
	struct timespec now, t;

	assert_int_equal(clock_gettime(CLOCK_REALTIME, &now), 0);
	assert_int_equal(can_hide_with_mtime(dir, NULL), 1);
	t = now;
	t.tv_sec += 3600;
	assert_int_equal(can_hide_with_mtime(dir, &t), 1);
	t = now;
	t.tv_nsec = (t.tv_nsec + 1) % 1000000000L; /* never 0: both times without nanoseconds also hide */
	assert_int_equal(can_hide_with_mtime(dir, &t), 1);
	t.tv_sec = now.tv_sec - 3600;
	t.tv_nsec = 123456789;
	assert_int_equal(can_hide_with_mtime(dir, &t), 0);
	t.tv_sec = now.tv_sec - 1;
	assert_int_equal(can_hide_with_mtime(dir, &t), 0);
	assert_int_equal(timestamps_fstat(-1, &(struct stat){ 0 }, &(int){ 0 }), -1);
}

/* A stat with these modification and change times (seconds, nanoseconds). */
static struct stat
stat_at(long long m_sec, long m_nsec, long long c_sec, long c_nsec)
{
	struct stat st;

	memset(&st, 0, sizeof(st));
	st.st_mtim.tv_sec = (time_t)m_sec;
	st.st_mtim.tv_nsec = m_nsec;
	st.st_ctim.tv_sec = (time_t)c_sec;
	st.st_ctim.tv_nsec = c_nsec;
	return st;
}

/*
 * Times in whole seconds (ext4 with 128-byte inodes) show every later write
 * on ext2/3/4 once the change time's second is over, a few clock ticks
 * since: the kernel alone sets the change time. Not within that second or
 * just after it, nor on FAT (whose change time is its modification time,
 * which a writer sets), nor on a file system not known to keep it so.
 */
static void
test_times_whole_seconds(void **state)
{
	const uint32_t ext = 0xef53u, fat = 0x4d44u, other = 0x1234u;
	struct timespec before = { 1000000, 300000000 };
	struct stat st;

	(void)state;
	st = stat_at(990000, 0, 999998, 0); /* changed two seconds before */
	assert_int_equal(timestamps_can_hide(&st, 1, ext, &before), 0);
	assert_int_equal(timestamps_can_hide(&st, 1, fat, &before), 1);
	assert_int_equal(timestamps_can_hide(&st, 1, other, &before), 1);
	assert_int_equal(timestamps_can_hide(&st, 0, ext, &before), 1);
	st = stat_at(990000, 0, 999999, 0); /* its second ended 300 ms before */
	assert_int_equal(timestamps_can_hide(&st, 1, ext, &before), 0);
	st = stat_at(990000, 0, 1000000, 0); /* in the current second: a write now keeps it */
	assert_int_equal(timestamps_can_hide(&st, 1, ext, &before), 1);
	before.tv_nsec = 20000000; /* its second ended only 20 ms before: the kernel's clock may lag a tick */
	st = stat_at(990000, 0, 999999, 0);
	assert_int_equal(timestamps_can_hide(&st, 1, ext, &before), 1);
	st = stat_at(990000, 0, 1000005, 0); /* in the future */
	assert_int_equal(timestamps_can_hide(&st, 1, ext, &before), 1);
	st = stat_at(1000000, 0, 990000, 0); /* a modification time just now: racy */
	assert_int_equal(timestamps_can_hide(&st, 1, ext, &before), 1);
	st = stat_at(990000, 5, 990000, 5); /* nanoseconds, an old time: any file system not known to hide */
	assert_int_equal(timestamps_can_hide(&st, 1, other, &before), 0);
	assert_int_equal(timestamps_can_hide(&st, 1, fat, &before), 1);
}

/* Files under a root read one component at a time: links on the way or at the end are not followed. */
static void
test_read_beneath(void **state)
{
	const char *dir = *state;
	char path[4096], link_root[4096];
	uint8_t *buf = NULL;
	size_t len = 0;
	sbat_diag d;

	path_in(path, sizeof(path), dir, "EFI");
	assert_int_equal(mkdir(path, 0700), 0);
	path_in(path, sizeof(path), dir, "EFI/debian");
	assert_int_equal(mkdir(path, 0700), 0);
	path_in(path, sizeof(path), dir, "EFI/debian/shimx64.efi");
	write_file(path, CONTENT_A, strlen(CONTENT_A), 0644);
	assert_int_equal(input_read_beneath(dir, "EFI/debian/shimx64.efi", 1024, &buf, &len, &d), SBAT_OK);
	assert_int_equal(len, strlen(CONTENT_A));
	assert_memory_equal(buf, CONTENT_A, len);
	free(buf);

	/* the root itself may be a link */
	path_in(link_root, sizeof(link_root), dir, "esp-link");
	assert_int_equal(symlink(dir, link_root), 0);
	assert_int_equal(input_read_beneath(link_root, "/EFI//debian/shimx64.efi", 1024, &buf, &len, &d), SBAT_OK);
	free(buf);

	/* a link as the file, or as a directory on the way: refused */
	path_in(path, sizeof(path), dir, "EFI/debian/revocations_sbat.efi");
	assert_int_equal(symlink("shimx64.efi", path), 0);
	assert_int_equal(input_read_beneath(dir, "EFI/debian/revocations_sbat.efi", 1024, &buf, &len, &d),
	                 SBAT_E_NOT_REGULAR);
	assert_string_equal(d.what, "is a symbolic link, not followed");
	path_in(path, sizeof(path), dir, "EFI/other");
	assert_int_equal(symlink("debian", path), 0);
	assert_int_equal(input_read_beneath(dir, "EFI/other/shimx64.efi", 1024, &buf, &len, &d), SBAT_E_NOT_REGULAR);
	assert_string_equal(d.what, "a directory on the path is a symbolic link, not followed");

	/* . and .., a FIFO (refused at once, not waited on), a missing file, a file over the bound */
	assert_int_equal(input_read_beneath(dir, "EFI/../EFI/debian/shimx64.efi", 1024, &buf, &len, &d),
	                 SBAT_E_NOT_REGULAR);
	path_in(path, sizeof(path), dir, "EFI/debian/fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(10);
	assert_int_equal(input_read_beneath(dir, "EFI/debian/fifo", 1024, &buf, &len, &d), SBAT_E_NOT_REGULAR);
	alarm(0);
	assert_int_equal(input_read_beneath(dir, "EFI/debian/none.efi", 1024, &buf, &len, &d), SBAT_E_IO);
	assert_int_equal(d.sys_errno, ENOENT);
	assert_int_equal(input_read_beneath(dir, "EFI/debian/shimx64.efi", 4, &buf, &len, &d), SBAT_E_TOO_BIG);

	/* mapped beneath the root by the same rules; its descriptor reads the same bytes */
	{
		sbat_mapped_file *m = NULL;
		char back[64] = "";

		assert_int_equal(sbat_file_map_beneath(link_root, "EFI/debian/shimx64.efi", 1024, &m, &d), SBAT_OK);
		assert_int_equal(sbat_mapped_file_size(m), strlen(CONTENT_A));
		assert_memory_equal(sbat_mapped_file_data(m), CONTENT_A, strlen(CONTENT_A));
		assert_int_equal(pread(sbat_mapped_file_fd(m), back, sizeof(back), 0), (ssize_t)strlen(CONTENT_A));
		assert_memory_equal(back, CONTENT_A, strlen(CONTENT_A));
		sbat_file_unmap(m);
		assert_int_equal(sbat_file_map_beneath(dir, "EFI/other/shimx64.efi", 1024, &m, &d), SBAT_E_NOT_REGULAR);
		assert_null(m);
		assert_int_equal(sbat_file_map_beneath(dir, "EFI/debian/revocations_sbat.efi", 1024, &m, &d),
		                 SBAT_E_NOT_REGULAR);
		assert_int_equal(sbat_file_map_beneath(dir, "EFI/../EFI/debian/shimx64.efi", 1024, &m, &d),
		                 SBAT_E_NOT_REGULAR);
		assert_int_equal(sbat_file_map_beneath(dir, "EFI/debian/shimx64.efi", 4, &m, &d), SBAT_E_TOO_BIG);
		assert_null(m);
	}
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup_dir, teardown_dir)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_read_regular),
		T(test_read_empty),
		T(test_read_missing),
		T(test_read_directory),
		T(test_read_device),
		T(test_read_fifo),
		T(test_read_beneath),
		T(test_read_too_big),
		T(test_read_null_diag),
		T(test_write_creates_0644),
		T(test_write_empty_buffer),
		T(test_write_replace_keeps_mode),
		T(test_write_new_file_mode),
		T(test_write_existing_keeps_its_mode),
		T(test_write_symlink_refused),
		T(test_write_directory_refused),
		T(test_write_missing_directory),
		T(test_write_readonly_directory),
		T(test_write_fails_midway),
		T(test_write_relative_name),
		T(test_write_keeps_owner),
		T(test_write_then_read),
		cmocka_unit_test(test_identity_fields),
		T(test_map_fd),
		T(test_times_can_hide_write),
		T(test_times_whole_seconds),
	};

	return run_group(tests, NULL, NULL);
}
