#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The fit recovers known parameters: SMPI measures two nodes of a platform whose parameters are known
# (known.xml), calibrate.sh fits a platform to the measurement, and collcalibrate compare finds the
# eager limit exact (and no size beyond it detached: SMPI's rendezvous waits for its receive) and
# every parameter (os, or, ois, latency and bandwidth with their factors) within 5% of the known one
# at every size measured (0 B … 16 MiB by ×2, and around the eager limit).
# Usage: fit_test.sh BUILD_DIR   (an SMPI build, -DCOLLECTIVES_MPI=smpi)
set -euo pipefail
build=$(cd "${1:?usage: fit_test.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fit_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

COLLECTIVES_MPI=smpi bash "$root/scripts/mpirun/calibrate.sh" --build-dir "$build" \
  --launch "$root/scripts/mpirun/simulate --platform $here/known.xml" --topology fat-tree:2 \
  -o "$tmp/fitted.xml" -- --time-per-size 0.01
# SMPI's own rendezvous starts at its receive (the receiver, coming late, waits for the data): no
# size beyond the eager limit is detached.
prop() { "$root/scripts/mpirun/simulate" -n 1 "$build/bench/collcalibrate" price "$tmp/fitted.xml" --prop "$1"; }
[[ $(prop smpi/send-is-detached-thresh) == 32768 && $(prop collectives/eager-limit) == 32768 ]] || {
  echo "fit_test: detached below $(prop smpi/send-is-detached-thresh) B, eager limit $(prop collectives/eager-limit) B; both should be 32768" >&2
  exit 1
}
"$root/scripts/mpirun/simulate" -n 1 "$build/bench/collcalibrate" compare "$here/known.xml" "$tmp/fitted.xml" \
  --sizes "$tmp/fitted-two-nodes.json" --within 0.05
