/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* boot_paths.c - --check-level next without IMAGEs: every boot path the firmware will take, stage by stage */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "sbat/sbat.h"

#include "boot_paths.h"
#include "history.h"
#include "json.h"
#include "messages.h"
#include "next_level.h"

#define MAX_OPTIONS 128
#define PATH_MAX_LEN 4096

/* What one stage comes to. */
enum stage_verdict {
	STAGE_BOOTS,        /* the check that applies passes (or none applies) */
	STAGE_NOT_GOVERNED, /* not started through shim: SBAT does not apply */
	STAGE_UNKNOWN,      /* cannot be followed from the files */
	STAGE_REFUSED,      /* shim refuses it */
};

typedef struct walk {
	const cli_opts *o;
	const char *efivarfs;
	int default_refused, other_refused;
	int n_paths;
	int default_taken; /* the path that boots when nobody touches the keyboard is known */
	size_t n_lines;    /* JSON objects printed */
} walk;

/* ------------------------------------------------------------ the ESP */

/*
 * The directory in which the ESP with this partition GUID is mounted: the
 * device /dev/disk/by-partuuid/GUID names, found as a mount source in
 * /proc/self/mountinfo. NULL when it is not mounted.
 */
static char *
esp_by_partuuid(const char *guid)
{
	char link[128], dev[PATH_MAX], line[4096];
	char *found = NULL;
	FILE *f;

	snprintf(link, sizeof(link), "/dev/disk/by-partuuid/%s", guid);
	if (!realpath(link, dev))
		return NULL;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - "), *mnt, *src;
		unsigned i;

		if (!sep)
			continue;
		/* fields: id parent major:minor root mountpoint ... " - " fstype source options */
		mnt = line;
		for (i = 0; i < 4 && mnt; i++)
			mnt = strchr(mnt, ' ') ? strchr(mnt, ' ') + 1 : NULL;
		src = strchr(sep + 3, ' ');
		if (!mnt || !src)
			continue;
		src++;
		if (strncmp(src, dev, strlen(dev)) == 0 && src[strlen(dev)] == ' ')
			found = strndup(mnt, strcspn(mnt, " "));
	}
	fclose(f);
	return found;
}

/*
 * Resolve the UEFI path p (backslashes, any case as on FAT) under root.
 * Components are matched case-insensitively; "." and ".." and symbolic
 * links are refused (a path shim or the firmware reads never has them).
 * Returns a malloc'ed path or NULL with *why set.
 */
static char *
resolve(const char *root, const char *p, const char **why)
{
	char *out = malloc(PATH_MAX_LEN);
	size_t len;

	*why = "missing";
	if (!out)
		return NULL;
	snprintf(out, PATH_MAX_LEN, "%s", root);
	len = strlen(out);
	while (*p) {
		size_t n = strcspn(p, "\\/");
		struct dirent *e;
		struct stat st;
		DIR *d;
		int hit = 0;

		if (n == 0) {
			p++;
			continue;
		}
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			*why = "has a . or .. component";
			break;
		}
		d = opendir(out);
		while (d && (e = readdir(d)) != NULL && !hit)
			if (strlen(e->d_name) == n && strncasecmp(e->d_name, p, n) == 0 && len + 1 + n < PATH_MAX_LEN) {
				snprintf(out + len, PATH_MAX_LEN - len, "/%s", e->d_name);
				hit = 1;
			}
		if (d)
			closedir(d);
		else
			*why = "its directory cannot be read";
		if (!hit)
			break;
		len = strlen(out);
		if (lstat(out, &st) != 0 || S_ISLNK(st.st_mode)) {
			*why = "is a symbolic link";
			break;
		}
		p += n;
		if (!*p) {
			if (!S_ISREG(st.st_mode)) {
				*why = "is not a regular file";
				break;
			}
			return out;
		}
	}
	free(out);
	return NULL;
}

/* ------------------------------------------------------------ one image */

typedef struct image {
	uint8_t *buf;
	size_t len;
	sbat_image *img;
	sbat_csv *csv; /* its .sbat as shim reads it, NULL when none */
	int sbat_bad;  /* a .sbat shim refuses (duplicate, unparsable) */
	int is_shim;   /* carries .sbatlevel */
	uint16_t machine;
	sbat_diag d;
} image;

static int
image_open(const char *path, image *im)
{
	const uint8_t *text;
	size_t n;

	memset(im, 0, sizeof(*im));
	if (sbat_file_read(path, SBAT_FILE_MAX_SIZE, &im->buf, &im->len, &im->d) != SBAT_OK ||
	    sbat_image_parse(im->buf, im->len, &im->img, &im->d) != SBAT_OK)
		return -1;
	im->machine = sbat_image_get_info(im->img)->machine;
	im->is_shim = sbat_image_find_section(im->img, SBAT_LEVEL_SECTION_NAME) >= 0 ||
	              sbat_image_find_section(im->img, ".sbatlev") >= 0;
	if (sbat_image_get_info(im->img)->sbat_ignored)
		return 0;
	if (sbat_image_sbat_data(im->img, &text, &n, &im->d) == SBAT_OK)
		im->sbat_bad = sbat_csv_parse(text, n, &im->csv, &im->d) != SBAT_OK;
	else
		im->sbat_bad = im->d.code != SBAT_E_NO_SBAT;
	return 0;
}

