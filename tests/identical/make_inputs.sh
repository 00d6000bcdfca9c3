#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Makes the stored inputs of scripts/identical_outputs.sh (tests/identical/inputs/): real collbench
# runs at np 2 and 3 (the three timings), one with --model, one simulated run, and copies of the
# calibration measurements, so that the tools which read runs (colltune, collreport, collsimcheck,
# collcalibrate) are given the same files before and after a change. Run it once, with the
# baseline's binaries; the inputs are data, never remade to make a check pass.
# Usage: tests/identical/make_inputs.sh OPENMPI_BUILD_DIR SMPI_BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: make_inputs.sh OPENMPI_BUILD_DIR SMPI_BUILD_DIR}" && pwd)
smpi=$(cd "${2:?usage: make_inputs.sh OPENMPI_BUILD_DIR SMPI_BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
in=$here/inputs
mkdir -p "$in/runs" "$in/calibrate"
quick=(-b 8 -e 4K --step 512 -n 3 -w 1 --time-per-size 0 -q -f json)
for np in 2 3; do
  for run in 1 2; do
    "$root/scripts/mpirun/run" -n "$np" "$build/bench/collbench" "${quick[@]}" --output "$in/runs/np$np-run$run.json"
  done
  for timing in back-to-back imb; do
    "$root/scripts/mpirun/run" -n "$np" "$build/bench/collbench" "${quick[@]}" --timing "$timing" --batch 2 \
      --output "$in/runs/np$np-run1-$timing.json"
  done
done
"$root/scripts/mpirun/run" -n 2 "$build/bench/collbench" -c allreduce,broadcast,alltoall "${quick[@]}" --model \
  --output "$in/runs/np2-model.json"
"$root/scripts/mpirun/simulate" --benchmark --platform fat-tree-256 -n 2 "$smpi/bench/collbench" \
  -c allreduce,broadcast "${quick[@]}" -a all,vendor:ompi41 --output "$in/runs/simulated-np2.json"
cp "$root/tests/calibrate/tcp-two-nodes.json" "$root/tests/calibrate/tcp-two-nodes-second.json" \
  "$root/tests/calibrate/disturbed-two-nodes.json" "$root/tests/calibrate/known.xml" "$in/calibrate/"
cp "$root/scripts/mpirun/platforms/fat-tree-256.xml" "$root/scripts/mpirun/platforms/multicore-64x16.xml" \
  "$root/scripts/mpirun/platforms/fat-tree-1024.xml" "$in/"
