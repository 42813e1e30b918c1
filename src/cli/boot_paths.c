/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* boot_paths.c - --check-level next without IMAGEs: every boot path the firmware will take, stage by stage */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "sbat/sbat.h"

#include "boot_paths.h"
#include "boot_stage.h"
#include "history.h"
#include "json.h"
#include "messages.h"
#include "next_level.h"

#define MAX_OPTIONS 128

/* ------------------------------------------------------------ the ESP */

/* The partition GUID of the block device --esp is on ("" when not known: no /dev/disk/by-partuuid, or a copy). */
static const char *
esp_guid(walk *w)
{
	if (!w->esp_guid_done && w->o->esp && !sbat_partition_guid_of(w->o->esp, w->esp_guid, sizeof(w->esp_guid)))
		w->esp_guid[0] = '\0';
	w->esp_guid_done = 1;
	return w->esp_guid;
}

const char *
cli_partition_why(sbat_partition_miss miss)
{
	static const char *const whys[] = {
		[SBAT_PARTITION_MISSING] = "missing",
		[SBAT_PARTITION_DOT] = "has a . or .. component",
		[SBAT_PARTITION_SYMLINK] = "is a symbolic link",
		[SBAT_PARTITION_NOT_REGULAR] = "is not a regular file",
		[SBAT_PARTITION_NOT_DIRECTORY] = "is not a directory",
		[SBAT_PARTITION_PARENT_NOT_DIR] = "has a component that is not a directory",
		[SBAT_PARTITION_UNREADABLE] = "its directory cannot be read",
		[SBAT_PARTITION_NO_MEMORY] = "cannot be looked up: out of memory",
		[SBAT_PARTITION_TOO_LONG] = "has too long a path",
	};

	return (unsigned)miss < sizeof(whys) / sizeof(whys[0]) && whys[miss] ? whys[miss] : "missing";
}

char *
cli_resolve(const char *root, const char *p, int flags, const char **why)
{
	unsigned f = ((flags & CLI_RESOLVE_DIR) ? SBAT_PARTITION_DIR : 0) |
	             ((flags & CLI_RESOLVE_EXACT) ? SBAT_PARTITION_EXACT : 0);
	char *out = NULL;
	sbat_partition_miss miss = sbat_partition_resolve(root, p, f, &out);

	*why = miss == SBAT_PARTITION_FOUND ? "missing" : cli_partition_why(miss);
	return out;
}

/* ------------------------------------------------------------ one image */

int
cli_image_open(const char *path, image *im)
{
	memset(im, 0, sizeof(*im));
	if (sbat_file_read(path, SBAT_FILE_MAX_SIZE, &im->buf, &im->len, &im->d) != SBAT_OK ||
	    sbat_image_parse(im->buf, im->len, &im->img, &im->d) != SBAT_OK)
		return -1;
	im->machine = sbat_image_get_info(im->img)->machine;
	im->is_shim = sbat_image_find_section(im->img, SBAT_LEVEL_SECTION_NAME) >= 0 ||
	              sbat_image_find_section(im->img, ".sbatlev") >= 0;
	if (sbat_judge_image(im->img, NULL, SBAT_JUDGE_SHIM_NOT_ENFORCING, SBAT_JUDGE_STARTED_BY_SHIM, &im->read,
	                     &im->d) != SBAT_OK)
		return -1;
	return 0;
}

void
cli_image_close(image *im)
{
	sbat_judgement_free(im->read);
	sbat_image_free(im->img);
	free(im->buf);
}

/* 1 when the level in text (len bytes; NULL: none) parses and revokes a row of csv. */
static int
level_revokes(const uint8_t *text, size_t len, const sbat_csv *csv)
{
	sbat_level *level = NULL;
	sbat_revocation r;
	size_t nr = 0;
	sbat_diag d;
	int revokes;

	if (!text || sbat_level_parse_shim(text, len, &level, &d) != SBAT_OK)
		return 0;
	revokes = sbat_level_check(level, csv, &r, 1, &nr, &d) == SBAT_OK && nr > 0;
	sbat_level_free(level);
	return revokes;
}

/*
 * What else fixes a refusal: when SbatPolicy asked for shim's latest payload
 * and neither the stored level nor the automatic payload revokes the image,
 * withdrawing that request keeps it bootable.
 */
static const char *
pending_latest_hint(const cli_next *n, const sbat_csv *csv)
{
	const sbat_next_step *s = &n->boot[0].builtin;

	if (s->choice != SBAT_NEXT_CHOSE_LATEST || s->rule != SBAT_NEXT_REPLACED || !n->automatic)
		return "";
	if (level_revokes(n->in[0].current, n->in[0].current_len, csv) ||
	    level_revokes((const uint8_t *)n->automatic, strlen(n->automatic), csv))
		return "";
	return "; SbatPolicy latest is pending: without it shim's automatic level would let it boot "
	       "(mokutil --set-sbat-policy delete)";
}

/* The refusal of a revoked row, what put it there, and what else fixes it. */
static void
revoked_text(const cli_next *n, const sbat_judgement *j, char *why, size_t why_size)
{
	const sbat_revocation *r = &j->revoked[0];
	char past[400];

	if (cli_history_explain(r->level->component_name, r->level->generation, past + 2, sizeof(past) - 2) == 0)
		memcpy(past, "; ", 2);
	else
		past[0] = '\0';
	snprintf(why, why_size, "refused: %s,%u is below %s,%u (SbatLevel %s%s); install one with %s,%u or later%s",
	         r->entry->component_name, (unsigned)r->entry->generation, r->level->component_name,
	         (unsigned)r->level->generation, n->level[0]->datestamp, past, r->level->component_name,
	         (unsigned)r->level->generation, pending_latest_hint(n, j->csv));
}

