#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# Real-binary integration suite for sbat-add. See README.md in this directory.
#
# usage: run.sh [--no-boot] [--no-shim] [--only NAME]... [--keep]
#
# Environment:
#   SBAT_ADD                  the sbat-add binary (default: build/sbat-add, then $PATH)
#   SBAT_CORPUS_DIR           corpus cache (default ${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus)
#   SBAT_INTEGRATION_WORKDIR  work/log directory (default: a new one under ${TMPDIR:-/tmp})
#   SBAT_SKIP_BOOT=1          same as --no-boot (qemu and firmware are then not required)
#   SBAT_SKIP_SHIM=1          same as --no-shim (skip the Secure Boot chain through shim)
#   SBAT_BOOT_TIMEOUT         seconds per qemu boot on an idle machine (default 90): scaled
#                             by the load per CPU, and a boot that times out is tried once
#                             more with twice the time (both said in the log)
#   CI=true                   a missing tool is a failure instead of a skip (exit 77)
#
# Exit status: 0 all passed, 1 something failed, 77 skipped (a required tool
# is missing and CI is not "true").
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRCROOT="$(cd "$HERE/../.." && pwd)"
PY="${SBAT_PYTHON:-/usr/bin/python3}"
CHECK="$HERE/check-image.py"
BOOT_TIMEOUT="${SBAT_BOOT_TIMEOUT:-90}"
DO_BOOT=1
DO_SHIM=1
KEEP=0
ONLY=()
[ "${SBAT_SKIP_BOOT:-0}" = 1 ] && DO_BOOT=0
[ "${SBAT_SKIP_SHIM:-0}" = 1 ] && DO_SHIM=0

while [ $# -gt 0 ]; do
	case "$1" in
	--no-boot) DO_BOOT=0 ;;
	--no-shim) DO_SHIM=0 ;;
	--keep) KEEP=1 ;;
	--only)
		shift
		ONLY+=("${1:?--only needs a corpus name}")
		;;
	-h | --help)
		sed -n '4,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "run.sh: unknown argument: $1" >&2
		exit 2
		;;
	esac
	shift
done
[ "$DO_BOOT" = 0 ] && DO_SHIM=0

START_TIME=$SECONDS
say() { printf '%s\n' "$*"; }
hr() { say "------------------------------------------------------------------------------"; }

# ------------------------------------------------------------ requirements
if [ -z "${SBAT_ADD:-}" ]; then
	if [ -x "$SRCROOT/build/sbat-add" ]; then
		SBAT_ADD="$SRCROOT/build/sbat-add"
	else
		SBAT_ADD="$(command -v sbat-add || true)"
	fi
fi

MISSING=()
need_cmd() { # need_cmd COMMAND DEBIAN-PACKAGE
	command -v "$1" >/dev/null 2>&1 || MISSING+=("$1 (package $2)")
}
need_file() { # need_file PATH DEBIAN-PACKAGE
	[ -e "$1" ] || MISSING+=("$1 (package $2)")
}
[ -n "$SBAT_ADD" ] && [ -x "$SBAT_ADD" ] || MISSING+=("sbat-add binary (set SBAT_ADD or build it: meson setup build && ninja -C build)")
if [ -x "$PY" ]; then
	"$PY" -c 'import pefile' 2>/dev/null || MISSING+=("python module pefile (package python3-pefile)")
else
	MISSING+=("$PY (package python3)")
fi
need_cmd apt-get apt
need_cmd dpkg-deb dpkg
need_cmd objdump binutils
need_cmd aarch64-linux-gnu-objdump binutils-aarch64-linux-gnu
need_cmd llvm-readobj llvm
need_cmd sbsign sbsigntool
need_cmd sbverify sbsigntool
need_cmd osslsigncode osslsigncode
need_cmd openssl openssl
need_cmd cmp diffutils
need_cmd timeout coreutils
if [ "$DO_BOOT" = 1 ]; then
	need_cmd qemu-system-x86_64 qemu-system-x86
	need_cmd qemu-system-aarch64 qemu-system-arm
	need_file /usr/share/OVMF/OVMF_CODE_4M.fd ovmf
	need_file /usr/share/OVMF/OVMF_VARS_4M.fd ovmf
	need_file /usr/share/AAVMF/AAVMF_CODE.fd qemu-efi-aarch64
	need_file /usr/share/AAVMF/AAVMF_VARS.fd qemu-efi-aarch64
fi
if [ "$DO_SHIM" = 1 ]; then
	need_file /usr/share/OVMF/OVMF_CODE_4M.secboot.fd ovmf
	need_file /usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd ovmf
	need_file /usr/share/ovmf/PkKek-1-snakeoil.key ovmf
	need_file /usr/share/ovmf/PkKek-1-snakeoil.pem ovmf
fi

if [ ${#MISSING[@]} -gt 0 ]; then
	say "run.sh: required tools are missing:"
	for m in "${MISSING[@]}"; do say "  - $m"; done
	say "install them with:"
	say "  apt-get install python3-pefile binutils binutils-aarch64-linux-gnu llvm sbsigntool osslsigncode openssl qemu-system-x86 qemu-system-arm ovmf qemu-efi-aarch64"
	if [ "${CI:-}" = true ]; then
		say "0 passed, 1 failed"
		exit 1
	fi
	say "SKIP: integration suite not run (missing tools; set CI=true to make this a failure)"
	exit 77
fi

# ------------------------------------------------------------------- corpus
CACHE="${SBAT_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus}"
export SBAT_CORPUS_DIR="$CACHE"
MANIFEST="$CACHE/corpus/MANIFEST.tsv"
say "== corpus ($CACHE)"
FETCHED=1
bash "$HERE/fetch-corpus.sh" || FETCHED=0
if ! grep -q '^[^#]' "$MANIFEST" 2>/dev/null; then # no corpus entry, e.g. offline
	say "run.sh: the corpus could not be fetched (needs root and Debian's package archive)"
	if [ "${CI:-}" = true ]; then
		say "0 passed, 1 failed"
		exit 1
	fi
	say "SKIP: integration suite not run (no corpus: no access to Debian's package archive, or not root)"
	exit 77
fi
[ "$FETCHED" = 1 ] || say "run.sh: WARNING: corpus incomplete; testing what is there"

# ------------------------------------------------------------------ workdir
if [ -n "${SBAT_INTEGRATION_WORKDIR:-}" ]; then
	WORK="$SBAT_INTEGRATION_WORKDIR"
	if [ -e "$WORK" ] && [ ! -e "$WORK/.sbat-add-integration" ]; then
		if [ -n "$(ls -A "$WORK" 2>/dev/null)" ]; then
			say "run.sh: $WORK exists and is not an integration work directory; refusing to clear it" >&2
			exit 2
		fi
	fi
	rm -rf "$WORK"
	mkdir -p "$WORK"
else
	WORK="$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-integration.XXXXXX")"
	KEEP=1
fi
touch "$WORK/.sbat-add-integration"
LOGS="$WORK/logs"
mkdir -p "$LOGS"
say "== work directory: $WORK (logs in $LOGS)"
say "== sbat-add: $SBAT_ADD"

QEMU_PIDS=()
cleanup() {
	local p
	for p in "${QEMU_PIDS[@]:-}"; do
		[ -n "$p" ] && kill "$p" 2>/dev/null || true
	done
}
trap cleanup EXIT

# ----------------------------------------------------------------- results
PASSED=0
FAILED=0
declare -A CELL=()   # CELL[name/column] = PASS | FAIL | refused | n/a | skip
declare -A NOTE=()   # first failure message per name
REJECTIONS=()        # validator / firmware rejections of sbat-add output
CUR=""
CURLOG=""

cell() { # cell NAME COLUMN STATUS: FAIL sticks
	local key="$1/$2"
	if [ "${CELL[$key]:-}" = FAIL ]; then return 0; fi
	CELL[$key]="$3"
}
pass() { # pass COLUMN MESSAGE
	PASSED=$((PASSED + 1))
	say "  PASS [$1] $2"
	printf 'PASS [%s] %s\n' "$1" "$2" >>"$CURLOG"
	cell "$CUR" "$1" PASS
}
fail() { # fail COLUMN MESSAGE
	FAILED=$((FAILED + 1))
	say "  FAIL [$1] $2"
	printf 'FAIL [%s] %s\n' "$1" "$2" >>"$CURLOG"
	cell "$CUR" "$1" FAIL
	[ -n "${NOTE[$CUR]:-}" ] || NOTE[$CUR]="$2"
}
reject() { # reject COLUMN WHO MESSAGE: a validator/firmware rejected our output
	fail "$1" "$2 rejected the output: $3"
	REJECTIONS+=("$CUR [$1] $2: $3")
}
sha() { sha256sum "$1" | cut -d' ' -f1; }

# tool OUTPREFIX ARGS...: run sbat-add; rc in $RC, output in OUTPREFIX.{out,err}
tool() {
	local pre="$1"
	shift
	RC=0
	printf '$ sbat-add %s\n' "$*" >>"$CURLOG"
	"$SBAT_ADD" "$@" >"$pre.out" 2>"$pre.err" </dev/null || RC=$?
	printf '  -> exit %s\n' "$RC" >>"$CURLOG"
	sed 's/^/  stderr: /' "$pre.err" >>"$CURLOG"
}
first_err() { head -n 3 "$1.err" | tr '\n' ' ' | cut -c1-300; }

# check IN OUT CSV COLUMN LABEL: run check-image.py
check() { check_as "" "$@"; }

# check_as MODE IN OUT CSV COLUMN LABEL: check-image.py --MODE (relocated,
# removed, same-but-checksum; "" for insert/replace); CSV may be ""
check_as() {
	local mode="$1" in="$2" out="$3" csv="$4" col="$5" label="$6" log rc=0 args=()
	log="$CURLOG.check-$label"
	[ -n "$mode" ] && args+=("--$mode")
	[ -n "$csv" ] && args+=(--csv "$csv")
	"$PY" "$CHECK" "${args[@]}" "$in" "$out" >"$log" 2>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		pass "$col" "check-image${mode:+ --$mode} $label: $(tail -n 1 "$log" | sed 's/ (.*//; s/^check-image: //')"
	else
		fail "$col" "check-image${mode:+ --$mode} $label: $(grep -E '^FAIL' "$log" | head -n 3 | tr '\n' ' ' | cut -c1-400)"
	fi
}

# print_matches IMAGE CSV COLUMN: --print must return CSV exactly
print_matches() {
	local img="$1" csv="$2" col="$3" pre
	pre="$CURLOG.print"
	tool "$pre" --print "$img"
	if [ "$RC" -eq 0 ] && cmp -s "$pre.out" "$csv"; then
		pass "$col" "--print returns the CSV ($(wc -c <"$csv") bytes)"
	else
		fail "$col" "--print exit $RC, output $(wc -c <"$pre.out") bytes $(cmp -s "$pre.out" "$csv" && echo matches || echo 'differs from the CSV'): $(first_err "$pre")"
	fi
}

# image_info IMAGE: sets INFO_* variables
image_info() {
	local line
	INFO_sbat_count=0 INFO_sbat_rawsize=0 INFO_sbat_vsize=0 INFO_sbat_last=0
	while IFS='=' read -r k v; do
		case "$k" in [a-z_]*) printf -v "INFO_$k" '%s' "$v" ;; esac
	done < <("$PY" "$CHECK" --info "$1")
}

