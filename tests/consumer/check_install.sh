#!/usr/bin/env bash
# Builds and runs a consumer of collectives, as an application would use it.
# Usage: check_install.sh <build-dir> <source-dir> <work-dir> <mode> [args...]
#   find_package:     cmake --install <build-dir> into <work-dir>/prefix, then configure
#                     tests/consumer with CMAKE_PREFIX_PATH=<work-dir>/prefix.
#   add_subdirectory: configure tests/consumer with COLLECTIVES_SOURCE_DIR=<source-dir>.
#     Extra arguments of these two go to the consumer's configure (e.g. the outer compiler).
#   makefile:         cmake --install <build-dir> into <work-dir>/prefix, then build a copy of
#                     tests/consumer/makefile with make, pkg-config and mpicxx, the README's way.
#     Extra arguments: the mpicxx to use (default: mpicxx from PATH) and a plain C++ compiler
#     (default: c++), with which a static library must link from pkg-config's flags alone.
# Whatever the prefix holds decides how the program must link: a libcollectives.so in it must be
# the one the program loads; otherwise the program must contain the library (static).
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
  makefile)
    prefix=$work_dir/prefix
    cmake --install "$build_dir" --prefix "$prefix"
    pc=$(find "$prefix" -name collectives.pc -path '*/pkgconfig/*')
    if [[ -z $pc ]]; then
      echo "check_install: the install wrote no pkgconfig/collectives.pc under $prefix" >&2
      exit 1
    fi
    export PKG_CONFIG_PATH=$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
    # The .pc must describe the prefix it was installed into, wherever that is.
    libdir=$(realpath "$(pkg-config --variable=libdir collectives)")
    if [[ $libdir != $(realpath "$(dirname "$(dirname "$pc")")") ]]; then
      echo "check_install: collectives.pc says libdir=$libdir, but it is in $(dirname "$pc")" >&2
      exit 1
    fi
    echo "pkg-config --cflags --libs collectives: $(pkg-config --cflags --libs collectives)"
    mkdir -p "$consumer_build"
    cp "$source_dir/tests/consumer/makefile/"{Makefile,main.cpp} "$consumer_build"
    mpicxx=${1:-mpicxx} cxx=${2:-c++}
    make_args=(CXX="$mpicxx")
    if [[ -e $libdir/libcollectives.so ]]; then
      # A shared library in a prefix the loader does not search: the README's rpath line.
      make_args+=(LDFLAGS="-Wl,-rpath,$libdir")
    else
      # pkg-config's fully static flags (every module's Libs.private) are complete on their
      # own: they link with a plain compiler, no MPI wrapper. Then the README's build.
      make -C "$consumer_build" CXX="$cxx" LDLIBS="$(pkg-config --static --libs collectives)"
      make -C "$consumer_build" clean
    fi
    make -C "$consumer_build" "${make_args[@]}"
    ;;
  *)
    echo "check_install: unknown mode '$mode' (find_package, add_subdirectory or makefile)" >&2
    exit 2
    ;;
esac

case $mode in
  makefile)
    program=$consumer_build/app ranks=3
    ;;
  *)
    cmake --build "$consumer_build" -j2
    program=$consumer_build/consumer ranks=2
    ;;
esac

# Shared or static, as the prefix says; a shared library must be the prefix's, found without
# LD_LIBRARY_PATH (CMake's rpath, or the Makefile's -rpath).
if [[ $mode != add_subdirectory ]]; then
  needed=$(readelf -d "$program" | sed -n 's/.*NEEDED.*\[\(libcollectives[^]]*\)\]/\1/p')
  so=$(find "$prefix" -name 'libcollectives.so*' -type f)
  if [[ -n $so ]]; then
    soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
    loaded=$(env -u LD_LIBRARY_PATH ldd "$program" | awk -v n="$soname" '$1 == n { print $3 }')
    if [[ $needed != "$soname" || $(realpath "$loaded") != $(realpath "$so") ]]; then
      echo "check_install: $program needs '$needed' loaded from '$loaded', not $soname from $so" >&2
      exit 1
    fi
  elif [[ -n $needed ]]; then
    echo "check_install: the prefix has a static library, yet $program needs $needed" >&2
    exit 1
  fi
fi
env -u LD_LIBRARY_PATH "$source_dir/scripts/mpirun/run" -n $ranks "$program"
if [[ $mode != makefile ]]; then
  # The drop-in linked through collectives::mpi serves the program's MPI_Allreduce.
  COLLECTIVES_MPI_REPORT="$work_dir/report.txt" env -u LD_LIBRARY_PATH "$source_dir/scripts/mpirun/run" -n 2 \
    "$consumer_build/consumer_dropin"
  grep -Eq '^MPI_Allreduce +served: ' "$work_dir/report.txt" ||
    { cat "$work_dir/report.txt" >&2; echo "check_install: the drop-in did not serve MPI_Allreduce" >&2; exit 1; }
fi
