// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright 2026 The sbat-add authors
//
// sbat-edit.cc - the library from C++: map an image, put a .sbat into it in
// memory with default options and check that the result reads back.
//
//   c++ sbat-edit.cc $(pkg-config --cflags --libs sbat) -o sbat-edit
//   ./sbat-edit IMAGE
//
// Prints the action taken and the rows of the new .sbat. Exit status: 0, 1
// on any failure.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <sbat/sbat.h>

namespace {

const char csv_text[] = SBAT_CSV_HEADER_ROW "\n"
                        "example,1,The sbat-add authors,example,1.0,https://example.org\n";

int
fail(const char *file, const sbat_diag &d)
{
	std::fprintf(stderr, "sbat-edit: %s: %s\n", file, d.what ? d.what : sbat_strerror(d.code));
	return 1;
}

} // namespace

int
main(int argc, char **argv)
{
	if (argc != 2) {
		std::fprintf(stderr, "usage: sbat-edit IMAGE\n");
		return 2;
	}
	const char *path = argv[1];
	sbat_diag d;
	sbat_mapped_file *file = nullptr;
	sbat_image *img = nullptr, *edited = nullptr;
	sbat_csv *csv = nullptr;
	uint8_t *out = nullptr;
	size_t out_len = 0;
	const uint8_t *text;
	size_t text_len;
	sbat_edit_opts opts = SBAT_EDIT_OPTS_INIT;
	sbat_edit_report report;
	int status = 1;

	opts.strip_signature = 0;
	if (sbat_file_map(path, SBAT_FILE_MAX_SIZE, &file, &d) != SBAT_OK ||
	    sbat_image_parse(sbat_mapped_file_data(file), sbat_mapped_file_size(file), &img, &d) != SBAT_OK ||
	    sbat_edit(img, reinterpret_cast<const uint8_t *>(csv_text), std::strlen(csv_text), &opts, &out, &out_len,
	              &report, &d) != SBAT_OK ||
	    sbat_image_parse(out, out_len, &edited, &d) != SBAT_OK ||
	    sbat_image_sbat_data(edited, &text, &text_len, &d) != SBAT_OK ||
	    sbat_csv_parse(text, text_len, &csv, &d) != SBAT_OK) {
		status = fail(path, d);
	} else {
		std::printf("%s: %s (report version %u, library %s)\n", path, sbat_edit_action_name(report.action),
		            report.version, SBAT_VERSION);
		for (size_t i = 0; i < csv->n_entries; i++)
			std::printf("  %s %u\n", std::string(csv->entries[i].component_name).c_str(),
			            static_cast<unsigned>(csv->entries[i].generation));
		status = 0;
	}
	sbat_csv_free(csv);
	sbat_image_free(edited);
	std::free(out);
	sbat_image_free(img);
	sbat_file_unmap(file);
	return status;
}
