#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Checks a calibrated simulation against real runs on the emulated cluster (cluster.sh; root, Open
# MPI and SimGrid's SMPI): calibrates a platform from 2 hosts (calibrate.sh: one rank on each, then
# two ranks on one), then for each layout H×R runs collbench for real across H hosts of R ranks and
# in simulation on the platform (same collectives and sizes, every library algorithm and the vendor
# row: vendor:ompi41, Open MPI 4.1's own decision per call run with SMPI's algorithms, stands for
# the real vendor row; SMPI's reproduction of Open MPI's selection, vendor:ompi, runs beside it, for
# collsimcheck --vendor-row vendor:ompi), and writes collsimcheck's report: per point simulated ÷
# real, and whether both name the same fastest algorithm.
#
# Usage: scripts/mpirun/simulation-check.sh [--layouts "2x1 2x2 4x1"] [--rate 1gbit] [--burst B]
#                                           [--out DIR]
#                                           [--time-per-size S] [--rounds N] [--transfer T]
#                                           [--reuse DIR] [-- OPTIONS]
#   --layouts "LIST"   H×R layouts (default "2x1 2x2 4x1"); R ranks per host, in rank order
#   --rate RATE        the emulated links' bandwidth, as tc spells it (default 1gbit)
#   --burst B          their token bucket's burst, as tc spells it (default: cluster.sh's)
#   --out DIR          where to write (default results/<date>-simulation-check)
#   --time-per-size S  collbench's bound per size in the real runs (default 0.3; at least 3 calls)
#   --rounds N         real runs of each layout (default 1): each point's real time is their median,
#                      and the report says how far they agree with one another (what a small,
#                      shared machine resolves: hold the simulation to that)
#   --transfer T       the fit's rendezvous transfer: stream (default) or ping-pong (calibrate.sh)
#   --reuse DIR        no cluster: the measurements and real runs of an earlier check in DIR, fitted
#                      and simulated again (e.g. with another --transfer)
#   -- OPTIONS         passed on to collbench, real and simulated (default: -c allreduce,allgather,
#                      broadcast,reduce_scatter,alltoall -b 8 -e 16M --step 8)
# Writes to DIR: calibration-two-nodes.json and calibration-on-node.json (the measurements),
# platform-1.xml and platform-R.xml (1 and R cores per node), real-HxR.json (and real-HxR-K.json for
# the rounds after the first), simulated-HxR.json,
# report.md, and the machine's load before and after the real runs (uptime-*.txt).
# COLLECTIVES_SMOKE=1 measures the smallest size only (8 B, or the -b given after --), real and
# simulated, the real runs for 0.05 s per size, and calibrates from 8 B … 256 KiB by ×8 (calibrate.sh's
# smoke sizes): the tests' smoke run of the documented commands (tests/docs/run.sh). Layouts,
# rounds, collectives, the fit and the report stay as they are.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mpirun_dir=$root/scripts/mpirun
self=simulation-check.sh
die() {
  echo "$self: $*" >&2
  exit 2
}

layouts="2x1 2x2 4x1" rate=1gbit burst=() out='' per_size=0.3 rounds=1 transfer=stream reuse='' extra=()
while (($#)); do
  case $1 in
    --layouts) layouts=${2:?--layouts needs a list}; shift ;;
    --rate) rate=${2:?--rate needs a rate}; shift ;;
    --burst) burst=(--burst "${2:?--burst needs a size}"); shift ;;
    --out) out=${2:?--out needs a directory}; shift ;;
    --time-per-size) per_size=${2:?--time-per-size needs seconds}; shift ;;
    --rounds) rounds=${2:?--rounds needs a count}; shift ;;
    --transfer) transfer=${2:?--transfer needs stream or ping-pong}; shift ;;
    --reuse) reuse=$(cd "${2:?--reuse needs a directory}" && pwd); shift ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
