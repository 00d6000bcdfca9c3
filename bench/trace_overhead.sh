#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The cost of trace mode's hooks when tracing is off: back-to-back 8-byte allreduce calls
# (recursive_doubling, np 2) in a build with the hooks (the default) and one without them
# (-DCOLLECTIVES_TRACE_HOOKS=OFF), in alternating launches of bench/tools/trace_overhead.cpp; per
# launch the minimum and the median µs per call over its rounds. The ratio of the two builds'
# minima (the least disturbed rounds) is the hooks' cost.
# Usage: bench/trace_overhead.sh <build with hooks> <build without hooks> [launches (6)] [np (2)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
with=$1 without=$2 launches=${3:-6} np=${4:-2}
results=()
for ((i = 1; i <= launches; ++i)); do
  for build in "$with" "$without"; do
    read -r min median < <("$root/scripts/mpirun/run" -n "$np" "$build/bench/trace_overhead" 30 2000)
    name=$([[ $build == "$with" ]] && echo hooks || echo no-hooks)
    echo "launch $i $name: min $min µs per call, median $median"
    results+=("$name $min $median")
  done
done
# Best (least disturbed) and median, per build, over the launches' minima and medians.
summary() {  # <name> <column: 2 = min, 3 = median> <best|median>
  printf '%s\n' "${results[@]}" | awk -v n="$1" -v c="$2" '$1 == n { print $c }' | sort -g |
    awk -v how="$3" '{ v[NR] = $1 } END { print how == "best" ? v[1] : v[int((NR + 1) / 2)] }'
}
hb=$(summary hooks 2 best) nb=$(summary no-hooks 2 best) hm=$(summary hooks 3 median) nm=$(summary no-hooks 3 median)
awk -v hb="$hb" -v nb="$nb" -v hm="$hm" -v nm="$nm" 'BEGIN {
  printf "hooks: best %.3f µs per call, median of medians %.3f; no hooks: best %.3f, median of medians %.3f\n", hb, hm, nb, nm
  printf "ratio hooks / no hooks: %.3f (best), %.3f (median)\n", hb / nb, hm / nm }'