# generation_of COMPONENT: a generation that shim's built-in SbatLevel
# (shim,4 grub,5 in shim 16.x) does not revoke
generation_of() {
	case "$1" in
	shim) echo 4 ;;
	grub) echo 5 ;;
	*) echo 1 ;;
	esac
}

# write_csv FILE COMPONENT VARIANT
write_csv() {
	local f="$1" c="$2" v="$3" g
	g="$(generation_of "$c")"
	{
		printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n'
		case "$v" in
		1) printf '%s,%s,sbat-add test,%s,1,https://example.invalid/\n' "$c" "$g" "$c" ;;
		2)
			printf '%s,%s,sbat-add test,%s,2,https://example.invalid/\n' "$c" "$g" "$c"
			printf '%s.test,2,sbat-add,%s,2,https://example.invalid/\n' "$c" "$c"
			;;
		esac
	} >"$f"
}

# write_big_csv FILE COMPONENT MINSIZE: a valid CSV longer than MINSIZE bytes
write_big_csv() {
	local f="$1" c="$2" min="$3" i=0
	write_csv "$f" "$c" 1
	while [ "$(wc -c <"$f")" -le "$min" ]; do
		i=$((i + 1))
		printf '%s.grow%d,1,sbat-add test,%s,%d,https://example.invalid/\n' "$c" "$i" "$c" "$i" >>"$f"
	done
}

component_of() {
	case "$1" in
	vmlinuz* | Image*) echo linux ;;
	systemd-boot*) echo systemd-boot ;;
	linux*.efi.stub) echo systemd-stub ;;
	shim*) echo shim ;;
	grub*) echo grub ;;
	memtest*) echo memtest86plus ;;
	ipxe*) echo ipxe ;;
	*) echo sbat-add-test ;;
	esac
}

# norm FILE IMAGE: a validator's messages with the image path and numbers
# masked, for comparison with the messages about the original image
norm() {
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		printf '%s\n' "${line//"$2"/IMAGE}"
	done <"$1" | sed -E 's/[0-9]+/N/g' | sort -u
}

# new_warnings ORIG_MESSAGES ORIG_PATH MESSAGES PATH: lines not seen for the original
new_warnings() {
	comm -13 <(norm "$1" "$2") <(norm "$3" "$4") | grep -v '^$' || true
}

# ------------------------------------------------------------- validators
KEY="$WORK/test.key"
CRT="$WORK/test.crt"
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 2 -subj "/CN=sbat-add integration test/" \
	-keyout "$KEY" -out "$CRT" >"$LOGS/openssl.log" 2>&1

VCOL=validators # the result column of run_validators
run_validators() { # run_validators ORIG IMAGE DIR ARCH (DIR/expected.csv: the CSV in IMAGE)
	local orig="$1" img="$2" d="$3" arch="$4" od rc nw
	od=objdump
	[ "$arch" = aa64 ] && od=aarch64-linux-gnu-objdump
	# objdump -h -p
	"$od" -h -p "$orig" >"$d/objdump.orig.out" 2>"$d/objdump.orig.err" || true
	rc=0
	"$od" -h -p "$img" >"$d/objdump.out" 2>"$d/objdump.err" || rc=$?
	nw="$(new_warnings "$d/objdump.orig.err" "$orig" "$d/objdump.err" "$img")"
	if [ "$rc" -eq 0 ] && [ -z "$nw" ] && grep -qE '^ +[0-9]+ \.sbat ' "$d/objdump.out"; then
		pass "$VCOL" "$od -h -p: .sbat listed, no new warnings"
	elif [ "$rc" -ne 0 ] || [ -n "$nw" ]; then
		reject "$VCOL" "$od" "exit $rc: $(printf '%s' "$nw" | head -n 3 | tr '\n' ' ')"
	else
		fail "$VCOL" "$od -h -p: no .sbat in the section list"
	fi
	# llvm-readobj
	llvm-readobj --file-headers --sections "$orig" >"$d/readobj.orig.out" 2>"$d/readobj.orig.err" || true
	rc=0
	llvm-readobj --file-headers --sections "$img" >"$d/readobj.out" 2>"$d/readobj.err" || rc=$?
	nw="$(new_warnings "$d/readobj.orig.err" "$orig" "$d/readobj.err" "$img")"
	if [ "$rc" -eq 0 ] && [ -z "$nw" ] && grep -q 'Name: .sbat' "$d/readobj.out"; then
		pass "$VCOL" "llvm-readobj --file-headers --sections: .sbat listed, no new warnings"
	elif [ "$rc" -ne 0 ] || [ -n "$nw" ]; then
		reject "$VCOL" llvm-readobj "exit $rc: $(printf '%s' "$nw" | head -n 3 | tr '\n' ' ')"
	else
		fail "$VCOL" "llvm-readobj: no .sbat in the section list"
	fi
	# sbsign + sbverify
	sbsign --key "$KEY" --cert "$CRT" --output "$d/orig.sbsigned" "$orig" >"$d/sbsign.orig.out" 2>&1 || true
	rc=0
	sbsign --key "$KEY" --cert "$CRT" --output "$d/sbsigned" "$img" >"$d/sbsign.out" 2>&1 || rc=$?
	nw="$(new_warnings <(grep -v '^Signing' "$d/sbsign.orig.out") "$orig" <(grep -v '^Signing' "$d/sbsign.out") "$img")"
	if [ "$rc" -ne 0 ] || [ -n "$nw" ]; then
		reject "$VCOL" sbsign "exit $rc: $(printf '%s' "$nw" | head -n 3 | tr '\n' ' ')$(grep -v '^Signing' "$d/sbsign.out" | head -n 2 | tr '\n' ' ')"
	else
		pass "$VCOL" "sbsign: signed without new warnings"
		rc=0
		sbverify --cert "$CRT" "$d/sbsigned" >"$d/sbverify.out" 2>&1 || rc=$?
		if [ "$rc" -eq 0 ] && grep -q 'Signature verification OK' "$d/sbverify.out"; then
			pass "$VCOL" "sbverify: Signature verification OK"
		else
			reject "$VCOL" sbverify "exit $rc: $(tr '\n' ' ' <"$d/sbverify.out" | cut -c1-300)"
		fi
		# the signed copy must keep .sbat readable
		tool "$d/print-signed" --print "$d/sbsigned"
		if [ "$RC" -eq 0 ] && cmp -s "$d/print-signed.out" "$d/expected.csv"; then
			pass "$VCOL" "--print on the sbsign-signed image returns the CSV"
		else
			fail "$VCOL" "--print on the sbsign-signed image: exit $RC $(first_err "$d/print-signed")"
		fi
	fi
	# osslsigncode sign + verify
	rc=0
	osslsigncode sign -certs "$CRT" -key "$KEY" -h sha256 -in "$img" -out "$d/osslsigned" >"$d/osslsign.out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		reject "$VCOL" "osslsigncode sign" "exit $rc: $(tail -n 3 "$d/osslsign.out" | tr '\n' ' ')"
	else
		rc=0
		osslsigncode verify -CAfile "$CRT" -in "$d/osslsigned" >"$d/osslverify.out" 2>&1 || rc=$?
		if [ "$rc" -eq 0 ] && grep -q 'Signature verification: ok' "$d/osslverify.out"; then
			pass "$VCOL" "osslsigncode sign + verify: Signature verification: ok"
		else
			reject "$VCOL" "osslsigncode verify" "exit $rc: $(grep -iE 'error|fail|mismatch' "$d/osslverify.out" | head -n 3 | tr '\n' ' ')"
		fi
		# cross-check: sbverify accepts the osslsigncode signature
		rc=0
		sbverify --cert "$CRT" "$d/osslsigned" >"$d/sbverify-oss.out" 2>&1 || rc=$?
		if [ "$rc" -eq 0 ]; then
			pass "$VCOL" "sbverify accepts the osslsigncode signature"
		else
			reject "$VCOL" "sbverify (osslsigncode-signed)" "exit $rc: $(tr '\n' ' ' <"$d/sbverify-oss.out" | cut -c1-300)"
		fi
	fi
}

# ----------------------------------------------------------------- booting
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
AAVMF_CODE=/usr/share/AAVMF/AAVMF_CODE.fd
AAVMF_VARS=/usr/share/AAVMF/AAVMF_VARS.fd

# boot_timeout: BOOT_TIMEOUT scaled by the 1-minute load per CPU (never
# below BOOT_TIMEOUT): a boot that takes 7 s alone took over 90 s at load 4-5
# on 2 CPUs under TCG.
boot_timeout() {
	local load ncpu
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null) || load=0
	ncpu=$(nproc 2>/dev/null) || ncpu=1
	awk -v t="$BOOT_TIMEOUT" -v l="${load:-0}" -v n="${ncpu:-1}" \
		'BEGIN { f = l / n; if (f < 1) f = 1; printf "%d\n", t * f + 0.5 }'
}

