#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-eventlog.sh - --event-log on the logs the VM suite captured
# (tests/fixtures/eventlog: OVMF with swtpm, without and with Secure Boot):
# the replayed PCRs against the TPM's values of that boot (SBAT_ADD_TPM
# names a pcr-BANK/N tree made from them), in text and --json; a log held
# against another boot's TPM (exit 10), no TPM, a truncated log and a
# malformed PCR file (exit 1), and usage errors.
#
# Environment (set by meson): SBAT_ADD, FIXTURES_SRC.
# Output: "ok N - ..." lines, then "P passed, F failed".
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD FIXTURES_SRC
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-eventlog.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
. "$(dirname "$0")/../lib/cli.sh"

F="$FIXTURES_SRC/eventlog"
# tpm_dir NAME: the guest's "BANK N HEX" lines of fixture NAME as T/tpm-NAME/pcr-BANK/N
tpm_dir() {
	local b n h
	mkdir -p "$T/tpm-$1"
	while read -r b n h; do
		mkdir -p "$T/tpm-$1/pcr-$b"
		echo "$h" >"$T/tpm-$1/pcr-$b/$n"
	done <"$F/$1/pcrs"
}
tpm_dir ovmf
tpm_dir ovmf-sb
pcr() { awk -v b="$2" -v n="$3" '$1 == b && $2 == n { print $3 }' "$F/$1/pcrs"; }

for name in ovmf ovmf-sb; do
	export SBAT_ADD_TPM="$T/tpm-$name"
	expect_rc "$name: the log matches the TPM of its boot (exit 0)" 0 --event-log "$F/$name/binary_bios_measurements"
	expect "$name: says so" '[[ "$OUT" == *"the log matches the TPM: every PCR it extends holds the value it replays to"* ]]'
	v=$(pcr "$name" sha256 7)
	expect "$name: sha256 PCR 7 replayed to the TPM's $v" \
		'grep -qx "sha256 PCR  7: $v = TPM" "$T/out"'
	expect_rc "$name: --json (exit 0)" 0 --event-log "$F/$name/binary_bios_measurements" --json
	check "$name: --json: every bank's PCRs are the TPM's, as 2*size hex digits, and the events are listed" \
		python3 - "$T/out" "$F/$name/pcrs" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
tpm = {}
for line in open(sys.argv[2]):
    b, n, h = line.split()
    tpm[(b, int(n))] = h
assert j["tpm"] == "matches", j["tpm"]
assert [b["bank"] for b in j["banks"]] == ["sha1", "sha256", "sha384", "sha512"]
for b in j["banks"]:
    assert b["replayed"] and len(b["pcrs"]) >= 9
    for p in b["pcrs"]:
        assert len(p["value"]) == 2 * b["digest_size"]
        assert p["value"] == tpm[(b["bank"], p["pcr"])] == p["tpm"] and p["matches"] is True
    assert {p["pcr"] for p in b["pcrs"]} >= {0, 1, 2, 3, 4, 5, 6, 7, 11}
ev = j["events"]
assert ev[0]["type"] == "EV_NO_ACTION" and ev[0]["offset"] == 0 and ev[0]["pcr"] == 0
assert any(e["type"] == "EV_EFI_VARIABLE_DRIVER_CONFIG" and e["pcr"] == 7 for e in ev)
assert all(len(e["digests"]["sha256"]) == 64 for e in ev[1:])
assert [e["index"] for e in ev] == list(range(len(ev)))
PY
done

export SBAT_ADD_TPM="$T/tpm-ovmf-sb"
expect_rc "the log without Secure Boot against the TPM of the boot with it: exit 10" 10 \
	--event-log "$F/ovmf/binary_bios_measurements"
expect "it names the PCRs that differ, PCR 7 among them" \
	'[[ "$OUT" == *"the log does not match the TPM in PCR 0 (sha1), PCR 4 (sha1), PCR 7 (sha1),"* && "$OUT" == *"nothing can be predicted from it"* ]]'
expect "and the TPM's value beside the replayed one" \
	'grep -q "^sha256 PCR  7: $(pcr ovmf sha256 7) differs from the TPM: $(pcr ovmf-sb sha256 7)\$" "$T/out"'
expect_rc "--json: exit 10 too" 10 --event-log "$F/ovmf/binary_bios_measurements" --json
check "--json: tpm differs, PCR 7 matches false, PCR 1 true" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["tpm"] == "differs"
p = {x["pcr"]: x for x in j["banks"][1]["pcrs"]}
assert p[7]["matches"] is False and p[1]["matches"] is True' "$T/out"

