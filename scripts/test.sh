#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: each MPI test at np 1 2 3 4 5 7 8,
# once with standard and once with synchronous sends, plus the install/consumer checks.
# The >INT_MAX-byte test (label "large", ~7 GiB per rank) is left out; run it on its own with
# `ctest --test-dir build -L large`. Extra arguments go to ctest (e.g. -L allreduce).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE large "$@"