# qemu_boot ARCH ESP SERIAL_LOG OK_RE BAD_RE [EXTRA QEMU ARGS...]
# Boots until OK_RE or BAD_RE shows up on the serial console, qemu exits, or
# the timeout (boot_timeout) passes; a boot that timed out is tried once more
# with twice that time. Sets BOOT_RESULT to ok | bad | timeout | exited and
# BOOT_SECS (of the last try).
qemu_boot() {
	local limit
	limit=$(boot_timeout)
	[ "$limit" = "$BOOT_TIMEOUT" ] ||
		printf '  boot timeout %ss: %ss scaled by the load %s on %s CPUs\n' "$limit" "$BOOT_TIMEOUT" \
			"$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)" "$(nproc 2>/dev/null)" >>"$CURLOG"
	qemu_boot_once "$limit" "$@"
	if [ "$BOOT_RESULT" = timeout ]; then
		say "  $CUR: boot timed out after ${BOOT_SECS}s; trying once more with $((2 * limit))s"
		printf '  boot timed out after %ss; trying once more with %ss\n' "$BOOT_SECS" "$((2 * limit))" >>"$CURLOG"
		qemu_boot_once "$((2 * limit))" "$@"
	fi
}

# qemu_boot_once LIMIT ARCH ESP SERIAL_LOG OK_RE BAD_RE [EXTRA QEMU ARGS...]: one try
qemu_boot_once() {
	local limit="$1" arch="$2" esp="$3" log="$4" ok_re="$5" bad_re="$6" vars pid t0 cmd
	shift 6
	vars="$log.vars.fd"
	: >"$log"
	if [ "$arch" = aa64 ]; then
		cp "$AAVMF_VARS" "$vars"
		# shellcheck disable=SC2054 # commas belong to qemu option values
		cmd=(qemu-system-aarch64 -M virt -cpu cortex-a57 -accel tcg -m 1024 -smp 1
			-drive "if=pflash,format=raw,readonly=on,file=$AAVMF_CODE"
			-drive "if=pflash,format=raw,file=$vars"
			-drive "file=fat:rw:$esp,format=raw,if=none,id=esp"
			-device virtio-blk-device,drive=esp)
	else
		cmd=(qemu-system-x86_64 -machine q35 -accel tcg -m 1024 -smp 1)
		if [ -n "${QEMU_X86_FW:-}" ]; then
			cmd+=("${QEMU_X86_FW[@]}")
		else
			cp "$OVMF_VARS" "$vars"
			cmd+=(-drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE"
				-drive "if=pflash,format=raw,file=$vars")
		fi
		cmd+=(-drive "file=fat:rw:$esp,format=raw")
	fi
	cmd+=(-nographic -no-reboot -monitor none -net none -serial "file:$log" "$@")
	printf '$ timeout %s %s\n' "$limit" "${cmd[*]}" >>"$CURLOG"
	t0=$SECONDS
	timeout "$limit" "${cmd[@]}" </dev/null >"$log.qemu" 2>&1 &
	pid=$!
	QEMU_PIDS+=("$pid")
	BOOT_RESULT=timeout
	while :; do
		if grep -aqE "$ok_re" "$log" 2>/dev/null; then
			BOOT_RESULT=ok
			break
		fi
		if [ -n "$bad_re" ] && grep -aqE "$bad_re" "$log" 2>/dev/null; then
			BOOT_RESULT=bad
			break
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			BOOT_RESULT=exited
			grep -aqE "$ok_re" "$log" 2>/dev/null && BOOT_RESULT=ok
			break
		fi
		sleep 1
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	if [ "$BOOT_RESULT" = exited ] && grep -q 'terminating on signal' "$log.qemu"; then
		BOOT_RESULT=timeout
	fi
	BOOT_SECS=$((SECONDS - t0))
	printf '  boot result %s after %ss\n' "$BOOT_RESULT" "$BOOT_SECS" >>"$CURLOG"
}

# serial_excerpt LOG RE: the matching line without terminal escapes
serial_excerpt() {
	sed -E 's/\x1b\[[0-9;=?]*[A-Za-z]//g' "$1" 2>/dev/null | tr -cd '[:print:]\n' |
		grep -aoE "($2).{0,100}" | head -n 1 | sed -E 's/ +/ /g'
}

FIRMWARE_BAD='BdsDxe: failed to load Boot[0-9A-F]+ "UEFI (QEMU HARDDISK|Misc Device)[^"]*"[^:]*: [A-Za-z ]+|Security Violation|Access Denied|ASSERT|!!!! X64 Exception|Synchronous Exception'

# BdsDxe prints this once LoadImage accepted the boot option's program
APP_STARTED='BdsDxe: starting Boot[0-9A-F]+ "UEFI (QEMU HARDDISK|Misc Device)'

# boot_report WHAT LOG OK_RE [BAD_RE]: interpret BOOT_RESULT for the column $BOOTCOL
BOOTCOL=boot
boot_report() {
	local what="$1" log="$2" ok_re="$3" bad_re="${4:-$FIRMWARE_BAD}"
	case "$BOOT_RESULT" in
	ok) pass "$BOOTCOL" "$what: '$(serial_excerpt "$log" "$ok_re")' after ${BOOT_SECS}s" ;;
	bad) reject "$BOOTCOL" firmware "$what: '$(serial_excerpt "$log" "$bad_re")'" ;;
	*) fail "$BOOTCOL" "$what: no '$ok_re' on the serial console ($BOOT_RESULT after ${BOOT_SECS}s; log $log)" ;;
	esac
}

make_esp() { # make_esp DIR: fresh ESP directory
	rm -rf "$1"
	mkdir -p "$1/EFI/BOOT" "$1/loader/entries"
}

# efi_boot_file ARCH: the removable-media path UEFI firmware starts (EFI/BOOT/...)
efi_boot_file() {
	if [ "$1" = aa64 ]; then echo BOOTAA64.EFI; else echo BOOTX64.EFI; fi
}

# firmware_name ARCH
firmware_name() {
	if [ "$1" = aa64 ]; then echo AAVMF; else echo OVMF; fi
}

sdboot_esp() { # sdboot_esp DIR SDBOOT KERNEL [ARCH]
	make_esp "$1"
	cp "$2" "$1/EFI/BOOT/$(efi_boot_file "${4:-x64}")"
	cp "$3" "$1/vmlinuz"
	printf 'timeout 1\ndefault sbat-add-test.conf\nconsole-mode keep\n' >"$1/loader/loader.conf"
	printf 'title sbat-add test entry\nlinux /vmlinuz\noptions console=ttyS0 panic=-1\n' \
		>"$1/loader/entries/sbat-add-test.conf"
}

# final modified images by corpus name, for the boot and shim stages
declare -A FINAL=()

boot_one() { # boot_one NAME IMAGE ARCH ROLE DIR
	local name="$1" img="$2" arch="$3" role="$4" d="$5" esp="$5/esp" sdboot kernel log
	log="$d/serial.log"
	case "$role" in
	kernel)
		if [ "$arch" = aa64 ]; then
			make_esp "$esp"
			cp "$img" "$esp/EFI/BOOT/BOOTAA64.EFI"
			qemu_boot aa64 "$esp" "$log" 'Linux version' "$FIRMWARE_BAD"
			boot_report "AAVMF, kernel as BOOTAA64.EFI" "$log" 'Linux version'
		else
			# the unmodified systemd-boot loads the modified kernel
			sdboot="$CORPUS/systemd-bootx64.efi"
			sdboot_esp "$esp" "$sdboot" "$img"
			qemu_boot x64 "$esp" "$log" 'Linux version' "$FIRMWARE_BAD|Error loading"
			boot_report "OVMF + systemd-boot, kernel $(basename "$img")" "$log" 'Linux version' "$FIRMWARE_BAD|Error loading"
		fi
		;;
	sdboot)
		# the entry needs a kernel file to be listed; only the menu is awaited
		kernel="$CORPUS/vmlinuz-amd64"
		[ "$arch" = aa64 ] && kernel="$CORPUS/Image-arm64"
		if [ ! -s "$kernel" ]; then
			kernel="$d/no-kernel"
			printf 'not a kernel\n' >"$kernel"
		fi
		sdboot_esp "$esp" "$img" "$kernel" "$arch"
		qemu_boot "$arch" "$esp" "$log" 'sbat-add test entry' "$FIRMWARE_BAD"
		boot_report "$(firmware_name "$arch"), modified systemd-boot menu" "$log" 'sbat-add test entry'
		;;
	grub)
		make_esp "$esp"
		cp "$img" "$esp/EFI/BOOT/BOOTX64.EFI"
		qemu_boot x64 "$esp" "$log" 'grub>' "$FIRMWARE_BAD"
		boot_report "OVMF, modified GRUB" "$log" 'grub>'
		;;
	shim)
		# shim runs its SBAT self-check on its own (modified) .sbat, then
		# looks for its second stage, which is absent here.
		make_esp "$esp"
		cp "$img" "$esp/EFI/BOOT/BOOTX64.EFI"
		qemu_boot x64 "$esp" "$log" 'grubx64\.efi' "$FIRMWARE_BAD|SBAT self-check failed|Verifying shim SBAT data failed"
		boot_report "OVMF, modified shim reached its second-stage lookup" "$log" 'grubx64\.efi' \
			"$FIRMWARE_BAD|SBAT self-check failed|Verifying shim SBAT data failed"
		;;
	ipxe)
		make_esp "$esp"
		cp "$img" "$esp/EFI/BOOT/BOOTX64.EFI"
		qemu_boot x64 "$esp" "$log" 'iPXE initialising|iPXE [0-9]' "$FIRMWARE_BAD"
		boot_report "OVMF, modified iPXE starts" "$log" 'iPXE initialising|iPXE [0-9]'
		;;
	app)
		make_esp "$esp"
		cp "$img" "$esp/EFI/BOOT/$(efi_boot_file "$arch")"
		qemu_boot "$arch" "$esp" "$log" "$APP_STARTED" "$FIRMWARE_BAD"
		boot_report "$(firmware_name "$arch") LoadImage of the modified program" "$log" "$APP_STARTED"
		;;
	*) cell "$name" boot n/a ;;
	esac
}

