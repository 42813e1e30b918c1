#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-signatures.sh - what --print and --print --json say about an image's
# Authenticode signatures: an image signed by sbsign with a certificate
# chain (leaf, intermediate, root, and one certificate off the chain, in
# another order), the same image with one byte changed after signing, a
# nested signature (osslsigncode -nest), malformed certificate tables
# (one line naming the structure and its offset, the rest still printed),
# and an unsigned image (nothing said; an empty "signatures" array).
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC.
# Needs openssl, sbsign and python3 (skipped without); osslsigncode for
# the nested signature and for the Authenticode SHA-256 computed apart
# from sbat-add (skipped without, unless CI=true).
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC
for tool in openssl sbsign python3; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "no $tool"
done
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-signatures.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
"$GEN_FIXTURES" "$T/fx" >/dev/null || exit 1
. "$(dirname "$0")/../lib/cli.sh"

# a root, an intermediate it issued, a leaf the intermediate issued, and one unrelated certificate
k=$T/keys
mkdir -p "$k"
req() { openssl req -new -newkey rsa:2048 -nodes -keyout "$k/$1.key" -subj "$2" "${@:3}" >/dev/null 2>&1; }
req root '/CN=Test Root/O=Example Org' -x509 -days 30 -out "$k/root.pem" &&
	req inter '/CN=Test Intermediate/O=Example Org' -out "$k/inter.csr" &&
	printf 'basicConstraints=CA:TRUE\n' >"$k/ca.ext" &&
	openssl x509 -req -in "$k/inter.csr" -CA "$k/root.pem" -CAkey "$k/root.key" -CAcreateserial \
		-days 30 -extfile "$k/ca.ext" -out "$k/inter.pem" >/dev/null 2>&1 &&
	req leaf '/CN=Test Leaf/O=Example Org' -out "$k/leaf.csr" &&
	openssl x509 -req -in "$k/leaf.csr" -CA "$k/inter.pem" -CAkey "$k/inter.key" -CAcreateserial \
		-days 30 -out "$k/leaf.pem" >/dev/null 2>&1 &&
	req other '/CN=Unrelated/C=DE' -x509 -days 30 -out "$k/other.pem" || skip_all "openssl could not make the certificates"
# the extra certificates out of chain order: root, intermediate, unrelated
cat "$k/root.pem" "$k/inter.pem" "$k/other.pem" >"$k/extra.pem"
IMG=$T/signed.efi
sbsign --key "$k/leaf.key" --cert "$k/leaf.pem" --addcert "$k/extra.pem" --output "$IMG" \
	"$T/fx/sbat-last.efi" >/dev/null 2>&1 || skip_all "sbsign could not sign"

