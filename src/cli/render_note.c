/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* render_note.c - a note of the boot report in words: what it is about, then its facts */
#include <stdio.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/sigdb.h"

#include "render_note.h"
#include "render_stage3.h"
#include "strtable.h"
#include "textbuf.h"

/* What a note that has no other facts says. */
static const char *const note_fixed_table[] = {
	[SBAT_BOOT_NOTE_REMOVABLE_GUESSED] =
	    "the removable-media path is taken as this build's machine's: no option the "
	    "firmware starts opens on --esp, and its \\EFI\\BOOT holds no one "
	    "BOOT*.EFI that tells the firmware's machine",
	[SBAT_BOOT_NOTE_REMOVABLE_NO_ESP] =
	    "the removable-media path is taken as this build's machine's: without --esp "
	    "nothing tells the firmware's machine",
	[SBAT_BOOT_NOTE_FILE_ONLY_ESP] = "taken as the only file system the firmware searches for options of File() "
	                                 "nodes alone (EDK2 looks on each, removable media first)",
	[SBAT_BOOT_NOTE_NO_BOOT_ORDER] =
	    "no BootOrder and no BootNext: the firmware makes boot options of its own, one "
	    "per device (removable media first), and starts the removable-media path of "
	    "the first that holds it: taken as --esp's",
	[SBAT_BOOT_NOTE_NOT_JUDGED] = "signatures: not judged: each verdict is the SBAT gate's; the firmware and shim "
	                              "must also accept each image's signature",
	[SBAT_BOOT_NOTE_SIGNATURES_VERIFIED] =
	    "signatures: every RSA signature is verified, the signer's and each "
	    "certificate's up to the trusted one; certificate expiry is not checked, "
	    "as neither the firmware nor shim checks it",
	[SBAT_BOOT_NOTE_NO_VARIABLES] =
	    "no UEFI variables: the machine was not booted through UEFI, or efivarfs is not "
	    "mounted; its boot paths are not known",
	[SBAT_BOOT_NOTE_NO_SECURE_BOOT] = "no SecureBoot variable: whether shim checks SBAT at the next boot is not "
	                                  "known (the machine was not booted through UEFI, or efivarfs is not mounted)",
	[SBAT_BOOT_NOTE_PENDING_VARIABLE] =
	    "a pending update of a variable other than db, dbx, KEK, PK, MokList or MokListX",
	[SBAT_BOOT_NOTE_OUT_OF_MEMORY] = "out of memory",
	[SBAT_BOOT_NOTE_DIR_UNREADABLE] = "cannot be read",
	[SBAT_BOOT_NOTE_SPECIAL_DEFAULT] = "a special entry other than @saved, which systemd-boot ignores",
	[SBAT_BOOT_NOTE_BAD_TIMEOUT] = "a timeout systemd-boot cannot read: ignored",
	[SBAT_BOOT_NOTE_MOK_SB_DISABLE_PENDING] =
	    "mokutil --disable-validation is pending: MokManager asks for its password at the next boot, and "
	    "until it is confirmed shim checks signatures and SBAT as judged here",
	[SBAT_BOOT_NOTE_MOK_SB_ENABLE_PENDING] =
	    "mokutil --enable-validation is pending: MokManager asks for its password at the next boot, and "
	    "until it is confirmed shim's validation stays as judged here",
	[SBAT_BOOT_NOTE_MOK_DB_IGNORE_PENDING] =
	    "mokutil --ignore-db is pending: MokManager asks for its password at the next boot, and "
	    "until it is confirmed shim trusts db as judged here",
	[SBAT_BOOT_NOTE_MOK_DB_USE_PENDING] =
	    "mokutil --use-db is pending: MokManager asks for its password at the next boot, and "
	    "until it is confirmed shim ignores db as judged here",
};
CLI_STRTABLE_LOOKUP(note_fixed, sbat_boot_note_what)

/* How shim comes to check what the loader starts, at length (--verbose). */
static const char *const rule_long_table[] = {
	[SBAT_BOOT_RULE_LOADIMAGE_HOOK] = "systemd-boot calls LoadImage, which shim 16.x replaces (loader-proto.c "
	                                  "shim_load_image) and runs with in_protocol set: verify_sbat_section lets an "
	                                  "image without .sbat pass and checks the rows of one that has it; a UKI's "
	                                  "kernel goes through it again when systemd-stub loads it",
	[SBAT_BOOT_RULE_SHIM_LOCK] = "GRUB's shim_lock verifier calls shim's Verify (verify.c shim_verify), which sets "
	                             "in_protocol: verify_sbat_section lets an image without .sbat pass and checks the "
	                             "rows of one that has it",
	[SBAT_BOOT_RULE_SHIM_LOADER] = "GRUB's shim_lock verifier (grub-core/kern/efi/sb.c) loads it through shim's "
	                               "image loader protocol when shim installs one (shim 16.x: loader-proto.c "
	                               "shim_load_image), which sets in_protocol: verify_sbat_section lets an image "
	                               "without .sbat pass and checks the rows of one that has it",
};
CLI_STRTABLE_LOOKUP(rule_long, sbat_boot_rule)

