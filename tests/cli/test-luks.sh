#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-luks.sh - --luks on cryptsetup's header with tokens whose policy a TPM
# computed for the ovmf-sb boot (tests/fixtures/luks): against that boot's
# TPM values alone, and with its event log through a pending dbx update
# (will unlock today, will not unlock after it), a pending MokListX (PCR 14
# cannot be told), in text and --json; exit statuses; a file that is not
# LUKS2; usage errors.
#
# Environment (set by meson): SBAT_ADD, FIXTURES_SRC.
# Output: "ok N - ..." lines, then "P passed, F failed".
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD FIXTURES_SRC
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-luks.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
. "$(dirname "$0")/../lib/cli.sh"

F="$FIXTURES_SRC/eventlog"
L="$FIXTURES_SRC/luks/tpm2-tokens.luks2"
mkdir -p "$T/tpm"
while read -r b n h; do
	mkdir -p "$T/tpm/pcr-$b"
	echo "$h" >"$T/tpm/pcr-$b/$n"
done <"$F/ovmf-sb/pcrs"
export SBAT_ADD_TPM="$T/tpm"
line() { grep -qxF "$L: token $1" "$T/out"; }

expect_rc "the boot's TPM: token 4 was sealed to other values (exit 11)" 11 --luks "$L"
expect "tokens 0-3 and 7 will unlock today" \
	'line "0 (sha256 PCR 7): will unlock today" && line "1 (sha256 PCR 7, PIN): will unlock today" &&
	 line "2 (sha256 PCR 0+7): will unlock today" && line "3 (sha1 PCR 7): will unlock today" &&
	 line "7 (sha256 PCR 14): will unlock today"'
expect "token 4 will not, 5 and 6 cannot tell, and say why" \
	'line "4 (sha256 PCR 7): will not unlock today: its policy is not made by today'"'"'s values of PCR 7: it was sealed to other values" &&
	 grep -qF "token 5 (sha256 PCR none, signed policy for PCR 11): cannot tell today: a signed policy (tpm2_pubkey)" "$T/out" &&
	 grep -qF "token 6 (sha256 PCR none, pcrlock): cannot tell today: a systemd-pcrlock policy" "$T/out"'
expect "the header line" 'grep -qxF "$L: LUKS2 5b1c1e6e-8f1d-4d0a-9a51-2f6c1d3e4b70, 9 tokens, 8 systemd-tpm2" "$T/out"'

# PCR 7 one bit off: every token bound to it will not unlock
echo 02a4f904010ebddfb1ce765622af8d48ac2408422e220ad4eed1e1856407f705 >"$T/tpm/pcr-sha256/7"
expect_rc "another PCR 7: exit 11" 11 --luks "$L"
expect "tokens 0-2 will not unlock, 3 (sha1) and 7 still will" \
	'[ "$(grep -c "PCR 0\?+\?7[,)].*: will not unlock today" "$T/out")" -eq 4 ] && line "3 (sha1 PCR 7): will unlock today"'
rm "$T/tpm/pcr-sha256/7"
expect_rc "PCR 7 unreadable: tokens 0-2 and 4 cannot tell (exit 12)" 12 --luks "$L"
expect "says which PCR is unknown" 'line "0 (sha256 PCR 7): cannot tell today: PCR 7 of the sha256 bank is unknown"'
echo 02a4f904010ebddfb1ce765622af8d48ac2408422e220ad4eed1e1856407f704 >"$T/tpm/pcr-sha256/7"

# the log and a pending dbx update: two hashes in a plain signature list, applied as given
python3 - "$F/ovmf-sb/efivars/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$T/dbxupdate.bin" <<'PY'
import struct, sys
sha256 = bytes.fromhex("2616c4c14c509240aca941f936934328")
entries = b"".join(bytes([0x77]) * 16 + bytes([h]) * 32 for h in (0x11, 0x22))
lst = sha256 + struct.pack("<III", 28 + len(entries), 0, 48) + entries
open(sys.argv[2], "wb").write(lst)
PY
export SBAT_ADD_EFIVARFS="$F/ovmf-sb/efivars"
expect_rc "--event-log --luks, nothing pending: exit 11 (token 4)" 11 --event-log "$F/ovmf-sb/binary_bios_measurements" --luks "$L"
expect "token 0 will unlock at the next boot" 'line "0 (sha256 PCR 7): will unlock today; will unlock at the next boot"'
expect_rc "--pending dbx: exit 11" 11 --event-log "$F/ovmf-sb/binary_bios_measurements" --pending dbx="$T/dbxupdate.bin" \
	--luks "$L"