# authenticode_check DESCRIPTION IMAGE HASH: ok when HASH is the Authenticode
# SHA-256 of the signed IMAGE that osslsigncode verify calculates (its own
# hash of the file, beside the digest the signature holds, and followed by
# MISMATCH when they differ); skipped without osslsigncode, unless CI=true
authenticode_check() {
	local calc
	if ! command -v osslsigncode >/dev/null 2>&1; then
		if [ "${CI:-}" = true ]; then
			not_ok "$1" "osslsigncode is missing (CI=true: .ci/run installs it)"
		else
			skip "$1" "no osslsigncode"
		fi
		return
	fi
	calc=$(osslsigncode verify -in "$2" 2>/dev/null |
		sed -n 's/^Calculated message digest *: *\([0-9A-Fa-f]\{64\}\)\([^0-9A-Fa-f].*\)\{0,1\}$/\1/p' | tr A-F a-f)
	if [ -n "$3" ] && [ "$calc" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "sbat-add: ${3:-(none)}" "osslsigncode's calculated message digest: ${calc:-(none)}"
	fi
}

# js IMAGE EXPR: python3 evaluates EXPR with d = the --print --json object of IMAGE; ok when it is true
js() {
	"$SBAT_ADD" --print --json "$1" >"$T/json" 2>"$T/json.err"
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$T/json" "$2" 2>>"$T/json.err"
}

# ---------------------------------------------------------------- signed
"$SBAT_ADD" --print "$T/fx/sbat-last.efi" >"$T/csv" 2>/dev/null
run --print "$IMG"
expect "signed: --print exits 0" '[ "$RC" = 0 ]'
check "signed: standard output is the .sbat CSV alone" cmp -s "$T/out" "$T/csv"
hash=$(sed -n 's/^.*\/signed\.efi: Authenticode SHA-256 \([0-9a-f]\{64\}\), 1 signature in 1 certificate table entry$/\1/p' "$T/err")
expect "signed: one line gives the Authenticode SHA-256 and the count, 1 signature in 1 certificate table entry" \
	'[ "$(printf "%s\n" "$hash" | grep -c .)" = 1 ]'
authenticode_check "signed: the Authenticode SHA-256 is the one osslsigncode calculates" "$IMG" "$hash"
expect "signed: the signature covers the image" \
	'err_has "signed.efi: signature 0 (certificate table entry 0 at 0x" && err_has "): SHA-256 digest, covers this image"'
expect "signed: the signer, by issuer and serial, is certificate 0" \
	'err_has "signer: issuer \"CN=Test Intermediate, O=Example Org\", serial " && err_has ", certificate 0"'
grep -o 'certificate [0-9] ([a-z '"'"']*): subject "[^"]*"' "$T/err" >"$T/chain"
printf '%s\n' 'certificate 0 (signer): subject "CN=Test Leaf, O=Example Org"' \
	'certificate 2 (issuer): subject "CN=Test Intermediate, O=Example Org"' \
	'certificate 1 (issuer): subject "CN=Test Root, O=Example Org"' \
	"certificate 3 (not on the signer's chain): subject \"CN=Unrelated, C=DE\"" >"$T/chain.want"
check "signed: certificates from the signer up, then the one off the chain" cmp -s "$T/chain" "$T/chain.want"
expect "signed: each certificate's issuer and TBS SHA-256" \
	'[ "$(grep -c "issuer \"[^\"]*\", TBS SHA-256 [0-9a-f]\{64\}$" "$T/err")" = 4 ]'
tbs=$(openssl x509 -in "$k/leaf.pem" -outform DER | python3 -c '
import hashlib, sys
b = sys.stdin.buffer.read()
def head(p):  # tag at p: (header length, content length)
    n = b[p + 1]
    if n < 0x80:
        return 2, n
    k = n & 0x7f
    return 2 + k, int.from_bytes(b[p + 2:p + 2 + k], "big")
h, _ = head(0)
th, tl = head(h)
print(hashlib.sha256(b[h:h + th + tl]).hexdigest())')
expect "signed: the leaf's TBS SHA-256 is openssl's TBSCertificate hashed" 'err_has "TBS SHA-256 $tbs"'

check "signed --json: authenticode_sha256 is the text's" js "$IMG" "d['authenticode_sha256'] == '$hash'"
check "signed --json: one signature, SHA-256, covering the image" js "$IMG" \
	"len(d['signatures']) == 1 and d['signatures'][0]['digest_algorithm'] == 'SHA-256' and
	 d['signatures'][0]['image_digest_algorithm'] == 'SHA-256' and d['signatures'][0]['covers_image'] is True and
	 d['signatures'][0]['image_digest'] == d['authenticode_sha256'] and d['signatures'][0]['nested_in'] is None"
check "signed --json: the signer" js "$IMG" \
	"d['signatures'][0]['signer']['issuer'] == 'CN=Test Intermediate, O=Example Org' and
	 d['signatures'][0]['signer']['certificate'] == 0 and
	 d['signatures'][0]['signer']['serial'] == d['signatures'][0]['certificates'][0]['serial']"
check "signed --json: certificates in chain order, in_chain, with their index" js "$IMG" \
	"[(c['index'], c['in_chain']) for c in d['signatures'][0]['certificates']] ==
	 [(0, True), (2, True), (1, True), (3, False)] and
	 all(len(c['tbs_sha256']) == 64 and c['subject'] and c['issuer'] for c in d['signatures'][0]['certificates'])"
check "signed --json: the leaf's TBS SHA-256" js "$IMG" "d['signatures'][0]['certificates'][0]['tbs_sha256'] == '$tbs'"
check "signed --json: the other keys stay (sbat, sections, certificate_table)" js "$IMG" \
	"d['schema'] == 1 and d['sbat']['valid'] and d['sections'] and d['certificate_table']['size'] > 0"

# ------------------------------------------------- edited after signing
cp "$IMG" "$T/edited.efi"
off=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print([s for s in d["sections"] if s["name"] == ".sbat"][0]["pointer_to_raw_data"] + 300)' "$T/json")
printf 'Z' | dd of="$T/edited.efi" bs=1 seek="$off" conv=notrunc 2>/dev/null
run --print "$T/edited.efi"
expect "edited: --print still exits 0 and prints the CSV" '[ "$RC" = 0 ] && [ -n "$OUT" ]'
expect "edited: the signature no longer covers this image" \
	'err_has "SHA-256 digest, the signature no longer covers this image: it signs $hash"'
edited=$(sed -n 's/^.*\/edited\.efi: Authenticode SHA-256 \([0-9a-f]\{64\}\), 1 signature in 1 certificate table entry$/\1/p' "$T/err")
expect "edited: a new Authenticode SHA-256" '[ -n "$edited" ] && [ "$edited" != "$hash" ]'
authenticode_check "edited: the new Authenticode SHA-256 is the one osslsigncode calculates" "$T/edited.efi" "$edited"
check "edited --json: covers_image false, the old digest, a new hash" js "$T/edited.efi" \
	"d['signatures'][0]['covers_image'] is False and d['signatures'][0]['image_digest'] == '$hash' and
	 d['authenticode_sha256'] != '$hash'"

# ------------------------------------------------------------- nested
if command -v osslsigncode >/dev/null 2>&1 &&
	osslsigncode sign -certs "$k/other.pem" -key "$k/other.key" -h sha256 -nest -in "$IMG" \
		-out "$T/nested.efi" >/dev/null 2>&1; then
	run --print "$T/nested.efi"
	expect "nested: two signatures in one entry" 'err_has "2 signatures in 1 certificate table entry"'
	expect "nested: the second is nested in the first" \
		'err_has "signature 1 (nested in signature 0, certificate table entry 0 at 0x"'
	check "nested --json: nested_in 0, both cover the image" js "$T/nested.efi" \
		"[s['nested_in'] for s in d['signatures']] == [None, 0] and
		 all(s['covers_image'] for s in d['signatures']) and
		 d['signatures'][1]['certificates'][0]['subject'] == 'CN=Unrelated, C=DE'"
else
	skip "nested: two signatures in one entry" "no osslsigncode"
fi

# ------------------------------------------------------------- SHA-384, SHA-512
# osslsigncode -h sha384 / -h sha512: the digest is compared with the image's hash by that algorithm
for alg in sha384 sha512; do
	name=SHA-${alg#sha}
	if command -v osslsigncode >/dev/null 2>&1 &&
		osslsigncode sign -certs "$k/leaf.pem" -key "$k/leaf.key" -h "$alg" -in "$T/fx/sbat-last.efi" \
			-out "$T/$alg.efi" >/dev/null 2>&1; then
		run --print "$T/$alg.efi"
		expect "$alg: the $name digest covers this image" 'err_has "$name digest, covers this image"'
		check "$alg --json: covers_image true" js "$T/$alg.efi" "d['signatures'][0]['covers_image'] is True"
		cp "$T/$alg.efi" "$T/$alg-edited.efi"
		printf 'Z' | dd of="$T/$alg-edited.efi" bs=1 seek="$off" conv=notrunc 2>/dev/null
		run --print "$T/$alg-edited.efi"
		expect "$alg edited: the signature no longer covers this image" \
			'err_has "$name digest, the signature no longer covers this image: it signs "'
		check "$alg edited --json: covers_image false" js "$T/$alg-edited.efi" \
			"d['signatures'][0]['covers_image'] is False"
	else
		skip "$alg: the $name digest covers this image" "no osslsigncode"
	fi
done

# ------------------------------------------------------------ malformed
# damage PATH WHAT: dwLength past the table ("length"), or the ContentInfo's first byte ("der")
damage() {
	python3 - "$IMG" "$1" "$2" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
pe = struct.unpack_from("<I", b, 0x3c)[0]
off, size = struct.unpack_from("<II", b, pe + 24 + 112 + 32)  # PE32+: data directory 4
if sys.argv[3] == "length":
    struct.pack_into("<I", b, off, size + 8)
else:
    b[off + 8] = 0x31
open(sys.argv[2], "wb").write(b)
print(off)
EOF
}
at=$(damage "$T/bad-length.efi" length)
run --print "$T/bad-length.efi"
expect "bad dwLength: --print exits 0 and prints the CSV" '[ "$RC" = 0 ] && cmp -s "$T/out" "$T/csv"'
expect "bad dwLength: one line naming the file, the WIN_CERTIFICATE and its offset" \
	'[ "$ERR" = "sbat-add: $T/bad-length.efi: cannot read the signatures: WIN_CERTIFICATE dwLength (padded to 8) runs past the certificate table (at offset $(printf 0x%x "$at"))" ]'
check "bad dwLength --json: signatures null, signatures_error, the rest printed" js "$T/bad-length.efi" \
	"d['signatures'] is None and d['signatures_error']['structure'] == 'WIN_CERTIFICATE' and
	 d['signatures_error']['offset'] == $at and 'dwLength' in d['signatures_error']['what'] and
	 len(d['authenticode_sha256']) == 64 and d['sbat']['valid'] and d['sections']"
damage "$T/bad-der.efi" der >/dev/null
run --print "$T/bad-der.efi"
expect "bad DER: one line naming the ContentInfo and its offset" \
	'[ "$ERR" = "sbat-add: $T/bad-der.efi: cannot read the signatures: ContentInfo: DER element has an unexpected tag (at offset $(printf 0x%x $((at + 8))))" ]'
check "bad DER --json: structure ContentInfo" js "$T/bad-der.efi" \
	"d['signatures'] is None and d['signatures_error']['structure'] == 'ContentInfo' and
	 d['signatures_error']['offset'] == $at + 8"
expect_rc "the fixture with a fake table and no .sbat: exit 3" 3 --print "$T/fx/signed.efi"
expect "the fixture with a fake table: both things said, one line each" \
	'[ "$(wc -l <"$T/err")" = 2 ] && err_has "no .sbat section" && err_has "cannot read the signatures: "'

# ------------------------------------------------------------ unsigned
run --print "$T/fx/sbat-last.efi"
expect "unsigned: --print says nothing about signatures" '[ "$RC" = 0 ] && [ -z "$ERR" ]'
check "unsigned --json: an empty signatures array and the hash" js "$T/fx/sbat-last.efi" \
	"d['signatures'] == [] and len(d['authenticode_sha256']) == 64 and 'signatures_error' not in d"
check "unsigned --json: the hash is that of the image sbsign signed" js "$T/fx/sbat-last.efi" \
	"d['authenticode_sha256'] == '$hash'"

tap_finish