((${#extra[@]})) || extra=(-c "allreduce,allgather,broadcast,reduce_scatter,alltoall" -b 8 -e 16M --step 8)
# COLLECTIVES_SMOKE=1 (see the usage): the largest size becomes the smallest.
measure_sizes=()
if [[ ${COLLECTIVES_SMOKE:-0} != 0 ]]; then
  smallest=8 rest=()
  for ((i = 0; i < ${#extra[@]}; i++)); do
    case ${extra[i]} in
      -b | --min-bytes) smallest=${extra[i + 1]}; rest+=("${extra[i]}" "$smallest"); i=$((i + 1)) ;;
      -e | --max-bytes) i=$((i + 1)) ;;
      *) rest+=("${extra[i]}") ;;
    esac
  done
  extra=("${rest[@]}" --max-bytes "$smallest") per_size=0.05
  measure_sizes=(--min-bytes 8 --max-bytes 256K --step 8 --time-per-size 0.05)
fi
hosts=0 slots=1
for layout in $layouts; do
  [[ $layout =~ ^([1-9][0-9]*)x([1-9][0-9]*)$ ]] || die "--layouts: '$layout' is not H×R (e.g. 2x2)"
  ((BASH_REMATCH[1] > hosts)) && hosts=${BASH_REMATCH[1]}
  ((BASH_REMATCH[2] > slots)) && slots=${BASH_REMATCH[2]}
done
((hosts >= 2)) || die "--layouts: at least 2 hosts"
for layout in $layouts; do
  r=${layout#*x}
  ((r == 1 || r == slots)) || die "layout $layout: R must be 1 or $slots (the cluster's slots)"
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds: '$rounds' is not a positive count"
out=${out:-$root/results/$(date +%F)-simulation-check}
# A layout's real runs in DIR: real-HxR.json, then real-HxR-2.json and on (--rounds).
real_runs() {
  echo "$1/real-$2.json"
  local k
  for ((k = 2; ; ++k)); do
    [[ -f $1/real-$2-$k.json ]] || break
    echo "$1/real-$2-$k.json"
  done
}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The programs: collbench and collcalibrate with Open MPI (build/) and with SMPI (build-smpi/).
for pair in "build openmpi" "build-smpi smpi"; do
  read -r dir mpi <<< "$pair"
  [[ -f $root/$dir/CMakeCache.txt ]] ||
    cmake -S "$root" -B "$root/$dir" -DCOLLECTIVES_BUILD_BENCH=ON -DCOLLECTIVES_MPI="$mpi" > /dev/null
  cmake --build "$root/$dir" --target collbench collcalibrate -j "$(nproc)" > /dev/null
done
cmake --build "$root/build" --target collsimcheck -j "$(nproc)" > /dev/null

if [[ -n $reuse ]]; then
  if [[ $reuse != "$out" ]]; then
    cp "$reuse"/calibration-*.json "$out/"
    for layout in $layouts; do
      mapfile -t files < <(real_runs "$reuse" "$layout")
      cp "${files[@]}" "$out/"
    done
  fi
else
  cluster=(bash "$mpirun_dir/cluster.sh")
  "${cluster[@]}" up "$hosts" --slots "$slots" --rate "$rate" "${burst[@]}"
  trap '"${cluster[@]}" down' EXIT
  uptime | tee "$out/uptime-before.txt" >&2
  # The calibration: one rank on each of two hosts, and two on one host.
  for where in "two-nodes cyclic" "on-node block"; do
    read -r name map <<< "$where"
    echo "$self: calibration, $name" >&2
    "${cluster[@]}" run -n 2 --map "$map" "$root/build/bench/collcalibrate" measure "${measure_sizes[@]}" \
      --output "$out/calibration-$name.json"
  done
  # Real: R ranks per host in rank order (cluster.sh's hostfile has R slots each; one per host: cyclic).
  # Rounds one after another, each over every layout, so that a round's runs are apart in time.
  for ((round = 1; round <= rounds; ++round)); do
    for layout in $layouts; do
      h=${layout%x*} r=${layout#*x}
      map=block
      ((r == 1)) && map=cyclic
      name=real-$layout
      ((round > 1)) && name+=-$round
      echo "$self: $layout for real (round $round of $rounds)" >&2
      "${cluster[@]}" run -n $((h * r)) --map $map "$root/build/bench/collbench" -a library --no-check --quiet \
        --time-per-size "$per_size" --min-iterations 3 --format json --output "$out/$name.json" "${extra[@]}"
    done
  done
  uptime | tee "$out/uptime-after.txt" >&2
fi

# The platforms: 1 and R cores per node, from the same measurements.
for cores in $(printf '%s\n' 1 "$slots" | sort -u); do
  bash "$mpirun_dir/calibrate.sh" --from "$out/calibration-two-nodes.json" \
    --on-node-from "$out/calibration-on-node.json" --topology "fat-tree:$hosts" --cores-per-node "$cores" \
    --transfer "$transfer" -o "$out/platform-$cores.xml"
done

# Simulated: the same on the platform of R cores per node, one simulated call per size.
pairs=()
for layout in $layouts; do
  h=${layout%x*} r=${layout#*x}
  echo "$self: $layout simulated" >&2
  nice -n 19 "$mpirun_dir/simulate" --platform "$out/platform-$r.xml" --benchmark -n $((h * r)) \
    "$root/build-smpi/bench/collbench" -a library,vendor:ompi41,vendor:ompi --no-check --quiet --iterations 1 --warmup 1 \
    --min-iterations 1 --format json --output "$out/simulated-$layout.json" "${extra[@]}"
  mapfile -t files < <(real_runs "$out" "$layout")
  pairs+=("$layout=$(IFS=+ && echo "${files[*]}"),$out/simulated-$layout.json")
done
"$root/build/bench/collsimcheck" --output "$out/report.md" "${pairs[@]}"
echo "$self: $out/report.md" >&2
