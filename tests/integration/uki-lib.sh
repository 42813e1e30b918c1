# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# uki-lib.sh - what test-ukify.sh and ../vm/test-tpm.sh share: unified kernel
# images built by the real ukify (Debian 13's, 257) around the VM harness's
# kernel and initramfs, on Debian 13's systemd-stub 257 or Debian 12's 252;
# the PCR 11 values systemd-measure calculates for them; and sbat-add's
# prediction. Values are exchanged as "BANK PHASE HEX" lines, where PHASE
# "stub" is PCR 11 right after systemd-stub's own measurements, before any
# boot phase word is extended. Source ../vm/lib.sh first (VM_CACHE,
# vm_kernel, vm_initramfs, VM_CMDLINE).
#
# The tools come from the corpus cache (tests/integration/fetch-corpus.sh):
# $VM_CACHE/trixie/bin/ukify, $VM_CACHE/trixie/bin/systemd-measure (257),
# $VM_CACHE/trixie/linuxx64.efi.stub (257), the addon stub of the same
# package (the base of ukify's profile images) and the corpus's
# linuxx64.efi.stub (Debian 12, 252); systemd-measure 252 is the installed
# /usr/lib/systemd/systemd-measure (package systemd).

UKI_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
UKI_PY="${SBAT_PYTHON:-/usr/bin/python3}"
UKI_TOOL="$UKI_HERE/uki-tool.py"
UKI_TRIXIE="$VM_CACHE/trixie"
UKI_WHY=""
# every bank systemd-measure can calculate; sbat-add's prediction names the ones it covers
UKI_BANKS="sha1 sha256 sha384 sha512"

# uki_tools: UKIFY, UKI_STUB257, UKI_ADDON257, UKI_STUB252, UKI_MEASURE257,
# UKI_MEASURE252 and UKI_VERSIONS (one line); 1 with UKI_WHY set when one of
# them is missing
uki_tools() {
	UKIFY="$UKI_TRIXIE/bin/ukify"
	UKI_MEASURE257="$UKI_TRIXIE/bin/systemd-measure"
	UKI_STUB257="$UKI_TRIXIE/linuxx64.efi.stub"
	UKI_ADDON257="$UKI_TRIXIE/root/usr/lib/systemd/boot/efi/addonx64.efi.stub"
	UKI_STUB252="$VM_CACHE/corpus/linuxx64.efi.stub"
	UKI_MEASURE252=/usr/lib/systemd/systemd-measure
	local fetch="run tests/integration/fetch-corpus.sh"
	if [ ! -x "$UKI_MEASURE257" ] && command -v apt-get >/dev/null 2>&1; then
		echo "# no Debian 13 tools in $UKI_TRIXIE: running fetch-corpus.sh"
		SBAT_CORPUS_DIR="$VM_CACHE" bash "$UKI_HERE/fetch-corpus.sh" 2>&1 | sed 's/^/# /'
	fi
	if ! "$UKI_PY" -c 'import pefile' 2>/dev/null; then
		UKI_WHY="$UKI_PY cannot import pefile (apt-get install python3-pefile)"
	elif ! command -v openssl >/dev/null 2>&1; then
		UKI_WHY="no openssl"
	elif [ ! -f "$UKIFY" ] || ! "$UKI_PY" "$UKIFY" --version >/dev/null 2>&1; then
		UKI_WHY="no ukify 257 that runs at $UKIFY ($fetch)"
	elif [ ! -s "$UKI_STUB257" ]; then
		UKI_WHY="no systemd-stub 257 at $UKI_STUB257 ($fetch)"
	elif [ ! -s "$UKI_ADDON257" ]; then
		UKI_WHY="no addon stub 257 at $UKI_ADDON257 ($fetch)"
	elif ! "$UKI_MEASURE257" --version 2>/dev/null | grep -q '^systemd 257'; then
		UKI_WHY="no systemd-measure 257 that runs at $UKI_MEASURE257 ($fetch)"
	elif [ ! -s "$UKI_STUB252" ]; then
		UKI_WHY="no systemd-stub 252 at $UKI_STUB252 ($fetch)"
	elif ! "$UKI_MEASURE252" --version 2>/dev/null | grep -q '^systemd 252'; then
		UKI_WHY="no systemd-measure 252 at $UKI_MEASURE252 (Debian 12's systemd)"
	else
		UKI_VERSIONS="ukify $("$UKI_PY" "$UKIFY" --version 2>/dev/null | head -n 1), systemd-measure $("$UKI_MEASURE257" --version | sed -n '1s/^systemd //p') and $("$UKI_MEASURE252" --version | sed -n '1s/^systemd //p'), stubs $(uki_stub_version "$UKI_STUB257") and $(uki_stub_version "$UKI_STUB252")"
		return 0
	fi
	return 1
}