# --------------------------------------------------------- per corpus file
CORPUS="$CACHE/corpus"
NAMES=()
declare -A KIND=() ARCH=() EXPECT=() ROLE=()
while IFS=$'\t' read -r name kind arch expect role _; do
	case "$name" in '#'* | '') continue ;; esac
	if [ ${#ONLY[@]} -gt 0 ]; then
		keep=0
		for o in "${ONLY[@]}"; do [ "$o" = "$name" ] && keep=1; done
		[ "$keep" = 1 ] || continue
	fi
	NAMES+=("$name")
	KIND[$name]="$kind" ARCH[$name]="$arch" EXPECT[$name]="$expect" ROLE[$name]="$role"
done <"$MANIFEST"

# ------------------------------------------------------------ newer modes
# Outputs of sbat-add for the current corpus file (for the JSON checks), and
# the relocated images by corpus name (for the Secure Boot chain).
OUTS=()
declare -A RELOCATED=()
SHIM_POLICY="$CORPUS/shimx64.efi"
SBAT_ROW='sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md'

# column_rc COLUMN WANT WHAT: pass when the last tool call ($RC) exited WANT
column_rc() {
	if [ "$RC" -eq "$2" ]; then
		pass "$1" "$3: exit $RC"
	else
		fail "$1" "$3: exit $RC, want $2: $(first_err "$LAST")"
	fi
}

# tool_named PREFIX ARGS...: tool, remembering PREFIX for column_rc's message
tool_named() {
	LAST="$1"
	tool "$@"
}

# print_none COLUMN IMAGE: --print must exit 3 on an image without .sbat
print_none() {
	tool_named "$2.print" --print "$2"
	column_rc "$1" 3 "--print on $(basename "$2") (no .sbat left)"
}

# remove_tests NAME ORIG DIR HAD_SBAT SHIFTED
remove_tests() {
	local name="$1" orig="$2" d="$3" had="$4" shifted="$5" src out sib inpl sum
	if [ "$had" = 0 ]; then
		# taking out what the insert (and a later grow) added
		for src in "$d/step1.efi" "$d/grow.efi"; do
			[ -s "$src" ] || continue
			out="$d/removed-$(basename "$src")"
			rm -f "$out"
			tool_named "${out%.efi}" --remove --file "$src" --output "$out"
			if [ "$RC" -ne 0 ] || [ ! -s "$out" ]; then
				fail removed "--remove on $(basename "$src"): exit $RC: $(first_err "${out%.efi}")"
				continue
			fi
			OUTS+=("$out")
			pass removed "--remove on $(basename "$src"): exit 0"
			print_none removed "$out"
			check_as removed "$src" "$out" "" removed "remove-$(basename "$src" .efi)"
			if [ "${EXPECT[$name]}" = signed ]; then
				sib="$CORPUS/${name%-signed}"
				if [ -s "$sib" ] && cmp -s "$sib" "$out"; then
					pass removed "byte for byte the unsigned package's image $(basename "$sib")"
				elif [ -s "$sib" ]; then
					check_as same-but-checksum "$sib" "$out" "" removed "unsigned-$(basename "$src" .efi)"
				else
					say "  NOTE $(basename "$sib") is not in the corpus; signed kernel not compared"
				fi
			elif [ "$shifted" = 1 ]; then
				say "  NOTE the grown headers stay grown: the layout is checked instead of cmp"
			elif cmp -s "$orig" "$out"; then
				pass removed "byte for byte the original ($(wc -c <"$out") bytes)"
			else
				# an unaligned SizeOfImage (linuxaa64.efi.stub) comes back aligned
				say "  NOTE not byte for byte the original: $(cmp "$orig" "$out" 2>&1 | head -n 1)"
				check_as restored "$orig" "$out" "" removed "restored-$(basename "$src" .efi)"
			fi
		done
		# in place, from the replaced image: the same file again
		inpl="$d/removed-inplace.efi"
		if [ -s "$d/step2.efi" ] && [ -s "$d/removed-step1.efi" ]; then
			cp "$d/step2.efi" "$inpl"
			tool_named "$d/removed-inplace" --remove --file "$inpl"
			if [ "$RC" -eq 0 ] && cmp -s "$inpl" "$d/removed-step1.efi"; then
				pass removed "--remove in place on step 2: identical to the removal from step 1"
			else
				fail removed "--remove in place on step 2: exit $RC, $(cmp "$inpl" "$d/removed-step1.efi" 2>&1 | head -n 1)"
			fi
			sum="$(sha "$inpl")"
			tool_named "$d/removed-again" --remove --file "$inpl"
			if [ "$RC" -eq 1 ] && [ "$(sha "$inpl")" = "$sum" ]; then
				pass removed "--remove again: exit 1, file untouched: $(first_err "$d/removed-again")"
			else
				fail removed "--remove on an image without .sbat: exit $RC, want 1, file $([ "$(sha "$inpl")" = "$sum" ] && echo untouched || echo MODIFIED)"
			fi
		fi
		# iPXE's headers stay grown: it must still start
		if [ "$shifted" = 1 ] && [ "$DO_BOOT" = 1 ] && [ "${ROLE[$name]}" != none ] && [ -s "$d/removed-step1.efi" ]; then
			mkdir -p "$d/removed"
			BOOTCOL=removed
			boot_one "$name" "$d/removed-step1.efi" "${ARCH[$name]}" "${ROLE[$name]}" "$d/removed"
			BOOTCOL=boot
		fi
		return 0
	fi
	# the image's own .sbat: taken out when last, else retired as .oldsbat
	image_info "$orig"
	out="$d/removed-orig.efi"
	rm -f "$out"
	tool_named "$d/removed-orig" --remove --file "$orig" --output "$out"
	if [ "$RC" -ne 0 ] || [ ! -s "$out" ]; then
		fail removed "--remove on the original: exit $RC: $(first_err "$d/removed-orig")"
		return 0
	fi
	OUTS+=("$out")
	print_none removed "$out"
	if [ "$INFO_sbat_last" = 1 ]; then
		if [ "$(wc -c <"$out")" -lt "$(wc -c <"$orig")" ]; then
			pass removed "the original's last .sbat was taken out: $(wc -c <"$orig") -> $(wc -c <"$out") bytes"
		else
			fail removed "the original's last .sbat: file did not shrink ($(wc -c <"$out") bytes)"
		fi
	elif [ "$(wc -c <"$out")" -eq "$(wc -c <"$orig")" ]; then
		pass removed "the original's mid-file .sbat was retired: file size unchanged ($(wc -c <"$out") bytes)"
	else
		fail removed "the original's mid-file .sbat: file size $(wc -c <"$orig") -> $(wc -c <"$out")"
	fi
	check_as removed "$orig" "$out" "" removed remove-original
	# in place on the replaced image
	if [ -s "$d/step2.efi" ]; then
		cp "$d/step2.efi" "$d/removed-inplace.efi"
		tool_named "$d/removed-inplace" --remove --file "$d/removed-inplace.efi"
		if [ "$RC" -eq 0 ]; then
			OUTS+=("$d/removed-inplace.efi")
			check_as removed "$d/step2.efi" "$d/removed-inplace.efi" "" removed remove-step2-inplace
		else
			fail removed "--remove in place on step 2: exit $RC: $(first_err "$d/removed-inplace")"
		fi
	fi
}

# relocate_tests NAME ORIG DIR COMPONENT: a CSV larger than the mid-file .sbat of step 2
relocate_tests() {
	local name="$1" orig="$2" d="$3" comp="$4" r rd c3 c4
	r="$d/relocated.efi" rd="$d/reloc" c3="$d/csv3.csv" c4="$d/csv4.csv"
	mkdir -p "$rd"
	rm -f "$r"
	tool_named "$d/relocate" --relocate --file "$d/step2.efi" --csv "$c3" --output "$r"
	if [ "$RC" -ne 0 ] || [ ! -s "$r" ]; then
		fail relocated "--relocate with a $(wc -c <"$c3")-byte CSV: exit $RC: $(first_err "$d/relocate")"
		return 0
	fi
	OUTS+=("$r")
	pass relocated "--relocate with a $(wc -c <"$c3")-byte CSV (larger than the mid-file .sbat): exit 0"
	check_as relocated "$d/step2.efi" "$r" "$c3" relocated relocate
	print_matches "$r" "$c3" relocated
	# the same command on its own output changes nothing
	rm -f "$d/relocated-again.efi"
	tool_named "$d/relocated-again" --relocate --file "$r" --csv "$c3" --output "$d/relocated-again.efi"
	if [ "$RC" -eq 0 ] && cmp -s "$r" "$d/relocated-again.efi"; then
		pass relocated "--relocate again with the same CSV: byte-identical output"
	else
		fail relocated "--relocate again: exit $RC, $(cmp "$r" "$d/relocated-again.efi" 2>&1 | head -n 1)"
	fi
	# a still larger CSV grows the new last .sbat
	image_info "$r"
	write_big_csv "$c4" "$comp" "$INFO_sbat_rawsize"
	rm -f "$d/relocated-grow.efi"
	tool_named "$d/relocated-grow" --file "$r" --csv "$c4" --output "$d/relocated-grow.efi"
	if [ "$RC" -eq 0 ]; then
		OUTS+=("$d/relocated-grow.efi")
		check "$r" "$d/relocated-grow.efi" "$c4" relocated relocate-then-grow
	else
		fail relocated "a $(wc -c <"$c4")-byte CSV after --relocate (the new .sbat is last): exit $RC: $(first_err "$d/relocated-grow")"
	fi
	# --remove takes the new last .sbat out and keeps .oldsbat
	rm -f "$d/relocated-removed.efi"
	tool_named "$d/relocated-removed" --remove --file "$r" --output "$d/relocated-removed.efi"
	if [ "$RC" -eq 0 ]; then
		OUTS+=("$d/relocated-removed.efi")
		check_as removed "$r" "$d/relocated-removed.efi" "" relocated relocate-then-remove
	else
		fail relocated "--remove after --relocate: exit $RC: $(first_err "$d/relocated-removed")"
	fi
	cp "$c3" "$rd/expected.csv"
	VCOL=relocated
	run_validators "$orig" "$r" "$rd" "${ARCH[$name]}"
	VCOL=validators
	RELOCATED[$name]="$r"
	if [ "$DO_BOOT" = 1 ] && [ "${ROLE[$name]}" != none ]; then
		BOOTCOL=relocated
		boot_one "$name" "$r" "${ARCH[$name]}" "${ROLE[$name]}" "$rd"
		BOOTCOL=boot
	fi
}

# merge_one PREFIX IN OUT EXPECTED LABEL ARGS...: --merge ARGS; a refusal that
# asks for --relocate (the merged CSV outgrows a mid-file .sbat) is retried with it
merge_one() {
	local pre="$1" in="$2" out="$3" want="$4" label="$5" mode=""
	shift 5
	rm -f "$out"
	tool_named "$pre" --merge "$@" --file "$in" --output "$out"
	if [ "$RC" -eq 1 ] && [ ! -e "$out" ] && grep -q -- '--relocate' "$pre.err"; then
		pass merged "$label: refused without --relocate (the merged CSV outgrows the mid-file .sbat), nothing written"
		tool_named "$pre" --merge --relocate "$@" --file "$in" --output "$out"
		mode=relocated
	fi
	if [ "$RC" -ne 0 ] || [ ! -s "$out" ]; then
		fail merged "$label: exit $RC: $(first_err "$pre")"
		return 1
	fi
	OUTS+=("$out")
	pass merged "$label${mode:+ with --relocate}: exit 0"
	print_matches "$out" "$want" merged
	check_as "$mode" "$in" "$out" "$want" merged "$(basename "$pre")"
}

# merge_tests NAME ORIG DIR HAD_SBAT COMPONENT [--strip-signature]
merge_tests() {
	local name="$1" orig="$2" d="$3" had="$4" comp="$5" strip=("${@:6}") add own
	add="$d/merge-add.csv" own="$d/orig-print.csv"
	local line c0 g0 g1 conf="$d/merge-conflict.csv" sum
	if [ "$had" = 0 ]; then
		rm -f "$d/merged.efi"
		tool_named "$d/merged" --merge "${strip[@]}" --file "$orig" --csv "$d/csv1.csv" --output "$d/merged.efi"
		if [ "$RC" -eq 0 ] && cmp -s "$d/merged.efi" "$d/step1.efi"; then
			pass merged "--merge into an image without .sbat: byte-identical to the plain insert"
		else
			fail merged "--merge into an image without .sbat: exit $RC, $(cmp "$d/merged.efi" "$d/step1.efi" 2>&1 | head -n 1)"
		fi
		return 0
	fi
	cp "$d/print0.out" "$own"
	[ -z "$(tail -c 1 "$own")" ] || printf '\n' >>"$own"
	printf '%s\n%s.sbat-add-merge,1,sbat-add test,%s,1,https://example.invalid/\n' "$SBAT_ROW" "$comp" "$comp" >"$add"
	if grep -q 'would not pass validation' "$d/print0.err"; then
		# an invalid .sbat (memtest86+): refused, then replaced with --force
		cp "$orig" "$d/merge-inplace.efi"
		tool_named "$d/merge-invalid" --merge --file "$d/merge-inplace.efi" --csv "$add"
		if [ "$RC" -eq 1 ] && [ "$(sha "$d/merge-inplace.efi")" = "$(sha "$orig")" ]; then
			pass merged "--merge into an invalid .sbat: exit 1, file untouched: $(first_err "$d/merge-invalid")"
		else
			fail merged "--merge into an invalid .sbat: exit $RC (want 1), file $([ "$(sha "$d/merge-inplace.efi")" = "$(sha "$orig")" ] && echo untouched || echo MODIFIED)"
		fi
		merge_one "$d/merge-force-invalid" "$orig" "$d/merged-forced.efi" "$add" "--merge --force over an invalid .sbat replaces it" --force --csv "$add"
		return 0
	fi
	cat "$own" >"$d/merge-want.csv"
	tail -n 1 "$add" >>"$d/merge-want.csv"
	merge_one "$d/merge" "$orig" "$d/merged.efi" "$d/merge-want.csv" \
		"--merge of one new component (the image's $(grep -c . "$own") rows first)" --csv "$add"
	merge_one "$d/merge-own" "$orig" "$d/merged-own.efi" "$own" "--merge of the image's own CSV (no row added)" --csv "$own"
	# a different generation for the image's first component
	line="$(sed -n 2p "$own")"
	c0="${line%%,*}"
	g0="$(printf '%s' "$line" | cut -d, -f2)"
	if [ "$g0" -gt 1 ]; then g1=$((g0 - 1)); else g1=$((g0 + 1)); fi
	printf '%s\n%s,%s,sbat-add test,%s,1,https://example.invalid/\n' "$SBAT_ROW" "$c0" "$g1" "$c0" >"$conf"
	cp "$orig" "$d/merge-inplace.efi"
	sum="$(sha "$orig")"
	tool_named "$d/merge-conflict" --merge --file "$d/merge-inplace.efi" --csv "$conf"
	if [ "$RC" -eq 1 ] && [ "$(sha "$d/merge-inplace.efi")" = "$sum" ]; then
		pass merged "--merge of $c0,$g1 into $c0,$g0: exit 1, file untouched: $(first_err "$d/merge-conflict")"
	else
		fail merged "--merge of $c0,$g1 into $c0,$g0: exit $RC (want 1), file $([ "$(sha "$d/merge-inplace.efi")" = "$sum" ] && echo untouched || echo MODIFIED)"
	fi
	{
		head -n 1 "$own"
		tail -n 1 "$conf"
		tail -n +3 "$own"
	} >"$d/merge-force-want.csv"
	merge_one "$d/merge-force" "$orig" "$d/merged-forced.efi" "$d/merge-force-want.csv" \
		"--merge --force of $c0,$g1 (replaces the row in its place)" --force --csv "$conf"
	if [ "$name" = shimx64.efi ] && [ -s "$d/merged-forced.efi" ] && [ -s "$SHIM_POLICY" ]; then
		level_expect 4 "$d/merged-forced.efi" "shim forced to $c0,$g1 is below its own SbatLevel" "$SHIM_POLICY"
	fi
}

# level_expect WANT SUBJECT WHAT POLICY [--level-payload P]: --check-level on an
# image (or, with SUBJECT --csv:FILE, a CSV file) must exit WANT
level_expect() {
	local want="$1" subj="$2" what="$3" pol="$4" pre
	shift 4
	LEVELN=$((${LEVELN:-0} + 1))
	pre="$WORK/$CUR/level$LEVELN"
	if [ "${subj#--csv:}" != "$subj" ]; then
		tool_named "$pre" --check-level "$pol" "$@" --csv "${subj#--csv:}"
	else
		tool_named "$pre" --check-level "$pol" "$@" "$subj"
	fi
	if [ "$RC" -eq "$want" ]; then
		pass level "$what ($(basename "$pol")${1:+ $*}): exit $RC: $(cat "$pre.out" "$pre.err" | head -n 1 | sed 's/^.*: \(revoked\|not revoked\|no .sbat\|.sbat is invalid\)/\1/' | cut -c1-160)"
	else
		fail level "$what ($(basename "$pol")${1:+ $*}): exit $RC, want $want: $(cat "$pre.out" "$pre.err" | head -n 2 | tr '\n' ' ' | cut -c1-300)"
	fi
}

# level_tests NAME ORIG DIR
level_tests() {
	local name="$1" orig="$2" d="$3" p pol any=0
	pol="$d/sbatlevel-linux2.txt"
	case "$name" in
	shimx64.efi | grubx64-debian.efi | systemd-bootx64.efi | linuxx64.efi.stub)
		[ -s "$SHIM_POLICY" ] || return 0
		any=1
		rm -f "$d/own.efi"
		tool_named "$d/own" --file "$orig" --csv "$d/orig-print.csv" --output "$d/own.efi"
		column_rc level 0 "replace with the image's own CSV"
		[ -s "$d/own.efi" ] && OUTS+=("$d/own.efi")
		for p in latest automatic; do
			level_expect 0 "$orig" "Debian's $name" "$SHIM_POLICY" --level-payload "$p"
			[ -s "$d/own.efi" ] && level_expect 0 "$d/own.efi" "$name replaced with its own CSV" "$SHIM_POLICY" --level-payload "$p"
		done
		[ -s "$d/step2.efi" ] && level_expect 0 "$d/step2.efi" "$name with the test CSV ($(sed -n 2p "$d/csv2.csv" | cut -d, -f1-2))" "$SHIM_POLICY"
		;;
	grubx64-nosbat.efi)
		[ -s "$SHIM_POLICY" ] || return 0
		any=1
		printf '%s\ngrub,1,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n' "$SBAT_ROW" >"$d/grub1.csv"
		rm -f "$d/grub1.efi"
		tool_named "$d/grub1" --file "$orig" --csv "$d/grub1.csv" --output "$d/grub1.efi"
		column_rc level 0 "insert grub,1"
		if [ -s "$d/grub1.efi" ]; then
			OUTS+=("$d/grub1.efi")
			level_expect 4 "$d/grub1.efi" "GRUB with grub,1" "$SHIM_POLICY"
			level_expect 4 "$d/grub1.efi" "GRUB with grub,1" "$SHIM_POLICY" --level-payload automatic
		fi
		level_expect 4 "--csv:$d/grub1.csv" "the grub,1 CSV before embedding" "$SHIM_POLICY"
		level_expect 3 "$orig" "GRUB without .sbat" "$SHIM_POLICY"
		[ -s "$d/step2.efi" ] && level_expect 0 "$d/step2.efi" "GRUB with grub,5" "$SHIM_POLICY"
		;;
	grubx64.efi)
		[ -s "$SHIM_POLICY" ] || return 0
		any=1
		level_expect 4 "$orig" "grub-mkimage --sbat image with grub,3" "$SHIM_POLICY"
		;;
	memtest86+x64.efi)
		[ -s "$SHIM_POLICY" ] || return 0
		any=1
		# its .sbat has SizeOfRawData 0x200 below VirtualSize 0x1000: shim skips it
		level_expect 3 "$orig" "memtest86+'s .sbat, which shim ignores (SizeOfRawData below VirtualSize)" "$SHIM_POLICY"
		;;
	esac
	if [ "${ROLE[$name]}" = kernel ] && [ -s "$d/step1.efi" ]; then
		any=1
		printf 'sbat,1,2099010100\nlinux,2\n' >"$pol"
		printf '%s\nlinux,2,sbat-add test,linux,2,https://example.invalid/\n' "$SBAT_ROW" >"$d/linux2.csv"
		level_expect 3 "$orig" "kernel without .sbat" "$pol"
		level_expect 4 "$d/step1.efi" "kernel with linux,1" "$pol"
		rm -f "$d/linux2.efi"
		tool_named "$d/linux2" --file "$d/step1.efi" --csv "$d/linux2.csv" --output "$d/linux2.efi"
		column_rc level 0 "replace with linux,2"
		if [ -s "$d/linux2.efi" ]; then
			OUTS+=("$d/linux2.efi")
			level_expect 0 "$d/linux2.efi" "kernel with linux,2" "$pol"
		fi
		[ -s "$SHIM_POLICY" ] && level_expect 0 "$d/step1.efi" "kernel with linux,1 (shim's SbatLevel names no linux)" "$SHIM_POLICY"
	fi
	[ "$any" = 1 ] || cell "$name" level n/a
}

