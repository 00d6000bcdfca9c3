#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# collbench --draw all in one launch: a PNG for every library algorithm of every collective (the
# names collbench --list gives, vendor's left out). Drawing also replays each trace, so this
# proves every algorithm's sends and receives match one to one with equal sizes.
# Usage: draw_all.sh <scripts/mpirun/run> <collbench> <np>
set -euo pipefail
run=$1 collbench=$2 np=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$run" -n "$np" "$collbench" --draw all --draw-dir "$dir" --draw-time logical -q
expected=0 missing=0
while read -r line; do
  coll=${line%%:*}
  for alg in ${line#*:}; do
    [[ $alg == vendor* ]] && continue
    expected=$((expected + 1))
    png=$dir/${coll}_${alg}_p$np.png
    if [[ ! -s $png || $(head -c 4 "$png" | od -An -c | tr -d ' ') != '211PNG' ]]; then
      echo "draw_all: no PNG for $coll:$alg at np $np ($png)" >&2
      missing=$((missing + 1))
    fi
  done
done < <("$run" -n 1 "$collbench" --list | grep -E '^[a-z_]+:')  # the collective lines only
[[ $expected -gt 40 ]] || { echo "draw_all: only $expected algorithms listed" >&2; exit 1; }
[[ $missing -eq 0 ]] || exit 1
echo "draw_all: $expected pictures at np $np"
