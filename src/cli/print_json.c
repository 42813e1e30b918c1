/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* print_json.c - the machine-readable form of --print: headers, sections, SBAT rows, layout, UKI and signatures */
#include <inttypes.h>
#include <string.h>

#include "sbat/csv.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/uki.h"
#include "sbat/walk.h"

#include "json.h"
#include "print_json.h"
#include "sigs.h"

static void
print_sections(FILE *out, const sbat_image *img)
{
	unsigned i, n = sbat_image_get_info(img)->number_of_sections;

	fputs("  \"sections\": [\n", out);
	for (i = 0; i < n; i++) {
		const sbat_section_info *s = sbat_image_section(img, i);

		fprintf(out, "    {\"index\": %u, \"name\": ", i);
		cli_json_string(out, s->name, strnlen(s->name, 8));
		fprintf(out,
		        ", \"virtual_address\": %" PRIu32 ", \"virtual_size\": %" PRIu32
		        ", \"pointer_to_raw_data\": %" PRIu32 ", \"size_of_raw_data\": %" PRIu32
		        ", \"characteristics\": %" PRIu32 "}%s\n",
		        s->virtual_address, s->virtual_size, s->pointer_to_raw_data, s->size_of_raw_data,
		        s->characteristics, i + 1 < n ? "," : "");
	}
	fputs("  ],\n", out);
}

static void
print_sbat(FILE *out, const sbat_image *img)
{
	const uint8_t *text;
	size_t n, i;
	sbat_csv *csv = NULL;
	sbat_diag d;

	if (sbat_image_sbat_data(img, &text, &n, &d) != SBAT_OK) {
		fputs("  \"sbat\": null", out);
		if (d.code == SBAT_E_SBAT_DUPLICATE)
			fputs(",\n  \"sbat_error\": \"more than one .sbat section\"", out);
		fputc('\n', out);
		return;
	}
	fprintf(out, "  \"sbat\": {\n    \"section\": %d,\n    \"size\": %zu,\n    \"text\": ",
	        sbat_image_get_info(img)->sbat_index, n);
	cli_json_string(out, (const char *)text, n);
	if (sbat_csv_parse(text, n, &csv, &d) != SBAT_OK) {
		fputs(",\n    \"valid\": false,\n    \"error\": {\"what\": ", out);
		cli_json_cstr(out, d.what ? d.what : sbat_strerror(d.code));
		fprintf(out, ", \"line\": %u, \"field\": %u}\n  }\n", d.line, d.field);
		return;
	}
	fputs(",\n    \"valid\": true,\n    \"entries\": [\n", out);
	for (i = 0; i < csv->n_entries; i++) {
		const sbat_csv_entry *e = &csv->entries[i];

		fputs("      {\"component_name\": ", out);
		cli_json_cstr(out, e->component_name);
		fprintf(out, ", \"component_generation\": %u, \"vendor_name\": ", (unsigned)e->generation);
		cli_json_cstr(out, e->vendor_name);
		fputs(", \"vendor_package_name\": ", out);
		cli_json_cstr(out, e->vendor_package_name);
		fputs(", \"vendor_version\": ", out);
		cli_json_cstr(out, e->vendor_version);
		fputs(", \"vendor_url\": ", out);
		cli_json_cstr(out, e->vendor_url);
		fprintf(out, "}%s\n", i + 1 < csv->n_entries ? "," : "");
	}
	fputs("    ]\n  }\n", out);
	sbat_csv_free(csv);
}

/* A profile's (-1: the default boot's) measured sections, as a JSON array. */
static void
print_measured(FILE *out, const sbat_uki *uki, int profile)
{
	unsigned i, n = sbat_uki_measured_count(uki, profile);

	fputc('[', out);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", out);
		cli_json_cstr(out, sbat_uki_measured_name(uki, profile, i));
	}
	fputc(']', out);
}

