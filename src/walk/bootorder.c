/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* bootorder.c - the paths the firmware takes: BootNext, BootOrder's options, the removable-media path */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sbat/boot.h"
#include "sbat/loadoption.h"
#include "sbat/bootreport.h"
#include "sbat/efivar.h"
#include "sbat/error.h"
#include "sbat/judge.h"
#include "sbat/level.h"
#include "sbat/partition.h"
#include "sbat/walk.h"

#include "boot/loadopt.h"
#include "boot/report.h"
#include "util/diag.h"
#include "walk/bootpath.h"
#include "walk/signatures.h"
#include "walk/walk.h"

/* How many of BootNext's and BootOrder's options are opened to find the firmware's machine. */
#define MACHINE_OPTIONS 64

/* The PE machine type sbat-add is built for: what the removable-media path is taken for when nothing else tells. */
#if defined(__x86_64__)
#define BUILD_MACHINE 0x8664
#elif defined(__aarch64__)
#define BUILD_MACHINE 0xaa64
#elif defined(__i386__)
#define BUILD_MACHINE 0x014c
#elif defined(__arm__)
#define BUILD_MACHINE 0x01c2
#elif defined(__riscv) && __riscv_xlen == 64
#define BUILD_MACHINE 0x5064
#elif defined(__loongarch64)
#define BUILD_MACHINE 0x6264
#else
#define BUILD_MACHINE 0x8664
#endif

/* The partition GUID of the block device the ESP is on ("" when not known: no /dev/disk/by-partuuid, or a copy). */
static const char *
esp_guid(walk *w)
{
	sbat_diag d;

	if (!w->esp_guid_done && w->o->esp &&
	    sbat_partition_guid_of(w->o->esp, w->esp_guid, sizeof(w->esp_guid), &d) != SBAT_OK)
		w->esp_guid[0] = '\0';
	w->esp_guid_done = 1;
	return w->esp_guid;
}

/* A variable of at most max_size bytes (0: the library's largest); 0, or -1 after a note. */
static int
read_var(walk *w, const char *name, size_t max_size, uint8_t **buf, size_t *len)
{
	char where[WALK_PATH_MAX + 128];
	sbat_diag d;

	if (sbat_efivar_read(w->efivarfs, name, max_size, buf, len, &d) == SBAT_OK)
		return 0;
	snprintf(where, sizeof(where), "%s/%s", w->efivarfs, name);
	walk_error(w, where, &d);
	return -1;
}

/*
 * BootNext or BootCurrent (max 1), or BootOrder (max 0: as many as it
 * holds, as EDK2's EfiBootManagerGetLoadOptions takes them all): *ret
 * malloc'ed with *n numbers, NULL when it is not set; -1 after a note.
 */
static int
read_numbers(walk *w, const char *name, size_t max, uint16_t **ret, size_t *n)
{
	char where[WALK_PATH_MAX + 128];
	uint8_t *buf;
	size_t len, room;
	sbat_diag d;
	int status = read_var(w, name, max ? WALK_VAR_MAX_SIZE : 0, &buf, &len);

	*ret = NULL;
	*n = 0;
	if (status != 0 || !buf)
		return status;
	room = len > SBAT_EFIVAR_ATTRIBUTES_SIZE ? (len - SBAT_EFIVAR_ATTRIBUTES_SIZE) / 2 : 0;
	if (max && room > max)
		room = max;
	if (!(*ret = malloc((room ? room : 1) * sizeof(**ret)))) {
		w->report_failed = 1;
		status = -1;
	} else if (sbat_boot_order_parse(buf, len, *ret, max ? max : room, n, &d) != SBAT_OK) {
		snprintf(where, sizeof(where), "%s/%s", w->efivarfs, name);
		walk_error(w, where, &d);
		status = -1;
	}
	free(buf);
	return status;
}

/* EDK2's EFI_REMOVABLE_MEDIA_FILE_NAME (UefiSpec.h) for a PE machine type; NULL for one it has none for. */
static const char *
removable_for(uint16_t machine)
{
	switch (machine) {
	case 0x8664: return "\\EFI\\BOOT\\BOOTX64.EFI";
	case 0x014c: return "\\EFI\\BOOT\\BOOTIA32.EFI";
	case 0xaa64: return "\\EFI\\BOOT\\BOOTAA64.EFI";
	case 0x01c2: return "\\EFI\\BOOT\\BOOTARM.EFI";
	case 0x5064: return "\\EFI\\BOOT\\BOOTRISCV64.EFI";
	case 0x6264: return "\\EFI\\BOOT\\BOOTLOONGARCH64.EFI";
	default: return NULL;
	}
}