/* The line's text from the verdict word on. */
static void
judgement_text(const cli_next *n, const sbat_judgement *j, char *why, size_t why_size)
{
	const sbat_diag *e = &j->sbat_error;

	switch (j->reason) {
	case SBAT_JUDGE_NOT_REVOKED:
		snprintf(why, why_size, "boots: not revoked by SbatLevel %s", n->level[0]->datestamp);
		break;
	case SBAT_JUDGE_NO_ROWS: snprintf(why, why_size, "boots: its .sbat holds no row shim reads"); break;
	case SBAT_JUDGE_MISSING_PASSES: snprintf(why, why_size, "boots: no .sbat, which this check lets pass"); break;
	case SBAT_JUDGE_NOT_ENFORCED:
		snprintf(why, why_size, "boots: Secure Boot is off, so shim checks no SBAT");
		break;
	case SBAT_JUDGE_REVOKED: revoked_text(n, j, why, why_size); break;
	case SBAT_JUDGE_MISSING:
		snprintf(why, why_size, "refused: no .sbat, which shim requires of what it starts itself");
		break;
	case SBAT_JUDGE_UNPARSABLE:
	case SBAT_JUDGE_MULTIPLE:
	case SBAT_JUDGE_RELOCATIONS:
		snprintf(why, why_size, "refused: shim cannot use its .sbat (%s)",
		         e->what ? e->what : sbat_strerror(e->code));
		break;
	case SBAT_JUDGE_SHIM_STOPPED: snprintf(why, why_size, "refused: shim stops before starting it"); break;
	case SBAT_JUDGE_SECURE_BOOT_UNKNOWN:
		snprintf(why, why_size, "unknown: whether Secure Boot is on is not known");
		break;
	}
}

/* What shim does in the next boot, as the judge takes it. */
static sbat_judge_shim
shim_state(const cli_next *n)
{
	switch (n->mode[0]) {
	case CLI_NEXT_ENFORCED: return SBAT_JUDGE_SHIM_ENFORCES;
	case CLI_NEXT_NOT_ENFORCED: return SBAT_JUDGE_SHIM_NOT_ENFORCING;
	case CLI_NEXT_SHIM_STOPS: return SBAT_JUDGE_SHIM_STOPS;
	}
	return SBAT_JUDGE_SHIM_UNKNOWN;
}

/* shim's check (sbat_judge_image): a missing .sbat fails what shim starts itself (in_protocol 0) only. */
enum stage_verdict
cli_judge_image(const cli_next *n, const image *im, int in_protocol, char *why, size_t why_size)
{
	static const enum stage_verdict verdicts[] = {
		[SBAT_VERDICT_BOOTS] = STAGE_BOOTS,
		[SBAT_VERDICT_REFUSED] = STAGE_REFUSED,
		[SBAT_VERDICT_NOT_GOVERNED] = STAGE_NOT_GOVERNED,
		[SBAT_VERDICT_UNKNOWN] = STAGE_UNKNOWN,
	};
	sbat_judgement *j = NULL;
	enum stage_verdict v;
	sbat_diag d;

	if (sbat_judge_image(im->img, n->level[0], shim_state(n),
	                     in_protocol ? SBAT_JUDGE_IN_PROTOCOL : SBAT_JUDGE_STARTED_BY_SHIM, &j, &d) != SBAT_OK) {
		snprintf(why, why_size, "unknown: %s", d.what ? d.what : sbat_strerror(d.code));
		return STAGE_UNKNOWN;
	}
	judgement_text(n, j, why, why_size);
	v = verdicts[j->verdict];
	sbat_judgement_free(j);
	return v;
}

/* ------------------------------------------------------------ one path */

/* 1 when s ends in ".efi", in any case. */
static int
ends_in_efi(const char *s)
{
	size_t n = strlen(s);

	return n > 4 && strcasecmp(s + n - 4, ".efi") == 0;
}

/* shim's is_removable_media_path: \EFI\BOOT\BOOT*.EFI, in any case, the leading backslash optional. */
static int
is_removable_path(const char *p)
{
	if (*p == '\\')
		p++;
	return strncasecmp(p, "EFI\\BOOT\\BOOT", 13) == 0 && ends_in_efi(p);
}

/* The word a line of each verdict starts with. */
static const char *const verdict_words[] = {
	[SBAT_VERDICT_BOOTS] = "boots",
	[SBAT_VERDICT_REFUSED] = "refused",
	[SBAT_VERDICT_NOT_GOVERNED] = "not governed by SBAT",
	[SBAT_VERDICT_UNKNOWN] = "cannot be followed",
	[SBAT_VERDICT_SKIPPED] = "skipped",
	[SBAT_VERDICT_INACTIVE] = "inactive",
};

sbat_verdict
cli_verdict_of(enum stage_verdict v)
{
	switch (v) {
	case STAGE_BOOTS: return SBAT_VERDICT_BOOTS;
	case STAGE_REFUSED: return SBAT_VERDICT_REFUSED;
	case STAGE_NOT_GOVERNED: return SBAT_VERDICT_NOT_GOVERNED;
	case STAGE_UNKNOWN: break;
	}
	return SBAT_VERDICT_UNKNOWN;
}

/* text without the word its verdict v starts it with, and the ": " after that word. */
static const char *
verdict_detail(sbat_verdict v, const char *text)
{
	const char *word = (unsigned)v < sizeof(verdict_words) / sizeof(verdict_words[0]) ? verdict_words[v] : NULL;
	size_t n = word ? strlen(word) : 0;

	if (!word || strncmp(text, word, n) != 0)
		return text;
	text += n;
	if (*text == ':')
		text += 1 + (text[1] == ' ');
	return text;
}

