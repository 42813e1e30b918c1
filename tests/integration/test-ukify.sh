#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# test-ukify.sh - sbat-add on unified kernel images built by the real ukify
# (Debian 13, 257) on the real systemd-stub (Debian 13's 257, Debian 12's
# 252), without a VM (../vm/test-tpm.sh boots them with a software TPM):
# - sbat-add's PCR 11 prediction (--print --json: uki.pcr11) equals what
#   systemd-measure calculates from the image's sections: systemd-measure 257
#   for the 257 stub, Debian 12's systemd-measure 252 for the 252 stub (whose
#   measured sections 252 all knows), before and after each edit;
# - an edit of the .sbat of a UKI signed with ukify --pcr-private-key (it
#   carries .pcrsig) whose stub measures .sbat is refused and leaves the file
#   alone; --pcrsig=drop and --pcrsig=keep proceed as documented; the same
#   edit of a 252-stub UKI, whose stub does not measure .sbat, is not refused
#   and does not change the prediction; --pcrsig=drop --relocate removes
#   the last .pcrsig and moves .sbat in one edit;
# - a UKI with two .dtbauto: each of the three PCR 11 alternatives sbat-add
#   predicts equals systemd-measure 257's calculate for that selection.
# TAP. Skips (the plan 1..0 # SKIP, exit 0) without the tools or the corpus,
# unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../vm/lib.sh"
. "$HERE/../lib/tap.sh"
. "$HERE/uki-lib.sh"
need_env SBAT_ADD

skip_or_fail() {
	if [ "${CI:-}" = true ]; then
		not_ok "UKI tests: $1"
		exit 1
	fi
	skip_all "$1"
}

W="${SBAT_UKI_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/sbat-uki.XXXXXX")}"
rm -rf "$W"
mkdir -p "$W"
vm_missing && skip_or_fail "$VM_WHY"
vm_kernel || skip_or_fail "$VM_WHY"
uki_tools || skip_or_fail "$UKI_WHY"
echo "# $UKI_VERSIONS"
echo "# kernel $VM_VMLINUZ; work directory $W"
uki_inputs "$W/in" || skip_or_fail "cannot make the initramfs or the key pair (see $W/in)"

# ------------------------------------------------------------ the images
# NAME STUB [signed]
build() {
	local name="$1" stub="$2" secs
	if uki_build "$W/in" "$W/$name.efi" "$stub" "${3:-}"; then
		secs=$(uki_sections "$W/$name.efi")
		ok "ukify builds $name.efi on $(uki_stub_version "$stub"): $secs"
	else
		not_ok "ukify builds $name.efi" "$(tail -n 5 "$W/$name.efi.log")"
	fi
}
build uki-257 "$UKI_STUB257"
build uki-257-signed "$UKI_STUB257" signed
build uki-252 "$UKI_STUB252"
build uki-252-signed "$UKI_STUB252" signed
for f in uki-257-signed uki-252-signed; do
	check "$f.efi carries .pcrsig and .pcrpkey (ukify ran systemd-measure 257 sign)" \
		eval 'uki_has_section "$W/$f.efi" .pcrsig && uki_has_section "$W/$f.efi" .pcrpkey'
done
check "uki-257.efi carries neither .pcrsig nor .pcrpkey" \
	eval '! uki_has_section "$W/uki-257.efi" .pcrsig && ! uki_has_section "$W/uki-257.efi" .pcrpkey'

