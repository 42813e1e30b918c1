# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# cli.sh - what the shell tests of the sbat-add command share: running it
# with its output captured, and the checks on its exit status. Source it
# after tap.sh. The caller sets SBAT_ADD (the command) and T (a scratch
# directory: the last run's output is in $T/out and $T/err).

# run ARGS...: run sbat-add; sets RC, and OUT and ERR to the captured output
# (without trailing newlines); the output itself stays in $T/out and $T/err.
run() {
	"$SBAT_ADD" "$@" >"$T/out" 2>"$T/err"
	RC=$?
	slurp OUT "$T/out"
	slurp ERR "$T/err"
}

# slurp VAR FILE: VAR = the contents of FILE without its trailing newlines,
# like VAR=$(cat FILE) but without starting a process.
slurp() {
	local text=""
	IFS= read -r -d '' text <"$2"
	while [[ "$text" == *$'\n' ]]; do
		text=${text%$'\n'}
	done
	printf -v "$1" '%s' "$text"
}

# what_ran: details of the last run for a failed check.
what_ran() {
	printf 'exit status %s\n' "$RC"
	printf 'stdout: %s\n' "$(head -c 600 "$T/out")"
	printf 'stderr: %s\n' "$(head -c 400 "$T/err")"
}

# expect DESCRIPTION CONDITION: ok when the bash condition (a string for
# eval) holds after a run; else not ok with the condition and what ran.
expect() {
	if eval "$2"; then
		ok "$1"
	else
		local d
		mapfile -t d < <(echo "condition: $2"; what_ran)
		not_ok "$1" "${d[@]}"
	fi
}

# expect_rc DESCRIPTION STATUS ARGS...: run ARGS; ok when the exit status is STATUS.
expect_rc() {
	local desc="$1" want="$2"
	shift 2
	run "$@"
	if [ "$RC" -eq "$want" ]; then
		ok "$desc"
	else
		local d
		mapfile -t d < <(echo "expected exit status $want"; what_ran)
		not_ok "$desc" "${d[@]}"
	fi
}

# err_has TEXT: the last run's stderr holds TEXT (a fixed string).
err_has() {
	grep -qF -- "$1" "$T/err"
}

# mtime FILE: its modification time, in seconds.
mtime() {
	stat -c %Y -- "$1"
}

# has_line LINE: the last run's stdout has LINE as a whole line.
has_line() {
	printf '%s\n' "$OUT" | grep -qxF -- "$1"
}