/* The JSON keys a stage-3 line adds. */
static void
stage_extra_json(const stage_extra *x)
{
	printf(", \"loader\": ");
	cli_json_cstr(stdout, x->loader);
	printf(", \"menu_entry\": ");
	if (x->menu_entry)
		cli_json_cstr(stdout, x->menu_entry);
	else
		fputs("null", stdout);
	printf(", \"more_entries\": %u, \"default_entry\": %s, \"default_by\": ", x->more,
	       x->default_entry ? "true" : "false");
	if (x->default_by)
		cli_json_cstr(stdout, x->default_by);
	else
		fputs("null", stdout);
	printf(", \"rule\": ");
	if (x->rule)
		cli_json_cstr(stdout, x->rule);
	else
		fputs("null", stdout);
	printf(", \"config\": ");
	if (x->config)
		cli_json_cstr(stdout, x->config);
	else
		fputs("null", stdout);
}

/* The report's line as text. */
static void
print_stage_text(const sbat_boot_stage *st)
{
	printf("%s%s: ", st->entry, st->is_default ? " [default]" : "");
	if (st->stage)
		printf("stage %d %s", st->stage, st->file);
	if (st->menu_entry)
		printf(" (%s", st->menu_entry);
	if (st->menu_entry && st->more_entries)
		printf(" and %u more", st->more_entries);
	if (st->menu_entry)
		putchar(')');
	printf("%s%s%s\n", st->default_entry ? " [default entry]" : "", st->stage ? ": " : "", st->text);
}

/* The report's line as a JSON object; x: the stage-3 keys. */
static void
print_stage_json(walk *w, const sbat_boot_stage *st, const stage_extra *x)
{
	printf("%s    {\"entry\": ", w->n_lines++ ? ",\n" : "");
	cli_json_cstr(stdout, st->entry);
	printf(", \"default\": %s, \"stage\": %d, \"file\": ", st->is_default ? "true" : "false", st->stage);
	if (st->file)
		cli_json_cstr(stdout, st->file);
	else
		fputs("null", stdout);
	printf(", \"verdict\": \"%s\", \"detail\": ", sbat_judge_verdict_name(st->verdict));
	cli_json_cstr(stdout, st->detail);
	if (x)
		stage_extra_json(x);
	putchar('}');
}

void
cli_stage_line(walk *w, const char *label, int is_default, int stage, const char *file, sbat_verdict verdict,
               const char *text, const stage_extra *x)
{
	sbat_boot_stage st;
	sbat_diag d;

	sbat_boot_stage_init(&st);
	st.entry = label;
	st.is_default = is_default;
	st.off_default = w->other_entry;
	st.stage = stage;
	st.file = file;
	st.verdict = verdict;
	st.text = text;
	st.detail = verdict_detail(verdict, text);
	if (x) {
		st.loader = x->loader;
		st.menu_entry = x->menu_entry;
		st.more_entries = x->more;
		st.default_entry = x->default_entry;
		st.default_by = x->default_by;
		st.rule = x->rule;
		st.config = x->config;
	}
	if (sbat_boot_report_add(w->report, &st, &d) != SBAT_OK)
		w->report_failed = 1;
	if (w->o->json)
		print_stage_json(w, &st, x);
	else
		print_stage_text(&st);
}

/*
 * What shim started from uefi_path starts: its FALLBACK when shim runs from
 * the removable-media path and the file is there (should_use_fallback),
 * else its second stage, from its load options as shim reads them.
 * Returns 1 for the fallback, 0 for the second stage, -1 when the load
 * options name nothing a path can hold (why says so).
 */
static int
next_stage_name(const char *esp, const char *uefi_path, const uint8_t *opt, size_t opt_len, uint16_t machine, char *out,
                size_t size, char *why, size_t why_size)
{
	const char *reason;
	sbat_shim_stage2 s2;
	sbat_diag d;
	char *fb, fallback[32];

	sbat_fallback_path(machine, fallback, sizeof(fallback));
	if (is_removable_path(uefi_path) && (fb = cli_resolve(esp, fallback, 0, &reason)) != NULL) {
		free(fb);
		snprintf(out, size, "%s", fallback);
		return 1;
	}
	if (sbat_shim_stage2_path(opt, opt_len, uefi_path, sbat_shim_default_loader(machine), &s2, &d) != SBAT_OK) {
		snprintf(why, why_size, "cannot be followed: shim's load options name no path it can open: %s%s",
		         d.what ? d.what : sbat_strerror(d.code), d.has_offset ? " in the optional data" : "");
		return -1;
	}
	snprintf(out, size, "%s", s2.path);
	return 0;
}

/* The text of the stage-2 line for an image that opened: the verdict and the rule. */
static enum stage_verdict
second_stage_text(const cli_next *next, const image *im, int is_fallback, char *why, size_t size)
{
	char text[900];
	enum stage_verdict v = cli_judge_image(next, im, 0, text, sizeof(text));

	snprintf(why, size, "%s [shim starts it itself: .sbat required%s]", text,
	         is_fallback ? "; shim's fallback, run from the removable-media path: it makes boot entries "
	                       "from BOOT*.CSV and starts the first (or resets, with a TPM, and the firmware does)" :
	                       "");
	return v;
}

static enum stage_verdict follow_path(walk *w, const char *label, int is_default, const char *esp,
                                      const char *uefi_path, const char *nodes, size_t n_nodes, const uint8_t *opt,
                                      size_t opt_len);

/*
 * What shim's fallback starts: the entry it makes from a BOOT CSV, now
 * (no TPM) or first after the reset (a TPM), as a path of its own.
 */
