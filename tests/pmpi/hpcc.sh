#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# hpcc (Debian's HPC Challenge, built on Open MPI) under the drop-in: a small input, its own
# verification must pass (HPL residual, PTRANS, FFT errors), and the report must show that its
# collective calls of the kinds the drop-in serves were served, none forwarded.
# Usage: hpcc.sh <np> <libcollectives_mpi.so>
set -euo pipefail
np=$1 lib=$2
here=$(cd "$(dirname "$0")" && pwd)
hpcc=$(command -v hpcc) || { echo "hpcc.sh: hpcc is not installed (scripts/bootstrap.sh installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "hpcc.sh: FAILED: $*" >&2; exit 1; }

# The Debian example input with a small HPL problem on a 2 x 2 grid and one small PTRANS size.
# (HPL N = 200, NB = 40: hpcc sizes its other tests from it; RandomAccess then takes ~10 s.)
sed -e 's/^1000 *Ns/200          Ns/' -e 's/^80 *NBs/40           NBs/' \
    /usr/share/doc/hpcc/examples/_hpccinf.txt >"$work/hpccinf.txt"
[ "$np" -eq 4 ] || fail "the input is a 2 x 2 grid: run at np 4"
cd "$work"
LD_PRELOAD="$lib" COLLECTIVES_MPI_REPORT="$work/report.txt" "$here/../../scripts/mpirun/run" -n "$np" "$hpcc"
cat report.txt

# hpcc's own verdicts.
grep -E "PASSED|FAILED|Failure|error" hpccoutf.txt | head -40
! grep -q "FAILED" hpccoutf.txt || fail "hpcc reports a failed check"
[ "$(grep -c "PASSED" hpccoutf.txt)" -ge 2 ] || fail "hpcc printed no PASSED verdicts (HPL and PTRANS)"
grep -q "End of HPC Challenge tests" hpccoutf.txt || fail "hpcc did not finish"
for key in HPL_N PTRANS_n MPIFFT_maxErr; do grep -q "^$key=" hpccoutf.txt || fail "no $key in the summary"; done
# The FFT has no PASSED line: its error against the inverse transform must be at rounding level.
awk -F= '/^MPIFFT_maxErr=/ { exit !($2 < 1e-10) }' hpccoutf.txt || fail "MPIFFT error: $(grep '^MPIFFT_maxErr=' hpccoutf.txt)"
[ "$(grep -c "Found 0 errors" hpccoutf.txt)" -ge 2 ] || fail "RandomAccess verification missing"


# Served, never forwarded (its communicators are intracommunicators; every op is predefined
# on a predefined type, or its own).
! grep -q "forwarded" report.txt || fail "hpcc's calls were forwarded"
grep -Eq "^MPI_Allreduce +served" report.txt || fail "no MPI_Allreduce served"
grep -Eq "^MPI_Bcast +served" report.txt || fail "no MPI_Bcast served"
grep -Eq "^MPI_Barrier +served" report.txt || fail "no MPI_Barrier served"