export SBAT_ADD_TPM="$T/none"
expect_rc "no TPM: exit 0" 0 --event-log "$F/ovmf/binary_bios_measurements"
expect "it says the log is not checked" '[[ "$OUT" == *"the TPM'"'"'s PCRs could not be read: the log is not checked against them"* ]]'
expect "and prints no comparison" '! grep -q "TPM\$" "$T/out"'
expect_rc "no TPM, --json: exit 0" 0 --event-log "$F/ovmf/binary_bios_measurements" --json
check "--json: tpm not read, each tpm null" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["tpm"] == "not read"
assert all(p["tpm"] is None and p["matches"] is None for b in j["banks"] for p in b["pcrs"])' "$T/out"

head -c 3000 "$F/ovmf/binary_bios_measurements" >"$T/cut.bin"
expect_rc "a truncated log: exit 1" 1 --event-log "$T/cut.bin"
expect "the error names the file, the event and the offset" \
	'[ "$ERR" = "sbat-add: $T/cut.bin: event 13: a digest runs past the end of the log (at offset 0xb96)" ]'
expect "and nothing is printed on stdout" '[ -z "$OUT" ]'
expect_rc "a missing log: exit 1" 1 --event-log "$T/none.bin"
expect "it says so" '[[ "$ERR" == *"$T/none.bin: cannot open: No such file or directory" ]]'

cp -r "$T/tpm-ovmf" "$T/tpm-bad"
echo 1234 >"$T/tpm-bad/pcr-sha256/4"
export SBAT_ADD_TPM="$T/tpm-bad"
expect_rc "a PCR file that holds no PCR value: exit 1" 1 --event-log "$F/ovmf/binary_bios_measurements"
expect "the error names that file" '[ "$ERR" = "sbat-add: $T/tpm-bad/pcr-sha256/4: not a PCR value (the bank'"'"'s digest in hex)" ]'

# PCR 7 made again from the variables each boot measured (the fixture's efivars/)
for name in ovmf ovmf-sb; do
	export SBAT_ADD_TPM="$T/tpm-$name" SBAT_ADD_EFIVARFS="$F/$name/efivars"
	expect_rc "$name: PCR 7 from its variables (exit 0)" 0 --event-log "$F/$name/binary_bios_measurements"
	expect "$name: every PCR 7 event is reproduced" \
		'[ "$(grep -c "^PCR 7 event [0-9]* (.*): reproduced$" "$T/out")" -eq "$(grep -c "^PCR 7 event" "$T/out")" ] &&
		 grep -q "^PCR 7 event 9 (EV_SEPARATOR): reproduced$" "$T/out"'
	v=$(pcr "$name" sha256 7)
	expect "$name: the next boot's sha256 PCR 7 is the TPM's, unchanged" \
		'grep -qx "sha256 PCR 7 at the next boot: $v (today $v): unchanged" "$T/out"'
done
expect "ovmf-sb: the db certificate that verified the UKI is reproduced" \
	'grep -qx "PCR 7 event 25 (EV_EFI_VARIABLE_AUTHORITY db): reproduced" "$T/out"'

# dbx after an update of plain signature lists (appended as given) that repeats its one entry and adds two
# hashes; the same behind an authentication header whose signature is missing (the firmware refuses it)
python3 - "$F/ovmf-sb/efivars/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$T/dbxupdate.bin" "$T/dbxunsigned.bin" <<'PY'
import struct, sys
dbx = open(sys.argv[1], "rb").read()[4:]
sha256 = bytes.fromhex("2616c4c14c509240aca941f936934328")
entries = b"".join(bytes([0x77]) * 16 + bytes([h]) * 32 for h in (0x11, 0x22))
lst = sha256 + struct.pack("<III", 28 + len(entries), 0, 48) + entries
auth = bytes(16) + struct.pack("<IHH", 28, 0x200, 0xef1) + bytes.fromhex("9dd2af4adf68ee498aa9347d375665a7") + bytes(4)
open(sys.argv[2], "wb").write(dbx + lst)
open(sys.argv[3], "wb").write(auth + dbx + lst)
PY
export SBAT_ADD_TPM="$T/tpm-ovmf-sb" SBAT_ADD_EFIVARFS="$F/ovmf-sb/efivars"
expect_rc "ovmf-sb --pending dbx=FILE: exit 0" 0 --event-log "$F/ovmf-sb/binary_bios_measurements" \
	--pending dbx="$T/dbxupdate.bin"
v=$(pcr ovmf-sb sha256 7)
expect "the dbx event differs, the others are reproduced" \
	'grep -qx "PCR 7 event 8 (EV_EFI_VARIABLE_DRIVER_CONFIG dbx): differs in sha1, sha256, sha384, sha512: not what the log measured: the variable is not what that boot measured" "$T/out" &&
	 [ "$(grep -c "): reproduced$" "$T/out")" -eq 6 ]'
