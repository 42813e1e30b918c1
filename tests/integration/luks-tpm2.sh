#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# luks-tpm2.sh - --luks against a real TPM (swtpm): a LUKS2 image made by
# cryptsetup with systemd-tpm2 tokens whose tpm2-policy-hash the TPM itself
# computes (tpm2-tools' trial sessions: tpm2_policypcr -f over PCR 7, and
# 0+7, with tpm2_policyauthvalue for a PIN), and, where systemd-cryptenroll
# can reach the swtpm, a token it enrolls itself. Each token "will unlock"
# with the TPM's PCR values (read with tpm2_pcrread, shown to sbat-add as
# a pcr-BANK/N tree in SBAT_ADD_TPM); after PCR 7 is extended once more,
# "will not unlock". The TPM's real unseal agrees: tpm2_policypcr in a real
# policy session yields the token's hash before the extension, and not after.
#
# Environment: SBAT_ADD. TAP. Skips (the plan 1..0 # SKIP) without
# cryptsetup, swtpm or tpm2-tools, unless CI=true.
set -u
. "$(dirname "$0")/../lib/tap.sh"

for t in cryptsetup swtpm tpm2_startauthsession tpm2_policypcr tpm2_pcrread tpm2_pcrextend xxd python3; do
	if ! command -v "$t" >/dev/null 2>&1; then
		if [ "${CI:-}" = true ]; then
			not_ok "no $t"
			tap_finish
			exit 1
		fi
		skip_all "no $t (cryptsetup-bin, swtpm, tpm2-tools, xxd)"
	fi
done
T=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-luks-tpm2.XXXXXX") || exit 1
trap 'kill "$(cat "$T/swtpm.pid" 2>/dev/null)" 2>/dev/null; rm -rf -- "$T"' EXIT
port=$((20000 + RANDOM % 20000))
mkdir "$T/state"
swtpm socket --tpmstate dir="$T/state" --tpm2 --server type=tcp,port="$port" --ctrl type=tcp,port=$((port + 1)) \
	--flags not-need-init,startup-clear --pid file="$T/swtpm.pid" --daemon || { not_ok "swtpm starts"; tap_finish; exit 1; }
export TPM2TOOLS_TCTI="swtpm:host=127.0.0.1,port=$port"
for i in 1 2 3 4 5 6 7 8 9 10; do tpm2_pcrread sha256:7 >/dev/null 2>&1 && break; sleep 0.2; done
check "PCR 7 extended as a firmware would" tpm2_pcrextend "7:sha256=$(printf db | sha256sum | cut -c1-64)"
check "PCR 0 extended" tpm2_pcrextend "0:sha256=$(printf fw | sha256sum | cut -c1-64)"

