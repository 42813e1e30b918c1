/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* fuzz-edit-fd.c - libFuzzer harness: the streamed sbat_edit_fd, the command's path, against the in-memory sbat_edit */

/*
 * Input: the format of fuzz-edit.c (one operation byte, then an image), so
 * both share a corpus. Operation byte:
 *   bits 0-1  0 put a short .sbat, 1 put a long one (grows or relocates),
 *             2 remove .sbat, 3 put the header row alone
 *   bit 3     sbat_edit_opts.strip_signature
 *   bit 4     sbat_edit_opts.relocate
 *   bit 5     sbat_edit_opts.write_unchanged (as --output sets it)
 *   bits 6-7  unused
 *
 * The image goes into a memfd; sbat_edit_fd streams it (copy_file_range,
 * the CheckSum through memory, verification through a mapping) into a
 * scratch output, and sbat_edit builds the output in memory from the same
 * parsed image and options. The harness aborts when one fails and the other
 * does not, when their reports differ, or when the bytes differ; an edit
 * that sbat_edit_fd skips (nothing to change) must be one whose in-memory
 * output is the input.
 */
#define _GNU_SOURCE 1 /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sbat/sbat.h"

#define FUZZ_MAX_INPUT (4u * 1024u * 1024u)

#define HEADER_ROW SBAT_CSV_HEADER_ROW "\n"

static const char csv_short[] = HEADER_ROW "fuzz,1,Fuzz Test,fuzz,1.0,https://example.invalid/fuzz\n";

static const char csv_long[] = HEADER_ROW
    "fuzz,1,Fuzz Test,fuzz,1.0,https://example.invalid/fuzz\n"
    "grub,4,Free Software Foundation,grub,2.12,https://www.gnu.org/software/grub/\n"
    "grub.debian,5,Debian,grub2,2.12-1,https://tracker.debian.org/pkg/grub2\n"
    "shim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n"
    "systemd-boot,1,The systemd Developers,systemd,256,https://systemd.io/\n"
    "linux,1,The Linux Developers,linux,6.12,https://linux.org\n"
    "linux.debian,1,Debian,linux,6.12.9-1,https://tracker.debian.org/pkg/linux\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fail(const char *what)
{
	fprintf(stderr, "fuzz-edit-fd: streamed and in-memory edits disagree: %s\n", what);
	fflush(stderr);
	abort();
}

/* The whole of fd, which must be len bytes long, compared with want. */
static void
compare_file(int fd, const uint8_t *want, size_t len)
{
	struct stat st;
	void *map;

	if (fstat(fd, &st) != 0)
		fail("cannot stat the scratch output");
	if ((uint64_t)st.st_size != len)
		fail("the output sizes differ");
	if (len == 0)
		return;
	map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		fail("cannot map the scratch output");
	if (memcmp(map, want, len) != 0)
		fail("the output bytes differ");
	munmap(map, len);
}

static void
compare_reports(const sbat_edit_report *a, const sbat_edit_report *b)
{
	if (a->action != b->action || a->output_size != b->output_size || a->old_checksum != b->old_checksum ||
	    a->new_checksum != b->new_checksum || a->unchanged != b->unchanged)
		fail("the reports differ");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	sbat_edit_opts opts;
	sbat_edit_report rep_fd, rep_mem;
	sbat_image *img = NULL;
	sbat_output *out = NULL;
	const uint8_t *payload = NULL, *in;
	uint8_t *mem = NULL;
	size_t in_len, payload_len = 0, mem_len = 0;
	sbat_err e_fd, e_mem;
	int fd;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	in = data + 1;
	in_len = size - 1;
	sbat_edit_opts_init(&opts);
	opts.strip_signature = (data[0] & 0x08u) != 0;
	opts.relocate = (data[0] & 0x10u) != 0;
	opts.write_unchanged = (data[0] & 0x20u) != 0;
	switch (data[0] & 0x03u) {
	case 0: payload = (const uint8_t *)csv_short, payload_len = sizeof(csv_short) - 1; break;
	case 1: payload = (const uint8_t *)csv_long, payload_len = sizeof(csv_long) - 1; break;
	case 2: opts.remove = 1; break;
	default: payload = (const uint8_t *)HEADER_ROW, payload_len = sizeof(HEADER_ROW) - 1; break;
	}
	if (sbat_image_parse(in, in_len, &img, NULL) != SBAT_OK)
		return 0;

	fd = memfd_create("fuzz-edit-fd", MFD_CLOEXEC);
	if (fd < 0 || (in_len && write(fd, in, in_len) != (ssize_t)in_len))
		fail("cannot fill the memfd");
	if (sbat_output_open_scratch(NULL, &out, NULL) != SBAT_OK)
		fail("cannot open a scratch output");

	memset(&rep_fd, 0, sizeof(rep_fd));
	memset(&rep_mem, 0, sizeof(rep_mem));
	e_fd = sbat_edit_fd(img, fd, payload, payload_len, &opts, out, &rep_fd, NULL);
	e_mem = sbat_edit(img, payload, payload_len, &opts, &mem, &mem_len, &rep_mem, NULL);
	if ((e_fd == SBAT_OK) != (e_mem == SBAT_OK))
		fail(e_fd == SBAT_OK ? "only the streamed edit succeeded" : "only the in-memory edit succeeded");
	if (e_fd == SBAT_OK) {
		struct stat st;

		compare_reports(&rep_fd, &rep_mem);
		if (fstat(sbat_output_fd(out), &st) != 0)
			fail("cannot stat the scratch output");
		if (st.st_size == 0 && mem_len != 0) {
			/* nothing streamed: only right when the edit changes nothing */
			if (!rep_fd.unchanged || mem_len != in_len || memcmp(mem, in, in_len) != 0)
				fail("the streamed edit wrote nothing for an edit that changes bytes");
		} else {
			compare_file(sbat_output_fd(out), mem, mem_len);
		}
	}
	free(mem);
	sbat_output_abort(out);
	close(fd);
	sbat_image_free(img);
	return 0;
}
