# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# lib.sh - the host side of the VM harness: a Debian kernel, an initramfs
# of busybox-static, a guest script and the files it needs, booted under
# QEMU (TCG), either directly (-kernel/-initrd) or through OVMF from an ESP.
# The guest prints its results between two marker lines on the serial
# console; vm_boot copies them to a file. Source it from bash; see README.md.
#
# Environment:
#   SBAT_CORPUS_DIR   package cache shared with tests/integration/fetch-corpus.sh
#                     (default ${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus)
#   SBAT_VM_KERNEL_DIR an unpacked linux-image package to use instead
#   SBAT_VM_TIMEOUT   seconds per boot before it is retried once (default 300)
#   SBAT_VM_MEM       guest memory in MiB (default 768)
#   SBAT_VM_STATIC_BUILD the build directory of the static sbat-add (shared by the tests)

VM_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_CACHE="${SBAT_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus}"
VM_TIMEOUT="${SBAT_VM_TIMEOUT:-300}"
VM_MEM="${SBAT_VM_MEM:-768}"
VM_BUSYBOX="${SBAT_VM_BUSYBOX:-/bin/busybox}"
VM_OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
VM_OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
VM_WHY=""

vm_log() { printf '# vm: %s\n' "$*"; }

# vm_missing: the first tool the harness lacks, in VM_WHY; 0 when all are here
vm_missing() {
	local c
	for c in qemu-system-x86_64 timeout cpio gzip objcopy mkfs.vfat; do
		if ! command -v "$c" >/dev/null 2>&1; then
			VM_WHY="$c not found"
			return 0
		fi
	done
	if [ ! -x "$VM_BUSYBOX" ] || ! command -v readelf >/dev/null 2>&1 ||
		readelf -l "$VM_BUSYBOX" 2>/dev/null | grep -q 'program interpreter'; then
		VM_WHY="no statically linked busybox at $VM_BUSYBOX (apt-get install busybox-static)"
		return 0
	fi
	return 1
}