static const char *
loader_words(sbat_boot_loader loader)
{
	return loader == SBAT_BOOT_LOADER_GRUB ? "GRUB" : "systemd-boot";
}

/* "GRUB default entry: ...": what chose the default entry of a loader's menu. */
static void
default_entry_words(const sbat_boot_note *n, cli_textbuf *t)
{
	cli_default_facts d;

	d.loader = n->loader;
	d.sdboot_by = n->sdboot_by;
	d.grub_by = n->grub_by;
	d.default_value = n->default_value ? n->default_value : "";
	d.default_setting = n->default_setting ? n->default_setting : "";
	d.default_line = n->default_line;
	d.default_flags = n->default_flags;
	cli_textbuf_put(t, "%s default entry: ", loader_words(n->loader));
	cli_render_stage3_default_words(&d, t);
}

/* "bootmgr 9.0, cdboot 3.0": the SVN entries a note read, each by its application (or its GUID). */
static void
svn_list_words(const sbat_boot_note *n, cli_textbuf *t)
{
	char guid[37];
	size_t i;

	for (i = 0; i < n->svns && i < SBAT_BOOT_NOTE_SVN_MAX; i++) {
		const sbat_sigdb_svn *s = &n->svn[i];

		sbat_sigdb_guid_format(s->app_guid, guid);
		cli_textbuf_put(t, "%s%s %u.%u", i ? ", " : "",
		                s->app == SBAT_SVN_APP_UNKNOWN ? guid : sbat_sigdb_svn_app_name(s->app), s->major,
		                s->minor);
	}
	if (n->svns > SBAT_BOOT_NOTE_SVN_MAX)
		cli_textbuf_put(t, " and %zu more", n->svns - SBAT_BOOT_NOTE_SVN_MAX);
}

/* A note of a signature database: its entries, by kind (SVN entries only when there are some). */
static void
db_words(const sbat_boot_note *n, cli_textbuf *t)
{
	cli_textbuf_put(t, "%s: %zu certificates%s%s%s; %zu image hashes",
	                n->what == SBAT_BOOT_NOTE_DB ? "the firmware's db trusts" : "its dbx forbids", n->count,
	                n->count ? " (" : "", n->subjects ? n->subjects : "", n->count ? ")" : "", n->hashes);
	if (n->svns) {
		cli_textbuf_put(t, "; %zu SVN entries (", n->svns);
		svn_list_words(n, t);
		cli_textbuf_put(t, ")");
	}
	cli_textbuf_put(t, "; %zu other entries", n->others);
}

/* "N new entries", and the SVN entries among them. */
static void
new_entries_words(const sbat_boot_note *n, cli_textbuf *t)
{
	cli_textbuf_put(t, "%zu new entries", n->count);
	if (!n->svns)
		return;
	cli_textbuf_put(t, ", %zu of them SVN entries: ", n->svns);
	svn_list_words(n, t);
}

/* "GRUB menu: ...", "systemd-boot menu: ...": the files a loader's menu was read from. */
static void
menu_files_words(const sbat_boot_note *n, cli_textbuf *t)
{
	size_t i;

	cli_textbuf_put(t, "%s menu: ", loader_words(n->loader));
	if (n->loader != SBAT_BOOT_LOADER_GRUB) {
		cli_textbuf_put(t, "loader.conf %s", n->conf_file ? n->conf_file : "none");
		if (n->conf_default)
			cli_textbuf_put(t, " (default \"%s\", line %u)", n->conf_default, n->conf_default_line);
		cli_textbuf_put(t, "; %zu entries in the menu, %zu left out; XBOOTLDR %s", n->listed, n->left_out,
		                n->xbootldr ? n->xbootldr : "none");
		return;
	}
	/* each configuration by its name, and the file on this machine unless the name is its path on the ESP */
	for (i = 0; i < n->n_chain && i < SBAT_BOOT_NOTE_CHAIN_MAX; i++) {
		cli_textbuf_put(t, "%s%s", i ? " -> " : "", n->chain[i] ? n->chain[i] : CLI_GRUB_EMBEDDED);
		if (n->chain_host[i] && !(i == 0 && n->chain_on_esp))
			cli_textbuf_put(t, " (%s)", n->chain_host[i]);
	}
}

