# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
"""Reshape the certificate table of images signed by sbsign or osslsigncode, for test-sigloaders.

sigtable.py signers IN1 IN2 OUT   IN1 with one SignedData holding IN1's SignerInfo, then IN2's (their
                                  SpcIndirectDataContent must be the same bytes), and both certificate sets
sigtable.py flip-last IN OUT      IN1 with one bit of its last SignerInfo's signature flipped
sigtable.py revision IN OUT       the entry's wRevision 0x0100
sigtable.py extra IN OUT          a second entry of type 0x0001 (X.509), 16 bytes, after the signature
sigtable.py guid IN OUT           the entry as WIN_CERT_TYPE_EFI_GUID, CertType EFI_CERT_TYPE_PKCS7_GUID
sigtable.py unpadded IN OUT       the entry's dwLength one byte past the ContentInfo, not a multiple of 8, and the
                                  table (and the file) ending there
sigtable.py trail8 IN OUT         8 bytes of zeros after the entry, in the table
sigtable.py zero16 IN OUT         16 bytes of zeros after the entry, in the table (an entry of dwLength 0)
sigtable.py empty IN OUT          a second PKCS_SIGNED_DATA entry of dwLength 8 (its header alone), then one as extra
sigtable.py guidshort IN OUT      a second entry of type EFI_GUID, dwLength 24 (its CertType and no signature)
sigtable.py past IN OUT           a second entry whose dwLength (256) runs past the table
sigtable.py mdalg OID IN OUT      the SignedData's digestAlgorithms: one entry, OID (hex, 9 bytes), for its own
sigtable.py mdfirst OID IN OUT    OID (hex) put first in the SignedData's digestAlgorithms, before its own
sigtable.py spcalg OID IN OUT     the SpcIndirectDataContent's DigestInfo OID (SHA-256) made OID (hex, 9 bytes)
"""
import struct
import sys

PKCS7_GUID = bytes.fromhex("9dd2af4adf68ee498aa9347d375665a7")


def der_len(n):
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def tlv(tag, body):
    return bytes([tag]) + der_len(len(body)) + body


def read(buf, pos):
    """(tag, start of the value, end of the element) of the DER element at pos"""
    tag, n = buf[pos], buf[pos + 1]
    pos += 2
    if n & 0x80:
        k = n & 0x7F
        n = int.from_bytes(buf[pos:pos + k], "big")
        pos += k
    return tag, pos, pos + n


def children(buf, start, end):
    out = []
    while start < end:
        tag, v, e = read(buf, start)
        out.append((tag, start, v, e))
        start = e
    return out


def table(img):
    pe = struct.unpack_from("<I", img, 0x3C)[0]
    opt = pe + 24
    magic = struct.unpack_from("<H", img, opt)[0]
    d = opt + (112 if magic == 0x20B else 96) + 4 * 8
    off, size = struct.unpack_from("<II", img, d)
    return d, off, size


def signed_data(img):
    """the ContentInfo's bytes and the SignedData's fields (tag, start, value, end) within them"""
    _, off, _ = table(img)
    length = struct.unpack_from("<I", img, off)[0]
    ci = bytes(img[off + 8:off + length])
    _, v, e = read(ci, 0)
    ci = ci[:e]
    f = children(ci, v, e)  # OID, [0]
    _, v, e = read(ci, f[1][2])  # SignedData
    return ci, children(ci, v, e)


def with_table(img, entries):
    d, off, _ = table(img)
    out = bytearray(img[:off])
    t = b"".join(entries)
    struct.pack_into("<II", out, d, off, len(t))
    return out + t


def entry(body, kind=2, rev=0x0200, pad=True):
    e = struct.pack("<IHH", 8 + len(body), rev, kind) + body
    return e + b"\0" * ((-len(e)) % 8 if pad else 0)


def content_info(fields):
    return tlv(0x30, tlv(0x06, OID_SIGNED) + tlv(0xA0, tlv(0x30, b"".join(fields))))


OID_SIGNED = bytes.fromhex("2a864886f70d010702")


