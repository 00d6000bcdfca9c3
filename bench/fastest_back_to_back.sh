#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Is the drop-in's COLLECTIVES_ALGORITHMS='*=fastest' as fast as the faster of vendor and the
# library when calls come back to back, as applications issue them? With the decision table TABLE
# (scripts/mpirun/tune.sh), each round launches, per process count, collbench --timing
# back-to-back through the drop-in with '*=fastest', its rows interleaved in one launch: MPI_*
# (the drop-in's fastest), PMPI_* (the MPI library's own) and automatic (the library's choice, in
# C++). It prints per collective, process count and size fastest ÷ the faster of the two, the
# median over the rounds of each round's own ratio. How it compares and what it prints:
# docs/drop-in.md, "The fastest of both"; COLLECTIVES_SMOKE=1: docs/benchmark.md.
# A benchmark, not a test: run it on a quiet machine and read the ratios with the load it reports.
# Usage: bench/fastest_back_to_back.sh TABLE [NP ...] [options] [-- collbench options]   (--help)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
help=$(cat <<'EOF'
Usage: bench/fastest_back_to_back.sh TABLE [NP ...] [--rounds N] [--out DIR] [--build-dir DIR]
                                     [-- collbench options]
  NP ...           process counts (default: 2 4)
  --rounds N       rounds (default 3)
  --out DIR        where the runs and summary.txt go (default results/<date>-fastest-back-to-back)
  --build-dir DIR  the build with collbench and libcollectives_mpi.so (default build/)
  -- OPTIONS       passed on to collbench (default sizes: 8 B … 16 MiB by ×2, 0.2 s per size)
COLLECTIVES_SMOKE=1 measures the smallest size only (8 B, or the -b given after --), for 0.05 s
per size: the tests' smoke run of the documented commands (tests/docs/run.sh); the rounds and
process counts stay.
EOF
)
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '3,/^# Usage:/p' "$0" | sed '$d; s/^# \{0,1\}//'
  echo "$help"
  exit 0
fi
table=${1:?"usage: bench/fastest_back_to_back.sh TABLE [NP ...] [--rounds N] [--out DIR] [--build-dir DIR] [-- OPTIONS]"}
shift
[[ -f $table ]] || { echo "fastest_back_to_back.sh: no decision table '$table' (scripts/mpirun/tune.sh writes one)" >&2; exit 2; }
table=$(cd "$(dirname "$table")" && pwd)/$(basename "$table")
nps=()
rounds=3
out=
build=$root/build
extra=(--min-bytes 8 --max-bytes 16M --step 2 --time-per-size 0.2)
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --out) out=$2; shift ;;
    --build-dir) build=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    [1-9]*) nps+=("$1") ;;
    *) echo "fastest_back_to_back.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
  shift
