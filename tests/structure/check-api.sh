#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-api.sh - the rules of the public interface (HACKING.md), for each
# export added after 0.2 (the LIBSBAT_0 node's are ABI and stay as they are):
#   - one header, one prefix: a function declared in include/sbat/NAME.h is
#     sbat_NAME_... (NAME may be split by underscores: bootreport.h,
#     sbat_boot_report_...), or sbat_TYPE_free/_init for a type NAME.h
#     declares; api-prefixes.txt gives the prefix of a header whose 0.2
#     exports fixed another one (input.h: sbat_file_);
#   - every call that can fail returns sbat_err: a function returning
#     anything else but void is an enum's name (*_name, const char *), a
#     count (*_count) or a value listed in api-values.txt, with why it
#     cannot fail;
#   - a type the library hands out is opaque or a record listed in
#     api-records.txt (HACKING.md, "How structures grow").
set -u
root=${1:?usage: check-api.sh SRCROOT}
here=$(dirname "$0")
. "$here/../lib/tap.sh"

# the exports of the release being made: the version nodes after LIBSBAT_0
new=$(awk '/^LIBSBAT_0 *\{/ { old = 1 } /^LIBSBAT_0\.[0-9]+ *\{/ { old = 0; on = 1 } on && !old && /^\t*sbat_[a-z0-9_]*;/ { gsub(/[\t ;]/, ""); print }' \
	"$root/src/libsbat.map" | sed 's#/\*.*##' | sort -u)
[ -n "$new" ] || { not_ok "the map has exports after LIBSBAT_0"; tap_finish; exit 1; }

# "header function return-type" for every SBAT_API declaration
decls=$(for h in "$root"/include/sbat/*.h; do
	b=$(basename "$h" .h)
	tr '\n' ' ' <"$h" | sed 's#/\*[^*]*\*\+\([^/*][^*]*\*\+\)*/##g' | grep -o 'SBAT_API[^;{(]*(' |
		sed -E 's/^SBAT_API +//; s/ *\($//' | while read -r line; do
		fn=${line##*[ *]}
		ret=${line%"$fn"}
		echo "$b $fn ${ret% }"
	done
done)

prefix_of() { # header: its prefix, from api-prefixes.txt or its name
	local p
	p=$(awk -v h="$1" '$1 == h { print $2 }' "$here/api-prefixes.txt")
	echo "${p:-}"
}
types_of() { # header: the sbat_ types it declares
	grep -o '} *sbat_[a-z0-9_]* *;\|typedef [a-z ]*sbat_[a-z0-9_]* *sbat_[a-z0-9_]* *;' "$root/include/sbat/$1.h" |
		grep -o 'sbat_[a-z0-9_]* *;' | tr -d ' ;'
}

bad_prefix=()
bad_return=()
while read -r h fn ret; do
	[ -n "$fn" ] || continue
	printf '%s\n' "$new" | grep -qx "$fn" || continue
	rest=${fn#sbat_}
	p=$(prefix_of "$h")
	squeezed=$(echo "$rest" | awk -v h="$h" '{ n = split($0, w, "_"); s = ""; for (i = 1; i < n; i++) { s = s w[i]; if (s == h) { print "ok"; exit } } }')
	ok=0
	[ "$squeezed" = ok ] && ok=1
	[ -n "$p" ] && case $fn in "$p"*) ok=1 ;; esac
	for t in $(types_of "$h"); do
		case $fn in "${t}_free" | "${t}_init") ok=1 ;; esac
	done
	[ $ok = 1 ] || bad_prefix+=("$fn in $h.h")
	case $ret:$fn in
	sbat_err:* | void:* | "const char *:"*_name | size_t:*_count | unsigned:*_count) ;;
	*) awk -v f="$fn" '$1 == f { found = 1 } END { exit !found }' "$here/api-values.txt" ||
		bad_return+=("$fn returns $ret") ;;
	esac
done <<<"$decls"

if [ ${#bad_prefix[@]} = 0 ]; then
	ok "each function added since 0.2 carries its header's prefix"
else
	not_ok "each function added since 0.2 carries its header's prefix: ${#bad_prefix[@]} do not" "${bad_prefix[@]}"
fi
if [ ${#bad_return[@]} = 0 ]; then
	ok "each function added since 0.2 returns sbat_err or void, or is a value listed in api-values.txt"
else
	not_ok "each function added since 0.2 returns sbat_err or void, or is a value listed in api-values.txt: ${#bad_return[@]} are not" \
		"${bad_return[@]}"
fi
# the types the library hands out (through a ret pointer, or a const
# pointer it returns): opaque, a record listed in api-records.txt, or one
# of 0.2's (ABI, as they are)
handed=$(cat "$root"/include/sbat/*.h | tr '\n' ' ' | grep -o 'SBAT_API [^;]*;' |
	grep -o 'const sbat_[a-z0-9_]* \*sbat_[a-z0-9_]*(\|sbat_[a-z0-9_]* \*\*ret[a-z_]*' | grep -o '^[a-z ]*sbat_[a-z0-9_]*' |
	sed 's/^const //' | sort -u)
old_types="sbat_csv sbat_level sbat_image_info sbat_section_info sbat_io sbat_lint_rule"
unlisted=()
for t in $handed; do
	case " $old_types " in *" $t "*) continue ;; esac
	grep -q "typedef struct $t $t;" "$root"/include/sbat/*.h && continue # opaque
	awk -v t="$t" '$1 == t { found = 1 } END { exit !found }' "$here/api-records.txt" || unlisted+=("$t")
done
if [ ${#unlisted[@]} = 0 ]; then
	ok "each type the library hands out is opaque, or a record listed in api-records.txt"
else
	not_ok "each type the library hands out is opaque, or a record listed in api-records.txt: ${#unlisted[@]} are not" \
		"${unlisted[@]}"
fi

# a listed value that is no longer one is stale
stale=$(awk '!/^#/ && NF { print $1 }' "$here/api-values.txt" | while read -r f; do
	printf '%s\n' "$decls" | awk -v f="$f" '$2 == f && $3 != "sbat_err" && $3 != "void" { found = 1 } END { exit found }' && echo "$f"
done)
check "api-values.txt lists only functions that return a value" test -z "$stale"
[ -z "$stale" ] || printf '#   %s\n' $stale
tap_finish