static enum stage_verdict
follow_fallback(walk *w, const char *label, int is_default, const char *esp, uint16_t machine)
{
	static const char *const whys[] = {
		[SBAT_FALLBACK_NO_CSV] =
		    "fallback finds no BOOT CSV in \\EFI's directories, so it makes no entry and resets",
		[SBAT_FALLBACK_UNREADABLE] =
		    "a BOOT CSV that cannot be read, or whose first line names no file and label",
		[SBAT_FALLBACK_SEVERAL] =
		    "more than one directory of \\EFI holds a BOOT CSV; which fallback reads first is "
		    "the order of the directory on disk",
	};
	char sub[SBAT_LOAD_OPTION_TEXT_MAX + 80], text[480];
	sbat_fallback_entry *e;
	sbat_fallback_result r;
	enum stage_verdict v;

	if (w->in_fallback) /* an entry that starts fallback again: it loops */
		return STAGE_UNKNOWN;
	if (!(e = malloc(sizeof(*e))))
		return STAGE_UNKNOWN;
	r = sbat_fallback_find(esp, machine, e);
	if (r != SBAT_FALLBACK_ENTRY) {
		snprintf(text, sizeof(text), "cannot be followed: %s", whys[r]);
		cli_stage_line(w, label, is_default, 3, "\\EFI", SBAT_VERDICT_UNKNOWN, text, NULL);
		free(e);
		return STAGE_UNKNOWN;
	}
	snprintf(sub, sizeof(sub), "%s, fallback's entry", label);
	w->in_fallback = 1;
	v = follow_path(w, sub, is_default, esp, e->path, NULL, 0, e->args_len ? e->args : NULL, e->args_len);
	w->in_fallback = 0;
	free(e);
	return v;
}

/*
 * Judge the image shim starts itself (stage 2), at `second` under esp, and,
 * when shim lets it start, what it starts next (stage 3).
 */
static enum stage_verdict
judge_second_stage(walk *w, const char *label, int is_default, const cli_next *next, const char *esp,
                   const char *second, int is_fallback)
{
	char why[1400];
	const char *reason;
	char *file = cli_resolve(esp, second, 0, &reason);
	enum stage_verdict v = STAGE_UNKNOWN;
	image im;

	memset(&im, 0, sizeof(im));
	if (!file)
		snprintf(why, sizeof(why), "cannot be followed: %s under %s", reason, esp);
	else if (cli_image_open(file, &im) != 0)
		snprintf(why, sizeof(why), "cannot be followed: %s", im.d.what ? im.d.what : sbat_strerror(im.d.code));
	else
		v = second_stage_text(next, &im, is_fallback, why, sizeof(why));
	cli_stage_line(w, label, is_default, 2, second, cli_verdict_of(v), why, NULL);
	if (v == STAGE_BOOTS && !is_fallback &&
	    cli_follow_stage3(w, label, is_default, next, esp, second, &im) == STAGE_REFUSED)
		v = STAGE_REFUSED;
	if (v == STAGE_BOOTS && is_fallback && follow_fallback(w, label, is_default, esp, im.machine) == STAGE_REFUSED)
		v = STAGE_REFUSED;
	cli_image_close(&im);
	free(file);
	return v;
}

/*
 * The verdict words of shim's stage: an SbatPolicy that is not 1, 2 or 3
 * makes shim show an error and wait for a key (sbat.c, console_error) before
 * it goes on, which an unattended machine never gets.
 */
static const char *
policy_wait_text(const cli_next *next)
{
	if (next->boot[0].builtin.choice != SBAT_NEXT_CHOSE_INVALID)
		return "boots: ";
	return "cannot be followed: SbatPolicy is not 1, 2 or 3, so shim shows an error and waits for a key "
	       "press, which an unattended machine does not get; after one it goes on as ";
}

/* Judge shim itself (stage 1); 0 when it goes on to start its next stage. */
static int
judge_shim(walk *w, const char *label, int is_default, const char *file, const char *uefi_path, cli_next *next,
           enum stage_verdict *v)
{
	char why[512];

	/* next:SHIM: the shim about to be installed decides, wherever a shim starts */
	if (cli_next_load(w->o->level_file ? w->o->level_file : file, next) != EXIT_OK) {
		cli_stage_line(w, label, is_default, 1, uefi_path, SBAT_VERDICT_UNKNOWN,
		               "cannot be followed: shim's inputs do not read (see above)", NULL);
		*v = STAGE_UNKNOWN;
		return -1;
	}
	if (next->mode[0] == CLI_NEXT_SHIM_STOPS && next->level[0]->n_entries == 0) {
		cli_stage_line(w, label, is_default, 1, uefi_path, SBAT_VERDICT_REFUSED,
		               "refused: shim cannot parse the stored SbatLevel, so it stops the machine", NULL);
		*v = STAGE_REFUSED;
		return -1;
	}
	if (next->mode[0] == CLI_NEXT_SHIM_STOPS) {
		snprintf(why, sizeof(why), "refused: shim, SbatLevel %s revokes shim itself, so it stops the machine",
		         next->level[0]->datestamp);
		cli_stage_line(w, label, is_default, 1, uefi_path, SBAT_VERDICT_REFUSED, why, NULL);
		*v = STAGE_REFUSED;
		return -1;
	}
	snprintf(why, sizeof(why), "%sshim%s, next boot enforces %s%s", policy_wait_text(next),
	         w->o->level_file ? " (judged as the shim given to next:)" : "",
	         next->mode[0] == CLI_NEXT_NOT_ENFORCED ? "nothing (Secure Boot off), stores SbatLevel " : "SbatLevel ",
	         next->level[0]->datestamp);
	*v = next->boot[0].builtin.choice == SBAT_NEXT_CHOSE_INVALID ? STAGE_UNKNOWN : STAGE_BOOTS;
	cli_stage_line(w, label, is_default, 1, uefi_path, cli_verdict_of(*v), why, NULL);
	return 0;
}

