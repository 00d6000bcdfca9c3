#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The decision table end to end: tune.sh measures (quick, three collectives up to 128 KiB, np 2 and
# 4, two runs each) and writes a table; the table is well-formed (colltune loads it back before it exits; checked again here),
# and tuning_test, with COLLECTIVES_TUNING pointing at it, finds that automatic follows it at every
# measured size, by automatic_choice and, for allreduce, by the messages of real calls; and that
# vendor's time was recorded at every size, with a "fastest" verdict that fastest_choice follows and
# that keeps the verdict rule (the library only where every run of every timing put it ahead), from
# the three timings (tune.sh's second pass, back to back and as IMB times, through the drop-in when
# it is built: MPI_* served with automatic under the first table against PMPI_*); each range says why.
# Usage: tune_roundtrip_test.sh <build-dir> <scratch-dir> <tuning_test executable>
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$1 out=$2/tune_roundtrip test_exe=$3
rm -rf "$out"
mkdir -p "$out"

fail() { echo "tune_roundtrip_test: $*" >&2; exit 1; }
"$root/scripts/mpirun/tune.sh" 2 4 --quick --runs 2 --build-dir "$build" -o "$out/table.json" \
  -- -c allreduce,allgather,barrier --max-bytes 128K
[[ -s $out/table.json ]] || fail "no table written"
for f in np2-run1 np4-run1 np2-run2 np4-run2 np2-run1-back-to-back np4-run1-back-to-back np2-run2-back-to-back \
  np4-run2-back-to-back np2-run1-imb np4-run1-imb np2-run2-imb np4-run2-imb; do
  [[ -s $out/table-runs/$f.json ]] || fail "raw run $f.json missing"
done
for key in '"format": "collectives-tuning/1"' '"host"' '"mpi_library"' '"date"' '"collbench_options"' \
  '"noise_rule"' '"allreduce"' '"allgather"' '"barrier"' '"margin"' '"median_us"' '"runner_up"' \
  '"fastest_rule"' '"fastest"' '"vendor_us"' '"vendor_spread"' '"library_us"' '"fastest_timing": "back-to-back' \
  '"timing": "imb"' '"ratios"' '"noise"' '"why"' '"rule"' '"against_rule"' '"back_to_back_runs"' '"imb_runs"'; do
  grep -q "$key" "$out/table.json" || fail "the table has no $key"
done
for np in 2 4; do
  COLLECTIVES_TUNING=$out/table.json "$root/scripts/mpirun/run" -n "$np" "$test_exe" \
    --run_test=follows_the_table_of_the_environment,fastest_follows_the_table_of_the_environment ||
    fail "automatic or fastest_choice does not follow the table at np $np"
done
grep -q '"timing_mode": "back-to-back"' "$out/table-runs/np2-run1-back-to-back.json" ||
  fail "the back-to-back raw run was not timed back to back"
grep -q '"timing_mode": "imb"' "$out/table-runs/np2-run1-imb.json" || fail "the imb raw run was not timed as IMB times"
echo "tune_roundtrip_test: ok ($out/table.json)"
