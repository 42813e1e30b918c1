#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
#
# test-completion.sh - the bash completion, driven through COMP_WORDS and
# COMP_CWORD as bash drives it, and the zsh completion: every option of
# --help is offered by both. The zsh checks are skipped without zsh.
#
# Environment (set by meson): SBAT_ADD, COMPLETION_SRC (the data/completion
# directory). Output: TAP.

set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD COMPLETION_SRC

T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-completion.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
# file names complete too: from an empty directory, not the build tree's
cd "$T" || exit 1

# shellcheck source=/dev/null
. "$COMPLETION_SRC/sbat-add.bash"
if [ "$(complete -p sbat-add 2>/dev/null)" = "complete -F _sbat_add sbat-add" ]; then
	ok "sourcing the bash completion registers _sbat_add for sbat-add"
else
	not_ok "sourcing the bash completion registers _sbat_add for sbat-add" "$(complete -p sbat-add 2>&1)"
fi

# complete WORD...: the command line is "sbat-add WORD...", the cursor in
# the last WORD; sets REPLY_LIST to the sorted candidates, one per line
complete_words() {
	COMP_WORDS=(sbat-add "$@")
	COMP_CWORD=$#
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_sbat_add sbat-add "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	REPLY_LIST=$(printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort)
}

# expect_words DESCRIPTION EXPECTED WORD...: the candidates are exactly EXPECTED
# (one per line)
expect_words() {
	local desc="$1" want="$2"
	shift 2
	complete_words "$@"
	if [ "$REPLY_LIST" = "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc" "expected: $(printf '%s' "$want" | tr '\n' ' ')" "got: $(printf '%s' "$REPLY_LIST" | tr '\n' ' ')"
	fi
}

# the options of --help, long and short
mapfile -t help_opts < <("$SBAT_ADD" --help | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-z-]*' |
	sed 's/^[ ,]*//' | LC_ALL=C sort -u)
if [ "${#help_opts[@]}" -ge 20 ]; then
	ok "--help lists ${#help_opts[@]} options"
else
	not_ok "--help lists the options" "found: ${help_opts[*]}"
fi

complete_words -
all_dash=$REPLY_LIST
complete_words --
all_long=$REPLY_LIST
for opt in "${help_opts[@]}"; do
	if [[ $'\n'"$all_dash"$'\n' == *$'\n'"$opt"$'\n'* ]]; then
		ok "bash: '-' completes $opt"
	else
		not_ok "bash: '-' completes $opt" "got: $(printf '%s' "$all_dash" | tr '\n' ' ')"
	fi
done
if [ "$(printf '%s\n' "$all_long" | grep -c -- '^--')" = "$(printf '%s\n' "${help_opts[@]}" | grep -c -- '^--')" ]; then
	ok "bash: '--' completes exactly the long options"
else
	not_ok "bash: '--' completes exactly the long options" "got: $(printf '%s' "$all_long" | tr '\n' ' ')"
fi
expect_words "bash: --rel completes --relocate" "--relocate" --rel
expect_words "bash: --re completes --relocate and --remove" $'--relocate\n--remove' --re
expect_words "bash: --level-payload completes latest and automatic" $'automatic\nlatest' --check-level L --level-payload ''
expect_words "bash: --level-payload a completes automatic" "automatic" --level-payload a
expect_words "bash: --level-payload=l (split at '=') completes latest" "latest" --level-payload = l
expect_words "bash: --level-payload= (split at '=') completes both words" $'automatic\nlatest' --level-payload =
expect_words "bash: --check-level r completes running" "running" --check-level r
expect_words "bash: --check-level la completes latest:" "latest:" --check-level la
expect_words "bash: --check-level au completes automatic:" "automatic:" --check-level au
expect_words "bash: --profile completes shim-review and uefi-ca" $'shim-review\nuefi-ca' --lint --profile ''
expect_words "bash: --profile u completes uefi-ca" "uefi-ca" --lint --profile u
expect_words "bash: --against h completes history" "history" --lint --profile shim-review --against h
expect_words "bash: --against n completes none" "none" --lint --profile shim-review --against n
expect_words "bash: --against la completes latest:" "latest:" --lint --profile shim-review --against la