# uki_stub_version STUB: the version in the stub's .sdmagic ("#### LoaderInfo: systemd-stub V ####")
uki_stub_version() {
	"$UKI_PY" "$UKI_TOOL" section "$1" .sdmagic 2>/dev/null | tr -d '\0' |
		sed -n 's/^#### LoaderInfo: systemd-stub \(.*\) ####$/\1/p'
}

# uki_inputs DIR: the initramfs (guest/pcr11.sh), the os-release text and a
# throwaway RSA key pair for PCR signatures, in DIR; needs vm_kernel first
uki_inputs() {
	local d="$1"
	mkdir -p "$d"
	vm_initramfs "$d/initrd.gz" "$VM_HERE/guest/pcr11.sh" efivarfs || return 1
	printf 'ID=sbat-add-test\nNAME="sbat-add UKI test"\nPRETTY_NAME="sbat-add UKI test"\n' >"$d/os-release"
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$d/pcr-private.pem" 2>"$d/openssl.log" &&
		openssl pkey -in "$d/pcr-private.pem" -pubout -out "$d/pcr-public.pem" 2>>"$d/openssl.log"
}

# uki_build INPUTS OUT STUB [signed]: ukify build of the kernel, INPUTS/initrd.gz,
# VM_CMDLINE and INPUTS/os-release on STUB; with "signed", --pcr-private-key and
# --pcr-public-key (ukify then runs systemd-measure 257 sign: .pcrsig and .pcrpkey).
# ukify's messages go to OUT.log.
uki_build() {
	local d="$1" out="$2" stub="$3" extra=()
	[ "${4:-}" = signed ] && extra=(--pcr-private-key="$d/pcr-private.pem" --pcr-public-key="$d/pcr-public.pem")
	"$UKI_PY" "$UKIFY" build --linux="$VM_VMLINUZ" --initrd="$d/initrd.gz" --cmdline="$VM_CMDLINE" \
		--os-release=@"$d/os-release" --stub="$stub" --tools="$UKI_TRIXIE/bin" --output="$out" \
		"${extra[@]}" >"$out.log" 2>&1
}

# uki_build_profiles INPUTS OUT N: a UKI with N profiles on the 257 stub, the
# way ukify 257 makes one: N-1 profile images (ukify build --profile on the
# addon stub, each with a .profile "ID=pK" and a .cmdline of VM_CMDLINE and
# "sbatvm.profile=K"), joined (--join-profile) to the image uki_build makes,
# whose own .profile, "ID=p0" (--profile), ends the base: profile 0 has the
# base's .cmdline, profile K its own. ukify's messages go to OUT.log.
uki_build_profiles() {
	local d="$1" out="$2" n="$3" k join=()
	: >"$out.log"
	for k in $(seq 1 $((n - 1))); do
		"$UKI_PY" "$UKIFY" build --profile="$(printf 'ID=p%s\nTITLE=sbat-add test profile %s' "$k" "$k")" \
			--cmdline="$VM_CMDLINE sbatvm.profile=$k" --stub="$UKI_ADDON257" --tools="$UKI_TRIXIE/bin" \
			--output="$out.p$k" >>"$out.log" 2>&1 || return 1
		join+=(--join-profile="$out.p$k")
	done
	"$UKI_PY" "$UKIFY" build --linux="$VM_VMLINUZ" --initrd="$d/initrd.gz" --cmdline="$VM_CMDLINE" \
		--os-release=@"$d/os-release" --stub="$UKI_STUB257" --tools="$UKI_TRIXIE/bin" --output="$out" \
		--profile="$(printf 'ID=p0\nTITLE=sbat-add test profile 0')" "${join[@]}" >>"$out.log" 2>&1
	local rc=$?
	rm -f "$out".p[0-9]*
	return $rc
}

# uki_sections IMAGE: the names of IMAGE's sections, space-separated, in file order
uki_sections() {
	"$UKI_PY" "$UKI_TOOL" sections "$1" "$1.sections" | cut -d' ' -f1 | tr '\n' ' ' | sed 's/ $//'
	rm -rf "$1.sections"
}

# uki_has_section IMAGE NAME
uki_has_section() {
	"$UKI_PY" "$UKI_TOOL" section "$1" "$2" >/dev/null 2>&1
}