# the TPM's values as Linux shows them
tpm_tree() {
	local n
	rm -rf "$T/tpm"
	mkdir -p "$T/tpm/pcr-sha256"
	for n in 0 7; do
		tpm2_pcrread "sha256:$n" -o "$T/v" >/dev/null && xxd -p -c 64 "$T/v" | tr a-f A-F >"$T/tpm/pcr-sha256/$n"
	done
}
# policy SELECTION PIN [real]: the TPM's digest of PolicyPCR over the PCRs' current values (a trial session, or a
# real policy session, which checks them), then PolicyAuthValue with PIN 1
policy() {
	tpm2_pcrread "$1" -o "$T/values" >/dev/null || return 1
	tpm2_startauthsession ${3:+--policy-session} -S "$T/s.ctx" >/dev/null || return 1
	tpm2_policypcr -S "$T/s.ctx" -l "$1" -f "$T/values" -L "$T/p" >/dev/null &&
		{ [ "$2" = 0 ] || tpm2_policyauthvalue -S "$T/s.ctx" -L "$T/p" >/dev/null; }
	local rc=$?
	tpm2_flushcontext "$T/s.ctx" >/dev/null 2>&1
	[ $rc = 0 ] && xxd -p -c 64 "$T/p"
}
p7=$(policy sha256:7 0)
p7pin=$(policy sha256:7 1)
p07=$(policy sha256:0,7 0)
check "the TPM computed three policies" test ${#p7} = 64 -a ${#p7pin} = 64 -a ${#p07} = 64

printf pass >"$T/key"
chmod 600 "$T/key"
truncate -s 20M "$T/img"
check "cryptsetup luksFormat --type luks2" cryptsetup luksFormat --type luks2 --batch-mode --pbkdf pbkdf2 \
	--pbkdf-force-iterations 1000 --key-file "$T/key" "$T/img"
blob=$(head -c 96 /dev/zero | base64 -w0)
token() {
	echo "{\"type\":\"systemd-tpm2\",\"keyslots\":[\"0\"],\"tpm2-blob\":\"$blob\",\"tpm2-pcr-bank\":\"sha256\",$2}" >"$T/t.json"
	cryptsetup token import --token-id "$1" --json-file "$T/t.json" "$T/img"
}
# systemd-cryptenroll first: it enrolls nothing where a token of its PCR set exists
enrolled=0
if command -v systemd-cryptenroll >/dev/null 2>&1 &&
	systemd-cryptenroll --tpm2-device="swtpm:host=127.0.0.1,port=$port" --tpm2-pcrs=7 --unlock-key-file="$T/key" \
		"$T/img" >"$T/enroll.log" 2>&1; then
	enrolled=1
fi
sed "s/^/# /" "$T/enroll.log"
echo "# systemd-cryptenroll enrolled a token: $enrolled"
check "cryptsetup token import: PCR 7" token 1 "\"tpm2-pcrs\":[7],\"tpm2-policy-hash\":\"$p7\",\"tpm2-pin\":false"
check "cryptsetup token import: PCR 7 and a PIN" token 2 "\"tpm2-pcrs\":[7],\"tpm2-policy-hash\":\"$p7pin\",\"tpm2-pin\":true"
check "cryptsetup token import: PCRs 0 and 7" token 3 "\"tpm2-pcrs\":[0,7],\"tpm2-policy-hash\":\"$p07\",\"tpm2-pin\":false"

tpm_tree
SBAT_ADD_TPM="$T/tpm" "$SBAT_ADD" --luks "$T/img" >"$T/out" 2>&1
rc=$?
cat "$T/out" | sed 's/^/# /'
check "the TPM's values: exit 0" test "$rc" = 0
check "the three imported tokens will unlock" test "$(grep -c ': will unlock today$' "$T/out")" -ge 3
if [ "$enrolled" = 1 ]; then
	check "systemd-cryptenroll's own token will unlock" grep -q "token 0 (sha256 PCR 7): will unlock today$" "$T/out"
fi
real=$(policy sha256:7 0 real)
check "a real policy session over today's PCR 7 reaches the token's hash" test "$real" = "$p7"

tpm2_pcrextend "7:sha256=$(printf dbx-update | sha256sum | cut -c1-64)" >/dev/null
tpm_tree
SBAT_ADD_TPM="$T/tpm" "$SBAT_ADD" --luks "$T/img" >"$T/out" 2>&1
rc=$?
cat "$T/out" | sed 's/^/# /'
check "PCR 7 extended again: exit 11" test "$rc" = 11
check "every token will not unlock" test "$(grep -c ': will not unlock today: ' "$T/out")" = $((3 + enrolled))
real=$(policy sha256:7 0 real)
check "nor does the TPM's real session reach the token's hash" test "$real" != "$p7"
SBAT_ADD_TPM="$T/tpm" "$SBAT_ADD" --luks "$T/img" --json >"$T/json"
check "--json: the policy made from the TPM's values" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
t = [x for x in j["luks"][0]["systemd_tpm2"] if x["token"] == 1]
assert t[0]["policy_hashes"] == [sys.argv[2]] and t[0]["today"]["verdict"] == "will not unlock"
assert t[0]["today"]["policy"] == sys.argv[3]' "$T/json" "$p7" "$real"
tap_finish
