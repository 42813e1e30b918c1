#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-uki.sh - UKIs end to end: the "uki" key of --print --json against
# PCR 11 worked out by Python's hashlib and by systemd-measure 252 (when
# installed), the refusal of an edit that makes .pcrsig stale, both
# --pcrsig opt-ins (--pcrsig=drop --relocate on ukify's layout), the
# refusal of a new .sbat inside a profile, the note and the warning,
# --verbose values, the lint findings of .pcrsig and of a .sbat in a
# profile, the PCR 11 alternatives of a UKI with .dtbauto and .efifw
# (which the machine selects), and usage errors.
#
# Environment (set by meson): SBAT_ADD, GEN_FIXTURES, FIXTURES_SRC.
# Output: "ok N - ..." lines, then "P passed, F failed".
set -u

. "$(dirname "$0")/../lib/tap.sh"
need_env SBAT_ADD GEN_FIXTURES FIXTURES_SRC
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-uki.XXXXXX") || exit 1
trap 'rm -rf -- "$T"' EXIT
"$GEN_FIXTURES" "$T/fx" >/dev/null || exit 1
. "$(dirname "$0")/../lib/cli.sh"

CSV="$T/new.sbat"
printf '%s\n' 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md' \
	'systemd-stub,1,The systemd Developers,systemd,257,https://systemd.io/' \
	'uki,1,UKI,uki,1,https://uapi-group.org/specifications/specs/unified_kernel_image/' >"$CSV"

# pcr.py: PCR 11 of a UKI worked out here, from the section table, for the
# stub rules the fixtures need (exact names, first match; 252 without
# .uname and .sbat); "sign FILE" writes the policy of enter-initrd into the
# placeholder of .pcrsig; "sections FILE DIR" writes each section's
# measured bytes to DIR/NAME.
cat >"$T/pcr.py" <<'EOF'
import hashlib, json, struct, sys

def sections(b):
    pe = struct.unpack_from("<I", b, 0x3c)[0]
    n, = struct.unpack_from("<H", b, pe + 6)
    opt, = struct.unpack_from("<H", b, pe + 20)
    out = []
    for i in range(n):
        name, vs, va, raw, ptr = struct.unpack_from("<8sIIII", b, pe + 24 + opt + 40 * i)
        data = b[ptr:ptr + min(vs, raw)] + bytes(max(0, vs - raw))
        out.append((name.rstrip(b"\0").decode(), data))
    return out

def version(secs):
    for name, data in secs:
        if name == ".sdmagic":
            return int(data.split(b"systemd-stub ")[1].split(b".")[0])

def pcr11(b):
    secs = sections(b)
    order = [".linux", ".osrel", ".cmdline", ".initrd", ".ucode", ".splash", ".dtb", ".uname", ".sbat", ".pcrpkey"]
    if version(secs) < 254:
        order.remove(".uname"); order.remove(".sbat")
    pcr = bytes(32)
    ext = lambda pcr, data: hashlib.sha256(pcr + hashlib.sha256(data).digest()).digest()
    for kind in order:
        for name, data in secs:
            if name == kind:
                if data:
                    pcr = ext(ext(pcr, kind.encode() + b"\0"), data)
                break
    values = {"stub": pcr.hex()}
    path = []
    for word in ["enter-initrd", "leave-initrd", "sysinit", "ready"]:
        pcr = ext(pcr, word.encode())
        path.append(word)
        values[":".join(path)] = pcr.hex()
    return values

def compatible(d):
    # a device tree's first compatible string (the root's property, as the stub reads it)
    if len(d) < 40 or d[:4] != b"\xd0\x0d\xfe\xed":
        return None
    st, strs = struct.unpack_from(">II", d, 8)
    w = st
    while w + 4 <= strs:
        tok, = struct.unpack_from(">I", d, w)
        if tok == 1:
            w += 8
        elif tok == 3:
            ln, no = struct.unpack_from(">II", d, w + 4)
            if d[strs + no:strs + no + 11] == b"compatible\0":
                return d[w + 12:w + 12 + ln].split(b"\0")[0]
            w += 12 + (ln + 3) // 4 * 4
        else:
            return None

