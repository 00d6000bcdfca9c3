#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs one test's documented commands as the docs show them: the commands the ledger
# (tests/docs/commands.txt) lists for TEST, in its order, each taken from its doc (with its heredoc
# body, if any), in one bash with `set -e`, as a user would type them one after another. What
# differs from a user's shell, and nothing else:
#   - COLLECTIVES_SMOKE=1 (--no-smoke: unset): the scripts that measure measure the smallest size
#     only, for 0.05 s per size (each script's usage says what it does); so does collbench where
#     a command runs it: its largest size (-e, --max-bytes) becomes its smallest (-b, default 8)
#     and its time per size 0.05 s, but with --list or --draw, which measure nothing; and
#     colltune --model prices the smallest size only;
#   - placeholders: /opt/collectives and <prefix> are a scratch install prefix (into which the
#     test's build tree is installed first, unless a command of the test installs one);
#     ./app, ./my_app and your-program are docs_app (tests/docs/app.cpp) of the test's build
#     tree; results/<date>-NAME is the newest results/*-NAME an earlier command made; /tmp/ is
#     a scratch directory;
#   - files the docs assume: hosts (a hostfile of this machine, 8 slots, for the commands that
#     take one); mine.xml (the platform collectives-calibrate writes on a real cluster: here fitted
#     by calibrate.sh --from from a recorded measurement of two nodes, tests/calibrate/
#     tcp-two-nodes.json); build-nohooks (a build configured with -DCOLLECTIVES_TRACE_HOOKS=OFF,
#     as bench/trace_overhead.sh's line says);
#   - Open MPI's mpirun may run as root and oversubscribed (the variables docs/drop-in.md names).
# Where: a scratch copy of the source tree (its tracked and unignored files), so that what the
# commands write (results/, traces, tables) never lands in the checkout, with build/ and
# build-smpi/ pointing at the suite's own build trees (the commands use their programs); a test
# whose commands configure a build directory of their own gets it fresh in the copy. The SMPI
# set-up's commands (cmake -S . -B build-smpi …) run in the source tree itself, on the suite's own
# build-smpi/, which they reconfigure with what it has and find built. Compiles go through ccache
# where it is installed (as scripts/test.sh sets it up), with paths relative to the scratch area
# so that copies share their objects.
# Exits 77 (the test is skipped) where the machine lacks what the commands need: network
# namespaces, cross-memory attach, a build tree they name; or, from the first command that needs it
# on, a developer's tool the project does not install (valgrind, clang-format, jq).
#
# Usage: tests/docs/run.sh [--build DIR] [--work DIR] [--no-smoke] [--list] TEST
#   --build DIR  the test's build tree (default build/ of the source tree); its COLLECTIVES_MPI
#                is the test's part
#   --work DIR   the scratch area (default DIR/tests/docs/work/TEST; emptied first)
#   --no-smoke   COLLECTIVES_SMOKE unset (a command that is a smoke run already: compare.sh --quick)
#   --list       print the commands as they would run, and exit
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build work='' smoke=1 list=0 test=''
while (($#)); do
  case $1 in
    --build) build=${2:?--build needs a directory}; shift ;;
    --work) work=${2:?--work needs a directory}; shift ;;
    --no-smoke) smoke=0 ;;
    --list) list=1 ;;
    -h | --help) sed -n '3,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) test=$1 ;;
  esac
  shift
done
[[ -n $test ]] || { echo "run.sh: which test? (see --help)" >&2; exit 2; }
build=$(cd "$build" && pwd)
part=$(sed -n 's/^COLLECTIVES_MPI:STRING=//p' "$build/CMakeCache.txt")
work=${work:-$build/tests/docs/work/$test}
skip() { echo "run.sh: $test skipped: $*"; exit 77; }
fail() { echo "run.sh: $test: $*" >&2; exit 1; }