# ------------------------------------------------- prediction vs systemd-measure
# predict NAME: sbat-add's prediction for NAME.efi in $W/NAME.pred, compared
# with systemd-measure MEASURE (257 or 252) in $W/NAME.meas
predict() {
	local name="$1" tool="$2" label="$3" s
	[ -f "$W/$name.efi" ] || return 0 # the edit that makes it failed (reported)
	if ! uki_measured "$tool" "$W/$name.efi" "$W/$name.meas"; then
		not_ok "$name: systemd-measure $label calculates PCR 11" "$(cat "$W/$name.meas.err" 2>/dev/null)"
		return
	fi
	echo "# $name: systemd-measure $label: stub $(uki_value "$W/$name.meas" sha256 stub) (sha256), $(grep -c . "$W/$name.meas") values"
	uki_predicted "$W/$name.efi" "$W/$name.pred"
	s=$?
	if [ "$s" != 0 ]; then
		not_ok "$name: sbat-add --print --json predicts PCR 11 (exit $s)" "$(head -n 3 "$W/$name.pred.err")"
		return
	fi
	if uki_agree "$W/$name.pred" "$W/$name.meas"; then
		ok "$name: sbat-add's PCR 11 prediction = systemd-measure $label: stub $(uki_value "$W/$name.pred" sha256 stub), $(grep -c . "$W/$name.pred") values in $(cut -d' ' -f1 "$W/$name.pred" | sort -u | tr '\n' ' ' | sed 's/ $//')"
	else
		not_ok "$name: sbat-add's PCR 11 prediction = systemd-measure $label" "$UKI_DIFF"
	fi
}

# fields NAME VERSION PCRSIG PCRPKEY: the "uki" object's description of the image
fields() {
	local name="$1" ver="$2" v
	check "$name: uki.stub is systemd-stub" test "$(uki_field "$W/$name.pred" stub 2>/dev/null)" = systemd-stub
	v=$(uki_field "$W/$name.pred" stub_version 2>/dev/null)
	check "$name: uki.stub_version $v is the stub's ($ver)" test "$v" = "$ver"
	check "$name: uki.pcrsig $3, uki.pcrpkey $4" \
		test "$(uki_field "$W/$name.pred" pcrsig 2>/dev/null) $(uki_field "$W/$name.pred" pcrpkey 2>/dev/null)" = "$3 $4"
}

V257=$(uki_stub_version "$UKI_STUB257")
V252=$(uki_stub_version "$UKI_STUB252")
predict uki-257 "$UKI_MEASURE257" 257
fields uki-257 "$V257" false false
predict uki-257-signed "$UKI_MEASURE257" 257
fields uki-257-signed "$V257" true true
predict uki-252 "$UKI_MEASURE252" 252
fields uki-252 "$V252" false false
predict uki-252-signed "$UKI_MEASURE252" 252
fields uki-252-signed "$V252" true true
m257=$(uki_measured_list "$W/uki-257.pred" 2>/dev/null)
m252=$(uki_measured_list "$W/uki-252.pred" 2>/dev/null)
check "uki-257: the 257 stub measures .linux and .sbat ($m257)" \
	eval 'grep -qF " .linux " <<<" $m257 " && grep -qF " .sbat " <<<" $m257 "'
check "uki-252: the 252 stub measures .linux, not .sbat ($m252)" \
	eval 'grep -qF " .linux " <<<" $m252 " && ! grep -qF " .sbat " <<<" $m252 "'

# ukify 257 signs what systemd-measure 257 calculates, which for the 252 stub
# includes sections (.uname, .sbat) that stub does not measure
a=$(uki_value "$W/uki-252-signed.meas" sha256 stub)
uki_measured "$UKI_MEASURE257" "$W/uki-252-signed.efi" "$W/uki-252-signed.meas257"
b=$(uki_value "$W/uki-252-signed.meas257" sha256 stub)
check "uki-252-signed: systemd-measure 257 (what ukify signed: $b) differs from 252 (what the 252 stub measures: $a)" \
	test -n "$a" -a -n "$b" -a "$a" != "$b"

# lint: a signature that matches (from ukify) or does not (kept over an edit, or for the wrong stub)
# stale NAME yes|no
stale() {
	local rc lint="$W/$1.lint"
	"$SBAT_ADD" --lint "$W/$1.efi" >"$lint" 2>&1
	rc=$?
	if [ "$2" = yes ]; then
		check "$1: --lint reports uki-pcrsig-stale (exit $rc)" grep -q 'uki-pcrsig-stale' "$lint"
	else
		check "$1: --lint reports no uki-pcrsig-stale (exit $rc)" \
			eval '{ [ "$rc" = 0 ] || [ "$rc" = 5 ]; } && [ -s "$lint" ] && ! grep -q "uki-pcrsig-stale" "$lint"'
	fi
}
stale uki-257-signed no
stale uki-252-signed yes