expect "PCR 7 after the update changes" \
	'grep -q "^sha256 PCR 7 after the update: [0-9a-f]\{64\} (today $v): changes$" "$T/out" &&
	 ! grep -q "after the update: $v" "$T/out"'
expect_rc "--json: exit 0" 0 --event-log "$F/ovmf-sb/binary_bios_measurements" --pending dbx="$T/dbxupdate.bin" --json
check "--json: each bank's PCR 7 after the update is the log's events with dbx as the firmware appends the update, replayed here" \
	python3 - "$T/out" "$F/ovmf-sb/efivars/dbx-d719b2cb-3d3a-4596-a3bc-dad00e67656f" "$T/dbxupdate.bin" <<'PY'
import hashlib, json, struct, sys
j = json.load(open(sys.argv[1]))
dbx = open(sys.argv[2], "rb").read()[4:]
upd = open(sys.argv[3], "rb").read()
# the update's lists; the first repeats dbx and goes, the second stays
lists = upd
new = dbx + lists[len(dbx):]
guid = bytes.fromhex("cbb219d73a3d9645a3bcdad00e67656f")
data = guid + struct.pack("<QQ", 3, len(new)) + "dbx".encode("utf-16-le") + new
algs = {"sha1": hashlib.sha1, "sha256": hashlib.sha256, "sha384": hashlib.sha384, "sha512": hashlib.sha512}
p = j["pcr7"]
assert p["pending"] == [{"var": "dbx", "file": sys.argv[3], "measured": True, "applied": True,
                         "check": "pending: %s appended to dbx (2 new entries); a plain signature list, taken as given: "
                                  "the firmware takes only an authenticated write "
                                  "(one with its EFI_VARIABLE_AUTHENTICATION_2 header)" % sys.argv[3]}], p["pending"]
assert [e["state"] for e in p["events"]] == ["reproduced"] * 4 + ["differs", "reproduced", "reproduced"]
assert p["events"][4]["variable"] == "dbx" and p["events"][4]["data_size"] == len(data)
assert p["events"][4]["differs_in"] == ["sha1", "sha256", "sha384", "sha512"]
log7 = [e for e in j["events"] if e["pcr"] == 7 and e["type"] != "EV_NO_ACTION"]
assert [e["index"] for e in log7] == [e["index"] for e in p["events"]]
for b in p["banks"]:
    h = algs[b["bank"]]
    v = bytes(h().digest_size)
    for e in log7:
        d = h(data).digest() if e["index"] == 8 else bytes.fromhex(e["digests"][b["bank"]])
        v = h(v + d).digest()
    today = [x for x in j["banks"] if x["bank"] == b["bank"]][0]
    t7 = [x for x in today["pcrs"] if x["pcr"] == 7][0]["value"]
    assert b["predicted"] == v.hex() and len(b["predicted"]) == 2 * h().digest_size, b
    assert b["today"] == t7 and b["changes"] is True and b["why"] is None
PY
expect_rc "--pending MokListX=FILE: exit 0" 0 --event-log "$F/ovmf-sb/binary_bios_measurements" \
	--pending MokListX="$T/dbxupdate.bin"
expect "it is not measured in PCR 7, which is unchanged" \
	'grep -qx "pending MokListX: shim measures it in PCR 14, not in PCR 7" "$T/out" &&
	 grep -qx "sha256 PCR 7 after the update: $v (today $v): unchanged" "$T/out"'
expect_rc "an update whose signature is missing: exit 1" 1 --event-log "$F/ovmf-sb/binary_bios_measurements" \
	--pending dbx="$T/dbxunsigned.bin"
expect "the error names the file" '[[ "$ERR" == "sbat-add: $T/dbxunsigned.bin: "* ]]'

# Microsoft's updates, checked as the firmware checks the write before PCR 7 is predicted: the snakeoil
# machine's KEK signed none of them and its PK no KEK update, so the firmware refuses each and PCR 7 stays
U="$FIXTURES_SRC/secureboot-updates"
for upd in dbx="$U/DBXUpdate.bin" db="$U/DBUpdate3P2023.bin" KEK="$U/kek/Microsoft/KEKUpdate_Microsoft_PK3d8660c0.bin"; do
	var=${upd%%=*} file=${upd#*=}
	by="any KEK of this machine"
	[ "$var" = KEK ] && by="this machine's PK"
	expect_rc "snakeoil machine, Microsoft's $var update ${file##*/}: exit 0" 0 \
		--event-log "$F/ovmf-sb/binary_bios_measurements" --pending "$upd"
	expect "... not applied: the firmware would refuse it; PCR 7 unchanged" \
		'grep -qxF "pending: $file not applied to $var: not signed by $by: the firmware would refuse this update" "$T/out" &&
		 grep -qx "sha256 PCR 7 after the update: $v (today $v): unchanged" "$T/out" &&
		 [ "$(grep -c "): reproduced$" "$T/out")" -eq 7 ]'