/* Why a pending update is applied, or not: what follows its file in the note. */
static const char *const pending_table[] = {
	[SBAT_BOOT_PENDING_PLAIN] =
	    "; a plain signature list, taken as given: the firmware takes only an authenticated write "
	    "(one with its EFI_VARIABLE_AUTHENTICATION_2 header)",
	[SBAT_BOOT_PENDING_BY_KEK] = "; the firmware takes it: signed under the KEK certificate ",
	[SBAT_BOOT_PENDING_BY_PK] = "; the firmware takes it: signed by the PK ",
	[SBAT_BOOT_PENDING_SETUP_MODE] = "; the firmware takes it unchecked: it is in setup mode (no PK)",
	[SBAT_BOOT_PENDING_BAD_SIGNATURE] = "its signature does not verify over the variable's name, GUID, attributes, "
	                                    "timestamp and lists",
	[SBAT_BOOT_PENDING_NO_SIGNER] = "its signer's certificate is not in its SignedData",
	[SBAT_BOOT_PENDING_BAD_TIME] = "its timestamp's Pad1, Nanosecond, TimeZone, Daylight or Pad2 is not zero",
	[SBAT_BOOT_PENDING_NOT_SHA256] =
	    "its SignedData does not name SHA-256 at byte 13, where the firmware reads its "
	    "digest algorithm",
	[SBAT_BOOT_PENDING_TOO_BIG] =
	    "its SignedData is over 65520 bytes, which the firmware wraps with 16-bit lengths",
	[SBAT_BOOT_PENDING_CHAIN_BAD_SIGNATURE] = "a certificate's signature on the way to it does not verify",
	[SBAT_BOOT_PENDING_CHAIN_NOT_CA] = "an issuer on the way to it is not a CA",
	[SBAT_BOOT_PENDING_UNKNOWN_TYPE] = "it holds a signature list of a type the firmware does not know",
	[SBAT_BOOT_PENDING_BAD_CERT] = "it holds an EFI_CERT_X509 entry that is no certificate with an RSA key",
	[SBAT_BOOT_PENDING_PK_SEVERAL] = "it holds more than one signature, and the firmware takes a PK of one",
};
CLI_STRTABLE_LOOKUP(pending, sbat_boot_pending)

/* 1 if the note is about KEK or PK, the variables the PK alone signs. */
static int
pk_signs(const sbat_boot_note *n)
{
	return n->variable && (!strcmp(n->variable, "KEK") || !strcmp(n->variable, "PK"));
}

/* 1 if the note is about one of shim's lists, which MokManager enrolls. */
static int
mok_list(const sbat_boot_note *n)
{
	return n->variable && (!strcmp(n->variable, "MokList") || !strcmp(n->variable, "MokListX"));
}

/* A PK update the firmware takes: PK replaced, or deleted. */
static void
pending_pk_words(const sbat_boot_note *n, const char *why, cli_textbuf *t)
{
	if (n->count)
		cli_textbuf_put(t, "pending: %s replaces PK (%zu entr%s)", n->pending, n->count,
		                n->count == 1 ? "y" : "ies");
	else
		cli_textbuf_put(t, "pending: %s deletes PK", n->pending);
	cli_textbuf_put(t, "%s%s", why ? why : "", n->key && n->check != SBAT_BOOT_PENDING_SETUP_MODE ? n->key : "");
	if (!n->count)
		cli_textbuf_put(t, ": the machine is in setup mode after it, and the firmware checks no later update");
}

/* A pending update of a directory: the one of it applied, or why none. */
static void
pending_dir_words(const sbat_boot_note *n, cli_textbuf *t)
{
	int kek = pk_signs(n);
	const char *who = kek ? "this machine's PK" : "a KEK or the PK of this machine";

	if (n->picked) {
		cli_textbuf_put(t, "pending: %s: %s is the update %s signs (%s%s): appended to %s (", n->pending,
		                n->picked, who,
		                kek                                 ? "" :
		                n->check == SBAT_BOOT_PENDING_BY_PK ? "PK " :
		                                                      "KEK certificate ",
		                n->key ? n->key : "", n->variable);
		new_entries_words(n, t);
		cli_textbuf_put(t, ")");
	} else if (n->check == SBAT_BOOT_PENDING_DIR_SETUP_MODE)
		cli_textbuf_put(t,
		                "pending: %s not applied to %s: the machine is in setup mode, where the firmware would "
		                "take any of its %zu updates unchecked: name one",
		                n->pending, n->variable, n->candidates);
	else
		cli_textbuf_put(t,
		                "pending: %s not applied to %s: none of its %zu updates is signed by %s: the firmware "
		                "would refuse each",
		                n->pending, n->variable, n->candidates, who);
}