# ------------------------------------------------------- edits of .sbat
# edit NAME OUT [OPTIONS]: sbat-add writes NAME.efi with the "uki" row's
# generation raised to OUT.efi; rc, stdout and stderr in $W/OUT.rc, .out, .err
edit() {
	local name="$1" out="$2"
	shift 2
	[ -s "$W/$name.csv" ] || uki_bump_csv "$W/$name.efi" "$W/$name.csv" || return 1
	rm -f "$W/$out.efi"
	"$SBAT_ADD" --file "$W/$name.efi" --csv "$W/$name.csv" --output "$W/$out.efi" "$@" >"$W/$out.out" 2>"$W/$out.err"
	echo $? >"$W/$out.rc"
}
rc_of() { cat "$W/$1.rc"; }

# the plain 257 UKI: no .pcrsig, nothing signed goes stale
edit uki-257 uki-257-edited
check "uki-257: the .sbat edit is done (exit $(rc_of uki-257-edited))" test "$(rc_of uki-257-edited)" = 0
check "... --print shows the new CSV" eval 'cmp -s <("$SBAT_ADD" --print "$W/uki-257-edited.efi" 2>/dev/null) "$W/uki-257.csv"'
predict uki-257-edited "$UKI_MEASURE257" 257
a=$(uki_value "$W/uki-257.pred" sha256 stub 2>/dev/null) b=$(uki_value "$W/uki-257-edited.pred" sha256 stub 2>/dev/null)
check "uki-257: the 257 stub measures .sbat: the predicted value changes ($a -> $b)" \
	test -n "$a" -a -n "$b" -a "$a" != "$b"

# (a) the signed 257 UKI: refused, then --pcrsig=drop and --pcrsig=keep
S="$W/uki-257-signed.efi"
cp "$S" "$W/uki-257-signed.orig"
uki_bump_csv "$S" "$W/uki-257-signed.csv"
"$SBAT_ADD" --file "$S" --csv "$W/uki-257-signed.csv" >"$W/refused.out" 2>"$W/refused.err"
rc=$?
echo "# refused in place: exit $rc: $(head -n 3 "$W/refused.err" | tr '\n' '|')"
check "uki-257-signed: the .sbat edit is refused (exit 1, got $rc)" test "$rc" = 1
check "... with one line that names .pcrsig" \
	eval '[ "$(wc -l <"$W/refused.err")" = 1 ] && grep -qF .pcrsig "$W/refused.err"'
check "... and the file is unchanged" cmp -s "$S" "$W/uki-257-signed.orig"
cp -f "$W/uki-257-signed.orig" "$S"
edit uki-257-signed uki-257-signed-refused
check "... with --output too (exit $(rc_of uki-257-signed-refused)), and nothing is written" \
	eval '[ "$(rc_of uki-257-signed-refused)" = 1 ] && [ ! -e "$W/uki-257-signed-refused.efi" ]'

edit uki-257-signed uki-257-signed-drop --pcrsig=drop
echo "# --pcrsig=drop: exit $(rc_of uki-257-signed-drop): $(head -n 3 "$W/uki-257-signed-drop.err" | tr '\n' '|')"
check "uki-257-signed --pcrsig=drop: done (exit $(rc_of uki-257-signed-drop))" test "$(rc_of uki-257-signed-drop)" = 0
check "... the result has no .pcrsig and keeps .pcrpkey ($(uki_sections "$W/uki-257-signed-drop.efi" 2>/dev/null))" \
	eval '! uki_has_section "$W/uki-257-signed-drop.efi" .pcrsig && uki_has_section "$W/uki-257-signed-drop.efi" .pcrpkey'
check "... --print shows the new CSV" eval 'cmp -s <("$SBAT_ADD" --print "$W/uki-257-signed-drop.efi" 2>/dev/null) "$W/uki-257-signed.csv"'
predict uki-257-signed-drop "$UKI_MEASURE257" 257
fields uki-257-signed-drop "$V257" false true

