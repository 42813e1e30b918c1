/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint_rules.c - the profiles' rule table, and the finding of a rule as the profiles report it */
#include <string.h>

#include "sbat/lint.h"

#include "util/diag.h"
#include "pe/image_internal.h"
#include "sbat/lint_internal.h"

#define REVIEW SBAT_PROFILE_SHIM_REVIEW
#define UEFI_CA SBAT_PROFILE_UEFI_CA
#define E SBAT_LINT_ERROR
#define W SBAT_LINT_WARNING
#define N SBAT_LINT_NOTE
#define SHIM SBAT_LOADER_SHIM
#define REVIEWERS SBAT_LOADER_SHIM_REVIEW
#define CA SBAT_LOADER_UEFI_CA

/* Where the rules come from; the manual's PROFILES section says the same in full. */
#define SRC_TEMPLATE "rhboot/shim-review: the submission template (README.md) and docs/reviewer-guidelines.md"
#define SRC_SBAT_MD "rhboot/shim: SBAT.md (the .sbat format, product-specific rows)"
#define SRC_MS                                                                                                         \
	"Microsoft: UEFI CA memory mitigation requirements for signing (learn.microsoft.com, "                         \
	"uefi-ca-memory-mitigation-requirements)"

static const sbat_lint_rule rules[RULE__COUNT] = {
	[RULE_REVIEW_SBAT_MISSING] = { "review-sbat-missing", REVIEW, E, SHIM | REVIEWERS,
	                               "an EFI application has a .sbat that shim reads",
	                               SRC_TEMPLATE "; shim 16.1 pe.c: SBAT is mandatory for what shim starts" },
	[RULE_REVIEW_HEADER] = { "review-header", REVIEW, E, SHIM | REVIEWERS,
	                         "the first row is the format's own: component sbat, generation 1", SRC_SBAT_MD },
	[RULE_REVIEW_DUPLICATE] = { "review-duplicate", REVIEW, E, REVIEWERS, "no component is named twice",
	                            SRC_SBAT_MD "; shim's SbatLevel_Variable.txt" },
	[RULE_REVIEW_VENDOR_ROW] = { "review-vendor-row", REVIEW, E, REVIEWERS,
	                             "every component row has a vendor row COMPONENT.VENDOR of its own",
	                             SRC_TEMPLATE " (a vendor-specific entry in every binary)" },
	[RULE_REVIEW_UPSTREAM_ROW] = { "review-upstream-row", REVIEW, W, REVIEWERS,
	                               "every vendor row COMPONENT.VENDOR has its COMPONENT row (uki.VENDOR may stand "
	                               "alone)",
	                               SRC_SBAT_MD "; " SRC_TEMPLATE },
	[RULE_REVIEW_VENDOR_VERSION] = { "review-vendor-version", REVIEW, W, REVIEWERS,
	                                 "a vendor row's version field holds the vendor's package version, not its "
	                                 "component row's",
	                                 SRC_SBAT_MD " (the examples)" },
	[RULE_REVIEW_URL] = { "review-url", REVIEW, W, REVIEWERS, "every row's vendor_url is a URL (scheme:...)",
	                      SRC_SBAT_MD " (the field table)" },
	[RULE_REVIEW_COMPONENT_NAME] = { "review-component-name", REVIEW, W, SHIM | REVIEWERS,
	                                 "no component name is a look-alike of a conventional one (shim matches names "
	                                 "byte for byte, so a revocation would miss it)",
	                                 SRC_SBAT_MD "; shim sbat.c; systemd, ukify and the kernel's conventions" },
	[RULE_REVIEW_SYSTEMD_SHARED] = { "review-systemd-shared", REVIEW, N, REVIEWERS,
	                                 "a systemd row (systemd 252 to 254) names systemd-boot and systemd-stub alike",
	                                 "docs/reviewer-guidelines.md (distinct identifiers); systemd pull request "
	                                 "29196 (systemd 255)" },
	[RULE_REVIEW_UKI_ROW] = { "review-uki-row", REVIEW, W, REVIEWERS,
	                          "a unified kernel image (.linux section) has a uki or uki.VENDOR row",
	                          "docs/reviewer-guidelines.md; systemd ukify" },
	[RULE_REVIEW_REVOKED] = { "review-revoked", REVIEW, E, SHIM | REVIEWERS,
	                          "no row is revoked by a published SbatLevel (or a policy given): the image would be "
	                          "dead on arrival",
	                          "rhboot/shim: SbatLevel_Variable.txt, sbat.c verify_single_entry" },
	[RULE_REVIEW_GENERATION_LOWER] = { "review-generation-lower", REVIEW, E, SHIM | REVIEWERS,
	                                   "no component's generation is lower than in the release before",
	                                   SRC_SBAT_MD " (generations only ever go up)" },
	[RULE_REVIEW_GENERATION_JUMP] = { "review-generation-jump", REVIEW, W, REVIEWERS,
	                                  "a generation raised by more than one since the release before needs a reason",
	                                  SRC_SBAT_MD "; " SRC_TEMPLATE },
	[RULE_REVIEW_COMPONENT_GONE] = { "review-component-gone", REVIEW, W, REVIEWERS,
	                                 "every component of the release before is still named",
	                                 SRC_SBAT_MD " (keep shipping product rows)" },
	[RULE_REVIEW_GENERATION_SAME] = { "review-generation-same", REVIEW, N, REVIEWERS,
	                                  "a vendor row whose version changed kept its generation: right unless the "
	                                  "release fixes a vendor-specific flaw",
	                                  SRC_SBAT_MD " (product-specific generations)" },
	[RULE_UEFI_CA_SECTION_ALIGNMENT] = { "uefi-ca-section-alignment", UEFI_CA, E, CA | SHIM,
	                                     "SectionAlignment is at least the 4 KiB page",
	                                     SRC_MS "; shim post-process-pe.c" },
	[RULE_UEFI_CA_VA_PAGE_ALIGNED] = { "uefi-ca-va-page-aligned", UEFI_CA, E, CA | SHIM | SBAT_LOADER_EDK2,
	                                   "every section's VirtualAddress is a multiple of 4 KiB",
	                                   SRC_MS "; shim memattrs.c; EDK2 image protection" },
	[RULE_UEFI_CA_WRITE_EXECUTE] = { "uefi-ca-write-execute", UEFI_CA, E, CA | SHIM,
	                                 "no section is both writable and executable (or code)",
	                                 SRC_MS "; shim 16.1 pe.c (NX policy)" },
	[RULE_UEFI_CA_NX_COMPAT] = { "uefi-ca-nx-compat", UEFI_CA, W, CA | SHIM,
	                             "DllCharacteristics has NX_COMPAT (a warning: Microsoft signs shim without it, "
	                             "under its NX exception for shim)",
	                             SRC_MS " (if implemented); Microsoft: NX exception for shim community (2023); "
	                                    "shim 16.1 pe-relocate.c" },
	[RULE_UEFI_CA_HEADERS_EXECUTABLE] = { "uefi-ca-headers-executable", UEFI_CA, E, CA | SBAT_LOADER_EDK2,
	                                      "no executable section shares a page with the headers",
	                                      SRC_MS "; EDK2 ImagePropertiesRecordLib (code pages read-only, the rest "
	                                             "no-execute)" },
	[RULE_UEFI_CA_ENTRY_POINT] = { "uefi-ca-entry-point", UEFI_CA, E, CA | SHIM,
	                               "AddressOfEntryPoint lies in exactly one section, an executable one",
	                               "shim 16.1 pe.c handle_image; " SRC_MS },
	[RULE_UEFI_CA_RELOCATIONS] = { "uefi-ca-relocations", UEFI_CA, E, SHIM,
	                               "relocations are not stripped, the base relocation directory exists, and a "
	                               ".reloc section agrees with it",
	                               "shim 16.1 pe.c handle_image, pe-relocate.c read_header" },
	[RULE_UEFI_CA_RAW_PAGE_ALIGNED] = { "uefi-ca-raw-page-aligned", UEFI_CA, N, CA,
	                                    "section data in the file starts on 4 KiB (a note: no published rule asks "
	                                    "for it; shim's own build does it)",
	                                    "shim's build (FileAlignment 4096); not a Microsoft requirement" },
};

