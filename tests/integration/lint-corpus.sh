# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# lint-corpus.sh - sourced by run.sh: --lint on every corpus file as shipped,
# on sbat-add's final output for it (which must add no error or warning
# the input did not have), and on what GNU objcopy and llvm-objcopy make of
# a kernel with the usual "add a .sbat section" recipes. Every lint output
# goes to the log for the record.

# rules_of FILE: "severity:rule" of each error and warning in a --lint output
rules_of() {
	awk -F': ' '$2 == "error" || $2 == "warning" { print $2 ":" $3 }' "$1" | sort -u
}

# lint_record NAME LINT-OUT: the findings, into the log and on the screen
lint_record() {
	sed 's/^/    /' "$2" >>"$CURLOG"
	say "$(sed 's/^/    /' "$2")"
}

lint_corpus() {
	local name orig out rc_in rc_out new csv="$WORK/lint.csv" k
	CUR="lint"
	CURLOG="$LOGS/lint.log"
	: >"$CURLOG"
	hr
	say "== lint: every corpus file as shipped and as sbat-add leaves it"
	printf '%s\nlinux,1,Debian,linux,6.1,https://tracker.debian.org/pkg/linux\n' "$SBAT_ROW" >"$csv"
	for name in "${NAMES[@]}"; do
		orig="$CORPUS/$name"
		[ -f "$orig" ] || continue
		rc_in=0
		"$SBAT_ADD" --lint "$orig" >"$WORK/lint-$name.in" 2>&1 || rc_in=$?
		say "  $name as shipped: exit $rc_in"
		lint_record "$name" "$WORK/lint-$name.in"
		out="${FINAL[$name]:-}"
		[ -n "$out" ] && [ -f "$out" ] || continue
		rc_out=0
		"$SBAT_ADD" --lint "$out" >"$WORK/lint-$name.out" 2>&1 || rc_out=$?
		new=$(comm -13 <(rules_of "$WORK/lint-$name.in") <(rules_of "$WORK/lint-$name.out") | tr '\n' ' ')
		if [ -z "$new" ]; then
			pass lint "$name: sbat-add's output adds no error or warning (exit $rc_in as shipped, $rc_out edited)"
		else
			fail lint "$name: sbat-add's output lints with new findings: ${new:-exit $rc_out after $rc_in}"
			lint_record "$name" "$WORK/lint-$name.out"
		fi
	done

	k="$CORPUS/vmlinuz-amd64"
	[ -f "$k" ] || return 0
	say "  peers on vmlinuz-amd64:"
	if objcopy --add-section .sbat="$csv" "$k" "$WORK/objcopy.vmlinuz" 2>"$WORK/objcopy.err"; then
		rc_out=0
		"$SBAT_ADD" --lint "$WORK/objcopy.vmlinuz" >"$WORK/lint-objcopy.out" 2>&1 || rc_out=$?
		lint_record objcopy "$WORK/lint-objcopy.out"
		if [ "$rc_out" -eq 1 ]; then
			pass lint "objcopy --add-section on a kernel: lint finds what loaders refuse (exit 1)"
		else
			fail lint "objcopy --add-section on a kernel: lint exit $rc_out, expected 1"
		fi
	else
		pass lint "objcopy --add-section refuses the kernel itself: $(head -c 160 "$WORK/objcopy.err")"
	fi
	if objcopy --add-section .sbat="$csv" --change-section-vma .sbat=0x2000000 "$k" "$WORK/objcopy-vma.vmlinuz" \
		2>"$WORK/objcopy.err"; then
		rc_out=0
		"$SBAT_ADD" --lint "$WORK/objcopy-vma.vmlinuz" >"$WORK/lint-objcopy-vma.out" 2>&1 || rc_out=$?
		lint_record objcopy-vma "$WORK/lint-objcopy-vma.out"
		case $rc_out in
		0 | 1 | 5) pass lint "objcopy --add-section with a VMA: linted (exit $rc_out)" ;;
		*) fail lint "objcopy --add-section with a VMA: lint exit $rc_out" ;;
		esac
	fi
	# the newest llvm-objcopy there is (Debian: llvm-objcopy-N); 14 refuses bzImages, 19 writes them
	llvm=""
	for v in 21 20 19 18 17 16 15 ""; do
		command -v "llvm-objcopy${v:+-$v}" >/dev/null 2>&1 && { llvm="llvm-objcopy${v:+-$v}"; break; }
	done
	if [ -z "$llvm" ]; then
		say "  llvm-objcopy: not installed, not compared"
	elif ! "$llvm" --add-section .sbat="$csv" "$k" "$WORK/llvm-objcopy.vmlinuz" 2>"$WORK/objcopy.err"; then
		pass lint "$llvm refuses the kernel itself: $(head -c 160 "$WORK/objcopy.err")"
	else
		rc_out=0
		"$SBAT_ADD" --lint "$WORK/llvm-objcopy.vmlinuz" >"$WORK/lint-llvm-objcopy.out" 2>&1 || rc_out=$?
		lint_record llvm-objcopy "$WORK/lint-llvm-objcopy.out"
		# llvm-objcopy 19 leaves SizeOfImage 0 and the new section at VirtualAddress 0
		if [ "$rc_out" -eq 1 ]; then
			pass lint "$llvm --add-section on a kernel: lint finds what loaders refuse (exit 1)"
		else
			fail lint "$llvm --add-section on a kernel: lint exit $rc_out, expected 1"
		fi
	fi
}
