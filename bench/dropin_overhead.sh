#!/usr/bin/env bash
# Point 7 of the drop-in: its own overhead on an 8-byte MPI_Allreduce at np 2, automatic (which
# picks recursive_doubling at 8 B) and naive, each beside the C++ call with the same algorithm
# and vendor. Usage: bench/dropin_overhead.sh [build-dir] [np]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} np=${2:-2}
prog=$build/bench/dropin_overhead
"scripts/mpirun/run" -n "$np" "$prog" recursive_doubling
COLLECTIVES_ALGORITHMS=allreduce=naive "scripts/mpirun/run" -n "$np" "$prog" naive