/* Alternative alt's values: {"sha256": {"stub": HEX, "enter-initrd": HEX, ...}} */
static void
print_pcr11_alt(FILE *out, const sbat_uki *uki, int profile, unsigned alt)
{
	unsigned ph;

	fputs("{\"sha256\": {", out);
	for (ph = 0; ph < SBAT_UKI_PHASES; ph++) {
		fprintf(out, "%s\"%s\": ", ph ? ", " : "", sbat_uki_phase_name(ph));
		cli_json_hex(out, sbat_uki_pcr11_alternative(uki, profile, alt, ph), SBAT_UKI_DIGEST_SIZE);
	}
	fputs("}}", out);
}

/*
 * The value of "pcr11": the values when the image alone decides them;
 * else null, then "pcr11_alternatives": per combination of sections the
 * machine can select, {"selects": {".dtbauto": INDEX|null, ".efifw":
 * INDEX|null}, "hwids": {".dtbauto": NAME|null, ".efifw": NAME|null} (the
 * .hwids entries that select them), "signed": true|false|null (whether
 * .pcrsig signs it; null without one that signs PCR 11), "pcr11": {...}}.
 * indent: that of the enclosing object's keys.
 */
static void
print_pcr11(FILE *out, const sbat_uki *uki, int profile, const char *indent)
{
	static const char *const selected[] = { ".dtbauto", ".efifw" };
	unsigned a, j, n = sbat_uki_pcr11_alternatives(uki, profile);

	if (n == 1) {
		print_pcr11_alt(out, uki, profile, 0);
		return;
	}
	fputs("null,\n", out);
	fprintf(out, "%s\"pcr11_alternatives\": [", indent);
	for (a = 0; a < n; a++) {
		fprintf(out, "%s\n%s  {\"selects\": {", a ? "," : "", indent);
		for (j = 0; j < 2; j++) {
			int s = sbat_uki_alternative_section(uki, profile, a, selected[j]);

			fprintf(out, s < 0 ? "%s\"%s\": null" : "%s\"%s\": %d", j ? ", " : "", selected[j], s);
		}
		fputs("}, \"hwids\": {", out);
		for (j = 0; j < 2; j++) {
			const char *h = sbat_uki_alternative_hwid(uki, profile, a, selected[j]);

			fprintf(out, "%s\"%s\": ", j ? ", " : "", selected[j]);
			if (h)
				cli_json_cstr(out, h);
			else
				fputs("null", out);
		}
		j = (unsigned)(sbat_uki_alternative_signed(uki, profile, a) + 1);
		fprintf(out, "}, \"signed\": %s, \"pcr11\": ", j == 0 ? "null" : j == 2 ? "true" : "false");
		print_pcr11_alt(out, uki, profile, a);
		fputc('}', out);
	}
	fprintf(out, "\n%s]", indent);
}

static void
print_profiles(FILE *out, const sbat_uki *uki, int predicted)
{
	unsigned p, n = sbat_uki_profile_count(uki);

	if (!n)
		return;
	fputs(",\n    \"profiles\": [", out);
	for (p = 0; p < n; p++) {
		fprintf(out, "%s\n      {\"index\": %u, \"measured_sections\": ", p ? "," : "", p);
		print_measured(out, uki, (int)p);
		fputs(", \"pcr11\": ", out);
		if (predicted)
			print_pcr11(out, uki, (int)p, "       ");
		else
			fputs("null", out);
		fputc('}', out);
	}
	fputs("\n    ]", out);
}

/*
 * "uki": the stub, what it measures and the PCR 11 values it and the boot
 * phases will produce; absent for an image that is not a UKI (uki NULL).
 * d: the prediction's failure, SBAT_OK when it was made.
 */
