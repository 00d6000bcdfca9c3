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

bash "$root/scripts/mpirun/compare.sh" --simulate fat-tree-256 --np 8 --jobs 1 --build-dir "$build" \
  --out "$tmp/out" -- -c broadcast,allreduce -b 8 -e 64 --step 8 2> "$tmp/err" ||
  { cat "$tmp/err" >&2; fail "the run failed"; }
grep -q "broadcast vendor:impi: left out, SimGrid's bcast impi truncates a receive" "$tmp/err" ||
  fail "collbench did not say on stderr that it left broadcast's vendor:impi out, and why"
grep -qF -- "- np = 8, broadcast \`vendor:impi\`: SimGrid's bcast impi truncates a receive" "$tmp/out/report.md" ||
  fail "the report does not list broadcast's vendor:impi as left out"
# Measured: the other selections of broadcast, and impi where it can run (allreduce).
for want in broadcast,vendor:ompi broadcast,vendor:mpich allreduce,vendor:impi; do
  grep -q "^$want,8," "$tmp/out/results.csv" || fail "no $want row at 8 ranks in results.csv"
done
! grep -q "^broadcast,vendor:impi," "$tmp/out/results.csv" || fail "a broadcast vendor:impi row was measured"
echo "compare_simulated_left_out_test: ok"
