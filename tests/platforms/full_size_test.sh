#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One shipped platform at its full size (tests/platforms/CMakeLists.txt): an 8-byte all-reduce by
# recursive doubling on RANKS simulated ranks, checked against vendor's result. Fails when the
# simulation fails (SimGrid crashes on a platform it cannot route) or the row is missing or wrong.
# --benchmark: the launch's own collectives (set-up, and the barrier and all-reduce around each
# timed call) with few messages, instead of SMPI's MPICH selection, which first maps the nodes with
# a ring of p - 1 steps on every communicator (scripts/mpirun/simulate); one timed iteration, one
# warm-up: the test is that the platform runs, not the time.
#
# Usage: full_size_test.sh SIMULATE COLLBENCH PLATFORM RANKS
set -euo pipefail
(($# == 4)) || { echo "usage: $0 SIMULATE COLLBENCH PLATFORM RANKS" >&2; exit 2; }
simulate=$1 collbench=$2 platform=$3 ranks=$4
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$simulate" --benchmark --platform "$platform" -n "$ranks" "$collbench" -c allreduce -b 8 -e 8 \
  -a recursive_doubling --iterations 1 --warmup 1 --min-iterations 1 --quiet | tee "$out"
# The table's title, then the row: bytes, count, algorithm, times..., wrong elements (0).
grep -q "^allreduce ($ranks ranks)" "$out" || { echo "$platform: no all-reduce at $ranks ranks in the output" >&2; exit 1; }
grep -Eq '^ +8 +[0-9]+ +recursive_doubling +.* 0$' "$out" ||
  { echo "$platform: recursive_doubling's row at 8 B is missing or has wrong elements" >&2; exit 1; }
echo "$platform: $ranks ranks, all-reduce right"