def fwid(d):
    if len(d) < 16 or struct.unpack_from("<I", d)[0] != 0xfeeddead:
        return None
    hl, il = struct.unpack_from("<II", d, 4)
    return d[hl:hl + il - 1]

def hwid_keys(d, kind):
    # the keys (compatible or firmware id) the .hwids entries of a kind name, first entry per CHID
    keys, chids, k = [], set(), 0
    while (k + 1) * 28 < len(d) and struct.unpack_from("<I", d, 28 * k)[0]:
        desc, = struct.unpack_from("<I", d, 28 * k)
        off, = struct.unpack_from("<I", d, 28 * k + 24)
        chid = d[28 * k + 4:28 * k + 20]
        if desc >> 28 == kind and (kind, chid) not in chids:
            keys.append(d[off:].split(b"\0")[0])
        chids.add((desc >> 28, chid))
        k += 1
    return keys

def alternatives(b):
    # one value per combination the machine may select: none or the first
    # .dtbauto of each compatible; none or the first .efifw of each firmware
    # id a firmware entry of .hwids names (258 on); .hwids always
    secs = sections(b)
    base = [".linux", ".osrel", ".cmdline", ".initrd", ".ucode", ".splash", ".dtb", ".uname", ".sbat", ".pcrpkey"]
    first = lambda kind: next(((i, d) for i, (n, d) in enumerate(secs) if n == kind and d), None)
    hw = first(".hwids")
    dts, fws, seen = [None], [None], set()
    for i, (n, d) in enumerate(secs):
        key = compatible(d) if n == ".dtbauto" else fwid(d) if n == ".efifw" and version(secs) >= 258 else None
        if key is None or (n, key) in seen or (n == ".efifw" and (not hw or key not in hwid_keys(hw[1], 2))):
            continue
        seen.add((n, key))
        (dts if n == ".dtbauto" else fws).append(i)
    ext = lambda pcr, data: hashlib.sha256(pcr + hashlib.sha256(data).digest()).digest()
    out = []
    for fw in fws:
        for dt in dts:
            events = [(k, first(k)) for k in base]
            events += [(".dtbauto", (dt, secs[dt][1]) if dt is not None else None), (".hwids", hw),
                       (".efifw", (fw, secs[fw][1]) if fw is not None else None)]
            pcr = bytes(32)
            for kind, sec in events:
                if sec:
                    pcr = ext(ext(pcr, kind.encode() + b"\0"), sec[1])
            values = {"stub": pcr.hex()}
            path = []
            for word in ["enter-initrd", "leave-initrd", "sysinit", "ready"]:
                pcr = ext(pcr, word.encode())
                path.append(word)
                values[":".join(path)] = pcr.hex()
            out.append({"selects": {".dtbauto": dt, ".efifw": fw}, "pcr11": {"sha256": values}})
    return out

def policy(value):
    sel = struct.pack(">IHB", 1, 0x000b, 3) + bytes([0, 8, 0])
    return hashlib.sha256(bytes(32) + struct.pack(">I", 0x17f) + sel + hashlib.sha256(bytes.fromhex(value)).digest()).hexdigest()

cmd, path = sys.argv[1], sys.argv[2]
b = open(path, "rb").read()
if cmd == "pcr11":
    print(json.dumps(pcr11(b), sort_keys=True))
elif cmd == "sign":
    at = b.index(b'"pol":"') + 7
    b = b[:at] + policy(pcr11(b)["enter-initrd"]).encode() + b[at + 64:]
    open(path, "wb").write(b)
elif cmd == "alternatives":
    print(json.dumps(sorted(alternatives(b), key=lambda a: json.dumps(a, sort_keys=True)), sort_keys=True))
elif cmd == "hwidentry":
    # hwidentry FILE K: the file offset of entry K of the first .hwids, in hex
    pe = struct.unpack_from("<I", b, 0x3c)[0]
    n, = struct.unpack_from("<H", b, pe + 6)
    opt, = struct.unpack_from("<H", b, pe + 20)
    hdr = [pe + 24 + opt + 40 * i for i in range(n)]
    h = next(x for x in hdr if b[x:x + 8].rstrip(b"\0") == b".hwids")
    print("%x" % (struct.unpack_from("<I", b, h + 20)[0] + 28 * int(sys.argv[3])))
