/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * make-large-pe.c - write a large, valid PE32+ EFI application for benchmarks.
 *
 *   make-large-pe OUT SIZE_MB [--checksum]
 *
 * The file is exactly SIZE_MB MiB: 0x400 bytes of headers (room for 13 more
 * section headers), a .text section of pseudo-random bytes filling the rest
 * but for a 0x200-byte .data section at the end. CheckSum is 0 unless
 * --checksum is given, then it is the real PE checksum. The output depends
 * only on SIZE_MB, so repeated runs give identical files.
 *
 * Not part of the meson build; bench/bench.sh compiles it with cc.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024u * 1024u)
#define PE_OFFSET 0x80u
#define COFF_OFFSET (PE_OFFSET + 4u)
#define OPT_OFFSET (COFF_OFFSET + 20u)
#define OPT_SIZE 240u /* PE32+ with 16 data directories */
#define CHECKSUM_OFFSET (OPT_OFFSET + 64u)
#define TABLE_OFFSET (OPT_OFFSET + OPT_SIZE)
#define SIZE_OF_HEADERS 0x400u
#define FILE_ALIGN 0x200u
#define SECT_ALIGN 0x1000u
#define DATA_SIZE 0x200u
#define CHUNK (4u * MIB)

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void
put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t
align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Sum of little-endian 16-bit words of an even-length buffer, not yet folded. */
static uint64_t
word_sum(const uint8_t *p, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint64_t)p[i] | ((uint64_t)p[i + 1] << 8);
	return s;
}

static uint64_t
fold(uint64_t s)
{
	while (s >> 16)
		s = (s & 0xffffu) + (s >> 16);
	return s;
}

static void
section(uint8_t *h, const char *name, uint32_t va, uint32_t vsize, uint32_t raw, uint32_t rsize,
        uint32_t characteristics)
{
	memcpy(h, name, strlen(name));
	put32(h + 8, vsize);
	put32(h + 12, va);
	put32(h + 16, rsize);
	put32(h + 20, raw);
	put32(h + 36, characteristics);
}

static int
write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static uint8_t hdr[SIZE_OF_HEADERS], data[DATA_SIZE];
	uint8_t *chunk, *opt = hdr + OPT_OFFSET;
	uint64_t state = 0x9e3779b97f4a7c15u, sum = 0, file_size, left;
	uint32_t text_size, data_va, size_of_image, checksum = 0;
	unsigned long mb;
	char *end;
	int fd, want_checksum = 0;
	size_t i;

	if (argc == 4 && strcmp(argv[3], "--checksum") == 0)
		want_checksum = 1;
	else if (argc != 3) {
		fprintf(stderr, "usage: %s OUT SIZE_MB [--checksum]\n", argv[0]);
		return 2;
	}
	errno = 0;
	mb = strtoul(argv[2], &end, 10);
	if (errno || *end || mb < 1 || mb > 4095) {
		fprintf(stderr, "%s: SIZE_MB must be 1..4095, not '%s'\n", argv[0], argv[2]);
		return 2;
	}
	file_size = (uint64_t)mb * MIB;
	text_size = (uint32_t)(file_size - SIZE_OF_HEADERS - DATA_SIZE);
	data_va = align_up(SECT_ALIGN + text_size, SECT_ALIGN);
	size_of_image = align_up(data_va + DATA_SIZE, SECT_ALIGN);

	/* DOS header: only e_magic and e_lfanew matter to EFI loaders */
	hdr[0] = 'M';
	hdr[1] = 'Z';
	put32(hdr + 0x3c, PE_OFFSET);
	memcpy(hdr + PE_OFFSET, "PE\0\0", 4);

	/* COFF file header */
	put16(hdr + COFF_OFFSET, 0x8664);        /* Machine: x86_64 */
	put16(hdr + COFF_OFFSET + 2, 2);         /* NumberOfSections */
	put16(hdr + COFF_OFFSET + 16, OPT_SIZE); /* SizeOfOptionalHeader */
	put16(hdr + COFF_OFFSET + 18, 0x0206);   /* EXECUTABLE_IMAGE | LINE_NUMS_STRIPPED | DEBUG_STRIPPED */

	/* PE32+ optional header */
	put16(opt, 0x20b);
	opt[2] = 2; /* linker version 2.40 */
	opt[3] = 40;
	put32(opt + 4, text_size);     /* SizeOfCode */
	put32(opt + 8, DATA_SIZE);     /* SizeOfInitializedData */
	put32(opt + 16, SECT_ALIGN);   /* AddressOfEntryPoint */
	put32(opt + 20, SECT_ALIGN);   /* BaseOfCode */
	put64(opt + 24, 0x140000000u); /* ImageBase */
	put32(opt + 32, SECT_ALIGN);
	put32(opt + 36, FILE_ALIGN);
	put32(opt + 56, size_of_image);
	put32(opt + 60, SIZE_OF_HEADERS);
	put16(opt + 68, 10);       /* Subsystem: EFI application */
	put64(opt + 72, 0x100000); /* stack reserve/commit, heap reserve/commit */
	put64(opt + 80, 0x1000);
	put64(opt + 88, 0x100000);
	put64(opt + 96, 0x1000);
	put32(opt + 108, 16); /* NumberOfRvaAndSizes; all directories empty */

	section(hdr + TABLE_OFFSET, ".text", SECT_ALIGN, text_size, SIZE_OF_HEADERS, text_size, 0x60000020u);
	section(hdr + TABLE_OFFSET + 40, ".data", data_va, DATA_SIZE, SIZE_OF_HEADERS + text_size, DATA_SIZE,
	        0xc0000040u);
	for (i = 0; i < DATA_SIZE; i++)
		data[i] = (uint8_t)(i * 7);

	chunk = malloc(CHUNK);
	if (!chunk) {
		fprintf(stderr, "%s: out of memory\n", argv[0]);
		return 1;
	}
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write_all(fd, hdr, sizeof(hdr)) < 0)
		goto fail;
	sum += word_sum(hdr, sizeof(hdr));
	for (left = text_size; left;) {
		size_t n = left < CHUNK ? (size_t)left : CHUNK;

		/* xorshift64*: fast, deterministic, incompressible enough */
		for (i = 0; i < n; i += 8) {
			uint64_t r;

			state ^= state >> 12;
			state ^= state << 25;
			state ^= state >> 27;
			r = state * 0x2545f4914f6cdd1du;
			put64(chunk + i, r);
		}
		if (want_checksum)
			sum = fold(sum + word_sum(chunk, n));
		if (write_all(fd, chunk, n) < 0)
			goto fail;
		left -= n;
	}
	sum += word_sum(data, sizeof(data));
	if (write_all(fd, data, sizeof(data)) < 0)
		goto fail;
	if (want_checksum) {
		uint8_t field[4];

		/* the header was summed with CheckSum 0, as the algorithm requires */
		checksum = (uint32_t)(fold(sum) + file_size);
		put32(field, checksum);
		if (pwrite(fd, field, 4, CHECKSUM_OFFSET) != 4)
			goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	free(chunk);
	printf("%s: %lu MiB, .text 0x%x bytes, CheckSum 0x%08x\n", argv[1], mb, (unsigned)text_size,
	       (unsigned)checksum);
	return 0;
fail:
	fprintf(stderr, "%s: %s: %s\n", argv[0], argv[1], strerror(errno));
	if (fd >= 0)
		close(fd);
	free(chunk);
	return 1;
}