edit uki-257-signed uki-257-signed-keep --pcrsig=keep
echo "# --pcrsig=keep: exit $(rc_of uki-257-signed-keep): $(head -n 3 "$W/uki-257-signed-keep.err" | tr '\n' '|')"
check "uki-257-signed --pcrsig=keep: done (exit $(rc_of uki-257-signed-keep))" test "$(rc_of uki-257-signed-keep)" = 0
check "... with a warning that names .pcrsig" grep -qF .pcrsig "$W/uki-257-signed-keep.err"
check "... the result keeps .pcrsig byte for byte" \
	eval 'uki_has_section "$W/uki-257-signed-keep.efi" .pcrsig && cmp -s <("$UKI_PY" "$UKI_TOOL" section "$W/uki-257-signed-keep.efi" .pcrsig) <("$UKI_PY" "$UKI_TOOL" section "$S" .pcrsig)'
check "... --print shows the new CSV" eval 'cmp -s <("$SBAT_ADD" --print "$W/uki-257-signed-keep.efi" 2>/dev/null) "$W/uki-257-signed.csv"'
predict uki-257-signed-keep "$UKI_MEASURE257" 257
stale uki-257-signed-keep yes
stale uki-257-signed-drop no
fields uki-257-signed-keep "$V257" true true
a=$(uki_value "$W/uki-257-signed.pred" sha256 stub 2>/dev/null)
b=$(uki_value "$W/uki-257-signed-drop.pred" sha256 stub 2>/dev/null)
c=$(uki_value "$W/uki-257-signed-keep.pred" sha256 stub 2>/dev/null)
check "uki-257-signed: both results are predicted to measure alike ($b, $c), unlike the original ($a)" \
	test -n "$a" -a -n "$b" -a "$b" = "$c" -a "$a" != "$b"

# ukify puts .pcrsig last: --pcrsig=drop --relocate takes it out and moves
# .sbat (a CSV larger than its 512 bytes) in one edit, the new .sbat's
# header in the slot .pcrsig's header had
B="$W/uki-257-signed-big.csv"
{ cat "$W/uki-257-signed.csv"; for i in $(seq 1 12); do echo "comp$i,1,Component $i,comp$i,1.$i,https://example.invalid/comp$i"; done; } >"$B"
rm -f "$W/uki-257-signed-droprel.efi"
"$SBAT_ADD" --file "$S" --csv "$B" --output "$W/uki-257-signed-droprel.efi" --pcrsig=drop --relocate \
	>"$W/uki-257-signed-droprel.out" 2>"$W/uki-257-signed-droprel.err"
rc=$?
echo "# --pcrsig=drop --relocate: exit $rc: $(head -n 3 "$W/uki-257-signed-droprel.err" | tr '\n' '|')"
check "uki-257-signed --pcrsig=drop --relocate: done (exit $rc)" test "$rc" = 0
secs=$(uki_sections "$W/uki-257-signed-droprel.efi" 2>/dev/null)
check "... no .pcrsig, the new .sbat last, the old one renamed ($secs)" \
	eval '! uki_has_section "$W/uki-257-signed-droprel.efi" .pcrsig && [ "${secs##* }" = .sbat ] && grep -qF " .oldsbat " <<<" $secs "'
check "... --print shows the new CSV" eval 'cmp -s <("$SBAT_ADD" --print "$W/uki-257-signed-droprel.efi" 2>/dev/null) "$B"'
predict uki-257-signed-droprel "$UKI_MEASURE257" 257
stale uki-257-signed-droprel no

# the signed 252 UKI: the 252 stub does not measure .sbat, so nothing goes
# stale. ukify 257 wrote a .sbat longer than the room before the 252 stub's
# .sdmagic in memory: sbat-add moves it (--relocate).
edit uki-252-signed uki-252-signed-edited --relocate
echo "# uki-252-signed: exit $(rc_of uki-252-signed-edited): $(head -n 3 "$W/uki-252-signed-edited.err" | tr '\n' '|')"
check "uki-252-signed (.pcrsig, stub 252): the .sbat edit is not refused (exit $(rc_of uki-252-signed-edited))" \
	test "$(rc_of uki-252-signed-edited)" = 0