static void
print_uki(FILE *out, const sbat_image *img, const sbat_uki *uki, const sbat_diag *dp)
{
	sbat_diag d = *dp;
	int predicted = d.code == SBAT_OK;

	if (!uki)
		return;
	fputs("  \"uki\": {\n    \"stub\": \"systemd-stub\",\n    \"stub_version\": ", out);
	if (sbat_uki_stub_version(uki))
		cli_json_cstr(out, sbat_uki_stub_version(uki));
	else
		fputs("null", out);
	fputs(",\n    \"measured_sections\": ", out);
	print_measured(out, uki, -1);
	fputs(",\n    \"pcr11\": ", out);
	if (predicted) {
		print_pcr11(out, uki, -1, "    ");
	} else {
		fputs("null,\n    \"error\": {\"what\": ", out);
		cli_json_cstr(out, d.what ? d.what : sbat_strerror(d.code));
		fprintf(out, ", \"offset\": %" PRIu64 "}", d.offset);
	}
	print_profiles(out, uki, predicted);
	fprintf(out, ",\n    \"pcrsig\": %s,\n    \"pcrpkey\": %s\n  },\n",
	        sbat_image_find_section(img, ".pcrsig") >= 0 ? "true" : "false",
	        sbat_image_find_section(img, ".pcrpkey") >= 0 ? "true" : "false");
}

/*
 * "uki" and the signatures: the UKI's PCR 11 and the Authenticode hash from
 * one read of the image. fd: the image's file, read through a small buffer
 * (-1: its mapping).
 */
static void
print_digests(FILE *out, const sbat_image *img, int fd)
{
	sbat_uki *uki = NULL;
	sbat_authenticode *a = NULL;
	sbat_diag ud, ad;

	if (sbat_uki_inspect(img, &uki, &ud) != SBAT_OK)
		uki = NULL;
	memset(&ud, 0, sizeof(ud));
	sbat_walk_image_digests(img, fd, uki, &a, &ud, &ad);
	print_uki(out, img, uki, &ud);
	cli_print_signatures_json(out, img, a, &ad);
	sbat_authenticode_free(a);
	sbat_uki_free(uki);
}

void
cli_print_json(FILE *out, const char *file, const sbat_image *img, int fd)
{
	const sbat_image_info *i = sbat_image_get_info(img);

	fputs("{\n  \"schema\": 1,\n  \"file\": ", out);
	cli_json_cstr(out, file);
	fputs(",\n  \"kind\": ", out);
	cli_json_cstr(out, sbat_pe_kind_name(i->kind));
	fprintf(out, ",\n  \"format\": \"%s\",\n  \"machine\": ", sbat_pe_format_name(i->magic));
	cli_json_cstr(out, sbat_pe_machine_name(i->machine));
	fprintf(out,
	        ",\n  \"machine_type\": %u,\n  \"file_size\": %" PRIu64 ",\n  \"file_alignment\": %" PRIu32
	        ",\n  \"section_alignment\": %" PRIu32 ",\n  \"size_of_headers\": %" PRIu32
	        ",\n  \"size_of_image\": %" PRIu32 ",\n  \"checksum\": %" PRIu32
	        ",\n  \"section_table_offset\": %" PRIu64 ",\n  \"section_table_end\": %" PRIu64
	        ",\n  \"header_room\": %" PRIu64 ",\n  \"raw_end\": %" PRIu64 ",\n  \"overlay\": {\"offset\": %" PRIu64
	        ", \"size\": %" PRIu64 "}"
	        ",\n  \"certificate_table\": %s",
	        i->machine, i->file_size, i->file_alignment, i->section_alignment, i->size_of_headers, i->size_of_image,
	        i->checksum, i->section_table_offset, i->section_table_end, i->header_room, i->raw_end, i->raw_end,
	        i->data_end - i->raw_end, i->cert_size ? "{" : "null");
	if (i->cert_size)
		fprintf(out, "\"offset\": %" PRIu32 ", \"size\": %" PRIu32 "}", i->cert_offset, i->cert_size);
	fputs(",\n", out);
	print_digests(out, img, fd);
	print_sections(out, img);
	print_sbat(out, img);
	fputs("}\n", out);
}
