#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Calibrates a SimGrid platform from two nodes of a cluster: collcalibrate measures the
# point-to-point costs between one rank on each (ping-pong, MPI_Send's, MPI_Recv's and MPI_Isend's
# own times, streams; 0 B … 16 MiB; the eager limit to the byte), optionally between two ranks of
# one node, then fits SMPI's parameters (smpi/os, or, ois, the eager limit, latency and bandwidth
# factors per size range) and writes a platform of N such nodes, the measurement and the fit in its
# comment. tune.sh --simulate PLATFORM then makes the cluster's decision table (docs/simulation.md).
#
# Usage: scripts/mpirun/calibrate.sh --launch "COMMAND" --topology T [--cores-per-node K]
#                                    [--on-node "COMMAND"] [-o FILE] [--quick] [--transfer T] [--build-dir DIR]
#                                    [--from FILE [--on-node-from FILE]] [-- MEASURE OPTIONS]
#   --launch "COMMAND"     how to start 2 ranks on two nodes, one each: the command before `-n 2
#                          program`, e.g. "mpiexec --hostfile hosts --map-by node" (two nodes in it),
#                          "scripts/mpirun/cluster.sh run --map cyclic" (the emulated cluster)
#   --on-node "COMMAND"    the same for 2 ranks on one node (the loopback link of --cores-per-node),
#                          e.g. "mpiexec --host node01:2"
#   --topology T           fat-tree:N (one switch), fat-tree:KxM (M leaves of K nodes, K spines),
#                          torus:AxBxC, dragonfly:G,GL;C,CL;R,RL;N (SimGrid's parameters)
#   --cores-per-node K     ranks per node (default 1)
#   -o FILE                the platform (default results/calibrated-<topology>.xml); the
#                          measurements go beside it, FILE without .xml plus -two-nodes.json and
#                          -on-node.json
#   --quick                8 B … 16 MiB by ×8, 0.05 s per size (default: 0 B … 16 MiB by ×2, 0.2 s)
#   --transfer stream|ping-pong  what a rendezvous transfer costs in the fit: the stream's time per
#                          message (default: a busy link, as a collective keeps it; then also an
#                          eager size's where its stream is slower than its ping-pong, from which
#                          on a message moves once its receive is posted, the other eager sizes'
#                          from one message of an exchange (the two-way stream), and MPI_Recv's
#                          overhead at most the stream's: a busy receiver) or the ping-pong's
#   --from FILE            fit an earlier measurement instead of measuring (--on-node-from for the
#                          one-node one)
#   --build-dir DIR        the CMake build directory (default build/); with COLLECTIVES_MPI=smpi,
#                          build-smpi/ and every launch through scripts/mpirun/simulate
#   -- OPTIONS             passed on to collcalibrate measure (e.g. -e 4M --time-per-size 0.5)
# COLLECTIVES_SMOKE=1 measures a few sizes only, which the fit still takes: 8 B … 256 KiB by ×8 (up
# to where a link's cost per byte stands clear of the noise of a short measurement), 0.05 s per size (size options after -- are dropped): the tests' smoke run of the documented commands
# (tests/docs/run.sh). The measurements, the fit and the platform stay as they are.
# Installed by cmake --install as collectives-calibrate: collcalibrate is then taken from beside it
# (else from PATH), and --build-dir does not apply.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [[ -f $here/run && -f $here/../../CMakeLists.txt ]]; then
  root=$(cd "$here/../.." && pwd) installed=0 self=calibrate.sh
else
  root=$PWD installed=1 self=$(basename "$0")
fi
die() {
  echo "$self: $*" >&2
  exit 2
}

