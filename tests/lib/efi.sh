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

# sha256_var FILE HEX...: a db, dbx or MokList variable file (attributes,
# then one EFI_SIGNATURE_LIST of EFI_CERT_SHA256 entries, owner GUID zero)
# holding each image hash HEX; none: an empty variable
sha256_var() {
	local file=$1 h
	shift
	{
		le32 $((0x27))
		if [ "$#" -gt 0 ]; then
			printf '\046\026\304\301\114\120\222\100\254\251\101\371\066\223\103\050'
			le32 $((28 + 48 * $#)); le32 0; le32 48
			for h; do
				printf '\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'
				printf "$(printf '%s' "$h" | sed 's/../\\x&/g')"
			done
		fi
	} >"$file"
}

# digest_var FILE ALG HASH...: as sha256_var, one list of EFI_CERT_SHA384
# (ALG sha384) or EFI_CERT_SHA512 (sha512) entries, each hash in hex.
digest_var() {
	local file=$1 alg=$2 guid n h
	shift 2
	case $alg in
	sha384) guid='\x07\x53\x3e\xff\xd0\x9f\xc9\x48\x85\xf1\x8a\xd5\x6c\x70\x1e\x01' n=48 ;;
	sha512) guid='\xae\x0f\x3e\x09\xc4\xa6\x50\x4f\x9f\x1b\xd4\x1e\x2b\x89\xc1\x9a' n=64 ;;
	*) return 1 ;;
	esac
	{
		le32 $((0x27))
		printf "$guid"
		le32 $((28 + (16 + n) * $#)); le32 0; le32 $((16 + n))
		for h; do
			printf '\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'
			printf "$(printf '%s' "$h" | sed 's/../\\x&/g')"
		done
	} >"$file"
}

# ---------------------------------------------------------------- decoder

# option_text FILE: a Boot#### variable file read back byte by byte, as one
# line: 'attributes A, option attributes O, description "D", NODES, N bytes
# of optional data', each node HD(PARTITION), File(PATH), End or
# node(TYPE,SUBTYPE); a CHAR16 outside printable ASCII is shown as '?'.
# What the encoders above wrote, read back without them.
option_text() {
	local -a b
	local n i end type sub len desc nodes=""
	mapfile -t b < <(od -An -v -tu1 -- "$1" | tr -s ' ' '\n' | sed '/^$/d')
	n=${#b[@]}
	[ "$n" -ge 12 ] || { echo "too short: $n bytes"; return 1; }
	opt_u16() { echo $((b[$1] | b[$1 + 1] << 8)); }
	opt_u32() { echo $((b[$1] | b[$1 + 1] << 8 | b[$1 + 2] << 16 | b[$1 + 3] << 24)); }
	# opt_text AT END: the CHAR16 text from AT up to its NUL or END
	opt_text() {
		local at=$1 c out=""
		while [ $((at + 1)) -lt "$2" ] && c=$(opt_u16 "$at") && [ "$c" -ne 0 ]; do
			if [ "$c" -ge 32 ] && [ "$c" -lt 127 ]; then out+=$(printf "\\$(printf '%03o' "$c")"); else out+='?'; fi
			at=$((at + 2))
		done
		printf '%s' "$out"
	}
	desc=$(opt_text 10 "$n")
	i=$((10 + 2 * ${#desc} + 2))
	end=$((i + $(opt_u16 8)))
	while [ $((i + 4)) -le "$end" ]; do
		type=${b[$i]} sub=${b[$i + 1]} len=$(opt_u16 $((i + 2)))
		[ "$len" -ge 4 ] || { echo "a device path node of length $len at offset $i"; return 1; }
		case "$type,$sub" in
		4,1) nodes+="HD($(opt_u32 $((i + 4)))) " ;;
		4,4) nodes+="File($(opt_text $((i + 4)) $((i + len)))) " ;;
		127,255) nodes+="End " ;;
		*) nodes+="node($type,$sub) " ;;
		esac
		i=$((i + len))
	done
	printf 'attributes %s, option attributes %s, description "%s", %s, %s bytes of optional data\n' \
		"$(opt_u32 0)" "$(opt_u32 4)" "$desc" "${nodes% }" $((n - end))
}
