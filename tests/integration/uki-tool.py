#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
"""What the UKI tests (test-ukify.sh, ../vm/test-tpm.sh) do in Python.

  uki-tool.py sections IMAGE DIR [PROFILE]
      write the data of each section of IMAGE to DIR/NAME (the name without
      its leading dot), min(VirtualSize, SizeOfRawData) bytes as ukify reads a
      section, the first section of a name only; print "NAME SIZE" lines.
      With PROFILE (a number): the sections systemd-stub finds when it boots
      that profile of a multi-profile UKI: the base's (those before the
      first .profile), each overridden by the profile's section of the same
      name (profile N: from the N-th .profile, counted from 0, to the next)
  uki-tool.py names IMAGE
      the names of all sections of IMAGE in file order, space-separated
  uki-tool.py section IMAGE NAME
      the data of section NAME (as above) on standard output; exit 1 without one
  uki-tool.py measured JSON...
      systemd-measure calculate --json=short output(s) as "BANK PHASE HEX"
      lines; an entry without a phase (from --phase=) is the phase "stub"
  uki-tool.py predicted JSON [PROFILE]
      sbat-add --print --json output: its uki.pcr11 values (with PROFILE,
      uki.profiles[PROFILE].pcr11) as "BANK PHASE HEX" lines; exit 3 when
      there is no "uki" object (or no such profile)
  uki-tool.py uki JSON FIELD [PROFILE]
      one field of the "uki" object (with PROFILE, of uki.profiles[PROFILE];
      lists joined by spaces, null as "null", booleans as true/false)
  uki-tool.py dtb OUT COMPATIBLE
      write a minimal flattened device tree to OUT: a root node whose only
      property is "compatible" (for a .dtbauto the stub can select)
  uki-tool.py eventlog SERIAL_OUT PCR
      the TCG2 event log a guest printed as "eventlog HEX" lines: each event
      of PCR as "event TYPE SHA256 DESCRIPTION", then "replay BANK HEX" (the
      PCR recomputed from the log) for every bank of the log
"""

import hashlib
import json
import os
import sys


def first_of_each(pe, sections):
    """{name: data} of the first section of each name among sections."""
    seen = {}
    for s in sections:
        name = s.Name.rstrip(b"\0").decode("ascii", "replace")
        if name in seen:
            continue
        size = min(s.Misc_VirtualSize, s.SizeOfRawData)
        seen[name] = pe.__data__[s.PointerToRawData:s.PointerToRawData + size]
    return seen


def read_sections(path, profile=None):
    import pefile  # python3-pefile

    pe = pefile.PE(path, fast_load=True)
    if profile is None:
        return first_of_each(pe, pe.sections)
    starts = [i for i, s in enumerate(pe.sections) if s.Name.rstrip(b"\0") == b".profile"]
    if profile >= len(starts):
        raise SystemExit("%s: no profile %d (%d .profile sections)" % (path, profile, len(starts)))
    end = starts[profile + 1] if profile + 1 < len(starts) else len(pe.sections)
    found = first_of_each(pe, pe.sections[:starts[0]])
    found.update(first_of_each(pe, pe.sections[starts[profile]:end]))
    return found


def cmd_sections(image, outdir, profile=None):
    os.makedirs(outdir, exist_ok=True)
    for name, data in read_sections(image, profile).items():
        with open(os.path.join(outdir, name.lstrip(".")), "wb") as f:
            f.write(data)
        print(name, len(data))


def cmd_names(image):
    import pefile  # python3-pefile

    pe = pefile.PE(image, fast_load=True)
    print(" ".join(s.Name.rstrip(b"\0").decode("ascii", "replace") for s in pe.sections))


def cmd_section(image, name):
    data = read_sections(image).get(name)
    if data is None:
        return 1
    sys.stdout.buffer.write(data)
    return 0


def cmd_measured(paths):
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for bank, entries in doc.items():
            for e in entries:
                print(bank.lower(), e.get("phase") or "stub", e["hash"].lower())


def load_uki(path, profile=None):
    with open(path) as f:
        doc = json.load(f)
    uki = doc.get("uki") if isinstance(doc, dict) else None
    if profile is None or not isinstance(uki, dict):
        return uki
    profiles = uki.get("profiles") or []
    return profiles[profile] if profile < len(profiles) else None


def cmd_predicted(path, profile=None):
    uki = load_uki(path, profile)
    if not isinstance(uki, dict):
        return 3
    for bank, phases in (uki.get("pcr11") or {}).items():
        for phase, value in phases.items():
            print(bank.lower(), phase, value)
    return 0


def cmd_uki(path, field, profile=None):
    uki = load_uki(path, profile)
    if not isinstance(uki, dict):
        return 3
    v = uki.get(field)
    if isinstance(v, bool):
        print("true" if v else "false")
    elif v is None:
        print("null")
    elif isinstance(v, list):
        print(" ".join(x if isinstance(x, str) else json.dumps(x, sort_keys=True) for x in v))
    else:
        print(v if isinstance(v, str) else json.dumps(v, sort_keys=True))
    return 0


