#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
"""Secure Boot test material for test-paths.sh: signature lists for db, dbx
and MokListX, and an image with two signatures.

usage: secure-boot.py x509 OUT CERT.der...  one EFI_SIGNATURE_LIST of the
                                            certificates (of one size: a list
                                            has one SignatureSize)
       secure-boot.py sha256 OUT HEX        EFI_SIGNATURE_LIST of one image hash
       secure-boot.py sha384 OUT HEX        the same, EFI_CERT_SHA384
       secure-boot.py authenticode ALG IMAGE
                                            the Authenticode digest of IMAGE
                                            (ALG sha256, sha384), in hex
       secure-boot.py nx-off IN OUT         IN (unsigned) without
                                            IMAGE_DLLCHARACTERISTICS_NX_COMPAT
       secure-boot.py cosign A B OUT        A with B's signatures appended
       secure-boot.py update VAR ESL KEY CERT OUT [ATTRIBUTES]
                                            an authenticated append write of
                                            the signature lists ESL to VAR
                                            (db, dbx, KEK), signed with KEY;
                                            ATTRIBUTES 0x27 for PK's write
       secure-boot.py cert VARS.fd VAR TEXT OUT.der
                                            the certificate of OVMF varstore
                                            VARS.fd's variable VAR (db, KEK)
                                            whose DER holds TEXT

cosign: A and B are one image signed twice (sbsign cannot add a signature to
a signed image); OUT is A whose certificate table also holds B's
WIN_CERTIFICATE entries, 8-byte aligned, as pesign writes a second
signature. The Authenticode hash leaves the table out, so both signatures
cover OUT.
"""

import hashlib
import struct
import subprocess
import sys
import tempfile
import uuid

EFI_CERT_X509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072")
EFI_CERT_SHA256 = uuid.UUID("c1c41626-504c-4092-aca9-41f936934328")
EFI_CERT_SHA384 = uuid.UUID("ff3e5307-9fd0-48c9-85f1-8ad56c701e01")
OWNER = uuid.UUID("5ba7ad0b-63e4-4d3b-9e6a-2a7c61c5e8f0")
EFI_GLOBAL = uuid.UUID("8be4df61-93ca-11d2-aa0d-00e098032b8c")
IMAGE_SECURITY = uuid.UUID("d719b2cb-3d3a-4596-a3bc-dad00e67656f")
EFI_CERT_TYPE_PKCS7 = uuid.UUID("4aafd29d-68df-49ee-8aa9-347d375665a7")
# NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS | TIME_BASED_AUTHENTICATED_WRITE_ACCESS | APPEND_WRITE
APPEND_ATTRIBUTES = 0x67


def signature_list(kind, *payloads):
    if len(set(len(p) for p in payloads)) != 1:
        raise SystemExit("the entries of one signature list must have one size: %s" %
                         ", ".join(str(len(p)) for p in payloads))
    entries = [OWNER.bytes_le + p for p in payloads]
    size = len(entries[0])
    return kind.bytes_le + struct.pack("<III", 28 + size * len(entries), 0, size) + b"".join(entries)


def security_directory(image):
    pe = struct.unpack_from("<I", image, 0x3C)[0]
    if image[pe:pe + 4] != b"PE\0\0":
        raise SystemExit("not a PE image")
    opt = pe + 24
    magic = struct.unpack_from("<H", image, opt)[0]
    entry = opt + (112 if magic == 0x20B else 96) + 4 * 8
    offset, size = struct.unpack_from("<II", image, entry)
    return entry, offset, size


def optional_header(image):
    pe = struct.unpack_from("<I", image, 0x3C)[0]
    return pe, pe + 24


def authenticode(image, alg):
    """The Authenticode digest: the image without its checksum, its certificate table's
    directory entry and the table, the sections in the order of their file offsets."""
    pe, opt = optional_header(image)
    entry, table, table_size = security_directory(image)
    size_of_headers = struct.unpack_from("<I", image, opt + 60)[0]
    h = hashlib.new(alg)
    h.update(image[:opt + 64])
    h.update(image[opt + 68:entry])
    h.update(image[entry + 8:size_of_headers])
    count = struct.unpack_from("<H", image, pe + 6)[0]
    sections = opt + struct.unpack_from("<H", image, pe + 20)[0]
    done = size_of_headers
    raw = sorted(struct.unpack_from("<II", image, sections + 40 * i + 16)[::-1] for i in range(count))
    for offset, size in raw:
        if size:
            h.update(image[offset:offset + size])
            done += size
    end = table if table_size else len(image)
    if end > done:
        h.update(image[done:end])
    return h.hexdigest()


def nx_off(in_path, out_path):
    image = bytearray(open(in_path, "rb").read())
    _, opt = optional_header(image)
    if security_directory(image)[2]:
        raise SystemExit("%s is signed" % in_path)
    flags = struct.unpack_from("<H", image, opt + 70)[0]
    struct.pack_into("<H", image, opt + 70, flags & ~0x100)
    open(out_path, "wb").write(image)


def cosign(a_path, b_path, out_path):
    a = bytearray(open(a_path, "rb").read())
    b = open(b_path, "rb").read()
    entry, a_off, a_size = security_directory(a)
    _, b_off, b_size = security_directory(b)
    if not a_size or not b_size or a_off + a_size != len(a):
        raise SystemExit("both images must be signed, the table at the end of A")
    if a_off != b_off:
        raise SystemExit("A and B are not the same image signed twice")
    pad = (8 - a_size % 8) % 8
    out = a + b"\0" * pad + b[b_off:b_off + b_size]
    struct.pack_into("<II", out, entry, a_off, a_size + pad + b_size)
    open(out_path, "wb").write(out)