# json_tests ORIG ARCH IMAGES...: --print --json on each must parse and agree
# with --print, objdump, pefile and the raw parse
json_tests() {
	local orig="$1" arch="$2" img od list="$WORK/$CUR/json.list" i=0 line
	shift 2
	od=objdump
	[ "$arch" = aa64 ] && od=aarch64-linux-gnu-objdump
	: >"$list"
	for img in "$orig" "$@"; do
		[ -s "$img" ] || continue
		i=$((i + 1))
		tool_named "$WORK/$CUR/json$i" --print --json "$img"
		# exit 3, like --print, when the image has no .sbat; the JSON is printed all the same
		if [ "$RC" -eq 3 ] && "$PY" -c 'import json, sys; assert json.load(open(sys.argv[1]))["sbat"] is None' \
			"$WORK/$CUR/json$i.out" 2>/dev/null; then
			:
		elif [ "$RC" -ne 0 ]; then
			fail json "--print --json $(basename "$img"): exit $RC: $(first_err "$WORK/$CUR/json$i")"
			continue
		fi
		tool_named "$WORK/$CUR/jprint$i" --print "$img"
		printf '%s\t%s\t%s\t%s\t%s\n' "$img" "$WORK/$CUR/json$i.out" "$WORK/$CUR/jprint$i.out" "$RC" \
			"$("$od" -h "$img" 2>/dev/null | grep -cE '^ +[0-9]+ ')" >>"$list"
	done
	"$PY" "$CHECK" --json "$list" >"$CURLOG.check-json" 2>&1 || true
	local why=""
	while IFS= read -r line; do
		case "$line" in
		"PASS json "*) pass json "--print --json $(basename "${line#PASS json }" | sed 's/: / /')" ;;
		"FAIL json "*)
			fail json "--print --json $(basename "${line#FAIL json }" | sed 's/: / /'): $(printf '%s' "$why" | cut -c1-300)"
			why=""
			;;
		FAIL*) why="$why$line " ;;
		esac
	done <"$CURLOG.check-json"
	grep -qE '^(PASS|FAIL) json ' "$CURLOG.check-json" || fail json "check-image.py --json: $(tail -n 2 "$CURLOG.check-json" | tr '\n' ' ')"
}