def field(ci, f):
    return ci[f[1]:f[3]]


def signers(a, b):
    ca, fa = signed_data(a)
    cb, fb = signed_data(b)
    if field(ca, fa[2]) != field(cb, fb[2]):
        sys.exit("the two signatures are not over the same SpcIndirectDataContent")
    certs = ca[fa[3][2]:fa[3][3]] + cb[fb[3][2]:fb[3][3]]
    infos = ca[fa[-1][2]:fa[-1][3]] + cb[fb[-1][2]:fb[-1][3]]
    fields = [field(ca, fa[0]), field(ca, fa[1]), field(ca, fa[2]), tlv(0xA0, certs), tlv(0x31, infos)]
    return with_table(a, [entry(content_info(fields))])


def flip_last(a):
    ci, f = signed_data(a)
    infos = children(ci, f[-1][2], f[-1][3])
    last = infos[-1]
    sig = [c for c in children(ci, last[2], last[3]) if c[0] == 0x04][-1]
    ci = bytearray(ci)
    ci[sig[3] - 3] ^= 1
    return with_table(a, [entry(bytes(ci))])


def alg_id(oid):
    return tlv(0x30, tlv(0x06, oid) + b"\x05\x00")


def digest_algs(img, oid, keep):
    """the SignedData's digestAlgorithms made oid's, before its own ones when keep"""
    ci, f = signed_data(img)
    own = ci[f[1][2]:f[1][3]] if keep else b""
    fields = [field(ci, x) for x in f]
    fields[1] = tlv(0x31, alg_id(oid) + own)
    return with_table(img, [entry(content_info(fields))])


def spc_alg(img, oid):
    ci, f = signed_data(img)
    sha256 = bytes.fromhex("0609608648016503040201")
    spc = field(ci, f[2])
    if spc.count(sha256) != 1 or len(oid) != 9:
        sys.exit("no one SHA-256 OID in the SpcIndirectDataContent, or an OID not of 9 bytes")
    fields = [field(ci, x) for x in f]
    fields[2] = spc.replace(sha256, b"\x06\x09" + oid)
    return with_table(img, [entry(content_info(fields))])


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd in ("mdalg", "mdfirst", "spcalg"):
        oid, args = bytes.fromhex(args[0]), args[1:]
        img = bytearray(open(args[0], "rb").read())
        out = spc_alg(img, oid) if cmd == "spcalg" else digest_algs(img, oid, cmd == "mdfirst")
        open(args[-1], "wb").write(out)
        return
    img = bytearray(open(args[0], "rb").read())
    if cmd == "signers":
        out = signers(img, bytearray(open(args[1], "rb").read()))
    else:
        ci, _ = signed_data(img)
        if cmd == "flip-last":
            out = flip_last(img)
        elif cmd == "revision":
            out = with_table(img, [entry(ci, rev=0x0100)])
        elif cmd == "extra":
            out = with_table(img, [entry(ci), entry(b"\x30\x0e" + b"\x5a" * 14, kind=1)])
        elif cmd == "guid":
            out = with_table(img, [entry(PKCS7_GUID + ci, kind=0x0EF1)])
        elif cmd == "trail8":
            out = with_table(img, [entry(ci), b"\0" * 8])
        elif cmd == "zero16":
            out = with_table(img, [entry(ci), b"\0" * 16])
        elif cmd == "empty":
            out = with_table(img, [entry(ci), entry(b""), entry(b"\x30\x0e" + b"\x5a" * 14, kind=1)])
        elif cmd == "guidshort":
            out = with_table(img, [entry(ci), entry(PKCS7_GUID, kind=0x0EF1)])
        elif cmd == "past":
            out = with_table(img, [entry(ci), struct.pack("<IHH", 256, 0x0200, 2) + b"\0" * 8])
        elif cmd == "unpadded":
            body = ci + b"\0"
            if (8 + len(body)) % 8 == 0:
                body += b"\0"
            out = with_table(img, [entry(body, pad=False)])
        else:
            sys.exit("unknown command " + cmd)
    open(args[-1], "wb").write(out)


main()
