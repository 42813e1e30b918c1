/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-stream.c - edits written to files: same bytes as in memory, and safe when I/O fails */
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
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sbat/sbat.h"

#include "pe/model.h"
#include "pe/image_internal.h"
#include "file/io_table.h"

#include "edit_buf.h"
#include "fixture.h"

static const char payload[] = FX_SBAT_CSV;
#define PAYLOAD ((const uint8_t *)payload)
#define PAYLOAD_LEN (sizeof(payload) - 1)

/* Fault injection state, read by the hooks below. */
static struct {
	int fail_pwrite_at; /* 1-based call number that fails, 0: never */
	int pwrite_errno;
	int short_writes; /* write at most 7 bytes per call */
	int kill_at;      /* SIGKILL ourselves on this pwrite call */
	int fail_fsync;
	int fail_rename;
	int copy_errno;      /* copy_range fails with this at once (0: works) */
	int copy_fail_after; /* copy_range copies this much, then fails with copy_late_errno */
	int copy_late_errno; /* 0: EIO */
	int poke_at_fsync;   /* another program writes a byte of the target's .text at the first fsync */
	int flip_writes;     /* every pwrite writes its first byte inverted: the output is wrong */
	int calls;
	int copy_calls;
} fault;

static ssize_t
hook_pwrite(int fd, const void *buf, size_t len, int64_t off)
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
	if (fault.flip_writes && len > 0) {
		uint8_t first = (uint8_t) ~*(const uint8_t *)buf;

		if (pwrite(fd, &first, 1, off) != 1)
			return -1;
		return len > 1 ? 1 + pwrite(fd, (const uint8_t *)buf + 1, len - 1, off + 1) : 1;
	}
	return pwrite(fd, buf, len, off);
}

static ssize_t
hook_copy(int in_fd, int64_t in_off, int out_fd, int64_t out_off, size_t len)
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

static void poke_target(void);

static int
hook_fsync(int fd)
{
	if (fault.poke_at_fsync) {
		fault.poke_at_fsync = 0;
		poke_target();
	}
	if (fault.fail_fsync) {
		errno = EIO;
		return -1;
	}
	return fsync(fd);
}

static int
hook_renameat(int from_dir, const char *from, int to_dir, const char *to)
{
	if (fault.fail_rename) {
		errno = EACCES;
		return -1;
	}
	return renameat(from_dir, from, to_dir, to);
}

static int
hook_open_tmpfile(int dir_fd)
{
	(void)dir_fd;
	errno = EOPNOTSUPP; /* as on vfat */
	return -1;
}

/* Bytes read through the table: by the edit's copies and the content checks. */
static uint64_t read_bytes;

static ssize_t
hook_pread(int fd, void *buf, size_t len, int64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	if (n > 0)
		read_bytes += (uint64_t)n;
	return n;
}

static const sbat_io hooks = { NULL, hook_pwrite, hook_copy, hook_fsync, hook_renameat, NULL };
static const sbat_io counting = { hook_pread, NULL, NULL, NULL, NULL, NULL };
static const sbat_io counting_poke = { hook_pread, NULL, NULL, hook_fsync, NULL, NULL };
static const sbat_io no_tmpfile = { NULL, NULL, NULL, NULL, NULL, hook_open_tmpfile };

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

/*
 * The target's modification time, set by write_target: TIMES_NOW leaves it
 * (just written: the edit cannot tell it from a write in the same clock
 * tick), TIMES_FUTURE puts it an hour ahead (neither can it then),
 * TIMES_OLD an hour back, with nanoseconds (any later write changes it).
 */
enum { TIMES_NOW, TIMES_FUTURE, TIMES_OLD };
static int target_times;

