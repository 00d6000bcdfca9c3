#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The tuner: measures every library algorithm of every collective at each process count, a few
# times, and writes the decision table that algorithm::automatic follows (COLLECTIVES_TUNING=FILE
# or collectives::load_tuning(FILE); schema and noise rule in docs/tuning.md).
# collbench times vendor (the MPI library's default collective) in every run too: the table's
# "fastest" section records it per size for the drop-in's COLLECTIVES_ALGORITHMS=*=fastest.
# Three timings: the synchronized runs (every call from a common start: each algorithm's own time)
# make a first table; then, with it in force, as many runs again time every library algorithm and
# vendor as applications see calls: back to back (collbench --timing back-to-back: calls one after
# another, where vendor's rooted collectives gain by running ahead) and as the Intel MPI Benchmarks
# time them (--timing imb: each call timed apart, a barrier between calls, the mean over ranks).
# Those runs go through the drop-in when it is built (installed: beside the library), as
# `fastest` runs: the library's time is then MPI_* served by the drop-in, what the drop-in itself
# costs included, and vendor's is PMPI_* (collbench -a pmpi). colltune then keeps a verdict (an
# algorithm instead of the built-in rule's choice; vendor instead of the library) only where every
# run of every timing agrees by more than the measured noise; elsewhere the built-in rule's choice,
# and for `fastest` the side whose worst timing is better. The barrier always keeps the built-in rule's choice: the calls
# timed as applications see them start from it (docs/tuning.md, "The barrier").
#
# Usage: scripts/mpirun/tune.sh [NP ...] [--quick] [-o FILE] [--runs N] [--build-dir DIR]
#                               [--no-back-to-back] [--no-imb] [--simulate PLATFORM] [-- OPTIONS]
#   NP ...           process counts to measure (default: 2 4); automatic uses the nearest measured
#                    one of the same kind (power of two or not) for the others
#   --quick          8 B … 512 KiB by ×4, 0.05 s per size, 2 runs, batches of 10 calls in the
#                    back-to-back and imb runs (a smoke run: a few minutes)
#                    (default: 8 B … 16 MiB by ×2, 0.5 s per size, 3 runs: compare.sh's sizes)
#   -o FILE          the table (default: results/tuning-<host>.json); the raw collbench runs go
#                    to FILE's name without .json, plus -runs/
#   --runs N         runs per process count and timing (a verdict must hold in every one of them, by
#                    more than the noise: how far a run's ratio moved from its timing's median)
#   --build-dir DIR  the CMake build directory (default build/; configured with the bench if needed)
#   --no-back-to-back  skip the back-to-back runs
#   --no-imb         skip the runs timed as IMB-MPI1 times (with --no-back-to-back too: the
#                    synchronized runs alone decide, in one timing)
#   --simulate PLATFORM  tune for a cluster modelled by SimGrid's SMPI (docs/simulation.md; e.g.
#                    fat-tree-1024 and process counts 16 … 1024): build-smpi/, one run of one
#                    simulated call per size (simulated time is exact), no back-to-back or imb runs
#                    (they serve the drop-in, which SMPI does not run), large buffers shared by the ranks;
#                    above 256 ranks one launch per collective, without the rings and pairwise
#                    exchanges of p² messages (scripts/mpirun/simulated-rows.sh: 90 s of wall time
#                    per call at 1024 ranks), which automatic then never chooses there, and without
#                    scan and exscan (SMPI's own, the vendor row, post p(p − 1)/2 messages at once)
#   -- OPTIONS       passed on to collbench, e.g. -- -c allreduce,broadcast --max-bytes 1M (a size
#                    option given here replaces the default one)
# COLLECTIVES_SMOKE=1 measures the smallest size only (8 B, or the -b given after --), whatever the
# largest, for 0.05 s (--quick's time per size; simulated runs have none): the tests' smoke run of
# the documented commands (tests/docs/run.sh). Process counts, runs, timings and the making of the
# table stay as they are.
# The runs of the process counts alternate (np 2, np 4, np 2, ...), so that a burst of load from
# elsewhere falls on one run of each rather than on every run of one. A COLLECTIVES_TUNING in the
# environment is ignored: the table's rule choices are the built-in rule's.
# Installed by cmake --install as collectives-tune: collbench, colltune and collectives-run are then
# taken from beside it (else from PATH), the table goes to results/ under the current directory
# by default, and --build-dir does not apply (nothing is built).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ -f $here/run && -f $here/../../CMakeLists.txt ]]; then
  root=$(cd "$here/../.." && pwd) installed=0 self=tune.sh command=scripts/mpirun/tune.sh
