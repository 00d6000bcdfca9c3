#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs one drop-in test and checks what a C program cannot check from inside: exit status,
# messages, the report. Usage:
#   check.sh <what> <np> <libcollectives_mpi.so> <dropin_test> [extra]
# what: matrix (preloaded; COLLECTIVES_ALGORITHMS from the environment) | linked (extra = the
#       test linked with the drop-in) | errors | fatal | threads | report | sizes | star | tuning | fastest |
#       bad_selection | radix | reuse | repeat | help (extra: collbench, whose --list must agree) | hpcc
set -euo pipefail
what=$1 np=$2 lib=$3 prog=$4
here=$(cd "$(dirname "$0")" && pwd)
run="$here/../../scripts/mpirun/run"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check.sh $what: FAILED: $*" >&2; exit 1; }
# A sanitizer build's drop-in needs the ASan runtime loaded first, before the drop-in itself.
asan=$(ldd "$lib" | awk '$1 ~ /^libasan\.so/ { print $3 }')
# The drop-in (and, in a sanitizer build, the sanitizer runtime it needs first) goes into the ranks
# only, not into the launcher: LeakSanitizer preloaded into mpiexec itself crashes at its exit
# ("Tracer caught signal 11") on Open MPI 4.1's threads.
preload() {
  local program=$1
  shift
  "$run" -n "$np" env LD_PRELOAD="${asan:+$asan:}$lib${LD_PRELOAD:+:$LD_PRELOAD}" "$program" "$@"
}

# Under the report's row for function $1 served or forwarded as $2, the size-range row $3 with $4
# calls and $5 bytes (the indented rows that follow it).
expect_range() {
  awk -v f="$1" -v h="$2" -v r="$3" -v c="$4" -v b="$5" '
    index($0, f " ") == 1 { inside = index($0, " " h " ") > 0; next }
    inside && /^ / {
      line = $0; sub(/^ +/, "", line)
      if (index(line, r " ") == 1) { split(substr(line, length(r) + 1), n, " "); if (n[1] == c && n[2] == b) found = 1 }
      next
    }
    { inside = 0 }
    END { exit !found }' "$work/report.txt" || { cat "$work/report.txt"; fail "no row '$3 $4 $5' under '$1 $2'"; }
}