done
expect_rc "--json: exit 0" 0 --event-log "$F/ovmf-sb/binary_bios_measurements" --pending dbx="$U/DBXUpdate.bin" --json
check "--json: the update is not applied, and says why; every bank unchanged" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["pcr7"]
assert [(x["applied"], x["check"].endswith("the firmware would refuse this update")) for x in p["pending"]] == [(False, True)], p["pending"]
assert all(b["changes"] is False and b["predicted"] == b["today"] for b in p["banks"]), p["banks"]
' "$T/out"
# the same machine with the Microsoft Corporation KEK CA 2011 in KEK takes DBXUpdate.bin (443 hashes)
cp -r "$F/ovmf-sb/efivars" "$T/efivars-mskek"
python3 - "$U/MicCorKEKCA2011_2011-06-24.der" "$T/efivars-mskek/KEK-8be4df61-93ca-11d2-aa0d-00e098032b8c" <<'PY'
import struct, sys
cert = bytes(16) + open(sys.argv[1], "rb").read()
x509 = bytes.fromhex("a159c0a5e494a74a87b5ab155c2bf072")
kek = open(sys.argv[2], "rb").read()
open(sys.argv[2], "wb").write(kek + x509 + struct.pack("<III", 28 + len(cert), 0, len(cert)) + cert)
PY
export SBAT_ADD_EFIVARFS="$T/efivars-mskek"
expect_rc "KEK with Microsoft's KEK CA 2011, DBXUpdate.bin: exit 0" 0 \
	--event-log "$F/ovmf-sb/binary_bios_measurements" --pending dbx="$U/DBXUpdate.bin"
expect "... applied, under Microsoft's KEK CA; PCR 7 changes" \
	'grep -qxF "pending: $U/DBXUpdate.bin appended to dbx (443 new entries); the firmware takes it: signed under the KEK certificate C=US, O=Microsoft Corporation, CN=Microsoft Corporation KEK CA 2011" "$T/out" &&
	 grep -q "^sha256 PCR 7 after the update: [0-9a-f]\{64\} (today $v): changes$" "$T/out"'
export SBAT_ADD_EFIVARFS="$F/ovmf-sb/efivars"
head -c 60 "$T/dbxupdate.bin" >"$T/dbxcut.bin"
expect_rc "a malformed --pending file: exit 1" 1 --event-log "$F/ovmf-sb/binary_bios_measurements" \
	--pending dbx="$T/dbxcut.bin"
expect "the error names the file" '[[ "$ERR" == "sbat-add: $T/dbxcut.bin: "*"EFI_SIGNATURE_LIST"* ]]'
export SBAT_ADD_EFIVARFS="$F/ovmf/efivars"
expect_rc "ovmf-sb's log with another boot's variables: exit 0" 0 --event-log "$F/ovmf-sb/binary_bios_measurements"
expect "the db authority is unknown, and so is PCR 7" \
	'grep -q "^PCR 7 event 25 (EV_EFI_VARIABLE_AUTHORITY db): unknown: db does not hold the entry the log names" "$T/out" &&
	 grep -q "^sha256 PCR 7 at the next boot: unknown: db does not hold the entry" "$T/out"'
export SBAT_ADD_TPM="$T/tpm-ovmf" SBAT_ADD_EFIVARFS="$F/ovmf-sb/efivars"
expect_rc "a log that does not match the TPM: exit 10" 10 --event-log "$F/ovmf-sb/binary_bios_measurements" --json
check "--json: nothing predicted from it" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["pcr7"]
assert all(b["predicted"] is None and b["why"] == "the log does not match the TPM" for b in p["banks"]), p["banks"]
' "$T/out"
unset SBAT_ADD_EFIVARFS

expect_rc "--event-log with --print: usage error" 2 --event-log "$F/ovmf/binary_bios_measurements" --print x.efi
expect "it says what goes with it" '[[ "$ERR" == *"--event-log takes only --json, --pending and --luks"* ]]'
expect_rc "--event-log with an IMAGE: usage error" 2 --event-log "$F/ovmf/binary_bios_measurements" x.efi
expect_rc "--event-log given twice: usage error" 2 --event-log a --event-log b
expect_rc "an empty --event-log: usage error" 2 --event-log ""
tap_finish
