/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* messages.c - what every mode of the command shares: messages, quoting, signals */
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sbat/error.h"
#include "sbat/output.h"

#include "messages.h"
#include "options.h"

const char *const cli_progname = "sbat-add";

const char *
cli_quote(const char *name)
{
	static char bufs[4][PATH_MAX * 4 + 1];
	static unsigned next;
	char *out = bufs[next++ % 4], *p = out;
	const unsigned char *s;

	for (s = (const unsigned char *)name; *s && p < out + sizeof(bufs[0]) - 5; s++) {
		if (*s == '\n')
			p += sprintf(p, "\\n");
		else if (*s == '\t')
			p += sprintf(p, "\\t");
		else if (*s < 0x20 || *s == 0x7f)
			p += sprintf(p, "\\x%02x", *s);
		else
			*p++ = (char)*s;
	}
	*p = '\0';
	return out;
}

static void
on_terminating_signal(int sig)
{
	/*
	 * Once the new file is in place the edit is done: finish and report it,
	 * rather than exit as interrupted over a changed file. The handler was
	 * reset on entry (SA_RESETHAND): a second signal ends us.
	 */
	if (sbat_output_committed())
		return;
	sbat_output_remove_temporaries();
	raise(sig);
}

static void
on_bus_error(int sig)
{
	static const char msg[] = "sbat-add: an input file shrank while being read; nothing was written\n";

	(void)sig;
	sbat_output_remove_temporaries();
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more to do */
	}
	_exit(EXIT_FAILURE_);
}

void
cli_catch_signals(void)
{
	static const int terminating[] = {
		SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF,
	};
	struct sigaction sa, old;
	unsigned i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_terminating_signal;
	sa.sa_flags = SA_RESETHAND | SA_RESTART; /* a handler that returns must not fail a write with EINTR */
	for (i = 0; i < sizeof(terminating) / sizeof(terminating[0]); i++)
		if (sigaction(terminating[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(terminating[i], &sa, NULL);
	/* a mapped input cut short by someone else: end cleanly instead of crashing */
	sa.sa_handler = on_bus_error;
	sa.sa_flags = 0;
	sigaction(SIGBUS, &sa, NULL);
}

/* What the user can do about a refusal; the library names no options. */
static const char *
advice(const sbat_diag *d)
{
	switch (d->code) {
	case SBAT_E_SIGNED: return "; sign after editing, or pass --strip-signature";
	/* a multi-profile UKI's refusal names its .profile: --relocate cannot help there */
	case SBAT_E_SBAT_NO_ROOM: return d->size_needed && d->other_index < 0 ? "; use --relocate" : "";
	case SBAT_E_LOCKED: return " (see --lock-timeout)";
	case SBAT_E_PCRSIG:
		return "; rebuild the UKI with ukify, or sign its new PCR 11 values with systemd-measure sign, or "
		       "pass --pcrsig=drop (remove .pcrsig) or --pcrsig=keep (keep it, stale)";
	default: return "";
	}
}

void
cli_diag_text(FILE *out, const sbat_diag *d)
{
	const char *what = d->what ? d->what : sbat_strerror(d->code);

	if ((d->code == SBAT_E_CSV || d->code == SBAT_E_LEVEL) && d->line) {
		if (d->field)
			fprintf(out, "line %u, field %u: %s", d->line, d->field, what);
		else
			fprintf(out, "line %u: %s", d->line, what);
		return;
	}
	fputs(what, out);
	if (d->sys_errno)
		fprintf(out, ": %s", strerror(d->sys_errno));
	if (d->size_needed)
		fprintf(out, ": needs %" PRIu64 " bytes, has %" PRIu64, d->size_needed, d->size_available);
	if (d->other_name[0] && d->other_index >= 0)
		fprintf(out, ": section %d \"%s\"", d->other_index, cli_quote(d->other_name));
	fputs(advice(d), out);
	if (d->has_offset)
		fprintf(out, " (at offset 0x%" PRIx64 ")", d->offset);
}

void
cli_diag(int severity, const char *file, const char *context, const sbat_diag *d)
{
	fprintf(stderr, "%s: %s", cli_progname, severity == CLI_WARNING ? "warning: " : "");
	/* a text file's line goes with its name, as compilers print it */
	if (!context && (d->code == SBAT_E_CSV || d->code == SBAT_E_LEVEL) && d->line) {
		fprintf(stderr, "%s:%u: ", cli_quote(file), d->line);
		if (d->field)
			fprintf(stderr, "field %u: ", d->field);
		fputs(d->what ? d->what : sbat_strerror(d->code), stderr);
		if (d->other_name[0] && d->other_index < 0)
			fprintf(stderr, ": %s is at generation %u, this row says %u", cli_quote(d->other_name),
			        d->existing_generation, d->new_generation);
		fputc('\n', stderr);
		return;
	}
	fprintf(stderr, "%s: ", cli_quote(file));
	if (context)
		fprintf(stderr, "%s: ", context);
	cli_diag_text(stderr, d);
	fputc('\n', stderr);
}

int
cli_report_error(const char *file, const sbat_diag *d)
{
	cli_diag(CLI_ERROR, file, NULL, d);
	return EXIT_FAILURE_;
}

void
cli_message(const char *file, const char *text)
{
	fprintf(stderr, "%s: %s: %s\n", cli_progname, cli_quote(file), text);
}
