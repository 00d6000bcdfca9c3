#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test. Three set-ups, each in its own build
# directory:
#   bash scripts/test.sh                           Open MPI (build/): each MPI test at np 1 2 3 4 5 7
#                                                  8, once with standard and once with synchronous
#                                                  sends, plus the install/consumer checks and the
#                                                  benchmark's tests.
#   COLLECTIVES_MPI=mpich bash scripts/test.sh     MPICH (build-mpich/): the same tests at np 1 2 3;
#                                                  at np 4 with standard sends only. MPICH's idle
#                                                  ranks spin, so more ranks than cores crawl.
#   COLLECTIVES_SANITIZE=1 bash scripts/test.sh    AddressSanitizer + UndefinedBehaviorSanitizer
#                                                  (build-sanitize/, Open MPI): every test at np 1-4.
# (Both variables together: MPICH under the sanitizers, in build-mpich-sanitize/.)
# The >INT_MAX-byte test (label "large", ~7 GiB per rank) is left out; run it on its own with
# `ctest --test-dir build -L large`. Extra arguments go to ctest (e.g. -L allreduce).
set -euo pipefail
cd "$(dirname "$0")/.."

mpi=${COLLECTIVES_MPI:-openmpi}
sanitize=OFF
[[ ${COLLECTIVES_SANITIZE:-0} != 0 ]] && sanitize=ON

build=build
build_type=Release
ranks="1;2;3;4;5;7;8"
if [[ $mpi == mpich ]]; then
  build+=-mpich
  ranks="1;2;3;4"
fi
if [[ $sanitize == ON ]]; then
  build+=-sanitize
  build_type=RelWithDebInfo  # optimised, with line numbers in the sanitizers' reports
  ranks="1;2;3;4"
fi
configure=(-DCMAKE_BUILD_TYPE=$build_type -DCOLLECTIVES_MPI=$mpi -DCOLLECTIVES_SANITIZE=$sanitize
  "-DCOLLECTIVES_TEST_RANKS=$ranks")

COLLECTIVES_MPI=$mpi bash scripts/bootstrap.sh
cmake -S . -B "$build" "${configure[@]}"
cmake --build "$build" -j "$(nproc)"

run_ctest() { ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"; }
if [[ $mpi == mpich ]]; then
  # Everything but np 4, then np 4 with standard sends (the test executables a build has, by
  # label: whatever tests exist are picked up).
  run_ctest -LE '^(large|np4)$' "$@"
  run_ctest -L '^np4$' -L '^standard$' "$@"
else
  run_ctest -LE '^large$' "$@"
fi