/* A pending update: appended (how the firmware takes it), or not and why. */
static void
pending_words(const sbat_boot_note *n, cli_textbuf *t)
{
	const char *why = pending_to_string(n->check);
	int kek = pk_signs(n);

	if (n->picked || n->check == SBAT_BOOT_PENDING_DIR_NONE || n->check == SBAT_BOOT_PENDING_DIR_SETUP_MODE)
		pending_dir_words(n, t);
	else if (n->check <= SBAT_BOOT_PENDING_SETUP_MODE && n->variable && !strcmp(n->variable, "PK"))
		pending_pk_words(n, why, t);
	else if (n->check == SBAT_BOOT_PENDING_PLAIN && mok_list(n)) {
		cli_textbuf_put(t, "pending: %s appended to %s (", n->pending, n->variable);
		new_entries_words(n, t);
		cli_textbuf_put(t, "): MokManager enrolls it as given once mokutil's request is confirmed at the next "
		                   "boot");
	} else if (n->check <= SBAT_BOOT_PENDING_SETUP_MODE) {
		cli_textbuf_put(t, "pending: %s appended to %s (", n->pending, n->variable);
		new_entries_words(n, t);
		cli_textbuf_put(t, ")%s%s%s%s", n->unread ? ": no verdict reads " : "", n->unread ? n->variable : "",
		                why ? why : "", n->key && n->check != SBAT_BOOT_PENDING_SETUP_MODE ? n->key : "");
	} else if (n->check == SBAT_BOOT_PENDING_SEVERAL_SIGNERS)
		cli_textbuf_put(t,
		                "pending: %s not applied to %s: it has more than one SignerInfo: whether the firmware "
		                "takes it is not checked",
		                n->pending, n->variable);
	else if (n->check == SBAT_BOOT_PENDING_NOT_SIGNED)
		cli_textbuf_put(t, "pending: %s not applied to %s: %s: the firmware would refuse this update",
		                n->pending, n->variable,
		                kek ? "not signed by this machine's PK" : "not signed by any KEK of this machine");
	else if (n->check == SBAT_BOOT_PENDING_CHAIN_BAD_SIGNATURE || n->check == SBAT_BOOT_PENDING_CHAIN_NOT_CA)
		cli_textbuf_put(
		    t, "pending: %s not applied to %s: it reaches %s, but %s: the firmware would refuse this update",
		    n->pending, n->variable, n->key ? n->key : "a key of this machine", why ? why : "");
	else
		cli_textbuf_put(t, "pending: %s not applied to %s: %s: the firmware would refuse this update",
		                n->pending, n->variable, why ? why : "refused");
}

/* A note with facts: the default entry, the rule, a database, a pending update, a count. */
static void
fact_words(const sbat_boot_note *n, cli_textbuf *t)
{
	const char *rule = rule_long_to_string(n->rule);

	switch (n->what) {
	case SBAT_BOOT_NOTE_DEFAULT_ENTRY: default_entry_words(n, t); break;
	case SBAT_BOOT_NOTE_MENU_FILES: menu_files_words(n, t); break;
	case SBAT_BOOT_NOTE_RULE:
		cli_textbuf_put(t, "%s rule: %s", loader_words(n->loader),
		                rule ? rule : rule_long_to_string(SBAT_BOOT_RULE_LOADIMAGE_HOOK));
		break;
	case SBAT_BOOT_NOTE_DB:
	case SBAT_BOOT_NOTE_DBX: db_words(n, t); break;
	case SBAT_BOOT_NOTE_PENDING: pending_words(n, t); break;
	case SBAT_BOOT_NOTE_ESP_PARTITION:
		cli_textbuf_put(t,
		                "taken as the partition of the options' HD() nodes (%s): which partition it is is not "
		                "known here",
		                n->partition);
		break;
	case SBAT_BOOT_NOTE_SHIM_RULES_ASSUMED:
		cli_textbuf_put(t,
		                "shim %u.%u is older than the releases modelled: judged by the rules of shim %u.%u, "
		                "which may not be its own",
		                n->shim_major, n->shim_minor, n->rules_major, n->rules_minor);
		break;
	case SBAT_BOOT_NOTE_MORE_LINES: cli_textbuf_put(t, "%zu more lines that are not followed", n->count); break;
	case SBAT_BOOT_NOTE_MORE_NOTES: cli_textbuf_put(t, "%zu more notes on its files not shown", n->count); break;
	default: break;
	}
}

const char *
cli_render_note(const sbat_boot_note *n, char *buf, size_t size)
{
	const char *fixed = note_fixed_to_string(n->what);
	cli_textbuf t;

	if (n->what == SBAT_BOOT_NOTE_DIAG)
		return NULL;
	if (fixed)
		return fixed;
	if (n->what == SBAT_BOOT_NOTE_LINE)
		return n->diag.what;
	cli_textbuf_init(&t, buf, size);
	fact_words(n, &t);
	return buf;
}