# The test's commands, from the ledger; each with its doc's text (heredoc bodies follow it).
mapfile -t commands < <(awk -v t="$test" '
  /^[ \t]*(#|$)/ { next }
  $1 == t { match($0, /^[^ \t]+[ \t]+[^ \t]+[ \t]+/); print substr($0, RLENGTH + 1) }' "$root/tests/docs/commands.txt")
((${#commands[@]})) || fail "the ledger (tests/docs/commands.txt) lists no command for it"
documented=$(cd "$root" && awk -f "$here/commands.awk" README.md docs/*.md bench/README.md CONTRIBUTING.md)

# What each test needs, and where it runs.
fresh=()        # build directories its commands configure themselves, fresh in the copy
in_source=0     # run in the source tree (the SMPI set-up: the suite's own build-smpi/)
needs=()        # netns cma openmpi-tree
case $test in
  docs.readme) fresh=(build) ;;
  docs.bench_by_hand) fresh=(build) ;;
  docs.cluster) needs=(netns) ;;
  docs.compare_shm) needs=(cma) ;;
  docs.simulation_setup) in_source=1 ;;
  docs.simulation_compare) needs=(openmpi-tree) ;;
  docs.simulation_check) needs=(netns openmpi-tree) ;;
esac
openmpi_tree=$root/build smpi_tree=$root/build-smpi
[[ $part == openmpi ]] && openmpi_tree=$build
[[ $part == smpi ]] && smpi_tree=$build
for need in "${needs[@]}"; do
  case $need in
    netns)
      [[ $(id -u) == 0 ]] && ip netns add collcl-docs-probe 2> /dev/null && ip netns del collcl-docs-probe ||
        skip "network namespaces are not allowed here (root with CAP_NET_ADMIN: docs/cluster.md)" ;;
    cma) [[ $(COLLECTIVES_SHM_COPY= "$root/scripts/mpirun/run" --which) == single ]] ||
      skip "cross-memory attach is forbidden here, so Open MPI cannot copy once" ;;
    openmpi-tree) [[ -f $openmpi_tree/CMakeCache.txt ]] || skip "no Open MPI build in $openmpi_tree (bash scripts/test.sh)" ;;
  esac
done
if ((in_source)); then
  [[ $part == smpi && $build == "$(cd "$root/build-smpi" 2> /dev/null && pwd)" ]] ||
    skip "its commands configure build-smpi/ in the source tree, and this test's tree is $build"
fi

[[ $work != *[[:space:]]* ]] || fail "the scratch area's path has a blank: $work"
src=$work/src prefix=$work/prefix app=$build/tests/docs/docs_app
[[ -x $app ]] || fail "no $app (build the tree first)"

# The commands as they run.
listing=$(mktemp)
script=$listing
trap 'rm -f "$listing"' EXIT
{
  echo "set -e"
  echo "docs_newest() { ls -td \"\$@\" | head -n 1; }"
  if ((in_source)); then echo "cd $root"; else echo "cd $src"; fi
} > "$script"
installs=0 needs_prefix=0
collbench_word='(^|[[:space:]/])collbench([[:space:]]|$)' colltune_word='(^|[[:space:]/])colltune[[:space:]]'
for command in "${commands[@]}"; do
  record=$(awk -F'\t' -v c="$command" '$3 == "command" && $4 == c { print $1 ":" $2; exit }' <<< "$documented")
  [[ -n $record ]] || fail "no doc shows \`$command\` (tests/docs/check.sh)"
  # A developer's tool the project does not install: the commands before it run, then a skip.
  tool=''
  case $command in
    *valgrind* | *callgrind_annotate*) tool=valgrind ;;
    *clang-format*) tool=clang-format ;;
    *fastest_back_to_back.sh*) tool=jq ;;
  esac
  if [[ -n $tool ]] && ! command -v "$tool" > /dev/null; then
    printf 'echo "run.sh: %s: skipped from %s on: %s is not installed (not a dependency)"; exit 77\n' \
      "$test" "$record" "$tool" >> "$script"
    break
  fi
  [[ $command == *"cmake --install"* ]] && installs=1
  [[ $command =~ (^|[[:space:]])collectives-(run|tune|calibrate)[[:space:]] || $command == *"<prefix>"* ||
    $command == *"/opt/collectives"* ]] && needs_prefix=1
  text=$command
  text=${text//\/opt\/collectives/$prefix}
  text=${text//<prefix>/$prefix}
  text=${text//\/tmp\//$work/tmp/}
  text=$(sed -E "s#(^|[[:space:]])(\./app|\./my_app|your-program)([[:space:]]|\$)#\1$app\3#g;
    s#results/<date>-([A-Za-z0-9_.-]+)#\$(docs_newest results/*-\1)#g" <<< "$text")
  # collbench measuring, and colltune pricing schedules (--model): the smallest size only, and
  # collbench for 0.05 s per size, as COLLECTIVES_SMOKE does in the scripts.
  program=''
  [[ $text =~ $collbench_word && ! $text =~ --list|--draw ]] && program=collbench
  [[ $text =~ $colltune_word && $text == *--model* ]] && program=colltune
  if ((smoke)) && [[ -n $program && $text != cmake\ * ]]; then
    min=$(sed -nE 's/.*[[:space:]](-b|--min-bytes)[[:space:]=]+([^[:space:]]+).*/\2/p' <<< "$text")
    text=$(sed -E 's/[[:space:]](-e|--max-bytes|--time-per-size)[[:space:]=]+[^[:space:]]+//g' <<< "$text")
    text="$text --max-bytes ${min:-8}"
    [[ $program == collbench ]] && text="$text --time-per-size 0.05"
  fi
  {
    printf 'cat >&2 <<'"'"'DOCS_COMMAND'"'"'\ndocs: %s: %s\nDOCS_COMMAND\n' "$record" "$command"
    printf '%s\n' "$text"
    awk -F'\t' -v r="$record" '$3 == "body" && $1 ":" $2 == r { print $4 }' <<< "$documented"
  } >> "$script"
done
if ((list)); then
  cat "$script"
  exit 0
fi
rm -rf "$work"
mkdir -p "$work/tmp"
mv "$script" "$work/commands.sh"
script=$work/commands.sh

# The scratch copy of the source tree, with the suite's build trees.
if ! ((in_source)); then
  mkdir -p "$src"
  (cd "$root" && git ls-files -z --cached --others --exclude-standard) |
    (cd "$root" && tar --null --ignore-failed-read -T - -cf - 2> /dev/null) | tar -xf - -C "$src"
  [[ -f $src/CMakeLists.txt ]] || fail "the copy of the source tree failed (git ls-files in $root)"
  for pair in "build:$openmpi_tree" "build-smpi:$smpi_tree"; do
    name=${pair%%:*} tree=${pair#*:}
    [[ " ${fresh[*]} " == *" $name "* || ! -f $tree/CMakeCache.txt ]] || ln -s "$tree" "$src/$name"
  done
  # clang-format's line: git ls-files in the copy.
  [[ $test == docs.format ]] && (cd "$src" && git init -q && git add -A)
fi

# The files the docs assume.
if ((in_source)); then cd "$root"; else cd "$src"; fi
if ((needs_prefix && !installs)); then
  cmake --install "$build" --prefix "$prefix" > "$work/install.log"
fi
((needs_prefix || installs)) && export PATH=$prefix/bin:$PATH
if grep -q -- '-f hosts\|--hostfile hosts' "$script"; then
  if [[ $part == mpich ]]; then echo "localhost:8" > hosts; else echo "localhost slots=8" > hosts; fi
fi
if grep -q 'mine\.xml' "$script"; then
  mpi=$part
  [[ $mpi == smpi ]] || mpi=openmpi
  COLLECTIVES_MPI=$mpi bash scripts/mpirun/calibrate.sh --from "$root/tests/calibrate/tcp-two-nodes.json" \
    --topology fat-tree:32x32 --cores-per-node 16 -o mine.xml > "$work/mine.log" 2>&1 ||
    { cat "$work/mine.log" >&2; fail "the fixture mine.xml: calibrate.sh --from failed"; }
fi
if grep -q 'build-nohooks' "$script"; then
  cmake -S . -B build-nohooks -DCOLLECTIVES_TRACE_HOOKS=OFF -DCOLLECTIVES_BUILD_TESTS=OFF -DCMAKE_UNITY_BUILD=ON \
    > "$work/nohooks.log" && cmake --build build-nohooks --target trace_overhead -j "$(nproc)" >> "$work/nohooks.log" ||
    { cat "$work/nohooks.log" >&2; fail "the fixture build-nohooks failed"; }
fi

# A user's shell: no part chosen for them, the test's smoke setting, mpirun allowed as root and
# oversubscribed, compiles through ccache.
unset COLLECTIVES_MPI COLLECTIVES_TUNING COLLECTIVES_ALGORITHMS
if ((smoke)); then export COLLECTIVES_SMOKE=1; else unset COLLECTIVES_SMOKE; fi
export OMPI_MCA_rmaps_base_oversubscribe=1
[[ $(id -u) == 0 ]] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [[ -z ${CMAKE_CXX_COMPILER_LAUNCHER:-} ]] && command -v ccache > /dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
  export CCACHE_DIR=${CCACHE_DIR:-$root/.deps/ccache} CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros}
fi
export CCACHE_BASEDIR=$(dirname "$work")
start=$SECONDS
bash "$script"
echo "run.sh: $test: ${#commands[@]} commands in $((SECONDS - start)) s"
