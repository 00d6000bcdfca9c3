#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what is missing, builds, and runs the tests. Three set-ups, each in its own build
# directory (CI runs all three, .ci/run):
#   bash scripts/test.sh                           Open MPI (build/), everything: each MPI test at
#                                                  np 1 2 3 4 5 7 8, with standard and with
#                                                  synchronous sends, the emulated hosts and
#                                                  cluster, the drop-in (with hpcc), the
#                                                  install/consumer checks, the benchmark's tests.
#   COLLECTIVES_MPI=mpich bash scripts/test.sh     MPICH (build-mpich/): the library's tests (the
#                                                  matrix, contract, PMPI, finalize) and the
#                                                  drop-in's (automatic and vendor, report,
#                                                  errors…) at np 1 2 3 with standard sends;
#                                                  collbench's vendor forcing (np 4).
#                                                  MPICH's idle ranks spin, so more ranks than
#                                                  cores crawl: nothing else above np 3.
#   COLLECTIVES_MPI=smpi bash scripts/test.sh      SimGrid's SMPI (build-smpi/): every algorithm of
#                                                  every collective at 17, 64 and 100 simulated
#                                                  ranks on a fat tree (the scale matrix, standard
#                                                  sends on SimGrid's default contexts, synchronous
#                                                  ones at 17 and 64 on threads), and the
#                                                  node-aware ones on
#                                                  multi-core nodes, and the fit of collcalibrate
#                                                  on a platform of known parameters (label smpi);
#                                                  collbench's vendor:<name> rows back to back and
#                                                  vendor:ompi41 against vendor (label smpi_bench).
#   COLLECTIVES_SANITIZE=1 bash scripts/test.sh    AddressSanitizer + UndefinedBehaviorSanitizer
#                                                  (build-sanitize/, Open MPI, no benchmark): the
#                                                  library's tests and the drop-in's at np 1-4
#                                                  with standard sends, and the emulated hosts
#                                                  at np 4.
# Left out of MPICH and the sanitizers (they cover the code, not the MPI library or memory):
# synchronous sends (the same schedules, another send call), the drop-in under each algorithm
# name (label "names": the matrix tests run every algorithm), the packaging checks (they rebuild
# the library), hpcc (Debian's is linked with Open MPI), the emulated cluster and the
# shared-memory probe (Open MPI's), collbench's timing and comparison tests.
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
bench=ON
# collbench and its tools, and their tests (MPI-independent, or labelled serial, shm or np4): the
# MPICH run leaves them out, all but the vendor forcing (bench/CMakeLists.txt).
programs=ON
extra_configure=()
if [[ $mpi == mpich ]]; then
  build+=-mpich
  ranks="1;2;3"
  programs=OFF
fi
if [[ $mpi == smpi ]]; then
  # SimGrid's SMPI: the matrix at 17, 64 and 100 simulated ranks (label smpi).
  build+=-smpi
  ranks="17;64;100"
fi
if [[ $sanitize == ON ]]; then
  build+=-sanitize
  # -Og -g1: line numbers in the sanitizers' reports, and a build much cheaper than -O2 -g, which
  # is what lets CI afford this part (docs/measurements/2026-11-28-figures-from-comments.md).
  build_type=Debug
  extra_configure=("-DCMAKE_CXX_FLAGS_DEBUG=-Og -g1" "-DCMAKE_C_FLAGS_DEBUG=-Og -g1")
  [[ $mpi == mpich ]] || ranks="1;2;3;4"
  bench=OFF
fi
# A unity build (CMake merges up to 8 source files of a target into one compile), as a build of
# the project on its own is by default (CMakeLists.txt): CI's four builds need it
# (docs/measurements/2026-11-27-ci-timings.md). -DCMAKE_UNITY_BUILD=OFF compiles each file alone.
configure=(-DCMAKE_BUILD_TYPE=$build_type -DCOLLECTIVES_MPI=$mpi -DCOLLECTIVES_SANITIZE=$sanitize
  -DCMAKE_UNITY_BUILD=ON
  "-DCOLLECTIVES_TEST_RANKS=$ranks" -DCOLLECTIVES_BUILD_BENCH=$bench -DCOLLECTIVES_BENCH_PROGRAMS=$programs
  "${extra_configure[@]}")