static void
write_target(const uint8_t *buf, size_t len)
{
	struct timespec t[2];

	assert_int_equal(fx_write_file(target, buf, len), 0);
	assert_int_equal(chmod(target, 0640), 0);
	if (target_times == TIMES_NOW)
		return;
	assert_int_equal(clock_gettime(CLOCK_REALTIME, &t[1]), 0);
	t[1].tv_sec += target_times == TIMES_FUTURE ? 3600 : -3600;
	t[1].tv_nsec = 123456789;
	t[0] = t[1];
	assert_int_equal(utimensat(AT_FDCWD, target, t, 0), 0);
}

/* A plain fixture image written as the target, dated an hour back (TIMES_OLD); *len its size. */
static uint8_t *
write_old_plain_target(size_t *len)
{
	fx_spec spec;
	uint8_t *img;

	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &img, len), 0);
	target_times = TIMES_OLD;
	write_target(img, *len);
	target_times = TIMES_NOW;
	return img;
}

/* Another program overwrites one byte of the target's .text (file offset 0x500), in place. */
static void
poke_target(void)
{
	int fd = open(target, O_WRONLY);
	uint8_t c = 0x5a;

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &c, 1, 0x500), 1);
	close(fd);
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
	sbat_mapped_file *in = NULL;
	sbat_output *out;
	sbat_err err;

	err = sbat_file_open_image(target, SBAT_FILE_MAX_SIZE, 0, &in, d);
	if (err)
		return err;
	err = sbat_output_open_replace(in, io, &out, d);
	if (!err) {
		err = edit_fd_buf(sbat_mapped_file_data(in), sbat_mapped_file_size(in), sbat_mapped_file_fd(in),
		                  PAYLOAD, PAYLOAD_LEN, opts, out, r, d);
		if (!err && !r->unchanged)
			err = sbat_output_commit(out, d);
		else
			sbat_output_abort(out);
	}
	sbat_file_unmap(in);
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
	assert_int_equal(edit_buf(img, len, PAYLOAD, PAYLOAD_LEN, NULL, &mem, &mem_len, NULL, NULL), SBAT_OK);
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

/*
 * With a CheckSum to compute, every byte passes through memory once to be
 * summed. Where the kernel copy shares the data (XFS, btrfs; an io table
 * with its own copy_range counts as one), the copied ranges go file to file
 * and are read only to be summed, and the CheckSum is still right. Where
 * the fingerprint is taken on the way (times that cannot show a write),
 * they are read, summed and written, never copied by the kernel.
 */
static void
test_stream_checksum_sums_what_it_writes(void **state)
{
	static const int kinds[] = { FX_PLAIN, FX_BZIMAGE_NEW };
	unsigned k;

	(void)state;
	for (k = 0; k < 2; k++) {
		target_times = TIMES_OLD;
		memset(&fault, 0, sizeof(fault));
		expect_same_as_memory(kinds[k], 1, &hooks);
		assert_true(fault.copy_calls > 0);
		/* the kernel copies 100 bytes, then cannot (EXDEV): those are summed, the rest read, summed, written */
		memset(&fault, 0, sizeof(fault));
		fault.copy_fail_after = 100;
		fault.copy_late_errno = EXDEV;
		expect_same_as_memory(kinds[k], 1, &hooks);
		assert_int_equal(fault.copy_calls, 2);
		target_times = TIMES_NOW;
		memset(&fault, 0, sizeof(fault));
		expect_same_as_memory(kinds[k], 1, &hooks);
		assert_int_equal(fault.copy_calls, 0);
	}
}

/* How many bytes the edit reads again at the end, to see that those it decided from are still there. */
static uint64_t
decided_bytes(const uint8_t *img, size_t len)
{
	sbat_image *parsed;
	uint64_t n = 0;
	unsigned i;

	assert_int_equal(sbat_image_parse(img, len, &parsed, NULL), SBAT_OK);
	for (i = 0; i < parsed->n_decided; i++)
		n += parsed->decided_range[i].len;
	assert_true(n > 0 && n < len);
	sbat_image_free(parsed);
	return n;
}