static void
image_close(image *im)
{
	sbat_csv_free(im->csv);
	sbat_image_free(im->img);
	free(im->buf);
}

/* shim's check of an image it starts itself (in_protocol 0): a .sbat is required. */
static enum stage_verdict
judge_started_by_shim(const cli_next *n, const image *im, char *why, size_t why_size)
{
	sbat_revocation r;
	size_t nr = 0;
	sbat_diag d;

	if (n->mode[0] == CLI_NEXT_NOT_ENFORCED) {
		snprintf(why, why_size, "boots: Secure Boot is off, so shim checks no SBAT");
		return STAGE_BOOTS;
	}
	if (n->mode[0] == CLI_NEXT_SHIM_STOPS) {
		snprintf(why, why_size, "refused: shim stops before starting it");
		return STAGE_REFUSED;
	}
	if (im->sbat_bad) {
		snprintf(why, why_size, "refused: shim cannot use its .sbat (%s)",
		         im->d.what ? im->d.what : sbat_strerror(im->d.code));
		return STAGE_REFUSED;
	}
	if (!im->csv) {
		snprintf(why, why_size, "refused: no .sbat, which shim requires of what it starts itself");
		return STAGE_REFUSED;
	}
	if (sbat_level_check(n->level[0], im->csv, &r, 1, &nr, &d) != SBAT_OK) {
		snprintf(why, why_size, "unknown: %s", d.what ? d.what : sbat_strerror(d.code));
		return STAGE_UNKNOWN;
	}
	if (nr) {
		char past[400];

		if (cli_history_explain(r.level->component_name, r.level->generation, past + 2, sizeof(past) - 2) == 0)
			memcpy(past, "; ", 2);
		else
			past[0] = '\0';
		snprintf(why, why_size,
		         "refused: %s,%u is below %s,%u (SbatLevel %s%s); install one with %s,%u or later",
		         r.entry->component_name, (unsigned)r.entry->generation, r.level->component_name,
		         (unsigned)r.level->generation, n->level[0]->datestamp, past, r.level->component_name,
		         (unsigned)r.level->generation);
		return STAGE_REFUSED;
	}
	snprintf(why, why_size, "boots: not revoked by SbatLevel %s", n->level[0]->datestamp);
	return STAGE_BOOTS;
}

/* ------------------------------------------------------------ one path */

/* shim's DEFAULT_LOADER for the machine it was built for. */
static const char *
default_loader(uint16_t machine)
{
	switch (machine) {
	case 0x014c: return "grubia32.efi";
	case 0xaa64: return "grubaa64.efi";
	case 0x01c2: return "grubarm.efi";
	case 0x5064: return "grubriscv64.efi";
	default: return "grubx64.efi";
	}
}

/* 1 when s ends in ".efi", in any case. */
static int
ends_in_efi(const char *s)
{
	size_t n = strlen(s);

	return n > 4 && strcasecmp(s + n - 4, ".efi") == 0;
}

/* The verdict words a line starts with, and their JSON names. */
static const struct {
	const char *text, *json;
} verdict_words[] = {
	{ "boots", "boots" },
	{ "refused", "refused" },
	{ "cannot be followed", "unknown" },
	{ "not governed by SBAT", "not-governed" },
	{ "inactive", "inactive" },
};

/* One line of the report (stage 0: the entry itself), or one JSON object. */
static void
stage_line(walk *w, const char *label, int is_default, int stage, const char *file, const char *text)
{
	const char *verdict = "unknown", *detail = text;
	size_t i, n;

	if (!w->o->json) {
		if (stage)
			printf("%s%s: stage %d %s: %s\n", label, is_default ? " [default]" : "", stage, file, text);
		else
			printf("%s%s: %s\n", label, is_default ? " [default]" : "", text);
		return;
	}
	for (i = 0; i < sizeof(verdict_words) / sizeof(verdict_words[0]); i++) {
		n = strlen(verdict_words[i].text);
		if (strncmp(text, verdict_words[i].text, n) == 0) {
			verdict = verdict_words[i].json;
			detail = text + n + (text[n] == ':') + (text[n] == ':' && text[n + 1] == ' ');
			break;
		}
	}
	printf("%s    {\"entry\": ", w->n_lines++ ? ",\n" : "");
	cli_json_cstr(stdout, label);
	printf(", \"default\": %s, \"stage\": %d, \"file\": ", is_default ? "true" : "false", stage);
	if (file)
		cli_json_cstr(stdout, file);
	else
		fputs("null", stdout);
	printf(", \"verdict\": \"%s\", \"detail\": ", verdict);
	cli_json_cstr(stdout, detail);
	putchar('}');
}

