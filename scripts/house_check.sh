#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The house's targets, measured on the tree (run by hand; prints the figures, exit 1 if one is missed):
# functions over 80 lines in src/ and bench/ (clang-tidy's readability-function-size on a build's
# compile_commands.json, lines with blanks and comments; then pmccabe's, if installed, for what
# clang-tidy misses; a table may be among them: the reader judges); files under bench/ over 600
# lines; header comments over 15 lines (src/, include/, bench/); `case collective::` labels over
# src/ and bench/ (≤ 30); bench/'s .cpp and .hpp outside bench/tests/ ÷ src/'s .cpp, .hpp, .in (≤ 0.6).
# Usage: scripts/house_check.sh [BUILD_DIR] [--no-functions]
#   BUILD_DIR (default build-tidy) configured with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
#   -DCMAKE_UNITY_BUILD=OFF (a unity build's commands name the unity files) and the bench programs
#   on; configuring is enough. CLANG_TIDY (default clang-tidy) and JOBS (default 2) from the environment.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
build=${1:-build-tidy}
functions=1
[[ ${2:-} == --no-functions || ${1:-} == --no-functions ]] && functions=0
[[ ${1:-} == --no-functions ]] && build=build-tidy
missed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/house_check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tracked() { git ls-files -- "$@"; }

echo "## Functions over 80 lines (src/, bench/)"
if ((functions)); then
  [[ -f $build/compile_commands.json ]] || {
    echo "house_check: no $build/compile_commands.json (see the usage in the header)" >&2
    exit 2
  }
  jq -r '.[].file' "$build/compile_commands.json" | sed "s|^$root/||" | grep -E '^(src|bench)/' | sort -u \
    > "$tmp/sources"
  config='{Checks: "-*,readability-function-size", CheckOptions: [
    {key: readability-function-size.LineThreshold, value: 80},
    {key: readability-function-size.StatementThreshold, value: 1000000}]}'
  xargs -a "$tmp/sources" -P "${JOBS:-2}" -n 1 "${CLANG_TIDY:-clang-tidy}" -p "$build" --quiet \
    --config="$config" --header-filter="^$root/(src|bench)/" 2> /dev/null > "$tmp/tidy" || true
  # "file:line:col: warning: function 'name' exceeds …" then "file:line:col: note: N lines including …"
  awk -v root="$root/" '
    /warning: function .* exceeds recommended size/ { split($0, a, ":"); where = a[1] ":" a[2]; sub(root, "", where)
      match($0, /function .[^ ]+. exceeds/); name = substr($0, RSTART + 10, RLENGTH - 19) }
    /note: [0-9]+ lines including whitespace/ && where != "" { match($0, /note: [0-9]+/)
      print substr($0, RSTART + 6, RLENGTH - 6), where, name; where = "" }' "$tmp/tidy" |
    sort -u | sort -k1,1nr > "$tmp/long"
  # pmccabe (Debian's), where installed, adds what clang-tidy cannot see: functions made by a macro
  # (Boost.Test's cases) and those of files clang 14 does not compile (GCC-only C++20). Its count
  # takes in the line of the signature: one more than clang-tidy's.
  if command -v pmccabe > /dev/null; then
    tracked src bench | grep -E '\.(cpp|hpp)$' | xargs pmccabe -v 2> /dev/null |
      awk -F'\t' 'NR > 6 && $5 - 1 > 80 { split($6, a, /[():]+ */); print $5 - 1, a[1] ":" a[2], a[3] " (pmccabe)" }' |
      while read -r n where name; do
        grep -q " $where " "$tmp/long" || echo "$n $where $name"
      done >> "$tmp/long"
    sort -k1,1nr -o "$tmp/long" "$tmp/long"
  fi
  awk '{ printf "%5d  %s  %s%s\n", $1, $2, $3, ($4 == "" ? "" : " " $4) }' "$tmp/long"
  in_src=$(grep -c ' src/' "$tmp/long" || true)
  in_bench=$(grep -c ' bench/' "$tmp/long" || true)
  errors=$(grep -c ': error: ' "$tmp/tidy" || true)
  ((errors == 0)) || echo "house_check: clang-tidy met $errors compile errors, functions there may be missing:" \
    "$(grep ': error: ' "$tmp/tidy" | cut -d: -f1 | sed "s|^$root/||" | sort -u | xargs)" >&2
  echo "functions over 80 lines: $((in_src + in_bench)) (src/ $in_src, bench/ $in_bench; $(wc -l < "$tmp/sources") files read)"
  ((in_src + in_bench == 0)) || missed=1