elif cmd == "signalt":
    # signalt FILE INDEX: the enter-initrd value of alternative INDEX (in the order above) into .pcrsig
    v = alternatives(b)[int(sys.argv[3])]["pcr11"]["sha256"]["enter-initrd"]
    at = b.index(b'"pol":"') + 7
    b = b[:at] + policy(v).encode() + b[at + 64:]
    open(path, "wb").write(b)
elif cmd == "sections":
    for name, data in sections(b):
        open(sys.argv[3] + "/" + name.lstrip("."), "wb").write(data)
EOF
py() { python3 "$T/pcr.py" "$@"; }
# the "uki" object of --print --json, or "none"
uki_json() {
	"$SBAT_ADD" --print --json "$1" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin).get("uki", "none"), sort_keys=True))'
}
field() {
	python3 -c 'import json, sys; v = json.loads(sys.argv[1])
for k in sys.argv[2:]: v = v[int(k)] if isinstance(v, list) else v[k]
print(json.dumps(v, sort_keys=True))' "$@"
}
tap_details() { what_ran; }

# --print --json
U=$(uki_json "$T/fx/uki-257.efi")
check "--print --json of a UKI has the stub's version" test "$(field "$U" stub_version)" = '"257.9-1"'
check "... the sections a 257 stub measures, in its order" test "$(field "$U" measured_sections)" = \
	'[".linux", ".osrel", ".cmdline", ".initrd", ".uname", ".sbat", ".pcrpkey"]'
check "... PCR 11 (SHA-256) of the stub and the four phases, as Python works them out" \
	test "$(field "$U" pcr11 sha256)" = "$(py pcr11 "$T/fx/uki-257.efi")"
check "... lower-case hex" sh -c "printf '%s' '$(field "$U" pcr11 sha256 stub)' | grep -qx '\"[0-9a-f]\{64\}\"'"
check "... pcrsig and pcrpkey true, no profiles" test "$(field "$U" pcrsig)$(field "$U" pcrpkey)$(field "$U" | grep -c profiles)" = "truetrue0"
check "an image without systemd-stub has no \"uki\" key" test "$(uki_json "$T/fx/not-uki.efi")" = '"none"'
U=$(uki_json "$T/fx/uki-252.efi")
check "a 252 stub does not measure .sbat or .uname" test "$(field "$U" measured_sections)" = \
	'[".linux", ".osrel", ".cmdline", ".initrd", ".pcrpkey"]'
check "... its PCR 11 as Python works it out" test "$(field "$U" pcr11 sha256)" = "$(py pcr11 "$T/fx/uki-252.efi")"
MEASURE=/usr/lib/systemd/systemd-measure
if [ -x "$MEASURE" ] && "$MEASURE" --version 2>/dev/null | grep -q '^systemd 252'; then
	mkdir "$T/s" && py sections "$T/fx/uki-252.efi" "$T/s"
	"$MEASURE" calculate --linux="$T/s/linux" --osrel="$T/s/osrel" --cmdline="$T/s/cmdline" --initrd="$T/s/initrd" \
		--pcrpkey="$T/s/pcrpkey" --bank=sha256 --json=short >"$T/measure.json"
	check "... the four phases equal systemd-measure 252's calculate" test \
		"$(python3 -c 'import json, sys; print(json.dumps({e["phase"]: e["hash"] for e in json.load(open(sys.argv[1]))["sha256"]}, sort_keys=True))' "$T/measure.json")" = \
		"$(field "$U" pcr11 sha256 | python3 -c 'import json, sys; d = json.load(sys.stdin); d.pop("stub"); print(json.dumps(d, sort_keys=True))')"
else
	skip "PCR 11 against systemd-measure 252: $MEASURE (Debian 12's systemd) is not installed"
fi
U=$(uki_json "$T/fx/uki-257-profiles.efi")
check "a multi-profile UKI lists its three profiles" test "$(field "$U" profiles | python3 -c 'import json, sys; print([p["index"] for p in json.load(sys.stdin)])')" = "[0, 1, 2]"
check "... the top-level values are profile 0's" test "$(field "$U" pcr11)" = "$(field "$U" profiles 0 pcr11)"
check "... profiles measure their own .cmdline" test "$(field "$U" profiles 0 pcr11)" != "$(field "$U" profiles 1 pcr11)"

