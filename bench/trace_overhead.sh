#!/usr/bin/env bash
# The cost of trace mode's hooks when tracing is off: an 8-byte allreduce (float sum) at np 2,
# measured by collbench in a build with the hooks (the default) and in one without them
# (-DCOLLECTIVES_TRACE_HOOKS=OFF), in alternating launches. Each launch also measures vendor's
# MPI_Allreduce, which neither build changes: the library's time divided by vendor's in the same
# launch cancels most of the machine's load, and the ratio of those ratios is the hooks' cost.
# Usage: bench/trace_overhead.sh <build with hooks> <build without hooks> [rounds (5)] [np (2)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
with=$1 without=$2 rounds=${3:-5} np=${4:-2}
algs=recursive_doubling,ring
declare -A sum
for ((i = 1; i <= rounds; ++i)); do
  for build in "$with" "$without"; do
    csv=$("$root/scripts/mpirun/run" -n "$np" "$build/bench/collbench" -c allreduce -a "$algs" -b 8 -e 8 \
      --time-per-size 4 -n 20000 -q -f csv)
    vendor=$(awk -F, '$2 == "vendor" { print $7 }' <<<"$csv")
    for alg in ${algs//,/ }; do
      us=$(awk -F, -v a="$alg" '$2 == a { print $7 }' <<<"$csv")
      ratio=$(awk -v a="$us" -v v="$vendor" 'BEGIN { printf "%.4f", a / v }')
      echo "round $i $([[ $build == "$with" ]] && echo hooks || echo no-hooks) $alg: ${us} µs, vendor ${vendor} µs, ×vendor $ratio"
      sum[$build,$alg]=$(awk -v s="${sum[$build,$alg]:-0}" -v r="$ratio" 'BEGIN { print s + r }')
    done
  done
done
for alg in ${algs//,/ }; do
  awk -v a="${sum[$with,$alg]}" -v b="${sum[$without,$alg]}" -v n="$rounds" -v alg="$alg" 'BEGIN {
    printf "%s: ×vendor with hooks %.3f, without %.3f: hooks off cost ×%.3f\n", alg, a / n, b / n, a / b }'
done