check "... --print shows the new CSV" eval 'cmp -s <("$SBAT_ADD" --print "$W/uki-252-signed-edited.efi" 2>/dev/null) "$W/uki-252-signed.csv"'
predict uki-252-signed-edited "$UKI_MEASURE252" 252
a=$(uki_value "$W/uki-252-signed.pred" sha256 stub 2>/dev/null) b=$(uki_value "$W/uki-252-signed-edited.pred" sha256 stub 2>/dev/null)
check "uki-252-signed: the predicted value does not change ($a)" test -n "$a" -a "$a" = "$b"
edit uki-252 uki-252-edited --relocate
check "uki-252: the .sbat edit is done (exit $(rc_of uki-252-edited))" test "$(rc_of uki-252-edited)" = 0
predict uki-252-edited "$UKI_MEASURE252" 252
a=$(uki_value "$W/uki-252.pred" sha256 stub 2>/dev/null) b=$(uki_value "$W/uki-252-edited.pred" sha256 stub 2>/dev/null)
check "uki-252: the predicted value does not change ($a)" test -n "$a" -a "$a" = "$b"

# ------------------------------------- .dtbauto: the machine selects one
# ukify puts each --devicetree-auto file (two device trees of different
# compatibles: only such a .dtbauto can be selected) in a .dtbauto of its
# own; the stub measures the first that matches the machine, or none, so
# sbat-add predicts three values. systemd-measure 257 measures the file of its --hwids option
# as .dtbauto (and that of --dtbauto as .hwids), so the device tree goes to
# --hwids here.
"$UKI_PY" "$UKI_TOOL" dtb "$W/in/a.dtb" vendor,board-a
"$UKI_PY" "$UKI_TOOL" dtb "$W/in/b.dtb" vendor,board-b
D="$W/uki-257-dtbauto"
if "$UKI_PY" "$UKIFY" build --linux="$VM_VMLINUZ" --initrd="$W/in/initrd.gz" --cmdline="$VM_CMDLINE" \
	--os-release=@"$W/in/os-release" --stub="$UKI_STUB257" --tools="$UKI_TRIXIE/bin" \
	--devicetree-auto="$W/in/a.dtb" --devicetree-auto="$W/in/b.dtb" --output="$D.efi" >"$D.efi.log" 2>&1; then
	ok "ukify builds uki-257-dtbauto.efi with two .dtbauto: $(uki_sections "$D.efi")"
else
	not_ok "ukify builds uki-257-dtbauto.efi" "$(tail -n 5 "$D.efi.log")"
fi
"$SBAT_ADD" --print --json "$D.efi" >"$D.json" 2>"$D.err"
check "uki-257-dtbauto: no single predicted value, three alternatives (none, either .dtbauto)" \
	test "$(uki_field "$D" pcr11):$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["uki"]["pcr11_alternatives"]))' "$D.json")" = "null:3"
rm -rf "$D.sections"
"$UKI_PY" "$UKI_TOOL" sections "$D.efi" "$D.sections" >/dev/null
args=()
for name in linux osrel cmdline initrd uname sbat; do
	[ -f "$D.sections/$name" ] && args+=("--$name=$D.sections/$name")
done
for alt in none a b; do
	extra=()
	[ "$alt" = none ] || extra=("--hwids=$W/in/$alt.dtb")
	"$UKI_MEASURE257" calculate --json=short --bank=sha256 "${args[@]}" "${extra[@]}" --phase= >"$D.$alt.stub.json" 2>>"$D.err" &&
		"$UKI_MEASURE257" calculate --json=short --bank=sha256 "${args[@]}" "${extra[@]}" >"$D.$alt.phases.json" 2>>"$D.err"
	meas=$("$UKI_PY" "$UKI_TOOL" measured "$D.$alt.stub.json" "$D.$alt.phases.json" 2>/dev/null | sort)
	# the alternative whose .dtbauto holds that file (none: the one without)
	pred=$("$UKI_PY" - "$D.efi" "$D.json" "$W/in/$alt.dtb" <<'PY' 2>/dev/null | sort
import json, os, sys
import pefile
pe = pefile.PE(sys.argv[1], fast_load=True)
want = open(sys.argv[3], "rb").read() if os.path.exists(sys.argv[3]) else None
for a in json.load(open(sys.argv[2]))["uki"]["pcr11_alternatives"]:
    i = a["selects"][".dtbauto"]
    data = None
    if i is not None:
        s = pe.sections[i]
        data = pe.__data__[s.PointerToRawData:s.PointerToRawData + min(s.Misc_VirtualSize, s.SizeOfRawData)]
    if data == want:
        for phase, value in a["pcr11"]["sha256"].items():
            print("sha256", phase, value)
PY
)
	check "uki-257-dtbauto: the alternative with .dtbauto $alt = systemd-measure 257 calculate ($(printf '%s\n' "$pred" | awk '$2 == "stub" { print $3 }'))" \
		test -n "$pred" -a "$pred" = "$meas"
