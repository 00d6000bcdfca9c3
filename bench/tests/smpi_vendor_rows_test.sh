#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# collbench's vendor:<name> rows under SimGrid's SMPI (a build with -DCOLLECTIVES_MPI=smpi):
#  1. Back to back, no message of one call is received by another. SMPI's choice of algorithm is
#     one global of the simulator; collbench once set it back after each call, so a rank done with
#     its batch dispatched the broadcast inside its next all-reduce (collbench's own, of the times)
#     through the row's choice while another rank still waited in the batch, and the simulation
#     stopped on a double received as a float (workload.hpp, smpi_selection). A broadcast on 4
#     ranks, 64 B then 512 B, under SMPI's ompi selection did it.
#  2. vendor:ompi41 (Open MPI 4.1's decision, ompi41.hpp) gives vendor's result, element by element,
#     in every collective it covers, on 2, 3, 4 and 8 ranks, 8 B to 256 KiB.
#  3. collbench's default rows (every library algorithm, every SMPI algorithm) run to the end on 3
#     and 4 ranks, every row right: SimGrid's algorithms that crash, never end, mix their messages
#     with other calls', return wrong results or refuse the process count are left out
#     (smpi_colls.cpp, unusable); one of them named says so and why, before anything runs.
# Usage: smpi_vendor_rows_test.sh COLLBENCH
set -euo pipefail
collbench=${1:?usage: smpi_vendor_rows_test.sh COLLBENCH}
simulate=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts/mpirun" && pwd)/simulate
tmp=$(mktemp -d "${TMPDIR:-/tmp}/smpi_vendor_rows.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
once=(--iterations 1 --warmup 1 --min-iterations 1 --format csv --quiet)

# Every row checked (its "wrong" column 0), and the row named present for each collective named.
checked() { # FILE ROW COLLECTIVES
  awk -F, -v row="$2" -v colls="$3" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["wrong"] != "0" { printf "%s: %s %s at %s B: wrong = \"%s\"\n", FILENAME, $1, $2, $4, $col["wrong"]; bad = 1 }
    $2 == row { seen[$1] = 1 }
    END {
      n = split(colls, c, ",")
      for (i = 1; i <= n; ++i) if (!seen[c[i]]) { printf "%s: no %s row for %s\n", FILENAME, row, c[i]; bad = 1 }
      exit bad
    }' "$1"
}

"$simulate" --benchmark -n 4 "$collbench" -a vendor:ompi -c broadcast -b 64 -e 512 --step 8 \
  --timing back-to-back "${once[@]}" --output "$tmp/back-to-back.csv"
checked "$tmp/back-to-back.csv" vendor:ompi broadcast

# The reference, plain vendor, at the launch's choice: SMPI's mpich selection, but ring for alltoall
# (mpich's refuses some sizes off powers of two).
colls=allreduce,allgather,broadcast,reduce_scatter,alltoall
for p in 2 3 4 8; do
  "$simulate" --cfg=smpi/alltoall:ring -n "$p" "$collbench" -a vendor:ompi41 -c "$colls" -b 8 -e 256K --step 8 "${once[@]}" \
    --output "$tmp/ompi41-$p.csv"
  checked "$tmp/ompi41-$p.csv" vendor:ompi41 "$colls"
done
all=broadcast,scatter,gather,reduce,allgather,allgatherv,reduce_scatter,reduce_scatterv,alltoall,alltoallv,allreduce,barrier
for p in 3 4; do
  "$simulate" -n "$p" "$collbench" -c "$all" -b 8 -e 4K --step 8 "${once[@]}" --output "$tmp/all-$p.csv"
  checked "$tmp/all-$p.csv" vendor "$all"
done
if "$simulate" -n 3 "$collbench" -c barrier -a vendor:ompi_two_procs "${once[@]}" > "$tmp/left-out.txt" 2>&1 ||
  ! grep -q "vendor:ompi_two_procs: left out, SimGrid's barrier ompi_two_procs never ends" "$tmp/left-out.txt"; then
  echo "smpi_vendor_rows_test: a left-out algorithm named did not stop with its reason:"
  cat "$tmp/left-out.txt"
  exit 1
fi
echo "smpi_vendor_rows_test: ok"