const sbat_lint_rule *
sbat_lint_profile_rule(size_t index)
{
	return index < RULE__COUNT ? &rules[index] : NULL;
}

unsigned
sbat_lint_profile_by_name(const char *name)
{
	if (!name)
		return 0;
	if (strcmp(name, "shim-review") == 0)
		return SBAT_PROFILE_SHIM_REVIEW;
	if (strcmp(name, "uefi-ca") == 0)
		return SBAT_PROFILE_UEFI_CA;
	return 0;
}

const char *
sbat_lint_profile_name(unsigned profile)
{
	switch (profile) {
	case SBAT_PROFILE_SHIM_REVIEW: return "shim-review";
	case SBAT_PROFILE_UEFI_CA: return "uefi-ca";
	}
	return NULL;
}

void
sbat_lint_opts_init(sbat_lint_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->size = sizeof(*opts);
}

sbat_lint_subject
lint_subject(lint_rule_id id)
{
	sbat_lint_subject s;

	memset(&s, 0, sizeof(s));
	s.size = sizeof(s);
	s.profile = rules[id].profile;
	return s;
}

void
lint_rule_report(linter *l, lint_rule_id id, const char *what, int section, uint64_t offset,
                 const sbat_lint_subject *subject)
{
	sbat_lint_subject none = lint_subject(id);
	sbat_lint_finding f;

	f.severity = rules[id].severity;
	f.rule = rules[id].rule;
	f.what = what;
	f.section = section;
	f.offset = offset;
	f.loaders = rules[id].loaders;
	lint_report(l, &f, subject ? subject : &none);
}
