#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
"""Check the PE/COFF layout invariants of an image edited by sbat-add.

usage: check-image.py [--csv FILE] [--quiet] INPUT OUTPUT
       check-image.py --relocated [--csv FILE] [--quiet] INPUT OUTPUT
       check-image.py --removed [--quiet] INPUT OUTPUT
       check-image.py --same-but-checksum [--quiet] INPUT OUTPUT
       check-image.py --restored [--quiet] INPUT OUTPUT
       check-image.py --json LIST
       check-image.py --info IMAGE
       check-image.py --extract IMAGE

INPUT is the image given to sbat-add, OUTPUT the image it wrote. The mode
(insert or replace) follows from whether INPUT already has a `.sbat`
section; a signed INPUT is expected to have been stripped.

--relocated: OUTPUT is INPUT after --relocate. The old `.sbat` header must
keep every field but its name (now `.oldsbat`), its data must be zeroed,
and everything else is checked as an insert into INPUT with that section
retired: the new `.sbat` is last, at the aligned end of the highest section.

--removed: OUTPUT is INPUT after --remove. A `.sbat` that is last in the
table, the file and memory must be gone with its data and the NUL gap
before it, later file offsets adjusted, the freed header slot filler; any
other `.sbat` must be retired in place (file size unchanged).

--same-but-checksum: OUTPUT equals INPUT except a CheckSum that is 0 or
correct (an image taken back to its unsigned form).

--restored: OUTPUT is INPUT after an insert and --remove: identical except
a CheckSum that is 0 or correct and, only where INPUT's SizeOfImage was not
a multiple of SectionAlignment, SizeOfImage rounded up to one.

--json LIST: each line of LIST names, tab-separated, an IMAGE, its
`--print --json` output, its `--print` output, the `--print` exit status
and objdump's section count; the JSON must parse and agree with the raw
parse, pefile, objdump and `--print`.

One line per check is printed: "PASS name: details", "FAIL name: details"
or "INFO name: details". Exit status: 0 when nothing failed, 1 when a check
failed, 2 on usage errors or unreadable files.

Deviations that already exist in INPUT (for example section VAs that are
not adjacent in an objcopy-built EFI program) are reported as "inherited"
and do not fail: sbat-add must keep every existing byte as it was.
"""

import argparse
import struct
import sys

try:
    import pefile
except ImportError:  # pragma: no cover - reported to the caller
    sys.stderr.write("check-image.py: python3-pefile is required\n")
    sys.exit(2)

SBAT_NAME = b".sbat\0\0\0"
SBAT_FLAGS = 0x40000040
ARM64_NOP = struct.pack("<I", 0xD503201F)
RISCV_NOP = struct.pack("<I", 0x00000013)   # addi x0, x0, 0
# Machine -> the NOP that `.balign` in a code section pads header space with
HEADER_NOPS = {0xAA64: ("arm64", ARM64_NOP), 0x5064: ("riscv64", RISCV_NOP), 0x5032: ("riscv32", RISCV_NOP)}
SECTION_HEADER_SIZE = 40


def align_up(value, alignment):
    if alignment <= 1:
        return value
    return (value + alignment - 1) // alignment * alignment


def hx(value):
    return "%#x" % value


# ---------------------------------------------------------------- parsing


class Section:
    FIELDS = ("VirtualSize", "VirtualAddress", "SizeOfRawData", "PointerToRawData",
              "PointerToRelocations", "PointerToLinenumbers", "NumberOfRelocations",
              "NumberOfLinenumbers", "Characteristics")

    def __init__(self, index, offset, raw):
        self.index = index
        self.offset = offset
        self.raw = raw
        self.name = raw[:8]
        (self.vsize, self.va, self.rawsize, self.rawptr, self.relptr, self.lineptr,
         self.nrel, self.nline, self.flags) = struct.unpack_from("<IIIIIIHHI", raw, 8)

    @property
    def label(self):
        return self.name.rstrip(b"\0").decode("ascii", "replace") or "#%d" % self.index

    def mem_size(self):
        """Size the loader maps: VirtualSize, or SizeOfRawData when it is 0."""
        return self.vsize if self.vsize else self.rawsize

    def va_end(self):
        return self.va + self.mem_size()

    def raw_end(self):
        return self.rawptr + self.rawsize


class Image:
    """A minimal, strict PE/COFF view with the absolute offset of each field."""

    def __init__(self, path, data=None):
        self.path = path
        if data is None:
            with open(path, "rb") as handle:
                data = handle.read()
        self.data = bytes(data)
        d = self.data
        if len(d) < 0x40 or d[:2] != b"MZ":
            raise ValueError("%s: no MZ header" % path)
        self.e_lfanew = struct.unpack_from("<I", d, 0x3C)[0]
        if d[self.e_lfanew:self.e_lfanew + 4] != b"PE\0\0":
            raise ValueError("%s: no PE signature at %#x" % (path, self.e_lfanew))
        self.coff = self.e_lfanew + 4
        (self.machine, self.nsec, self.timestamp, self.symptr, self.nsyms, self.opt_size,
         self.characteristics) = struct.unpack_from("<HHIIIHH", d, self.coff)
        self.opt = self.coff + 20
        self.magic = struct.unpack_from("<H", d, self.opt)[0]
        if self.magic not in (0x10B, 0x20B):
            raise ValueError("%s: unknown optional header magic %#x" % (path, self.magic))
        self.pe32plus = self.magic == 0x20B
        self.fields = self._optional_fields()
        self.sho = self.opt + self.opt_size
        self.sections = []
        for i in range(self.nsec):
            off = self.sho + SECTION_HEADER_SIZE * i
            raw = d[off:off + SECTION_HEADER_SIZE]
            if len(raw) != SECTION_HEADER_SIZE:
                raise ValueError("%s: section table runs past EOF" % path)
            self.sections.append(Section(i, off, raw))
        self.sa = self.fields["SectionAlignment"][1]
        self.fa = self.fields["FileAlignment"][1]
        self.soh = self.fields["SizeOfHeaders"][1]
        self.soi = self.fields["SizeOfImage"][1]
        self.checksum = self.fields["CheckSum"][1]
        self.cert_off, self.cert_size = self.directory(4)
        self.kind = self._kind()

    def _optional_fields(self):
        """name -> (absolute offset, value, size) for the optional header."""
        layout = [("Magic", 0, 2), ("MajorLinkerVersion", 2, 1), ("MinorLinkerVersion", 3, 1),
                  ("SizeOfCode", 4, 4), ("SizeOfInitializedData", 8, 4),
                  ("SizeOfUninitializedData", 12, 4), ("AddressOfEntryPoint", 16, 4),
                  ("BaseOfCode", 20, 4)]
        if self.pe32plus:
            layout += [("ImageBase", 24, 8)]
        else:
            layout += [("BaseOfData", 24, 4), ("ImageBase", 28, 4)]
        layout += [("SectionAlignment", 32, 4), ("FileAlignment", 36, 4),
                   ("MajorOperatingSystemVersion", 40, 2), ("MinorOperatingSystemVersion", 42, 2),
                   ("MajorImageVersion", 44, 2), ("MinorImageVersion", 46, 2),
                   ("MajorSubsystemVersion", 48, 2), ("MinorSubsystemVersion", 50, 2),
                   ("Win32VersionValue", 52, 4), ("SizeOfImage", 56, 4), ("SizeOfHeaders", 60, 4),
                   ("CheckSum", 64, 4), ("Subsystem", 68, 2), ("DllCharacteristics", 70, 2)]
        w = 8 if self.pe32plus else 4
        base = 72
        for name in ("SizeOfStackReserve", "SizeOfStackCommit", "SizeOfHeapReserve",
                     "SizeOfHeapCommit"):
            layout.append((name, base, w))
            base += w
        layout += [("LoaderFlags", base, 4), ("NumberOfRvaAndSizes", base + 4, 4)]
        self.dd_base = self.opt + base + 8
        fmt = {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}
        out = {}
        for name, rel, size in layout:
            off = self.opt + rel
            out[name] = (off, struct.unpack_from(fmt[size], self.data, off)[0], size)
        ndirs = out["NumberOfRvaAndSizes"][1]
        self.ndirs = min(ndirs, 16)
        for i in range(self.ndirs):
            off = self.dd_base + 8 * i
            if off + 8 > self.opt + self.opt_size:
                break
            out["DataDirectory[%d].VirtualAddress" % i] = (off, struct.unpack_from("<I", self.data, off)[0], 4)
            out["DataDirectory[%d].Size" % i] = (off + 4, struct.unpack_from("<I", self.data, off + 4)[0], 4)
        # COFF header fields
        coff = [("Machine", 0, 2), ("NumberOfSections", 2, 2), ("TimeDateStamp", 4, 4),
                ("PointerToSymbolTable", 8, 4), ("NumberOfSymbols", 12, 4),
                ("SizeOfOptionalHeader", 16, 2), ("Characteristics", 18, 2)]
        for name, rel, size in coff:
            off = self.coff + rel
            out["COFF." + name] = (off, struct.unpack_from(fmt[size], self.data, off)[0], size)
        out["e_lfanew"] = (0x3C, self.e_lfanew, 4)
        return out

    def directory(self, index):
        if index >= self.ndirs:
            return 0, 0
        return struct.unpack_from("<II", self.data, self.dd_base + 8 * index)

    def _kind(self):
        d = self.data
        if len(d) > 0x206 and d[0x202:0x206] == b"HdrS":
            return "bzimage"
        if d[4:8] == b"zimg":
            return "zboot"
        if d[0x38:0x3C] == b"ARM\x64":
            return "arm64"
        if d[0x38:0x3C] == b"RSC\x05":
            return "riscv"
        return "efi"

    def sbat_sections(self):
        return [s for s in self.sections if s.name == SBAT_NAME]

    def data_end(self):
        """End of section data and trailing bytes, without a certificate table at EOF."""
        end = len(self.data)
        if self.cert_size and self.cert_off + self.cert_size == end:
            end = self.cert_off
        return end


