#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# authenticode-corpus.sh - the library's Authenticode reader on the images
# Microsoft and Debian signed (fetch-corpus.sh): every certificate table
# reads (and the table of each signed kernel of the corpus), every
# signature's SHA-256 digest is the hash the library computes, its
# SignerInfo's RSA signature verifies and so does each link of its chain,
# and Debian's shim 16.1 carries two signatures, one chaining to "Microsoft
# Corporation UEFI CA 2011", one to "Microsoft UEFI CA 2023". sbat-add
# --print --json lists as many signatures, each covering the image, its
# certificates from the signer up; --print says so on standard error.
#
# Environment (set by meson): SIG_LIST (the sig-list program), SBAT_ADD. SBAT_CORPUS_DIR
# as for fetch-corpus.sh. It reads the corpus fetch-corpus.sh left and
# fetches nothing: without it, every check is skipped.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib/tap.sh"
need_env SIG_LIST SBAT_ADD
CACHE="${SBAT_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus}"
export SBAT_CORPUS_DIR="$CACHE"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-authenticode.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT

if ! grep -q '^[^#]' "$CACHE/signed/MANIFEST.tsv" 2>/dev/null; then
	skip_all "no signed images in $CACHE (run tests/integration/fetch-corpus.sh first)"
fi

# images: "NAME<TAB>PATH", the corpus's signed kernels, then the vendor-signed images
{
	awk -F'\t' '!/^#/ && $4 == "signed" { print $1 "\t" d "/" $1 }' d="$CACHE/corpus" \
		"$CACHE/corpus/MANIFEST.tsv" 2>/dev/null
	awk -F'\t' '!/^#/ && $2 != "-" { print $1 "\t" d "/" $1 }' d="$CACHE/signed" "$CACHE/signed/MANIFEST.tsv"
} >"$T/images.tsv"

shim16=""
while IFS=$'\t' read -r name f; do
	"$SIG_LIST" "$f" >"$T/$name.sigs" 2>&1
	rc=$?
	check "$name: its certificate table reads (exit $rc)" test "$rc" = 0
	[ "$rc" = 0 ] || { sed "s|^|#   |" "$T/$name.sigs"; continue; }
	count=$(grep -c "^sig" "$T/$name.sigs")
	check "$name: signed ($count signatures)" test "$count" -ge 1
	check "$name: every SHA-256 digest is the image's hash" \
		test -z "$(awk -F'\t' '$1 == "sig" && $5 != 1' "$T/$name.sigs")"
	check "$name: every signature's SignerInfo verifies under its signer's key" \
		test -z "$(awk -F'\t' '$1 == "sig" && $8 != 1' "$T/$name.sigs")"
	check "$name: every chain verifies up to its top certificate (RSA, each link)" \
		test -z "$(awk -F'\t' '$1 == "sig" && $9 != "cert-allowed" && $9 != "-"' "$T/$name.sigs")"
	"$SBAT_ADD" --print --json "$f" >"$T/$name.json" 2>/dev/null
	check "$name: --print --json lists the $count signatures, each covering the image, chains upwards" \
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
s = d["signatures"]
ok = len(s) == int(sys.argv[2]) and all(x["covers_image"] and x["image_digest"] == d["authenticode_sha256"] for x in s)
for x in s:
    c = [k for k in x["certificates"] if k["in_chain"]]
    ok = ok and all(c[i + 1]["subject"] == c[i]["issuer"] for i in range(len(c) - 1))
sys.exit(0 if ok else 1)' "$T/$name.json" "$count"
	"$SBAT_ADD" --print "$f" >/dev/null 2>"$T/$name.err"
	check "$name: --print says each signature covers the image" \
		test "$(grep -c ': SHA-256 digest, covers this image$' "$T/$name.err")" = "$count"
	case $name in shimx64.efi.signed-*) grep -aq 'shim,16\.1,' "$f" && shim16=$name ;; esac
done <"$T/images.tsv"

if [ -z "$shim16" ]; then
	skip "Debian's shim 16.1 has two Microsoft signatures" "no shim 16.1 among the signed images"
else
	s=$T/$shim16.sigs
	check "$shim16 (shim 16.1): two signatures" test "$(grep -c '^sig' "$s")" = 2
	# which signature holds a certificate that CA issued
	by_ca() { awk -F'\t' -v ca="CN=$1" '$1 == "cert" && index($4, ca) { print $2; exit }' "$s"; }
	old=$(by_ca "Microsoft Corporation UEFI CA 2011")
	new=$(by_ca "Microsoft UEFI CA 2023")
	check "$shim16: a signature chains to Microsoft Corporation UEFI CA 2011" test -n "$old"
	check "$shim16: a signature chains to Microsoft UEFI CA 2023" test -n "$new"
	check "$shim16: they are two signatures" test "$old" != "$new"
	sed "s|^|#   |" "$s"
fi
tap_finish