# .dtbauto and .efifw: measured only when the machine selects them
M="$T/fx/uki-262-machine.efi"
U=$(uki_json "$M")
check "a 262 stub's UKI: .dtbauto and .efifw are not among the sections measured on every machine, .hwids is" \
	test "$(field "$U" measured_sections)" = '[".linux", ".osrel", ".cmdline", ".initrd", ".uname", ".sbat", ".pcrpkey", ".hwids"]'
check "... no single PCR 11 value: pcr11 is null" test "$(field "$U" pcr11)" = null
check "... pcr11_alternatives: none or one .dtbauto times none or one .efifw the stub can select, as Python works them out" \
	test "$(field "$U" pcr11_alternatives | python3 -c 'import json, sys; print(json.dumps(sorted(({"selects": a["selects"], "pcr11": a["pcr11"]} for a in json.load(sys.stdin)), key=lambda a: json.dumps(a, sort_keys=True)), sort_keys=True))')" = "$(py alternatives "$M")"
check "... each names the .hwids entries that select its sections" \
	test "$(field "$U" pcr11_alternatives | python3 -c 'import json, sys; print(sorted((a["selects"][".dtbauto"] or 0, a["selects"][".efifw"] or 0, a["hwids"][".dtbauto"], a["hwids"][".efifw"]) for a in json.load(sys.stdin)))')" = "[(0, 0, None, None), (0, 13, None, 'Firmware B'), (11, 0, 'Board A', None), (11, 13, 'Board A', 'Firmware B'), (12, 0, 'Board B', None), (12, 13, 'Board B', 'Firmware B')]"
check "... six of them, the first selecting nothing" test "$(field "$U" pcr11_alternatives | python3 -c 'import json, sys; a = json.load(sys.stdin); print(len(a), a[0]["selects"])')" = "6 {'.dtbauto': None, '.efifw': None}"
cp "$M" "$T/m.efi"
chmod u+w "$T/m.efi"
both=$(py alternatives "$M" | python3 -c 'import json, sys; print([a for a in json.load(sys.stdin) if a["selects"] == {".dtbauto": 12, ".efifw": 13}][0]["pcr11"]["sha256"]["enter-initrd"])')
run --dry-run --verbose --pcrsig=keep --file "$T/m.efi" --csv "$CSV"
expect "--verbose prints the values before and after per alternative, naming the sections the machine selects" \
	'err_has "PCR 11 sha256 (the machine selects none) stub: " && err_has "PCR 11 sha256 (the machine selects section 12 \".dtbauto\", section 13 \".efifw\") enter-initrd: $both -> " && [ "$(grep -c "PCR 11 sha256 (the machine selects" "$T/err")" = 30 ]'
run --lint "$T/m.efi"
expect "--lint: its placeholder .pcrsig is stale" 'printf "%s" "$OUT" | grep -q "warning: uki-pcrsig-stale: "'
py signalt "$T/m.efi" 0
run --lint "$T/m.efi"
expect "... a .pcrsig signing the boot in which the machine selects nothing is not" '! printf "%s" "$OUT" | grep -q uki-pcrsig-stale'
fw_entry=$(py hwidentry "$T/m.efi" 2)
expect "... but the boots in which it selects a section are not signed: one warning per section that decides them, the .efifw at the .hwids entry that selects it (exit 5)" \
	'[ "$RC" = 5 ] && [ "$(printf "%s\n" "$OUT" | grep -c "warning: uki-pcrsig-uncovered: ")" = 3 ] && printf "%s" "$OUT" | grep -q "warning: uki-pcrsig-uncovered: on a machine whose hardware IDs match the .hwids entry at this offset.*(section 13 \".efifw\") (at offset 0x$fw_entry) \[tpm-unlock\]"'
check "--print --json: signed is true for that boot alone" \
	test "$(field "$(uki_json "$T/m.efi")" pcr11_alternatives | python3 -c 'import json, sys; print([a["signed"] for a in json.load(sys.stdin)])')" = "[True, False, False, False, False, False]"
