#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# profiles-corpus.sh - both lint profiles (--profile shim-review, --profile
# uefi-ca) over the Debian corpus and the vendor-signed images that
# fetch-corpus.sh collects: which rules each image breaks is compared with
# the recorded table (profiles-expected.tsv, the table of README.md here);
# no image that Microsoft or Debian signed may break an error rule of a
# profile; --previous over two releases of Debian's GRUB and shim, and the
# revocation check against the published history and a real shim's
# payloads, give what those releases hold.
#
# Environment (set by meson): SBAT_ADD, HISTORY (data/sbat-level-history.txt),
# EXPECTED (profiles-expected.tsv in the source tree). SBAT_CORPUS_DIR as
# for fetch-corpus.sh. SBAT_PROFILES_UPDATE=1 rewrites EXPECTED from this
# run instead of comparing. Without the corpus every check is skipped,
# unless CI=true. Needs python3.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/tap.sh"
need_env SBAT_ADD HISTORY EXPECTED
export SBAT_ADD_HISTORY="$HISTORY"
CACHE="${SBAT_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus}"
export SBAT_CORPUS_DIR="$CACHE"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-profiles.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

if ! command -v python3 >/dev/null 2>&1; then
	[ "${CI:-}" = true ] && { echo "not ok 1 - python3 is missing"; exit 1; }
	skip_all "python3 is missing"
fi
bash "$HERE/fetch-corpus.sh" >"$T/fetch.log" 2>&1 || echo "# fetch-corpus.sh: $(tail -n 1 "$T/fetch.log")"
if ! grep -q '^[^#]' "$CACHE/corpus/MANIFEST.tsv" 2>/dev/null || ! grep -q '^[^#]' "$CACHE/signed/MANIFEST.tsv" 2>/dev/null; then
	[ "${CI:-}" = true ] && { echo "not ok 1 - no corpus in $CACHE (fetch-corpus.sh needs root and the archive)"; exit 1; }
	skip_all "no corpus in $CACHE (fetch-corpus.sh needs root and Debian's archive)"
fi

# images: "NAME<TAB>PATH<TAB>SIGNER", the corpus (signed kernels: Debian) then the vendor-signed ones
{
	awk -F'\t' '!/^#/ { print $1 "\t" d "/" $1 "\t" ($4 == "signed" ? "Debian" : "-") }' d="$CACHE/corpus" \
		"$CACHE/corpus/MANIFEST.tsv"
	awk -F'\t' '!/^#/ { print $1 "\t" d "/" $1 "\t" $2 }' d="$CACHE/signed" "$CACHE/signed/MANIFEST.tsv"
} >"$T/images.tsv"

# each image's findings of both profiles, as JSON
while IFS=$'\t' read -r name path signer; do
	"$SBAT_ADD" --lint --json --profile shim-review --profile uefi-ca "$path" >"$T/$name.json" 2>"$T/$name.err"
	echo "$?" >"$T/$name.rc"
done <"$T/images.tsv"

# the table: NAME SIGNER SHIM-REVIEW UEFI-CA, each profile's broken rules as severity:rule (or -)
python3 - "$T" >"$T/results.tsv" <<'PY'
import json, sys
t = sys.argv[1]
print("# name\tsigner\tshim-review: rules broken\tuefi-ca: rules broken")
for line in open(t + "/images.tsv"):
    name, path, signer = line.rstrip("\n").split("\t")
    res = json.load(open("%s/%s.json" % (t, name)))["results"][0]
    broken = {"shim-review": set(), "uefi-ca": set()}
    for f in res["findings"] or []:
        if f["profile"]:
            broken[f["profile"]].add("%s:%s" % (f["severity"], f["rule"]))
    cols = [" ".join(sorted(broken[p])) or "-" for p in ("shim-review", "uefi-ca")]
    print("\t".join([name, signer] + cols))
PY
sed 's/^/# /' "$T/results.tsv"

if [ "${SBAT_PROFILES_UPDATE:-}" = 1 ]; then
	# (the lines the file gets, not this script's: reuse skips them)
	# REUSE-IgnoreStart
	{
		echo "# SPDX-License-Identifier: LGPL-2.1-or-later"
		echo "# Copyright 2026 The sbat-add authors"
		echo "# profiles-expected.tsv - the lint profiles' rules each corpus image breaks (profiles-corpus.sh);"
		echo "# every other rule of the profile is met. Rewritten by SBAT_PROFILES_UPDATE=1."
		cat "$T/results.tsv"
	} >"$EXPECTED"
	# REUSE-IgnoreEnd
	ok "wrote $EXPECTED"
	tap_finish
	exit
fi

# one check per image, against its recorded line
while IFS=$'\t' read -r name signer review ca; do
	case $name in '#'*) continue ;; esac
	want=$(awk -F'\t' -v n="$name" '$1 == n' "$EXPECTED")
	got=$(printf '%s\t%s\t%s\t%s' "$name" "$signer" "$review" "$ca")
	if [ -z "$want" ]; then
		not_ok "$name: recorded in profiles-expected.tsv" "got: $got"
	elif [ "$want" = "$got" ]; then
		ok "$name ($signer): shim-review breaks ${review}; uefi-ca breaks $ca"
	else
		not_ok "$name: rules broken as recorded" "want: $want" "got:  $got"
	fi
