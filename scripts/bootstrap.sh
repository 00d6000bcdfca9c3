#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs what the project needs on Debian 12 with apt-get, skipping what is already there.
# Run as root (or with sudo available).
#
# COLLECTIVES_MPI=smpi also installs SimGrid's SMPI (libsimgrid-dev), the simulator.
# COLLECTIVES_MPI=mpich also sets up MPICH, the second MPI library, beside Open MPI: its runtime
# (mpich, libmpich12) from apt, and libmpich-dev's headers and link files unpacked
# (apt-get download + dpkg-deb -x) into .deps/mpich/ — never installed, as it would compete with
# libopenmpi-dev for the system's mpi.h and libmpi.so. Open MPI stays the system's default MPI.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

mpi=${COLLECTIVES_MPI:-openmpi}
case $mpi in
  openmpi | mpich | smpi) ;;
  *) echo "bootstrap: COLLECTIVES_MPI must be 'openmpi', 'mpich' or 'smpi', not '$mpi'" >&2; exit 2 ;;
esac

packages=(
  g++ cmake make                      # toolchain
  ccache                              # scripts/test.sh: the packaging tests' rebuilds of the library
  pkgconf                             # collectives.pc: the Makefile consumer test
  openmpi-bin libopenmpi-dev          # MPI: the engine and the vendor baseline
  libboost-test-dev                   # tests
  libboost-context-dev                # the proof's fibers (src/schedule/fiber.cpp)
  libfmt-dev                          # all formatting
  libcli11-dev nlohmann-json3-dev     # collbench: command line, JSON output
  gnuplot-nox                         # collbench report: PNG plots
  hpcc                                # a real MPI application run under the drop-in (tests/pmpi)
)
# MPICH's runtime (mpiexec.mpich, mpicxx.mpich, libmpich.so.12), without the libmpich-dev it
# recommends.
mpich_packages=(mpich libmpich12)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
# Wait for another apt run (a second bootstrap, unattended upgrades) instead of failing at once.
apt=(apt-get -o DPkg::Lock::Timeout=600)
updated=0
apt_update() { ((updated)) || $sudo "${apt[@]}" update; updated=1; }

# install [apt-get options] -- packages: those not yet installed.
install() {
  local options=() missing=()
  while [ "$1" != -- ]; do options+=("$1"); shift; done
  shift
  for p; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "bootstrap: installing ${missing[*]}" >&2
  apt_update
  DEBIAN_FRONTEND=noninteractive $sudo "${apt[@]}" install -y "${options[@]}" "${missing[@]}"
}

install -- "${packages[@]}"
# COLLECTIVES_MPI=smpi: SimGrid's SMPI (smpicc, smpicxx, smpirun), the simulated clusters of
# scripts/mpirun/simulate; Open MPI stays installed and the system's MPI.
if [ "$mpi" = smpi ]; then
  install -- libsimgrid-dev
  exit 0
fi
[ "$mpi" = mpich ] || exit 0

install --no-install-recommends -- "${mpich_packages[@]}"

# Open MPI stays what `mpicc`, `mpicxx` and `mpiexec` run. MPICH registers its wrappers at
# priority 40 against Open MPI's 50, so this only acts where someone chose MPICH by hand.
for pair in mpi:/usr/bin/mpicc.openmpi mpirun:/usr/bin/mpirun.openmpi; do
  name=${pair%%:*} target=${pair#*:}
  if [ "$(update-alternatives --query "$name" | sed -n 's/^Value: //p')" != "$target" ]; then
    echo "bootstrap: pointing the '$name' alternative back to Open MPI ($target)" >&2
    $sudo update-alternatives --set "$name" "$target"
  fi
done

# MPICH's development files, project-local: headers and libmpich.so under .deps/mpich/usr, and
# .deps/mpich/bin/mpicxx (and mpicc): MPICH's own wrappers with their include and library
# directories pointed there, which CMake's FindMPI interrogates (-DCOLLECTIVES_MPI=mpich).
prefix=$root/.deps/mpich
version=$(dpkg-query -W -f='${Version}' libmpich12)
stamp="libmpich-dev $version in $prefix"  # redone when MPICH is upgraded or the tree moves
[ "$(cat "$prefix/.stamp" 2>/dev/null)" = "$stamp" ] && exit 0

echo "bootstrap: unpacking libmpich-dev $version into $prefix" >&2
multiarch=$(gcc -print-multiarch)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The same version as the installed runtime; fetch the package lists if apt does not know it.
if ! (cd "$tmp" && apt-get download "libmpich-dev=$version" > /dev/null 2>&1); then
  apt_update
  (cd "$tmp" && apt-get download "libmpich-dev=$version")
fi
rm -rf "$prefix"
mkdir -p "$prefix/bin"
dpkg-deb -x "$tmp"/libmpich-dev_*.deb "$prefix"
# The link files point (relatively) at the shared libraries that libmpich12 put in /usr.
libdir=$prefix/usr/lib/$multiarch
for lib in libmpich libmpichcxx; do
  ln -sfn "/usr/lib/$multiarch/$(basename "$(readlink "$libdir/$lib.so")")" "$libdir/$lib.so"
done
for wrapper in mpicc mpicxx; do
  sed -e "s|^includedir=.*|includedir=$prefix/usr/include/$multiarch/mpich|" \
    -e "s|^libdir=.*|libdir=$libdir|" "/usr/bin/$wrapper.mpich" > "$prefix/bin/$wrapper"
  chmod +x "$prefix/bin/$wrapper"
done
echo "$stamp" > "$prefix/.stamp"
