/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* make-seeds.c - writes the seed corpus of the fuzz-edit harness: fixture images behind an operation byte */

/*
 * Usage: make-seeds OUTDIR
 *
 * Each seed is the operation byte fuzz-edit.c reads (see its header
 * comment) followed by an image from the fixture generator: the presets,
 * their .sbat variants, kernels, signed and overlay layouts, and a few
 * truncated or corrupted images. Every seed stays under SEED_MAX_SIZE
 * bytes. Not run by the build: run it by hand and commit what it writes
 * (tests/fuzz/corpus/edit).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixture.h"

#define SEED_MAX_SIZE (64u * 1024u)

/* The operation byte (fuzz-edit.c). */
#define OP_PUT 0x00u
#define OP_PUT_LONG 0x01u
#define OP_REMOVE 0x02u
#define OP_REFORMAT 0x03u
#define OP_MERGE 0x04u
#define OP_MERGE_FORCE 0x05u
#define OP_PUT_MIN 0x06u
#define OP_PUT_FULL 0x07u
#define OP_STRIP 0x08u
#define OP_RELOCATE 0x10u

/* A .sbat naming the harness's own component at another generation (merges conflict). */
#define CSV_CONFLICT                                                                                                   \
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"                                \
	"fuzz,2,Fuzz Test,fuzz,2.0,https://example.invalid/fuzz\n"

/* Not valid SBAT CSV: no header row. */
#define CSV_BAD "grub,1,Free Software Foundation,grub,2.12,https://www.gnu.org/software/grub/\n"

/* Changes made to the built image. */
enum mutation {
	MUT_NONE = 0,
	MUT_TRUNCATE_TABLE,  /* cut inside the section table */
	MUT_TRUNCATE_HALF,   /* cut in the middle of the section data */
	MUT_LFANEW_PAST_END, /* e_lfanew beyond the end of the file */
	MUT_MANY_SECTIONS,   /* NumberOfSections 0xffff */
	MUT_HUGE_RAW,        /* first section's SizeOfRawData 0xfffffe00 */
	MUT_BAD_FILE_ALIGN,  /* FileAlignment 3 */
	MUT_RISCV,           /* arm64 Image turned into a riscv Image */
	MUT_ZBOOT,           /* "zimg" at offset 4 */
	MUT_MZ_ONLY,         /* nothing but "MZ" */
	MUT_EMPTY,           /* no image at all */
};

typedef void (*seed_tweak)(fx_spec *spec);

typedef struct seed {
	const char *file;
	int kind;
	seed_tweak tweak; /* NULL: the preset as is */
	unsigned op;
	enum mutation mutation;
} seed;

static void
add_sbat(fx_spec *spec, unsigned index, const char *content)
{
	fx_section s;

	fx_sbat_section(&s, content);
	(void)fx_spec_insert_section(spec, index, &s);
}

/* The arm64 preset aligns to 64 KiB; a 4 KiB variant keeps the seed small. */
static void
tweak_small_arm64(fx_spec *spec)
{
	spec->sect_align = 0x1000;
	spec->size_of_headers = 0x1000;
	spec->sections[0].raw_size = 0x2000;
}

static void
tweak_small_arm64_sbat(fx_spec *spec)
{
	tweak_small_arm64(spec);
	add_sbat(spec, spec->n_sections, FX_SBAT_CSV);
}

static void
tweak_sbat_conflict(fx_spec *spec)
{
	add_sbat(spec, spec->n_sections, CSV_CONFLICT);
}

static void
tweak_sbat_bad(fx_spec *spec)
{
	add_sbat(spec, spec->n_sections, CSV_BAD);
}

/* .sbat data fills SizeOfRawData exactly: no NUL ends it */
static void
tweak_sbat_exact(fx_spec *spec)
{
	static const char csv[] = FX_SBAT_CSV;
	fx_section s;

	fx_sbat_section(&s, csv);
	s.raw_size = sizeof(csv) - 1;
	s.virtual_size = s.raw_size;
	s.raw_exact = 1;
	(void)fx_spec_insert_section(spec, spec->n_sections, &s);
}

