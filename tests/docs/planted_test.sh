#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/docs/check.sh fails where it should: on a copy of the docs and the ledger that passes, a
# command planted in a doc's ```sh block that no test runs must fail the check, which names the
# command with its file and line; so must a ledger line whose command no doc shows, and a ledger
# test the build does not have.
# Usage: planted_test.sh <build-dir> <scratch-dir>
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$1 copy=$2/planted
fail() { echo "planted_test: $*" >&2; exit 1; }

fresh() {
  rm -rf "$copy"
  mkdir -p "$copy/docs" "$copy/bench" "$copy/tests/docs"
  cp "$root"/README.md "$root"/CONTRIBUTING.md "$copy/"
  cp "$root"/docs/*.md "$copy/docs/"
  cp "$root/bench/README.md" "$copy/bench/"
  cp "$root"/tests/docs/{commands.txt,CMakeLists.txt} "$copy/tests/docs/"
}
check() { bash "$here/check.sh" --root "$copy" --ledger "$copy/tests/docs/commands.txt" --build "$build"; }

fresh
check > "$2/planted.log" 2>&1 || { cat "$2/planted.log" >&2; fail "the unchanged copy does not pass"; }

# A command no test runs.
planted='bash scripts/mpirun/compare.sh --planted-by-docs-commands-planted'
printf '\nPlanted:\n\n```sh\n%s   # a comment\n```\n' "$planted" >> "$copy/docs/tuning.md"
line=$(grep -n -- '--planted-by-docs' "$copy/docs/tuning.md" | cut -d: -f1)
if check > "$2/planted.log" 2>&1; then fail "check.sh passes with a planted command no test runs"; fi
grep -qF "docs/tuning.md:$line: \`$planted\`: no test runs this command" "$2/planted.log" ||
  { cat "$2/planted.log" >&2; fail "check.sh does not name the planted command at docs/tuning.md:$line"; }

# A ledger line no doc shows, and a test the build does not have.
fresh
echo "docs.tuning  openmpi  bash scripts/mpirun/tune.sh --shown-by-no-doc" >> "$copy/tests/docs/commands.txt"
sed -i 's/^docs\.benchmark  \( *openmpi  scripts\/mpirun\/run -n 2 build\/bench\/call_overhead\)/docs.no_such_test\1/' \
  "$copy/tests/docs/commands.txt"
grep -q '^docs\.no_such_test ' "$copy/tests/docs/commands.txt" || fail "could not plant a test name"
if check > "$2/planted.log" 2>&1; then fail "check.sh passes with a stale ledger line and an unknown test"; fi
n=$(wc -l < "$copy/tests/docs/commands.txt")
grep -qF "commands.txt:$n: \`bash scripts/mpirun/tune.sh --shown-by-no-doc\`: no doc shows this command any more" \
  "$2/planted.log" || { cat "$2/planted.log" >&2; fail "check.sh does not name the stale ledger line $n"; }
grep -q "docs.no_such_test: the openmpi build tree has no such test" "$2/planted.log" ||
  { cat "$2/planted.log" >&2; fail "check.sh does not name the unknown test"; }
echo "planted_test: check.sh fails on each planted problem and names it"
