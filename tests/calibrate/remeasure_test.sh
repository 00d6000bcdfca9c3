#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# collcalibrate measure takes a size again when its ping-pong was clearly slower than a larger one's
# (a busy machine), a bounded number of times: on a platform where that is so every time
# (slow-small.xml), it says so five times for the same size, then writes the measurement, and the fit
# refuses it, naming both sizes.
# Usage: remeasure_test.sh BUILD_DIR   (an SMPI build, -DCOLLECTIVES_MPI=smpi)
set -euo pipefail
build=$(cd "${1:?usage: remeasure_test.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/remeasure_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "remeasure_test: $*" >&2
  exit 1
}

"$root/scripts/mpirun/simulate" --platform "$here/slow-small.xml" -n 2 "$build/bench/collcalibrate" measure \
  -e 16K --time-per-size 0.01 -o "$tmp/measured.json" 2> "$tmp/measure.log" ||
  fail "measure failed: $(tail -3 "$tmp/measure.log")"
again=$(grep -c '^collcalibrate: 0 B again: its ping-pong took [0-9.]* us, 4096 B' "$tmp/measure.log" || true)
((again == 5)) || fail "0 B measured again $again times, not 5: $(grep again "$tmp/measure.log" || true)"
[[ -s $tmp/measured.json ]] || fail "no measurement written"
if "$root/scripts/mpirun/simulate" -n 1 "$build/bench/collcalibrate" fit "$tmp/measured.json" \
  --topology fat-tree:2 -o "$tmp/fitted.xml" 2> "$tmp/fit.log"; then
  fail "the fit took a measurement still disturbed"
fi
grep -q 'a disturbed measurement: the ping-pong takes [0-9.]* µs one way at 0 B but [0-9.]* µs at 4096 B' \
  "$tmp/fit.log" || fail "the fit's refusal does not name the sizes: $(cat "$tmp/fit.log")"
echo "remeasure_test: 0 B measured again 5 times, then refused by the fit"