done


# ------------------------------------- profiles: .sbat among the base sections
# ukify 257 with three profiles: the base's .sbat comes before the first
# .profile, so every profile measures it. (a) the "uki" row's generation
# raised in place, (b) --remove (.sbat becomes a zeroed .oldsbat where it
# was), (c) the same CSV put back: sbat-add reuses that slot, and (c) is (a)
# byte for byte. Each profile's PCR 11 predicted (uki.profiles[N].pcr11)
# equals systemd-measure 257's calculate over the sections the stub finds
# for profile N (the base's, overridden by the profile's).
P=uki-257-profiles
if uki_build_profiles "$W/in" "$W/$P.efi" 3; then
	ok "ukify builds $P.efi with 3 profiles: $("$UKI_PY" "$UKI_TOOL" names "$W/$P.efi")"
else
	not_ok "ukify builds $P.efi with 3 profiles" "$(tail -n 5 "$W/$P.efi.log")"
fi
# names IMAGE: its section names in file order
names() { "$UKI_PY" "$UKI_TOOL" names "$1" 2>/dev/null; }
# before_profile IMAGE NAME: NAME is a section before the first .profile
before_profile() { names "$1" | tr ' ' '\n' | sed '/^\.profile$/,$d' | grep -qxF "$2"; }
# profiles NAME yes|no: its profiles' predictions against systemd-measure 257,
# each profile measuring .sbat (yes) or not; PROFILE_STUBS the three sha256
# "stub" values
profiles() {
	local name="$1" count s m p
	PROFILE_STUBS=""
	for p in 0 1 2; do
		if ! uki_measured "$UKI_MEASURE257" "$W/$name.efi" "$W/$name.$p.meas" "$p"; then
			not_ok "$name profile $p: systemd-measure 257 calculates PCR 11" "$(cat "$W/$name.$p.meas.err" 2>/dev/null)"
			continue
		fi
		uki_predicted "$W/$name.efi" "$W/$name.$p.pred" "$p"
		s=$(uki_value "$W/$name.$p.pred" sha256 stub)
		PROFILE_STUBS="$PROFILE_STUBS $s"
		if uki_agree "$W/$name.$p.pred" "$W/$name.$p.meas"; then
			ok "$name profile $p: sbat-add's PCR 11 prediction = systemd-measure 257 over the base's and profile $p's sections: stub $s, $(grep -c . "$W/$name.$p.pred") values"
		else
			not_ok "$name profile $p: sbat-add's PCR 11 prediction = systemd-measure 257" "$UKI_DIFF"
		fi
		m=$(uki_measured_list "$W/$name.$p.pred" "$p")
		if [ "$2" = yes ]; then
			check "$name profile $p measures .sbat ($m)" grep -qF " .sbat " <<<" $m "
		else
			check "$name profile $p measures no .sbat ($m)" eval '[ -n "$m" ] && ! grep -qF " .sbat " <<<" $m "'
		fi
	done
	PROFILE_STUBS="${PROFILE_STUBS# }"
	count=$("$UKI_PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["uki"]["profiles"]))' \
		"$W/$name.0.pred.json" 2>/dev/null)
	check "$name: sbat-add --print --json shows 3 profiles (${count:-none})" test "$count" = 3
}
# pedit IN OUT [OPTIONS]: sbat-add --file IN.efi --output OUT.efi --verbose OPTIONS; rc in OUT.rc
pedit() {
	local in="$1" out="$2"
	shift 2
	rm -f "$W/$out.efi"
	"$SBAT_ADD" --file "$W/$in.efi" --output "$W/$out.efi" --verbose "$@" >"$W/$out.out" 2>"$W/$out.err"
	echo $? >"$W/$out.rc"
	echo "# $out: sbat-add $* --verbose: exit $(rc_of "$out"): $(grep -v -e 'PCR 11' -e 'PE/COFF image' "$W/$out.err" "$W/$out.out" |
		cut -d: -f2- | head -n 3 | tr '\n' '|')" | sed "s|$W/||g"
}
check "$P: .sbat is among the base sections (before the first .profile)" before_profile "$W/$P.efi" .sbat
uki_bump_csv "$W/$P.efi" "$W/$P.csv"
profiles "$P" yes
orig="$PROFILE_STUBS"
check "$P: the three profiles measure differently ($orig)" \
	eval '[ "$(tr " " "\n" <<<"$orig" | sort -u | grep -c .)" = 3 ]'

