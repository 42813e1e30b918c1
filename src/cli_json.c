/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* cli_json.c - the machine-readable form of --print: sections, SBAT rows and layout */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

/* A JSON string; bytes outside printable ASCII become \u00XX so any input stays valid JSON. */
static void
json_string(FILE *out, const char *s, size_t n)
{
	size_t i;

	fputc('"', out);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void
json_cstr(FILE *out, const char *s)
{
	json_string(out, s, strlen(s));
}

/* Bytes free after the section table before section data, a VA, SizeOfHeaders or a bzImage setup header. */
static uint64_t
header_room(const sbat_pe *pe)
{
	uint64_t limit = pe->size_of_headers;

	if (pe->lowest_raw_pointer < limit)
		limit = pe->lowest_raw_pointer;
	if (pe->lowest_virtual_address < limit)
		limit = pe->lowest_virtual_address;
	if (pe->kind == SBAT_KIND_BZIMAGE && limit > 0x1ef)
		limit = 0x1ef;
	return limit > pe->section_table_end ? limit - pe->section_table_end : 0;
}

static void
print_sections(FILE *out, const sbat_pe *pe)
{
	unsigned i;

	fputs("  \"sections\": [\n", out);
	for (i = 0; i < pe->number_of_sections; i++) {
		const sbat_pe_section *s = &pe->sections[i];

		fprintf(out, "    {\"index\": %u, \"name\": ", i);
		json_string(out, s->name, strnlen(s->name, 8));
		fprintf(out, ", \"virtual_address\": %" PRIu32 ", \"virtual_size\": %" PRIu32
		        ", \"pointer_to_raw_data\": %" PRIu32 ", \"size_of_raw_data\": %" PRIu32
		        ", \"characteristics\": %" PRIu32 "}%s\n", s->virtual_address, s->virtual_size,
		        s->pointer_to_raw_data, s->size_of_raw_data, s->characteristics,
		        i + 1 < pe->number_of_sections ? "," : "");
	}
	fputs("  ],\n", out);
}

static void
print_sbat(FILE *out, const sbat_pe *pe, const uint8_t *data, size_t len)
{
	const uint8_t *text;
	size_t n, i;
	sbat_csv *csv = NULL;
	sbat_diag d;

	if (sbat_pe_sbat_data(pe, data, len, &text, &n, &d) != SBAT_OK) {
		fputs("  \"sbat\": null", out);
		if (d.code == SBAT_E_SBAT_DUPLICATE)
			fputs(",\n  \"sbat_error\": \"more than one .sbat section\"", out);
		fputc('\n', out);
		return;
	}
	fprintf(out, "  \"sbat\": {\n    \"section\": %d,\n    \"text\": ", pe->sbat_index);
	json_string(out, (const char *)text, n);
	if (sbat_csv_parse(text, n, &csv, &d) != SBAT_OK) {
		fputs(",\n    \"valid\": false,\n    \"error\": {\"what\": ", out);
		json_cstr(out, d.what ? d.what : sbat_strerror(d.code));
		fprintf(out, ", \"line\": %u, \"field\": %u}\n  }\n", d.line, d.field);
		return;
	}
	fputs(",\n    \"valid\": true,\n    \"entries\": [\n", out);
	for (i = 0; i < csv->n_entries; i++) {
		const sbat_csv_entry *e = &csv->entries[i];

		fputs("      {\"component_name\": ", out);
		json_cstr(out, e->component_name);
		fprintf(out, ", \"component_generation\": %u, \"vendor_name\": ", (unsigned)e->generation);
		json_cstr(out, e->vendor_name);
		fputs(", \"vendor_package_name\": ", out);
		json_cstr(out, e->vendor_package_name);
		fputs(", \"vendor_version\": ", out);
		json_cstr(out, e->vendor_version);
		fputs(", \"vendor_url\": ", out);
		json_cstr(out, e->vendor_url);
		fprintf(out, "}%s\n", i + 1 < csv->n_entries ? "," : "");
	}
	fputs("    ]\n  }\n", out);
	sbat_csv_free(csv);
}

void
cli_print_json(FILE *out, const char *file, const sbat_pe *pe, const uint8_t *data, size_t len)
{
	fputs("{\n  \"file\": ", out);
	json_cstr(out, file);
	fputs(",\n  \"kind\": ", out);
	json_cstr(out, sbat_pe_kind_name(pe->kind));
	fprintf(out, ",\n  \"format\": \"%s\",\n  \"machine\": ", pe->magic == 0x20b ? "PE32+" : "PE32");
	json_cstr(out, sbat_pe_machine_name(pe->machine));
	fprintf(out, ",\n  \"machine_type\": %u,\n  \"file_size\": %" PRIu64 ",\n  \"file_alignment\": %" PRIu32
	        ",\n  \"section_alignment\": %" PRIu32 ",\n  \"size_of_headers\": %" PRIu32
	        ",\n  \"size_of_image\": %" PRIu32 ",\n  \"checksum\": %" PRIu32
	        ",\n  \"section_table_offset\": %" PRIu64 ",\n  \"section_table_end\": %" PRIu64
	        ",\n  \"header_room\": %" PRIu64 ",\n  \"raw_end\": %" PRIu64
	        ",\n  \"overlay\": {\"offset\": %" PRIu64 ", \"size\": %" PRIu64 "}"
	        ",\n  \"certificate_table\": %s",
	        pe->machine, pe->file_size, pe->file_alignment, pe->section_alignment, pe->size_of_headers,
	        pe->size_of_image, pe->checksum, pe->section_table_offset, pe->section_table_end,
	        header_room(pe), pe->raw_end, pe->raw_end, pe->data_end - pe->raw_end, pe->cert_size ? "{" : "null");
	if (pe->cert_size)
		fprintf(out, "\"offset\": %" PRIu32 ", \"size\": %" PRIu32 "}", pe->cert_offset, pe->cert_size);
	fputs(",\n", out);
	print_sections(out, pe);
	print_sbat(out, pe, data, len);
	fputs("}\n", out);
}
