#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# Fetch the real-binary corpus for the sbat-add integration suite.
#
# Downloads Debian 12 (bookworm) packages with `apt-get download`, unpacks
# them with `dpkg-deb -x` and collects the PE/COFF images of interest in
# "$SBAT_CORPUS_DIR/corpus", described by "$SBAT_CORPUS_DIR/corpus/MANIFEST.tsv".
# The UKI tools of Debian 13 (trixie: ukify, systemd-stub and systemd-measure
# 257) go to "$SBAT_CORPUS_DIR/trixie" (see below).
#
# The vendor-signed images the release-check profiles are recorded on
# (profiles-corpus.sh) go to "$SBAT_CORPUS_DIR/signed", described by
# "$SBAT_CORPUS_DIR/signed/MANIFEST.tsv": Debian 12's shim-signed and
# grub-efi-amd64-signed, and from Debian 13 (trixie, fetched with apt-get
# through the private configuration in "$SBAT_CORPUS_DIR/trixie/apt", the
# system's apt setup untouched) shim-signed, grub-efi-amd64-signed (GRUB
# 2.12), systemd-boot-efi-amd64-signed and the systemd-stub 257 that UKIs
# are made from.
#
# Nothing is written into the source tree. The cache defaults to
# ${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus. Running it again only
# fetches what is missing (a newer package version is fetched next to the
# old one; the corpus is rebuilt from the newest one).
#
# Must run as root the first time (it enables the arm64 foreign architecture
# and runs apt-get update). Exit status: 0 when every required item was
# collected, 1 otherwise.
set -euo pipefail

CACHE="${SBAT_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus}"
DEBS="$CACHE/debs"
EXTRACT="$CACHE/extract"
CORPUS="$CACHE/corpus"
MANIFEST="$CORPUS/MANIFEST.tsv"
FAILED=0

log() { printf 'fetch-corpus: %s\n' "$*" >&2; }
warn() { printf 'fetch-corpus: WARNING: %s\n' "$*" >&2; }
die() { printf 'fetch-corpus: ERROR: %s\n' "$*" >&2; exit 1; }

command -v apt-get >/dev/null 2>&1 || die "apt-get not found: this script needs a Debian 12 (bookworm) system"
command -v dpkg-deb >/dev/null 2>&1 || die "dpkg-deb not found"

mkdir -p "$DEBS" "$EXTRACT" "$CORPUS"

# ---------------------------------------------------------------- apt setup
ensure_arm64() {
	if dpkg --print-foreign-architectures | grep -qx arm64; then
		return 0
	fi
	if [ "$(id -u)" -ne 0 ]; then
		warn "arm64 is not a foreign architecture and we are not root: skipping the arm64 kernel"
		return 1
	fi
	log "enabling the arm64 foreign architecture"
	dpkg --add-architecture arm64
	APT_UPDATED=0
}

APT_UPDATED=${APT_UPDATED:-0}
apt_update_once() {
	[ "$APT_UPDATED" = 1 ] && return 0
	if [ "$(id -u)" -eq 0 ]; then
		log "apt-get update"
		apt-get update -qq >/dev/null || warn "apt-get update failed; using the existing package lists"
	fi
	APT_UPDATED=1
}

HAVE_ARM64=1
ensure_arm64 || HAVE_ARM64=0
# Only refresh the lists when something is missing from them.
if ! apt-cache show linux-image-amd64 >/dev/null 2>&1 ||
	{ [ "$HAVE_ARM64" = 1 ] && ! apt-cache show linux-image-arm64:arm64 >/dev/null 2>&1; }; then
	APT_UPDATED=0
	apt_update_once
fi

# apt options for another suite's package list (trixie below); empty: the system's
APT_EXTRA=()

# candidate_version PKG -> version string (empty when unknown)
candidate_version() {
	apt-cache "${APT_EXTRA[@]}" policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2; exit }' | sed 's/(none)//'
}

# dependency_target META[:ARCH] -> the linux-image-6.1.0-N-FLAVOUR it depends on
dependency_target() {
	apt-cache depends "$1" 2>/dev/null |
		awk '/^  *Depends: linux-image-[0-9]/ { sub(/:.*$/, "", $2); print $2; exit }'
}

