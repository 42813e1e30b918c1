/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/*
 * old-caller.c - a program built against 0.2's headers, as libsbat.so.0
 * sees it: its sbat_edit_opts ends with dry_run, and it calls
 * sbat_edit_opts_init@LIBSBAT_0. That call must set 0.2's size and write
 * nothing past 0.2's structure; the default sbat_edit_opts_init (what a
 * program built now binds to) sets today's size. TAP on standard output.
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

#include "sbat/edit.h"

/* 0.2's structure, as its header declared it */
typedef struct opts_0_2 {
	size_t size;
	int strip_signature, relocate, remove, write_unchanged, dry_run;
} opts_0_2;

typedef void (*init_fn)(void *);

static int n, failed;

static void
check(int ok, const char *what)
{
	n++;
	failed += !ok;
	printf("%sok %d - %s\n", ok ? "" : "not ", n, what);
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
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
