#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-tpm.sh - PCR 11 as the real systemd-stub measures it into a software
# TPM, against sbat-add's prediction and systemd-measure, before and after an
# edit of .sbat. UKIs built by the real ukify (Debian 13, 257) around the
# harness's kernel and initramfs (guest/pcr11.sh) boot from an ESP as
# \EFI\BOOT\BOOTX64.EFI under OVMF with swtpm attached (tpm-tis); the guest
# prints /sys/class/tpm/tpm0/pcr-*/11 and the firmware's event log. Nothing
# in the guest extends PCR 11, so the value is the one sbat-add's JSON calls
# uki.pcr11.BANK.stub. The boots:
#   uki-257             stub 257 (measures .sbat)
#   uki-257-edited      the same after sbat-add raised the "uki" row's
#                       generation: the value changes as predicted
#   uki-252             Debian 12's stub 252 (does not measure .sbat)
#   uki-252-edited      the same edit (--relocate): the value does not change
#   uki-257-signed-drop a UKI signed with ukify --pcr-private-key, edited
#                       with --pcrsig=drop
#   uki-257-signed-keep the same edited with --pcrsig=keep
#   uki-257-dtbauto     two .dtbauto, no .hwids: on OVMF the stub selects
#                       none, the value of the alternative that selects none
#   uki-257-profiles-p0 a UKI with three profiles (ukify 257), whose .sbat,
#   uki-257-profiles-p1 among the base sections, sbat-add edited in place,
#                       removed, and put back (into the zeroed .oldsbat);
#                       booted as profile 0 (no load options) and as
#                       profile 1 (a Boot#### option whose optional data is
#                       "@1", first in BootOrder): each profile's PCR 11 is
#                       the one sbat-add predicts for it
# After the first boot, sbat-add --event-log replays the firmware's whole
# log to the TPM's value of every PCR it extends (the guest prints them all).
# TAP. Skips (the plan 1..0 # SKIP, exit 0) without qemu, OVMF, swtpm,
# busybox-static, the tools or the corpus, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
. "$HERE/../lib/tap.sh"
. "$HERE/../integration/uki-lib.sh"
need_env SBAT_ADD

skip_or_fail() {
	if [ "${CI:-}" = true ]; then
		not_ok "TPM test: $1"
		exit 1
	fi
	skip_all "$1"
}

W="${SBAT_VM_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/sbat-vm-tpm.XXXXXX")}"
rm -rf "$W"
mkdir -p "$W"
vm_missing && skip_or_fail "$VM_WHY"
[ -f "$VM_OVMF_CODE" ] && [ -f "$VM_OVMF_VARS" ] || skip_or_fail "no $VM_OVMF_CODE (apt-get install ovmf)"
command -v swtpm >/dev/null 2>&1 || skip_or_fail "no swtpm (apt-get install swtpm)"
vm_kernel || skip_or_fail "$VM_WHY"
uki_tools || skip_or_fail "$UKI_WHY"
echo "# $UKI_VERSIONS; $(swtpm --version 2>&1 | head -n 1)"
uki_inputs "$W/in" || skip_or_fail "cannot make the initramfs or the key pair (see $W/in)"

EFI_GLOBAL=8be4df61-93ca-11d2-aa0d-00e098032b8c
T="$W/tpm"
[ "${#T}" -lt 90 ] || T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-tpm.XXXXXX")
vm_swtpm_args "$T"
trap 'vm_swtpm_stop; [ "$T" = "$W/tpm" ] || rm -rf "$T"' EXIT

# ------------------------------------------------------------ the images
for spec in uki-257:"$UKI_STUB257" uki-257-signed:"$UKI_STUB257":signed uki-252:"$UKI_STUB252"; do
	IFS=: read -r name stub signed <<<"$spec"
	uki_build "$W/in" "$W/$name.efi" "$stub" "$signed" ||
		skip_or_fail "ukify cannot build $name.efi: $(tail -n 3 "$W/$name.efi.log" | tr '\n' '|')"
done

