/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* uki.c - what an edit of a UKI means for PCR 11 and its signed policy: notes, warnings, --verbose values */
#include <stdio.h>
#include <string.h>

#include "sbat/edit.h"
#include "sbat/error.h"
#include "sbat/image.h"
#include "sbat/uki.h"

#include "messages.h"
#include "options.h"
#include "uki.h"

/* "systemd-stub 257.9-1" or "systemd-stub (version unknown)" into buf. */
static const char *
stub_name(const sbat_image *img, char *buf, size_t size)
{
	sbat_uki *uki = NULL;
	sbat_diag d;

	if (sbat_uki_inspect(img, &uki, &d) == SBAT_OK && uki && sbat_uki_stub_version(uki))
		snprintf(buf, size, "systemd-stub %s", sbat_uki_stub_version(uki));
	else
		snprintf(buf, size, "systemd-stub (version unknown)");
	sbat_uki_free(uki);
	return buf;
}

void
cli_uki_notes(const cli_opts *o, const sbat_image *img, const sbat_edit_report *r)
{
	const char *file = cli_quote(o->image), *dry = o->dry_run ? "dry run: " : "";
	char stub[96];

	if (!(r->uki & SBAT_EDIT_UKI))
		return;
	stub_name(img, stub, sizeof(stub));
	/* a stale signature is never kept silently, not even with --quiet */
	if (r->uki & SBAT_EDIT_PCRSIG_KEPT)
		fprintf(stderr,
		        "%s: warning: %s: %s.pcrsig kept as it is (--pcrsig=keep), but it no longer matches: the edit "
		        "changes PCR 11 as %s measures it, so secrets sealed to the signed policy will not unlock "
		        "until the UKI's PCR 11 values are signed again (systemd-measure sign)\n",
		        cli_progname, file, dry, stub);
	if (o->quiet)
		return;
	if (r->uki & SBAT_EDIT_SBAT_REVIVED)
		fprintf(stderr,
		        "%s: %s: %sthe zeroed " SBAT_RETIRED_SECTION_NAME " (section %u) before the first .profile is "
		        ".sbat again and holds the new data: every profile measures it\n",
		        cli_progname, file, dry, r->section_index);
	if (r->uki & (SBAT_EDIT_PCRSIG_REMOVED | SBAT_EDIT_PCRSIG_RETIRED))
		fprintf(stderr,
		        "%s: %s: %s.pcrsig %s (--pcrsig=drop): the edit changes PCR 11 as %s measures it; sign the "
		        "new values (systemd-measure sign) to unlock TPM-sealed secrets with a signed policy again\n",
		        cli_progname, file, dry,
		        r->uki & SBAT_EDIT_PCRSIG_REMOVED ? "removed" :
		                                            "renamed " SBAT_RETIRED_PCRSIG_NAME " and zeroed",
		        stub);
	else if ((r->uki & SBAT_EDIT_PCR11_CHANGED) && !(r->uki & SBAT_EDIT_HAS_PCRSIG) &&
	         (r->uki & SBAT_EDIT_HAS_PCRPKEY))
		fprintf(
		    stderr,
		    "%s: warning: %s: %sthe edit changes PCR 11 as %s measures it: secrets sealed to the old "
		    "PCR 11 values will not unlock (the UKI has .pcrpkey but no .pcrsig: nothing signed goes stale)\n",
		    cli_progname, file, dry, stub);
	else if (!(r->uki & SBAT_EDIT_PCR11_CHANGED) && (r->uki & SBAT_EDIT_HAS_PCRSIG))
		fprintf(stderr,
		        "%s: note: %s: %s%s does not measure what this edit changes: PCR 11 and .pcrsig stay valid\n",
		        cli_progname, file, dry, stub);
}

/* " (the machine selects section 11 \".dtbauto\")", or " (the machine selects none)" into buf. */
static void
alt_label(const sbat_uki *uki, int profile, unsigned alt, char *buf, size_t size)
{
	static const char *const selected[] = { ".dtbauto", ".efifw" };
	unsigned j;
	int n = snprintf(buf, size, " (the machine selects"), any = 0;

	for (j = 0; j < 2 && n > 0 && (size_t)n < size; j++) {
		int s = sbat_uki_alternative_section(uki, profile, alt, selected[j]);

		if (s >= 0)
			n += snprintf(buf + n, size - (size_t)n, "%s section %d \"%s\"", any++ ? "," : "", s,
			              selected[j]);
	}
	if (n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "%s)", any ? "" : " none");
}

/* One alternative's values before and after (NULL: none on that side), one line per phase. */
static void
print_alt(const char *file, const char *label, const sbat_uki *before, const sbat_uki *after, int profile, unsigned alt)
{
	unsigned ph, i;

	for (ph = 0; ph < SBAT_UKI_PHASES; ph++) {
		const uint8_t *a = sbat_uki_pcr11_alternative(before, profile, alt, ph);
		const uint8_t *b = sbat_uki_pcr11_alternative(after, profile, alt, ph);

		fprintf(stderr, "%s: %s: PCR 11 sha256%s %s: ", cli_progname, file, label, sbat_uki_phase_name(ph));
		for (i = 0; a && i < SBAT_UKI_DIGEST_SIZE; i++)
			fprintf(stderr, "%02x", a[i]);
		if (a && b && memcmp(a, b, SBAT_UKI_DIGEST_SIZE) == 0) {
			fputs(" (unchanged)\n", stderr);
			continue;
		}
		fputs(" -> ", stderr);
		for (i = 0; b && i < SBAT_UKI_DIGEST_SIZE; i++)
			fprintf(stderr, "%02x", b[i]);
		fputc('\n', stderr);
	}
}

/* One profile's values before and after, per alternative the machine may select when there are several. */
static void
print_values(const char *file, const sbat_uki *before, const sbat_uki *after, int profile)
{
	unsigned a, na = sbat_uki_pcr11_alternatives(before, profile), nb = sbat_uki_pcr11_alternatives(after, profile);
	char label[160];
	int n;

	for (a = 0; a < (na > nb ? na : nb); a++) {
		n = profile >= 0 ? snprintf(label, sizeof(label), " profile %d", profile) : 0;
		label[n] = '\0';
		if (na > 1 || nb > 1)
			alt_label(a < na ? before : after, profile, a, label + n, sizeof(label) - (size_t)n);
		print_alt(file, label, before, after, profile, a);
	}
}

void
cli_describe_pcr11(const cli_opts *o, const sbat_image *img, int fd, const sbat_edit_opts *eo, const uint8_t *payload,
                   size_t payload_len)
{
	sbat_uki *before = NULL, *after = NULL;
	unsigned p;
	sbat_diag d;
	const char *file = cli_quote(o->image);

	if (sbat_uki_inspect(img, &before, &d) != SBAT_OK || !before)
		return;
	if (sbat_uki_predict(before, fd, &d) != SBAT_OK ||
	    sbat_edit_predict_uki(img, payload, payload_len, eo, &after, &d) != SBAT_OK || !after ||
	    sbat_uki_predict(after, fd, &d) != SBAT_OK) {
		cli_diag(CLI_WARNING, o->image, "PCR 11 cannot be predicted", &d);
	} else if (sbat_uki_profile_count(before) == 0) {
		print_values(file, before, after, -1);
	} else {
		for (p = 0; p < sbat_uki_profile_count(before); p++)
			print_values(file, before, after, (int)p);
	}
	sbat_uki_free(before);
	sbat_uki_free(after);
}