case $what in
  matrix | errors | threads | repeat)
    mode=$what
    preload "$prog" "$mode"
    ;;
  linked)
    "$run" -n "$np" "$5" matrix
    ;;
  fatal)
    # MPI_ERRORS_ARE_FATAL: the job stops, non-zero, with the drop-in's message.
    if preload "$prog" fatal >"$work/out" 2>&1; then cat "$work/out"; fail "the job did not stop"; fi
    grep -q "collectives_mpi: MPI_Bcast on rank .*: root = $((np + 3)) is not a rank in \[0, $np)" "$work/out" ||
      { cat "$work/out"; fail "no message naming the bad root"; }
    ;;
  bad_selection)
    # Every rank prints one line naming the entry and the valid choices; the program never runs.
    if COLLECTIVES_ALGORITHMS='broadcast=binomial,allreduce=bogus' preload "$prog" matrix >"$work/out" 2>&1; then
      cat "$work/out"; fail "the job did not stop"
    fi
    want="collectives_mpi: COLLECTIVES_ALGORITHMS entry 'allreduce=bogus': allreduce has no algorithm 'bogus'; valid: automatic, vendor, naive, ring,"
    [ "$(grep -cF "$want" "$work/out")" -eq "$np" ] || { cat "$work/out"; fail "expected the line once per rank: $want"; }
    ! grep -q "dropin_test matrix" "$work/out" || fail "the program ran"
    ;;
  radix)
    # Entries algorithm:k run the radix-k algorithms at k (the matrix passes); a radix that is not a
    # whole number of at least 2, one an algorithm does not take, one not a power of two where it
    # must be, or one above MPI_COMM_WORLD's size stops the job with one line per rank.
    COLLECTIVES_ALGORITHMS="broadcast=knomial:3,reduce=knomial:2,gather=knomial:$np,scatter=knomial:3,\
allreduce=recursive_multiplying:2,allgather=recursive_multiplying:2,barrier=k_dissemination:$np" preload "$prog" matrix
    for case in "broadcast=knomial:1|entry 'broadcast=knomial:1': the radix after ':' must be a whole number of at least 2" \
      "broadcast=knomial:x|entry 'broadcast=knomial:x': the radix after ':' must be a whole number" \
      "broadcast=binomial:4|entry 'broadcast=binomial:4': broadcast binomial takes no radix" \
      "allreduce=recursive_multiplying:3|allreduce recursive_multiplying takes a power of two as its radix, given 3" \
      "*=knomial:$((np + 6))|broadcast knomial takes a radix from 2 to the $np ranks of MPI_COMM_WORLD, given $((np + 6))"; do
      entry=${case%%|*} want=${case#*|}
      if COLLECTIVES_ALGORITHMS=$entry preload "$prog" matrix >"$work/out" 2>&1; then
        cat "$work/out"; fail "$entry: the job did not stop"
      fi
      [ "$(grep -cF "$want" "$work/out")" -eq "$np" ] || { cat "$work/out"; fail "$entry: expected once per rank: $want"; }
      ! grep -q "dropin_test matrix" "$work/out" || fail "$entry: the program ran"
    done
    ;;
  help)
    # COLLECTIVES_ALGORITHMS=help: rank 0 prints the syntax and every collective's algorithms, then
    # every rank exits 0 before the program runs (settings.hpp, exit_with_help).
    COLLECTIVES_ALGORITHMS=' help ' preload "$prog" matrix >"$work/out" 2>"$work/err" ||
      { cat "$work/out" "$work/err"; fail "the job did not exit 0"; }
    cat "$work/out"
    ! grep -q "dropin_test matrix" "$work/out" "$work/err" || fail "the program ran"
    [ "$(grep -c '^COLLECTIVES_ALGORITHMS: ' "$work/out")" -eq 1 ] || fail "expected the help once (rank 0 only)"
    grep -E '^[a-z_]+:( [a-z_]+)+$' "$work/out" >"$work/lines"
    [ "$(wc -l <"$work/lines")" -eq 16 ] || fail "expected one line per collective (16)"
    grep -qx 'allreduce: vendor naive ring recursive_doubling rabenseifner hierarchical swing_bandwidth swing_latency recursive_multiplying' "$work/lines" ||
      fail "no line 'allreduce: vendor naive ring recursive_doubling rabenseifner hierarchical swing_bandwidth swing_latency recursive_multiplying'"
    grep -qx 'barrier: vendor naive binomial dissemination recursive_doubling k_dissemination' "$work/lines" ||
      fail "no line 'barrier: vendor naive binomial dissemination recursive_doubling k_dissemination'"
    grep -q 'fastest' "$work/out" && grep -q 'automatic' "$work/out" && grep -q '\*' "$work/out" ||
      fail "the help does not explain automatic, fastest and *"
    # collbench --list prints the same lines, plus the MPI library's internal algorithms (vendor:<name>).
    if [ -n "${5:-}" ]; then
      "$run" -n 1 "$5" --list >"$work/list"
      grep -E '^[a-z_]+:' "$work/list" | sed -E 's/ vendor:[^ ]+//g' | diff "$work/lines" - ||
        fail "collbench --list and COLLECTIVES_ALGORITHMS=help differ"
    fi
    ;;
  report)
    # Known calls (see run_report in dropin_test.c), with reduce forwarded by choice.
    sel='reduce=vendor,allreduce=ring,barrier=dissemination,scan=naive,exscan=recursive_doubling'
    sel+=',gatherv=naive,scatterv=binomial,allgatherv=ring,alltoallv=pairwise,reduce_scatterv=recursive_halving'
    COLLECTIVES_ALGORITHMS=$sel COLLECTIVES_MPI_REPORT="$work/report.txt" preload "$prog" report
    cat "$work/report.txt"
    expect() { grep -Eq "^$1 +$2 +$3 " "$work/report.txt" || fail "no report row '$1 $2 $3'"; }
    expect MPI_Allreduce "served: ring" 3
    expect MPI_Bcast "served: naive" 2  # automatic's rule at np ≤ 4 below 512 B (src/dispatch/automatic-table.json)
    expect MPI_Reduce "forwarded: vendor chosen" 1
    expect MPI_Allreduce "forwarded: op" 1
    expect MPI_Barrier "served: dissemination" 1
    expect MPI_Scan "served: naive" 1
    expect MPI_Exscan "served: recursive_doubling" 1
    expect MPI_Gatherv "served: naive" 1
    expect MPI_Scatterv "served: binomial" 1
    expect MPI_Allgatherv "served: ring" 1
    expect MPI_Alltoallv "served: pairwise" 1
    expect MPI_Reduce_scatter "served: recursive_halving" 1
    [ "$np" -gt 1 ] && expect MPI_Allreduce "forwarded: intercommunicator" 1
    rows=$(grep -cE '^MPI_' "$work/report.txt")
    [ "$rows" -eq $([ "$np" -gt 1 ] && echo 13 || echo 12) ] || fail "$rows rows, expected only the calls made"
    # Times in µs; each row broken down by the bytes of each call (20 B here: the first range).
    grep -q "mean time (µs) *max time (µs)" "$work/report.txt" || fail "the times are not in µs"
    expect_range MPI_Allreduce "served: ring" "[0, 1 KiB)" 3 $((3 * 20 * np))
    expect_range MPI_Bcast "served: naive" "[0, 1 KiB)" 2 $((2 * 20 * np))
    ;;
  sizes)
    # One row per size range with calls in it, under the function's row (dropin_test sizes).
    COLLECTIVES_ALGORITHMS=allreduce=ring COLLECTIVES_MPI_REPORT="$work/report.txt" preload "$prog" sizes
    cat "$work/report.txt"
    grep -Eq "^MPI_Allreduce +served: ring +5 +$(((100 + 2 * 4096 + 102400 + 2097152) * np)) " "$work/report.txt" ||
      fail "no total row 'MPI_Allreduce served: ring 5'"
    expect_range MPI_Allreduce "served: ring" "[0, 1 KiB)" 1 $((100 * np))
    expect_range MPI_Allreduce "served: ring" "[1 KiB, 64 KiB)" 2 $((2 * 4096 * np))
    expect_range MPI_Allreduce "served: ring" "[64 KiB, 1 MiB)" 1 $((102400 * np))
    expect_range MPI_Allreduce "served: ring" ">= 1 MiB" 1 $((2097152 * np))
    [ "$(grep -c '^ ' "$work/report.txt")" -eq 4 ] || fail "expected exactly 4 size rows"
    ;;
  star)
    # `*=name` sets exactly the collectives that have that algorithm; the others stay automatic.
    report() { COLLECTIVES_ALGORITHMS=$1 COLLECTIVES_MPI_REPORT="$work/report.txt" preload "$prog" report; }
    expect() { grep -Eq "^$1 +$2 +" "$work/report.txt" || { cat "$work/report.txt"; fail "$sel: no row '$1 $2'"; }; }
    sel='*=dissemination' && report "$sel"
    expect MPI_Barrier "served: dissemination"
    expect MPI_Allreduce "served: naive"  # automatic's rule at np 3 (few ranks, src/dispatch/automatic-table.json)
    expect MPI_Bcast "served: naive"  # automatic's rule at np 3 below 512 B
    sel='*=hierarchical' && report "$sel"
    for f in MPI_Bcast MPI_Reduce MPI_Allreduce; do expect $f "served: hierarchical"; done
    expect MPI_Barrier "served: naive"  # automatic's rule at np 3
    expect MPI_Scan "served: naive"  # automatic's rule at np 3
    ;;
  tuning)
    # The drop-in's automatic follows COLLECTIVES_TUNING (it chooses through the library's own
    # function): a table naming what the rule would not pick at this np.
    printf '%s' '{"format": "collectives-tuning/1", "collectives": {
      "allreduce": {"'"$np"'": [{"min_bytes": 0, "max_bytes": null, "algorithm": "ring"}]},
      "scan": {"'"$np"'": [{"min_bytes": 0, "max_bytes": null, "algorithm": "recursive_doubling"}]}}}' >"$work/t.json"
    COLLECTIVES_TUNING="$work/t.json" COLLECTIVES_MPI_REPORT="$work/report.txt" preload "$prog" report
    expect() { grep -Eq "^$1 +$2 +" "$work/report.txt" || { cat "$work/report.txt"; fail "no row '$1 $2'"; }; }
    expect MPI_Allreduce "served: ring"
    expect MPI_Scan "served: recursive_doubling"
    printf '{"format": "collectives-tuning/1", "collectives": {"allreduce": {"%s": [%s]}}}' "$np" \
      '{"min_bytes": 0, "max_bytes": null, "algorithm": "vendor"}' >"$work/bad.json"
    if COLLECTIVES_TUNING="$work/bad.json" preload "$prog" report >"$work/out" 2>&1; then
      fail "a table naming vendor was accepted"
    fi
    grep -q "bad.json: collectives.allreduce.\"$np\"\[0\]: automatic never chooses 'vendor'" "$work/out" ||
      { cat "$work/out"; fail "the refusal does not name the file, the entry and the problem"; }
    ;;
  fastest)
    # `*=fastest`: per call, the MPI library where the table's "fastest" section says vendor, the
    # library (automatic's choice: the table's ring) elsewhere; the report tells the paths apart, and
    # its bytes (each rank's vector, summed over ranks) tie them to the sizes of dropin_test fastest.
    printf '%s' '{"format": "collectives-tuning/1",
      "collectives": {"allreduce": {"'"$np"'": [{"min_bytes": 0, "max_bytes": null, "algorithm": "ring"}]}},
      "fastest": {"allreduce": {"'"$np"'": [{"min_bytes": 0, "max_bytes": 63, "fastest": "vendor"},
        {"min_bytes": 64, "max_bytes": 4095, "fastest": "library"},
        {"min_bytes": 4096, "max_bytes": null, "fastest": "vendor"}]}}}' >"$work/t.json"
    expect() { grep -Eq "^$1 +$2 +$3 +$4 " "$work/report.txt" || { cat "$work/report.txt"; fail "$sel: no row '$1 $2 $3 $4'"; }; }
    rows() { [ "$(grep -cE '^MPI_' "$work/report.txt")" -eq "$1" ] || { cat "$work/report.txt"; fail "$sel: expected $1 rows"; }; }
    sel='*=fastest'
    COLLECTIVES_ALGORITHMS=$sel COLLECTIVES_TUNING="$work/t.json" COLLECTIVES_MPI_REPORT="$work/report.txt" \
      preload "$prog" fastest
    expect MPI_Allreduce "forwarded: vendor fastest" 3 $(((2 * 20 + 8000) * np))
    expect MPI_Allreduce "served: ring" 3 $((3 * 400 * np))
    expect MPI_Bcast "served: naive" 1 $((20 * np))  # automatic's rule at np 3 (src/dispatch/automatic-table.json)
    rows 3
    # The forwarded calls in two size ranges, the served ones in one.
    expect_range MPI_Allreduce "forwarded: vendor fastest" "[0, 1 KiB)" 2 $((2 * 20 * np))
    expect_range MPI_Allreduce "forwarded: vendor fastest" "[1 KiB, 64 KiB)" 1 $((8000 * np))
    expect_range MPI_Allreduce "served: ring" "[0, 1 KiB)" 3 $((3 * 400 * np))
    grep -q "COLLECTIVES_ALGORITHMS=\*=fastest, COLLECTIVES_TUNING=$work/t.json" "$work/report.txt" ||
      fail "the report's header does not name the table"
    # One collective, with a table written before the tuner measured vendor: automatic's choice
    # (the table's ring) serves every call, none is forwarded.
    printf '{"format": "collectives-tuning/1", "collectives": {"allreduce": {"%s": [%s]}}}' "$np" \
      '{"min_bytes": 0, "max_bytes": null, "algorithm": "ring"}' >"$work/old.json"
    sel='allreduce=fastest'
    COLLECTIVES_ALGORITHMS=$sel COLLECTIVES_TUNING="$work/old.json" COLLECTIVES_MPI_REPORT="$work/report.txt" \
      preload "$prog" fastest
    expect MPI_Allreduce "served: ring" 6 $(((2 * 20 + 3 * 400 + 8000) * np))
    rows 2
    # No table, or a malformed one: the job stops at MPI_Init, one line per rank, before the program.
    if COLLECTIVES_ALGORITHMS='*=fastest' preload "$prog" fastest >"$work/out" 2>&1; then
      cat "$work/out"; fail "*=fastest without COLLECTIVES_TUNING: the job did not stop"
    fi
    want="collectives_mpi: COLLECTIVES_ALGORITHMS entry '*=fastest': needs the decision table of this machine, and COLLECTIVES_TUNING is not set"
    [ "$(grep -cF "$want" "$work/out")" -eq "$np" ] || { cat "$work/out"; fail "expected the line once per rank: $want"; }
    ! grep -q "dropin_test fastest" "$work/out" || fail "the program ran without a table"
    sed 's/"library"/"ring"/' "$work/t.json" >"$work/bad.json"
    if COLLECTIVES_ALGORITHMS='*=fastest' COLLECTIVES_TUNING="$work/bad.json" preload "$prog" fastest >"$work/out" 2>&1; then
      cat "$work/out"; fail "*=fastest with a malformed table: the job did not stop"
    fi
    grep -q "bad.json: fastest.allreduce.\"$np\"\[1\]: \"fastest\" must be \"vendor\" or \"library\", given \"ring\"" "$work/out" ||
      { cat "$work/out"; fail "the refusal does not name the file, the entry and the problem"; }
    ;;
  reuse)
    # Freed and re-created user ops and derived datatypes (whose handles MPI may reuse), with
    # all-reduce on ring, which does not keep rank order: the non-commutative op must not be taken
    # for the commutative one whose handle it may have inherited.
    COLLECTIVES_ALGORITHMS=allreduce=ring preload "$prog" reuse
    ;;
  hpcc)
    exec "$here/hpcc.sh" "$np" "$lib"
    ;;
  *)
    fail "unknown check"
    ;;
esac
