#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# compare.sh --simulate asks for SimGrid's algorithms by name, every selection for every collective;
# one SimGrid cannot run at that process count (broadcast's impi selection truncates a receive) is
# left out by collbench with its reason, and the report says so, instead of the run failing at its
# first collective (as the README's `compare.sh --simulate fat-tree-256 --np "64 256"` once did).
# Usage: compare_simulated_left_out_test.sh BUILD_DIR   (an SMPI build with the benchmark)
set -euo pipefail
build=${1:?usage: compare_simulated_left_out_test.sh BUILD_DIR}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare_simulated_left_out.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "compare_simulated_left_out_test: $*" >&2
  exit 1
}

# Two process counts, each collective's two sizes over two launches that collreport joins again.
bash "$root/scripts/mpirun/compare.sh" --simulate fat-tree-256 --np "4 8" --jobs 2 --build-dir "$build" \
  --out "$tmp/out" -- -c broadcast,allreduce -b 8 -e 64 --step 8 2> "$tmp/err" ||
  { cat "$tmp/err" >&2; fail "the run failed"; }
grep -q "broadcast vendor:impi: left out, SimGrid's bcast impi truncates a receive" "$tmp/err" ||
  fail "collbench did not say on stderr that it left broadcast's vendor:impi out, and why"
# Once per process count, with that count's own reason.
grep -- "^- np = " "$tmp/out/report.md" > "$tmp/listed" || fail "the report lists nothing as left out"
for np in 4 8; do
  grep -qF -- "- np = $np, broadcast \`vendor:impi\`: SimGrid's bcast impi truncates a receive" "$tmp/listed" &&
    grep -qF -- "at $np ranks." "$tmp/listed" ||
    fail "the report does not list broadcast's vendor:impi as left out at $np ranks"
done
(($(wc -l < "$tmp/listed") == 2)) || { cat "$tmp/listed" >&2; fail "the report lists other rows as left out"; }
# Measured: the other selections of broadcast, and impi where it can run (allreduce).
for np in 4 8; do
  for want in broadcast,vendor:ompi broadcast,vendor:mpich allreduce,vendor:impi; do
    grep -q "^$want,$np," "$tmp/out/results.csv" || fail "no $want row at $np ranks in results.csv"
  done
done
! grep -q "^broadcast,vendor:impi," "$tmp/out/results.csv" || fail "a broadcast vendor:impi row was measured"
echo "compare_simulated_left_out_test: ok"
