#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every command the docs tell a user to run has a test that runs it: checks the ledger
# (tests/docs/commands.txt) against the ```sh blocks of the docs (tests/docs/commands.awk) and
# against the tests CTest has. Fails, naming the file and the line, on
#   - a documented command the ledger does not list (no test runs it);
#   - a ledger command no doc shows any more;
#   - a ledger test its part's build tree does not have (ctest -N of each tree given with --build;
#     a part without a tree given: the test must be registered in tests/docs/CMakeLists.txt), a
#     part that is none of openmpi, smpi and mpich, or a test listed under two parts;
#   - a not-run command without the comment above it that says why;
#   - a docs.* test of a tree given whose commands the ledger does not list.
# Usage: tests/docs/check.sh [--root DIR] [--ledger FILE] [--build DIR]...
#   --root DIR     the tree whose docs are read (default: this source tree)
#   --ledger FILE  the ledger (default: tests/docs/commands.txt of this source tree)
#   --build DIR    a build tree; its part is its COLLECTIVES_MPI (repeat for several)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_root=$(cd "$here/../.." && pwd)
root=$source_root ledger=$source_root/tests/docs/commands.txt builds=()
while (($#)); do
  case $1 in
    --root) root=${2:?--root needs a directory}; shift ;;
    --ledger) ledger=${2:?--ledger needs a file}; shift ;;
    --build) builds+=("${2:?--build needs a directory}"); shift ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "check.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The documented commands: FILE LINE command TEXT.
(cd "$root" && awk -f "$here/commands.awk" README.md docs/*.md bench/README.md CONTRIBUTING.md) |
  awk -F'\t' '$3 == "command"' > "$work/documented"

# The tests of each tree given: PART TEST.
: > "$work/registered"
for build in "${builds[@]}"; do
  part=$(sed -n 's/^COLLECTIVES_MPI:STRING=//p' "$build/CMakeCache.txt")
  [[ -n $part ]] || { echo "check.sh: $build: no COLLECTIVES_MPI in its CMakeCache.txt" >&2; exit 2; }
  ctest --test-dir "$build" -N | sed -n "s/^ *Test *#[0-9]*: \([^ ]*\).*/$part \1/p" >> "$work/registered"
  echo "$part" >> "$work/parts"
done
touch "$work/parts"
# The docs tests tests/docs/CMakeLists.txt registers, for the parts without a tree: PART TEST.
awk '
  /^[ \t]*if\(COLLECTIVES_MPI STREQUAL "[a-z]+"/ { match($0, /"[a-z]+"/); part = substr($0, RSTART + 1, RLENGTH - 2) }
  /^[ \t]*docs_test\(/ { line = $0; sub(/^[ \t]*docs_test\([ \t]*/, "", line); split(line, w, /[ \t)]/); print part, w[1] }
' "$root/tests/docs/CMakeLists.txt" > "$work/declared"

awk -F'\t' -v ledger_name="${ledger#"$root"/}" -v work="$work" '
  FILENAME ~ /documented$/ { doc[$4] = doc[$4] ? doc[$4] : $1 ":" $2; docs[++n] = $4; where[n] = $1 ":" $2; next }
  FILENAME ~ /registered$/ { split($0, w, " "); have[w[1] " " w[2]] = 1; tree[w[1]] = 1; if (w[2] ~ /^docs\./) docs_test[w[1] " " w[2]] = 1; next }
  FILENAME ~ /declared$/ { split($0, w, " "); declared[w[1] " " w[2]] = 1; next }
  FILENAME ~ /parts$/ { next }
  # The ledger.
  /^[ \t]*#/ { commented = 1; next }
  /^[ \t]*$/ { commented = 0; next }
  {
    if (!match($0, /^[^ \t]+[ \t]+[^ \t]+[ \t]+/)) {
      printf "%s:%d: not TEST PART COMMAND: %s\n", ledger_name, FNR, $0; bad++; next
    }
    split($0, w, /[ \t]+/)
    test = w[1]; part = w[2]; command = substr($0, RLENGTH + 1)
    at = ledger_name ":" FNR
    if (command in listed) { printf "%s: `%s` is listed already, at %s\n", at, command, listed[command]; bad++ }
    listed[command] = at
    if (!(command in doc)) {
      printf "%s: `%s`: no doc shows this command any more (remove the line, or list the command as the docs now show it)\n", at, command; bad++
    }
    if (test == "not-run") {
      if (part != "-") { printf "%s: a not-run command has part \"-\", not \"%s\"\n", at, part; bad++ }
      if (!commented) { printf "%s: not-run `%s` needs the comment above it that says why\n", at, command; bad++ }
      next
    }
    commented = 0
    if (part != "openmpi" && part != "smpi" && part != "mpich") {
      printf "%s: part \"%s\": openmpi, smpi or mpich\n", at, part; bad++; next
    }
    if (test in part_of && part_of[test] != part) {
      printf "%s: %s is in part %s at %s\n", at, test, part_of[test], first_at[test]; bad++
    }
    if (!(test in part_of)) { part_of[test] = part; first_at[test] = at }
    used[part " " test] = 1
    if (part in tree) {
      if (!((part " " test) in have)) { printf "%s: %s: the %s build tree has no such test (ctest -N)\n", at, test, part; bad++ }
    } else if (test ~ /^docs\./ && !((part " " test) in declared)) {
      printf "%s: %s: tests/docs/CMakeLists.txt registers no such test for part %s\n", at, test, part; bad++
    }
  }
  END {
    for (i = 1; i <= n; i++) if (!(docs[i] in listed)) {
      printf "%s: `%s`: no test runs this command (list it in %s: the test that runs it, its part, the command)\n", where[i], docs[i], ledger_name
      bad++
    }
    for (key in docs_test) if (!(key in used) && key !~ / docs\.commands/) {
      split(key, w, " "); printf "%s: test %s of part %s runs no command of the ledger\n", ledger_name, w[2], w[1]; bad++
    }
    if (bad) { printf "check.sh: %d problem(s); the ledger is %s\n", bad, ledger_name; exit 1 }
    printf "check.sh: %d documented commands, each listed in %s\n", n, ledger_name
  }
' "$work/documented" "$work/registered" "$work/declared" "$work/parts" "$ledger"
