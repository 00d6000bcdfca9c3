#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The comparison at scale, on a cluster modelled by SimGrid's SMPI (compare.sh --simulate PLATFORM
# calls this): installs SMPI (libsimgrid-dev), builds collbench with SMPI's compilers in
# build-smpi/, runs it once per process count on the platform (scripts/mpirun/simulate), and
# writes the usual report in results/<date>-<platform>/ (np<p>-<collective>.<launch>.json, results.csv, results.json,
# report.md, plots/). Every row of a run is one simulated call after one warm-up call: simulated
# time is exact and repeatable, so the wall time goes to sizes and process counts instead.
# The rows: every library algorithm and automatic (its built-in rule: no decision table at these
# process counts), vendor (the launch's choice: simulate --benchmark's), SMPI's reproductions of the
# selection logic of Open MPI, MPICH, MVAPICH2 and Intel MPI (vendor:ompi, vendor:mpich,
# vendor:mvapich2, vendor:impi), and SMPI's own implementations of the algorithms the library
# also has (vendor:lr is its ring allreduce, vendor:rab_rdb its Rabenseifner, …); with --catalogue,
# every single algorithm SimGrid has for the collective instead (its whole smpi/<collective> list,
# as collbench --list names them: a stricter anchor than any selection), less the ones
# bench/vendors/smpi_colls.cpp lists as failing at that process count and those simulated-rows.sh
# leaves out there; collbench's own vendor:ompi41 (Open MPI 4.1's decision over SMPI's algorithms)
# is not run. The report's section "Against the MPI libraries' selections" sets the library's best
# beside the best selection, the best of SMPI's other algorithms run (its catalogue) and the
# transport model, whose α and β collbench --model measures on the platform; `collreport --targets`
# prints its target table alone.
# Launched with simulate --benchmark: buffers of 64 KiB and more are shared by all simulated ranks
# (values do not matter here: --no-check; the smpi test label checks results; 1024 ranks' private
# 16 MiB buffers would not fit in memory), and the plain vendor row is SMPI's binomial broadcast,
# recursive-doubling all-reduce, … (simulate says why); the selections are the vendor:<name> rows.
#
# A simulation runs on one core: each collective's sizes are dealt over --jobs launches (sizes 1,
# 3, 5, … to one, 2, 4, 6, … to the other), which collreport joins again; --jobs launches run at
# once, across collectives and process counts (a launch starts when one ends).
# Some rows are left out where SMPI cannot simulate them in a useful time: above 256 ranks those
# whose schedule has p − 1 steps of p messages (rings, pairwise reduce_scatter), from 256 ranks
# all-to-all's vendor:ompi and vendor:basic_linear (its linear all-to-all: p² flows at once),
# SMPI's of either shape in its catalogue too; scripts/mpirun/simulated-rows.sh
# has the list and the figures, and each launch says on stderr what it leaves out.
#
# Usage: scripts/mpirun/compare.sh --simulate PLATFORM [--np "64 256"] [--quick] [--catalogue]
#                                  [--jobs N] [--out DIR] [--build-dir DIR] [-- OPTIONS]
#   PLATFORM        a name from scripts/mpirun/simulate --list, or a platform file
#   --np "LIST"     simulated process counts (default "64 256")
#   --quick         8 B … 64 KiB by ×8 (default: 8 B … 16 MiB by ×4, or -b/-e/--step given below)
#   --catalogue     every SMPI algorithm of each collective, not only those the library also has:
#                   several times the rows (allreduce: 16 of SMPI's instead of 3), so several times the wall
#                   time; an option for that reason
#   --jobs N        simulations at once (default: the cores, nproc)
#   --out DIR       where to write (default results/<date>-<platform>, -<time> if taken)
#   --build-dir DIR the SMPI build directory (default build-smpi/)
#   -- OPTIONS      passed on to collbench, e.g. -- -c allreduce (default: broadcast, reduce,
#                   allgather, reduce_scatter, alltoall, allreduce); -b/--min-bytes,
#                   -e/--max-bytes and --step replace the sizes
# COLLECTIVES_SMOKE=1 measures one size per process count, the smallest that gives every rank of
# every collective an element (the tests' smoke run of the documented commands); everything else,
# process counts and rows included, stays.
#
# A row SMPI's algorithm cannot run at a process count (collbench's list of SimGrid's algorithms that
# crash, hang or fail there: bench/vendors/smpi_colls.cpp) is left out by collbench itself
# (--skip-left-out), which says so with the reason on stderr and in its JSON; the report lists it.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
platform=${1:?compare-simulated.sh: the platform comes first}
shift
nps="64 256"
quick=0
catalogue=0
jobs=$(nproc)
out=
build=$root/build-smpi
extra=()
while (($#)); do
  case $1 in
    --np) nps=$2; shift ;;
    --quick) quick=1 ;;
    --catalogue) catalogue=1 ;;
    --jobs) jobs=$2; shift ;;
    --out) out=$2; shift ;;
    --build-dir) build=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    *) echo "compare.sh --simulate: unknown option '$1' (see compare.sh --help)" >&2; exit 2 ;;
  esac
  shift
