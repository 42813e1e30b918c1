/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* boot_paths.c - --check-level next without IMAGEs: the library's walk (sbat_walk_next_boot) as text or JSON */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbat/authenticode.h"
#include "sbat/bootreport.h"
#include "sbat/error.h"
#include "sbat/judge.h"
#include "sbat/nextstate.h"
#include "sbat/sigdb.h"
#include "sbat/sigverify.h"
#include "sbat/walk.h"

#include "boot_paths.h"
#include "history.h"
#include "json.h"
#include "luks.h"
#include "pcrnext.h"
#include "messages.h"
#include "next_level.h"
#include "render_note.h"
#include "render_codes.h"
#include "render_stage.h"

/* What put a level's row there, from the published history (sbat_walk_opts.explain). */
static int
explain(const char *component, unsigned generation, char *out, size_t size, void *ctx)
{
	(void)ctx;
	return cli_history_explain(component, generation, out, size);
}

/* The longest line or key a stage or a note is said in. */
#define LINE_MAX_ 8192

/* A note that goes to standard error: a line of a loader's file ignored, a file that does not read. */
static void
print_problem(const sbat_boot_note *n)
{
	char buf[LINE_MAX_];
	const char *text = cli_render_note(n, buf, sizeof(buf));

	if (n->kind == SBAT_BOOT_NOTE_CONFIG)
		fprintf(stderr, "%s: %s:%u: %s\n", cli_progname, cli_quote(n->file), n->line, text);
	else if (text)
		cli_message(n->file, text);
	else
		cli_report_error(n->file, &n->diag);
}

/* A note shown with the stages: "  ENTRY: TEXT", or "  --esp DIR: TEXT" for what was taken of --esp. */
static void
print_note_text(const cli_opts *o, const sbat_boot_note *n)
{
	char buf[LINE_MAX_];
	const char *text = cli_render_note(n, buf, sizeof(buf));

	if (n->kind == SBAT_BOOT_NOTE_CONFIG || n->kind == SBAT_BOOT_NOTE_ERROR) {
		print_problem(n);
		return;
	}
	if (n->kind == SBAT_BOOT_NOTE_VERBOSE && !o->verbose)
		return;
	if (n->path)
		printf("  %s: %s\n", n->path, cli_quote(text));
	else if (n->file)
		printf("  --esp %s: %s\n", n->file, cli_quote(text));
	else
		printf("  %s\n", cli_quote(text));
}

/* The report's line as text. */
static void
print_stage_text(const sbat_boot_stage *st)
{
	char line[LINE_MAX_];

	cli_render_stage(st, line, sizeof(line));
	printf("%s%s: ", st->entry, st->is_default ? " [default]" : "");
	if (st->stage)
		printf("stage %d %s", st->stage, cli_render_file(st));
	if (st->menu_entry)
		printf(" (%s", st->menu_entry);
	if (st->menu_entry && st->more_entries)
		printf(" and %u more", st->more_entries);
	if (st->menu_entry)
		putchar(')');
	printf("%s%s%s\n", st->default_entry ? " [default entry]" : "", st->stage ? ": " : "", cli_quote(line));
}

/* The JSON keys a stage-3 line adds. */
static void
stage3_json(const sbat_boot_stage *st)
{
	char by[LINE_MAX_];

	printf(", \"loader\": ");
	cli_json_cstr(stdout, cli_render_loader(st));
	printf(", \"menu_entry\": ");
	cli_json_cstr_or_null(stdout, st->menu_entry);
	printf(", \"more_entries\": %u, \"default_entry\": %s, \"default_by\": ", st->more_entries,
	       st->default_entry ? "true" : "false");
	cli_json_cstr_or_null(stdout, cli_render_default_by(st, by, sizeof(by)));
	printf(", \"default_code\": ");
	cli_json_cstr_or_null(stdout, cli_render_default_code(st));
	printf(", \"default_value\": ");
	cli_json_cstr_or_null(stdout, st->default_value);
	printf(", \"rule\": ");
	cli_json_cstr_or_null(stdout, cli_render_rule(st));
	printf(", \"config\": ");
	cli_json_cstr_or_null(stdout, st->config);
	printf(", \"menu_why\": ");
	cli_json_cstr_or_null(stdout, cli_render_menu_why(st));
}

/* A Windows boot manager judged against dbx's SVN floor: its SVN (null: not read, svn_unread says why), the floor. */
static void
svn_json(const sbat_boot_stage *st)
{
	if (st->svn_read)
		printf(", \"svn\": {\"major\": %u, \"minor\": %u}", st->svn_major, st->svn_minor);
	else
		printf(", \"svn\": null");
	printf(", \"svn_floor\": {\"major\": %u, \"minor\": %u}, \"svn_unread\": ", st->svn_floor_major,
	       st->svn_floor_minor);
	if (st->svn_read)
		printf("null");
	else
		cli_json_cstr(stdout, st->svn_diag.code == SBAT_OK ? "no BOOTMGRSECURITYVERSIONNUMBER resource" :
		                      st->svn_diag.what            ? st->svn_diag.what :
		                                                     sbat_strerror(st->svn_diag.code));
}