COLLECTIVES_MPI=$mpi bash scripts/bootstrap.sh
# Through a compiler cache (ccache, from the bootstrap; in .deps/ccache unless CCACHE_DIR is
# set): the packaging tests compile the library again, in
# nested builds with the same flags, and those compiles become lookups (about 4 minutes of the
# Open MPI run on 2 cores). A launcher already set in the environment is kept. The test programs
# start from a precompiled header (tests/CMakeLists.txt), which ccache caches only with this
# sloppiness.
if [[ -z ${CMAKE_CXX_COMPILER_LAUNCHER:-} ]] && command -v ccache > /dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/.deps/ccache}
  export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
fi
# Paths under the build tree as relative ones: the nested builds' unity files then hash the same as
# the main build's (their contents name the same sources), and the nested compiles become lookups.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD/$build}
cmake -S . -B "$build" "${configure[@]}"
cmake --build "$build" -j "$(nproc)"

run_ctest() { ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"; }
if [[ $mpi == smpi ]]; then
  run_ctest -L '^smpi$|^smpi_bench$' "$@"
  exit
fi
# The matrix and the drop-in's tests (labelled with their send mode, standard or ssend) with Open
# MPI: their ranks mostly wait on one another (idle ranks yield their core), so several tests at
# once finish sooner than one after another (two 8-rank ones at a time on 2 cores: --parallel slots
# = 8 per core, a test taking as many as its ranks); the rest (builds, the proof, the documented
# commands, collbench's timed runs) as before. (Running the proof, the schedule checker and the
# packaging builds among the matrix saved nothing: docs/measurements/2026-12-08-ci-passes.md.)
matrix='^(standard|ssend)$'
run_many() { ctest --test-dir "$build" --output-on-failure -j "$((8 * $(nproc)))" "$@"; }
if [[ $mpi == openmpi && $sanitize == OFF ]]; then
  status=0
  run_many -L "$matrix" -LE '^large$' "$@" || status=1
  run_ctest -LE "^large\$|$matrix" "$@" || status=1
  exit $status
fi
# MPICH and the sanitizers: standard sends, the ranks configured above (every test carries its
# np<p> label), none of what the header leaves out.
skip='^(large|ssend|names|packaging|application|cluster|shm|serial|np[5-9])$'
[[ $mpi == mpich ]] && skip='^(large|ssend|names|packaging|application|cluster|shm|serial|np[4-9])$'
if [[ $sanitize == ON && -z ${ASAN_OPTIONS:-} ]]; then
  # The leak check costs seconds per launch even with the MPI library's components kept loaded
  # (build-sanitize/test_environment.cmake): full unwinding at every allocation, so that the MPI
  # library's own leaks are told apart by its frames, and the check itself at exit. So leaks are
  # checked at np 3 (not a power of two: the folding paths too), with the build's settings; every
  # other test runs with AddressSanitizer and UBSan but without the leak check. Both passes run
  # several tests at once, as the Open MPI matrix does (8 slots per core): a launch here spends
  # much of its time starting, unwinding and checking on one core of the two.
  status=0
  ASAN_OPTIONS=detect_leaks=0 run_many -LE "$skip|^np3$" "$@" || status=1
  run_many -LE "$skip" -L '^np3$' "$@" || status=1
  exit $status
fi
run_ctest -LE "$skip" "$@"
# collbench's vendor forcing checks its signatures at 4 ranks (MPICH: its spinning ranks make it
# slow, not wrong).
if [[ $bench == ON ]]; then
  run_ctest -R '^bench\.vendor_forcing$' "$@"
fi