done

COLLECTIVES_MPI=smpi bash "$root/scripts/bootstrap.sh"
# The platform must exist before anything is built: simulate knows the names.
"$root/scripts/mpirun/simulate" --list | grep -x "$platform" > /dev/null || [[ -f $platform ]] || {
  echo "compare.sh --simulate: no platform '$platform'; one of: $("$root/scripts/mpirun/simulate" --list | tr '\n' ' ')" >&2
  exit 2
}

start=$SECONDS
if [[ ! -f $build/CMakeCache.txt ]]; then
  cmake -S "$root" -B "$build" -DCOLLECTIVES_MPI=smpi -DCOLLECTIVES_BUILD_BENCH=ON -DCOLLECTIVES_BUILD_TESTS=OFF > /dev/null
fi
configured=$(sed -n 's/^COLLECTIVES_MPI:STRING=//p' "$build/CMakeCache.txt")
if [[ $configured != smpi ]]; then
  echo "compare.sh --simulate: $build is built with ${configured:-openmpi}, not SMPI (see --build-dir)" >&2
  exit 2
fi
# The test run (scripts/test.sh) configures build-smpi/ without the benchmark: turn it on.
grep -q '^COLLECTIVES_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt" ||
  cmake -S "$root" -B "$build" -DCOLLECTIVES_BUILD_BENCH=ON > /dev/null
cmake --build "$build" --target collbench collreport -j "$(nproc)" > /dev/null

if [[ -z $out ]]; then
  out=$root/results/$(date +%F)-$(basename "$platform" .xml)
  [[ -e $out ]] && out=$out-$(date +%H%M%S)
fi
mkdir -p "$out"

if ((quick)); then
  min_bytes=8 max_bytes=64K step=8
else
  min_bytes=8 max_bytes=16M step=4
fi
# The collectives: the six of the comparison, or those given after -- (-c/--collective LIST).
colls=broadcast,reduce,allgather,reduce_scatter,alltoall,allreduce
for ((i = 0; i < ${#extra[@]}; i++)); do
  case ${extra[i]} in
    -c | --collective) colls=${extra[i + 1]:-} ;;
    -c=* | --collective=*) colls=${extra[i]#*=} ;;
  esac
done
# SMPI's selections, and its implementations of the library's algorithms per collective (by the
# library's names: broadcast binomial, van de Geijn's scatter + allgather, pipeline; reduce
# binomial, Rabenseifner; allgather ring, recursive doubling, Bruck; reduce_scatter ring,
# recursive halving, pairwise; alltoall pairwise, Bruck — not its linear one, whose p² messages
# in flight at once take the network model minutes per call at these process counts; allreduce
# ring (lr), recursive doubling, Rabenseifner (rab_rdb)).
declare -A smpi_algorithms=(
  [broadcast]=binomial_tree,scatter_LR_allgather,ompi_pipeline
  [reduce]=binomial,rab
  [allgather]=ring,rdb,bruck
  [reduce_scatter]=ompi_ring,ompi_basic_recursivehalving,mpich_pair
  [alltoall]=pair,bruck
  [allreduce]=lr,rdb,rab_rdb
)
selections=vendor:ompi,vendor:mpich,vendor:mvapich2,vendor:impi
# --catalogue: every SMPI algorithm of each collective, from collbench --list on two ranks (those it
# can run there, and those it leaves out there, named in its "(left out: …)" lines; --skip-left-out
# then leaves out those that fail at each launch's process count), less the selections and
# collbench's own ompi41.
catalogue_of() {
  "$root/scripts/mpirun/simulate" -n 2 "$build/bench/collbench" --list |
    sed -n -e "s/^$1: //p" -e "s/^(left out: $1 \(vendor:[^:]*\):.*/\1/p" | tr ' ' '\n' |
    grep '^vendor:' | grep -vx -e vendor:ompi -e vendor:mpich -e vendor:mvapich2 -e vendor:impi -e vendor:ompi41 |
    sed 's/^vendor://' | paste -sd,
}
if ((catalogue)); then
  for c in ${colls//,/ }; do smpi_algorithms[$c]=$(catalogue_of "$c"); done
fi
user_algorithms=0
for arg in "${extra[@]}"; do
  [[ $arg == -a* || $arg == --algorithm* ]] && user_algorithms=1
done
# One launch per collective, each with its own rows: SMPI's names repeat across collectives (ring,
# rdb and bruck are also all-to-all algorithms, whose recursive doubling alone took over 12 GiB at
# 64 ranks × 8 MiB), so a name asked for one collective must not run for another. The -c given
# after -- chose the collectives; the rest of those options goes to every launch.
passed=()
for ((i = 0; i < ${#extra[@]}; i++)); do
  case ${extra[i]} in
    -c | --collective) i=$((i + 1)) ;;
    -c=* | --collective=*) ;;
    -b | --min-bytes) min_bytes=${extra[i + 1]}; i=$((i + 1)) ;;
    -e | --max-bytes) max_bytes=${extra[i + 1]}; i=$((i + 1)) ;;
    --step) step=${extra[i + 1]}; i=$((i + 1)) ;;
    --min-bytes=* | --max-bytes=* | --step=*)
      echo "compare.sh --simulate: write ${extra[i]%%=*} VALUE, not ${extra[i]}" >&2; exit 2 ;;
    *) passed+=("${extra[i]}") ;;
  esac
