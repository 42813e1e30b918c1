/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint.c - the loader and signing-tool rules an image breaks, whoever made it */
#include <string.h>

#include "sbat/csv.h"
#include "sbat/lint.h"

#include "util/ckd.h"
#include "util/diag.h"
#include "pe/image_internal.h"
#include "pe/layout.h"
#include "uki/lint_uki.h"
#include "sbat/lint_internal.h"

void
lint_report(linter *l, const sbat_lint_finding *f, const sbat_lint_subject *subject)
{
	sbat_lint_subject none;

	if (l->stopped)
		return;
	if (f->severity == SBAT_LINT_ERROR)
		l->counts.errors++;
	else if (f->severity == SBAT_LINT_WARNING)
		l->counts.warnings++;
	else
		l->counts.notes++;
	if (l->sfn && !subject) {
		memset(&none, 0, sizeof(none));
		none.size = sizeof(none);
		subject = &none;
	}
	if (l->sfn ? l->sfn(l->ctx, f, subject) != 0 : l->fn && l->fn(l->ctx, f) != 0)
		l->stopped = 1;
}

static void
report(linter *l, sbat_lint_severity severity, const char *rule, const char *what, int section, uint64_t offset,
       unsigned loaders)
{
	sbat_lint_finding f;

	f.severity = severity;
	f.rule = rule;
	f.what = what;
	f.section = section;
	f.offset = offset;
	f.loaders = loaders;
	lint_report(l, &f, NULL);
}

static int
is_kernel(const sbat_pe *pe)
{
	return pe->kind != SBAT_KIND_EFI_APP;
}

/* Header fields: relocations, SizeOfHeaders against SizeOfImage, the signature, the CheckSum. */
static void
lint_headers(linter *l)
{
	const sbat_pe *pe = l->pe;

	/* shim's read_header: "Unsupported image - Relocations have been stripped" */
	if (pe->file_characteristics & IMAGE_FILE_RELOCS_STRIPPED)
		report(l, SBAT_LINT_ERROR, "relocs-stripped",
		       "COFF Characteristics say relocations were stripped; "
		       "shim refuses such an image",
		       -1, pe->pe_offset + PE_SIGNATURE_SIZE + COFF_CHARACTERISTICS, SBAT_LOADER_SHIM);
	/* EDK2 PeCoffLoaderGetPeHeader and shim read_header */
	if (pe->size_of_headers >= pe->size_of_image)
		report(l, SBAT_LINT_ERROR, "headers-fill-image", "SizeOfHeaders is not below SizeOfImage", -1,
		       pe->off_size_of_headers, SBAT_LOADER_SHIM | SBAT_LOADER_EDK2);
	if (pe->size_of_image % pe->section_alignment != 0)
		report(l, pe->kind == SBAT_KIND_ZBOOT ? SBAT_LINT_NOTE : SBAT_LINT_WARNING, "size-of-image-unaligned",
		       pe->kind == SBAT_KIND_ZBOOT ? "SizeOfImage is not a multiple of SectionAlignment (as the "
		                                     "EFI zboot linker script makes it)" :
		                                     "SizeOfImage is not a multiple of SectionAlignment",
		       -1, pe->off_size_of_image, SBAT_LOADER_STRICT);
	if (pe->cert_size != 0) {
		report(l, SBAT_LINT_NOTE, "signed", "the image is signed: any change to it invalidates the signature",
		       -1, pe->off_cert_dir, SBAT_LOADER_SIGNING);
		if ((uint64_t)pe->cert_offset + pe->cert_size != pe->file_size)
			report(l, SBAT_LINT_WARNING, "data-after-signature",
			       "data follows the certificate table: "
			       "the signature does not cover it",
			       -1, pe->off_cert_dir, SBAT_LOADER_SHIM | SBAT_LOADER_SIGNING);
	}
	if (pe->checksum != 0 && pe->checksum != sbat_pe_checksum(l->buf, l->len, pe->off_checksum))
		report(l, SBAT_LINT_WARNING, "checksum-stale", "CheckSum is neither 0 nor the image's checksum", -1,
		       pe->off_checksum, SBAT_LOADER_SIGNING);
}