def header_nop_padding(img, offset, chunk):
    """How chunk (at file offset `offset` of img) is NOP padding, or None.

    arm64 and riscv images (by Machine, kernel or not: efi-header.S,
    gnu-efi's hand-written header) pad their headers with `.balign` in a
    code section, which writes the architecture's NOP. Never executed when
    the entry point lies past the headers. Only whole aligned instructions
    inside SizeOfHeaders and before any section's raw data count.
    """
    arch = HEADER_NOPS.get(img.fields["COFF.Machine"][1])
    if arch is None or not chunk or offset % 4 or len(chunk) % 4:
        return None
    end = offset + len(chunk)
    raw = [s.rawptr for s in img.sections if s.rawsize]
    if end > img.soh or (raw and end > min(raw)) or img.fields["AddressOfEntryPoint"][1] < img.soh:
        return None
    if chunk != arch[1] * (len(chunk) // 4):
        return None
    return "%s NOP padding (%s) inside the headers" % (arch[0], arch[1][::-1].hex())


def pe_checksum(data, checksum_offset):
    """PE CheckSum (the sbsigntools/post-process-pe algorithm, odd byte zero-extended)."""
    total = 0
    buf = bytearray(data)
    buf[checksum_offset:checksum_offset + 4] = b"\0\0\0\0"
    if len(buf) % 2:
        buf.append(0)
    for (word,) in struct.iter_unpack("<H", bytes(buf)):
        total += word
        total = (total & 0xFFFF) + (total >> 16)
    total = (total & 0xFFFF) + (total >> 16)
    return (total + len(data)) & 0xFFFFFFFF


# ----------------------------------------------------------------- checks


class Report:
    def __init__(self, quiet=False):
        self.passed = 0
        self.failed = 0
        self.quiet = quiet

    def check(self, name, ok, detail):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        if not ok or not self.quiet:
            print("%s %s: %s" % ("PASS" if ok else "FAIL", name, detail))

    def info(self, name, detail):
        if not self.quiet:
            print("INFO %s: %s" % (name, detail))


def pefile_warnings(img):
    pe = pefile.PE(data=img.data, fast_load=True)
    pe.parse_data_directories(directories=[
        pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_BASERELOC"],
        pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_DEBUG"],
        pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_SECURITY"],
    ])
    sections = [(s.Name, s.VirtualAddress, s.Misc_VirtualSize, s.PointerToRawData, s.SizeOfRawData)
                for s in pe.sections]
    warnings = list(pe.get_warnings())
    pe.close()
    return sections, warnings


def sid(s):
    """Identity of a section across input and output: its index and name (its header may change)."""
    return (s.index, s.name)


def va_problems(img):
    """(pair, message) for every VA ordering/adjacency problem of img."""
    out = []
    for prev, cur in zip(img.sections, img.sections[1:]):
        want = align_up(prev.va_end(), img.sa)
        if cur.va < prev.va_end():
            out.append((("overlap", sid(prev), sid(cur)), "%s VA %s overlaps/precedes end of %s (%s)" % (
                cur.label, hx(cur.va), prev.label, hx(prev.va_end()))))
        elif cur.va != want:
            out.append((("gap", sid(prev), sid(cur)), "%s VA %s != align_up(%s end %s, %s) = %s" % (
                cur.label, hx(cur.va), prev.label, hx(prev.va_end()), hx(img.sa), hx(want))))
    for s in img.sections:
        if img.sa and s.va % img.sa:
            out.append((("va-align", sid(s)), "%s VA %s not a multiple of SectionAlignment %s" % (
                s.label, hx(s.va), hx(img.sa))))
    return out


def raw_problems(img):
    out = []
    with_raw = [s for s in img.sections if s.rawsize]
    for prev, cur in zip(with_raw, with_raw[1:]):
        if cur.rawptr < prev.raw_end():
            out.append((("raw-order", sid(prev), sid(cur)), "%s raw %s starts before end of %s raw %s" % (
                cur.label, hx(cur.rawptr), prev.label, hx(prev.raw_end()))))
    for s in with_raw:
        if s.raw_end() > len(img.data):
            out.append((("raw-eof", sid(s)), "%s raw data %s..%s past EOF %s" % (
                s.label, hx(s.rawptr), hx(s.raw_end()), hx(len(img.data)))))
        if s.rawptr < img.soh:
            out.append((("raw-headers", sid(s)), "%s raw data %s inside headers (SizeOfHeaders %s)" % (
                s.label, hx(s.rawptr), hx(img.soh))))
    return out


def loader_problems(img):
    """EDK2 BasePeCoffLib / shim read_header rules (domain notes 2.4, 6.3)."""
    out = []
    n = img.nsec
    if (img.soh - img.sho) // SECTION_HEADER_SIZE < n:
        out.append((("soh",), "(SizeOfHeaders - section table offset)/40 = %d < NumberOfSections %d" % (
            (img.soh - img.sho) // SECTION_HEADER_SIZE, n)))
    if img.soi <= img.sho or (img.soi - img.sho) // SECTION_HEADER_SIZE <= n:
        out.append((("soi-table",), "(SizeOfImage - section table offset)/40 <= NumberOfSections"))
    if img.soi < img.soh:
        out.append((("soi-soh",), "SizeOfImage %s < SizeOfHeaders %s" % (hx(img.soi), hx(img.soh))))
    for s in img.sections:
        if s.rawsize and s.va < img.soh:
            out.append((("va-headers", sid(s)), "%s VA %s < SizeOfHeaders %s" % (s.label, hx(s.va), hx(img.soh))))
        if s.va + s.mem_size() > img.soi:
            out.append((("soi", sid(s)), "%s VA end %s > SizeOfImage %s" % (
                s.label, hx(s.va + s.mem_size()), hx(img.soi))))
    hashed = img.soh + sum(s.rawsize for s in img.sections)
    if hashed > img.data_end():
        out.append((("hash",), "SizeOfHeaders + sum(SizeOfRawData) = %s > file data %s" % (
            hx(hashed), hx(img.data_end()))))
    return out


def report_problems(rep, name, ok_text, problems_in, problems_out):
    """Fail on problems of OUTPUT that INPUT did not already have."""
    old = {key for key, _ in problems_in}
    new = [msg for key, msg in problems_out if key not in old]
    inherited = [msg for key, msg in problems_out if key in old]
    detail = ok_text
    if inherited:
        detail += "; %d inherited from input: %s" % (len(inherited), "; ".join(inherited))
    if new:
        rep.check(name, False, "; ".join(new) + (" (plus %d inherited)" % len(inherited) if inherited else ""))
    else:
        rep.check(name, True, detail)


def merge_ranges(ranges):
    ranges = sorted((a, b) for a, b in ranges if b > a)
    out = []
    for a, b in ranges:
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def compare_outside(a, b, ranges, limit):
    """First differing offset (and count) of a/b below limit outside ranges."""
    diffs = 0
    first = None
    pos = 0
    for lo, hi in merge_ranges(ranges) + [[limit, limit]]:
        lo = min(lo, limit)
        if pos < lo:
            x, y = a[pos:lo], b[pos:lo]
            if x != y:
                for i in range(len(x)):
                    if x[i] != y[i]:
                        diffs += 1
                        if first is None:
                            first = pos + i
        pos = max(pos, hi)
        if pos >= limit:
            break
    return first, diffs


def rva_to_offset(img, rva):
    for sec in img.sections:
        if sec.rawsize and sec.va <= rva < sec.va + sec.rawsize:
            return sec.rawptr + (rva - sec.va)
    if rva < img.soh:
        return rva
    return None


def debug_entries(img):
    """(absolute offset of the entry, SizeOfData, PointerToRawData) per debug entry."""
    rva, size = img.directory(6)
    if not rva or not size:
        return []
    base = rva_to_offset(img, rva)
    if base is None:
        return []
    out = []
    for i in range(size // 28):
        off = base + 28 * i
        if off + 28 > len(img.data):
            break
        size_of_data, _, ptr = struct.unpack_from("<III", img.data, off + 16)
        out.append((off, size_of_data, ptr))
    return out


def debug_pointer_fields(img):
    return [(off + 24, 4) for off, _, _ in debug_entries(img)]


def debug_pointer_fields_abs(img):
    return [(off + 24, off + 28) for off, _, _ in debug_entries(img)]


def check_debug_dir(inp, out, shift, rep):
    """Debug-directory PointerToRawData must follow moved data."""
    ein = debug_entries(inp)
    eout = debug_entries(out)
    if not ein:
        rep.info("debug-directory", "none")
        return
    ok = len(ein) == len(eout)
    bad = []
    for (oi, si, pi), (oo, so, po) in zip(ein, eout):
        want = pi + shift if pi >= inp.soh else pi
        if po != want or si != so or (pi and out.data[po:po + so] != inp.data[pi:pi + si]):
            ok = False
            bad.append("entry at %s: PointerToRawData %s -> %s (want %s)" % (hx(oi), hx(pi), hx(po), hx(want)))
    rep.check("debug-directory", ok, "%d entries%s" % (
        len(ein), ("; " + "; ".join(bad)) if bad else ", file offsets follow the moved data"))


def check_pefile(inp, out, rep):
    """pefile must parse OUTPUT like the raw parse, without warnings INPUT did not get."""
    try:
        secs_in, warn_in = pefile_warnings(inp)
        secs_out, warn_out = pefile_warnings(out)
        mine = [(s.name, s.va, s.vsize, s.rawptr, s.rawsize) for s in out.sections]
        new_warn = [w for w in warn_out if w not in warn_in]
        rep.check("pefile", secs_out == mine and not new_warn,
                  "parses %d sections%s; %d warnings (%d new)%s" % (
                      len(secs_out), "" if secs_out == mine else " (DIFFERENT from raw parse)",
                      len(warn_out), len(new_warn), (": " + " | ".join(new_warn)) if new_warn else ""))
    except pefile.PEFormatError as exc:
        rep.check("pefile", False, "pefile cannot parse the output: %s" % exc)


def check_checksum(inp, out, rep):
    want_sum = pe_checksum(out.data, out.fields["CheckSum"][0])
    if out.checksum == 0:
        rep.check("checksum", True, "CheckSum 0 (input %s)" % hx(inp.checksum))
    else:
        rep.check("checksum", out.checksum == want_sum, "CheckSum %s, computed %s (input %s)" % (
            hx(out.checksum), hx(want_sum), hx(inp.checksum)))


def run_checks(inp, out, expected_csv, rep):
    mode = "replace" if inp.sbat_sections() else "insert"
    stripped = inp.cert_size != 0
    rep.info("mode", "%s; input %s %s bytes, %d sections; output %s bytes, %d sections; kind %s%s" % (
        mode, inp.path, hx(len(inp.data)), inp.nsec, hx(len(out.data)), out.nsec, inp.kind,
        "; signature stripped" if stripped else ""))

    check_pefile(inp, out, rep)

    # ---------------------------------------------------------- .sbat
    sb_out = out.sbat_sections()
    rep.check("sbat-count", len(sb_out) == 1, "%d section(s) named .sbat\\0\\0\\0" % len(sb_out))
    if len(sb_out) != 1:
        return
    sb = sb_out[0]
    sb_in = inp.sbat_sections()[0] if mode == "replace" else None

    # A tool may make header room by moving all file data after the headers
    # by a constant `shift` (SizeOfHeaders grows by the same amount). Allowed
    # only for plain EFI programs whose first VirtualAddress leaves room.
    shift = 0
    first_in = [s for s in inp.sections if s.rawsize]
    if mode == "insert" and out.soh != inp.soh and first_in and out.nsec > first_in[0].index:
        shift = out.sections[first_in[0].index].rawptr - first_in[0].rawptr
    if shift:
        moved_ok = all(out.sections[s.index].rawptr == s.rawptr + shift for s in first_in)
        patched = bytearray(inp.data)
        for off, _, ptr in debug_entries(inp):
            if ptr >= inp.soh:
                struct.pack_into("<I", patched, off + 24, ptr + shift)
        same = all(out.data[out.sections[s.index].rawptr:out.sections[s.index].raw_end()] ==
                   patched[s.rawptr:s.raw_end()] for s in first_in)
        rep.check("data-shift", inp.kind == "efi" and moved_ok and same and shift > 0 and
                  shift % inp.fa == 0 and out.soh == inp.soh + shift,
                  "all section data moved by %s (SizeOfHeaders %s -> %s, FileAlignment %s): "
                  "pointers %s, contents %s%s" % (
                      hx(shift), hx(inp.soh), hx(out.soh), hx(inp.fa),
                      "consistent" if moved_ok else "NOT consistent",
                      "identical" if same else "DIFFER",
                      "" if inp.kind == "efi" else "; NOT ALLOWED for a %s" % inp.kind))
        check_debug_dir(inp, out, shift, rep)

    # Trailing data after the section data that no COFF symbol table pointer
    # names (ELF leftovers behind gnu-efi programs, debug blobs): kept, either
    # where it was with .sbat after it, or moved intact right behind the new
    # or grown .sbat, with debug-directory file offsets into it following.
    sec_end_in = max([s.raw_end() for s in inp.sections if s.rawsize] + [inp.soh])
    sec_end_out = max([s.raw_end() for s in out.sections if s.rawsize] + [out.soh])
    tail_in = inp.data[sec_end_in:inp.data_end()]
    overlay_moved = (bool(tail_in) and not inp.symptr and sb.rawptr < inp.data_end() + shift and
                     sec_end_out != sec_end_in + shift)
    overlay_delta = sec_end_out - sec_end_in if overlay_moved else 0

    if mode == "insert":
        want_n = inp.nsec + 1
        slot = inp.sho + SECTION_HEADER_SIZE * inp.nsec
        rep.check("section-count", out.nsec == want_n and sb.index == inp.nsec,
                  "NumberOfSections %d -> %d, .sbat is #%d (want last, #%d)" % (
                      inp.nsec, out.nsec, sb.index, inp.nsec))
        old_slot = inp.data[slot:slot + SECTION_HEADER_SIZE]
        if shift:
            # only the bytes before the (moved) first section data must be free
            old_slot = old_slot[:max(0, min(s.rawptr for s in first_in) - slot)]
        if old_slot.count(0) == len(old_slot) and shift:
            what, free = "0x00 up to the moved section data (%d bytes)" % len(old_slot), True
        elif old_slot == b"\0" * SECTION_HEADER_SIZE:
            what, free = "all 0x00", True
        elif old_slot == b"\xff" * SECTION_HEADER_SIZE:
            what, free = "all 0xFF", True
        elif header_nop_padding(inp, slot, old_slot) and len(old_slot) == SECTION_HEADER_SIZE:
            what, free = header_nop_padding(inp, slot, old_slot), True
        else:
            what, free = "NOT free: " + old_slot.hex(), False
        rep.check("slot-free", free and sb.offset == slot,
                  "header slot %s..%s was %s in input" % (hx(slot), hx(slot + SECTION_HEADER_SIZE), what))
        limits = [("SizeOfHeaders", out.soh)]
        raw_ptrs = [s.rawptr + shift for s in inp.sections if s.rawsize]
        if raw_ptrs:
            limits.append(("lowest PointerToRawData", min(raw_ptrs)))
        if inp.sections:
            limits.append(("lowest VirtualAddress", min(s.va for s in inp.sections)))
        if inp.kind == "bzimage":
            limits.append(("bzImage setup header 0x1ef", 0x1EF))
        end = slot + SECTION_HEADER_SIZE
        bad = ["%s %s" % (n, hx(v)) for n, v in limits if end > v]
        rep.check("slot-room", not bad, "new header ends at %s; limits %s%s" % (
            hx(end), ", ".join("%s %s" % (n, hx(v)) for n, v in limits),
            ("; EXCEEDS " + ", ".join(bad)) if bad else ""))
        if shift:
            prev_hdrs_same = all(
                o.raw[:20] == i.raw[:20] and o.raw[24:] == i.raw[24:] and
                o.rawptr == (i.rawptr + shift if i.rawsize else i.rawptr)
                for i, o in zip(inp.sections, out.sections))
            rep.check("old-headers", prev_hdrs_same, "the %d existing section headers are %s" % (
                inp.nsec, "identical except PointerToRawData + %s" % hx(shift) if prev_hdrs_same
                else "MODIFIED beyond the PointerToRawData shift"))
        else:
            prev_hdrs_same = out.data[inp.sho:slot] == inp.data[inp.sho:slot]
            rep.check("old-headers", prev_hdrs_same, "the %d existing section headers are %s" % (
                inp.nsec, "byte-identical" if prev_hdrs_same else "MODIFIED"))
    else:
        same_pos = sb.index == sb_in.index and out.nsec == inp.nsec
        rep.check("section-count", same_pos, "NumberOfSections %d -> %d, .sbat #%d -> #%d" % (
            inp.nsec, out.nsec, sb_in.index, sb.index))
        kept = (sb.va == sb_in.va and sb.rawptr == sb_in.rawptr and sb.flags == sb_in.flags
                and sb.relptr == sb_in.relptr and sb.nrel == sb_in.nrel)
        rep.check("sbat-header-kept", kept, "VA %s->%s PointerToRawData %s->%s Characteristics %s->%s" % (
            hx(sb_in.va), hx(sb.va), hx(sb_in.rawptr), hx(sb.rawptr), hx(sb_in.flags), hx(sb.flags)))
        grew = sb.rawsize > sb_in.rawsize or sb.vsize > max(sb_in.vsize, sb_in.rawsize)
        if grew:
            last_file = all(s.raw_end() <= sb_in.raw_end() for s in inp.sections if s.rawsize)
            last_va = all(s.va <= sb_in.va for s in inp.sections)
            rep.check("sbat-grow", last_file and last_va,
                      "grew raw %s->%s; .sbat %s last in file and VA" % (
                          hx(sb_in.rawsize), hx(sb.rawsize), "is" if last_file and last_va else "is NOT"))
        for i, (a, b) in enumerate(zip(inp.sections, out.sections)):
            if i != sb.index and a.raw != b.raw:
                rep.check("old-headers", False, "section header #%d (%s) changed" % (i, a.label))
                break
        else:
            rep.check("old-headers", True, "all other %d section headers byte-identical" % (inp.nsec - 1))

    # .sbat header fields
    inherited_vs = mode == "replace" and sb_in.vsize != sb_in.rawsize
    nxt = [s.va for s in out.sections if s.va > sb.va]
    if sb.vsize == sb.rawsize and sb.vsize:
        rep.check("sbat-sizes", True, "VirtualSize == SizeOfRawData == %s" % hx(sb.rawsize))
    elif inherited_vs and sb.vsize == sb_in.vsize and sb.rawsize == sb_in.rawsize:
        rep.check("sbat-sizes", True, "VirtualSize %s, SizeOfRawData %s kept from input (inherited, unequal)" % (
            hx(sb.vsize), hx(sb.rawsize)))
    elif inherited_vs and 0 < sb.vsize <= sb.rawsize and (not nxt or sb.va + sb.vsize <= min(nxt)):
        rep.check("sbat-sizes", True, "VirtualSize %s -> %s, SizeOfRawData %s (input unequal; no overlap with next VA %s)" % (
            hx(sb_in.vsize), hx(sb.vsize), hx(sb.rawsize), hx(min(nxt)) if nxt else "-"))
    else:
        rep.check("sbat-sizes", False, "VirtualSize %s != SizeOfRawData %s" % (hx(sb.vsize), hx(sb.rawsize)))
    rep.check("sbat-relocs", sb.relptr == 0 and sb.nrel == 0 and sb.lineptr == 0 and sb.nline == 0,
              "PointerToRelocations %s NumberOfRelocations %d PointerToLinenumbers %s NumberOfLinenumbers %d" % (
                  hx(sb.relptr), sb.nrel, hx(sb.lineptr), sb.nline))
    if mode == "insert":
        rep.check("sbat-flags", sb.flags == SBAT_FLAGS, "Characteristics %s (want %s)" % (
            hx(sb.flags), hx(SBAT_FLAGS)))
        want_va = align_up(max(s.va_end() for s in inp.sections), inp.sa)
        rep.check("sbat-va", sb.va == want_va, "VirtualAddress %s, want align_up(max end %s, %s) = %s" % (
            hx(sb.va), hx(max(s.va_end() for s in inp.sections)), hx(inp.sa), hx(want_va)))
        data_end_in = inp.data_end()
        if out.symptr != inp.symptr and inp.symptr and inp.symptr >= max(s.raw_end() for s in inp.sections):
            # a symbol table after the section data was stripped, or moved
            # behind the new .sbat data
            data_end_in = min(data_end_in, inp.symptr)
        if overlay_moved:
            data_end_in = sec_end_in
        data_end_in += shift
        want_ptr = align_up(data_end_in, inp.fa)
        rep.check("sbat-rawptr", sb.rawptr == want_ptr and sb.rawptr % inp.fa == 0,
                  "PointerToRawData %s, want align_up(data end %s, FileAlignment %s) = %s" % (
                      hx(sb.rawptr), hx(data_end_in), hx(inp.fa), hx(want_ptr)))
        gap = out.data[data_end_in:sb.rawptr] if sb.rawptr > data_end_in else b""
        if gap:
            rep.check("sbat-gap", gap.count(0) == len(gap), "%d padding bytes before .sbat data are %s" % (
                len(gap), "NUL" if gap.count(0) == len(gap) else "NOT all NUL"))
    rep.check("sbat-alignment", (sb.rawsize % out.fa == 0 or (mode == "replace" and sb.rawsize == sb_in.rawsize))
              and sb.rawptr % out.fa == 0,
              "SizeOfRawData %s, PointerToRawData %s, FileAlignment %s" % (
                  hx(sb.rawsize), hx(sb.rawptr), hx(out.fa)))

    # .sbat contents
    blob = out.data[sb.rawptr:sb.raw_end()]
    nul = blob.find(b"\0")
    csv = blob if nul < 0 else blob[:nul]
    pad = b"" if nul < 0 else blob[nul:]
    rep.check("sbat-padding", nul >= 0 and pad.count(0) == len(pad),
              "CSV %d bytes, then %d padding bytes%s" % (
                  len(csv), len(pad), "" if nul >= 0 and pad.count(0) == len(pad) else
                  " NOT all NUL" if nul >= 0 else " (no NUL terminator in SizeOfRawData)"))
    text_ok = all(c in (0x0A,) or 0x20 <= c < 0x7F for c in csv) and csv.endswith(b"\n")
    rows = [r for r in csv.split(b"\n") if r]
    rows_ok = bool(rows) and all(len(r.split(b",")) >= 6 and all(r.split(b",")[:6]) for r in rows) \
        and rows[0].startswith(b"sbat,")
    rep.check("sbat-csv", text_ok and rows_ok, "%d rows, printable ASCII + LF: %s, first row sbat: %s" % (
        len(rows), text_ok, rows[0].startswith(b"sbat,") if rows else False))
    if expected_csv is not None:
        rep.check("sbat-content", csv == expected_csv, "CSV %s the expected %d bytes" % (
            "matches" if csv == expected_csv else "DIFFERS from", len(expected_csv)))
    rep.check("sbat-in-vsize", len(csv) <= sb.vsize, "CSV length %s <= VirtualSize %s" % (
        hx(len(csv)), hx(sb.vsize)))

    # ----------------------------------------------------------- layout
    report_problems(rep, "va-layout", "%d sections ascending, adjacent (align_up(prev end, %s))" % (
        out.nsec, hx(out.sa)), va_problems(inp), va_problems(out))
    report_problems(rep, "raw-layout", "raw data in table order, no overlap, inside file (%s bytes)" % hx(
        len(out.data)), raw_problems(inp), raw_problems(out))
    report_problems(rep, "loader-rules", "EDK2/shim header rules hold", loader_problems(inp),
                    loader_problems(out))

    last_end = max(s.va_end() for s in out.sections)
    want_soi = align_up(last_end, out.sa)
    soi_ok = out.soi == want_soi or (out.soi == inp.soi and inp.soi >= last_end)
    rep.check("size-of-image", soi_ok and out.soi >= inp.soi,
              "SizeOfImage %s -> %s; end of last section %s, aligned %s" % (
                  hx(inp.soi), hx(out.soi), hx(last_end), hx(want_soi)))

    # --------------------------------------------------- header fields
    allowed = {"COFF.NumberOfSections", "SizeOfImage", "SizeOfInitializedData", "CheckSum"}
    if stripped:
        allowed |= {"DataDirectory[4].VirtualAddress", "DataDirectory[4].Size"}
    symtab_stripped = inp.symptr != 0 and out.symptr == 0
    symtab_moved = inp.symptr != 0 and out.symptr not in (0, inp.symptr)
    if symtab_stripped:
        allowed |= {"COFF.PointerToSymbolTable", "COFF.NumberOfSymbols", "COFF.Characteristics"}
    if symtab_moved:
        allowed |= {"COFF.PointerToSymbolTable"}
    if shift:
        allowed |= {"SizeOfHeaders"}
    changed = []
    bad = []
    for name, (off, val, size) in inp.fields.items():
        o = out.fields.get(name)
        if o is None or o[1] != val:
            desc = "%s %s->%s" % (name, hx(val), hx(o[1]) if o else "missing")
            changed.append(desc)
            if name not in allowed:
                bad.append(desc)
    rep.check("header-fields", not bad, "changed: %s%s" % (
        ", ".join(changed) or "nothing", ("; NOT ALLOWED: " + ", ".join(bad)) if bad else ""))
    if symtab_stripped:
        rep.info("symbol-table", "COFF symbol table at %s (%d symbols) was stripped" % (
            hx(inp.symptr), inp.nsyms))
    elif symtab_moved:
        # Growing a last .sbat may move trailing data (the COFF symbol and
        # string table) behind it; it must move unchanged, after all sections.
        tail = inp.data[inp.symptr:inp.data_end()]
        moved = out.data[out.symptr:out.symptr + len(tail)]
        after = all(out.symptr >= s.raw_end() for s in out.sections if s.rawsize)
        rep.check("symbol-table", moved == tail and after and out.nsyms == inp.nsyms,
                  "symbol/string table (%s bytes, %d symbols) moved %s -> %s: %s, %s all section data" % (
                      hx(len(tail)), out.nsyms, hx(inp.symptr), hx(out.symptr),
                      "contents identical" if moved == tail else "contents DIFFER",
                      "after" if after else "NOT after"))
    elif overlay_moved:
        moved = out.data[sec_end_out:sec_end_out + len(tail_in)]
        rep.check("overlay", moved == tail_in and len(out.data) >= sec_end_out + len(tail_in),
                  "%s bytes of trailing data moved %s -> %s, right after all section data: contents %s" % (
                      hx(len(tail_in)), hx(sec_end_in), hx(sec_end_out),
                      "identical" if moved == tail_in else "DIFFER"))
        ein = debug_entries(inp)
        eout = debug_entries(out)
        bad = ["entry at %s: PointerToRawData %s -> %s" % (hx(oi), hx(pi), hx(po))
               for (oi, _, pi), (_, _, po) in zip(ein, eout)
               if po != (pi + overlay_delta if sec_end_in <= pi < inp.data_end() else pi)]
        if ein:
            rep.check("debug-directory", len(ein) == len(eout) and not bad, "%d entries%s" % (
                len(ein), ("; " + "; ".join(bad)) if bad else ", file offsets into the trailing data follow it"))
    elif out.symptr:
        ok = out.symptr + 18 * out.nsyms <= len(out.data)
        rep.check("symbol-table", ok and out.symptr == inp.symptr, "PointerToSymbolTable %s kept, %d symbols" % (
            hx(out.symptr), out.nsyms))

    if mode == "insert":
        grow = out.fields["SizeOfInitializedData"][1] - inp.fields["SizeOfInitializedData"][1]
        rep.info("size-of-initialized-data", "%s -> %s (%+d)" % (
            hx(inp.fields["SizeOfInitializedData"][1]), hx(out.fields["SizeOfInitializedData"][1]), grow))

    check_checksum(inp, out, rep)

    # ------------------------------------------------------ signature
    if stripped:
        rep.check("signature-stripped", out.cert_off == 0 and out.cert_size == 0,
                  "certificate table %s+%s removed; dir[4] now %s+%s" % (
                      hx(inp.cert_off), hx(inp.cert_size), hx(out.cert_off), hx(out.cert_size)))
    else:
        rep.check("signature", out.cert_size == 0, "no certificate table (dir[4] %s+%s)" % (
            hx(out.cert_off), hx(out.cert_size)))

    # -------------------------------------------------- byte identity
    ranges = []
    for name in sorted(allowed):
        if name in inp.fields:
            off, _, size = inp.fields[name]
            ranges.append((off, off + size))
    ranges.append((sb.offset, sb.offset + SECTION_HEADER_SIZE))
    ranges.append((sb.rawptr, sb.raw_end()))
    if sb_in is not None:
        ranges.append((sb_in.rawptr, sb_in.raw_end()))
    keep_end = inp.data_end()
    if symtab_stripped or symtab_moved:
        keep_end = min(keep_end, inp.symptr)
    if overlay_moved:
        keep_end = min(keep_end, sec_end_in)
        # debug entries pointing into the moved data are checked above
        ranges.extend(r for r, (_, _, ptr) in zip(debug_pointer_fields_abs(inp), debug_entries(inp))
                      if sec_end_in <= ptr < inp.data_end())
    if shift:
        # headers compare in place (section PointerToRawData fields excepted),
        # everything from the old SizeOfHeaders on compares moved by `shift`
        for sec in inp.sections:
            ranges.append((sec.offset + 20, sec.offset + 24))
        for off, size in debug_pointer_fields(inp):
            ranges.append((off, off + size))
        hdr_end = inp.sho + SECTION_HEADER_SIZE * inp.nsec
        first, ndiff = compare_outside(inp.data, out.data, ranges, hdr_end)
        body_in = inp.data[inp.soh:keep_end]
        body_out = out.data[inp.soh + shift:keep_end + shift]
        body_ranges = [(a - inp.soh, b - inp.soh) for a, b in debug_pointer_fields_abs(inp) if a >= inp.soh]
        f2, n2 = compare_outside(body_in, body_out, body_ranges, len(body_in))
        if f2 is not None:
            ndiff += n2
            first = inp.soh + f2 if first is None else first
        if len(body_out) != len(body_in):
            ndiff += 1
            first = first if first is not None else keep_end
        gap = out.data[hdr_end + SECTION_HEADER_SIZE:out.soh]
        rep.check("header-padding", gap.count(0) == len(gap) or gap == inp.data[hdr_end:hdr_end + len(gap)],
                  "%d bytes between the new header and SizeOfHeaders %s" % (len(gap), hx(out.soh)))
        limit = len(inp.data)
        ranges.append((keep_end + shift, keep_end + shift))
    else:
        limit = min(len(inp.data), len(out.data), keep_end)
        first, ndiff = compare_outside(inp.data, out.data, ranges, limit)
    touched = merge_ranges(ranges + [(keep_end, max(len(out.data), len(inp.data)))])
    rep.check("bytes-identical", first is None and len(out.data) >= keep_end,
              "%s bytes compared%s outside %d changed ranges (%s); %s" % (
                  hx(limit), (" (data after the headers at +%s)" % hx(shift)) if shift else "", len(touched),
                  ", ".join("%s..%s" % (hx(a), hx(b)) for a, b in touched),
                  "all identical" if first is None else "%d bytes differ, first at %s" % (ndiff, hx(first))))

    if inp.kind == "bzimage":
        hdr_end = 0x202 + inp.data[0x201]
        same = inp.data[0x1F1:hdr_end] == out.data[0x1F1:hdr_end]
        rep.check("bzimage-setup-header", same, "bytes 0x1f1..%s %s (setup_sects %d, boot protocol %s)" % (
            hx(hdr_end), "unchanged" if same else "CHANGED", inp.data[0x1F1],
            hx(struct.unpack_from("<H", inp.data, 0x206)[0])))
        same_start = inp.data[:0x3C] == out.data[:0x3C]
        rep.check("bzimage-dos-header", same_start, "bytes 0..0x3c %s" % ("unchanged" if same_start else "CHANGED"))
    elif inp.kind in ("arm64", "riscv", "zboot"):
        same = inp.data[:64] == out.data[:64]
        rep.check("%s-boot-header" % inp.kind, same, "first 64 bytes %s" % ("unchanged" if same else "CHANGED"))


# ------------------------------------------------- relocate, remove, json

RETIRED_NAME = b".oldsbat"


def is_last(img, sec):
    """Is `sec` the last section in the table, in the file and in memory?"""
    others = [s for s in img.sections if s.index != sec.index]
    return (sec.index == img.nsec - 1 and all(s.raw_end() <= sec.raw_end() for s in others if s.rawsize)
            and all(s.va < sec.va for s in others))


def retired(img, sec):
    """IMAGE with section `sec` renamed .oldsbat and its file data zeroed: what
    --relocate and --remove must leave of a .sbat in the middle of the image."""
    data = bytearray(img.data)
    data[sec.offset:sec.offset + 8] = RETIRED_NAME
    data[sec.rawptr:sec.raw_end()] = bytes(sec.rawsize)
    return Image(img.path + " with .sbat retired", data)


def check_retired(sb_in, out, rep):
    """The old .sbat header keeps every field but its name; its data is zeroed."""
    if sb_in.index >= out.nsec:
        rep.check("retired-header", False, "output has no section #%d" % sb_in.index)
        return
    old = out.sections[sb_in.index]
    want = RETIRED_NAME + sb_in.raw[8:]
    rep.check("retired-header", old.raw == want,
              "section #%d is now %r, VA %s VirtualSize %s PointerToRawData %s SizeOfRawData %s "
              "Characteristics %s: %s" % (
                  old.index, old.name.decode("ascii", "replace"), hx(old.va), hx(old.vsize), hx(old.rawptr),
                  hx(old.rawsize), hx(old.flags),
                  "all fields but the name kept" if old.raw == want else
                  "NOT the old header renamed (was %r)" % sb_in.raw[:8].decode("ascii", "replace")))
    blob = out.data[old.rawptr:old.raw_end()]
    rep.check("retired-data", len(blob) == old.rawsize and blob.count(0) == len(blob),
              "%s bytes at %s are %s" % (hx(old.rawsize), hx(old.rawptr),
                                          "all zero" if blob.count(0) == len(blob) else
                                          "NOT zeroed (%d non-zero bytes)" % (len(blob) - blob.count(0))))


def single_sbat(inp, rep):
    sb = inp.sbat_sections()
    if len(sb) != 1:
        rep.check("input-sbat", False, "input has %d .sbat sections, want 1" % len(sb))
        return None
    return sb[0]


def run_relocated(inp, out, expected_csv, rep):
    """--relocate: the old .sbat retired in place, a new .sbat inserted as for an image without one."""
    sb_in = single_sbat(inp, rep)
    if sb_in is None:
        return
    rep.check("relocate-input", not is_last(inp, sb_in), "input .sbat is section #%d of %d, %s" % (
        sb_in.index, inp.nsec, "in the middle of the image" if not is_last(inp, sb_in) else
        "LAST (nothing to relocate: it would grow)"))
    check_retired(sb_in, out, rep)
    # everything else: an insert into the input with the old section retired
    run_checks(retired(inp, sb_in), out, expected_csv, rep)


def compare_bytes(rep, name, want, out, what):
    """OUTPUT must equal the expected bytes `want` (built from INPUT)."""
    got = out.data
    first = None
    ndiff = abs(len(got) - len(want))
    if got != want:
        n = min(len(got), len(want))
        for i in range(n):
            if got[i] != want[i]:
                ndiff += 1
                if first is None:
                    first = i
        if first is None:
            first = n
    rep.check(name, first is None, "%s bytes: %s" % (
        hx(len(got)), what if first is None else
        "%d bytes differ from the expectation (%s), first at %s" % (ndiff, what, hx(first))))


def put(buf, img, field, value, shift=0):
    off, _, size = img.fields[field]
    off += shift
    buf[off:off + size] = value.to_bytes(size, "little")


def run_removed(inp, out, rep):
    """--remove: a last .sbat is taken out (header, data and the NUL gap before
    it); any other .sbat is retired in place like with --relocate."""
    sb = single_sbat(inp, rep)
    if sb is None:
        return
    last = is_last(inp, sb)
    rep.info("mode", "remove; input %s %s bytes, %d sections, .sbat #%d %s; output %s bytes, %d sections" % (
        inp.path, hx(len(inp.data)), inp.nsec, sb.index, "last" if last else "mid-file", hx(len(out.data)),
        out.nsec))
    check_pefile(inp, out, rep)
    rep.check("sbat-count", not out.sbat_sections(), "%d section(s) named .sbat\\0\\0\\0 left" % len(
        out.sbat_sections()))
    others = [s for s in inp.sections if s.index != sb.index]
    if not last:
        rep.check("remove-mode", out.nsec == inp.nsec and len(out.data) == len(inp.data),
                  "mid-file .sbat retired in place: NumberOfSections %d -> %d, file size %s -> %s" % (
                      inp.nsec, out.nsec, hx(len(inp.data)), hx(len(out.data))))
        check_retired(sb, out, rep)
        base = retired(inp, sb)
        want = bytearray(base.data)
        put(want, inp, "CheckSum", out.checksum)
        compare_bytes(rep, "bytes-identical", bytes(want), out,
                      "identical to the input apart from the retired section and the CheckSum")
        report_problems(rep, "va-layout", "%d sections, VA layout as in the input" % out.nsec,
                        va_problems(base), va_problems(out))
        report_problems(rep, "raw-layout", "raw data as in the input", raw_problems(base), raw_problems(out))
        report_problems(rep, "loader-rules", "EDK2/shim header rules hold", loader_problems(base),
                        loader_problems(out))
        check_checksum(inp, out, rep)
        return

    delta = len(inp.data) - len(out.data)
    hi = sb.raw_end()
    lo = hi - delta
    data_end = max([s.raw_end() for s in others if s.rawsize] + [inp.soh])
    gap = inp.data[lo:sb.rawptr] if 0 <= lo <= sb.rawptr else b""
    range_ok = out.nsec == inp.nsec - 1 and data_end <= lo <= sb.rawptr and gap.count(0) == len(gap)
    rep.check("remove-mode", range_ok,
              "last .sbat taken out: NumberOfSections %d -> %d, file %s -> %s bytes; removed %s..%s "
              "(data of the other sections ends at %s, .sbat data at %s, %d NUL gap bytes)" % (
                  inp.nsec, out.nsec, hx(len(inp.data)), hx(len(out.data)), hx(lo), hx(hi), hx(data_end),
                  hx(sb.rawptr), len(gap)))
    if not range_ok:
        return
    slot = out.data[sb.offset:sb.offset + SECTION_HEADER_SIZE]
    if slot in (b"\0" * SECTION_HEADER_SIZE, b"\xff" * SECTION_HEADER_SIZE):
        filler = "all 0x%02x" % slot[0]
    elif header_nop_padding(out, sb.offset, slot):
        filler = header_nop_padding(out, sb.offset, slot)
    else:
        filler = None
    rep.check("slot-filler", filler is not None, "freed header slot %s..%s is %s" % (
        hx(sb.offset), hx(sb.offset + SECTION_HEADER_SIZE), filler or "NOT filler: " + slot.hex()))

    rem_end = max(s.va_end() for s in others)
    soi_ok = out.soi >= rem_end and out.soi in (inp.soi, align_up(rem_end, inp.sa))
    rep.check("size-of-image", soi_ok, "SizeOfImage %s -> %s; remaining sections end at %s (aligned %s)" % (
        hx(inp.soi), hx(out.soi), hx(rem_end), hx(align_up(rem_end, inp.sa))))
    sid_in = inp.fields["SizeOfInitializedData"][1]
    sid_out = out.fields["SizeOfInitializedData"][1]
    rep.check("size-of-initialized-data", sid_out in (sid_in, sid_in - sb.rawsize),
              "%s -> %s (.sbat SizeOfRawData %s)" % (hx(sid_in), hx(sid_out), hx(sb.rawsize)))

    # the expected output: the input without lo..hi, with the counted header
    # fields and every file offset past hi adjusted
    want = bytearray(inp.data[:lo] + inp.data[hi:])
    want[sb.offset:sb.offset + SECTION_HEADER_SIZE] = slot
    put(want, inp, "COFF.NumberOfSections", inp.nsec - 1)
    put(want, inp, "SizeOfImage", out.soi)
    put(want, inp, "SizeOfInitializedData", sid_out)
    put(want, inp, "CheckSum", out.checksum)
    moved = []
    if inp.symptr >= hi:
        put(want, inp, "COFF.PointerToSymbolTable", inp.symptr - delta)
        moved.append("PointerToSymbolTable %s -> %s" % (hx(inp.symptr), hx(inp.symptr - delta)))
    elif inp.symptr > lo:
        rep.check("symbol-table", False, "PointerToSymbolTable %s inside the removed range" % hx(inp.symptr))
    for off, _, ptr in debug_entries(inp):
        at = off if off < lo else off - delta
        if ptr >= hi:
            want[at + 24:at + 28] = (ptr - delta).to_bytes(4, "little")
            moved.append("debug entry PointerToRawData %s -> %s" % (hx(ptr), hx(ptr - delta)))
    if inp.cert_size:
        rep.check("signature", False, "input is signed; removal should have needed --strip-signature")
    compare_bytes(rep, "bytes-identical", bytes(want), out,
                  "the input without %s..%s, header fields as counted%s" % (
                      hx(lo), hx(hi), ("; " + ", ".join(moved)) if moved else ""))
    report_problems(rep, "va-layout", "%d sections ascending, adjacent" % out.nsec, va_problems(inp),
                    va_problems(out))
    report_problems(rep, "raw-layout", "raw data in table order, no overlap, inside file", raw_problems(inp),
                    raw_problems(out))
    report_problems(rep, "loader-rules", "EDK2/shim header rules hold", loader_problems(inp),
                    loader_problems(out))
    check_checksum(inp, out, rep)


def run_same_but_checksum(inp, out, rep):
    """OUTPUT equals INPUT except the CheckSum field, which is 0 or correct."""
    want = bytearray(inp.data)
    if len(want) >= inp.fields["CheckSum"][0] + 4:
        put(want, inp, "CheckSum", out.checksum)
    compare_bytes(rep, "bytes-identical", bytes(want), out, "identical apart from the CheckSum (%s -> %s)" % (
        hx(inp.checksum), hx(out.checksum)))
    check_checksum(inp, out, rep)


def run_restored(inp, out, rep):
    """OUTPUT is INPUT after an insert and a --remove: identical except a
    CheckSum that is 0 or correct and, where INPUT's SizeOfImage was not a
    multiple of SectionAlignment, SizeOfImage rounded up to it (the insert had
    to cover .sbat, so the unaligned value cannot come back)."""
    want = bytearray(inp.data)
    unaligned = inp.soi % inp.sa != 0
    soi_ok = out.soi == inp.soi or (unaligned and out.soi == align_up(inp.soi, inp.sa))
    rep.check("size-of-image", soi_ok, "SizeOfImage %s -> %s (input %s a multiple of SectionAlignment %s)" % (
        hx(inp.soi), hx(out.soi), "NOT" if unaligned else "is", hx(inp.sa)))
    if soi_ok:
        put(want, inp, "SizeOfImage", out.soi)
    put(want, inp, "CheckSum", out.checksum)
    compare_bytes(rep, "bytes-identical", bytes(want), out, "identical apart from SizeOfImage and the CheckSum")
    check_checksum(inp, out, rep)


def json_checks(img, doc, printed, print_rc, objdump_count, rep):
    """What --print --json says about IMAGE must match the raw parse, pefile, objdump and --print."""
    secs = doc.get("sections")
    ok = isinstance(secs, list) and len(secs) == img.nsec
    try:
        pe = pefile.PE(data=img.data, fast_load=True)
        n_pefile = len(pe.sections)
        pe.close()
    except pefile.PEFormatError:
        n_pefile = -1
    rep.check("json-sections", ok and n_pefile == img.nsec and objdump_count in (None, img.nsec),
              "sections: JSON %s, raw parse %d, pefile %d, objdump %s" % (
                  len(secs) if isinstance(secs, list) else "missing", img.nsec, n_pefile,
                  "-" if objdump_count is None else objdump_count))
    bad = []
    if ok:
        for s, j in zip(img.sections, secs):
            mine = {"index": s.index, "name": s.name.rstrip(b"\0").decode("latin-1"), "virtual_address": s.va,
                    "virtual_size": s.vsize, "pointer_to_raw_data": s.rawptr, "size_of_raw_data": s.rawsize,
                    "characteristics": s.flags}
            for k, v in mine.items():
                if j.get(k) != v:
                    bad.append("section #%d %s %r != %r" % (s.index, k, j.get(k), v))
    top = {"file_size": len(img.data), "file_alignment": img.fa, "section_alignment": img.sa,
           "size_of_headers": img.soh, "size_of_image": img.soi, "checksum": img.checksum,
           "section_table_offset": img.sho, "section_table_end": img.sho + SECTION_HEADER_SIZE * img.nsec,
           "machine_type": img.machine}
    for k, v in top.items():
        if doc.get(k) != v:
            bad.append("%s %r != %r" % (k, doc.get(k), v))
    cert = doc.get("certificate_table")
    if img.cert_size:
        if not isinstance(cert, dict) or cert.get("offset") != img.cert_off or cert.get("size") != img.cert_size:
            bad.append("certificate_table %r != %s+%s" % (cert, hx(img.cert_off), hx(img.cert_size)))
    elif cert is not None:
        bad.append("certificate_table %r for an unsigned image" % (cert,))
    rep.check("json-fields", not bad, "every section header and layout field matches the raw parse" if not bad
              else "; ".join(bad[:4]))

    sbs = img.sbat_sections()
    sbat = doc.get("sbat")
    if len(sbs) != 1:
        rep.check("json-sbat", sbat is None and print_rc == 3 and printed == b"",
                  "%d .sbat sections: JSON sbat %s, --print exit %d" % (
                      len(sbs), "null" if sbat is None else "NOT null", print_rc))
        return "%d sections (pefile, objdump agree), sbat null, --print exit 3" % img.nsec
    blob = img.data[sbs[0].rawptr:sbs[0].raw_end()].split(b"\0", 1)[0]
    text = sbat.get("text") if isinstance(sbat, dict) else None
    text_b = text.encode("latin-1") if isinstance(text, str) else None
    same = text_b is not None and text_b == printed == blob
    detail = "sbat.text %s bytes, --print %d bytes (exit %d), .sbat up to NUL %d bytes: %s" % (
        len(text_b) if text_b is not None else "missing", len(printed), print_rc, len(blob),
        "equal" if same else "DIFFERENT")
    rows = [r for r in blob.split(b"\n") if r]
    if same and sbat.get("valid"):
        entries = sbat.get("entries") or []
        got = [(e.get("component_name"), str(e.get("component_generation"))) for e in entries]
        want = [tuple(r.decode("latin-1").split(",")[:2]) for r in rows]
        same = got == want
        detail += "; %d entries %s the CSV rows" % (len(entries), "match" if same else "DO NOT match")
    elif same:
        err = sbat.get("error") or {}
        detail += "; invalid: line %s field %s: %s" % (err.get("line"), err.get("field"), err.get("what"))
    rep.check("json-sbat", same and sbat.get("section") == sbs[0].index and print_rc == 0, detail)
    return "%d sections (pefile, objdump agree), sbat.text %d bytes == --print" % (img.nsec, len(blob))


def run_json(listfile):
    """One line per image: IMAGE JSON PRINT-OUTPUT PRINT-EXIT OBJDUMP-COUNT (tab-separated)."""
    import json
    failed = 0
    with open(listfile) as handle:
        lines = [l.rstrip("\n").split("\t") for l in handle if l.strip()]
    for path, jpath, ppath, prc, ocount in lines:
        rep = Report(quiet=True)
        summary = ""
        try:
            img = Image(path)
            with open(jpath, "rb") as handle:
                try:
                    doc = json.loads(handle.read().decode("utf-8"))
                    rep.check("json-valid", isinstance(doc, dict), "parses as a JSON object")
                except ValueError as exc:
                    doc = None
                    rep.check("json-valid", False, "not valid JSON: %s" % exc)
            with open(ppath, "rb") as handle:
                printed = handle.read()
            if doc is not None:
                summary = json_checks(img, doc, printed, int(prc), int(ocount) if ocount.isdigit() else None, rep)
        except (OSError, ValueError, struct.error) as exc:
            rep.check("json-parse", False, "%s" % exc)
        failed += rep.failed
        if rep.failed:
            print("FAIL json %s: %d of %d checks failed" % (path, rep.failed, rep.passed + rep.failed))
        else:
            print("PASS json %s: valid JSON, %s" % (path, summary))
    return 1 if failed else 0


def info(path):
    """Print shell-readable facts about the .sbat of an image (for run.sh)."""
    img = Image(path)
    sb = img.sbat_sections()
    print("kind=%s" % img.kind)
    print("sections=%d" % img.nsec)
    print("file_alignment=%d" % img.fa)
    print("signed=%d" % (1 if img.cert_size else 0))
    print("sbat_count=%d" % len(sb))
    if len(sb) == 1:
        s = sb[0]
        last_file = all(x.raw_end() <= s.raw_end() for x in img.sections if x.rawsize)
        last_va = all(x.va <= s.va for x in img.sections)
        blob = img.data[s.rawptr:s.raw_end()]
        print("sbat_rawsize=%d" % s.rawsize)
        print("sbat_vsize=%d" % s.vsize)
        print("sbat_last=%d" % (1 if last_file and last_va else 0))
        print("sbat_csv_len=%d" % (blob.find(b"\0") if b"\0" in blob else len(blob)))
    return 0


def extract(path):
    """Write the .sbat CSV of an image (up to the first NUL) to stdout."""
    img = Image(path)
    sb = img.sbat_sections()
    if len(sb) != 1:
        return 3
    blob = img.data[sb[0].rawptr:sb[0].raw_end()]
    sys.stdout.buffer.write(blob.split(b"\0", 1)[0])
    return 0


def main(argv):
    if len(argv) == 2 and argv[0] == "--extract":
        try:
            return extract(argv[1])
        except (OSError, ValueError, struct.error) as exc:
            sys.stderr.write("check-image.py: %s\n" % exc)
            return 2
    if len(argv) == 2 and argv[0] == "--json":
        return run_json(argv[1])
    if len(argv) == 2 and argv[0] == "--info":
        try:
            return info(argv[1])
        except (OSError, ValueError, struct.error) as exc:
            sys.stderr.write("check-image.py: %s\n" % exc)
            return 2
    parser = argparse.ArgumentParser(description="check sbat-add output invariants",
                                     epilog="check-image.py --info IMAGE prints facts about IMAGE's .sbat")
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--csv", help="expected .sbat CSV contents")
    parser.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--relocated", action="store_true",
                      help="OUTPUT is INPUT after --relocate: the old .sbat retired, a new one last")
    mode.add_argument("--removed", action="store_true", help="OUTPUT is INPUT after --remove")
    mode.add_argument("--same-but-checksum", action="store_true",
                      help="OUTPUT equals INPUT apart from a recomputed CheckSum")
    mode.add_argument("--restored", action="store_true",
                      help="OUTPUT is INPUT after an insert and --remove (SizeOfImage may come back aligned)")
    args = parser.parse_args(argv)
    try:
        inp = Image(args.input)
        out = Image(args.output)
        expected = None
        if args.csv:
            with open(args.csv, "rb") as handle:
                expected = handle.read()
    except (OSError, ValueError, struct.error) as exc:
        print("FAIL parse: %s" % exc)
        return 2
    rep = Report(args.quiet)
    try:
        if args.relocated:
            run_relocated(inp, out, expected, rep)
        elif args.removed:
            run_removed(inp, out, rep)
        elif args.same_but_checksum:
            run_same_but_checksum(inp, out, rep)
        elif args.restored:
            run_restored(inp, out, rep)
        else:
            run_checks(inp, out, expected, rep)
    except (struct.error, IndexError, ValueError) as exc:
        rep.check("internal", False, "checker crashed on the output: %r" % exc)
    print("check-image: %d passed, %d failed (%s)" % (rep.passed, rep.failed, args.output))
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