/*
 * Where the time stamps cannot show a write (here a modification time in
 * the future; FAT, ext4 with 128-byte inodes, a file written in the
 * current clock tick), the input is read twice in all: once to make the
 * output, taking its content fingerprint on the way, and once more just
 * before the rename to compare it, and the bytes it decided from (headers,
 * .sbat) once more at the end. That holds with a CheckSum to compute, and
 * without one where a kernel copy would neither share nor offload the data
 * (ext4, FAT, tmpfs); elsewhere copied ranges go file to file and a read of
 * its own takes the fingerprint.
 */
static void
test_stream_reads_input_twice(void **state)
{
	static const int kinds[] = { FX_PLAIN, FX_BZIMAGE_NEW };
	unsigned k, checksum;
	int dir_fd = open(dir, O_RDONLY | O_DIRECTORY), copies;

	(void)state;
	assert_true(dir_fd >= 0);
	copies = io_copy_preferred(NULL, dir_fd);
	close(dir_fd);
	target_times = TIMES_FUTURE;
	for (k = 0; k < 2; k++)
		for (checksum = copies ? 1 : 0; checksum < 2; checksum++) {
			fx_spec spec;
			uint8_t *img;
			size_t len;

			fx_spec_init(&spec, kinds[k]);
			spec.set_checksum = (int)checksum;
			spec.overlay_len = kinds[k] == FX_PLAIN ? 99 : 0;
			assert_int_equal(fx_build(&spec, &img, &len), 0);
			read_bytes = 0;
			expect_same_as_memory(kinds[k], (int)checksum, &counting);
			assert_int_equal(read_bytes, 2 * (uint64_t)len + decided_bytes(img, len));
			free(img);
		}
	target_times = TIMES_NOW;
}

/*
 * Where the time stamps show any write (a file last written an hour ago,
 * with nanoseconds, on this file system), no fingerprint is taken: without
 * a CheckSum the copied ranges go file to file and the input is read only
 * where the edit decided from it; with one, once, as the bytes pass
 * through to be summed.
 */
static void
test_stream_reads_input_once(void **state)
{
	static const int kinds[] = { FX_PLAIN, FX_BZIMAGE_NEW };
	unsigned k, checksum;

	(void)state;
	target_times = TIMES_OLD;
	for (k = 0; k < 2; k++)
		for (checksum = 0; checksum < 2; checksum++) {
			fx_spec spec;
			uint8_t *img;
			size_t len;
			uint64_t decided;

			fx_spec_init(&spec, kinds[k]);
			spec.set_checksum = (int)checksum;
			spec.overlay_len = kinds[k] == FX_PLAIN ? 99 : 0;
			assert_int_equal(fx_build(&spec, &img, &len), 0);
			decided = decided_bytes(img, len);
			read_bytes = 0;
			expect_same_as_memory(kinds[k], (int)checksum, &counting);
			/* a file system without copy_file_range reads through the buffer */
			if (checksum || read_bytes != decided)
				assert_int_equal(read_bytes, (uint64_t)len + decided);
			free(img);
		}
	target_times = TIMES_NOW;
}

/*
 * ... and an output that fails its verification (here: its first byte is
 * wrong, so it does not parse), from a file that did not change, is that
 * failure, not SBAT_E_CHANGED "modified while being edited": no
 * fingerprint was taken, and the unchanged time stamps say the input is as
 * it was read.
 */
static void
test_stream_bad_output_without_fingerprint(void **state)
{
	sbat_err err;
	uint8_t *img;
	size_t len;
	sbat_edit_report r;
	sbat_diag d;

	(void)state;
	img = write_old_plain_target(&len);
	fault.flip_writes = 1;
	err = edit_file(&hooks, NULL, &r, &d);
	assert_int_not_equal(err, SBAT_OK);
	assert_int_not_equal(err, SBAT_E_CHANGED);
	assert_target_is(img, len);
	assert_int_equal(dir_entries(), 1);
	free(img);
}

