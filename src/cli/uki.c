/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* uki.c - what an edit of a UKI means for PCR 11 and its signed policy: notes, warnings, --verbose values */
#include <stdio.h>
#include <string.h>

#include "sbat/sbat.h"

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

/* One profile's values before and after, one line per phase. */
static void
print_values(const char *file, const sbat_uki *before, const sbat_uki *after, int profile)
{
	unsigned ph, i;
	char label[32];

	if (profile >= 0)
		snprintf(label, sizeof(label), " profile %d", profile);
	else
		label[0] = '\0';
	for (ph = 0; ph < SBAT_UKI_PHASES; ph++) {
		const uint8_t *a = sbat_uki_pcr11(before, profile, ph), *b = sbat_uki_pcr11(after, profile, ph);

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