done
# Bytes with collbench's binary suffixes (K, M, G).
bytes_of() {
  local n=${1%[KkMmGg]}
  case $1 in
    *[Kk]) echo $((n << 10)) ;;
    *[Mm]) echo $((n << 20)) ;;
    *[Gg]) echo $((n << 30)) ;;
    *) echo "$n" ;;
  esac
}
min_bytes=$(bytes_of "$min_bytes") max_bytes=$(bytes_of "$max_bytes")
# COLLECTIVES_SMOKE: one size per process count, the smallest that gives every rank of every
# collective an element (8 B a rank, a power of two).
smoke_bytes() {
  local b=8
  while ((b < min_bytes || b < 8 * $1)); do b=$((b * 2)); done
  echo $b
}
source "$root/scripts/mpirun/simulated-rows.sh"

jsons=() pids=()
# A launch that fails stops the comparison, and the launches still running with it.
trap 'kill $(jobs -rp) 2> /dev/null || true' EXIT
for np in $nps; do
  low=$min_bytes high=$max_bytes
  [[ ${COLLECTIVES_SMOKE:-0} != 0 ]] && low=$(smoke_bytes "$np") high=$low
  for c in ${colls//,/ }; do
    left_out=$(left_out_rows "$c" "$np")
    ours=library
    theirs=$selections
    for a in ${smpi_algorithms[$c]:+${smpi_algorithms[$c]//,/ }}; do theirs+=,vendor:$a; done
    if [[ -n $left_out ]]; then
      ours=$("$root/scripts/mpirun/simulate" -n 1 "$build/bench/collbench" --list | sed -n "s/^$c: //p")
      ours=${ours// /,}
      # Only what this launch would have run is named as left out.
      not_asked=$(without_rows "${left_out// /,}" "${ours//,/ } ${theirs//,/ }")
      left_out=$(without_rows "${left_out// /,}" "${not_asked//,/ }")
      left_out=${left_out//,/ }
      ours=$(without_rows "$ours" "vendor $left_out")
    fi
    theirs=$(without_rows "$theirs" "$left_out")
    algorithms=(--algorithm "$ours,automatic,$theirs")
    ((user_algorithms)) && algorithms=()
    echo "compare.sh --simulate: np = $np on $platform: $c${left_out:+ (left out: $left_out)}" >&2
    # Launch j of the jobs takes the sizes min·step^j, min·step^(j + jobs), …
    for ((j = 0, first = low; j < jobs && first <= high; j++, first *= step)); do
      json=$out/np$np-$c.$j.json
      while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
      COLLECTIVES_TUNING= "$root/scripts/mpirun/simulate" --platform "$platform" -n "$np" --benchmark \
        "$build/bench/collbench" --model --no-check --iterations 1 --warmup 1 --min-iterations 1 --quiet \
        --skip-left-out \
        --format json --output "$json" --min-bytes "$first" --max-bytes "$high" --step $((step ** jobs)) \
        "${algorithms[@]}" --collective "$c" "${passed[@]}" &
      pids+=($!)
      jsons+=("$json")
    done
  done
done
for pid in "${pids[@]}"; do wait "$pid"; done
trap - EXIT

# collreport, built by SMPI's wrappers, is a shared object that smpirun loads: one simulated rank.
"$root/scripts/mpirun/simulate" -n 1 "$build/bench/collreport" --out "$out" "${jsons[@]}"
(cd "$out/plots" && gnuplot plots.gp)
echo "compare.sh --simulate: $out/report.md ($((SECONDS - start)) s)" >&2