pedit "$P" "$P-a" --csv "$W/$P.csv"
check "$P (a): the .sbat edit in place is done (exit $(rc_of "$P-a"))" test "$(rc_of "$P-a")" = 0
check "... .sbat is still among the base sections ($(names "$W/$P-a.efi"))" before_profile "$W/$P-a.efi" .sbat
check "... --print shows the new CSV" eval 'cmp -s <("$SBAT_ADD" --print "$W/$P-a.efi" 2>/dev/null) "$W/$P.csv"'
profiles "$P-a" yes
a="$PROFILE_STUBS"
pedit "$P-a" "$P-r" --remove
check "$P (b): --remove is done (exit $(rc_of "$P-r"))" test "$(rc_of "$P-r")" = 0
check "... .sbat is gone, a .oldsbat is among the base sections ($(names "$W/$P-r.efi"))" \
	eval '! names "$W/$P-r.efi" | grep -qw "\.sbat" && before_profile "$W/$P-r.efi" .oldsbat'
profiles "$P-r" no
r="$PROFILE_STUBS"
pedit "$P-r" "$P-c" --csv "$W/$P.csv"
check "$P (c): the same CSV put back is done (exit $(rc_of "$P-c"))" test "$(rc_of "$P-c")" = 0
check "... into the zeroed .oldsbat: the image is (a)'s byte for byte" cmp -s "$W/$P-a.efi" "$W/$P-c.efi"
profiles "$P-c" yes
c="$PROFILE_STUBS"
# each_differs "A1 A2 A3" "B1 B2 B3": three values each, and no Bi is its Ai
each_differs() {
	local -a x y
	read -ra x <<<"$1"
	read -ra y <<<"$2"
	[ "${#x[@]}" = 3 ] && [ "${#y[@]}" = 3 ] && [ "${x[0]}" != "${y[0]}" ] && [ "${x[1]}" != "${y[1]}" ] &&
		[ "${x[2]}" != "${y[2]}" ]
}
check "$P: every profile's value changed with the edit (a)" each_differs "$orig" "$a"
check "$P: ... again with --remove (b)" each_differs "$a" "$r"
check "$P: ... and after (c) it is (a)'s" test -n "$a" -a "$a" = "$c"
# too large for the slot: refused with what to run, the file left alone
B="$W/$P-big.csv"
{ cat "$W/$P.csv"; for i in $(seq 1 12); do echo "comp$i,1,Component $i,comp$i,1.$i,https://example.invalid/comp$i"; done; } >"$B"
cp "$W/$P-r.efi" "$W/$P-r.orig"
"$SBAT_ADD" --file "$W/$P-r.efi" --csv "$B" --relocate >"$W/$P-big.out" 2>"$W/$P-big.err"
rc=$?
echo "# $P (b) with a larger CSV: exit $rc: $(head -n 3 "$W/$P-big.err" | tr '\n' '|')" | sed "s|$W/||g"
check "$P (b): a CSV larger than the .oldsbat slot is refused (exit 1, got $rc), naming .profile" \
	eval '[ "$rc" = 1 ] && grep -qF .profile "$W/$P-big.err"'
check "... and the file is unchanged" cmp -s "$W/$P-r.efi" "$W/$P-r.orig"

tap_finish