py signalt "$T/m.efi" 5
run --lint "$T/m.efi"
expect "... nor one signing the boot in which it selects the second .dtbauto and the .efifw, which leaves the others unsigned" \
	'[ "$RC" = 5 ] && ! printf "%s" "$OUT" | grep -q uki-pcrsig-stale && printf "%s" "$OUT" | grep -q "uki-pcrsig-uncovered"'

# the refusal and the opt-ins
cp "$T/fx/uki-257.efi" "$T/u.efi"
run --file "$T/u.efi" --csv "$CSV"
expect "an edit that makes .pcrsig stale is refused (exit 1)" '[ "$RC" = 1 ]'
expect "... the file untouched" 'cmp -s "$T/u.efi" "$T/fx/uki-257.efi"'
expect "... one line naming the file, the section, its offset, ukify and systemd-measure" \
	'[ "$(wc -l <"$T/err")" = 1 ] && err_has "u.efi: " && err_has "section 1 \".sbat\"" && err_has "(at offset 0x1b0)" && err_has "ukify" && err_has "systemd-measure sign" && err_has "--pcrsig=drop"'
run --dry-run --file "$T/u.efi" --csv "$CSV"
expect "... also as a dry run" '[ "$RC" = 1 ] && err_has "signed PCR 11 policy would no longer match"'
run --quiet --pcrsig=keep --file "$T/u.efi" --csv "$CSV" --output "$T/keep.efi"
expect "--pcrsig=keep edits (exit 0) and warns, even with --quiet" '[ "$RC" = 0 ] && err_has "warning: " && err_has ".pcrsig kept as it is"'
run --print --json "$T/keep.efi"
expect "... .pcrsig is still there" 'printf "%s" "$OUT" | grep -q "\"name\": \".pcrsig\""'
run --lint "$T/keep.efi"
expect "... and --lint finds it stale" 'printf "%s" "$OUT" | grep -q "warning: uki-pcrsig-stale: .*section 9 \".pcrsig\".*offset 0x5800"'
run --pcrsig=drop --file "$T/u.efi" --csv "$CSV"
expect "--pcrsig=drop edits in place (exit 0) and says .pcrsig was removed" '[ "$RC" = 0 ] && err_has ".pcrsig removed"'
run --print --json "$T/u.efi"
expect "... no .pcrsig left, one section fewer" '! printf "%s" "$OUT" | grep -q "\"name\": \".pcrsig\"" && printf "%s" "$OUT" | grep -q "\"pcrsig\": false" && [ "$(stat -c %s "$T/u.efi")" -lt "$(stat -c %s "$T/fx/uki-257.efi")" ]'
run --lint "$T/u.efi"
expect "... and the result lints clean" '[ "$RC" = 0 ]'
cp "$T/fx/uki-257-pcrsig-mid.efi" "$T/mid.efi"
run --pcrsig=drop --file "$T/mid.efi" --csv "$CSV"
expect "--pcrsig=drop on a .pcrsig that is not last renames it .oldpsig" '[ "$RC" = 0 ] && err_has ".pcrsig renamed .oldpsig and zeroed"'
run --print --json "$T/mid.efi"
expect "... in place" 'printf "%s" "$OUT" | grep -q "\"index\": 3, \"name\": \".oldpsig\""'

# ukify's layout (.pcrsig last) and a CSV too large for the stub's .sbat:
# .pcrsig goes and the new .sbat takes its header slot, in one edit
BIG="$T/big.sbat"
{ cat "$CSV"; for i in 1 2 3 4 5 6 7 8; do echo "comp$i,1,Component $i,comp$i,1.$i,https://example.invalid/comp$i"; done; } >"$BIG"
cp "$T/fx/uki-257.efi" "$T/dr.efi"
run --pcrsig=drop --relocate --file "$T/dr.efi" --csv "$BIG"
expect "--pcrsig=drop --relocate with .pcrsig last: done (exit 0), .pcrsig removed" '[ "$RC" = 0 ] && err_has ".pcrsig removed"'
run --print --json "$T/dr.efi"
expect "... the new .sbat is the last section, where .pcrsig was; the old one renamed" \
	'! printf "%s" "$OUT" | grep -q "\"name\": \".pcrsig\"" && printf "%s" "$OUT" | grep -q "\"index\": 9, \"name\": \".sbat\"" && printf "%s" "$OUT" | grep -q "\"index\": 1, \"name\": \".oldsbat\""'
