/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-stream.c - edits written to files: same bytes as in memory, and safe when I/O fails */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sbat/sbat.h"

#include "fixture.h"

static const char payload[] = FX_SBAT_CSV;
#define PAYLOAD ((const uint8_t *)payload)
#define PAYLOAD_LEN (sizeof(payload) - 1)

/* Fault injection state, read by the hooks below. */
static struct {
	int fail_pwrite_at;    /* 1-based call number that fails, 0: never */
	int pwrite_errno;
	int short_writes;      /* write at most 7 bytes per call */
	int kill_at;           /* SIGKILL ourselves on this pwrite call */
	int fail_fsync;
	int fail_rename;
	int copy_errno;        /* copy_range fails with this at once (0: works) */
	int copy_fail_after;   /* copy_range copies this much, then fails with copy_late_errno */
	int copy_late_errno;   /* 0: EIO */
	int calls;
	int copy_calls;
} fault;

static ssize_t
hook_pwrite(int fd, const void *buf, size_t len, off_t off)
{
	fault.calls++;
	if (fault.kill_at && fault.calls == fault.kill_at)
		raise(SIGKILL);
	if (fault.fail_pwrite_at && fault.calls == fault.fail_pwrite_at) {
		errno = fault.pwrite_errno;
		return -1;
	}
	if (fault.short_writes && len > 7)
		len = 7;
	return pwrite(fd, buf, len, off);
}

static ssize_t
hook_copy(int in_fd, off_t in_off, int out_fd, off_t out_off, size_t len)
{
	uint8_t buf[4096];
	ssize_t n;

	fault.copy_calls++;
	if (fault.copy_errno) {
		errno = fault.copy_errno;
		return -1;
	}
	if (fault.copy_fail_after && fault.copy_calls > 1) {
		errno = fault.copy_late_errno ? fault.copy_late_errno : EIO;
		return -1;
	}
	/* an honest user-space copy, partial on purpose */
	if (len > sizeof(buf))
		len = sizeof(buf);
	if (fault.copy_fail_after && len > (size_t)fault.copy_fail_after)
		len = (size_t)fault.copy_fail_after;
	n = pread(in_fd, buf, len, in_off);
	if (n <= 0)
		return n;
	return pwrite(out_fd, buf, (size_t)n, out_off);
}

static int
hook_fsync(int fd)
{
	if (fault.fail_fsync) {
		errno = EIO;
		return -1;
	}
	return fsync(fd);
}

static int
hook_rename(const char *from, const char *to)
{
	if (fault.fail_rename) {
		errno = EACCES;
		return -1;
	}
	return rename(from, to);
}

static const sbat_io hooks = { hook_pwrite, hook_copy, hook_fsync, hook_rename };

static char dir[256];
static char target[300];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/sbat-stream-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(target, sizeof(target), "%s/image.efi", dir);
	memset(&fault, 0, sizeof(fault));
	return 0;
}

static int
teardown(void **state)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char path[600];

	(void)state;
	while (dp && (e = readdir(dp))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	}
	if (dp)
		closedir(dp);
	rmdir(dir);
	return 0;
}

/* Number of entries in the test directory (the image and nothing else when clean). */
static int
dir_entries(void)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(dp);
	return n;
}

static void
write_target(const uint8_t *buf, size_t len)
{
	assert_int_equal(fx_write_file(target, buf, len), 0);
	assert_int_equal(chmod(target, 0640), 0);
}

static void
assert_target_is(const uint8_t *buf, size_t len)
{
	uint8_t *got;
	size_t got_len;

	assert_int_equal(sbat_file_read(target, SBAT_FILE_MAX_SIZE, &got, &got_len, NULL), SBAT_OK);
	assert_int_equal(got_len, len);
	assert_memory_equal(got, buf, len);
	free(got);
}

