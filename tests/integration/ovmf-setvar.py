#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
"""Add a non-authenticated UEFI variable to a copy of an OVMF/AAVMF varstore.

usage: ovmf-setvar.py VARS.fd NAME GUID ATTRIBUTES DATAFILE
       ovmf-setvar.py --append VARS.fd NAME GUID DATAFILE

Used by run.sh to preset shim's SbatLevel (NV|BS) before booting, and by
../vm/test-paths.sh for Boot####, BootOrder and BootNext, since no
firmware-variable tool ships in Debian 12. It walks the authenticated
variable store that follows the firmware-volume header, refuses if NAME/GUID
already exists, and appends one VAR_ADDED record in the free (0xFF) space.
ATTRIBUTES is a number, e.g. 0x3 for NON_VOLATILE|BOOTSERVICE_ACCESS.

--append adds DATAFILE to the end of a variable that is there (db, dbx, as
an authenticated append write would, without the authentication): the old
record is marked deleted and a new one, with the old attributes, counter
and time stamp, holds the old data followed by DATAFILE. Used by
../vm/test-paths.sh to put certificates and hashes into dbx.
"""

import struct
import sys
import uuid

AUTH_VAR_STORE_GUID = uuid.UUID("aaf32c78-947b-439a-a180-2e144ec37792")
PLAIN_VAR_STORE_GUID = uuid.UUID("ddcf3616-3275-4164-98b6-fe85707ffe7d")
START_ID = 0x55AA
VAR_ADDED = 0x3F
VAR_IN_DELETED_TRANSITION = 0xFE
VAR_DELETED = 0xFD


def align4(value):
    return (value + 3) & ~3


def main(argv):
    append = len(argv) == 5 and argv[0] == "--append"
    if append:
        path, name, guid, datafile = argv[1:]
        attrs = None
    elif len(argv) == 5:
        path, name, guid, attrs, datafile = argv
        attrs = int(attrs, 0)
    else:
        sys.stderr.write(__doc__)
        return 2
    vendor = uuid.UUID(guid)
    with open(datafile, "rb") as handle:
        data = handle.read()
    with open(path, "rb") as handle:
        image = bytearray(handle.read())

    if image[40:44] != b"_FVH":
        raise SystemExit("%s: no firmware volume header" % path)
    fv_header_len = struct.unpack_from("<H", image, 48)[0]
    store = fv_header_len
    sig = uuid.UUID(bytes_le=bytes(image[store:store + 16]))
    if sig == AUTH_VAR_STORE_GUID:
        header_len = 60
    elif sig == PLAIN_VAR_STORE_GUID:
        header_len = 32
    else:
        raise SystemExit("%s: unknown variable store %s" % (path, sig))
    store_size = struct.unpack_from("<I", image, store + 16)[0]
    store_end = store + store_size
    pos = align4(store + 28)
    name_ucs2 = (name + "\0").encode("utf-16-le")
    found = None

    while pos + header_len <= store_end:
        start_id, state = struct.unpack_from("<HB", image, pos)
        if start_id != START_ID:
            break
        if header_len == 60:
            name_size, data_size = struct.unpack_from("<II", image, pos + 36)
            guid_off = pos + 44
        else:
            name_size, data_size = struct.unpack_from("<II", image, pos + 8)
            guid_off = pos + 16
        name_off = pos + header_len
        live = state in (VAR_ADDED, VAR_ADDED & VAR_IN_DELETED_TRANSITION)
        if live and image[name_off:name_off + name_size] == name_ucs2 and \
                bytes(image[guid_off:guid_off + 16]) == vendor.bytes_le:
            if not append:
                raise SystemExit("%s: variable %s already present" % (path, name))
            found = pos
        # edk2 GET_PAD_SIZE: no padding between name and data (ALIGNMENT 1)
        pos = align4(name_off + name_size + data_size)

    counter_time_key = struct.pack("<Q16sI", 0, b"\0" * 16, 0)
    if append:
        if found is None:
            raise SystemExit("%s: no variable %s-%s to append to" % (path, name, vendor))
        old_name_size, old_size = struct.unpack_from("<II", image, found + (36 if header_len == 60 else 8))
        old_data = found + header_len + old_name_size
        data = bytes(image[old_data:old_data + old_size]) + data
        attrs = struct.unpack_from("<I", image, found + 4)[0]
        counter_time_key = bytes(image[found + 8:found + 36])
    if header_len == 60:
        header = struct.pack("<HBBI28sII16s", START_ID, VAR_ADDED, 0, attrs, counter_time_key,
                             len(name_ucs2), len(data), vendor.bytes_le)
    else:
        header = struct.pack("<HBBIII16s", START_ID, VAR_ADDED, 0, attrs, len(name_ucs2), len(data),
                             vendor.bytes_le)
    record = header + name_ucs2 + data
    if pos + len(record) > store_end or image[pos:pos + len(record)] != b"\xff" * len(record):
        raise SystemExit("%s: no free space for the variable at %#x" % (path, pos))
    image[pos:pos + len(record)] = record
    if found is not None:
        image[found + 2] = image[found + 2] & VAR_DELETED
    with open(path, "wb") as handle:
        handle.write(image)
    print("%s: added %s-%s (%d bytes, attributes %#x) at %#x" % (path, name, vendor, len(data), attrs, pos))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
