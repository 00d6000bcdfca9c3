#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The drop-in's own overhead on an 8-byte MPI_Allreduce at np 2, one launch per selection (the
# selection is read at MPI_Init), rows interleaved within each launch:
#   - served, automatic (the C++ call with automatic too, so both run what the rule or
#     COLLECTIVES_TUNING picks) and naive, each beside the C++ call with the same algorithm and
#     PMPI_Allreduce;
#   - forwarded (COLLECTIVES_ALGORITHMS=allreduce=vendor) beside PMPI_Allreduce;
#   - forwarded by fastest (COLLECTIVES_ALGORITHMS=allreduce=fastest with a decision table that
#     says vendor for it, bench/fastest_vendor_table.sh) beside PMPI_Allreduce: what `*=fastest`
#     costs where the table sends a call to the MPI library.
# Then the figures the drop-in is held to: served ÷ C++ call (target ≤ 1.02) and forwarded ÷
# PMPI_Allreduce (target ≤ 1.05, both ways), each the median of its launch's per-round ratios.
# Usage: bench/dropin_overhead.sh [build-dir] [np] [rounds] [calls]
# bench/dropin_instructions.sh counts the same rows' instructions per call under callgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} np=${2:-2} rounds=${3:-30} calls=${4:-2000}
prog=$build/bench/dropin_overhead
out=$(mktemp) table=$(mktemp)
trap 'rm -f "$out" "$table"' EXIT
bash bench/fastest_vendor_table.sh allreduce "$np" > "$table"
run() { "scripts/mpirun/run" -n "$np" "$prog" "$1" "$rounds" "$calls" | tee -a "$out"; }
run automatic
COLLECTIVES_ALGORITHMS=allreduce=naive run naive
COLLECTIVES_ALGORITHMS=allreduce=vendor run vendor
COLLECTIVES_ALGORITHMS=allreduce=fastest COLLECTIVES_TUNING=$table run fastest
echo
echo "summary (np $np, 8 B):"
grep -E '^(drop-in|ratio drop-in (served|forwarded|forwarded by fastest) / (C\+\+ call|PMPI_Allreduce))' "$out" |
  grep -vE 'ratio drop-in served / PMPI|ratio drop-in forwarded( by fastest)? / C\+\+' |
  sed -e 's/^ratio drop-in served \/ C++ call/  served ÷ C++ call (target ≤ 1.02)/' \
      -e 's/^ratio drop-in forwarded \/ PMPI_Allreduce/  forwarded ÷ PMPI_Allreduce (target ≤ 1.05)/' \
      -e 's/^ratio drop-in forwarded by fastest \/ PMPI_Allreduce/  forwarded by fastest ÷ PMPI_Allreduce (target ≤ 1.05)/'