/* .sbat with no file data at all */
static void
tweak_sbat_virtual(fx_spec *spec)
{
	fx_section s;

	fx_sbat_section(&s, NULL);
	s.raw_size = 0;
	(void)fx_spec_insert_section(spec, spec->n_sections, &s);
}

static void
tweak_sbat_twice(fx_spec *spec)
{
	add_sbat(spec, 1, FX_SBAT_CSV);
	add_sbat(spec, spec->n_sections, FX_SBAT_CSV);
}

static void
tweak_signed_sbat(fx_spec *spec)
{
	fx_variant_signed(spec);
	fx_variant_sbat_last(spec);
}

static void
tweak_overlay_signed(fx_spec *spec)
{
	spec->overlay_len = 100;
	spec->cert_len = 0x100;
}

/* headers must grow and move the data: the symbol table and debug pointers follow */
static void
tweak_grow_debug(fx_spec *spec)
{
	spec->header_slack = 0;
	spec->overlay_len = 64;
	spec->symtab_in_overlay = 1;
	spec->debug_in_overlay = 1;
}

static void
tweak_debug(fx_spec *spec)
{
	spec->overlay_len = 64;
	spec->symtab_in_overlay = 1;
	spec->debug_in_overlay = 1;
}

static void
tweak_checksummed_sbat(fx_spec *spec)
{
	spec->set_checksum = 1;
	fx_variant_sbat_last(spec);
}

/* small alignments: FileAlignment 0x20, SectionAlignment 0x40 */
static void
tweak_tight(fx_spec *spec)
{
	spec->file_align = 0x20;
	spec->sect_align = 0x40;
	spec->header_slack = 0x40;
}

static void
tweak_bz_sbat(fx_spec *spec)
{
	fx_variant_sbat_last(spec);
}