/* The report's line as a JSON object. */
static void
print_stage_json(const sbat_boot_stage *st, size_t i)
{
	char line[LINE_MAX_], sig[LINE_MAX_];
	const char *signature = cli_render_signature(st, sig, sizeof(sig));

	cli_render_stage(st, line, sizeof(line));
	printf("%s    {\"entry\": ", i ? ",\n" : "");
	cli_json_cstr(stdout, st->entry);
	printf(", \"default\": %s, \"stage\": %d, \"file\": ", st->is_default ? "true" : "false", st->stage);
	cli_json_cstr_or_null(stdout, cli_render_file(st));
	printf(", \"verdict\": \"%s\", \"detail\": ", sbat_judge_verdict_name(st->verdict));
	cli_json_cstr(stdout, cli_render_detail(st, line));
	printf(", \"reason\": \"%s\", \"gate\": \"%s\", \"judge_reason\": ", cli_render_reason(st),
	       cli_render_gate(st));
	cli_json_cstr_or_null(
	    stdout, st->judge_reason >= 0 ? sbat_judge_reason_name((sbat_judge_reason)st->judge_reason) : NULL);
	printf(", \"level\": ");
	cli_json_cstr_or_null(stdout, st->level);
	printf(", \"revoked\": ");
	cli_json_cstr_or_null(stdout, st->revoked);
	printf(", \"revoked_by\": ");
	cli_json_cstr_or_null(stdout, st->revoked_by);
	printf(", \"signature\": ");
	cli_json_cstr_or_null(stdout, signature);
	printf(", \"signature_verdict\": ");
	cli_json_cstr_or_null(stdout, signature ? sbat_judge_verdict_name(st->signature_verdict) : NULL);
	printf(", \"signature_reason\": ");
	cli_json_cstr_or_null(stdout, cli_render_signature_reason(st));
	printf(", \"signature_hash\": ");
	cli_json_cstr_or_null(stdout, st->signature_hash_alg > 0 ?
	                                  sbat_authenticode_digest_name((sbat_digest_alg)st->signature_hash_alg) :
	                                  NULL);
	if (st->revocations_ignored) {
		printf(", \"revocations_ignored\": ");
		cli_json_cstr(stdout, st->revocations_ignored);
	}
	if (st->revocations_signature != SBAT_NEXT_REV_SIG_NONE) {
		printf(", \"revocations_signature\": \"%s\", \"revocations_signature_reason\": ",
		       cli_next_rev_sig_word(st->revocations_signature));
		cli_json_cstr_or_null(stdout, st->revocations_signature == SBAT_NEXT_REV_SIG_VERIFIED ||
		                                      st->revocations_signature == SBAT_NEXT_REV_SIG_REFUSED ?
		                                  sbat_sigverify_reason_name(st->revocations_sig_reason) :
		                                  NULL);
		printf(", \"revocations_signature_unread\": ");
		cli_json_cstr_or_null(stdout, st->revocations_sig_unread);
	}
	if (st->shim_stored) {
		printf(", \"shim_stored\": ");
		cli_json_cstr(stdout, st->shim_stored);
	}
	if (st->svn_judged)
		svn_json(st);
	if (st->loader != SBAT_BOOT_LOADER_NONE)
		stage3_json(st);
	putchar('}');
}

/* A note's SVN entries (dbx's, or those a pending update adds): "svns": [{application, guid, major, minor}]. */
static void
svns_json(const sbat_boot_note *note)
{
	char guid[37];
	size_t i;

	if (!note->svns)
		return;
	fputs(", \"svns\": [", stdout);
	for (i = 0; i < note->svns && i < SBAT_BOOT_NOTE_SVN_MAX; i++) {
		sbat_sigdb_guid_format(note->svn[i].app_guid, guid);
		printf("%s{\"application\": \"%s\", \"guid\": \"%s\", \"major\": %u, \"minor\": %u}", i ? ", " : "",
		       sbat_sigdb_svn_app_name(note->svn[i].app), guid, note->svn[i].major, note->svn[i].minor);
	}
	printf("], \"svn_count\": %zu", note->svns);
}

