#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Does the drop-in's COLLECTIVES_ALGORITHMS='*=fastest' hold under the Intel MPI Benchmarks? Runs an
# IMB-MPI1 binary (built outside this tree, unmodified) in three modes, one launch each, in an order
# that turns every round: vendor (IMB alone), automatic (through the drop-in, no selection and no
# table: the built-in rule) and fastest (through the drop-in with TABLE). Per collective, process
# count and size it prints F = fastest ÷ the faster of vendor and automatic (medians over the
# rounds of IMB's t_avg), the worst points and the noise. What it measures, prints and can resolve,
# the targets and how to build IMB: docs/drop-in.md, "Checked with the Intel MPI Benchmarks".
# A benchmark, not a test: run it on a quiet machine and read the ratios with the noise it prints.
# Usage: bench/imb_check.sh IMB-MPI1 (TABLE | --tune) [NP ...] [options] [-- IMB options]
#        bench/imb_check.sh --summary DIR [--column C] [--worst N]   (--help: every option)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
help=$(cat <<'EOF'
Usage: bench/imb_check.sh IMB-MPI1 (TABLE | --tune) [NP ...] [--rounds N] [--out DIR] [--build-dir DIR]
                          [--column t_avg|t_max|t_min] [--worst N] [-- IMB options]
       bench/imb_check.sh --summary DIR [--column C] [--worst N]   (the summary of a run made)
  IMB-MPI1         the binary (intel/mpi-benchmarks, `make IMB-MPI1`), linked with the MPI library
                   the drop-in was built for
  TABLE            the decision table `fastest` follows (scripts/mpirun/tune.sh)
  --tune           make it first: scripts/mpirun/tune.sh at the same process counts with its
                   defaults and the same build (--build-dir), into DIR/tuning.json
                   (IMB_CHECK_TUNE_OPTIONS="--quick ..." adds tune.sh options)
  NP ...           process counts (default: 2 4)
  --rounds N       rounds (default 3)
  --out DIR        where IMB's outputs and summary.txt go (default results/<date>-imb-check)
  --build-dir DIR  the build with libcollectives_mpi.so (default build/; built if missing)
  --column C       IMB's column to compare (default t_avg, what collbench --timing imb measures)
  --worst N        the worst points listed (default 12)
  --summary DIR    launch nothing: summarise the IMB outputs already in DIR (another --column)
  -- OPTIONS       passed on to IMB-MPI1, beside the defaults -msglog 3:20 -zero_size off (8 B …
                   1 MiB) where they do not set those, e.g. -- -time 1 -iter 100 for a short run
The collectives: Allreduce Reduce Reduce_scatter_block Allgather Alltoall Bcast Gather Scatter
(IMB_CHECK_BENCHMARKS="..." for others; IMB's names). The bytes are IMB's: one rank's block for
Allgather, Alltoall, Gather, Scatter and Reduce_scatter_block (its recvcount), the vector for
Allreduce, Reduce and Bcast.
EOF
)
usage="usage: bench/imb_check.sh IMB-MPI1 TABLE [NP ...] [--rounds N] [--out DIR] [--build-dir DIR] [--column C] [--worst N] [-- IMB options], or --summary DIR"
summary_only=0
if [[ ${1:-} == --summary ]]; then
  summary_only=1
elif [[ ${1:-} != -h && ${1:-} != --help ]]; then
  (($# >= 2)) || { echo "$usage" >&2; exit 2; }
  imb=$1 table=$2
  shift 2
  [[ -x $imb ]] || { echo "imb_check.sh: '$imb' is not an executable (an IMB-MPI1 build)" >&2; exit 2; }
  imb=$(cd "$(dirname "$imb")" && pwd)/$(basename "$imb")
  if [[ $table != --tune ]]; then
    [[ -f $table ]] || { echo "imb_check.sh: no decision table '$table' (scripts/mpirun/tune.sh writes one)" >&2; exit 2; }
    table=$(cd "$(dirname "$table")" && pwd)/$(basename "$table")
  fi
fi
nps=()
rounds=3
out=
build=$root/build
column=t_avg
worst=12
imb_options=()
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift ;;
    --out) out=$2; shift ;;
    --summary) out=$2; shift ;;
    --build-dir) build=$2; shift ;;
    --column) column=$2; shift ;;
    --worst) worst=$2; shift ;;
    --) shift; imb_options=("$@"); break ;;
    -h | --help) sed -n '3,/^# Usage:/p' "$0" | sed '$d; s/^# \{0,1\}//'; echo "$help"; exit 0 ;;
    [1-9]*) [[ $1 =~ ^[1-9][0-9]*$ ]] || { echo "imb_check.sh: '$1' is not a process count" >&2; exit 2; }
      nps+=("$1") ;;
    *) echo "imb_check.sh: unknown option '$1' ($usage)" >&2; exit 2 ;;
  esac
  shift