/* A kernel whose boot-protocol header was overwritten no longer boots through GRUB's linux command. */
static void
lint_kernel_headers(linter *l)
{
	const sbat_pe *pe = l->pe;
	int setup = pe_find_section(pe, l->buf, l->len, ".setup") >= 0;

	if (pe_is_x86(pe) && pe->kind != SBAT_KIND_BZIMAGE && (setup || pe->linux_pe_magic))
		report(l, SBAT_LINT_ERROR, "bzimage-setup-header-lost",
		       "an x86 Linux kernel without its boot "
		       "protocol header (\"HdrS\" at 0x202, 0xAA55 at 0x1fe): something rewrote the headers",
		       -1, BZ_HEADER_MAGIC, SBAT_LOADER_GRUB_LINUX);
	if (pe->kind == SBAT_KIND_BZIMAGE && pe->section_table_end > BZ_HEADER_ROOM_LIMIT)
		report(l, SBAT_LINT_ERROR, "bzimage-table-in-setup-header",
		       "the section table reaches into the "
		       "bzImage setup header at 0x1ef",
		       -1, pe->section_table_offset, SBAT_LOADER_GRUB_LINUX);
}

/* Where a section lies against the headers and SizeOfImage (shim's handle_image, EDK2's loader). */
static void
lint_section_place(linter *l, unsigned i)
{
	const sbat_pe *pe = l->pe;
	const sbat_pe_section *s = &pe->sections[i];
	uint64_t h = s->header_offset;
	int discardable = (s->characteristics & IMAGE_SCN_MEM_DISCARDABLE) != 0;
	int uninit = (s->characteristics & IMAGE_SCN_CNT_UNINITIALIZED_DATA) != 0;
	unsigned who = 0;

	if (!uninit && !discardable &&
	    (s->virtual_address < pe->size_of_headers || s->pointer_to_raw_data < pe->size_of_headers))
		who |= SBAT_LOADER_SHIM;
	if (s->size_of_raw_data > 0 &&
	    (s->virtual_address < pe->size_of_headers || s->pointer_to_raw_data < pe->size_of_headers))
		who |= SBAT_LOADER_EDK2;
	if (who)
		report(l, SBAT_LINT_ERROR, "section-in-headers",
		       "the section lies inside the image headers "
		       "(VirtualAddress or PointerToRawData below SizeOfHeaders)",
		       (int)i, h + SH_VIRTUAL_ADDRESS, who);
	if (!discardable && s->virtual_size == 0 && s->size_of_raw_data != 0)
		report(l, SBAT_LINT_ERROR, "section-zero-size", "VirtualSize is 0; shim computes a negative size",
		       (int)i, h + SH_VIRTUAL_SIZE, SBAT_LOADER_SHIM);
	if ((uint64_t)s->virtual_address + pe_section_memory_size(s) > pe->size_of_image)
		report(l, SBAT_LINT_ERROR, "section-outside-image", "the section ends beyond SizeOfImage", (int)i,
		       h + SH_VIRTUAL_SIZE,
		       SBAT_LOADER_EDK2 | (discardable ? 0 : SBAT_LOADER_SHIM) | SBAT_LOADER_SYSTEMD_STUB);
	/* shim 16.1 only warns about an unaligned .sbat and loads the image (rEFInd's boots) */
	if (s->virtual_address % pe->section_alignment != 0)
		report(l, SBAT_LINT_WARNING, "va-unaligned", "VirtualAddress is not a multiple of SectionAlignment",
		       (int)i, h + SH_VIRTUAL_ADDRESS,
		       ((int)i == pe->sbat_index ? 0 : SBAT_LOADER_SHIM) | SBAT_LOADER_STRICT);
	if (s->size_of_raw_data &&
	    (s->pointer_to_raw_data % pe->file_alignment != 0 || s->size_of_raw_data % pe->file_alignment != 0))
		report(l, SBAT_LINT_WARNING, "raw-unaligned",
		       "PointerToRawData or SizeOfRawData is not a multiple "
		       "of FileAlignment",
		       (int)i, h + SH_POINTER_TO_RAW_DATA, SBAT_LOADER_STRICT | SBAT_LOADER_SIGNING);
}