else
  root=$PWD installed=1 self=$(basename "$0") command=$(basename "$0")
fi
build=$root/build
out=
nps=()
quick=0
runs=
b2b=1
imb=1
platform=
extra=()
while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    -o | --out) out=$2; shift ;;
    --runs) runs=$2; shift ;;
    --build-dir) build=$2; shift
      ((installed)) && { echo "$self: --build-dir: the installed tuner builds nothing" >&2; exit 2; } ;;
    --no-back-to-back) b2b=0 ;;
    --no-imb) imb=0 ;;
    --simulate) platform=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    [1-9]*) [[ $1 =~ ^[1-9][0-9]*$ ]] || { echo "$self: '$1' is not a process count" >&2; exit 2; }
      nps+=("$1") ;;
    *) echo "$self: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
((${#nps[@]})) || nps=(2 4)
# Simulated: the launches go through scripts/mpirun/simulate (run does it with COLLECTIVES_MPI=smpi).
launch=()
if [[ -n $platform ]]; then
  ((installed)) && { echo "$self: --simulate runs from the source tree (scripts/mpirun/tune.sh, beside simulate)" >&2; exit 2; }
  export COLLECTIVES_MPI=smpi COLLECTIVES_SMPI_PLATFORM=$platform
  [[ $build == "$root/build" ]] && build=$root/build-smpi
  runs=${runs:-1} b2b=0 imb=0
  launch=(--benchmark)
  extra=(--iterations 1 --warmup 1 --min-iterations 1 --no-check "${extra[@]}")
fi
if [[ -n $platform ]]; then
  sizes=(--min-bytes 8 --max-bytes 16M --step 2)
  ((quick)) && sizes=(--min-bytes 8 --max-bytes 512K --step 4)
elif ((quick)); then
  sizes=(--min-bytes 8 --max-bytes 512K --step 4 --time-per-size 0.05 --min-iterations 3)
  runs=${runs:-2}
else
  sizes=(--min-bytes 8 --max-bytes 16M --step 2 --time-per-size 0.5 --min-iterations 5)
  runs=${runs:-3}
fi
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "$self: --runs expects a count ≥ 1, given '$runs'" >&2; exit 2; }
out=${out:-$root/results/tuning-$(hostname).json}
raw=${out%.json}-runs
mkdir -p "$(dirname "$out")" "$raw"
unset COLLECTIVES_TUNING

# The programs: built here in the source tree; beside this script (or on PATH) once installed.
tool() {
  if [[ -x $here/$1 ]]; then
    echo "$here/$1"
  else
    command -v "$1" || { echo "$self: no $1 beside $here nor on PATH" >&2; exit 2; }
  fi
}
if ((installed)); then
  run=$(tool collectives-run)
  collbench=$(tool collbench)
  colltune=$(tool colltune)
else
  if [[ ! -f $build/CMakeCache.txt ]] || ! grep -q '^COLLECTIVES_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt"; then
    cmake -S "$root" -B "$build" -DCOLLECTIVES_BUILD_BENCH=ON -DCOLLECTIVES_MPI="${COLLECTIVES_MPI:-openmpi}" > /dev/null
  fi
  targets=(collbench colltune)
  ((b2b || imb)) && [[ -z $platform ]] && targets+=(collectives_mpi)
  cmake --build "$build" --target "${targets[@]}" -j "$(nproc)" > /dev/null
  run=$root/scripts/mpirun/run collbench=$build/bench/collbench colltune=$build/bench/colltune
fi
# Built by SMPI's wrappers, colltune is a shared object that smpirun loads: one simulated rank.
colltune=("$colltune")
[[ -n $platform ]] && colltune=("$run" -n 1 "${colltune[0]}")

# A size option given after -- replaces the default one (collbench takes each once).
kept=()
for ((i = 0; i < ${#sizes[@]}; i += 2)); do
  given=0
  short=
  case ${sizes[i]} in --min-bytes) short=-b ;; --max-bytes) short=-e ;; esac
  for arg in "${extra[@]}"; do
    [[ $arg == "${sizes[i]}" || $arg == "${sizes[i]}="* || (-n $short && $arg == "$short") ]] && given=1
  done
  ((given)) || kept+=("${sizes[i]}" "${sizes[i + 1]}")
done
# COLLECTIVES_SMOKE=1 (see the usage): the largest size, given after -- or not, becomes the smallest,
# and a time per size, given or not, 0.05 s.
typed=("${extra[@]}")
if [[ ${COLLECTIVES_SMOKE:-0} != 0 ]]; then
  smallest=8 sized=() rest=()
  for ((i = 0; i < ${#kept[@]}; i += 2)); do
    [[ ${kept[i]} == --min-bytes ]] && smallest=${kept[i + 1]}
    case ${kept[i]} in
      --max-bytes) ;;
      --time-per-size) sized+=(--time-per-size 0.05) ;;
      *) sized+=("${kept[i]}" "${kept[i + 1]}") ;;
    esac
  done
  for ((i = 0; i < ${#extra[@]}; i++)); do
    case ${extra[i]} in
      -b | --min-bytes) smallest=${extra[i + 1]}; rest+=("${extra[i]}" "$smallest"); i=$((i + 1)) ;;
      --min-bytes=*) smallest=${extra[i]#*=}; rest+=("${extra[i]}") ;;
      -e | --max-bytes) i=$((i + 1)) ;;
      --max-bytes=*) ;;
      --time-per-size) rest+=(--time-per-size 0.05); i=$((i + 1)) ;;
      --time-per-size=*) rest+=(--time-per-size=0.05) ;;
      *) rest+=("${extra[i]}") ;;
    esac
  done
  kept=("${sized[@]}" --max-bytes "$smallest") extra=("${rest[@]}")