/* ... and a write during the edit is refused all the same: the time stamps show it. */
static void
test_stream_write_seen_without_fingerprint(void **state)
{
	uint8_t *img;
	size_t len;
	sbat_edit_report r;
	sbat_diag d;

	(void)state;
	img = write_old_plain_target(&len);
	read_bytes = 0;
	fault.poke_at_fsync = 1;
	assert_int_equal(edit_file(&counting_poke, NULL, &r, &d), SBAT_E_CHANGED);
	assert_int_equal(fault.poke_at_fsync, 0);
	assert_true(read_bytes <= (uint64_t)len + decided_bytes(img, len));
	assert_int_equal(dir_entries(), 1);
	free(img);
}

/* The kernel copies part, then gives up (ENOSYS): the rest goes through the buffer. */
static void
test_stream_copy_range_gives_up_midway(void **state)
{
	(void)state;
	fault.copy_fail_after = 100;
	fault.copy_late_errno = ENOSYS;
	expect_same_as_memory(FX_PLAIN, 0, &hooks);
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
	spec.set_checksum = 1; /* every byte goes through pwrite */
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
	assert_int_equal(edit_buf(img, len, PAYLOAD, PAYLOAD_LEN, NULL, &mem, &mem_len, NULL, NULL), SBAT_OK);
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

/* A dry run writes the headers and the new data only: its scratch file is mostly a hole. */
static void
test_stream_dry_run_needs_little_space(void **state)
{
	fx_spec spec;
	uint8_t *img, *mem;
	size_t len, mem_len;
	sbat_edit_opts opts;
	sbat_edit_report r, mem_r;
	sbat_mapped_file *in = NULL;
	sbat_output *out;
	sbat_diag d;
	struct stat st;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	spec.sections[0].raw_size = 16u * 1024u * 1024u;
	spec.set_checksum = 1;
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	assert_int_equal(edit_buf(img, len, PAYLOAD, PAYLOAD_LEN, NULL, &mem, &mem_len, &mem_r, NULL), SBAT_OK);
	write_target(img, len);
	sbat_edit_opts_init(&opts);
	opts.dry_run = 1;
	assert_int_equal(sbat_file_map(target, SBAT_FILE_MAX_SIZE, &in, &d), SBAT_OK);
	assert_int_equal(sbat_output_open_scratch(NULL, &out, &d), SBAT_OK);
	if (edit_fd_buf(sbat_mapped_file_data(in), sbat_mapped_file_size(in), sbat_mapped_file_fd(in), PAYLOAD,
	                PAYLOAD_LEN, &opts, out, &r, &d) != SBAT_OK)
		fail_msg("dry run: %s", d.what);
	assert_int_equal(fstat(sbat_output_fd(out), &st), 0);
	assert_int_equal((uint64_t)st.st_size, mem_len);
	assert_true((uint64_t)st.st_blocks * 512u < 1024u * 1024u);
	/* the same plan as the real edit, CheckSum included */
	assert_int_equal(r.output_size, mem_r.output_size);
	assert_int_equal(r.new_checksum, mem_r.new_checksum);
	sbat_output_abort(out);
	sbat_file_unmap(in);
	assert_target_is(img, len);
	free(img);
	free(mem);
}

/* Without O_TMPFILE (vfat) a named temporary is used, and the signal-handler cleanup removes it. */
static void
test_stream_named_temporary(void **state)
{
	fx_spec spec;
	uint8_t *img, *mem;
	size_t len, mem_len;
	sbat_mapped_file *in = NULL;
	sbat_output *out;
	sbat_edit_report r;
	sbat_diag d;

	(void)state;
	fx_spec_init(&spec, FX_BZIMAGE_NEW);
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	assert_int_equal(edit_buf(img, len, PAYLOAD, PAYLOAD_LEN, NULL, &mem, &mem_len, NULL, NULL), SBAT_OK);
	write_target(img, len);
	assert_int_equal(edit_file(&no_tmpfile, NULL, &r, &d), SBAT_OK);
	assert_target_is(mem, mem_len);
	assert_int_equal(dir_entries(), 1);

	write_target(img, len);
	assert_int_equal(sbat_file_open_image(target, SBAT_FILE_MAX_SIZE, 0, &in, &d), SBAT_OK);
	assert_int_equal(sbat_output_open_replace(in, &no_tmpfile, &out, &d), SBAT_OK);
	assert_int_equal(dir_entries(), 2); /* the named temporary */
	sbat_output_remove_temporaries();   /* what a signal handler calls */
	assert_int_equal(dir_entries(), 1);
	sbat_output_abort(out);
	sbat_file_unmap(in);
	assert_target_is(img, len);
	free(img);
	free(mem);
}

/* A second edit waits for the first one's lock, then edits the file the first one wrote. */
static void
test_stream_lock(void **state)
{
	fx_spec spec;
	uint8_t *img;
	size_t len;
	sbat_mapped_file *in = NULL, *again = NULL;
	sbat_output *out;
	sbat_edit_report r;
	sbat_diag d;
	pid_t pid;
	int status;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	write_target(img, len);
	assert_int_equal(sbat_file_open_image(target, SBAT_FILE_MAX_SIZE, 0, &in, &d), SBAT_OK);
	/* held: a bounded wait gives up */
	assert_int_equal(sbat_file_open_image(target, SBAT_FILE_MAX_SIZE, 100, &again, &d), SBAT_E_LOCKED);
	assert_int_equal(d.code, SBAT_E_LOCKED);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* meanwhile the holder replaces the file: the waiter must get the new one */
		sbat_mapped_file *w = NULL;
		const uint8_t *data;
		size_t n;
		sbat_pe *pe = malloc(sizeof(*pe));

		sbat_file_unmap(in); /* an inherited descriptor would share the parent's lock */
		if (sbat_file_open_image(target, SBAT_FILE_MAX_SIZE, 5000, &w, &d) != SBAT_OK || !pe ||
		    pe_parse(sbat_mapped_file_data(w), sbat_mapped_file_size(w), pe, &d) != SBAT_OK ||
		    pe_sbat_data(pe, sbat_mapped_file_data(w), sbat_mapped_file_size(w), &data, &n, &d) != SBAT_OK)
			_exit(1);
		_exit(0);
	}
	{
		struct timespec pause = { 0, 200 * 1000 * 1000 };

		nanosleep(&pause, NULL);
	}
	/* the holder edits while it holds the lock, then lets go */
	assert_int_equal(sbat_output_open_replace(in, NULL, &out, &d), SBAT_OK);
	assert_int_equal(edit_fd_buf(sbat_mapped_file_data(in), sbat_mapped_file_size(in), sbat_mapped_file_fd(in),
	                             PAYLOAD, PAYLOAD_LEN, NULL, out, &r, &d),
	                 SBAT_OK);
	assert_int_equal(sbat_output_commit(out, &d), SBAT_OK);
	sbat_file_unmap(in);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	free(img);
}