# edit NAME OUT [OPTIONS]: sbat-add writes NAME.efi with its "uki" row's
# generation raised by one to OUT.efi; the exit status in EDIT_RC
edit() {
	local name="$1" out="$2"
	shift 2
	uki_bump_csv "$W/$name.efi" "$W/$out.csv" || return 1
	"$SBAT_ADD" --file "$W/$name.efi" --csv "$W/$out.csv" --output "$W/$out.efi" --verbose "$@" \
		>"$W/$out.edit.out" 2>"$W/$out.edit.err"
	EDIT_RC=$?
	echo "# $out: sbat-add --csv $out.csv --verbose${*:+ $*}: exit $EDIT_RC"
	grep -e 'PCR 11 sha256 stub' -e 'pcrsig' "$W/$out.edit.err" | sed 's/^/#   /'
}

# edit_said OUT: the sha256 "stub" value the edit said the result will have
# (--verbose: "PCR 11 sha256 stub: OLD -> NEW" or "VALUE (unchanged)")
edit_said() {
	sed -n 's/.*: PCR 11 sha256 stub: \([0-9a-f]*\) -> \([0-9a-f]*\)$/\2/p; s/.*: PCR 11 sha256 stub: \([0-9a-f]*\) (unchanged)$/\1/p' \
		"$W/$1.edit.err" | head -n 1
}

# after_edit OUT: the TPM's value after the boot of OUT is what the edit predicted
after_edit() {
	local said tpm
	said=$(edit_said "$1")
	tpm=$(uki_value "$W/$1.tpm" sha256 stub)
	check "$1: PCR 11 from the TPM = what sbat-add --verbose said the edit would make it (${said:-nothing})" \
		test -n "$said" -a "$said" = "$tpm"
}

# boot NAME [DATA]: NAME.efi as BOOTX64.EFI under OVMF with a new swtpm; the
# guest's PCR 11 values as "BANK stub HEX" lines in NAME.tpm, the event log's
# PCR 11 events in NAME.events; 1 when the guest printed no PCR 11. With DATA,
# the varstore holds Boot0100 for BOOTX64.EFI with DATA as its optional data
# (the image's load options), alone in BootOrder.
boot() {
	local name="$1" esp="$W/$1.esp" booted
	rm -rf "$esp"
	mkdir -p "$esp/EFI/BOOT"
	cp "$W/$name.efi" "$esp/EFI/BOOT/BOOTX64.EFI"
	cp "$VM_OVMF_VARS" "$W/$name.vars.fd"
	if [ -n "${2:-}" ]; then
		python3 "$HERE/load-option.py" option "$W/$name.Boot0100" "sbat-add $2" '\EFI\BOOT\BOOTX64.EFI' "$2" &&
			python3 "$HERE/load-option.py" numbers "$W/$name.BootOrder" 0100 &&
			python3 "$HERE/../integration/ovmf-setvar.py" "$W/$name.vars.fd" Boot0100 "$EFI_GLOBAL" 0x7 \
				"$W/$name.Boot0100" >"$W/$name.setvar.log" 2>&1 &&
			python3 "$HERE/../integration/ovmf-setvar.py" "$W/$name.vars.fd" BootOrder "$EFI_GLOBAL" 0x7 \
				"$W/$name.BootOrder" >>"$W/$name.setvar.log" 2>&1
		check "$name: Boot0100 (\\EFI\\BOOT\\BOOTX64.EFI, optional data \"$2\") and BootOrder 0100 put into the varstore" \
			test $? = 0
	fi
	VM_PRE_BOOT=vm_swtpm_start vm_boot_ovmf "$name" "$W/$name.serial.log" "$esp" "$W/$name.vars.fd" "${VM_TPM_ARGS[@]}"
	booted=$?
	vm_swtpm_stop
	rm -rf "$esp"
	sed -n 's/^pcr11 \([a-z0-9]*\) \([0-9a-f]*\)$/\1 stub \2/p' "$W/$name.serial.log.out" >"$W/$name.tpm"
	"$UKI_PY" "$UKI_TOOL" eventlog "$W/$name.serial.log.out" 11 >"$W/$name.events" 2>&1
	grep -v -e '^eventlog ' -e '^pcr ' -e '^efivar ' -e '^$' "$W/$name.serial.log.out" | sed "s/^/# $name guest: /"
	check "$name: OVMF booted the UKI from the ESP with a TPM, the guest read PCR 11 ($VM_RESULT after ${VM_SECS}s)" \
		test "$booted" = 0 -a "${VM_GUEST_RC:-1}" = 0 -a -s "$W/$name.tpm"
	[ -s "$W/$name.tpm" ]
}