# vm_kernel: sets VM_KDIR (an unpacked linux-image package holding boot/vmlinuz-*
# and lib/modules/*), VM_VMLINUZ and VM_MODDIR; fetches the package into the
# corpus cache (apt-get download, dpkg-deb -x) when it is not there yet.
vm_kernel() {
	local d pkg ver deb
	VM_KDIR="${SBAT_VM_KERNEL_DIR:-}"
	if [ -z "$VM_KDIR" ]; then
		for d in "$VM_CACHE"/extract/linux-image-[0-9]*-amd64_*_amd64; do
			case "$d" in *-unsigned_*) continue ;; esac
			[ -e "$d/.extracted" ] && ls "$d"/boot/vmlinuz-* >/dev/null 2>&1 && VM_KDIR="$d"
		done
	fi
	if [ -z "$VM_KDIR" ] && command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
			awk '/^  *Depends: linux-image-[0-9]/ { sub(/:.*$/, "", $2); print $2; exit }')
		ver=$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ { print $2; exit }')
		if [ -n "$pkg" ] && [ -n "$ver" ] && [ "$ver" != "(none)" ]; then
			mkdir -p "$VM_CACHE/debs" "$VM_CACHE/extract"
			deb="$VM_CACHE/debs/${pkg}_${ver//:/%3a}_amd64.deb"
			[ -s "$deb" ] || (cd "$VM_CACHE/debs" && apt-get download -q "$pkg=$ver" >/dev/null 2>&1)
			d="$VM_CACHE/extract/${pkg}_${ver//:/%3a}_amd64"
			if [ -s "$deb" ] && [ ! -e "$d/.extracted" ]; then
				rm -rf "$d" && mkdir -p "$d" && dpkg-deb -x "$deb" "$d" && touch "$d/.extracted"
			fi
			[ -e "$d/.extracted" ] && VM_KDIR="$d"
		fi
	fi
	if [ -z "$VM_KDIR" ]; then
		VM_WHY="no Debian kernel package in $VM_CACHE/extract and apt-get download linux-image-amd64 failed"
		return 1
	fi
	VM_VMLINUZ=$(ls "$VM_KDIR"/boot/vmlinuz-* | head -n 1)
	VM_MODDIR=$(ls -d "$VM_KDIR"/lib/modules/* | head -n 1)
	[ -s "$VM_VMLINUZ" ] && [ -d "$VM_MODDIR/kernel" ] || {
		VM_WHY="$VM_KDIR holds no vmlinuz or modules"
		return 1
	}
}

# vm_module_path NAME: the .ko of module NAME (- and _ are the same)
vm_module_path() {
	local a="${1//-/_}" b="${1//_/-}"
	find "$VM_MODDIR/kernel" \( -name "$a.ko" -o -name "$b.ko" -o -name "$a.ko.xz" -o -name "$b.ko.xz" \) | head -n 1
}

# vm_module_closure NAME...: the modules with what each depends on, dependencies
# first, one path a line (read from each module's .modinfo "depends=");
# built-in modules are left out
vm_module_closure() {
	local seen=" " out=""
	_vm_visit() {
		local m="${1//-/_}" p deps dep
		case "$seen" in *" $m "*) return 0 ;; esac
		seen="$seen$m "
		if grep -q "/$m.ko\$" "$VM_MODDIR/modules.builtin" 2>/dev/null; then
			return 0
		fi
		p=$(vm_module_path "$m")
		[ -n "$p" ] || {
			echo "vm: module $m not found in $VM_MODDIR" >&2
			return 1
		}
		deps=$(objcopy -O binary --only-section=.modinfo "$p" /dev/stdout 2>/dev/null |
			tr '\0' '\n' | sed -n 's/^depends=//p' | tr ',' ' ')
		for dep in $deps; do _vm_visit "$dep" || return 1; done
		out="$out$p
"
	}
	local m
	for m in "$@"; do _vm_visit "$m" || return 1; done
	printf '%s' "$out"
}

# vm_initramfs OUT GUEST_SCRIPT MODULES FILE...: a gzip'd newc cpio with
# busybox, the generic /init, the modules (a space-separated list, loaded in
# dependency order), the guest script as /guest.sh and each FILE in /files
# (a FILE given as SRC=NAME is stored as /files/NAME).
vm_initramfs() {
	local out="$1" guest="$2" mods="$3" root f
	shift 3
	root=$(mktemp -d "${TMPDIR:-/tmp}/sbat-vm-root.XXXXXX") || return 1
	mkdir -p "$root"/bin "$root"/dev "$root"/proc "$root"/sys "$root"/tmp "$root"/mnt "$root"/files "$root"/lib/modules
	cp "$VM_BUSYBOX" "$root/bin/busybox"
	ln -s busybox "$root/bin/sh"
	cp "$VM_HERE/init" "$root/init"
	chmod 0755 "$root/init"
	cp "$guest" "$root/guest.sh"
	if [ -n "$mods" ]; then
		# shellcheck disable=SC2086 # a word list of module names
		vm_module_closure $mods >"$root/lib/modules/order.tmp" || {
			rm -rf "$root"
			return 1
		}
		while read -r f; do
			cp "$f" "$root/lib/modules/"
			basename "$f" >>"$root/lib/modules/order"
		done <"$root/lib/modules/order.tmp"
		rm -f "$root/lib/modules/order.tmp"
	fi
	for f in "$@"; do
		case "$f" in
		*=*) cp "${f%%=*}" "$root/files/${f#*=}" ;;
		*) cp "$f" "$root/files/" ;;
		esac
	done
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
	local rc=$?
	rm -rf "$root"
	return $rc
}

# vm_qemu_run SERIAL QEMU_ARGS...: one boot; VM_RESULT done | timeout | failed,
# VM_SECS the seconds it took. Done means the guest printed its end marker.
vm_qemu_run() {
	local serial="$1" t0 rc
	shift
	: >"$serial"
	t0=$SECONDS
	timeout --foreground -k 10 "$VM_TIMEOUT" qemu-system-x86_64 -accel tcg -m "$VM_MEM" -smp 1 \
		-nographic -no-reboot -monitor none -net none -serial "file:$serial" "$@" </dev/null >"$serial.qemu" 2>&1
	rc=$?
	VM_SECS=$((SECONDS - t0))
	if grep -aq '^==SBAT-VM-END' "$serial"; then
		VM_RESULT=done
	elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		VM_RESULT=timeout
	else
		VM_RESULT=failed
	fi
}

# vm_serial_text SERIAL: the console log without carriage returns and terminal escapes
vm_serial_text() {
	tr -d '\r' <"$1" | sed -E 's/\x1b\[[0-9;=?]*[A-Za-z]//g; s/\x1b[c()][0-9A-B]?//g'
}

# vm_boot NAME SERIAL QEMU_ARGS...: boot, and once more when the first boot
# timed out (a loaded machine); before each boot the command VM_PRE_BOOT, if
# set, runs (vm_swtpm_start); the guest's lines between the markers go to
# SERIAL.out, the guest script's exit status to VM_GUEST_RC, the guest's
# uptime at its start and end to VM_GUEST_START and VM_GUEST_END. Returns 0 when
# the guest ran to its end marker.
vm_boot() {
	local name="$1" serial="$2" try
	shift 2
	for try in 1 2; do
		if [ -n "${VM_PRE_BOOT:-}" ]; then
			$VM_PRE_BOOT || return 1
		fi
		vm_log "$name: boot $try (timeout ${VM_TIMEOUT}s, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
		vm_qemu_run "$serial" "$@"
		vm_log "$name: $VM_RESULT after ${VM_SECS}s"
		[ "$VM_RESULT" = done ] || vm_log "$name: last console lines: $(vm_serial_text "$serial" | tail -n 5 | tr '\n' '|')"
		[ "$VM_RESULT" = timeout ] || break
		vm_log "$name: timed out after ${VM_SECS}s; retrying once"
	done
	# the console starts with terminal resets (ESC c, ESC [...) from the firmware and the kernel
	vm_serial_text "$serial" | sed -n '/^==SBAT-VM-BEGIN/,/^==SBAT-VM-END/p' | sed '1d;$d' >"$serial.out"
	VM_GUEST_RC=$(vm_serial_text "$serial" | sed -n 's/^==SBAT-VM-END rc=\([0-9]*\).*/\1/p' | tail -n 1)
	VM_GUEST_START=$(vm_serial_text "$serial" | sed -n 's/^==SBAT-VM-BEGIN uptime=\([0-9.]*\).*/\1/p' | tail -n 1)
	VM_GUEST_END=$(vm_serial_text "$serial" | sed -n 's/^==SBAT-VM-END rc=[0-9]* uptime=\([0-9.]*\).*/\1/p' | tail -n 1)
	[ "$VM_RESULT" = done ]
}

