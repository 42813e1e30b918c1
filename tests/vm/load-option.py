#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
"""Write an EFI_LOAD_OPTION (a Boot#### variable's data) for a file on the
first partition of QEMU's FAT disk (vvfat), or a UINT16 list (BootOrder,
BootNext).

usage: load-option.py option OUT DESCRIPTION \\PATH\\FILE.EFI [DATA]
       load-option.py numbers OUT HEX...

DATA, when given, is the option's optional data: the text in UCS-2 with a
terminating NUL, which the firmware passes to the image as its load options
(systemd-stub reads a profile, "@1", and a command line from it).

The device path is the short form efibootmgr writes, HD()/File(): partition
1 of an MBR disk with the disk signature QEMU's vvfat puts in its MBR
(0xbe1afdfa). EDK2's boot manager expands a short-form HD() node by matching
the MBR signature; the start and size are those of the partition vvfat makes
for a hard disk (the guest prints the real ones, "part: ", to compare).
"""

import struct
import sys

VVFAT_MBR_SIGNATURE = 0xBE1AFDFA
VVFAT_START = 63
VVFAT_SIZE = 1032129


def device_path(path):
    hd = struct.pack("<BBHIQQ16sBB", 4, 1, 42, 1, VVFAT_START, VVFAT_SIZE,
                     struct.pack("<I", VVFAT_MBR_SIGNATURE) + b"\0" * 12, 1, 1)
    name = (path + "\0").encode("utf-16-le")
    filenode = struct.pack("<BBH", 4, 4, 4 + len(name)) + name
    return hd + filenode + struct.pack("<BBH", 0x7F, 0xFF, 4)


def main(argv):
    if len(argv) >= 2 and argv[0] == "numbers":
        data = b"".join(struct.pack("<H", int(n, 16)) for n in argv[2:])
    elif len(argv) in (4, 5) and argv[0] == "option":
        dp = device_path(argv[3])
        # LOAD_OPTION_ACTIVE, the length of the device path, the description
        data = struct.pack("<IH", 1, len(dp)) + (argv[2] + "\0").encode("utf-16-le") + dp
        if len(argv) == 5:
            data += (argv[4] + "\0").encode("utf-16-le")
    else:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], "wb") as handle:
        handle.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