# events NAME: the section names of the stub's PCR 11 events, in order, once each
events() {
	awk '$1 == "event" { print $4 }' "$W/$1.events" | uniq | tr '\n' ' ' | sed 's/ $//'
}

# same_banks A B: every bank of "BANK PHASE HEX" file A with phase stub has
# the same value in B, and A has sha256; SAME_DIFF says what differs
same_banks() {
	local b p v m
	SAME_DIFF=""
	grep -q '^sha256 stub ' "$1" || SAME_DIFF="no sha256 value in $(basename "$1")"
	while read -r b p v; do
		[ "$p" = stub ] || continue
		m=$(uki_value "$2" "$b" stub)
		[ "$m" = "$v" ] || SAME_DIFF="$SAME_DIFF; $b: $v, $(basename "$2"): ${m:-none}"
	done <"$1"
	SAME_DIFF="${SAME_DIFF#; }"
	[ -z "$SAME_DIFF" ]
}

# compare NAME TOOL LABEL [PROFILE]: the TPM's PCR 11 against systemd-measure
# LABEL and against sbat-add's prediction; the event log against both. With
# PROFILE, those of that profile (systemd-measure over the sections the stub
# finds for it, sbat-add's uki.profiles[PROFILE])
compare() {
	local name="$1" tool="$2" label="$3" prof="${4:-}" tpm="$W/$1.tpm" v ev want
	v=$(uki_value "$tpm" sha256 stub)
	echo "# $name: event log, PCR 11: $(grep -c '^event ' "$W/$name.events") events: $(events "$name"); $(grep '^replay sha256 ' "$W/$name.events")"
	check "$name: the event log's PCR 11 events replay to the TPM's value" \
		test "$(sed -n 's/^replay sha256 //p' "$W/$name.events")" = "$v"
	if uki_measured "$tool" "$W/$name.efi" "$W/$name.meas" "$prof"; then
		if same_banks "$tpm" "$W/$name.meas"; then
			ok "$name: PCR 11 from the TPM = systemd-measure $label: sha256 $v ($(cut -d' ' -f1 "$tpm" | tr '\n' ' ' | sed 's/ $//'))"
		else
			not_ok "$name: PCR 11 from the TPM = systemd-measure $label" "$SAME_DIFF"
		fi
	else
		not_ok "$name: systemd-measure $label calculates PCR 11" "$(cat "$W/$name.meas.err")"
	fi
	if ! uki_predicted "$W/$name.efi" "$W/$name.pred" "$prof"; then
		not_ok "$name: sbat-add --print --json predicts PCR 11" "$(head -n 3 "$W/$name.pred.err")"
		return
	fi
	if same_banks "$W/$name.pred" "$tpm"; then
		ok "$name: PCR 11 from the TPM = sbat-add's prediction: sha256 stub $(uki_value "$W/$name.pred" sha256 stub) ($(awk '$2 == "stub" { print $1 }' "$W/$name.pred" | tr '\n' ' ' | sed 's/ $//'))"
	else
		not_ok "$name: PCR 11 from the TPM = sbat-add's prediction" "$SAME_DIFF"
	fi
	want=$(uki_measured_list "$W/$name.pred" "$prof")
	ev=$(events "$name")
	check "$name: sbat-add's measured sections are the stub's events in the log ($want)" test "$want" = "$ev"
}

# eventlog NAME: the firmware's whole event log of NAME's boot, as the guest
# printed it, replayed by sbat-add --event-log: every PCR it extends must be
# the TPM's value the guest read ("pcr BANK N HEX", as a pcr-BANK/N tree)
eventlog() {
	local name="$1" d="$W/$1.pcrs" bank pcr hex rc
	"$UKI_PY" -c 'import sys
sys.stdout.buffer.write(bytes.fromhex("".join(l[9:].strip() for l in open(sys.argv[1]) if l.startswith("eventlog "))))' \
		"$W/$name.serial.log.out" >"$W/$name.eventlog"
	rm -rf "$d"
	while read -r bank pcr hex; do
		mkdir -p "$d/pcr-$bank" && echo "$hex" >"$d/pcr-$bank/$pcr"
	done < <(sed -n 's/^pcr \([a-z0-9]* [0-9]* [0-9a-f]*\)$/\1/p' "$W/$name.serial.log.out")
	SBAT_ADD_TPM="$d" "$SBAT_ADD" --event-log "$W/$name.eventlog" --json >"$W/$name.eventlog.json" \
		2>"$W/$name.eventlog.err"
	rc=$?
	sed -n 's/^/#   /p' "$W/$name.eventlog.err"
	check "$name: sbat-add --event-log replays the firmware's log to the TPM's value of every PCR it extends (exit $rc)" \
		"$UKI_PY" -c 'import json, sys
j = json.load(open(sys.argv[1]))
assert j["tpm"] == "matches"
pcrs = {(b["bank"], p["pcr"]): p for b in j["banks"] for p in b["pcrs"]}
assert all(pcrs[("sha256", n)]["matches"] is True for n in (0, 1, 2, 3, 4, 5, 6, 7, 11))
print("# %s: %d events, banks %s; sha256 PCR 7 %s" % (sys.argv[2], len(j["events"]),
    " ".join(b["bank"] for b in j["banks"]), pcrs[("sha256", 7)]["value"]))' "$W/$name.eventlog.json" "$name"
}

