/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_judged.c - the words of shim's SBAT check and of the signature gate of a stage */
#include <stdio.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/judge.h"
#include "sbat/sigverify.h"

#include "render_judged.h"
#include "strtable.h"
#include "textbuf.h"

/* The signature words are cut to what the line has room for. */
#define SIG_WORDS_MAX 600

/* The verdict word of shim's check for each reason. */
static const char *const judged_word_table[] = {
	[SBAT_JUDGE_NOT_REVOKED] = "boots",
	[SBAT_JUDGE_NO_ROWS] = "boots",
	[SBAT_JUDGE_MISSING_PASSES] = "boots",
	[SBAT_JUDGE_NOT_ENFORCED] = "boots",
	[SBAT_JUDGE_REVOKED] = "refused",
	[SBAT_JUDGE_MISSING] = "refused",
	[SBAT_JUDGE_UNPARSABLE] = "refused",
	[SBAT_JUDGE_MULTIPLE] = "refused",
	[SBAT_JUDGE_RELOCATIONS] = "refused",
	[SBAT_JUDGE_SHIM_STOPPED] = "refused",
	[SBAT_JUDGE_SECURE_BOOT_UNKNOWN] = "unknown",
	[SBAT_JUDGE_INSECURE_MODE] = "boots",
};
CLI_STRTABLE_LOOKUP(judged_word, sbat_judge_reason)

/* What an SBAT check said that needs no fact. */
static const char *const judged_fixed_table[] = {
	[SBAT_JUDGE_NO_ROWS] = "its .sbat holds no row shim reads",
	[SBAT_JUDGE_MISSING_PASSES] = "no .sbat, which this check lets pass",
	[SBAT_JUDGE_NOT_ENFORCED] = "Secure Boot is off, so shim checks no SBAT",
	[SBAT_JUDGE_MISSING] = "no .sbat, which shim requires of what it starts itself",
	[SBAT_JUDGE_SHIM_STOPPED] = "shim stops before starting it",
	[SBAT_JUDGE_SECURE_BOOT_UNKNOWN] = "whether Secure Boot is on is not known",
	[SBAT_JUDGE_INSECURE_MODE] = "shim runs in insecure mode (MokSBState), so it checks no SBAT",
};
CLI_STRTABLE_LOOKUP(judged_fixed, sbat_judge_reason)

static const char *
diag_words(const sbat_diag *d)
{
	return d->what ? d->what : sbat_strerror(d->code);
}

/* The words of shim's check after its verdict word and colon (a space first). */
static void
judged_rest(const sbat_boot_stage *st, cli_textbuf *t)
{
	const char *fixed = st->judge_reason >= 0 ? judged_fixed_to_string((sbat_judge_reason)st->judge_reason) : NULL;

	if (fixed) {
		cli_textbuf_put(t, " %s", fixed);
		return;
	}
	switch (st->judge_reason) {
	case SBAT_JUDGE_NOT_REVOKED: cli_textbuf_put(t, " not revoked by SbatLevel %s", st->level); break;
	case SBAT_JUDGE_REVOKED:
		cli_textbuf_put(t, " %s is below %s (SbatLevel %s%s%s); install one with %s or later%s", st->revoked,
		                st->revoked_by, st->level, st->explain ? "; " : "", st->explain ? st->explain : "",
		                st->revoked_by,
		                st->latest_pending ? "; SbatPolicy latest is pending: without it shim's automatic "
		                                     "level would let it boot (mokutil --set-sbat-policy delete)" :
		                                     "");
		break;
	case SBAT_JUDGE_UNPARSABLE:
	case SBAT_JUDGE_MULTIPLE:
	case SBAT_JUDGE_RELOCATIONS:
		cli_textbuf_put(t, " shim cannot use its .sbat (%s)", diag_words(&st->diag));
		break;
	default: cli_textbuf_put(t, " %s", diag_words(&st->diag)); break;
	}
}

void
cli_render_judged_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	const char *word = st->judge_reason >= 0 ? judged_word_to_string((sbat_judge_reason)st->judge_reason) : NULL;

	cli_textbuf_put(t, "%s:", word ? word : "unknown");
	judged_rest(st, t);
}