expect "... --print shows the new CSV" 'cmp -s <("$SBAT_ADD" --print "$T/dr.efi" 2>/dev/null) "$BIG"'
run --lint "$T/dr.efi"
expect "... and the result lints clean" '[ "$RC" = 0 ]'

# a multi-profile UKI: a new .sbat appended after the last profile's
# sections would belong to that profile alone; ukify puts it before the
# first .profile
cp "$T/fx/uki-257-profiles.efi" "$T/prof.efi"
run --relocate --file "$T/prof.efi" --csv "$BIG"
expect "a .sbat that would move into the last profile is refused (exit 1), the file untouched" \
	'[ "$RC" = 1 ] && cmp -s "$T/prof.efi" "$T/fx/uki-257-profiles.efi"'
expect "... one line naming the first .profile, both sizes and .sbat's SizeOfRawData" \
	'[ "$(wc -l <"$T/err")" = 1 ] && err_has "section 9 \".profile\"" && err_has "needs $(wc -c <"$BIG") bytes, has 512" && err_has "(at offset 0x1c0)" && err_has "belong to the last profile alone" && err_has "ukify build --sbat=@FILE"'
expect "... and does not advise --relocate" '! err_has "use --relocate"'
run --file "$T/prof.efi" --csv "$BIG"
expect "... nor without --relocate (exit 1), the file untouched" \
	'[ "$RC" = 1 ] && err_has "section 9 \".profile\"" && ! err_has "use --relocate" && cmp -s "$T/prof.efi" "$T/fx/uki-257-profiles.efi"'
run --file "$T/prof.efi" --csv "$CSV"
expect "... an edit in place goes ahead (exit 0)" '[ "$RC" = 0 ]'
cp "$T/prof.efi" "$T/prof-a.efi"
# --remove leaves a zeroed .oldsbat before the first .profile: the .sbat goes back there
run --remove --file "$T/prof.efi"
expect "... --remove retires it in place (exit 0)" '[ "$RC" = 0 ] && ! "$SBAT_ADD" --print "$T/prof.efi" >/dev/null 2>&1'
run --file "$T/prof.efi" --csv "$CSV"
expect "... put back: exit 0, into the .oldsbat slot (section 1), said once" \
	'[ "$RC" = 0 ] && err_has "zeroed .oldsbat (section 1) before the first .profile is .sbat again"'
expect "... the image is the one the edit in place made" 'cmp -s "$T/prof.efi" "$T/prof-a.efi"'
run --file "$T/prof.efi" --remove
run --file "$T/prof.efi" --csv "$BIG"
expect "... too large for the slot: refused (exit 1), naming the first .profile" \
	'[ "$RC" = 1 ] && err_has "section 9 \".profile\"" && err_has "has 512"'
# .sbat moved into the last profile by hand: the last .cmdline holds the CSV and is renamed .sbat
cp "$T/fx/uki-257-profiles.efi" "$T/inprof.efi"
python3 - "$T/inprof.efi" "$CSV" <<'PY'
import struct, sys
path, csv = sys.argv[1], open(sys.argv[2], "rb").read()
b = bytearray(open(path, "rb").read())
pe = struct.unpack_from("<I", b, 0x3c)[0]
n, = struct.unpack_from("<H", b, pe + 6)
opt, = struct.unpack_from("<H", b, pe + 20)
tab = pe + 24 + opt
b[tab + 40:tab + 48] = b".oldsbat"
last = tab + 40 * (n - 1)
raw, ptr = struct.unpack_from("<II", b, last + 16)
assert b[last:last + 8] == b".cmdline" and len(csv) < raw
b[last:last + 8] = b".sbat\0\0\0"
b[ptr:ptr + raw] = csv + bytes(raw - len(csv))
struct.pack_into("<I", b, last + 8, len(csv))
open(path, "wb").write(b)
PY
run --lint "$T/inprof.efi"
expect "--lint: a .sbat after a .profile is a warning naming the section and its header, for tpm-unlock" \
	'printf "%s" "$OUT" | grep -q "warning: uki-sbat-in-profile: .*section 14 \".sbat\".*(at offset 0x3b8) \[tpm-unlock\]"'
