#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# compare.sh --quick end to end: it must tune, produce the report (with its back-to-back section), the merged
# CSV/JSON and every PNG;
# at np = 1, every plot that has something to show; and with --shm-copy both, both paths.
# The first run is bench/README.md's command as it shows it (tests/docs/commands.txt lists it for this
# test): tests/docs/run.sh runs it in a scratch copy of the source tree whose build/ is this build,
# at its own sizes (no smoke setting: --quick is one), and it writes the copy's results/latest.
# Usage: compare_quick_test.sh <build-dir> <scratch-dir>
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$1

bash "$root/tests/docs/run.sh" --build "$build" --work "$2/compare_quick_docs" --no-smoke bench.compare_quick
out=$(cd "$2/compare_quick_docs/src/results/latest" && pwd -P)

fail() { echo "compare_quick_test: $*" >&2; exit 1; }
for f in report.md results.csv results.json np2.json np4.json np2-back-to-back.json np4-back-to-back.json \
  plots/plots.gp tuning.json; do
  [[ -s $out/$f ]] || fail "$f missing or empty"
done
header='collective,algorithm,ranks,bytes,count,type,median_us,min_us,max_us,algbw_GBps,busbw_GBps,vs_vendor,wrong,shm_copy,timing'
[[ $(head -n1 "$out/results.csv") == "$header" ]] || fail "results.csv header"
for c in broadcast scatter gather reduce allgather reduce_scatter alltoall allreduce scan exscan; do
  grep -q "^## $c\$" "$out/report.md" || fail "report.md has no section for $c"
  for np in 2 4; do
    grep -q "^$c,vendor,$np," "$out/results.csv" || fail "results.csv has no vendor row for $c at np $np"
    for what in latency busbw; do
      png=$out/plots/${c}_np${np}_$what.png
      [[ $(head -c 4 "$png" 2> /dev/null | tail -c 3) == PNG ]] || fail "$png is not a PNG"
      grep -q "plots/${c}_np${np}_$what.png" "$out/report.md" || fail "report.md does not show $png"
    done
  done
done
# automatic followed the table tune.sh wrote, and the report sets it against the library's best.
grep -q "automatic followed the decision table .*tuning.json" "$out/report.md" || fail "report.md does not name the table"
grep -q "^## automatic against the library's best\$" "$out/report.md" || fail "report.md has no automatic summary"
for np in 2 4; do
  grep -qE "^\| allreduce \| $np \| [0-9]+ of [0-9]+ " "$out/report.md" || fail "no automatic summary of allreduce at np $np"
  grep -qE "^\| \*\*all\*\* \| $np \| " "$out/report.md" || fail "no overall automatic summary at np $np"
  # and how fast the machine ran against when it was tuned
  grep -qE "^\| $np \| [0-9.]+× \| [0-9]+ of [1-9][0-9]* \|$" "$out/report.md" || fail "no speed against the tuning runs at np $np"
done
grep -q "^Against the tuning runs" "$out/report.md" || fail "report.md does not set the run against the tuning runs"
# Vendor against the library back to back (as applications issue calls): a run per np, a section
# in the report, rows in results.csv; and the table's "fastest" section decided that way.
grep -q "^## Back to back: what applications see\$" "$out/report.md" || fail "report.md has no back-to-back section"
for np in 2 4; do
  grep -q "^### allreduce, np = $np: back to back\$" "$out/report.md" || fail "no back-to-back allreduce at np $np"
  grep -q "^allreduce,automatic,$np,.*,back-to-back\$" "$out/results.csv" || fail "results.csv: no back-to-back row at np $np"
done
grep -q '"fastest_timing": "back-to-back' "$out/tuning.json" || fail "tuning.json's fastest section is not back to back"
# barrier moves no data: its section has one row per algorithm (0 bytes, vendor's internals beside
# the library's) and no plots.
grep -q "^## barrier\$" "$out/report.md" || fail "report.md has no section for barrier"
for np in 2 4; do
  for alg in vendor naive binomial dissemination recursive_doubling; do
    [[ $(grep -c "^barrier,$alg,$np,0,.*,synchronized\$" "$out/results.csv") == 1 ]] ||
      fail "results.csv: not one synchronized barrier $alg row at np $np"
  done
  [[ ! -e $out/plots/barrier_np${np}_latency.png ]] || fail "a barrier plot of a single size"
done
grep -q "barrier moves no data" "$out/report.md" || fail "report.md does not say why barrier has no plots"

if (($(nproc) < 4)); then
  grep -q "oversubscribed" "$out/report.md" || fail "np 4 on $(nproc) cores but the report does not say oversubscribed"
fi
grep -q "Every result matched vendor's" "$out/report.md" || fail "some result differs from vendor's (see report.md)"

# One process: busbw is 0 wherever the factor is (p−1)/p, and a log-scale plot of zeros would stop
# gnuplot; those plots are left out and said so, the others drawn.
one=$2/compare_quick_np1
rm -rf "$one"
"$root/scripts/mpirun/compare.sh" --quick --np 1 --build-dir "$build" --out "$one" -- -c allreduce,broadcast
for png in allreduce_np1_latency broadcast_np1_latency broadcast_np1_busbw; do
  [[ $(head -c 4 "$one/plots/$png.png" 2> /dev/null | tail -c 3) == PNG ]] || fail "np 1: $png.png is not a PNG"
done
[[ ! -e $one/plots/allreduce_np1_busbw.png ]] || fail "np 1: an allreduce busbw plot of zeros"
grep -q "no busbw plot" "$one/report.md" || fail "np 1: report.md does not say why a busbw plot is missing"
grep -q NaN "$one/plots/allreduce_np1.dat" || fail "np 1: a busbw of 0 is not written NaN"

# Both shared-memory paths in one report: a run per path, tables and plots per path, and the
# section comparing them (where the kernel allows one copy at all).
both=$2/compare_quick_both
rm -rf "$both"
if [[ $("$root/scripts/mpirun/run" --which) == single ]]; then
  "$root/scripts/mpirun/compare.sh" --quick --np 2 --shm-copy both --build-dir "$build" --out "$both" -- -c allreduce
  for path in single double; do
    grep -q "\"path\": \"$path\"" "$both/np2-$path.json" || fail "--shm-copy both: np2-$path.json did not run on $path"
    grep -q ",$path,synchronized\$" "$both/results.csv" || fail "--shm-copy both: results.csv has no $path row"
    for what in latency busbw; do
      png=$both/plots/allreduce_np2_${path}_$what.png
      [[ $(head -c 4 "$png" 2> /dev/null | tail -c 3) == PNG ]] || fail "--shm-copy both: $png is not a PNG"
    done
  done
  grep -q "^## One copy against two" "$both/report.md" || fail "--shm-copy both: no comparison section"
  grep -q "^### allreduce, np = 2: one copy (cma) against two" "$both/report.md" ||
    fail "--shm-copy both: no allreduce comparison at np 2"
  grep -q "^### allreduce, np = 2, two copies (none)" "$both/report.md" || fail "--shm-copy both: no two-copy table"
else
  echo "compare_quick_test: cross-memory attach is forbidden here: --shm-copy both not tried"
fi
grep -q "shared memory: single copy (cma)\|shared memory: two copies (none)" "$out/report.md" ||
  fail "report.md does not say which shared-memory path it ran on"
echo "compare_quick_test: ok ($out, $one, $both)"
