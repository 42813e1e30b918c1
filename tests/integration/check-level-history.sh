#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Copyright 2026 The sbat-add authors
# check-level-history.sh - holds data/sbat-level-history.txt to the
# payloads of a real shim (Debian shim 16.1 from the integration corpus):
# each payload is a published level of the file, row for row, and every
# row it raises has a "raise" line no later than the payload's datestamp.
#
# Environment: SBAT_ADD, HISTORY (the data file), SHIM (default: the
# corpus' shimx64.efi). TAP. Skips (the plan 1..0 # SKIP) when SHIM is
# missing, unless CI=true. Needs python3 for the JSON report.
set -u
SHIM=${SHIM:-${SBAT_CORPUS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sbat-add-corpus}/corpus/shimx64.efi}
. "$(dirname "$0")/../lib/tap.sh"

if [ ! -s "$SHIM" ] || ! command -v python3 >/dev/null; then
	why="no $SHIM (run fetch-corpus.sh) or no python3"
	if [ "${CI:-}" = true ]; then
		not_ok "$why"
		tap_finish
		exit 1
	fi
	skip_all "$why"
fi
fix=$(mktemp -d "${TMPDIR:-/tmp}/sbat-add-history.XXXXXX") || exit 1
trap 'rm -rf -- "$fix"' EXIT
printf 'sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n' >"$fix/one.csv"

for payload in automatic latest; do
	"$SBAT_ADD" --check-level "$payload:$SHIM" --json --csv "$fix/one.csv" >"$fix/$payload.json"
	check "$payload payload of $(basename "$SHIM") is a published level and each raised row is dated no later" \
		python3 - "$fix/$payload.json" "$HISTORY" <<'PY'
import json, sys
policy = json.load(open(sys.argv[1]))["policy"]
stamp = policy["datestamp"]
rows = ["%s,%d" % (e["component_name"], e["generation"]) for e in policy["entries"][1:]]
levels, raises = [], {}
for line in open(sys.argv[2]):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    f = line.split("|")
    if f[0] == "level":
        levels.append((f[1], f[2].split()))
    elif f[0] == "raise":
        raises[(f[1], int(f[2]))] = f[3]
assert (stamp, rows) in levels, "level %s %s is not in the history" % (stamp, rows)
for r in rows:
    name, gen = r.rsplit(",", 1)
    if int(gen) <= 1:
        continue
    d = raises.get((name, int(gen)))
    assert d is not None, "no raise line for %s" % r
    assert d <= stamp, "%s raised at %s, after %s" % (r, d, stamp)
print("# %s: %s" % (stamp, " ".join(rows)))
PY
done
tap_finish
