#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# collsimcheck with several real runs of a layout (simulation-check.sh --rounds): each point's real
# time is the median of the runs, not their mean; the report says how far the real runs agree with
# one another, every pair, and says nothing of the kind for one run; a real run it cannot read is
# named; a verdict that rests on an exact tie in the simulation is counted as such. One run of
# collbench at 2 ranks is the real run and its own "simulation".
# Usage: simcheck_test.sh COLLBENCH COLLSIMCHECK RUN   (RUN: scripts/mpirun/run)
set -euo pipefail
collbench=${1:?usage: simcheck_test.sh COLLBENCH COLLSIMCHECK RUN}
collsimcheck=${2:?usage: simcheck_test.sh COLLBENCH COLLSIMCHECK RUN}
run=${3:?usage: simcheck_test.sh COLLBENCH COLLSIMCHECK RUN}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/simcheck_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "simcheck_test: $*" >&2
  exit 1
}

"$run" -n 2 "$collbench" -c broadcast,allreduce -b 8 -e 512 --step 8 --time-per-size 0.02 \
  --no-check --quiet --format json --output "$tmp/a.json" > /dev/null
# z: the same run with every time a second (far from a's, so that a mean would show it).
sed -E 's/"median_us": [0-9.eE+-]+/"median_us": 1e6/' "$tmp/a.json" > "$tmp/z.json"
check() { "$collsimcheck" --vendor-row '' "$@"; }
points=6  # broadcast and allreduce at 8, 64 and 512 B

check "2x1=$tmp/a.json+$tmp/a.json+$tmp/z.json,$tmp/a.json" > "$tmp/median.md"
grep -q "median |sim ÷ real − 1| = 0.0%; the fastest agree at $points of $points " "$tmp/median.md" ||
  fail "a, a and z: the real times are not a's (their median): $(sed -n 3p "$tmp/median.md")"
grep -q "fastest agree at [0-9]* of $((3 * points)) (pair, " "$tmp/median.md" ||
  fail "a, a and z: not 3 pairs of $points points: $(sed -n 5p "$tmp/median.md")"

check "2x1=$tmp/a.json+$tmp/a.json,$tmp/z.json" > "$tmp/pair.md"
grep -q "Real runs against one another .*= 0.0%; the fastest agree at $points of $points (pair, .*(100.0%)" \
  "$tmp/pair.md" || fail "a against itself: $(sed -n 5p "$tmp/pair.md")"

check "2x1=$tmp/a.json,$tmp/a.json" > "$tmp/one.md"
! grep -q "Real runs against one another" "$tmp/one.md" || fail "one real run, yet a line on real runs"

# Ties: z simulates every algorithm in the same time, so each collective's first name in
# alphabetical order is taken as its simulated fastest; in s (the real run) exactly that algorithm
# of that collective is slow, so every verdict is wrong, and rests on the tie (another name would
# make it right). A row's keys come sorted: algorithm, then collective, then median_us.
slow_first() { # JSON: each collective's first algorithm by name takes a second
  awk '
    /"algorithm":/ { split($0, q, "\""); alg = q[4] }
    /"collective":/ { split($0, q, "\""); coll = q[4] }
    /"median_us":/ { row[NR] = coll SUBSEP alg; if (!(coll in first) || alg < first[coll]) first[coll] = alg }
    { line[NR] = $0 }
    END {
      for (i = 1; i <= NR; ++i) {
        if (i in row) { split(row[i], k, SUBSEP); if (first[k[1]] == k[2]) sub(/"median_us": [0-9.eE+-]+/, "\"median_us\": 1e6", line[i]) }
        print line[i]
      }
    }' "$1"
}
slow_first "$tmp/a.json" > "$tmp/s.json"
check "2x1=$tmp/s.json,$tmp/z.json" > "$tmp/tie.md"
grep -q "fastest agree at 0 of $points .*; at $points of them the verdict rests on an exact tie" "$tmp/tie.md" ||
  fail "every algorithm tied in simulation, the first name slow for real: $(sed -n 3p "$tmp/tie.md")"
! grep -q "rests on an exact tie" "$tmp/median.md" || fail "a against itself: a tie reported"

status=0
check "2x1=$tmp/a.json+$tmp/missing.json,$tmp/a.json" > /dev/null 2> "$tmp/err" || status=$?
[[ $status == 2 ]] && grep -q "missing.json" "$tmp/err" || fail "an unreadable real run: status $status, $(cat "$tmp/err")"
echo "simcheck_test: the median of the real runs, their agreement with one another, ties, an unreadable one named"