/* The second stage shim starts: the optional data as a path, else DEFAULT_LOADER next to shim. */
static void
second_stage_name(const char *shim_uefi, const uint8_t *opt, size_t opt_len, uint16_t machine, char *out, size_t size)
{
	char text[SBAT_LOAD_OPTION_TEXT_MAX];
	const char *slash = strrchr(shim_uefi, '\\');
	size_t dir_len = slash ? (size_t)(slash - shim_uefi) + 1 : 0;
	sbat_diag d;

	if (opt && opt_len >= 4 && sbat_ucs2_to_utf8(opt, opt_len, text, sizeof(text), &d) == SBAT_OK && text[0] &&
	    strchr(text, ' ') == NULL && ends_in_efi(text)) {
		if (text[0] == '\\')
			snprintf(out, size, "%s", text);
		else
			snprintf(out, size, "%.*s%s", (int)dir_len, shim_uefi, text);
		return;
	}
	snprintf(out, size, "%.*s%s", (int)dir_len, shim_uefi, default_loader(machine));
}

/* Judge one path: first stage at uefi_path under esp; returns the worst stage verdict. */
static enum stage_verdict
follow_path(walk *w, const char *label, int is_default, const char *esp, const char *uefi_path, const uint8_t *opt,
            size_t opt_len)
{
	char second[SBAT_LOAD_OPTION_TEXT_MAX + 32], why[1024];
	const char *reason;
	char *file, *file2;
	enum stage_verdict v, v2;
	cli_next next;
	image im, im2;

	w->n_paths++;
	file = resolve(esp, uefi_path, &reason);
	if (!file) {
		snprintf(why, sizeof(why), "cannot be followed: %s under %s", reason, esp);
		stage_line(w, label, is_default, 1, uefi_path, why);
		return STAGE_UNKNOWN;
	}
	if (image_open(file, &im) != 0) {
		snprintf(why, sizeof(why), "cannot be followed: %s", im.d.what ? im.d.what : sbat_strerror(im.d.code));
		stage_line(w, label, is_default, 1, uefi_path, why);
		image_close(&im);
		free(file);
		return STAGE_UNKNOWN;
	}
	if (!im.is_shim) {
		stage_line(w, label, is_default, 1, uefi_path,
		           "not governed by SBAT: the firmware starts it, not shim");
		image_close(&im);
		free(file);
		return STAGE_NOT_GOVERNED;
	}
	v = STAGE_BOOTS;
	if (cli_next_load(file, &next) != EXIT_OK) {
		stage_line(w, label, is_default, 1, uefi_path,
		           "cannot be followed: shim's inputs do not read (see above)");
		v = STAGE_UNKNOWN;
	} else if (next.mode[0] == CLI_NEXT_SHIM_STOPS) {
		snprintf(why, sizeof(why), "refused: shim, SbatLevel %s revokes shim itself, so it stops the machine",
		         next.level[0]->datestamp);
		stage_line(w, label, is_default, 1, uefi_path, why);
		v = STAGE_REFUSED;
	} else {
		snprintf(why, sizeof(why), "boots: shim, next boot enforces %s%s",
		         next.mode[0] == CLI_NEXT_NOT_ENFORCED ? "nothing (Secure Boot off), stores SbatLevel " :
		                                                 "SbatLevel ",
		         next.level[0]->datestamp);
		stage_line(w, label, is_default, 1, uefi_path, why);
		second_stage_name(uefi_path, opt, opt_len, im.machine, second, sizeof(second));
		file2 = resolve(esp, second, &reason);
		if (!file2) {
			snprintf(why, sizeof(why), "cannot be followed: %s under %s", reason, esp);
			v2 = STAGE_UNKNOWN;
		} else if (image_open(file2, &im2) != 0) {
			snprintf(why, sizeof(why), "cannot be followed: %s",
			         im2.d.what ? im2.d.what : sbat_strerror(im2.d.code));
			image_close(&im2);
			v2 = STAGE_UNKNOWN;
		} else {
			char text[900];

			v2 = judge_started_by_shim(&next, &im2, text, sizeof(text));
			snprintf(why, sizeof(why), "%s [shim starts it itself: .sbat required]", text);
			image_close(&im2);
		}
		free(file2);
		stage_line(w, label, is_default, 2, second, why);
		if (v2 == STAGE_REFUSED)
			v = STAGE_REFUSED;
	}
	if (next.shim)
		cli_next_free(&next);
	image_close(&im);
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

static void
follow_option(walk *w, uint16_t num, int is_boot_next)
{
	int is_default = 0;
	char name[64], label[SBAT_LOAD_OPTION_TEXT_MAX + 16], where[300], guid[37], *esp;
	sbat_load_option lo;
	uint8_t *buf;
	size_t len;
	sbat_diag d;
	enum stage_verdict v;

	snprintf(name, sizeof(name), "Boot%04X-%s", (unsigned)num, CLI_EFI_GLOBAL_GUID);
	snprintf(where, sizeof(where), "%s/%s", w->efivarfs, name);
	if (cli_efivar_read(w->efivarfs, name, &buf, &len) != EXIT_OK)
		return;
	if (!buf) {
		snprintf(label, sizeof(label), "Boot%04X", (unsigned)num);
		stage_line(w, label, 0, 0, NULL, "cannot be followed: no such variable");
		return;
	}
	if (sbat_load_option_parse(buf, len, &lo, &d) != SBAT_OK) {
		cli_report_error(where, &d);
		snprintf(label, sizeof(label), "Boot%04X", (unsigned)num);
		stage_line(w, label, 0, 0, NULL, "cannot be followed: malformed load option");
		free(buf);
		return;
	}
	snprintf(label, sizeof(label), "Boot%04X %s", (unsigned)num, lo.description);
	/* BootNext is taken once whatever its attributes; in BootOrder the firmware skips inactive options */
	if (!is_boot_next && !(lo.attributes & SBAT_LOAD_OPTION_ACTIVE)) {
		stage_line(w, label, 0, 0, NULL, "inactive: the firmware skips it");
		free(buf);
		return;
	}
	if (!w->default_taken)
		is_default = w->default_taken = 1;
	if (!lo.has_hd || !lo.has_file || lo.has_other_media) {
		stage_line(w, label, is_default, 0, NULL,
		           "not governed by SBAT: not a file on a disk partition (network, firmware application or a "
		           "whole device)");
		free(buf);
		return;
	}
	esp = NULL;
	if (w->o->esp)
		esp = strdup(w->o->esp);
	else if (lo.signature_type == 2)
		esp = esp_by_partuuid(lo.partition_guid);
	if (!esp) {
		char why[128];

		snprintf(guid, sizeof(guid), "%s", lo.partition_guid[0] ? lo.partition_guid : "(no GUID)");
		snprintf(why, sizeof(why), "cannot be followed: partition %s is not mounted (give --esp DIR)", guid);
		stage_line(w, label, is_default, 1, lo.file_path, why);
		free(buf);
		return;
	}
	v = follow_path(w, label, is_default, esp, lo.file_path, buf + lo.optional_offset, lo.optional_len);
	if (v == STAGE_REFUSED) {
		if (is_default)
			w->default_refused = 1;
		else
			w->other_refused = 1;
	}
	free(esp);
	free(buf);
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

int
cli_run_boot_paths(const cli_opts *o)
{
	uint16_t order[MAX_OPTIONS], next_num[1];
	size_t n_order = 0, n_next = 0, i, j;
	int status;
	walk w;

	memset(&w, 0, sizeof(w));
	w.o = o;
	w.efivarfs = cli_efivarfs_dir();
	status = read_numbers(&w, "BootNext-" CLI_EFI_GLOBAL_GUID, 1, next_num, &n_next);
	if (status == EXIT_OK)
		status = read_numbers(&w, "BootOrder-" CLI_EFI_GLOBAL_GUID, MAX_OPTIONS, order, &n_order);
	if (status != EXIT_OK)
		return status;
	if (o->json)
		fputs("{\n  \"schema\": 1,\n  \"mode\": \"boot-paths\",\n  \"stages\": [\n", stdout);
	if (n_next)
		follow_option(&w, next_num[0], 1);
	for (i = 0; i < n_order; i++) {
		for (j = 0; j < i && order[j] != order[i]; j++)
			;
		if (j < i || (n_next && order[i] == next_num[0]))
			continue;
		follow_option(&w, order[i], 0);
	}
	if (o->esp) {
		int is_default = !w.default_taken;
		enum stage_verdict v = follow_path(&w, "removable media fallback", is_default, o->esp, removable_name(),
		                                   NULL, 0);

		if (v == STAGE_REFUSED) {
			if (is_default)
				w.default_refused = 1;
			else
				w.other_refused = 1;
		}
	}
	status = w.default_refused ? EXIT_REVOKED : w.other_refused ? EXIT_OTHER_PATH_REFUSED : EXIT_OK;
	if (o->json)
		printf("%s  ],\n  \"default_refused\": %s,\n  \"other_refused\": %s,\n  \"exit_status\": %d\n}\n",
		       w.n_lines ? "\n" : "", w.default_refused ? "true" : "false", w.other_refused ? "true" : "false",
		       status);
	return status;
}