run --lint "$T/fx/uki-257-profiles.efi"
expect "... not for ukify's layout" '! printf "%s" "$OUT" | grep -q uki-sbat-in-profile'

cp "$T/fx/uki-252.efi" "$T/old.efi"
run --file "$T/old.efi" --csv "$CSV"
expect "a 252 stub's UKI: the .sbat edit is not refused (exit 0)" '[ "$RC" = 0 ]'
expect "... a note says PCR 11 and .pcrsig stay valid" 'err_has "note: " && err_has "systemd-stub 252.39-1~deb12u2 does not measure what this edit changes"'
run --print --json "$T/old.efi"
expect "... .pcrsig is kept" 'printf "%s" "$OUT" | grep -q "\"pcrsig\": true"'
cp "$T/fx/uki-257-pcrpkey.efi" "$T/key.efi"
run --file "$T/key.efi" --csv "$CSV"
expect "a UKI with .pcrpkey and no .pcrsig: edited with a warning that PCR 11 changes" \
	'[ "$RC" = 0 ] && err_has "warning: " && err_has "changes PCR 11" && err_has "nothing signed goes stale"'

# --verbose: the values before and after
cp "$T/fx/uki-257-pcrpkey.efi" "$T/v.efi"
before=$(field "$(uki_json "$T/v.efi")" pcr11 sha256 enter-initrd | tr -d '"')
run --dry-run --verbose --file "$T/v.efi" --csv "$CSV"
expect "--dry-run --verbose prints PCR 11 before and after, the file untouched" \
	'err_has "PCR 11 sha256 enter-initrd: $before -> " && cmp -s "$T/v.efi" "$T/fx/uki-257-pcrpkey.efi"'
predicted=$(sed -n 's/.*PCR 11 sha256 enter-initrd:leave-initrd:sysinit:ready: [0-9a-f]* -> \([0-9a-f]*\)$/\1/p' "$T/err")
run --verbose --file "$T/v.efi" --csv "$CSV"
expect "--verbose prints them for the edit too" 'err_has "PCR 11 sha256 stub: "'
expect "... the predicted values are those of the edited image" \
	'[ -n "$predicted" ] && [ "\"$predicted\"" = "$(field "$(uki_json "$T/v.efi")" pcr11 sha256 enter-initrd:leave-initrd:sysinit:ready)" ]'

# --lint on .pcrsig
cp "$T/fx/uki-257.efi" "$T/signed.efi"
py sign "$T/signed.efi"
run --lint "$T/signed.efi"
expect "--lint: a .pcrsig that signs this image's values is not stale" '[ "$RC" = 0 ] && ! printf "%s" "$OUT" | grep -q uki-pcrsig'
run --lint --json "$T/fx/uki-257.efi"
expect "--lint --json names the rule and the tpm-unlock loader" 'printf "%s" "$OUT" | grep -q "\"rule\": \"uki-pcrsig-stale\".*\"loaders\": \[\"tpm-unlock\"\]"'
cp "$T/signed.efi" "$T/bad.efi"
python3 -c 'import sys; p = sys.argv[1]; b = open(p, "rb").read(); i = b.index(b"\"sig\""); open(p, "wb").write(b[:i] + b"\"sig" + b[i + 4:i + 5].replace(b"\"", b"\x01") + b[i + 5:])' "$T/bad.efi"
run --lint "$T/bad.efi"
expect "--lint: malformed .pcrsig JSON is a finding at its offset, no crash" '[ "$RC" = 5 ] && printf "%s" "$OUT" | grep -q "warning: uki-pcrsig-malformed: .*(at offset 0x"'

# usage
expect_rc "--pcrsig takes drop or keep" 2 --pcrsig=maybe --file "$T/u.efi" --csv "$CSV"
expect_rc "--pcrsig goes with an edit, not --print" 2 --print --pcrsig=drop "$T/u.efi"
expect_rc "... nor --lint" 2 --lint --pcrsig=keep "$T/u.efi"
run --help
expect "--help lists --pcrsig" 'printf "%s" "$OUT" | grep -q -- "--pcrsig=drop|keep"'

tap_finish
