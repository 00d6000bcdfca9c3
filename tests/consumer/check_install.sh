#!/usr/bin/env bash
# Builds and runs tests/consumer against collectives, as an application would use it.
# Usage: check_install.sh <build-dir> <source-dir> <work-dir> find_package|add_subdirectory [cmake args...]
#   find_package:     cmake --install <build-dir> into <work-dir>/prefix, then configure the
#                     consumer with CMAKE_PREFIX_PATH=<work-dir>/prefix.
#   add_subdirectory: configure the consumer with COLLECTIVES_SOURCE_DIR=<source-dir>.
# Extra arguments go to the consumer's configure (e.g. the compiler of the outer build).
set -euo pipefail

build_dir=$1 source_dir=$2 work_dir=$3 mode=$4
shift 4

# Start clean: a stale prefix or cache would hide a broken install.
rm -rf "$work_dir"
mkdir -p "$work_dir"
consumer_build=$work_dir/build

case $mode in
  find_package)
    prefix=$work_dir/prefix
    cmake --install "$build_dir" --prefix "$prefix"
    cmake -S "$source_dir/tests/consumer" -B "$consumer_build" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF "$@"
    # The package must come from the fresh prefix, not from some other installed copy.
    found=$(sed -n 's/^collectives_DIR:PATH=//p' "$consumer_build/CMakeCache.txt")
    if [[ $found != "$prefix"/* ]]; then
      echo "check_install: collectives was found in '$found', not under $prefix" >&2
      exit 1
    fi
    ;;
  add_subdirectory)
    cmake -S "$source_dir/tests/consumer" -B "$consumer_build" -DCOLLECTIVES_SOURCE_DIR="$source_dir" "$@"
    ;;
  *)
    echo "check_install: unknown mode '$mode' (find_package or add_subdirectory)" >&2
    exit 2
    ;;
esac

cmake --build "$consumer_build" -j2
"$source_dir/scripts/mpirun/run" -n 2 "$consumer_build/consumer"
# The drop-in linked through collectives::mpi serves the program's MPI_Allreduce.
COLLECTIVES_MPI_REPORT="$work_dir/report.txt" "$source_dir/scripts/mpirun/run" -n 2 "$consumer_build/consumer_dropin"
grep -Eq '^MPI_Allreduce +served: ' "$work_dir/report.txt" ||
  { cat "$work_dir/report.txt" >&2; echo "check_install: the drop-in did not serve MPI_Allreduce" >&2; exit 1; }