# vm_cmdline: the kernel command line of every boot
VM_CMDLINE="console=ttyS0 panic=-1 quiet loglevel=3 rdinit=/init"

# vm_boot_direct NAME SERIAL INITRD [EXTRA QEMU ARGS...]: -kernel/-initrd
vm_boot_direct() {
	local name="$1" serial="$2" initrd="$3"
	shift 3
	vm_boot "$name" "$serial" -machine q35 -kernel "$VM_VMLINUZ" -initrd "$initrd" \
		-append "$VM_CMDLINE" "$@"
}

# vm_systemd_boot: sets VM_SDBOOT to systemd-bootx64.efi from the corpus cache
vm_systemd_boot() {
	VM_SDBOOT=$(ls "$VM_CACHE"/extract/systemd-boot-efi_*_amd64/usr/lib/systemd/boot/efi/systemd-bootx64.efi 2>/dev/null | tail -n 1)
	if [ -z "$VM_SDBOOT" ] && command -v apt-get >/dev/null 2>&1; then
		local d="$VM_CACHE/extract/systemd-boot-efi_vm"
		mkdir -p "$VM_CACHE/debs" "$d"
		(cd "$VM_CACHE/debs" && apt-get download -q systemd-boot-efi >/dev/null 2>&1) &&
			dpkg-deb -x "$(ls "$VM_CACHE"/debs/systemd-boot-efi_*_amd64.deb | tail -n 1)" "$d" &&
			VM_SDBOOT=$(ls "$d"/usr/lib/systemd/boot/efi/systemd-bootx64.efi 2>/dev/null)
	fi
	[ -n "$VM_SDBOOT" ] || {
		VM_WHY="no systemd-bootx64.efi (systemd-boot-efi) in $VM_CACHE/extract"
		return 1
	}
}

