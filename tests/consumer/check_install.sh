#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
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
    # automatic's built-in table, for people to read and start their own from (docs/tuning.md).
    if ! cmp -s "$source_dir/src/dispatch/automatic-table.json" "$prefix/share/collectives/automatic-table.json"; then
      echo "check_install: the install wrote no share/collectives/automatic-table.json equal to the source's" >&2
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

# The installed tools (cmake/install.cmake, bench/CMakeLists.txt), run from outside the source
# tree with the prefix's bin/ first on PATH: collectives-run compiles its shared-memory probe from
# share/collectives (a fresh cache forces it), collbench lists and measures, collectives-tune
# writes a table with the collbench and colltune beside it, and collectives-calibrate measures two
# ranks with the collcalibrate beside it and writes a platform.
if [[ $mode == find_package && -x $prefix/bin/collbench ]]; then
  (
    tools=$work_dir/tools
    mkdir -p "$tools"
    cd "$tools"
    export PATH=$prefix/bin:$PATH XDG_CACHE_HOME=$tools/cache COLLECTIVES_SHM_COPY_VERBOSE=1
    unset COLLECTIVES_SHM_COPY OMPI_MCA_btl_vader_single_copy_mechanism LD_LIBRARY_PATH
    tool_fail() { echo "check_install: installed tools: $*" >&2; exit 1; }
    for t in collectives-run collectives-tune collectives-calibrate collbench colltune collcalibrate; do
      [[ $(command -v $t) == "$prefix/bin/$t" ]] || tool_fail "$t is not installed in $prefix/bin"
    done
    [[ -f $prefix/share/collectives/cma_probe.c ]] || tool_fail "no share/collectives/cma_probe.c"
    collectives-run --which 2>which.txt >/dev/null || tool_fail "collectives-run --which failed: $(cat which.txt)"
    grep -q "probed now" which.txt || tool_fail "collectives-run did not run its probe: $(cat which.txt)"
    collectives-run -n 2 collbench --list >list.txt 2>/dev/null || tool_fail "collbench --list failed"
    grep -q '^allreduce: vendor naive ' list.txt || { cat list.txt >&2; tool_fail "collbench --list: no allreduce line"; }
    collectives-run -n 2 collbench -c allreduce -b 8 -e 64 --step 8 --time-per-size 0.02 --min-iterations 2 -q \
      -f csv --output bench.csv 2>/dev/null || tool_fail "a small collbench run failed"
    grep -q '^allreduce,ring,2,64,' bench.csv || { cat bench.csv >&2; tool_fail "collbench wrote no allreduce ring row"; }
    # The help is read whole before grep looks: grep -q stops reading at its match, and the rest of a
    # help longer than one pipe write would then kill the writer with SIGPIPE (pipefail).
    tune_help=$(collectives-tune --help) || tool_fail "collectives-tune --help failed"
    grep -q "Installed by cmake --install as collectives-tune" <<<"$tune_help" ||
      tool_fail "collectives-tune --help does not print its help"
    collectives-tune 2 --quick --runs 1 -o tuning.json -- -c allreduce --max-bytes 64 2>tune.txt ||
      { cat tune.txt >&2; tool_fail "collectives-tune failed"; }
    grep -q '"allreduce"' tuning.json || tool_fail "collectives-tune wrote no allreduce table"
    grep -q '"command": "collectives-tune 2 --quick' tuning.json || tool_fail "the table does not name collectives-tune"
    collectives-calibrate --launch collectives-run --topology torus:2x2x2 --quick -o platform.xml -- -e 4K \
      --time-per-size 0.01 2>calibrate.txt || { cat calibrate.txt >&2; tool_fail "collectives-calibrate failed"; }
    grep -q '<cluster id="calibrated-torus-8" .*radical="0-7"' platform.xml ||
      { cat platform.xml >&2; tool_fail "collectives-calibrate wrote no torus of 8 nodes"; }
    grep -q '<prop id="smpi/os" value="[0-9]' platform.xml || tool_fail "the platform has no fitted smpi/os"
    echo "check_install: installed tools run from $tools"
  )
fi
