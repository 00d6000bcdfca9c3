#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Regenerates the gallery docs/algorithms/: one picture per library algorithm at p = 4 and at
# p = 5 (non-powers of two fold, trees change shape), each drawn by
#   scripts/mpirun/run -n P build/bench/collbench --draw all --draw-time logical
# from a real traced run (one launch per p), and docs/algorithms/README.md listing them
# (collectives-lists print gallery).
# Usage: scripts/draw_gallery.sh [build-dir]   (default: build; collbench and collectives-lists
# must be built)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$root/docs/algorithms
collbench=$build/bench/collbench
lists=$build/tests/collectives-lists
for program in "$collbench" "$lists"; do
  [[ -x $program ]] || { echo "draw_gallery: $program not built" >&2; exit 1; }
done
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.gp
for np in 4 5; do
  "$root/scripts/mpirun/run" -n "$np" "$collbench" --draw all --draw-dir "$out" --draw-time logical -q
done
rm -f "$out"/*.gp  # the gnuplot scripts: regenerated with the pictures, not kept

{
  echo "# The algorithms, drawn from real runs"
  echo
  echo "Each picture is one traced call (4 elements per block, float, sum), drawn by"
  echo "\`scripts/draw_gallery.sh\` (\`collbench --draw all --draw-time logical\` at p = 4 and p = 5)."
  echo "Top: ranks as lanes, a box per send (blue), receive with its wait (green), reduction (orange) and"
  echo "copy (grey), an arrow per message labelled with the blocks it carries, on a logical time axis"
  echo "(each send or receive one unit; a receive ends one unit after its send starts), so the pictures do not"
  echo "depend on the machine's load. Bottom, for block algorithms: the state after each rank's k-th"
  echo "receive — which rank holds which block, and for reductions how many ranks' inputs it holds."
  echo "\`--draw-time real\` draws the measured times instead."
  echo
  "$lists" print gallery
} > "$out/README.md"
echo "draw_gallery: $(ls "$out"/*.png | wc -l) pictures in $out ($(du -sh "$out" | cut -f1))"