# uki_measured TOOL IMAGE OUT [PROFILE]: systemd-measure TOOL's PCR 11 values
# for IMAGE as "BANK PHASE HEX" lines in OUT: every section of IMAGE that TOOL
# knows (its --help lists them) is passed with its data; once with --phase=
# (the value before any phase word: "stub") and once with TOOL's default
# phases. With PROFILE, the sections the stub finds for that profile (the
# base's, overridden by the profile's: uki-tool.py sections)
uki_measured() {
	local tool="$1" img="$2" out="$3" dir="$2.sections" args=() name b
	rm -rf "$dir"
	"$UKI_PY" "$UKI_TOOL" sections "$img" "$dir" ${4:+"$4"} >/dev/null || return 1
	for name in $("$tool" --help 2>/dev/null | sed -n 's/^ *--\([a-z]*\)=PATH .* \.\([a-z]*\)$/\1 \2/p' |
		awk '$1 == $2 { print $1 }'); do
		[ -f "$dir/$name" ] && args+=("--$name=$dir/$name")
	done
	for b in $UKI_BANKS; do args+=("--bank=$b"); done
	printf '%s\n' "${args[@]}" >"$out.args"
	"$tool" calculate --json=short "${args[@]}" --phase= >"$out.stub.json" 2>"$out.err" &&
		"$tool" calculate --json=short "${args[@]}" >"$out.phases.json" 2>>"$out.err" &&
		"$UKI_PY" "$UKI_TOOL" measured "$out.stub.json" "$out.phases.json" >"$out"
	local rc=$?
	rm -rf "$dir"
	return $rc
}

# uki_predicted IMAGE OUT [PROFILE]: sbat-add --print --json IMAGE to OUT.json
# and its uki.pcr11 values (with PROFILE, uki.profiles[PROFILE].pcr11) as
# "BANK PHASE HEX" lines to OUT; 3 when the JSON has no "uki" (or no such
# profile). An image without .sbat (--print's exit status 3) is predicted too.
uki_predicted() {
	"$SBAT_ADD" --print --json "$1" >"$2.json" 2>"$2.err"
	case $? in 0 | 3) ;; *) return 1 ;; esac
	"$UKI_PY" "$UKI_TOOL" predicted "$2.json" ${3:+"$3"} >"$2"
}

# uki_field OUT FIELD [PROFILE]: a field of the "uki" object in OUT.json
# (uki_predicted), or of its uki.profiles[PROFILE]
uki_field() {
	"$UKI_PY" "$UKI_TOOL" uki "$1.json" "$2" ${3:+"$3"}
}

# uki_value FILE BANK PHASE: the HEX of that line of a "BANK PHASE HEX" file
uki_value() {
	awk -v b="$2" -v p="$3" '$1 == b && $2 == p { print $3; exit }' "$1"
}

# uki_agree PRED MEAS: every predicted line is in MEAS (same bank, phase and
# value), PRED has the sha256 bank, and its sha256 phases are exactly MEAS's;
# UKI_DIFF says what differs
uki_agree() {
	local pred="$1" meas="$2" b p v m
	UKI_DIFF=""
	if ! grep -q '^sha256 ' "$pred" 2>/dev/null; then
		UKI_DIFF="no sha256 values in the prediction"
		return 1
	fi
	while read -r b p v; do
		m=$(uki_value "$meas" "$b" "$p")
		[ -n "$m" ] || UKI_DIFF="$UKI_DIFF; $b $p: not calculated by systemd-measure"
		[ -z "$m" ] || [ "$m" = "$v" ] || UKI_DIFF="$UKI_DIFF; $b $p: predicted $v, systemd-measure $m"
	done <"$pred"
	for p in $(awk '$1 == "sha256" { print $2 }' "$meas"); do
		[ -n "$(uki_value "$pred" sha256 "$p")" ] || UKI_DIFF="$UKI_DIFF; sha256 $p: not predicted"
	done
	UKI_DIFF="${UKI_DIFF#; }"
	[ -z "$UKI_DIFF" ]
}

# uki_bump_csv IMAGE OUT: IMAGE's .sbat with the generation of its "uki" row
# raised by one (the same length), as an SBAT CSV in OUT
uki_bump_csv() {
	local g
	g=$("$SBAT_ADD" --print "$1" | awk -F, '$1 == "uki" { print $2 + 1; exit }')
	[ -n "$g" ] && "$SBAT_ADD" --print "$1" | awk -F, -v OFS=, -v g="$g" '$1 == "uki" { $2 = g } { print }' >"$2"
}

# uki_measured_list OUT [PROFILE]: uki.measured_sections of OUT.json (or
# uki.profiles[PROFILE].measured_sections), each name with its dot
uki_measured_list() {
	uki_field "$1" measured_sections ${2:+"$2"} | tr ' ' '\n' | sed '/^$/d; s/^\([^.]\)/.\1/' | tr '\n' ' ' | sed 's/ $//'
}
