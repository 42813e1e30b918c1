#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# wycheproof-rsa.py - turn Project Wycheproof's RSA PKCS#1 v1.5 and PSS
# verification vectors (JSON) into the plain lines test-wycheproof-rsa.c reads.
#
# usage: wycheproof-rsa.py OUTPUT JSON...   (run by meson at build time)
#
# Output, one record a line, fields apart by one space, hex in lower case,
# "-" for an empty field:
#   F <file name> <numberOfTests>
#   G <pkcs1|pss> <hash> <mgf1 hash|-> <salt length|-> <modulus> <public exponent>
#   T <tcId> <valid|invalid|acceptable> <flags, comma apart|-> <message> <signature>
# Any shape other than the one expected stops the conversion.
import json
import os
import sys

HASHES = {"SHA-1", "SHA-256", "SHA-384", "SHA-512"}


def hexfield(s):
    bytes.fromhex(s)  # hex, or a ValueError
    return s.lower() if s else "-"


def group_line(g):
    if g["sha"] not in HASHES:
        raise ValueError("hash %r" % g["sha"])
    key = g["publicKey"]
    n, e = hexfield(key["modulus"]), hexfield(key["publicExponent"])
    if g["type"] == "RsassaPkcs1Verify":
        return "G pkcs1 %s - - %s %s" % (g["sha"], n, e)
    if g["type"] == "RsassaPssVerify":
        if g["mgf"] != "MGF1" or g["mgfSha"] not in HASHES:
            raise ValueError("mask generation %r %r" % (g["mgf"], g["mgfSha"]))
        return "G pss %s %s %d %s %s" % (g["sha"], g["mgfSha"], int(g["sLen"]), n, e)
    raise ValueError("group type %r" % g["type"])


def convert(path, out):
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    out.append("F %s %d" % (os.path.basename(path), int(d["numberOfTests"])))
    for g in d["testGroups"]:
        out.append(group_line(g))
        for t in g["tests"]:
            if t["result"] not in ("valid", "invalid", "acceptable"):
                raise ValueError("result %r" % t["result"])
            flags = ",".join(t["flags"]) or "-"
            if " " in flags:
                raise ValueError("flag with a space")
            out.append("T %d %s %s %s %s" % (int(t["tcId"]), t["result"], flags, hexfield(t["msg"]),
                                             hexfield(t["sig"])))


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: wycheproof-rsa.py OUTPUT JSON...")
    out = []
    for path in sys.argv[2:]:
        try:
            convert(path, out)
        except (KeyError, ValueError, TypeError) as e:
            sys.exit("wycheproof-rsa.py: %s: unexpected shape: %s" % (path, e))
    with open(sys.argv[1], "w", encoding="ascii") as f:
        f.write("\n".join(out) + "\n")


main()