else
  echo "(left out: --no-functions)"
fi

echo
echo "## Files under bench/ over 600 lines"
tracked bench | xargs wc -l | grep -v ' total$' | awk '$1 > 600 { printf "%5d  %s\n", $1, $2 }' | sort -nr |
  tee "$tmp/big"
echo "files over 600 lines: $(wc -l < "$tmp/big")"
[[ -s $tmp/big ]] && missed=1

echo
echo "## File header comments over 15 lines (src/, include/, bench/; src/algorithms/ apart)"
# The first comment block: // lines (C++) or # lines (shell, CMake), after the shebang, the SPDX line,
# #pragma once and blank lines. An algorithm's file opens with STYLE.md's block (steps, cost, order,
# limits, memory, paper): listed apart, not a miss.
header_lengths() {
  while read -r f; do
    awk -v f="$f" '
      BEGIN { cpp = f ~ /\.(cpp|hpp|h|in)$/ }
      !started && (/^#!/ || /SPDX-License-Identifier/ || /^#pragma once/ || /^[[:space:]]*$/) { next }
      cpp && /^[[:space:]]*\/\// { started = 1; n++; next }
      !cpp && /^#/ { started = 1; n++; next }
      { exit }
      END { if (n > 15) printf "%5d  %s\n", n, f }' "$f"
  done | sort -nr
}
tracked src include bench | grep -E '\.(cpp|hpp|h|in|sh|cmake)$|CMakeLists\.txt$' | grep -v '^src/algorithms/' |
  header_lengths | tee "$tmp/headers"
echo "headers over 15 lines: $(wc -l < "$tmp/headers")"
[[ -s $tmp/headers ]] && missed=1
tracked src/algorithms | grep -E '\.(cpp|hpp)$' | header_lengths > "$tmp/algorithm_headers"
echo "src/algorithms/: $(wc -l < "$tmp/algorithm_headers") files open with a block over 15 lines (the longest: $(head -1 "$tmp/algorithm_headers" | xargs))"

echo
echo "## case collective:: (src/, bench/)"
{ grep -rc 'case collective::' src bench || true; } | awk -F: '$2 > 0 { printf "%5d  %s\n", $2, $1 }' | sort -nr
cases=$(cat $(tracked src bench) | grep -c 'case collective::' || true)
echo "case collective:: labels: $cases (target ≤ 30)"
((cases <= 30)) || missed=1

echo
echo "## bench/ programs against the library"
bench_lines=$(tracked bench | grep -E '\.(cpp|hpp)$' | grep -v '^bench/tests/' | xargs cat | wc -l)
src_lines=$(tracked src | grep -E '\.(cpp|hpp|in)$' | xargs cat | wc -l)
ratio=$(echo "scale=3; $bench_lines / $src_lines" | bc)
echo "bench/ $bench_lines lines (.cpp, .hpp outside bench/tests/), src/ $src_lines (.cpp, .hpp, .in): ratio $ratio (target ≤ 0.6)"
for room in $(tracked bench src | grep -E '\.(cpp|hpp|in)$' | cut -d/ -f1-2 | grep / | sort -u); do
  [[ -d $room ]] || continue
  printf '%6d  %s/\n' "$(tracked "$room" | grep -E '\.(cpp|hpp|in)$' | xargs cat | wc -l)" "$room"
done
(($(echo "$ratio <= 0.6" | bc))) || missed=1
exit $missed