/* The removable-media path of the firmware's machine (w->removable), saying once when it is this build's guess. */
static const char *
removable_name(walk *w)
{
	if (w->removable_guessed == 1) {
		w->removable_guessed = 2;
		walk_fact(w, SBAT_BOOT_NOTE_ASSUMED, NULL,
		          w->o->esp ? SBAT_BOOT_NOTE_REMOVABLE_GUESSED : SBAT_BOOT_NOTE_REMOVABLE_NO_ESP);
	}
	return w->removable;
}

/* The PE machine of the image option num starts from File() nodes on --esp; 0 when none opens there. */
static uint16_t
option_machine(walk *w, uint16_t num)
{
	char name[64], nodes[2 * SBAT_LOAD_OPTION_TEXT_MAX], *file = NULL;
	sbat_load_option lo;
	uint8_t *buf = NULL;
	uint16_t machine = 0;
	unsigned n = 0;
	size_t len;
	sbat_diag d;
	image im;

	snprintf(name, sizeof(name), "Boot%04X-%s", (unsigned)num, SBAT_EFIVAR_GLOBAL_GUID);
	if (sbat_efivar_read(w->efivarfs, name, WALK_VAR_MAX_SIZE, &buf, &len, &d) == SBAT_OK && buf &&
	    sbat_load_option_parse(buf, len, &lo, &d) == SBAT_OK && lo.has_file && !lo.has_other_media &&
	    !(lo.has_hd && lo.signature_type == 2 && esp_guid(w)[0] && strcmp(esp_guid(w), lo.partition_guid) != 0) &&
	    sbat_load_option_file_nodes(buf, len, nodes, sizeof(nodes), &n, &d) == SBAT_OK && n &&
	    sbat_partition_resolve_uefi(w->o->esp, nodes, n, &file) == SBAT_PARTITION_FOUND) {
		if (walk_image_open(w->o->esp, file, &im) == 0)
			machine = im.machine;
		walk_image_close(&im);
	}
	free(file);
	free(buf);
	return machine;
}

/* The machine of the one EDK2 removable-media file name that --esp's \EFI\BOOT holds; 0 for none or several. */
static uint16_t
esp_machine(walk *w)
{
	static const uint16_t machines[] = { 0x8664, 0x014c, 0xaa64, 0x01c2, 0x5064, 0x6264 };
	uint16_t found = 0;
	sbat_partition_miss miss;
	size_t i;

	for (i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		char *f = walk_lookup(w->o->esp, removable_for(machines[i]), 0, &miss);

		if (f && found)
			found = 0xffff; /* several: an ESP for more than one machine */
		else if (f)
			found = machines[i];
		free(f);
	}
	return found == 0xffff ? 0 : found;
}

/*
 * w->removable: the file the firmware's boot manager looks for on a device
 * (its EFI_REMOVABLE_MEDIA_FILE_NAME), which is the firmware's machine's,
 * not this build's (an ESP checked from another machine). That machine is,
 * as stage 2 takes shim's from its image: the PE machine of what an option
 * in the variables starts from --esp (BootCurrent's first: the firmware ran
 * it), else the one machine whose BOOT*.EFI \EFI\BOOT holds, else this
 * build's (w->removable_guessed: said when used).
 */