expect "every token bound to PCR 7 will not unlock after the update, and says why" \
	'line "0 (sha256 PCR 7): will unlock today; will not unlock after the update: PCR 7 changes (the pending dbx update adds 2 entries)" &&
	 line "1 (sha256 PCR 7, PIN): will unlock today; will not unlock after the update: PCR 7 changes (the pending dbx update adds 2 entries)" &&
	 line "3 (sha1 PCR 7): will unlock today; will not unlock after the update: PCR 7 changes (the pending dbx update adds 2 entries)" &&
	 line "7 (sha256 PCR 14): will unlock today; will unlock after the update"'
expect_rc "--pending MokListX: PCR 14 cannot be told" 11 --event-log "$F/ovmf-sb/binary_bios_measurements" \
	--pending MokListX="$T/dbxupdate.bin" --luks "$L"
expect "token 7 cannot tell, and why" \
	'line "7 (sha256 PCR 14): will unlock today; cannot tell after the update: PCR 14 of the sha256 bank is unknown: a pending MokList or MokListX: shim measures it in PCR 14, which only --check-level next predicts"'
expect_rc "--json: exit 11" 11 --event-log "$F/ovmf-sb/binary_bios_measurements" --pending dbx="$T/dbxupdate.bin" \
	--luks "$L" --json
check "--json carries each token's verdicts, policies and the PCRs that change" python3 - "$T/out" "$FIXTURES_SRC/luks/tpm2-tokens.policies" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
pol = dict(line.split() for line in open(sys.argv[2]))
assert "pcr7" in j and len(j["luks"]) == 1
v = j["luks"][0]
assert v["uuid"] == "5b1c1e6e-8f1d-4d0a-9a51-2f6c1d3e4b70" and v["copy"] == "primary" and v["tokens"] == 9
t = {x["token"]: x for x in v["systemd_tpm2"]}
assert sorted(t) == list(range(8))
assert t[0]["policy_hashes"] == [pol["p7"]] and t[0]["today"]["policy"] == pol["p7"]
assert t[0]["today"]["verdict"] == "will unlock" and t[0]["today"]["why"] is None
p = t[0]["predicted"]
assert p["verdict"] == "will not unlock" and p["changed_pcrs"] == [7] and p["policy"] != pol["p7"], p
assert "the pending dbx update adds 2 entries" in p["why"]
assert t[1]["pin"] and t[1]["today"]["policy"] == pol["p7pin"]
assert t[2]["pcrs"] == [0, 7] and t[3]["bank"] == "sha1"
assert t[5]["signed"] and t[5]["signed_pcrs"] == [11] and t[5]["predicted"]["verdict"] == "cannot tell"
assert t[6]["pcrlock"] and t[6]["today"]["policy"] is None
assert t[7]["predicted"]["verdict"] == "will unlock" and t[7]["predicted"]["changed_pcrs"] == []
PY
expect_rc "--luks --json alone" 11 --luks "$L" --json
check "--json alone: no prediction" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert list(j) == ["luks"] and all(t["predicted"] is None for t in j["luks"][0]["systemd_tpm2"])' "$T/out"

# only the tokens that cannot be told: exit 12
python3 - "$L" "$T/signed.luks2" <<'PY'
import hashlib, sys
d = bytearray(open(sys.argv[1], "rb").read())
j = b'{"tokens":{"5":{"type":"systemd-tpm2","tpm2-pcrs":[],"tpm2_pubkey":"AA==","tpm2_pubkey_pcrs":[11]}}}'
for off, magic in ((0, b"LUKS\xba\xbe"), (16384, b"SKUL\xba\xbe")):
    d[off + 4096:off + 16384] = j + bytes(12288 - len(j))
    d[off + 448:off + 512] = bytes(64)
    d[off + 448:off + 480] = hashlib.sha256(bytes(d[off:off + 16384])).digest()
open(sys.argv[2], "wb").write(d)
PY
expect_rc "a signed policy alone: cannot tell (exit 12)" 12 --luks "$T/signed.luks2"
printf 'not luks' >"$T/plain"
expect_rc "a file that is not LUKS2: exit 1" 1 --luks "$T/plain"
expect "names the file and the check" '[[ "$ERR" == *"$T/plain"* && "$ERR" == *"not a LUKS2 header"* ]]'
expect_rc "a missing file: exit 1" 1 --luks "$T/none"
expect_rc "--luks with --print: usage (exit 2)" 2 --luks "$L" --print "$L"
expect "says what goes with it" '[[ "$ERR" == *"--luks takes only --json, or goes with --event-log (and --pending)"* ]]'
expect_rc "--luks with --pending but no --event-log: usage (exit 2)" 2 --luks "$L" --pending dbx="$T/dbxupdate.bin"
expect_rc "an empty --luks: usage (exit 2)" 2 --luks ""
tap_finish