void
cli_render_uki_kernel_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	const char *word = st->judge_reason >= 0 ? judged_word_to_string((sbat_judge_reason)st->judge_reason) : NULL;

	cli_textbuf_put(
	    t, "%s: the kernel in its .linux section:", word && strcmp(word, "refused") == 0 ? "refused" : "unknown");
	judged_rest(st, t);
}

/* What did not read, so that the gate is not known. */
static const char *const unread_words_table[] = {
	[SBAT_BOOT_SIG_UNREAD_DB] = "db or dbx does not read here",
	[SBAT_BOOT_SIG_UNREAD_MOK] = "MokListRT does not read here",
	[SBAT_BOOT_SIG_UNREAD_MOKX] = "MokListXRT does not read here",
	[SBAT_BOOT_SIG_UNREAD_VENDOR_CERT] = "shim's .vendor_cert does not read",
};
CLI_STRTABLE_LOOKUP(unread_words, sbat_boot_sig_unread)

/* The words of a signature verdict that needs no fact. */
static const char *const sig_fixed_table[] = {
	[SBAT_SIGVERIFY_NOT_ENFORCED] = "Secure Boot is off",
	[SBAT_SIGVERIFY_INSECURE_MODE] = "shim runs in insecure mode, so it checks no signature",
	[SBAT_SIGVERIFY_NX_REQUIRED] =
	    "shim's MokPolicy requires NX compatibility (MOK_POLICY_REQUIRE_NX), which this "
	    "image lacks: no NX_COMPAT in its DllCharacteristics, or a section both writable "
	    "and executable",
	[SBAT_SIGVERIFY_SIGNER_MISSING] = "a signature lacks its signer's certificate while dbx is set",
	[SBAT_SIGVERIFY_SECURE_BOOT_UNKNOWN] = "whether Secure Boot is on is not known",
	[SBAT_SIGVERIFY_PARENT_VERIFIED] = "it lies inside an image shim verified, and its hash is not forbidden",
	[SBAT_SIGVERIFY_DIGEST_NOT_COMPUTED] =
	    "a signature names a digest other than SHA-1, SHA-256, SHA-384 or SHA-512",
	[SBAT_SIGVERIFY_TABLE_UNPADDED] = "the last entry of its certificate table is not padded to 8 bytes, "
	                                  "which EDK2 refuses",
	[SBAT_SIGVERIFY_TABLE_CORRUPT] = "the loader's walk of its certificate table gives up at an entry "
	                                 "(a trailing area or a dwLength it cannot take), and it refuses the image",
};
CLI_STRTABLE_LOOKUP(sig_fixed, sbat_sigverify_reason)

/* The algorithm of the image hash that decided, when it is not SHA-256 (the usual one), else "". */
static const char *
hash_alg_word(const sbat_boot_stage *st)
{
	sbat_digest_alg alg = st->signature_sha1 ? SBAT_DIGEST_SHA1 : (sbat_digest_alg)st->signature_hash_alg;

	return alg == SBAT_DIGEST_SHA1 || alg == SBAT_DIGEST_SHA384 || alg == SBAT_DIGEST_SHA512 ?
	           sbat_authenticode_digest_name(alg) :
	           "";
}

/* The words of a refusal by what shim passes over: a db it ignores, a certificate not first in its list. */
static void
unused_words(const sbat_boot_stage *st, const char *who, const char *db, cli_textbuf *t)
{
	if (st->signature_reason == SBAT_SIGVERIFY_CERT_NOT_FIRST)
		cli_textbuf_put(t,
		                "its signature chains to %s, in %s, but that certificate is not the first of its "
		                "EFI_CERT_X509 list, and shim tries only the first of each",
		                who, db);
	else if (st->signature_by_sig)
		cli_textbuf_put(t,
		                "its signature chains to %s, in db, which shim ignores (MokIgnoreDB, set by "
		                "mokutil --ignore-db), and to nothing else it trusts",
		                who);
	else
		cli_textbuf_put(t,
		                "its %s%shash is in db, which shim ignores (MokIgnoreDB, set by mokutil "
		                "--ignore-db), and no signature chains to anything else it trusts",
		                hash_alg_word(st), hash_alg_word(st)[0] ? " " : "");
}

