# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# efi.sh - encoders the shell tests share for EFI variables and device
# paths: little-endian integers, CHAR16 text, and the HD(), File() and end
# nodes of a load option's device path. Source it after setting T (a
# scratch directory: file_node uses $T/fn).

# le16 N / le32 N: little-endian bytes on stdout
le16() { printf "\\$(printf '%03o' $(($1 & 255)))\\$(printf '%03o' $((($1 >> 8) & 255)))"; }
le32() { le16 $(($1 & 65535)); le16 $((($1 >> 16) & 65535)); }
# ucs2 TEXT: CHAR16 with its NUL
ucs2() { printf '%s' "$1" | sed 's/./&\x00/g' | tr -d '\n'; printf '\0\0'; }
# hd_node [LAST-GUID-BYTE]: HD() of partition 1, GPT, the ESP's partition GUID
# c12a7328-f81f-11d2-ba4b-00a0c93ec93b (its last byte changed when given)
hd_node() {
	le16 $((0x0104)); le16 42; le32 1; le32 2048; le32 0; le32 1048576; le32 0
	printf '\050\163\052\301\037\370\322\021\272\113\000\240\311\076\311'
	printf "\\$(printf '%03o' "${1:-59}")"
	printf '\002\002'
}
# file_node PATH: File() holding PATH as CHAR16
file_node() {
	ucs2 "$1" >"$T/fn"
	le16 $((0x0404)); le16 $((4 + $(wc -c <"$T/fn"))); cat -- "$T/fn"
}
# end_node: the end of the device path
end_node() { printf '\177\377\004\000'; }