/* The image's name is given to another file during the edit: nothing is written over it. */
static int swap_done;

static int
hook_fsync_swap(int fd)
{
	char other[320];

	if (!swap_done) {
		swap_done = 1;
		snprintf(other, sizeof(other), "%s.other", target);
		if (rename(other, target) != 0)
			return -1;
	}
	return fsync(fd);
}

static void
test_stream_name_reused_during_edit(void **state)
{
	static const sbat_io swap = { NULL, NULL, NULL, hook_fsync_swap, NULL, NULL };
	fx_spec spec;
	uint8_t *img;
	size_t len;
	char other[320];
	sbat_edit_report r;
	sbat_diag d;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	write_target(img, len);
	snprintf(other, sizeof(other), "%s.other", target);
	assert_int_equal(fx_write_file(other, (const uint8_t *)"other", 5), 0);
	swap_done = 0;
	assert_int_equal(edit_file(&swap, NULL, &r, &d), SBAT_E_CHANGED);
	assert_target_is((const uint8_t *)"other", 5);
	assert_int_equal(dir_entries(), 1);
	free(img);
}

/* Reads of the input fail (the output is never read: it is summed as it is written). */
static int read_calls;

static ssize_t
hook_pread_fail(int fd, void *buf, size_t len, int64_t off)
{
	(void)fd;
	(void)buf;
	(void)len;
	(void)off;
	read_calls++;
	errno = EIO;
	return -1;
}

