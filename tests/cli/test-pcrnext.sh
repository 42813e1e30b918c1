#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-pcrnext.sh - --check-level next with the event log of the ovmf-sb
# capture (tests/fixtures/eventlog), its variables and two boot options
# whose images are not the captured boot's: PCR 4 of another image in every
# bank (its Authenticode hashes recomputed here), the "PCR N changes:" line
# naming the pending update or the image, every path predicted (the default
# first), in text and --json; --luks judged against the default path's
# prediction (PCR 4, 7, 14 predicted, the others today's) with exit statuses
# 11 and 12 beside the walk's; the block devices holding a LUKS2 header
# found under SBAT_ADD_BLOCK_ROOT.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC.
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-pcrnext.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
. "$(dirname "$0")/../lib/cli.sh"
. "$(dirname "$0")/../lib/efi.sh"

F="$FIXTURES_SRC/eventlog/ovmf-sb"
L="$FIXTURES_SRC/luks/tpm2-tokens.luks2"
EFI_GUID=8be4df61-93ca-11d2-aa0d-00e098032b8c
LOG="$F/binary_bios_measurements"

mkdir -p "$T/fix" "$T/ev" "$T/esp/EFI/Linux" "$T/esp/EFI/other" "$T/tpm"
"$GEN_FIXTURES" "$T/fix" >/dev/null 2>&1 || { not_ok "gen-fixtures writes the example images"; tap_finish; exit 1; }
cp "$F"/efivars/* "$T/ev/"
cp "$T/fix/efi-x86_64.efi" "$T/esp/EFI/Linux/uki.efi"
cp "$T/fix/checksummed.efi" "$T/esp/EFI/other/x.efi"
# bootvar NUM DESCRIPTION PATH: a Boot#### for PATH on the ESP
bootvar() {
	{ hd_node; file_node "$3"; end_node; } >"$T/dp"
	{ printf '\7\0\0\0'; le32 1; le16 "$(wc -c <"$T/dp")"; ucs2 "$2"; cat -- "$T/dp"; } >"$T/ev/Boot$1-$EFI_GUID"
}
bootvar 0004 UKI '\EFI\Linux\uki.efi'
bootvar 0005 other '\EFI\other\x.efi'
{ printf '\7\0\0\0'; le16 4; le16 5; } >"$T/ev/BootOrder-$EFI_GUID"
export SBAT_ADD_EFIVARFS="$T/ev"
while read -r b n h; do
	mkdir -p "$T/tpm/pcr-$b"
	echo "$h" >"$T/tpm/pcr-$b/$n"
done <"$F/pcrs"
export SBAT_ADD_TPM="$T/tpm"
# no scan of this machine's block devices: an empty root unless a check makes one
export SBAT_ADD_BLOCK_ROOT="$T/noroot"

# a pending dbx update: two hashes in a plain signature list, applied as given
python3 - "$T/dbxupdate.bin" <<'PY'
import struct, sys
entries = b"".join(bytes([0x77]) * 16 + bytes([h]) * 32 for h in (0x11, 0x22))
lst = bytes.fromhex("2616c4c14c509240aca941f936934328") + struct.pack("<III", 28 + len(entries), 0, 48) + entries
open(sys.argv[1], "wb").write(lst)
PY

# volume NAME BANK PCRS [VALUES-FILE]: a LUKS2 image (the fixture's header, its JSON area replaced) with one
# systemd-tpm2 token sealed to PCRS ("4,7") of BANK with the capture's values (or those of VALUES-FILE's "bank n hex"
# lines), its PolicyPCR digest computed here as TPM2_PolicyPCR makes it
volume() {
	python3 - "$L" "$T/$1" "$2" "$3" "${4:-$F/pcrs}" <<'PY'
import hashlib, struct, sys
src, out, bank, sel, vals = sys.argv[1:6]
pcrs = {}
for line in open(vals):
    b, n, h = line.split()
    pcrs[(b, int(n))] = bytes.fromhex(h)
sel = [int(x) for x in sel.split(",")]
alg = {"sha1": 4, "sha256": 0xB, "sha384": 0xC, "sha512": 0xD}[bank]
mask = sum(1 << n for n in sel)
tpml = struct.pack(">IHB", 1, alg, 3) + mask.to_bytes(3, "little")
digest = hashlib.sha256(b"".join(pcrs[(bank, n)] for n in sorted(sel))).digest()
policy = hashlib.sha256(bytes(32) + struct.pack(">I", 0x17F) + tpml + digest).hexdigest()
d = bytearray(open(src, "rb").read())
j = ('{"tokens":{"0":{"type":"systemd-tpm2","tpm2-pcrs":[%s],"tpm2-pcr-bank":"%s","tpm2-policy-hash":"%s"}}}'
     % (",".join(map(str, sel)), bank, policy)).encode()
for off in (0, 16384):
    d[off + 4096:off + 16384] = j + bytes(12288 - len(j))
    d[off + 448:off + 512] = bytes(64)
    d[off + 448:off + 480] = hashlib.sha256(bytes(d[off:off + 16384])).digest()
open(out, "wb").write(d)
PY
}

# authenticode IMAGE ALG: the image's Authenticode hash (an image without a certificate table)
authenticode() {
	python3 - "$1" "$2" <<'PY'
import hashlib, struct, sys
data = open(sys.argv[1], "rb").read()
pe = struct.unpack_from("<I", data, 0x3C)[0]
nsec, optsz = struct.unpack_from("<H", data, pe + 6)[0], struct.unpack_from("<H", data, pe + 20)[0]
opt = pe + 24
cks, certdir = opt + 64, opt + (96 if struct.unpack_from("<H", data, opt)[0] == 0x10B else 112) + 32
soh = struct.unpack_from("<I", data, opt + 60)[0]
h = hashlib.new(sys.argv[2])
h.update(data[:cks]); h.update(data[cks + 4:certdir]); h.update(data[certdir + 8:soh])
secs = sorted((struct.unpack_from("<I", data, opt + optsz + 40 * i + 20)[0],
               struct.unpack_from("<I", data, opt + optsz + 40 * i + 16)[0]) for i in range(nsec))
total = soh
for ptr, size in secs:
    if size:
        h.update(data[ptr:ptr + size]); total += size
assert struct.unpack_from("<I", data, certdir + 4)[0] == 0
h.update(data[total:])
print(h.hexdigest())
PY
}

next_() { run --check-level next --esp "$T/esp" --event-log "$LOG" "$@"; }

# ---------------------------------------------------------------- PCR 4 in every bank, and what changes each PCR
next_
expect "the default path is refused (the image is not signed by the capture's db): exit 4" '[ "$RC" -eq 4 ]'
for b in sha1 sha256 sha384 sha512; do
	expect "PCR 4 ($b) of another image is predicted, and changes" \
		'grep -q "^    PCR 4 ($b) next boot: [0-9a-f]* (today $(awk -v b=$b '"'"'$1 == b && $2 == 4 { print $3 }'"'"' "$F/pcrs")): changes$" "$T/out"'
done
expect "PCR 4 changes: the image named" 'has_line "    PCR 4 changes: \\EFI\\Linux\\uki.efi is another image"'
expect "nothing changes PCR 7" '! grep -q "PCR 7 changes" "$T/out" && grep -q "^    PCR 7 (sha256) next boot: .*: unchanged$" "$T/out"'
expect "the other path is predicted after the default one" \
	'[ "$(grep -n "^next boot.s PCRs along" "$T/out" | cut -d: -f2-)" = "$(printf "%s\n" "next boot'"'"'s PCRs along Boot0004 UKI:" "next boot'"'"'s PCRs along Boot0005 other:")" ] &&
	 has_line "    PCR 4 changes: \\EFI\\other\\x.efi is another image"'

run --check-level next --esp "$T/esp" --event-log "$LOG" --json
expect "--json: exit 4" '[ "$RC" -eq 4 ]'
UKI=$T/esp/EFI/Linux/uki.efi
check "--json: the application's digest in each bank is the image's Authenticode hash; each PCR 4 value is the replay of its events; the changes say why; the other path follows" \
	python3 - "$T/out" "$(authenticode "$UKI" sha1)" "$(authenticode "$UKI" sha256)" "$(authenticode "$UKI" sha384)" \
	"$(authenticode "$UKI" sha512)" <<'PY'
import hashlib, json, sys
j = json.load(open(sys.argv[1]))
want = dict(zip(["sha1", "sha256", "sha384", "sha512"], sys.argv[2:6]))
p = j["pcrs"]
assert p["path"] == "Boot0004 UKI" and p["default"] is True and p["unknown_reason"] is None
apps = [e for e in p["events"] if e["pcr"] == 4 and e["content"]["event_type"] == "EV_EFI_BOOT_SERVICES_APPLICATION"]
assert len(apps) == 1 and apps[0]["cause"] == "image" and apps[0]["cause_file"] == "\\EFI\\Linux\\uki.efi", apps
got = {d["hashAlg"]: d["digest"] for d in apps[0]["digests"]}
assert got == want, (got, want)
for v in (v for v in p["values"] if v["pcr"] == 4):
    pcr = bytes(hashlib.new(v["bank"]).digest_size)
    for e in (e for e in p["events"] if e["pcr"] == 4):
        pcr = hashlib.new(v["bank"], pcr + bytes.fromhex([d for d in e["digests"] if d["hashAlg"] == v["bank"]][0]["digest"])).digest()
    assert v["value"] == pcr.hex() and v["value"] != v["today"], v
assert p["changes"] == [{"pcr": 4, "why": "\\EFI\\Linux\\uki.efi is another image"}], p["changes"]
o = j["pcrs_other_paths"]
assert [x["path"] for x in o] == ["Boot0005 other"] and o[0]["default"] is False
assert o[0]["changes"] == [{"pcr": 4, "why": "\\EFI\\other\\x.efi is another image"}], o[0]["changes"]
assert "luks" not in j and "luks_scan" not in j
PY

next_ --pending dbx="$T/dbxupdate.bin"
expect "--pending dbx: PCR 7 changes: the pending update and how many entries it adds" \
	'[ "$RC" -eq 4 ] && has_line "    PCR 7 changes: the pending dbx update adds 2 entries" &&
	 [ "$(grep -c "^    PCR 7 changes: the pending dbx update adds 2 entries$" "$T/out")" -eq 2 ]'

# ---------------------------------------------------------------- --luks against the default path's prediction
expect_rc "--luks --no-signatures: the default path boots and token 4 was sealed to other values: 11" 11 \
	--check-level next --esp "$T/esp" --event-log "$LOG" --luks "$L" --no-signatures
expect_rc "--luks, signatures judged: the default path (an unsigned UKI) is refused: its 4 ahead of 11" 4 \
	--check-level next --esp "$T/esp" --event-log "$LOG" --luks "$L"
line() { grep -qxF "$L: token $1" "$T/out"; }
expect "tokens bound to PCR 7, 0+7 and 14 will unlock at the next boot" \
	'line "0 (sha256 PCR 7): will unlock today; will unlock at the next boot" &&
	 line "2 (sha256 PCR 0+7): will unlock today; will unlock at the next boot" &&
	 line "3 (sha1 PCR 7): will unlock today; will unlock at the next boot" &&
	 line "7 (sha256 PCR 14): will unlock today; will unlock at the next boot"'
expect_rc "--luks --pending dbx: exit 4 (the default path refused)" 4 \
	--check-level next --esp "$T/esp" --event-log "$LOG" --pending dbx="$T/dbxupdate.bin" --luks "$L"
expect "PCR 7's tokens will not unlock after the update, and say why" \
	'line "0 (sha256 PCR 7): will unlock today; will not unlock after the update: PCR 7 changes (the pending dbx update adds 2 entries)" &&
	 line "2 (sha256 PCR 0+7): will unlock today; will not unlock after the update: PCR 7 changes (the pending dbx update adds 2 entries)" &&
	 line "7 (sha256 PCR 14): will unlock today; will unlock after the update"'

volume p47sha1.luks2 sha1 4,7
expect_rc "a token of sha1 PCR 4+7: another image, so it will not unlock (exit 4: the default path refused)" 4 \
	--check-level next --esp "$T/esp" --event-log "$LOG" --luks "$T/p47sha1.luks2"
expect "it says PCR 4 changes, and why" \
	'has_line "$T/p47sha1.luks2: token 0 (sha1 PCR 4+7): will unlock today; will not unlock at the next boot: PCR 4 changes (\\EFI\\Linux\\uki.efi is another image)"'
# sealed to the predicted values: it will unlock
run --check-level next --esp "$T/esp" --event-log "$LOG" --json
python3 - "$T/out" "$F/pcrs" >"$T/predicted" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
nxt = {(v["bank"], v["pcr"]): v["value"] for v in j["pcrs"]["values"] if v["value"]}
for line in open(sys.argv[2]):
    b, n, h = line.split()
    print(b, n, nxt.get((b, int(n)), h))
PY
volume p47next.luks2 sha384 4,7 "$T/predicted"
expect_rc "a token sealed to the predicted sha384 PCR 4+7 will unlock at the next boot, not today (walk's exit 4)" 4 \
	--check-level next --esp "$T/esp" --event-log "$LOG" --luks "$T/p47next.luks2"
expect "... and says so" \
	'has_line "$T/p47next.luks2: token 0 (sha384 PCR 4+7): will not unlock today: its policy is not made by today'"'"'s values of PCR 4+7: it was sealed to other values; will unlock at the next boot"'

volume p4.luks2 sha256 4
expect_rc "--no-signatures: no image hash, PCR 4 unknown: cannot tell (exit 12, the walk's 0)" 12 \
	--check-level next --no-signatures --esp "$T/esp" --event-log "$LOG" --luks "$T/p4.luks2"
expect "it says why" \
	'has_line "$T/p4.luks2: token 0 (sha256 PCR 4): will unlock today; cannot tell at the next boot: PCR 4 of the sha256 bank is unknown: the log'"'"'s boot started another number of applications than the path has images: which is which is not known"'
volume p23.luks2 sha256 23
cp -r "$T/tpm" "$T/tpm23"
rm "$T/tpm23/pcr-sha256/23"
SBAT_ADD_TPM="$T/tpm23" expect_rc "a refused default path and a token that cannot be told (PCR 23 unknown): the walk's 4 ahead of 12" 4 \
	--check-level next --esp "$T/esp" --event-log "$LOG" --luks "$T/p23.luks2"
expect "... it cannot tell" 'has_line "$T/p23.luks2: token 0 (sha256 PCR 23): cannot tell today: PCR 23 of the sha256 bank is unknown; cannot tell at the next boot: PCR 23 of the sha256 bank is unknown"'
SBAT_ADD_TPM="$T/tpm23" expect_rc "... alone (--no-signatures: the walk's 0): exit 12" 12 \
	--check-level next --no-signatures --esp "$T/esp" --event-log "$LOG" --luks "$T/p23.luks2"
volume p7.luks2 sha256 7
expect_rc "every token unlocks: the walk's status (0)" 0 \
	--check-level next --no-signatures --esp "$T/esp" --event-log "$LOG" --luks "$T/p7.luks2"

run --check-level next --esp "$T/esp" --event-log "$LOG" --pending dbx="$T/dbxupdate.bin" --luks "$L" --json
check "--json: the luks member judged against the prediction; exit_status 4 (the default path refused)" python3 - "$T/out" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["exit_status"] == 4 and "luks_scan" not in j
t = {x["token"]: x for x in j["luks"][0]["systemd_tpm2"]}
p = t[0]["predicted"]
assert p["verdict"] == "will not unlock" and p["changed_pcrs"] == [7], p
assert p["why"] == "PCR 7 changes (the pending dbx update adds 2 entries)", p
assert t[7]["predicted"]["verdict"] == "will unlock"
assert j["pcrs"]["changes"][0] == {"pcr": 7, "why": "the pending dbx update adds 2 entries"}
PY

# ---------------------------------------------------------------- the block devices, without --luks
R="$T/root"
mkdir -p "$R/sys/class/block/vda" "$R/sys/class/block/vda1" "$R/sys/class/block/vda2" "$R/sys/class/block/vdb" "$R/dev"
cp "$T/p7.luks2" "$R/dev/vda1"
cp "$L" "$R/dev/vda2"
head -c 8192 "$T/fix/efi-x86_64.efi" >"$R/dev/vda"
export SBAT_ADD_BLOCK_ROOT="$R"
expect_rc "no --luks: the block devices with a LUKS2 header are judged (vdb does not read): token 4 of vda2, exit 11" 11 \
	--check-level next --no-signatures --esp "$T/esp" --event-log "$LOG"
expect "it says how many devices, how many hold LUKS2, how many did not read" \
	'has_line "block devices: 4, 2 with a LUKS2 header, 1 could not be read" &&
	 has_line "$R/dev/vda1: token 0 (sha256 PCR 7): will unlock today; will unlock at the next boot" &&
	 grep -q "^$R/dev/vda2: token 4 (sha256 PCR 7): will not unlock today" "$T/out" && ! grep -q "^$R/dev/vda:" "$T/out"'
rm "$R/dev/vda2"
expect_rc "vda1 alone: every token unlocks (the walk's 4)" 4 --check-level next --esp "$T/esp" --event-log "$LOG"
run --check-level next --esp "$T/esp" --event-log "$LOG" --json
check "--json: luks_scan counts, and the volume" python3 - "$T/out" "$R/dev/vda1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["luks_scan"] == {"block_devices": 4, "luks2": 1, "unreadable": 2}, j["luks_scan"]
assert [v["file"] for v in j["luks"]] == [sys.argv[2]] and j["exit_status"] == 4
PY
export SBAT_ADD_BLOCK_ROOT="$T/noroot"
expect_rc "no block device list: nothing scanned, the walk's status" 4 --check-level next --esp "$T/esp" --event-log "$LOG"
expect "... and no scan line" '! grep -q "^block devices" "$T/out"'

# ---------------------------------------------------------------- usage
expect_rc "--luks with --check-level next:SHIM and IMAGEs: usage (exit 2)" 2 --check-level "next:$UKI" --luks "$L" "$UKI"
expect "says what goes with it" 'err_has "--luks goes with --check-level next without IMAGEs, with --event-log, or alone"'
tap_finish
