#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# collcalibrate refuses to fit a disturbed measurement and says where: disturbed-two-nodes.json (a
# real one, from the emulated cluster) has a larger message that crossed faster than a smaller one
# by the same protocol. Checked by meaning, not by the printed text: the fit fails and writes no
# platform; its message names the file and two sizes of the measurement, the larger with the
# shorter time, both under the eager limit (one protocol), each time the measurement's own
# ping-pong at that size. Which disturbed pair it names is the fit's to choose.
# Usage: disturbed_test.sh COLLCALIBRATE RUN   (RUN: scripts/mpirun/run, to start it as 1 rank)
set -euo pipefail
collcalibrate=${1:?usage: disturbed_test.sh COLLCALIBRATE RUN}
run=${2:?usage: disturbed_test.sh COLLCALIBRATE RUN}
measurement=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/disturbed-two-nodes.json
tmp=$(mktemp -d "${TMPDIR:-/tmp}/disturbed_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "disturbed_test: $*" >&2
  cat "$tmp/out" >&2
  exit 1
}

if "$run" -n 1 "$collcalibrate" fit "$measurement" --topology fat-tree:2 --output "$tmp/platform.xml" \
  > "$tmp/out" 2>&1; then
  fail "the fit of a disturbed measurement succeeded"
fi
[[ ! -e $tmp/platform.xml ]] || fail "a platform was written from a disturbed measurement"
line=$(grep -F "$measurement: a disturbed measurement" "$tmp/out") || fail "no message naming the file"
# "… takes T1 µs one way at S1 B but T2 µs at S2 B …"
read -r t1 s1 t2 s2 < <(sed -E 's/.* takes ([0-9.]+) µs one way at ([0-9]+) B but ([0-9.]+) µs at ([0-9]+) B.*/\1 \2 \3 \4/' \
  <<< "$line") || fail "the message does not give two sizes and their times"
[[ $s1 =~ ^[0-9]+$ && $s2 =~ ^[0-9]+$ ]] || fail "the message does not give two sizes and their times"
# The measurement's ping-pong (one way, seconds) and eager limit, from its JSON.
pingpong() {
  awk -v want="$1" '/"bytes":/ { gsub(/[ ",]/, ""); split($0, kv, ":"); b = kv[2] }
    /"ping_pong":/ { gsub(/[ ",]/, ""); split($0, kv, ":"); if (b == want) printf "%.2f\n", kv[2] * 1e6 }' \
    "$measurement"
}
eager=$(sed -n 's/.*"eager_limit": *\([0-9]*\).*/\1/p' "$measurement")
[[ $(pingpong "$s1") == "$t1" ]] || fail "$t1 µs at $s1 B is not the measurement's ping-pong there ($(pingpong "$s1"))"
[[ $(pingpong "$s2") == "$t2" ]] || fail "$t2 µs at $s2 B is not the measurement's ping-pong there ($(pingpong "$s2"))"
awk -v s1="$s1" -v s2="$s2" -v t1="$t1" -v t2="$t2" 'BEGIN { exit !(s2 > s1 && t2 < t1) }' ||
  fail "the named pair is not disturbed: $s1 B in $t1 µs, $s2 B in $t2 µs"
((s1 < eager && s2 < eager)) || fail "the named sizes $s1 and $s2 B are not both under the eager limit $eager"
echo "disturbed_test: ok ($s2 B in $t2 µs, faster than $s1 B in $t1 µs)"
