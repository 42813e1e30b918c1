# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
#
# bash completion for sbat-add(1). Installed as
# share/bash-completion/completions/sbat-add; works with or without the
# bash-completion package.

_sbat_add()
{
	local i=$COMP_CWORD cur prev="" prefix=""
	cur=${COMP_WORDS[i]}
	[ "$i" -gt 0 ] && prev=${COMP_WORDS[i - 1]}
	# "--csv=FILE": bash splits at '=' when it is in COMP_WORDBREAKS (the
	# default), giving "--csv" "=" "FILE"; otherwise it is one word
	if [ "$cur" = "=" ]; then
		cur=""
	elif [ "$prev" = "=" ] && [ "$i" -gt 1 ]; then
		prev=${COMP_WORDS[i - 2]}
	elif [[ "$cur" == --*=* ]]; then
		prev=${cur%%=*}
		prefix="$prev="
		cur=${cur#*=}
	fi
	COMPREPLY=()

	case "$prev" in
	-f | --file | -c | --csv | -o | --output | --esp | --xbootldr | --boot | --previous | --pending)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -P "$prefix" -f -- "$cur")
		return 0
		;;
	--check-level)
		# a word, latest:SHIM or automatic:SHIM, or a policy file
		compopt -o filenames 2>/dev/null
		case "$cur" in
		latest:* | automatic:*)
			mapfile -t COMPREPLY < <(compgen -P "$prefix${cur%%:*}:" -f -- "${cur#*:}")
			;;
		*)
			mapfile -t COMPREPLY < <(compgen -P "$prefix" -W 'running latest: automatic:' -- "$cur";
				compgen -P "$prefix" -f -- "$cur")
			;;
		esac
		return 0
		;;
	--against)
		# a word, latest:SHIM or automatic:SHIM, or a policy file
		compopt -o filenames 2>/dev/null
		case "$cur" in
		latest:* | automatic:*)
			mapfile -t COMPREPLY < <(compgen -P "$prefix${cur%%:*}:" -f -- "${cur#*:}")
			;;
		*)
			mapfile -t COMPREPLY < <(compgen -P "$prefix" -W 'history running none latest: automatic:' -- "$cur";
				compgen -P "$prefix" -f -- "$cur")
			;;
		esac
		return 0
		;;
	--profile)
		mapfile -t COMPREPLY < <(compgen -P "$prefix" -W 'shim-review uefi-ca' -- "$cur")
		return 0
		;;
	--lock-timeout)
		mapfile -t COMPREPLY < <(compgen -P "$prefix" -W '0 10 60 300' -- "$cur")
		return 0
		;;
	--level-payload)
		mapfile -t COMPREPLY < <(compgen -P "$prefix" -W 'latest automatic' -- "$cur")
		return 0
		;;
	--pcrsig)
		mapfile -t COMPREPLY < <(compgen -P "$prefix" -W 'drop keep' -- "$cur")
		return 0
		;;
	--luks)
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -P "$prefix" -f -- "$cur")
		return 0
		;;
	--event-log)
		# this machine's log, or a file
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -P "$prefix" -W 'running' -- "$cur"; compgen -P "$prefix" -f -- "$cur")
		return 0
		;;
	esac
	[ -z "$prefix" ] || return 0

	case "$cur" in
	-*)
		mapfile -t COMPREPLY < <(compgen -W '--file --csv --output --merge --force
			--relocate --remove --strip-signature --pcrsig --dry-run --print --json
			--check-level --level-payload --lint --profile --previous --against
			--lock-timeout --no-sync --esp --xbootldr --boot --signatures --no-signatures --pending --event-log --luks --quiet
			--verbose --help --version
			-f -c -o -n -p -q -v -h -V' -- "$cur")
		return 0
		;;
	esac

	# IMAGE
	compopt -o filenames 2>/dev/null
	mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	return 0
}
complete -F _sbat_add sbat-add
