#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-pending-pk.sh - --pending PK=FILE and MokList=FILE with --event-log on
# the ovmf-sb capture (tests/fixtures/eventlog), its PK replaced by a key made
# here: a PK update signed by the PK (attributes 0x27, as EDK2 takes a PK
# write) replaces PK, and PCR 7 is then what it is with that PK in efivarfs;
# one signed by another key, one signed over the append attributes and one of
# two certificates are refused; a KEK update signed by the new PK is taken
# after the PK update and refused before it (the order given); an empty PK
# update deletes PK: the machine is in setup mode after it (a later KEK update
# taken unchecked) and PCR 7 is unknown; a pending MokList is shim's, in
# PCR 14.
#
# Environment (set by meson): SBAT_ADD, FIXTURES_SRC.
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD FIXTURES_SRC
for tool in python3 openssl; do
	command -v "$tool" >/dev/null 2>&1 || skip_all "no $tool"
done
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-pendingpk.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
. "$(dirname "$0")/../lib/cli.sh"

F="$FIXTURES_SRC/eventlog/ovmf-sb"
SB="$FIXTURES_SRC/../vm/secure-boot.py"
EFI_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
LOG="$F/binary_bios_measurements"
mkdir -p "$T/tpm" "$T/ev" "$T/ev2"
while read -r b n h; do
	mkdir -p "$T/tpm/pcr-$b"
	echo "$h" >"$T/tpm/pcr-$b/$n"
done <"$F/pcrs"
export SBAT_ADD_TPM="$T/tpm"

# key NAME: a self-signed RSA key and its certificate (PEM, DER) and its signature list
key() {
	openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 30 -subj "/CN=sbat-add test $1/" \
		-keyout "$T/$1.key" -out "$T/$1.pem" >/dev/null 2>&1 &&
		openssl x509 -in "$T/$1.pem" -outform DER -out "$T/$1.der" &&
		python3 "$SB" x509 "$T/$1.esl" "$T/$1.der"
}
key pk1 && key pk2 && key kek && key other || skip_all "openssl cannot make the keys"
# upd VAR ESL SIGNER OUT [ATTRIBUTES]: an authenticated update of ESL signed by SIGNER
upd() { python3 "$SB" update "$1" "$T/$2" "$T/$3.key" "$T/$3.pem" "$T/$4" "${5:-0x67}" >/dev/null 2>&1; }
upd PK pk2.esl pk1 pk2-by-pk1.auth 0x27 &&
	upd PK pk2.esl other pk2-by-other.auth 0x27 &&
	upd PK pk2.esl pk1 pk2-append.auth 0x67 &&
	cat "$T/pk2.esl" "$T/other.esl" >"$T/two.esl" && upd PK two.esl pk1 two-by-pk1.auth 0x27 &&
	: >"$T/empty.esl" && upd PK empty.esl pk1 delete-by-pk1.auth 0x27 &&
	upd KEK kek.esl pk2 kek-by-pk2.auth &&
	upd KEK kek.esl other kek-by-other.auth || skip_all "secure-boot.py cannot sign the updates"

# the capture's variables, PK pk1 (ev) or pk2 (ev2)
cp "$F"/efivars/* "$T/ev/"
cp "$F"/efivars/* "$T/ev2/"
{ printf '\047\0\0\0'; cat "$T/pk1.esl"; } >"$T/ev/PK-$EFI_GUID"
{ printf '\047\0\0\0'; cat "$T/pk2.esl"; } >"$T/ev2/PK-$EFI_GUID"
export SBAT_ADD_EFIVARFS="$T/ev"

# sha256 [ARGS]: --event-log's sha256 PCR 7 after the pending updates ARGS ("" when unknown)
sha256() {
	run --event-log "$LOG" "$@"
	sed -n 's/^sha256 PCR 7 [a-z ]*: \([0-9a-f]\{64\}\) (today .*/\1/p' "$T/out"
}
with_pk2=$(SBAT_ADD_EFIVARFS="$T/ev2" sha256)
today=$(sha256)
expect "PCR 7 with pk2 in efivarfs is another than with pk1 ($today, $with_pk2)" \
	'[ -n "$today" ] && [ -n "$with_pk2" ] && [ "$today" != "$with_pk2" ]'