done
((${#nps[@]})) || nps=(2 4)
# IMB refuses an option given twice: a default stays only where the options after -- do not set it.
for default in "-msglog 3:20" "-zero_size off"; do
  [[ " ${imb_options[*]} " == *" ${default%% *} "* ]] || imb_options=(${default} "${imb_options[@]}")
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "imb_check.sh: --rounds expects a count ≥ 1, given '$rounds'" >&2; exit 2; }
[[ $worst =~ ^[0-9]+$ ]] || { echo "imb_check.sh: --worst expects a count, given '$worst'" >&2; exit 2; }
case $column in
  t_min) field=3 ;;
  t_max) field=4 ;;
  t_avg) field=5 ;;
  *) echo "imb_check.sh: --column is t_avg, t_max or t_min, given '$column'" >&2; exit 2 ;;
esac
read -r -a benchmarks <<< "${IMB_CHECK_BENCHMARKS:-Allreduce Reduce Reduce_scatter_block Allgather Alltoall Bcast Gather Scatter}"
out=${out:-$root/results/$(date +%F)-imb-check}

# One launch: mode, np, round.
launch() {
  local mode=$1 np=$2 i=$3 file=$out/np$2-round$3-$1.txt
  local env_=()
  case $mode in
    automatic) env_=(LD_PRELOAD="$dropin") ;;
    fastest) env_=(LD_PRELOAD="$dropin" COLLECTIVES_ALGORITHMS='*=fastest' COLLECTIVES_TUNING="$table") ;;
  esac
  echo "imb_check.sh: np = $np, round $i of $rounds, $mode" >&2
  env "${env_[@]}" "$run" -n "$np" "$imb" -npmin "$np" "${imb_options[@]}" "${benchmarks[@]}" > "$file"
  grep -q '^# All processes entering MPI_Finalize' "$file" || { echo "imb_check.sh: $file: IMB did not finish" >&2; exit 1; }
}

# Every mode at every np in every round, the modes' order turning by one each round.
measure() {
  local modes=(vendor automatic fastest) i np m start=$SECONDS
  {
    echo "imb_check.sh: $imb; table $table; np ${nps[*]}; $rounds rounds; IMB options: ${imb_options[*]}; column $column"
    echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  } | tee "$summary"
  for ((i = 1; i <= rounds; i++)); do
    for np in "${nps[@]}"; do
      for ((m = 0; m < 3; m++)); do
        launch "${modes[(m + i - 1) % 3]}" "$np" "$i"
      done
    done
  done
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) ($((SECONDS - start)) s)" | tee -a "$summary"
}

if ((summary_only)); then
  compgen -G "$out/np*-round*-*.txt" > /dev/null || { echo "imb_check.sh: --summary $out: no IMB outputs there" >&2; exit 2; }
  summary=$out/summary-$column.txt
  echo "imb_check.sh: the IMB outputs in $out; column $column" | tee "$summary"
else
  mkdir -p "$out"
  summary=$out/summary.txt
  dropin=$build/libcollectives_mpi.so
  [[ -f $dropin ]] || cmake --build "$build" --target collectives_mpi -j "$(nproc)" > /dev/null
  run=$root/scripts/mpirun/run
  unset COLLECTIVES_ALGORITHMS COLLECTIVES_TUNING COLLECTIVES_MPI_REPORT
  # The drop-in must really sit under this IMB: its help mode answers before IMB starts.
  # (Read whole before grep looks, so that grep -q leaves no writer to die of SIGPIPE.)
  dropin_help=$(LD_PRELOAD=$dropin COLLECTIVES_ALGORITHMS=help "$run" -n 1 "$imb" 2> /dev/null) || true
  if ! grep -q '^COLLECTIVES_ALGORITHMS' <<<"$dropin_help"; then
    echo "imb_check.sh: the drop-in $dropin does not answer under $imb (another MPI library?)" >&2
    exit 2
  fi
  if [[ $table == --tune ]]; then
    table=$(cd "$out" && pwd)/tuning.json
    read -r -a tune_options <<< "${IMB_CHECK_TUNE_OPTIONS:-}"
    "$root/scripts/mpirun/tune.sh" "${nps[@]}" --build-dir "$build" -o "$table" "${tune_options[@]}"
  fi
  measure
fi