/* Section flags and what systemd-stub demands of an inner kernel. */
static void
lint_section_flags(linter *l, unsigned i)
{
	const sbat_pe *pe = l->pe;
	const sbat_pe_section *s = &pe->sections[i];
	uint64_t h = s->header_offset;

	if ((s->characteristics & (IMAGE_SCN_MEM_WRITE | IMAGE_SCN_MEM_EXECUTE)) ==
	    (IMAGE_SCN_MEM_WRITE | IMAGE_SCN_MEM_EXECUTE))
		report(l, SBAT_LINT_WARNING, "section-write-execute",
		       "the section is both writable and executable "
		       "(shim's NX policy and the Microsoft UEFI CA refuse it)",
		       (int)i, h + SH_CHARACTERISTICS, SBAT_LOADER_SHIM);
	if (!is_kernel(pe))
		return;
	if (s->pointer_to_relocations != 0)
		report(l, SBAT_LINT_ERROR, "kernel-section-relocations",
		       "a kernel section has PointerToRelocations "
		       "set",
		       (int)i, h + SH_POINTER_TO_RELOCATIONS, SBAT_LOADER_SYSTEMD_STUB);
	if (s->virtual_size != 0 && s->size_of_raw_data > s->virtual_size)
		report(l, SBAT_LINT_ERROR, "kernel-raw-above-virtual",
		       "a kernel section's SizeOfRawData exceeds its "
		       "VirtualSize",
		       (int)i, h + SH_SIZE_OF_RAW_DATA, SBAT_LOADER_SYSTEMD_STUB);
}

/* Raw ranges in the file: overlapping ones are hashed twice; gaps make sbsign warn. */
static void
lint_raw_ranges(linter *l)
{
	const sbat_pe *pe = l->pe;
	uint64_t expect = pe->size_of_headers;
	unsigned i, j;

	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		if (!s->size_of_raw_data)
			continue;
		for (j = i + 1; j < pe->number_of_sections; j++) {
			const sbat_pe_section *o = &pe->sections[j];

			if (o->size_of_raw_data &&
			    s->pointer_to_raw_data < (uint64_t)o->pointer_to_raw_data + o->size_of_raw_data &&
			    o->pointer_to_raw_data < (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data)
				report(l, SBAT_LINT_WARNING, "raw-overlap",
				       "the section's raw data overlaps a later "
				       "section's",
				       (int)i, s->header_offset + SH_POINTER_TO_RAW_DATA,
				       SBAT_LOADER_SIGNING | SBAT_LOADER_SHIM);
		}
		if (s->pointer_to_raw_data != expect)
			report(l, SBAT_LINT_NOTE, "raw-gap",
			       "the section's raw data does not start where the "
			       "previous one's ends",
			       (int)i, s->header_offset + SH_POINTER_TO_RAW_DATA, SBAT_LOADER_SIGNING);
		expect = (uint64_t)s->pointer_to_raw_data + s->size_of_raw_data;
	}
}