# vm_make_esp DIR INITRD [LOADER]: an ESP tree: LOADER (default systemd-boot)
# as EFI/BOOT/BOOTX64.EFI, the kernel as /vmlinuz, INITRD as /initrd.img and
# a loader entry booting them with VM_CMDLINE
vm_make_esp() {
	local esp="$1" initrd="$2" loader="${3:-$VM_SDBOOT}"
	rm -rf "$esp"
	mkdir -p "$esp/EFI/BOOT" "$esp/loader/entries"
	cp "$loader" "$esp/EFI/BOOT/BOOTX64.EFI"
	cp "$VM_VMLINUZ" "$esp/vmlinuz"
	cp "$initrd" "$esp/initrd.img"
	printf 'timeout 0\ndefault vm.conf\nconsole-mode keep\n' >"$esp/loader/loader.conf"
	printf 'title sbat-add vm\nlinux /vmlinuz\ninitrd /initrd.img\noptions %s\n' "$VM_CMDLINE" \
		>"$esp/loader/entries/vm.conf"
}

# vm_boot_ovmf NAME SERIAL ESP VARS [EXTRA QEMU ARGS...]: OVMF (writable copy
# VARS of a varstore) booting the ESP directory as a FAT disk (QEMU vvfat)
vm_boot_ovmf() {
	local name="$1" serial="$2" esp="$3" vars="$4"
	shift 4
	# shellcheck disable=SC2054 # commas belong to qemu option values
	vm_boot "$name" "$serial" -machine "${VM_MACHINE:-q35}" \
		-drive "if=pflash,format=raw,readonly=on,file=${VM_FW_CODE:-$VM_OVMF_CODE}" \
		-drive "if=pflash,format=raw,file=$vars" \
		-drive "file=fat:rw:$esp,format=raw" "$@"
}

# vm_swtpm_start: a fresh software TPM 2.0 (swtpm socket --tpm2, state in
# VM_SWTPM_DIR), after stopping the one started before; VM_TPM_ARGS are the
# QEMU arguments that attach it (tpm-tis). QEMU shuts swtpm down when it exits,
# so a boot needs a new one: set VM_PRE_BOOT=vm_swtpm_start. The PCRs of a
# new TPM are reset; OVMF measures the boot into it and logs the events. With
# VM_SWTPM_KEEP=1 the state of the TPM before is kept (the same TPM, powered
# on again: its PCRs reset all the same).
vm_swtpm_start() {
	local d="$VM_SWTPM_DIR" i
	vm_swtpm_stop
	if [ "${VM_SWTPM_KEEP:-0}" = 1 ]; then
		rm -f "$d/sock"
	else
		rm -rf "$d"
	fi
	mkdir -p "$d"
	swtpm socket --tpm2 --tpmstate "dir=$d" --ctrl "type=unixio,path=$d/sock" \
		--log "file=$d/log,level=1" </dev/null >"$d/out" 2>&1 &
	VM_SWTPM_PID=$!
	for i in $(seq 50); do
		[ -S "$d/sock" ] && break
		sleep 0.1
	done
	[ -S "$d/sock" ] || {
		vm_log "swtpm did not start: $(tail -n 3 "$d/out" "$d/log" 2>/dev/null | tr '\n' '|')"
		return 1
	}
}

