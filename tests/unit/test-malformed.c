/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-malformed.c - one corrupted field at a time: the parser and the editor fail cleanly */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sbat/sbat.h"

#include "pe/model.h"

#include "edit_buf.h"
#include "fixture.h"
#include "pe_constants.h"

/* The check each case aims at, copied from the messages the parser documents. */
#define W_SMALL "file too small for a DOS header"
#define W_MZ "DOS signature \"MZ\" missing"
#define W_LFANEW_LOW "e_lfanew points into the DOS header"
#define W_PE_EOF "PE header past end of file (e_lfanew)"
#define W_PE_SIG "PE signature \"PE\\0\\0\" missing"
#define W_NSECT0 "NumberOfSections is 0"
#define W_NSECT_MAX "NumberOfSections is above 96"
#define W_OPT_EOF "optional header past end of file"
#define W_OPT_MAGIC "optional header magic is neither PE32 nor PE32+"
#define W_SOOH_SMALL "SizeOfOptionalHeader is too small"
#define W_SOOH_EOF "optional header past end of file (SizeOfOptionalHeader)"
#define W_NRVA "NumberOfRvaAndSizes is above 16"
#define W_SOOH_NRVA "SizeOfOptionalHeader does not match NumberOfRvaAndSizes"
#define W_FA "FileAlignment is not a power of two in 2..64 KiB"
#define W_SA "SectionAlignment is not a power of two between FileAlignment and 2 MiB"
#define W_TABLE_EOF "section table past end of file (NumberOfSections)"
#define W_SOH_TABLE "SizeOfHeaders ends inside the section table"
#define W_SOH_EOF "SizeOfHeaders is past end of file"
#define W_RAW_EOF "section raw data past end of file (PointerToRawData + SizeOfRawData)"
#define W_RAW_TABLE "section raw data overlaps the section table (PointerToRawData)"
#define W_VA_4G "section VirtualAddress + VirtualSize exceeds 4 GiB"
#define W_CERT_EOF "certificate table past end of file (data directory 4)"
#define W_CERT_OVERLAP "certificate table overlaps headers or section data (data directory 4)"

#define PAYLOAD "sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
#define PAYLOAD_LEN (sizeof(PAYLOAD) - 1)

/* ---------------------------------------------------------------------------------------- */
/* base images */

enum base {
	B_PLAIN,     /* FX_PLAIN: PE32+, table 0x188..0x200, SizeOfHeaders 0x400, file 0x2000 */
	B_PLAIN32,   /* FX_PLAIN as PE32 (magic 0x10b) */
	B_SIGNED,    /* FX_PLAIN with a 0x100-byte certificate table at 0x2000 */
	B_BZOLD,     /* FX_BZIMAGE_OLD */
	B_BZNEW,     /* FX_BZIMAGE_NEW */
	B_ARM64,     /* FX_ARM64 */
	B_WITH_SBAT, /* FX_PLAIN with a .sbat section in the middle of the file */
	B__MAX
};

static const char *const base_names[B__MAX] = {
	"plain", "plain-pe32", "signed", "bzimage-old", "bzimage-new", "arm64", "with-sbat",
};

static void
base_spec(int base, fx_spec *spec)
{
	fx_section sbat;

	switch (base) {
	case B_PLAIN32:
		fx_spec_init(spec, FX_PLAIN);
		spec->pe32plus = 0;
		spec->machine = FX_MACHINE_I386;
		break;
	case B_SIGNED:
		fx_spec_init(spec, FX_PLAIN);
		spec->cert_len = 0x100;
		break;
	case B_BZOLD: fx_spec_init(spec, FX_BZIMAGE_OLD); break;
	case B_BZNEW: fx_spec_init(spec, FX_BZIMAGE_NEW); break;
	case B_ARM64: fx_spec_init(spec, FX_ARM64); break;
	case B_WITH_SBAT:
		fx_spec_init(spec, FX_PLAIN);
		memset(&sbat, 0, sizeof(sbat));
		sbat.name = ".sbat";
		sbat.raw_size = 0x200;
		sbat.content = FX_SBAT_CSV;
		assert_int_equal(fx_spec_insert_section(spec, 2, &sbat), 0);
		break;
	case B_PLAIN:
	default: fx_spec_init(spec, FX_PLAIN); break;
	}
}

static void
build_spec(const fx_spec *spec, uint8_t **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	assert_int_equal(fx_build(spec, buf, len), 0);
	assert_non_null(*buf);
}

static void
build_base(int base, uint8_t **buf, size_t *len)
{
	fx_spec spec;

	base_spec(base, &spec);
	build_spec(&spec, buf, len);
}

/* Where things are in a (well-formed) base image. */
typedef struct anchors {
	uint64_t len, pe, coff, opt, dirs, table, tend;
} anchors;

static void
get_anchors(const uint8_t *buf, size_t len, anchors *a)
{
	uint16_t magic, nsect;

	a->len = len;
	a->pe = fx_le32(buf + T_E_LFANEW);
	a->coff = a->pe + 4;
	a->opt = fx_opt_offset(buf);
	magic = fx_le16(buf + a->opt);
	a->dirs = a->opt + (magic == 0x20b ? 0x70 : 0x60);
	a->table = fx_section_table_offset(buf);
	nsect = fx_le16(buf + a->coff + T_COFF_NSECT);
	a->tend = a->table + (uint64_t)nsect * T_SH_SIZE;
}

/* ---------------------------------------------------------------------------------------- */
/* the table of single-field corruptions */

enum anchor {
	A_ABS,  /* file offset 0 */
	A_PE,   /* e_lfanew: the "PE\0\0" signature */
	A_COFF, /* the COFF file header */
	A_OPT,  /* the optional header */
	A_DIRS, /* the first data directory */
	A_SECT, /* section header idx */
	A_TEND, /* first byte after the section table */
	A_END,  /* end of file */
};

typedef struct loc {
	enum anchor a;
	unsigned idx;
	int64_t rel;
} loc;

typedef struct poke {
	loc at;
	unsigned n; /* bytes written; 0 ends the list */
	uint8_t bytes[4];
	int rel_value; /* write the 32-bit value of `value` instead of bytes */
	loc value;
} poke;

#define MAX_POKES 3

typedef struct mcase {
	const char *name;
	int base;
	poke pokes[MAX_POKES];
	int truncate; /* cut the file at trunc_to (after the pokes) */
	loc trunc_to;
	sbat_err code; /* SBAT_OK: the image must be accepted */
	const char *what;
	loc diag_at; /* the offset the check must report */
} mcase;

#define L(a, i, r)                                                                                                     \
	{                                                                                                              \
		(a), (i), (r)                                                                                          \
	}
#define B4(v)                                                                                                          \
	{                                                                                                              \
		(uint8_t)((v)&0xffu), (uint8_t)(((v) >> 8) & 0xffu), (uint8_t)(((v) >> 16) & 0xffu),                   \
		    (uint8_t)(((v) >> 24) & 0xffu)                                                                     \
	}
#define P32(a, i, r, v)                                                                                                \
	{                                                                                                              \
		L(a, i, r), 4, B4(v), 0, L(A_ABS, 0, 0)                                                                \
	}
#define P16(a, i, r, v)                                                                                                \
	{                                                                                                              \
		L(a, i, r), 2, B4(v), 0, L(A_ABS, 0, 0)                                                                \
	}
#define P8(a, i, r, v)                                                                                                 \
	{                                                                                                              \
		L(a, i, r), 1, B4(v), 0, L(A_ABS, 0, 0)                                                                \
	}
/* the 32-bit value of another anchor plus vr */
#define PREL(a, i, r, va, vi, vr)                                                                                      \
	{                                                                                                              \
		L(a, i, r), 4, { 0, 0, 0, 0 }, 1, L(va, vi, vr)                                                        \
	}

/* section header i, field f */
#define SL(i, f) L(A_SECT, i, f)
#define S32(i, f, v) P32(A_SECT, i, f, v)
#define SREL(i, f, va, vi, vr) PREL(A_SECT, i, f, va, vi, vr)

