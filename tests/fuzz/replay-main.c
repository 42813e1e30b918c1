/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* replay-main.c - runs a fuzz harness once on each given file or directory entry, without libFuzzer */

/*
 * Linked with one harness (fuzz-edit.c or fuzz-csv.c) so that the saved
 * corpora and crash reproducers are replayed by any compiler, sanitizers or
 * not. A directory stands for the regular files directly in it (sorted by
 * name; hidden files and subdirectories are skipped). An input that breaks
 * an invariant aborts the process: the last "NAME ..." line printed names it.
 * Exits 0 when every input ran, 1 when a path could not be read, 2 on bad usage.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Inputs larger than this are reported and skipped (the harnesses cap theirs lower). */
#define REPLAY_MAX_INPUT (64u * 1024u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long n_run, n_errors;

static int
read_file(const char *path, uint8_t **ret, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *tmp;
	size_t len = 0, cap = 0, n;

	if (!f)
		return -1;
	for (;;) {
		if (len == cap) {
			if (cap >= REPLAY_MAX_INPUT) {
				errno = EFBIG;
				goto fail;
			}
			cap = cap ? cap * 2 : 4096;
			tmp = realloc(buf, cap);
			if (!tmp)
				goto fail;
			buf = tmp;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f)) {
				errno = EIO;
				goto fail;
			}
			break;
		}
	}
	fclose(f);
	/* exactly len bytes, so an overread is caught by the sanitizers */
	tmp = malloc(len ? len : 1);
	if (!tmp) {
		free(buf);
		return -1;
	}
	if (len)
		memcpy(tmp, buf, len);
	free(buf);
	*ret = tmp;
	*ret_len = len;
	return 0;

fail:
	free(buf);
	fclose(f);
	return -1;
}

static void
run_file(const char *path)
{
	uint8_t *buf;
	size_t len;

	if (read_file(path, &buf, &len) < 0) {
		printf("%s: cannot read: %s\n", path, strerror(errno));
		n_errors++;
		return;
	}
	/* printed first: if the harness aborts, this line names the input */
	printf("%s (%zu bytes) ... ", path, len);
	fflush(stdout);
	LLVMFuzzerTestOneInput(buf, len);
	printf("ok\n");
	n_run++;
	free(buf);
}

static int
not_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static void
run_dir(const char *dir)
{
	struct dirent **names;
	int n, i;

	n = scandir(dir, &names, not_hidden, alphasort);
	if (n < 0) {
		printf("%s: cannot list: %s\n", dir, strerror(errno));
		n_errors++;
		return;
	}
	for (i = 0; i < n; i++) {
		size_t plen = strlen(dir) + 1 + strlen(names[i]->d_name) + 1;
		char *path = malloc(plen);
		struct stat st;

		if (!path) {
			printf("%s: out of memory\n", dir);
			n_errors++;
		} else {
			snprintf(path, plen, "%s/%s", dir, names[i]->d_name);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
				run_file(path);
			free(path);
		}
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	struct stat st;
	int i;

	if (argc < 2) {
		fprintf(stderr,
		        "usage: %s FILE|DIR...\n"
		        "Run the fuzz harness once on each file (directories: each regular file in them).\n",
		        argc > 0 && argv[0] ? argv[0] : "replay");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) < 0) {
			printf("%s: %s\n", argv[i], strerror(errno));
			n_errors++;
		} else if (S_ISDIR(st.st_mode)) {
			run_dir(argv[i]);
		} else {
			run_file(argv[i]);
		}
	}
	/* only reached when no input crashed */
	printf("%lu inputs replayed, no crash; %lu paths unreadable\n", n_run, n_errors);
	return n_errors ? 1 : 0;
}