/* Why there is no file to load at a load option's File() nodes (sbat_partition_resolve_uefi). */
static const char *
uefi_miss_text(sbat_partition_miss m)
{
	switch (m) {
	case SBAT_PARTITION_NOT_DIRECTORY: return "ends in \\, which asks for a directory, but names a file";
	case SBAT_PARTITION_IS_DIRECTORY: return "opens a directory, which the firmware does not load";
	case SBAT_PARTITION_EMPTY_NODE: return "the path has an empty File() node, which EDK2's FAT driver refuses";
	case SBAT_PARTITION_SLASH:
		return "the path has a / in a name: EDK2's FAT driver splits paths at \\ only and refuses a / in a name";
	case SBAT_PARTITION_BAD_CHAR:
		return "the path has a name with a character EDK2's FAT driver refuses (\" * : < > ? | or a control "
		       "character)";
	case SBAT_PARTITION_EMPTY_NAME:
		return "the path has a name of blanks and dots only, which EDK2's FAT driver refuses";
	case SBAT_PARTITION_NAME_TOO_LONG:
		return "the path has a name longer than the 255 characters EDK2's FAT driver takes";
	case SBAT_PARTITION_PATH_TOO_LONG: return "the path is longer than the 260 characters EDK2's FAT driver takes";
	case SBAT_PARTITION_ABOVE_ROOT: return "the path goes above the root with .., which EDK2's FAT driver refuses";
	default: return cli_partition_why(m);
	}
}

/* 1 when EDK2 opens nothing at a path whatever the ESP holds, 2 when this ESP holds nothing it opens there, else 0. */
static int
uefi_no_start(sbat_partition_miss m)
{
	if (m >= SBAT_PARTITION_EMPTY_NODE && m <= SBAT_PARTITION_ABOVE_ROOT)
		return 1;
	if (m == SBAT_PARTITION_MISSING || m == SBAT_PARTITION_NOT_DIRECTORY || m == SBAT_PARTITION_PARENT_NOT_DIR ||
	    m == SBAT_PARTITION_IS_DIRECTORY)
		return 2;
	return 0;
}

/*
 * The file stage 1 is: a load option's File() nodes opened as EDK2's boot
 * manager opens them (nodes), else uefi_path as before. *no_start: 1 when
 * the firmware opens nothing there whatever the ESP holds, 2 when this ESP
 * holds nothing it opens, else 0 (*why says why the file is not known).
 */
static char *
first_stage_file(const char *esp, const char *uefi_path, const char *nodes, size_t n_nodes, const char **why,
                 int *no_start)
{
	char *out = NULL;
	const char *last;
	sbat_partition_miss m;

	if (!nodes) {
		out = cli_resolve(esp, uefi_path, 0, why);
		*no_start = !out && strcmp(*why, "missing") == 0 ? 2 : 0;
		return out;
	}
	m = sbat_partition_resolve_uefi(esp, nodes, n_nodes, &out);
	*why = uefi_miss_text(m);
	*no_start = uefi_no_start(m);
	for (last = nodes; n_nodes > 1; n_nodes--)
		last += strlen(last) + 1;
	/* a last node ending in '\\' opens a directory or nothing, never a file to load */
	if (*no_start == 2 && *last && last[strlen(last) - 1] == '\\')
		*no_start = 1;
	/* one starting with two ends at the empty name after the first: the root */
	if (m == SBAT_PARTITION_IS_DIRECTORY && strncmp(last, "\\\\", 2) == 0) {
		*no_start = 1;
		*why = "the path opens the root directory: EDK2's FAT driver ends a path at an empty name right after "
		       "its leading \\";
	}
	return out;
}

/* Stage 1's line when the firmware opens no file there: it goes on to the next option; 0 when it is not known. */
static int
no_start_line(walk *w, const char *label, int is_default, const char *esp, const char *uefi_path, const char *reason,
              int no_start)
{
	char why[1024];

	if (no_start == 1) {
		/* whatever the ESP holds: the path that boots by default is a later one */
		if (is_default)
			w->default_taken = 0;
		snprintf(why, sizeof(why), "skipped: does not start: %s; the firmware goes on to the next option",
		         reason);
	} else if (no_start == 2 && !is_default) {
		snprintf(why, sizeof(why),
		         "skipped: does not start: %s under %s; the firmware goes on to the next option", reason, esp);
	} else {
		return 0;
	}
	cli_stage_line(w, label, is_default && no_start != 1, 1, uefi_path, SBAT_VERDICT_SKIPPED, why, NULL);
	return 1;
}

