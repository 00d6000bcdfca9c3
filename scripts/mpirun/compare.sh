#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The algorithm comparison, in one command: installs what is missing, builds collbench if needed, tunes
# automatic (scripts/mpirun/tune.sh at the same process counts and sizes, unless --tuning FILE gives a
# table), then runs every collective × algorithm (the library's, automatic following that table,
# vendor's default and vendor's internal ones) at np = 2 and 4, and writes results/<date>/:
#   tuning.json     the decision table automatic followed (tuning-runs/: the tuner's raw runs)
#   np<p>.json      collbench's output per process count (with the α-β-γ model); with
#                   --shm-copy both, np<p>-single.json and np<p>-double.json
#   np<p>-back-to-back.json   vendor and automatic timed back to back (collbench --timing
#                   back-to-back: calls one after another, as applications issue them), beside
#                   each np<p>.json; the report's "Back to back" section sets them against it
#   results.csv     every row, collbench's CSV columns
#   results.json    {"runs": [...]}: the np<p>.json files together
#   report.md       per collective: median time per algorithm and size, the best per size,
#                   speedup over vendor, model against measurement, plots; and how close automatic
#                   comes to the library's fastest algorithm, per collective and np
#   plots/*.png     latency and busbw against size, log-log, per collective and np (gnuplot)
# A process count above the machine's cores runs oversubscribed; the report says so.
# COLLECTIVES_MPI=mpich compares against MPICH instead of Open MPI (set up by scripts/bootstrap.sh);
# its idle ranks spin, so oversubscribed runs (np 4 on 2 cores) are slow and noisy.
#
# Usage: scripts/mpirun/compare.sh [--quick] [--np "2 4"] [--shm-copy PATH] [--build-dir DIR] [--out DIR]
#                                  [-- OPTIONS]
#   --quick          a smoke run, about a minute: 8 B … 512 KiB by ×4, 0.05 s per size, tuned
#                    from one run per np (default: 8 B … 16 MiB by ×2, 0.5 s per size, tuned from
#                    three runs per np: about 30 minutes on 2 quiet cores)
#   --tuning FILE    automatic follows this decision table (from tune.sh) instead of a new one;
#                    --tuning none: its built-in rule
#   --np "LIST"      process counts (default "2 4"; at 1, busbw is 0 but for broadcast and reduce,
#                    and those busbw plots are left out)
#   --shm-copy PATH  how messages between ranks are copied: best (default: one copy where the kernel
#                    allows cross-memory attach, else two; what scripts/mpirun/run chooses), single,
#                    double, or both (every np on each path, and a section comparing the two);
#                    Open MPI only
#   --build-dir DIR  the CMake build directory (default build/, or build-mpich/ with
#                    COLLECTIVES_MPI=mpich; configured with the bench if needed)
#   --out DIR        where to write (default results/<date>, or results/<date>-<time> if taken)
#   --cluster HxR    across an emulated cluster of H hosts × R ranks (scripts/mpirun/cluster.sh,
#                    needs root; Open MPI only): np = H·R, placed by block, first on this one host (np<P>.json),
#                    then across the hosts (np<P>-HxR.json), so the report sets the layouts side
#                    by side, with α-β within a host and between hosts and the model priced on
#                    those links; broadcast, reduce, allgather and allreduce (the
#                    collectives with a hierarchical algorithm) unless -c is given; results in
#                    results/<date>-cluster-HxR unless --out is given; not tuned (tune.sh runs
#                    on this host): automatic follows --tuning FILE or its rule
#   --rate RATE      the emulated links' bandwidth, as tc spells it (default 1gbit)
#   -- OPTIONS       passed on to collbench (the tuner's runs too), e.g. -- -t double -c allreduce
#   --simulate PLATFORM   at scale on a cluster modelled by SimGrid's SMPI instead of this machine
#                    (scripts/mpirun/compare-simulated.sh, whose header says what it runs; with
#                    --np, --quick, --catalogue, --out, --build-dir and -- OPTIONS), e.g. --simulate
#                    fat-tree-256; --catalogue: every SMPI algorithm of each collective
# COLLECTIVES_SMOKE=1 measures the smallest size only (8 B, or the -b given after --), for 0.05 s
# (--quick's time per size), in the tuner's runs and the comparison's: the tests' smoke run of the
# documented commands (tests/docs/run.sh). Process counts, runs, collectives, algorithms, timings,
# the table and the report stay as they are.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# collbench's options in the array named $1, the defaults first: a size option given twice keeps its
# last value (collbench takes each option once); with COLLECTIVES_SMOKE=1 the largest size is the
# smallest, measured for 0.05 s.
collbench_options() {
  local -n opts=$1
  local -A value=()
  local out=() names=() i name
  for ((i = 0; i < ${#opts[@]}; i++)); do
    case ${opts[i]} in
      -b | --min-bytes) name=--min-bytes ;;
      -e | --max-bytes) name=--max-bytes ;;
      --step | --time-per-size | --min-iterations) name=${opts[i]} ;;
      --min-bytes=* | --max-bytes=* | --step=* | --time-per-size=* | --min-iterations=*)
        name=${opts[i]%%=*}
        [[ -v value[$name] ]] || names+=("$name")
        value[$name]=${opts[i]#*=}
        continue ;;
      *) out+=("${opts[i]}"); continue ;;
    esac
    [[ -v value[$name] ]] || names+=("$name")
    value[$name]=${opts[i + 1]}
    i=$((i + 1))
  done
  if [[ ${COLLECTIVES_SMOKE:-0} != 0 ]]; then
    [[ -v value[--max-bytes] ]] || names+=(--max-bytes)
    value[--max-bytes]=${value[--min-bytes]:-8}
    if [[ -v value[--time-per-size] ]]; then value[--time-per-size]=0.05; fi
  fi
  for name in "${names[@]}"; do out+=("$name" "${value[$name]}"); done
  opts=("${out[@]}")
}