/* Edit `target` in place through the file path, as the CLI does. */
static sbat_err
edit_file(const sbat_io *io, const sbat_edit_opts *opts, sbat_edit_report *r, sbat_diag *d)
{
	sbat_mapped_file in;
	sbat_output *out;
	sbat_err err;

	err = sbat_file_map(target, SBAT_FILE_MAX_SIZE, &in, d);
	if (err)
		return err;
	err = sbat_output_open(target, NULL, io, &out, d);
	if (!err) {
		err = sbat_edit_fd(in.data, in.len, in.fd, PAYLOAD, PAYLOAD_LEN, opts, out, r, d);
		if (!err && !r->unchanged)
			err = sbat_output_commit(out, d);
		else
			sbat_output_abort(out);
	}
	sbat_file_unmap(&in);
	return err;
}

static void
expect_same_as_memory(int kind, int checksum, const sbat_io *io)
{
	fx_spec spec;
	uint8_t *img, *mem;
	size_t len, mem_len;
	sbat_edit_report r;
	sbat_diag d;

	fx_spec_init(&spec, kind);
	spec.set_checksum = checksum;
	spec.overlay_len = kind == FX_PLAIN ? 99 : 0;
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	assert_int_equal(sbat_edit(img, len, PAYLOAD, PAYLOAD_LEN, NULL, &mem, &mem_len, NULL, NULL), SBAT_OK);
	write_target(img, len);
	if (edit_file(io, NULL, &r, &d) != SBAT_OK)
		fail_msg("edit_file: %s", d.what);
	assert_false(r.unchanged);
	assert_target_is(mem, mem_len);
	assert_int_equal(dir_entries(), 1);
	free(img);
	free(mem);
}

static void
test_stream_matches_memory(void **state)
{
	static const int kinds[] = { FX_PLAIN, FX_BZIMAGE_OLD, FX_BZIMAGE_NEW, FX_ARM64 };
	unsigned k;

	(void)state;
	for (k = 0; k < 4; k++) {
		expect_same_as_memory(kinds[k], 0, NULL);
		expect_same_as_memory(kinds[k], 1, NULL);
	}
}

/* copy_file_range missing (ENOSYS), or across file systems (EXDEV): read/write instead. */
static void
test_stream_copy_range_fallbacks(void **state)
{
	static const int errs[] = { ENOSYS, EXDEV, EOPNOTSUPP, EINVAL };
	unsigned k;

	(void)state;
	for (k = 0; k < 4; k++) {
		memset(&fault, 0, sizeof(fault));
		fault.copy_errno = errs[k];
		expect_same_as_memory(FX_PLAIN, 0, &hooks);
		assert_true(fault.copy_calls > 0);
	}
	/* partial kernel copy, then fallback for the rest */
	memset(&fault, 0, sizeof(fault));
	fault.copy_fail_after = 100;
	fault.copy_errno = 0;
	{
		fx_spec spec;
		uint8_t *img;
		size_t len;
		sbat_edit_report r;
		sbat_diag d;

		fx_spec_init(&spec, FX_PLAIN);
		assert_int_equal(fx_build(&spec, &img, &len), 0);
		write_target(img, len);
		/* EIO mid-copy is a real error: reported, original untouched */
		assert_int_equal(edit_file(&hooks, NULL, &r, &d), SBAT_E_IO);
		assert_target_is(img, len);
		assert_int_equal(dir_entries(), 1);
		free(img);
	}
}

/* The kernel copies part, then gives up (ENOSYS): the rest goes through the buffer, checksum intact. */
static void
test_stream_copy_range_gives_up_midway(void **state)
{
	(void)state;
	fault.copy_fail_after = 100;
	fault.copy_late_errno = ENOSYS;
	expect_same_as_memory(FX_PLAIN, 1, &hooks);
	assert_true(fault.copy_calls >= 2);
	memset(&fault, 0, sizeof(fault));
	fault.copy_fail_after = 4096;
	fault.copy_late_errno = EXDEV;
	expect_same_as_memory(FX_BZIMAGE_NEW, 0, &hooks);
}

