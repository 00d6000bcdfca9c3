#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The shared-library build, checked as its users would meet it: builds libcollectives.so alone
# and the drop-in (-DBUILD_SHARED_LIBS=ON, no tests, no benchmark, to keep the time down), checks its soname and
# that it exports exactly the public API, installs it, and builds and runs both consumers against
# it: the plain Makefile (pkg-config) and the CMake package (find_package).
# Usage: check_shared.sh <source-dir> <work-dir> <mpicxx> [cmake args for both configures...]
set -euo pipefail

source_dir=$1 work_dir=$2 mpicxx=$3
shift 3

rm -rf "$work_dir"
lib_build=$work_dir/lib-build
cmake -S "$source_dir" -B "$lib_build" -DBUILD_SHARED_LIBS=ON -DCOLLECTIVES_BUILD_TESTS=OFF \
  -DCOLLECTIVES_BUILD_BENCH=OFF "$@"
cmake --build "$lib_build" -j2 --target collectives collectives_mpi

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$lib_build/CMakeCache.txt")
so=$lib_build/libcollectives.so.$version
soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
if [[ $soname != "libcollectives.so.${version%%.*}" ]]; then
  echo "check_shared: $so has soname '$soname', expected libcollectives.so.${version%%.*}" >&2
  exit 1
fi
"$source_dir/tests/consumer/check_exports.sh" "$so" "$source_dir/include"

"$source_dir/tests/consumer/check_install.sh" "$lib_build" "$source_dir" "$work_dir/makefile" makefile "$mpicxx"
"$source_dir/tests/consumer/check_install.sh" "$lib_build" "$source_dir" "$work_dir/find_package" find_package "$@"