# ------------------------------------------------------------ the boots
boot uki-257 && compare uki-257 "$UKI_MEASURE257" 257 && eventlog uki-257
edit uki-257 uki-257-edited
check "uki-257: sbat-add edits .sbat (no .pcrsig: allowed; exit $EDIT_RC)" test "$EDIT_RC" = 0
if [ -f "$W/uki-257-edited.efi" ] && boot uki-257-edited; then
	compare uki-257-edited "$UKI_MEASURE257" 257
	after_edit uki-257-edited
	a=$(uki_value "$W/uki-257.tpm" sha256 stub) b=$(uki_value "$W/uki-257-edited.tpm" sha256 stub)
	check "uki-257: stub 257 measures .sbat: PCR 11 changed with the edit ($a -> $b)" test -n "$a" -a -n "$b" -a "$a" != "$b"
fi

boot uki-252 && compare uki-252 "$UKI_MEASURE252" 252
# ukify 257 wrote a .sbat longer than the room before the 252 stub's .sdmagic in memory
edit uki-252 uki-252-edited --relocate
check "uki-252: sbat-add edits .sbat (--relocate; exit $EDIT_RC)" test "$EDIT_RC" = 0
if [ -f "$W/uki-252-edited.efi" ] && boot uki-252-edited; then
	compare uki-252-edited "$UKI_MEASURE252" 252
	after_edit uki-252-edited
	a=$(uki_value "$W/uki-252.tpm" sha256 stub) b=$(uki_value "$W/uki-252-edited.tpm" sha256 stub)
	check "uki-252: stub 252 does not measure .sbat: PCR 11 did not change with the edit ($a)" test -n "$a" -a "$a" = "$b"
fi

for mode in drop keep; do
	edit uki-257-signed "uki-257-signed-$mode" --pcrsig="$mode"
	check "uki-257-signed: sbat-add edits .sbat with --pcrsig=$mode (exit $EDIT_RC)" test "$EDIT_RC" = 0
	if [ "$EDIT_RC" = 0 ] && [ -f "$W/uki-257-signed-$mode.efi" ] && boot "uki-257-signed-$mode"; then
		compare "uki-257-signed-$mode" "$UKI_MEASURE257" 257
		after_edit "uki-257-signed-$mode"
	fi
done

