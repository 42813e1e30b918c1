# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
#
# kernel-hooks.sh - sourced by run.sh: the kernel-install plugin and the
# Debian postinst.d hook on the real Debian kernels of the corpus, through
# tests/cli/test-kernel-hooks.sh (real kernel-install and run-parts in a
# temporary directory). Each of its TAP results becomes a PASS or FAIL
# under the name "hooks/KERNEL", in the summary's "inserted" column.
#
# Uses from run.sh: SBAT_ADD, SRCROOT, HERE, CACHE, LOGS, pass, fail, say,
# NAMES, CUR, CURLOG. Environment (set by meson, else looked for in
# SRCROOT/build): GEN_FIXTURES, KERNEL_INSTALL_PLUGIN, KERNEL_POSTINST_HOOK.

kernel_hooks() {
	local kernel name line desc rc gen plugin hook
	gen=${GEN_FIXTURES:-$SRCROOT/build/tests/fixtures/gen-fixtures}
	plugin=${KERNEL_INSTALL_PLUGIN:-$SRCROOT/build/data/90-sbat-add.install}
	hook=${KERNEL_POSTINST_HOOK:-$SRCROOT/build/data/50-sbat-add}
	for kernel in vmlinuz-amd64 Image-arm64; do
		[ -f "$CACHE/corpus/$kernel" ] || continue
		[ ${#ONLY[@]} -eq 0 ] || [[ " ${ONLY[*]} " == *" $kernel "* ]] || continue
		name="hooks/$kernel"
		NAMES+=("$name")
		CUR=$name
		CURLOG="$LOGS/kernel-hooks-$kernel.log"
		: >"$CURLOG"
		say "== $name: kernel-install plugin and postinst.d hook on $kernel"
		if [ ! -x "$gen" ] || [ ! -f "$plugin" ] || [ ! -f "$hook" ]; then
			fail inserted "build tree incomplete (gen-fixtures, data/50-sbat-add*): build it first"
			continue
		fi
		rc=0
		SBAT_ADD="$SBAT_ADD" GEN_FIXTURES="$gen" FIXTURES_SRC="$SRCROOT/tests/fixtures" \
			KERNEL_INSTALL_PLUGIN="$plugin" KERNEL_POSTINST_HOOK="$hook" \
			TEST_KERNEL="$CACHE/corpus/$kernel" \
			bash "$SRCROOT/tests/cli/test-kernel-hooks.sh" >"$CURLOG.tap" 2>&1 || rc=$?
		while IFS= read -r line; do
			case "$line" in
			"ok "*" # SKIP"*) ;;
			"ok "*) pass inserted "${line#ok * - }" ;;
			"not ok "*) fail inserted "${line#not ok * - }" ;;
			esac
		done <"$CURLOG.tap"
		grep -q '^1\.\.' "$CURLOG.tap" || fail inserted "test-kernel-hooks.sh ended early (exit $rc); see $CURLOG.tap"
		for c in replaced removed relocated merged level json validators boot; do
			cell "$name" "$c" n/a
		done
	done
}