got=$(sha256 --pending PK="$T/pk2-by-pk1.auth")
expect "a PK update signed by the PK replaces PK" \
	'grep -qxF "pending: $T/pk2-by-pk1.auth replaces PK (1 entry); the firmware takes it: signed by the PK CN=sbat-add test pk1" "$T/out"'
expect "PCR 7 after it is PCR 7 with the new PK in efivarfs ($got)" '[ "$got" = "$with_pk2" ]'

got=$(sha256 --pending PK="$T/pk2-by-other.auth")
expect "a PK update signed by another key is refused, PCR 7 unchanged" \
	'grep -qxF "pending: $T/pk2-by-other.auth not applied to PK: not signed by this machine'"'"'s PK: the firmware would refuse this update" "$T/out" && [ "$got" = "$today" ]'
sha256 --pending PK="$T/pk2-append.auth" >/dev/null
expect "a PK update signed over the append attributes does not verify as a PK write" \
	'grep -q "^pending: $T/pk2-append.auth not applied to PK: its signature does not verify" "$T/out"'
sha256 --pending PK="$T/two-by-pk1.auth" >/dev/null
expect "a PK update of two certificates is refused" \
	'grep -qxF "pending: $T/two-by-pk1.auth not applied to PK: it holds more than one signature, and the firmware takes a PK of one: the firmware would refuse this update" "$T/out"'

# the order given: a KEK update signed by pk2 after, and before, the PK update that makes pk2 the PK
sha256 --pending KEK="$T/kek-by-pk2.auth" --pending PK="$T/pk2-by-pk1.auth" >/dev/null
expect "a KEK update signed by the new PK, before the PK update: refused" \
	'grep -qxF "pending: $T/kek-by-pk2.auth not applied to KEK: not signed by this machine'"'"'s PK: the firmware would refuse this update" "$T/out"'
sha256 --pending PK="$T/pk2-by-pk1.auth" --pending KEK="$T/kek-by-pk2.auth" >/dev/null
expect "a KEK update signed by the new PK, after the PK update: taken" \
	'grep -qxF "pending: $T/kek-by-pk2.auth appended to KEK (1 new entries); the firmware takes it: signed by the PK CN=sbat-add test pk2" "$T/out"'

got=$(sha256 --pending PK="$T/delete-by-pk1.auth" --pending KEK="$T/kek-by-other.auth")
expect "an empty PK update signed by the PK deletes PK" \
	'grep -qxF "pending: $T/delete-by-pk1.auth deletes PK; the firmware takes it: signed by the PK CN=sbat-add test pk1: the machine is in setup mode after it, and the firmware checks no later update" "$T/out"'
expect "after it, a KEK update signed by no key of the machine is taken unchecked" \
	'grep -q "^pending: $T/kek-by-other.auth appended to KEK (1 new entries); the firmware takes it unchecked" "$T/out"'
expect "PCR 7 after the deletion is unknown: setup mode" \
	'[ -z "$got" ] && grep -q "^sha256 PCR 7 after the update: unknown: .*setup mode" "$T/out"'

run --event-log "$LOG" --pending MokList="$T/other.esl" --json
expect "--json: a pending MokList is not measured in PCR 7" \
	'grep -q "\"var\": \"MokList\", \"file\": \"[^\"]*\", \"measured\": false, \"applied\": true" "$T/out"'
run --event-log "$LOG" --pending PK="$T/pk2-by-pk1.auth" --json
expect "--json: a PK update is measured in PCR 7, and applied" \
	'grep -q "\"var\": \"PK\", \"file\": \"[^\"]*\", \"measured\": true, \"applied\": true" "$T/out"'
tap_finish
