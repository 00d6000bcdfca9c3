#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The drop-in's own cost in instructions, which the machine's load does not change: the rows of
# bench/dropin_overhead.sh (drop-in served by automatic, drop-in forwarded by
# COLLECTIVES_ALGORITHMS=allreduce=vendor and by allreduce=fastest with a table that says vendor,
# the C++ call, PMPI_Allreduce; an 8-byte MPI_SUM
# all-reduce) run under valgrind --tool=callgrind, one callgrind dump per row's loop; printed per
# row and rank: instructions per call (the dump's total ÷ calls), and the same without what ran
# inside Open MPI's progress loop (opal_progress, inclusive). At np 1 every figure is exact and
# repeatable; at np > 1 a rank that waits for its peer spins in the progress loop, a count that
# depends on the machine's load, so the second column is the one to compare there.
# Usage: bench/dropin_instructions.sh [build-dir] [np] [calls]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} np=${2:-1} calls=${3:-2000}
prog=$build/bench/dropin_overhead
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
count() {  # <tag> <algorithm>: one launch, its dumps in $work/<tag>.<pid>.<n>
  "scripts/mpirun/run" -n "$np" valgrind --tool=callgrind --instr-atstart=no \
    --callgrind-out-file="$work/$1.%p" "$prog" "$2" 1 "$calls" > /dev/null 2> "$work/$1.log" ||
    { cat "$work/$1.log" >&2; exit 1; }
}
count served automatic
COLLECTIVES_ALGORITHMS=allreduce=vendor count forwarded vendor
bash bench/fastest_vendor_table.sh allreduce "$np" > "$work/table.json"
COLLECTIVES_ALGORITHMS=allreduce=fastest COLLECTIVES_TUNING=$work/table.json count fastest fastest
echo "instructions per call, np $np, $calls calls per row (valgrind --tool=callgrind):"
printf '%-74s %-7s %9s %9s\n' row pid all "-progress"
for f in "$work"/*.*.*; do
  label=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
  [[ -n $label ]] || continue
  # Inclusive costs: the dump's total and opal_progress's (the same Ir column, commas stripped).
  read -r total progress < <(callgrind_annotate --inclusive=yes "$f" 2> /dev/null | awk '
    /PROGRAM TOTALS/ { gsub(",", "", $1); t = $1 }
    /:opal_progress / { gsub(",", "", $1); p = $1 }
    END { print t + 0, p + 0 }')
  pid=${f##*/}
  pid=${pid#*.}
  printf '%-74s %-7s %9.1f %9.1f\n' "$label" "${pid%%.*}" "$(echo "$total / $calls" | bc -l)" \
    "$(echo "($total - $progress) / $calls" | bc -l)"
done | sort
