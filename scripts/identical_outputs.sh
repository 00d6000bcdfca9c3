#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Writes, from fixed inputs, every deterministic output of the bench tools into OUT_DIR, so that
# `diff -r REFERENCE OUT_DIR` says whether a change left them alone: collbench's rows (JSON and CSV,
# real runs with their timed fields left out, simulated runs with their priced ones kept), --list,
# the logical-time pictures, error messages; colltune's tables (model mode, and from the stored runs
# in tests/identical/inputs/); collcalibrate's platforms and measurements; collreport's report;
# collsimcheck's report. What each file keeps and drops: docs/measurements/2026-12-02-the-house.md.
# Usage: scripts/identical_outputs.sh OPENMPI_BUILD_DIR SMPI_BUILD_DIR OUT_DIR
# A reference: run it with the baseline's builds (the commit before the change), e.g.
#   scripts/identical_outputs.sh /work/baseline/build-openmpi /work/baseline/build-smpi ref
#   scripts/identical_outputs.sh build build-smpi now && diff -r ref now && echo identical
# The launchers (scripts/mpirun/run, simulate) are this tree's; the stored inputs are never remade
# to make a check pass (tests/identical/make_inputs.sh says how they were made).
set -Eeuo pipefail
usage="usage: identical_outputs.sh OPENMPI_BUILD_DIR SMPI_BUILD_DIR OUT_DIR"
build=$(cd "${1:?$usage}" && pwd)
smpi=$(cd "${2:?$usage}" && pwd)
out=${3:?$usage}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
in=$root/tests/identical/inputs
run=$root/scripts/mpirun/run
simulate=$root/scripts/mpirun/simulate
rm -rf "$out"
mkdir -p "$out"/{collbench,draw,errors,colltune,collcalibrate,collreport,collsimcheck}
out=$(cd "$out" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/identical_outputs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'echo "identical_outputs: line $LINENO failed: $BASH_COMMAND" >&2' ERR

# A row's measured time and what follows from it; model_us kept only as "priced or not" in real runs.
timed='.median_us, .min_us, .max_us, .algbw_GBps, .busbw_GBps, .busbw_of_memcpy, .vs_vendor, .late_fraction'
real_json() {  # FILE: a real run's JSON, its measured figures replaced by their shape
  jq -S "del(.collbench.date, .collbench.start, .collbench.host, .collbench.cores)
         | (.model, .hosts) |= (if . == null then . else walk(if type == \"number\" then 0 else . end) end)
         | .results |= map(del($timed) | .model_us |= (. != null))" "$1"
}
simulated_json() {  # FILE: a simulated run's JSON, without the start's and the calls' measured times
  jq -S "del(.collbench.date, .collbench.start, .collbench.host, .collbench.cores)
         | .results |= map(del($timed))" "$1"
}
untimed_csv() {  # FILE: a CSV without the timed columns (kept: collective … count, type, wrong, …)
  awk -F, -v OFS=, '
    NR == 1 { for (i = 1; i <= NF; ++i) drop[i] = $i ~ /^(median_us|min_us|max_us|algbw_GBps|busbw_GBps|busbw_of_memcpy|vs_vendor|late_fraction)$/ }
    { line = ""; for (i = 1; i <= NF; ++i) if (!drop[i]) line = line (line == "" ? "" : OFS) $i; print line }' "$1"
}
# Paths that differ between two trees; and bench/'s files named in prose without their room (the
# rooms came with issue 52's moves: bench/model/price.hpp was bench/price.hpp).
paths() {
  sed -e "s|$smpi/|SMPI_BUILD/|g" -e "s|$build/|BUILD/|g" -e "s|$out/|OUT/|g" -e "s|$tmp/|TMP/|g" -e "s|$root/|ROOT/|g" \
    -E -e 's#bench/(measure|model|report|tools|tune|vendors|calibrate)/([a-z_]+\.[ch]pp)#bench/\2#g'
}
fails() {  # NAME COMMAND...: the command's stderr and exit status (it is meant to fail)
  local name=$1 status=0
  shift
  "$@" > /dev/null 2> "$tmp/err" || status=$?
  { paths < "$tmp/err"; echo "exit $status"; } > "$out/errors/$name.txt"
}

# collbench, real (Open MPI): every collective and algorithm at 8 B and 4 KiB, the three timings.
quick=(-b 8 -e 4K --step 512 -n 3 -w 1 --time-per-size 0 -q)
for np in 1 2 3 4; do
  "$run" -n "$np" "$build/bench/collbench" --list > "$out/collbench/list-np$np.txt"
done
for np in 2 3; do
  for timing in synchronized back-to-back imb; do
    batch=()
    [[ $timing == synchronized ]] || batch=(--batch 2)
    "$run" -n "$np" "$build/bench/collbench" "${quick[@]}" --timing "$timing" "${batch[@]}" -f json \
      --output "$tmp/run.json"
    real_json "$tmp/run.json" > "$out/collbench/np$np-$timing.json"
    "$run" -n "$np" "$build/bench/collbench" "${quick[@]}" --timing "$timing" "${batch[@]}" -f csv \
      --output "$tmp/run.csv"
    untimed_csv "$tmp/run.csv" > "$out/collbench/np$np-$timing.csv"
  done
done
"$run" -n 3 "$build/bench/collbench" "${quick[@]}" -t int32 -o max -r 2 --skew 0.5 -f json --output "$tmp/run.json"
real_json "$tmp/run.json" > "$out/collbench/np3-int32-max-root2-skew.json"
"$run" -n 2 "$build/bench/collbench" "${quick[@]}" -c allreduce,broadcast,alltoallv -a library,vendor:all \
  --model -f json --output "$tmp/run.json"
real_json "$tmp/run.json" > "$out/collbench/np2-model.json"

# collbench, simulated (SMPI): priced and simulated on fixed platforms, the model's figures kept.
"$simulate" -n 8 "$smpi/bench/collbench" --list > "$out/collbench/simulated-list-np8.txt"
# At np 8 every vendor:<name> row too; at other counts SMPI's own algorithms may abort, so the
# emulations and the selections only.
for case in "fat-tree-256 8 all" "fat-tree-256 17 library,vendor:ompi41,vendor:ompi,vendor:mpich" \
  "multicore-64x16 20 library,vendor:ompi41,vendor:ompi,vendor:mpich"; do
  read -r platform np algorithms <<< "$case"
  "$simulate" --benchmark --platform "$in/$platform.xml" -n "$np" "$smpi/bench/collbench" "${quick[@]}" \
    -a "$algorithms" --model -f json --output "$tmp/run.json"
  simulated_json "$tmp/run.json" > "$out/collbench/simulated-$platform-np$np.json"
done
"$simulate" --benchmark --platform "$in/fat-tree-256.xml" -n 8 "$smpi/bench/collbench" "${quick[@]}" \
  -c allreduce,alltoall --model -f csv --output "$tmp/run.csv"
untimed_csv "$tmp/run.csv" > "$out/collbench/simulated-fat-tree-256-np8.csv"

# The pictures in logical time (one unit per send or receive), np 4 and 5, every algorithm.
for np in 4 5; do
  mkdir -p "$out/draw/np$np"
  (cd "$out/draw/np$np" && "$run" -n "$np" "$build/bench/collbench" --draw all --draw-time logical \
    --draw-dir . > ../np$np.txt)
done

# Error messages a user meets (singleton launches of the Open MPI build).
fails collbench-collective "$build/bench/collbench" -c bogus
fails collbench-type "$build/bench/collbench" -t complex
fails collbench-op "$build/bench/collbench" -o avg
fails collbench-algorithm "$build/bench/collbench" -c allreduce -a bruck
fails collbench-vendor "$build/bench/collbench" -c allreduce -a vendor:bogus
fails collbench-batch "$build/bench/collbench" --batch 2
fails collbench-bytes "$build/bench/collbench" -b 1M -e 8
fails collbench-step "$build/bench/collbench" --step 3
fails colltune-model-run "$build/bench/colltune" --out "$tmp/t.json" "$in/runs/np2-model.json"
fails colltune-no-platform "$build/bench/colltune" --model "$tmp/none.xml" --np 4 --out "$tmp/t.json"
fails collreport-not-json "$build/bench/collreport" --out "$tmp/r" "$in/fat-tree-256.xml"
fails collcalibrate-disturbed "$build/bench/collcalibrate" fit "$in/calibrate/disturbed-two-nodes.json" \
  --topology fat-tree:4 --output "$tmp/d.xml"
fails collcalibrate-dragonfly "$build/bench/collcalibrate" fit "$in/calibrate/tcp-two-nodes.json" \
  --topology "dragonfly:16,2;4,2;4,1;4" --output "$tmp/d.xml"

# colltune: a table priced on the platforms, and tables from the stored runs.
no_date() { jq -S 'walk(if type == "object" then del(.date, .seconds) else . end)' "$1"; }  # nor time taken
"$build/bench/colltune" --model "$in/fat-tree-256.xml" "$in/fat-tree-1024.xml" --np 2 3 16 17 64 100 256 \
  --min-bytes 8 --max-bytes 16777216 --step 8 --threads 2 --out "$tmp/t.json" 2> /dev/null
no_date "$tmp/t.json" > "$out/colltune/model-fat-trees.json"
"$build/bench/colltune" --model "$in/multicore-64x16.xml" --np 16 20 64 -c allreduce,alltoallv,broadcast \
  --min-bytes 8 --max-bytes 1048576 --step 8 --out "$tmp/t.json" 2> /dev/null
no_date "$tmp/t.json" > "$out/colltune/model-multicore.json"
"$build/bench/colltune" --out "$tmp/t.json" --options "-b 8 -e 4K" --command "identical_outputs.sh" \
  "$in"/runs/np[23]-run*.json 2>&1 | paths > "$out/colltune/measured-all-timings.txt"
no_date "$tmp/t.json" > "$out/colltune/measured-all-timings.json"
"$build/bench/colltune" --out "$tmp/t.json" "$in/runs/np2-run1.json" "$in/runs/np2-run2.json" 2> /dev/null
no_date "$tmp/t.json" > "$out/colltune/measured-np2-synchronized.json"

# collcalibrate: platforms fitted to the stored measurements, and a simulated measurement.
fit() {  # NAME MEASUREMENT ARGS...
  local name=$1 measurement=$2
  shift 2
  "$build/bench/collcalibrate" fit "$measurement" --output "$out/collcalibrate/$name.xml" "$@" \
    > "$out/collcalibrate/$name.txt" 2>&1
  for f in "$out/collcalibrate/$name".{xml,txt}; do
    paths < "$f" > "$tmp/log" && mv "$tmp/log" "$f"
  done
}
fit tcp-fat-tree-4 "$in/calibrate/tcp-two-nodes.json" --topology fat-tree:4
fit tcp-second-fat-tree-16 "$in/calibrate/tcp-two-nodes-second.json" --topology fat-tree:16 --cores-per-node 4
fit tcp-torus "$in/calibrate/tcp-two-nodes.json" --topology torus:2x2x2 --rendezvous-transfer ping-pong
fit tcp-dragonfly "$in/calibrate/tcp-two-nodes.json" --topology "dragonfly:2,1;1,1;2,1;2" \
  --on-node "$in/calibrate/tcp-two-nodes-second.json"
"$simulate" --platform "$in/calibrate/known.xml" -n 2 "$smpi/bench/collcalibrate" measure -e 1M --step 4 \
  --time-per-size 0.01 -o "$tmp/measured.json" > /dev/null 2>&1
jq -S 'del(.command, .date?)' "$tmp/measured.json" > "$out/collcalibrate/simulated-known-measure.json"
"$build/bench/collcalibrate" fit "$tmp/measured.json" --topology fat-tree:2 --output "$tmp/fitted.xml" > /dev/null 2>&1
paths < "$tmp/fitted.xml" > "$out/collcalibrate/simulated-known-fit.xml"
"$simulate" -n 1 "$smpi/bench/collcalibrate" compare "$in/calibrate/known.xml" "$tmp/fitted.xml" \
  --sizes "$tmp/measured.json" --within 0.05 2>&1 | paths > "$out/collcalibrate/simulated-known-compare.txt"

# collreport from the stored runs: as written, and repriced with this build's model.
report() {  # NAME ARGS...
  local name=$1
  shift
  "$build/bench/collreport" --out "$out/collreport/$name" "$@" > /dev/null 2>&1
  find "$out/collreport/$name" -type f | while read -r f; do
    grep -Iq . "$f" || continue  # text files only
    paths < "$f" > "$tmp/log" && mv "$tmp/log" "$f"
  done
}
report runs "$in/runs/np2-run1.json" "$in/runs/np3-run1.json"
report back-to-back "$in/runs/np2-run1-back-to-back.json" "$in/runs/np3-run1-imb.json"
report reprice --reprice "$in/runs/np2-model.json"

# collsimcheck: a simulated run against the real ones.
"$build/bench/collsimcheck" "2x1=$in/runs/np2-run1.json+$in/runs/np2-run2.json,$in/runs/simulated-np2.json" \
  2>&1 | paths > "$out/collsimcheck/np2.md"
"$build/bench/collsimcheck" --vendor-row '' "2x1=$in/runs/np2-run1.json,$in/runs/simulated-np2.json" \
  2>&1 | paths > "$out/collsimcheck/np2-no-vendor-row.md"
echo "identical_outputs: $(find "$out" -type f | wc -l) files in $out"