# One line per measurement: benchmark np bytes round mode time.
for f in "$out"/np*-round*-*.txt; do
  base=$(basename "$f" .txt)
  mode=${base##*-}
  round=${base#*-round}
  round=${round%%-*}
  awk -v mode="$mode" -v round="$round" -v field="$field" '
    /^# Benchmarking / { bench = $3 }
    /^# #processes = / { np = $4 }
    /^# / || NF < 5 { next }
    # A size IMB gave up on prints "time-out." instead of its times: left out.
    $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $field ~ /^[0-9.]+$/ && bench != "" { print bench, np, $1, round, mode, $field }
  ' "$f"
done | awk -v worst="$worst" -v column="$column" '
  function median(list,    n, v, i, j, t) {
    n = split(list, v, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
  }
  function min2(a, b) { return a + 0 < b + 0 ? a : b }
  {
    point = $1 " " $2 " " $3
    times[point " " $5] = times[point " " $5] " " $6
    at[point " " $4 " " $5] = $6
    rounds[point " " $4] = 1
    points[point] = 1
  }
  END {
    printf "%-22s %3s %12s %9s %9s %9s\n", "collective", "np", "F <= 1.05", "geomean", "worst", "at bytes"
    for (point in points) {
      if (!((point " vendor") in times) || !((point " automatic") in times) || !((point " fastest") in times)) continue
      v = median(times[point " vendor"]); a = median(times[point " automatic"]); f = median(times[point " fastest"])
      if (v <= 0 || a <= 0 || f <= 0) continue
      F = f / min2(v, a)
      split(point, k, " ")
      g = k[1] " " k[2]
      n[g]++; all++
      if (F <= 1.05) { within[g]++; all_within++ }
      logsum[g] += log(F); all_log += log(F)
      if (!(g in worst_F) || F > worst_F[g]) { worst_F[g] = F; worst_at[g] = k[3] }
      if (f / a > 1.05) slower++; else if (f / a < 1 / 1.05) faster++
      if (f / a > 1.10) { over++; over_line[point] = sprintf("  %-22s %3d %8d  automatic %9.2f  fastest %9.2f  ratio %.3f", k[1], k[2], k[3], a, f, f / a) }
      listed[point] = F
      line[point] = sprintf("  %-22s %3d %8d  vendor %9.2f  automatic %9.2f  fastest %9.2f  F %.3f", k[1], k[2], k[3], v, a, f, F)
      # The noise: how far vendor moved over the rounds.
      nv = split(times[point " vendor"], vs, " ")
      lo = vs[1]; hi = vs[1]
      for (i = 2; i <= nv; i++) { if (vs[i] + 0 < lo + 0) lo = vs[i]; if (vs[i] + 0 > hi + 0) hi = vs[i] }
      if (lo > 0) { noise_log += log(hi / lo); noises++ }
    }
    for (pr in rounds) {
      split(pr, k, " ")
      point = k[1] " " k[2] " " k[3]
      if (!((pr " vendor") in at) || !((pr " automatic") in at) || !((pr " fastest") in at)) continue
      if (at[pr " vendor"] <= 0 || at[pr " automatic"] <= 0 || at[pr " fastest"] <= 0) continue
      per_round[point] = per_round[point] " " at[pr " fastest"] / min2(at[pr " vendor"], at[pr " automatic"])
    }
    sorted = "sort -k1,1 -k2,2n"
    for (g in n) {
      split(g, k, " ")
      printf "%-22s %3d %5d of %-4d %9.3f %9.3f %9d\n", k[1], k[2], within[g], n[g], exp(logsum[g] / n[g]), worst_F[g], worst_at[g] | sorted
    }
    close(sorted)
    if (!all) { print "no point measured in all three modes"; exit 1 }
    for (point in per_round) { r = median(per_round[point]); rall++; rlog += log(r); if (r <= 1.05) rwithin++ }
    printf "all (%s): F <= 1.05 at %d of %d points (%.0f%%), geometric mean %.3f", column, all_within, all, 100 * all_within / all, exp(all_log / all)
    if (rall) printf "; from each round'"'"'s own launches, median over the rounds: %d of %d (%.0f%%), %.3f", rwithin, rall, 100 * rwithin / rall, exp(rlog / rall)
    printf "\n"
    listed_over = (over && worst > 0) ? sprintf(", the worst %d:", (over < worst) ? over : worst) : ""
    printf "fastest more than 10%% slower than automatic (the built-in rule): %d points%s\n", over + 0, listed_over
    if (over && worst > 0) {
      for (point in over_line) print over_line[point] | "sort -k9 -gr | head -n " worst
      close("sort -k9 -gr | head -n " worst)
    }
    printf "fastest ÷ automatic: beyond 5%% at %d of %d points (%d slower, %d faster)\n", slower + faster, all, slower + 0, faster + 0
    if (noises) printf "noise: vendor'"'"'s slowest median over the rounds ÷ its fastest, geometric mean over the points: %.3f\n", exp(noise_log / noises)
    if (worst > 0) {
      printf "worst points (medians over the rounds, %s in µs):\n", column
      for (point in line) print line[point] | "sort -k11 -gr | head -n " worst
      close("sort -k11 -gr | head -n " worst)
    }
  }' | tee -a "$summary"
echo "imb_check.sh: $summary" >&2