done
((${#nps[@]})) || nps=(2 4)
# COLLECTIVES_SMOKE=1 (see --help): the largest size becomes the smallest, the time per size 0.05 s.
if [[ ${COLLECTIVES_SMOKE:-0} != 0 ]]; then
  smallest=8 rest=()
  for ((i = 0; i < ${#extra[@]}; i++)); do
    case ${extra[i]} in
      -b | --min-bytes) smallest=${extra[i + 1]}; rest+=("${extra[i]}" "$smallest"); i=$((i + 1)) ;;
      -e | --max-bytes | --time-per-size) i=$((i + 1)) ;;
      *) rest+=("${extra[i]}") ;;
    esac
  done
  extra=("${rest[@]}" --max-bytes "$smallest" --time-per-size 0.05)
fi
out=${out:-$root/results/$(date +%F)-fastest-back-to-back}
mkdir -p "$out"
command -v jq > /dev/null || { echo "fastest_back_to_back.sh: needs jq (apt-get install jq)" >&2; exit 2; }
cmake --build "$build" --target collbench collectives_mpi -j "$(nproc)" > /dev/null

bench=(--timing back-to-back --algorithm automatic,pmpi --format json --quiet "${extra[@]}")
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/summary.txt"
for ((i = 1; i <= rounds; i++)); do
  for np in "${nps[@]}"; do
    echo "fastest_back_to_back.sh: np = $np, round $i of $rounds" >&2
    COLLECTIVES_TUNING=$table COLLECTIVES_ALGORITHMS='*=fastest' LD_PRELOAD=$build/libcollectives_mpi.so \
      "$root/scripts/mpirun/run" -n "$np" "$build/bench/collbench" \
      --output "$out/np$np-round$i.json" "${bench[@]}"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/summary.txt"

# One line per row: collective ranks bytes round row median.
for f in "$out"/np*-round*.json; do
  round=${f##*-round}
  jq -r --arg round "${round%.json}" '.results[] | select(.median_us > 0)
     | "\(.collective) \(.ranks) \(.bytes) \($round) \(.algorithm) \(.median_us)"' "$f"
done | awk '
  function median(list,    n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  {
    point = $1 " " $2 " " $3
    row = $5 == "vendor" ? "fastest" : $5 == "pmpi" ? "mpi" : "library"
    time[point " " $4 " " row] = $6
    rounds[point " " $4] = 1
    if (!((point " " row) in least) || $6 < least[point " " row]) least[point " " row] = $6
    # The noise: how far apart the medians of the MPI library at one point lie over the rounds.
    if (row == "mpi") {
      if (!(point in vmax) || $6 > vmax[point]) vmax[point] = $6
      if (!(point in vmin) || $6 < vmin[point]) vmin[point] = $6
    }
  }
  END {
    for (pr in rounds) {
      split(pr, k, " ")
      point = k[1] " " k[2] " " k[3]
      if (!((pr " fastest") in time) || !((pr " mpi") in time) || !((pr " library") in time)) continue
      better = time[pr " mpi"] < time[pr " library"] ? time[pr " mpi"] : time[pr " library"]
      ratios[point] = ratios[point] " " time[pr " fastest"] / better
    }
    printf "%-16s %3s %8s %10s %9s %9s\n", "collective", "np", "within 5%", "geomean", "worst", "at bytes"
    for (point in ratios) {
      split(point, k, " ")
      r = median(ratios[point])
      g = k[1] " " k[2]
      n[g]++; n[k[1]]++; all++
      if (r <= 1.05) { within[g]++; within[k[1]]++; all_within++ }
      logsum[g] += log(r); logsum[k[1]] += log(r); all_log += log(r)
      if (r > worst[g]) { worst[g] = r; worst_at[g] = k[3] }
      if ((point " fastest") in least && (point " mpi") in least && (point " library") in least) {
        better = least[point " mpi"] < least[point " library"] ? least[point " mpi"] : least[point " library"]
        old = least[point " fastest"] / better
        old_all++; old_log += log(old); if (old <= 1.05) old_within++
      }
    }
    sorted = "sort -k1,1 -k2,2n"
    for (g in worst) {
      split(g, k, " ")
      printf "%-16s %3d %4d of %-3d %9.3f %9.2f %9d\n", k[1], k[2], within[g], n[g], exp(logsum[g] / n[g]),
        worst[g], worst_at[g] | sorted
    }
    close(sorted)
    printf "per collective, both process counts:\n"
    for (c in n) if (!(c in worst) && index(c, " ") == 0)
      printf "  %-16s %4d of %-3d %9.3f\n", c, within[c], n[c], exp(logsum[c] / n[c]) | "sort"
    close("sort")
    for (point in vmin) { spread_log += log(vmax[point] / vmin[point]); spreads++ }
    if (spreads) printf "noise: the slowest of the medians of the MPI library (pmpi) over the rounds ÷ the fastest, geometric mean over the points: %.3f\n", exp(spread_log / spreads)
    printf "all: fastest within 5%% of the faster of the MPI library and the library at %d of %d points (%.0f%%), geometric mean %.3f\n",
      all_within, all, 100 * all_within / all, exp(all_log / all)
    if (old_all) printf "all, from the least median of each row over the rounds (the checks before 2026-11-28): %d of %d points (%.0f%%), geometric mean %.3f\n",
      old_within, old_all, 100 * old_within / old_all, exp(old_log / old_all)
  }' | tee -a "$out/summary.txt"
echo "fastest_back_to_back.sh: $out/summary.txt" >&2