def update(var, esl_path, key, cert, out_path, attributes=APPEND_ATTRIBUTES):
    """EFI_VARIABLE_AUTHENTICATION_2 and the lists of esl_path, as sign-efi-sig-list -a makes them: a
    PKCS#7 SignedData (SHA-256, no signed attributes, detached, without its ContentInfo) over the name
    in UTF-16, the vendor GUID, the attributes, the time stamp and the lists. A PK write is no append:
    its attributes are 0x27."""
    lists = open(esl_path, "rb").read()
    vendor = EFI_GLOBAL if var in ("PK", "KEK") else IMAGE_SECURITY
    # EFI_TIME 2026-01-02 03:04:05; Pad1, Nanosecond, TimeZone, Daylight and Pad2 zero
    when = struct.pack("<HBBBBBBIhBB", 2026, 1, 2, 3, 4, 5, 0, 0, 0, 0, 0)
    signed = var.encode("utf-16-le") + vendor.bytes_le + struct.pack("<I", attributes) + when + lists
    with tempfile.NamedTemporaryFile() as tbs, tempfile.NamedTemporaryFile() as p7:
        tbs.write(signed)
        tbs.flush()
        subprocess.run(["openssl", "cms", "-sign", "-binary", "-noattr", "-md", "sha256", "-outform", "DER",
                        "-in", tbs.name, "-signer", cert, "-inkey", key, "-out", p7.name], check=True)
        der = open(p7.name, "rb").read()
    # ContentInfo { OID signedData, [0] { SignedData } }: the firmware takes the SignedData alone
    oid = bytes.fromhex("06092a864886f70d010702")
    if der[0] != 0x30 or der[1] != 0x82 or der[4:15] != oid or der[15] != 0xA0 or der[16] != 0x82:
        raise SystemExit("openssl cms wrote no ContentInfo with two-byte lengths")
    sd = der[19:]
    cert_hdr = struct.pack("<IHH", 24 + len(sd), 0x0200, 0x0EF1) + EFI_CERT_TYPE_PKCS7.bytes_le
    open(out_path, "wb").write(when + cert_hdr + sd + lists)


def variable(path, name):
    """The data of the live variable NAME in an OVMF varstore (authenticated store)."""
    image = open(path, "rb").read()
    store = struct.unpack_from("<H", image, 48)[0]
    end = store + struct.unpack_from("<I", image, store + 16)[0]
    pos = (store + 28 + 3) & ~3
    want = (name + "\0").encode("utf-16-le")
    found = None
    while pos + 60 <= end and struct.unpack_from("<H", image, pos)[0] == 0x55AA:
        state = image[pos + 2]
        name_size, data_size = struct.unpack_from("<II", image, pos + 36)
        if state in (0x3F, 0x3E) and image[pos + 60:pos + 60 + name_size] == want:
            found = image[pos + 60 + name_size:pos + 60 + name_size + data_size]
        pos = (pos + 60 + name_size + data_size + 3) & ~3
    if found is None:
        raise SystemExit("%s: no variable %s" % (path, name))
    return found


def cert_in(data, text):
    """The EFI_CERT_X509 entry of the signature lists in data whose DER holds text."""
    pos = 0
    while pos + 28 <= len(data):
        kind = uuid.UUID(bytes_le=data[pos:pos + 16])
        size, header, entry = struct.unpack_from("<III", data, pos + 16)
        if kind == EFI_CERT_X509:
            at = pos + 28 + header
            while at + entry <= pos + size:
                der = data[at + 16:at + entry]
                if text.encode() in der:
                    return der
                at += entry
        pos += size
    raise SystemExit("no certificate holding %r" % text)


def main(argv):
    if len(argv) >= 3 and argv[0] == "x509":
        data = signature_list(EFI_CERT_X509, *[open(c, "rb").read() for c in argv[2:]])
    elif len(argv) == 3 and argv[0] == "sha256":
        data = signature_list(EFI_CERT_SHA256, bytes.fromhex(argv[2]))
    elif len(argv) == 3 and argv[0] == "sha384":
        data = signature_list(EFI_CERT_SHA384, bytes.fromhex(argv[2]))
    elif len(argv) == 3 and argv[0] == "authenticode" and argv[1] in ("sha256", "sha384"):
        print(authenticode(open(argv[2], "rb").read(), argv[1]))
        return 0
    elif len(argv) == 3 and argv[0] == "nx-off":
        nx_off(argv[1], argv[2])
        return 0
    elif len(argv) == 5 and argv[0] == "cert":
        open(argv[4], "wb").write(cert_in(variable(argv[1], argv[2]), argv[3]))
        return 0
    elif len(argv) in (6, 7) and argv[0] == "update":
        update(argv[1], argv[2], argv[3], argv[4], argv[5], int(argv[6], 0) if len(argv) == 7 else APPEND_ATTRIBUTES)
        return 0
    elif len(argv) == 4 and argv[0] == "cosign":
        cosign(argv[1], argv[2], argv[3])
        return 0
    else:
        sys.stderr.write(__doc__)
        return 2
    open(argv[1], "wb").write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