# vm_swtpm_args DIR: sets VM_SWTPM_DIR and VM_TPM_ARGS for a TPM in DIR (a
# short path: a unix socket path has at most 107 bytes)
vm_swtpm_args() {
	VM_SWTPM_DIR="$1"
	# shellcheck disable=SC2054 # commas belong to qemu option values
	VM_TPM_ARGS=(-chardev "socket,id=chrtpm,path=$1/sock" -tpmdev emulator,id=tpm0,chardev=chrtpm
		-device tpm-tis,tpmdev=tpm0)
}

# vm_swtpm_stop: stop the swtpm of vm_swtpm_start, if it still runs
vm_swtpm_stop() {
	if [ -n "${VM_SWTPM_PID:-}" ]; then
		kill "$VM_SWTPM_PID" 2>/dev/null
		wait "$VM_SWTPM_PID" 2>/dev/null
		VM_SWTPM_PID=""
	fi
}

# vm_static_sbat_add SRC WORKDIR: build the statically linked sbat-add from
# SRC in SBAT_VM_STATIC_BUILD (default WORKDIR/build-static); VM_SBAT_STATIC
# is its path. Returns 1 with VM_WHY set when the static build cannot be set
# up (no libc.a: a skip), 2 when it fails to compile (a failure).
vm_static_sbat_add() {
	local src="$1" w="$2" b="${SBAT_VM_STATIC_BUILD:-$2/build-static}"
	if [ ! -f "$b/build.ninja" ]; then
		meson setup "$b" "$src" -Ddefault_library=static -Dc_link_args=-static -Dtests=disabled \
			-Dintegration=disabled -Dbuildtype=release >"$w/static-setup.log" 2>&1 || {
			VM_WHY="meson setup of the static build failed (libc.a missing?); see $w/static-setup.log"
			return 1
		}
	fi
	ninja -j2 -C "$b" sbat-add >"$w/static-build.log" 2>&1 || {
		cat "$w/static-build.log"
		VM_WHY="the static sbat-add does not build"
		return 2
	}
	VM_SBAT_STATIC="$b/sbat-add"
}

# vm_skip_or_fail WHY: with CI=true a failed check "VM harness: WHY" and exit
# 1, else the whole script skipped (the plan 1..0 # SKIP, exit 0). The
# caller sources ../lib/tap.sh.
vm_skip_or_fail() {
	if [ "${CI:-}" = true ]; then
		not_ok "VM harness: $1"
		exit 1
	fi
	skip_all "$1"
}

# vm_efivars_guest WORKDIR: the static sbat-add (vm_static_sbat_add from
# SBAT_SRC, default the source tree) and WORKDIR/initrd.gz, whose guest
# (guest/efivars.sh) prints the EFI variables and runs it; the script skips,
# or fails with CI=true (vm_skip_or_fail), when either cannot be built.
vm_efivars_guest() {
	vm_static_sbat_add "${SBAT_SRC:-$VM_HERE/../..}" "$1"
	case $? in
	1) vm_skip_or_fail "$VM_WHY" ;;
	2) vm_skip_or_fail "the static sbat-add does not build" ;;
	esac
	vm_initramfs "$1/initrd.gz" "$VM_HERE/guest/efivars.sh" "efivarfs ahci sd_mod vfat nls_cp437 nls_ascii" \
		"$VM_SBAT_STATIC" || vm_skip_or_fail "cannot build the initramfs"
}