test_file() {
	local name="$1" orig="$CORPUS/$1" expect="${EXPECT[$1]}" arch="${ARCH[$1]}" d comp c1 c2 c3
	local s1 s2 s3 had_sbat strip=() sum0 reloc=0
	OUTS=()
	LEVELN=0
	CUR="$name"
	d="$WORK/$name"
	mkdir -p "$d"
	CURLOG="$LOGS/$name.log"
	: >"$CURLOG"
	hr
	say "== $name (${KIND[$name]}, $arch, expect $expect)"
	comp="$(component_of "$name")"
	c1="$d/csv1.csv" c2="$d/csv2.csv" c3="$d/csv3.csv"
	write_csv "$c1" "$comp" 1
	write_csv "$c2" "$comp" 2
	s1="$d/step1.efi" s2="$d/step2.efi" s3="$d/step3.efi"
	sum0="$(sha "$orig")"
	image_info "$orig"
	had_sbat="$INFO_sbat_count"

	# --print on the pristine image
	tool "$d/print0" --print "$orig"
	if [ "$had_sbat" = 0 ]; then
		[ "$RC" -eq 3 ] && pass inserted "--print on the original: exit 3 (no .sbat)" ||
			fail inserted "--print on the original without .sbat: exit $RC, want 3"
	else
		"$PY" "$CHECK" --extract "$orig" >"$d/orig-sbat.csv"
		if [ "$RC" -eq 0 ] && cmp -s "$d/print0.out" "$d/orig-sbat.csv"; then
			pass inserted "--print on the original: exit 0, the existing $(wc -c <"$d/print0.out")-byte CSV"
		else
			fail inserted "--print on the original with .sbat: exit $RC, $(wc -c <"$d/print0.out") bytes (.sbat holds $(wc -c <"$d/orig-sbat.csv") bytes of CSV): $(first_err "$d/print0")"
		fi
	fi

	# ---- images without header room: refused, or (if the tool can make
	# room by moving section data) a valid edit that is then fully checked
	local shifted=0
	if [ "$expect" = noroom ]; then
		tool "$d/insert" --verbose --file "$orig" --csv "$c1" --output "$s1"
		if [ "$RC" -eq 1 ] && [ ! -e "$s1" ] && grep -qiE 'room|space' "$d/insert.err"; then
			pass inserted "refused as expected (exit 1): $(first_err "$d/insert")"
			cell "$name" inserted refused
			cp "$orig" "$d/inplace.efi"
			tool "$d/insert-inplace" --file "$d/inplace.efi" --csv "$c1"
			if [ "$RC" -eq 1 ] && [ "$(sha "$d/inplace.efi")" = "$sum0" ]; then
				pass inserted "in-place edit refused, file untouched"
			else
				fail inserted "in-place: exit $RC, file $([ "$(sha "$d/inplace.efi")" = "$sum0" ] && echo untouched || echo MODIFIED)"
			fi
			for c in replaced validators boot removed relocated merged level json; do cell "$name" "$c" n/a; done
			return 0
		elif [ "$RC" -eq 0 ] && [ -s "$s1" ]; then
			say "  NOTE no free header slot in the original, but sbat-add made room: $(grep -iE 'moved|room' "$d/insert.err" | head -n 1 | sed 's/^[^:]*: //')"
			printf 'NOTE made room instead of refusing\n' >>"$CURLOG"
			shifted=1
			rm -f "$s1"
		else
			fail inserted "want exit 1 with a 'no header room' error (or a valid edit); got exit $RC: $(first_err "$d/insert")"
			cell "$name" replaced skip
			cell "$name" validators skip
			cell "$name" boot skip
			return 0
		fi
	fi
	if [ "$expect" = signed ]; then
		cp "$orig" "$d/inplace.efi"
		tool "$d/signed-refuse" --file "$d/inplace.efi" --csv "$c1"
		if [ "$RC" -eq 1 ] && [ "$(sha "$d/inplace.efi")" = "$sum0" ] && grep -qi 'sign' "$d/signed-refuse.err"; then
			pass inserted "signed input refused without --strip-signature (exit 1), file untouched: $(first_err "$d/signed-refuse")"
		else
			fail inserted "signed input without --strip-signature: exit $RC, file $([ "$(sha "$d/inplace.efi")" = "$sum0" ] && echo untouched || echo MODIFIED)"
		fi
		tool "$d/signed-refuse-out" --file "$orig" --csv "$c1" --output "$s1"
		if [ "$RC" -eq 1 ] && [ ! -e "$s1" ]; then
			pass inserted "signed input with --output refused, nothing written"
		else
			fail inserted "signed input with --output: exit $RC$([ -e "$s1" ] && echo ', output written')"
		fi
		rm -f "$s1"
		strip=(--strip-signature)
	fi

	# ---- dry run
	cp "$orig" "$d/dry.efi"
	tool "$d/dry" --dry-run "${strip[@]}" --file "$d/dry.efi" --csv "$c1"
	if [ "$RC" -eq 0 ] && [ "$(sha "$d/dry.efi")" = "$sum0" ] && [ -z "$(ls "$d"/dry.efi?* 2>/dev/null)" ]; then
		pass inserted "--dry-run: exit 0, file untouched"
	else
		fail inserted "--dry-run: exit $RC: $(first_err "$d/dry")"
	fi

	# ---- insert (or first replace)
	tool "$d/insert" "${strip[@]}" --file "$orig" --csv "$c1" --output "$s1"
	if [ "$RC" -ne 0 ] || [ ! -s "$s1" ]; then
		fail inserted "$([ "$had_sbat" = 0 ] && echo insert || echo replace) failed: exit $RC: $(first_err "$d/insert")"
		cell "$name" replaced skip
		cell "$name" validators skip
		cell "$name" boot skip
		return 0
	fi
	[ "$(sha "$orig")" = "$sum0" ] || fail inserted "--output modified the input file"
	pass inserted "$([ "$had_sbat" = 0 ] && echo "inserted a new .sbat" || echo "replaced the existing .sbat")$([ "$shifted" = 1 ] && echo " by moving the section data") (exit 0)"
	check "$orig" "$s1" "$c1" inserted step1
	print_matches "$s1" "$c1" inserted

	# ---- replace with a different CSV
	tool "$d/replace" --file "$s1" --csv "$c2" --output "$s2"
	if [ "$RC" -ne 0 ] || [ ! -s "$s2" ]; then
		fail replaced "replace failed: exit $RC: $(first_err "$d/replace")"
		s2="$s1"
		cp "$c1" "$d/expected.csv"
	else
		pass replaced "replaced .sbat with a different CSV (exit 0)"
		check "$s1" "$s2" "$c2" replaced step2-vs-step1
		check "$orig" "$s2" "$c2" replaced step2-vs-original
		print_matches "$s2" "$c2" replaced
		cp "$c2" "$d/expected.csv"

		# ---- idempotency: same CSV again (to a new file and in place, twice)
		tool "$d/again" --file "$s2" --csv "$c2" --output "$s3"
		if [ "$RC" -eq 0 ] && cmp -s "$s2" "$s3"; then
			pass replaced "same CSV again: byte-identical output"
		else
			fail replaced "same CSV again: exit $RC, $(cmp "$s2" "$s3" 2>&1 | head -n 1)"
		fi
		cp "$s1" "$d/inplace.efi"
		tool "$d/inplace1" --file "$d/inplace.efi" --csv "$c2"
		local rc1="$RC"
		tool "$d/inplace2" --file "$d/inplace.efi" --csv "$c2"
		if [ "$rc1" -eq 0 ] && [ "$RC" -eq 0 ] && cmp -s "$d/inplace.efi" "$s2"; then
			pass replaced "in place, twice: exit 0, identical to the --output result"
		else
			fail replaced "in place twice: exit $rc1/$RC, $(cmp "$d/inplace.efi" "$s2" 2>&1 | head -n 1)"
		fi

		# ---- a mid-file .sbat whose VirtualSize is smaller than its
		# SizeOfRawData (objcopy-built programs): a CSV that fits the raw
		# size but not the VirtualSize must be refused, or the output must
		# still hold the whole CSV inside VirtualSize without overlap
		image_info "$s2"
		if [ "$INFO_sbat_last" = 0 ] && [ "${INFO_sbat_vsize:-0}" -lt "$INFO_sbat_rawsize" ]; then
			write_big_csv "$d/csv-mid.csv" "$comp" "$INFO_sbat_vsize"
			if [ "$(wc -c <"$d/csv-mid.csv")" -lt "$INFO_sbat_rawsize" ]; then
				rm -f "$d/mid.efi"
				tool "$d/mid" --file "$s2" --csv "$d/csv-mid.csv" --output "$d/mid.efi"
				if [ "$RC" -eq 1 ] && [ ! -e "$d/mid.efi" ]; then
					pass replaced "a $(wc -c <"$d/csv-mid.csv")-byte CSV (> VirtualSize $INFO_sbat_vsize, < SizeOfRawData $INFO_sbat_rawsize) is refused: $(first_err "$d/mid")"
				elif [ "$RC" -eq 0 ]; then
					check "$s2" "$d/mid.efi" "$d/csv-mid.csv" replaced beyond-vsize
				else
					fail replaced "CSV beyond VirtualSize: exit $RC: $(first_err "$d/mid")"
				fi
			fi
		fi

		# ---- a CSV larger than the current .sbat: grows only a last section
		write_big_csv "$c3" "$comp" "$INFO_sbat_rawsize"
		rm -f "$d/grow.efi"
		tool "$d/grow" --file "$s2" --csv "$c3" --output "$d/grow.efi"
		if [ "$INFO_sbat_last" = 1 ]; then
			if [ "$RC" -eq 0 ]; then
				pass replaced "grew the last-section .sbat past $INFO_sbat_rawsize bytes ($(wc -c <"$c3")-byte CSV)"
				check "$s2" "$d/grow.efi" "$c3" replaced grow
			else
				fail replaced "growing a last-section .sbat to $(wc -c <"$c3") bytes: exit $RC: $(first_err "$d/grow")"
			fi
		else
			if [ "$RC" -eq 1 ] && [ ! -e "$d/grow.efi" ]; then
				pass replaced "a CSV larger than the mid-file .sbat ($INFO_sbat_rawsize bytes) is refused (exit 1): $(first_err "$d/grow")"
				reloc=1
			elif [ "$RC" -eq 0 ]; then
				# allowed only if the result is still valid
				check "$s2" "$d/grow.efi" "$c3" replaced grow-midfile
			else
				fail replaced "oversized CSV for a mid-file .sbat: exit $RC: $(first_err "$d/grow")"
			fi
		fi
	fi

	# ---- validators on the final image
	run_validators "$orig" "$s2" "$d" "$arch"
	FINAL[$name]="$s2"

	# ---- boot
	if [ "$DO_BOOT" = 1 ] && [ "${ROLE[$name]}" != none ]; then
		boot_one "$name" "$s2" "$arch" "${ROLE[$name]}" "$d"
	elif [ "${ROLE[$name]}" = none ]; then
		cell "$name" boot n/a
	else
		cell "$name" boot skip
	fi

	# ---- the newer modes
	remove_tests "$name" "$orig" "$d" "$had_sbat" "$shifted"
	if [ "$reloc" = 1 ]; then
		relocate_tests "$name" "$orig" "$d" "$comp"
	else
		cell "$name" relocated n/a
	fi
	merge_tests "$name" "$orig" "$d" "$had_sbat" "$comp" "${strip[@]}"
	level_tests "$name" "$orig" "$d"
	json_tests "$orig" "$arch" "$s1" "$s2" "$d/grow.efi" "$d/mid.efi" "${OUTS[@]}"
}