/* Strict loaders: each VA is the aligned end of the one before, in table order. */
static void
lint_va_chain(linter *l)
{
	const sbat_pe *pe = l->pe;
	uint64_t expect;
	unsigned i;

	if (ckd_align_u64(&expect, pe->size_of_headers, pe->section_alignment))
		return;
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		/* each gap or overlap is told; the next section is judged against this one's end */
		if (s->virtual_address != expect)
			report(l, SBAT_LINT_WARNING, "va-not-adjacent",
			       "VirtualAddress is not the aligned end of the "
			       "previous section (strict loaders refuse gaps and overlaps in memory)",
			       (int)i, s->header_offset + SH_VIRTUAL_ADDRESS, SBAT_LOADER_STRICT);
		if (ckd_align_u64(&expect, (uint64_t)s->virtual_address + pe_section_memory_size(s),
		                  pe->section_alignment))
			return;
	}
}

/*
 * The rows by the one table of CSV rules: what shim's parser refuses is an
 * error, the format's other rules a warning. shim never parses a .sbat it
 * ignores, so then only the format's rules are told.
 */
static void
lint_sbat_rows(linter *l, const uint8_t *data, size_t n)
{
	const sbat_pe *pe = l->pe;
	const sbat_pe_section *s = &pe->sections[pe->sbat_index];
	sbat_csv *csv = NULL;
	int shim_refuses = 0;

	if (!pe->sbat_ignored) {
		shim_refuses = sbat_csv_parse_shim(data, n, &csv, NULL) != SBAT_OK;
		csv = sbat_csv_free(csv);
	}
	if (shim_refuses)
		report(l, SBAT_LINT_ERROR, "sbat-unparsable",
		       "shim cannot parse the .sbat CSV (a row with fewer "
		       "than 6 fields or an empty one) and refuses the image",
		       pe->sbat_index, s->pointer_to_raw_data, SBAT_LOADER_SHIM);
	else if (sbat_csv_parse(data, n, &csv, NULL) != SBAT_OK)
		report(l, SBAT_LINT_WARNING, "sbat-invalid",
		       "the .sbat CSV breaks a rule of the format that shim "
		       "itself does not check (header row, generations, printable ASCII, duplicates)",
		       pe->sbat_index, s->pointer_to_raw_data, SBAT_LOADER_SHIM);
	sbat_csv_free(csv);
}

/* The .sbat as shim finds it: one section, no relocations, read by SizeOfRawData, parsed. */
static void
lint_sbat_section(linter *l)
{
	const sbat_pe *pe = l->pe;
	const sbat_pe_section *s = &pe->sections[pe->sbat_index];
	uint64_t h = s->header_offset;
	size_t n;
	const uint8_t *data = pe_section_raw(pe, l->buf, l->len, (unsigned)pe->sbat_index, &n), *nul;
	int i = pe->sbat_index;

	if (s->pointer_to_relocations != 0 || s->number_of_relocations != 0)
		report(l, SBAT_LINT_ERROR, "sbat-relocations", ".sbat has relocations", i,
		       h + SH_POINTER_TO_RELOCATIONS, SBAT_LOADER_SHIM);
	if (pe->sbat_ignored) {
		report(l, SBAT_LINT_ERROR, "sbat-ignored",
		       "SizeOfRawData is 0 or below VirtualSize, so shim takes "
		       "the image for one without .sbat",
		       i, h + SH_SIZE_OF_RAW_DATA, SBAT_LOADER_SHIM);
		/* the rows still matter: they are what shim meets once the sizes are fixed */
	}
	if (!data || n == 0)
		return;
	nul = memchr(data, '\0', n);
	if (!nul)
		report(l, SBAT_LINT_WARNING, "sbat-not-terminated",
		       ".sbat has no NUL byte after the CSV within "
		       "SizeOfRawData",
		       i, h + SH_SIZE_OF_RAW_DATA, SBAT_LOADER_SHIM);
	n = nul ? (size_t)(nul - data) : n;
	if (s->virtual_size < n)
		report(l, SBAT_LINT_WARNING, "sbat-virtual-size-short",
		       "VirtualSize is shorter than the CSV "
		       "(shim 15.3 to 15.5 read .sbat by VirtualSize from memory)",
		       i, h + SH_VIRTUAL_SIZE, SBAT_LOADER_SHIM);
	if ((s->characteristics & IMAGE_SCN_MEM_DISCARDABLE) && !is_kernel(pe))
		report(l, SBAT_LINT_WARNING, "sbat-discardable",
		       ".sbat is DISCARDABLE: shim 15.3 to 15.5 parse it "
		       "from memory they never filled when they start the image",
		       i, h + SH_CHARACTERISTICS, SBAT_LOADER_SHIM);
	lint_sbat_rows(l, data, n);
}