# At scale, simulated: a comparison of its own (compare-simulated.sh).
for ((i = 1; i <= $#; i++)); do
  [[ ${!i} == -- ]] && break
  if [[ ${!i} == --simulate ]]; then
    next=$((i + 1))
    platform=${!next:?compare.sh: --simulate needs a platform (scripts/mpirun/simulate --list)}
    exec bash "$root/scripts/mpirun/compare-simulated.sh" "$platform" "${@:1:i-1}" "${@:next+1}"
  fi
done
mpi=${COLLECTIVES_MPI:-openmpi}
build=$root/build
[[ $mpi == mpich ]] && build=$root/build-mpich
out=
nps="2 4"
quick=0
shm=best
cluster=
tuning=
rate=1gbit
extra=()
while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    --np) nps=$2; shift ;;
    --shm-copy) shm=$2; shift ;;
    --build-dir) build=$2; shift ;;
    --out) out=$2; shift ;;
    --cluster) cluster=$2; shift ;;
    --tuning) tuning=$2; shift ;;
    --rate) rate=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [[ $mpi == mpich && ( $shm != best || -n $cluster ) ]]; then
  echo "compare.sh: --shm-copy and --cluster choose Open MPI's paths and hosts; not with COLLECTIVES_MPI=mpich" >&2
  exit 2
fi

# The shared-memory paths to measure; "" is scripts/mpirun/run's own choice (the probe).
case $shm in
  best) paths=("${COLLECTIVES_SHM_COPY:-}") ;;
  single | double) paths=("$shm") ;;
  both) paths=(single double) ;;
  *) echo "compare.sh: --shm-copy must be best, single, double or both, not '$shm'" >&2; exit 2 ;;
esac
if [[ $shm == single || $shm == both ]] && [[ $(COLLECTIVES_SHM_COPY= "$root/scripts/mpirun/run" --which) != single ]]; then
  echo "compare.sh: --shm-copy $shm: cross-memory attach is forbidden here, so Open MPI cannot copy once" \
    "(COLLECTIVES_SHM_COPY_VERBOSE=1 scripts/mpirun/run --which says why)" >&2
  exit 2
fi

collectives=()
if [[ -n $cluster ]]; then
  [[ $cluster =~ ^([1-9][0-9]*)x([1-9][0-9]*)$ ]] || { echo "compare.sh: --cluster expects HxR, e.g. 2x2" >&2; exit 2; }
  hosts=${BASH_REMATCH[1]} slots=${BASH_REMATCH[2]}
  nps=$((hosts * slots))
  collectives=(--collective broadcast,reduce,allgather,allreduce)
  for arg in "${extra[@]}"; do
    [[ $arg == -c* || $arg == --collective* ]] && collectives=()
  done
fi

if ((quick)); then
  sizes=(--min-bytes 8 --max-bytes 512K --step 4 --time-per-size 0.05 --min-iterations 3)
else
  sizes=(--min-bytes 8 --max-bytes 16M --step 2 --time-per-size 0.5 --min-iterations 5)
fi
# collbench's options after the sizes: those given after -- (which replace a default size, collbench
# taking each once) and, with COLLECTIVES_SMOKE, the smallest size as the largest.
measured=("${sizes[@]}" "${extra[@]}")
collbench_options measured
# Install whatever is missing (MPI, CMake, fmt, CLI11, nlohmann-json, gnuplot, ...).
bash "$root/scripts/bootstrap.sh"

