#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/dropin_overhead.sh end to end, short (np 2, 2 rounds of 50 calls): its summary holds the
# four ratios the drop-in is held to, each a number — served ÷ C++ call (automatic and naive),
# forwarded ÷ PMPI_Allreduce, forwarded by fastest ÷ PMPI_Allreduce. Speed is the benchmark's
# business: no figure is judged here.
# Usage: dropin_overhead_test.sh BUILD-DIR
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
out=$(bash "$here/../dropin_overhead.sh" "$build" 2 2 50)
echo "$out"
summary=$(sed -n '/^summary/,$p' <<< "$out")
count() { grep -cE "^  $1 \(target ≤ [0-9.]+\) +[0-9]+\.[0-9]+ " <<< "$summary" || true; }
fail() { echo "dropin_overhead_test.sh: FAILED: $*" >&2; exit 1; }
[[ $(count 'served ÷ C\+\+ call') -eq 2 ]] || fail "expected two 'served ÷ C++ call' ratios"
[[ $(count 'forwarded ÷ PMPI_Allreduce') -eq 1 ]] || fail "expected one 'forwarded ÷ PMPI_Allreduce' ratio"
[[ $(count 'forwarded by fastest ÷ PMPI_Allreduce') -eq 1 ]] ||
  fail "expected one 'forwarded by fastest ÷ PMPI_Allreduce' ratio"
