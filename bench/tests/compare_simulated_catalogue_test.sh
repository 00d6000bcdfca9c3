#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# compare.sh --simulate --catalogue runs every SMPI algorithm of a collective, not only those the
# library also has: those SimGrid cannot run at that process count are left out with their reason,
# the rest measured; the report's section on the selections opens with the target table (the
# library's best, automatic, the best selection, the best SMPI algorithm, the two ratios), which
# `collreport --targets` prints alone from the results directory. Above 256 ranks the catalogue's
# rows of p² messages are left out as the library's are (simulated-rows.sh).
# Usage: compare_simulated_catalogue_test.sh BUILD_DIR   (an SMPI build with the benchmark)
set -euo pipefail
build=${1:?usage: compare_simulated_catalogue_test.sh BUILD_DIR}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare_simulated_catalogue.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "compare_simulated_catalogue_test: $*" >&2
  exit 1
}

bash "$root/scripts/mpirun/compare.sh" --simulate fat-tree-256 --np 4 --catalogue --jobs 2 --build-dir "$build" \
  --out "$tmp/out" -- -c allreduce -b 8 -e 64 --step 8 2> "$tmp/err" ||
  { cat "$tmp/err" >&2; fail "the run failed"; }
csv=$tmp/out/results.csv
# SMPI's algorithms beyond the three the library also has (lr, rdb, rab_rdb), the selections, ours.
for want in vendor:rab1 vendor:rab2 vendor:smp_binomial vendor:redbcast vendor:mvapich2_rs vendor:ompi_ring_segmented \
  vendor:lr vendor:ompi vendor:impi recursive_doubling automatic; do
  for bytes in 8 64; do
    grep -q "^allreduce,$want,4,$bytes," "$csv" || fail "no allreduce $want row at 4 ranks, $bytes B in results.csv"
  done
done
# Left out with its reason: smp_rsag returns wrong results above two ranks; collbench's ompi41 is not run.
grep -qF -- "- np = 4, allreduce \`vendor:smp_rsag\`: SimGrid's allreduce smp_rsag returns wrong results" \
  "$tmp/out/report.md" || fail "the report does not list allreduce's vendor:smp_rsag as left out"
! grep -q -e "^allreduce,vendor:smp_rsag," -e "^allreduce,vendor:ompi41," "$csv" ||
  fail "a row that should be left out was measured"

# The target table, in the report and alone.
header='| collective | np | bytes | library'"'"'s best | µs | automatic µs | best selection | µs | best SMPI algorithm | µs | library ÷ best selection | library ÷ best anchor |'
grep -qxF -- "$header" "$tmp/out/report.md" || fail "the report has no target table"
"$root/scripts/mpirun/simulate" -n 1 "$build/bench/collreport" --targets "$tmp/out" > "$tmp/targets.md" ||
  fail "collreport --targets failed"
head -1 "$tmp/targets.md" | grep -qxF -- "$header" || { cat "$tmp/targets.md" >&2; fail "collreport --targets: no header"; }
(($(grep -c '^| allreduce | 4 | ' "$tmp/targets.md") == 2)) ||
  { cat "$tmp/targets.md" >&2; fail "collreport --targets: not one row per size"; }
# Each row: the library's best is one of its algorithms, the best SMPI algorithm one of the
# catalogue's, the anchor ratio no larger than the selection ratio.
while IFS='|' read -r _ coll np bytes lib lib_us auto_us sel sel_us smpi smpi_us vs_sel vs_anchor _; do
  [[ $coll == *allreduce* ]] || continue
  [[ $lib != *vendor* && $lib != *automatic* && $lib != *–* ]] || fail "library's best is '$lib'"
  [[ $sel == *vendor:* ]] || fail "best selection is '$sel'"
  case $sel in *vendor:ompi* | *vendor:mpich* | *vendor:mvapich2* | *vendor:impi*) ;; *) fail "'$sel' is no selection" ;; esac
  [[ $smpi == *vendor:* ]] || fail "best SMPI algorithm is '$smpi'"
  case $smpi in *vendor:ompi\ * | *vendor:mpich\ * | *vendor:mvapich2\ * | *vendor:impi\ *) fail "'$smpi' is a selection" ;; esac
  awk -v a="$vs_anchor" -v s="$vs_sel" -v l="$lib_us" -v m="$smpi_us" -v t="$sel_us" 'BEGIN {
    best = (m + 0 < t + 0) ? m : t
    exit !(a <= s + 1e-9 && (a - l / best) ^ 2 < 1e-3 && (s - l / t) ^ 2 < 1e-3) }' ||
    fail "the ratios at $bytes B do not follow from the times: $vs_sel, $vs_anchor"
done < "$tmp/targets.md"
# Into a file too, the same table.
"$root/scripts/mpirun/simulate" -n 1 "$build/bench/collreport" --targets --out "$tmp/targets-file.md" "$tmp/out" ||
  fail "collreport --targets --out failed"
cmp -s "$tmp/targets.md" "$tmp/targets-file.md" || fail "collreport --targets --out wrote another table"

# Above 256 ranks the catalogue's rings and exchanges of p² messages are left out, as the library's.
source "$root/scripts/mpirun/simulated-rows.sh"
for pair in allreduce:vendor:ompi_ring_segmented allgather:vendor:ompi_neighborexchange alltoall:vendor:basic_linear; do
  [[ " $(left_out_rows "${pair%%:*}" 512) " == *" ${pair#*:} "* ]] || fail "${pair#*:} is not left out at 512 ranks"
  [[ " $(left_out_rows "${pair%%:*}" 64) " != *" ${pair#*:} "* ]] || fail "${pair#*:} is left out at 64 ranks"
done
echo "compare_simulated_catalogue_test: ok"