/* The words of a verdict the signature rule came to. */
static void
sig_verdict_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	const char *who = st->signature_subject ? st->signature_subject : "a certificate";
	const char *db = sbat_sigverify_db_name((sbat_sigverify_db)st->signature_db);
	int by_shim = st->signature_rule == SBAT_SIGVERIFY_SHIM;

	switch (st->signature_reason) {
	case SBAT_SIGVERIFY_CERT_ALLOWED: cli_textbuf_put(t, "its signature chains to %s, in %s", who, db); break;
	case SBAT_SIGVERIFY_HASH_ALLOWED:
	case SBAT_SIGVERIFY_HASH_FORBIDDEN:
		cli_textbuf_put(t, "its %s%shash is in %s", hash_alg_word(st), hash_alg_word(st)[0] ? " " : "", db);
		break;
	case SBAT_SIGVERIFY_CERT_FORBIDDEN:
		cli_textbuf_put(t, "its signature chains to %s, which %s forbids%s", who, db,
		                !by_shim && st->signature_several ? " (another signature does not help: one forbidden "
		                                                    "signature is enough for EDK2)" :
		                                                    "");
		break;
	case SBAT_SIGVERIFY_CERT_HASH_FORBIDDEN:
		cli_textbuf_put(t, "the certificate of %s is in dbx by its TBS hash", who);
		break;
	case SBAT_SIGVERIFY_NOT_ALLOWED:
		cli_textbuf_put(t, "no signature chains to a certificate of %s, and its hash is in none",
		                by_shim ? "db, MokListRT or shim's own keys" : "db");
		break;
	case SBAT_SIGVERIFY_DB_IGNORED:
	case SBAT_SIGVERIFY_CERT_NOT_FIRST: unused_words(st, who, db, t); break;
	case SBAT_SIGVERIFY_BAD_SIGNATURE:
		cli_textbuf_put(t, "the signature does not verify (at the certificate of %s)", who);
		break;
	case SBAT_SIGVERIFY_NOT_CA:
		cli_textbuf_put(
		    t, "the signature does not verify: %s issues a certificate of its chain but is not a CA", who);
		break;
	case SBAT_SIGVERIFY_TIMESTAMP_NOT_CHECKED:
		cli_textbuf_put(
		    t,
		    "dbx revokes the certificate of %s from a time on; a signature timestamped before it by "
		    "an authority of dbt would pass, and timestamps are not checked",
		    st->signature_by_sig ? who : "its db certificate");
		break;
	default: break;
	}
}

void
cli_render_signature_words(const sbat_boot_stage *st, cli_textbuf *t)
{
	char buf[SIG_WORDS_MAX];
	const char *fixed = st->signature_reason >= 0 ?
	                        sig_fixed_to_string((sbat_sigverify_reason)st->signature_reason) :
	                        NULL;
	cli_textbuf w;

	cli_textbuf_init(&w, buf, sizeof(buf));
	if (st->signature_unread == SBAT_BOOT_SIG_UNREAD_IMAGE)
		cli_textbuf_put(&w, "%s", diag_words(&st->signature_diag));
	else if (unread_words_to_string(st->signature_unread))
		cli_textbuf_put(&w, "%s", unread_words_to_string(st->signature_unread));
	else if (fixed)
		cli_textbuf_put(&w, "%s", fixed);
	else
		sig_verdict_words(st, &w);
	cli_textbuf_put(t, "%s", buf);
}

void
cli_render_gated(const sbat_boot_stage *st, const char *sbat, int shim, cli_textbuf *t)
{
	char sig[SIG_WORDS_MAX];
	cli_textbuf w;

	if (!st->signature_judged) {
		cli_textbuf_put(t, "%s", sbat);
		return;
	}
	cli_textbuf_init(&w, sig, sizeof(sig));
	cli_render_signature_words(st, &w);
	if (st->gate != SBAT_BOOT_GATE_SIGNATURE)
		cli_textbuf_put(t, "%s [signature %s: %s]", sbat,
		                st->signature_verdict == SBAT_VERDICT_BOOTS ? "accepted" : "not known", sig);
	else if (shim)
		cli_textbuf_put(t, "cannot be followed: signature: %.500s [SBAT: %.600s]", sig, sbat);
	else
		cli_textbuf_put(t, "%s: signature: %s [SBAT: %s]",
		                st->verdict == SBAT_VERDICT_REFUSED ? "refused" : "cannot be followed", sig, sbat);
}
