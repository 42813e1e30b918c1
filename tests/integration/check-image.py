#!/usr/bin/python3
"""Check the PE/COFF layout invariants of an image edited by sbat-add.

usage: check-image.py [--csv FILE] [--quiet] INPUT OUTPUT
       check-image.py --info IMAGE
       check-image.py --extract IMAGE

INPUT is the image given to sbat-add, OUTPUT the image it wrote. The mode
(insert or replace) follows from whether INPUT already has a `.sbat`
section; a signed INPUT is expected to have been stripped.

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

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as handle:
            self.data = handle.read()
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


def pefile_warnings(path):
    pe = pefile.PE(path, fast_load=True)
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


def run_checks(inp, out, expected_csv, rep):
    mode = "replace" if inp.sbat_sections() else "insert"
    stripped = inp.cert_size != 0
    rep.info("mode", "%s; input %s %s bytes, %d sections; output %s bytes, %d sections; kind %s%s" % (
        mode, inp.path, hx(len(inp.data)), inp.nsec, hx(len(out.data)), out.nsec, inp.kind,
        "; signature stripped" if stripped else ""))

    # pefile must parse the output without new complaints.
    try:
        secs_in, warn_in = pefile_warnings(inp.path)
        secs_out, warn_out = pefile_warnings(out.path)
        mine = [(s.name, s.va, s.vsize, s.rawptr, s.rawsize) for s in out.sections]
        new_warn = [w for w in warn_out if w not in warn_in]
        rep.check("pefile", secs_out == mine and not new_warn,
                  "parses %d sections%s; %d warnings (%d new)%s" % (
                      len(secs_out), "" if secs_out == mine else " (DIFFERENT from raw parse)",
                      len(warn_out), len(new_warn), (": " + " | ".join(new_warn)) if new_warn else ""))
    except pefile.PEFormatError as exc:
        rep.check("pefile", False, "pefile cannot parse the output: %s" % exc)

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
        elif inp.kind in ("arm64", "riscv") and old_slot == ARM64_NOP * (SECTION_HEADER_SIZE // 4):
            # arm64 efi-header.S pads its code-section header with
            # `.balign`, which fills with NOP instructions; never executed.
            what, free = "arm64 NOP padding (d503201f)", True
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
        if out.symptr == 0 and inp.symptr and inp.symptr >= max(s.raw_end() for s in inp.sections):
            data_end_in = min(data_end_in, inp.symptr)
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
    elif out.symptr:
        ok = out.symptr + 18 * out.nsyms <= len(out.data)
        rep.check("symbol-table", ok and out.symptr == inp.symptr, "PointerToSymbolTable %s kept, %d symbols" % (
            hx(out.symptr), out.nsyms))

    if mode == "insert":
        grow = out.fields["SizeOfInitializedData"][1] - inp.fields["SizeOfInitializedData"][1]
        rep.info("size-of-initialized-data", "%s -> %s (%+d)" % (
            hx(inp.fields["SizeOfInitializedData"][1]), hx(out.fields["SizeOfInitializedData"][1]), grow))

    want_sum = pe_checksum(out.data, out.fields["CheckSum"][0])
    if out.checksum == 0:
        rep.check("checksum", True, "CheckSum 0 (input %s)" % hx(inp.checksum))
    else:
        rep.check("checksum", out.checksum == want_sum, "CheckSum %s, computed %s (input %s)" % (
            hx(out.checksum), hx(want_sum), hx(inp.checksum)))

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
        run_checks(inp, out, expected, rep)
    except (struct.error, IndexError, ValueError) as exc:
        rep.check("internal", False, "checker crashed on the output: %r" % exc)
    print("check-image: %d passed, %d failed (%s)" % (rep.passed, rep.failed, args.output))
    return 1 if rep.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