# a UKI with two .dtbauto: OVMF (x86) has no device tree and the UKI no
# .hwids, so the stub selects none; the TPM holds the alternative that
# selects nothing, and the log has no .dtbauto event
"$UKI_PY" "$UKI_TOOL" dtb "$W/in/a.dtb" vendor,board-a
"$UKI_PY" "$UKI_TOOL" dtb "$W/in/b.dtb" vendor,board-b
if "$UKI_PY" "$UKIFY" build --linux="$VM_VMLINUZ" --initrd="$W/in/initrd.gz" --cmdline="$VM_CMDLINE" \
	--os-release=@"$W/in/os-release" --stub="$UKI_STUB257" --tools="$UKI_TRIXIE/bin" \
	--devicetree-auto="$W/in/a.dtb" --devicetree-auto="$W/in/b.dtb" --output="$W/uki-257-dtbauto.efi" \
	>"$W/uki-257-dtbauto.efi.log" 2>&1 && boot uki-257-dtbauto; then
	"$SBAT_ADD" --print --json "$W/uki-257-dtbauto.efi" >"$W/uki-257-dtbauto.json" 2>/dev/null
	none=$("$UKI_PY" -c 'import json, sys
for a in json.load(open(sys.argv[1]))["uki"]["pcr11_alternatives"]:
    if a["selects"][".dtbauto"] is None:
        print(a["pcr11"]["sha256"]["stub"])' "$W/uki-257-dtbauto.json" 2>/dev/null)
	v=$(uki_value "$W/uki-257-dtbauto.tpm" sha256 stub)
	check "uki-257-dtbauto: PCR 11 from the TPM = sbat-add's alternative that selects no .dtbauto (${none:-none})" \
		test -n "$none" -a "$none" = "$v"
	check "uki-257-dtbauto: the stub's events in the log have no .dtbauto ($(events uki-257-dtbauto))" \
		eval '[ -n "$(events uki-257-dtbauto)" ] && ! events uki-257-dtbauto | grep -q dtbauto'
fi

# ------------------------------------------------ profiles
# ukify 257 puts .sbat among the base sections, which every profile
# measures. After an edit in place (a), --remove (b) and the same CSV put
# back (c), which reuses the zeroed .oldsbat and gives (a) again, each
# profile booted must have the PCR 11 sbat-add predicts for it: profile 0 as
# the firmware starts BOOTX64.EFI (no load options), profile 1 through a
# Boot#### option whose load options are "@1", which systemd-stub takes as
# the profile (and the rest, nothing here, as the command line: it then
# uses the profile's .cmdline).
P=uki-257-profiles
if uki_build_profiles "$W/in" "$W/$P.efi" 3; then
	uki_bump_csv "$W/$P.efi" "$W/$P.csv"
	"$SBAT_ADD" --file "$W/$P.efi" --csv "$W/$P.csv" --output "$W/$P-a.efi" >"$W/$P-a.edit.out" 2>&1 &&
		"$SBAT_ADD" --file "$W/$P-a.efi" --remove --output "$W/$P-r.efi" >"$W/$P-r.edit.out" 2>&1 &&
		"$SBAT_ADD" --file "$W/$P-r.efi" --csv "$W/$P.csv" --output "$W/$P-c.efi" --verbose \
			>"$W/$P-c.edit.out" 2>"$W/$P-c.edit.err"
	EDIT_RC=$?
	grep -v -e 'PCR 11' -e 'PE/COFF image' "$W/$P-c.edit.err" | sed "s|$W/||g; s/^/# $P (c): /"
	check "$P: sbat-add edits .sbat in place (a), removes it (b) and puts the same CSV back (c) (exit $EDIT_RC)" \
		test "$EDIT_RC" = 0
	check "$P: (c) is (a) byte for byte" cmp -s "$W/$P-a.efi" "$W/$P-c.efi"
	for p in 0 1; do
		cp "$W/$P-c.efi" "$W/$P-p$p.efi"
		data=""
		[ "$p" = 0 ] || data="@$p"
		if boot "$P-p$p" "$data"; then
			check "$P-p$p: systemd-stub booted profile $p (/.extra/profile: $(sed -n 's/^profile: //p' "$W/$P-p$p.serial.log.out"))" \
				grep -qx "profile: ID=p$p" "$W/$P-p$p.serial.log.out"
			compare "$P-p$p" "$UKI_MEASURE257" 257 "$p"
			said=$(sed -n "s/.*: PCR 11 sha256 profile $p stub: [0-9a-f]* -> \([0-9a-f]*\)\$/\1/p" "$W/$P-c.edit.err" | head -n 1)
			v=$(uki_value "$W/$P-p$p.tpm" sha256 stub)
			echo "# $P profile $p: predicted ${said:-nothing} (sbat-add --verbose, putting .sbat back), TPM ${v:-nothing}"
			check "$P-p$p: PCR 11 from the TPM = what sbat-add --verbose said putting .sbat back would make profile $p's" \
				test -n "$said" -a "$said" = "$v"
		fi
	done
	a=$(uki_value "$W/$P-p0.tpm" sha256 stub 2>/dev/null) b=$(uki_value "$W/$P-p1.tpm" sha256 stub 2>/dev/null)
	check "$P: profiles 0 and 1 left different values in PCR 11 ($a, $b)" test -n "$a" -a -n "$b" -a "$a" != "$b"
else
	not_ok "ukify builds $P.efi with 3 profiles" "$(tail -n 5 "$W/$P.efi.log")"
fi

tap_finish