static const seed seeds[] = {
	{ "plain-put", FX_PLAIN, NULL, OP_PUT, MUT_NONE },
	{ "plain-put-long", FX_PLAIN, NULL, OP_PUT_LONG, MUT_NONE },
	{ "plain-put-full", FX_PLAIN, NULL, OP_PUT_FULL, MUT_NONE },
	{ "plain-remove", FX_PLAIN, NULL, OP_REMOVE, MUT_NONE },
	{ "ia32-put", FX_PLAIN, fx_variant_ia32, OP_PUT, MUT_NONE },
	{ "aarch64-put-min", FX_PLAIN, fx_variant_aarch64, OP_PUT_MIN, MUT_NONE },
	{ "aarch64-nop-put", FX_PLAIN, fx_variant_aarch64_nop, OP_PUT, MUT_NONE },
	{ "riscv64-nop-put-long", FX_PLAIN, fx_variant_riscv64_nop, OP_PUT_LONG, MUT_NONE },
	{ "bzimage-old-put", FX_BZIMAGE_OLD, NULL, OP_PUT, MUT_NONE },
	{ "bzimage-new-put", FX_BZIMAGE_NEW, NULL, OP_PUT, MUT_NONE },
	{ "bzimage-new-sbat-grow", FX_BZIMAGE_NEW, tweak_bz_sbat, OP_PUT_LONG, MUT_NONE },
	{ "bzimage-new-sbat-remove", FX_BZIMAGE_NEW, tweak_bz_sbat, OP_REMOVE, MUT_NONE },
	{ "arm64-put", FX_ARM64, tweak_small_arm64, OP_PUT, MUT_NONE },
	{ "arm64-sbat-remove", FX_ARM64, tweak_small_arm64_sbat, OP_REMOVE, MUT_NONE },
	{ "riscv-put", FX_ARM64, tweak_small_arm64, OP_PUT, MUT_RISCV },
	{ "zboot-put", FX_PLAIN, NULL, OP_PUT, MUT_ZBOOT },
	{ "sbat-last-replace", FX_PLAIN, fx_variant_sbat_last, OP_PUT, MUT_NONE },
	{ "sbat-last-grow", FX_PLAIN, fx_variant_sbat_last, OP_PUT_LONG, MUT_NONE },
	{ "sbat-last-full", FX_PLAIN, fx_variant_sbat_last, OP_PUT_FULL, MUT_NONE },
	{ "sbat-last-remove", FX_PLAIN, fx_variant_sbat_last, OP_REMOVE, MUT_NONE },
	{ "sbat-last-reformat", FX_PLAIN, fx_variant_sbat_last, OP_REFORMAT, MUT_NONE },
	{ "sbat-last-merge", FX_PLAIN, fx_variant_sbat_last, OP_MERGE, MUT_NONE },
	{ "sbat-conflict-merge", FX_PLAIN, tweak_sbat_conflict, OP_MERGE, MUT_NONE },
	{ "sbat-conflict-force", FX_PLAIN, tweak_sbat_conflict, OP_MERGE_FORCE, MUT_NONE },
	{ "sbat-bad-reformat", FX_PLAIN, tweak_sbat_bad, OP_REFORMAT, MUT_NONE },
	{ "sbat-exact-reformat", FX_PLAIN, tweak_sbat_exact, OP_REFORMAT, MUT_NONE },
	{ "sbat-exact-put-long", FX_PLAIN, tweak_sbat_exact, OP_PUT_LONG, MUT_NONE },
	{ "sbat-virtual-put", FX_PLAIN, tweak_sbat_virtual, OP_PUT | OP_RELOCATE, MUT_NONE },
	{ "sbat-virtual-remove", FX_PLAIN, tweak_sbat_virtual, OP_REMOVE, MUT_NONE },
	{ "sbat-twice-put", FX_PLAIN, tweak_sbat_twice, OP_PUT, MUT_NONE },
	{ "sbat-mid-replace", FX_PLAIN, fx_variant_sbat_mid, OP_PUT, MUT_NONE },
	{ "sbat-mid-no-room", FX_PLAIN, fx_variant_sbat_mid, OP_PUT_LONG, MUT_NONE },
	{ "sbat-mid-relocate", FX_PLAIN, fx_variant_sbat_mid, OP_PUT_LONG | OP_RELOCATE, MUT_NONE },
	{ "sbat-mid-retire", FX_PLAIN, fx_variant_sbat_mid, OP_REMOVE, MUT_NONE },
	{ "signed-refused", FX_PLAIN, fx_variant_signed, OP_PUT, MUT_NONE },
	{ "signed-strip", FX_PLAIN, fx_variant_signed, OP_PUT | OP_STRIP, MUT_NONE },
	{ "signed-sbat-remove-strip", FX_PLAIN, tweak_signed_sbat, OP_REMOVE | OP_STRIP, MUT_NONE },
	{ "overlay-put", FX_PLAIN, fx_variant_overlay, OP_PUT, MUT_NONE },
	{ "overlay-signed-strip", FX_PLAIN, tweak_overlay_signed, OP_PUT_LONG | OP_STRIP, MUT_NONE },
	{ "no-room-put", FX_PLAIN, fx_variant_no_room, OP_PUT, MUT_NONE },
	{ "grow-headers-put", FX_PLAIN, fx_variant_grow_headers, OP_PUT, MUT_NONE },
	{ "grow-debug-put", FX_PLAIN, tweak_grow_debug, OP_PUT, MUT_NONE },
	{ "debug-put-long", FX_PLAIN, tweak_debug, OP_PUT_LONG, MUT_NONE },
	{ "checksummed-put", FX_PLAIN, fx_variant_checksummed, OP_PUT, MUT_NONE },
	{ "checksummed-sbat-remove", FX_PLAIN, tweak_checksummed_sbat, OP_REMOVE, MUT_NONE },
	{ "tight-put", FX_PLAIN, tweak_tight, OP_PUT_FULL, MUT_NONE },
	{ "truncated-table", FX_PLAIN, fx_variant_sbat_last, OP_PUT, MUT_TRUNCATE_TABLE },
	{ "truncated-half", FX_PLAIN, fx_variant_sbat_last, OP_PUT, MUT_TRUNCATE_HALF },
	{ "lfanew-past-end", FX_PLAIN, NULL, OP_PUT, MUT_LFANEW_PAST_END },
	{ "many-sections", FX_PLAIN, NULL, OP_PUT, MUT_MANY_SECTIONS },
	{ "huge-raw-size", FX_PLAIN, NULL, OP_PUT, MUT_HUGE_RAW },
	{ "bad-file-align", FX_PLAIN, NULL, OP_PUT, MUT_BAD_FILE_ALIGN },
	{ "mz-only", FX_PLAIN, NULL, OP_PUT, MUT_MZ_ONLY },
	{ "empty", FX_PLAIN, NULL, OP_PUT, MUT_EMPTY },
};

