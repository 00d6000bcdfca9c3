#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The layers of the tree, by their includes; a room includes only from its own layer's rooms and below:
#
#   bench/, tests/, examples/                          on top: include anything below
#   src/pmpi   src/schedule                            the drop-in; the schedules (not each other)
#   src/dispatch                                       chooses and runs the algorithms
#   src/algorithms                                     one file per algorithm
#   src/ops  ->  src/kit                               kernels and types; what algorithms are made of
#   include/collectives                                the public API: includes nothing from src/
#
# Fails on an include that runs up or sideways (e.g. src/kit including "algorithms/…" or
# "dispatch/…"), and on a room of src/ the picture does not name. No build needed, no MPI.
# Usage: tests/layers_test.sh [SOURCE_DIR]
set -euo pipefail
root=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
declare -A allowed=(
  [include/collectives]="collectives"
  [src/kit]="collectives kit"
  [src/ops]="collectives kit ops"
  [src/algorithms]="collectives kit ops algorithms"
  [src/dispatch]="collectives kit ops algorithms dispatch"
  [src/schedule]="collectives kit ops algorithms dispatch schedule"
  [src/pmpi]="collectives kit ops algorithms dispatch pmpi"
)
rooms="collectives kit ops algorithms dispatch schedule pmpi"
failures=0
for dir in "$root"/src/*/; do
  room=src/$(basename "$dir")
  [[ -n ${allowed[$room]:-} ]] || {
    echo "layers_test: $room is not in the picture (tests/layers_test.sh): give it a layer" >&2
    failures=$((failures + 1))
  }
done
for room in "${!allowed[@]}"; do
  [[ -d $root/$room ]] || continue
  # Every include of the room's files: "path" always, <path> when it names one of the rooms.
  while IFS=: read -r file line text; do
    target=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]([^">]+)[">].*/\1/' <<< "$text")
    quoted=0
    [[ $text =~ \#[[:space:]]*include[[:space:]]*\" ]] && quoted=1
    first=${target%%/*}
    [[ $target == */* ]] || first=""
    if ((quoted == 0)) && [[ " $rooms " != *" $first "* ]]; then
      continue
    fi
    if [[ -z $first || " ${allowed[$room]} " != *" $first "* ]]; then
      echo "layers_test: ${file#"$root"/}:$line includes \"$target\": $room includes only from ${allowed[$room]// /, }" >&2
      failures=$((failures + 1))
    fi
  done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' "$root/$room" || true)
done
((failures == 0)) || {
  echo "layers_test: $failures includes against the layers" >&2
  exit 1
}
echo "layers_test: every include of include/ and src/ runs down the layers"