# files for IMAGE, --file, --csv, --output and --check-level
mkdir -p "$T/dir/sub"
: >"$T/dir/vmlinuz-6.1"
: >"$T/dir/linux.sbat"
for words in "--file $T/dir/" "-f $T/dir/" "--csv $T/dir/" "-c $T/dir/" "--output $T/dir/" \
	"-o $T/dir/" "--check-level $T/dir/" "--print $T/dir/" "--previous $T/dir/" "--against $T/dir/" "$T/dir/"; do
	read -r -a w <<<"$words"
	expect_words "bash: '${words/"$T"/T}' completes the files in the directory" \
		"$T/dir/linux.sbat"$'\n'"$T/dir/sub"$'\n'"$T/dir/vmlinuz-6.1" "${w[@]}"
done
expect_words "bash: --csv T/dir/li completes linux.sbat" "$T/dir/linux.sbat" --file x --csv "$T/dir/li"
expect_words "bash: --csv=T/dir/li (one word) completes --csv=T/dir/linux.sbat" "--csv=$T/dir/linux.sbat" "--csv=$T/dir/li"
expect_words "bash: --csv = T/dir/li (split at '=') completes linux.sbat" "$T/dir/linux.sbat" --csv = "$T/dir/li"

# zsh
if command -v zsh >/dev/null 2>&1; then
	if zsh -n "$COMPLETION_SRC/_sbat-add" 2>"$T/zsh.err"; then
		ok "zsh: _sbat-add parses"
	else
		not_ok "zsh: _sbat-add parses" "$(cat "$T/zsh.err")"
	fi
	if [ "$(head -n 1 "$COMPLETION_SRC/_sbat-add")" = "#compdef sbat-add" ]; then
		ok "zsh: _sbat-add starts with #compdef sbat-add"
	else
		not_ok "zsh: _sbat-add starts with #compdef sbat-add"
	fi
	# load it through compinit from a private fpath and ask zsh which
	# function completes sbat-add
	got=$(ZDOTDIR="$T" HOME="$T" zsh -f -c "fpath=('$COMPLETION_SRC' \$fpath); autoload -Uz compinit; compinit -u -d '$T/zcompdump'; print -r -- \${_comps[sbat-add]}" 2>"$T/zsh.err")
	if [ "$got" = "_sbat-add" ]; then
		ok "zsh: compinit picks _sbat-add for sbat-add"
	else
		not_ok "zsh: compinit picks _sbat-add for sbat-add" "got: $got" "$(head -c 300 "$T/zsh.err")"
	fi
	zsh_spec=$(sed -n '/^_arguments/,$p' "$COMPLETION_SRC/_sbat-add")
	for opt in "${help_opts[@]}"; do
		if [[ "$zsh_spec" == *"$opt"[\[=+,\'}]* ]]; then
			ok "zsh: $opt is completed"
		else
			not_ok "zsh: $opt is completed"
		fi
	done
	for word in latest automatic; do
		if [[ "$zsh_spec" == *"--level-payload=["*"($word "* || "$zsh_spec" == *"--level-payload=["*" $word)"* ]]; then
			ok "zsh: --level-payload completes $word"
		else
			not_ok "zsh: --level-payload completes $word"
		fi
	done
	if [[ "$zsh_spec" == *"--profile=["*"(shim-review uefi-ca)"* ]]; then
		ok "zsh: --profile completes shim-review and uefi-ca"
	else
		not_ok "zsh: --profile completes shim-review and uefi-ca"
	fi
	if [[ "$zsh_spec" == *"(history running none latest"*"automatic"* ]]; then
		ok "zsh: --against completes history, running, none, latest: and automatic:"
	else
		not_ok "zsh: --against completes history, running, none, latest: and automatic:"
	fi
	if [[ "$zsh_spec" == *"(running latest"*"automatic"* ]]; then
		ok "zsh: --check-level completes running, latest: and automatic:"
	else
		not_ok "zsh: --check-level completes running, latest: and automatic:"
	fi
else
	skip "zsh completion" "zsh not installed"
fi

tap_finish