/* Judge one path: first stage at uefi_path (or a load option's File() nodes) under esp; the worst stage verdict. */
static enum stage_verdict
follow_path(walk *w, const char *label, int is_default, const char *esp, const char *uefi_path, const char *nodes,
            size_t n_nodes, const uint8_t *opt, size_t opt_len)
{
	char second[SBAT_SHIM_STAGE2_PATH_MAX], why[1024];
	const char *reason;
	char *file;
	enum stage_verdict v;
	cli_next next;
	image im;
	int no_start;

	w->n_paths++;
	memset(&next, 0, sizeof(next));
	file = first_stage_file(esp, uefi_path, nodes, n_nodes, &reason, &no_start);
	if (!file && no_start_line(w, label, is_default, esp, uefi_path, reason, no_start))
		return STAGE_NOT_GOVERNED;
	if (!file) {
		snprintf(why, sizeof(why), "cannot be followed: %s under %s", reason, esp);
		cli_stage_line(w, label, is_default, 1, uefi_path, SBAT_VERDICT_UNKNOWN, why, NULL);
		return STAGE_UNKNOWN;
	}
	if (cli_image_open(file, &im) != 0) {
		snprintf(why, sizeof(why), "cannot be followed: %s", im.d.what ? im.d.what : sbat_strerror(im.d.code));
		v = STAGE_UNKNOWN;
		cli_stage_line(w, label, is_default, 1, uefi_path, SBAT_VERDICT_UNKNOWN, why, NULL);
	} else if (!im.is_shim) {
		v = STAGE_NOT_GOVERNED;
		cli_stage_line(w, label, is_default, 1, uefi_path, SBAT_VERDICT_NOT_GOVERNED,
		               "not governed by SBAT: the firmware starts it, not shim", NULL);
	} else if (judge_shim(w, label, is_default, file, uefi_path, &next, &v) == 0) {
		int fb = next_stage_name(esp, uefi_path, opt, opt_len, im.machine, second, sizeof(second), why,
		                         sizeof(why));

		if (fb < 0)
			cli_stage_line(w, label, is_default, 2, "(its load options)", SBAT_VERDICT_UNKNOWN, why, NULL);
		else if (judge_second_stage(w, label, is_default, &next, esp, second, fb) == STAGE_REFUSED)
			v = STAGE_REFUSED;
	}
	if (next.shim)
		cli_next_free(&next);
	cli_image_close(&im);
	free(file);
	return v;
}

/* ------------------------------------------------------------ the entries */

static int
read_numbers(walk *w, const char *name, size_t max, uint16_t *out, size_t *n)
{
	uint8_t *buf;
	size_t len;
	sbat_diag d;
	char where[300];
	int status = cli_efivar_read(w->efivarfs, name, &buf, &len);

	*n = 0;
	if (status != EXIT_OK || !buf)
		return status;
	if (sbat_boot_order_parse(buf, len, out, max, n, &d) != SBAT_OK) {
		snprintf(where, sizeof(where), "%s/%s", w->efivarfs, name);
		cli_report_error(where, &d);
		status = EXIT_FAILURE_;
	}
	free(buf);
	return status;
}

static const char *
removable_name(void)
{
#if defined(__aarch64__)
	return "\\EFI\\BOOT\\BOOTAA64.EFI";
#elif defined(__i386__)
	return "\\EFI\\BOOT\\BOOTIA32.EFI";
#elif defined(__riscv) && __riscv_xlen == 64
	return "\\EFI\\BOOT\\BOOTRISCV64.EFI";
#else
	return "\\EFI\\BOOT\\BOOTX64.EFI";
#endif
}

/* 1 for the first eligible path: the one that boots when nobody touches the keyboard. */
static int
take_default(walk *w, int eligible)
{
	if (w->default_taken || !eligible)
		return 0;
	w->default_taken = 1;
	return 1;
}

/* A refused path counts against the default path or another one. */
static void
count_verdict(walk *w, enum stage_verdict v, int is_default)
{
	if (v != STAGE_REFUSED)
		return;
	if (is_default)
		w->default_refused = 1;
	else
		w->other_refused = 1;
}

/* Read and parse Boot####; 0 with *ret_buf to free, -1 after a line saying why not. */
static int
read_option(walk *w, uint16_t num, sbat_load_option *lo, uint8_t **ret_buf)
{
	char name[64], label[32], where[300];
	size_t len;
	sbat_diag d;

	snprintf(name, sizeof(name), "Boot%04X-%s", (unsigned)num, CLI_EFI_GLOBAL_GUID);
	snprintf(where, sizeof(where), "%s/%s", w->efivarfs, name);
	snprintf(label, sizeof(label), "Boot%04X", (unsigned)num);
	if (cli_efivar_read(w->efivarfs, name, ret_buf, &len) != EXIT_OK) {
		cli_stage_line(w, label, 0, 0, NULL, SBAT_VERDICT_UNKNOWN,
		               "cannot be followed: the variable does not read (see above)", NULL);
		return -1;
	}
	if (!*ret_buf) {
		cli_stage_line(w, label, 0, 0, NULL, SBAT_VERDICT_SKIPPED,
		               "skipped: no such variable; the firmware goes on to the next option", NULL);
		return -1;
	}
	if (sbat_load_option_parse(*ret_buf, len, lo, &d) != SBAT_OK) {
		cli_report_error(where, &d);
		cli_stage_line(w, label, 0, 0, NULL, SBAT_VERDICT_UNKNOWN, "cannot be followed: malformed load option",
		               NULL);
		free(*ret_buf);
		return -1;
	}
	return 0;
}

/*
 * w->other_esp: a partition the HD() nodes of the options name that
 * is not --esp's (the first one named when --esp's is not known): a second
 * file system the firmware's search for a File()-only path may find first.
 */
static void
find_other_esp(walk *w, const uint16_t *order, size_t n_order, const uint16_t *next, size_t n_next)
{
	char first[40] = "", path[PATH_MAX + 64];
	size_t i, len, n = n_order + n_next;

	for (i = 0; i < n && !w->other_esp[0]; i++) {
		sbat_load_option lo;
		uint8_t *buf = NULL;
		sbat_diag d;

		snprintf(path, sizeof(path), "%s/Boot%04X-%s", w->efivarfs,
		         (unsigned)(i < n_next ? next[i] : order[i - n_next]), CLI_EFI_GLOBAL_GUID);
		if (sbat_file_read(path, 1u << 16, &buf, &len, &d) == SBAT_OK &&
		    sbat_load_option_parse(buf, len, &lo, &d) == SBAT_OK && lo.has_hd && lo.signature_type == 2) {
			const char *mine = esp_guid(w)[0] ? esp_guid(w) : first;

			if (!mine[0])
				snprintf(first, sizeof(first), "%s", lo.partition_guid);
			else if (strcmp(mine, lo.partition_guid) != 0)
				snprintf(w->other_esp, sizeof(w->other_esp), "%s", lo.partition_guid);
		}
		free(buf);
	}
}

