#!/usr/bin/env bash
# The algorithm comparison, in one command: installs what is missing, builds collbench if needed, runs every collective ×
# algorithm (the library's, automatic, vendor's default and vendor's internal ones) at np = 2 and 4,
# and writes results/<date>/:
#   np<p>.json      collbench's output per process count (with the α-β-γ model)
#   results.csv     every row, collbench's CSV columns
#   results.json    {"runs": [...]}: the np<p>.json files together
#   report.md       per collective: median time per algorithm and size, the best per size,
#                   speedup over vendor, model against measurement, plots
#   plots/*.png     latency and busbw against size, log-log, per collective and np (gnuplot)
# A process count above the machine's cores runs oversubscribed; the report says so.
# COLLECTIVES_MPI=mpich compares against MPICH instead of Open MPI (set up by scripts/bootstrap.sh);
# its idle ranks spin, so oversubscribed runs (np 4 on 2 cores) are slow and noisy.
#
# Usage: scripts/mpirun/compare.sh [--quick] [--np "2 4"] [--build-dir DIR] [--out DIR] [-- OPTIONS]
#   --quick          a smoke run, under a minute: 8 B … 512 KiB by ×4, 0.05 s per size
#                    (default: 8 B … 16 MiB by ×2, 0.5 s per size: under 10 minutes on 2 cores)
#   --np "LIST"      process counts (default "2 4"; at 1, busbw is 0 but for broadcast and reduce,
#                    and those busbw plots are left out)
#   --build-dir DIR  the CMake build directory (default build/, or build-mpich/ with
#                    COLLECTIVES_MPI=mpich; configured with the bench if needed)
#   --out DIR        where to write (default results/<date>, or results/<date>-<time> if taken)
#   -- OPTIONS       passed on to collbench, e.g. -- -t double -c allreduce,broadcast
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
mpi=${COLLECTIVES_MPI:-openmpi}
build=$root/build
[[ $mpi == mpich ]] && build=$root/build-mpich
out=
nps="2 4"
quick=0
extra=()
while (($#)); do
  case $1 in
    --quick) quick=1 ;;
    --np) nps=$2; shift ;;
    --build-dir) build=$2; shift ;;
    --out) out=$2; shift ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if ((quick)); then
  sizes=(--min-bytes 8 --max-bytes 512K --step 4 --time-per-size 0.05 --min-iterations 3)
else
  sizes=(--min-bytes 8 --max-bytes 16M --step 2 --time-per-size 0.5 --min-iterations 5)
fi
# Install whatever is missing (MPI, CMake, fmt, CLI11, nlohmann-json, gnuplot, ...).
bash "$root/scripts/bootstrap.sh"

start=$SECONDS
# Build if needed: configure once with the bench on, then let the build tool decide what is stale.
if [[ ! -f $build/CMakeCache.txt ]] || ! grep -q '^COLLECTIVES_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt"; then
  cmake -S "$root" -B "$build" -DCOLLECTIVES_BUILD_BENCH=ON -DCOLLECTIVES_MPI="$mpi" > /dev/null
fi
configured=$(sed -n 's/^COLLECTIVES_MPI:STRING=//p' "$build/CMakeCache.txt")
if [[ ${configured:-openmpi} != "$mpi" ]]; then
  echo "compare.sh: $build is built with ${configured:-openmpi}, not COLLECTIVES_MPI=$mpi (see --build-dir)" >&2
  exit 2
fi
cmake --build "$build" --target collbench collreport -j "$(nproc)" > /dev/null

latest=
if [[ -z $out ]]; then
  out=$root/results/$(date +%F)
  [[ -e $out ]] && out=$out-$(date +%H%M%S)
  latest=$root/results/latest
fi
mkdir -p "$out"

# Every algorithm and the vendor's internals, plus automatic, so the report shows how the
# library's own choice fares against the best; unless the caller picks algorithms after --.
algorithms=(--algorithm all,automatic)
for arg in "${extra[@]}"; do
  [[ $arg == -a* || $arg == --algorithm* ]] && algorithms=()
done

cores=$(nproc)
jsons=()
for np in $nps; do
  note=""
  ((np > cores)) && note=" (oversubscribed: $np ranks on $cores cores)"
  ((np > cores)) && [[ $mpi == mpich ]] && note+=" — slow: MPICH's waiting ranks spin"
  echo "compare.sh: np = $np$note" >&2
  "$root/scripts/mpirun/run" -n "$np" "$build/bench/collbench" --model --format json --output "$out/np$np.json" \
    "${sizes[@]}" "${algorithms[@]}" "${extra[@]}"
  jsons+=("$out/np$np.json")
done

"$build/bench/collreport" --out "$out" "${jsons[@]}"
(cd "$out/plots" && gnuplot plots.gp)
[[ -n $latest ]] && ln -sfn "$(basename "$out")" "$latest"
echo "compare.sh: $out/report.md ($((SECONDS - start)) s)" >&2