# fetch PKG[:ARCH] -> echo extract dir; downloads (if needed) and unpacks.
fetch() {
	local spec="$1" pkg arch ver debver deb dir
	pkg="${spec%%:*}"
	arch="$(dpkg --print-architecture)"
	[ "$spec" != "$pkg" ] && arch="${spec#*:}"
	ver="$(candidate_version "$spec")"
	if [ -z "$ver" ] && [ ${#APT_EXTRA[@]} = 0 ]; then
		apt_update_once
		ver="$(candidate_version "$spec")"
	fi
	[ -n "$ver" ] || { warn "no installable candidate for $spec"; return 1; }
	debver="${ver//:/%3a}"
	deb="$DEBS/${pkg}_${debver}_${arch}.deb"
	if [ ! -s "$deb" ]; then
		# Architecture-independent packages are named _all.deb.
		local alt="$DEBS/${pkg}_${debver}_all.deb"
		if [ -s "$alt" ]; then
			deb="$alt"
		else
			log "downloading $spec ($ver)"
			(cd "$DEBS" && apt-get "${APT_EXTRA[@]}" download -q "${spec}=${ver}" >/dev/null 2>"$DEBS/.download.err") || {
				cat "$DEBS/.download.err" >&2
				warn "apt-get download $spec=$ver failed"
				return 1
			}
			[ -s "$deb" ] || deb="$alt"
			[ -s "$deb" ] || { warn "downloaded $spec but cannot find $deb"; return 1; }
		fi
	fi
	dir="$EXTRACT/${pkg}_${debver}_${arch}"
	if [ ! -e "$dir/.extracted" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		# fetch runs in a command substitution, where set -e does not stop it:
		# a failed unpack must not be marked as done
		if ! dpkg-deb -x "$deb" "$dir"; then
			rm -rf "$dir"
			warn "dpkg-deb -x $deb failed"
			return 1
		fi
		touch "$dir/.extracted"
	fi
	printf '%s\t%s\n' "$dir" "$pkg=$ver"
}

# ------------------------------------------------------------ manifest tools
MANIFEST_TMP="$(mktemp "$CORPUS/.manifest.XXXXXX")"
trap 'rm -f "$MANIFEST_TMP"' EXIT
printf '# name\tkind\tarch\texpect\tboot\tsource\tsha256\n' >"$MANIFEST_TMP"

# add NAME SRC_FILE KIND ARCH EXPECT BOOT SOURCE
#   KIND:   bzimage | arm64-image | efi
#   EXPECT: ok (insert/replace must work) | noroom (no free header slot:
#           refused, or a valid edit if the tool moves section data)
#           | signed (refused unless --strip-signature)
#   BOOT:   kernel | sdboot | grub | shim | ipxe | app (firmware LoadImage only) | none
add() {
	local name="$1" src="$2" kind="$3" arch="$4" expect="$5" boot="$6" source="$7" sum
	if [ ! -s "$src" ]; then
		warn "$name: $src missing"
		FAILED=1
		return 0
	fi
	if [ ! -e "$CORPUS/$name" ] || ! cmp -s "$src" "$CORPUS/$name"; then
		cp -f "$src" "$CORPUS/$name.tmp"
		mv -f "$CORPUS/$name.tmp" "$CORPUS/$name"
	fi
	sum="$(sha256sum "$CORPUS/$name" | cut -d' ' -f1)"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$arch" "$expect" "$boot" "$source" "$sum" >>"$MANIFEST_TMP"
	printf '  %-40s %-12s %-6s %-7s %-7s %s\n' "$name" "$kind" "$arch" "$expect" "$boot" "$source"
}

# one_file DIR GLOB... -> the first file matching one of DIR/GLOB
one_file() {
	local dir="$1" g f
	shift
	for g in "$@"; do
		for f in "$dir"/$g; do
			[ -f "$f" ] && { printf '%s\n' "$f"; return 0; }
		done
	done
	warn "no file matching $* in $(basename "$dir")"
	return 1
}

fetch_or_fail() {
	local out
	if out="$(fetch "$1")"; then
		printf '%s\n' "$out"
	else
		FAILED=1
		return 1
	fi
}

# -------------------------------------------------------------- x86 kernels
KFLAV_AMD64="$(dependency_target linux-image-amd64)"
if [ -z "$KFLAV_AMD64" ]; then
	warn "cannot resolve linux-image-amd64"
	FAILED=1
else
	if r="$(fetch_or_fail "$KFLAV_AMD64")"; then
		d="${r%%$'\t'*}" s="${r#*$'\t'}"
		f="$(one_file "$d" "boot/vmlinuz-*")" &&
			add "vmlinuz-amd64-signed" "$f" bzimage x64 signed kernel "$s" || FAILED=1
	fi
	if r="$(fetch_or_fail "${KFLAV_AMD64}-unsigned")"; then
		d="${r%%$'\t'*}" s="${r#*$'\t'}"
		f="$(one_file "$d" "boot/vmlinuz-*")" &&
			add "vmlinuz-amd64" "$f" bzimage x64 ok kernel "$s" || FAILED=1
	fi
fi

# ------------------------------------------------------------ arm64 kernels
# Debian's unsigned arm64 vmlinuz is a gzip-compressed Image; the signed one
# is an uncompressed, signed PE Image.
if [ "$HAVE_ARM64" = 1 ]; then
	KFLAV_ARM64="$(dependency_target linux-image-arm64:arm64)"
	if [ -z "$KFLAV_ARM64" ]; then
		warn "cannot resolve linux-image-arm64:arm64"
		FAILED=1
	else
		if r="$(fetch_or_fail "${KFLAV_ARM64}-unsigned:arm64")"; then
			d="${r%%$'\t'*}" s="${r#*$'\t'}"
			if f="$(one_file "$d" "boot/vmlinuz-*")"; then
				img="$CACHE/Image-arm64.tmp"
				if gzip -t "$f" 2>/dev/null; then
					gzip -dc "$f" >"$img"
				else
					cp -f "$f" "$img"
				fi
				add "Image-arm64" "$img" arm64-image aa64 ok kernel "$s"
				rm -f "$img"
			fi
		fi
		if r="$(fetch_or_fail "${KFLAV_ARM64}:arm64")"; then
			d="${r%%$'\t'*}" s="${r#*$'\t'}"
			if f="$(one_file "$d" "boot/vmlinuz-*")"; then
				if gzip -t "$f" 2>/dev/null; then
					warn "signed arm64 vmlinuz is compressed; skipping it"
				else
					add "Image-arm64-signed" "$f" arm64-image aa64 signed kernel "$s"
				fi
			fi
		fi
	fi
fi

# ------------------------------------------------------------- EFI programs
if r="$(fetch_or_fail systemd-boot-efi)"; then
	d="${r%%$'\t'*}" s="${r#*$'\t'}"
	f="$(one_file "$d" "usr/lib/systemd/boot/efi/systemd-bootx64.efi")" &&
		add "systemd-bootx64.efi" "$f" efi x64 ok sdboot "$s" || FAILED=1
	f="$(one_file "$d" "usr/lib/systemd/boot/efi/linuxx64.efi.stub")" &&
		add "linuxx64.efi.stub" "$f" efi x64 ok app "$s" || FAILED=1
fi

# arm64 systemd-boot and stub: gnu-efi's hand-written PE header, padded with
# arm64 NOPs from the section table up to SizeOfHeaders
if [ "$HAVE_ARM64" = 1 ] && r="$(fetch_or_fail systemd-boot-efi:arm64)"; then
	d="${r%%$'\t'*}" s="${r#*$'\t'}"
	f="$(one_file "$d" "usr/lib/systemd/boot/efi/systemd-bootaa64.efi")" &&
		add "systemd-bootaa64.efi" "$f" efi aa64 ok sdboot "$s:arm64" || FAILED=1
	f="$(one_file "$d" "usr/lib/systemd/boot/efi/linuxaa64.efi.stub")" &&
		add "linuxaa64.efi.stub" "$f" efi aa64 ok app "$s:arm64" || FAILED=1
fi

if r="$(fetch_or_fail shim-unsigned)"; then
	d="${r%%$'\t'*}" s="${r#*$'\t'}"
	f="$(one_file "$d" "usr/lib/shim/shimx64.efi")" &&
		add "shimx64.efi" "$f" efi x64 ok shim "$s" || FAILED=1
fi

if r="$(fetch_or_fail grub-efi-amd64-bin)"; then
	d="${r%%$'\t'*}" s="${r#*$'\t'}"
	moddir="$d/usr/lib/grub/x86_64-efi"
	if f="$(one_file "$d" "usr/lib/grub/x86_64-efi/monolithic/grubx64.efi")"; then
		add "grubx64-debian.efi" "$f" efi x64 ok grub "$s"
	fi
	MKIMAGE="$(command -v grub-mkimage || true)"
	if [ -z "$MKIMAGE" ]; then
		# grub-common's grub-mkimage can run from its unpacked tree.
		if r2="$(fetch grub-common)"; then
			d2="${r2%%$'\t'*}"
			[ -x "$d2/usr/bin/grub-mkimage" ] && "$d2/usr/bin/grub-mkimage" --version >/dev/null 2>&1 &&
				MKIMAGE="$d2/usr/bin/grub-mkimage"
		fi
	fi
	if [ -n "$MKIMAGE" ] && [ -d "$moddir" ]; then
		gdir="$CACHE/grub-build"
		mkdir -p "$gdir"
		printf '%s\n' \
			'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md' \
			'grub,3,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/' \
			>"$gdir/grub-sbat.csv"
		mods=(normal configfile echo fat part_gpt part_msdos search ls)
		stamp="$gdir/.stamp-$(basename "$d")"
		if [ ! -e "$stamp" ] || [ ! -s "$gdir/grubx64.efi" ] || [ ! -s "$gdir/grubx64-nosbat.efi" ]; then
			log "building grubx64.efi with $MKIMAGE"
			"$MKIMAGE" -O x86_64-efi -d "$moddir" -p /EFI/BOOT --sbat "$gdir/grub-sbat.csv" \
				-o "$gdir/grubx64.efi" "${mods[@]}"
			"$MKIMAGE" -O x86_64-efi -d "$moddir" -p /EFI/BOOT \
				-o "$gdir/grubx64-nosbat.efi" "${mods[@]}"
			touch "$stamp"
		fi
		add "grubx64.efi" "$gdir/grubx64.efi" efi x64 ok grub "$s +grub-mkimage --sbat"
		add "grubx64-nosbat.efi" "$gdir/grubx64-nosbat.efi" efi x64 ok grub "$s +grub-mkimage"
	else
		warn "grub-mkimage not available: using only the shipped monolithic grubx64.efi"
	fi
fi

if r="$(fetch_or_fail memtest86+)"; then
	d="${r%%$'\t'*}" s="${r#*$'\t'}"
	# memtest86+ 6.x is a bzImage-style PE ("HdrS" at 0x202).
	f="$(one_file "$d" "boot/memtest86+x64.efi" "boot/mt86+x64.efi" "boot/memtest86+*.efi")" &&
		add "memtest86+x64.efi" "$f" bzimage x64 ok app "$s" || FAILED=1
fi

if r="$(fetch_or_fail ipxe)"; then
	d="${r%%$'\t'*}" s="${r#*$'\t'}"
	f="$(one_file "$d" "boot/ipxe.efi" "usr/lib/ipxe/ipxe.efi")" &&
		add "ipxe.efi" "$f" efi x64 noroom ipxe "$s" || FAILED=1
fi

# ------------------------------------------------ Debian 13 (trixie): UKIs
# ukify 257 (Python, runs on Debian 12 with python3-pefile), systemd-stub 257
# and systemd-measure 257 for the UKI tests (tests/integration/test-ukify.sh,
# tests/vm/test-tpm.sh). systemd-measure 257 needs the C library and
# libsystemd-shared of Debian 13; it runs through Debian 13's dynamic loader
# with those libraries unpacked next to it (bin/systemd-measure is that
# wrapper), so nothing is installed. A private apt configuration under
# $CACHE/trixie reads the trixie index; the system's sources are not changed.
# These files are not in MANIFEST.tsv (the edit checks of run.sh do not run
# on them); the bookworm stub above stays the corpus's linuxx64.efi.stub.
TRIXIE="$CACHE/trixie"
TRIXIE_PKGS=(systemd-ukify systemd-boot-efi systemd libsystemd-shared libc6 libssl3t64
	libtss2-esys-3.0.2-0t64 libtss2-mu-4.0.1-0t64 libtss2-rc0t64 libtss2-sys1t64)

# the apt options of the private trixie configuration (also the vendor-signed images' below)
TRIXIE_APT=(-o Dir::Etc::sourcelist="$TRIXIE/apt/sources.list" -o Dir::Etc::sourceparts="$TRIXIE/apt/sources.list.d"
	-o Dir::Etc::preferences="$TRIXIE/apt/preferences" -o Dir::Etc::preferencesparts="$TRIXIE/apt/preferences.d"
	-o Dir::State::Lists="$TRIXIE/apt/lists" -o Dir::State::status="$TRIXIE/apt/status"
	-o Dir::Cache="$TRIXIE/apt/cache" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
	-o APT::Architecture=amd64 -o APT::Architectures::=amd64 -o Acquire::Languages=none
	-o APT::Sandbox::User="$(id -un)")

# trixie_apt apt-get|apt-cache ARGS...: the command on the private trixie configuration
trixie_apt() {
	local cmd="$1"
	shift
	"$cmd" "${TRIXIE_APT[@]}" "$@"
}

# trixie_config: the private configuration's files
trixie_config() {
	mkdir -p "$TRIXIE/apt/sources.list.d" "$TRIXIE/apt/preferences.d" "$TRIXIE/apt/lists/partial" \
		"$TRIXIE/apt/cache/archives/partial"
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main\n' \
		>"$TRIXIE/apt/sources.list"
	: >>"$TRIXIE/apt/status"
	: >>"$TRIXIE/apt/preferences"
}

TRIXIE_UPDATED=0
trixie_update() {
	[ "$TRIXIE_UPDATED" = 1 ] && return 0
	TRIXIE_UPDATED=1
	log "apt-get update (trixie, private configuration in $TRIXIE/apt)"
	trixie_apt apt-get update -qq >/dev/null 2>"$TRIXIE/apt/update.err" || {
		cat "$TRIXIE/apt/update.err" >&2
		warn "apt-get update of the trixie index failed"
		return 1
	}
}

# trixie_deb PKG VERSION -> the cached .deb of that version, if there is one
trixie_deb() {
	local f
	for f in "$TRIXIE/debs/${1}_${2//:/%3a}_amd64.deb" "$TRIXIE/debs/${1}_${2//:/%3a}_all.deb"; do
		[ -s "$f" ] && { printf '%s\n' "$f"; return 0; }
	done
	return 1
}

# fetch_trixie PKG -> the .deb of PKG's trixie candidate in $TRIXIE/debs
fetch_trixie() {
	local pkg="$1" ver try
	for try in 1 2; do
		ver="$(trixie_apt apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ { print $2; exit }' | sed 's/(none)//')"
		if [ -n "$ver" ]; then
			trixie_deb "$pkg" "$ver" && return 0
			log "downloading $pkg ($ver, trixie)"
			if (cd "$TRIXIE/debs" && trixie_apt apt-get download -q "$pkg=$ver" >/dev/null 2>"$TRIXIE/debs/.download.err"); then
				trixie_deb "$pkg" "$ver" && return 0
			fi
			cat "$TRIXIE/debs/.download.err" >&2
		fi
		# no candidate, or a version the mirror no longer has: a newer index, once
		if [ "$try" = 2 ] || ! trixie_update; then
			break
		fi
	done
	warn "cannot fetch $pkg from trixie"
	return 1
}

trixie_tools() {
	local pkg deb debs=() stamp
	trixie_config
	mkdir -p "$TRIXIE/debs" "$TRIXIE/bin"
	for pkg in "${TRIXIE_PKGS[@]}"; do
		deb="$(fetch_trixie "$pkg")" || return 1
		debs+=("$deb")
	done
	# one tree holding every package; unpacked again when a version changes
	stamp="$(printf '%s\n' "${debs[@]##*/}" | sort)"
	if [ ! -e "$TRIXIE/root/.stamp" ] || [ "$(cat "$TRIXIE/root/.stamp")" != "$stamp" ]; then
		rm -rf "$TRIXIE/root"
		mkdir -p "$TRIXIE/root"
		for deb in "${debs[@]}"; do dpkg-deb -x "$deb" "$TRIXIE/root"; done
		printf '%s\n' "$stamp" >"$TRIXIE/root/.stamp"
	fi
	ln -sfn ../root/usr/bin/ukify "$TRIXIE/bin/ukify"
	cat >"$TRIXIE/bin/systemd-measure" <<'EOF'
#!/bin/sh
# Debian 13's systemd-measure, run by Debian 13's dynamic loader with its libraries
R="${0%/*}/../root"
exec "$R/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
	--library-path "$R/usr/lib/x86_64-linux-gnu/systemd:$R/usr/lib/x86_64-linux-gnu" \
	"$R/usr/lib/systemd/systemd-measure" "$@"
EOF
	chmod 0755 "$TRIXIE/bin/systemd-measure"
	cp -f "$TRIXIE/root/usr/lib/systemd/boot/efi/linuxx64.efi.stub" "$TRIXIE/linuxx64.efi.stub"
	printf '%s\n' "${debs[@]##*/}" | sed -n 's/^\(systemd-ukify\|systemd-boot-efi\|systemd\)_\([^_]*\)_.*/\1 \2/p' |
		sed 's/%3a/:/' >"$TRIXIE/VERSIONS"
	"$TRIXIE/bin/systemd-measure" --version >/dev/null 2>&1 || {
		warn "the trixie systemd-measure does not run here"
		return 1
	}
	/usr/bin/python3 "$TRIXIE/bin/ukify" --version >/dev/null 2>&1 || {
		warn "the trixie ukify does not run here (python3-pefile installed?)"
		return 1
	}
	printf '  %-40s %s\n' "trixie/bin/ukify" "systemd-ukify=$(sed -n 's/^systemd-ukify //p' "$TRIXIE/VERSIONS")"
	printf '  %-40s %s\n' "trixie/bin/systemd-measure" "systemd=$(sed -n 's/^systemd //p' "$TRIXIE/VERSIONS")"
	printf '  %-40s %s\n' "trixie/linuxx64.efi.stub" "systemd-boot-efi=$(sed -n 's/^systemd-boot-efi //p' "$TRIXIE/VERSIONS")"
}
trixie_tools || FAILED=1

mv -f "$MANIFEST_TMP" "$MANIFEST"
trap - EXIT

# --------------------------------------------------- vendor-signed images
SIGNED="$CACHE/signed"
SIGNED_MANIFEST="$SIGNED/MANIFEST.tsv"
mkdir -p "$SIGNED"
SIGNED_TMP="$(mktemp "$SIGNED/.manifest.XXXXXX")"
trap 'rm -f "$SIGNED_TMP"' EXIT
printf '# name\tsigner\tsource\tsha256\n' >"$SIGNED_TMP"

# add_signed NAME SRC_FILE SIGNER SOURCE
add_signed() {
	local name="$1" src="$2" signer="$3" source="$4" sum
	if [ ! -s "$src" ]; then
		warn "$name: $src missing"
		FAILED=1
		return 0
	fi
	if [ ! -e "$SIGNED/$name" ] || ! cmp -s "$src" "$SIGNED/$name"; then
		cp -f "$src" "$SIGNED/$name.tmp"
		mv -f "$SIGNED/$name.tmp" "$SIGNED/$name"
	fi
	sum="$(sha256sum "$SIGNED/$name" | cut -d' ' -f1)"
	printf '%s\t%s\t%s\t%s\n' "$name" "$signer" "$source" "$sum" >>"$SIGNED_TMP"
	printf '  %-40s %-10s %s\n' "$name" "$signer" "$source"
}

# signed_from PKG PATH NAME SIGNER: fetch PKG (with APT_EXTRA) and add its file PATH as NAME
signed_from() {
	local r d s
	if r="$(fetch_or_fail "$1")"; then
		d="${r%%$'\t'*}" s="${r#*$'\t'}"
		add_signed "$3" "$d/$2" "$4" "$s"
	fi
}

signed_from shim-signed usr/lib/shim/shimx64.efi.signed shimx64.efi.signed-bookworm Microsoft
signed_from grub-efi-amd64-signed usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed grubx64.efi.signed-bookworm Debian

# trixie: through the private configuration of the UKI tools above, its index refreshed once a day
trixie_config
APT_EXTRA=("${TRIXIE_APT[@]}")
if [ -z "$(find "$TRIXIE/apt/lists" -maxdepth 1 -name '*_Packages*' -mtime -1 2>/dev/null)" ]; then
	trixie_update || warn "using the trixie index that is cached"
fi
signed_from shim-signed usr/lib/shim/shimx64.efi.signed shimx64.efi.signed-trixie Microsoft
signed_from grub-efi-amd64-signed usr/lib/grub/x86_64-efi-signed/grubx64.efi.signed grubx64.efi.signed-trixie Debian
signed_from systemd-boot-efi-amd64-signed usr/lib/systemd/boot/efi/systemd-bootx64.efi.signed \
	systemd-bootx64.efi.signed-trixie Debian
signed_from systemd-boot-efi usr/lib/systemd/boot/efi/linuxx64.efi.stub linuxx64.efi.stub-trixie -
APT_EXTRA=()

mv -f "$SIGNED_TMP" "$SIGNED_MANIFEST"
trap - EXIT
n="$(grep -vc '^#' "$MANIFEST" || true)"
log "$n corpus files in $CORPUS (manifest: $MANIFEST)"
if [ "$FAILED" -ne 0 ]; then
	warn "some corpus items could not be fetched"
	exit 1
fi
exit 0