/*
 * The ESP a load option's path is on: --esp, else the mounted partition
 * its HD() names. A whole device (no HD()) says no partition: --esp is
 * taken for it only when it is the option this boot came from; a path of
 * File() nodes alone, looked for on every file system, is taken to be on
 * --esp when no option names another partition (said once).
 */
static char *
option_esp(walk *w, const sbat_load_option *lo, int is_current, int file_only)
{
	char *mounted = NULL;
	struct stat a, b;

	if (file_only && w->o->esp && !w->other_esp[0]) {
		if (!w->o->json && !w->file_only_assumed)
			printf("  --esp %s: taken as the only file system the firmware searches for options of File() "
			       "nodes alone (EDK2 looks on each, removable media first)\n",
			       w->o->esp);
		w->file_only_assumed = 1;
		return strdup(w->o->esp);
	}

	if (lo->has_hd && lo->signature_type == 2)
		mounted = sbat_partition_mount_of_partuuid(lo->partition_guid);
	if (mounted && w->o->esp && stat(mounted, &a) == 0 && stat(w->o->esp, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		free(mounted);
		return strdup(w->o->esp);
	}
	if (mounted || !w->o->esp || !(lo->has_hd || is_current))
		return mounted; /* the option's own partition, mounted here, not --esp */
	if (lo->has_hd && lo->signature_type == 2 && esp_guid(w)[0] && strcmp(esp_guid(w), lo->partition_guid) != 0)
		return NULL; /* --esp is another partition */
	if (lo->has_hd && lo->signature_type == 2 && !esp_guid(w)[0] && !w->esp_assumed) {
		/* what is assumed is said once */
		w->esp_assumed = 1;
		if (!w->o->json)
			printf(
			    "  --esp %s: taken as the partition of the options' HD() nodes (%s): which partition it is "
			    "is not known here\n",
			    w->o->esp, lo->partition_guid);
	}
	return strdup(w->o->esp);
}

/* Why an option's ESP is not known, as the stage-1 line says it. */
static void
no_esp_line(walk *w, const char *label, int is_default, const sbat_load_option *lo, const char *path, int file_only)
{
	char why[800];

	if (lo->has_hd && w->o->esp && esp_guid(w)[0])
		snprintf(why, sizeof(why), "cannot be followed: partition %s is not mounted, and --esp is partition %s",
		         lo->partition_guid[0] ? lo->partition_guid : "(no GUID)", esp_guid(w));
	else if (lo->has_hd)
		snprintf(why, sizeof(why), "cannot be followed: partition %s is not mounted (give --esp DIR)",
		         lo->partition_guid[0] ? lo->partition_guid : "(no GUID)");
	else if (file_only && w->o->esp)
		snprintf(
		    why, sizeof(why),
		    "cannot be followed: the firmware looks for %s on every file system, removable media first, and "
		    "the options name a partition that --esp is not (%s)",
		    path, w->other_esp);
	else if (file_only)
		snprintf(why, sizeof(why),
		         "cannot be followed: the firmware looks for %s on every file system (give --esp DIR)", path);
	else if (w->before_current)
		snprintf(why, sizeof(why),
		         "cannot be followed: the firmware starts %s from this device if it holds one; it did not this "
		         "boot, which came from Boot%04X",
		         path, (unsigned)w->current);
	else
		snprintf(
		    why, sizeof(why),
		    "cannot be followed: the firmware starts %s from this device; which ESP it holds the variables "
		    "do not say (--esp is taken for the device this boot came from)",
		    path);
	cli_stage_line(w, label, is_default, 1, path, SBAT_VERDICT_UNKNOWN, why, NULL);
}

/*
 * An option of a file on a partition, or of a device or partition without
 * File() (the firmware's removable-media path on it): followed on its ESP,
 * its File() nodes opened as the firmware opens them. A File() path alone
 * is a file system's, not a device's (EDK2's BmExpandFileDevicePath).
 */
static void
follow_file_option(walk *w, const char *label, const sbat_load_option *lo, const uint8_t *buf, int is_current)
{
	char nodes[2 * SBAT_LOAD_OPTION_TEXT_MAX], *esp;
	const char *path = lo->has_file ? lo->file_path : removable_name();
	unsigned n = 0;
	int is_default, file_only;
	sbat_diag d;

	if (!lo->has_file || sbat_load_option_file_nodes(buf, lo->optional_offset + lo->optional_len, nodes,
	                                                 sizeof(nodes), &n, &d) != SBAT_OK)
		n = 0;
	file_only = n && !lo->has_hd && lo->n_nodes == n;
	esp = option_esp(w, lo, is_current, file_only);
	/* a device ahead of the one this boot came from had nothing to start */
	is_default = take_default(w, esp || !w->before_current || lo->has_file);
	if (!esp)
		no_esp_line(w, label, is_default, lo, path, file_only);
	else
		count_verdict(w,
		              follow_path(w, label, is_default, esp, path, n ? nodes : NULL, n,
		                          buf + lo->optional_offset, lo->optional_len),
		              is_default);
	free(esp);
}

static void
follow_option(walk *w, uint16_t num, int is_boot_next)
{
	char label[SBAT_LOAD_OPTION_TEXT_MAX + 48];
	int is_default = 0, is_current = w->has_current && w->current == num;
	sbat_load_option lo;
	uint8_t *buf;

	if (read_option(w, num, &lo, &buf) != 0)
		return;
	snprintf(label, sizeof(label), "Boot%04X %s%s", (unsigned)num, lo.description,
	         is_current ? " [booted this time]" : "");
	/* BootNext is taken once whatever its attributes; in BootOrder the firmware skips inactive options */
	if (!is_boot_next && !(lo.attributes & SBAT_LOAD_OPTION_ACTIVE)) {
		cli_stage_line(w, label, 0, 0, NULL, SBAT_VERDICT_INACTIVE, "inactive: the firmware skips it", NULL);
	} else if (!is_boot_next && (lo.attributes & SBAT_LOAD_OPTION_CATEGORY) != 0) {
		/* EDK2's boot manager tries only LOAD_OPTION_CATEGORY_BOOT options on its own */
		cli_stage_line(
		    w, label, 0, 0, NULL, SBAT_VERDICT_NOT_GOVERNED,
		    "not governed by SBAT: an application (not LOAD_OPTION_CATEGORY_BOOT), started from a menu only",
		    NULL);
	} else if (lo.has_other_media) {
		is_default = take_default(w, 1);
		cli_stage_line(w, label, is_default, 0, NULL, SBAT_VERDICT_NOT_GOVERNED,
		               "not governed by SBAT: not a file on a disk (network boot or a firmware application)",
		               NULL);
	} else {
		follow_file_option(w, label, &lo, buf, is_current);
	}
	free(buf);
}

/* The exit status of the walk (the default path first: refused, then not known; then the others alike), and
 * the end of the JSON report. */
static int
walk_status(const walk *w)
{
	sbat_boot_outcome out = sbat_boot_report_outcome(w->report);
	int status = w->report_failed    ? EXIT_FAILURE_ :
	             w->default_refused  ? EXIT_REVOKED :
	             out.default_unknown ? EXIT_DEFAULT_UNKNOWN :
	             w->other_refused    ? EXIT_OTHER_PATH_REFUSED :
	             out.other_unknown   ? EXIT_OTHER_PATH_UNKNOWN :
	                                   EXIT_OK;

	if (w->report_failed)
		cli_message("--check-level next", "out of memory");
	if (w->o->json)
		printf("%s  ],\n  \"default_refused\": %s,\n  \"other_refused\": %s,\n  \"default_unknown\": %s,\n"
		       "  \"other_unknown\": %s,\n  \"exit_status\": %d\n}\n",
		       w->n_lines ? "\n" : "", w->default_refused ? "true" : "false",
		       w->other_refused ? "true" : "false", out.default_unknown ? "true" : "false",
		       out.other_unknown ? "true" : "false", status);
	return status;
}

/* Every path: BootNext, BootOrder's options, the removable-media path; returns the exit status. */
static int
walk_all(walk *w)
{
	uint16_t order[MAX_OPTIONS], next_num[1];
	size_t n_order = 0, n_next = 0, n_current = 0, i, j;
	const cli_opts *o = w->o;
	struct stat st;
	int status;

	if (stat(w->efivarfs, &st) != 0 || !S_ISDIR(st.st_mode)) {
		cli_message(w->efivarfs, "no UEFI variables: the machine was not booted through UEFI, or efivarfs is "
		                         "not mounted; its boot paths are not known");
		return EXIT_NO_LEVEL;
	}
	status = read_numbers(w, "BootNext-" CLI_EFI_GLOBAL_GUID, 1, next_num, &n_next);
	if (status == EXIT_OK)
		status = read_numbers(w, "BootOrder-" CLI_EFI_GLOBAL_GUID, MAX_OPTIONS, order, &n_order);
	if (status == EXIT_OK)
		status = read_numbers(w, "BootCurrent-" CLI_EFI_GLOBAL_GUID, 1, &w->current, &n_current);
	if (status != EXIT_OK)
		return status;
	w->has_current = n_current == 1;
	for (i = 0; w->has_current && i < n_order && order[i] != w->current; i++)
		;
	/* BootCurrent in BootOrder: the options ahead of it had nothing to start this boot (or were passed over) */
	w->before_current = w->has_current && i < n_order;
	find_other_esp(w, order, n_order, next_num, n_next);
	if (o->json)
		fputs("{\n  \"schema\": 1,\n  \"mode\": \"boot-paths\",\n  \"stages\": [\n", stdout);
	if (!n_next && !n_order)
		cli_stage_line(
		    w, "BootOrder", 1, 0, NULL, SBAT_VERDICT_UNKNOWN,
		    "cannot be followed: neither BootOrder nor BootNext is set, so the firmware makes its own "
		    "boot options",
		    NULL);
	if (n_next)
		follow_option(w, next_num[0], 1);
	for (i = 0; i < n_order; i++) {
		for (j = 0; j < i && order[j] != order[i]; j++)
			;
		if (w->has_current && order[i] == w->current)
			w->before_current = 0;
		if (j < i || (n_next && order[i] == next_num[0]))
			continue;
		follow_option(w, order[i], 0);
	}
	w->before_current = 0;
	if (o->esp) {
		int is_default = !w->default_taken;

		count_verdict(
		    w,
		    follow_path(w, "removable media fallback", is_default, o->esp, removable_name(), NULL, 0, NULL, 0),
		    is_default);
	}
	return walk_status(w);
}

int
cli_run_boot_paths(const cli_opts *o)
{
	sbat_diag d;
	int status;
	walk w;

	memset(&w, 0, sizeof(w));
	w.o = o;
	w.efivarfs = cli_efivarfs_dir();
	if (sbat_boot_report_new(&w.report, &d) != SBAT_OK)
		return cli_report_error("--check-level next", &d);
	status = walk_all(&w);
	sbat_boot_report_free(w.report);
	return status;
}