static void
lint_sbat(linter *l)
{
	const sbat_pe *pe = l->pe;

	if (pe->sbat_count > 1) {
		report(l, SBAT_LINT_ERROR, "sbat-duplicate", "more than one .sbat section; shim refuses the image",
		       pe->sbat_index, pe->sections[pe->sbat_index].header_offset, SBAT_LOADER_SHIM);
		return;
	}
	if (pe->sbat_count == 0) {
		report(l, is_kernel(pe) ? SBAT_LINT_NOTE : SBAT_LINT_WARNING, "sbat-missing",
		       is_kernel(pe) ?
		           "no .sbat: GRUB and systemd-boot load the kernel through shim's protocol without it, "
		           "but shim refuses it when it starts it itself under an SbatLevel" :
		           "no .sbat: shim refuses the image when it starts it under an SbatLevel",
		       -1, pe->section_table_offset, SBAT_LOADER_SHIM);
		return;
	}
	lint_sbat_section(l);
}

/* A UKI finding, through the one reporting path. */
static void
report_uki(void *ctx, sbat_lint_severity severity, const char *rule, const char *what, int section, uint64_t offset,
           unsigned loaders)
{
	report(ctx, severity, rule, what, section, offset, loaders);
}

void
lint_loader_rules(linter *l)
{
	unsigned i;

	lint_headers(l);
	lint_kernel_headers(l);
	for (i = 0; i < l->pe->number_of_sections; i++) {
		lint_section_place(l, i);
		lint_section_flags(l, i);
	}
	lint_raw_ranges(l);
	lint_va_chain(l);
	lint_sbat(l);
	lint_uki(l->pe, l->buf, l->len, report_uki, l);
}

void
lint_start(linter *l, const sbat_image *img, void *ctx)
{
	memset(l, 0, sizeof(*l));
	l->pe = &img->pe;
	l->buf = img->buf;
	l->len = img->len;
	l->ctx = ctx;
}

sbat_err
sbat_lint(const sbat_image *img, sbat_lint_fn fn, void *ctx, sbat_lint_counts *ret_counts)
{
	linter l;

	lint_start(&l, img, ctx);
	l.fn = fn;
	lint_loader_rules(&l);
	if (ret_counts)
		*ret_counts = l.counts;
	return SBAT_OK;
}

const char *
sbat_lint_loader_name(unsigned loader)
{
	switch (loader) {
	case SBAT_LOADER_SHIM: return "shim";
	case SBAT_LOADER_EDK2: return "edk2";
	case SBAT_LOADER_GRUB_LINUX: return "grub-linux";
	case SBAT_LOADER_STRICT: return "strict-pe";
	case SBAT_LOADER_SYSTEMD_STUB: return "systemd-stub";
	case SBAT_LOADER_SIGNING: return "signing";
	case SBAT_LOADER_TPM: return "tpm-unlock";
	case SBAT_LOADER_UEFI_CA: return "uefi-ca";
	case SBAT_LOADER_SHIM_REVIEW: return "shim-review";
	}
	return NULL;
}

const char *
sbat_lint_severity_name(sbat_lint_severity severity)
{
	switch (severity) {
	case SBAT_LINT_NOTE: return "note";
	case SBAT_LINT_WARNING: return "warning";
	case SBAT_LINT_ERROR: return "error";
	}
	return "unknown";
}