launch='' on_node='' topology='' cores=1 out='' quick=0 from='' on_node_from='' build='' transfer=stream extra=()
while (($#)); do
  case $1 in
    --launch) launch=${2:?--launch needs a command}; shift ;;
    --on-node) on_node=${2:?--on-node needs a command}; shift ;;
    --topology) topology=${2:?--topology needs a shape}; shift ;;
    --cores-per-node) cores=${2:?--cores-per-node needs a number}; shift ;;
    -o | --out) out=${2:?-o needs a file}; shift ;;
    --quick) quick=1 ;;
    --transfer) transfer=${2:?--transfer needs stream or ping-pong}; shift ;;
    --from) from=${2:?--from needs a file}; shift ;;
    --on-node-from) on_node_from=${2:?--on-node-from needs a file}; shift ;;
    --build-dir) build=${2:?--build-dir needs a directory}; shift
      ((installed)) && die "--build-dir: the installed calibrator builds nothing" ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  shift
done
[[ -n $topology ]] || die "--topology is required (fat-tree:N, fat-tree:KxM, torus:AxBxC or dragonfly:…)"
[[ -n $launch || -n $from ]] || die "--launch \"COMMAND\" is required: how to start 2 ranks on two nodes (or --from FILE)"
[[ -z $from || -f $from ]] || die "--from: no file '$from'"
[[ -z $on_node_from || -f $on_node_from ]] || die "--on-node-from: no file '$on_node_from'"
out=${out:-$root/results/calibrated-${topology//[:;,]/-}.xml}
[[ $out == *.xml ]] || die "-o: the platform's name must end in .xml, not '$out'"
mkdir -p "$(dirname "$out")"

# collcalibrate: built here in the source tree; beside this script (or on PATH) once installed.
simulated=0
if ((installed)); then
  if [[ -x $here/collcalibrate ]]; then
    calibrator=$here/collcalibrate
  else
    calibrator=$(command -v collcalibrate) || die "no collcalibrate beside $here nor on PATH"
  fi
else
  if [[ ${COLLECTIVES_MPI:-openmpi} == smpi ]]; then
    build=${build:-$root/build-smpi} simulated=1
  fi
  build=${build:-$root/build}
  # Any build with the tests or the bench has the target.
  [[ -f $build/CMakeCache.txt ]] ||
    cmake -S "$root" -B "$build" -DCOLLECTIVES_BUILD_BENCH=ON -DCOLLECTIVES_MPI="${COLLECTIVES_MPI:-openmpi}" > /dev/null
  cmake --build "$build" --target collcalibrate -j "$(nproc)" > /dev/null
  calibrator=$build/bench/collcalibrate
fi
# Built by SMPI's wrappers, collcalibrate is a shared object that the simulator loads: the fit runs
# as one simulated rank.
fitter=("$calibrator")
((simulated)) && fitter=("$here/simulate" -n 1 "$calibrator")

sizes=()
((quick)) && sizes=(--min-bytes 8 --step 8 --time-per-size 0.05)
if [[ ${COLLECTIVES_SMOKE:-0} != 0 ]]; then
  sizes=(--min-bytes 8 --max-bytes 256K --step 8 --time-per-size 0.05) kept=()
  for ((i = 0; i < ${#extra[@]}; i++)); do
    case ${extra[i]} in
      -b | --min-bytes | -e | --max-bytes | --step | --time-per-size) i=$((i + 1)) ;;
      --min-bytes=* | --max-bytes=* | --step=* | --time-per-size=*) ;;
      *) kept+=("${extra[i]}") ;;
    esac
  done
  extra=("${kept[@]}")
fi
measure() { # LAUNCH FILE
  echo "$self: measuring with: $1 -n 2 …" >&2
  # shellcheck disable=SC2086 # the launch command is words
  $1 -n 2 "$calibrator" measure "${sizes[@]}" "${extra[@]}" --output "$2"
}
base=${out%.xml}
if [[ -z $from ]]; then
  from=$base-two-nodes.json
  measure "$launch" "$from"
fi
if [[ -z $on_node_from && -n $on_node ]]; then
  on_node_from=$base-on-node.json
  measure "$on_node" "$on_node_from"
fi
"${fitter[@]}" fit "$from" ${on_node_from:+--on-node "$on_node_from"} --topology "$topology" \
  --cores-per-node "$cores" --rendezvous-transfer "$transfer" --output "$out"
echo "$self: $out; simulate with scripts/mpirun/simulate --platform $out, tune with scripts/mpirun/tune.sh … --simulate $out" >&2