for name in "${NAMES[@]}"; do
	test_file "$name"
done

# ------------------------------------------------------------ corpus audit
# The whole corpus directory audited with --check-level against Debian
# shim's own payloads: latest:SHIM, automatic:SHIM, and "running" read from
# a fake efivarfs holding the latest payload as shim publishes it. The two
# payloads extracted here must equal tests/fixtures/level/*.txt.
shim_payload() { # shim_payload SHIM INDEX(0 automatic, 1 latest) OUT: the NUL-terminated string
	local sec="$WORK/corpus-audit/sbatlevel.bin" off
	objcopy -O binary --only-section=.sbatlevel "$1" "$sec" 2>/dev/null || return 1
	off=$(od -An -tu4 -j $((4 + 4 * $2)) -N 4 "$sec" | tr -d ' ')
	[ -n "$off" ] || return 1
	tail -c +$((4 + off + 1)) "$sec" | tr '\0' '\n' | sed '/^$/q' | sed '$d' >"$3"
}
corpus_audit() {
	local d="$WORK/corpus-audit" p rc want
	CUR="corpus-audit"
	CURLOG="$LOGS/corpus-audit.log"
	: >"$CURLOG"
	mkdir -p "$d"
	hr
	say "== corpus-audit (--check-level on the corpus directory against shimx64.efi's SbatLevels)"
	for c in inserted replaced removed relocated merged json validators boot; do cell "$CUR" "$c" n/a; done
	for p in automatic latest; do
		if shim_payload "$SHIM_POLICY" "$([ $p = latest ] && echo 1 || echo 0)" "$d/$p.txt" &&
		   cmp -s "$d/$p.txt" "$SRCROOT/tests/fixtures/level/debian-shim-16.1-$p.txt"; then
			pass level "shim's $p payload equals tests/fixtures/level/debian-shim-16.1-$p.txt"
		else
			fail level "shim's $p payload differs from tests/fixtures/level/debian-shim-16.1-$p.txt"
		fi
		tool "$d/$p" --check-level "$p:$SHIM_POLICY" "$CORPUS"
		say "  \$ sbat-add --check-level $p:shimx64.efi corpus/  (exit $RC)"
		sed "s|$CORPUS/||; s/^/    /" "$d/$p.out"
		want="grubx64.efi: revoked: grub,3 is below grub,5 (SbatLevel $(sed -n '1s/.*,//p' "$d/$p.txt"))"
		if [ "$RC" -eq 4 ] && sed "s|$CORPUS/||" "$d/$p.out" | grep -qxF "$want" &&
		   grep -q '^[^:]*/grubx64-debian.efi: allowed: ' "$d/$p.out" &&
		   grep -q '^[^:]*/vmlinuz-amd64: no .sbat: ' "$d/$p.out" &&
		   grep -q '^[^:]*/grubx64-nosbat.efi: no .sbat: shim refuses' "$d/$p.out" &&
		   { [ ! -f "$CORPUS/memtest86+x64.efi" ] ||
		     grep -q '^[^:]*/memtest86+x64.efi: no .sbat as shim reads it (SizeOfRawData 0x200 is below VirtualSize 0x1000' "$d/$p.out"; } &&
		   grep -q 'files\{0,1\} skipped: not PE images$' "$d/$p.out"; then
			pass level "$p: exit 4; grub,3 revoked, Debian's GRUB allowed, kernels, grub-mkimage and memtest86+ (ignored .sbat) without .sbat, MANIFEST.tsv skipped"
		else
			fail level "$p: exit $RC, want 4 and the verdicts above"
		fi
	done
	mkdir -p "$d/efivars"
	{ printf '\6\0\0\0'; cat "$d/latest.txt"; printf '\0'; } >"$d/efivars/SbatLevelRT-605dab50-e046-4300-abb6-3dd810dd8b23"
	rc=0
	SBAT_ADD_EFIVARFS="$d/efivars" "$SBAT_ADD" --check-level running "$CORPUS" >"$d/running.out" 2>"$d/running.err" || rc=$?
	if [ "$rc" -eq 4 ] && cmp -s "$d/running.out" "$d/latest.out"; then
		pass level "running (a fake efivarfs holding shim's latest payload) reports exactly what latest:SHIM does"
	else
		fail level "running: exit $rc, report differs from latest:SHIM (see $d/running.out)"
	fi
}
if [ -s "$SHIM_POLICY" ]; then
	corpus_audit
	NAMES+=("corpus-audit")