done <"$T/results.tsv"
while IFS=$'\t' read -r name _; do
	case $name in '#'* | '') continue ;; esac
	grep -q "^$name	" "$T/results.tsv" || not_ok "$name (recorded) is in the corpus"
done <"$EXPECTED"

# what Microsoft or Debian signed breaks no error rule of a profile
signed_errors=$(awk -F'\t' '!/^#/ && $2 != "-" && ($3 ~ /error:/ || $4 ~ /error:/) { print $1 }' "$T/results.tsv")
check "no vendor-signed image breaks an error rule of either profile" test -z "$signed_errors"
[ -z "$signed_errors" ] || echo "#   $signed_errors"
ms=$(awk -F'\t' '!/^#/ && $2 == "Microsoft"' "$T/results.tsv" | wc -l)
check "the corpus has shims Microsoft signed ($ms)" test "$ms" -ge 2

# --previous: two releases of Debian's GRUB and of its shim
S="$CACHE/signed"
run_lint() { # run_lint OUT ARGS...
	local out=$1
	shift
	"$SBAT_ADD" --lint "$@" >"$T/$out" 2>&1
	echo "$?" >"$T/$out.rc"
}
run_lint grub.out --profile shim-review --previous "$S/grubx64.efi.signed-bookworm" "$S/grubx64.efi.signed-trixie"
check "GRUB 2.06 to 2.12: grub 5 -> 7 is a jump to explain (warning, exit 5)" \
	sh -c "[ \"\$(cat '$T/grub.out.rc')\" = 5 ] && grep -q 'warning: review-generation-jump: .*(grub: 5 -> 7' '$T/grub.out'"
check "... grub.debian kept generation 5 while its version moved: a note" \
	grep -q 'note: review-generation-same: .*(grub.debian: 5 -> 5, version 2.06-13' "$T/grub.out"
check "... grub.debian12 is gone (warning); grub.debian13 and grub.peimage are new" \
	sh -c "grep -q 'warning: review-component-gone: .*(grub.debian12,1 in ' '$T/grub.out' &&
	       grep -q ': generation: grub.debian13: - -> 1\$' '$T/grub.out' && grep -q ': generation: grub.peimage: - -> 2\$' '$T/grub.out'"
run_lint grub-back.out --profile shim-review --previous "$S/grubx64.efi.signed-trixie" "$S/grubx64.efi.signed-bookworm"
check "GRUB 2.12 back to 2.06: a generation lower, exit 1" \
	sh -c "[ \"\$(cat '$T/grub-back.out.rc')\" = 1 ] && grep -q 'error: review-generation-lower: .*(grub: 7 -> 5' '$T/grub-back.out'"
run_lint shim.out --profile shim-review --previous "$S/shimx64.efi.signed-bookworm" "$S/shimx64.efi.signed-trixie"
check "shim 16.1 of Debian 12 to that of Debian 13: the same generations, no finding of the profile" \
	sh -c "! grep -q ': review-' '$T/shim.out' && grep -q ': generation: shim: 4 -> 4\$' '$T/shim.out' &&
	       grep -q ': generation: shim.debian: 1 -> 1\$' '$T/shim.out'"

# dead on arrival: grub,3 (grub-mkimage --sbat) against the history and against Debian's shim
C="$CACHE/corpus"
run_lint doa.out --profile shim-review "$C/grubx64.efi"
check "grub,3 is revoked by the published levels: exit 1, the first level named with its reason" \
	sh -c "[ \"\$(cat '$T/doa.out.rc')\" = 1 ] && grep -q 'error: review-revoked: .*grub,3 is below grub,4 of the published SbatLevel 2023091900; since SbatLevel 2023091900: GRUB NTFS' '$T/doa.out'"
run_lint doa-shim.out --profile shim-review --against "$C/shimx64.efi" "$C/grubx64.efi"
check "... and by both payloads of Debian's shim 16.1 (told once, with the automatic one: grub,5 of 2025021800)" \
	sh -c "[ \"\$(cat '$T/doa-shim.out.rc')\" = 1 ] && [ \"\$(grep -c review-revoked '$T/doa-shim.out')\" = 1 ] &&
	       grep -q 'grub,3 is below grub,5 of SbatLevel 2025021800, the automatic payload of ' '$T/doa-shim.out'"
run_lint doa-debian.out --profile shim-review --against "$C/shimx64.efi" --against history "$S/grubx64.efi.signed-bookworm" \
	"$S/grubx64.efi.signed-trixie" "$S/systemd-bootx64.efi.signed-trixie"
check "Debian's signed GRUBs and systemd-boot: no published level and no payload of shim revokes them" \
	sh -c "! grep -q review-revoked '$T/doa-debian.out'"

tap_finish