static const mcase cases[] = {
	/* DOS header */
	{ .name = "empty file",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_ABS, 0, 0),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_SMALL,
	  .diag_at = L(A_ABS, 0, 0) },
	{ .name = "file of 0x3f bytes",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_ABS, 0, 0x3f),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_SMALL,
	  .diag_at = L(A_ABS, 0, 0x3f) },
	{ .name = "file of exactly 0x40 bytes",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_ABS, 0, 0x40),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_PE_EOF,
	  .diag_at = L(A_ABS, 0, T_E_LFANEW) },
	{ .name = "no MZ",
	  .base = B_PLAIN,
	  .pokes = { P8(A_ABS, 0, 1, 'Y') },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_MZ,
	  .diag_at = L(A_ABS, 0, 0) },
	{ .name = "no MZ (zero bytes)",
	  .base = B_PLAIN,
	  .pokes = { P16(A_ABS, 0, 0, 0) },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_MZ,
	  .diag_at = L(A_ABS, 0, 0) },
	{ .name = "arm64: no MZ",
	  .base = B_ARM64,
	  .pokes = { P8(A_ABS, 0, 0, 'm') },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_MZ,
	  .diag_at = L(A_ABS, 0, 0) },
	{ .name = "e_lfanew 0",
	  .base = B_PLAIN,
	  .pokes = { P32(A_ABS, 0, T_E_LFANEW, 0) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_LFANEW_LOW,
	  .diag_at = L(A_ABS, 0, T_E_LFANEW) },
	{ .name = "e_lfanew 0x3f",
	  .base = B_PLAIN,
	  .pokes = { P32(A_ABS, 0, T_E_LFANEW, 0x3fu) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_LFANEW_LOW,
	  .diag_at = L(A_ABS, 0, T_E_LFANEW) },
	{ .name = "e_lfanew 0x40 (stub text, no signature)",
	  .base = B_PLAIN,
	  .pokes = { P32(A_ABS, 0, T_E_LFANEW, 0x40u) },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_PE_SIG,
	  .diag_at = L(A_ABS, 0, 0x40) },
	{ .name = "e_lfanew = EOF - 24 (fits, no signature)",
	  .base = B_PLAIN,
	  .pokes = { PREL(A_ABS, 0, T_E_LFANEW, A_END, 0, -24) },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_PE_SIG,
	  .diag_at = L(A_END, 0, -24) },
	{ .name = "e_lfanew = EOF - 23 (one past)",
	  .base = B_PLAIN,
	  .pokes = { PREL(A_ABS, 0, T_E_LFANEW, A_END, 0, -23) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_PE_EOF,
	  .diag_at = L(A_ABS, 0, T_E_LFANEW) },
	{ .name = "e_lfanew = EOF",
	  .base = B_PLAIN,
	  .pokes = { PREL(A_ABS, 0, T_E_LFANEW, A_END, 0, 0) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_PE_EOF,
	  .diag_at = L(A_ABS, 0, T_E_LFANEW) },
	{ .name = "e_lfanew 0xfffffff0 (wrap)",
	  .base = B_PLAIN,
	  .pokes = { P32(A_ABS, 0, T_E_LFANEW, 0xfffffff0u) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_PE_EOF,
	  .diag_at = L(A_ABS, 0, T_E_LFANEW) },
	{ .name = "e_lfanew 0xffffffff",
	  .base = B_PLAIN,
	  .pokes = { P32(A_ABS, 0, T_E_LFANEW, 0xffffffffu) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_PE_EOF,
	  .diag_at = L(A_ABS, 0, T_E_LFANEW) },
	{ .name = "bzimage-old: e_lfanew 0x7fffffff",
	  .base = B_BZOLD,
	  .pokes = { P32(A_ABS, 0, T_E_LFANEW, 0x7fffffffu) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_PE_EOF,
	  .diag_at = L(A_ABS, 0, T_E_LFANEW) },

	/* PE signature and COFF header */
	{ .name = "no PE signature",
	  .base = B_PLAIN,
	  .pokes = { P8(A_PE, 0, 0, 'X') },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_PE_SIG,
	  .diag_at = L(A_PE, 0, 0) },
	{ .name = "PE signature without NULs",
	  .base = B_BZNEW,
	  .pokes = { P8(A_PE, 0, 3, ' ') },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_PE_SIG,
	  .diag_at = L(A_PE, 0, 0) },
	{ .name = "file ends inside the COFF header",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_OPT, 0, -1),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_PE_EOF,
	  .diag_at = L(A_ABS, 0, T_E_LFANEW) },
	{ .name = "NumberOfSections 0",
	  .base = B_PLAIN,
	  .pokes = { P16(A_COFF, 0, T_COFF_NSECT, 0) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_NSECT0,
	  .diag_at = L(A_COFF, 0, T_COFF_NSECT) },
	{ .name = "NumberOfSections 97",
	  .base = B_PLAIN,
	  .pokes = { P16(A_COFF, 0, T_COFF_NSECT, 97u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_NSECT_MAX,
	  .diag_at = L(A_COFF, 0, T_COFF_NSECT) },
	{ .name = "NumberOfSections 0xffff",
	  .base = B_PLAIN,
	  .pokes = { P16(A_COFF, 0, T_COFF_NSECT, 0xffffu) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_NSECT_MAX,
	  .diag_at = L(A_COFF, 0, T_COFF_NSECT) },
	{ .name = "NumberOfSections 96 passes the count check",
	  .base = B_PLAIN,
	  .pokes = { P16(A_COFF, 0, T_COFF_NSECT, 96u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOH_TABLE,
	  .diag_at = L(A_OPT, 0, T_OPT_SOH) },
	{ .name = "bzimage-old: NumberOfSections 96, table past EOF",
	  .base = B_BZOLD,
	  .truncate = 1,
	  .trunc_to = L(A_ABS, 0, 0x1000),
	  .pokes = { P16(A_COFF, 0, T_COFF_NSECT, 96u) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_TABLE_EOF,
	  .diag_at = L(A_COFF, 0, T_COFF_NSECT) },

	/* optional header */
	{ .name = "file ends at the optional header",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_OPT, 0, 0),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_OPT_EOF,
	  .diag_at = L(A_OPT, 0, 0) },
	{ .name = "file ends inside the optional header magic",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_OPT, 0, 1),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_OPT_EOF,
	  .diag_at = L(A_OPT, 0, 0) },
	{ .name = "optional header magic 0",
	  .base = B_PLAIN,
	  .pokes = { P16(A_OPT, 0, 0, 0) },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_OPT_MAGIC,
	  .diag_at = L(A_OPT, 0, 0) },
	{ .name = "optional header magic 0x107 (ROM)",
	  .base = B_PLAIN,
	  .pokes = { P16(A_OPT, 0, 0, 0x107u) },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_OPT_MAGIC,
	  .diag_at = L(A_OPT, 0, 0) },
	{ .name = "optional header magic byte-swapped",
	  .base = B_PLAIN32,
	  .pokes = { P16(A_OPT, 0, 0, 0x0b01u) },
	  .code = SBAT_E_PE_MAGIC,
	  .what = W_OPT_MAGIC,
	  .diag_at = L(A_OPT, 0, 0) },
	{ .name = "PE32 magic on a PE32+ header",
	  .base = B_PLAIN,
	  .pokes = { P16(A_OPT, 0, 0, 0x10bu) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_NRVA,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "PE32+ magic on a PE32 header",
	  .base = B_PLAIN32,
	  .pokes = { P16(A_OPT, 0, 0, 0x20bu) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_NRVA,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "SizeOfOptionalHeader 0",
	  .base = B_PLAIN,
	  .pokes = { P16(A_COFF, 0, T_COFF_SOOH, 0) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_SMALL,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "SizeOfOptionalHeader 0x6f (PE32+)",
	  .base = B_PLAIN,
	  .pokes = { P16(A_COFF, 0, T_COFF_SOOH, 0x6fu) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_SMALL,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "SizeOfOptionalHeader 0x70 (PE32+) passes the size check",
	  .base = B_PLAIN,
	  .pokes = { P16(A_COFF, 0, T_COFF_SOOH, 0x70u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_NRVA,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "SizeOfOptionalHeader 0x5f (PE32)",
	  .base = B_PLAIN32,
	  .pokes = { P16(A_COFF, 0, T_COFF_SOOH, 0x5fu) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_SMALL,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "SizeOfOptionalHeader one directory short",
	  .base = B_PLAIN,
	  .pokes = { P16(A_COFF, 0, T_COFF_SOOH, 0xe8u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_NRVA,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "SizeOfOptionalHeader not a multiple of 8 past the fixed part",
	  .base = B_ARM64,
	  .pokes = { P16(A_COFF, 0, T_COFF_SOOH, 0xf1u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_NRVA,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "NumberOfRvaAndSizes 15 for 16 directories",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT64_NRVA, 15u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_NRVA,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "bzimage-new: NumberOfRvaAndSizes 7 for 6 directories",
	  .base = B_BZNEW,
	  .pokes = { P32(A_OPT, 0, T_OPT64_NRVA, 7u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOOH_NRVA,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "SizeOfOptionalHeader 0xffff (past EOF)",
	  .base = B_PLAIN,
	  .pokes = { P16(A_COFF, 0, T_COFF_SOOH, 0xffffu) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_SOOH_EOF,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "file ends inside the data directories",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_DIRS, 0, 8),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_SOOH_EOF,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "file ends one byte before the section table",
	  .base = B_PLAIN32,
	  .truncate = 1,
	  .trunc_to = SL(0, -1),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_SOOH_EOF,
	  .diag_at = L(A_COFF, 0, T_COFF_SOOH) },
	{ .name = "NumberOfRvaAndSizes 17",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT64_NRVA, 17u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_NRVA,
	  .diag_at = L(A_OPT, 0, T_OPT64_NRVA) },
	{ .name = "NumberOfRvaAndSizes 0xffffffff",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT64_NRVA, 0xffffffffu) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_NRVA,
	  .diag_at = L(A_OPT, 0, T_OPT64_NRVA) },
	{ .name = "NumberOfRvaAndSizes 0x20000000 (8 * n wraps to 0)",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT64_NRVA, 0x20000000u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_NRVA,
	  .diag_at = L(A_OPT, 0, T_OPT64_NRVA) },
	{ .name = "PE32: NumberOfRvaAndSizes 17",
	  .base = B_PLAIN32,
	  .pokes = { P32(A_OPT, 0, T_OPT32_NRVA, 17u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_NRVA,
	  .diag_at = L(A_OPT, 0, T_OPT32_NRVA) },
	{ .name = "PE32: NumberOfRvaAndSizes 0xffffffff",
	  .base = B_PLAIN32,
	  .pokes = { P32(A_OPT, 0, T_OPT32_NRVA, 0xffffffffu) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_NRVA,
	  .diag_at = L(A_OPT, 0, T_OPT32_NRVA) },

	/* alignments */
	{ .name = "FileAlignment 0",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_FILE_ALIGN, 0) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_FA,
	  .diag_at = L(A_OPT, 0, T_OPT_FILE_ALIGN) },
	{ .name = "FileAlignment 1",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_FILE_ALIGN, 1u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_FA,
	  .diag_at = L(A_OPT, 0, T_OPT_FILE_ALIGN) },
	{ .name = "FileAlignment 2 accepted",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_FILE_ALIGN, 2u) },
	  .code = SBAT_OK },
	{ .name = "FileAlignment 3",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_FILE_ALIGN, 3u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_FA,
	  .diag_at = L(A_OPT, 0, T_OPT_FILE_ALIGN) },
	{ .name = "FileAlignment 0x600",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_FILE_ALIGN, 0x600u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_FA,
	  .diag_at = L(A_OPT, 0, T_OPT_FILE_ALIGN) },
	{ .name = "FileAlignment 0x10000 accepted",
	  .base = B_ARM64,
	  .pokes = { P32(A_OPT, 0, T_OPT_FILE_ALIGN, 0x10000u) },
	  .code = SBAT_OK },
	{ .name = "FileAlignment 0x20000",
	  .base = B_ARM64,
	  .pokes = { P32(A_OPT, 0, T_OPT_FILE_ALIGN, 0x20000u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_FA,
	  .diag_at = L(A_OPT, 0, T_OPT_FILE_ALIGN) },
	{ .name = "FileAlignment 0x80000000",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_FILE_ALIGN, 0x80000000u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_FA,
	  .diag_at = L(A_OPT, 0, T_OPT_FILE_ALIGN) },
	{ .name = "SectionAlignment below FileAlignment",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_SECT_ALIGN, 0x100u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SA,
	  .diag_at = L(A_OPT, 0, T_OPT_SECT_ALIGN) },
	{ .name = "SectionAlignment equal to FileAlignment accepted",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_SECT_ALIGN, 0x200u) },
	  .code = SBAT_OK },
	{ .name = "SectionAlignment 0",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_SECT_ALIGN, 0) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SA,
	  .diag_at = L(A_OPT, 0, T_OPT_SECT_ALIGN) },
	{ .name = "SectionAlignment not a power of two",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_SECT_ALIGN, 0x1800u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SA,
	  .diag_at = L(A_OPT, 0, T_OPT_SECT_ALIGN) },
	{ .name = "SectionAlignment 2 MiB accepted",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_SECT_ALIGN, 0x200000u) },
	  .code = SBAT_OK },
	{ .name = "SectionAlignment 4 MiB",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_SECT_ALIGN, 0x400000u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SA,
	  .diag_at = L(A_OPT, 0, T_OPT_SECT_ALIGN) },
	{ .name = "SectionAlignment 0x80000000",
	  .base = B_BZOLD,
	  .pokes = { P32(A_OPT, 0, T_OPT_SECT_ALIGN, 0x80000000u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SA,
	  .diag_at = L(A_OPT, 0, T_OPT_SECT_ALIGN) },
	{ .name = "bad FileAlignment is reported before bad SectionAlignment",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_FILE_ALIGN, 0), P32(A_OPT, 0, T_OPT_SECT_ALIGN, 0) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_FA,
	  .diag_at = L(A_OPT, 0, T_OPT_FILE_ALIGN) },

	/* section table and SizeOfHeaders */
	{ .name = "section table one byte past EOF",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_TEND, 0, -1),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_TABLE_EOF,
	  .diag_at = L(A_COFF, 0, T_COFF_NSECT) },
	{ .name = "arm64: file ends inside the first section header",
	  .base = B_ARM64,
	  .truncate = 1,
	  .trunc_to = SL(0, 1),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_TABLE_EOF,
	  .diag_at = L(A_COFF, 0, T_COFF_NSECT) },
	{ .name = "file ends exactly at the section table end",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_TEND, 0, 0),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_SOH_EOF,
	  .diag_at = L(A_OPT, 0, T_OPT_SOH) },
	{ .name = "SizeOfHeaders 0",
	  .base = B_PLAIN,
	  .pokes = { P32(A_OPT, 0, T_OPT_SOH, 0) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOH_TABLE,
	  .diag_at = L(A_OPT, 0, T_OPT_SOH) },
	{ .name = "SizeOfHeaders one byte inside the section table",
	  .base = B_PLAIN,
	  .pokes = { PREL(A_OPT, 0, T_OPT_SOH, A_TEND, 0, -1) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_SOH_TABLE,
	  .diag_at = L(A_OPT, 0, T_OPT_SOH) },
	{ .name = "SizeOfHeaders = section table end accepted",
	  .base = B_PLAIN,
	  .pokes = { PREL(A_OPT, 0, T_OPT_SOH, A_TEND, 0, 0) },
	  .code = SBAT_OK },
	{ .name = "SizeOfHeaders = EOF accepted",
	  .base = B_PLAIN,
	  .pokes = { PREL(A_OPT, 0, T_OPT_SOH, A_END, 0, 0) },
	  .code = SBAT_OK },
	{ .name = "SizeOfHeaders one past EOF",
	  .base = B_PLAIN,
	  .pokes = { PREL(A_OPT, 0, T_OPT_SOH, A_END, 0, 1) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_SOH_EOF,
	  .diag_at = L(A_OPT, 0, T_OPT_SOH) },
	{ .name = "SizeOfHeaders 0xffffffff",
	  .base = B_BZNEW,
	  .pokes = { P32(A_OPT, 0, T_OPT_SOH, 0xffffffffu) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_SOH_EOF,
	  .diag_at = L(A_OPT, 0, T_OPT_SOH) },
	{ .name = "arm64: file cut inside SizeOfHeaders",
	  .base = B_ARM64,
	  .truncate = 1,
	  .trunc_to = L(A_ABS, 0, 0xffff),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_SOH_EOF,
	  .diag_at = L(A_OPT, 0, T_OPT_SOH) },

	/* section raw data: fits, one past, 32-bit wrap */
	{ .name = "raw data ends exactly at EOF accepted",
	  .base = B_PLAIN,
	  .pokes = { SREL(2, T_SH_RAWPTR, A_END, 0, -0x1ff), S32(2, T_SH_RAWSIZE, 0x1ffu) },
	  .code = SBAT_OK },
	{ .name = "raw data one byte past EOF",
	  .base = B_PLAIN,
	  .pokes = { SREL(2, T_SH_RAWPTR, A_END, 0, -0x1ff), S32(2, T_SH_RAWSIZE, 0x200u) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_RAW_EOF,
	  .diag_at = SL(2, T_SH_RAWPTR) },
	{ .name = "SizeOfRawData one byte too large",
	  .base = B_PLAIN,
	  .pokes = { S32(2, T_SH_RAWSIZE, 0x201u) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_RAW_EOF,
	  .diag_at = SL(2, T_SH_RAWPTR) },
	{ .name = "file cut one byte short of the last section",
	  .base = B_PLAIN,
	  .truncate = 1,
	  .trunc_to = L(A_END, 0, -1),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_RAW_EOF,
	  .diag_at = SL(2, T_SH_RAWPTR) },
	{ .name = "PointerToRawData 0xffffff00 + SizeOfRawData 0x200 (wrap)",
	  .base = B_PLAIN,
	  .pokes = { S32(1, T_SH_RAWPTR, 0xffffff00u), S32(1, T_SH_RAWSIZE, 0x200u) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_RAW_EOF,
	  .diag_at = SL(1, T_SH_RAWPTR) },
	{ .name = "SizeOfRawData 0xffffffff",
	  .base = B_BZOLD,
	  .pokes = { S32(0, T_SH_RAWSIZE, 0xffffffffu) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_RAW_EOF,
	  .diag_at = SL(0, T_SH_RAWPTR) },
	{ .name = "arm64: PointerToRawData 0xffffffff",
	  .base = B_ARM64,
	  .pokes = { S32(1, T_SH_RAWPTR, 0xffffffffu) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_RAW_EOF,
	  .diag_at = SL(1, T_SH_RAWPTR) },
	{ .name = "raw data overlaps the section table by one byte",
	  .base = B_PLAIN,
	  .pokes = { SREL(0, T_SH_RAWPTR, A_TEND, 0, -1) },
	  .code = SBAT_E_PE_SECTION,
	  .what = W_RAW_TABLE,
	  .diag_at = SL(0, T_SH_RAWPTR) },
	{ .name = "raw data starts at the section table end accepted",
	  .base = B_PLAIN,
	  .pokes = { SREL(0, T_SH_RAWPTR, A_TEND, 0, 0) },
	  .code = SBAT_OK },
	{ .name = "raw data at file offset 0",
	  .base = B_BZNEW,
	  .pokes = { S32(3, T_SH_RAWPTR, 0) },
	  .code = SBAT_E_PE_SECTION,
	  .what = W_RAW_TABLE,
	  .diag_at = SL(3, T_SH_RAWPTR) },
	{ .name = "size-0 section with PointerToRawData 0xfffffff0 accepted",
	  .base = B_PLAIN,
	  .pokes = { S32(2, T_SH_RAWSIZE, 0), S32(2, T_SH_RAWPTR, 0xfffffff0u) },
	  .code = SBAT_OK },
	{ .name = "size-0 section with PointerToRawData inside the table accepted",
	  .base = B_BZOLD,
	  .pokes = { S32(1, T_SH_RAWSIZE, 0), SREL(1, T_SH_RAWPTR, A_TEND, 0, -1) },
	  .code = SBAT_OK },

	/* virtual addresses */
	{ .name = "VirtualAddress + VirtualSize = 4 GiB - 0x1000 accepted",
	  .base = B_PLAIN,
	  .pokes = { S32(2, T_SH_VA, 0xffffc000u) },
	  .code = SBAT_OK },
	{ .name = "VirtualAddress + VirtualSize = 4 GiB + 0x2000",
	  .base = B_PLAIN,
	  .pokes = { S32(2, T_SH_VA, 0xfffff000u) },
	  .code = SBAT_E_PE_OVERFLOW,
	  .what = W_VA_4G,
	  .diag_at = SL(2, T_SH_VA) },
	{ .name = "VirtualSize 0xffffffff",
	  .base = B_PLAIN,
	  .pokes = { S32(0, T_SH_VSIZE, 0xffffffffu) },
	  .code = SBAT_E_PE_OVERFLOW,
	  .what = W_VA_4G,
	  .diag_at = SL(0, T_SH_VA) },
	{ .name = "VirtualSize 0: SizeOfRawData counts, past 4 GiB",
	  .base = B_PLAIN,
	  .pokes = { S32(2, T_SH_VSIZE, 0), S32(2, T_SH_VA, 0xffffff00u) },
	  .code = SBAT_E_PE_OVERFLOW,
	  .what = W_VA_4G,
	  .diag_at = SL(2, T_SH_VA) },
	{ .name = "VirtualSize 0: SizeOfRawData counts, ends at 4 GiB - 1 accepted",
	  .base = B_PLAIN,
	  .pokes = { S32(2, T_SH_VSIZE, 0), S32(2, T_SH_VA, 0xfffffdffu) },
	  .code = SBAT_OK },

	/* certificate table */
	{ .name = "certificate table one byte past EOF",
	  .base = B_SIGNED,
	  .pokes = { P32(A_DIRS, 0, T_DIR_CERT + 4, 0x101u) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_CERT_EOF,
	  .diag_at = L(A_DIRS, 0, T_DIR_CERT) },
	{ .name = "certificate table starts at EOF",
	  .base = B_SIGNED,
	  .pokes = { PREL(A_DIRS, 0, T_DIR_CERT, A_END, 0, 0) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_CERT_EOF,
	  .diag_at = L(A_DIRS, 0, T_DIR_CERT) },
	{ .name = "certificate table size 0xfffffff0 (wrap)",
	  .base = B_SIGNED,
	  .pokes = { P32(A_DIRS, 0, T_DIR_CERT + 4, 0xfffffff0u) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_CERT_EOF,
	  .diag_at = L(A_DIRS, 0, T_DIR_CERT) },
	{ .name = "certificate table 0xffffff00 + 0x200 (wrap)",
	  .base = B_SIGNED,
	  .pokes = { P32(A_DIRS, 0, T_DIR_CERT, 0xffffff00u), P32(A_DIRS, 0, T_DIR_CERT + 4, 0x200u) },
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_CERT_EOF,
	  .diag_at = L(A_DIRS, 0, T_DIR_CERT) },
	{ .name = "certificate table overlaps the last section by 8 bytes",
	  .base = B_SIGNED,
	  .pokes = { PREL(A_DIRS, 0, T_DIR_CERT, A_END, 0, -0x108) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_CERT_OVERLAP,
	  .diag_at = L(A_DIRS, 0, T_DIR_CERT) },
	{ .name = "certificate table inside the headers",
	  .base = B_SIGNED,
	  .pokes = { P32(A_DIRS, 0, T_DIR_CERT, 0x10u) },
	  .code = SBAT_E_PE_FIELD,
	  .what = W_CERT_OVERLAP,
	  .diag_at = L(A_DIRS, 0, T_DIR_CERT) },
	{ .name = "certificate table shorter, still at the end of the data accepted",
	  .base = B_SIGNED,
	  .pokes = { P32(A_DIRS, 0, T_DIR_CERT + 4, 0x80u) },
	  .code = SBAT_OK },
	{ .name = "unsigned: certificate offset without size accepted",
	  .base = B_PLAIN,
	  .pokes = { P32(A_DIRS, 0, T_DIR_CERT, 0xfffffff0u) },
	  .code = SBAT_OK },
	{ .name = "file cut inside the certificate table",
	  .base = B_SIGNED,
	  .truncate = 1,
	  .trunc_to = L(A_END, 0, -1),
	  .code = SBAT_E_PE_TRUNCATED,
	  .what = W_CERT_EOF,
	  .diag_at = L(A_DIRS, 0, T_DIR_CERT) },
};

static uint64_t
resolve(const anchors *a, const loc *l)
{
	uint64_t b = 0;

	switch (l->a) {
	case A_ABS: b = 0; break;
	case A_PE: b = a->pe; break;
	case A_COFF: b = a->coff; break;
	case A_OPT: b = a->opt; break;
	case A_DIRS: b = a->dirs; break;
	case A_SECT: b = a->table + (uint64_t)l->idx * T_SH_SIZE; break;
	case A_TEND: b = a->tend; break;
	case A_END: b = a->len; break;
	}
	return b + (uint64_t)l->rel;
}

/* Build the case's image: base, pokes, truncation. Returns an exact-size buffer. */
static uint8_t *
make_case(const mcase *c, anchors *a, size_t *ret_len)
{
	uint8_t *base, *img;
	size_t len;
	unsigned i;

	build_base(c->base, &base, &len);
	get_anchors(base, len, a);
	for (i = 0; i < MAX_POKES && c->pokes[i].n; i++) {
		const poke *p = &c->pokes[i];
		uint64_t at = resolve(a, &p->at);

		assert_true(at + p->n <= len);
		if (p->rel_value)
			fx_put32(base + at, (uint32_t)resolve(a, &p->value));
		else
			memcpy(base + at, p->bytes, p->n);
	}
	if (c->truncate) {
		uint64_t to = resolve(a, &c->trunc_to);

		assert_true(to <= len);
		len = (size_t)to;
	}
	img = dup_exact(base, len);
	free(base);
	*ret_len = len;
	return img;
}

static void
test_bases_parse(void **state)
{
	int b;

	(void)state;
	for (b = 0; b < B__MAX; b++) {
		uint8_t *buf;
		size_t len;
		sbat_pe *pe = malloc(sizeof(*pe));
		sbat_diag d;
		anchors a;

		assert_non_null(pe);
		build_base(b, &buf, &len);
		get_anchors(buf, len, &a);
		memset(&d, 0, sizeof(d));
		if (pe_parse(buf, len, pe, &d) != SBAT_OK)
			fail_msg("base %s does not parse: %s", base_names[b], d.what);
		assert_int_equal(pe->file_size, len);
		assert_int_equal(pe->pe_offset, a.pe);
		assert_int_equal(pe->section_table_offset, a.table);
		assert_int_equal(pe->section_table_end, a.tend);
		assert_int_equal(pe->sbat_count, b == B_WITH_SBAT ? 1 : 0);
		assert_int_equal(pe->cert_size, b == B_SIGNED ? 0x100 : 0);
		free(pe);
		free(buf);
	}
}

static void
test_malformed_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const mcase *c = &cases[i];
		sbat_pe *pe = malloc(sizeof(*pe));
		sbat_diag d;
		anchors a;
		uint8_t *img;
		size_t len;
		sbat_err r;

		assert_non_null(pe);
		img = make_case(c, &a, &len);
		memset(&d, 0, sizeof(d));
		d.what = NULL;
		r = pe_parse(img, len, pe, &d);
		if (r != c->code)
			fail_msg("case \"%s\" (%s): expected %s, got %s (%s)", c->name, base_names[c->base],
			         sbat_strerror(c->code), sbat_strerror(r), d.what ? d.what : "-");
		if (c->code != SBAT_OK) {
			uint64_t want = resolve(&a, &c->diag_at);

			assert_int_equal(d.code, c->code);
			assert_non_null(d.what);
			if (strcmp(d.what, c->what) != 0)
				fail_msg("case \"%s\": expected \"%s\", got \"%s\"", c->name, c->what, d.what);
			assert_int_equal(d.has_offset, 1);
			if (d.offset != want)
				fail_msg("case \"%s\": expected offset 0x%llx, got 0x%llx", c->name,
				         (unsigned long long)want, (unsigned long long)d.offset);
		}
		free(pe);
		free(img);
	}
}

/* Parsing never writes through a NULL diagnostic and gives the same answer. */
static void
test_malformed_null_diag(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sbat_pe *pe = malloc(sizeof(*pe));
		anchors a;
		uint8_t *img;
		size_t len;

		assert_non_null(pe);
		img = make_case(&cases[i], &a, &len);
		assert_int_equal(pe_parse(img, len, pe, NULL), cases[i].code);
		free(pe);
		free(img);
	}
}

/* ---------------------------------------------------------------------------------------- */
/* truncation */

static void
expect_edit_fails_cleanly(const uint8_t *img, size_t len, sbat_err want)
{
	static uint8_t sentinel;
	uint8_t *out = &sentinel;
	size_t out_len = 12345;
	uint8_t *copy = dup_exact(img, len);
	sbat_diag d;
	sbat_err r;

	memset(&d, 0, sizeof(d));
	r = edit_buf(img, len, (const uint8_t *)PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, NULL, &d);
	assert_int_equal(r, want);
	assert_int_equal(d.code, want);
	assert_non_null(d.what);
	assert_ptr_equal(out, &sentinel);
	assert_int_equal(out_len, 12345);
	if (len)
		assert_memory_equal(img, copy, len);
	free(copy);
}

static void
test_truncation_every_length(void **state)
{
	int b;

	(void)state;
	for (b = 0; b < B__MAX; b++) {
		uint8_t *buf;
		size_t len, n;
		anchors a;
		sbat_pe *pe = malloc(sizeof(*pe));

		assert_non_null(pe);
		build_base(b, &buf, &len);
		get_anchors(buf, len, &a);
		/* exact-size copies through the section table, so ASan sees every over-read */
		for (n = 0; n <= a.tend; n++) {
			uint8_t *img = dup_exact(buf, n);
			sbat_diag d;
			sbat_err r;

			memset(&d, 0, sizeof(d));
			r = pe_parse(img, n, pe, &d);
			if (r == SBAT_OK)
				fail_msg("%s cut to %zu bytes parses", base_names[b], n);
			assert_int_equal(d.code, r);
			assert_non_null(d.what);
			assert_int_equal(d.has_offset, 1);
			assert_true(r == SBAT_E_PE_TRUNCATED);
			expect_edit_fails_cleanly(img, n, r);
			free(img);
		}
		/*
		 * Every preset's last section ends at EOF (or its certificate table
		 * does), so every shorter length must fail too. The bound is len
		 * itself: a view shorter than the buffer.
		 */
		for (; n < len; n++) {
			sbat_diag d;
			sbat_err r;

			memset(&d, 0, sizeof(d));
			r = pe_parse(buf, n, pe, &d);
			if (r == SBAT_OK)
				fail_msg("%s cut to %zu bytes parses", base_names[b], n);
			assert_int_equal(d.code, r);
			assert_int_equal(r, SBAT_E_PE_TRUNCATED);
		}
		assert_int_equal(pe_parse(buf, len, pe, NULL), SBAT_OK);
		free(pe);
		free(buf);
	}
}

/* ---------------------------------------------------------------------------------------- */
/* the edit path */

/* The edit fails with code/what/offset; the input is not modified and *ret_out not set. */
static void
edit_expect(const uint8_t *img, size_t len, int strip, sbat_err code, const char *what, int has_offset, uint64_t offset)
{
	static uint8_t sentinel;
	sbat_edit_opts opts;
	uint8_t *out = &sentinel;
	size_t out_len = 777;
	uint8_t *copy = dup_exact(img, len);
	sbat_edit_report rep;
	sbat_diag d;
	sbat_err r;

	sbat_edit_opts_init(&opts);
	opts.strip_signature = strip;
	memset(&d, 0, sizeof(d));
	r = edit_buf(img, len, (const uint8_t *)PAYLOAD, PAYLOAD_LEN, &opts, &out, &out_len, &rep, &d);
	if (r != code)
		fail_msg("expected %s, got %s (%s)", sbat_strerror(code), sbat_strerror(r), d.what ? d.what : "-");
	assert_int_equal(d.code, code);
	assert_non_null(d.what);
	if (what && strcmp(d.what, what) != 0)
		fail_msg("expected \"%s\", got \"%s\"", what, d.what);
	/* has_offset -1: the check reports some offset, which one is not pinned */
	assert_int_equal(d.has_offset, has_offset != 0);
	if (has_offset > 0 && d.offset != offset)
		fail_msg("\"%s\": expected offset 0x%llx, got 0x%llx", d.what, (unsigned long long)offset,
		         (unsigned long long)d.offset);
	assert_ptr_equal(out, &sentinel);
	assert_int_equal(out_len, 777);
	assert_memory_equal(img, copy, len);
	free(copy);
}

/* The edit succeeds and its output parses with exactly one .sbat holding the payload. */
static void
edit_ok(const uint8_t *img, size_t len, int strip, sbat_edit_report *rep, uint8_t **ret_out, size_t *ret_len)
{
	sbat_edit_opts opts;
	uint8_t *copy = dup_exact(img, len);
	sbat_pe *pe = malloc(sizeof(*pe));
	const uint8_t *data;
	size_t data_len;
	sbat_diag d;

	assert_non_null(pe);
	sbat_edit_opts_init(&opts);
	opts.strip_signature = strip;
	memset(&d, 0, sizeof(d));
	*ret_out = NULL;
	if (edit_buf(img, len, (const uint8_t *)PAYLOAD, PAYLOAD_LEN, &opts, ret_out, ret_len, rep, &d))
		fail_msg("edit failed: %s", d.what);
	assert_memory_equal(img, copy, len);
	assert_int_equal(pe_parse(*ret_out, *ret_len, pe, &d), SBAT_OK);
	assert_int_equal(pe->sbat_count, 1);
	assert_int_equal(pe_sbat_data(pe, *ret_out, *ret_len, &data, &data_len, &d), SBAT_OK);
	assert_int_equal(data_len, PAYLOAD_LEN);
	assert_memory_equal(data, PAYLOAD, PAYLOAD_LEN);
	free(pe);
	free(copy);
}

static void
test_edit_bases_ok(void **state)
{
	int b;

	(void)state;
	for (b = 0; b < B__MAX; b++) {
		uint8_t *buf, *out;
		size_t len, out_len;
		sbat_edit_report rep;

		if (b == B_SIGNED)
			continue;
		build_base(b, &buf, &len);
		edit_ok(buf, len, 0, &rep, &out, &out_len);
		assert_int_equal(rep.action, b == B_WITH_SBAT ? SBAT_ACTION_REPLACE : SBAT_ACTION_INSERT);
		free(out);
		free(buf);
	}
}

static void
test_edit_signed(void **state)
{
	uint8_t *buf, *out;
	size_t len, out_len;
	anchors a;
	sbat_edit_report rep;
	sbat_pe *pe = malloc(sizeof(*pe));

	(void)state;
	assert_non_null(pe);
	build_base(B_SIGNED, &buf, &len);
	get_anchors(buf, len, &a);
	edit_expect(buf, len, 0, SBAT_E_SIGNED, NULL, 1, a.dirs + T_DIR_CERT);

	/* with --strip-signature: the table is gone and its directory entry zeroed */
	edit_ok(buf, len, 1, &rep, &out, &out_len);
	assert_int_equal(rep.stripped_cert_size, 0x100);
	assert_int_equal(pe_parse(out, out_len, pe, NULL), SBAT_OK);
	assert_int_equal(pe->cert_size, 0);
	assert_int_equal(fx_le32(out + a.dirs + T_DIR_CERT), 0);
	assert_int_equal(fx_le32(out + a.dirs + T_DIR_CERT + 4), 0);
	free(out);
	free(pe);
	free(buf);
}

static void
test_edit_signed_data_after_cert(void **state)
{
	uint8_t *buf, *big;
	size_t len;
	anchors a;

	(void)state;
	build_base(B_SIGNED, &buf, &len);
	get_anchors(buf, len, &a);
	big = calloc(1, len + 16);
	assert_non_null(big);
	memcpy(big, buf, len);
	memset(big + len, 0x5a, 16);
	edit_expect(big, len + 16, 1, SBAT_E_PE_FIELD, "data follows the certificate table (data directory 4)", 1,
	            a.dirs + T_DIR_CERT);
	/* without --strip-signature, being signed is the reason */
	edit_expect(big, len + 16, 0, SBAT_E_SIGNED, NULL, 1, a.dirs + T_DIR_CERT);
	free(big);
	free(buf);
}

static void
test_edit_duplicate_sbat(void **state)
{
	fx_spec spec;
	fx_section s;
	uint8_t *buf;
	size_t len;
	anchors a;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.raw_size = 0x200;
	s.content = FX_SBAT_CSV;
	assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	edit_expect(buf, len, 0, SBAT_E_SBAT_DUPLICATE, NULL, 1, a.table + 3 * T_SH_SIZE);
	free(buf);

	/* not adjacent: .sbat first and last */
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_spec_insert_section(&spec, 0, &s), 0);
	assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	edit_expect(buf, len, 0, SBAT_E_SBAT_DUPLICATE, NULL, 1, a.table);
	free(buf);
}

static void
test_edit_no_header_room(void **state)
{
	fx_spec spec;
	uint8_t *buf, *out;
	size_t len, out_len;
	anchors a;
	sbat_edit_report rep;

	(void)state;
	/*
	 * arm64 kernel whose first section's data starts right at the table
	 * end: a kernel's file offsets never move, so there is no room.
	 * e_lfanew 0xa8 puts the end of its two-entry table at exactly 0x200.
	 */
	fx_spec_init(&spec, FX_ARM64);
	spec.pe_offset = 0xa8;
	spec.size_of_headers = 0x200;
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	assert_int_equal(a.tend, 0x200);
	assert_int_equal(fx_le32(buf + a.table + T_SH_RAWPTR), 0x200);
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, NULL, 1, a.tend);
	free(buf);

	/* a plain application whose first VirtualAddress is right after its headers */
	fx_spec_init(&spec, FX_PLAIN);
	spec.header_slack = 0;
	spec.sect_align = 0x200;
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	assert_int_equal(a.tend, 0x200);
	assert_int_equal(fx_le32(buf + a.table + T_SH_VA), 0x200);
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, NULL, 1, a.tend);
	free(buf);

	/* arm64, FileAlignment 0x20: the slot is 0x198..0x1c0; fits, one short */
	fx_spec_init(&spec, FX_ARM64);
	spec.file_align = 0x20;
	spec.size_of_headers = 0x1c0;
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	assert_int_equal(a.tend, 0x198);
	assert_int_equal(fx_le32(buf + a.table + T_SH_RAWPTR), 0x1c0);
	edit_ok(buf, len, 0, &rep, &out, &out_len); /* exactly 40 bytes of room */
	assert_int_equal(rep.action, SBAT_ACTION_INSERT);
	assert_int_equal(rep.new_size_of_headers, 0x1c0);
	free(out);
	fx_put32(buf + a.table + T_SH_RAWPTR, 0x1bf); /* 39 bytes */
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, NULL, 1, a.tend);
	free(buf);

	/* arm64, SizeOfHeaders 0x1a0 ends inside the slot: grows to 0x1c0 when nothing is in the way */
	fx_spec_init(&spec, FX_ARM64);
	spec.file_align = 0x20;
	spec.size_of_headers = 0x1a0;
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	memset(buf + 0x1a0, 0, 0x20);
	fx_put32(buf + a.table + T_SH_RAWPTR, 0x1c0);
	edit_ok(buf, len, 0, &rep, &out, &out_len);
	assert_int_equal(rep.old_size_of_headers, 0x1a0);
	assert_int_equal(rep.new_size_of_headers, 0x1c0);
	free(out);
	fx_put32(buf + a.table + T_SH_RAWPTR, 0x1b8); /* the slot fits, the aligned SizeOfHeaders does not */
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, NULL, -1, 0);
	free(buf);
}

static void
test_edit_96_sections(void **state)
{
	fx_spec spec;
	uint8_t *buf;
	size_t len;
	anchors a;

	(void)state;
	/* zeroed headers are valid empty sections; make the table hold 96 of them */
	fx_spec_init(&spec, FX_PLAIN);
	spec.header_slack = 96 * T_SH_SIZE;
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	fx_put16(buf + a.coff + T_COFF_NSECT, 96);
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, "image already has 96 sections", 1, a.coff + T_COFF_NSECT);
	free(buf);
}

static void
test_edit_slot_in_use(void **state)
{
	uint8_t *buf, *out;
	size_t len, out_len;
	anchors a;
	sbat_edit_report rep;

	(void)state;
	build_base(B_PLAIN, &buf, &len);
	get_anchors(buf, len, &a);
	buf[a.tend + 39] = 0x01; /* the last byte of the slot */
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM,
	            "bytes after the section table are in use (debug data or code?)", 1, a.tend);
	buf[a.tend + 39] = 0;
	buf[a.tend] = 0x90; /* the first byte */
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, NULL, 1, a.tend);
	buf[a.tend] = 0;
	buf[a.tend + 40] = 0x01; /* just past the slot: not our business */
	edit_ok(buf, len, 0, &rep, &out, &out_len);
	free(out);
	free(buf);

	/* 6.7+ bzImage: 0xff filler is free, a mix of 0xff and 0x00 is not */
	build_base(B_BZNEW, &buf, &len);
	get_anchors(buf, len, &a);
	assert_int_equal(buf[a.tend], 0xff);
	edit_ok(buf, len, 0, &rep, &out, &out_len);
	free(out);
	buf[a.tend + 20] = 0x00;
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM,
	            "bytes after the section table are in use (debug data or code?)", 1, a.tend);
	free(buf);
}

static void
test_edit_bzimage_old_full_table(void **state)
{
	fx_spec spec;
	fx_section s;
	uint8_t *buf;
	size_t len;
	anchors a;
	sbat_diag d;
	static uint8_t sentinel;
	uint8_t *out = &sentinel;
	size_t out_len = 99;

	(void)state;
	fx_spec_init(&spec, FX_BZIMAGE_OLD);
	memset(&s, 0, sizeof(s));
	s.name = ".extra";
	s.raw_size = 0x20;
	/* .text is last and has a large VirtualSize; add sections after it */
	for (;;) {
		build_spec(&spec, &buf, &len);
		get_anchors(buf, len, &a);
		if (a.tend + T_SH_SIZE > 0x1ef)
			break;
		free(buf);
		assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	}
	assert_true(a.tend <= 0x1ef);
	memset(&d, 0, sizeof(d));
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, NULL, 1, a.tend);
	assert_int_equal(edit_buf(buf, len, (const uint8_t *)PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, NULL, &d),
	                 SBAT_E_NO_HEADER_ROOM);
	assert_non_null(d.what);
	if (!strstr(d.what, "0x1ef"))
		fail_msg("message does not name 0x1ef: %s", d.what);
	assert_ptr_equal(out, &sentinel);
	free(buf);
}

static void
test_edit_sbat_too_small(void **state)
{
	fx_spec spec;
	fx_section s;
	uint8_t *buf, *out;
	size_t len, out_len;
	anchors a;
	sbat_edit_report rep;

	(void)state;
	fx_spec_init(&spec, FX_PLAIN);
	memset(&s, 0, sizeof(s));
	s.name = ".sbat";
	s.raw_size = 0x20;
	s.raw_exact = 1;
	s.content = "sbat,1,x";
	assert_int_equal(fx_spec_insert_section(&spec, 1, &s), 0);
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	edit_expect(buf, len, 0, SBAT_E_SBAT_NO_ROOM, NULL, 1, a.table + T_SH_SIZE + T_SH_RAWSIZE);
	free(buf);

	/* the same section, last in file and memory, grows */
	fx_spec_init(&spec, FX_PLAIN);
	assert_int_equal(fx_spec_insert_section(&spec, spec.n_sections, &s), 0);
	build_spec(&spec, &buf, &len);
	edit_ok(buf, len, 0, &rep, &out, &out_len);
	assert_int_equal(rep.action, SBAT_ACTION_GROW);
	free(out);
	free(buf);

	/* a .sbat with no raw data at all */
	fx_spec_init(&spec, FX_PLAIN);
	s.raw_size = 0;
	s.raw_exact = 0;
	s.content = NULL;
	s.virtual_size = 0x100;
	assert_int_equal(fx_spec_insert_section(&spec, 1, &s), 0);
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	edit_expect(buf, len, 0, SBAT_E_SBAT_NO_ROOM, NULL, 1, a.table + T_SH_SIZE + T_SH_RAWSIZE);
	free(buf);
}

/*
 * Debug directory entries with file offsets into the overlay must follow it
 * when the overlay moves. The parser tracks at most SBAT_PE_MAX_DEBUG_ENTRIES;
 * an image with more must not come out with stale pointers: the edit is then
 * refused with want (SBAT_E_PE_FIELD) and want_what, no offset.
 */
static void
check_debug_entries_follow(unsigned n_entries, sbat_err want, const char *want_what)
{
	fx_spec spec;
	uint8_t *buf, *out = NULL;
	size_t len, out_len = 0;
	anchors a;
	uint32_t dir_off, text_va, overlay;
	unsigned i;
	sbat_edit_report rep;
	sbat_diag d;
	sbat_err r;

	fx_spec_init(&spec, FX_PLAIN);
	spec.overlay_len = 0x40;
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	overlay = (uint32_t)(len - 0x40);
	/* the directory sits in .text's raw data (0x1400 bytes, room for 182 entries) */
	dir_off = fx_le32(buf + a.table + T_SH_RAWPTR);
	text_va = fx_le32(buf + a.table + T_SH_VA);
	assert_true(n_entries * T_DEBUG_ENTRY <= fx_le32(buf + a.table + T_SH_RAWSIZE));
	fx_put32(buf + a.dirs + T_DIR_DEBUG, text_va);
	fx_put32(buf + a.dirs + T_DIR_DEBUG + 4, n_entries * T_DEBUG_ENTRY);
	memset(buf + dir_off, 0, (size_t)n_entries * T_DEBUG_ENTRY);
	for (i = 0; i < n_entries; i++) {
		uint8_t *e = buf + dir_off + i * T_DEBUG_ENTRY;

		fx_put32(e + 12, 2);       /* CODEVIEW */
		fx_put32(e + 16, 0x10);    /* SizeOfData */
		fx_put32(e + 24, overlay); /* PointerToRawData */
	}
	memset(&d, 0, sizeof(d));
	r = edit_buf(buf, len, (const uint8_t *)PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, &rep, &d);
	if (r != want)
		fail_msg("%u debug entries: expected %s, got %s (%s)", n_entries, sbat_strerror(want), sbat_strerror(r),
		         d.what ? d.what : "-");
	if (r == SBAT_OK) {
		int stale = -1;
		uint32_t p = 0;

		assert_int_equal(rep.overlay_offset, overlay);
		assert_true(rep.overlay_new_offset > overlay);
		for (i = 0; i < n_entries && stale < 0; i++) {
			p = fx_le32(out + dir_off + i * T_DEBUG_ENTRY + 24);
			if (p != rep.overlay_new_offset)
				stale = (int)i;
		}
		free(out);
		free(buf);
		if (stale >= 0)
			fail_msg("%u debug entries: entry %d PointerToRawData 0x%x still points to the old "
			         "overlay offset, not 0x%llx",
			         n_entries, stale, p, (unsigned long long)rep.overlay_new_offset);
		return;
	}
	/* the refusal, pinned: its code, its message, no offset, no output */
	assert_int_equal(d.code, want);
	assert_non_null(d.what);
	assert_string_equal(d.what, want_what);
	assert_int_equal(d.has_offset, 0);
	assert_null(out);
	free(buf);
}

static void
test_edit_debug_entries_follow_overlay(void **state)
{
	(void)state;
	check_debug_entries_follow(1, SBAT_OK, NULL);
	check_debug_entries_follow(SBAT_PE_MAX_DEBUG_ENTRIES, SBAT_OK, NULL);
}

static void
test_edit_debug_entries_beyond_limit(void **state)
{
	(void)state;
	check_debug_entries_follow(SBAT_PE_MAX_DEBUG_ENTRIES + 1, SBAT_E_PE_FIELD,
	                           "debug directory has more entries than can be relocated (more than 64)");
}

/*
 * Point the image's debug directory (dir[6]) at n entries in .text's raw
 * data, each with this PointerToRawData, AddressOfRawData and SizeOfData.
 * Returns the file offset of the first entry.
 */
static uint64_t
set_debug_entries(uint8_t *buf, size_t len, unsigned n, uint32_t ptr, uint32_t rva, uint32_t size)
{
	anchors a;
	uint32_t dir_off, text_va;
	unsigned i;

	get_anchors(buf, len, &a);
	dir_off = fx_le32(buf + a.table + T_SH_RAWPTR);
	text_va = fx_le32(buf + a.table + T_SH_VA);
	assert_true(n * T_DEBUG_ENTRY <= fx_le32(buf + a.table + T_SH_RAWSIZE));
	fx_put32(buf + a.dirs + T_DIR_DEBUG, text_va);
	fx_put32(buf + a.dirs + T_DIR_DEBUG + 4, n * T_DEBUG_ENTRY);
	memset(buf + dir_off, 0, (size_t)n * T_DEBUG_ENTRY);
	for (i = 0; i < n; i++) {
		uint8_t *e = buf + dir_off + i * T_DEBUG_ENTRY;

		fx_put32(e + 12, 2);    /* CODEVIEW */
		fx_put32(e + 16, size); /* SizeOfData */
		fx_put32(e + 20, rva);  /* AddressOfRawData */
		fx_put32(e + 24, ptr);  /* PointerToRawData */
	}
	return dir_off;
}

/*
 * Debug data the new header would overwrite (arm64 and zboot kernels with
 * CONFIG_DEBUG_EFI keep a CodeView record right after the section table) is
 * refused, in the file or mapped there; debug data elsewhere is not.
 */
static void
test_edit_debug_data_in_slot(void **state)
{
	static const char *const what = "debug data lives right after the section table";
	fx_spec spec;
	uint8_t *buf, *out;
	size_t len, out_len;
	uint64_t e;
	anchors a;
	sbat_edit_report rep;
	sbat_pe *pe = malloc(sizeof(*pe));

	(void)state;
	assert_non_null(pe);
	build_base(B_PLAIN, &buf, &len);
	get_anchors(buf, len, &a);
	/* a CodeView record in the (zero) bytes of the slot: its file offset, no RVA */
	e = set_debug_entries(buf, len, 1, (uint32_t)a.tend + 8, 0, 0x20);
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, what, 1, e + 24);
	/* the record starts before the slot and reaches into it */
	e = set_debug_entries(buf, len, 1, (uint32_t)a.tend - 0x10, 0, 0x11);
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, what, 1, e + 24);
	/* mapped there only: the headers load at their file offsets */
	e = set_debug_entries(buf, len, 1, 0, (uint32_t)a.tend + 32, 8);
	edit_expect(buf, len, 0, SBAT_E_NO_HEADER_ROOM, what, 1, e + 24);
	/* right after the slot, in the file or in memory: untouched */
	set_debug_entries(buf, len, 1, (uint32_t)a.tend + T_SH_SIZE, (uint32_t)a.tend + T_SH_SIZE, 0x20);
	edit_ok(buf, len, 0, &rep, &out, &out_len);
	free(out);
	/* no file data (PointerToRawData 0) and mapped in .text: nothing in the slot, whatever the size */
	set_debug_entries(buf, len, 1, 0, fx_le32(buf + a.table + T_SH_VA) + 0x100, 0x1000);
	edit_ok(buf, len, 0, &rep, &out, &out_len);
	free(out);
	free(buf);

	/*
	 * No slot: section data moves down to make room. A record at the start
	 * of .text's data moves with it, and its file offset follows.
	 */
	fx_spec_init(&spec, FX_PLAIN);
	spec.header_slack = 0;
	build_spec(&spec, &buf, &len);
	get_anchors(buf, len, &a);
	assert_int_equal(fx_le32(buf + a.table + T_SH_RAWPTR), a.tend);
	e = set_debug_entries(buf, len, 1, (uint32_t)a.tend, fx_le32(buf + a.table + T_SH_VA), 0x20);
	edit_ok(buf, len, 0, &rep, &out, &out_len);
	assert_int_not_equal(rep.data_shift, 0);
	assert_int_equal(pe_parse(out, out_len, pe, NULL), SBAT_OK);
	assert_int_equal(pe->debug_count, 1);
	assert_int_equal(pe->debug[0].pointer_to_raw_data, a.tend + rep.data_shift);
	assert_int_equal(pe->debug[0].field_offset, e + 24 + rep.data_shift);
	free(out);
	free(buf);
	free(pe);
}

/* More debug entries than are tracked: refused when data moves, fine when nothing does. */
static void
test_edit_debug_entries_beyond_limit_pinned(void **state)
{
	fx_spec spec;
	uint8_t *buf, *out;
	size_t len, out_len;
	sbat_edit_report rep;
	anchors a;

	(void)state;
	/* the overlay (and the debug data in it) moves behind the new .sbat */
	fx_spec_init(&spec, FX_PLAIN);
	spec.overlay_len = 0x40;
	build_spec(&spec, &buf, &len);
	set_debug_entries(buf, len, SBAT_PE_MAX_DEBUG_ENTRIES + 1, (uint32_t)(len - 0x40), 0, 0x10);
	edit_expect(buf, len, 0, SBAT_E_PE_FIELD,
	            "debug directory has more entries than can be relocated (more than 64)", 0, 0);
	free(buf);

	/* nothing after the section data: the insert appends, no file offset changes */
	build_base(B_PLAIN, &buf, &len);
	get_anchors(buf, len, &a);
	set_debug_entries(buf, len, SBAT_PE_MAX_DEBUG_ENTRIES + 1, fx_le32(buf + a.table + 2 * T_SH_SIZE + T_SH_RAWPTR),
	                  0, 0x10);
	edit_ok(buf, len, 0, &rep, &out, &out_len);
	assert_int_equal(rep.action, SBAT_ACTION_INSERT);
	assert_int_equal(rep.data_shift, 0);
	free(out);
	free(buf);
}

/* Payloads the editor never takes: empty for an insert, any for a removal. */
static void
test_edit_payload_length_refused(void **state)
{
	static uint8_t sentinel;
	sbat_edit_opts rm;
	uint8_t *buf, *out = &sentinel;
	size_t len, out_len = 5;
	sbat_diag d;

	(void)state;
	build_base(B_WITH_SBAT, &buf, &len);
	memset(&d, 0, sizeof(d));
	assert_int_equal(edit_buf(buf, len, (const uint8_t *)PAYLOAD, 0, NULL, &out, &out_len, NULL, &d), SBAT_E_CSV);
	assert_string_equal(d.what, "SBAT payload is empty or too large");
	sbat_edit_opts_init(&rm);
	rm.remove = 1;
	assert_int_equal(edit_buf(buf, len, (const uint8_t *)PAYLOAD, PAYLOAD_LEN, &rm, &out, &out_len, NULL, &d),
	                 SBAT_E_CSV);
	assert_ptr_equal(out, &sentinel);
	assert_int_equal(out_len, 5);
	free(buf);
}

/*
 * An output over 1 GiB could not be read back by sbat-add (the next run
 * must see the same image). The input is a sparse file mapped read-only:
 * planning touches only its headers.
 */
static void
test_edit_output_over_limit(void **state)
{
	char path[] = "/tmp/sbat-malformed-XXXXXX";
	size_t len = SBAT_FILE_MAX_SIZE - 0x100, blen;
	uint8_t *base, *out = NULL;
	size_t out_len;
	sbat_diag d;
	void *map;
	int fd;

	(void)state;
	build_base(B_PLAIN, &base, &blen);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, (off_t)len), 0);
	assert_int_equal(pwrite(fd, base, blen, 0), (ssize_t)blen);
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(map != MAP_FAILED);
	/* the rest of the file is trailing data after the sections: the insert moves it */
	memset(&d, 0, sizeof(d));
	assert_int_equal(edit_buf(map, len, (const uint8_t *)PAYLOAD, PAYLOAD_LEN, NULL, &out, &out_len, NULL, &d),
	                 SBAT_E_TOO_BIG);
	assert_non_null(strstr(d.what, "larger than 1 GiB"));
	assert_null(out);
	munmap(map, len);
	close(fd);
	free(base);
}

/* ---------------------------------------------------------------------------------------- */
/* random pokes */

#define FUZZ_ITERATIONS 2000
#define FUZZ_SEED 0x5ba7add5u

static uint32_t
xorshift32(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

static uint8_t
interesting_byte(uint32_t *s)
{
	static const uint8_t v[] = { 0x00, 0xff, 0x01, 0x7f, 0x80, 0x20, 0x40, 0x02, 0x10, 0xfe };
	uint32_t r = xorshift32(s);

	if (r % 3 == 0)
		return v[(r >> 8) % sizeof(v)];
	return (uint8_t)(r >> 16);
}

static void
test_random_pokes(void **state)
{
	uint32_t seed = FUZZ_SEED, s;
	const char *env = getenv("SBAT_TEST_SEED");
	int b;
	unsigned long ok_edits = 0, failed = 0;

	(void)state;
	if (env && *env)
		seed = (uint32_t)strtoul(env, NULL, 0);
	if (seed == 0)
		seed = 1;
	print_message("random pokes: seed 0x%08x (set SBAT_TEST_SEED to change)\n", seed);
	s = seed;
	for (b = 0; b < B__MAX; b++) {
		uint8_t *base;
		size_t len;
		anchors a;
		uint64_t region;
		unsigned it;
		sbat_pe *pe = malloc(sizeof(*pe));

		assert_non_null(pe);
		build_base(b, &base, &len);
		get_anchors(base, len, &a);
		/* the headers: DOS header, PE header, section table and the slot after it */
		region = a.tend + T_SH_SIZE + 8;
		if (b == B_BZOLD || b == B_BZNEW)
			region = 0x270; /* through the x86 setup header */
		if (region > len)
			region = len;
		for (it = 0; it < FUZZ_ITERATIONS; it++) {
			static uint8_t sentinel;
			uint8_t *img = dup_exact(base, len), *copy, *out = &sentinel;
			size_t out_len = 4242;
			unsigned k, n = 1 + xorshift32(&s) % 4;
			sbat_edit_opts opts;
			sbat_diag d1, d2;
			sbat_err r1, r2;
			sbat_edit_report rep;

			for (k = 0; k < n; k++) {
				uint32_t pos = xorshift32(&s) % (uint32_t)region;

				img[pos] = interesting_byte(&s);
			}
			copy = dup_exact(img, len);
			memset(&d1, 0, sizeof(d1));
			r1 = pe_parse(img, len, pe, &d1);
			if (r1 != SBAT_OK) {
				assert_int_equal(d1.code, r1);
				assert_non_null(d1.what);
			}
			sbat_edit_opts_init(&opts);
			opts.strip_signature = (int)(it & 1);
			memset(&d2, 0, sizeof(d2));
			r2 = edit_buf(img, len, (const uint8_t *)PAYLOAD, PAYLOAD_LEN, &opts, &out, &out_len, &rep,
			              &d2);
			assert_memory_equal(img, copy, len);
			if (r1 != SBAT_OK) {
				/* the editor parses first: the same refusal */
				assert_int_equal(r2, r1);
				assert_string_equal(d2.what, d1.what);
			}
			if (r2 == SBAT_OK) {
				const uint8_t *data;
				size_t data_len;
				sbat_diag d3;

				ok_edits++;
				assert_true(out != &sentinel);
				assert_int_equal(out_len, rep.output_size);
				memset(&d3, 0, sizeof(d3));
				if (pe_parse(out, out_len, pe, &d3) != SBAT_OK)
					fail_msg("%s iteration %u: output does not parse: %s", base_names[b], it,
					         d3.what);
				assert_int_equal(pe->sbat_count, 1);
				assert_int_equal(pe_sbat_data(pe, out, out_len, &data, &data_len, &d3), SBAT_OK);
				assert_int_equal(data_len, PAYLOAD_LEN);
				assert_memory_equal(data, PAYLOAD, PAYLOAD_LEN);
				free(out);
			} else {
				failed++;
				assert_int_equal(d2.code, r2);
				assert_non_null(d2.what);
				assert_ptr_equal(out, &sentinel);
				assert_int_equal(out_len, 4242);
			}
			free(copy);
			free(img);
		}
		free(pe);
		free(base);
	}
	print_message("random pokes: %lu edits succeeded, %lu refused\n", ok_edits, failed);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bases_parse),
		cmocka_unit_test(test_malformed_table),
		cmocka_unit_test(test_malformed_null_diag),
		cmocka_unit_test(test_truncation_every_length),
		cmocka_unit_test(test_edit_bases_ok),
		cmocka_unit_test(test_edit_signed),
		cmocka_unit_test(test_edit_signed_data_after_cert),
		cmocka_unit_test(test_edit_duplicate_sbat),
		cmocka_unit_test(test_edit_no_header_room),
		cmocka_unit_test(test_edit_96_sections),
		cmocka_unit_test(test_edit_slot_in_use),
		cmocka_unit_test(test_edit_bzimage_old_full_table),
		cmocka_unit_test(test_edit_sbat_too_small),
		cmocka_unit_test(test_edit_debug_entries_follow_overlay),
		cmocka_unit_test(test_edit_debug_entries_beyond_limit),
		cmocka_unit_test(test_edit_debug_data_in_slot),
		cmocka_unit_test(test_edit_debug_entries_beyond_limit_pinned),
		cmocka_unit_test(test_edit_payload_length_refused),
		cmocka_unit_test(test_edit_output_over_limit),
		cmocka_unit_test(test_random_pokes),
	};

	return run_group(tests, NULL, NULL);
}