/* Apply m to buf[0..*len), which fx_build made. */
static void
mutate(uint8_t *buf, size_t *len, enum mutation m)
{
	size_t coff = fx_le32(buf + 0x3c) + 4, opt = fx_opt_offset(buf), table = fx_section_table_offset(buf);

	switch (m) {
	case MUT_NONE: break;
	case MUT_TRUNCATE_TABLE: *len = table + 40 + 20; break;
	case MUT_TRUNCATE_HALF: *len /= 2; break;
	case MUT_LFANEW_PAST_END: fx_put32(buf + 0x3c, (uint32_t)*len + 0x100u); break;
	case MUT_MANY_SECTIONS: fx_put16(buf + coff + 2, 0xffff); break;
	case MUT_HUGE_RAW: fx_put32(buf + table + 16, 0xfffffe00u); break;
	case MUT_BAD_FILE_ALIGN: fx_put32(buf + opt + 0x24, 3); break;
	case MUT_RISCV:
		memcpy(buf + 0x38, "RSC\x05", 4);
		fx_put16(buf + coff, FX_MACHINE_RISCV64);
		break;
	case MUT_ZBOOT: memcpy(buf + 4, "zimg", 4); break;
	case MUT_MZ_ONLY: *len = 2; break;
	case MUT_EMPTY: *len = 0; break;
	}
}

static int
write_seed(const char *dir, const seed *s, const char *prog)
{
	fx_spec spec;
	uint8_t *buf = NULL, *out;
	size_t len = 0, plen;
	char *path;
	int r;

	fx_spec_init(&spec, s->kind);
	if (s->tweak)
		s->tweak(&spec);
	if (fx_build(&spec, &buf, &len) < 0) {
		fprintf(stderr, "%s: cannot build %s\n", prog, s->file);
		return -1;
	}
	mutate(buf, &len, s->mutation);
	if (len + 1 > SEED_MAX_SIZE) {
		fprintf(stderr, "%s: %s would be %zu bytes (limit %u)\n", prog, s->file, len + 1, SEED_MAX_SIZE);
		free(buf);
		return -1;
	}
	out = malloc(len + 1);
	plen = strlen(dir) + 1 + strlen(s->file) + 1;
	path = malloc(plen);
	if (!out || !path) {
		fprintf(stderr, "%s: out of memory\n", prog);
		free(path);
		free(out);
		free(buf);
		return -1;
	}
	out[0] = (uint8_t)s->op;
	memcpy(out + 1, buf, len);
	snprintf(path, plen, "%s/%s", dir, s->file);
	r = fx_write_file(path, out, len + 1);
	if (r < 0)
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
	else
		printf("%s (%zu bytes)\n", path, len + 1);
	free(path);
	free(out);
	free(buf);
	return r;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
	        "usage: %s OUTDIR\n"
	        "Write the fuzz-edit seed corpus (an operation byte, then a PE/COFF image)\n"
	        "into OUTDIR (created if missing).\n",
	        prog);
}

int
main(int argc, char **argv)
{
	const char *prog = argc > 0 && argv[0] ? argv[0] : "make-seeds";
	size_t i;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout, prog);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '\0') {
		usage(stderr, prog);
		return 2;
	}
	if (mkdir(argv[1], 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[1], strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		if (write_seed(argv[1], &seeds[i], prog) < 0)
			return 1;
	return 0;
}
