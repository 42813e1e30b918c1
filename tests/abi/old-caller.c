/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * old-caller.c - a program built against 0.2's headers, as libsbat.so.0
 * sees it: its sbat_edit_opts ends with dry_run, and it calls
 * sbat_edit_opts_init@LIBSBAT_0. That call must set 0.2's size and write
 * nothing past 0.2's structure; the default sbat_edit_opts_init (what a
 * program built now binds to) sets today's size. And one built against
 * 0.3's headers: its sbat_boot_stage ends before signature_authority and its
 * sbat_boot_note before svns (both grow at their end); the @LIBSBAT_0.3
 * inits must fill exactly that much, and the report must take such records.
 * TAP on standard output.
 *
 * Usage: old-caller LIBRARY
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "sbat/bootreport.h"
#include "sbat/edit.h"

/* 0.2's structure, as its header declared it */
typedef struct opts_0_2 {
	size_t size;
	int strip_signature, relocate, remove, write_unchanged, dry_run;
} opts_0_2;

typedef void (*init_fn)(void *);
typedef sbat_err (*report_new_fn)(sbat_boot_report **, sbat_diag *);
typedef void (*report_free_fn)(sbat_boot_report *);
typedef sbat_err (*add_fn)(sbat_boot_report *, const void *, sbat_diag *);

static int n, failed;

static void
check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
}

/* 1 when the bytes of buf from `from` on still hold 0xa5. */
static int
untouched_from(const unsigned char *buf, size_t from, size_t len)
{
	size_t i;

	for (i = from; i < len; i++)
		if (buf[i] != 0xa5)
			return 0;
	return 1;
}

/* A 0.3 caller's record of `size` bytes: made by the @LIBSBAT_0.3 init `name`, then added to a report by `add`. */
static void
check_0_3(void *lib, const char *name, const char *add, size_t size)
{
	unsigned char buf[4096];
	init_fn init = (init_fn)(size_t)dlvsym(lib, name, "LIBSBAT_0.3");
	report_new_fn report_new = (report_new_fn)(size_t)dlsym(lib, "sbat_boot_report_new");
	report_free_fn report_free = (report_free_fn)(size_t)dlsym(lib, "sbat_boot_report_free");
	add_fn add_fn_ = (add_fn)(size_t)dlsym(lib, add);
	sbat_boot_report *r = NULL;
	sbat_diag d;
	size_t got;
	char what[160];

	snprintf(what, sizeof(what), "%s@LIBSBAT_0.3 is there for 0.3's callers", name);
	check(init != NULL, what);
	if (!init || !report_new || !report_free || !add_fn_ || size > sizeof(buf))
		return;
	memset(buf, 0xa5, sizeof(buf));
	init(buf);
	memcpy(&got, buf, sizeof(got));
	snprintf(what, sizeof(what), "... records 0.3's size (%zu) and writes nothing past it", size);
	check(got == size && untouched_from(buf, size, sizeof(buf)), what);
	report_new(&r, &d);
	snprintf(what, sizeof(what), "... and %s takes the 0.3 record", add);
	check(r && add_fn_(r, buf, &d) == SBAT_OK, what);
	report_free(r);
}

int
main(int argc, char **argv)
{
	unsigned char buf[sizeof(opts_0_2) + 64];
	void *lib;
	init_fn old_init, new_init;
	size_t i, size;
	int untouched = 1;

	if (argc != 2 || !(lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL))) {
		/* TAP's skip: the plan says it, and the exit status is 0 (meson takes 77 for an error here) */
		printf("1..0 # SKIP cannot load the library: %s\n", argc == 2 ? dlerror() : "no argument");
		return 0;
	}
	old_init = (init_fn)(size_t)dlvsym(lib, "sbat_edit_opts_init", "LIBSBAT_0");
	new_init = (init_fn)(size_t)dlsym(lib, "sbat_edit_opts_init");
	check(old_init != NULL, "sbat_edit_opts_init@LIBSBAT_0 is there for 0.2's callers");
	check(new_init != NULL, "sbat_edit_opts_init has a default version");
	if (old_init) {
		memset(buf, 0xa5, sizeof(buf));
		old_init(buf);
		memcpy(&size, buf, sizeof(size));
		for (i = sizeof(opts_0_2); i < sizeof(buf); i++)
			untouched &= buf[i] == 0xa5;
		check(size == sizeof(opts_0_2), "the LIBSBAT_0 one records 0.2's size");
		check(untouched, "... and writes nothing past 0.2's structure");
	}
	if (new_init) {
		sbat_edit_opts o;

		memset(&o, 0xa5, sizeof(o));
		new_init(&o);
		check(o.size == sizeof(sbat_edit_opts) && o.pcrsig == 0, "the default one fills today's structure");
	}
	check_0_3(lib, "sbat_boot_stage_init", "sbat_boot_report_add", offsetof(sbat_boot_stage, signature_authority));
	check_0_3(lib, "sbat_boot_note_init", "sbat_boot_report_add_note", offsetof(sbat_boot_note, svns));
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