fi
options=(--algorithm library --format json --quiet "${kept[@]}" "${extra[@]}")
# Simulated above 256 ranks: one launch per collective (those of a -c given after --, else all),
# each without the rows scripts/mpirun/simulated-rows.sh leaves out.
if [[ -n $platform ]]; then
  source "$here/simulated-rows.sh"
  collectives=() passed=()
  for ((i = 0; i < ${#extra[@]}; i++)); do
    case ${extra[i]} in
      -c | --collective) collectives+=(${extra[i + 1]//,/ }); i=$((i + 1)) ;;
      -c=* | --collective=*) a=${extra[i]#*=}; collectives+=(${a//,/ }) ;;
      *) passed+=("${extra[i]}") ;;
    esac
  done
fi
simulated_launches() { # NP RUN
  local listing c rows left json
  listing=$("$run" -n 1 "$collbench" --list)
  ((${#collectives[@]})) || collectives=($(sed -n 's/^\([a-z_]*\): vendor .*/\1/p' <<< "$listing"))
  for c in "${collectives[@]}"; do
    if [[ " $(left_out_collectives "$1") " == *" $c "* ]]; then
      echo "$self: np = $1, run $2: $c left out (scripts/mpirun/simulated-rows.sh says why)" >&2
      continue
    fi
    left=$(left_out_rows "$c" "$1")
    rows=$(sed -n "s/^$c: //p" <<< "$listing")
    rows=$(without_rows "${rows// /,}" "vendor $left")
    json=$raw/np$1-run$2-$c.json
    echo "$self: np = $1, run $2: $c${left:+ (left out: $left)}" >&2
    "$run" -n "$1" "${launch[@]}" "$collbench" --output "$json" --algorithm "$rows" --collective "$c" \
      --format json --quiet "${kept[@]}" "${passed[@]}"
    jsons+=("$json")
  done
}
start=$SECONDS
jsons=()
for ((i = 1; i <= runs; i++)); do
  for np in "${nps[@]}"; do
    if [[ -n $platform ]] && ((np > 256)); then
      simulated_launches "$np" "$i"
      continue
    fi
    json=$raw/np$np-run$i.json
    echo "$self: np = $np, run $i of $runs" >&2
    "$run" -n "$np" "${launch[@]}" "$collbench" --output "$json" "${options[@]}"
    jsons+=("$json")
  done
done
command="$command ${nps[*]}$( ((quick)) && echo ' --quick')${platform:+ --simulate $platform} --runs $runs$( ((b2b)) || echo ' --no-back-to-back')$( ((imb)) || echo ' --no-imb')${typed[*]:+ -- ${typed[*]}}"
recorded="${options[*]}"
for np in "${nps[@]}"; do
  if [[ -n $platform ]] && ((np > 256)); then
    recorded+="; above 256 ranks one launch per collective, without the rows and collectives scripts/mpirun/simulated-rows.sh leaves out"
    break
  fi
done
"${colltune[@]}" --out "$out" --options "$recorded" --command "$command" "${jsons[@]}"
timings=()
((b2b)) && timings+=(back-to-back)
((imb)) && timings+=(imb)
if ((${#timings[@]})); then
  # The table's algorithms again, in the timings applications see, with the table just written in
  # force: each range's choice and each size's built-in rule's choice, as only those can keep a size
  # (another algorithm must be ahead of the rule's choice in the synchronized runs too, and the
  # first pass kept the one that was furthest ahead). Through the drop-in when there is one, as
  # `fastest` will run: its MPI_* row serves the call with automatic (the table's choice, with what
  # the drop-in costs), its pmpi row is the MPI library's (colltune reads them so); else plainly,
  # those rows and automatic against vendor.
  named=$(grep -oE '"(algorithm|rule)": "[a-z_]+"' "$out" | sed -E 's/.*: "(.*)"/\1/' | sort -u | paste -sd, -)
  dropin=$build/libcollectives_mpi.so
  if ((installed)); then
    prefix=$(cd "$here/.." && pwd)
    for dropin in "$prefix"/lib/libcollectives_mpi.so "$prefix"/lib*/*/libcollectives_mpi.so \
      "$prefix"/lib64/libcollectives_mpi.so; do
      [[ -f $dropin ]] && break
    done
  fi
  if [[ -f $dropin ]]; then
    app_rows=${named:+$named,}pmpi through=(env LD_PRELOAD="$dropin" COLLECTIVES_ALGORITHMS='*=automatic')
    what="the table's algorithms, the drop-in serving automatic, and PMPI_*"
  else
    app_rows=${named:+$named,}automatic through=()
    what="the table's algorithms, automatic and vendor; no drop-in at $dropin"
  fi
  # Quick: batches of 10 calls (the automatic batch makes up to 100, and the least count of batches
  # then outweighs the 0.05 s per size by far on an oversubscribed machine).
  app_options=(--algorithm "$app_rows" --format json --quiet "${kept[@]}")
  ((quick)) && app_options+=(--batch 10)
  app_options+=("${extra[@]}")
  for ((i = 1; i <= runs; i++)); do
    for np in "${nps[@]}"; do
      for timing in "${timings[@]}"; do
        json=$raw/np$np-run$i-$timing.json
        echo "$self: np = $np, run $i of $runs, timed $timing ($what)" >&2
        COLLECTIVES_TUNING=$out "${through[@]}" "$run" -n "$np" "$collbench" --output "$json" \
          --timing "$timing" "${app_options[@]}"
        jsons+=("$json")
      done
    done
  done
  "${colltune[@]}" --out "$out" --options "${options[*]}; ${timings[*]}: --timing <timing> ${app_options[*]}" \
    --command "$command" "${jsons[@]}"
fi
echo "$self: $out ($((SECONDS - start)) s); use it with COLLECTIVES_TUNING=$out" >&2
