#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# COLLECTIVES_TRACE=<prefix> under mpirun: each rank writes <prefix>.<rank>.json at MPI_Finalize,
# trace_merge merges them into one valid document (read back by trace_merge itself) holding every
# rank's events: a ring all-reduce at np 4 has 2(p−1) = 6 sends per rank, 24 in all.
# Usage: trace_files.sh <scripts/mpirun/run> <trace_test> <trace_merge>
set -euo pipefail
run=$1 trace_test=$2 trace_merge=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

COLLECTIVES_TRACE="$dir/t" "$run" -n 4 "$trace_test" --run_test=traced_from_the_environment
for r in 0 1 2 3; do
  [[ -s $dir/t.$r.json ]] || { echo "trace_files: $dir/t.$r.json missing" >&2; exit 1; }
done
"$trace_merge" -o "$dir/merged.json" "$dir/t"
"$trace_merge" -o "$dir/again.json" "$dir/merged.json"  # the merged file parses as a trace
sends=$(grep -o '"cat":"send"' "$dir/merged.json" | wc -l)
flows=$(grep -o '"ph":"f"' "$dir/merged.json" | wc -l)
if [[ $sends -ne 24 || $flows -ne 24 ]]; then
  echo "trace_files: expected 24 sends and 24 flow ends in the merged trace, found $sends and $flows" >&2
  exit 1
fi
echo "trace_files: 4 rank files merged, 24 sends, 24 flows"