# vm_efivarfs DUMP DIR: the "var NAME HEX" lines a guest printed (guest/efivars.sh),
# as a directory of files the way efivarfs shows them (SBAT_ADD_EFIVARFS)
vm_efivarfs() {
	local name hex
	rm -rf "$2"
	mkdir -p "$2"
	grep '^var ' "$1" | while read -r _ name hex; do
		printf '%s' "$hex" | sed 's/../\\x&/g' | xargs -0 printf -- >"$2/$name"
	done
}

# vm_sid PKG: unpack the newest PKG (amd64 or all) of Debian unstable (sid)
# into $VM_CACHE/sid/extract/PKG_VERSION and set VM_SID_DIR to it; fetched
# with apt-get download through a private apt configuration in
# $VM_CACHE/sid/apt (the system's apt setup is not touched), like the trixie
# packages of tests/integration/fetch-corpus.sh. Once a version is unpacked it
# is used without asking the network again (SBAT_VM_SID_REFRESH=1 asks).
vm_sid() {
	local pkg="$1" s="$VM_CACHE/sid" ver deb d
	local -a apt=(-o Dir::Etc::sourcelist="$s/apt/sources.list" -o Dir::Etc::sourceparts="$s/apt/sources.list.d"
		-o Dir::Etc::preferences="$s/apt/preferences" -o Dir::Etc::preferencesparts="$s/apt/preferences.d"
		-o Dir::State::Lists="$s/apt/lists" -o Dir::State::status="$s/apt/status"
		-o Dir::Cache="$s/apt/cache" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
		-o APT::Architecture=amd64 -o APT::Architectures=amd64)
	VM_SID_DIR=$(ls -d "$s/extract/${pkg}"_[0-9]*/.extracted 2>/dev/null | sort -V | tail -n 1)
	if [ -n "$VM_SID_DIR" ] && [ "${SBAT_VM_SID_REFRESH:-0}" != 1 ]; then
		VM_SID_DIR=${VM_SID_DIR%/.extracted}
		return 0
	fi
	VM_SID_DIR=""
	command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || {
		VM_WHY="no apt-get/dpkg-deb to fetch $pkg from Debian unstable"
		return 1
	}
	mkdir -p "$s/apt/sources.list.d" "$s/apt/preferences.d" "$s/apt/lists/partial" \
		"$s/apt/cache/archives/partial" "$s/debs" "$s/extract"
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian sid main\n' \
		>"$s/apt/sources.list"
	: >>"$s/apt/status"
	: >>"$s/apt/preferences"
	if [ ! -e "$s/apt/lists/.updated" ] || [ "${SBAT_VM_SID_REFRESH:-0}" = 1 ]; then
		apt-get "${apt[@]}" update -qq >"$s/apt/update.log" 2>&1 && touch "$s/apt/lists/.updated"
	fi
	ver=$(apt-cache "${apt[@]}" policy "$pkg" 2>/dev/null | awk '/Candidate:/ { print $2; exit }' | sed 's/(none)//')
	[ -n "$ver" ] || {
		VM_WHY="no candidate for $pkg in Debian unstable (apt-get update failed? see $s/apt/update.log)"
		return 1
	}
	deb=$(ls "$s/debs/${pkg}_${ver//:/%3a}"_*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		(cd "$s/debs" && apt-get "${apt[@]}" download -q "$pkg=$ver" >"$s/debs/.download.log" 2>&1)
		deb=$(ls "$s/debs/${pkg}_${ver//:/%3a}"_*.deb 2>/dev/null | head -n 1)
	fi
	[ -n "$deb" ] || {
		VM_WHY="apt-get download $pkg=$ver (Debian unstable) failed"
		return 1
	}
	d="$s/extract/${pkg}_${ver//:/%3a}"
	if [ ! -e "$d/.extracted" ]; then
		rm -rf "$d" && mkdir -p "$d" && dpkg-deb -x "$deb" "$d" && touch "$d/.extracted"
	fi
	[ -e "$d/.extracted" ] || {
		VM_WHY="dpkg-deb -x $deb failed"
		return 1
	}
	VM_SID_DIR="$d"
}