fi

# --lint on the corpus as shipped, as edited, and as GNU and LLVM objcopy edit it
. "$HERE/lint-corpus.sh"
lint_corpus

# ------------------------------------------------ Secure Boot through shim
# OVMF with Debian's "snakeoil" PK/KEK/db (its private key ships with ovmf):
# sign the modified shim, systemd-boot (as grubx64.efi, shim's second stage;
# the relocated one when there is one) and kernel with it, boot, then boot
# again with an SbatLevel revoking linux,1, and with one revoking the
# relocated systemd-boot's row.
shim_chain() {
	local d="$WORK/shim-secureboot" esp sk sc shim sdboot kernel vars log f
	CUR="secure-boot-chain"
	CURLOG="$LOGS/secure-boot-chain.log"
	: >"$CURLOG"
	hr
	say "== secure-boot-chain (OVMF snakeoil keys -> shim -> systemd-boot -> kernel; then SbatLevels revoking linux,1 and the relocated systemd-boot)"
	shim="${FINAL[shimx64.efi]:-}"
	# the relocated systemd-boot (new last .sbat, retired .oldsbat) when there is one
	sdboot="${RELOCATED[systemd-bootx64.efi]:-${FINAL[systemd-bootx64.efi]:-$CORPUS/systemd-bootx64.efi}}"
	kernel="${FINAL[vmlinuz-amd64]:-}"
	if [ -z "$shim" ] || [ -z "$kernel" ]; then
		fail boot "needs the modified shimx64.efi and vmlinuz-amd64 from the steps above"
		return 0
	fi
	for f in inserted replaced removed merged level json; do cell "$CUR" "$f" n/a; done
	cell "$CUR" relocated n/a
	printf 'systemd-boot: %s\n' "$sdboot" >>"$CURLOG"
	mkdir -p "$d"
	sk="$d/snakeoil.key"
	sc=/usr/share/ovmf/PkKek-1-snakeoil.pem
	openssl rsa -in /usr/share/ovmf/PkKek-1-snakeoil.key -passin pass:snakeoil -out "$sk" >>"$CURLOG" 2>&1
	esp="$d/esp"
	make_esp "$esp"
	local ok=1
	for f in "$shim:EFI/BOOT/BOOTX64.EFI" "$sdboot:EFI/BOOT/grubx64.efi" "$kernel:vmlinuz"; do
		if ! sbsign --key "$sk" --cert "$sc" --output "$esp/${f#*:}" "${f%%:*}" >>"$CURLOG" 2>&1; then
			ok=0
			reject validators sbsign "signing ${f%%:*} with the snakeoil key failed"
		fi
	done
	[ "$ok" = 1 ] && pass validators "shim, systemd-boot and the kernel signed with the OVMF snakeoil key"
	printf 'timeout 1\ndefault sbat-add-test.conf\nconsole-mode keep\n' >"$esp/loader/loader.conf"
	printf 'title sbat-add test entry\nlinux /vmlinuz\noptions console=ttyS0 panic=-1\n' \
		>"$esp/loader/entries/sbat-add-test.conf"
	vars="$d/vars.fd"
	cp /usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd "$vars"
	# shellcheck disable=SC2054 # commas belong to qemu option values
	QEMU_X86_FW=(-machine q35,smm=on -global driver=cfi.pflash01,property=secure,value=on
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.secboot.fd"
		-drive "if=pflash,format=raw,unit=1,file=$vars")
	log="$d/serial.log"
	qemu_boot x64 "$esp" "$log" 'Linux version' "$FIRMWARE_BAD|Verification failed|Error loading|SBAT self-check failed"
	if [ "$BOOT_RESULT" = ok ]; then
		pass boot "Secure Boot: shim accepted the modified shim/$([ -n "${RELOCATED[systemd-bootx64.efi]:-}" ] && echo "relocated ")systemd-boot/kernel: '$(serial_excerpt "$log" 'Linux version')' after ${BOOT_SECS}s"
		if grep -aq 'Secure boot enabled' "$log"; then
			pass boot "the kernel reports 'secureboot: Secure boot enabled'"
		else
			fail boot "the kernel did not report 'Secure boot enabled' (see $log)"
		fi
	else
		reject boot shim "Secure Boot chain did not reach the kernel ($BOOT_RESULT after ${BOOT_SECS}s): $(serial_excerpt "$log" "$FIRMWARE_BAD|Verification failed|Error loading|SBAT self-check failed|Failed")"
	fi
	if grep -aq 'addr is not page aligned' "$log"; then
		printf 'INFO shim warned: %s\n' "$(serial_excerpt "$log" 'Invalid call dxe_update_mem_attrs')" >>"$CURLOG"
	fi

	# Same chain with an SbatLevel that revokes linux,1 (the kernel's row):
	# shim must refuse the kernel.
	log="$d/serial-revoked.log"
	cp /usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd "$vars"
	printf 'sbat,1,2099010100\nlinux,2\n' >"$d/sbatlevel.txt"
	if ! "$PY" "$HERE/ovmf-setvar.py" "$vars" SbatLevel 605dab50-e046-4300-abb6-3dd810dd8b23 0x3 \
		"$d/sbatlevel.txt" >>"$CURLOG" 2>&1; then
		fail boot "could not preset SbatLevel in the varstore (see $CURLOG)"
		unset QEMU_X86_FW
		return 0
	fi
	qemu_boot x64 "$esp" "$log" 'Error loading \\vmlinuz|Verification failed' 'Linux version'
	if [ "$BOOT_RESULT" = ok ]; then
		pass boot "SbatLevel 'linux,2': shim refused the kernel's linux,1 .sbat: '$(serial_excerpt "$log" 'Verification failed|Error loading')' after ${BOOT_SECS}s"
	elif [ "$BOOT_RESULT" = bad ]; then
		fail boot "SbatLevel 'linux,2' did not stop the kernel (shim ignored the .sbat?): '$(serial_excerpt "$log" 'Linux version')'"
	else
		fail boot "SbatLevel 'linux,2': no refusal seen ($BOOT_RESULT after ${BOOT_SECS}s; see $log)"
	fi

	# An SbatLevel revoking the relocated systemd-boot's own row: shim must
	# read the new last .sbat of its second stage (not the retired one) and
	# refuse it before the menu.
	if [ -n "${RELOCATED[systemd-bootx64.efi]:-}" ]; then
		local row
		row="$("$SBAT_ADD" --print "$sdboot" 2>/dev/null | sed -n 2p | cut -d, -f1-2)"
		log="$d/serial-revoked-sdboot.log"
		cp /usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd "$vars"
		printf 'sbat,1,2099010100\n%s,%s\n' "${row%,*}" "$((${row#*,} + 1))" >"$d/sbatlevel-sdboot.txt"
		if "$PY" "$HERE/ovmf-setvar.py" "$vars" SbatLevel 605dab50-e046-4300-abb6-3dd810dd8b23 0x3 \
			"$d/sbatlevel-sdboot.txt" >>"$CURLOG" 2>&1; then
			qemu_boot x64 "$esp" "$log" 'Verification failed|start_image\(\) returned|Failed to (load|start) image' \
				'sbat-add test entry|Linux version'
			if [ "$BOOT_RESULT" = ok ]; then
				pass boot "SbatLevel '${row%,*},$((${row#*,} + 1))': shim refused the relocated systemd-boot's ${row} .sbat: '$(serial_excerpt "$log" 'Verification failed|start_image\(\) returned|Failed to (load|start) image')' after ${BOOT_SECS}s"
			elif [ "$BOOT_RESULT" = bad ]; then
				fail boot "SbatLevel '${row%,*},$((${row#*,} + 1))' did not stop the relocated systemd-boot (shim read no .sbat, or the retired one?): '$(serial_excerpt "$log" 'sbat-add test entry|Linux version')'"
			else
				fail boot "SbatLevel '${row%,*},$((${row#*,} + 1))': no refusal of the relocated systemd-boot seen ($BOOT_RESULT after ${BOOT_SECS}s; see $log)"
			fi
		else
			fail boot "could not preset SbatLevel in the varstore (see $CURLOG)"
		fi
	fi
	unset QEMU_X86_FW
}

if [ "$DO_SHIM" = 1 ] && { [ ${#ONLY[@]} -eq 0 ] || { [ -n "${FINAL[shimx64.efi]:-}" ] && [ -n "${FINAL[vmlinuz-amd64]:-}" ]; }; }; then
	shim_chain
	NAMES+=("secure-boot-chain")
fi

# ----------------------------------- kernel-install plugin, postinst.d hook
. "$HERE/kernel-hooks.sh"
kernel_hooks

# ------------------------------------------------------------------ summary
hr
say "== summary (work directory $WORK)"
COLUMNS_=(inserted replaced removed relocated merged level json validators boot)
printf '%-20s' "corpus file"
printf ' %-10s' "${COLUMNS_[@]}"
printf '\n'
for name in "${NAMES[@]}"; do
	printf '%-20s' "$name"
	for c in "${COLUMNS_[@]}"; do printf ' %-10s' "${CELL[$name/$c]:-skip}"; done
	printf '\n'
done
if [ ${#REJECTIONS[@]} -gt 0 ]; then
	say ""
	say "Rejections of sbat-add output by validators or firmware:"
	for r in "${REJECTIONS[@]}"; do say "  - $r"; done
fi
failed_names=()
for name in "${NAMES[@]}"; do
	[ -n "${NOTE[$name]:-}" ] && failed_names+=("$name: ${NOTE[$name]}")
done
if [ ${#failed_names[@]} -gt 0 ]; then
	say ""
	say "First failure per file:"
	for r in "${failed_names[@]}"; do say "  - $r"; done
fi
say ""
say "elapsed: $((SECONDS - START_TIME)) s"
if [ "$KEEP" = 0 ] && [ "$FAILED" -eq 0 ]; then
	find "$WORK" -type f \( -iname '*.efi' -o -name '*signed' -o -name '*.fd' -o -name 'vmlinuz' \) -delete
fi
say "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