def cmd_dtb(out, compatible):
    import struct

    # the header (40 bytes), an empty reservation map (16), the structure block, the strings
    value = compatible.encode("ascii") + b"\0"
    value += b"\0" * (-len(value) % 4)
    structure = struct.pack(">II", 1, 0)  # FDT_BEGIN_NODE, the root's empty name
    structure += struct.pack(">III", 3, len(compatible) + 1, 0) + value  # FDT_PROP "compatible"
    structure += struct.pack(">II", 2, 9)  # FDT_END_NODE, FDT_END
    strings = b"compatible\0"
    at = 56 + len(structure)
    total = at + len(strings)
    header = struct.pack(">10I", 0xD00DFEED, total, 56, at, 40, 17, 16, 0, len(strings), len(structure))
    with open(out, "wb") as f:
        f.write(header + b"\0" * 16 + structure + strings)


# TCG PC Client Platform Firmware Profile: algorithm ids and event types
ALGS = {0x0004: "sha1", 0x000B: "sha256", 0x000C: "sha384", 0x000D: "sha512", 0x0012: "sm3_256"}
EVENT_TYPES = {0x0D: "EV_IPL", 0x06: "EV_EVENT_TAG", 0x03: "EV_NO_ACTION", 0x80000008: "EV_EFI_PLATFORM_FIRMWARE_BLOB"}


def describe(data):
    """An event's data as text: UTF-16LE or ASCII up to the first NUL, else hex."""
    if len(data) >= 4 and len(data) % 2 == 0 and all(b == 0 for b in data[1::2][:-1]):
        text = data.decode("utf-16-le", "replace").split("\0")[0]
    else:
        text = data.split(b"\0")[0].decode("ascii", "replace")
    if text and all(32 <= ord(c) < 127 for c in text):
        return text
    return data[:32].hex()


def parse_eventlog(raw):
    """Yield (pcr, type, {bank: digest}, data) of a crypto-agile TCG2 log."""
    u32 = lambda o: int.from_bytes(raw[o:o + 4], "little")
    u16 = lambda o: int.from_bytes(raw[o:o + 2], "little")
    # the first event has the SHA-1 layout and holds the Spec ID event
    size = u32(28)
    spec = raw[32:32 + size]
    if not spec.startswith(b"Spec ID Event03"):
        raise ValueError("not a crypto-agile (TCG2) event log")
    nalg = int.from_bytes(spec[24:28], "little")
    sizes = {}
    for i in range(nalg):
        o = 28 + 4 * i
        sizes[int.from_bytes(spec[o:o + 2], "little")] = int.from_bytes(spec[o + 2:o + 4], "little")
    off = 32 + size
    while off + 12 <= len(raw):
        pcr, etype, count = u32(off), u32(off + 4), u32(off + 8)
        if etype == 0 and count == 0 and pcr == 0:
            break  # the zero padding after the last event
        o = off + 12
        digests = {}
        for _ in range(count):
            alg = u16(o)
            n = sizes[alg]
            digests[ALGS.get(alg, hex(alg))] = raw[o + 2:o + 2 + n]
            o += 2 + n
        dlen = u32(o)
        data = raw[o + 4:o + 4 + dlen]
        off = o + 4 + dlen
        yield pcr, etype, digests, data


def cmd_eventlog(path, pcr):
    hexdata = []
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("eventlog "):
                hexdata.append(line.split(None, 1)[1].strip())
    if not hexdata:
        print("no event log")
        return 1
    raw = bytes.fromhex("".join(hexdata))
    replay = {}
    hashes = {"sha1": hashlib.sha1, "sha256": hashlib.sha256, "sha384": hashlib.sha384, "sha512": hashlib.sha512}
    for p, etype, digests, data in parse_eventlog(raw):
        if p != pcr or etype == 0x03:
            continue
        print("event", EVENT_TYPES.get(etype, hex(etype)), digests.get("sha256", b"").hex(), describe(data))
        for bank, d in digests.items():
            if bank in hashes:
                old = replay.get(bank, bytes(len(d)))
                replay[bank] = hashes[bank](old + d).digest()
    for bank in sorted(replay):
        print("replay", bank, replay[bank].hex())
    return 0


def profile_arg(argv, i):
    """argv[i] as a profile number, None when there is none."""
    return int(argv[i]) if len(argv) > i else None


def main(argv):
    if len(argv) in (4, 5) and argv[1] == "sections":
        cmd_sections(argv[2], argv[3], profile_arg(argv, 4))
        return 0
    if len(argv) == 3 and argv[1] == "names":
        cmd_names(argv[2])
        return 0
    if len(argv) == 4 and argv[1] == "section":
        return cmd_section(argv[2], argv[3])
    if len(argv) >= 3 and argv[1] == "measured":
        cmd_measured(argv[2:])
        return 0
    if len(argv) in (3, 4) and argv[1] == "predicted":
        return cmd_predicted(argv[2], profile_arg(argv, 3))
    if len(argv) in (4, 5) and argv[1] == "uki":
        return cmd_uki(argv[2], argv[3], profile_arg(argv, 4))
    if len(argv) == 4 and argv[1] == "dtb":
        cmd_dtb(argv[2], argv[3])
        return 0
    if len(argv) == 4 and argv[1] == "eventlog":
        return cmd_eventlog(argv[2], int(argv[3]))
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