static ssize_t
hook_copy_enosys(int in_fd, int64_t in_off, int out_fd, int64_t out_off, size_t len)
{
	(void)in_fd;
	(void)in_off;
	(void)out_fd;
	(void)out_off;
	(void)len;
	errno = ENOSYS;
	return -1;
}

static void
test_stream_read_faults(void **state)
{
	static const sbat_io from_input = { hook_pread_fail, NULL, hook_copy_enosys, NULL, NULL, NULL };
	static const sbat_io checksummed = { hook_pread_fail, NULL, NULL, NULL, NULL, NULL };
	fx_spec spec;
	uint8_t *img;
	size_t len;
	sbat_edit_report r;
	sbat_diag d;

	(void)state;
	/* CheckSum 0: the kernel copy fails (ENOSYS), the buffered fallback reads the input */
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	write_target(img, len);
	read_calls = 0;
	assert_int_equal(edit_file(&from_input, NULL, &r, &d), SBAT_E_IO);
	assert_int_equal(d.sys_errno, EIO);
	assert_true(read_calls > 0);
	assert_target_is(img, len);
	assert_int_equal(dir_entries(), 1);
	free(img);

	/* a CheckSum to compute: the kernel copy is not even tried, reads fail the same */
	spec.set_checksum = 1;
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	write_target(img, len);
	read_calls = 0;
	assert_int_equal(edit_file(&checksummed, NULL, &r, &d), SBAT_E_IO);
	assert_string_equal(d.what, "cannot read the input");
	assert_true(read_calls > 0);
	assert_target_is(img, len);
	assert_int_equal(dir_entries(), 1);
	free(img);
}

/* The input ends early: a read (or kernel copy) returns 0 bytes. */
static ssize_t
hook_pread_eof(int fd, void *buf, size_t len, off_t off)
{
	(void)fd;
	(void)buf;
	(void)len;
	(void)off;
	return 0;
}

static ssize_t
hook_copy_eof(int in_fd, off_t in_off, int out_fd, off_t out_off, size_t len)
{
	(void)in_fd;
	(void)in_off;
	(void)out_fd;
	(void)out_off;
	(void)len;
	return 0;
}

static void
test_stream_input_shrank(void **state)
{
	static const sbat_io buffered = { hook_pread_eof, NULL, hook_copy_enosys, NULL, NULL, NULL };
	static const sbat_io copied = { NULL, NULL, hook_copy_eof, NULL, NULL, NULL };
	const sbat_io *ios[] = { &buffered, &copied };
	fx_spec spec;
	uint8_t *img;
	size_t len;
	sbat_edit_report r;
	sbat_diag d;
	unsigned i;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_build(&spec, &img, &len), 0);
	for (i = 0; i < sizeof(ios) / sizeof(ios[0]); i++) {
		write_target(img, len);
		/* said as such, not as "Input/output error" */
		assert_int_equal(edit_file(ios[i], NULL, &r, &d), SBAT_E_CHANGED);
		assert_string_equal(d.what, "the input shrank while being read");
		assert_int_equal(d.sys_errno, 0);
		assert_target_is(img, len);
		assert_int_equal(dir_entries(), 1);
	}
	free(img);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stream_matches_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_copy_range_fallbacks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_checksum_sums_what_it_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_copy_range_gives_up_midway, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_reads_input_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_reads_input_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_write_seen_without_fingerprint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_bad_output_without_fingerprint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_short_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_failures_leave_original, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_killed_mid_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_unchanged_writes_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_dry_run_needs_little_space, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_named_temporary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_lock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_name_reused_during_edit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_read_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream_input_shrank, setup, teardown),
	};

	return run_group(tests, NULL, NULL);
}
