# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# layers.sh - sourced by the structure checks: reads layers.txt (beside this
# file) into library_dirs (the library's folders, lowest first) and
# allowed[FOLDER] (the folders it may use); cli is the command, not listed
# in library_dirs.
declare -A allowed=()
library_dirs=""
while read -r dir uses; do
	case $dir in '' | '#'*) continue ;; esac
	allowed[$dir]=$uses
	[ "$dir" = cli ] || library_dirs="$library_dirs $dir"
done <"$(dirname "${BASH_SOURCE[0]}")/layers.txt"
library_dirs=${library_dirs# }