/* The notes shown with the stages, as a JSON array (the problems went to standard error). */
static void
print_notes_json(const sbat_boot_report *r)
{
	char buf[LINE_MAX_];
	size_t i, n = 0;

	fputs("  \"notes\": [", stdout);
	for (i = 0; i < sbat_boot_report_note_count(r); i++) {
		const sbat_boot_note *note = sbat_boot_report_note_at(r, i);

		if (note->kind != SBAT_BOOT_NOTE_ASSUMED && note->kind != SBAT_BOOT_NOTE_VERBOSE)
			continue;
		printf("%s\n    {\"kind\": \"%s\", \"entry\": ", n++ ? "," : "",
		       sbat_boot_report_note_kind_name(note->kind));
		cli_json_cstr_or_null(stdout, note->path);
		fputs(", \"file\": ", stdout);
		cli_json_cstr_or_null(stdout, note->file);
		fputs(", \"text\": ", stdout);
		cli_json_cstr_or_null(stdout, cli_render_note(note, buf, sizeof(buf)));
		svns_json(note);
		putchar('}');
	}
	fputs(n ? "\n  ],\n" : "],\n", stdout);
}

/* The stages in order, each note at its place: problems on standard error, the rest with the stages in text. */
static void
print_report(const cli_opts *o, const sbat_boot_report *r)
{
	size_t i, k = 0, n = sbat_boot_report_count(r), n_notes = sbat_boot_report_note_count(r);

	for (i = 0; i <= n; i++) {
		for (; k < n_notes && sbat_boot_report_note_at(r, k)->before <= i; k++) {
			const sbat_boot_note *note = sbat_boot_report_note_at(r, k);

			if (!o->json)
				print_note_text(o, note);
			else if (note->kind == SBAT_BOOT_NOTE_CONFIG || note->kind == SBAT_BOOT_NOTE_ERROR)
				print_problem(note);
		}
		if (i < n && o->json)
			print_stage_json(sbat_boot_report_stage(r, i), i);
		else if (i < n)
			print_stage_text(sbat_boot_report_stage(r, i));
	}
}

/* The exit status of the walk: the default path first (refused, then not known), then the others alike. */
static int
walk_status(const sbat_boot_outcome *out)
{
	return out->default_refused ? EXIT_REVOKED :
	       out->default_unknown ? EXIT_DEFAULT_UNKNOWN :
	       out->other_refused   ? EXIT_OTHER_PATH_REFUSED :
	       out->other_unknown   ? EXIT_OTHER_PATH_UNKNOWN :
	                              EXIT_OK;
}

/* The next boot's PCRs along each path, when there is a log (pcrnext.c), then the LUKS2 volumes judged against the
 * default path's (luks.c); the exit status, given the walk's. */
static int
print_pcrs(const cli_opts *o, const sbat_boot_report *r, int status)
{
	cli_prediction c;

	cli_pcrnext_make(o, r, &c);
	if (o->json)
		cli_pcrnext_print_json(&c);
	else
		cli_pcrnext_print_text(&c);
	status = cli_luks_next(o, &c, status);
	cli_pcrnext_free(&c);
	return status;
}

static int
print_json(const sbat_boot_report *r, const sbat_boot_outcome *out, const cli_opts *o, int status)
{
	fputs("{\n  \"schema\": 1,\n  \"mode\": \"boot-paths\",\n  \"stages\": [\n", stdout);
	print_report(o, r);
	printf("%s  ],\n", sbat_boot_report_count(r) ? "\n" : "");
	print_notes_json(r);
	status = print_pcrs(o, r, status);
	printf("  \"default_refused\": %s,\n  \"other_refused\": %s,\n  \"default_unknown\": %s,\n"
	       "  \"other_unknown\": %s,\n  \"exit_status\": %d\n}\n",
	       out->default_refused ? "true" : "false", out->other_refused ? "true" : "false",
	       out->default_unknown ? "true" : "false", out->other_unknown ? "true" : "false", status);
	return status;
}

int
cli_run_boot_paths(const cli_opts *o)
{
	sbat_walk_opts wo;
	sbat_boot_report *r = NULL;
	sbat_boot_outcome out;
	sbat_diag d;
	int status;

	sbat_walk_opts_init(&wo);
	wo.efivarfs = cli_efivarfs_dir();
	wo.esp = o->esp;
	wo.xbootldr = o->xbootldr;
	wo.boot = o->boot;
	wo.shim = o->level_file;
	wo.explain = explain;
	wo.no_signatures = o->no_signatures;
	wo.pending = o->pending;
	wo.n_pending = o->n_pending;
	if (sbat_walk_next_boot(&wo, &r, &d) != SBAT_OK)
		return cli_report_error("--check-level next", &d);
	out = sbat_boot_report_outcome(r);
	if (out.no_variables || out.failed) {
		/* no path is known: only the notes that say why */
		cli_opts text = *o;

		text.json = 0;
		print_report(&text, r);
		status = out.no_variables ? EXIT_NO_LEVEL : EXIT_FAILURE_;
	} else if (o->json) {
		status = print_json(r, &out, o, walk_status(&out));
	} else {
		print_report(o, r);
		status = print_pcrs(o, r, walk_status(&out));
	}
	sbat_boot_report_free(r);
	return status;
}
