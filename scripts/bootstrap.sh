#!/usr/bin/env bash
# Installs what the project needs on Debian 12 with apt-get, skipping what is already there.
# Run as root (or with sudo available).
set -euo pipefail

packages=(
  g++ cmake make                      # toolchain
  pkgconf                             # collectives.pc: the Makefile consumer test
  openmpi-bin libopenmpi-dev          # MPI: the engine and the vendor baseline
  libboost-test-dev                   # tests
  libfmt-dev                          # all formatting
  libcli11-dev nlohmann-json3-dev     # collbench: command line, JSON output
  gnuplot-nox                         # collbench report: PNG plots
  hpcc                                # a real MPI application run under the drop-in (tests/pmpi)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "bootstrap: installing ${missing[*]}" >&2
# Wait for another apt run (a second bootstrap, unattended upgrades) instead of failing at once.
apt=(apt-get -o DPkg::Lock::Timeout=600)
$sudo "${apt[@]}" update
DEBIAN_FRONTEND=noninteractive $sudo "${apt[@]}" install -y "${missing[@]}"