start=$SECONDS
# Build if needed: configure once with the bench on, then let the build tool decide what is stale.
if [[ ! -f $build/CMakeCache.txt ]] || ! grep -q '^COLLECTIVES_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt"; then
  cmake -S "$root" -B "$build" -DCOLLECTIVES_BUILD_BENCH=ON -DCOLLECTIVES_MPI="$mpi" > /dev/null
fi
configured=$(sed -n 's/^COLLECTIVES_MPI:STRING=//p' "$build/CMakeCache.txt")
if [[ ${configured:-openmpi} != "$mpi" ]]; then
  echo "compare.sh: $build is built with ${configured:-openmpi}, not COLLECTIVES_MPI=$mpi (see --build-dir)" >&2
  exit 2
fi
cmake --build "$build" --target collbench collreport -j "$(nproc)" > /dev/null

latest=
if [[ -z $out ]]; then
  out=$root/results/$(date +%F)${cluster:+-cluster-$cluster}
  [[ -e $out ]] && out=$out-$(date +%H%M%S)
  latest=$root/results/latest
fi
mkdir -p "$out"

# Every algorithm and the vendor's internals, plus automatic, so the report shows how the
# library's own choice fares against the best; unless the caller picks algorithms after --.
algorithms=(--algorithm all,automatic)
for arg in "${extra[@]}"; do
  [[ $arg == -a* || $arg == --algorithm* ]] && algorithms=()
done

if [[ -n $cluster ]]; then
  bash "$root/scripts/mpirun/cluster.sh" up "$hosts" --slots "$slots" --rate "$rate"
  trap 'bash "$root/scripts/mpirun/cluster.sh" down' EXIT
fi

# automatic follows a decision table: the one given, or one measured now at the same process counts
# and sizes (the same shared-memory path too: the first of --shm-copy's).
if [[ $tuning == none ]]; then
  tuning=
elif [[ -n $tuning ]]; then
  [[ -r $tuning ]] || { echo "compare.sh: --tuning $tuning: cannot read it" >&2; exit 2; }
  tuning=$(cd "$(dirname "$tuning")" && pwd)/$(basename "$tuning")
elif [[ -z $cluster ]]; then
  tune=("$root/scripts/mpirun/tune.sh" $nps --build-dir "$build" -o "$out/tuning.json")
  ((quick)) && tune+=(--quick --runs 1)
  COLLECTIVES_SHM_COPY=${paths[0]} "${tune[@]}" -- "${extra[@]}"
  tuning=$out/tuning.json
fi

cores=$(nproc)
jsons=()
# The layouts to run: this one host, and with --cluster the emulated hosts after it.
layouts=(one)
[[ -n $cluster ]] && layouts+=("$cluster")
for np in $nps; do
  for layout in "${layouts[@]}"; do
    note=""
    launch=("$root/scripts/mpirun/run")
    if [[ $layout != one ]]; then
      note=" across $hosts emulated hosts × $slots ranks, links at $rate"
      launch=(bash "$root/scripts/mpirun/cluster.sh" run --map block)
    fi
    ((np > cores)) && note="$note (oversubscribed: $np ranks on $cores cores)"
    ((np > cores)) && [[ $mpi == mpich ]] && note+=" — slow: MPICH's waiting ranks spin"
    for path in "${paths[@]}"; do
      json=$out/np$np.json
      [[ $shm == both ]] && json=$out/np$np-$path.json
      [[ $layout != one ]] && json=${json%.json}-$layout.json
      copies="one copy"
      [[ $mpi == mpich ]] && copies="MPICH's own"
      [[ $mpi != mpich && $(COLLECTIVES_SHM_COPY=$path "$root/scripts/mpirun/run" --which) == double ]] &&
        copies="two copies"
      echo "compare.sh: np = $np$note, shared memory: $copies" >&2
      COLLECTIVES_TUNING=$tuning COLLECTIVES_SHM_COPY=$path "${launch[@]}" -n "$np" "$build/bench/collbench" --model --format json \
        --output "$json" "${algorithms[@]}" "${collectives[@]}" "${measured[@]}"
      jsons+=("$json")
      # Vendor against the library as applications see it: calls back to back (report: "Back to back").
      COLLECTIVES_TUNING=$tuning COLLECTIVES_SHM_COPY=$path "${launch[@]}" -n "$np" "$build/bench/collbench" \
        --timing back-to-back --algorithm automatic --format json --output "${json%.json}-back-to-back.json" \
        "${collectives[@]}" "${measured[@]}"
      jsons+=("${json%.json}-back-to-back.json")
    done
  done
done

"$build/bench/collreport" --out "$out" ${tuning:+--tuning "$tuning"} "${jsons[@]}"
(cd "$out/plots" && gnuplot plots.gp)
[[ -n $latest ]] && ln -sfn "$(basename "$out")" "$latest"
echo "compare.sh: $out/report.md ($((SECONDS - start)) s)" >&2