static void
test_stream_short_writes(void **state)
{
	(void)state;
	fault.short_writes = 1;
	expect_same_as_memory(FX_PLAIN, 1, &hooks);
	expect_same_as_memory(FX_BZIMAGE_NEW, 0, &hooks);
}

/* Every way the output can fail leaves the image as it was and no temporary file. */
static void
test_stream_failures_leave_original(void **state)
{
	static const int errs[] = { ENOSPC, EIO, EDQUOT, EFBIG };
	fx_spec spec;
	uint8_t *img;
	size_t len;
	sbat_edit_report r;
	sbat_diag d;
	struct stat st;
	int i, at;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.set_checksum = 1;  /* every byte goes through pwrite */
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	for (i = 0; i < 4; i++) {
		for (at = 1; at <= 3; at++) {
			write_target(img, len);
			memset(&fault, 0, sizeof(fault));
			fault.fail_pwrite_at = at;
			fault.pwrite_errno = errs[i];
			assert_int_equal(edit_file(&hooks, NULL, &r, &d), SBAT_E_IO);
			assert_int_equal(d.sys_errno, errs[i]);
			assert_target_is(img, len);
			assert_int_equal(dir_entries(), 1);
		}
	}
	memset(&fault, 0, sizeof(fault));
	fault.fail_fsync = 1;
	write_target(img, len);
	assert_int_equal(edit_file(&hooks, NULL, &r, &d), SBAT_E_IO);
	assert_int_equal(d.sys_errno, EIO);
	assert_target_is(img, len);
	assert_int_equal(dir_entries(), 1);

	memset(&fault, 0, sizeof(fault));
	fault.fail_rename = 1;
	write_target(img, len);
	assert_int_equal(edit_file(&hooks, NULL, &r, &d), SBAT_E_IO);
	assert_int_equal(d.sys_errno, EACCES);
	assert_target_is(img, len);
	assert_int_equal(dir_entries(), 1);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	free(img);
}

/* Killed in the middle of writing: the image is intact and no temporary file is left. */
static void
test_stream_killed_mid_write(void **state)
{
	fx_spec spec;
	uint8_t *img;
	size_t len;
	int at;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.set_checksum = 1;
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	for (at = 1; at <= 3; at++) {
		pid_t pid;
		int status;

		write_target(img, len);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			sbat_edit_report r;
			sbat_diag d;

			memset(&fault, 0, sizeof(fault));
			fault.kill_at = at;
			edit_file(&hooks, NULL, &r, &d);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), SIGKILL);
		assert_target_is(img, len);
		/* nameless temporary files vanish with the process */
		assert_int_equal(dir_entries(), 1);
	}
	free(img);
}

/* A second identical run writes nothing at all: the file keeps its inode and time. */
static void
test_stream_unchanged_writes_nothing(void **state)
{
	fx_spec spec;
	uint8_t *img, *mem;
	size_t len, mem_len;
	sbat_edit_report r;
	sbat_diag d;
	struct stat before, after;

	(void)state;
	fx_spec_init(&spec, FX_BZIMAGE_NEW);
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	assert_int_equal(sbat_edit(img, len, PAYLOAD, PAYLOAD_LEN, NULL, &mem, &mem_len, NULL, NULL), SBAT_OK);
	write_target(mem, mem_len);
	assert_int_equal(stat(target, &before), 0);
	memset(&fault, 0, sizeof(fault));
	assert_int_equal(edit_file(&hooks, NULL, &r, &d), SBAT_OK);
	assert_true(r.unchanged);
	assert_int_equal(fault.calls, 0);
	assert_int_equal(stat(target, &after), 0);
	assert_int_equal(before.st_ino, after.st_ino);
	assert_int_equal(dir_entries(), 1);
	free(img);
	free(mem);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stream_matches_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_copy_range_fallbacks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_copy_range_gives_up_midway, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_short_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_failures_leave_original, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_killed_mid_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_unchanged_writes_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
