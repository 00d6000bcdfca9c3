#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: each MPI test at np 1 2 3 4 5 7 8,
# once with standard and once with synchronous sends, plus the install/consumer checks.
# Extra arguments go to ctest (e.g. -L allreduce, -LE ssend).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/bootstrap.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)" "$@"