static void
find_removable(walk *w, const uint16_t *order, size_t n_order, const uint16_t *next, size_t n_next)
{
	uint16_t machine = 0;
	size_t i;

	if (w->o->esp && w->has_current)
		machine = option_machine(w, w->current);
	/* the first options only: one that starts a file on --esp comes early in a BootOrder */
	for (i = 0; w->o->esp && !removable_for(machine) && i < n_next + n_order && i < MACHINE_OPTIONS; i++)
		machine = option_machine(w, i < n_next ? next[i] : order[i - n_next]);
	if (w->o->esp && !removable_for(machine))
		machine = esp_machine(w);
	if (!removable_for(machine)) {
		machine = BUILD_MACHINE;
		w->removable_guessed = 1;
	}
	w->removable = removable_for(machine);
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

/* A stage-0 line of the option label: the firmware's (gate) verdict for reason. */
static void
option_line(walk *w, const char *label, int is_default, sbat_verdict verdict, sbat_boot_gate gate,
            sbat_boot_reason reason)
{
	sbat_boot_stage st;

	walk_stage(&st, label, is_default, 0, NULL);
	st.verdict = verdict;
	st.gate = gate;
	st.reason = reason;
	walk_add(w, &st);
}

/* Read and parse Boot####; 0 with *ret_buf to free, -1 after a line saying why not. */
static int
read_option(walk *w, uint16_t num, sbat_load_option *lo, uint8_t **ret_buf)
{
	char name[64], label[32], where[WALK_PATH_MAX + 128];
	size_t len;
	sbat_diag d;

	snprintf(name, sizeof(name), "Boot%04X-%s", (unsigned)num, SBAT_EFIVAR_GLOBAL_GUID);
	snprintf(where, sizeof(where), "%s/%s", w->efivarfs, name);
	snprintf(label, sizeof(label), "Boot%04X", (unsigned)num);
	if (read_var(w, name, WALK_VAR_MAX_SIZE, ret_buf, &len) != 0) {
		option_line(w, label, 0, SBAT_VERDICT_UNKNOWN, SBAT_BOOT_GATE_NONE, SBAT_BOOT_VARIABLE_UNREADABLE);
		return -1;
	}
	if (!*ret_buf) {
		option_line(w, label, 0, SBAT_VERDICT_SKIPPED, SBAT_BOOT_GATE_FIRMWARE, SBAT_BOOT_VARIABLE_MISSING);
		return -1;
	}
	if (sbat_load_option_parse(*ret_buf, len, lo, &d) != SBAT_OK) {
		walk_error(w, where, &d);
		option_line(w, label, 0, SBAT_VERDICT_UNKNOWN, SBAT_BOOT_GATE_NONE, SBAT_BOOT_VARIABLE);
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
	char first[40] = "", name[64];
	uint8_t seen[65536 / 8];
	size_t i, len, n = n_order + n_next;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < n && !w->other_esp[0]; i++) {
		unsigned num = i < n_next ? next[i] : order[i - n_next];
		sbat_load_option lo;
		uint8_t *buf = NULL;
		sbat_diag d;

		if (seen[num / 8] & (1u << (num % 8)))
			continue; /* a number BootOrder repeats */
		seen[num / 8] |= (uint8_t)(1u << (num % 8));
		snprintf(name, sizeof(name), "Boot%04X-%s", num, SBAT_EFIVAR_GLOBAL_GUID);
		if (sbat_efivar_read(w->efivarfs, name, WALK_VAR_MAX_SIZE, &buf, &len, &d) == SBAT_OK && buf &&
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
	sbat_diag d;

	if (file_only && w->o->esp && !w->other_esp[0]) {
		if (!w->file_only_assumed)
			walk_fact(w, SBAT_BOOT_NOTE_ASSUMED, w->o->esp, SBAT_BOOT_NOTE_FILE_ONLY_ESP);
		w->file_only_assumed = 1;
		return strdup(w->o->esp);
	}

	if (lo->has_hd && lo->signature_type == 2)
		(void)sbat_partition_mount_of_partuuid(lo->partition_guid, &mounted, &d); /* not mounted, or unknown */
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
		sbat_boot_note n;

		w->esp_assumed = 1;
		sbat_boot_note_init(&n);
		n.kind = SBAT_BOOT_NOTE_ASSUMED;
		n.file = w->o->esp;
		n.what = SBAT_BOOT_NOTE_ESP_PARTITION;
		n.partition = lo->partition_guid;
		walk_add_note(w, &n);
	}
	return strdup(w->o->esp);
}

/* The stage-1 line of an option whose ESP is not known. */
static void
no_esp_line(walk *w, const char *label, int is_default, const sbat_load_option *lo, const char *path, int file_only)
{
	sbat_boot_stage st;

	walk_stage(&st, label, is_default, 1, path);
	st.verdict = SBAT_VERDICT_UNKNOWN;
	if (lo->has_hd) {
		st.reason = SBAT_BOOT_PARTITION_UNKNOWN;
		st.partition = lo->partition_guid;
		st.esp_partition = w->o->esp && esp_guid(w)[0] ? esp_guid(w) : NULL;
	} else if (file_only) {
		st.reason = SBAT_BOOT_FILE_ONLY;
		st.partition = w->o->esp ? w->other_esp : NULL;
	} else {
		st.reason = SBAT_BOOT_DEVICE;
		st.boot_current = w->before_current ? (int)w->current : -1;
	}
	walk_add(w, &st);
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
	const char *path = lo->has_file ? lo->file_path : removable_name(w);
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
		bootpath_follow(w, label, is_default, esp, path, n ? nodes : NULL, n, buf + lo->optional_offset,
		                lo->optional_len);
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
		option_line(w, label, 0, SBAT_VERDICT_INACTIVE, SBAT_BOOT_GATE_FIRMWARE, SBAT_BOOT_INACTIVE);
	} else if (!is_boot_next && (lo.attributes & SBAT_LOAD_OPTION_CATEGORY) != 0) {
		/* EDK2's boot manager tries only LOAD_OPTION_CATEGORY_BOOT options on its own */
		option_line(w, label, 0, SBAT_VERDICT_NOT_GOVERNED, SBAT_BOOT_GATE_FIRMWARE, SBAT_BOOT_APPLICATION);
	} else if (lo.has_other_media) {
		/* EDK2's DxeImageVerificationLib: GetImageType says IMAGE_FROM_FV, whose policy is ALWAYS_EXECUTE */
		is_default = take_default(w, 1);
		option_line(w, label, is_default, SBAT_VERDICT_NOT_GOVERNED, SBAT_BOOT_GATE_FIRMWARE,
		            loadopt_in_firmware(buf, lo.optional_offset + lo.optional_len) ? SBAT_BOOT_FIRMWARE_VOLUME :
		                                                                             SBAT_BOOT_NOT_A_FILE);
	} else {
		follow_file_option(w, label, &lo, buf, is_current);
	}
	free(buf);
}

/* BootNext, BootOrder (malloc'ed in *order) and BootCurrent; -1 after a note when one does not read. */
static int
read_boot_numbers(walk *w, uint16_t **order, size_t *n_order, uint16_t *next, size_t *n_next)
{
	uint16_t *one = NULL;
	size_t n_current = 0, i;
	int r = read_numbers(w, "BootNext-" SBAT_EFIVAR_GLOBAL_GUID, 1, &one, n_next);

	if (r == 0 && *n_next)
		*next = one[0];
	free(one);
	if (r != 0 || read_numbers(w, "BootCurrent-" SBAT_EFIVAR_GLOBAL_GUID, 1, &one, &n_current) != 0)
		return -1;
	w->has_current = n_current == 1;
	if (w->has_current)
		w->current = one[0];
	free(one);
	if (read_numbers(w, "BootOrder-" SBAT_EFIVAR_GLOBAL_GUID, 0, order, n_order) != 0)
		return -1;
	for (i = 0; w->has_current && i < *n_order && (*order)[i] != w->current; i++)
		;
	/* BootCurrent in BootOrder: the options ahead of it had nothing to start this boot (or were passed over) */
	w->before_current = w->has_current && i < *n_order;
	return 0;
}

/*
 * Neither BootOrder nor BootNext. EDK2's BdsEntry then has no option of
 * its own to try (EfiBootManagerGetLoadOptions reads BootOrder only); OVMF's
 * PlatformBootManagerAfterConsole first makes them: EfiBootManagerRefreshAllBootOption
 * adds one Boot#### per device that BmEnumerateBootOptions finds (removable
 * media, then fixed disks, then other file systems, then network) to a new
 * BootOrder, each a whole device whose removable-media path the boot
 * manager starts; a platform that makes none ends in the PlatformRecovery
 * option BdsEntry writes, the short-form File() path of
 * EFI_REMOVABLE_MEDIA_FILE_NAME, looked for on every file system. Either way
 * what starts is the removable-media path of the first device that holds it:
 * on --esp, the path that boots (followed next), else not known.
 */
static void
no_boot_order(walk *w)
{
	sbat_boot_stage st;

	if (w->o->esp) {
		walk_fact(w, SBAT_BOOT_NOTE_ASSUMED, NULL, SBAT_BOOT_NOTE_NO_BOOT_ORDER);
		return;
	}
	walk_stage(&st, "BootOrder", 1, 0, NULL);
	st.verdict = SBAT_VERDICT_UNKNOWN;
	st.reason = SBAT_BOOT_NO_OPTIONS;
	st.removable = removable_name(w);
	walk_add(w, &st);
	w->default_taken = 1;
}

/* BootNext, then BootOrder's options, each once, as EDK2's BdsEntry tries them, then the removable-media path. */
static void
follow_all(walk *w, const uint16_t *order, size_t n_order, const uint16_t *next, size_t n_next)
{
	uint8_t seen[65536 / 8];
	size_t i;

	memset(seen, 0, sizeof(seen));
	if (!n_next && !n_order)
		no_boot_order(w);
	if (n_next) {
		follow_option(w, next[0], 1);
		seen[next[0] / 8] |= (uint8_t)(1u << (next[0] % 8));
	}
	for (i = 0; i < n_order; i++) {
		if (w->has_current && order[i] == w->current)
			w->before_current = 0;
		if (seen[order[i] / 8] & (1u << (order[i] % 8)))
			continue;
		seen[order[i] / 8] |= (uint8_t)(1u << (order[i] % 8));
		follow_option(w, order[i], 0);
	}
	w->before_current = 0;
	if (w->o->esp)
		bootpath_follow(w, "removable media fallback", !w->default_taken, w->o->esp, removable_name(w), NULL, 0,
		                NULL, 0);
}

/* Every path: BootNext, BootOrder's options, the removable-media path. */
static void
walk_all(walk *w)
{
	uint16_t *order = NULL, next_num[1];
	size_t n_order = 0, n_next = 0;
	struct stat st;

	if (stat(w->efivarfs, &st) != 0 || !S_ISDIR(st.st_mode)) {
		walk_fact(w, SBAT_BOOT_NOTE_ERROR, w->efivarfs, SBAT_BOOT_NOTE_NO_VARIABLES);
		report_mark_stopped(w->report, 1, 0);
		return;
	}
	if (!w->o->no_signatures || w->o->n_pending) {
		int r = signatures_load(w);

		if (r < 0)
			w->report_failed = 1;
		if (r > 0)
			report_mark_stopped(w->report, 0, 1);
		if (r != 0)
			return;
	} else {
		walk_fact(w, SBAT_BOOT_NOTE_ASSUMED, NULL, SBAT_BOOT_NOTE_NOT_JUDGED);
	}
	if (read_boot_numbers(w, &order, &n_order, next_num, &n_next) != 0) {
		report_mark_stopped(w->report, 0, 1);
	} else {
		find_other_esp(w, order, n_order, next_num, n_next);
		find_removable(w, order, n_order, next_num, n_next);
		follow_all(w, order, n_order, next_num, n_next);
	}
	free(order);
}

void
sbat_walk_opts_init(sbat_walk_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->size = sizeof(*o);
}

sbat_err
sbat_walk_next_boot(const sbat_walk_opts *o, sbat_boot_report **ret, sbat_diag *reterr)
{
	sbat_diag local, *d = reterr ? reterr : &local;
	sbat_err r;
	walk *w;

	*ret = NULL;
	if (!o || o->size != sizeof(*o))
		return diag_fail(d, SBAT_E_ABI, "walk options not made by sbat_walk_opts_init");
	if (!(w = calloc(1, sizeof(*w))))
		return diag_fail(d, SBAT_E_NOMEM, "out of memory");
	w->o = o;
	w->efivarfs = o->efivarfs ? o->efivarfs : SBAT_EFIVAR_DIR;
	w->insecure = signatures_mok_insecure(w->efivarfs);
	if ((r = sbat_boot_report_new(&w->report, d)) == SBAT_OK) {
		signatures_mok_pending(w);
		walk_all(w);
		signatures_free(w);
		if (w->report_failed) {
			r = diag_fail(d, SBAT_E_NOMEM, "out of memory");
			sbat_boot_report_free(w->report);
		} else {
			*ret = w->report;
		}
	}
	free(w);
	return r;
}
